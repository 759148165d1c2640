/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * storan/1 binary read (rs-bin.h): the header and the table of sections
 * checked, the sources and cache drops read, then the measurements in
 * order, each taking its values, summary, histogram and series from the
 * front of their sections, which they must use up.  Every string and
 * label set is made once and shared, as the JSON reader shares them.
 */
#include "rs-bin.h"
#include "rs-bin-layout.h"
#include "json-scan.h"
#include "keymap.h"
#include "series.h"
#include "units.h"
#include "xalloc.h"

#include <endian.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct span {
	const unsigned char *p;
	size_t size, used;	/* used: read so far, sequential sections */
};

/* An interned tool..source_name text (see result_set_add_pooled()). */
struct key {
	uint32_t refs[5];
	const char *text;
};

struct reader {
	const char *name;
	struct strbuf *err;
	struct span sec[SEC_KINDS];
	struct result_set *rs;
	size_t base;		/* rs's sources before this file's */
	size_t index;		/* the measurement being read */
	struct key *keys;
	size_t nkeys, keys_alloc, last_key;	/* last_key: 1 + index */
	struct hashmap64 key_index;	/* hash of refs -> 1 + index */
	struct labels *sets;
	size_t nsets, sets_alloc;
	struct hashmap64 set_index;	/* 1 + word -> index */
	struct strbuf joined;
	uint32_t *idx;		/* a point's bins, read */
	uint64_t *cnt;
	double *vals;		/* values decoded (a big-endian machine) */
};

__attribute__((format(printf, 2, 3)))
static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(r->err, "%s: ", r->name);
	va_start(ap, fmt);
	strbuf_vaddf(r->err, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 2, 3)))
static int fail_m(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(r->err, "%s: measurements[%zu]: ", r->name, r->index);
	va_start(ap, fmt);
	strbuf_vaddf(r->err, fmt, ap);
	va_end(ap);
	return -1;
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static double get_f64(const unsigned char *p)
{
	uint64_t v = get_u64(p);
	double d;

	memcpy(&d, &v, 8);
	return d;
}

/* The next n bytes of a sequential section, or NULL when it has not
 * that many left. */
static const unsigned char *take(struct span *s, uint64_t n)
{
	const unsigned char *p = s->p + s->used;

	if (n > s->size - s->used)
		return NULL;
	s->used += (size_t)n;
	return p;
}

/* String ref, or NULL when it is none or not the start of one. */
static const char *string_at(const struct reader *r, uint32_t ref)
{
	const struct span *s = &r->sec[SEC_STRINGS];

	/* the start of a string: one from its middle may start mid-way
	 * through a character, not UTF-8 */
	return ref < s->size && (!ref || !s->p[ref - 1]) ?
	       (const char *)s->p + ref : NULL;
}

/*
 * A figure as the JSON reader takes it: finite, not below the smallest
 * normal double (JSON text cannot carry it back), never negative where
 * nonneg.
 */
static int figure_ok(double v, int nonneg)
{
	return isfinite(v) && !(fabs(v) < DBL_MIN && fabs(v) > 0) &&
	       !(nonneg && v < 0);
}

/* Strings that end, in UTF-8 (as JSON carries them). */
static int check_strings(struct reader *r, const struct span *s)
{
	const char *p = (const char *)s->p, *end = p + s->size;

	if (s->size && end[-1])
		return fail(r, "damaged: its strings do not end");
	for (size_t len; p < end; p += len + 1) {
		len = strlen(p);
		if (!jscan_utf8_valid(p, len))
			return fail(r, "damaged: a string that is not UTF-8 "
				    "at byte %zu of its strings",
				    (size_t)(p - (const char *)s->p));
	}
	return 0;
}

static const char *const section_name[SEC_KINDS] = {
	[SEC_META] = "generator", [SEC_STRINGS] = "strings",
	[SEC_LABELS] = "labels", [SEC_SOURCES] = "sources",
	[SEC_DROPS] = "cache_drops", [SEC_MEASUREMENTS] = "measurements",
	[SEC_VALUES] = "values", [SEC_SUMMARIES] = "summaries",
	[SEC_HISTOGRAMS] = "histograms", [SEC_SERIES] = "series",
};

static int header(struct reader *r, const unsigned char *p, size_t len)
{
	uint32_t version, nsec;

	if (len < HEADER_BYTES || !rs_bin_sniff((const char *)p, len))
		return fail(r, "not a storan binary result set");
	version = get_u32(p + 8);
	nsec = get_u32(p + 12);
	if (version != RS_BIN_VERSION)
		return fail(r, "binary result set of version %u; this storan "
			    "reads version %d (a newer storan wrote it?)",
			    version, RS_BIN_VERSION);
	if (nsec > 64 || (len - HEADER_BYTES) / ENTRY_BYTES < nsec)
		return fail(r, "truncated: its table of sections is cut off");
	for (uint32_t i = 0; i < nsec; i++) {
		const unsigned char *e = p + HEADER_BYTES + i * ENTRY_BYTES;
		uint32_t kind = get_u32(e);
		uint64_t at = get_u64(e + 8), size = get_u64(e + 16);

		if (kind < SEC_META || kind >= SEC_KINDS)
			return fail(r, "unknown section %u (a newer storan "
				    "wrote it?)", kind);
		if (r->sec[kind].p)
			return fail(r, "damaged: two %s sections",
				    section_name[kind]);
		if (at % 8 || at > len || size > len - at)
			return fail(r, "cut short or damaged: its %s (%" PRIu64
				    " bytes at byte %" PRIu64 ") end past its "
				    "%zu bytes", section_name[kind], size, at,
				    len);
		r->sec[kind].p = p + at;
		r->sec[kind].size = (size_t)size;
	}
	for (int k = SEC_STRINGS; k <= SEC_MEASUREMENTS; k++)
		if (!r->sec[k].p && k != SEC_DROPS)
			return fail(r, "damaged: no %s section",
				    section_name[k]);
	return check_strings(r, &r->sec[SEC_STRINGS]);
}

/* ---- label sets ---- */

static uint32_t word_at(const struct reader *r, size_t w)
{
	return get_u32(r->sec[SEC_LABELS].p + 4 * w);
}

/* The set at word w, checked and made: pairs of strings, keys strictly
 * ascending, at most LABELS_INPUT_MAX.  0, or -1 with what is wrong. */
static int make_set(struct reader *r, uint32_t w, struct labels *l,
		    const char **why)
{
	size_t nwords = r->sec[SEC_LABELS].size / 4, k;
	struct label_ref *pairs;

	*why = "not a label set";
	if (w >= nwords)
		return -1;
	k = word_at(r, w);
	if (k > LABELS_INPUT_MAX || 2 * k > nwords - w - 1) {
		*why = "more labels than a set may have, or than there are";
		return -1;
	}
	pairs = xmalloc((k + 1) * sizeof(*pairs));
	for (size_t i = 0; i < k; i++) {
		pairs[i].key = string_at(r, word_at(r, w + 1 + 2 * i));
		pairs[i].value = string_at(r, word_at(r, w + 2 + 2 * i));
		if (!pairs[i].key || !pairs[i].value ||
		    (i && strcmp(pairs[i - 1].key, pairs[i].key) >= 0)) {
			*why = "a label set whose keys are not strings in "
			       "ascending order";
			free(pairs);
			return -1;
		}
	}
	labels_init(l);
	if (labels_set_many(l, pairs, k))
		BUG("%zu labels did not fit", k);
	free(pairs);
	return 0;
}

/* The set at word w, made once and shared by every user of it. */
static const struct labels *set_at(struct reader *r, uint32_t w,
				   const char **why)
{
	int created;
	uint32_t *slot = hashmap64_put(&r->set_index, (uint64_t)w + 1,
				       (uint32_t)r->nsets, &created);

	if (!created)
		return &r->sets[*slot];
	ALLOC_GROW(r->sets, r->nsets + 1, r->sets_alloc);
	if (make_set(r, w, &r->sets[r->nsets], why))
		return NULL;	/* (the file is refused: the map goes) */
	return &r->sets[r->nsets++];
}

/* ---- sources and cache drops ---- */

static int read_sources(struct reader *r)
{
	const struct span *s = &r->sec[SEC_SOURCES];

	if (s->size % SOURCE_BYTES)
		return fail(r, "damaged: a source cut short");
	for (size_t i = 0; i < s->size / SOURCE_BYTES; i++) {
		const unsigned char *p = s->p + i * SOURCE_BYTES;
		const char *path = string_at(r, get_u32(p)), *why;
		const char *fmt = string_at(r, get_u32(p + 4));
		const char *ver = string_at(r, get_u32(p + 8));
		const char *sha = string_at(r, get_u32(p + 12));
		const struct labels *l = set_at(r, get_u32(p + 16), &why);
		struct source *src;
		size_t k;

		if (!path || !l)
			return fail(r, "sources[%zu]: %s", i,
				    path ? why : "no path");
		k = result_set_add_source(r->rs, path, sha);
		src = &r->rs->sources[k];	/* (after: it may move) */
		src->format = fmt ? xstrdup(fmt) : NULL;
		src->tool_version = ver ? xstrdup(ver) : NULL;
		labels_copy(&src->labels, l);
	}
	return 0;
}

static int read_drops(struct reader *r)
{
	const struct span *s = &r->sec[SEC_DROPS];
	size_t nsources = r->rs->nsources - r->base;

	if (s->size % DROP_BYTES)
		return fail(r, "damaged: a cache drop cut short");
	for (size_t i = 0; i < s->size / DROP_BYTES; i++) {
		const unsigned char *p = s->p + i * DROP_BYTES;
		uint32_t source = get_u32(p), line = get_u32(p + 8);
		const char *name = string_at(r, get_u32(p + 4));

		if (source >= nsources || !name || !line)
			return fail(r, "cache_drops[%zu]: want a source, its "
				    "name and a line number from 1", i);
		result_set_add_cache_drop(r->rs, r->base + source, name,
					  line);
	}
	return 0;
}

/* ---- a measurement's parts ---- */

/* Strings s (tool .. source_name) one after another in rs's pool. */
static const char *key_text(struct reader *r, const char *const *s)
{
	strbuf_reset(&r->joined);
	for (int i = 0; i < 5; i++)
		strbuf_add(&r->joined, s[i], strlen(s[i]) + 1);
	return memcpy(pool_alloc(&r->rs->pool, r->joined.len), r->joined.buf,
		      r->joined.len);
}

/* The text of strings s (tool .. source_name) in rs's pool, one text for
 * every measurement with the same five (a hash two share: the second
 * keeps its own). */
static const char *intern_key(struct reader *r, const uint32_t refs[5],
			      const char *const *s)
{
	uint32_t *slot;
	int created;
	struct key *k;

	if (r->last_key && !memcmp(r->keys[r->last_key - 1].refs, refs,
				   sizeof(k->refs)))
		return r->keys[r->last_key - 1].text;
	slot = hashmap64_put(&r->key_index,
			     hash64(HASH64_INIT, refs, sizeof(k->refs)),
			     (uint32_t)(r->nkeys + 1), &created);
	if (!created && !memcmp(r->keys[*slot - 1].refs, refs,
				sizeof(k->refs))) {
		r->last_key = *slot;
		return r->keys[*slot - 1].text;
	}
	ALLOC_GROW(r->keys, r->nkeys + 1, r->keys_alloc);
	k = &r->keys[r->nkeys++];
	memcpy(k->refs, refs, sizeof(k->refs));
	k->text = key_text(r, s);
	r->last_key = created ? *slot : 0;
	return k->text;
}

/* As the JSON reader: a base unit, the metric's own where storan knows
 * it. */
static int check_unit(struct reader *r, const char *metric, const char *unit)
{
	const char *known = metric_unit(metric);

	if (!unit_is_base(unit))
		return fail_m(r, "not a base unit (B/s, 1/s, B, s, %%): '%s'",
			      unit);
	if (known && strcmp(known, unit))
		return fail_m(r, "%s is stored in %s, not '%s'", metric, known,
			      unit);
	return 0;
}

static int check_values(struct reader *r, const unsigned char *p, size_t n,
			int nonneg, const char *field)
{
	for (size_t i = 0; i < n; i++) {
		double v = get_f64(p + 8 * i);

		if (!figure_ok(v, nonneg))
			return fail_m(r, "%s in '%s'",
				      isfinite(v) && v < 0 ? "negative figure "
				      "of a B/s, 1/s, B or s metric" :
				      "figure out of range", field);
	}
	return 0;
}

/* Runs a summary may cover: a whole number from 1 to 2^53 (exact). */
#define SUMMARY_N_MAX 9007199254740992.0

static int read_summary(struct reader *r, struct measurement *m, int nonneg)
{
	const unsigned char *p = take(&r->sec[SEC_SUMMARIES], SUMMARY_BYTES);
	struct summary *sm;

	if (!p)
		return fail_m(r, "its summary is missing (the sections do not "
			      "agree)");
	sm = measurement_add_summary(m);
	sm->n = get_f64(p);
	sm->mean = get_f64(p + 8);
	sm->stddev = get_f64(p + 16);
	sm->min = get_f64(p + 24);
	sm->max = get_f64(p + 32);
	sm->stddev_population = get_u32(p + 40) != 0;
	if (!(sm->n >= 1 && sm->n <= SUMMARY_N_MAX) || floor(sm->n) < sm->n)
		return fail_m(r, "not a number of runs (1 to 2^53) in "
			      "'summary.n'");
	if (!figure_ok(sm->mean, nonneg) ||
	    (!isnan(sm->min) && !figure_ok(sm->min, nonneg)) ||
	    (!isnan(sm->max) && !figure_ok(sm->max, nonneg)) ||
	    (!isnan(sm->stddev) && !figure_ok(sm->stddev, 1)))
		return fail_m(r, "negative or out of range figure in "
			      "'summary'");
	if (sm->min > sm->max ||
	    sm->mean < sm->min - 1e-9 * fabs(sm->min) ||
	    sm->mean > sm->max + 1e-9 * fabs(sm->max))
		return fail_m(r, "mean, min and max out of order in "
			      "'summary'");
	return 0;
}

static int read_histogram(struct reader *r, struct measurement *m,
			  int nonneg)
{
	struct span *s = &r->sec[SEC_HISTOGRAMS];
	const unsigned char *p = take(s, 8), *v, *c;
	uint64_t n = p ? get_u64(p) : 0;

	if (!p || n > (s->size - s->used) / 16)
		return fail_m(r, "its histogram is cut short");
	v = take(s, 8 * n);
	c = take(s, 8 * n);
	if (check_values(r, v, n, nonneg, "histogram.values"))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (get_u64(c + 8 * i) > INT64_MAX)
			return fail_m(r, "bad count in 'histogram'");
	if (!n)
		return 0;
	m->hist.n = n;
	m->hist.value = xcalloc(n, sizeof(double));
	m->hist.count = xcalloc(n, sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		m->hist.value[i] = get_f64(v + 8 * i);
		m->hist.count[i] = get_u64(c + 8 * i);
	}
	return 0;
}

/* An unsigned LEB128 varint of at most 64 bits, within [*p, end). */
static int get_varint(const unsigned char **p, const unsigned char *end,
		      uint64_t *out)
{
	*out = 0;
	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		unsigned char b = *(*p)++;

		if (shift == 63 && b > 1)
			return -1;
		*out |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* The bins of one point, [p, end): (step, count) varint pairs, buckets
 * ascending below nbuckets, into r->idx and r->cnt.  Their number, or -1. */
static long read_point_bins(struct reader *r, const unsigned char *p,
			    const unsigned char *end, uint64_t nbuckets)
{
	uint64_t next = 0, step, count;
	long k = 0;

	while (p < end) {
		if (next >= nbuckets || get_varint(&p, end, &step) ||
		    step >= nbuckets - next || get_varint(&p, end, &count) ||
		    count > INT64_MAX)
			return -1;
		r->idx[k] = (uint32_t)(next + step);
		r->cnt[k++] = count;
		next += step + 1;
	}
	return k;
}

/* The points of histogram series s, their bins from [p, end) (all of
 * it). */
static int read_hist_points(struct reader *r, struct series *s,
			    const unsigned char *t, const unsigned char *v,
			    uint64_t n, const unsigned char *p,
			    const unsigned char *end)
{
	r->idx = xrealloc(r->idx, s->nbuckets * sizeof(*r->idx));
	r->cnt = xrealloc(r->cnt, s->nbuckets * sizeof(*r->cnt));
	for (uint64_t i = 0; i < n; i++) {
		uint64_t len;
		long k;

		if (get_varint(&p, end, &len) || len > (uint64_t)(end - p))
			return -1;
		k = read_point_bins(r, p, p + len, s->nbuckets);
		if (k < 0)
			return -1;
		series_add_sparse(s, get_f64(t + 8 * i), get_f64(v + 8 * i),
				  r->idx, r->cnt, (size_t)k);
		p += len;
	}
	return p == end ? 0 : -1;
}

/* Buckets ascending, figures as values are. */
static int read_buckets(struct reader *r, struct series *s,
			const unsigned char *b, uint64_t nb, int nonneg)
{
	double *bucket = xmalloc((nb + 1) * sizeof(*bucket));
	int rc = 0;

	for (uint64_t i = 0; i < nb && !rc; i++) {
		bucket[i] = get_f64(b + 8 * i);
		rc = !figure_ok(bucket[i], nonneg) ||
		     (i && !(bucket[i] > bucket[i - 1]));
	}
	if (!rc)
		series_set_buckets(s, bucket, nb);
	free(bucket);
	return rc ? fail_m(r, "buckets not ascending figures in "
			   "'series.buckets'") : 0;
}

/*
 * interval, points, buckets and bin bytes (SERIES_HEAD_BYTES), then t[],
 * v[] and bucket[] (f64), then the bins of each point (a varint byte
 * count, then (step, count) varint pairs as series.h packs them), padded
 * to 8 bytes.
 */
static int read_series(struct reader *r, struct measurement *m, int nonneg)
{
	struct span *s = &r->sec[SEC_SERIES];
	const unsigned char *h = take(s, SERIES_HEAD_BYTES), *t, *v, *b, *bins;
	uint64_t n, nb, nbytes, left;
	double interval;

	if (!h)
		return fail_m(r, "its series is cut short");
	interval = get_f64(h);
	n = get_u64(h + 8);
	nb = get_u64(h + 16);
	nbytes = get_u64(h + 24);
	left = s->size - s->used;
	if (n > left / 16 || nb > (left - 16 * n) / 8 || nb > UINT32_MAX ||
	    nbytes > left - 16 * n - 8 * nb ||
	    pad8(nbytes) > left - 16 * n - 8 * nb || (!nb && nbytes))
		return fail_m(r, "its series is cut short");
	t = take(s, 8 * n);
	v = take(s, 8 * n);
	b = take(s, 8 * nb);
	bins = take(s, pad8(nbytes));
	if (!figure_ok(interval, 1) ||
	    check_values(r, t, n, 1, "series.t") ||
	    check_values(r, v, n, nonneg, "series.v"))
		return r->err->len ? -1 : fail_m(r, "bad 'series.interval'");
	m->series = series_new(interval);
	if (!nb) {
		for (uint64_t i = 0; i < n; i++)
			series_add(m->series, get_f64(t + 8 * i),
				   get_f64(v + 8 * i));
		return 0;
	}
	if (read_buckets(r, m->series, b, nb, nonneg))
		return -1;
	if (read_hist_points(r, m->series, t, v, n, bins, bins + nbytes))
		return fail_m(r, "bucket index out of range or order, or bins "
			      "cut short, in 'series.bins'");
	return 0;
}

/* The n values at p as doubles: where they are when the file's bytes
 * are this machine's doubles (aligned, little-endian), else decoded. */
static const double *values_at(struct reader *r, const unsigned char *p,
			       uint64_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if ((uintptr_t)p % _Alignof(double) == 0)
		return (const double *)(const void *)p;
#endif
	r->vals = xrealloc(r->vals, (n + 1) * sizeof(*r->vals));
	for (uint64_t i = 0; i < n; i++)
		r->vals[i] = get_f64(p + 8 * i);
	return r->vals;
}

/* The record at p: tool, op, metric, unit, source_name, labels, source,
 * line, flags, 0 (u32), values (u64). */
static int record_strings(struct reader *r, const unsigned char *p,
			  uint32_t refs[5], const char *s[5])
{
	for (int k = 0; k < 5; k++)
		s[k] = string_at(r, refs[k] = get_u32(p + 4 * k));
	if (!s[0] || !s[1] || !s[2] || !s[3] || (!s[4] && refs[4] != NO_STRING))
		return fail_m(r, "missing tool, op, metric or unit, or a "
			      "source_name that is no string");
	return check_unit(r, s[2], s[3]);
}

/* Its summary, histogram and series, as flags say it has them. */
static int read_parts(struct reader *r, struct measurement *m,
		      uint32_t flags, int nonneg)
{
	if (flags & ~(uint32_t)(HAS_SUMMARY | HAS_HISTOGRAM | HAS_SERIES))
		return fail_m(r, "unknown flags %#x", flags);
	if (((flags & HAS_SUMMARY) && read_summary(r, m, nonneg)) ||
	    ((flags & HAS_HISTOGRAM) && read_histogram(r, m, nonneg)) ||
	    ((flags & HAS_SERIES) && read_series(r, m, nonneg)))
		return -1;
	if (!m->n && !measurement_summary(m)->present)
		return fail_m(r, "no values and no summary in 'values'");
	return 0;
}

/* The record at p: tool, op, metric, unit, source_name, labels, source,
 * line, flags, 0 (u32), values (u64). */
static int read_measurement(struct reader *r, const unsigned char *p)
{
	uint32_t refs[5], source = get_u32(p + 24);
	uint64_t n = get_u64(p + 40);
	size_t nsources = r->rs->nsources - r->base;
	struct span *vs = &r->sec[SEC_VALUES];
	const unsigned char *vals;
	const struct labels *l;
	const char *s[5], *why;
	struct measurement *m;
	int nonneg;

	if (record_strings(r, p, refs, s))
		return -1;
	if (source >= nsources)
		return fail_m(r, "no such source in 'source'");
	if (n > (vs->size - vs->used) / 8)
		return fail_m(r, "its values are cut short");
	vals = take(vs, 8 * n);
	nonneg = strcmp(s[3], UNIT_PERCENT) != 0;
	if (check_values(r, vals, n, nonneg, "values"))
		return -1;
	l = set_at(r, get_u32(p + 20), &why);
	if (!l)
		return fail_m(r, "%s in 'labels'", why);
	if (!s[4])	/* its source's name, as in JSON */
		s[4] = r->rs->sources[r->base + source].name;
	m = result_set_add_pooled(r->rs, refs[4] == NO_STRING ? key_text(r, s) :
				  intern_key(r, refs, s), r->base + source,
				  get_u32(p + 28), values_at(r, vals, n),
				  (size_t)n);
	labels_copy(&m->labels, l);
	return read_parts(r, m, get_u32(p + 32), nonneg);
}

static int read_measurements(struct reader *r)
{
	const struct span *s = &r->sec[SEC_MEASUREMENTS];
	size_t n = s->size / MEASUREMENT_BYTES;

	if (s->size % MEASUREMENT_BYTES)
		return fail(r, "damaged: a measurement cut short");
	/* all at once: no array copied as it doubles */
	result_set_grow(r->rs, r->rs->n + n);
	for (r->index = 0; r->index < n; r->index++)
		if (read_measurement(r, s->p + r->index * MEASUREMENT_BYTES))
			return -1;
	return 0;
}

/* What the measurements read from each section is all of it. */
static int all_used(struct reader *r)
{
	for (int k = SEC_VALUES; k <= SEC_SERIES; k++)
		if (r->sec[k].used != r->sec[k].size)
			return fail(r, "damaged: %zu bytes of %s that no "
				    "measurement has", r->sec[k].size -
				    r->sec[k].used, section_name[k]);
	return 0;
}

static void reader_release(struct reader *r)
{
	for (size_t i = 0; i < r->nsets; i++)
		labels_release(&r->sets[i]);
	free(r->sets);
	free(r->keys);
	free(r->idx);
	free(r->cnt);
	free(r->vals);
	hashmap64_release(&r->key_index);
	hashmap64_release(&r->set_index);
	strbuf_release(&r->joined);
}

_Static_assert(RS_BIN_HEAD_MAX == HEADER_BYTES + 64 * ENTRY_BYTES,
	       "the table of sections: at most 64 entries");

size_t rs_bin_count(const char *head, size_t len, uint64_t file_size)
{
	const unsigned char *p = (const unsigned char *)head;
	uint32_t nsec;

	if (len < HEADER_BYTES || !rs_bin_sniff(head, len) ||
	    get_u32(p + 8) != RS_BIN_VERSION)
		return 0;
	nsec = get_u32(p + 12);
	for (uint32_t i = 0; i < nsec && i < 64; i++) {
		const unsigned char *e = p + HEADER_BYTES + i * ENTRY_BYTES;
		uint64_t size;

		if ((size_t)(e - p) + ENTRY_BYTES > len)
			return 0;
		if (get_u32(e) != SEC_MEASUREMENTS)
			continue;
		size = get_u64(e + 16);
		/* (no more than the file holds: a damaged size asks for
		 * no terabytes; the reader says what is wrong) */
		if (size % MEASUREMENT_BYTES || size > file_size)
			return 0;
		return (size_t)(size / MEASUREMENT_BYTES);
	}
	return 0;
}

int rs_bin_read(const char *name, const char *data, size_t len,
		struct result_set *rs, struct strbuf *err)
{
	struct reader r;
	size_t n = rs->n, nsources = rs->nsources;
	int rc;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.err = err;
	r.rs = rs;
	r.base = rs->nsources;
	hashmap64_init(&r.key_index);
	hashmap64_init(&r.set_index);
	strbuf_init(&r.joined);
	rc = header(&r, (const unsigned char *)data, len) ||
	     read_sources(&r) || read_drops(&r) || read_measurements(&r) ||
	     all_used(&r) ? -1 : 0;
	if (rc)
		result_set_truncate(rs, n, nsources);
	reader_release(&r);
	return rc;
}
