/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hdparm -t / -T timings.
 *
 * Accepted, verbatim (leading blanks, quote markers and prompts are taken
 * off by the input layer):
 *
 *   # hdparm -tT /dev/sda                       command line (optional)
 *   /dev/sda:                                   device header (optional)
 *    Timing cached reads:   15596 MB in  2.00 seconds = 7805.35 MB/sec
 *    Timing buffered disk reads: 362 MB in  3.01 seconds = 120.33 MB/sec
 *    Timing buffer-cache reads:   128 MB in  3.16 seconds = 40.51 MB/sec
 *    Timing O_DIRECT cached reads:   942 MB in  2.00 seconds = 470.62 MB/sec
 *    Timing O_DIRECT disk reads:   2 MB in 19.21 seconds = 106.63 kB/sec
 *    Timing buffered disk reads (offset 37 GB):  80 MB in  3.05 seconds =  26.26 MB/sec
 *   BusyBox:
 *   Timing buffer-cache reads:   524 MB in 0.50 seconds = 1052111 kB/s
 *   Timing buffered disk reads:  358 MB in 3.00 seconds = 122132 kB/s
 *   A raw quoted-printable mail (Debian bug archives), '=' as "=3D":
 *    Timing cached reads:   118 MB in  2.00 seconds =3D  58.91 MB/sec
 *   A line wrapped by a mail client (the rest is joined back):
 *   	Timing buffer-cache reads:   128 MB in  0.96 seconds =133.33
 *   MB/sec
 *   The blanks around '=' lost when a book was typeset (a translated
 *   Linux hardware guide):
 *   Timing cached reads:   11810 MB in 2.00 seconds=5916.78 MB/sec
 *   A full stop ending the poster's sentence (hdparm prints none; it is
 *   taken only as the line's last character, so it cannot be part of a
 *   figure):
 *   Timing buffered disk reads: 64 MB in 1.09 seconds = 58.57 MB/sec.
 *   The output written as comments under the command, in a README (or
 *   "-- " in SQL notes):
 *   $ hdparm -Tt --direct /dev/nvme0n1
 *   # Timing O_DIRECT cached reads:   6324 MB in  2.00 seconds = 3163.52 MB/sec
 *   A Markdown list, one item a device (the input layer takes the bullet
 *   off the timings):
 *   * /dev/sdb:
 *     * Timing cached reads:   8574 MB in  2.00 seconds = 4297.24 MB/sec
 *   Timings run together, by a page that lost its line breaks or a mail
 *   client that rewrapped them (the label it pulled up, "on 2.6:", titles
 *   the timings after it; the next run's prompt and command may follow):
 *   >>   Timing buffer-cache reads:   168 MB in  2.01 seconds =  83.58
 *   >> MB/sec Timing buffered disk reads:   44 MB in  3.12 seconds =
 *   >> 14.10 MB/sec on 2.6:
 *   Timing cached reads: 688 MB in 2.00 seconds = 343.59 MB/sec u@h:~$ ...
 *
 * and warnings printed around them ("HDIO_DRIVE_CMD(identify) failed: ...",
 * "SG_IO: bad/missing sense data, ...", "read() hit EOF - device too
 * small").  A timing that failed carries hdparm's message instead of its
 * figures, and is noted as no result:
 *
 *    Timing buffered disk reads: read() hit EOF - device too small
 *
 * Units, from hdparm.c: total_MB counts TIMING_BUF_MB = 2 MiB reads, and
 * the rate is printed as "%6.2f MB/sec" of total_MB / elapsed, or, below
 * 1 MB/s, "%6.2f kB/sec" of total_MB / elapsed * 1024.  So "MB" is MiB and
 * "kB" is KiB.  BusyBox prints "%u kB/s" of MB * 1024 * 1000000 /
 * elapsed_us: KiB too.  The printed rate is used (it comes from the
 * unrounded elapsed time); bytes and runtime are kept as printed too.
 *
 * -T (cached, buffer-cache) -> op cachedread; -t (disk) -> op read.
 * Labels: device (header, else the only device of the command line),
 * direct=1 for O_DIRECT (else 0), command, offset (bytes; --offset counts
 * GiB) when -t read away from the start.
 *
 * A command line labels only the output it printed.  hdparm heads each
 * device's output with the name as given ("\n%s:\n"), so a header that no
 * word of the command names (nor matches as a glob) is another run's; and
 * another command after a prompt ("pi@host:~ $ curl ... | sudo bash")
 * means what follows is its output: command and device are forgotten
 * until the next header or hdparm command.  So they are at a heading
 * (a title over a rule, as a one-cell Markdown table's header comes, or
 * "## title"): the outputs under it are its setup's, and a how-to's
 * "hdparm -Tt /dev/nvme0n1" above tables of three machines is none of
 * theirs.
 *
 * A timing with the same figures as one before it, with prose in between
 * (a forum reply quoting the first post, a line quoted again under "the
 * SSD reads at 500 MB/s:"), is a copy: noted, not counted.  Runs one after another, with only blank lines,
 * prompts, commands and hdparm's own lines between them, stay runs even
 * when they print the same figures: with two decimals they often do
 * (fixture 0021: "134 MB in  3.01 seconds =  44.46 MB/sec" twice).
 */
#include "parser.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

struct hdparm_state {
	char *device;		/* from the last header or command line */
	char *command;		/* the hdparm command printing this output */
	char *title;		/* a label a mail's wrap pulled up: see
				 * wrapped_title() */
	size_t args;		/* where its arguments start in command */
	size_t series;		/* first line after the last prose line */
};

/* "Timing ... reads: ..." or "Timing ... reads (offset N GB): ..." */
static int is_timing_line(const char *text)
{
	return starts_with(text, "Timing ") &&
	       (strstr(text, "reads:") || strstr(text, "reads (offset "));
}

/*
 * Past a comment marker ("# ", "-- ") at the start of text: a README
 * shows "$ hdparm ..." and the output as "# Timing ..." comments, SQL
 * notes as "-- Timing ..." ones, and hdparm's wording cannot be a
 * comment about anything else.
 */
static const char *past_comment(const char *text)
{
	if (text[0] == '#' && (text[1] == ' ' || text[1] == '\t'))
		return skip_spaces(text + 1);
	if (text[0] == '-' && text[1] == '-' &&
	    (text[2] == ' ' || text[2] == '\t'))
		return skip_spaces(text + 2);
	return text;
}

/* The "Timing ..." text of a timing line, or NULL. */
static const char *timing_text(const char *text)
{
	text = past_comment(text);
	return is_timing_line(text) ? text : NULL;
}

static int hdparm_detect(const struct input *in)
{
	if (!input_contains(in, "Timing ") || !input_contains(in, "reads"))
		return 0;
	for (size_t i = 0; i < in->nlines; i++)
		if (timing_text(in->lines[i].text))
			return 80;
	return 0;
}

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/* "hdparm -tT --direct /dev/sda": remember it, and its one device. */
static int read_command(void *state, const char *text, size_t li)
{
	struct hdparm_state *st = state;
	struct shell_cmd cmd;
	const char *p, *end;
	char *w, *device = NULL;
	int devices = 0;

	(void)li;
	if (!shell_find(text, "hdparm", &cmd, 1))
		return 0;
	p = cmd.args;
	end = cmd.prog + cmd.len;
	while ((w = shell_next_word(&p, end))) {
		if (w[0] == '/') {
			devices++;
			set_str(&device, w);
		}
		free(w);
	}
	free(st->command);
	st->command = shell_cmd_text(&cmd);
	set_str(&st->title, NULL);
	st->args = (size_t)(cmd.args - cmd.prog);
	set_str(&st->device, devices == 1 ? device : NULL);
	free(device);
	return 1;
}

static void forget_command(struct hdparm_state *st)
{
	set_str(&st->command, NULL);
	set_str(&st->device, NULL);
	set_str(&st->title, NULL);
}

/*
 * Can "device:" head the output of st's command?  It can when a word of
 * the command is the device, or a glob the shell expanded to it; a word
 * the shell substitutes ("$DISK", "`ls /dev/sd?`") could be any device.
 */
static int command_names(const struct hdparm_state *st, const char *device)
{
	const char *p = st->command + st->args, *end = p + strlen(p);
	char *w;
	int named = 0;

	while (!named && (w = shell_next_word(&p, end))) {
		named = strpbrk(w, "$`") || !fnmatch(w, device, FNM_PATHNAME);
		free(w);
	}
	return named;
}

/*
 * A command after a shell prompt that is not hdparm: what follows is
 * its output.  A line after a bare '#' is left out: in a README that is
 * a comment as often as a root prompt.
 */
static int is_other_command(const char *text)
{
	const char *after = line_after_prompt(text);

	return after != text && *after && text[0] != '#';
}

/*
 * A line that is none of hdparm's: another command ends the output of
 * the one before; prose ends a series of runs.
 */
static void other_line(struct hdparm_state *st, size_t li, const char *text)
{
	if (is_other_command(text)) {
		forget_command(st);
	} else if (*text && line_after_prompt(text) == text) {
		st->series = li + 1;
		set_str(&st->title, NULL);
	}
}

/*
 * A mail client that rewrapped a paragraph pulls the label standing
 * over the next output up onto the line the rate was wrapped onto
 * ("14.10 MB/sec on 2.6:" over the 2.6 kernel's timings).  Such a tail,
 * short and ending in ':', is the title of the timings after it, as it
 * was before the wrap; NULL when rest is none.
 */
static char *wrapped_title(const char *rest)
{
	size_t n = strlen(rest), words = 1;

	if (n < 2 || n > 60 || rest[n - 1] != ':' || rest[n - 2] == ':' ||
	    strchr(rest, '='))
		return NULL;
	for (size_t k = 0; k + 1 < n; k++)
		if ((rest[k] == ' ' || rest[k] == '\t') && rest[k + 1] != ' ')
			words++;
	return words <= 6 ? xstrndup(rest, n - 1) : NULL;
}

/*
 * A setting hdparm prints before the timings (-v, or -a, -r...):
 * " readahead     = 256 (on)", " geometry      = 1020/239/62, ...".
 * hdparm's own output, not prose between runs.
 */
static int is_setting_line(const char *text)
{
	const char *p = text;

	if (!isalpha((unsigned char)*p))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
		p++;
	if (*p != ' ' && *p != '\t')
		return 0;
	p = skip_spaces(p);
	return p[0] == '=' && p[1] == ' ';
}

/*
 * "/dev/sda:" alone on a line, or with the poster's note after it
 * ("/dev/sda1: (Dell Utility)"); also as a list item ("* /dev/sdb:" over
 * "  * Timing cached reads: ...": the input layer takes a bullet off
 * only before a known output line) or a comment ("-- /dev/sda4:").
 */
static int read_header(struct hdparm_state *st, const char *text)
{
	size_t n;

	if (strchr("*-+", text[0]) && (text[1] == ' ' || text[1] == '\t'))
		text = skip_spaces(text + 1);
	else
		text = past_comment(text);
	n = strlen(text);
	/* "/dev/sda1: (Dell Utility)": the poster's note after it */
	if (starts_with(text, "/dev/") && text[n - 1] == ')') {
		const char *b = strchr(text, ' '), *o = b ? skip_spaces(b) : NULL;

		if (b && b[-1] == ':' && *o == '(' && !strchr(o + 1, '(') &&
		    strchr(o, ')') == text + n - 1)
			n = (size_t)(b - text);
	}

	if (n < 3 || text[0] != '/' || text[n - 1] != ':' ||
	    memchr(text, ' ', n))
		return 0;
	free(st->device);
	st->device = xstrndup(text, n - 1);
	if (st->command && !command_names(st, st->device))
		set_str(&st->command, NULL);	/* another run's output */
	return 1;
}

static int is_warning(const char *text)
{
	return starts_with(text, "HDIO_") || starts_with(text, "SG_IO:") ||
	       starts_with(text, "BLKFLSBUF") ||
	       starts_with(text, "BLKGETSIZE") || starts_with(text, "read(") ||
	       starts_with(text, "lseek() failed");
}

struct timing {
	const char *op;
	int direct;
	int has_offset;
	uint64_t offset_gib;	/* --offset: where -t reads, in GiB */
	uint64_t mb;
	double seconds, rate, rate_unit;
};

enum timing_status {
	TIMING_OK,
	TIMING_BAD,	/* *why says what is wrong */
	TIMING_CUT,	/* the line ends before the rate: wrapped? */
	TIMING_FAILED,	/* hdparm's message where the figures go: *why */
};

/*
 * "cached reads:", "O_DIRECT disk reads:", "buffered disk reads (offset
 * 37 GB):"...: sets t->op, t->direct and the offset.
 */
static int read_label(const char **p, struct timing *t)
{
	t->direct = skip_prefix(p, "O_DIRECT ");
	t->has_offset = 0;
	t->offset_gib = 0;	/* part of is_copy()'s key */
	if (skip_prefix(p, "cached reads:") ||
	    skip_prefix(p, "buffer-cache reads:")) {
		t->op = "cachedread";
		return 1;
	}
	if (!skip_prefix(p, "buffered disk reads") &&
	    !skip_prefix(p, "disk reads"))
		return 0;
	t->op = "read";
	if (skip_prefix(p, " (offset ")) {
		if (scan_u64(p, &t->offset_gib) || !skip_prefix(p, " GB)"))
			return 0;
		t->has_offset = 1;
	}
	return skip_prefix(p, ":");
}

/* "MB/sec", "kB/sec" (hdparm), "kB/s" (BusyBox). */
static int read_rate_unit(const char **p, struct timing *t)
{
	if (skip_prefix(p, "MB/sec"))
		t->rate_unit = MIB;
	else if (skip_prefix(p, "kB/sec") || skip_prefix(p, "kB/s"))
		t->rate_unit = KIB;
	else
		return 0;
	return 1;
}

/*
 * Reads "N MB in S seconds = R MB/sec" at p; *rest is what follows the
 * rate on the line (the caller judges it: see after_rate()).
 */
static enum timing_status read_figures(const char *p, struct timing *t,
				       const char **why, const char **rest)
{
	if (scan_u64(&p, &t->mb))
		return *why = "expected the MB count", TIMING_BAD;
	p = skip_spaces(p);
	if (!skip_prefix(&p, "MB in"))
		return *why = "expected 'MB in'", TIMING_BAD;
	p = skip_spaces(p);
	if (scan_double(&p, 0, &t->seconds))
		return *why = "expected the seconds", TIMING_BAD;
	p = skip_spaces(p);
	if (!skip_prefix(&p, "seconds"))
		return *why = "expected 'seconds ='", TIMING_BAD;
	p = skip_spaces(p);	/* "seconds=5916.78": blanks lost in print */
	if (!skip_prefix(&p, "="))
		return *why = "expected 'seconds ='", TIMING_BAD;
	if (p[0] == '3' && p[1] == 'D' &&
	    (p[2] == ' ' || (p[2] >= '0' && p[2] <= '9')))
		p += 2;	/* "=3D": '=' in a quoted-printable mail */
	p = skip_spaces(p);
	if (!*p)	/* "seconds =" and the rate wrapped onto the next line */
		return *why = "expected the rate", TIMING_CUT;
	if (scan_double(&p, 0, &t->rate))
		return *why = "expected the rate", TIMING_BAD;
	p = skip_spaces(p);
	if (!*p)
		return *why = "expected 'MB/sec' or 'kB/sec'", TIMING_CUT;
	if (!read_rate_unit(&p, t))
		return *why = "expected 'MB/sec' or 'kB/sec'", TIMING_BAD;
	if (*p == '.' && !*skip_spaces(p + 1))
		p++;	/* "58.57 MB/sec." ending a sentence in a post */
	if (*p && *p != ' ' && *p != '\t')
		return *why = "unexpected text after the rate", TIMING_BAD;
	*rest = skip_spaces(p);
	return TIMING_OK;
}

/* Parses "Timing ... reads: N MB in S seconds = R MB/sec". */
static enum timing_status read_timing(const char *text, struct timing *t,
				      const char **why, const char **rest)
{
	const char *p = text + strlen("Timing ");

	if (!read_label(&p, t))
		return *why = "unknown hdparm timing", TIMING_BAD;
	p = skip_spaces(p);
	if (*p && (*p < '0' || *p > '9'))
		return *why = p, TIMING_FAILED;
	return read_figures(p, t, why, rest);
}

/*
 * A timing whose line ends before the rate's unit, as in mail wrapped at
 * 72 columns: reads it again (text, on line li) with the next line
 * joined.  On success the next line is claimed, *rest points into its
 * text and 1 is returned.
 */
static int read_wrapped(struct parse_ctx *ctx, size_t li, const char *text,
			struct timing *t, const char **rest)
{
	const char *next, *why, *r;
	char *joined;
	size_t head = strlen(text) + 1;
	int ok;

	if (li + 1 >= ctx->in->nlines)
		return 0;
	next = ctx->in->lines[li + 1].text;
	if (starts_with(next, "Timing "))
		return 0;
	joined = xstrfmt("%s %s", text, next);
	ok = read_timing(joined, t, &why, &r) == TIMING_OK &&
	     (size_t)(r - joined) >= head;
	if (ok) {
		*rest = next + (r - joined - head);
		parse_claim(ctx, li + 1);
	}
	free(joined);
	return ok;
}

enum rest_kind {
	REST_NONE,	/* the line ends after the rate */
	REST_TIMING,	/* the next timing, run together with it */
	REST_COMMAND,	/* a prompt and a command glued to the output */
	REST_PROSE,	/* text a wrapped mail line brought up with it */
	REST_BAD,
};

/*
 * What follows a timing's rate on its line.  On a page that lost its
 * line breaks the next timing, or the prompt and command of the next
 * run ("... = 343.59 MB/sec user@host:~$ sudo hdparm -tT /dev/sda"),
 * follows it; on the line a mail client wrapped the rate onto, the
 * sentence that followed it ("14.10 MB/sec on 2.6:").  Anything else
 * after hdparm's own line is not hdparm's: an error, as before.
 */
static enum rest_kind after_rate(const char *rest, int wrapped)
{
	struct timing t = { 0 };

	if (!*rest)
		return REST_NONE;
	if (starts_with(rest, "Timing ")) {
		const char *p = rest + strlen("Timing ");

		if (read_label(&p, &t))
			return REST_TIMING;
	}
	/* (a bare '#' is a comment as often as a root prompt) */
	if (line_after_prompt(rest) != rest && rest[0] != '#')
		return REST_COMMAND;
	return wrapped ? REST_PROSE : REST_BAD;
}

static void label(struct measurement *m, const struct hdparm_state *st,
		  const struct timing *t)
{
	labels_set(&m->labels, "direct", t->direct ? "1" : "0");
	if (t->has_offset)
		labels_setf(&m->labels, "offset", "%.0f",
			    (double)t->offset_gib * GIB);
	if (st->device)
		labels_set(&m->labels, "device", st->device);
	if (st->command)
		labels_set(&m->labels, "command", st->command);
	if (st->title)
		labels_set(&m->labels, "section", st->title);
}

static int emit_timing(struct parse_ctx *ctx, size_t li,
		       const struct hdparm_state *st, const struct timing *t)
{
	struct measurement *m;

	if (t->seconds <= 0) {
		parse_error(ctx, li, "hdparm timing with no elapsed time");
		return 0;
	}
	m = parse_emit(ctx, li, "hdparm", t->op, "bw", UNIT_BW,
		       t->rate * t->rate_unit);
	label(m, st, t);
	m = parse_emit(ctx, li, "hdparm", t->op, "bytes", UNIT_BYTES,
		       (double)t->mb * MIB);
	label(m, st, t);
	m = parse_emit(ctx, li, "hdparm", t->op, "runtime", UNIT_SECONDS,
		       t->seconds);
	label(m, st, t);
	return 3;
}

/*
 * Is the timing at li one seen before this series of runs began?  Then
 * it is that output quoted or pasted again (see the top comment).  The
 * figures alone decide: a line quoted again under prose has often lost
 * its command, or its "/dev/sda:" header too, or sits under another
 * command's output, and two runs do not print the same MB count, time
 * and rate.
 */
static int is_copy(struct parse_ctx *ctx, const struct hdparm_state *st,
		   size_t li, const struct timing *t)
{
	char *key = xstrfmt("hdparm\037%s %d %d %llu %llu %.17g %.17g %.17g",
			    t->op, t->direct, t->has_offset,
			    (unsigned long long)t->offset_gib,
			    (unsigned long long)t->mb, t->seconds, t->rate,
			    t->rate_unit);
	size_t orig;
	int seen = parse_seen(ctx, key, li, &orig);

	free(key);
	if (!seen || orig >= st->series)
		return 0;
	parse_note(ctx, li, "the same hdparm output as line %u (quoted or "
		   "pasted again): not counted twice",
		   ctx->in->lines[orig].lineno);
	return 1;
}

/*
 * The timings from s (a timing's text on line li) on: one, or several a
 * reflowed page or a wrapped mail ran together.  Returns the last line
 * used.
 */
static size_t read_timings(struct parse_ctx *ctx, struct hdparm_state *st,
			   size_t li, const char *s, int *emitted)
{
	for (;;) {
		struct timing t = { 0 };
		enum timing_status status;
		enum rest_kind kind;
		const char *why, *rest = "";
		int wrapped = 0;

		status = read_timing(s, &t, &why, &rest);
		if (status == TIMING_CUT &&
		    read_wrapped(ctx, li, s, &t, &rest)) {
			status = TIMING_OK;
			wrapped = 1;
		}
		if (status == TIMING_FAILED) {
			parse_note(ctx, li, "hdparm failed (%s): no result",
				   why);
			return li;
		}
		kind = status == TIMING_OK ? after_rate(rest, wrapped) :
					     REST_BAD;
		if (status == TIMING_OK && kind == REST_BAD)
			why = "unexpected text after the rate";
		if (kind == REST_BAD) {
			parse_error(ctx, li, "unreadable hdparm timing: %s",
				    why);
			return li;
		}
		li += (size_t)wrapped;
		if (!is_copy(ctx, st, li - (size_t)wrapped, &t))
			*emitted += emit_timing(ctx, li - (size_t)wrapped, st,
						&t);
		if (kind == REST_COMMAND && !read_command(st, rest, li))
			forget_command(st);
		if (kind == REST_PROSE) {
			other_line(st, li, rest);
			st->title = wrapped_title(rest);
		}
		if (kind != REST_TIMING)
			return li;
		s = rest;
	}
}

static int hdparm_parse(struct parse_ctx *ctx)
{
	struct hdparm_state st = { NULL, NULL, NULL, 0, 0 };
	int emitted = 0;

	for (size_t i = 0; i < ctx->in->nlines; i++) {
		const char *text = ctx->in->lines[i].text, *timing;

		if (parse_command_lines(ctx, &i, read_command, &st))
			continue;
		if (read_header(&st, text) || is_warning(text) ||
		    (st.device && is_setting_line(text))) {
			parse_claim(ctx, i);
			continue;
		}
		timing = timing_text(text);
		if (!timing) {
			if (parse_heading_line(ctx, i))
				forget_command(&st);	/* another setup */
			/* (an echo's output is no prose: shell.h) */
			if (!line_echoed_above(ctx->in, i))
				other_line(&st, i, text);
			continue;
		}
		parse_claim(ctx, i);
		i = read_timings(ctx, &st, i, timing, &emitted);
	}
	free(st.device);
	free(st.command);
	free(st.title);
	return emitted;
}

static const char *const hdparm_programs[] = { "hdparm", NULL };

const struct parser parser_hdparm = {
	.name = "hdparm",
	.tool = "hdparm",
	.reads = "hdparm -t / -T timings",
	.programs = hdparm_programs,
	.output_after_command = 1,
	.detect = hdparm_detect,
	.parse = hdparm_parse,
};
