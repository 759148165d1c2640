/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan/1 JSON read back into a result set (the writer is rs-json.c;
 * the format is docs/result-format.md).
 */
#include "rs-json.h"
#include "rs-json-fast.h"
#include "series.h"
#include "filemap.h"
#include "json-scan.h"
#include "keymap.h"
#include "units.h"
#include "xalloc.h"

#include <float.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Reading: with json-scan, not a jansson tree (a 28 MB result set took
 * 1.5 s and 250 MB that way).  jansson still words syntax errors: when
 * json-scan finds the text is not one valid JSON document without
 * duplicate keys, json_loadb() is asked for its message, so errors read
 * as they always did.  Each helper fills err and returns -1 on the first
 * problem.
 */
struct reader {
	const char *name;
	const char *text;	/* the document as given (messages count
				 * its lines: buf is decoded in place) */
	struct strbuf *err;
	size_t index;		/* measurement being read */
	size_t obj;		/* its token */
	struct jscan *js;
	int nonneg;		/* its unit has no negative figures */
	/* streaming a document whose sources follow its measurements (as
	 * storan writes them): sources are checked once read */
	int sources_later;
	size_t sources_wanted;	/* 1 + the highest source index named */
	/* the last measurement's label set: the next one written with
	 * the same labels shares it */
	struct labels prev;
	/* every distinct set read so far, by labels_hash(): a set written
	 * again further down (the same bs and iodepth for the next op)
	 * shares the first one's */
	struct hashmap64 set_index;
	struct labels *sets;
	size_t nsets, sets_alloc;
	/* the measurement's values, read before it is made: they go in
	 * the block of its strings (result_set_add_values) */
	double *vals;
	size_t nvals, vals_alloc;
	struct fast_measurement fast;	/* rs-json-fast.c's */
	/* the key texts (tool..source_name, NULs between) of measurements
	 * read by rs-json-fast.c, each once in the result set's pool */
	struct hashmap64 key_index;	/* hash64() of a text -> 1 + index */
	struct pooled_key {
		const char *text;
		size_t len;
	} *keys;
	size_t nkeys, keys_alloc;
	size_t last;			/* 1 + the last one's index, or 0 */
	struct strbuf joined;
};

/* The line of token tok (of the measurement when JSCAN_NONE). */
static size_t token_line(const struct reader *r, size_t tok)
{
	size_t at = r->js->tok[tok == JSCAN_NONE ? r->obj : tok].start;
	size_t line = 1;

	for (const char *p = r->text; (p = memchr(p, '\n',
					   at - (size_t)(p - r->text)));
	     p++)
		line++;
	return line;
}

/* "FILE:LINE: measurements[i]: WHAT 'FIELD'", at token tok. */
static int fail_at(struct reader *r, size_t tok, const char *what,
		   const char *field)
{
	strbuf_addf(r->err, "%s:%zu: measurements[%zu]: %s '%s'", r->name,
		    token_line(r, tok), r->index, what, field);
	return -1;
}

static int fail(struct reader *r, const char *what, const char *field)
{
	return fail_at(r, JSCAN_NONE, what, field);
}

static int is_type(struct reader *r, size_t v, enum jscan_type t)
{
	return jscan_type(r->js, v) == t;
}

static int is_number(struct reader *r, size_t v)
{
	return is_type(r, v, JSCAN_INTEGER) || is_type(r, v, JSCAN_REAL);
}

static int get_string(struct reader *r, size_t o, const char *key,
		      const char **out, int required)
{
	size_t v = jscan_get(r->js, o, key);

	if (v == JSCAN_NONE || is_type(r, v, JSCAN_NULL)) {
		*out = NULL;
		return required ? fail(r, "missing", key) : 0;
	}
	if (!is_type(r, v, JSCAN_STRING))
		return fail_at(r, v, "expected a string in", key);
	*out = jscan_str(r->js, v);
	return 0;
}

static double get_number(struct reader *r, size_t v)
{
	double d;

	return jscan_num(r->js, v, &d) ? d : NAN;
}

/* Does number token v have a digit other than 0 before its exponent? */
static int has_nonzero_digit(const struct reader *r, size_t v)
{
	const char *s = r->js->buf + r->js->tok[v].start;

	for (size_t i = 0; i < r->js->tok[v].len; i++) {
		if (s[i] == 'e' || s[i] == 'E')
			break;
		if (s[i] >= '1' && s[i] <= '9')
			return 1;
	}
	return 0;
}

/*
 * A finite number at token v, or an error naming field: JSON has no
 * infinity, but 1e400 reads as one, and storan writes only finite
 * figures.  Nor does it write a figure below the smallest normal double:
 * 1e-400 read as 0 (or 1e-310 with digits lost) is refused the same way.
 * A rate, a count of bytes or a time is never negative.
 */
static int get_finite(struct reader *r, size_t v, const char *field,
		      double *out)
{
	if (!is_number(r, v))
		return fail_at(r, v, "non-number in", field);
	*out = get_number(r, v);
	if (!isfinite(*out) ||
	    (fabs(*out) < DBL_MIN && has_nonzero_digit(r, v)))
		return fail_at(r, v, "out of range in", field);
	if (r->nonneg && *out < 0)
		return fail_at(r, v, "negative figure of a B/s, 1/s, B or s "
			       "metric in", field);
	return 0;
}

/* The measurement's values into r->vals. */
static int read_values(struct reader *r, size_t o)
{
	size_t vals = jscan_get(r->js, o, "values");
	double d;

	r->nvals = 0;
	if (!is_type(r, vals, JSCAN_ARRAY))
		return fail(r, "missing array", "values");
	for (size_t v = jscan_first(r->js, vals); v != JSCAN_NONE;
	     v = jscan_next(r->js, vals, v)) {
		if (get_finite(r, v, "values", &d))
			return -1;
		ALLOC_GROW(r->vals, r->nvals + 1, r->vals_alloc);
		r->vals[r->nvals++] = d;
	}
	return 0;
}

/* An optional figure of a summary: finite, or absent/null (NAN). */
static int summary_figure(struct reader *r, size_t s, const char *key,
			  double *out)
{
	size_t v = jscan_get(r->js, s, key);

	*out = NAN;
	if (v == JSCAN_NONE || is_type(r, v, JSCAN_NULL))
		return 0;
	return get_finite(r, v, key, out);
}

/* Runs a summary may cover: a whole number, at least 1 (and exact in a
 * double, so that it prints back as it was read). */
#define SUMMARY_N_MAX 9007199254740992.0	/* 2^53 */

static int read_summary(struct reader *r, size_t o, struct measurement *m)
{
	size_t s = jscan_get(r->js, o, "summary");
	struct summary *sm;
	int nonneg, rc;

	if (s == JSCAN_NONE)
		return 0;
	sm = measurement_add_summary(m);	/* (a failed read drops m) */
	if (!is_type(r, s, JSCAN_OBJECT) ||
	    !is_number(r, jscan_get(r->js, s, "n")) ||
	    !is_number(r, jscan_get(r->js, s, "mean")))
		return fail_at(r, s, "needs numbers n and mean:", "summary");
	sm->n = get_number(r, jscan_get(r->js, s, "n"));
	if (!(sm->n >= 1 && sm->n <= SUMMARY_N_MAX) || floor(sm->n) < sm->n)
		return fail_at(r, jscan_get(r->js, s, "n"), "not a number of "
			       "runs (1 to 2^53) in", "summary.n");
	if (get_finite(r, jscan_get(r->js, s, "mean"), "summary.mean",
		       &sm->mean) ||
	    summary_figure(r, s, "min", &sm->min) ||
	    summary_figure(r, s, "max", &sm->max))
		return -1;
	/* a spread is never negative, whatever the unit: checked below */
	nonneg = r->nonneg;
	r->nonneg = 0;
	rc = summary_figure(r, s, "stddev", &sm->stddev);
	r->nonneg = nonneg;
	if (rc)
		return -1;
	if (sm->stddev < 0)
		return fail_at(r, jscan_get(r->js, s, "stddev"), "negative",
			       "summary.stddev");
	if (sm->min > sm->max)	/* (false when either is absent: NAN) */
		return fail_at(r, jscan_get(r->js, s, "min"), "greater than "
			       "summary.max:", "summary.min");
	/* a mean is computed: 0.1 three times has a mean an ulp above 0.1 */
	if (sm->mean < sm->min - 1e-9 * fabs(sm->min) ||
	    sm->mean > sm->max + 1e-9 * fabs(sm->max))
		return fail_at(r, jscan_get(r->js, s, "mean"), "outside "
			       "[summary.min, summary.max]:", "summary.mean");
	sm->stddev_population =
		is_type(r, jscan_get(r->js, s, "stddev_population"),
			JSCAN_TRUE);
	return 0;
}

static int read_histogram(struct reader *r, size_t o, struct measurement *m)
{
	size_t h = jscan_get(r->js, o, "histogram"), v, c, n;

	if (h == JSCAN_NONE)
		return 0;
	v = jscan_get(r->js, h, "values");
	c = jscan_get(r->js, h, "counts");
	if (!is_type(r, v, JSCAN_ARRAY) || !is_type(r, c, JSCAN_ARRAY) ||
	    jscan_size(r->js, v) != jscan_size(r->js, c))
		return fail_at(r, h, "needs values and counts of one length:",
			       "histogram");
	n = jscan_size(r->js, v);
	m->hist.n = n;
	m->hist.value = xcalloc(n, sizeof(double));
	m->hist.count = xcalloc(n, sizeof(uint64_t));
	v = jscan_first(r->js, v);
	c = jscan_first(r->js, c);
	for (size_t i = 0; i < n; i++) {
		if (!is_number(r, v) || !is_type(r, c, JSCAN_INTEGER) ||
		    jscan_int(r->js, c) < 0)
			return fail_at(r, v, "bad bucket in", "histogram");
		if (get_finite(r, v, "histogram.values", &m->hist.value[i]))
			return -1;
		m->hist.count[i] = (uint64_t)jscan_int(r->js, c);
		v = r->js->tok[v].next;	/* scalars: the next token */
		c = r->js->tok[c].next;
	}
	return 0;
}

/* Reads numeric array a of n elements into out[] (finite figures). */
static int read_reals(struct reader *r, size_t a, const char *field,
		      double *out)
{
	size_t i = 0;

	for (size_t v = jscan_first(r->js, a); v != JSCAN_NONE;
	     v = jscan_next(r->js, a, v))
		if (get_finite(r, v, field, &out[i++]))
			return -1;
	return 0;
}

/* Point i's [index, count, ...] pairs: indexes ascending, in range. */
static int read_series_bins(struct reader *r, size_t a, struct series *s,
			    size_t npairs_max, uint32_t *idx, uint64_t *cnt)
{
	size_t k = 0, v = jscan_first(r->js, a);

	if (!is_type(r, a, JSCAN_ARRAY) || jscan_size(r->js, a) % 2 ||
	    jscan_size(r->js, a) / 2 > npairs_max)
		return fail_at(r, a, "needs [index, count] pairs in",
			       "series.bins");
	for (; v != JSCAN_NONE; v = jscan_next(r->js, a, v)) {
		size_t c = jscan_next(r->js, a, v);
		int64_t b = jscan_int(r->js, v), n = jscan_int(r->js, c);

		if (!is_type(r, v, JSCAN_INTEGER) || b < 0 ||
		    (uint64_t)b >= s->nbuckets || (k && b <= idx[k - 1]))
			return fail_at(r, v, "bucket index out of range or "
				       "order in", "series.bins");
		if (!is_type(r, c, JSCAN_INTEGER) || n < 0)
			return fail_at(r, c, "bad count in", "series.bins");
		idx[k] = (uint32_t)b;
		cnt[k++] = (uint64_t)n;
		v = c;
	}
	return (int)k;
}

/* The points, with their buckets when the series has them. */
static int read_series_points(struct reader *r, size_t o, struct series *s,
			      const double *t, const double *v,
			      size_t npoints)
{
	size_t b = jscan_get(r->js, o, "buckets");
	size_t bins = jscan_get(r->js, o, "bins"), p, n;
	double *bucket;
	uint32_t *idx;
	uint64_t *cnt;
	int rc = 0;

	if (b == JSCAN_NONE && bins == JSCAN_NONE) {
		for (size_t i = 0; i < npoints; i++)
			series_add(s, t[i], v[i]);
		return 0;
	}
	if (!is_type(r, b, JSCAN_ARRAY) || !jscan_size(r->js, b) ||
	    jscan_size(r->js, b) > UINT32_MAX || !is_type(r, bins,
							  JSCAN_ARRAY) ||
	    jscan_size(r->js, bins) != npoints)
		return fail_at(r, o, "needs buckets and one bins array a "
			       "point in", "series");
	n = jscan_size(r->js, b);
	bucket = xcalloc(n, sizeof(*bucket));
	if (read_reals(r, b, "series.buckets", bucket)) {
		free(bucket);
		return -1;
	}
	for (size_t i = 1; i < n; i++)
		if (!(bucket[i] > bucket[i - 1])) {
			free(bucket);
			return fail_at(r, b, "not ascending:", "series.buckets");
		}
	series_set_buckets(s, bucket, n);
	free(bucket);
	idx = xmalloc(n * sizeof(*idx));
	cnt = xmalloc(n * sizeof(*cnt));
	p = jscan_first(r->js, bins);
	for (size_t i = 0; i < npoints && !rc; i++) {
		int k = read_series_bins(r, p, s, n, idx, cnt);

		if (k < 0)
			rc = -1;
		else
			series_add_sparse(s, t[i], v[i], idx, cnt, (size_t)k);
		p = jscan_next(r->js, bins, p);
	}
	free(idx);
	free(cnt);
	return rc;
}

/* The optional "series" (samples over time); see put_series(). */
static int read_series(struct reader *r, size_t o, struct measurement *m)
{
	size_t so = jscan_get(r->js, o, "series"), t, v, it, n;
	double interval, *tv = NULL, *vv = NULL;
	int nonneg = r->nonneg, rc = -1;

	if (so == JSCAN_NONE)
		return 0;
	if (!is_type(r, so, JSCAN_OBJECT))
		return fail_at(r, so, "expected an object in", "series");
	t = jscan_get(r->js, so, "t");
	v = jscan_get(r->js, so, "v");
	it = jscan_get(r->js, so, "interval");
	if (!is_type(r, t, JSCAN_ARRAY) || !is_type(r, v, JSCAN_ARRAY) ||
	    jscan_size(r->js, t) != jscan_size(r->js, v))
		return fail_at(r, so, "needs arrays t and v of one length:",
			       "series");
	if (it == JSCAN_NONE)
		return fail_at(r, so, "missing", "series.interval");
	r->nonneg = 1;	/* times and the interval are never negative */
	if (get_finite(r, it, "series.interval", &interval))
		goto out;
	n = jscan_size(r->js, t);
	tv = xcalloc(n + 1, sizeof(*tv));
	vv = xcalloc(n + 1, sizeof(*vv));
	if (read_reals(r, t, "series.t", tv))
		goto out;
	r->nonneg = nonneg;
	if (read_reals(r, v, "series.v", vv))
		goto out;
	m->series = series_new(interval);
	rc = read_series_points(r, so, m->series, tv, vv, n);
out:
	r->nonneg = nonneg;
	free(tv);
	free(vv);
	return rc;
}

/*
 * Whether the pairs, in the order the document wrote them, are the
 * previous measurement's set label for label.  Compared with the set
 * itself, not with the previous pairs: those point into token storage
 * that is reset after every measurement.  A document that does not
 * write labels sorted (storan's own does) just shares nothing.
 */
static int same_as_set(const struct label_ref *pairs, size_t n,
		       const struct labels *set)
{
	if (n != set->n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(pairs[i].key, set->v[i].key) ||
		    strcmp(pairs[i].value, set->v[i].value))
			return 0;
	return 1;
}

/* Makes l share the set of an earlier measurement with the same labels,
 * or remembers it as the first of its kind.  (A hash that two different
 * sets share leaves the second unshared.) */
static void share_earlier_set(struct reader *r, struct labels *l)
{
	int created;
	uint32_t *slot;

	if (!l->n || r->nsets >= UINT32_MAX)	/* (sharing saves memory only) */
		return;
	slot = hashmap64_put(&r->set_index, labels_hash(l),
			     (uint32_t)r->nsets, &created);
	if (created) {
		ALLOC_GROW(r->sets, r->nsets + 1, r->sets_alloc);
		labels_copy(&r->sets[r->nsets++], l);
	} else if (labels_equal(&r->sets[*slot], l)) {
		labels_release(l);
		labels_copy(l, &r->sets[*slot]);
	}
}

/* The n labels of m (at most LABELS_INPUT_MAX), shared where they can
 * be. */
static void take_labels(struct reader *r, struct measurement *m,
			const struct label_ref *pairs, size_t n)
{
	if (n && same_as_set(pairs, n, &r->prev)) {
		labels_copy(&m->labels, &r->prev);	/* a job's metrics */
		return;
	}
	if (labels_set_many(&m->labels, pairs, n))
		BUG("%zu labels did not fit", n);
	share_earlier_set(r, &m->labels);
	labels_release(&r->prev);
	labels_copy(&r->prev, &m->labels);
}

/*
 * Every label at once (sorted once: see labels_set_many()).  A
 * measurement whose labels are written as the last one's were (the
 * metrics of one fio job) shares that one's set: 100,000 measurements
 * made 100,000 sets of the same few labels, 8% of reading them.
 */
static int read_labels(struct reader *r, size_t o, struct measurement *m)
{
	size_t labels = jscan_get(r->js, o, "labels"), n = 0;
	struct label_ref *pairs;
	int rc = 0;

	if (labels == JSCAN_NONE)
		return 0;
	if (!is_type(r, labels, JSCAN_OBJECT))
		return fail_at(r, labels, "expected an object in", "labels");
	if (jscan_size(r->js, labels) > LABELS_INPUT_MAX) {
		char what[64];

		snprintf(what, sizeof(what), "more than %d labels in",
			 LABELS_INPUT_MAX);
		return fail_at(r, labels, what, "labels");
	}
	pairs = xmalloc((jscan_size(r->js, labels) + 1) * sizeof(*pairs));
	for (size_t k = jscan_first(r->js, labels); k != JSCAN_NONE;
	     k = jscan_next(r->js, labels, k)) {
		const char *key = jscan_str(r->js, k);

		if (!is_type(r, k + 1, JSCAN_STRING)) {
			rc = fail_at(r, k + 1, "non-string label", key);
			break;
		}
		pairs[n++] = (struct label_ref){ key, jscan_str(r->js, k + 1) };
	}
	if (!rc)
		take_labels(r, m, pairs, n);
	free(pairs);
	return rc;
}

/* Is unit a base unit, and the metric's own where storan knows it? */
static int unit_fits(const char *metric, const char *unit)
{
	const char *known = metric_unit(metric);

	return unit_is_base(unit) && (!known || !strcmp(known, unit));
}

/* The unit, as unit_fits() asks, or why not. */
static int check_unit(struct reader *r, size_t o, const char *metric,
		      const char *unit)
{
	const char *known = metric_unit(metric);
	size_t tok = jscan_get(r->js, o, "unit");
	char what[64];

	if (unit_fits(metric, unit))
		return 0;
	if (!unit_is_base(unit))
		return fail_at(r, tok, "not a base unit (B/s, 1/s, B, s, %):",
			       unit);
	snprintf(what, sizeof(what), "%s is stored in %s, not", metric,
		 known);
	return fail_at(r, tok, what, unit);
}

static int read_line_number(struct reader *r, size_t o, unsigned *line)
{
	size_t tok = jscan_get(r->js, o, "line");
	int64_t v;

	*line = 0;
	if (tok == JSCAN_NONE)
		return 0;
	v = jscan_int(r->js, tok);
	if (!is_type(r, tok, JSCAN_INTEGER) || v < 0 || v > UINT32_MAX)
		return fail_at(r, tok, "not a line number in", "line");
	*line = (unsigned)v;
	return 0;
}

static int read_measurement(struct reader *r, size_t o,
			    struct result_set *rs, size_t base)
{
	const char *tool, *op, *metric, *unit, *sname;
	size_t src = jscan_get(r->js, o, "source");
	struct measurement *m;
	size_t source = 0;
	unsigned line;

	r->obj = o;
	if (!is_type(r, o, JSCAN_OBJECT))
		return fail(r, "expected an object at", "measurements");
	if (get_string(r, o, "tool", &tool, 1) ||
	    get_string(r, o, "op", &op, 1) ||
	    get_string(r, o, "metric", &metric, 1) ||
	    get_string(r, o, "unit", &unit, 1) ||
	    get_string(r, o, "source_name", &sname, 0) ||
	    check_unit(r, o, metric, unit) || read_line_number(r, o, &line))
		return -1;
	r->nonneg = strcmp(unit, UNIT_PERCENT) != 0;	/* a base unit */
	if (src != JSCAN_NONE) {
		int64_t i = jscan_int(r->js, src);

		if (!is_type(r, src, JSCAN_INTEGER) || i < 0 ||
		    (!r->sources_later && (uint64_t)i >= rs->nsources - base))
			return fail_at(r, src, "no such source in", "source");
		source = (size_t)i;
		if (r->sources_later && source >= r->sources_wanted)
			r->sources_wanted = source + 1;
	}
	/* no name here: it is the source's, not read yet */
	if (r->sources_later && !sname)
		return -1;
	if (read_values(r, o))
		return -1;
	m = result_set_add_values(rs, tool, op, metric, unit, base + source,
				  sname ? sname : rs->nsources > base ?
				  rs->sources[base + source].name : "", line,
				  r->vals, r->nvals);
	if (read_summary(r, o, m) ||
	    read_histogram(r, o, m) || read_series(r, o, m) ||
	    read_labels(r, o, m))
		return -1;
	if (!m->n && !measurement_summary(m)->present)
		return fail(r, "no values and no summary in", "values");
	return 0;
}

/* Does interned key k hold the text just joined? */
static int same_key(const struct reader *r, size_t k)
{
	return r->keys[k].len == r->joined.len &&
	       !memcmp(r->keys[k].text, r->joined.buf, r->joined.len);
}

/*
 * The five strings s as one text in rs's pool, the same text for every
 * measurement that has them (the last one's, mostly).  Two texts with one
 * hash: the second is kept on its own.
 */
static const char *intern_key(struct reader *r, struct result_set *rs,
			      const char *const *s)
{
	struct pooled_key *k;
	uint32_t *slot;
	int created;

	strbuf_reset(&r->joined);
	for (int i = 0; i < 5; i++)
		strbuf_add(&r->joined, s[i], strlen(s[i]) + 1);
	if (r->last && same_key(r, r->last - 1))
		return r->keys[r->last - 1].text;
	slot = hashmap64_put(&r->key_index,
			     hash64(HASH64_INIT, r->joined.buf, r->joined.len),
			     (uint32_t)(r->nkeys + 1), &created);
	if (!created && same_key(r, *slot - 1)) {
		r->last = *slot;
		return r->keys[r->last - 1].text;
	}
	ALLOC_GROW(r->keys, r->nkeys + 1, r->keys_alloc);
	k = &r->keys[r->nkeys++];
	k->len = r->joined.len;
	k->text = memcpy(pool_alloc(&rs->pool, k->len), r->joined.buf, k->len);
	r->last = created ? *slot : 0;
	return k->text;
}

/*
 * The measurement at pos read by rs-json-fast.c: 0 and *end past it, or
 * 1 when that path declines it or finds anything wrong (a check below
 * fails): read_measurement() then reads it, and words the error.  The
 * checks are read_measurement()'s, as predicates.
 */
static int read_measurement_fast(struct reader *r, size_t pos,
				 struct result_set *rs, size_t base,
				 size_t *end)
{
	struct fast_measurement *f = &r->fast;
	const char **s = f->str;
	struct measurement *m;
	int nonneg;

	if (fast_measurement_read(f, r->js->buf, r->js->len, pos, end) ||
	    !s[FAST_TOOL] || !s[FAST_OP] || !s[FAST_METRIC] ||
	    !s[FAST_UNIT] || !unit_fits(s[FAST_METRIC], s[FAST_UNIT]) ||
	    (f->has_line && f->line > UINT32_MAX) || !f->has_values ||
	    !f->nvalues || f->nlabels > LABELS_INPUT_MAX ||
	    (r->sources_later && !s[FAST_SOURCE_NAME]))
		return 1;
	nonneg = strcmp(s[FAST_UNIT], UNIT_PERCENT) != 0;
	for (size_t i = 0; i < f->nvalues; i++)
		if (nonneg && f->values[i] < 0)
			return 1;
	if (f->has_source) {
		if (!r->sources_later && f->source >= rs->nsources - base)
			return 1;
		if (r->sources_later && f->source >= r->sources_wanted)
			r->sources_wanted = f->source + 1;
	}
	if (!s[FAST_SOURCE_NAME])	/* its source's, or none */
		s[FAST_SOURCE_NAME] = rs->nsources > base ?
				      rs->sources[base + f->source].name : "";
	m = result_set_add_pooled(rs, intern_key(r, rs, s), base + f->source,
				  (unsigned)f->line, f->values, f->nvalues);
	take_labels(r, m, f->labels, f->nlabels);
	return 0;
}

/* The labels the user gave at ingest (absent in older documents). */
static int read_source_labels(struct reader *r, size_t o, struct labels *l)
{
	if (o == JSCAN_NONE)
		return 0;
	if (!is_type(r, o, JSCAN_OBJECT) ||
	    jscan_size(r->js, o) > LABELS_INPUT_MAX)
		return -1;
	for (size_t k = jscan_first(r->js, o); k != JSCAN_NONE;
	     k = jscan_next(r->js, o, k)) {
		if (!is_type(r, k + 1, JSCAN_STRING))
			return -1;
		labels_set(l, jscan_str(r->js, k), jscan_str(r->js, k + 1));
	}
	return 0;
}

/* The array "sources" at token sources. */
static int read_sources(struct reader *r, size_t sources,
			struct result_set *rs)
{
	size_t i = 0;

	if (!is_type(r, sources, JSCAN_ARRAY)) {
		strbuf_addf(r->err, "%s: missing array 'sources'", r->name);
		return -1;
	}
	for (size_t s = jscan_first(r->js, sources); s != JSCAN_NONE;
	     s = jscan_next(r->js, sources, s), i++) {
		size_t p = jscan_get(r->js, s, "path"), k;
		const char *sha, *fmt, *ver;

		if (!is_type(r, p, JSCAN_STRING)) {
			strbuf_addf(r->err, "%s: sources[%zu]: missing 'path'",
				    r->name, i);
			return -1;
		}
		/* a field that is not a string reads as absent */
		sha = jscan_str(r->js, jscan_get(r->js, s, "sha256"));
		fmt = jscan_str(r->js, jscan_get(r->js, s, "format"));
		ver = jscan_str(r->js, jscan_get(r->js, s, "tool_version"));
		k = result_set_add_source(rs, jscan_str(r->js, p), sha);
		if (fmt)
			rs->sources[k].format = xstrdup(fmt);
		if (ver)
			rs->sources[k].tool_version = xstrdup(ver);
		if (read_source_labels(r, jscan_get(r->js, s, "labels"),
				       &rs->sources[k].labels)) {
			strbuf_addf(r->err, "%s: sources[%zu]: 'labels' must "
				    "be an object of at most %d strings",
				    r->name, i, LABELS_INPUT_MAX);
			return -1;
		}
	}
	return 0;
}

/*
 * "cache_drops": [{"source": I, "source_name": NAME, "line": N}, ...],
 * optional: the lines of the inputs that dropped the page cache (struct
 * cache_drop); I indexes this document's sources, as a measurement's.
 */
static int read_cache_drops(struct reader *r, size_t drops,
			    struct result_set *rs, size_t base)
{
	size_t i = 0;

	if (drops == JSCAN_NONE)
		return 0;
	if (!is_type(r, drops, JSCAN_ARRAY)) {
		strbuf_addf(r->err, "%s:%zu: 'cache_drops' must be an array",
			    r->name, token_line(r, drops));
		return -1;
	}
	for (size_t d = jscan_first(r->js, drops); d != JSCAN_NONE;
	     d = jscan_next(r->js, drops, d), i++) {
		size_t src = jscan_get(r->js, d, "source");
		size_t name = jscan_get(r->js, d, "source_name");
		size_t line = jscan_get(r->js, d, "line");
		double s, v;

		if (!is_type(r, src, JSCAN_INTEGER) ||
		    !jscan_num(r->js, src, &s) || s < 0 ||
		    s >= (double)(rs->nsources - base) ||
		    !is_type(r, name, JSCAN_STRING) ||
		    !is_type(r, line, JSCAN_INTEGER) ||
		    !jscan_num(r->js, line, &v) || v < 1 || v > UINT_MAX) {
			strbuf_addf(r->err, "%s:%zu: cache_drops[%zu]: want "
				    "{\"source\": I, \"source_name\": NAME, "
				    "\"line\": N}, I an index into sources, N "
				    "a line number from 1", r->name,
				    token_line(r, d), i);
			return -1;
		}
		result_set_add_cache_drop(rs, base + (size_t)s,
					  jscan_str(r->js, name),
					  (unsigned)v);
	}
	return 0;
}

/* Does any object of the document hold a key twice? */
static int has_duplicate_keys(struct jscan *js)
{
	for (size_t i = 0; i < js->ntok; i++) {
		const struct jscan_member *m;

		if (jscan_type(js, i) == JSCAN_OBJECT &&
		    jscan_members(js, i, &m) < jscan_size(js, i))
			return 1;
	}
	return 0;
}

/* Only blanks after the document (json_loadb checks the same). */
static int only_blanks_after(const char *text, size_t from, size_t len)
{
	for (size_t i = from; i < len; i++)
		if (!strchr(" \t\n\r", text[i]) || !text[i])
			return 0;
	return 1;
}

/*
 * The message for text that is not a valid document: jansson's words,
 * as storan always printed them (json-scan's when jansson disagrees).
 */
static void syntax_error(const char *name, const char *text, size_t len,
			 const struct jscan *js, struct strbuf *err)
{
	json_error_t jerr;
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);

	if (doc) {
		json_decref(doc);
		strbuf_addf(err, "%s:%zu: invalid JSON: %s", name,
			    js->err.line ? js->err.line : 1,
			    js->err.text[0] ? js->err.text :
			    "not one document");
		return;
	}
	strbuf_addf(err, "%s:%d: invalid JSON: %s", name, jerr.line,
		    jerr.text);
}

static int is_storan_schema(struct reader *r, size_t schema)
{
	return is_type(r, schema, JSCAN_STRING) &&
	       !strcmp(jscan_str(r->js, schema), STORAN_SCHEMA);
}

static int read_document(struct reader *r, size_t doc, struct result_set *rs)
{
	size_t base = rs->nsources, ms, i = 0;

	if (!is_storan_schema(r, jscan_get(r->js, doc, "schema"))) {
		strbuf_addf(r->err, "%s: not a storan result set (schema is "
			    "not '%s')", r->name, STORAN_SCHEMA);
		return -1;
	}
	if (read_sources(r, jscan_get(r->js, doc, "sources"), rs) ||
	    read_cache_drops(r, jscan_get(r->js, doc, "cache_drops"), rs,
			     base))
		return -1;
	ms = jscan_get(r->js, doc, "measurements");
	if (!is_type(r, ms, JSCAN_ARRAY)) {
		strbuf_addf(r->err, "%s: missing array 'measurements'",
			    r->name);
		return -1;
	}
	for (size_t o = jscan_first(r->js, ms); o != JSCAN_NONE;
	     o = jscan_next(r->js, ms, o), i++) {
		r->index = i;
		if (read_measurement(r, o, rs, base))
			return -1;
		jscan_store_reset(r->js);	/* all copied by now */
	}
	return 0;
}

static struct reader *reader_new(const char *name, const char *text,
				 char *buf, size_t len, int copy_strings,
				 struct strbuf *err)
{
	struct reader *r = xcalloc(1, sizeof(*r));

	r->name = name;
	r->text = text;
	r->err = err;
	r->js = xmalloc(sizeof(*r->js));
	hashmap64_init(&r->set_index);
	hashmap64_init(&r->key_index);
	strbuf_init(&r->joined);
	jscan_init(r->js, buf, len);
	r->js->copy_strings = copy_strings;
	return r;
}

static void reader_free(struct reader *r)
{
	labels_release(&r->prev);
	fast_measurement_release(&r->fast);
	hashmap64_release(&r->key_index);
	free(r->keys);
	strbuf_release(&r->joined);
	for (size_t i = 0; i < r->nsets; i++)
		labels_release(&r->sets[i]);
	free(r->sets);
	free(r->vals);
	hashmap64_release(&r->set_index);
	jscan_release(r->js);
	free(r->js);
	free(r);
}

/* The whole document's tokens at once, then read: any document. */
static int read_whole(struct reader *r, struct result_set *rs)
{
	struct jscan *js = r->js;
	size_t root;

	if (jscan_parse(js, 0, &root) ||
	    !only_blanks_after(js->buf, js->end, js->len) ||
	    has_duplicate_keys(js)) {
		syntax_error(r->name, r->text, js->len, js, r->err);
		return -1;
	}
	return read_document(r, root, rs);
}

/* ---- streaming: one measurement's tokens at a time ---- */

/*
 * The whole document's tokens took 16 bytes each, some 40 a measurement:
 * 640 MB for a million measurements, more than the measurements
 * themselves.  A document is read member by member instead, and its
 * measurements one at a time, each one's tokens forgotten once read; the
 * pages of the mapped file read so far leave memory as it goes.  storan
 * writes "sources" after "measurements" (it learns them as it goes): a
 * measurement's source index is then checked once the sources are read,
 * and one without a "source_name" (which would be its source's) is not
 * for this path.  Anything this path does not expect -- that, a syntax
 * error, a key twice, a field that is wrong -- sends the document to
 * read_whole(),
 * from the start, which then accepts it or words the error exactly as
 * it always did: the two paths cannot disagree on what a document means.
 */
#define STREAM_DROP_EVERY (8u << 20)	/* bytes read between drops */

struct stream {
	struct reader *r;
	size_t pos;		/* where the outer object is read up to */
	size_t base;		/* the result set's sources before ours */
	size_t dropped;		/* the file's pages before this are gone */
	int schema, sources, measurements;
	char *keys[16];		/* outer keys seen, to refuse one twice */
	size_t nkeys;
};

static int is_json_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next character that is not a blank (NUL at the end). */
static char stream_next(struct stream *st)
{
	const struct jscan *js = st->r->js;

	while (st->pos < js->len && is_json_blank(js->buf[st->pos]))
		st->pos++;
	return js->buf[st->pos];
}

static void stream_forget(struct stream *st)
{
	struct jscan *js = st->r->js;

	jscan_reset(js);
	jscan_store_reset(js);
	if (st->pos - st->dropped >= STREAM_DROP_EVERY) {
		filemap_drop(st->r->text, st->dropped, st->pos);
		st->dropped = st->pos;
	}
}

/* An outer key, new (*key: a copy, kept until the end): 0, or -1 (not a
 * string, seen already, or one key too many for this path). */
static int stream_key(struct stream *st, const char **key)
{
	struct jscan *js = st->r->js;
	const char *text;
	size_t tok;

	if (jscan_parse_value(js, st->pos, &tok) ||
	    jscan_type(js, tok) != JSCAN_STRING || !(text = jscan_str(js, tok)))
		return -1;
	for (size_t i = 0; i < st->nkeys; i++)
		if (!strcmp(st->keys[i], text))
			return -1;
	if (st->nkeys == sizeof(st->keys) / sizeof(st->keys[0]))
		return -1;
	*key = st->keys[st->nkeys++] = xstrdup(text);
	st->pos = js->end;
	return 0;
}

/* Is the next character c?  Then it is read. */
static int stream_take(struct stream *st, char c)
{
	if (stream_next(st) != c)
		return 0;
	st->pos++;
	return 1;
}

/* rs_json_read_fast(); -1: not asked yet, STORAN_TEST_JSON_SCAN_ONLY
 * decides (tests/cli/json-fast.sh) */
static _Atomic int use_fast = -1;

void rs_json_read_fast(int on)
{
	use_fast = on;
}

static int fast_wanted(void)
{
	int on = use_fast;

	if (on < 0)
		use_fast = on = !getenv("STORAN_TEST_JSON_SCAN_ONLY");
	return on;
}

/* The array of measurements at st->pos, element by element: each by
 * rs-json-fast.c where it can. */
static int stream_measurements(struct stream *st, struct result_set *rs)
{
	struct reader *r = st->r;
	size_t o;

	if (!stream_take(st, '['))
		return -1;
	if (stream_take(st, ']'))
		return 0;
	for (r->index = 0;; r->index++) {
		size_t end;

		if (fast_wanted() && !read_measurement_fast(r, st->pos, rs,
						       st->base, &end)) {
			st->pos = end;
		} else {
			if (jscan_parse(r->js, st->pos, &o) ||
			    has_duplicate_keys(r->js) ||
			    read_measurement(r, o, rs, st->base))
				return -1;
			st->pos = r->js->end;
		}
		stream_forget(st);
		if (stream_take(st, ']'))
			return 0;
		if (!stream_take(st, ','))
			return -1;
		stream_next(st);
	}
}

/* Any other member's value, whole (it is small: sources, a name). */
static int stream_member(struct stream *st, const char *key,
			 struct result_set *rs)
{
	struct reader *r = st->r;
	size_t v;

	if (jscan_parse_value(r->js, st->pos, &v) || has_duplicate_keys(r->js))
		return -1;
	st->pos = r->js->end;
	if (!strcmp(key, "schema"))
		return (st->schema = is_storan_schema(r, v)) ? 0 : -1;
	if (!strcmp(key, "sources"))
		return (st->sources = 1, read_sources(r, v, rs));
	if (!strcmp(key, "cache_drops"))
		return st->sources ? read_cache_drops(r, v, rs, st->base) : -1;
	return 0;
}

static int stream_members(struct stream *st, struct result_set *rs)
{
	const char *key;

	if (!stream_take(st, '{'))
		return -1;
	do {
		stream_next(st);
		if (stream_key(st, &key) || !stream_take(st, ':'))
			return -1;
		stream_next(st);
		if (!strcmp(key, "measurements")) {
			/* sources not read yet are checked once they are */
			st->r->sources_later = !st->sources;
			if (stream_measurements(st, rs))
				return -1;
			st->r->sources_later = 0;
			st->measurements = 1;
		} else if (stream_member(st, key, rs)) {
			return -1;
		}
		stream_forget(st);
	} while (stream_take(st, ','));
	if (!stream_take(st, '}') || !st->schema || !st->measurements ||
	    !st->sources || st->r->sources_wanted > rs->nsources - st->base)
		return -1;
	return only_blanks_after(st->r->js->buf, st->pos, st->r->js->len) ?
	       0 : -1;
}

/* 0 when the document was read so; else rs and err are as they were. */
static int read_streaming(struct reader *r, struct result_set *rs)
{
	struct stream st = { .r = r, .base = rs->nsources };
	size_t n = rs->n, err_len = r->err->len;
	int rc = stream_members(&st, rs);

	for (size_t i = 0; i < st.nkeys; i++)
		free(st.keys[i]);
	if (rc) {
		result_set_truncate(rs, n, st.base);
		strbuf_truncate(r->err, err_len);
	}
	return rc;
}

/*
 * Parses buf (len bytes and a NUL, the tokens' storage) into rs; text is
 * the document as given, for the messages.  Streaming first; when that
 * declines, the whole reader reads buf again, as text has it (a buffer
 * that strings were decoded in, not copy_strings, is copied again).
 */
static _Thread_local int last_streamed;

int rs_json_last_read_streamed(void)
{
	return last_streamed;
}

/*
 * A measurement without "source" is its document's first source's.  A
 * document with measurements and no source (written by hand: "sources":
 * []) gets a source with no path for them, so that every measurement's
 * source is one of its set's: written again, they said "source": 0 with
 * no source 0 (a file storan itself refused, in JSON and in binary), and
 * appended to a set, they took the next input's first source for theirs.
 */
static void give_a_source(struct result_set *rs, size_t base, size_t n)
{
	if (rs->nsources == base && rs->n > n)
		result_set_add_source(rs, "", NULL);
}

static int read_buffer(const char *name, const char *text, char *buf,
		       size_t len, int copy_strings, struct result_set *rs,
		       struct strbuf *err)
{
	size_t base = rs->nsources, n = rs->n;
	struct reader *r;
	int rc;

	r = reader_new(name, text, buf, len, copy_strings, err);
	rc = read_streaming(r, rs);
	reader_free(r);
	last_streamed = !rc;
	if (rc) {
		if (!copy_strings)
			memcpy(buf, text, len);
		r = reader_new(name, text, buf, len, copy_strings, err);
		rc = read_whole(r, rs);
		reader_free(r);
	}
	if (!rc)
		give_a_source(rs, base, n);
	return rc;
}

int rs_json_read(const char *name, const char *text, size_t len,
		 struct result_set *rs, struct strbuf *err)
{
	/* a copy: json-scan decodes strings in place */
	char *buf = xmalloc(len + 1);
	int rc;

	memcpy(buf, text, len);
	buf[len] = '\0';
	rc = read_buffer(name, text, buf, len, 0, rs, err);
	free(buf);
	return rc;
}

int rs_json_read_in_place(const char *name, char *text, size_t len,
			  struct result_set *rs, struct strbuf *err)
{
	/* Nothing is written to text (copy_strings: json-scan.h), which
	 * the messages then quote as it was.  (A million measurements'
	 * 282 MB were copied to fresh memory first; then a search of them
	 * for a backslash, strings with escapes being decoded in place,
	 * was a tenth of table --ratio's CPU time, faulting the file in.) */
	if (text[len])
		return rs_json_read(name, text, len, rs, err);
	return read_buffer(name, text, text, len, 1, rs, err);
}
