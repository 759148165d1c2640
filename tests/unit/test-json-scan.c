/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Tests of core/json-scan: the token layout of valid documents, lookups
 * with duplicate keys, every error with its message and line, large and
 * deep inputs, and agreement with jansson (whose messages the scanner
 * keeps) on a table of bad inputs and on mutations of a real fio file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json-scan.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

/* Scans text (copied: the scanner may write) from offset 0. */
struct doc {
	struct jscan js;
	char *buf;
	size_t root;
	int rc;
};

static struct doc *scan(const char *text)
{
	struct doc *d = xmalloc(sizeof(*d));

	d->buf = xstrdup(text);
	jscan_init(&d->js, d->buf, strlen(text));
	d->rc = jscan_parse(&d->js, 0, &d->root);
	return d;
}

static void doc_free(struct doc *d)
{
	jscan_release(&d->js);
	free(d->buf);
	free(d);
}

static void test_layout(void **state)
{
	struct doc *d = scan(" {\"a\": [1, -2.5e1, \"x\"], \"b\": {}, "
			     "\"c\": true, \"d\": null, \"e\": false} tail");
	struct jscan *js = &d->js;
	size_t a, b;
	double v;

	(void)state;
	assert_int_equal(d->rc, 0);
	assert_int_equal(d->root, 0);
	assert_int_equal(jscan_type(js, 0), JSCAN_OBJECT);
	assert_int_equal(jscan_size(js, 0), 5);
	assert_int_equal(js->tok[0].next, js->ntok);
	assert_int_equal(js->end, strlen(d->buf) - strlen(" tail"));
	a = jscan_get(js, 0, "a");
	assert_int_equal(jscan_type(js, a), JSCAN_ARRAY);
	assert_int_equal(jscan_size(js, a), 3);
	assert_true(jscan_num(js, jscan_at(js, a, 0), &v));
	assert_true(v > 0.5 && v < 1.5);
	assert_int_equal(jscan_int(js, jscan_at(js, a, 0)), 1);
	assert_int_equal(jscan_type(js, jscan_at(js, a, 1)), JSCAN_REAL);
	assert_true(jscan_num(js, jscan_at(js, a, 1), &v));
	assert_true(v > -25.001 && v < -24.999);
	assert_int_equal(jscan_int(js, jscan_at(js, a, 1)), 0);
	assert_string_equal(jscan_str(js, jscan_at(js, a, 2)), "x");
	assert_int_equal(jscan_at(js, a, 3), JSCAN_NONE);
	b = jscan_get(js, 0, "b");
	assert_int_equal(jscan_type(js, b), JSCAN_OBJECT);
	assert_int_equal(jscan_first(js, b), JSCAN_NONE);
	assert_int_equal(jscan_type(js, jscan_get(js, 0, "c")), JSCAN_TRUE);
	assert_int_equal(jscan_type(js, jscan_get(js, 0, "d")), JSCAN_NULL);
	assert_int_equal(jscan_type(js, jscan_get(js, 0, "e")), JSCAN_FALSE);
	/* lookups on nothing, or on the wrong type, give nothing */
	assert_int_equal(jscan_get(js, 0, "zz"), JSCAN_NONE);
	assert_int_equal(jscan_get(js, JSCAN_NONE, "a"), JSCAN_NONE);
	assert_int_equal(jscan_get(js, a, "a"), JSCAN_NONE);
	assert_null(jscan_str(js, JSCAN_NONE));
	assert_false(jscan_num(js, jscan_get(js, 0, "c"), &v));
	assert_int_equal(jscan_type(js, JSCAN_NONE), JSCAN_INVALID);
	doc_free(d);
}

static void test_iteration_and_escapes(void **state)
{
	struct doc *d = scan("{\"k\\u00e9y\": \"a\\tb\\\"\\u20ac\\ud83d\\ude00\","
			     " \"n\": [[1], [2, 3], 4]}");
	struct jscan *js = &d->js;
	size_t n, k, count = 0;

	(void)state;
	assert_int_equal(d->rc, 0);
	assert_string_equal(jscan_str(js, jscan_get(js, 0, "k\xc3\xa9y")),
			    "a\tb\"\xe2\x82\xac\xf0\x9f\x98\x80");
	n = jscan_get(js, 0, "n");
	for (k = jscan_first(js, n); k != JSCAN_NONE;
	     k = jscan_next(js, n, k))
		count++;
	assert_int_equal(count, 3);
	assert_int_equal(jscan_int(js, jscan_at(js, n, 2)), 4);
	assert_int_equal(jscan_int(js, jscan_at(js, jscan_at(js, n, 1), 1)),
			 3);
	count = 0;
	for (k = jscan_first(js, 0); k != JSCAN_NONE;
	     k = jscan_next(js, 0, k))
		count++;
	assert_int_equal(count, 2);
	doc_free(d);
}

/* fio 3.1 writes unused percentile slots as repeated "0.00" keys. */
static void test_duplicate_keys(void **state)
{
	struct doc *d = scan("{\"b\": 1, \"a\": 2, \"b\": 3, \"0.00\": 0, "
			     "\"c\": 4, \"0.00\": 5, \"b\": 6}");
	struct jscan *js = &d->js;
	const struct jscan_member *m;
	size_t n;

	(void)state;
	assert_int_equal(d->rc, 0);
	assert_int_equal(jscan_int(js, jscan_get(js, 0, "b")), 6);
	assert_int_equal(jscan_int(js, jscan_get(js, 0, "0.00")), 5);
	n = jscan_members(js, 0, &m);
	assert_int_equal(n, 4);
	assert_string_equal(jscan_str(js, m[0].key), "b");
	assert_int_equal(jscan_int(js, m[0].value), 6);
	assert_string_equal(jscan_str(js, m[1].key), "a");
	assert_int_equal(jscan_int(js, m[1].value), 2);
	assert_string_equal(jscan_str(js, m[2].key), "0.00");
	assert_int_equal(jscan_int(js, m[2].value), 5);
	assert_string_equal(jscan_str(js, m[3].key), "c");
	/* keys decoded in place still compare */
	assert_int_equal(jscan_int(js, jscan_get(js, 0, "c")), 4);
	doc_free(d);
}

/*
 * copy_strings: the buffer is only read (an uncut input is hashed on
 * another thread while fio-json emits from it), yet strings and keys
 * with escapes come decoded, and a key written with escapes is the same
 * key as one written without.
 */
static void test_copy_strings_never_write(void **state)
{
	static const char text[] =
		"{\"a\\u0062\": 1, \"k\": \"x\\ty\\u20ac\", \"ab\": 2, "
		"\"c\\\"d\": \"plain\", \"o\": {\"\\u0041\": 3}}";
	struct doc *d = xmalloc(sizeof(*d));
	struct jscan *js = &d->js;
	const struct jscan_member *m;
	size_t n;

	(void)state;
	d->buf = xstrdup(text);
	jscan_init(js, d->buf, strlen(text));
	js->copy_strings = 1;
	assert_int_equal(jscan_parse(js, 0, &d->root), 0);
	n = jscan_members(js, 0, &m);
	assert_int_equal(n, 4);
	assert_string_equal(jscan_str(js, m[0].key), "ab");
	assert_int_equal(jscan_int(js, m[0].value), 2);
	assert_string_equal(jscan_str(js, m[1].key), "k");
	assert_string_equal(jscan_str(js, m[1].value), "x\ty\xe2\x82\xac");
	assert_string_equal(jscan_str(js, m[2].key), "c\"d");
	assert_string_equal(jscan_str(js, m[2].value), "plain");
	assert_int_equal(jscan_int(js, jscan_get(js, 0, "ab")), 2);
	assert_int_equal(jscan_int(js, jscan_get(js, jscan_get(js, 0, "o"),
						 "A")), 3);
	assert_true(jscan_str_eq(js, m[2].key, "c\"d", 3));
	/* asked twice, the same text */
	assert_string_equal(jscan_str(js, m[1].value), "x\ty\xe2\x82\xac");
	assert_memory_equal(d->buf, text, sizeof(text));
	doc_free(d);
}

struct bad {
	const char *text;
	const char *message;
	size_t line;
};

static const struct bad bads[] = {
	{ "{\"a\": \"abc\n\"}", "unexpected newline near '\"abc'", 1 },
	{ "{\n\"a\": \"abc", "premature end of input near '\"abc'", 2 },
	{ "{\"a\": \"x\\q\"}", "invalid escape near '\"x\\q'", 1 },
	{ "{\"a\": \"\\u12G4\"}", "invalid escape near '\"\\u12G'", 1 },
	{ "{\"a\": \"\\ud800\"}", "invalid Unicode '\\uD800' near "
	  "'\"\\ud800\"'", 1 },
	{ "{\"a\": \"\\ud800\\u0041\"}", "invalid Unicode '\\uD800\\u0041' "
	  "near '\"\\ud800\\u0041\"'", 1 },
	{ "{\"a\": \"\\udc00\"}", "invalid Unicode '\\uDC00' near "
	  "'\"\\udc00\"'", 1 },
	{ "{\"a\": \"\\u0000\"}", "\\u0000 is not allowed without "
	  "JSON_ALLOW_NUL near '\"\\u0000\"'", 1 },
	{ "{\"\\u0000\": 1}", "NUL byte in object key not supported near "
	  "'\"\\u0000\"'", 1 },
	{ "{\"a\": \"\x01\"}", "control character 0x1 near '\"'", 1 },
	{ "{\"a\": \"\xff\"}", "unable to decode byte 0xff near '\"'", 1 },
	{ "{\"a\": \xc3\xa9}", "invalid token near '\xc3\xa9'", 1 },
	{ "{\"a\":\n \xed\xa0\x80}", "unable to decode byte 0xed", 2 },
	{ "{\"a\": 01}", "invalid token near '0'", 1 },
	{ "{\"a\": 1.}", "invalid token near '1.'", 1 },
	{ "{\"a\": 1e+}", "invalid token near '1e+'", 1 },
	{ "{\"a\": -}", "invalid token near '-'", 1 },
	{ "{\"a\": 9223372036854775808}", "too big integer near "
	  "'9223372036854775808'", 1 },
	{ "{\"a\": -9223372036854775809}", "too big negative integer near "
	  "'-9223372036854775809'", 1 },
	{ "{\"a\": 1e999}", "real number overflow near '1e999'", 1 },
	{ "{\"a\": tru}", "invalid token near 'tru'", 1 },
	{ "{\"a\": 1,}", "string or '}' expected near '}'", 1 },
	{ "{\"a\": [1,]}", "unexpected token near ']'", 1 },
	{ "{\"a\" 1}", "':' expected near '1'", 1 },
	{ "{\n\"a\": 1\n\"b\": 2}", "'}' expected near '\"b\"'", 3 },
	{ "[1 2]", "']' expected near '2'", 1 },
	{ "{\"a\": 1\n", "'}' expected near end of file", 2 },
	{ "[1,\n", "']' expected near end of file", 2 },
	{ "{\n", "string or '}' expected near end of file", 2 },
	{ "  x", "'[' or '{' expected near 'x'", 1 },
	{ "", "'[' or '{' expected near end of file", 1 },
	{ "{\"a\": \"this string is longer than twenty\" x}",
	  "'}' expected near 'x'", 1 },
	{ "{\"a\": \"this string is longer than twenty\\x\"}",
	  "invalid escape", 1 },
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct doc *d = scan(bads[i].text);

		print_message("%s\n", bads[i].text);
		assert_int_equal(d->rc, -1);
		assert_string_equal(d->js.err.text, bads[i].message);
		assert_int_equal(d->js.err.line, bads[i].line);
		assert_int_equal(d->js.ntok, 0);
		doc_free(d);
	}
}

/* The scanner's own limit: scan_double reads at most 64 characters. */
static void test_number_too_long(void **state)
{
	struct doc *d = scan("{\"a\": 1.00000000000000000000000000000000000"
			     "0000000000000000000000000000000000001}");

	(void)state;
	assert_int_equal(d->rc, -1);
	assert_string_equal(d->js.err.text, "number too long");
	doc_free(d);
	d = scan("{\"a\": 1.000000000000000000000000000000000000000000000"
		 "00000000000000001}");	/* 64 characters */
	assert_int_equal(d->rc, 0);
	doc_free(d);
}

/* Does the scanner say what jansson says, at the same line and byte?
 * pack_key: integer maps packed (NULL: none). */
static void assert_like_jansson_packed(const char *text, size_t len,
				       const char *pack_key)
{
	char *buf = xmalloc(len + 1);
	json_error_t e;
	json_t *j = json_loadb(text, len, JSON_DISABLE_EOF_CHECK, &e);
	struct jscan js;
	size_t root;
	int rc;

	memcpy(buf, text, len);
	buf[len] = '\0';
	jscan_init(&js, buf, len);
	js.pack_key = pack_key;
	rc = jscan_parse(&js, 0, &root);
	if (j) {
		assert_int_equal(rc, 0);
		assert_int_equal(js.end, (size_t)e.position);
	} else {
		assert_int_equal(rc, -1);
		assert_string_equal(js.err.text, e.text);
		assert_int_equal(js.err.line, (size_t)e.line);
		assert_int_equal(js.err.pos, (size_t)e.position);
	}
	json_decref(j);
	jscan_release(&js);
	free(buf);
}

static void assert_like_jansson(const char *text, size_t len)
{
	assert_like_jansson_packed(text, len, NULL);
}

static void test_errors_like_jansson(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		print_message("%s\n", bads[i].text);
		assert_like_jansson(bads[i].text, strlen(bads[i].text));
	}
}

static char *read_fixture(const char *name, size_t *len)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *f;

	strbuf_addf(&path, "tests/parsers/fio/%s", name);	/* from the top */
	f = fopen(path.buf, "rb");
	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)))
		strbuf_add(&sb, chunk, n);
	fclose(f);
	strbuf_release(&path);
	*len = sb.len;
	return strbuf_detach(&sb);
}

/*
 * A real fio 3.33 JSON file, cut short at many places and with bytes
 * replaced by each of a set of troublesome ones: both readers agree.
 */
static void test_mutations_like_jansson(void **state)
{
	static const char repl[] = { '}', ']', ',', ':', '"', '\\', '\n', '0',
				     '-', '.', 'e', 'x', '\x01', '\xc3',
				     '\xff', ' ' };
	size_t len, start;
	char *text = read_fixture("0102-3_33-randrw-libaio.json", &len);
	char *copy = xmalloc(len + 1);

	(void)state;
	start = (size_t)(strchr(text, '{') - text);
	for (size_t cut = start; cut < len; cut += 7)
		assert_like_jansson(text + start, cut - start);
	for (size_t at = start; at < len; at += 3) {
		memcpy(copy, text, len);
		copy[at] = repl[at % sizeof(repl)];
		assert_like_jansson(copy + start, len - start);
	}
	free(copy);
	free(text);
}

static void test_depth_limit(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc *d;

	(void)state;
	for (int i = 0; i < JSCAN_MAX_DEPTH; i++)
		strbuf_addch(&sb, '[');
	for (int i = 0; i < JSCAN_MAX_DEPTH; i++)
		strbuf_addch(&sb, ']');
	d = scan(sb.buf);	/* 2048 levels are allowed */
	assert_int_equal(d->rc, 0);
	assert_int_equal(d->js.ntok, JSCAN_MAX_DEPTH);
	doc_free(d);
	assert_like_jansson(sb.buf, sb.len);
	strbuf_reset(&sb);
	for (int i = 0; i < JSCAN_MAX_DEPTH; i++)
		strbuf_addch(&sb, '[');
	strbuf_adds(&sb, "\n1");	/* a value at depth 2049 */
	d = scan(sb.buf);
	assert_int_equal(d->rc, -1);
	assert_string_equal(d->js.err.text,
			    "maximum parsing depth reached near '1'");
	assert_int_equal(d->js.err.line, 2);
	doc_free(d);
	assert_like_jansson(sb.buf, sb.len);
	strbuf_release(&sb);
}

/* Documents one after another, text around them, tokens accumulate. */
static void test_several_documents(void **state)
{
	char text[] = "fio: warning\n{\"x\": 1}\n noise {\"y\": [2]} [3]";
	struct jscan js;
	size_t r1, r2, r3, at;

	(void)state;
	jscan_init(&js, text, strlen(text));
	at = (size_t)(strchr(text, '{') - text);
	assert_int_equal(jscan_parse(&js, at, &r1), 0);
	assert_int_equal(jscan_parse(&js, js.end, &r2), -1);	/* noise */
	assert_int_equal(js.err.line, 2);
	at = (size_t)(strchr(text + js.end, '{') - text);
	assert_int_equal(jscan_parse(&js, at, &r2), 0);
	assert_int_equal(jscan_parse(&js, js.end, &r3), 0);
	assert_int_equal(jscan_int(&js, jscan_get(&js, r1, "x")), 1);
	assert_int_equal(jscan_int(&js, jscan_at(&js, jscan_get(&js, r2, "y"),
						 0)), 2);
	assert_int_equal(jscan_int(&js, jscan_at(&js, r3, 0)), 3);
	jscan_truncate(&js, r2);
	assert_int_equal(js.ntok, r2);
	jscan_reset(&js);
	assert_int_equal(js.ntok, 0);
	jscan_release(&js);
}

/* A JSON+ file (bins packed as integer maps), cut and mutated: the
 * packed path accepts and rejects exactly what jansson does. */
static void test_packed_mutations_like_jansson(void **state)
{
	/* no NUL: an input with one is binary and never scanned */
	static const char repl[] = { '}', ',', ':', '"', '\\', '\n', '0',
				     '-', '.', 'e', 'x', '\r', ' ', '{' };
	size_t len, start;
	char *text = read_fixture("0103-3_33-randrw-libaio-jsonplus.json",
				  &len);
	char *copy = xmalloc(len + 1);
	const char *bins = strstr(text, "\"bins\"");

	(void)state;
	assert_non_null(bins);
	start = (size_t)(strchr(text, '{') - text);
	for (size_t cut = start; cut < len; cut += 11)
		assert_like_jansson_packed(text + start, cut - start, "bins");
	/* every byte of the first bins object and around it */
	for (size_t at = (size_t)(bins - text); at < len &&
	     at < (size_t)(bins - text) + 600; at++) {
		memcpy(copy, text, len);
		copy[at] = repl[at % sizeof(repl)];
		assert_like_jansson_packed(copy + start, len - start, "bins");
	}
	free(copy);
	free(text);
}

/*
 * jscan_parse_split() of text[0..len) at split: the same result as
 * jscan_parse(), token for token, or the same error.  Returns how many
 * tokens the helper read were taken.
 */
static size_t assert_split_agrees(const char *text, size_t len, size_t split,
				  const char *pack)
{
	char *a = xmalloc(len + 1), *b = xmalloc(len + 1);
	struct jscan *x = xmalloc(sizeof(*x)), *y = xmalloc(sizeof(*y));
	size_t rx = 0, ry = 0, taken;
	int cx, cy;

	memcpy(a, text, len);
	memcpy(b, text, len);
	a[len] = b[len] = '\0';
	jscan_init(x, a, len);
	jscan_init(y, b, len);
	x->pack_key = y->pack_key = pack;
	x->copy_strings = y->copy_strings = 1;
	cx = jscan_parse(x, 0, &rx);
	cy = jscan_parse_split(y, 0, split, &ry);
	assert_int_equal(cx, cy);
	assert_int_equal(x->ntok, y->ntok);
	for (size_t i = 0; i < x->ntok; i++) {
		assert_int_equal(x->tok[i].start, y->tok[i].start);
		assert_int_equal(x->tok[i].len, y->tok[i].len);
		assert_int_equal(x->tok[i].next, y->tok[i].next);
		assert_int_equal(x->tok[i].type, y->tok[i].type);
		assert_int_equal(x->tok[i].flags, y->tok[i].flags);
	}
	if (!cx) {
		assert_int_equal(rx, ry);
		assert_int_equal(x->end, y->end);
	} else {
		assert_string_equal(x->err.text, y->err.text);
		assert_int_equal(x->err.pos, y->err.pos);
		assert_int_equal(x->err.line, y->err.line);
	}
	taken = y->split_taken;
	jscan_release(x);
	jscan_release(y);
	free(x);
	free(y);
	free(a);
	free(b);
	return taken;
}

/*
 * A second thread's half (jscan_parse_split()) at every place of a fio
 * JSON+ file and of a plain one: at a job's '{' it is taken; at a blank,
 * a key or inside a string (never where a value starts) it is dropped;
 * either way the tokens are those of one thread.
 */
static void test_split_everywhere(void **state)
{
	static const char *const files[] = {
		"0103-3_33-randrw-libaio-jsonplus.json",
		"0102-3_33-randrw-libaio.json",
	};

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		size_t len, taken = 0;
		char *text = read_fixture(files[f], &len);
		size_t start = (size_t)(strchr(text, '{') - text);
		const char *elem = strstr(text + start, "\"jobs\" : [");

		assert_non_null(elem);
		elem = strchr(elem, '{');	/* the first job */
		/* (the fixture's first bytes: text before the document) */
		for (size_t at = start + 1; at < len; at++) {
			int brace = text[at] == '{' || text[at] == '[';
			int blank = strchr(" \n\t\r:,", text[at]) != NULL;
			size_t n;

			if (!brace && (at - start) % 5)
				continue;
			n = assert_split_agrees(text + start, len - start,
						at - start, f ? NULL : "bins");
			if (blank)	/* no lexeme starts there */
				assert_int_equal(n, 0);
			taken += n;
		}
		assert_true(assert_split_agrees(text + start, len - start,
						(size_t)(elem - text) - start,
						f ? NULL : "bins") > 0);
		assert_true(taken > 0);
		free(text);
	}
}

/* Errors before the split, in the helper's half, after its array: the
 * error one thread reports, at the same place and line. */
static void test_split_errors(void **state)
{
	static const char repl[] = { '}', ']', ',', ':', '"', '\\', '\n', '0',
				     'x', '\x01', '\xff', '{', '[' };
	static const char doc[] =
		"{\"a\": 1, \"jobs\": [\n    {\"x\": [1, 2]},\n"
		"    {\"y\": {\"bins\": {\"1\": 2}}},\n"
		"    {\"z\": \"s\"}\n  ],\n  \"b\": [true]}";
	size_t len = strlen(doc), split;
	char *copy = xmalloc(len + 1);

	(void)state;
	split = (size_t)(strstr(doc, "{\"y\"") - doc);
	assert_true(assert_split_agrees(doc, len, split, "bins") > 0);
	for (size_t at = 0; at < len; at++)
		for (size_t r = 0; r < sizeof(repl); r++) {
			memcpy(copy, doc, len + 1);
			copy[at] = repl[r];
			assert_split_agrees(copy, len, split, "bins");
			assert_split_agrees(copy, len, split, NULL);
		}
	for (size_t cut = 1; cut < len; cut++)
		assert_split_agrees(doc, cut, split, "bins");
	free(copy);
}

/* The depth limit counts from the document's start, not the helper's. */
static void test_split_depth(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (int deeper = 0; deeper < 2; deeper++) {
		size_t split;

		strbuf_reset(&sb);
		for (int i = 0; i < 1000; i++)
			strbuf_addch(&sb, '[');
		strbuf_adds(&sb, "1, ");
		split = sb.len;
		/* this element's value reaches depth 2048 (+ deeper) */
		for (int i = 0; i < 1047 + deeper; i++)
			strbuf_addch(&sb, '[');
		strbuf_addch(&sb, '2');
		for (int i = 0; i < 1047 + deeper; i++)
			strbuf_addch(&sb, ']');
		for (int i = 0; i < 1000; i++)
			strbuf_addch(&sb, ']');
		/* taken at the limit, dropped past it (one thread fails) */
		assert_int_equal(assert_split_agrees(sb.buf, sb.len, split,
						     NULL) > 0, !deeper);
	}
	strbuf_release(&sb);
}

/* The members of integer map i, as "k=v k=v". */
static char *int_map_text(struct jscan *js, size_t i)
{
	struct strbuf sb = STRBUF_INIT;
	size_t size = jscan_size(js, i) + 1;
	uint64_t *k = xcalloc(size, sizeof(*k)), *v = xcalloc(size, sizeof(*v));
	size_t n = jscan_int_map_read(js, i, k, v);

	assert_int_equal(n, size - 1);
	for (size_t m = 0; m < n; m++)
		strbuf_addf(&sb, "%s%llu=%llu", m ? " " : "",
			    (unsigned long long)k[m], (unsigned long long)v[m]);
	free(k);
	free(v);
	return strbuf_detach(&sb);
}

static struct doc *scan_packed(const char *text)
{
	struct doc *d = xmalloc(sizeof(*d));

	d->buf = xstrdup(text);
	jscan_init(&d->js, d->buf, strlen(text));
	d->js.pack_key = "bins";
	d->rc = jscan_parse(&d->js, 0, &d->root);
	return d;
}

static void test_int_maps(void **state)
{
	struct doc *d = scan_packed(
		"{\"bins\" : {\"1\" : 2, \"30\":4 ,\"1\": 0},\n"
		" \"x\": {\"1\": 2}, \"s\": \"bins\",\n"
		" \"y\": [{\"bins\": {\"9999999999999999999\": "
		"999999999999999999}}],\n"
		" \"z\": {\"bins\": {}}, \"after\": 7}");
	struct jscan *js = &d->js;
	size_t bins, x, y;
	char *t;

	(void)state;
	assert_int_equal(d->rc, 0);
	bins = jscan_get(js, 0, "bins");
	assert_int_equal(jscan_type(js, bins), JSCAN_INT_MAP);
	assert_int_equal(jscan_size(js, bins), 3);
	assert_int_equal(js->tok[bins].next, bins + 1);	/* one token */
	assert_int_equal(jscan_first(js, bins), JSCAN_NONE);
	assert_int_equal(jscan_get(js, bins, "1"), JSCAN_NONE);
	t = int_map_text(js, bins);
	assert_string_equal(t, "1=2 30=4 1=0");	/* duplicates too */
	free(t);
	x = jscan_get(js, 0, "x");	/* another key: an ordinary object */
	assert_int_equal(jscan_type(js, x), JSCAN_OBJECT);
	assert_int_equal(jscan_int(js, jscan_get(js, x, "1")), 2);
	y = jscan_get(js, jscan_at(js, jscan_get(js, 0, "y"), 0), "bins");
	t = int_map_text(js, y);
	assert_string_equal(t, "9999999999999999999=999999999999999999");
	free(t);
	assert_int_equal(jscan_type(js, jscan_get(js, jscan_get(js, 0, "z"),
						  "bins")), JSCAN_OBJECT);
	assert_int_equal(jscan_int(js, jscan_get(js, 0, "after")), 7);
	assert_int_equal(jscan_int_map_read(js, x, NULL, NULL), 0);
	doc_free(d);
}

/* Keys and values of every length, read back exactly (they are read
 * eight digits at a time): against strtoull. */
static void test_int_map_values(void **state)
{
	static const char *const nums[] = {
		"0", "7", "42", "999", "1012", "20480", "187392", "1015808",
		"12345678", "99999999", "100000000", "123456789012",
		"9876543210987654", "12345678901234567", "999999999999999999",
		"1000000000000000000", "9999999999999999999",
	};
	size_t n = sizeof(nums) / sizeof(nums[0]);
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	struct doc *d;
	char *got;

	(void)state;
	strbuf_adds(&sb, "{\"bins\" : {");
	for (size_t i = 0; i < n; i++) {
		/* values have at most 18 digits: the longest keys get 1 */
		const char *v = strlen(nums[n - 1 - i]) <= 18 ? nums[n - 1 - i] :
				"1";

		strbuf_addf(&sb, "%s\"%s\" : %s", i ? ",\n" : "", nums[i], v);
		strbuf_addf(&want, "%s%llu=%llu", i ? " " : "",
			    strtoull(nums[i], NULL, 10), strtoull(v, NULL, 10));
	}
	strbuf_adds(&sb, "}}");
	d = scan_packed(sb.buf);
	assert_int_equal(d->rc, 0);
	assert_int_equal(jscan_type(&d->js, 2), JSCAN_INT_MAP);
	got = int_map_text(&d->js, 2);
	assert_string_equal(got, want.buf);
	free(got);
	doc_free(d);
	strbuf_release(&sb);
	strbuf_release(&want);
}

/* Anything but "<digits>" : <digits> members: an ordinary object, read
 * as it is without packing. */
static void test_int_map_fallbacks(void **state)
{
	static const char *const bodies[] = {
		"\"1\": 1.5", "\"1\": -1", "\"1\": \"a\"", "\"1\": 01",
		"\"1\": 1e3", "\"1\": 1234567890123456789",
		"\"12345678901234567890\": 1", "\"\\u0031\": 1", "\"\": 1",
		"\"FIO_IO_U_PLAT_BITS\": 6, \"0\": 1", "\"1\": {}",
		"\"1\": true", "\"1\": 2, \"x1\": 3", "\"1 \": 2",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		struct doc *a, *b;

		strbuf_addf(&sb, "{\"bins\": {%s}}", bodies[i]);
		print_message("%s\n", sb.buf);
		a = scan_packed(sb.buf);
		b = scan(sb.buf);
		assert_int_equal(a->rc, b->rc);
		assert_int_equal(a->js.ntok, b->js.ntok);
		if (!a->rc)
			assert_int_equal(jscan_type(&a->js, 2), JSCAN_OBJECT);
		else
			assert_string_equal(a->js.err.text, b->js.err.text);
		doc_free(a);
		doc_free(b);
		strbuf_release(&sb);
	}
}

/* An input's arena: NULs where the newlines were, between members. */
static void test_int_map_in_arena(void **state)
{
	char text[] = "{\"bins\" : {\0\"10\" : 1,\0\"20\" : 3\0}\0}";
	struct jscan js;
	size_t root;
	char *t;

	(void)state;
	jscan_init(&js, text, sizeof(text) - 1);
	js.nul_is_newline = 1;
	js.pack_key = "bins";
	assert_int_equal(jscan_parse(&js, 0, &root), 0);
	assert_int_equal(jscan_type(&js, 2), JSCAN_INT_MAP);
	t = int_map_text(&js, 2);
	assert_string_equal(t, "10=1 20=3");
	free(t);
	assert_int_equal(js.end, sizeof(text) - 1);
	jscan_release(&js);
}

/* 200,000 members and a 1 MB string: sizes and lookups hold. */
static void test_large(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const struct jscan_member *m;
	struct doc *d;
	size_t n;

	(void)state;
	strbuf_addch(&sb, '{');
	for (int i = 0; i < 200000; i++)
		strbuf_addf(&sb, "%s\"%d\": %d", i ? ",\n" : "", i % 100000, i);
	strbuf_adds(&sb, ", \"s\": \"");
	for (int i = 0; i < 1000000; i++)
		strbuf_addch(&sb, (char)('a' + i % 26));
	strbuf_adds(&sb, "\"}");
	d = scan(sb.buf);
	assert_int_equal(d->rc, 0);
	assert_int_equal(jscan_size(&d->js, 0), 200001);
	assert_int_equal(jscan_int(&d->js, jscan_get(&d->js, 0, "99999")),
			 199999);
	n = jscan_members(&d->js, 0, &m);
	assert_int_equal(n, 100001);
	assert_int_equal(jscan_int(&d->js, m[7].value), 100007);
	assert_int_equal(strlen(jscan_str(&d->js, jscan_get(&d->js, 0, "s"))),
			 1000000);
	doc_free(d);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_iteration_and_escapes),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_errors_like_jansson),
		cmocka_unit_test(test_number_too_long),
		cmocka_unit_test(test_mutations_like_jansson),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_several_documents),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_int_maps),
		cmocka_unit_test(test_int_map_fallbacks),
		cmocka_unit_test(test_int_map_values),
		cmocka_unit_test(test_copy_strings_never_write),
		cmocka_unit_test(test_int_map_in_arena),
		cmocka_unit_test(test_packed_mutations_like_jansson),
		cmocka_unit_test(test_split_everywhere),
		cmocka_unit_test(test_split_errors),
		cmocka_unit_test(test_split_depth),
	};

	return cmocka_run_group_tests_name("json-scan", tests, NULL, NULL);
}
