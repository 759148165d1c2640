/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * storan/1 binary written (docs/result-format.md, "The binary
 * encoding"), in two passes over the set: the first interns every string
 * and label set and sizes the sections, the second writes them one after
 * another.  Reading it back is rs-bin-read.c.
 */
#include "rs-bin.h"
#include "rs-bin-layout.h"
#include "json-scan.h"
#include "keymap.h"
#include "series.h"
#include "units.h"
#include "version.h"
#include "xalloc.h"

#include <endian.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int rs_bin_sniff(const char *data, size_t len)
{
	return len >= RS_BIN_MAGIC_LEN &&
	       !memcmp(data, RS_BIN_MAGIC, RS_BIN_MAGIC_LEN);
}

/* ---- writing ------------------------------------------------------- */

struct writer {
	struct strbuf strings;		/* SEC_STRINGS */
	struct keymap string_at;	/* string -> its offset */
	uint32_t *words;		/* SEC_LABELS */
	size_t nwords, words_alloc;
	struct keymap set_at;		/* a set's key parts -> its word */
	struct strbuf parts;
	/* per measurement: tool, op, metric, unit, source_name, labels */
	uint32_t (*refs)[6];
	/* the last measurement's, shared by the next one mostly */
	const char *last_str[5];
	const struct label *last_set;
	size_t last_set_n;
	uint32_t last_refs[6];
	uint64_t nvalues, nsummaries, hist_bytes, series_bytes;
};

static uint32_t string_ref(struct writer *w, const char *s)
{
	int created;
	size_t *at;

	if (!s)
		return NO_STRING;
	at = keymap_put(&w->string_at, s, w->strings.len, &created);
	if (created) {
		if (w->strings.len + strlen(s) + 1 >= NO_STRING)
			die("a result set of more than 4 GiB of distinct "
			    "strings cannot be written in binary");
		strbuf_add(&w->strings, s, strlen(s) + 1);
	}
	return (uint32_t)*at;
}

static void put_word(struct writer *w, uint32_t v)
{
	ALLOC_GROW(w->words, w->nwords + 1, w->words_alloc);
	w->words[w->nwords++] = v;
}

/* JSON carries valid UTF-8 only: a string that is not is written as JSON
 * writes it, as absent (rs-json.c), so that both carry the same set. */
static int utf8_ok(const char *s)
{
	return s && jscan_utf8_valid(s, strlen(s));
}

/* The word where set l starts (its count), written once per content;
 * a pair that is not UTF-8 is left out, as the JSON writer leaves it. */
static uint32_t set_ref(struct writer *w, const struct labels *l)
{
	size_t k = 0;
	int created;
	size_t *at;

	strbuf_reset(&w->parts);
	labels_add_keyparts(l, &w->parts);
	at = keymap_put(&w->set_at, strbuf_str(&w->parts), w->nwords,
			&created);
	if (!created)
		return (uint32_t)*at;
	if (w->nwords + 1 + 2 * l->n >= NO_STRING)
		die("a result set of more than 4 Gi label words cannot be "
		    "written in binary");
	for (size_t i = 0; i < l->n; i++)
		k += utf8_ok(l->v[i].key) && utf8_ok(l->v[i].value);
	put_word(w, (uint32_t)k);
	for (size_t i = 0; i < l->n; i++) {
		if (!utf8_ok(l->v[i].key) || !utf8_ok(l->v[i].value))
			continue;
		put_word(w, string_ref(w, l->v[i].key));
		put_word(w, string_ref(w, l->v[i].value));
	}
	return (uint32_t)*at;
}

static void strings_of(const struct measurement *m, const char *out[5])
{
	out[0] = m->tool;
	out[1] = m->op;
	out[2] = m->metric;
	out[3] = m->unit;
	out[4] = utf8_ok(m->source_name) ? m->source_name : NULL;
}

/* m's strings and label set, from the last one's where they are its
 * (pooled strings and shared sets are the same pointers). */
static void intern_measurement(struct writer *w, const struct measurement *m,
			       uint32_t refs[6])
{
	const char *s[5];

	strings_of(m, s);
	for (int k = 0; k < 5; k++) {
		if (s[k] != w->last_str[k] || !s[k]) {
			w->last_str[k] = s[k];
			w->last_refs[k] = string_ref(w, s[k]);
		}
		refs[k] = w->last_refs[k];
	}
	if (!w->last_set || m->labels.v != w->last_set ||
	    m->labels.n != w->last_set_n) {
		w->last_set = m->labels.v;
		w->last_set_n = m->labels.n;
		w->last_refs[5] = set_ref(w, &m->labels);
	}
	refs[5] = w->last_refs[5];
}

/* A histogram series' bins: per point, its bytes' count and its bytes
 * (series.h's packing). */
static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static size_t bins_bytes(const struct series *s)
{
	size_t n = 0;

	for (size_t i = 0; s->nbuckets && i < s->n; i++) {
		size_t len = s->hstart[i + 1] - s->hstart[i];

		n += varint_len(len) + len;
	}
	return n;
}

static void size_measurement(struct writer *w, const struct measurement *m)
{
	w->nvalues += measurement_nvalues(m);
	w->nsummaries += measurement_summary(m)->present != 0;
	if (m->hist.n)
		w->hist_bytes += 8 + 16 * m->hist.n;
	if (m->series)
		w->series_bytes += SERIES_HEAD_BYTES +
				   8 * (2 * m->series->n +
					m->series->nbuckets) +
				   pad8(bins_bytes(m->series));
}

static void put_u32(struct strbuf *out, uint32_t v)
{
	v = htole32(v);
	strbuf_add(out, (const char *)&v, 4);
}

static void put_u64(struct strbuf *out, uint64_t v)
{
	v = htole64(v);
	strbuf_add(out, (const char *)&v, 8);
}

static void put_f64(struct strbuf *out, double d)
{
	uint64_t v;

	memcpy(&v, &d, 8);
	put_u64(out, v);
}

static void put_f64s(struct strbuf *out, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_f64(out, v[i]);
}

static void put_padding(struct strbuf *out, size_t len)
{
	strbuf_addchars(out, '\0', pad8(len) - len);
}

static void put_varint(struct strbuf *out, uint64_t v)
{
	while (v >= 0x80) {
		strbuf_addch(out, (char)(v | 0x80));
		v >>= 7;
	}
	strbuf_addch(out, (char)v);
}

struct section_size {
	enum rs_bin_section kind;
	size_t size;
};

static void put_header(struct strbuf *out, const struct section_size *sec,
		       size_t nsec)
{
	size_t at = HEADER_BYTES + nsec * ENTRY_BYTES;

	strbuf_add(out, RS_BIN_MAGIC, RS_BIN_MAGIC_LEN);
	put_u32(out, RS_BIN_VERSION);
	put_u32(out, (uint32_t)nsec);
	for (size_t i = 0; i < nsec; i++) {
		put_u32(out, sec[i].kind);
		put_u32(out, 0);
		put_u64(out, at);
		put_u64(out, sec[i].size);
		at += pad8(sec[i].size);
	}
}

static void put_sources(struct writer *w, const struct result_set *rs,
			struct strbuf *out)
{
	for (size_t i = 0; i < rs->nsources; i++) {
		const struct source *s = &rs->sources[i];

		put_u32(out, string_ref(w, s->path));
		put_u32(out, string_ref(w, utf8_ok(s->format) ? s->format :
					NULL));
		put_u32(out, string_ref(w, utf8_ok(s->tool_version) ?
					s->tool_version : NULL));
		put_u32(out, string_ref(w, s->sha256[0] &&
					utf8_ok(s->sha256) ? s->sha256 :
					NULL));
		put_u32(out, set_ref(w, &s->labels));
		put_u32(out, 0);
	}
}

static void put_drops(struct writer *w, const struct result_set *rs,
		      struct strbuf *out)
{
	for (size_t i = 0; i < rs->ndrops; i++) {
		put_u32(out, (uint32_t)rs->drops[i].source);
		put_u32(out, string_ref(w, rs->drops[i].name));
		put_u32(out, rs->drops[i].line);
		put_u32(out, 0);
	}
}

static void put_measurement(struct strbuf *out, const struct measurement *m,
			    const uint32_t refs[6])
{
	uint32_t flags = (measurement_summary(m)->present ? HAS_SUMMARY : 0) |
			 (m->hist.n ? HAS_HISTOGRAM : 0) |
			 (m->series ? HAS_SERIES : 0);

	for (int k = 0; k < 6; k++)
		put_u32(out, refs[k]);
	put_u32(out, m->source);
	put_u32(out, m->line);
	put_u32(out, flags);
	put_u32(out, 0);
	put_u64(out, measurement_nvalues(m));
}

struct values_out {
	struct strbuf *out;
	const struct strbuf_drain *drain;
};

static int put_value_piece(const double *v, size_t n, void *arg)
{
	struct values_out *o = arg;

	put_f64s(o->out, v, n);
	strbuf_drain_if_full(o->out, o->drain);
	return 0;
}

static void put_summary(struct strbuf *out, const struct summary *s)
{
	put_f64(out, s->n);
	put_f64(out, s->mean);
	put_f64(out, s->stddev);
	put_f64(out, s->min);
	put_f64(out, s->max);
	put_u32(out, s->stddev_population != 0);
	put_u32(out, 0);
}

static void put_histogram(struct strbuf *out, const struct histogram *h)
{
	put_u64(out, h->n);
	put_f64s(out, h->value, h->n);
	for (size_t i = 0; i < h->n; i++)
		put_u64(out, h->count[i]);
}

/* interval, points, buckets and bin bytes; t[], v[], bucket[]; the bins
 * of each point (its byte count, then its bytes), padded to 8 bytes. */
static void put_series(struct strbuf *out, const struct series *s,
		       const struct strbuf_drain *drain)
{
	size_t nbytes = bins_bytes(s);

	put_f64(out, s->interval);
	put_u64(out, s->n);
	put_u64(out, s->nbuckets);
	put_u64(out, nbytes);
	put_f64s(out, s->t, s->n);
	strbuf_drain_if_full(out, drain);
	put_f64s(out, s->v, s->n);
	strbuf_drain_if_full(out, drain);
	put_f64s(out, s->bucket, s->nbuckets);
	for (size_t i = 0; s->nbuckets && i < s->n; i++) {
		size_t len = s->hstart[i + 1] - s->hstart[i];

		put_varint(out, len);
		strbuf_add(out, (const char *)s->hbins + s->hstart[i], len);
		strbuf_drain_if_full(out, drain);
	}
	put_padding(out, nbytes);
}

/* Section `kind` of every measurement, in their order. */
static void put_each(const struct result_set *rs, const struct writer *w,
		     enum rs_bin_section kind, struct strbuf *out,
		     const struct strbuf_drain *drain)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];

		if (kind == SEC_MEASUREMENTS)
			put_measurement(out, m, w->refs[i]);
		else if (kind == SEC_VALUES)
			measurement_each_value(m, put_value_piece,
					       &(struct values_out){ out,
								     drain });
		else if (kind == SEC_SUMMARIES &&
			 measurement_summary(m)->present)
			put_summary(out, measurement_summary(m));
		else if (kind == SEC_HISTOGRAMS && m->hist.n)
			put_histogram(out, &m->hist);
		else if (kind == SEC_SERIES && m->series)
			put_series(out, m->series, drain);
		strbuf_drain_if_full(out, drain);
	}
}

/* The sources' and cache drops' strings and label sets, interned as
 * they are put: put once into nothing here, so that pass two's sections
 * of strings and labels are whole before the sources are written. */
static void intern_sources(struct writer *w, const struct result_set *rs)
{
	struct strbuf scratch = STRBUF_INIT;

	put_sources(w, rs, &scratch);
	put_drops(w, rs, &scratch);
	strbuf_release(&scratch);
}

/* Pass one: every string and label set interned, the sections sized. */
static void writer_begin(struct writer *w, const struct result_set *rs)
{
	memset(w, 0, sizeof(*w));
	strbuf_init(&w->strings);
	strbuf_init(&w->parts);
	keymap_init(&w->string_at);
	keymap_init(&w->set_at);
	w->refs = xmalloc((rs->n + 1) * sizeof(*w->refs));
	string_ref(w, "storan " STORAN_VERSION);	/* offset 0: META's */
	for (size_t i = 0; i < rs->n; i++) {
		intern_measurement(w, &rs->m[i], w->refs[i]);
		size_measurement(w, &rs->m[i]);
	}
	intern_sources(w, rs);
}

static void writer_release(struct writer *w)
{
	strbuf_release(&w->strings);
	strbuf_release(&w->parts);
	keymap_release(&w->string_at);
	keymap_release(&w->set_at);
	free(w->words);
	free(w->refs);
}

void rs_bin_write(const struct result_set *rs, struct strbuf *out,
		  const struct strbuf_drain *drain)
{
	struct writer w;
	struct section_size sec[SEC_KINDS - 1];

	writer_begin(&w, rs);
	sec[0] = (struct section_size){ SEC_META, 8 };
	sec[1] = (struct section_size){ SEC_STRINGS, w.strings.len };
	sec[2] = (struct section_size){ SEC_LABELS, 4 * w.nwords };
	sec[3] = (struct section_size){ SEC_SOURCES,
					SOURCE_BYTES * rs->nsources };
	sec[4] = (struct section_size){ SEC_DROPS, DROP_BYTES * rs->ndrops };
	sec[5] = (struct section_size){ SEC_MEASUREMENTS,
					MEASUREMENT_BYTES * rs->n };
	sec[6] = (struct section_size){ SEC_VALUES, 8 * w.nvalues };
	sec[7] = (struct section_size){ SEC_SUMMARIES,
					SUMMARY_BYTES * w.nsummaries };
	sec[8] = (struct section_size){ SEC_HISTOGRAMS, w.hist_bytes };
	sec[9] = (struct section_size){ SEC_SERIES, w.series_bytes };
	put_header(out, sec, SEC_KINDS - 1);
	put_u32(out, 0);	/* the generator, the first string */
	put_u32(out, 0);
	strbuf_add(out, w.strings.buf, w.strings.len);
	put_padding(out, w.strings.len);
	for (size_t i = 0; i < w.nwords; i++)
		put_u32(out, w.words[i]);
	put_padding(out, 4 * w.nwords);
	put_sources(&w, rs, out);
	put_drops(&w, rs, out);
	for (enum rs_bin_section k = SEC_MEASUREMENTS; k < SEC_KINDS; k++)
		put_each(rs, &w, k, out, drain);
	writer_release(&w);
}
