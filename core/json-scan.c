/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The JSON reader of json-scan.h.  A lexer cuts the text into lexemes
 * and a loop with an explicit stack of open containers (no recursion)
 * appends tokens.  Errors keep jansson's wording and its "near '...'"
 * context: the text of the lexeme being read when reading stopped (shown
 * when it has 1 to 20 bytes), "near end of file" at the end.  The first
 * error found is the one reported.  Strings are checked in the same
 * order jansson checks them: bytes, escapes and UTF-8 while reading,
 * then surrogate pairs once the string is complete.
 */
#include "json-scan.h"
#include "numscan.h"
#include "strbuf.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum lex_kind {
	LX_EOF = 0,		/* punctuation uses its own character */
	LX_INVALID = 256,
	LX_STRING,
	LX_INTEGER,
	LX_REAL,
	LX_TRUE,
	LX_FALSE,
	LX_NULL,
};

enum lex_flags {
	LXF_ESCAPED = 1 << 0,
	LXF_NUL = 1 << 1,	/* a \u0000 escape */
};

struct lexeme {
	int kind;
	unsigned flags;
	size_t start, end;	/* the text read, for the error context */
};

#define CONTEXT_MAX 20		/* jansson shows lexemes up to 20 bytes */
#define REAL_MAX 64		/* scan_double's limit */

#define NINDEX (sizeof(((struct jscan *)0)->index) / \
		sizeof(((struct jscan *)0)->index[0]))

/* Forgets the object indexes (their tokens are gone or reused). */
static void drop_indexes(struct jscan *js)
{
	for (size_t i = 0; i < NINDEX; i++)
		js->index[i].obj = UINT32_MAX;
}

void jscan_init(struct jscan *js, char *buf, size_t len)
{
	memset(js, 0, offsetof(struct jscan, stack));
	js->buf = buf;
	js->len = len;
	drop_indexes(js);
}

/* A block of the string store (copy_strings). */
struct jscan_chunk {
	struct jscan_chunk *next;
	size_t used, size;
	char text[];
};

#define CHUNK_SIZE 16384

static char *store_alloc(struct jscan *js, size_t n)
{
	struct jscan_chunk *c = js->chunks;
	char *p;

	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = js->chunks;
		js->chunks = c;
	}
	p = c->text + c->used;
	c->used += n;
	return p;
}

void jscan_store_reset(struct jscan *js)
{
	struct jscan_chunk *c = js->chunks;

	if (!c)
		return;
	while (c->next) {
		struct jscan_chunk *next = c->next->next;

		free(c->next);
		c->next = next;
	}
	c->used = 0;
}

void jscan_release(struct jscan *js)
{
	while (js->chunks) {
		struct jscan_chunk *next = js->chunks->next;

		free(js->chunks);
		js->chunks = next;
	}
	free(js->tok);
	free(js->members);
	free(js->slots);
	free(js->scratch);
	for (size_t i = 0; i < NINDEX; i++)
		free(js->index[i].slots);
	jscan_init(js, NULL, 0);
}

void jscan_view(struct jscan *view, const struct jscan *js)
{
	jscan_init(view, js->buf, js->len);
	view->nul_is_newline = js->nul_is_newline;
	view->copy_strings = js->copy_strings;	/* its own store */
	view->tok = js->tok;
	view->ntok = js->ntok;
	view->end = js->end;
}

void jscan_view_release(struct jscan *view)
{
	view->tok = NULL;	/* the original's */
	jscan_release(view);
}

void jscan_reset(struct jscan *js)
{
	js->ntok = 0;
	drop_indexes(js);
}

void jscan_truncate(struct jscan *js, size_t from)
{
	if (from < js->ntok)
		js->ntok = from;
	drop_indexes(js);
}

/* ---- errors ---- */

static void set_error(struct jscan *js, const struct lexeme *lx,
		      int utf8, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void set_error(struct jscan *js, const struct lexeme *lx,
		      int utf8, const char *fmt, ...)
{
	char msg[96];
	size_t n = lx->end - lx->start;
	va_list ap;

	if (n && !js->buf[lx->start])
		n = 0;	/* jansson's saved text then reads as empty */
	if (js->err.text[0])
		return;		/* the first error stands */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n && n <= CONTEXT_MAX)
		snprintf(js->err.text, sizeof(js->err.text), "%s near '%.*s'",
			 msg, (int)n, js->buf + lx->start);
	else if (!n && !utf8)
		snprintf(js->err.text, sizeof(js->err.text),
			 "%s near end of file", msg);
	else
		snprintf(js->err.text, sizeof(js->err.text), "%s", msg);
	js->err.pos = lx->end;
}

/* ---- UTF-8 (RFC 3629: no overlongs, surrogates, nor > U+10FFFF) ---- */

static size_t utf8_first(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c < 0xC2)
		return 0;
	if (c < 0xE0)
		return 2;
	if (c < 0xF0)
		return 3;
	return c < 0xF5 ? 4 : 0;
}

/* Length of the valid sequence at p (before end), 0 if invalid. */
static size_t utf8_seq(const char *p, const char *end)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t n = utf8_first(s[0]);
	uint32_t v;

	if (n <= 1)
		return n;
	if ((size_t)(end - p) < n)
		return 0;
	v = s[0] & (0x7F >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3F);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && v < 0x10000) ||
	    v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	return n;
}

int jscan_utf8_valid(const char *s, size_t len)
{
	const char *end = s + len;

	while (s < end) {
		size_t n = (unsigned char)*s < 0x80 ? 1 : utf8_seq(s, end);

		if (!n)
			return 0;
		s += n;
	}
	return 1;
}

/*
 * The byte at p as jansson's stream would deliver it: -1 at the end,
 * -2 (error set, lexeme [lx->start, p)) where a byte does not start
 * valid UTF-8.
 */
static int peek(struct jscan *js, struct lexeme *lx, size_t p)
{
	unsigned char c;

	if (p >= js->len)
		return -1;
	c = (unsigned char)js->buf[p];
	if (c < 0x80 || utf8_seq(js->buf + p, js->buf + js->len))
		return c;
	lx->end = p;
	set_error(js, lx, 1, "unable to decode byte 0x%x", c);
	return -2;
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int hex_value(int c)
{
	if (is_ascii_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* ---- strings ---- */

/* Bytes a string holds as they are: printable ASCII but '"' and '\\'. */
static int plain_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

static unsigned hex4(const char *p)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++)
		v = v << 4 | (unsigned)hex_value((unsigned char)p[i]);
	return v;
}

/* What jansson finds wrong in a complete string's \u escapes, if any. */
struct surrogate_error {
	unsigned hi, lo;
	int n;			/* 0 none, 1 "\uHI", 2 "\uHI\uLO" */
};

/*
 * Reads the \uXXXX at p (after "\\u", hex already checked); returns how
 * many bytes past p the escape (and a low surrogate) ends.
 */
static size_t check_unicode(const char *p, const char *end,
			    struct surrogate_error *se, unsigned *flags)
{
	unsigned v = hex4(p), lo;

	if (!v)
		*flags |= LXF_NUL;
	if (v >= 0xDC00 && v <= 0xDFFF) {
		if (!se->n)
			*se = (struct surrogate_error){ v, 0, 1 };
		return 4;
	}
	if (v < 0xD800 || v > 0xDBFF)
		return 4;
	if (end - p < 10 || p[4] != '\\' || p[5] != 'u' ||
	    hex_value((unsigned char)p[6]) < 0 ||
	    hex_value((unsigned char)p[7]) < 0 ||
	    hex_value((unsigned char)p[8]) < 0 ||
	    hex_value((unsigned char)p[9]) < 0) {
		if (!se->n)
			*se = (struct surrogate_error){ v, 0, 1 };
		return 4;	/* a bad \u after it is reported by the caller */
	}
	lo = hex4(p + 6);
	if ((lo < 0xDC00 || lo > 0xDFFF) && !se->n)
		*se = (struct surrogate_error){ v, lo, 2 };
	return 10;
}

/* One escape after the backslash at p; returns the next offset or 0. */
static size_t lex_escape(struct jscan *js, struct lexeme *lx, size_t p,
			 struct surrogate_error *se)
{
	int c = peek(js, lx, p + 1);

	if (c == -2)
		return 0;
	if (c > 0 && strchr("\"\\/bfnrt", c))
		return p + 2;
	if (c != 'u') {
		lx->end = c < 0 ? p + 1 : p + 2;
		set_error(js, lx, 0, "invalid escape");
		return 0;
	}
	for (size_t i = 2; i < 6; i++) {
		c = peek(js, lx, p + i);
		if (c == -2)
			return 0;
		if (c < 0 || hex_value(c) < 0) {
			lx->end = c < 0 ? p + i : p + i + 1;
			set_error(js, lx, 0, "invalid escape");
			return 0;
		}
	}
	/* a surrogate pair is read as one character */
	return p + 2 + check_unicode(js->buf + p + 2, js->buf + js->len, se,
				     &lx->flags);
}

static int lex_string(struct jscan *js, struct lexeme *lx)
{
	const char *b = js->buf;
	size_t p = lx->start + 1, n = js->len, k;
	struct surrogate_error se = { 0, 0, 0 };

	for (;;) {
		while (p < n && plain_byte((unsigned char)b[p]))
			p++;
		if (p >= n) {
			lx->end = p;
			set_error(js, lx, 0, "premature end of input");
			return LX_INVALID;
		}
		if (b[p] == '"')
			break;
		if (b[p] == '\\') {
			lx->flags |= LXF_ESCAPED;
			p = lex_escape(js, lx, p, &se);
			if (!p)
				return LX_INVALID;
			continue;
		}
		if ((unsigned char)b[p] < 0x20) {
			lx->end = p;
			if (b[p] == '\n' || (!b[p] && js->nul_is_newline))
				set_error(js, lx, 0, "unexpected newline");
			else
				set_error(js, lx, 0, "control character 0x%x",
					  (unsigned)b[p]);
			return LX_INVALID;
		}
		k = utf8_seq(b + p, b + n);
		if (!k) {
			peek(js, lx, p);
			return LX_INVALID;
		}
		p += k;
	}
	lx->end = p + 1;
	if (se.n == 1)
		set_error(js, lx, 0, "invalid Unicode '\\u%04X'", se.hi);
	else if (se.n == 2)
		set_error(js, lx, 0, "invalid Unicode '\\u%04X\\u%04X'",
			  se.hi, se.lo);
	return se.n ? LX_INVALID : LX_STRING;
}

/* ---- numbers and words ---- */

static size_t skip_digits(const char *b, size_t p, size_t n)
{
	while (p < n && is_ascii_digit((unsigned char)b[p]))
		p++;
	return p;
}

/* Does the integer text (optional '-', no leading zero) fit int64? */
static int fits_int64(const char *s, size_t len)
{
	static const char max[] = "9223372036854775807";
	int neg = *s == '-';
	size_t digits = len - (size_t)neg;

	if (digits != sizeof(max) - 1)
		return digits < sizeof(max) - 1;
	if (memcmp(s + neg, max, digits) <= 0)
		return 1;
	return neg && !memcmp(s + 1, "9223372036854775808", digits);
}

static int lex_real(struct jscan *js, struct lexeme *lx, size_t p)
{
	const char *b = js->buf;
	int c = peek(js, lx, p);
	const char *s;
	double v;
	int st, exp = 0;

	if (c == '.') {
		c = peek(js, lx, ++p);
		if (!is_ascii_digit(c)) {
			lx->end = p;
			return LX_INVALID;
		}
		p = skip_digits(b, p, js->len);
		c = peek(js, lx, p);
	}
	if (c == 'e' || c == 'E') {
		exp = 1;
		c = peek(js, lx, ++p);
		if (c == '+' || c == '-')
			c = peek(js, lx, ++p);
		if (!is_ascii_digit(c)) {
			lx->end = p;
			return LX_INVALID;
		}
		p = skip_digits(b, p, js->len);
		c = peek(js, lx, p);
	}
	lx->end = p;
	if (c == -2)
		return LX_INVALID;
	if (p - lx->start > REAL_MAX) {
		set_error(js, lx, 0, "number too long");
		return LX_INVALID;
	}
	if (!exp)
		return LX_REAL;	/* cannot overflow: read when asked */
	s = b + lx->start;
	st = scan_double(&s, SCAN_ALLOW_SIGN, &v);
	if (st == SCAN_OVERFLOW) {
		set_error(js, lx, 0, "real number overflow");
		return LX_INVALID;
	}
	if (st != SCAN_OK || s != b + p)
		BUG("scan_double() disagrees with the JSON lexer");
	return LX_REAL;
}

static int lex_number(struct jscan *js, struct lexeme *lx)
{
	const char *b = js->buf;
	size_t p = lx->start;
	int c;

	if (b[p] == '-')
		p++;
	c = peek(js, lx, p);
	if (c == '0') {
		c = peek(js, lx, ++p);
		if (is_ascii_digit(c)) {
			lx->end = p;
			return LX_INVALID;
		}
	} else if (is_ascii_digit(c)) {
		p = skip_digits(b, p, js->len);
		c = peek(js, lx, p);
	} else {
		lx->end = p;
		return LX_INVALID;
	}
	if (c == '.' || c == 'e' || c == 'E')
		return lex_real(js, lx, p);
	lx->end = p;
	if (c == -2)
		return LX_INVALID;
	if (!fits_int64(b + lx->start, p - lx->start)) {
		set_error(js, lx, 0, b[lx->start] == '-' ?
			  "too big negative integer" : "too big integer");
		return LX_INVALID;
	}
	return LX_INTEGER;
}

static int lex_word(struct jscan *js, struct lexeme *lx)
{
	const char *w = js->buf + lx->start;
	size_t p = lx->start, n;

	while (p < js->len && is_alpha((unsigned char)js->buf[p]))
		p++;
	lx->end = p;
	if (peek(js, lx, p) == -2)
		return LX_INVALID;
	n = p - lx->start;
	if (n == 4 && !memcmp(w, "true", 4))
		return LX_TRUE;
	if (n == 5 && !memcmp(w, "false", 5))
		return LX_FALSE;
	if (n == 4 && !memcmp(w, "null", 4))
		return LX_NULL;
	return LX_INVALID;
}

/*
 * The common lexemes of machine-written JSON, read in one tight loop: a
 * string of printable ASCII without escapes, an integer or a plain
 * decimal of at most 18 digits.  Returns the kind, or 0 for "anything
 * else", which lex_string() and lex_number() then read in full (with
 * every check and message).
 */
static int lex_fast(const struct jscan *js, size_t p, size_t *end)
{
	static const unsigned char plain[256] = {	/* not '"' nor '\\' */
		[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7f] = 1,
	};
	const unsigned char *b = (const unsigned char *)js->buf;
	size_t n = js->len, start = p, digits;
	int real = 0;

	if (b[p] == '"') {
		for (p++; p < n && plain[b[p]]; p++)
			;
		if (p >= n || b[p] != '"')
			return 0;
		*end = p + 1;
		return LX_STRING;
	}
	if (b[p] == '-')
		p++;
	if (p >= n || !is_ascii_digit(b[p]) || (b[p] == '0' && p + 1 < n &&
					   is_ascii_digit(b[p + 1])))
		return 0;
	while (p < n && is_ascii_digit(b[p]))
		p++;
	digits = p - start;
	if (p < n && b[p] == '.') {
		size_t frac = ++p;

		while (p < n && is_ascii_digit(b[p]))
			p++;
		if (p == frac)
			return 0;
		digits += p - frac;
		real = 1;
	}
	if (digits > 18 || (p < n && (b[p] >= 0x80 || b[p] == 'e' ||
				      b[p] == 'E')))
		return 0;	/* long, an exponent, or UTF-8 to check */
	*end = p;
	return real ? LX_REAL : LX_INTEGER;
}

/* White space, and a NUL too in an input's arena (nul_is_newline). */
static inline size_t skip_space(const struct jscan *js, size_t p)
{
	static const unsigned char space[256] = {
		[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
	};
	const unsigned char *b = (const unsigned char *)js->buf;

	for (;; p++)
		if (!space[b[p]] && (b[p] || !js->nul_is_newline ||
				     p >= js->len))
			return p;
}

/* The next lexeme from *pos; advances *pos past it. */
static int lex(struct jscan *js, size_t *pos, struct lexeme *lx)
{
	const char *b = js->buf;
	size_t p = skip_space(js, *pos);
	unsigned char c;

	lx->start = lx->end = p;
	lx->flags = 0;
	if (p >= js->len)
		return lx->kind = LX_EOF;
	c = (unsigned char)b[p];
	switch (c) {	/* a jump table: this runs once per lexeme */
	case '{': case '}': case '[': case ']': case ':': case ',':
		lx->end = p + 1;
		lx->kind = c;
		break;
	case '"':
		lx->kind = lex_fast(js, p, &lx->end);
		if (!lx->kind)
			lx->kind = lex_string(js, lx);
		break;
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		lx->kind = lex_fast(js, p, &lx->end);
		if (!lx->kind)
			lx->kind = lex_number(js, lx);
		break;
	default:
		if (is_alpha(c)) {
			lx->kind = lex_word(js, lx);
		} else {
			size_t k = utf8_seq(b + p, b + js->len);

			if (!k)
				peek(js, lx, p);
			lx->end = p + k;
			lx->kind = LX_INVALID;
		}
	}
	*pos = lx->end;
	return lx->kind;
}

/* ---- integer maps ---- */


/*
 * How many digits there are at p (the buffer holds len bytes).  Eight at
 * a time where they fit: a byte is a digit when it is '0' ^ 0..9, and
 * adding 0x76 to the low seven bits of any other sets its top bit (no
 * carry crosses a byte) -- a JSON+ file's bins are a million digits.
 */
static inline size_t count_digits(const char *b, size_t p, size_t len)
{
	size_t q = p;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; q + 8 <= len; q += 8) {
		uint64_t x, t, other;

		memcpy(&x, b + q, sizeof(x));
		t = x ^ 0x3030303030303030ULL;
		other = (((t & 0x7f7f7f7f7f7f7f7fULL) + 0x7676767676767676ULL) |
			 t) & 0x8080808080808080ULL;
		if (other)
			return q - p + (size_t)(__builtin_ctzll(other) >> 3);
	}
#else
	(void)len;
#endif
	while (is_ascii_digit(b[q]))
		q++;
	return q - p;
}

/*
 * Reads the members of an integer map from p (just past its '{') in one
 * tight loop: returns how many, with *end past the '}', or 0 when the
 * object is anything else (the parser then reads it the ordinary way).
 * The buffer's terminating NUL stops every digit run and test.
 */
static size_t scan_int_map(const struct jscan *js, size_t p, size_t *end)
{
	const char *b = js->buf;
	size_t count = 0, d;

	/* White space is skipped only where there is some: fio writes
	 * "1012" : 2, and a line's end (a NUL in an input's arena) -- the
	 * skips were a third of reading a JSON+ file's bins. */
	for (;;) {
		if (!b[p] && js->nul_is_newline && p < js->len)
			p++;		/* the line's end */
		if (b[p] != '"')
			p = skip_space(js, p);
		if (b[p] != '"')
			return 0;
		p++;
		d = count_digits(b, p, js->len);	/* a key: 1 to 19 digits */
		if (!d || d > 19 || b[p + d] != '"')
			return 0;
		p += d + 1;
		if (b[p] == ' ' && b[p + 1] == ':') {
			p += 2;
		} else {
			p = skip_space(js, p);
			if (b[p] != ':')
				return 0;
			p++;
		}
		if (b[p] == ' ')
			p++;
		if (!is_ascii_digit(b[p]))
			p = skip_space(js, p);
		d = count_digits(b, p, js->len);	/* a value: < 10^18 */
		if (!d || d > 18 || (b[p] == '0' && d > 1))
			return 0;
		count++;
		p += d;
		if (b[p] != ',' && b[p] != '}')
			p = skip_space(js, p);
		if (b[p] == '}') {
			*end = p + 1;
			return count;
		}
		if (b[p] != ',')
			return 0;
		p++;
	}
}

/* The digits at *p (checked before: at most 19) as a number, *p moved
 * past them.  (Eight at a time was slower: most are 1 to 7 digits.) */
static uint64_t digits_value(const char *b, size_t *p)
{
	uint64_t v = 0;
	size_t q = *p;

	while (is_ascii_digit(b[q]))
		v = v * 10 + (uint64_t)(b[q++] - '0');
	*p = q;
	return v;
}

size_t jscan_int_map_read(const struct jscan *js, size_t i, uint64_t *keys,
			  uint64_t *values)
{
	const char *b = js->buf;
	size_t n, p;

	if (jscan_type(js, i) != JSCAN_INT_MAP)
		return 0;
	n = js->tok[i].len;
	p = js->tok[i].start + 1;	/* past the '{' */
	/* All in one loop (one call per member was a third of emitting a
	 * JSON+ file).  scan_int_map() checked it all: between the quotes,
	 * the colon, the digits and the comma there is only white space. */
	for (size_t k = 0; k < n; k++) {
		while (b[p] != '"')
			p++;
		p++;
		keys[k] = digits_value(b, &p);
		while (b[p] != ':')
			p++;
		while (!is_ascii_digit(b[p]))
			p++;
		values[k] = digits_value(b, &p);
	}
	return n;
}

/* Is the value about to be read that of a member named js->pack_key? */
static int wants_packing(const struct jscan *js, size_t depth)
{
	const struct jscan_tok *k;
	size_t n;

	if (!js->pack_key || !depth ||
	    js->tok[js->stack[depth - 1]].type != JSCAN_OBJECT)
		return 0;
	k = &js->tok[js->ntok - 1];	/* the member's key */
	n = strlen(js->pack_key);
	return k->len == n && !(k->flags & JSCAN_ESCAPED) &&
	       !memcmp(js->buf + k->start, js->pack_key, n);
}

/* ---- the parser ---- */

static size_t push(struct jscan *js, const struct lexeme *lx, int type)
{
	struct jscan_tok *t;

	ALLOC_GROW(js->tok, js->ntok + 1, js->alloc);
	t = &js->tok[js->ntok];
	t->start = (uint32_t)lx->start;
	t->len = (uint32_t)(lx->end - lx->start);
	if (type == JSCAN_STRING) {
		t->start++;
		t->len -= 2;
	} else if (type == JSCAN_OBJECT || type == JSCAN_ARRAY) {
		t->len = 0;
	}
	t->type = (uint8_t)type;
	t->flags = lx->flags & LXF_ESCAPED ? JSCAN_ESCAPED : 0;
	t->next = (uint32_t)(js->ntok + 1);
	return js->ntok++;
}

static int scalar_type(int kind)
{
	switch (kind) {
	case LX_STRING:
		return JSCAN_STRING;
	case LX_INTEGER:
		return JSCAN_INTEGER;
	case LX_REAL:
		return JSCAN_REAL;
	case LX_TRUE:
		return JSCAN_TRUE;
	case LX_FALSE:
		return JSCAN_FALSE;
	case LX_NULL:
		return JSCAN_NULL;
	}
	return JSCAN_INVALID;
}

enum parse_state { ST_VALUE, ST_KEY, ST_AFTER, ST_CLOSE };

struct parser {
	struct jscan *js;
	struct lexeme lx;
	size_t pos, depth;
};

static int fail(struct parser *ps, const char *msg)
{
	set_error(ps->js, &ps->lx, 0, "%s", msg);
	return -1;
}

/* A value starts at the current lexeme; returns the next state or -1. */
static int parse_value(struct parser *ps)
{
	struct jscan *js = ps->js;
	int kind = ps->lx.kind, type;
	size_t i;

	if (ps->depth >= JSCAN_MAX_DEPTH)
		return fail(ps, "maximum parsing depth reached");
	if (ps->depth && js->tok[js->stack[ps->depth - 1]].type == JSCAN_ARRAY)
		js->tok[js->stack[ps->depth - 1]].len++;
	if (kind == '{' && wants_packing(js, ps->depth)) {
		size_t end, n = scan_int_map(js, ps->lx.end, &end);

		if (n) {
			i = push(js, &ps->lx, JSCAN_INT_MAP);
			js->tok[i].len = (uint32_t)n;
			ps->pos = end;
			return ST_AFTER;
		}
	}
	if (kind == '{' || kind == '[') {
		i = push(js, &ps->lx, kind == '{' ? JSCAN_OBJECT : JSCAN_ARRAY);
		js->stack[ps->depth++] = (uint32_t)i;
		lex(js, &ps->pos, &ps->lx);
		if (ps->lx.kind == (kind == '{' ? '}' : ']'))
			return ST_CLOSE;	/* empty */
		if (kind == '{')
			return ST_KEY;
		return ps->lx.kind == LX_EOF ? fail(ps, "']' expected") :
		       ST_VALUE;
	}
	type = scalar_type(kind);
	if (type == JSCAN_INVALID)
		return fail(ps, kind == LX_INVALID ? "invalid token" :
				"unexpected token");
	if (ps->lx.flags & LXF_NUL)
		return fail(ps, "\\u0000 is not allowed without "
				"JSON_ALLOW_NUL");
	push(js, &ps->lx, type);
	return ST_AFTER;
}

static int parse_key(struct parser *ps)
{
	struct jscan *js = ps->js;

	if (ps->lx.kind != LX_STRING)
		return fail(ps, "string or '}' expected");
	if (ps->lx.flags & LXF_NUL)
		return fail(ps, "NUL byte in object key not supported");
	js->tok[js->stack[ps->depth - 1]].len++;
	push(js, &ps->lx, JSCAN_STRING);
	if (lex(js, &ps->pos, &ps->lx) != ':')
		return fail(ps, "':' expected");
	lex(js, &ps->pos, &ps->lx);
	return ST_VALUE;
}

/* After a value inside a container: ',' or the closing bracket. */
static int parse_after(struct parser *ps)
{
	struct jscan *js = ps->js;
	int obj = js->tok[js->stack[ps->depth - 1]].type == JSCAN_OBJECT;

	if (lex(js, &ps->pos, &ps->lx) == ',') {
		lex(js, &ps->pos, &ps->lx);
		if (obj)
			return ST_KEY;
		return ps->lx.kind == LX_EOF ? fail(ps, "']' expected") :
		       ST_VALUE;
	}
	if (ps->lx.kind != (obj ? '}' : ']'))
		return fail(ps, obj ? "'}' expected" : "']' expected");
	return ST_CLOSE;
}

/* One step of the loop: the next state, or -1 at an error. */
static int parse_step(struct parser *ps, int state)
{
	size_t top;

	if (state == ST_VALUE)
		return parse_value(ps);
	if (state == ST_KEY)
		return parse_key(ps);
	if (state == ST_AFTER)
		return parse_after(ps);
	top = ps->js->stack[--ps->depth];	/* ST_CLOSE: the container
						 * on top */
	ps->js->tok[top].next = (uint32_t)ps->js->ntok;
	return ST_AFTER;
}

static size_t line_of(const struct jscan *js, size_t from, size_t pos)
{
	size_t line = 1;

	for (size_t p = from; p < pos; p++)
		line += js->buf[p] == '\n' ||
			(!js->buf[p] && js->nul_is_newline);
	return line;
}

/* ---- a helper thread from a guessed element start ---- */

/*
 * The elements of an array read from `split` on, by another thread, into
 * a reader of its own: token 0 stands for the array they are in, and
 * reading stops at the ']' that closes it.
 */
struct split_helper {
	struct jscan h;
	size_t split;
	pthread_t thread;
	int running;
	int ok;			/* read up to the array's ']' */
	size_t max_depth;	/* the deepest a value was read at */
	struct lexeme close;	/* that ']' */
	size_t pos;		/* just past it */
};

static void *read_elements(void *arg)
{
	struct split_helper *sh = arg;
	struct parser ps = { .js = &sh->h, .pos = sh->split, .depth = 1 };
	struct lexeme open = { '[', 0, sh->split, sh->split + 1 };
	int state = ST_VALUE;

	sh->h.stack[0] = (uint32_t)push(&sh->h, &open, JSCAN_ARRAY);
	lex(&sh->h, &ps.pos, &ps.lx);
	while (state >= 0) {
		if (state == ST_VALUE && ps.depth > sh->max_depth)
			sh->max_depth = ps.depth;
		if (state == ST_CLOSE && ps.depth == 1)
			break;		/* the array's ']' */
		state = parse_step(&ps, state);
	}
	sh->ok = state == ST_CLOSE;
	sh->close = ps.lx;
	sh->pos = ps.pos;
	return NULL;
}

/* The helper reading from split, or NULL when no thread could start
 * (then one thread reads it all, as jscan_parse() does). */
static struct split_helper *split_start(const struct jscan *js, size_t split)
{
	struct split_helper *sh = xcalloc(1, sizeof(*sh));

	jscan_init(&sh->h, js->buf, js->len);
	sh->h.nul_is_newline = js->nul_is_newline;
	sh->h.pack_key = js->pack_key;
	sh->h.copy_strings = js->copy_strings;
	sh->split = split;
	sh->running = !pthread_create(&sh->thread, NULL, read_elements, sh);
	if (!sh->running) {
		free(sh);
		return NULL;
	}
	return sh;
}

static void split_wait(struct split_helper *sh)
{
	if (sh->running)
		pthread_join(sh->thread, NULL);
	sh->running = 0;
}

static void split_end(struct split_helper *sh)
{
	if (!sh)
		return;
	split_wait(sh);
	jscan_release(&sh->h);
	free(sh);
}

/*
 * The parse ps, about to read a value at the helper's split, takes the
 * helper's tokens for it and every element after, and goes on at the
 * array's ']' (ST_CLOSE): 1.  0 when the value is not an array's element,
 * when the helper stopped at an error or would have read deeper than the
 * limit from here: ps reads on itself, as a parse without a helper does.
 */
static int splice(struct parser *ps, struct split_helper *sh)
{
	struct jscan *js = ps->js;
	size_t base = js->ntok, n, array;

	if (!ps->depth ||
	    js->tok[js->stack[ps->depth - 1]].type != JSCAN_ARRAY)
		return 0;
	split_wait(sh);
	if (!sh->ok || ps->depth - 1 + sh->max_depth >= JSCAN_MAX_DEPTH)
		return 0;
	n = sh->h.ntok - 1;		/* (token 0 is the array) */
	array = js->stack[ps->depth - 1];
	ALLOC_GROW(js->tok, base + n, js->alloc);
	memcpy(js->tok + base, sh->h.tok + 1, n * sizeof(*js->tok));
	for (size_t i = base; i < base + n; i++)
		js->tok[i].next += (uint32_t)(base - 1);
	js->ntok = base + n;
	js->tok[array].len += sh->h.tok[0].len;
	js->split_taken = n;
	ps->lx = sh->close;
	ps->pos = sh->pos;
	return 1;
}

/* jscan_parse(), or with any_value jscan_parse_value(); with sh, the
 * helper's tokens are taken where they fit (splice()). */
static int parse_from(struct jscan *js, size_t at, size_t *root,
		      int any_value, struct split_helper *sh)
{
	struct parser ps = { .js = js, .pos = at, .depth = 0 };
	size_t base = js->ntok;
	int state;

	js->err.text[0] = '\0';
	if (js->len >= UINT32_MAX) {
		ps.lx.start = ps.lx.end = at;
		state = fail(&ps, "input too large");
	} else if (lex(js, &ps.pos, &ps.lx) != '{' && ps.lx.kind != '[' &&
		   !any_value) {
		state = fail(&ps, "'[' or '{' expected");
	} else {
		state = ST_VALUE;
	}
	while (state >= 0 && (state != ST_AFTER || ps.depth)) {
		if (state == ST_VALUE && sh && ps.lx.start == sh->split &&
		    splice(&ps, sh)) {
			state = ST_CLOSE;
			sh = NULL;	/* (taken once) */
		}
		state = parse_step(&ps, state);
	}
	if (state < 0) {
		js->ntok = base;
		js->split_taken = 0;	/* (dropped with the rest) */
		js->err.line = line_of(js, at, js->err.pos);
		return -1;
	}
	js->end = ps.lx.end;
	*root = base;
	return 0;
}

int jscan_parse(struct jscan *js, size_t at, size_t *root)
{
	return parse_from(js, at, root, 0, NULL);
}

int jscan_parse_value(struct jscan *js, size_t at, size_t *root)
{
	return parse_from(js, at, root, 1, NULL);
}

int jscan_parse_split(struct jscan *js, size_t at, size_t split,
		      size_t *root)
{
	struct split_helper *sh;
	int rc;

	js->split_taken = 0;
	if (split <= at || split >= js->len || js->len >= UINT32_MAX)
		return parse_from(js, at, root, 0, NULL);
	sh = split_start(js, split);
	rc = parse_from(js, at, root, 0, sh);
	split_end(sh);
	return rc;
}

/* ---- lookups ---- */

static const struct jscan_tok *tok_of(const struct jscan *js, size_t i,
				      int type)
{
	if (i >= js->ntok || (type && js->tok[i].type != type))
		return NULL;
	return &js->tok[i];
}

enum jscan_type jscan_type(const struct jscan *js, size_t i)
{
	return i < js->ntok ? (enum jscan_type)js->tok[i].type :
	       JSCAN_INVALID;
}

size_t jscan_size(const struct jscan *js, size_t i)
{
	int t = jscan_type(js, i);

	return t == JSCAN_OBJECT || t == JSCAN_ARRAY || t == JSCAN_INT_MAP ?
	       js->tok[i].len : 0;
}

size_t jscan_first(const struct jscan *js, size_t c)
{
	int t = jscan_type(js, c);

	return (t == JSCAN_OBJECT || t == JSCAN_ARRAY) && js->tok[c].len ?
	       c + 1 : JSCAN_NONE;
}

size_t jscan_next(const struct jscan *js, size_t c, size_t k)
{
	size_t n = js->tok[k].next;

	if (js->tok[c].type == JSCAN_OBJECT)
		n = js->tok[k + 1].next;	/* past the value */
	return n < js->tok[c].next ? n : JSCAN_NONE;
}

size_t jscan_at(const struct jscan *js, size_t arr, size_t k)
{
	size_t i;

	if (!tok_of(js, arr, JSCAN_ARRAY) || k >= js->tok[arr].len)
		return JSCAN_NONE;
	for (i = arr + 1; k--; i = js->tok[i].next)
		;
	return i;
}

/*
 * Decodes the escapes of n bytes at src into dst (dst <= src allowed:
 * the output is never longer); returns the decoded length.  The escapes
 * were checked by the lexer.
 */
static size_t decode(const char *src, size_t n, char *dst)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	size_t o = 0;

	for (size_t p = 0; p < n; p++) {
		uint32_t v;

		if (src[p] != '\\') {
			dst[o++] = src[p];
			continue;
		}
		if (src[++p] != 'u') {
			dst[o++] = to[strchr(from, src[p]) - from];
			continue;
		}
		v = hex4(src + p + 1);
		p += 4;
		if (v >= 0xD800 && v <= 0xDBFF) {
			v = 0x10000 + ((v - 0xD800) << 10) +
			    (hex4(src + p + 3) - 0xDC00);
			p += 6;
		}
		if (v < 0x80) {
			dst[o++] = (char)v;
		} else if (v < 0x800) {
			dst[o++] = (char)(0xC0 | v >> 6);
			dst[o++] = (char)(0x80 | (v & 0x3F));
		} else if (v < 0x10000) {
			dst[o++] = (char)(0xE0 | v >> 12);
			dst[o++] = (char)(0x80 | (v >> 6 & 0x3F));
			dst[o++] = (char)(0x80 | (v & 0x3F));
		} else {
			dst[o++] = (char)(0xF0 | v >> 18);
			dst[o++] = (char)(0x80 | (v >> 12 & 0x3F));
			dst[o++] = (char)(0x80 | (v >> 6 & 0x3F));
			dst[o++] = (char)(0x80 | (v & 0x3F));
		}
	}
	return o;
}

const char *jscan_str(struct jscan *js, size_t i)
{
	struct jscan_tok *t;
	char *s;

	if (!tok_of(js, i, JSCAN_STRING))
		return NULL;
	t = &js->tok[i];
	s = js->buf + t->start;
	if (js->copy_strings && !(t->flags & JSCAN_TERMINATED)) {
		char *copy = store_alloc(js, (size_t)t->len + 1);
		size_t n = t->len;

		if (t->flags & JSCAN_ESCAPED)
			n = decode(s, t->len, copy);
		else
			memcpy(copy, s, n);
		copy[n] = '\0';
		return copy;
	}
	if (!(t->flags & JSCAN_TERMINATED)) {
		if (t->flags & JSCAN_ESCAPED)
			t->len = (uint32_t)decode(s, t->len, s);
		s[t->len] = '\0';
		t->flags = JSCAN_TERMINATED;
	}
	return s;
}

int jscan_str_eq(struct jscan *js, size_t i, const char *key, size_t len)
{
	const struct jscan_tok *t = tok_of(js, i, JSCAN_STRING);

	if (!t)
		return 0;
	if (!(t->flags & JSCAN_ESCAPED))
		return t->len == len && !memcmp(js->buf + t->start, key, len);
	if (t->len < len)
		return 0;	/* decoding never lengthens */
	ALLOC_GROW(js->scratch, t->len + 1, js->scratch_alloc);
	return decode(js->buf + t->start, t->len, js->scratch) == len &&
	       !memcmp(js->scratch, key, len);
}

static uint32_t hash_key(const char *s, size_t n)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Every member compared: the last one with the key wins. */
static size_t get_linear(struct jscan *js, size_t obj, const char *key,
			 size_t len)
{
	size_t found = JSCAN_NONE;

	for (size_t k = jscan_first(js, obj); k != JSCAN_NONE;
	     k = jscan_next(js, obj, k)) {
		const struct jscan_tok *t = &js->tok[k];

		/* most keys differ in length: skip them without a call */
		if (!(t->flags & JSCAN_ESCAPED) && t->len != len)
			continue;
		if (jscan_str_eq(js, k, key, len))
			found = k + 1;	/* the last one wins */
	}
	return found;
}

/*
 * Builds the hash index of obj in entry x: slots hold the key token of
 * each distinct key, the later of duplicates replacing the earlier.
 * Returns -1 (x then says so, mask 0) when a key holds escapes: hashing it
 * would need it decoded, and such objects are left to get_linear().
 */
static int build_index(struct jscan *js, struct jscan_index *x, size_t obj)
{
	size_t n = js->tok[obj].len, mask = 7;

	while (mask + 1 < 2 * n)
		mask = 2 * mask + 1;
	ALLOC_GROW(x->slots, mask + 1, x->alloc);
	memset(x->slots, 0xff, (mask + 1) * sizeof(*x->slots));
	x->obj = UINT32_MAX;
	for (size_t k = jscan_first(js, obj); k != JSCAN_NONE;
	     k = jscan_next(js, obj, k)) {
		const struct jscan_tok *t = &js->tok[k];
		const char *s = js->buf + t->start;
		size_t h;

		if (t->flags & JSCAN_ESCAPED) {
			x->obj = (uint32_t)obj;	/* remembered: no retry */
			x->mask = 0;
			return -1;
		}
		for (h = hash_key(s, t->len) & mask;
		     x->slots[h] != UINT32_MAX; h = (h + 1) & mask) {
			const struct jscan_tok *o = &js->tok[x->slots[h]];

			if (o->len == t->len && !memcmp(js->buf + o->start, s,
							t->len))
				break;
		}
		x->slots[h] = (uint32_t)k;
	}
	x->obj = (uint32_t)obj;
	x->mask = (uint32_t)mask;
	return 0;
}

static struct jscan_index *find_index(struct jscan *js, size_t obj)
{
	struct jscan_index *x;

	for (size_t i = 0; i < NINDEX; i++)
		if (js->index[i].obj == obj)	/* mask 0: keys with escapes */
			return js->index[i].mask ? &js->index[i] : NULL;
	x = &js->index[js->index_next];
	js->index_next = (js->index_next + 1) % NINDEX;
	return build_index(js, x, obj) ? NULL : x;
}

/*
 * Parsers ask one object for many keys in a row (fio: some 40 per
 * direction of a job), so an object of more than a few members gets a
 * hash index on the first lookup, kept for the next ones.
 */
size_t jscan_get(struct jscan *js, size_t obj, const char *key)
{
	size_t len = strlen(key), h;
	struct jscan_index *x;

	if (!tok_of(js, obj, JSCAN_OBJECT))
		return JSCAN_NONE;
	if (js->tok[obj].len <= 4 || !(x = find_index(js, obj)))
		return get_linear(js, obj, key, len);
	for (h = hash_key(key, len) & x->mask; x->slots[h] != UINT32_MAX;
	     h = (h + 1) & x->mask) {
		const struct jscan_tok *t = &js->tok[x->slots[h]];

		if (t->len == len && !memcmp(js->buf + t->start, key, len))
			return x->slots[h] + 1;
	}
	return JSCAN_NONE;
}

size_t jscan_members(struct jscan *js, size_t obj,
		     const struct jscan_member **out)
{
	size_t n = jscan_size(js, obj), count = 0, mask = 1;

	*out = js->members;
	if (!tok_of(js, obj, JSCAN_OBJECT) || !n)
		return 0;
	while (mask < 2 * n)
		mask <<= 1;
	ALLOC_GROW(js->members, n, js->members_alloc);
	ALLOC_GROW(js->slots, mask, js->slots_alloc);
	memset(js->slots, 0xff, mask * sizeof(*js->slots));
	mask--;
	for (size_t k = jscan_first(js, obj); k != JSCAN_NONE;
	     k = jscan_next(js, obj, k)) {
		/* where it is, when it needs no decoding (copy_strings);
		 * decoded, a key holds no NUL (the parser refused it) */
		int copied = js->copy_strings &&
			     (js->tok[k].flags & JSCAN_ESCAPED);
		const char *key = js->copy_strings && !copied ?
				  js->buf + js->tok[k].start : jscan_str(js, k);
		size_t len = copied ? strlen(key) : js->tok[k].len;
		size_t s = hash_key(key, len) & mask;

		for (; js->slots[s] != UINT32_MAX; s = (s + 1) & mask)
			if (jscan_str_eq(js, js->members[js->slots[s]].key,
					 key, len))
				break;
		if (js->slots[s] == UINT32_MAX) {
			js->slots[s] = (uint32_t)count;
			js->members[count++].key = (uint32_t)k;
		}
		js->members[js->slots[s]].value = (uint32_t)(k + 1);
	}
	*out = js->members;
	return count;
}

int jscan_num(const struct jscan *js, size_t i, double *out)
{
	const struct jscan_tok *t = tok_of(js, i, 0);
	const char *s;

	*out = 0;
	if (!t || (t->type != JSCAN_INTEGER && t->type != JSCAN_REAL))
		return 0;
	if (t->type == JSCAN_INTEGER) {
		*out = (double)jscan_int(js, i);
		return 1;
	}
	s = js->buf + t->start;
	return scan_double(&s, SCAN_ALLOW_SIGN, out) == SCAN_OK;
}

int64_t jscan_int(const struct jscan *js, size_t i)
{
	const struct jscan_tok *t = tok_of(js, i, JSCAN_INTEGER);
	const char *s;
	uint64_t v = 0;

	if (!t)
		return 0;
	s = js->buf + t->start;
	for (size_t p = *s == '-'; p < t->len; p++)
		v = v * 10 + (uint64_t)(s[p] - '0');
	/* fits_int64() checked the range: -2^63 wraps to itself */
	return *s == '-' ? (int64_t)(0 - v) : (int64_t)v;
}
