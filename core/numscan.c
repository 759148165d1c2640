/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Number scanning; see numscan.h.  The digits are validated here and copied
 * into a small buffer with '.' as the decimal mark, then converted with
 * strtod_l() in the "C" locale, so the user's LC_NUMERIC never matters.
 */
#define _GNU_SOURCE
#include "numscan.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NUMBER_CHARS 64

static locale_t c_loc;

static void make_c_locale(void)
{
	c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* Made once, whichever thread asks first. */
static locale_t c_locale(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, make_c_locale);
	return c_loc;
}

static size_t count_digits(const char *s)
{
	size_t n = 0;

	while (is_ascii_digit(s[n]))
		n++;
	return n;
}

/* Length of an exponent ("e-5") at s, 0 when there is none. */
static size_t exponent_len(const char *s)
{
	size_t n = 1, d;

	if (*s != 'e' && *s != 'E')
		return 0;
	if (s[n] == '+' || s[n] == '-')
		n++;
	d = count_digits(s + n);
	return d ? n + d : 0;
}

static int is_decimal_mark(char c, unsigned flags)
{
	return c == '.' || (c == ',' && (flags & SCAN_COMMA_DECIMAL));
}

/*
 * Clinger's fast path: a decimal of at most 15 digits and no exponent is
 * an integer below 2^53 divided by a power of ten up to 10^15, both
 * exact doubles, so one IEEE division rounds it exactly as strtod()
 * would.  Returns 0 and *out, or -1 for the others.
 */
static int small_decimal(const char *s, size_t intd, size_t fracd, int neg,
			 double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15,
	};
	uint64_t m = 0;
	double v;

	if (intd + fracd > 15)
		return -1;
	for (size_t i = 0; i < intd; i++)
		m = m * 10 + (uint64_t)(s[i] - '0');
	for (size_t i = 0; i < fracd; i++)
		m = m * 10 + (uint64_t)(s[intd + 1 + i] - '0');
	v = (double)m / pow10[fracd];
	*out = neg ? -v : v;
	return 0;
}

int scan_double(const char **p, unsigned flags, double *out)
{
	const char *s = *p, *start = s;
	char buf[MAX_NUMBER_CHARS + 1];
	size_t n, intd, fracd = 0, len, elen = 0;
	double v;

	if (*s == '+' || *s == '-') {
		if (!(flags & SCAN_ALLOW_SIGN))
			return is_ascii_digit(s[1]) || s[1] == '.' ?
			       SCAN_NEGATIVE : SCAN_NO_DIGITS;
		s++;
	}
	intd = count_digits(s);
	s += intd;
	if (is_decimal_mark(*s, flags) && is_ascii_digit(s[1])) {
		fracd = count_digits(s + 1);
		s += 1 + fracd;
	}
	if (!intd && !fracd)
		return SCAN_NO_DIGITS;
	if (!(flags & SCAN_NO_EXPONENT))
		elen = exponent_len(s);
	if (!elen && !small_decimal(s - intd - (fracd ? fracd + 1 : 0), intd,
				    fracd, *start == '-', out)) {
		*p = s;
		return SCAN_OK;
	}
	s += elen;
	len = (size_t)(s - start);
	if (len > MAX_NUMBER_CHARS)
		return SCAN_TOO_LONG;
	memcpy(buf, start, len);
	buf[len] = '\0';
	for (n = 0; n < len; n++)
		if (buf[n] == ',')
			buf[n] = '.';
	errno = 0;
	v = strtod_l(buf, NULL, c_locale());
	if (errno == ERANGE && isinf(v))
		return SCAN_OVERFLOW;
	*out = v;
	*p = s;
	return SCAN_OK;
}

int scan_u64(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (!is_ascii_digit(*s))
		return *s == '-' ? SCAN_NEGATIVE : SCAN_NO_DIGITS;
	for (; is_ascii_digit(*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return SCAN_OVERFLOW;
		v = v * 10 + d;
	}
	*out = v;
	*p = s;
	return SCAN_OK;
}

const char *scan_strerror(int status)
{
	switch (status) {
	case SCAN_OK:
		return "ok";
	case SCAN_NO_DIGITS:
		return "expected a number";
	case SCAN_OVERFLOW:
		return "number out of range";
	case SCAN_TOO_LONG:
		return "number too long";
	case SCAN_NEGATIVE:
		return "unexpected sign";
	}
	return "unknown scan status";
}

const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int skip_prefix(const char **p, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(*p, word, n))
		return 0;
	*p += n;
	return 1;
}

int skip_prefix_icase(const char **p, const char *word)
{
	size_t n = strlen(word);

	if (strncasecmp(*p, word, n))
		return 0;
	*p += n;
	return 1;
}

int starts_with(const char *s, const char *prefix)
{
	/* a loop, not strncmp(strlen()): most calls fail at the first byte */
	for (; *prefix; s++, prefix++)
		if (*s != *prefix)
			return 0;
	return 1;
}

int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

int str_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}
