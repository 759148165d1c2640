/*
 * The result set as a JSON document ("schema": "storan/1"), read and
 * written with jansson.  docs/result-format.md describes every field.
 */
#ifndef STORAN_RS_JSON_H
#define STORAN_RS_JSON_H

#include "resultset.h"
#include "strbuf.h"

#define STORAN_SCHEMA "storan/1"

/* Appends the document for rs to out (pretty, keys in a fixed order). */
void rs_json_write(const struct result_set *rs, struct strbuf *out);
/*
 * Parses a document into rs (appending).  On error returns -1 with
 * "FILE:LINE: message" (or "FILE: measurements[3]: message") in err.
 */
int rs_json_read(const char *name, const char *text, size_t len,
		 struct result_set *rs, struct strbuf *err);
/* Does the text look like a storan result set (not another JSON)? */
int rs_json_sniff(const char *text, size_t len);

#endif
