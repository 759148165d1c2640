/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Small helpers every JSON writer shares (result sets, check findings,
 * tables, comparisons), so that numbers and documents come out the same
 * way everywhere.
 */
#ifndef STORAN_JSON_OUT_H
#define STORAN_JSON_OUT_H

#include <jansson.h>

struct strbuf;

/* A number, or null for NaN and infinities (JSON has neither). */
json_t *json_number_or_null(double v);

/* Appends doc, dumped with jansson's flags, to out and drops the
 * reference; dies when memory runs out.  newline: end with '\n'. */
void json_dump_to(json_t *doc, size_t flags, int newline,
		  struct strbuf *out);

#endif
