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
 * document has no io_kbytes (fio 2.x), bytes otherwise.  Duplicate keys
 * (fio 3.1's "0.00" percentiles) are allowed: jansson keeps the last.
 *
 * JSON+: the bins are kept as the histogram of the .mean measurement of
 * that latency, and its percentiles are computed from the bins the way
 * fio does (fio-common.h); a percentile that disagrees with the one fio
 * printed is reported.  A job with "error" != 0 gives no result and an
 * error; --status-interval snapshots (a document whose jobs ran on into
 * the next one) are claimed and only the last one is a result.
 */
#include "fio-common.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct json_doc {
	json_t *root;
	size_t first, last;	/* input line indices */
	int partial;
};

struct json_state {
	struct parse_ctx *ctx;
	struct strbuf metric;
	const struct json_doc *doc;
	size_t *job_lines;	/* line of each "jobname" in the document */
	size_t njob_lines, job_lines_alloc;
	struct labels common;	/* labels every job of the document shares */
	const char *common_op;
	int njobs_done;
};

static int fio_json_detect(const struct input *in)
{
	for (size_t i = 0; i < in->nlines; i++)
		if (strstr(in->lines[i].text, "\"fio version\""))
			return 80;
	return 0;
}

static double num(json_t *o, const char *key, int *found)
{
	json_t *v = json_object_get(o, key);

	if (found)
		*found = json_is_number(v);
	return json_is_number(v) ? json_number_value(v) : 0;
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void emit(struct json_state *st, size_t li, const char *op,
		 const char *metric, const char *unit, double v,
		 const struct labels *l)
{
	fio_emit(st->ctx, li, op, metric, unit, v, l);
}

/* Sorts bucket value/count pairs by value (bins keys are strings). */
struct bucket {
	double value;
	uint64_t count;
};

static int bucket_cmp(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

/* The "bins" object -> histogram in the unit of scale (seconds). */
static int read_bins(json_t *bins, struct histogram *h)
{
	json_t *bits_v = json_object_get(bins, "FIO_IO_U_PLAT_BITS");
	unsigned bits = (unsigned)json_integer_value(bits_v);
	struct bucket *b = xcalloc(json_object_size(bins) + 1, sizeof(*b));
	const char *key;
	json_t *v;
	size_t n = 0;

	json_object_foreach(bins, key, v) {
		const char *p = key;
		uint64_t k;

		if (starts_with(key, "FIO_IO_U_PLAT"))
			continue;
		if (scan_u64(&p, &k) || *p || !json_is_integer(v) ||
		    json_integer_value(v) < 0) {
			free(b);
			return -1;
		}
		if (!json_integer_value(v))
			continue;
		b[n].value = bits_v ? (double)fio_plat_idx_to_val((unsigned)k,
								   bits) :
			     (double)k;
		b[n++].count = (uint64_t)json_integer_value(v);
	}
	qsort(b, n, sizeof(*b), bucket_cmp);
	h->n = n;
	h->value = xcalloc(n + 1, sizeof(double));
	h->count = xcalloc(n + 1, sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		h->value[i] = b[i].value;	/* still fio's unit */
		h->count[i] = b[i].count;
	}
	free(b);
	return 0;
}

/* Percentiles of one latency: from the bins when there are some. */
static void emit_percentiles(struct json_state *st, size_t li,
			     const char *op, const char *prefix,
			     json_t *pct, const struct histogram *h,
			     double scale, const struct labels *l)
{
	const char *key;
	json_t *v;

	json_object_foreach(pct, key, v) {
		double p, printed = json_number_value(v), val = printed;
		const char *s = key;

		if (scan_double(&s, SCAN_NO_EXPONENT, &p) || *s || !(p > 0) ||
		    fio_pct_metric(&st->metric, prefix, key, strlen(key)))
			continue;	/* fio 3.1's unused "0.00" entries */
		if (h && h->n) {
			val = fio_hist_percentile(h->value, h->count, h->n, p);
			if (val < printed || val > printed)
				parse_note(st->ctx, li, "%s from the JSON+ bins "
					   "is %.0f, fio printed %.0f",
					   st->metric.buf, val, printed);
		}
		emit(st, li, op, st->metric.buf, UNIT_SECONDS,
		     fio_seconds(val, scale), l);
	}
}

/* slat/clat/lat of one direction: "clat_ns" (ns) or "clat" (usec). */
static void emit_latency(struct json_state *st, size_t li, const char *op,
			 json_t *dir, const char *prefix,
			 const struct labels *l)
{
	static const char *const keys[] = { "min", "max", "mean", "stddev" };
	char key[16];
	json_t *o;
	double scale = 1e-9, v[4], sum = 0;
	struct histogram h = { 0, NULL, NULL };
	json_t *bins, *pct;
	int have_n;
	double n;
	size_t mean = 0;

	snprintf(key, sizeof(key), "%s_ns", prefix);
	o = json_object_get(dir, key);
	if (!json_is_object(o)) {
		o = json_object_get(dir, prefix);
		scale = 1e-6;
	}
	if (!json_is_object(o))
		return;
	for (int k = 0; k < 4; k++) {
		v[k] = num(o, keys[k], NULL);
		sum += fabs(v[k]);
	}
	n = num(o, "N", &have_n);
	bins = json_object_get(o, "bins");
	if (json_is_object(bins) && read_bins(bins, &h))
		parse_error(st->ctx, li, "unreadable JSON+ bins of %s", key);
	if ((have_n && !(n > 0)) || !(sum > 0))
		goto out;	/* no samples (sync engines, gtod_reduce) */
	for (int k = 0; k < 4; k++) {
		strbuf_reset(&st->metric);
		strbuf_addf(&st->metric, "%s.%s", prefix, keys[k]);
		emit(st, li, op, st->metric.buf, UNIT_SECONDS,
		     fio_seconds(v[k], scale), l);
		if (k == 2)
			mean = st->ctx->rs->n - 1;
	}
	pct = json_object_get(o, "percentile");
	if (json_is_object(pct))
		emit_percentiles(st, li, op, prefix, pct, &h, scale, l);
	if (h.n) {	/* the distribution rides on .mean, in seconds */
		for (size_t i = 0; i < h.n; i++)
			h.value[i] = fio_seconds(h.value[i], scale);
		st->ctx->rs->m[mean].hist = h;
		return;
	}
out:
	free(h.value);
	free(h.count);
}

/* bw_min.. (KiB/s) and iops_min.. of the sample lines. */
static void emit_samples(struct json_state *st, size_t li, const char *op,
			 json_t *dir, const struct labels *l)
{
	static const char *const bw_keys[] = {
		"bw_min", "bw_max", "bw_mean", "bw_dev"
	};
	static const char *const iops_keys[] = {
		"iops_min", "iops_max", "iops_mean", "iops_stddev"
	};
	static const char *const names[] = { "min", "max", "mean", "stddev" };
	int have_samples, found;
	double samples, v;

	samples = num(dir, "bw_samples", &have_samples);
	if (!have_samples || samples > 0)
		for (int k = 0; k < 4; k++) {
			v = num(dir, bw_keys[k], &found);
			if (!found)
				break;
			strbuf_reset(&st->metric);
			strbuf_addf(&st->metric, "bw.%s", names[k]);
			emit(st, li, op, st->metric.buf, UNIT_BW, v * 1024, l);
		}
	samples = num(dir, "iops_samples", &have_samples);
	if (!have_samples || samples > 0)
		for (int k = 0; k < 4; k++) {
			v = num(dir, iops_keys[k], &found);
			if (!found)
				break;
			strbuf_reset(&st->metric);
			strbuf_addf(&st->metric, "iops.%s", names[k]);
			emit(st, li, op, st->metric.buf, UNIT_IOPS, v, l);
		}
}

/* One direction of a job; returns 1 when it did any I/O. */
static int emit_dir(struct json_state *st, size_t li, const char *op,
		    json_t *dir, const struct labels *l)
{
	int have_kb, have_bwb;
	double bytes = num(dir, "io_bytes", NULL);
	double runtime = num(dir, "runtime", NULL);
	double bw_bytes;

	num(dir, "io_kbytes", &have_kb);
	bw_bytes = num(dir, "bw_bytes", &have_bwb);
	if (!(bytes > 0) && !(runtime > 0))
		return 0;
	emit(st, li, op, "bw", UNIT_BW,
	     have_bwb ? bw_bytes : num(dir, "bw", NULL) * 1024, l);
	emit(st, li, op, "iops", UNIT_IOPS, num(dir, "iops", NULL), l);
	emit(st, li, op, "bytes", UNIT_BYTES, have_kb ? bytes : bytes * 1024,
	     l);
	emit(st, li, op, "runtime", UNIT_SECONDS, runtime / 1000, l);
	emit_latency(st, li, op, dir, "slat", l);
	emit_latency(st, li, op, dir, "clat", l);
	emit_latency(st, li, op, dir, "lat", l);
	emit_samples(st, li, op, dir, l);
	return 1;
}

/* Global options, then job options, as labels. */
static void option_labels(json_t *opts, struct labels *l)
{
	const char *key;
	json_t *v;

	json_object_foreach(opts, key, v)
		if (json_is_string(v))
			fio_option_label(l, key, strlen(key),
					 json_string_value(v));
}

static void job_labels(const struct json_doc *doc, json_t *job,
		       struct labels *l)
{
	const char *name = str(job, "jobname"), *host = str(job, "hostname");

	labels_init(l);
	option_labels(json_object_get(doc->root, "global options"), l);
	option_labels(json_object_get(job, "job options"), l);
	if (name && !strcmp(name, "All clients"))
		labels_set(l, "host", "all");
	else if (name)
		labels_set(l, "job", name);
	if (host)
		labels_set(l, "host", host);
	labels_setf(l, "group", "%lld",
		    (long long)json_integer_value(json_object_get(job,
								  "groupid")));
	if (doc->partial)
		labels_set(l, "partial", "1");
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

static void emit_job(struct json_state *st, size_t li, json_t *job,
		     long clone)
{
	static const enum fio_dir dirs[] = {
		FIO_READ, FIO_WRITE, FIO_TRIM, FIO_MIXED
	};
	const char *name = str(job, "jobname"), *rw, *op = NULL;
	json_int_t err = json_integer_value(json_object_get(job, "error"));
	json_t *sync;
	struct labels l;

	if (err) {
		parse_error(st->ctx, li, "fio job '%s' failed with error %lld: "
			    "no result taken from it", name ? name : "?",
			    (long long)err);
		return;
	}
	job_labels(st->doc, job, &l);
	if (clone >= 0)
		labels_setf(&l, "clone", "%ld", clone);
	rw = labels_get(&l, "rw");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		json_t *d = json_object_get(job, fio_dir_name(dirs[i]));
		const char *dop = fio_op(rw, dirs[i]);

		if (json_is_object(d) && emit_dir(st, li, dop, d, &l))
			op = !op || !strcmp(op, dop) ? dop : "run";
	}
	sync = json_object_get(job, "sync");
	if (json_is_object(sync) && num(sync, "total_ios", NULL) > 0)
		emit_latency(st, li, "sync", sync, "lat", &l);
	if (!op)
		op = "run";
	emit(st, li, op, "cpu.usr", UNIT_PERCENT, num(job, "usr_cpu", NULL),
	     &l);
	emit(st, li, op, "cpu.sys", UNIT_PERCENT, num(job, "sys_cpu", NULL),
	     &l);
	add_common(st, &l, op);
	labels_release(&l);
}

/* Lines of the document whose text starts with key, in order. */
static void find_key_lines(struct json_state *st, const char *key)
{
	st->njob_lines = 0;
	for (size_t i = st->doc->first; i <= st->doc->last; i++)
		if (starts_with(st->ctx->in->lines[i].text, key)) {
			ALLOC_GROW(st->job_lines, st->njob_lines + 1,
				   st->job_lines_alloc);
			st->job_lines[st->njob_lines++] = i;
		}
}

static size_t key_line(const struct json_state *st, size_t k)
{
	return k < st->njob_lines ? st->job_lines[k] : st->doc->first;
}

static void emit_disks(struct json_state *st, json_t *disks)
{
	size_t k;
	json_t *d;

	labels_remove(&st->common, "job");
	labels_remove(&st->common, "numjobs");
	find_key_lines(st, "\"name\"");
	json_array_foreach(disks, k, d) {
		const char *name = str(d, "name");
		struct labels l;
		int found;
		double util = num(d, "util", &found);

		if (!name || !found)
			continue;
		labels_copy(&l, &st->common);
		labels_set(&l, "device", name);
		emit(st, key_line(st, k), st->common_op ? st->common_op : "run",
		     "disk.util", UNIT_PERCENT, util, &l);
		labels_release(&l);
	}
}

static int same_job(json_t *a, json_t *b)
{
	const char *na = str(a, "jobname"), *nb = str(b, "jobname");
	const char *ha = str(a, "hostname"), *hb = str(b, "hostname");

	return na && nb && !strcmp(na, nb) &&
	       json_integer_value(json_object_get(a, "groupid")) ==
	       json_integer_value(json_object_get(b, "groupid")) &&
	       (ha == hb || (ha && hb && !strcmp(ha, hb)));
}

/*
 * Jobs of one document with the same name are clones (numjobs without
 * group_reporting), not repeated runs: their index among those, or -1
 * when the job is alone.
 */
static long clone_index(json_t *jobs, size_t k)
{
	json_t *job = json_array_get(jobs, k);
	long before = 0, count = 0;

	for (size_t i = 0; i < json_array_size(jobs); i++)
		if (same_job(job, json_array_get(jobs, i))) {
			before += i < k;
			count++;
		}
	return count > 1 ? before : -1;
}

static void emit_doc(struct json_state *st, const struct json_doc *doc)
{
	json_t *jobs = json_object_get(doc->root, "jobs");
	json_t *disks = json_object_get(doc->root, "disk_util");
	const char *ver = str(doc->root, "fio version");
	size_t k;
	json_t *job;

	st->doc = doc;
	st->njobs_done = 0;
	st->common_op = NULL;
	labels_init(&st->common);
	if (ver)
		fio_set_version(st->ctx, ver, strlen(ver));
	if (!json_is_array(jobs))
		jobs = json_object_get(doc->root, "client_stats");
	find_key_lines(st, "\"jobname\"");
	json_array_foreach(jobs, k, job)
		emit_job(st, key_line(st, k), job, clone_index(jobs, k));
	if (json_is_array(disks))
		emit_disks(st, disks);
	labels_release(&st->common);
}

static int is_fio_doc(json_t *root)
{
	return json_is_object(root) &&
	       (json_is_array(json_object_get(root, "jobs")) ||
		json_is_array(json_object_get(root, "client_stats")));
}

/* Seconds since the epoch of a document ("timestamp"), jobs' elapsed. */
static double doc_elapsed(json_t *root)
{
	json_t *jobs = json_object_get(root, "jobs");

	return num(json_array_get(jobs, 0), "elapsed", NULL);
}

/*
 * Is a a --status-interval snapshot of the run that b completes?  Then
 * b's jobs ran on: they are older by as much time as passed between the
 * two documents.  Repeated runs start again from zero.
 */
static int is_snapshot_of(json_t *a, json_t *b)
{
	double ea = doc_elapsed(a), eb = doc_elapsed(b);
	double ta = num(a, "timestamp", NULL), tb = num(b, "timestamp", NULL);

	if (!(eb > ea) || !(ta > 0) || !(tb > 0))
		return 0;
	return fabs((tb - ta) - (eb - ea)) <= 2;
}

/* The input's lines joined with '\n'; off[i] is where line i starts. */
static char *join_lines(const struct input *in, size_t *off, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < in->nlines; i++) {
		off[i] = sb.len;
		strbuf_adds(&sb, in->lines[i].text);
		strbuf_addch(&sb, '\n');
	}
	off[in->nlines] = sb.len;
	*len = sb.len;
	return strbuf_detach(&sb);
}

static size_t line_of_offset(const size_t *off, size_t n, size_t pos)
{
	size_t lo = 0, hi = n;	/* last line starting at or before pos */

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (off[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Does a fio document seem to start at line i (for error messages)? */
static int looks_like_fio(const struct input *in, size_t i)
{
	for (size_t k = i; k < in->nlines && k < i + 4; k++)
		if (strstr(in->lines[k].text, "\"fio version\""))
			return 1;
	return 0;
}

static void broken_doc(struct parse_ctx *ctx, size_t i, size_t nl,
		       const json_error_t *e, size_t left)
{
	size_t at = i + (e->line > 0 ? (size_t)e->line - 1 : 0);

	if (at >= nl)
		at = nl - 1;
	if (e->position >= (int)left - 1 || strstr(e->text, "end of file"))
		parse_error(ctx, at, "fio JSON output ends inside the document "
			    "(truncated): %s", e->text);
	else
		parse_error(ctx, at, "broken fio JSON output: %s", e->text);
}

/* Finds the documents; returns how many, in *docs. */
static size_t find_docs(struct parse_ctx *ctx, struct json_doc **docs)
{
	const struct input *in = ctx->in;
	size_t *off = xcalloc(in->nlines + 1, sizeof(*off)), len, n = 0;
	size_t alloc = 0, prev_end = 0;
	char *buf = join_lines(in, off, &len);

	*docs = NULL;
	for (size_t i = 0; i < in->nlines; i++) {
		json_error_t e;
		json_t *root;
		size_t end;

		if (in->lines[i].text[0] != '{')
			continue;
		root = json_loadb(buf + off[i], len - off[i],
				  JSON_DISABLE_EOF_CHECK, &e);
		if (!root) {
			if (looks_like_fio(in, i))
				broken_doc(ctx, i, in->nlines, &e,
					   len - off[i]);
			continue;
		}
		end = line_of_offset(off, in->nlines,
				     off[i] + (size_t)e.position - 1);
		if (!is_fio_doc(root)) {
			json_decref(root);
			continue;
		}
		ALLOC_GROW(*docs, n + 1, alloc);
		(*docs)[n].root = root;
		(*docs)[n].first = i;
		(*docs)[n].last = end;
		(*docs)[n].partial = 0;
		for (size_t k = prev_end; k < i; k++)
			if (starts_with(in->lines[k].text,
					"fio: terminating on signal"))
				(*docs)[n].partial = 1;
		for (size_t k = i; k <= end; k++)
			parse_claim(ctx, k);
		n++;
		prev_end = i = end;
	}
	free(buf);
	free(off);
	return n;
}

static int fio_json_parse(struct parse_ctx *ctx)
{
	struct json_state st;
	struct json_doc *docs;
	size_t before = ctx->rs->n, n = find_docs(ctx, &docs);

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	strbuf_init(&st.metric);
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && is_snapshot_of(docs[i].root, docs[i + 1].root))
			continue;	/* an intermediate --status-interval dump */
		emit_doc(&st, &docs[i]);
	}
	for (size_t i = 0; i < n; i++)
		json_decref(docs[i].root);
	free(docs);
	free(st.job_lines);
	strbuf_release(&st.metric);
	return (int)(ctx->rs->n - before);
}

const struct parser parser_fio_json = {
	.name = "fio-json",
	.detect = fio_json_detect,
	.parse = fio_json_parse,
};
