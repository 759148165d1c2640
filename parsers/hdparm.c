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
 *
 * and warnings printed around them ("HDIO_DRIVE_CMD(identify) failed: ...",
 * "SG_IO: bad/missing sense data, ...").
 *
 * Units, from hdparm.c: total_MB counts TIMING_BUF_MB = 2 MiB reads, and
 * the rate is printed as "%6.2f MB/sec" of total_MB / elapsed, or, below
 * 1 MB/s, "%6.2f kB/sec" of total_MB / elapsed * 1024.  So "MB" is MiB and
 * "kB" is KiB.  The printed rate is used (it comes from the unrounded
 * elapsed time); bytes and runtime are kept as printed too.
 *
 * -T (cached, buffer-cache) -> op cachedread; -t (disk) -> op read.
 * Labels: device (header, else the only device of the command line),
 * direct=1 for O_DIRECT (else 0), command.
 */
#include "parser.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct hdparm_state {
	char *device;		/* from the last header or command line */
	char *command;
};

static int hdparm_detect(const struct input *in)
{
	for (size_t i = 0; i < in->nlines; i++)
		if (starts_with(in->lines[i].text, "Timing ") &&
		    strstr(in->lines[i].text, "reads:"))
			return 80;
	return 0;
}

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/* "hdparm -tT --direct /dev/sda": remember it, and its one device. */
static int read_command(struct hdparm_state *st, const char *text)
{
	struct shell_cmd cmd;
	const char *p, *end;
	char *w, *device = NULL;
	int devices = 0;

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
	set_str(&st->device, devices == 1 ? device : NULL);
	free(device);
	return 1;
}

/* "/dev/sda:" alone on a line. */
static int read_header(struct hdparm_state *st, const char *text)
{
	size_t n = strlen(text);

	if (n < 3 || text[0] != '/' || text[n - 1] != ':' ||
	    strchr(text, ' '))
		return 0;
	free(st->device);
	st->device = xstrndup(text, n - 1);
	return 1;
}

static int is_warning(const char *text)
{
	return starts_with(text, "HDIO_") || starts_with(text, "SG_IO:") ||
	       starts_with(text, "BLKFLSBUF") || starts_with(text, "BLKGETSIZE");
}

struct timing {
	const char *op;
	int direct;
	uint64_t mb;
	double seconds, rate, rate_unit;
};

/* Parses "Timing ... reads: N MB in S seconds = R MB/sec"; -1 on error. */
static int read_timing(const char *text, struct timing *t, const char **why)
{
	const char *p = text + strlen("Timing ");

	t->direct = skip_prefix(&p, "O_DIRECT ");
	if (skip_prefix(&p, "cached reads:") ||
	    skip_prefix(&p, "buffer-cache reads:"))
		t->op = "cachedread";
	else if (skip_prefix(&p, "buffered disk reads:") ||
		 skip_prefix(&p, "disk reads:"))
		t->op = "read";
	else
		return *why = "unknown hdparm timing", -1;
	p = skip_spaces(p);
	if (scan_u64(&p, &t->mb))
		return *why = "expected the MB count", -1;
	p = skip_spaces(p);
	if (!skip_prefix(&p, "MB in"))
		return *why = "expected 'MB in'", -1;
	p = skip_spaces(p);
	if (scan_double(&p, 0, &t->seconds))
		return *why = "expected the seconds", -1;
	p = skip_spaces(p);
	if (!skip_prefix(&p, "seconds ="))
		return *why = "expected 'seconds ='", -1;
	p = skip_spaces(p);
	if (scan_double(&p, 0, &t->rate))
		return *why = "expected the rate", -1;
	p = skip_spaces(p);
	if (skip_prefix(&p, "MB/sec"))
		t->rate_unit = MIB;
	else if (skip_prefix(&p, "kB/sec"))
		t->rate_unit = KIB;
	else
		return *why = "expected 'MB/sec' or 'kB/sec'", -1;
	if (*skip_spaces(p))
		return *why = "unexpected text after the rate", -1;
	return 0;
}

static void label(struct measurement *m, const struct hdparm_state *st,
		  const struct timing *t)
{
	labels_set(&m->labels, "direct", t->direct ? "1" : "0");
	if (st->device)
		labels_set(&m->labels, "device", st->device);
	if (st->command)
		labels_set(&m->labels, "command", st->command);
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

static int hdparm_parse(struct parse_ctx *ctx)
{
	struct hdparm_state st = { NULL, NULL };
	int emitted = 0;

	for (size_t i = 0; i < ctx->in->nlines; i++) {
		const char *text = ctx->in->lines[i].text;
		struct timing t;
		const char *why;

		if (read_command(&st, text) || read_header(&st, text) ||
		    is_warning(text)) {
			parse_claim(ctx, i);
			continue;
		}
		if (!starts_with(text, "Timing ") || !strstr(text, "reads:"))
			continue;
		parse_claim(ctx, i);
		if (read_timing(text, &t, &why)) {
			parse_error(ctx, i, "unreadable hdparm timing: %s", why);
			continue;
		}
		emitted += emit_timing(ctx, i, &st, &t);
	}
	free(st.device);
	free(st.command);
	return emitted;
}

const struct parser parser_hdparm = {
	.name = "hdparm",
	.detect = hdparm_detect,
	.parse = hdparm_parse,
};
