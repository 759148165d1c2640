/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE	/* memmem */
/*
 * fio's per-I/O and per-interval logs: write_bw_log, write_iops_log,
 * write_lat_log (JOB_bw.N.log, _iops, _clat, _slat, _lat) and
 * write_hist_log (JOB_clat_hist.N.log), as fio's iolog.c flush_samples()
 * and flush_hist_samples() write them.
 *
 * Accepted, verbatim (each has a fixture under tests/parsers/fio/):
 *
 *   2000, 12, 0, 0                  fio 2.x-3.1: time ms, value, direction,
 *                                   bs (", offset" with log_offset=1)
 *   1000, 1200, 0, 0, 0             fio 3.x: ..., bs, [offset,] priority
 *   1, 403493, 0, 4096, 1011712, 0x0000   log_prio=1: priority in hex
 *   1001, 0, 16384, 0, 0, 2, ...    hist log: time, direction, bs, then
 *                                   one count per latency bucket
 *
 * The lines do not say what they measure: fio says it in the file name,
 * so the kind is the name's bw/iops/clat/slat/lat part; a log whose name
 * does not say is an error, not a guess.  Units: bw values are KiB/s,
 * iops 1/s, latencies nsec since fio 3.0 and usec before.  The file cannot
 * tell which fio wrote it: the caller says (ctx->fio_version: --fio-version,
 * or a fio output of the same run beside the log); else fio 3.x is taken,
 * fio's only version maintained for years, and a note says so.  A hist
 * log's bucket count tells its version itself (1216 buckets: fio 2.x, usec;
 * 1856: fio 3.x, ns).
 *
 * A log is one run of one job: one measurement per direction, whose one
 * value is the figure of the whole log, its lines the samples over time
 * (measurement.series), never repetitions.  Two kinds of log (fio's
 * log_avg_msec):
 *
 *  - averaged (log_avg_msec=N): one line per direction per window, bs 0
 *    (lat logs always; bw and iops logs of newer fio carry the job's bs).
 *    The series is one point per line, the value the mean of the lines
 *    (as fio's JSON has bw_mean and iops_mean, from the same samples).
 *  - per I/O (log_avg_msec=0, the default): one line per I/O, its bs set.
 *    A log of a billion I/Os is read in constant memory: the lines are
 *    summed into windows of LOG_WINDOW_MS (fiologparser.py's default
 *    interval), the series one point per window -- bw the bytes of the
 *    window's I/Os over its length (fio's per-I/O bw value is bs/latency,
 *    not a throughput), iops their count over its length, latency their
 *    mean.  The value: bw and iops the whole log's bytes and I/Os over
 *    the time to its last I/O; latency the mean over every I/O, and its
 *    min, max and stddev as measurements of their own (clat.min ...).
 *    A window without I/O is a 0 for bw and iops (a stall), no point for
 *    latency.  The first 256 lines decide: per I/O when bs is set and,
 *    for bw and iops, the lines do not come at a steady pace (or every
 *    iops value is fio's per-I/O 1).
 *
 * Hist logs: buckets summed over the run into one histogram per direction,
 * kept on the clat.p50 measurement, with fio's default percentiles
 * computed from it, as before; and per interval, each percentile as a
 * series, the clat.p50 series carrying the interval's buckets.
 *
 * Op read/write/trim from the direction.  Lines are read the same from a
 * cut input and, for a file that is a log and nothing else, from its raw
 * text (parse_whole: no line table, so a log of any size fits).
 */
#include "fio-common.h"
#include "../core/numscan.h"
#include "../core/series.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIST_MIN_FIELDS 100
#define HIST_FIELDS_MAX 4096
#define LOG_WINDOW_MS 1000
#define CLASSIFY_LINES 256
#define NPCTS 17
#define LOG_GAP_MAX 86400	/* windows of zeros filled in, at most */

/* fio's default percentiles, as a hist log's measurements have them. */
static const char *const pcts[NPCTS] = {
	"1", "5", "10", "20", "30", "40", "50", "60", "70", "80", "90",
	"95", "99", "99.5", "99.9", "99.95", "99.99"
};
#define PCT_P50 6

/* ---- lines, from a cut input or from raw text ---- */

struct log_iter {
	const struct input *in;
	size_t li;		/* index of the next line */
	const char *p, *end;	/* raw text left (uncut input) */
	size_t dropped;		/* bytes let go (input_drop_read) */
};

#define ITER_DROP ((size_t)8 << 20)

struct log_line {
	const char *text, *end;
	size_t li;
};

static void iter_init(struct log_iter *it, const struct input *in)
{
	it->in = in;
	it->li = 0;
	it->p = in->data;
	it->end = in->data + (in->uncut ? in->size : 0);
	it->dropped = 0;
}

static int iter_next(struct log_iter *it, struct log_line *l)
{
	if (!it->in->uncut) {
		if (it->li >= it->in->nlines)
			return 0;
		l->text = it->in->lines[it->li].text;
		l->end = l->text + it->in->lines[it->li].len;
	} else {
		const char *nl;

		if (it->p >= it->end)
			return 0;
		nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
		l->text = it->p;
		l->end = nl ? nl : it->end;
		it->p = nl ? nl + 1 : it->end;
		/* read once, front to back: the text behind may go */
		if ((size_t)(l->text - it->in->data) - it->dropped >=
		    ITER_DROP) {
			size_t to = (size_t)(l->text - it->in->data);

			input_drop_through(it->in, &it->dropped, to);
		}
	}
	l->li = it->li++;
	return 1;
}

/* ---- fields ---- */

static const char *skip_blanks(const char *t, const char *end)
{
	while (t < end && (*t == ' ' || *t == '\t' || *t == '\r'))
		t++;
	return t;
}

/* A decimal integer, or fio's "0x%04x" priority; -1 on anything else. */
static int field_u64(const char **tp, const char *end, uint64_t *out)
{
	const char *t = *tp;
	int hex = end - t > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
	unsigned base = hex ? 16 : 10;
	uint64_t x = 0;
	const char *start;

	t += hex ? 2 : 0;
	start = t;
	for (; t < end; t++) {
		unsigned d;

		if (*t >= '0' && *t <= '9')
			d = (unsigned)(*t - '0');
		else if (hex && *t >= 'a' && *t <= 'f')
			d = (unsigned)(*t - 'a' + 10);
		else if (hex && *t >= 'A' && *t <= 'F')
			d = (unsigned)(*t - 'A' + 10);
		else
			break;
		if (x > (UINT64_MAX - d) / base)
			return -1;
		x = x * base + d;
	}
	if (t == start)
		return -1;
	*tp = t;
	*out = x;
	return 0;
}

/* Reads the comma-separated integers of a log line (at least 4; the
 * first max kept); -1 on other text. */
static int log_fields(const char *t, const char *end, uint64_t *v,
		      size_t max, size_t *n)
{
	*n = 0;
	for (;;) {
		uint64_t x;

		t = skip_blanks(t, end);
		if (field_u64(&t, end, &x))
			return -1;
		if (*n < max)
			v[*n] = x;
		(*n)++;
		t = skip_blanks(t, end);
		if (t == end)
			return *n >= 4 ? 0 : -1;
		if (*t++ != ',')
			return -1;
	}
}

static int line_blank(const struct log_line *l)
{
	return skip_blanks(l->text, l->end) == l->end;
}

/* The kind of log from its name ("x_bw.1.log", "fio-3.1-floppy-clat.1.log"). */
static const char *log_kind(const char *name);
static int name_says_hist(const char *name);

/*
 * Sixteen log lines and nothing else first; or, in a file named like a
 * fio log, a first line of a log (a later line that is not one is then
 * said, with its number: a log cut short when fio was killed).
 */
static int fio_log_detect(const struct input *in)
{
	size_t checked = 0;
	int named = log_kind(in->name) != NULL;

	for (size_t i = 0; i < in->nlines && checked < 16; i++) {
		uint64_t v[8];
		size_t n;
		const char *t = in->lines[i].text;

		if (!*t)
			continue;
		if (log_fields(t, t + in->lines[i].len, v, 8, &n))
			return named && checked ? 40 : 0;
		checked++;
	}
	return checked ? 40 : 0;
}

/* The kind of log from its name ("x_bw.1.log", "fio-3.1-floppy-clat.1.log"). */
static const char *log_kind(const char *name)
{
	static const char *const kinds[] = {
		"bw", "iops", "clat", "slat", "lat", NULL
	};
	const char *p = name;

	while (*p) {
		size_t len = strcspn(p, "_.-");

		for (size_t k = 0; kinds[k]; k++)
			if (len == strlen(kinds[k]) && !strncmp(p, kinds[k], len))
				return kinds[k];
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

int fio_log_name_kind(const char *name)
{
	return log_kind(name) != NULL;
}

const char *fio_log_empty_why(const char *name)
{
	const char *kind = log_kind(name);

	if (!kind || !ends_with(name, ".log"))	/* fio names them .log */
		return NULL;
	if (name_says_hist(name))
		return "an empty fio histogram log: fio writes its lines only "
		       "with log_hist_msec; nothing to read";
	if (!strcmp(kind, "slat"))
		return "an empty fio slat log: a synchronous ioengine (psync, "
		       "sync, ...) has no submission latency; nothing to read";
	return NULL;
}

/* ---- value logs ---- */

/* One direction of a value log. */
struct dir_acc {
	size_t mi;		/* its measurement, SIZE_MAX until emitted */
	size_t first_li;
	struct series *s;
	/* per-I/O: the window being summed, and the gaps' zeros */
	int open;
	uint64_t win, count, bytes, last_ms, windows;
	double sum;
	/* averaged: the sum and count of the lines' values, the last
	 * line's time, whether a time went back (said once) */
	double vsum;
	uint64_t vn, last_t;
	int went_back;
	/* log_window_value=both: the windows' maxima */
	size_t mi1;
	struct series *s1;
	double max1;
	/* per-I/O bw and iops: the bytes and I/Os of the whole log */
	uint64_t tot_bytes, tot_count;
	/* per-I/O latency: every I/O's figures (Welford) */
	uint64_t n;
	long double mean, m2;
	double min, max;
};

struct value_log {
	struct parse_ctx *ctx;
	const char *kind, *unit;
	char metric[16];	/* "bw", "iops", "clat.mean"... */
	/* log_window_value=both (fio 3.37+): a window's max after its
	 * value, as a measurement of its own ("clat.max", "iops.max") */
	int both;
	char max_metric[16];
	double scale;		/* a value -> unit (fio_seconds when < 1) */
	int lat, raw, keep_series;
	struct dir_acc d[3];
};

static double log_value(uint64_t v, double scale)
{
	return scale < 1 ? fio_seconds((double)v, scale) : (double)v * scale;
}

/*
 * The measurement of direction dir, emitted once (with a value the
 * finish replaces by the whole log's figure): a log is one run, its
 * lines are its samples over time, not repetitions.
 */
static struct measurement *dir_measurement(struct value_log *vl, int dir,
					   double first)
{
	struct dir_acc *a = &vl->d[dir];
	struct measurement *m;

	if (a->mi != SIZE_MAX)
		return &vl->ctx->rs->m[a->mi];
	m = fio_emit(vl->ctx, a->first_li, fio_dir_name((enum fio_dir)dir),
		     vl->metric, vl->unit, first, NULL);
	a->mi = vl->ctx->rs->n - 1;
	return m;
}

/* A per-I/O window done: its point, and its value for bw and iops. */
static void flush_window(struct value_log *vl, int dir, uint64_t win,
			 uint64_t count, uint64_t bytes, double sum,
			 double span_ms)
{
	struct dir_acc *a = &vl->d[dir];
	double t = (double)((win + 1) * LOG_WINDOW_MS) / 1000, v;

	a->windows++;
	if (vl->lat) {
		if (!count)
			return;
		v = log_value(1, vl->scale) * (sum / (double)count);
		if (a->s)
			series_add(a->s, t, v);
		return;
	}
	v = (!strcmp(vl->kind, "bw") ? (double)bytes : (double)count) /
	    (span_ms / 1000);
	dir_measurement(vl, dir, v);
	if (a->s)
		series_add(a->s, t, v);
}

/* Windows with no I/O between the last one and win: zeros (a stall). */
static void flush_gap(struct value_log *vl, int dir, uint64_t win)
{
	struct dir_acc *a = &vl->d[dir];

	flush_window(vl, dir, a->win, a->count, a->bytes, a->sum,
		     LOG_WINDOW_MS);
	if (win - a->win > LOG_GAP_MAX)
		return;		/* a clock jump, not a stall of days */
	for (uint64_t w = a->win + 1; w < win && !vl->lat; w++)
		flush_window(vl, dir, w, 0, 0, 0, LOG_WINDOW_MS);
}

static void raw_line(struct value_log *vl, int dir, const uint64_t *v)
{
	struct dir_acc *a = &vl->d[dir];
	uint64_t win = v[0] / LOG_WINDOW_MS;

	if (a->open && win > a->win) {
		flush_gap(vl, dir, win);
		a->count = a->bytes = 0;
		a->sum = 0;
	}
	if (!a->open || win > a->win)
		a->win = win;
	a->open = 1;
	a->count++;
	a->bytes += v[3];
	a->sum += (double)v[1];
	a->tot_count++;
	a->tot_bytes += v[3];
	a->last_ms = v[0] > a->last_ms ? v[0] : a->last_ms;
	if (vl->lat) {
		double x = log_value(v[1], vl->scale);
		long double dx = x - a->mean;

		a->n++;
		a->mean += dx / (long double)a->n;
		a->m2 += dx * (x - a->mean);
		a->min = a->n == 1 || x < a->min ? x : a->min;
		a->max = a->n == 1 || x > a->max ? x : a->max;
	}
}

/* A figure of the whole log beside the measurement of direction d (the
 * per-I/O latency's min, max and stddev), n = 1. */
static void emit_figure(struct value_log *vl, const struct dir_acc *a,
			int d, const char *stat, double v)
{
	char metric[24];

	if (isnan(v))
		return;
	snprintf(metric, sizeof(metric), "%s.%s", vl->kind, stat);
	fio_emit(vl->ctx, a->first_li, fio_dir_name((enum fio_dir)d), metric,
		 vl->unit, v, NULL);
}

/*
 * The last window: divided by the time it covers, which a run that stops
 * mid-window leaves short; dropped under half a window (a few I/Os over a
 * few ms would read as a spike), unless it is the only one.
 *
 * The log's figure, one value: bw and iops the bytes and I/Os of the
 * whole log over the time it covers (from the job's start to its last
 * I/O: fio's time column counts from there) -- near fio's JSON bw, which
 * divides io_bytes by the job's runtime, a few ms longer (0.45% on
 * fixture 0011); latency the mean over every I/O, with its
 * min, max and stddev as measurements of their own (clat.min ...), as
 * fio's JSON has them.
 */
static void raw_finish(struct value_log *vl, int dir)
{
	struct dir_acc *a = &vl->d[dir];
	double span = (double)(a->last_ms - a->win * LOG_WINDOW_MS);
	struct measurement *m;

	if (!a->open)
		return;
	if (span >= LOG_WINDOW_MS / 2 || !a->windows)
		flush_window(vl, dir, a->win, a->count, a->bytes, a->sum,
			     span > 1 ? span : 1);
	m = dir_measurement(vl, dir, 0);
	if (!vl->lat) {
		double secs = (double)(a->last_ms > 0 ? a->last_ms : 1) / 1000;

		m->values[0] = (!strcmp(vl->kind, "bw") ?
				(double)a->tot_bytes : (double)a->tot_count) /
			       secs;
		return;
	}
	m->values[0] = (double)a->mean;
	emit_figure(vl, a, dir, "min", a->min);
	emit_figure(vl, a, dir, "max", a->max);
	emit_figure(vl, a, dir, "stddev", a->n > 1 ?
		    (double)sqrtl(a->m2 / (long double)(a->n - 1)) : NAN);
}

/* What the columns of a log's first lines say of log_window_value. */
enum both_verdict {
	BOTH_NO,	/* a plain log */
	BOTH_YES,	/* "time, value, max, direction, bs, ..." */
	BOTH_MAYBE,	/* either: read plain, with a note */
};

/*
 * log_window_value=both (fio 3.37 on): "time, value, value1, direction,
 * bs, ..." -- the window's max after its mean.  Nothing in the file says
 * so but the columns: from the first lines, six fields or more, every
 * third field at least the second (a max is no smaller than the mean)
 * and some above 2 (no direction is), every fourth a direction.  A log
 * whose every line fits that but with maxima of 2 or less (an IOPS log
 * of 1 or 2 a second) fits a plain log with log_offset as well (value,
 * direction, bs 0, offset): BOTH_MAYBE.
 */
static enum both_verdict classify_both(const struct input *in)
{
	struct log_iter it;
	struct log_line l;
	uint64_t v[6];
	size_t n, seen = 0;
	int above = 0;

	iter_init(&it, in);
	while (seen < CLASSIFY_LINES && iter_next(&it, &l)) {
		if (log_fields(l.text, l.end, v, 6, &n))
			continue;
		if (n < 6)
			continue;	/* a line cut short: said later */
		if (v[2] < v[1] || v[3] > 2)
			return BOTH_NO;
		above |= v[2] > 2;
		seen++;
	}
	if (!seen)
		return BOTH_NO;
	return above ? BOTH_YES : BOTH_MAYBE;
}

/* The fields of a log=both line as a plain line's: v[2] the direction,
 * v[3] bs; the window's max returned. */
static uint64_t unboth(uint64_t *v)
{
	uint64_t max = v[2];

	v[2] = v[3];
	v[3] = v[4];
	return max;
}

/*
 * Per I/O or averaged?  fio writes an averaged sample (log_avg_msec)
 * with bs 0 and a per-I/O one with the I/O's size: one line with a bs
 * says per I/O.  (The pace of the lines does not: a rate-limited per-I/O
 * log is as steady as an averaged one, and was read as one, 20.5 MB/s
 * for 41 KB/s.)
 */
static int classify_raw(const struct input *in, int both)
{
	struct log_iter it;
	struct log_line l;
	uint64_t v[6];
	size_t n, seen = 0;

	iter_init(&it, in);
	while (seen < CLASSIFY_LINES && iter_next(&it, &l)) {
		if (log_fields(l.text, l.end, v, 6, &n))
			continue;
		if (both)
			unboth(v);
		if (v[2] > 2)
			continue;
		seen++;
		if (v[3])
			return 1;
	}
	return 0;
}

/* fio 2.x (and 1.x) wrote latencies in usec, 3.x in nsec; see the top
 * comment.  0 after an error. */
static double lat_scale(struct parse_ctx *ctx, const char *kind)
{
	const char *ver = ctx->fio_version;

	if (ver && !strncmp(ver, "fio-", 4))
		ver += 4;
	if (ver && *ver >= '0' && *ver <= '9')
		return *ver <= '2' && (ver[1] == '.' || !ver[1]) ? 1e-6 : 1e-9;
	if (ver) {
		parse_error(ctx, 0, "fio %s log: fio version '%s' (from %s) is "
			    "not a version", kind, ctx->fio_version,
			    ctx->fio_version_from ? ctx->fio_version_from :
			    "--fio-version");
		return 0;
	}
	if (!ctx->fio_assume_noted || !atomic_exchange(ctx->fio_assume_noted,
						       1))
		parse_note(ctx, 0, "fio %s log: no fio output of the run beside "
			   "it says which fio wrote it; read as fio 3.x "
			   "(nsec; fio 2.x wrote usec: say --fio-version 2 "
			   "if so)", kind);
	return 1e-9;
}

static int value_log_init(struct value_log *vl, struct parse_ctx *ctx,
			  const char *kind)
{
	memset(vl, 0, sizeof(*vl));
	vl->ctx = ctx;
	vl->kind = kind;
	snprintf(vl->metric, sizeof(vl->metric), "%s", kind);
	for (int d = 0; d < 3; d++)
		vl->d[d].mi = SIZE_MAX;
	if (!strcmp(kind, "bw")) {
		vl->unit = UNIT_BW;
		vl->scale = 1024;
	} else if (!strcmp(kind, "iops")) {
		vl->unit = UNIT_IOPS;
		vl->scale = 1;
	} else {
		vl->unit = UNIT_SECONDS;
		vl->lat = 1;
		/* a window's mean, or every I/O's: clat.mean */
		snprintf(vl->metric, sizeof(vl->metric), "%s.mean", kind);
		vl->scale = lat_scale(ctx, kind);
		if (!(vl->scale > 0))
			return -1;
	}
	switch (classify_both(ctx->in)) {
	case BOTH_YES:
		vl->both = 1;
		break;
	case BOTH_MAYBE:
		/* a plain log is what most fio versions write */
		parse_note(ctx, 0, "fio %s log: its lines fit "
			   "log_window_value=both too (time, value, max, "
			   "direction, bs), with maxima of 2 or less; read as "
			   "a plain log (time, value, direction, bs, offset)",
			   kind);
		break;
	case BOTH_NO:
		break;
	}
	snprintf(vl->max_metric, sizeof(vl->max_metric), "%s.max", kind);
	for (int d = 0; d < 3; d++)
		vl->d[d].mi1 = SIZE_MAX;
	vl->raw = classify_raw(ctx->in, vl->both);
	vl->keep_series = !ctx->drop_histograms;
	return 0;
}

/* The max of a log=both window: the max measurement (emitted with the
 * first, its value the largest) and its series. */
static void both_line(struct value_log *vl, int dir, double t, double max)
{
	struct dir_acc *a = &vl->d[dir];

	if (a->mi1 == SIZE_MAX) {
		fio_emit(vl->ctx, a->first_li, fio_dir_name((enum fio_dir)dir),
			 vl->max_metric, vl->unit, max, NULL);
		a->mi1 = vl->ctx->rs->n - 1;
		a->max1 = max;
		if (vl->keep_series)
			a->s1 = series_new(0);
	}
	a->max1 = fmax(a->max1, max);
	if (a->s1)
		series_add(a->s1, t, max);
}

/* One line; -1 when it is not a log line (left to other parsers). */
static int value_line(struct value_log *vl, const struct log_line *l)
{
	uint64_t v[6];
	size_t n;
	struct dir_acc *a;

	uint64_t max1 = 0;

	if (log_fields(l->text, l->end, v, 6, &n))
		return -1;
	if (!vl->ctx->in->uncut)
		parse_claim(vl->ctx, l->li);
	if (vl->both) {
		if (n < 6) {
			parse_error(vl->ctx, l->li, "fio log: %zu fields where "
				    "its first lines have 6 or more "
				    "(log_window_value=both)", n);
			return 0;
		}
		max1 = unboth(v);
	}
	if (v[2] > 2) {
		parse_error(vl->ctx, l->li, "fio log: unknown direction %llu",
			    (unsigned long long)v[2]);
		return 0;
	}
	a = &vl->d[v[2]];
	if (a->mi == SIZE_MAX && !a->open && !a->s) {
		a->first_li = l->li;
		if (vl->keep_series)
			a->s = series_new(vl->raw ? LOG_WINDOW_MS / 1000.0 : 0);
	}
	if (vl->raw) {
		raw_line(vl, (int)v[2], v);
		return 0;
	}
	dir_measurement(vl, (int)v[2], log_value(v[1], vl->scale));
	if (a->vn && v[0] < a->last_t && !a->went_back) {
		a->went_back = 1;
		parse_note(vl->ctx, l->li, "fio %s log: its %s time goes back "
			   "here, from %llu to %llu ms (lines out of order, or "
			   "two logs pasted together?): read as one run",
			   vl->kind,
			   fio_dir_name((enum fio_dir)v[2]),
			   (unsigned long long)a->last_t,
			   (unsigned long long)v[0]);
	}
	a->last_t = v[0];
	a->vsum += log_value(v[1], vl->scale);
	a->vn++;
	if (vl->both)
		both_line(vl, (int)v[2], (double)v[0] / 1000,
			  log_value(max1, vl->scale));
	if (a->s)
		series_add(a->s, (double)v[0] / 1000, log_value(v[1],
								vl->scale));
	return 0;
}

/*
 * An averaged log's interval: its points' mean spacing, to the ms.  0,
 * not known, when its last time is not after its first (lines out of
 * order, a log pasted after another): a negative interval is no
 * interval, and storan refused the result set it wrote with one.
 */
static double mean_spacing(const struct series *s)
{
	double span;

	if (s->n < 2)
		return 0;
	span = s->t[s->n - 1] - s->t[0];
	if (!(span > 0))
		return 0;
	return nearbyint(span / (double)(s->n - 1) * 1000) / 1000;
}

static void value_log_finish(struct value_log *vl)
{
	for (int d = 0; d < 3; d++) {
		struct dir_acc *a = &vl->d[d];

		if (a->mi1 != SIZE_MAX) {
			struct measurement *m1 = &vl->ctx->rs->m[a->mi1];

			m1->values[0] = a->max1;	/* the log's largest */
			if (a->s1 && a->s1->n) {
				a->s1->interval = mean_spacing(a->s1);
				m1->series = a->s1;
				a->s1 = NULL;
			}
		}
		series_free(a->s1);
		a->s1 = NULL;
		if (vl->raw)
			raw_finish(vl, d);
		else if (a->mi != SIZE_MAX && a->vn)
			/* the mean of the log's samples, as fio's JSON has
			 * bw_mean and iops_mean from the same samples */
			vl->ctx->rs->m[a->mi].values[0] =
				a->vsum / (double)a->vn;
		if (!a->s)
			continue;
		if (!vl->raw)
			a->s->interval = mean_spacing(a->s);
		if (a->mi != SIZE_MAX && a->s->n)
			vl->ctx->rs->m[a->mi].series = a->s;
		else
			series_free(a->s);
		a->s = NULL;
	}
}

static void value_log_abandon(struct value_log *vl)
{
	for (int d = 0; d < 3; d++) {
		series_free(vl->d[d].s);
		series_free(vl->d[d].s1);
	}
}

/* ---- hist logs ---- */

struct hist_log {
	struct parse_ctx *ctx;
	uint64_t *v;		/* the fields of a line */
	size_t nbins, skip;
	double scale;		/* bucket unit: 1e-6 usec, 1e-9 nsec */
	double *raw;		/* bucket latencies, in fio's unit */
	double *bucket;		/* bucket latencies, seconds */
	uint64_t *cum;		/* scratch: running counts of a line */
	uint64_t *sum[3];	/* per direction, over the run */
	size_t first[3];
	struct series *s[3][NPCTS];	/* per direction, per percentile */
	int keep_series;
};

static void hist_log_init(struct hist_log *h, struct parse_ctx *ctx)
{
	memset(h, 0, sizeof(*h));
	h->ctx = ctx;
	h->v = xcalloc(HIST_FIELDS_MAX, sizeof(*h->v));
	h->keep_series = !ctx->drop_histograms;
}

static void hist_log_release(struct hist_log *h)
{
	for (int d = 0; d < 3; d++) {
		free(h->sum[d]);
		for (int k = 0; k < NPCTS; k++)
			series_free(h->s[d][k]);
	}
	free(h->v);
	free(h->raw);
	free(h->bucket);
	free(h->cum);
}

/*
 * A hist log's bucket count: fio 3.x's 1856 (ns) or 2.x's 1216 (usec),
 * or either over 2^c with log_hist_coarseness=c (0 to 6: fio sums each
 * 2^c neighbouring buckets into one).  Sets *scale and *coarse; 0, or
 * -1 for another count.
 */
static int hist_shape(size_t nbins, double *scale, unsigned *coarse)
{
	for (unsigned c = 0; c <= 6; c++) {
		if (nbins == (size_t)1856 >> c || nbins == (size_t)1216 >> c) {
			*scale = nbins == (size_t)1856 >> c ? 1e-9 : 1e-6;
			*coarse = c;
			return 0;
		}
	}
	return -1;
}

/* The first line fixes the layout: time, direction, bs, then the
 * buckets (fio's iolog.c flush_hist_samples() writes no priority or
 * offset there).  A coarse bucket stands at the middle of the fine
 * buckets it sums. */
static void hist_layout(struct hist_log *h, size_t n)
{
	unsigned c = 0, stride;

	h->skip = 3;
	h->nbins = n - h->skip;
	if (hist_shape(h->nbins, &h->scale, &c))
		return;
	stride = 1u << c;
	h->raw = xmalloc(h->nbins * sizeof(*h->raw));
	h->bucket = xmalloc(h->nbins * sizeof(*h->bucket));
	h->cum = xmalloc(h->nbins * sizeof(*h->cum));
	for (size_t i = 0; i < h->nbins; i++) {
		unsigned first = (unsigned)i * stride;

		h->raw[i] = ((double)fio_plat_idx_to_val(first, 6) +
			     (double)fio_plat_idx_to_val(first + stride - 1,
							 6)) / 2;
		h->bucket[i] = fio_seconds(h->raw[i], h->scale);
	}
}

/* The interval of one line as a point of each percentile's series. */
static void hist_points(struct hist_log *h, int d, double t,
			const uint64_t *bins)
{
	uint64_t run = 0;

	for (size_t b = 0; b < h->nbins; b++)
		h->cum[b] = run += bins[b];
	if (!run)
		return;		/* no I/O completed: no latency to show */
	if (!h->s[d][0]) {
		for (int k = 0; k < NPCTS; k++)
			h->s[d][k] = series_new(0);
		series_set_buckets(h->s[d][PCT_P50], h->bucket, h->nbins);
	}
	for (int k = 0; k < NPCTS; k++) {
		const char *s = pcts[k];
		double p, v;

		scan_double(&s, 0, &p);
		v = fio_hist_percentile_cum(h->bucket, h->cum, h->nbins, p);
		if (k == PCT_P50)
			series_add_hist(h->s[d][k], t, v, bins);
		else
			series_add(h->s[d][k], t, v);
	}
}

/* 0; 1 for a line that is not a log line (its fields not read); -1
 * after an error (the log is not read further). */
static int hist_line(struct hist_log *h, const struct log_line *l)
{
	uint64_t *v = h->v;
	size_t n;
	int d;

	if (log_fields(l->text, l->end, v, HIST_FIELDS_MAX, &n))
		return 1;
	if (!h->ctx->in->uncut)
		parse_claim(h->ctx, l->li);
	if (!h->nbins)
		hist_layout(h, n);
	if (!(h->scale > 0) || n - h->skip != h->nbins ||
	    n > HIST_FIELDS_MAX || v[1] > 2) {
		parse_error(h->ctx, l->li, "fio histogram log with %zu buckets "
			    "(fio writes 1216 or 1856, or either halved 1 to "
			    "6 times by log_hist_coarseness)", n - h->skip);
		return -1;
	}
	d = (int)v[1];
	if (!h->sum[d]) {
		h->sum[d] = xcalloc(h->nbins, sizeof(uint64_t));
		h->first[d] = l->li;
	}
	for (size_t b = 0; b < h->nbins; b++)
		h->sum[d][b] += v[h->skip + b];
	if (h->keep_series)
		hist_points(h, d, (double)v[0] / 1000, v + h->skip);
	return 0;
}

/* The run's percentiles of direction d; series given to them. */
static void emit_hist(struct hist_log *h, int d)
{
	struct parse_ctx *ctx = h->ctx;
	struct histogram hg = { 0, NULL, NULL };
	struct strbuf metric = STRBUF_INIT;
	size_t p50 = 0, nbins = h->nbins;
	uint64_t *cum = xcalloc(nbins + 1, sizeof(*cum));
	const uint64_t *bins = h->sum[d];

	hg.value = xcalloc(nbins, sizeof(double));
	hg.count = xcalloc(nbins, sizeof(uint64_t));
	for (size_t i = 0; i < nbins; i++)
		if (bins[i]) {
			hg.value[hg.n] = h->raw[i];
			hg.count[hg.n] = bins[i];
			cum[hg.n] = bins[i] + (hg.n ? cum[hg.n - 1] : 0);
			hg.n++;
		}
	for (size_t k = 0; k < NPCTS; k++) {
		const char *s = pcts[k];
		double p, v;
		struct measurement *m;

		scan_double(&s, 0, &p);
		fio_pct_metric(&metric, "clat", pcts[k], strlen(pcts[k]));
		v = fio_hist_percentile_cum(hg.value, cum, hg.n, p);
		m = fio_emit(ctx, h->first[d], fio_dir_name((enum fio_dir)d),
			     metric.buf, UNIT_SECONDS,
			     fio_seconds(v, h->scale), NULL);
		if (h->s[d][k] && h->s[d][k]->n) {
			h->s[d][k]->interval = mean_spacing(h->s[d][k]);
			m->series = h->s[d][k];
			h->s[d][k] = NULL;
		}
		if (k == PCT_P50)
			p50 = ctx->rs->n - 1;
	}
	for (size_t i = 0; i < hg.n; i++)
		hg.value[i] = fio_seconds(hg.value[i], h->scale);
	ctx->rs->m[p50].hist = hg;
	strbuf_release(&metric);
	free(cum);
}

/* ---- the parser ---- */

/* Reads the whole log; -1 (having emitted nothing, said nothing) when
 * whole is set and a line is not a log line. */
static int read_log(struct parse_ctx *ctx, const char *kind, int hist,
		    int whole)
{
	struct log_iter it;
	struct log_line l;
	size_t before_m = ctx->rs->n, before_d = diag_total(ctx->diags);
	struct value_log vl;
	struct hist_log h;
	int rc = 0;

	if (hist)
		hist_log_init(&h, ctx);
	else if (value_log_init(&vl, ctx, kind)) {
		if (!ctx->in->uncut)
			parse_claim_range(ctx, 0, ctx->in->nlines);
		return 0;
	}
	iter_init(&it, ctx->in);
	while (iter_next(&it, &l)) {
		int bad = 0;

		if (hist) {
			/* each line's thousands of fields read once */
			int not_log = hist_line(&h, &l);

			if (not_log < 0)
				break;
			bad = not_log && whole && !line_blank(&l);
		} else if (value_line(&vl, &l) && !line_blank(&l)) {
			bad = whole;
			/* a line cut short when fio was killed, a typo: said,
			 * not skipped (cut input: the whole read gave up) */
			if (!whole)
				parse_error(ctx, l.li, "not a line of a fio log "
					    "(time, value, direction, bs, ...)");
		}
		if (bad) {
			rc = -1;
			break;
		}
	}
	if (rc) {
		if (!hist)
			value_log_abandon(&vl);
		result_set_truncate(ctx->rs, before_m, ctx->rs->nsources);
		diag_list_truncate(ctx->diags, before_d);
	} else if (hist) {
		for (int d = 0; d < 3; d++)
			if (h.sum[d] && h.scale > 0 && diag_total(ctx->diags) == before_d)
				emit_hist(&h, d);
	} else {
		value_log_finish(&vl);
	}
	if (hist)
		hist_log_release(&h);
	return rc;
}

/* Does the name say hist (JOB_clat_hist.N.log)? */
static int name_says_hist(const char *name)
{
	const char *p = name;

	while ((p = strstr(p, "hist"))) {
		if ((p == name || strchr("_.-", p[-1])) &&
		    (!p[4] || strchr("_.-", p[4])))
			return 1;
		p += 4;
	}
	return 0;
}

/*
 * Does the first log line have the hist log's hundreds of fields, or is
 * the file named a hist log?  Named so, it is read as one whatever its
 * bucket count (a coarse log's tens, or a count no fio writes, which the
 * hist reader refuses by name): read as a latency log its lines gave
 * clat.mean 0.
 */
static int first_is_hist(const struct input *in)
{
	struct log_iter it;
	struct log_line l;
	uint64_t v[8];
	size_t n = 0;

	iter_init(&it, in);
	while (iter_next(&it, &l))
		if (!log_fields(l.text, l.end, v, 8, &n))
			return n >= HIST_MIN_FIELDS || name_says_hist(in->name);
	return 0;
}

static int fio_log_parse(struct parse_ctx *ctx)
{
	size_t before = ctx->rs->n;
	const char *kind = log_kind(ctx->in->name);
	int hist = first_is_hist(ctx->in);

	if (hist || kind)
		read_log(ctx, kind, hist, 0);
	else
		parse_error(ctx, 0, "a fio log, but its name does not say of "
			    "what: fio names them JOB_bw.N.log, _iops, _lat, "
			    "_clat, _slat (rename the file)");
	return (int)(ctx->rs->n - before);
}

/*
 * A file whose first line is a log line, named like a fio log or with a
 * hist log's hundreds of fields: read whole, its lines never cut (a hist
 * log named h300.log was cut into lines: 10 times the memory).
 */
static int fio_log_whole_start(const struct input *in)
{
	const char *nl, *end = in->data + in->size;
	uint64_t v[8];
	size_t n;

	if (!in->size)
		return 0;
	nl = memchr(in->data, '\n', in->size);
	return !log_fields(in->data, nl ? nl : end, v, 8, &n) &&
	       (log_kind(in->name) || n >= HIST_MIN_FIELDS);
}

static int fio_log_parse_whole(struct parse_ctx *ctx)
{
	size_t before = ctx->rs->n;

	if (!fio_log_whole_start(ctx->in) ||
	    read_log(ctx, log_kind(ctx->in->name), first_is_hist(ctx->in), 1))
		return -1;
	return (int)(ctx->rs->n - before);
}

static const char *const fio_log_programs[] = { "fio", NULL };

const struct parser parser_fio_log = {
	.name = "fio-log",
	.tool = "fio",
	.reads = "fio's bw, iops, lat and histogram logs",
	.programs = fio_log_programs,
	.detect = fio_log_detect,
	.parse = fio_log_parse,
	.whole_start = fio_log_whole_start,
	.parse_whole = fio_log_parse_whole,
};

/* "fio-3.33" (digits and dots after "fio-", then anything up to a blank
 * or quote) at p, copied into out; its length, or 0. */
static size_t version_at(const char *p, const char *end, char *out,
			 size_t outlen)
{
	size_t n = 4;

	if (end - p < 6 || strncmp(p, "fio-", 4) || p[4] < '0' || p[4] > '9')
		return 0;
	while (p + n < end && !strchr(" \t\r\n\",", p[n]))
		n++;
	if (n >= outlen)
		return 0;
	memcpy(out, p, n);
	out[n] = '\0';
	return n;
}

int fio_version_in_text(const char *text, size_t len, char *out,
			size_t outlen)
{
	const char *end = text + len, *p = text;

	/* JSON: "fio version" : "fio-3.33" */
	while ((p = memmem(p, (size_t)(end - p), "\"fio version\"", 13))) {
		p += 13;
		while (p < end && strchr(" \t:\"", *p))
			p++;
		if (version_at(p, end, out, outlen))
			return 0;
	}
	/* the text report: a line "fio-3.33" */
	for (p = text; p < end; p++) {
		size_t n;

		if (p > text && p[-1] != '\n')
			continue;
		n = version_at(p, end, out, outlen);
		if (n && (p + n == end || p[n] == '\r' || p[n] == '\n'))
			return 0;
	}
	return -1;
}
