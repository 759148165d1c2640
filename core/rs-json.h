/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The result set as a JSON document ("schema": "storan/1"), written as
 * jansson would (byte for byte) and read with json-scan, jansson wording
 * any syntax error.  docs/result-format.md describes every field.
 */
#ifndef STORAN_RS_JSON_H
#define STORAN_RS_JSON_H

#include "resultset.h"
#include "strbuf.h"

#define STORAN_SCHEMA "storan/1"

/*
 * Appends the document for rs to out: keys in a fixed order, one
 * measurement per line, measurements before sources.
 */
void rs_json_write(const struct result_set *rs, struct strbuf *out);
/* The same, its text passed to drain as it is made. */
struct strbuf_drain;
void rs_json_write_drained(const struct result_set *rs, struct strbuf *out,
			   const struct strbuf_drain *drain);

/*
 * The same document in pieces, for writers that stream one input at a
 * time (storan ingest keeps memory bounded by the largest input):
 *
 *	rs_json_begin(out);
 *	for each input: rs_json_add_measurements(rs, offset, &count, out);
 *	rs_json_end(rs, out);
 *
 * offset is added to every measurement's source index; count is the
 * number of measurements written so far (for the separators).
 */
void rs_json_begin(struct strbuf *out);
void rs_json_add_measurements(const struct result_set *rs, size_t offset,
			      size_t *count, struct strbuf *out);
/*
 * Fills the label caches of measurements [from, to), which writing them
 * would fill: done first, two threads can then write them side by side.
 */
void rs_json_prepare(const struct result_set *rs, size_t from, size_t to);
/* The same for measurement i alone (to write a big set in pieces);
 * drain: where a long one's text goes while it is written (the series
 * of a 1 GB hist log is 300 MB of JSON), NULL: out holds it all. */
void rs_json_add_measurement(const struct result_set *rs, size_t i,
			     size_t offset, size_t *count, struct strbuf *out,
			     const struct strbuf_drain *drain);
/* The sources of rs, and its cache drops where it has any. */
void rs_json_end(const struct result_set *rs, struct strbuf *out);
/*
 * Parses a document into rs (appending).  On error returns -1 with
 * "FILE:LINE: message" (or "FILE: measurements[3]: message") in err.
 */
int rs_json_read(const char *name, const char *text, size_t len,
		 struct result_set *rs, struct strbuf *err);
/*
 * rs_json_read() of a text followed by a NUL (text[len] == '\0') that its
 * caller can spare: read where it is, without a copy (its strings with
 * escapes decoded into copies).  text is not changed.
 */
int rs_json_read_in_place(const char *name, char *text, size_t len,
			  struct result_set *rs, struct strbuf *err);
/*
 * Whether the last rs_json_read() or rs_json_read_in_place() of this
 * thread read its document streaming, one measurement at a time
 * (rs-json-read.c), not whole: what the tests ask to know that the lean
 * path is taken.
 */
int rs_json_last_read_streamed(void);
/* Whether measurements are read by rs-json-fast.c where they can be (1,
 * the default) or all by json-scan (0: for tests, which compare the
 * two). */
void rs_json_read_fast(int on);
/* Call before threads use jansson (it seeds its hash function once). */
void rs_json_init_threads(void);

/* Does the text look like a storan result set (not another JSON)? */
int rs_json_sniff(const char *text, size_t len);

#endif
