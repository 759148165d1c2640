/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * iozone: the auto-mode table, headerless rows under a command line, the
 * -R Excel report, and the throughput-mode summaries.
 *
 * Accepted, verbatim (blanks, quote markers and prompts are taken off by
 * the input layer; "KB" and "Kbytes" are the spellings before 3.3xx):
 *
 *   Banner   Iozone: Performance Test of File I/O
 *                    Version $Revision: 3.465 $
 *            O_DIRECT feature enabled                      -> direct=1
 *            OPS Mode. Output is in operations per second. -> metric iops
 *            Microseconds/op Mode. ...                     -> lat.mean
 *            Command line used: iozone -I -a -i 0 -i 1     (-I, -O, -N, -i)
 *            Each process writes a 262144 kByte file in 4 kByte records
 *   Table                                            random    random ...
 *                  kB  reclen    write  rewrite    read    reread ...
 *                  64       4    20433    24205    16732    18017 ...
 *   Rows     iozone -I -a -s 65536 -i 0 -i 1:      (a command line, then)
 *            65536      64   412345   433210   501234   512345
 *   -R       "Writer report"
 *                    "4"  "8"  "16"
 *            "64"   581273  743988  743988
 *   -t N     Children see throughput for  4 initial writers  =  8857.66 kB/sec
 *            Parent sees throughput for  4 initial writers   =  8784.32 kB/sec
 *            Min throughput per process                      =  2204.07 kB/sec
 *            Max throughput per process / Avg throughput per process
 *            Min xfer                                        = 64992.00 kB
 *            (old: "KB/sec"; -O: "ops/sec" and "Min xfer = N ops")
 *            "Throughput report Y-axis is type of test X-axis is ..."
 *            "  Initial write "    8857.66
 *
 * Columns.  The table's second header line decides which column is which;
 * iozone prints its words in one fixed order (kB reclen write rewrite read
 * reread read write read rewrite read fwrite frewrite fread freread: the
 * first line's random/random/bkwd/record/stride qualify the repeats), so a
 * header that is a prefix of that order is certain.  iozone pads the
 * columns of tests it skipped with blanks (begin(): test_output[]), so a
 * row with fewer values than the header is read (1) through the -i list of
 * the run's command line, or (2) when every value ends exactly where a
 * header word ends; otherwise it is reported, never guessed.  Rows with no
 * header are read only right under an iozone command line, whose -i list
 * (all of tests 0-7 without one) fixes the columns.  A header and its rows
 * on one line (line breaks lost) are cut into rows when exactly one row
 * width fits the count and every row looks like "kB >= reclen"; so are
 * rows run together with their command line ("iozone -s 64k -i 0 -i 1 64
 * 4 303383 ..."), from the first word of digits no option takes, when the
 * command has a -i list (without one, which column is which is unknown:
 * said so).  Such a line may hold the banner between the command and
 * the header (the input layer cuts it at the header: the banner's "64
 * bit mode" is no row) and end in iozone's "iozone test complete.".
 *
 * Units: every iozone "kB" is 1024 bytes; values are kB/s (metric bw),
 * ops/s with -O (iops) or microseconds per operation with -N (lat.mean).
 * Labels: filesize and bs (record length) in bytes; direct=1 for -I or
 * "O_DIRECT feature enabled", direct=0 when the run's banner or command
 * line is there without either; threads (throughput mode); aggregate =
 * children | parent | process-min | process-max | process-avg.
 *
 * The -R report repeats the table of the same run: when the table was read
 * the report is only claimed.  Alone (a pasted report), a row is read when
 * its values fill exactly the header's record sizes up to the row's file
 * size.  The throughput report likewise repeats the "Children see" lines.
 *
 * Command lines are not claimed: the context pass (ingest/context.c) turns
 * the line right above an output into the "command" label.  The command
 * line (or "Command line used:") whose options a run's figures were read
 * with labels them itself, in the context pass's words, when prose stands
 * between.
 */
#include "iozone.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const struct ioz_col ioz_cols[IOZ_NCOLS] = {
	{ "write", "write", 0 },	{ "rewrite", "rewrite", 0 },
	{ "read", "read", 1 },		{ "reread", "reread", 1 },
	{ "read", "randread", 2 },	{ "write", "randwrite", 2 },
	{ "read", "bkwdread", 3 },	{ "rewrite", "recrewrite", 4 },
	{ "read", "strideread", 5 },	{ "fwrite", "fwrite", 6 },
	{ "frewrite", "frewrite", 6 },	{ "fread", "fread", 7 },
	{ "freread", "freread", 7 },
};

int iozone_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits a line into blank-separated tokens; returns the count, or
 * IOZ_MAX_TOKS + 1 when there are more. */
static size_t tokenize(const struct input *in, const struct input_line *l,
		       struct ioz_tok *t)
{
	const char *p = l->text;
	size_t n = 0;

	while (*p) {
		const char *s;

		while (iozone_is_blank(*p))
			p++;
		if (!*p)
			break;
		if (n == IOZ_MAX_TOKS)
			return IOZ_MAX_TOKS + 1;
		s = p;
		while (*p && !iozone_is_blank(*p))
			p++;
		t[n].s = s;
		t[n].len = (size_t)(p - s);
		t[n].end = input_line_indent(in, l) + (unsigned)(p - l->text);
		n++;
	}
	return n;
}

static int tok_is(const struct ioz_tok *t, const char *word)
{
	return t->len == strlen(word) && !strncmp(t->s, word, t->len);
}

/* A token that is a whole unsigned integer. */
static int tok_u64(const struct ioz_tok *t, uint64_t *v)
{
	const char *p = t->s;

	return !scan_u64(&p, v) && p == t->s + t->len;
}

/* A token that is a whole decimal number. */
int iozone_tok_number(const struct ioz_tok *t, double *v)
{
	const char *p = t->s;

	return !scan_double(&p, SCAN_NO_EXPONENT, v) && p == t->s + t->len;
}

const char *iozone_find_name(const struct ioz_name *names, const char *s,
			     size_t len)
{
	for (size_t i = 0; names[i].name; i++)
		if (strlen(names[i].name) == len &&
		    !strncmp(names[i].name, s, len))
			return names[i].op;
	return NULL;
}

static void run_reset(struct ioz_run *run)
{
	memset(run, 0, sizeof(*run));
	run->direct = -1;
}

static void metric_of(enum ioz_mode mode, const char **metric,
		      const char **unit, double *factor)
{
	switch (mode) {
	case IOZ_OPS:
		*metric = "iops", *unit = UNIT_IOPS, *factor = 1;
		break;
	case IOZ_USEC:
		*metric = "lat.mean", *unit = UNIT_SECONDS, *factor = 1e-6;
		break;
	default:
		*metric = "bw", *unit = UNIT_BW, *factor = KIB;
		break;
	}
}

static void set_version(struct parse_ctx *ctx, const char *text)
{
	struct source *src = &ctx->rs->sources[ctx->source];
	const char *v = strstr(text, "$Revision:");
	size_t len = 0;

	if (!v || src->tool_version)
		return;
	v = skip_spaces(v + strlen("$Revision:"));
	while (v[len] && !iozone_is_blank(v[len]) && v[len] != '$')
		len++;
	if (len)
		src->tool_version = xstrndup(v, len);
}

/* Size argument of -s/-r: kB by default, or with a k/m/g suffix. */
static double size_arg(const char *w)
{
	const char *p = w;
	double v;

	if (scan_double(&p, SCAN_NO_EXPONENT, &v))
		return 0;
	switch (*p) {
	case '\0':
		return v * KIB;
	case 'k': case 'K':
		return p[1] ? 0 : v * KIB;
	case 'm': case 'M':
		return p[1] ? 0 : v * MIB;
	case 'g': case 'G':
		return p[1] ? 0 : v * GIB;
	}
	return 0;
}

/* Letters of iozone options that take an argument. */
static int takes_arg(char c)
{
	return c && strchr("bdfgHijJklLnPqrsStuUVXYy", c);
}

static void option(struct ioz_run *run, char c, const char *arg, int *ns,
		   int *nr)
{
	uint64_t v;
	const char *p = arg;

	switch (c) {
	case 'I':
		run->direct = 1;
		break;
	case 'O':
		run->mode = IOZ_OPS, run->mode_known = 1;
		break;
	case 'N':
		run->mode = IOZ_USEC, run->mode_known = 1;
		break;
	case 'a': case 'A': case 'z':
		run->auto_mode = 1;
		break;
	case 'i':
		if (!arg || scan_u64(&p, &v) || *p)
			break;
		run->have_tests = 1;
		if (v <= 7)
			run->tests |= 1u << v;
		else if (v != 8)	/* 8, the mix test, prints no column */
			run->odd_tests = 1;
		break;
	case 's':
		run->filesize = arg && !(*ns)++ ? size_arg(arg) : 0;
		break;
	case 'r':
		run->bs = arg && !(*nr)++ ? size_arg(arg) : 0;
		break;
	case 't':
		if (arg && !scan_u64(&p, &v) && !*p)
			run->threads = (int)v;
		break;
	}
}

/* Reads the options after "iozone" up to end (a trailing ':' ends them). */
static void read_options(struct ioz_run *run, const char *p, const char *end)
{
	char *w, *next = NULL;
	int ns = 0, nr = 0;

	w = shell_next_word(&p, end);
	while (w) {
		size_t len = strlen(w);

		if (len && w[len - 1] == ':')
			w[len - 1] = '\0';
		free(next);
		next = shell_next_word(&p, end);
		if (next && *next && next[strlen(next) - 1] == ':')
			next[strlen(next) - 1] = '\0';
		if (w[0] == '-' && w[1] == '+') {
			/* -+m file, -+u ...: nothing storan needs */
		} else if (w[0] == '-') {
			for (const char *c = w + 1; *c; c++) {
				const char *arg = NULL;

				if (takes_arg(*c)) {
					arg = c[1] ? c + 1 : next;
					option(run, *c, arg, &ns, &nr);
					if (!c[1] && next && next[0] != '-') {
						free(w);
						w = next;
						next = shell_next_word(&p, end);
					}
					break;
				}
				option(run, *c, NULL, &ns, &nr);
			}
		}
		free(w);
		w = next;
		next = NULL;
	}
	if (ns > 1)
		run->filesize = 0;
	if (nr > 1)
		run->bs = 0;
	if (run->direct < 0)
		run->direct = 0;
	if (!run->mode_known)	/* no -O nor -N: iozone's kB/s */
		run->mode = IOZ_KBPS, run->mode_known = 1;
}

/*
 * The word "iozone" (any path) followed by at least one option.  Markdown
 * writers quote the command as inline code ("`iozone -I -a ... -i 2`"):
 * *tick is set when the word opened a backtick, whose closing one ends the
 * options.
 */
static const char *find_iozone_word(const char *text, int *tick)
{
	const char *p = text;

	for (;;) {
		const char *s;

		while (iozone_is_blank(*p))
			p++;
		if (!*p)
			return NULL;
		s = p;
		while (*p && !iozone_is_blank(*p))
			p++;
		*tick = *s == '`';
		s += *tick;
		if ((p - s == 6 && !strncmp(s, "iozone", 6)) ||
		    (p - s > 6 && !strncmp(p - 7, "/iozone", 7))) {
			const char *q = skip_spaces(p);

			return *q == '-' ? p : NULL;
		}
	}
}

/*
 * The first word after the options of a command line that is neither an
 * option nor an option's argument; with digits, the first such word of
 * digits only.  NULL when there is none.
 */
static const char *plain_word(const char *p, const char *end, int digits)
{
	int skip = 0;

	while (p < end) {
		const char *w;

		while (p < end && iozone_is_blank(*p))
			p++;
		w = p;
		while (p < end && !iozone_is_blank(*p))
			p++;
		if (w == p)
			break;
		if (skip) {
			skip = 0;
			continue;
		}
		if (*w == '-' && w[1] != '+') {
			/* "-i 0", "-s64k", "-Ra": the last letter takes the
			 * next word when nothing follows it */
			skip = takes_arg(p[-1]) && p - w >= 2 &&
			       !(p - w > 2 && takes_arg(w[1]));
			continue;
		}
		if (!digits)
			return w;
		if (is_ascii_digit(*w)) {
			const char *q = w;

			while (q < p && is_ascii_digit(*q))
				q++;
			if (q == p)
				return w;
		}
	}
	return NULL;
}

/* "$ ./iozone -a ...", "xfs iozone -I ...", "iozone -i 0 -i 1:" */
/*
 * Where the figures start on a command line that a web page ran together
 * with its table ("iozone -s 64k -r 4k -i 0 -i 1 64 4 303383 913649
 * ..."): the first word of digits that no option takes, or NULL.
 */
static const char *rows_after_options(const char *p, const char *end)
{
	return plain_word(p, end, 1);
}

static void start_command_rows(struct ioz_state *st);
static void read_lost_breaks(struct ioz_state *st, size_t li,
			     const struct ioz_tok *t, size_t n);

/*
 * The figures a command line ran together with: rows of 2 + the -i
 * list's columns, cut by read_lost_breaks() when that width is certain.
 */
static void read_command_rows(struct ioz_state *st, size_t li,
			      const char *rows)
{
	const struct input_line *l = &st->ctx->in->lines[li];
	size_t n = tokenize(st->ctx->in, l, st->toks), first = 0;

	if (n > IOZ_MAX_TOKS)
		return;
	while (first < n && st->toks[first].s < rows)
		first++;
	if (!st->run.have_tests) {
		parse_error(st->ctx, li, "iozone figures run together with "
			    "the command line, without a -i list: which "
			    "column is which cannot be told");
		return;
	}
	start_command_rows(st);
	st->cmd_rows = 0;
	if (!st->in_table) {
		parse_error(st->ctx, li, "iozone rows under a command line "
			    "whose -i tests have no known table columns");
		return;
	}
	read_lost_breaks(st, li, st->toks + first, n - first);
}

static int read_command(struct ioz_state *st, size_t li)
{
	const char *text = st->ctx->in->lines[li].text;
	int tick;
	const char *args = find_iozone_word(text, &tick);
	const char *end, *rows, *opts;

	if (!args || starts_with(text, "Command line used:"))
		return 0;
	end = tick ? strchr(args, '`') : NULL;
	if (!end)
		end = args + strlen(args);
	rows = rows_after_options(args, end);
	opts = plain_word(args, end, 0);
	if (opts && starts_with(opts, "Iozone: ")) {
		/* the banner ran together with the command (a page that
		 * lost its line breaks; the input layer cut the table off
		 * at its header): its "64 bit mode" holds no figures */
		rows = NULL;
		end = opts;
	}
	run_reset(&st->run);
	read_options(&st->run, args, rows ? rows : end);
	st->run.have_cmd = 1;
	st->run.cmd_li = li;
	st->in_table = st->in_report = 0;
	st->tp_op = NULL;
	st->cmd_rows = 1;
	if (end == opts)	/* the command label without the banner */
		st->run.rows_tail = strlen(opts);
	if (rows && !tick) {
		st->run.rows_tail = strlen(rows);
		read_command_rows(st, li, rows);
	}
	return 1;
}

static int banner_line(const char *t)
{
	static const char *const prefixes[] = {
		"Compiled for ", "Build: ", "Run began:", "Run finished:",
		"Auto Mode", "Include close", "Include fsync",
		"Time Resolution", "Processor cache", "File stride size",
		"Machine = ", "Excel chart generation",
		"Using minimum file size", "Using maximum file size",
		"Using Minimum Record Size", "Using Maximum Record Size",
		"Setting no_unlink", "Record Size ", "File size set to",
		"iozone test complete.", "Excel output is", "CPU utilization",
		"iozone: interrupted", "exiting iozone", "Output is in",
		"Throughput test with", "Each process writes",
		"Each thread writes", "Min process", "Max process",
		"Min thread", "Max thread", "Child[", "Test running:",
		"Multi_buffer", "POSIX async I/O", "No retest option selected",
		"Timer resolution is poor", "reported inaccurate results",
		"Error in file:", "Record # ", "where 0x",
		"Network distribution mode", NULL
	};

	for (size_t i = 0; prefixes[i]; i++)
		if (starts_with(t, prefixes[i]))
			return 1;
	return 0;
}

/* "Each process writes a 262144 kByte file in 4 kByte records" */
static void read_each_process(struct ioz_run *run, const char *t)
{
	const char *p = strstr(t, " writes a ");
	double fs, bs;

	if (!p)
		return;
	p += strlen(" writes a ");
	if (scan_double(&p, 0, &fs) ||
	    !skip_prefix_icase(&p, " kbyte file in "))
		return;
	if (scan_double(&p, 0, &bs) || !skip_prefix_icase(&p, " kbyte records"))
		return;
	run->filesize = fs * KIB;
	run->bs = bs * KIB;
}

static int read_banner(struct ioz_state *st, size_t li)
{
	const char *t = st->ctx->in->lines[li].text;
	struct ioz_run *run = &st->run;

	if (starts_with(t, "Iozone: Performance Test of File I/O")) {
		if (run->read_table || run->read_tput || run->banner)
			run_reset(run);
		run->banner = 1;
		st->in_table = st->in_report = 0;
		st->tp_op = NULL;
	} else if (starts_with(t, "Version $Revision:")) {
		set_version(st->ctx, t);
	} else if (starts_with(t, "Contributors:")) {
		st->in_contrib = 1;
	} else if (st->in_contrib && run->banner && !st->in_table) {
		/* the names under "Contributors:" */
	} else if (starts_with(t, "O_DIRECT feature enabled")) {
		run->direct = 1;
	} else if (starts_with(t, "OPS Mode.")) {
		run->mode = IOZ_OPS, run->mode_known = 1;
	} else if (starts_with(t, "Microseconds/op Mode")) {
		run->mode = IOZ_USEC, run->mode_known = 1;
	} else if (skip_prefix(&t, "Command line used:")) {
		int direct = run->direct;

		read_options(run, t, t + strlen(t));
		if (direct == 1)
			run->direct = 1;
		run->have_cmd = 1;
		run->cmd_li = li;
		st->cmd_rows = 0;
		/* not claimed: the context pass makes it the command label
		 * of the run's figures (runs differ by it) */
		return 1;
	} else if (banner_line(t)) {
		if (starts_with(t, "Output is in") && !strstr(t, "ops/sec") &&
		    strstr(t, "ytes/sec") && !run->mode_known)
			run->mode = IOZ_KBPS, run->mode_known = 1;
		if (starts_with(t, "Each "))
			read_each_process(run, t);
		if (starts_with(t, "Error in file: Found"))
			parse_note(st->ctx, li, "iozone reported a data "
				   "verification error; the figures of this "
				   "test are suspect");
	} else {
		return 0;
	}
	parse_claim(st->ctx, li);
	return 1;
}

/* The first header line: only random/bkwd/record/stride words. */
static int is_header1(const struct ioz_tok *t, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!tok_is(&t[i], "random") && !tok_is(&t[i], "bkwd") &&
		    !tok_is(&t[i], "record") && !tok_is(&t[i], "stride"))
			return 0;
	return 1;
}

/*
 * Matches header words t[0..n) ("kB reclen write ...") against iozone's
 * order; returns the number of result columns, -1 when it is not a
 * header, -2 when it is one that storan does not know.  *used is the
 * number of tokens that were header words.
 */
static int match_header(struct ioz_state *st, const struct ioz_tok *t,
			size_t n, size_t *used)
{
	size_t k;

	if (n < 2 || !(tok_is(&t[0], "kB") || tok_is(&t[0], "KB")) ||
	    !tok_is(&t[1], "reclen"))
		return -1;
	for (k = 0; k + 2 < n; k++) {
		const struct ioz_tok *w = &t[k + 2];
		double v;

		if (iozone_tok_number(w, &v))
			break;
		if (k >= IOZ_NCOLS || !tok_is(w, ioz_cols[k].word))
			return -2;
		st->cols[k] = (int)k;
		st->ends[k] = w->end;
	}
	*used = k + 2;
	return (int)k;
}

/*
 * The command label of the run's figures: the command line whose options
 * the reader took.  The context pass labels an output with the line right
 * above it only, and a post often puts prose between ("Reference numbers
 * (on Latitude c3.large.x86):", "before 7e55c60acfbb:"): two runs with
 * different options (-B, mmap files) then had the same labels.  Computed
 * once per command line.
 */
void iozone_label_command(struct ioz_state *st, struct measurement *m)
{
	const struct ioz_run *run = &st->run;

	if (!run->have_cmd)
		return;
	if (!st->have_cmd_text || st->cmd_text_li != run->cmd_li) {
		free(st->cmd_text);
		st->cmd_text = st->ctx->command_text ?
				st->ctx->command_text(st->ctx, run->cmd_li) :
				NULL;
		st->cmd_text_li = run->cmd_li;
		st->have_cmd_text = 1;
		if (st->cmd_text && run->rows_tail &&
		    strlen(st->cmd_text) > run->rows_tail) {
			char *e = st->cmd_text + strlen(st->cmd_text) -
				  run->rows_tail;

			while (e > st->cmd_text && iozone_is_blank(e[-1]))
				e--;
			*e = '\0';	/* the command without its figures */
		}
	}
	if (st->cmd_text)
		labels_set(&m->labels, "command", st->cmd_text);
}

static void label_sizes(struct measurement *m, double filesize, double bs,
			const struct ioz_run *run)
{
	labels_setf(&m->labels, "filesize", "%.0f", filesize);
	labels_setf(&m->labels, "bs", "%.0f", bs);
	if (run->direct >= 0)
		labels_set(&m->labels, "direct", run->direct ? "1" : "0");
}

void iozone_emit_cell(struct ioz_state *st, size_t li, const char *op,
		      double value, double kb, double reclen)
{
	const char *metric, *unit;
	double factor;
	struct measurement *m;

	if (!st->run.mode_known) {	/* kB/s, ops/s (-O) or us/op (-N)? */
		if (!st->unit_unknown_said)
			parse_error(st->ctx, li, "iozone figures without their "
				    "banner or command line: kB/s, ops/s (-O) "
				    "or us/op (-N) cannot be told; no result "
				    "taken (paste the iozone command above "
				    "them)");
		st->unit_unknown_said = 1;
		return;
	}
	metric_of(st->run.mode, &metric, &unit, &factor);
	m = parse_emit(st->ctx, li, "iozone", op, metric, unit,
		       value * factor);
	label_sizes(m, kb * KIB, reclen * KIB, &st->run);
	iozone_label_command(st, m);
}

/* Columns of the tests a command line ran (all of 0-7 without -i). */
static size_t command_columns(const struct ioz_run *run, int *cols)
{
	size_t n = 0;

	if (run->odd_tests)
		return 0;
	for (int c = 0; c < IOZ_NCOLS; c++)
		if (!run->have_tests || (run->tests & (1u << ioz_cols[c].test)))
			cols[n++] = c;
	return n;
}

/*
 * Which column each of the row's nvals values belongs to; 0 when nothing
 * makes that certain (why says what is missing).
 */
static int row_columns(struct ioz_state *st, const struct ioz_tok *vals,
		       size_t nvals, int *map, const char **why)
{
	int cols[IOZ_NCOLS];
	size_t n, c = 0;

	if (nvals == st->ncols) {
		memcpy(map, st->cols, nvals * sizeof(*map));
		return 1;
	}
	if (nvals > st->ncols)
		return *why = "more values than the header has columns", 0;
	n = command_columns(&st->run, cols);
	if (st->run.have_tests && n == nvals) {
		memcpy(map, cols, n * sizeof(*map));
		return 1;
	}
	for (size_t v = 0; v < nvals; v++) {
		while (c < st->ncols && st->ends[c] < vals[v].end)
			c++;
		if (c == st->ncols || st->ends[c] != vals[v].end)
			return *why = "fewer values than the header has "
				      "columns, and neither a -i list nor "
				      "their positions say which tests ran", 0;
		map[v] = st->cols[c++];
	}
	return 1;
}

/* Is the line a table row: integers kB and reclen, then numbers? */
static int is_row(const struct ioz_tok *t, size_t n)
{
	uint64_t u;
	double v;

	if (n < 3 || n > 2 + IOZ_NCOLS + 2 || !tok_u64(&t[0], &u) ||
	    !tok_u64(&t[1], &u))
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!iozone_tok_number(&t[i], &v))
			return 0;
	return 1;
}

static void read_row(struct ioz_state *st, size_t li,
		     const struct ioz_tok *t, size_t n)
{
	int map[IOZ_NCOLS];
	const char *why = NULL;
	uint64_t kb, reclen;
	size_t nvals = n - 2;

	parse_claim(st->ctx, li);
	tok_u64(&t[0], &kb);
	tok_u64(&t[1], &reclen);
	if (!st->table_from_header) {
		if (nvals != st->ncols) {
			parse_error(st->ctx, li, "iozone row has %zu values "
				    "but the command line above ran tests "
				    "with %zu columns", nvals, st->ncols);
			return;
		}
		memcpy(map, st->cols, nvals * sizeof(*map));
	} else if (!row_columns(st, t + 2, nvals, map, &why)) {
		parse_error(st->ctx, li, "iozone row has %zu values for %zu "
			    "header columns: %s", nvals, st->ncols, why);
		return;
	}
	for (size_t v = 0; v < nvals; v++) {
		double x;

		iozone_tok_number(&t[2 + v], &x);
		iozone_emit_cell(st, li, ioz_cols[map[v]].op, x, (double)kb,
			  (double)reclen);
	}
	st->run.read_table = 1;
}

/* One row cut from a line whose breaks were lost: kB >= reclen > 0. */
static int plausible_rows(const struct ioz_tok *t, size_t n, size_t width)
{
	for (size_t r = 0; r + width <= n; r += width) {
		uint64_t kb, reclen;

		if (!tok_u64(&t[r], &kb) || !tok_u64(&t[r + 1], &reclen) ||
		    !reclen || reclen > kb || (reclen & (reclen - 1)))
			return 0;
	}
	return 1;
}

/* Header words and numbers on one line: cut it into rows. */
static void read_lost_breaks(struct ioz_state *st, size_t li,
			     const struct ioz_tok *t, size_t n)
{
	int cols[IOZ_NCOLS];
	size_t widths[2], nw = 0, fits = 0, width = 0;
	size_t nc = command_columns(&st->run, cols);

	for (size_t i = 0; i < n; i++) {
		double v;

		if (iozone_tok_number(&t[i], &v))
			continue;
		if (i && banner_line(t[i].s)) {
			n = i;	/* "iozone test complete." after the rows */
			break;
		}
		/* the border of the table cell a web page kept the run in
		 * ("... 262259 175627 |"), the line's last word */
		if (i && i + 1 == n && t[i].len == 1 && t[i].s[0] == '|') {
			n = i;
			break;
		}
		parse_error(st->ctx, li, "iozone table with lost line "
			    "breaks: '%.*s' is not a number",
			    (int)t[i].len, t[i].s);
		return;
	}
	widths[nw++] = 2 + st->ncols;
	if (st->run.have_tests && nc != st->ncols)
		widths[nw++] = 2 + nc;
	for (size_t w = 0; w < nw; w++)
		if (n % widths[w] == 0 && plausible_rows(t, n, widths[w]))
			fits++, width = widths[w];
	if (fits != 1) {
		parse_error(st->ctx, li, "iozone table with lost line breaks: "
			    "%zu numbers do not divide into rows of one "
			    "certain width", n);
		return;
	}
	if (width != 2 + st->ncols)
		memcpy(st->cols, cols, nc * sizeof(*cols)), st->ncols = nc;
	for (size_t r = 0; r < n; r += width) {
		uint64_t kb, reclen;

		tok_u64(&t[r], &kb);
		tok_u64(&t[r + 1], &reclen);
		for (size_t v = 0; v + 2 < width; v++) {
			double x;

			iozone_tok_number(&t[r + 2 + v], &x);
			iozone_emit_cell(st, li, ioz_cols[st->cols[v]].op, x,
				  (double)kb, (double)reclen);
		}
	}
	st->run.read_table = 1;
}

/* "kB  reclen  write ..." and, when the breaks were lost, the rows. */
static int read_header(struct ioz_state *st, size_t li, size_t n)
{
	const struct ioz_tok *t = st->toks;
	size_t skip = 0, used = 0;
	int k;

	while (skip < n && is_header1(&t[skip], 1))
		skip++;
	k = match_header(st, t + skip, n - skip, &used);
	if (k == -1)
		return 0;
	parse_claim(st->ctx, li);
	if (k == -2 || k == 0) {
		parse_error(st->ctx, li, "iozone column header that storan "
			    "does not know (expected kB reclen write rewrite "
			    "read ... in iozone's order)");
		st->in_table = 0;
		return 1;
	}
	st->ncols = (size_t)k;
	st->in_table = st->table_from_header = 1;
	st->cmd_rows = 0;
	st->unit_unknown_said = 0;	/* each table unread is said */
	if (skip + used < n) {
		read_lost_breaks(st, li, t + skip + used, n - skip - used);
		st->in_table = 0;
	}
	return 1;
}

static void start_command_rows(struct ioz_state *st)
{
	st->ncols = command_columns(&st->run, st->cols);
	st->in_table = st->ncols > 0;
	st->table_from_header = 0;
}

static void read_line(struct ioz_state *st, size_t li)
{
	const struct input_line *l = &st->ctx->in->lines[li];
	size_t n;

	if (line_is_empty(l)) {
		st->in_contrib = 0;
		return;
	}
	if (read_banner(st, li))
		return;
	st->in_contrib = 0;
	if (read_command(st, li) || iozone_read_throughput(st, li))
		return;
	n = tokenize(st->ctx->in, l, st->toks);
	if (n > IOZ_MAX_TOKS) {
		if (st->in_table || starts_with(l->text, "kB") ||
		    starts_with(l->text, "KB"))
			parse_error(st->ctx, li, "iozone line with more than "
				    "%d fields", IOZ_MAX_TOKS);
		return;
	}
	if (iozone_read_report(st, li, n))
		return;
	if (is_header1(st->toks, n)) {
		parse_claim(st->ctx, li);
		return;
	}
	if (read_header(st, li, n))
		return;
	if (st->cmd_rows && is_row(st->toks, n)) {
		start_command_rows(st);
		st->cmd_rows = 0;
		if (!st->in_table) {
			parse_error(st->ctx, li, "iozone rows under a command "
				    "line whose -i tests have no known table "
				    "columns");
			return;
		}
	}
	if (st->in_table && is_row(st->toks, n)) {
		read_row(st, li, st->toks, n);
		return;
	}
	st->in_table = st->cmd_rows = 0;
	st->in_report = 0;
}

static int iozone_detect(const struct input *in)
{
	if (!input_contains(in, "iozone") && !input_contains(in, "Iozone") &&
	    !input_contains(in, "throughput for") &&
	    !input_contains(in, "reclen") &&
	    !input_contains(in, "Writer report"))
		return 0;
	for (size_t i = 0; i < in->nlines; i++) {
		const char *t = in->lines[i].text;
		int tick;

		if (strstr(t, "Iozone: Performance Test") ||
		    strstr(t, "throughput for") || strstr(t, "reclen") ||
		    starts_with(t, "\"Writer report\"") ||
		    find_iozone_word(t, &tick))
			return 80;
	}
	return 0;
}

static int iozone_parse(struct parse_ctx *ctx)
{
	struct ioz_state *st = xcalloc(1, sizeof(*st));
	size_t before = ctx->rs->n;
	int emitted;

	st->ctx = ctx;
	run_reset(&st->run);
	for (size_t i = 0; i < ctx->in->nlines; i++)
		read_line(st, i);
	emitted = (int)(ctx->rs->n - before);
	free(st->cmd_text);
	free(st);
	return emitted;
}

static const char *const iozone_programs[] = { "iozone", NULL };

const struct parser parser_iozone = {
	.name = "iozone",
	.tool = "iozone",
	.reads = "iozone's tables, -R report and -t summaries",
	.programs = iozone_programs,
	.output_after_command = 1,
	.reads_through_cache = 1,
	.detect = iozone_detect,
	.parse = iozone_parse,
};
