/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * Result set <-> JSON.  Measurements are written directly in a fixed key
 * order so that documents diff well (sources through jansson); reading
 * uses json-scan, validates every field and names the first one that is
 * wrong.
 */
#include "rs-json.h"
#include "series.h"
#include "json-out.h"
#include "json-scan.h"
#include "keymap.h"
#include "numfmt.h"
#include "units.h"
#include "version.h"
#include "xalloc.h"

#include <float.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *source_to_json(const struct source *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "path", json_string(s->path));
	json_object_set_new(o, "name", json_string(s->name));
	json_object_set_new(o, "format", str_or_null(s->format));
	json_object_set_new(o, "tool_version", str_or_null(s->tool_version));
	json_object_set_new(o, "sha256", str_or_null(s->sha256[0] ?
						      s->sha256 : NULL));
	if (s->labels.n) {	/* (absent when none: older readers) */
		json_t *l = json_object();

		for (size_t i = 0; i < s->labels.n; i++)
			json_object_set_new(l, s->labels.v[i].key,
					    json_string(s->labels.v[i].value));
		json_object_set_new(o, "labels", l);
	}
	return o;
}

/*
 * Measurements are written directly, not through a jansson tree: a 4 MB
 * fio JSON+ file gives 14,000 of them with 170,000 histogram buckets,
 * and building then dumping a tree was three quarters of its ingest.
 * The text is byte for byte what json_dumps(JSON_PRESERVE_ORDER |
 * JSON_REAL_PRECISION(17)) printed for the same tree (tests/unit/
 * test-resultset.c compares the two), including jansson's rule that a
 * string which is not valid UTF-8 drops its member.
 */
static int valid_utf8(const char *s)
{
	size_t len = strlen(s);

	return jscan_utf8_valid(s, len);
}

#define NOT_PLAIN ((size_t)-1)

/*
 * strlen(s) when s is ASCII with no control character, '"' nor '\\':
 * JSON takes it as it is and it is valid UTF-8.  Else NOT_PLAIN.  Nearly
 * every string here is plain, and one look at it spares the UTF-8 check
 * and the escape loop (they were a twentieth of writing a result set).
 */
static size_t plain_length(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
		p++;
	return *p ? NOT_PLAIN : (size_t)(p - (const unsigned char *)s);
}

static void put_plain(struct strbuf *out, const char *s, size_t len)
{
	strbuf_grow(out, len + 2);
	out->buf[out->len++] = '"';
	memcpy(out->buf + out->len, s, len);
	out->len += len;
	out->buf[out->len++] = '"';
	out->buf[out->len] = '\0';
}

static void put_escaped(struct strbuf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *run = s;

	strbuf_addch(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = NULL;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		strbuf_add(out, run, (size_t)(s - run));
		run = s + 1;
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		}
		if (esc) {
			strbuf_adds(out, esc);
		} else {
			char u[7] = { '\\', 'u', '0', '0', hex[c >> 4],
				      hex[c & 15], 0 };

			strbuf_adds(out, u);
		}
	}
	strbuf_add(out, run, (size_t)(s - run));
	strbuf_addch(out, '"');
}

static void put_string(struct strbuf *out, const char *s)
{
	size_t len = plain_length(s);

	if (len != NOT_PLAIN)
		put_plain(out, s, len);
	else
		put_escaped(out, s);
}

/* jansson's real into buf: %.17g, ".0" when it reads as an integer,
 * and the exponent without '+' and leading zeros ("1e-5").  Returns the
 * length. */
static size_t format_real(char *buf, double v)
{
	size_t n = format_g(buf, v, 17);
	char *e = memchr(buf, 'e', n);

	if (!e && !memchr(buf, '.', n)) {
		memcpy(buf + n, ".0", 3);
		return n + 2;
	}
	if (e) {
		char *digits = e + 1 + (e[1] == '-'), *from = e + 2;

		while (*from == '0' && from[1])
			from++;
		if (e[1] == '+')
			digits = e + 1;
		memmove(digits, from, (size_t)(buf + n - from) + 1);
		n = (size_t)(digits - buf) + (size_t)(buf + n - from);
	}
	return n;
}

static void put_real(struct strbuf *out, double v)
{
	char buf[NUMFMT_MAX + 2];

	strbuf_add(out, buf, format_real(buf, v));
}

/*
 * The bucket values of histograms repeat from measurement to measurement
 * (fio has 1,856 of them, and every job's histograms take theirs from
 * that set): each thread keeps the text of the values it printed last,
 * so that the 130,000 of a JSON+ file are printed a few hundred times
 * and copied the rest (format_g was a fifth of rendering them).
 */
#define REAL_MEMO_BITS 11	/* 80 KiB a thread; 928 values in a 60 s run */
#define REAL_TEXT_MAX 24	/* "-2.2250738585072014e-308" */

struct real_memo {
	uint64_t bits;		/* the double's representation */
	unsigned char len;	/* 0: an empty slot */
	char text[REAL_TEXT_MAX];
};

static _Thread_local struct real_memo real_memo[1 << REAL_MEMO_BITS];

static void put_real_memo(struct strbuf *out, double v)
{
	struct real_memo *slot;
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	slot = &real_memo[(bits * 0x9E3779B97F4A7C15ULL) >>
			  (64 - REAL_MEMO_BITS)];
	if (!slot->len || slot->bits != bits) {
		char buf[NUMFMT_MAX + 2];
		size_t n = format_real(buf, v);

		if (n > REAL_TEXT_MAX) {	/* cannot be: no room to keep */
			strbuf_add(out, buf, n);
			return;
		}
		slot->bits = bits;
		slot->len = (unsigned char)n;
		memcpy(slot->text, buf, n);
	}
	strbuf_add(out, slot->text, slot->len);
}

static void put_number_or_null(struct strbuf *out, double v)
{
	if (isfinite(v))
		put_real(out, v);
	else
		strbuf_adds(out, "null");
}


/* '"key": ', after ", " unless it is the object's first member. */
static void put_key(struct strbuf *out, int *first, const char *key)
{
	if (!*first)
		strbuf_adds(out, ", ");
	*first = 0;
	put_string(out, key);
	strbuf_adds(out, ": ");
}

/* A string member; none at all when s is not valid UTF-8 (jansson). */
static void put_string_member(struct strbuf *out, int *first,
			      const char *key, const char *s)
{
	size_t len = s ? plain_length(s) : NOT_PLAIN;

	if (s && len == NOT_PLAIN && !valid_utf8(s))
		return;
	put_key(out, first, key);
	if (!s)
		strbuf_adds(out, "null");
	else if (len != NOT_PLAIN)
		put_plain(out, s, len);
	else
		put_escaped(out, s);
}

static void put_summary(struct strbuf *out, const struct summary *s)
{
	int first = 1;

	strbuf_addch(out, '{');
	if (isfinite(s->n)) {	/* json_real() refuses the others */
		put_key(out, &first, "n");
		put_real(out, s->n);
	}
	put_key(out, &first, "mean");
	put_number_or_null(out, s->mean);
	put_key(out, &first, "stddev");
	put_number_or_null(out, s->stddev);
	put_key(out, &first, "stddev_population");
	strbuf_adds(out, s->stddev_population ? "true" : "false");
	put_key(out, &first, "min");
	put_number_or_null(out, s->min);
	put_key(out, &first, "max");
	put_number_or_null(out, s->max);
	strbuf_addch(out, '}');
}

static void put_histogram(struct strbuf *out, const struct histogram *h)
{
	size_t put = 0;

	strbuf_adds(out, "{\"values\": [");
	for (size_t i = 0; i < h->n; i++) {
		if (!isfinite(h->value[i]))
			continue;	/* json_real() refuses it: no element */
		if (put++)
			strbuf_adds(out, ", ");
		put_real_memo(out, h->value[i]);
	}
	strbuf_adds(out, "], \"counts\": [");
	for (size_t i = 0; i < h->n; i++) {
		if (i)
			strbuf_adds(out, ", ");
		strbuf_add_int(out, (long long)h->count[i]);
	}
	strbuf_adds(out, "]}");
}

/*
 * {"interval": 1, "t": [...], "v": [...]} and, for a histogram series,
 * "buckets": [...] and "bins": one [index, count, index, count...] array
 * per point (docs/result-format.md).
 */
static void put_series(struct strbuf *out, const struct series *s)
{
	strbuf_adds(out, "{\"interval\": ");
	put_real(out, s->interval);
	strbuf_adds(out, ", \"t\": [");
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strbuf_adds(out, ", ");
		put_number_or_null(out, s->t[i]);
	}
	strbuf_adds(out, "], \"v\": [");
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strbuf_adds(out, ", ");
		put_number_or_null(out, s->v[i]);
	}
	strbuf_addch(out, ']');
	if (s->nbuckets) {
		strbuf_adds(out, ", \"buckets\": [");
		for (size_t b = 0; b < s->nbuckets; b++) {
			if (b)
				strbuf_adds(out, ", ");
			put_real_memo(out, s->bucket[b]);
		}
		strbuf_adds(out, "], \"bins\": [");
		for (size_t i = 0; i < s->n; i++) {
			strbuf_adds(out, i ? ", [" : "[");
			for (size_t k = s->hstart[i]; k < s->hstart[i + 1];
			     k++) {
				if (k > s->hstart[i])
					strbuf_adds(out, ", ");
				strbuf_add_int(out, (long long)s->hidx[k]);
				strbuf_adds(out, ", ");
				strbuf_add_int(out, (long long)s->hcount[k]);
			}
			strbuf_addch(out, ']');
		}
		strbuf_addch(out, ']');
	}
	strbuf_addch(out, '}');
}

static void render_labels(const struct labels *l, struct strbuf *out)
{
	int first = 1;

	strbuf_addch(out, '{');
	for (size_t i = 0; i < l->n; i++)
		if (valid_utf8(l->v[i].key))
			put_string_member(out, &first, l->v[i].key,
					  l->v[i].value);
	strbuf_addch(out, '}');
}

static void put_labels(struct strbuf *out, const struct labels *l)
{
	const char *text = labels_rendered(l, render_labels);

	if (text)
		strbuf_adds(out, text);
	else
		render_labels(l, out);
}

void rs_json_prepare(const struct result_set *rs, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		labels_rendered(&rs->m[i].labels, render_labels);
}

/* One measurement as one line of the document. */
static void put_measurement(struct strbuf *out, const struct measurement *m,
			    size_t source)
{
	int first = 1;

	strbuf_addch(out, '{');
	put_string_member(out, &first, "tool", m->tool);
	put_string_member(out, &first, "op", m->op);
	put_string_member(out, &first, "metric", m->metric);
	put_string_member(out, &first, "unit", m->unit);
	put_key(out, &first, "values");
	strbuf_addch(out, '[');
	for (size_t i = 0; i < m->n; i++) {
		if (i)
			strbuf_adds(out, ", ");
		put_number_or_null(out, m->values[i]);
	}
	strbuf_addch(out, ']');
	if (m->summary.present) {
		put_key(out, &first, "summary");
		put_summary(out, &m->summary);
	}
	if (m->hist.n) {
		put_key(out, &first, "histogram");
		put_histogram(out, &m->hist);
	}
	if (m->series) {
		put_key(out, &first, "series");
		put_series(out, m->series);
	}
	put_key(out, &first, "labels");
	put_labels(out, &m->labels);
	put_key(out, &first, "source");
	strbuf_add_int(out, (long long)source);
	put_string_member(out, &first, "source_name", m->source_name);
	put_key(out, &first, "line");
	strbuf_add_int(out, m->line);
	strbuf_addch(out, '}');
}

static void dump_line(json_t *o, struct strbuf *out)
{
	json_dump_to(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17), 0, out);
}

void rs_json_begin(struct strbuf *out)
{
	strbuf_adds(out, "{\n \"schema\": \"" STORAN_SCHEMA "\",\n"
		    " \"generator\": \"storan " STORAN_VERSION "\",\n"
		    " \"measurements\": [");
}

void rs_json_add_measurements(const struct result_set *rs, size_t offset,
			      size_t *count, struct strbuf *out)
{
	for (size_t i = 0; i < rs->n; i++)
		rs_json_add_measurement(rs, i, offset, count, out);
}

void rs_json_add_measurement(const struct result_set *rs, size_t i,
			     size_t offset, size_t *count, struct strbuf *out)
{
	strbuf_adds(out, (*count)++ ? ",\n  " : "\n  ");
	put_measurement(out, &rs->m[i], rs->m[i].source + offset);
}

/* "cache_drops": only where the text dropped the cache, so that a set
 * without drops is written as before they were carried. */
static void add_cache_drops(const struct result_set *rs, struct strbuf *out)
{
	if (!rs->ndrops)
		return;
	strbuf_adds(out, ",\n \"cache_drops\": [");
	for (size_t i = 0; i < rs->ndrops; i++) {
		json_t *d = json_pack("{s:I, s:s, s:I}", "source",
				      (json_int_t)rs->drops[i].source,
				      "source_name", rs->drops[i].name,
				      "line", (json_int_t)rs->drops[i].line);

		strbuf_adds(out, i ? ",\n  " : "\n  ");
		dump_line(d, out);
	}
	strbuf_adds(out, "\n ]");
}

void rs_json_end(const struct result_set *rs, struct strbuf *out)
{
	strbuf_adds(out, "\n ],\n \"sources\": [");
	for (size_t i = 0; i < rs->nsources; i++) {
		strbuf_adds(out, i ? ",\n  " : "\n  ");
		dump_line(source_to_json(&rs->sources[i]), out);
	}
	strbuf_adds(out, "\n ]");
	add_cache_drops(rs, out);
	strbuf_adds(out, "\n}\n");
}

void rs_json_write(const struct result_set *rs, struct strbuf *out)
{
	size_t count = 0;

	rs_json_begin(out);
	rs_json_add_measurements(rs, 0, &count, out);
	rs_json_end(rs, out);
}

void rs_json_init_threads(void)
{
	json_object_seed(0);
}

int rs_json_sniff(const char *text, size_t len)
{
	size_t n = len < 4096 ? len : 4096;

	return memmem(text, n, "\"storan/", 8) != NULL &&
	       memmem(text, n, "\"schema\"", 8) != NULL;
}

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
	/* the last measurement's label set: the next one written with
	 * the same labels shares it */
	struct labels prev;
	/* every distinct set read so far, by labels_hash(): a set written
	 * again further down (the same bs and iodepth for the next op)
	 * shares the first one's */
	struct hashmap64 set_index;
	struct labels *sets;
	size_t nsets, sets_alloc;
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

static int read_values(struct reader *r, size_t o, struct measurement *m)
{
	size_t vals = jscan_get(r->js, o, "values");
	double d;

	if (!is_type(r, vals, JSCAN_ARRAY))
		return fail(r, "missing array", "values");
	for (size_t v = jscan_first(r->js, vals); v != JSCAN_NONE;
	     v = jscan_next(r->js, vals, v)) {
		if (get_finite(r, v, "values", &d))
			return -1;
		measurement_add_value(m, d);
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
	struct summary *sm = &m->summary;
	int nonneg, rc;

	if (s == JSCAN_NONE)
		return 0;
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
	sm->present = 1;
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
	if (rc) {
		free(pairs);
		return rc;
	}
	if (n && same_as_set(pairs, n, &r->prev)) {
		labels_copy(&m->labels, &r->prev);	/* a job's metrics */
		free(pairs);
		return 0;
	}
	if (labels_set_many(&m->labels, pairs, n))
		BUG("%zu labels did not fit", n);
	free(pairs);
	share_earlier_set(r, &m->labels);
	labels_release(&r->prev);
	labels_copy(&r->prev, &m->labels);
	return 0;
}

/* The unit: a base unit, and the metric's own where storan knows it. */
static int check_unit(struct reader *r, size_t o, const char *metric,
		      const char *unit)
{
	const char *known = metric_unit(metric);
	size_t tok = jscan_get(r->js, o, "unit");
	char what[64];

	if (!unit_is_base(unit))
		return fail_at(r, tok, "not a base unit (B/s, 1/s, B, s, %):",
			       unit);
	if (!known || !strcmp(known, unit))
		return 0;
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
		    (uint64_t)i >= rs->nsources - base)
			return fail_at(r, src, "no such source in", "source");
		source = (size_t)i;
	}
	m = result_set_add_from(rs, tool, op, metric, unit, base + source,
				sname ? sname : rs->nsources > base ?
				rs->sources[base + source].name : "", line);
	if (read_values(r, o, m) || read_summary(r, o, m) ||
	    read_histogram(r, o, m) || read_series(r, o, m) ||
	    read_labels(r, o, m))
		return -1;
	if (!m->n && !m->summary.present)
		return fail(r, "no values and no summary in", "values");
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

static int read_sources(struct reader *r, size_t doc, struct result_set *rs)
{
	size_t sources = jscan_get(r->js, doc, "sources"), i = 0;

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
static int read_cache_drops(struct reader *r, size_t doc,
			    struct result_set *rs, size_t base)
{
	size_t drops = jscan_get(r->js, doc, "cache_drops"), i = 0;

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

static int read_document(struct reader *r, size_t doc, struct result_set *rs)
{
	size_t schema = jscan_get(r->js, doc, "schema");
	size_t base = rs->nsources, ms, i = 0;

	if (!is_type(r, schema, JSCAN_STRING) ||
	    strcmp(jscan_str(r->js, schema), STORAN_SCHEMA)) {
		strbuf_addf(r->err, "%s: not a storan result set (schema is "
			    "not '%s')", r->name, STORAN_SCHEMA);
		return -1;
	}
	if (read_sources(r, doc, rs) || read_cache_drops(r, doc, rs, base))
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

/*
 * Parses buf (len bytes and a NUL, the tokens' storage) into rs; text is
 * the document as given, for the messages.
 */
static int read_buffer(const char *name, const char *text, char *buf,
		       size_t len, int copy_strings, struct result_set *rs,
		       struct strbuf *err)
{
	struct jscan *js = xmalloc(sizeof(*js));
	struct reader r;
	size_t root;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.text = text;
	r.err = err;
	r.js = js;
	hashmap64_init(&r.set_index);
	jscan_init(js, buf, len);
	js->copy_strings = copy_strings;
	if (jscan_parse(js, 0, &root) ||
	    !only_blanks_after(buf, js->end, len) || has_duplicate_keys(js))
		syntax_error(name, text, len, js, err);
	else
		rc = read_document(&r, root, rs);
	labels_release(&r.prev);
	for (size_t i = 0; i < r.nsets; i++)
		labels_release(&r.sets[i]);
	free(r.sets);
	hashmap64_release(&r.set_index);
	jscan_release(js);
	free(js);
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
	/* With no backslash no string has an escape to decode: nothing is
	 * written to text (copy_strings; see json-scan.h), which the
	 * messages then quote as it was.  A million measurements' 282 MB
	 * were copied to fresh memory first. */
	if (text[len] || memchr(text, '\\', len))
		return rs_json_read(name, text, len, rs, err);
	return read_buffer(name, text, text, len, 1, rs, err);
}
