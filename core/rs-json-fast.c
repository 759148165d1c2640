/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A storan/1 measurement in one pass; see rs-json-fast.h.  json-scan
 * made a token of every string and number, an index of every object's
 * keys, and the reader then looked each field up by name: two thirds of
 * reading a million measurements.  Here the text is walked once, each
 * value read where it stands.
 */
#include "rs-json-fast.h"
#include "numscan.h"
#include "xalloc.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REAL_MAX 64		/* json-scan's "number too long" */
#define INTEGER_DIGITS_MAX 18	/* surely an int64 (json-scan's type) */

#define span fast_span

struct cursor {
	const char *b;
	size_t len, pos;
	struct span str[FAST_NSTRINGS];	/* spans of b until copied */
	struct fast_measurement *f;	/* its spans hold the labels */
	size_t nlabels;
};

static void skip_blanks(struct cursor *c)
{
	while (c->pos < c->len && (c->b[c->pos] == ' ' ||
				   c->b[c->pos] == '\n' ||
				   c->b[c->pos] == '\t' ||
				   c->b[c->pos] == '\r'))
		c->pos++;
}

/* Is the next character, after blanks, ch?  Then it is taken. */
static int take(struct cursor *c, char ch)
{
	skip_blanks(c);
	if (c->pos >= c->len || c->b[c->pos] != ch)
		return 0;
	c->pos++;
	return 1;
}

/* A string with no escape and no byte outside printable ASCII. */
static int read_string(struct cursor *c, struct span *s)
{
	size_t p;

	if (!take(c, '"'))
		return -1;
	for (p = c->pos; p < c->len && c->b[p] != '"'; p++) {
		unsigned char ch = (unsigned char)c->b[p];

		if (ch < 0x20 || ch > 0x7e || ch == '\\')
			return -1;
	}
	if (p >= c->len)
		return -1;
	s->p = c->b + c->pos;
	s->n = p - c->pos;
	c->pos = p + 1;
	return 0;
}

static size_t digits_at(const struct cursor *c, size_t p)
{
	size_t from = p;

	while (p < c->len && is_ascii_digit(c->b[p]))
		p++;
	return p - from;
}

/*
 * The extent of a JSON number at c->pos: its length, whether it is an
 * integer (no fraction, no exponent), and whether a digit other than 0
 * comes before any exponent.  0: not a number.
 */
static size_t number_extent(const struct cursor *c, int *integer,
			    int *nonzero)
{
	size_t p = c->pos, d;

	*nonzero = 0;
	if (p < c->len && c->b[p] == '-')
		p++;
	d = digits_at(c, p);
	if (!d || (c->b[p] == '0' && d > 1))
		return 0;
	for (size_t i = 0; i < d; i++)
		*nonzero |= c->b[p + i] != '0';
	p += d;
	*integer = 1;
	if (p < c->len && c->b[p] == '.') {
		d = digits_at(c, ++p);
		if (!d)
			return 0;
		for (size_t i = 0; i < d; i++)
			*nonzero |= c->b[p + i] != '0';
		p += d;
		*integer = 0;
	}
	if (p < c->len && (c->b[p] == 'e' || c->b[p] == 'E')) {
		p++;
		if (p < c->len && (c->b[p] == '+' || c->b[p] == '-'))
			p++;
		d = digits_at(c, p);
		if (!d)
			return 0;
		p += d;
		*integer = 0;
	}
	return p - c->pos;
}

/* A finite number that keeps its digits (see get_finite()). */
static int read_number(struct cursor *c, double *out)
{
	int integer, nonzero;
	size_t n;
	const char *s;

	skip_blanks(c);
	n = number_extent(c, &integer, &nonzero);
	if (!n || n > REAL_MAX ||
	    (integer && n - (c->b[c->pos] == '-') > INTEGER_DIGITS_MAX))
		return -1;
	s = c->b + c->pos;
	if (scan_double(&s, SCAN_ALLOW_SIGN, out) != SCAN_OK ||
	    s != c->b + c->pos + n || !isfinite(*out) ||
	    (fabs(*out) < DBL_MIN && nonzero))
		return -1;
	c->pos += n;
	return 0;
}

/* An integer of json-scan's type, not negative. */
static int read_count(struct cursor *c, uint64_t *out)
{
	int integer, nonzero;
	size_t n;

	skip_blanks(c);
	n = number_extent(c, &integer, &nonzero);
	if (!n || !integer || c->b[c->pos] == '-' || n > INTEGER_DIGITS_MAX)
		return -1;
	*out = 0;
	for (size_t i = 0; i < n; i++)
		*out = *out * 10 + (uint64_t)(c->b[c->pos + i] - '0');
	c->pos += n;
	return 0;
}

static int is_null(struct cursor *c)
{
	skip_blanks(c);
	if (c->len - c->pos < 4 || memcmp(c->b + c->pos, "null", 4))
		return 0;
	c->pos += 4;
	return 1;
}

static int read_values(struct cursor *c, struct fast_measurement *f)
{
	double v;

	if (!take(c, '['))
		return -1;
	f->has_values = 1;
	if (take(c, ']'))
		return 0;
	do {
		if (read_number(c, &v))
			return -1;
		ALLOC_GROW(f->values, f->nvalues + 1, f->values_alloc);
		f->values[f->nvalues++] = v;
	} while (take(c, ','));
	return take(c, ']') ? 0 : -1;
}

static int label_seen(const struct cursor *c, const struct span *k)
{
	const struct span *key = c->f->key_span;

	for (size_t i = 0; i < c->nlabels; i++)
		if (key[i].n == k->n && !memcmp(key[i].p, k->p, k->n))
			return 1;
	return 0;
}

/* An object: each member's key read here, its value by member(). */
static int read_members(struct cursor *c,
			int (*member)(struct cursor *, const struct span *,
				      void *),
			void *arg)
{
	struct span k;

	if (!take(c, '{'))
		return -1;
	if (take(c, '}'))
		return 0;
	do {
		if (read_string(c, &k) || !take(c, ':') || member(c, &k, arg))
			return -1;
	} while (take(c, ','));
	return take(c, '}') ? 0 : -1;
}

/* A label: a string value, its key not seen before. */
static int label_member(struct cursor *c, const struct span *k, void *arg)
{
	struct fast_measurement *f = c->f;
	struct span v;

	(void)arg;
	/* more than a set holds: the general reader says so (and a million
	 * labels were a trillion comparisons in label_seen()) */
	if (c->nlabels >= LABELS_INPUT_MAX || read_string(c, &v) ||
	    label_seen(c, k))
		return -1;
	if (c->nlabels == f->spans_alloc) {
		f->spans_alloc = f->spans_alloc ? 2 * f->spans_alloc : 16;
		f->key_span = xrealloc(f->key_span, f->spans_alloc *
				       sizeof(*f->key_span));
		f->value_span = xrealloc(f->value_span, f->spans_alloc *
					 sizeof(*f->value_span));
	}
	f->key_span[c->nlabels] = *k;
	f->value_span[c->nlabels++] = v;
	return 0;
}

enum field {
	F_TOOL, F_OP, F_METRIC, F_UNIT, F_SOURCE_NAME,	/* = enum fast_string */
	F_VALUES, F_LABELS, F_SOURCE, F_LINE, F_COUNT
};

static const char *const field_name[F_COUNT] = {
	"tool", "op", "metric", "unit", "source_name", "values", "labels",
	"source", "line",
};

static int field_of(const struct span *k)
{
	for (int i = 0; i < F_COUNT; i++)
		if (strlen(field_name[i]) == k->n &&
		    !memcmp(field_name[i], k->p, k->n))
			return i;
	return -1;
}

static int read_field(struct cursor *c, struct fast_measurement *f,
		      int field)
{
	switch (field) {
	case F_VALUES:
		return read_values(c, f);
	case F_LABELS:
		return read_members(c, label_member, NULL);
	case F_SOURCE:
		f->has_source = 1;
		return read_count(c, &f->source);
	case F_LINE:
		f->has_line = 1;
		return read_count(c, &f->line);
	default:	/* a string, or null for none */
		if (is_null(c))
			return 0;
		return read_string(c, &c->str[field]);
	}
}

/* A field of the measurement, each at most once (seen: a bit each). */
static int field_member(struct cursor *c, const struct span *k, void *arg)
{
	unsigned *seen = arg;
	int field = field_of(k);

	if (field < 0 || (*seen & (1u << field)))
		return -1;
	*seen |= 1u << field;
	return read_field(c, c->f, field);
}

/* s copied to f->text at *at, NUL-terminated (NULL: none). */
static const char *copy_span(struct fast_measurement *f, size_t *at,
			     const struct span *s)
{
	char *to = f->text + *at;

	if (!s->p)
		return NULL;
	memcpy(to, s->p, s->n);
	to[s->n] = '\0';
	*at += s->n + 1;
	return to;
}

/* Each string copied once, into one block (room made first: the
 * pointers into it stay valid). */
static void copy_strings(const struct cursor *c, struct fast_measurement *f)
{
	size_t need = 1, at = 0;

	for (int i = 0; i < FAST_NSTRINGS; i++)
		need += c->str[i].p ? c->str[i].n + 1 : 0;
	for (size_t i = 0; i < c->nlabels; i++)
		need += f->key_span[i].n + f->value_span[i].n + 2;
	ALLOC_GROW(f->text, need, f->text_alloc);
	ALLOC_GROW(f->labels, c->nlabels + 1, f->labels_alloc);
	for (int i = 0; i < FAST_NSTRINGS; i++)
		f->str[i] = copy_span(f, &at, &c->str[i]);
	for (size_t i = 0; i < c->nlabels; i++) {
		f->labels[i].key = copy_span(f, &at, &f->key_span[i]);
		f->labels[i].value = copy_span(f, &at, &f->value_span[i]);
	}
	f->nlabels = c->nlabels;
}

void fast_measurement_init(struct fast_measurement *f)
{
	memset(f, 0, sizeof(*f));
}

void fast_measurement_release(struct fast_measurement *f)
{
	free(f->values);
	free(f->labels);
	free(f->key_span);
	free(f->value_span);
	free(f->text);
	memset(f, 0, sizeof(*f));
}

int fast_measurement_read(struct fast_measurement *f, const char *buf,
			  size_t len, size_t pos, size_t *end)
{
	struct cursor c = { .b = buf, .len = len, .pos = pos, .f = f };
	unsigned seen = 0;

	f->has_values = f->has_source = f->has_line = 0;
	f->nvalues = f->nlabels = 0;
	f->source = f->line = 0;
	if (read_members(&c, field_member, &seen))
		return -1;
	copy_strings(&c, f);
	*end = c.pos;
	return 0;
}
