/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Timings printed by the shell's time and by GNU /usr/bin/time.
 *
 * Accepted, verbatim:
 *
 *   bash/ksh     real	0m35.516s      (also 17m54.712s, 1m2,667s)
 *                user	0m0.050s
 *                sys	0m11.860s
 *   as comments  #real	3m31,415s       (a script keeping its timings as
 *                #user	0m0,678s         "#" comments: the whole triple only)
 *                #sys	0m3,180s
 *   BusyBox      real    1m 52.31s
 *   ELKS         Real 1m6.820s
 *   POSIX -p     real 35.51
 *   GNU default  0.00user 0.00system 0:01.02elapsed 99%CPU (0avgtext+...
 *   GNU -v       Command being timed: "encoder_example -k 1000 ..."
 *                User time (seconds): 102.38
 *                System time (seconds): 0.00
 *                Elapsed (wall clock) time (h:mm:ss or m:ss): 1:42.44
 *   zsh          dd if=/dev/zero of=x  0.01s user 0.50s system 99% cpu 0.512 total
 *                ... 7% cpu 2:41.07 total, 1:02:13.50 total, 0,00s user ... 3,008 total
 *   BSD, macOS   /usr/bin/time (and time in sh there):
 *                        0.95 real         1.86 user         0.19 sys
 *                247.99s real 1.92s user 48.64s system   (a much copied
 *                dd benchmark post; its shell is not named)
 *   tcsh, csh    4.176u 0.001s 0:05.09 81.9%	0+0k 0+0io 0pf+0w
 *                29.7u 0.0s 0:29 99% 0+0k 0+0io 0pf+0w
 *   fish         ________________________________________________________
 *                Executed in  118.76 secs    fish           external
 *                   usr time   50.88 secs   11.02 millis   50.87 secs
 *                   sys time   36.31 secs    0.08 millis   36.31 secs
 *                (units micros, millis, secs, mins; the first column is
 *                the total of fish and the external command)
 *
 * Metrics time.real, time.user, time.sys in seconds; op "run".  Label
 * command: the command that time ran, taken from a "time CMD" line above
 * the output (up to the previous timing), from GNU's "Command being
 * timed", or from the start of zsh's line.
 *
 * A "time CMD" line and the output under it that repeat earlier lines
 * exactly (a reply quoting the first post) are a copy: noted, not counted.
 */
#include "parser.h"
#include "pasted.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define COMMAND_LOOKBACK 400
_Static_assert(COMMAND_LOOKBACK + 1 <= PARSE_BEHIND,
	       "a timing's command is looked for within PARSE_BEHIND lines");

static int time_detect(const struct input *in)
{
	static const char *const marks[] = {
		"real", "Real", "elapsed", "Elapsed", " total", "pf+",
		"Executed in ", NULL
	};
	size_t k;

	for (k = 0; marks[k] && !input_contains(in, marks[k]); k++)
		;
	if (!marks[k])
		return 0;
	for (size_t i = 0; i < in->nlines; i++) {
		const char *t = in->lines[i].text;

		if (t[0] == '#')
			t = skip_spaces(t + 1);
		if (starts_with(t, "real") || starts_with(t, "Real") ||
		    strstr(t, "elapsed") || strstr(t, "Elapsed (wall") ||
		    strstr(t, " total") || strstr(t, " real ") ||
		    strstr(t, "pf+") ||
		    starts_with(t, "Executed in "))
			return 50;
	}
	return 0;
}

/*
 * A duration: "0m35.516s", "1m 52.31s", "1m2,667s", "35.51", "1h2m3s",
 * or the clock forms "1:42.44" and "1:02:03".  -1 when it is none.
 */
static int read_duration(const char *p, double *out)
{
	double total = 0, v;
	int parts = 0;

	for (;;) {
		p = skip_spaces(p);
		if (!*p)
			break;
		if (scan_double(&p, SCAN_COMMA_DECIMAL | SCAN_NO_EXPONENT,
				&v))
			return -1;
		parts++;
		if (*p == 'h')
			total += v * 3600, p++;
		else if (*p == 'm' && p[1] != 's')
			total += v * 60, p++;
		else if (*p == 's')
			return *skip_spaces(p + 1) ? -1 : (*out = total + v, 0);
		else if (*p == ':')
			total = (total + v) * 60, p++;
		else if (!*skip_spaces(p))
			return *out = total + v, 0;
		else
			return -1;
	}
	return parts ? (*out = total, 0) : -1;
}

/*
 * The text after a shell comment's '#' ("#real\t3m31,415s" in a script
 * that keeps its timings as comments), or NULL when text is no comment.
 */
static const char *comment_body(const char *text)
{
	return text[0] == '#' ? skip_spaces(text + 1) : NULL;
}

/*
 * "real 0m1.5s" -> which = "real"; -1 when the line is not one.  *commented
 * says whether the line was a "#" comment ("# real 0m1.5s"), which
 * read_bash_block() takes only as a whole real/user/sys triple.
 */
static int read_bash_line(const char *text, const char **which, double *v,
			  int *commented)
{
	static const char *const keys[] = { "real", "user", "sys" };
	const char *p, *body = comment_body(text);

	*commented = body != NULL;
	if (body)
		text = body;
	for (size_t k = 0; k < 3; k++) {
		p = text;
		if (skip_prefix_icase(&p, keys[k]) && (*p == ' ' || *p == '\t')) {
			*which = keys[k];
			return read_duration(p, v);
		}
	}
	return -1;
}

/* Past the "time " (or /usr/bin/time, command time, \\time) that p opens
 * with, after a "sudo "; NULL when it runs no time. */
static const char *past_time_word(const char *p)
{
	if (skip_prefix(&p, "sudo "))
		p = skip_spaces(p);
	if (skip_prefix(&p, "time ") || skip_prefix(&p, "/usr/bin/time ") ||
	    skip_prefix(&p, "command time ") || skip_prefix(&p, "\\time "))
		return p;
	return NULL;
}

/*
 * "time CMD" (after a prompt): returns CMD, or NULL.  "\time CMD" and
 * "command time CMD" are how one asks bash for /usr/bin/time instead of
 * its keyword (a GitHub issue shows both, each over a GNU default line).
 */
static char *timed_command_after(const char *after_prompt)
{
	const char *p = past_time_word(after_prompt), *end;
	char *w;

	if (!p)
		return NULL;
	end = p + strlen(p);
	for (;;) {	/* time's own options */
		const char *q = skip_spaces(p);

		if (*q != '-')
			break;
		w = shell_next_word(&q, end);
		if (w && (!strcmp(w, "-f") || !strcmp(w, "-o")))
			free(shell_next_word(&q, end));
		free(w);
		p = q;
	}
	p = skip_spaces(p);
	return *p ? xstrdup(p) : NULL;
}

static char *timed_command(const char *text)
{
	return timed_command_after(line_after_prompt(text));
}

/*
 * Between windows: where the last timing ended (a "time CMD" line above
 * the next one is looked for down to there), and the line number of the
 * last line of prose between outputs (see is_copy()).
 *
 * The timed program's own words between its "time CMD" line and its
 * timing ("done", a progress line) are part of that output, not prose
 * between two: they wait in inner_prose while a command is open, and
 * count only if no timing closes it.  (Counted at once, they made the
 * runs of a loop of `time ./bench` -- which prints the same "done"
 * each run -- pasted copies of each other whenever two printed the same
 * milliseconds: 190 of 1,000 runs dropped.)
 */
struct time_state {
	size_t stop;
	unsigned last_prose;
	int command_open;	/* a "time CMD" line since the last timing */
	unsigned inner_prose;	/* the last prose line since it, or 0 */
	struct pasted pasted;	/* the timings taken, for is_copy() */
};

/*
 * The command of a timing at li: a "time CMD" line above it; *at is its
 * line index (li when there is none).
 */
static char *find_command(struct parse_ctx *ctx, size_t li, size_t stop,
			  size_t *at)
{
	*at = li;
	for (size_t i = li; i-- > stop && li - i <= COMMAND_LOOKBACK;) {
		char *cmd = timed_command_after(line_after_prompt_at(ctx->in,
								     i));
		size_t last = i;

		if (!cmd)
			continue;
		if (line_continues(&ctx->in->lines[i])) {	/* " \" */
			char *joined = input_joined_command(ctx->in, i, &last);

			free(cmd);
			cmd = timed_command(joined);
			free(joined);
		}
		parse_claim_range(ctx, i, last + 1);
		parse_inner_lines(ctx, last + 1, li);
		*at = i;
		return cmd;
	}
	return NULL;
}

/*
 * A hash of the texts of lines [first, last] with the NULs between them,
 * in one pass: an input's texts lie one after another, each ended by its
 * NUL (core/input.h).  A hash of each line in turn was 9 calls a timing
 * of a timed dd, 3% of such a log's ingest.
 */
static uint64_t lines_hash(const struct input *in, size_t first,
			   size_t last)
{
	const struct input_line *l = in->lines;

	/* (a few lines: the invariant checked, not trusted) */
	for (size_t i = first; i < last; i++)
		if (l[i].text + l[i].len + 1 != l[i + 1].text)
			BUG("lines %zu and %zu not adjacent", i, i + 1);
	return hash64(HASH64_INIT, l[first].text,
		      (size_t)(l[last].text + l[last].len - l[first].text));
}

/*
 * Are lines [first, last] -- the "time CMD" line down to the timing --
 * an exact copy of lines seen earlier, with prose between the two (a
 * reply's "you wrote:", a heading)?  Then the timing is one output quoted
 * in a reply or pasted again, not a second run.  A copy needs the command
 * line and three lines at least, so that two runs that happen to print
 * the same figures are not taken for one; and the runs of a loop, with
 * nothing but their commands and timings between them, print the same
 * milliseconds now and then (1,000 runs lost 70 so).
 */
static int is_copy(struct parse_ctx *ctx, struct time_state *st,
		   size_t first, size_t last)
{
	unsigned orig;

	if (last - first + 1 < 3)
		return 0;
	orig = pasted_copy_of(&st->pasted, lines_hash(ctx->in, first, last),
			      input_lineno(ctx->in, first), st->last_prose);
	if (orig)
		parse_note(ctx, first, "the same command and timing as line "
			   "%u (quoted or pasted again): not counted twice",
			   orig);
	return orig != 0;
}

/*
 * The labels of a timing of command (none without one): the set
 * {command=command}, one set for real, user and sys of a run and for the
 * runs of the last commands timed (a loop over a few files), made once
 * and hashed once by the fold.  Released by the caller.
 */
static void command_labels(struct parse_ctx *ctx, const char *command,
			   struct labels *l)
{
	labels_init(l);
	if (command)
		parse_label_one(ctx, l, "command", command);
}

/* One figure of a timing, labelled l (its command's, or none). */
static void emit(struct parse_ctx *ctx, size_t li, const char *which,
		 double v, const struct labels *l)
{
	static const char *const metrics[] = {
		"real", "time.real", "user", "time.user", "sys", "time.sys", NULL
	};
	const char *name = NULL;

	/* (every form reads real, user and sys, no other figure) */
	for (size_t k = 0; metrics[k] && !name; k += 2)
		if (!strcmp(which, metrics[k]))
			name = metrics[k + 1];
	if (!name)
		BUG("time figure '%s'", which);
	if (l->n)
		parse_emit_labelled(ctx, li, "time", "run", name, UNIT_SECONDS,
				    v, l);
	else
		parse_emit(ctx, li, "time", "run", name, UNIT_SECONDS, v);
}

/*
 * Emits real, user and sys read on line li, with the command of a
 * "time CMD" line above, unless the same output was seen before.
 */
static void emit_timing(struct parse_ctx *ctx, size_t li,
			struct time_state *st, double real,
			double user, double sys)
{
	size_t at;
	char *command = find_command(ctx, li, st->stop, &at);
	struct labels l;

	if (!command || !is_copy(ctx, st, at, li)) {
		command_labels(ctx, command, &l);
		emit(ctx, li, "real", real, &l);
		emit(ctx, li, "user", user, &l);
		emit(ctx, li, "sys", sys, &l);
		labels_release(&l);
	}
	parse_claim(ctx, li);
	free(command);
}

/*
 * Lines of the bash block at li: "real" then up to "user" and "sys".  A
 * block kept as "#" comments counts only whole ("#real", "#user", "#sys"
 * in a row): a lone "# real 2" is as likely a note as a timing.
 */
static size_t bash_block_lines(const struct parse_ctx *ctx, size_t li)
{
	const char *which;
	double v;
	size_t n = 0;
	int commented, first_commented = 0;

	for (size_t i = li; i < ctx->in->nlines && n < 3; i++) {
		if (read_bash_line(ctx->in->lines[i].text, &which, &v,
				   &commented))
			break;
		if (i == li)
			first_commented = commented;
		if ((n && !strcmp(which, "real")) ||
		    (!n && strcmp(which, "real")) ||
		    commented != first_commented)
			break;
		n = i - li + 1;
	}
	return first_commented && n < 3 ? 0 : n;
}

/* A bash/POSIX/BusyBox block starting at li; returns lines used. */
static size_t read_bash_block(struct parse_ctx *ctx, size_t li,
			      struct time_state *st)
{
	const char *which;
	double v;
	char *command;
	size_t n = bash_block_lines(ctx, li), at;
	int commented;

	if (!n)
		return 0;
	command = find_command(ctx, li, st->stop, &at);
	for (size_t i = li; i < li + n; i++)
		parse_claim(ctx, i);
	if (!command || !is_copy(ctx, st, at, li + n - 1)) {
		struct labels l;

		command_labels(ctx, command, &l);
		for (size_t i = li; i < li + n; i++) {
			read_bash_line(ctx->in->lines[i].text, &which, &v,
				       &commented);
			emit(ctx, i, which, v, &l);
		}
		labels_release(&l);
	}
	free(command);
	return n;
}

/* Reads "<number><word>" at *p, e.g. "0.00user"; 0 on success. */
static int read_tagged(const char **p, const char *tag, double *v)
{
	if (scan_double(p, 0, v) || !skip_prefix(p, tag))
		return -1;
	*p = skip_spaces(*p);
	return 0;
}

/* GNU default: "0.00user 0.00system 0:01.02elapsed 99%CPU ..." */
static int read_gnu_default(struct parse_ctx *ctx, size_t li,
			    struct time_state *st)
{
	const char *p = ctx->in->lines[li].text, *e;
	double user, sys, real;
	char *elapsed;

	if (read_tagged(&p, "user", &user) || read_tagged(&p, "system", &sys))
		return 0;
	e = strstr(p, "elapsed");
	if (!e)
		return 0;
	elapsed = xstrndup(p, (size_t)(e - p));
	if (read_duration(elapsed, &real)) {
		free(elapsed);
		return 0;
	}
	free(elapsed);
	emit_timing(ctx, li, st, real, user, sys);
	if (li + 1 < ctx->in->nlines &&
	    strstr(ctx->in->lines[li + 1].text, "pagefaults"))
		parse_claim(ctx, li + 1);
	return 1;
}

/* Which time a GNU -v line gives ("user", "sys", "real"), or NULL. */
static const char *gnu_verbose_time(const char *t)
{
	if (starts_with(t, "User time (seconds):"))
		return "user";
	if (starts_with(t, "System time (seconds):"))
		return "sys";
	if (starts_with(t, "Elapsed (wall clock) time"))
		return "real";
	return NULL;
}

/*
 * GNU -v: the block from "Command being timed" on, or from its first
 * time line when a poster kept only the figures ("User time (seconds):
 * 0.01" ... or a lone "Elapsed (wall clock) time (h:mm:ss or m:ss):
 * 1:23:23.00").
 */
static int read_gnu_verbose(struct parse_ctx *ctx, size_t li)
{
	const char *p = ctx->in->lines[li].text;
	struct labels l;
	char *command = NULL;
	size_t i = li;
	int found = 0;

	if (skip_prefix(&p, "Command being timed: ")) {
		p = skip_spaces(p);
		command = *p == '"' ? xstrndup(p + 1, strlen(p) - 1 -
					       (p[strlen(p) - 1] == '"')) :
			  xstrdup(p);
		parse_claim(ctx, li);
		i = li + 1;
	} else if (!gnu_verbose_time(p)) {
		return 0;
	}
	command_labels(ctx, command, &l);
	for (; i < ctx->in->nlines && i < li + 40; i++) {
		const char *t = ctx->in->lines[i].text, *colon;
		const char *which = gnu_verbose_time(t);
		double v;

		if (!which && (!strstr(t, ": ") ||
			       starts_with(t, "Command being")))
			break;
		parse_claim(ctx, i);
		if (!which)
			continue;
		colon = strrchr(t, ' ');
		if (!colon || read_duration(colon + 1, &v)) {
			parse_error(ctx, i, "unreadable time in GNU time -v");
			continue;
		}
		emit(ctx, i, which, v, &l);
		found++;
	}
	labels_release(&l);
	free(command);
	return found ? 1 : 0;
}

/*
 * zsh's default TIMEFMT, "%J  %U user %S system %P cpu %*E total" (Src/
 * zsh_system.h): %U and %S are "%4.2fs", %*E printhhmmss()'s "%.3f" under
 * a minute, "%d:%05.2f" under an hour, "%d:%02d:%05.2f" above, all through
 * printf, so in the locale's decimal sign:
 *
 *   dd if=/dev/zero of=x  0.01s user 0.50s system 99% cpu 0.512 total
 *   ... 0.05s user 12.31s system 7% cpu 2:41.07 total
 *   ... 161.00s user 922.77s system 29% cpu 1:02:13.50 total
 *   sleep 3  0,00s user 0,00s system 0% cpu 3,008 total
 */
static int read_zsh_seconds(const char **p, const char *tag, double *v)
{
	if (scan_double(p, SCAN_COMMA_DECIMAL | SCAN_NO_EXPONENT, v) ||
	    !skip_prefix(p, tag))
		return -1;
	*p = skip_spaces(*p);
	return 0;
}

static int read_zsh(struct parse_ctx *ctx, size_t li)
{
	const char *t = ctx->in->lines[li].text, *u, *p, *end;
	double user, sys, real;
	char *command, *total;
	struct labels l;
	int bad;

	if (!ends_with(t, " total") || !(u = strstr(t, "s user ")))
		return 0;
	p = u;
	while (p > t && p[-1] != ' ')
		p--;
	command = xstrndup(t, (size_t)(p - t));
	if (read_zsh_seconds(&p, "s user", &user) ||
	    read_zsh_seconds(&p, "s system", &sys) ||
	    !(p = strstr(p, "cpu "))) {
		free(command);
		return 0;
	}
	p = skip_spaces(p + 4);
	end = t + strlen(t) - strlen(" total");
	total = xstrndup(p, (size_t)(end > p ? end - p : 0));
	bad = !*total || strchr(total, ' ') || read_duration(total, &real);
	free(total);
	if (bad) {
		free(command);
		return 0;
	}
	while (*command && command[strlen(command) - 1] == ' ')
		command[strlen(command) - 1] = '\0';
	command_labels(ctx, *command ? command : NULL, &l);
	emit(ctx, li, "real", real, &l);
	emit(ctx, li, "user", user, &l);
	emit(ctx, li, "sys", sys, &l);
	labels_release(&l);
	parse_claim(ctx, li);
	free(command);
	return 1;
}

/*
 * "<seconds> <word>" of a BSD line: "0.95 real", or with the seconds
 * marked, "247.99s real"; 0 on success.
 */
static int read_bsd_field(const char **p, const char *word, double *v)
{
	const char *q = *p;

	if (scan_double(&q, 0, v))
		return -1;
	skip_prefix(&q, "s");
	if (*q != ' ' && *q != '\t')
		return -1;
	q = skip_spaces(q);
	if (!skip_prefix(&q, word))
		return -1;
	*p = skip_spaces(q);
	return 0;
}

/*
 * BSD: "0.95 real         1.86 user         0.19 sys"; the form a much
 * copied dd benchmark post shows (seconds marked, "system"):
 * "247.99s real 1.92s user 48.64s system".
 */
static int read_bsd(struct parse_ctx *ctx, size_t li,
		    struct time_state *st)
{
	const char *p = ctx->in->lines[li].text;
	double real, user, sys;

	if (read_bsd_field(&p, "real", &real) ||
	    read_bsd_field(&p, "user", &user) ||
	    (read_bsd_field(&p, "system", &sys) &&
	     read_bsd_field(&p, "sys", &sys)) || *p)
		return 0;
	emit_timing(ctx, li, st, real, user, sys);
	return 1;
}

/* tcsh: "4.176u 0.001s 0:05.09 81.9%	0+0k 0+0io 0pf+0w" */
static int read_tcsh(struct parse_ctx *ctx, size_t li,
		     struct time_state *st)
{
	const char *p = ctx->in->lines[li].text, *e;
	double real, user, sys;
	char *elapsed;

	if (read_tagged(&p, "u ", &user) || read_tagged(&p, "s ", &sys))
		return 0;
	e = strchr(p, ' ');
	if (!e || !strstr(e, "io ") || !strstr(e, "pf+"))
		return 0;
	elapsed = xstrndup(p, (size_t)(e - p));
	if (read_duration(elapsed, &real) || !strchr(elapsed, ':')) {
		free(elapsed);
		return 0;
	}
	free(elapsed);
	emit_timing(ctx, li, st, real, user, sys);
	return 1;
}

/* fish: "801.56 millis" and the like, in seconds; -1 when it is none. */
static int read_fish_value(const char **p, double *v)
{
	static const struct {
		const char *unit;
		double seconds;
	} units[] = {
		{ "micros", 1e-6 }, { "millis", 1e-3 }, { "secs", 1 },
		{ "mins", 60 },
	};
	double x;

	*p = skip_spaces(*p);
	if (scan_double(p, 0, &x))
		return -1;
	*p = skip_spaces(*p);
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (skip_prefix(p, units[k].unit)) {
			*v = x * units[k].seconds;
			return 0;
		}
	return -1;
}

/* fish: the "usr time" or "sys time" line at li, its first column. */
static int read_fish_line(struct parse_ctx *ctx, size_t li, const char *tag,
			  double *v)
{
	const char *p;

	if (li >= ctx->in->nlines)
		return -1;
	p = ctx->in->lines[li].text;
	if (!skip_prefix(&p, tag) || read_fish_value(&p, v))
		return -1;
	parse_claim(ctx, li);
	return 0;
}

/* fish: "Executed in  801.56 millis    fish           external" */
static int read_fish(struct parse_ctx *ctx, size_t li,
		     struct time_state *st)
{
	const char *p = ctx->in->lines[li].text;
	double real, user, sys;
	char *command;
	size_t at, last;

	if (!skip_prefix(&p, "Executed in") || read_fish_value(&p, &real) ||
	    !starts_with(skip_spaces(p), "fish"))
		return 0;
	parse_claim(ctx, li);
	if (li > 0 && starts_with(ctx->in->lines[li - 1].text, "_____"))
		parse_claim(ctx, li - 1);
	command = find_command(ctx, li, st->stop, &at);
	last = li;
	if (!read_fish_line(ctx, li + 1, "usr time", &user) &&
	    !read_fish_line(ctx, li + 2, "sys time", &sys))
		last = li + 2;
	if (!command || !is_copy(ctx, st, at, last)) {
		struct labels l;

		command_labels(ctx, command, &l);
		emit(ctx, li, "real", real, &l);
		if (last > li) {
			emit(ctx, li + 1, "user", user, &l);
			emit(ctx, li + 2, "sys", sys, &l);
		}
		labels_release(&l);
	}
	free(command);
	return (int)(last - li + 1);
}

/*
 * Every timing holds a figure; only GNU's verbose block opens with a
 * line that holds none ("Command being timed: ..."): the blank lines and
 * prose between runs are not tried against each form.
 */
static int may_start_timing(const struct input_line *l)
{
	return l->len && (strpbrk(l->text, "0123456789") ||
			  starts_with(l->text, "Command being timed: "));
}

/* A command the open one ran printed no timing: its words were prose. */
static void command_untimed(struct time_state *st)
{
	if (st->inner_prose > st->last_prose)
		st->last_prose = st->inner_prose;
	st->command_open = 0;
	st->inner_prose = 0;
}

/* A timing ended the output: the words since its command were its own. */
static void command_timed(struct time_state *st)
{
	st->command_open = 0;
	st->inner_prose = 0;
}

/*
 * Line li (no timing, claimed by no parser): a "time CMD" line opens an
 * output; prose -- a line that reads as such -- is the timed program's
 * own while one is open, else prose between outputs: the last such line
 * is where a pasted copy may follow (is_copy()).
 */
static void note_line(struct parse_ctx *ctx, struct time_state *st,
		      size_t li)
{
	const char *t = ctx->in->lines[li].text, *cmd;
	unsigned line = input_lineno(ctx->in, li);

	if ((cmd = past_time_word(line_after_prompt_at(ctx->in, li))) &&
	    *skip_spaces(cmd)) {
		command_untimed(st);
		st->command_open = 1;
	} else if (line_reads_as_prose(t) && !past_time_word(t) &&
		   !line_echoed_above(ctx->in, li)) {
		if (st->command_open)
			st->inner_prose = line;
		else
			st->last_prose = line;
	}
}

static void *time_begin(struct parse_ctx *ctx)
{
	struct time_state *st = xcalloc(1, sizeof(*st));

	(void)ctx;
	pasted_init(&st->pasted, PASTED_GENERATION);
	return st;
}

/* Reads lines [*li, to); see struct parse_stream. */
static void time_lines(struct parse_ctx *ctx, void *state, size_t *li,
		       size_t to)
{
	struct time_state *st = state;
	size_t i;

	for (i = *li; i < to; i++) {
		size_t used;

		if (ctx->claimed[i])
			continue;
		if (!may_start_timing(&ctx->in->lines[i])) {
			note_line(ctx, st, i);
		} else if ((used = read_bash_block(ctx, i, st)) ||
			   (used = (size_t)read_fish(ctx, i, st))) {
			i += used - 1;
			st->stop = i + 1;
			command_timed(st);
		} else if (read_gnu_default(ctx, i, st) ||
			   read_gnu_verbose(ctx, i) || read_zsh(ctx, i) ||
			   read_bsd(ctx, i, st) ||
			   read_tcsh(ctx, i, st)) {
			st->stop = i + 1;
			command_timed(st);
		} else {
			note_line(ctx, st, i);
		}
	}
	*li = i;
}

static void time_end(struct parse_ctx *ctx, void *state)
{
	struct time_state *st = state;

	(void)ctx;
	pasted_release(&st->pasted);
	free(st);
}

/* A timing's command is looked for up to COMMAND_LOOKBACK lines above it
 * (and fish's rule line right above). */
static size_t time_keep(const void *state, size_t li)
{
	(void)state;
	return li > COMMAND_LOOKBACK + 1 ? li - COMMAND_LOOKBACK - 1 : 0;
}

static void time_rebase(void *state, size_t gone)
{
	struct time_state *st = state;

	/* (the look for a command stops COMMAND_LOOKBACK lines up first) */
	st->stop = st->stop > gone ? st->stop - gone : 0;
}

static const struct parse_stream time_stream = {
	.begin = time_begin,
	.lines = time_lines,
	.end = time_end,
	.keep = time_keep,
	.rebase = time_rebase,
};

static int time_parse(struct parse_ctx *ctx)
{
	return parse_by_lines(ctx, &time_stream);
}

static const char *const time_programs[] = { "time", NULL };

const struct parser parser_time = {
	.name = "time",
	.tool = "time",
	.reads = "timings of the shell's time and GNU time",
	.programs = time_programs,
	.output_after_command = 1,
	.detect = time_detect,
	.parse = time_parse,
	.stream = &time_stream,
};
