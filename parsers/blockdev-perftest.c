/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SCST's scripts/blockdev-perftest: one row per block size, the run times
 * of each iteration and their summary, for writes and then reads.
 *
 * Accepted, verbatim (header printed with "%9s " and "%8s ", rows with
 * "%9d " and "%8.3f "; -i N iterations give N "W" and N "R" columns):
 *
 *   # blockdev-perftest -s 26 /dev/sdb                (optional)
 *   blocksize        W        W        W   W(avg,   W(std,        W ...
 *     (bytes)      (s)      (s)      (s)    MB/s)    MB/s)   (IOPS) ...
 *    67108864    0.550    0.548    0.551  116.286    0.254    1.817 ...
 *
 * From r1f5216bc2 (2009-06-15) to r30fef168b (2010-01-17) the script
 * printed "R(std" without its comma and ",MB/s)" under both std columns:
 *
 *   blocksize        W ...   W(avg,   W(std,        W ...   R(avg,    R(std        R
 *     (bytes)      (s) ...    MB/s)   ,MB/s)   (IOPS) ...    MB/s)   ,MB/s)   (IOPS)
 *
 * so header words are matched by their letters, whatever commas and
 * parentheses mail left around them; a header that does not match says
 * which word was expected where.
 *
 * Mail clients wrap these long lines (header and rows) anywhere between
 * fields, and pages copied from the web lose the breaks altogether, so the
 * text is read as one stream of fields: the header words fix the number of
 * iterations, and every row is that many fields, wherever its lines break.
 * A row starts with an integer block size (a power of two); every other
 * field has a decimal point, which is how a wrapped continuation is told
 * from the next row.
 *
 * Units, from the script: a time is the seconds dd (or fio) took for the
 * whole transfer of 2^S bytes (-s S, default 30); the average is the mean
 * of 2^S / time over the runs with a non-zero time, in MB/s of 2^20 bytes;
 * the std is the population standard deviation of the same; IOPS is the
 * average divided by the block size.  A zero time means the test was not
 * run (-r / -w).
 *
 * When the command line is there, the transfer size is known and each run
 * becomes a value (bw = 2^S / time, n = iterations); the printed average
 * must agree with it within the rounding of the times, or the row is
 * reported.  Without it the printed average and std are kept as a summary
 * (stddev_population=1); the times are kept as metric runtime either way.
 * Ops write and read; labels bs, and with a command line device and direct
 * (-a buffered, else direct).  A ratio table typed next to it is prose.
 */
#include "parser.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BPT_MAX_ITER 32
#define BPT_MAX_FIELDS (1 + 2 * (BPT_MAX_ITER + 3))

struct bpt_cmd {
	int present;
	int log2_size;		/* -s, default 30 */
	int iterations;		/* -i, default 3 */
	int direct;		/* -a: 0, else 1 */
	char *device;
};

/* The field stream: where each field came from. */
struct bpt_field {
	char text[40];
	size_t li;
};

struct bpt_state {
	struct parse_ctx *ctx;
	struct bpt_cmd cmd;
	int phase;		/* 0 none, 1 header 1, 2 header 2, 3 rows */
	int iterations;
	size_t want;		/* fields expected in the current phase */
	struct bpt_field f[BPT_MAX_FIELDS];
	size_t nf;
	uint64_t last_bs;
	size_t header_li;
	int copy_noted;		/* the table's first quoted row was noted */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_ascii_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int parse_int(const char *s, int *out)
{
	uint64_t v;

	if (scan_u64(&s, &v) || *s || v > 64)
		return -1;
	*out = (int)v;
	return 0;
}

/* "blockdev-perftest [-a] [-i N] [-s S] ... /dev/sdb"; the script's
 * getopt string is "adfhi:jm:M:nrs:t:w". */
static int read_command(struct bpt_state *st, const char *text)
{
	struct shell_cmd sc;
	const char *p, *end;
	char *w;
	struct bpt_cmd c = { 1, 30, 3, 1, NULL };

	if (!shell_find(text, "blockdev-perftest", &sc, 1))
		return 0;
	p = sc.args;
	end = sc.prog + sc.len;
	while ((w = shell_next_word(&p, end))) {
		if (w[0] == '-' && w[1]) {
			for (const char *o = w + 1; *o; o++) {
				char *arg;
				int *dst = *o == 's' ? &c.log2_size :
					   *o == 'i' ? &c.iterations : NULL;

				if (*o == 'a')
					c.direct = 0;
				else if (*o == 'd')
					c.direct = 1;
				if (!strchr("imMst", *o))
					continue;
				arg = o[1] ? xstrdup(o + 1) :
				      shell_next_word(&p, end);
				if (dst && (!arg || parse_int(arg, dst)))
					c.present = -1;
				free(arg);
				break;
			}
		} else {
			free(c.device);
			c.device = xstrdup(w);
		}
		free(w);
	}
	free(st->cmd.device);
	st->cmd = c;
	return 1;
}

static int is_integer(const char *s)
{
	uint64_t v;

	return !scan_u64(&s, &v) && !*s;
}

static int is_decimal(const char *s, double *v)
{
	const char *p = s;

	return strchr(s, '.') && !scan_double(&p, SCAN_NO_EXPONENT, v) &&
	       !*p;
}

static void label(struct measurement *m, const struct bpt_state *st,
		  uint64_t bs)
{
	labels_setf(&m->labels, "bs", "%llu", (unsigned long long)bs);
	if (st->cmd.present > 0) {
		labels_set(&m->labels, "direct", st->cmd.direct ? "1" : "0");
		if (st->cmd.device)
			labels_set(&m->labels, "device", st->cmd.device);
	}
}

/*
 * Is the printed average (MB/s, rounded to 0.001) what 2^S bytes over the
 * printed times (rounded to 0.001 s) give?  Checked with intervals.
 */
static int average_agrees(const double *t, size_t n, double size,
			  double avg)
{
	double lo = 0, hi = 0;

	for (size_t i = 0; i < n; i++) {
		lo += size / (t[i] + 0.0005);
		hi += t[i] > 0.0005 ? size / (t[i] - 0.0005) : INFINITY;
	}
	lo /= (double)n * MIB;
	hi /= (double)n * MIB;
	return !(avg + 0.0005 < lo) && !(avg - 0.0005 > hi);
}

/* One op's fields of a row: the times, avg, std, IOPS. */
static void emit_op(struct bpt_state *st, const char *op,
		    const struct bpt_field *f, uint64_t bs)
{
	size_t li = f[0].li, n = 0, it = (size_t)st->iterations;
	double t[BPT_MAX_ITER], avg, sd, iops, size;
	struct measurement *m;
	struct summary *sm;

	for (size_t i = 0; i < it; i++) {
		double v;

		is_decimal(f[i].text, &v);
		if (v > 0)
			t[n++] = v;
	}
	is_decimal(f[it].text, &avg);
	is_decimal(f[it + 1].text, &sd);
	is_decimal(f[it + 2].text, &iops);
	if (!n)
		return;		/* not run (-r or -w) */
	m = parse_emit(st->ctx, li, "blockdev-perftest", op, "runtime",
		       UNIT_SECONDS, t[0]);
	for (size_t i = 1; i < n; i++)
		measurement_add_value(m, t[i]);
	label(m, st, bs);
	if (st->cmd.present > 0) {
		size = ldexp(1.0, st->cmd.log2_size);
		if (!average_agrees(t, n, size, avg)) {
			parse_error(st->ctx, li, "blockdev-perftest %s average "
				    "%.3f MB/s does not match 2^%d bytes over "
				    "the printed times (is -s right?)", op,
				    avg, st->cmd.log2_size);
			return;
		}
		m = parse_emit(st->ctx, li, "blockdev-perftest", op, "bw",
			       UNIT_BW, size / t[0]);
		for (size_t i = 1; i < n; i++)
			measurement_add_value(m, size / t[i]);
		label(m, st, bs);
		m = parse_emit(st->ctx, li, "blockdev-perftest", op, "iops",
			       UNIT_IOPS, size / t[0] / (double)bs);
		for (size_t i = 1; i < n; i++)
			measurement_add_value(m, size / t[i] / (double)bs);
		label(m, st, bs);
		return;
	}
	/* parse_emit always stores one value: drop it for the summary. */
	m = parse_emit(st->ctx, li, "blockdev-perftest", op, "bw", UNIT_BW,
		       0);
	m->n = 0;
	sm = measurement_add_summary(m);
	sm->n = (double)n;
	sm->mean = avg * MIB;
	sm->stddev = sd * MIB;
	sm->stddev_population = 1;
	label(m, st, bs);
	m = parse_emit(st->ctx, li, "blockdev-perftest", op, "iops",
		       UNIT_IOPS, 0);
	m->n = 0;
	sm = measurement_add_summary(m);
	sm->n = (double)n;
	sm->mean = iops;
	sm->stddev = sd * MIB / (double)bs;
	sm->stddev_population = 1;
	label(m, st, bs);
}

/* Ends the table in force; a command line applies to one table only. */
static void end_table(struct bpt_state *st)
{
	if (st->phase == 3) {
		free(st->cmd.device);
		memset(&st->cmd, 0, sizeof(st->cmd));
	}
	if (st->phase && st->nf)
		parse_error(st->ctx, st->f[0].li, "blockdev-perftest %s ends "
			    "after %zu of its fields", st->phase == 3 ?
			    "row" : "header", st->nf);
	st->phase = 0;
	st->nf = 0;
}

/*
 * Was this row, every field of it, read before in this input?  With its
 * times printed to the millisecond, such a row is the same table quoted
 * in a reply or copied again (a blog's copy with its line breaks lost
 * under the mail's own), not another run.  Returns the first one's line
 * index, or (size_t)-1 (and remembers this one).
 */
static size_t copy_of_row(struct bpt_state *st)
{
	struct strbuf key = STRBUF_INIT;
	size_t orig;
	int seen;

	strbuf_adds(&key, "blockdev-perftest");
	for (size_t i = 0; i < st->nf; i++) {
		strbuf_addch(&key, '\037');
		strbuf_adds(&key, st->f[i].text);
	}
	seen = parse_seen(st->ctx, strbuf_str(&key), st->f[0].li, &orig);
	strbuf_release(&key);
	return seen ? orig : (size_t)-1;
}

static void finish_row(struct bpt_state *st)
{
	size_t it = (size_t)st->iterations, orig;
	uint64_t bs;
	const char *p = st->f[0].text;

	scan_u64(&p, &bs);
	if (!bs || (bs & (bs - 1)) || (st->last_bs && bs >= st->last_bs)) {
		parse_error(st->ctx, st->f[0].li, "blockdev-perftest row with "
			    "block size %llu: expected a power of two below "
			    "the previous row's", (unsigned long long)bs);
		st->nf = 0;
		return;
	}
	st->last_bs = bs;
	orig = copy_of_row(st);
	if (orig != (size_t)-1) {
		if (!st->copy_noted)
			parse_note(st->ctx, st->f[0].li, "the same "
				   "blockdev-perftest rows as line %u (quoted "
				   "or copied again): not counted twice",
				   st->ctx->in->lines[orig].lineno);
		st->copy_noted = 1;
		st->nf = 0;
		return;
	}
	emit_op(st, "write", st->f + 1, bs);
	emit_op(st, "read", st->f + 1 + it + 3, bs);
	st->nf = 0;
}

/*
 * The header is matched by the letters of its words, not their commas and
 * parentheses: from r1f5216bc2 (2009-06-15) to r30fef168b (2010-01-17) the
 * script printed "R(std" without its comma and ",MB/s)" for the std's
 * unit, and mail moves both about (",MB/s)" glued to the next word).  Each
 * field gives its runs of letters ("W(avg," gives W and avg, ",MB/s)(IOPS)"
 * MB, s and IOPS); a field without letters gives "#", which no header has.
 */
#define BPT_MAX_TOKENS (4 * BPT_MAX_FIELDS)

struct bpt_token {
	char w[12];
	size_t field;		/* index into st->f */
};

static size_t tokenize(const struct bpt_state *st, struct bpt_token *t)
{
	size_t n = 0;

	for (size_t f = 0; f < st->nf; f++) {
		const char *p = st->f[f].text;
		int letters = 0;

		while (*p && n < BPT_MAX_TOKENS) {
			size_t len = 0;

			while (!is_ascii_alpha(*p) && *p)
				p++;
			while (is_ascii_alpha(p[len]))
				len++;
			if (!len)
				break;
			letters = 1;
			if (len >= sizeof(t[n].w))
				len = sizeof(t[n].w) - 1;
			memcpy(t[n].w, p, len);
			t[n].w[len] = '\0';
			t[n++].field = f;
			while (is_ascii_alpha(*p))
				p++;
		}
		if (!letters && n < BPT_MAX_TOKENS) {
			strcpy(t[n].w, "#");
			t[n++].field = f;
		}
	}
	return n;
}

/* One expected letter word and the script's header word it is part of. */
struct bpt_expect {
	const char *w;
	const char *word;
};

static size_t expect_add(struct bpt_expect *e, size_t n, const char *w,
			 const char *word)
{
	e[n].w = w;
	e[n].word = word;
	return n + 1;
}

/* Header line 1 with it iterations, as letter words. */
static size_t expect_header1(struct bpt_expect *e, size_t it)
{
	size_t n = expect_add(e, 0, "blocksize", "blocksize");

	for (int side = 0; side < 2; side++) {
		const char *x = side ? "R" : "W";

		for (size_t i = 0; i < it; i++)
			n = expect_add(e, n, x, x);
		n = expect_add(e, n, x, side ? "R(avg," : "W(avg,");
		n = expect_add(e, n, "avg", side ? "R(avg," : "W(avg,");
		n = expect_add(e, n, x, side ? "R(std," : "W(std,");
		n = expect_add(e, n, "std", side ? "R(std," : "W(std,");
		n = expect_add(e, n, x, x);
	}
	return n;
}

static size_t expect_header2(struct bpt_expect *e, size_t it)
{
	size_t n = expect_add(e, 0, "bytes", "(bytes)");

	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < it; i++)
			n = expect_add(e, n, "s", "(s)");
		for (int k = 0; k < 2; k++) {
			n = expect_add(e, n, "MB", "MB/s)");
			n = expect_add(e, n, "s", "MB/s)");
		}
		n = expect_add(e, n, "IOPS", "(IOPS)");
	}
	return n;
}

static int word_is(const char *have, const char *want)
{
	/* "std" is "stddev" in the one-line header of r5c4a41b65 */
	return !strcasecmp(have, want) ||
	       (!strcmp(want, "std") && !strcasecmp(have, "stddev"));
}

/*
 * Matches the fields so far against the expected words: 1 when they are
 * the whole header line, 0 when a beginning of it, -1 when not (the
 * field and the word expected there are reported).
 */
static int match_header(struct bpt_state *st, const struct bpt_expect *e,
			size_t ne, const char *which)
{
	struct bpt_token *t = xmalloc(BPT_MAX_TOKENS * sizeof(*t));
	size_t n = tokenize(st, t), i;
	int rc = 0;

	for (i = 0; i < n && i < ne; i++)
		if (!word_is(t[i].w, e[i].w))
			break;
	if (i < n && i < ne) {
		const struct bpt_field *f = &st->f[t[i].field];

		parse_error(st->ctx, f->li, "blockdev-perftest %s header line: "
			    "expected '%s' (field %zu) where '%s' is", which,
			    e[i].word, t[i].field + 1, f->text);
		rc = -1;
	} else if (n >= ne) {
		/* the last field may not run past the line's last word */
		rc = n == ne ? 1 : -1;
		if (rc < 0)
			parse_error(st->ctx, st->f[t[ne].field].li,
				    "blockdev-perftest %s header line: '%s' "
				    "after its last word", which,
				    st->f[t[ne].field].text);
	}
	free(t);
	return rc;
}

/*
 * Header line 1: the W columns before "W(avg," are the iterations.  1 when
 * the line is whole, 0 when begun, -1 when it is no header (reported), -2
 * when its R columns are not as many as its W columns.
 */
static int header1_done(struct bpt_state *st)
{
	struct bpt_token *t = xmalloc(BPT_MAX_TOKENS * sizeof(*t));
	struct bpt_expect e[2 * (BPT_MAX_ITER + 6) + 1];
	size_t n = tokenize(st, t), w = 0, r = 0, i;
	int unequal = 0, rc;

	for (i = 1; i < n && !strcasecmp(t[i].w, "W"); i++)
		w++;
	if (i + 4 < n && !strcasecmp(t[i].w, "avg")) {
		for (i += 4; i < n && !strcasecmp(t[i].w, "R"); i++)
			r++;
		unequal = i < n && !strcasecmp(t[i].w, "avg") && r != w;
	}
	free(t);
	if (i >= n && !unequal && w <= BPT_MAX_ITER + 1)
		return 0;	/* still in the W (or R) run */
	if (unequal)
		return -2;
	if (w < 2 || w - 1 > BPT_MAX_ITER)
		w = 2;		/* reports the first word out of place */
	rc = match_header(st, e, expect_header1(e, w - 1), "first");
	if (rc > 0)
		st->iterations = (int)(w - 1);
	return rc;
}

/* Feeds one field; returns 0 when the field ends the table. */
static int feed(struct bpt_state *st, const char *s, size_t len, size_t li)
{
	struct bpt_field *f;
	double v;

	if (st->nf == BPT_MAX_FIELDS || len >= sizeof(f->text))
		return 0;
	f = &st->f[st->nf++];
	memcpy(f->text, s, len);
	f->text[len] = '\0';
	f->li = li;
	switch (st->phase) {
	case 1: {
		int done = header1_done(st);

		if (done == -2)
			parse_error(st->ctx, st->header_li, "blockdev-perftest "
				    "header with unequal W and R columns");
		if (done < 0) {
			st->phase = 0;
			return 0;
		}
		if (done) {
			st->phase = 2;
			st->want = 1 + 2 * ((size_t)st->iterations + 3);
			st->nf = 0;
			if (st->cmd.present > 0 &&
			    st->cmd.iterations != st->iterations)
				parse_note(st->ctx, st->header_li,
					   "the header has %d runs, the "
					   "command line -i %d",
					   st->iterations, st->cmd.iterations);
		}
		return 1;
	}
	case 2: {
		struct bpt_expect e[2 * (BPT_MAX_ITER + 5) + 1];
		int done = match_header(st, e, expect_header2(e,
				(size_t)st->iterations), "second");

		if (done < 0) {
			st->phase = 0;
			return 0;
		}
		if (done)
			st->phase = 3, st->nf = 0, st->last_bs = 0,
			st->copy_noted = 0;
		return 1;
	}
	default:
		if (st->nf == 1 ? !is_integer(f->text) :
				  !is_decimal(f->text, &v)) {
			if (st->nf > 1)
				parse_error(st->ctx, li, "blockdev-perftest "
					    "row broken at '%s' (field %zu of "
					    "%zu)", f->text, st->nf, st->want);
			st->nf = 0;
			return 0;
		}
		if (st->nf == st->want)
			finish_row(st);
		return 1;
	}
}

/* Feeds every field of a line; returns 0 when one ended the table. */
static int feed_line(struct bpt_state *st, size_t li)
{
	const char *p = st->ctx->in->lines[li].text;

	for (;;) {
		const char *s;

		while (is_blank(*p))
			p++;
		if (!*p)
			return 1;
		s = p;
		while (*p && !is_blank(*p))
			p++;
		if (!feed(st, s, (size_t)(p - s), li))
			return 0;
	}
}

static int is_warning(const char *t)
{
	return starts_with(t, "WARNING: insufficient privileges") ||
	       starts_with(t, "-- results will be unreliable.");
}

static void read_line(struct bpt_state *st, size_t li)
{
	const char *t = st->ctx->in->lines[li].text;

	if (line_is_empty(&st->ctx->in->lines[li])) {
		if (st->phase == 3 && st->nf == 0)
			return;	/* rows may go on after a blank line */
		end_table(st);
		return;
	}
	if (is_warning(t)) {
		parse_claim(st->ctx, li);
		return;
	}
	if (starts_with(t, "blocksize ") || !strcmp(t, "blocksize")) {
		end_table(st);
		st->phase = 1;
		st->header_li = li;
		st->nf = 0;
	} else if (!st->phase) {
		read_command(st, t);
		return;
	}
	if (feed_line(st, li)) {
		parse_claim(st->ctx, li);
		return;
	}
	end_table(st);
	if (!starts_with(t, "blocksize"))
		read_command(st, t);
}

static int bpt_detect(const struct input *in)
{
	for (size_t i = 0; i < in->nlines; i++)
		if (starts_with(in->lines[i].text, "blocksize ") &&
		    strstr(in->lines[i].text, " W"))
			return 80;
	return 0;
}

static int bpt_parse(struct parse_ctx *ctx)
{
	struct bpt_state *st = xcalloc(1, sizeof(*st));
	size_t before = ctx->rs->n;
	int emitted;

	st->ctx = ctx;
	for (size_t i = 0; i < ctx->in->nlines; i++)
		read_line(st, i);
	end_table(st);
	emitted = (int)(ctx->rs->n - before);
	free(st->cmd.device);
	free(st);
	return emitted;
}

static const char *const blockdev_perftest_programs[] = { "blockdev-perftest", NULL };

const struct parser parser_blockdev_perftest = {
	.name = "blockdev-perftest",
	.tool = "blockdev-perftest",
	.reads = "SCST's blockdev-perftest tables",
	.programs = blockdev_perftest_programs,
	.output_after_command = 1,
	.detect = bpt_detect,
	.parse = bpt_parse,
};
