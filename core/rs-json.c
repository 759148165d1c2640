/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * Result set -> JSON.  Measurements are written directly in a fixed key
 * order so that documents diff well (sources through jansson).  Reading
 * them back is rs-json-read.c.
 */
#include "rs-json.h"
#include "series.h"
#include "json-out.h"
#include "json-scan.h"
#include "numfmt.h"
#include "units.h"
#include "version.h"
#include "xalloc.h"

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
	/* all REAL_TEXT_MAX bytes copied, len of them kept: a copy of a
	 * known size is three moves, one of a few bytes whose number is
	 * known only here was a rep movs, a third of this function */
	if (out->alloc - out->len <= REAL_TEXT_MAX)
		strbuf_grow(out, REAL_TEXT_MAX);
	memcpy(out->buf + out->len, slot->text, REAL_TEXT_MAX);
	out->len += slot->len;
	out->buf[out->len] = '\0';
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
static void put_series(struct strbuf *out, const struct series *s,
		       const struct strbuf_drain *drain)
{
	strbuf_adds(out, "{\"interval\": ");
	put_real(out, s->interval);
	strbuf_adds(out, ", \"t\": [");
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strbuf_adds(out, ", ");
		put_number_or_null(out, s->t[i]);
		strbuf_drain_if_full(out, drain);
	}
	strbuf_adds(out, "], \"v\": [");
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strbuf_adds(out, ", ");
		put_number_or_null(out, s->v[i]);
		strbuf_drain_if_full(out, drain);
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
			struct series_bins it;
			size_t idx;
			uint64_t count;
			int first = 1;

			strbuf_adds(out, i ? ", [" : "[");
			series_bins_begin(s, i, &it);
			while (series_bins_next(&it, &idx, &count)) {
				if (!first)
					strbuf_adds(out, ", ");
				first = 0;
				strbuf_add_int(out, (long long)idx);
				strbuf_adds(out, ", ");
				strbuf_add_int(out, (long long)count);
			}
			strbuf_addch(out, ']');
			strbuf_drain_if_full(out, drain);
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

/* n values of a "values" list, the first one of it when first. */
static void put_value_list(struct strbuf *out, const double *v, size_t n,
			   int first)
{
	for (size_t i = 0; i < n; i++) {
		if (i || !first)
			strbuf_adds(out, ", ");
		put_number_or_null(out, v[i]);
	}
}

struct values_out {
	struct strbuf *out;
	const struct strbuf_drain *drain;
	int first;
};

static int put_value_piece(const double *v, size_t n, void *arg)
{
	struct values_out *o = arg;

	put_value_list(o->out, v, n, o->first);
	o->first = 0;
	strbuf_drain_if_full(o->out, o->drain);
	return 0;
}

/* One measurement as one line of the document. */
static void put_measurement(struct strbuf *out, const struct measurement *m,
			    size_t source, const struct strbuf_drain *drain)
{
	int first = 1;

	strbuf_addch(out, '{');
	put_string_member(out, &first, "tool", m->tool);
	put_string_member(out, &first, "op", m->op);
	put_string_member(out, &first, "metric", m->metric);
	put_string_member(out, &first, "unit", m->unit);
	put_key(out, &first, "values");
	strbuf_addch(out, '[');
	/* (a long log's row reads them back from their temporary file,
	 * core/valspill.h, written out as they come) */
	measurement_each_value(m, put_value_piece,
			       &(struct values_out){ out, drain, 1 });
	strbuf_addch(out, ']');
	if (measurement_summary(m)->present) {
		put_key(out, &first, "summary");
		put_summary(out, measurement_summary(m));
	}
	if (m->hist.n) {
		put_key(out, &first, "histogram");
		put_histogram(out, &m->hist);
	}
	if (m->series) {
		put_key(out, &first, "series");
		put_series(out, m->series, drain);
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
		rs_json_add_measurement(rs, i, offset, count, out, NULL);
}

void rs_json_add_measurement(const struct result_set *rs, size_t i,
			     size_t offset, size_t *count, struct strbuf *out,
			     const struct strbuf_drain *drain)
{
	strbuf_adds(out, (*count)++ ? ",\n  " : "\n  ");
	put_measurement(out, &rs->m[i], rs->m[i].source + offset, drain);
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

void rs_json_write_drained(const struct result_set *rs, struct strbuf *out,
			   const struct strbuf_drain *drain)
{
	size_t count = 0;

	rs_json_begin(out);
	for (size_t i = 0; i < rs->n; i++) {
		rs_json_add_measurement(rs, i, 0, &count, out, drain);
		strbuf_drain_if_full(out, drain);
	}
	rs_json_end(rs, out);
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
