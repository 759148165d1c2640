/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One storan/1 measurement object read in a single pass over its text,
 * for the shape storan writes: tool, op, metric, unit, values, labels,
 * source, source_name and line, strings without escapes, ASCII only.
 * Anything else -- a summary, a histogram, a series, another key, a key
 * twice, an escape, a byte above 127, a syntax error, a number json-scan
 * would refuse -- is declined, and the general reader (rs-json-read.c,
 * with json-scan) reads that measurement instead: it alone words errors,
 * so the two cannot disagree on what a document means.  This path reads
 * syntax, and declines numbers the general reader refuses whatever the
 * field (not finite, or digits lost below DBL_MIN); what the fields say
 * is for the caller to check.
 */
#ifndef STORAN_RS_JSON_FAST_H
#define STORAN_RS_JSON_FAST_H

#include "resultset.h"

#include <stddef.h>
#include <stdint.h>

enum fast_string {
	FAST_TOOL, FAST_OP, FAST_METRIC, FAST_UNIT, FAST_SOURCE_NAME,
	FAST_NSTRINGS
};

struct fast_span {
	const char *p;
	size_t n;
};

struct fast_measurement {
	/* NUL-terminated copies (in text), or NULL: absent or null */
	const char *str[FAST_NSTRINGS];
	int has_values;		/* a "values" array, maybe empty */
	double *values;
	size_t nvalues, values_alloc;
	int has_source, has_line;
	uint64_t source, line;
	struct label_ref *labels;	/* nlabels, in the order written */
	size_t nlabels, labels_alloc;
	/* the strings' copies */
	char *text;
	size_t text_alloc;
	/* the labels as spans of the text read, until copied */
	struct fast_span *key_span, *value_span;
	size_t spans_alloc;
};

void fast_measurement_init(struct fast_measurement *f);
void fast_measurement_release(struct fast_measurement *f);

/*
 * Reads the object at buf[pos] ('{', after any blanks) of a buffer of
 * len bytes and a NUL.  0 and *end past its '}', or -1: declined, f
 * undefined.
 */
int fast_measurement_read(struct fast_measurement *f, const char *buf,
			  size_t len, size_t pos, size_t *end);

#endif
