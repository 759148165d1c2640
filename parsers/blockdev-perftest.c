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
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
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
	m->summary.present = 1;
	m->summary.n = (double)n;
	m->summary.mean = avg * MIB;
	m->summary.stddev = sd * MIB;
	m->summary.stddev_population = 1;
	label(m, st, bs);
	m = parse_emit(st->ctx, li, "blockdev-perftest", op, "iops",
		       UNIT_IOPS, 0);
	m->n = 0;
	m->summary.present = 1;
	m->summary.n = (double)n;
	m->summary.mean = iops;
	m->summary.stddev = sd * MIB / (double)bs;
	m->summary.stddev_population = 1;
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

static void finish_row(struct bpt_state *st)
{
	size_t it = (size_t)st->iterations;
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
	emit_op(st, "write", st->f + 1, bs);
	emit_op(st, "read", st->f + 1 + it + 3, bs);
	st->nf = 0;
}

/* Header line 1: blocksize W... W(avg, W(std, W R... R(avg, R(std, R */
static int header1_done(struct bpt_state *st)
{
	size_t w = 0, r = 0, i;
	static const char *const tail_w[] = { "W(avg,", "W(std,", "W" };
	static const char *const tail_r[] = { "R(avg,", "R(std,", "R" };

	for (i = 1; i < st->nf && !strcmp(st->f[i].text, "W"); i++)
		w++;
	for (size_t k = 0; k < 3; k++, i++)
		if (i >= st->nf || strcmp(st->f[i].text, tail_w[k]))
			return 0;
	for (; i < st->nf && !strcmp(st->f[i].text, "R"); i++)
		r++;
	for (size_t k = 0; k < 3; k++, i++)
		if (i >= st->nf || strcmp(st->f[i].text, tail_r[k]))
			return 0;
	if (!w || w != r || w > BPT_MAX_ITER)
		return -1;
	st->iterations = (int)w;
	return 1;
}

static int header2_word_ok(const struct bpt_state *st, size_t i)
{
	size_t it = (size_t)st->iterations, k = (i - 1) % (it + 3);
	const char *s = st->f[i].text;

	if (i == 0)
		return !strcmp(s, "(bytes)");
	if (k < it)
		return !strcmp(s, "(s)");
	return !strcmp(s, k == it + 2 ? "(IOPS)" : "MB/s)");
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

		if (done < 0) {
			parse_error(st->ctx, st->header_li, "blockdev-perftest "
				    "header with unequal W and R columns");
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
	case 2:
		if (!header2_word_ok(st, st->nf - 1)) {
			parse_error(st->ctx, li, "unexpected '%s' in the "
				    "second blockdev-perftest header line",
				    f->text);
			st->phase = 0;
			return 0;
		}
		if (st->nf == st->want)
			st->phase = 3, st->nf = 0, st->last_bs = 0;
		return 1;
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

const struct parser parser_blockdev_perftest = {
	.name = "blockdev-perftest",
	.detect = bpt_detect,
	.parse = bpt_parse,
};
