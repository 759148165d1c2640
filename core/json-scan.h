/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A small, strict JSON reader for large machine-written documents (fio's
 * --output-format=json): one pass over the text builds a flat array of
 * tokens, with no allocation per value.
 *
 * Tokens are in document order.  A container token (object or array) is
 * followed by its children; its `next` is the index just past its last
 * descendant, so siblings are found by jumping.  An object's children
 * are key, value, key, value...; `len` counts members (objects) or
 * elements (arrays).  A string token is a slice of the buffer (between
 * the quotes) with JSCAN_ESCAPED when it holds a backslash escape; a
 * number is a slice read with scan_double() only when asked.
 *
 * What is accepted, and every message and position on bad input, follow
 * jansson's json_loadb() with JSON_DISABLE_EOF_CHECK (RFC 8259, UTF-8
 * checked, no NUL in strings, integers within int64, depth 2048), so a
 * diagnostic reads the same whichever reader produced it.  Duplicate
 * keys are accepted; jscan_get() returns the last, jscan_members() lists
 * each key once (first position, last value), as jansson's object does.
 * Own limits: a buffer of less than 4 GiB, a real number of at most 64
 * characters ("number too long").
 *
 * Integer maps: a caller that sets pack_key gets each object that is the
 * value of a member so named and holds only members "<digits>" : <digits>
 * (fio's JSON+ bins: { "1012" : 2, "1028" : 7, ... }) as one token of
 * type JSCAN_INT_MAP, read with jscan_int_map_read(), instead of two
 * tokens a member: such objects are most of a JSON+ document.  Anything
 * else there (a real, a sign, an escape, a nested value, a key like
 * "FIO_IO_U_PLAT_BITS", an error) is read as an ordinary object, with
 * the same checks and messages.
 *
 * Ownership: struct jscan points into the caller's buffer, which must
 * stay alive, be NUL-terminated at buf[len], and be writable:
 * jscan_str() decodes and terminates a string in place (so a region
 * whose strings were read must not be scanned again), unless
 * copy_strings is set: then buf is only read.  A copy lives until
 * jscan_release().  Tokens of several documents accumulate in one
 * growing array until jscan_reset().
 */
#ifndef STORAN_JSON_SCAN_H
#define STORAN_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

#define JSCAN_NONE ((size_t)-1)	/* "no such token" */
#define JSCAN_MAX_DEPTH 2048	/* jansson's JSON_PARSER_MAX_DEPTH */

enum jscan_type {
	JSCAN_INVALID,		/* the type of JSCAN_NONE */
	JSCAN_OBJECT,
	JSCAN_ARRAY,
	JSCAN_STRING,
	JSCAN_INTEGER,		/* no '.' nor exponent, fits int64 */
	JSCAN_REAL,
	JSCAN_TRUE,
	JSCAN_FALSE,
	JSCAN_NULL,
	JSCAN_INT_MAP,		/* an object packed as said above */
};

enum jscan_flags {
	JSCAN_ESCAPED = 1 << 0,	/* string still holds backslash escapes */
	JSCAN_TERMINATED = 1 << 1,	/* decoded and NUL-terminated */
};

struct jscan_tok {
	uint32_t start;		/* buffer offset (strings: after the quote) */
	uint32_t len;		/* bytes of text; containers: children */
	uint32_t next;		/* index past this token's subtree */
	uint8_t type;		/* enum jscan_type */
	uint8_t flags;		/* enum jscan_flags */
};

struct jscan_member {
	uint32_t key, value;	/* token indices */
};

struct jscan_error {
	char text[160];		/* jansson's wording, "" when none */
	size_t pos;		/* buffer offset where reading stopped */
	size_t line;		/* 1-based, counted from the parse start */
};

struct jscan {
	char *buf;
	size_t len;
	/* Set after jscan_init() when buf is lines ended by NULs, not '\n'
	 * (an input's arena): a NUL then reads as a newline would, both
	 * between values and in the messages. */
	int nul_is_newline;
	/* Set after jscan_init() to pack the integer maps that are values
	 * of members with this key (see above); NULL packs none. */
	const char *pack_key;
	/* Set after jscan_init() when buf must not be written (a file
	 * mapped privately, where the first write to a page copies it,
	 * and which another thread may be hashing meanwhile): jscan_str()
	 * then returns every string as a copy in the reader's own store,
	 * decoded there, and jscan_members() reads keys without escapes
	 * where they are. */
	int copy_strings;
	struct jscan_chunk *chunks;	/* that store */
	struct jscan_tok *tok;
	size_t ntok, alloc;
	size_t end;		/* after jscan_parse(): offset past the value */
	size_t split_taken;	/* after jscan_parse_split(): the tokens
				 * the helper read and the parse took */
	struct jscan_error err;
	/* scratch of jscan_members(), reused */
	struct jscan_member *members;
	size_t members_alloc;
	uint32_t *slots;
	size_t slots_alloc;
	/* scratch of key comparisons with escapes */
	char *scratch;
	size_t scratch_alloc;
	/* hash indexes of the objects jscan_get() searched last */
	struct jscan_index {
		uint32_t obj;		/* token index, UINT32_MAX unused */
		uint32_t mask;
		uint32_t *slots;	/* key token of each key's last use */
		size_t alloc;
	} index[8];
	unsigned index_next;	/* the entry to replace next */
	uint32_t stack[JSCAN_MAX_DEPTH];	/* open containers */
};

/* Sets the buffer (see above); no allocation yet. */
void jscan_init(struct jscan *js, char *buf, size_t len);
void jscan_release(struct jscan *js);
/*
 * Forgets the copies jscan_str() made (copy_strings) so far: a reader
 * that copied what it keeps of each record reuses one store, not a
 * store as big as the document's strings.  Pointers from jscan_str()
 * before are void.
 */
void jscan_store_reset(struct jscan *js);
/* Forgets every token (the arrays are kept for the next documents). */
void jscan_reset(struct jscan *js);
/*
 * A second reader of js's tokens for another thread: lookups there use
 * the view's own scratch and indexes.  Both may read any token; a string
 * may be decoded (jscan_str) by one of them only, so strings both read
 * are decoded before the view is made.  jscan_view_release() frees what
 * the view owns, never the tokens.
 */
void jscan_view(struct jscan *view, const struct jscan *js);
void jscan_view_release(struct jscan *view);

/*
 * Reads one object or array starting at buffer offset `at` (whitespace
 * first is skipped) and stops after its closing bracket, whatever
 * follows.  Appends its tokens; *root is the first.  Returns 0, or -1
 * with js->err set and no token added.
 */
int jscan_parse(struct jscan *js, size_t at, size_t *root);
/*
 * jscan_parse() with a second thread reading from offset `split` on,
 * where the caller guesses an element of an array starts (a job in the
 * middle of a big fio document): the same tokens, end and error as
 * jscan_parse(), in about half the time on two CPUs.  The helper's
 * tokens are taken only where this parse meets `split` as the start of
 * an array's element and the helper read up to that array's ']' without
 * an error nor too deep; else this parse reads on alone.  A bad guess
 * costs the helper's time, never a different result.
 */
int jscan_parse_split(struct jscan *js, size_t at, size_t split,
		      size_t *root);
/*
 * The same for any value, a string or a number too: a reader that walks
 * a document's outer object itself (a member's key, then its value)
 * without keeping every token of it.
 */
int jscan_parse_value(struct jscan *js, size_t at, size_t *root);
/* Drops the tokens from index `from` on (a document not wanted). */
void jscan_truncate(struct jscan *js, size_t from);

/* Lookups: every one accepts JSCAN_NONE and tokens of the wrong type. */
enum jscan_type jscan_type(const struct jscan *js, size_t i);
/* Members of an object or an integer map, elements of an array; 0 for
 * anything else. */
size_t jscan_size(const struct jscan *js, size_t i);
/* The value of the object's last member named key, or JSCAN_NONE. */
size_t jscan_get(struct jscan *js, size_t obj, const char *key);
/* Element k of an array (walks k siblings), or JSCAN_NONE. */
size_t jscan_at(const struct jscan *js, size_t arr, size_t k);
/*
 * Iteration over an array's elements or an object's keys (the value of
 * key k is k + 1):
 *	for (k = jscan_first(js, c); k != JSCAN_NONE; k = jscan_next(js, c, k))
 */
size_t jscan_first(const struct jscan *js, size_t container);
size_t jscan_next(const struct jscan *js, size_t container, size_t k);
/*
 * The object's members with each key once, in the order of its first
 * occurrence, with the value of its last; *out stays valid until the
 * next call.  Decodes the keys in place (copies them, copy_strings).
 */
size_t jscan_members(struct jscan *js, size_t obj,
		     const struct jscan_member **out);

/* The string, decoded and NUL-terminated in place (a copy of it,
 * copy_strings); NULL if not one. */
const char *jscan_str(struct jscan *js, size_t i);
/* Is the string token equal to key (escapes decoded)? */
int jscan_str_eq(struct jscan *js, size_t i, const char *key, size_t len);
/* A number's value: 1 and *out, or 0 (not a number, *out = 0). */
int jscan_num(const struct jscan *js, size_t i, double *out);
/* Is s valid UTF-8 by the rules above (what jansson's strings accept)? */
int jscan_utf8_valid(const char *s, size_t len);
/* An integer's value; 0 for anything else (jansson's rule). */
int64_t jscan_int(const struct jscan *js, size_t i);
/*
 * The members of integer map i in document order (duplicates too), into
 * keys[] and values[] of jscan_size() entries; returns how many (0 for
 * any other token).  Keys have at most 19 digits and values 18, so both
 * fit.
 */
size_t jscan_int_map_read(const struct jscan *js, size_t i, uint64_t *keys,
			  uint64_t *values);

#endif
