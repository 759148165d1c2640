/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE	/* memmem */
/*
 * fio's JSON and JSON+ output (--output-format=json / json+), fio 2.x and
 * 3.x, local ("jobs") and client/server ("client_stats").
 *
 * Accepted, verbatim (each has a fixture under tests/parsers/fio/):
 *
 *   2.x    "fio version" : "fio-2.1.4",  "read" : { "io_bytes" : 361984,
 *          "bw" : 68118, "iops" : 133, "runtime" : 5314, "clat" : {
 *          "min" : 189263, ..., "percentile" : { "1.000000" : 387072, ...
 *          "0.00" : 0, "0.00" : 0 } } }       (io_bytes in KiB, clat in usec)
 *   3.x    "io_bytes" : 900976640, "io_kbytes" : 879860, "bw_bytes" : ...,
 *          "bw" : 29268, "clat_ns" : { ..., "percentile" : {...},
 *          "bins" : { "187392" : 2, ... } }   (bytes, ns, JSON+ bins)
 *   2.x+   "bins" : { "FIO_IO_U_PLAT_BITS" : 6, "FIO_IO_U_PLAT_VAL" : 64,
 *          "FIO_IO_U_PLAT_NR" : 1216, "0" : 0, "1" : 0, ... } (bucket indices)
 *   "global options" / "job options" : { "rw" : "randrw", "bs" : "32k" }
 *   "client_stats" : [ { "jobname" : "All clients", "hostname" : ... } ]
 *   "disk_util" : [ { "name" : "sda", ..., "util" : 93.27 } ]
 *   text around the documents: "fio: terminating on signal 2" (partial),
 *   "fio: pid=0, err=22/file:filesetup.c..." warnings, several documents
 *   one after another (repeated runs, or --status-interval snapshots).
 *
 * Units: bw is KiB/s (bw_bytes, when present, B/s), runtime ms, latencies
 * usec in "slat"/"clat"/"lat" and ns in "*_ns"; io_bytes is KiB when the
 * document has neither io_kbytes nor bw_bytes and names no fio 3.x (fio
 * 2.x), bytes otherwise.  Duplicate keys
 * (fio 3.1's "0.00" percentiles) are allowed: a lookup takes the last,
 * an iteration each key once with its last value (as jansson did).
 *
 * The documents are read with core/json-scan.h (a flat token array for
 * all documents of the input, read in place from the input's arena of
 * clean lines, where strings are also decoded): all are found first,
 * then emitted.  The lines a document spans are claimed, so no other
 * parser reads the texts decoding changed.
 *
 * JSON+: the bins are kept as the histogram of the .mean measurement of
 * that latency, and its percentiles are computed from the bins the way
 * fio does (fio-common.h); a percentile that disagrees with the one fio
 * printed is reported.  A job with "error" != 0 gives no result and an
 * error; --status-interval snapshots (a document whose jobs ran on into
 * the next one) are claimed and only the last one is a result.
 */
#include "fio-common.h"
#include "../core/cpus.h"
#include "../core/json-scan.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct json_doc {
	size_t root;		/* token index */
	size_t first, last;	/* input line indices */
	int partial;
};

/* What a job leaves for the labels all jobs share (disk_util). */
struct job_result {
	struct labels labels;
	const char *op;		/* NULL: the job failed, no result */
};

struct json_state {
	struct parse_ctx *ctx;
	struct jscan *js;
	size_t *jobs;		/* token of each job of the document */
	size_t njobs, jobs_alloc;
	struct strbuf metric;
	const struct json_doc *doc;
	struct labels common;	/* labels every job of the document shares */
	const char *common_op;
	int njobs_done;
	long *clone;		/* per job: clone index, or -1 */
	struct job_result *result;	/* per job */
	int fio3;		/* the document's fio version is 3.x or later */
};

/* Documents of at least as many jobs and lines are emitted on two
 * threads (a 128-job JSON+ file: 14,000 measurements, 170,000 lines;
 * lines, not tokens: bins, most of the work, are one token an object). */
#define PARALLEL_JOBS 4
#define PARALLEL_LINES 10000

static int fio_json_detect(const struct input *in)
{
	return input_contains(in, "\"fio version\"") ? 80 : 0;
}

static double num(struct jscan *js, size_t o, const char *key, int *found)
{
	double v;
	int is_num = jscan_num(js, jscan_get(js, o, key), &v);

	if (found)
		*found = is_num;
	return v;
}

static const char *str(struct jscan *js, size_t o, const char *key)
{
	return jscan_str(js, jscan_get(js, o, key));
}

static int64_t integer(struct jscan *js, size_t o, const char *key)
{
	return jscan_int(js, jscan_get(js, o, key));
}

static int is_object(const struct jscan *js, size_t i)
{
	return jscan_type(js, i) == JSCAN_OBJECT;
}

static int is_array(const struct jscan *js, size_t i)
{
	return jscan_type(js, i) == JSCAN_ARRAY;
}

static void emit(struct json_state *st, size_t li, const char *op,
		 const char *metric, const char *unit, double v,
		 const struct labels *l)
{
	fio_emit(st->ctx, li, op, metric, unit, v, l);
}

/* A bucket of the bins: its key read as a number, and its count. */
struct bucket {
	uint64_t key;		/* a value (fio 3.x) or an index (2.x) */
	uint64_t count;
};

static int bucket_cmp(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* fio 2.x's bucket indices come in groups of 2^bits: fio uses 6 bits and
 * 19 groups; anything far beyond is not fio's (and would overflow). */
#define PLAT_BITS_MAX 16
#define PLAT_GROUPS_MAX 40

/*
 * Reads the members of a "bins" object that is not an integer map (fio
 * 2.x's: FIO_IO_U_PLAT_BITS, then counts by bucket index) in one walk.
 * Returns how many buckets, or -1 with *why set.
 */
static long read_buckets(struct jscan *js, size_t bins, struct bucket *b,
			 int *have_bits, unsigned *bits, const char **why)
{
	size_t n = 0;

	for (size_t k = jscan_first(js, bins); k != JSCAN_NONE;
	     k = jscan_next(js, bins, k)) {
		const char *key = jscan_str(js, k), *p = key;
		int64_t count = jscan_int(js, k + 1);
		int integer = jscan_type(js, k + 1) == JSCAN_INTEGER;
		uint64_t v;

		if (!strcmp(key, "FIO_IO_U_PLAT_BITS")) {
			*have_bits = 1;
			*bits = (unsigned)count;
			if (!integer || count < 1 || count > PLAT_BITS_MAX)
				return *why = "FIO_IO_U_PLAT_BITS is not "
					      "fio's", -1;
			continue;
		}
		if (starts_with(key, "FIO_IO_U_PLAT"))
			continue;	/* _VAL, _NR: derived from _BITS */
		if (scan_u64(&p, &v) || *p || !integer || count < 0)
			return *why = "a bin is not a count of a number", -1;
		b[n].key = v;
		b[n++].count = (uint64_t)count;
	}
	for (size_t i = 0; *have_bits && i < n; i++)
		if (b[i].key >> *bits >= PLAT_GROUPS_MAX)
			return *why = "a bucket index beyond fio's", -1;
	return (long)n;
}

/*
 * Buckets -> histogram, empty ones left out: sorted (fio prints them in
 * order; a hand-edited file need not); bits: 2.x indices to values.
 * Returns -1 with *why set when a key is given twice (which count is
 * meant cannot be told).
 */
static int buckets_to_histogram(struct bucket *b, size_t nb, int have_bits,
				unsigned bits, struct histogram *h,
				const char **why)
{
	size_t n = 0;

	qsort(b, nb, sizeof(*b), bucket_cmp);
	for (size_t i = 1; i < nb; i++)
		if (b[i - 1].key == b[i].key)
			return *why = "a bin is given twice", -1;
	h->value = xcalloc(nb + 1, sizeof(double));
	h->count = xcalloc(nb + 1, sizeof(uint64_t));
	for (size_t i = 0; i < nb; i++) {
		if (!b[i].count)
			continue;
		h->value[n] = have_bits ?
			      (double)fio_plat_idx_to_val((unsigned)b[i].key,
							  bits) :
			      (double)b[i].key;
		h->count[n++] = b[i].count;
	}
	h->n = n;
	return 0;
}

/*
 * The "bins" object -> histogram in fio's unit, ascending.  fio 3.x
 * prints an integer map in ascending order: read straight into h, the
 * empty ones left out.  Anything else goes through the buckets.
 * Returns 0, or -1 with *why set (h then empty).
 */
static int read_bins(struct jscan *js, size_t bins, struct histogram *h,
		     const char **why)
{
	size_t size = jscan_size(js, bins) + 1, n, k = 1;
	struct bucket *b = xmalloc(size * sizeof(*b));
	uint64_t *keys, *counts;
	int have_bits = 0, rc;
	unsigned bits = 0;
	long nb;

	if (jscan_type(js, bins) != JSCAN_INT_MAP) {	/* fio 2.x */
		nb = read_buckets(js, bins, b, &have_bits, &bits, why);
		rc = nb < 0 ? -1 : buckets_to_histogram(b, (size_t)nb,
						       have_bits, bits, h, why);
		free(b);
		return rc;
	}
	keys = xmalloc(size * sizeof(*keys));
	counts = xmalloc(size * sizeof(*counts));
	n = jscan_int_map_read(js, bins, keys, counts);
	while (k < n && keys[k - 1] < keys[k])
		k++;
	if (k < n) {	/* out of order: sorted, or a key twice */
		for (k = 0; k < n; k++)
			b[k] = (struct bucket){ keys[k], counts[k] };
		rc = buckets_to_histogram(b, n, 0, 0, h, why);
		free(counts);
	} else {
		h->value = xmalloc((n + 1) * sizeof(double));
		h->n = 0;
		for (k = 0; k < n; k++) {
			if (!counts[k])
				continue;
			h->value[h->n] = (double)keys[k];
			counts[h->n++] = counts[k];
		}
		h->count = counts;
		rc = 0;
	}
	free(keys);
	free(b);
	return rc;
}

/* Percentiles of one latency: from the bins when there are some. */
static void emit_percentiles(struct json_state *st, size_t li,
			     const char *op, const char *prefix,
			     size_t pct, const struct histogram *h,
			     double scale, const struct labels *l)
{
	const struct jscan_member *m;
	size_t nm = jscan_members(st->js, pct, &m);
	uint64_t *cum = NULL;

	if (h && h->n) {	/* running counts, once for all percentiles */
		cum = xmalloc(h->n * sizeof(*cum));
		for (size_t i = 0; i < h->n; i++)
			cum[i] = h->count[i] + (i ? cum[i - 1] : 0);
	}
	for (size_t i = 0; i < nm; i++) {
		const char *key = jscan_str(st->js, m[i].key), *s = key;
		double p, printed, val;

		jscan_num(st->js, m[i].value, &printed);
		val = printed;

		if (scan_double(&s, SCAN_NO_EXPONENT, &p) || *s || !(p > 0) ||
		    fio_pct_metric(&st->metric, prefix, key, strlen(key)))
			continue;	/* fio 3.1's unused "0.00" entries */
		if (cum) {	/* a check: fio's own number is kept */
			val = fio_hist_percentile_cum(h->value, cum, h->n, p);
			if (val < printed || val > printed)
				parse_note(st->ctx, li, "%s from the JSON+ bins "
					   "is %.0f, fio printed %.0f (kept)",
					   st->metric.buf, val, printed);
			val = printed;
		}
		emit(st, li, op, st->metric.buf, UNIT_SECONDS,
		     fio_seconds(val, scale), l);
	}
	free(cum);
}

/* slat/clat/lat of one direction: "clat_ns" (ns) or "clat" (usec). */
static void emit_latency(struct json_state *st, size_t li, const char *op,
			 size_t dir, const char *prefix,
			 const struct labels *l)
{
	static const char *const keys[] = { "min", "max", "mean", "stddev" };
	struct jscan *js = st->js;
	char key[16];
	size_t o, bins, pct;
	double scale = 1e-9, v[4], sum = 0;
	struct histogram h = { 0, NULL, NULL };
	int have_n;
	double n;
	size_t mean = 0;
	const char *why = NULL;

	/* "clat_ns" (ns), else "clat" (usec): the prefixes are short
	 * names of this file */
	memcpy(key, prefix, strlen(prefix));
	memcpy(key + strlen(prefix), "_ns", 4);
	o = jscan_get(js, dir, key);
	if (!is_object(js, o)) {
		o = jscan_get(js, dir, prefix);
		scale = 1e-6;
		key[strlen(prefix)] = '\0';
	}
	if (!is_object(js, o))
		return;
	for (int k = 0; k < 4; k++) {
		v[k] = num(js, o, keys[k], NULL);
		sum += fabs(v[k]);
	}
	n = num(js, o, "N", &have_n);
	bins = jscan_get(js, o, "bins");
	if ((is_object(js, bins) || jscan_type(js, bins) == JSCAN_INT_MAP) &&
	    read_bins(js, bins, &h, &why))
		parse_error(st->ctx, li, "JSON+ bins of %s: %s; no distribution "
			    "taken, its percentiles are the ones fio printed",
			    key, why);
	if ((have_n && !(n > 0)) || !(sum > 0))
		goto out;	/* no samples (sync engines, gtod_reduce) */
	for (int k = 0; k < 4; k++) {
		strbuf_reset(&st->metric);
		strbuf_adds(&st->metric, prefix);
		strbuf_addch(&st->metric, '.');
		strbuf_adds(&st->metric, keys[k]);
		emit(st, li, op, st->metric.buf, UNIT_SECONDS,
		     fio_seconds(v[k], scale), l);
		if (k == 2)
			mean = st->ctx->rs->n - 1;
	}
	pct = jscan_get(js, o, "percentile");
	if (is_object(js, pct))
		emit_percentiles(st, li, op, prefix, pct, &h, scale, l);
	if (h.n && st->ctx->drop_histograms) {
		st->ctx->rs->m[mean].hist_dropped = 1;	/* freed below */
	} else if (h.n) {	/* the distribution rides on .mean, in s */
		for (size_t i = 0; i < h.n; i++)
			h.value[i] = fio_seconds(h.value[i], scale);
		st->ctx->rs->m[mean].hist = h;
		return;
	}
out:
	free(h.value);
	free(h.count);
}

/* The min/max/mean/stddev of bandwidth or IOPS samples. */
struct sample_stats {
	const char *metric;		/* "bw" */
	const char *samples;		/* "bw_samples" (fio 3.x) */
	const char *keys[4];		/* min, max, mean, stddev */
	const char *unit;
	double scale;			/* to the unit */
};

static const struct sample_stats bw_stats = {
	"bw", "bw_samples", { "bw_min", "bw_max", "bw_mean", "bw_dev" },
	UNIT_BW, 1024,		/* KiB/s */
};

static const struct sample_stats iops_stats = {
	"iops", "iops_samples",
	{ "iops_min", "iops_max", "iops_mean", "iops_stddev" },
	UNIT_IOPS, 1,
};

/*
 * One of them, unless there were no samples: fio 3.x says so in
 * bw_samples, fio 2.x only by writing four zeros (its calc_lat() found
 * nothing; the normal report then has no "bw (KB/s)" line).
 */
static void emit_sample_stats(struct json_state *st, size_t li,
			      const char *op, size_t dir,
			      const struct labels *l,
			      const struct sample_stats *ss)
{
	static const char *const names[] = { "min", "max", "mean", "stddev" };
	double v[4], samples;
	int have_samples, found, n, nonzero = 0;

	samples = num(st->js, dir, ss->samples, &have_samples);
	if (have_samples && !(samples > 0))
		return;
	for (n = 0; n < 4; n++) {	/* the ones there, up to a missing one */
		v[n] = num(st->js, dir, ss->keys[n], &found);
		if (!found)
			break;
		nonzero |= fabs(v[n]) > 0;
	}
	if (!have_samples && !nonzero)
		return;
	for (int k = 0; k < n; k++) {
		strbuf_reset(&st->metric);
		strbuf_addf(&st->metric, "%s.%s", ss->metric, names[k]);
		emit(st, li, op, st->metric.buf, ss->unit, v[k] * ss->scale, l);
	}
}

/* bw_min.. (KiB/s) and iops_min.. of the sample lines. */
static void emit_samples(struct json_state *st, size_t li, const char *op,
			 size_t dir, const struct labels *l)
{
	emit_sample_stats(st, li, op, dir, l, &bw_stats);
	emit_sample_stats(st, li, op, dir, l, &iops_stats);
}

/*
 * A document its poster trimmed may lack a direction's figures: jscan
 * reads a missing key as 0, which is no figure fio wrote.  Names the
 * missing ones in one error; returns how many.
 */
static int missing_figures(struct json_state *st, size_t li, const char *op,
			   int have_bytes, int have_runtime, int have_bw,
			   int have_iops)
{
	struct strbuf names = STRBUF_INIT;
	int n = 0;

	if (!have_bytes && ++n)
		strbuf_adds(&names, " io_bytes");
	if (!have_runtime && ++n)
		strbuf_adds(&names, " runtime");
	if (!have_bw && ++n)
		strbuf_adds(&names, " bw");
	if (!have_iops && ++n)
		strbuf_adds(&names, " iops");
	if (n)
		parse_error(st->ctx, li, "fio JSON %s figures without"
			    "%s (a trimmed document?): those not taken", op,
			    names.buf);
	strbuf_release(&names);
	return n;
}

/* One direction of a job; returns 1 when it did any I/O. */
static int emit_dir(struct json_state *st, size_t li, const char *op,
		    size_t dir, const struct labels *l)
{
	struct jscan *js = st->js;
	int have_kb, have_bwb, have_bw, have_iops, have_bytes, have_rt;
	double bytes = num(js, dir, "io_bytes", &have_bytes);
	double runtime = num(js, dir, "runtime", &have_rt);
	double bw_bytes = num(js, dir, "bw_bytes", &have_bwb);
	double bw = num(js, dir, "bw", &have_bw);
	double iops = num(js, dir, "iops", &have_iops);

	num(js, dir, "io_kbytes", &have_kb);
	if (!(bytes > 0) && !(runtime > 0))
		return 0;
	missing_figures(st, li, op, have_bytes, have_rt, have_bwb || have_bw,
			have_iops);
	if (runtime > 0 || !have_rt) {
		if (have_bwb || have_bw)
			emit(st, li, op, "bw", UNIT_BW,
			     have_bwb ? bw_bytes : bw * 1024, l);
		if (have_iops)
			emit(st, li, op, "iops", UNIT_IOPS, iops, l);
	} else {
		fio_note_no_runtime(st->ctx, li, op, l);
	}
	/* fio wrote io_bytes in KiB up to 2.2x, bytes from 2.99 on, when
	 * it added io_kbytes (and bw_bytes, in 3.2): a document trimmed of
	 * those keys still names a fio that writes bytes */
	if (have_bytes)
		emit(st, li, op, "bytes", UNIT_BYTES,
		     have_kb || have_bwb || st->fio3 ? bytes : bytes * 1024, l);
	if (runtime > 0)
		emit(st, li, op, "runtime", UNIT_SECONDS, runtime / 1000, l);
	emit_latency(st, li, op, dir, "slat", l);
	emit_latency(st, li, op, dir, "clat", l);
	emit_latency(st, li, op, dir, "lat", l);
	emit_samples(st, li, op, dir, l);
	return 1;
}

/* Global options, then job options, as labels. */
static void option_labels(struct jscan *js, size_t opts, struct labels *l)
{
	const struct jscan_member *m;
	size_t nm = jscan_members(js, opts, &m);

	for (size_t i = 0; i < nm; i++) {
		const char *key = jscan_str(js, m[i].key);
		const char *v = jscan_str(js, m[i].value);

		if (v)
			fio_option_label(l, key, strlen(key), v);
	}
}

/* -1 (no labels made) when the job has more than LABELS_INPUT_MAX
 * options: no fio job has, and each would be repeated in every row. */
static int job_labels(struct jscan *js, const struct json_doc *doc,
		      size_t job, struct labels *l)
{
	const char *name = str(js, job, "jobname");
	const char *host = str(js, job, "hostname");

	labels_init(l);
	if (jscan_size(js, jscan_get(js, doc->root, "global options")) +
	    jscan_size(js, jscan_get(js, job, "job options")) >
	    LABELS_INPUT_MAX)
		return -1;
	option_labels(js, jscan_get(js, doc->root, "global options"), l);
	option_labels(js, jscan_get(js, job, "job options"), l);
	if (name && !strcmp(name, "All clients"))
		labels_set(l, "host", "all");
	else if (name)
		labels_set(l, "job", name);
	if (host)
		labels_set(l, "host", host);
	labels_setf(l, "group", "%lld",
		    (long long)integer(js, job, "groupid"));
	if (doc->partial)
		labels_set(l, "partial", "1");
	return 0;
}

/* Folds a job's labels and op into what all jobs share (disk_util). */
static void add_common(struct json_state *st, const struct labels *l,
		       const char *op)
{
	if (!st->njobs_done++) {
		labels_copy(&st->common, l);
		st->common_op = op;
		return;
	}
	fio_labels_intersect(&st->common, l);
	if (st->common_op && strcmp(st->common_op, op))
		st->common_op = "run";
}

/* cpu.usr and cpu.sys, when the job has them (fio 2.6's client_stats
 * entries do not). */
static void emit_cpu(struct json_state *st, size_t li, const char *op,
		     size_t job, const struct labels *l)
{
	struct jscan *js = st->js;
	int found;
	double v;

	v = num(js, job, "usr_cpu", &found);
	if (found)
		emit(st, li, op, "cpu.usr", UNIT_PERCENT, v, l);
	v = num(js, job, "sys_cpu", &found);
	if (found)
		emit(st, li, op, "cpu.sys", UNIT_PERCENT, v, l);
}

static void emit_job(struct json_state *st, size_t li, size_t job,
		     long clone, struct job_result *res)
{
	static const enum fio_dir dirs[] = {
		FIO_READ, FIO_WRITE, FIO_TRIM, FIO_MIXED
	};
	struct jscan *js = st->js;
	const char *name = str(js, job, "jobname"), *rw, *op = NULL;
	int64_t err = integer(js, job, "error");
	size_t sync;
	struct labels l;

	if (err) {
		parse_error(st->ctx, li, "fio job '%s' failed with error %lld: "
			    "no result taken from it", name ? name : "?",
			    (long long)err);
		return;
	}
	if (job_labels(js, st->doc, job, &l)) {
		parse_error(st->ctx, li, "fio job '%s' has more than %d "
			    "options: no result taken from it",
			    name ? name : "?", LABELS_INPUT_MAX);
		return;
	}
	if (clone >= 0)
		labels_setf(&l, "clone", "%ld", clone);
	rw = labels_get(&l, "rw");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t d = jscan_get(js, job, fio_dir_name(dirs[i]));
		const char *dop = fio_op(rw, dirs[i]);

		if (is_object(js, d) && emit_dir(st, li, dop, d, &l))
			op = !op || !strcmp(op, dop) ? dop : "run";
	}
	sync = jscan_get(js, job, "sync");
	if (is_object(js, sync) && num(js, sync, "total_ios", NULL) > 0)
		emit_latency(st, li, "sync", sync, "lat", &l);
	if (!op)
		op = "run";
	emit_cpu(st, li, op, job, &l);
	res->labels = l;	/* for add_common(), in job order */
	res->op = op;
}

static size_t key_line(const struct json_state *st, size_t obj,
		       const char *key);

/* Jobs [from, to) of the document, in order. */
static void emit_jobs(struct json_state *st, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++)
		emit_job(st, key_line(st, st->jobs[k], "jobname"),
			 st->jobs[k], st->clone[k], &st->result[k]);
}

/*
 * Strings every job reads (the global options) are decoded once here,
 * so that the two threads only read them; the rest of a job's tokens
 * are that job's.
 */
static void decode_shared(struct json_state *st)
{
	size_t opts = jscan_get(st->js, st->doc->root, "global options");

	for (size_t k = jscan_first(st->js, opts); k != JSCAN_NONE;
	     k = jscan_next(st->js, opts, k)) {
		jscan_str(st->js, k);
		jscan_str(st->js, k + 1);
	}
}

/*
 * The second half's state for parse_in_two(): a copy of the first's with
 * a reader view and a metric buffer of its own, made before the threads
 * start (copied on the second thread, it raced with the first half's
 * writes to st, as ThreadSanitizer said).
 */
struct second_half {
	struct json_state *first;
	struct json_state half;
	struct jscan view;
};

/* Jobs [from, to), on the first half's state or on the second's. */
static void emit_job_range(struct parse_ctx *c, size_t from, size_t to,
			   void *arg)
{
	struct second_half *sh = arg;

	if (c == sh->first->ctx) {
		emit_jobs(sh->first, from, to);
		return;
	}
	sh->half.ctx = c;
	emit_jobs(&sh->half, from, to);
}

/*
 * The jobs on two threads (parse_in_two), merged after in job order:
 * the same result as emit_jobs(st, 0, n), sooner (the 128-job benchmark
 * file: 14 -> 11 ms; fresh memory, not computation, bounds it).
 */
static void emit_jobs_parallel(struct json_state *st)
{
	struct second_half *sh = xmalloc(sizeof(*sh));	/* 8 KiB view */

	decode_shared(st);
	jscan_view(&sh->view, st->js);
	sh->first = st;
	sh->half = *st;
	sh->half.js = &sh->view;
	strbuf_init(&sh->half.metric);
	parse_in_two(st->ctx, st->njobs, emit_job_range, sh);
	strbuf_release(&sh->half.metric);
	jscan_view_release(&sh->view);
	free(sh);
}

/* The input line of obj's member key (of obj itself when it has none). */
static size_t key_line(const struct json_state *st, size_t obj,
		       const char *key)
{
	size_t v = jscan_get(st->js, obj, key);
	size_t t = v != JSCAN_NONE ? v - 1 : obj;

	return input_line_at(st->ctx->in, st->js->tok[t].start);
}

static void emit_disks(struct json_state *st, size_t disks)
{
	struct jscan *js = st->js;

	labels_remove(&st->common, "job");
	labels_remove(&st->common, "numjobs");
	for (size_t d = jscan_first(js, disks); d != JSCAN_NONE;
	     d = jscan_next(js, disks, d)) {
		const char *name = str(js, d, "name");
		struct labels l;
		int found;
		double util = num(js, d, "util", &found);

		if (!name || !found)
			continue;
		labels_copy(&l, &st->common);
		labels_set(&l, "device", name);
		emit(st, key_line(st, d, "name"), st->common_op ? st->common_op : "run",
		     "disk.util", UNIT_PERCENT, util, &l);
		labels_release(&l);
	}
}

/* What tells a job from another: name, group and host. */
struct job_id {
	const char *name, *host;
	int64_t group;
};

static int same_job(const struct job_id *a, const struct job_id *b)
{
	return a->name && b->name && !strcmp(a->name, b->name) &&
	       a->group == b->group &&
	       (a->host == b->host ||
		(a->host && b->host && !strcmp(a->host, b->host)));
}

/*
 * Jobs of one document with the same name are clones (numjobs without
 * group_reporting), not repeated runs: clone[k] is job k's index among
 * those, or -1 when the job is alone.  Identities are read once (128
 * clones were 100,000 lookups when each pair read its own).
 */
static void clone_indexes(struct json_state *st, long *clone)
{
	struct job_id *id = xcalloc(st->njobs + 1, sizeof(*id));

	for (size_t k = 0; k < st->njobs; k++) {
		id[k].name = str(st->js, st->jobs[k], "jobname");
		id[k].host = str(st->js, st->jobs[k], "hostname");
		id[k].group = integer(st->js, st->jobs[k], "groupid");
	}
	for (size_t k = 0; k < st->njobs; k++) {
		long before = 0, count = 0;

		for (size_t i = 0; i < st->njobs; i++)
			if (same_job(&id[k], &id[i])) {
				before += i < k;
				count++;
			}
		clone[k] = count > 1 ? before : -1;
	}
	free(id);
}

/* 3 for "fio-3.28" or "fio-3.42-6-g219f"; 0 when there is none. */
static long fio_major_version(const char *ver)
{
	const char *p = ver && starts_with(ver, "fio-") ? ver + 4 : NULL;

	return p && *p >= '0' && *p <= '9' ? strtol(p, NULL, 10) : 0;
}

static void emit_doc(struct json_state *st, const struct json_doc *doc)
{
	struct jscan *js = st->js;
	size_t jobs = jscan_get(js, doc->root, "jobs");
	size_t disks = jscan_get(js, doc->root, "disk_util");
	const char *ver = str(js, doc->root, "fio version");
	long *clone;

	st->doc = doc;
	st->njobs_done = 0;
	st->common_op = NULL;
	labels_init(&st->common);
	if (ver)
		fio_set_version(st->ctx, ver, strlen(ver));
	st->fio3 = fio_major_version(ver) >= 3;
	if (!is_array(js, jobs))
		jobs = jscan_get(js, doc->root, "client_stats");
	st->njobs = 0;
	for (size_t j = jscan_first(js, jobs); j != JSCAN_NONE;
	     j = jscan_next(js, jobs, j)) {
		ALLOC_GROW(st->jobs, st->njobs + 1, st->jobs_alloc);
		st->jobs[st->njobs++] = j;
	}
	clone = xcalloc(st->njobs + 1, sizeof(*clone));
	clone_indexes(st, clone);
	st->clone = clone;
	st->result = xcalloc(st->njobs + 1, sizeof(*st->result));
	if (st->njobs >= PARALLEL_JOBS &&
	    doc->last - doc->first >= PARALLEL_LINES)
		emit_jobs_parallel(st);
	else
		emit_jobs(st, 0, st->njobs);
	for (size_t k = 0; k < st->njobs; k++) {
		if (st->result[k].op)
			add_common(st, &st->result[k].labels,
				   st->result[k].op);
		labels_release(&st->result[k].labels);
	}
	free(st->result);
	free(clone);
	if (is_array(js, disks))
		emit_disks(st, disks);
	labels_release(&st->common);
}

static int is_fio_doc(struct jscan *js, size_t root)
{
	return is_object(js, root) &&
	       (is_array(js, jscan_get(js, root, "jobs")) ||
		is_array(js, jscan_get(js, root, "client_stats")));
}

/* Seconds since the epoch of a document ("timestamp"), jobs' elapsed. */
static double doc_elapsed(struct jscan *js, size_t root)
{
	size_t jobs = jscan_get(js, root, "jobs");

	return num(js, jscan_at(js, jobs, 0), "elapsed", NULL);
}

/*
 * Is a a --status-interval snapshot of the run that b completes?  Then
 * b's jobs ran on: they are older by as much time as passed between the
 * two documents.  Repeated runs start again from zero.
 */
static int is_snapshot_of(struct jscan *js, size_t a, size_t b)
{
	double ea = doc_elapsed(js, a), eb = doc_elapsed(js, b);
	double ta = num(js, a, "timestamp", NULL);
	double tb = num(js, b, "timestamp", NULL);

	if (!(eb > ea) || !(ta > 0) || !(tb > 0))
		return 0;
	return fabs((tb - ta) - (eb - ea)) <= 2;
}

/* Where line i's text starts in the arena the documents are read from. */
static size_t line_start(const struct input *in, size_t i)
{
	return (size_t)(in->lines[i].text - in->arena);
}

/* Does a fio document seem to start at line i (for error messages)? */
static int looks_like_fio(const struct input *in, size_t i)
{
	for (size_t k = i; k < in->nlines && k < i + 4; k++)
		if (strstr(in->lines[k].text, "\"fio version\""))
			return 1;
	return 0;
}

/* e->pos is relative to the document's start, left what follows it. */
/*
 * Does the document stop before line `at`, which the reader failed at
 * its first byte and which cannot go on a JSON text: a fence, a prompt,
 * prose ("oc logs job/fio | head" cut it after ten lines, then "```")?
 * (Its blanks skipped: a comment marker blanked out leaves some.)
 */
static int cut_before(const struct parse_ctx *ctx, size_t i, size_t at,
		      size_t pos)
{
	const char *line = ctx->in->lines[at].text, *t = skip_spaces(line);
	size_t err = line_start(ctx->in, i) + pos,
	       from = line_start(ctx->in, at) + (size_t)(t - line);

	/* failed at the line's first word (the reader stops after it) */
	if (at == i || err < from || err > from + strcspn(t, " \t"))
		return 0;
	if (strchr("\"{}[],:-0123456789", *t))
		return 0;
	return !starts_with(t, "true") && !starts_with(t, "false") &&
	       !starts_with(t, "null");
}

static void broken_doc(struct parse_ctx *ctx, size_t i, size_t nl,
		       const struct jscan_error *e, size_t pos, size_t left)
{
	size_t at = i + e->line - 1;

	if (at >= nl)
		at = nl - 1;
	if (pos >= left - 1 || strstr(e->text, "end of file"))
		parse_error(ctx, at, "fio JSON output ends inside the document "
			    "(truncated): %s", e->text);
	else if (cut_before(ctx, i, at, pos))
		parse_error(ctx, at, "fio JSON output breaks off inside the "
			    "document (cut short, or a part left out, before "
			    "this line): %s", e->text);
	else
		parse_error(ctx, at, "broken fio JSON output: %s", e->text);
}

/*
 * A document kept in a program's line comments ("// {", "//   \"fio
 * version\" : ...", "# {"): the comment marker before the '{' of line
 * i, which must start the next line too; its length, 0 for none.
 */
static size_t comment_marker(const struct input *in, size_t i)
{
	const char *t = in->lines[i].text;
	size_t m = strspn(t, "/#;%*-!");

	if (!m || i + 1 >= in->nlines ||
	    strncmp(in->lines[i + 1].text, t, m) ||
	    strspn(in->lines[i + 1].text, "/#;%*-!") != m)
		return 0;
	t = skip_spaces(t + m);
	return *t == '{' && !*skip_spaces(t + 1) ? m : 0;
}

/*
 * Blanks the comment marker (m bytes, line i's) out of lines i, i + 1,
 * ... while they start with it, so that the document reads as JSON;
 * returns the line past the last one blanked.  The texts are the
 * input's clean lines, written in place (as decoding strings does): a
 * document found claims them, else uncomment_restore() puts the
 * markers back.
 */
static size_t uncomment(const struct input *in, size_t i, size_t m,
			char *marker)
{
	size_t k;

	memcpy(marker, in->lines[i].text, m);
	for (k = i; k < in->nlines && !strncmp(in->lines[k].text, marker, m);
	     k++)
		memset(in->lines[k].text, ' ', m);
	return k;
}

static void uncomment_restore(const struct input *in, size_t from,
			      size_t to, const char *marker, size_t m)
{
	for (size_t k = from; k < to; k++)
		memcpy(in->lines[k].text, marker, m);
}

/* Finds the documents (tokens in js); returns how many, in *docs. */
static size_t find_docs(struct parse_ctx *ctx, struct jscan *js,
			struct json_doc **docs)
{
	const struct input *in = ctx->in;
	size_t n = 0, alloc = 0, prev_end = 0;
	char marker[8];

	*docs = NULL;
	for (size_t i = 0; i < in->nlines; i++) {
		size_t root, end, at = line_start(in, i), m = 0, past = i;

		if (in->lines[i].text[0] != '{') {
			m = comment_marker(in, i);
			if (!m || m > sizeof(marker) || !looks_like_fio(in, i))
				continue;
			past = uncomment(in, i, m, marker);
			at += strspn(in->lines[i].text, " ");
		}
		if (jscan_parse(js, at, &root)) {
			if (looks_like_fio(in, i))
				broken_doc(ctx, i, in->nlines, &js->err,
					   js->err.pos - line_start(in, i),
					   js->len - line_start(in, i));
			uncomment_restore(in, i, past, marker, m);
			continue;
		}
		end = input_line_at(in, js->end - 1);
		if (!is_fio_doc(js, root)) {
			jscan_truncate(js, root);
			uncomment_restore(in, i, past, marker, m);
			continue;
		}
		if (past > end + 1)	/* comment lines after the document */
			uncomment_restore(in, end + 1, past, marker, m);
		ALLOC_GROW(*docs, n + 1, alloc);
		(*docs)[n].root = root;
		(*docs)[n].first = i;
		(*docs)[n].last = end;
		(*docs)[n].partial = 0;
		for (size_t k = prev_end; k < i; k++)
			if (starts_with(in->lines[k].text,
					"fio: terminating on signal"))
				(*docs)[n].partial = 1;
		parse_claim_range(ctx, i, end + 1);
		n++;
		prev_end = i = end;
	}
	return n;
}

/* Emits the documents found (all but --status-interval snapshots);
 * frees docs and js.  Returns the number of measurements emitted. */
static int emit_docs(struct parse_ctx *ctx, struct jscan *js,
		     struct json_doc *docs, size_t n)
{
	struct json_state st;
	size_t before = ctx->rs->n;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.js = js;
	strbuf_init(&st.metric);
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && is_snapshot_of(js, docs[i].root,
						docs[i + 1].root))
			continue;	/* an intermediate --status-interval dump */
		emit_doc(&st, &docs[i]);
	}
	free(docs);
	free(st.jobs);
	strbuf_release(&st.metric);
	jscan_release(js);
	free(js);
	return (int)(ctx->rs->n - before);
}

static struct jscan *new_reader(const struct input *in)
{
	struct jscan *js = xmalloc(sizeof(*js));	/* 8 KiB: not on the stack */
	size_t len;
	char *text = input_text(in, &len);

	jscan_init(js, text, len);
	js->nul_is_newline = !in->uncut;
	/* an uncut input's text is the file, mapped: writing a page of it
	 * copies the page (nearly every page, decoding in place), and
	 * another thread hashes it meanwhile (input_finish_uncut()) */
	js->copy_strings = in->uncut;
	js->pack_key = "bins";	/* most of a JSON+ document, read once */
	return js;
}

/* Does a document start ('{', or a comment marker and '{') on one of
 * the lines a document starting there would name fio's version on
 * (looks_like_fio)?  Then find_docs() read it or said why not. */
static int doc_start_above(const struct input *in, size_t li)
{
	for (size_t k = li + 1; k-- > 0 && k + 4 > li;) {
		const char *t = in->lines[k].text;

		if (*t == '{' || (*t && strchr("/#;%*-!", *t) &&
				  *skip_spaces(t + strspn(t, "/#;%*-!")) == '{'))
			return 1;
	}
	return 0;
}

/*
 * A fio document pasted without the '{' that opens it (its first lines
 * '"fio version" : "fio-3.28",', '"timestamp" : ...' cut out of their
 * object): no document to read, but fio's output all the same, so an
 * error names it rather than "no benchmark output found".
 */
static void report_fragments(struct parse_ctx *ctx)
{
	const struct input *in = ctx->in;

	for (size_t i = 0; i < in->nlines; i++) {
		const char *t = in->lines[i].text;

		if (ctx->claimed[i] || !starts_with(t, "\"fio version\"") ||
		    doc_start_above(in, i))
			continue;
		parse_error(ctx, i, "a piece of fio JSON output without the "
			    "'{' that opens its document: not read");
	}
}

static int fio_json_parse(struct parse_ctx *ctx)
{
	/* read in place: the texts are "line\0line\0..." (input.h), and
	 * every string a document holds is on one line */
	struct jscan *js = new_reader(ctx->in);
	struct json_doc *docs;
	size_t n = find_docs(ctx, js, &docs);

	report_fragments(ctx);
	return emit_docs(ctx, js, docs, n);
}

static int is_json_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Does the raw text start with a fio JSON document? */
static int fio_json_whole_start(const struct input *in)
{
	const char *p = in->data, *end = in->data + in->size;

	while (p < end && is_json_blank(*p))
		p++;
	if (p == end || *p != '{')
		return 0;
	/* fio writes "fio version" first: {\n  "fio version" : "fio-3.33", */
	return memmem(p, (size_t)(end - p) < 256 ? (size_t)(end - p) : 256,
		      "\"fio version\"", 13) != NULL;
}

/* Only blanks from at to the end of its line (or of the text)? */
static int rest_of_line_blank(const char *text, size_t at, size_t len)
{
	while (at < len && text[at] != '\n' && is_json_blank(text[at]))
		at++;
	return at == len || text[at] == '\n';
}

/*
 * Where a big document's second half may start, for a second thread
 * (jscan_parse_split()): the first '{' after the middle of what is left
 * that fio writes to open an array's element at depth two (a job:
 * "    },\n    {\n").  0 for none, or when the rest is small or there is
 * no second CPU.  Only a guess: the reader checks it.
 */
#define SPLIT_MIN ((size_t)1 << 20)

static size_t guess_split(const struct jscan *js, size_t at)
{
	static const char mark[] = "},\n    {\n";
	size_t mid;
	const char *p;

	if (js->len - at < SPLIT_MIN || storan_cpus() < 2)
		return 0;
	mid = at + (js->len - at) / 2;
	p = memmem(js->buf + mid, js->len - mid, mark, sizeof(mark) - 1);
	return p ? (size_t)(p - js->buf) + 7 : 0;	/* its '{' */
}

/*
 * The documents of an uncut input that holds nothing else (blanks
 * around them, each on lines of its own): what find_docs() finds once
 * the lines are cut, without cutting them.  SIZE_MAX for anything else.
 */
static size_t find_whole_docs(const struct input *in, struct jscan *js,
			      struct json_doc **docs)
{
	size_t n = 0, alloc = 0, at = 0, root;

	*docs = NULL;
	for (;;) {
		/* only blanks before: the '{' starts its line, since the
		 * rest of the last document's line was blank */
		while (at < js->len && is_json_blank(js->buf[at]))
			at++;
		if (at == js->len)
			break;
		if (js->buf[at] != '{' ||
		    jscan_parse_split(js, at, guess_split(js, at), &root) ||
		    !is_fio_doc(js, root) ||
		    !rest_of_line_blank(js->buf, js->end, js->len)) {
			free(*docs);
			return SIZE_MAX;
		}
		ALLOC_GROW(*docs, n + 1, alloc);
		(*docs)[n].root = root;
		(*docs)[n].first = input_line_at(in, at);
		(*docs)[n].last = input_line_at(in, js->end - 1);
		(*docs)[n].partial = 0;
		n++;
		at = js->end;
	}
	if (!n)
		free(*docs);
	return n ? n : SIZE_MAX;
}

/*
 * A big fio JSON file read as it is, its lines never cut (input.h says
 * why): the same documents, measurements and messages as line by line,
 * or -1 when the input is anything but fio JSON documents.
 */
static int fio_json_parse_whole(struct parse_ctx *ctx)
{
	struct jscan *js = new_reader(ctx->in);
	struct json_doc *docs;
	size_t n = find_whole_docs(ctx->in, js, &docs);

	if (n == SIZE_MAX) {	/* nothing decoded yet: the text is intact */
		jscan_release(js);
		free(js);
		return -1;
	}
	/* the reader only reads the mapped text (copy_strings): the input's
	 * hash is made beside the emitting, not waited for before it */
	return emit_docs(ctx, js, docs, n);
}

static const char *const fio_json_programs[] = { "fio", NULL };

const struct parser parser_fio_json = {
	.name = "fio-json",
	.tool = "fio",
	.reads = "fio's JSON and JSON+ output, 2.x and 3.x",
	.programs = fio_json_programs,
	.detect = fio_json_detect,
	.parse = fio_json_parse,
	.whole_start = fio_json_whole_start,
	.parse_whole = fio_json_parse_whole,
};
