/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Number scanning; see numscan.h.  The digits are validated here and copied
 * into a small buffer with '.' as the decimal mark, then converted with
 * strtod_l() in the "C" locale, so the user's LC_NUMERIC never matters.
 */
#define _GNU_SOURCE
#include "numscan.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
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

/* count_digits(), the digits' value going on from *m (which wraps past
 * 19 digits in all: clinger() takes no more). */
static size_t read_digits(const char *s, uint64_t *m)
{
	size_t n = 0;

	for (; is_ascii_digit(s[n]); n++)
		*m = *m * 10 + (uint64_t)(s[n] - '0');
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

/* The value of the exponent at s (elen bytes, "e-5"), or INT_MAX past
 * four digits. */
static int exponent_value(const char *s, size_t elen)
{
	int neg = s[1] == '-', v = 0;
	size_t i = (s[1] == '-' || s[1] == '+') ? 2 : 1;

	if (elen - i > 4)
		return INT_MAX;
	for (; i < elen; i++)
		v = v * 10 + (s[i] - '0');
	return neg ? -v : v;
}

/*
 * Clinger's fast path: digits that make an integer m <= 2^53 and a
 * power of ten 10^k with |k| <= 22 are both exact doubles, so one IEEE
 * multiplication or division rounds m * 10^k exactly as strtod() would.
 * m: the value of the intd digits, a mark, and fracd more (read as they
 * were counted), then the exponent at e (elen bytes).  Returns 0 and
 * *out, or -1 for the others (python's 17-digit figures among them:
 * strtod_l() reads those).
 */
static int clinger(uint64_t m, const char *e, size_t intd, size_t fracd,
		   size_t elen, int neg, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
		1e21, 1e22,
	};
	int k = elen ? exponent_value(e, elen) : 0;
	double v;

	if (intd + fracd > 19 || k == INT_MAX)
		return -1;
	k -= (int)fracd;
	if (m > (UINT64_C(1) << 53) || k < -22 || k > 22)
		return -1;
	v = k < 0 ? (double)m / pow10[-k] : (double)m * pow10[k];
	*out = neg ? -v : v;
	return 0;
}

int scan_double(const char **p, unsigned flags, double *out)
{
	const char *s = *p, *start = s;
	char buf[MAX_NUMBER_CHARS + 1];
	size_t n, intd, fracd = 0, len, elen = 0;
	uint64_t m = 0;
	double v;

	if (*s == '+' || *s == '-') {
		if (!(flags & SCAN_ALLOW_SIGN))
			return is_ascii_digit(s[1]) || s[1] == '.' ?
			       SCAN_NEGATIVE : SCAN_NO_DIGITS;
		s++;
	}
	intd = read_digits(s, &m);
	s += intd;
	if (is_decimal_mark(*s, flags) && is_ascii_digit(s[1])) {
		fracd = read_digits(s + 1, &m);
		s += 1 + fracd;
	}
	if (!intd && !fracd)
		return SCAN_NO_DIGITS;
	if (!(flags & SCAN_NO_EXPONENT))
		elen = exponent_len(s);
	if (!clinger(m, s, intd, fracd, elen, *start == '-', out)) {
		*p = s + elen;
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

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* ASCII case only, as strncasecmp() in the C locale storan runs in (a
 * loop, not strlen() and strncasecmp(): most calls fail at the first
 * byte; skip_prefix() and starts_with() are inline in numscan.h) */
int skip_prefix_icase(const char **p, const char *word)
{
	const char *s = *p;

	for (; *word; s++, word++)
		if (ascii_lower(*s) != ascii_lower(*word))
			return 0;
	*p = s;
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
