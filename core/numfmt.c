/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "%.Pg" without printf; see numfmt.h.
 *
 * For |v| = a with decimal exponent X (10^X <= a < 10^(X+1)), the P
 * significant digits printf prints are the integer nearest to the exact
 * a * 10^(P-1-X), ties to even.  When 10^(P-1-X) has at most 27 digits
 * it is exact in a long double (64-bit mantissa: 5^27 < 2^63), so the
 * product is the exact value rounded once: off by at most half a unit of
 * its last place, 2^-14 of a digit for P <= 15 (scaled < 2^50), 2^-7 for
 * P = 17.  Rounding it to an integer then gives printf's digits unless
 * the exact value is that close to a tie (a fraction of .5): those few,
 * and exponents outside the table, go to snprintf.  When 10^(P-1-X) has
 * at most 22 digits the product is also computed exactly, in 128-bit
 * integers (mantissa times power of ten, then the binary exponent's
 * shift, ties to even), and no value goes to snprintf: at P = 17 one in
 * 25 did (a JSON+ file's 130,000 histogram values are printed so).
 * tests/unit/test-numfmt.c compares the two on millions of values.
 */
#include "numfmt.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define POW10_MAX 27

static const long double pow10_exact[POW10_MAX + 1] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L,
	1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L,
	1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

#define POW10_EXACT_128 22	/* m * 10^22 < 2^53 * 2^74 fits 128 bits */

static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

/*
 * The integer nearest to a * 10^k (ties to even), exactly: a is m * 2^q
 * with m an integer of 53 bits.  Returns -1 when it does not fit.
 */
static int exact_scaled(double a, int k, unsigned long long *out)
{
	uint64_t bits, m;
	unsigned __int128 p, rest, half;
	int q, s;

	if (k < 0 || k > POW10_EXACT_128)
		return -1;
	memcpy(&bits, &a, sizeof(bits));
	m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	q = (int)(bits >> 52 & 0x7ff) - 1075;
	p = (unsigned __int128)m * pow10_u64[k < 19 ? k : 19];
	if (k > 19)
		p *= pow10_u64[k - 19];
	if (q >= 0) {	/* a is an integer of up to 2^64: rare at P digits */
		if (q > 10 || (p << q) >> q != p || (p << q) >> 64)
			return -1;
		*out = (unsigned long long)(p << q);
		return 0;
	}
	s = -q;
	if (s >= 127)
		return -1;
	rest = p & (((unsigned __int128)1 << s) - 1);
	half = (unsigned __int128)1 << (s - 1);
	p >>= s;
	if (rest > half || (rest == half && (p & 1)))
		p++;
	if (p >> 64)
		return -1;
	*out = (unsigned long long)p;
	return 0;
}

static size_t fallback(char *buf, double v, int precision)
{
	return (size_t)snprintf(buf, NUMFMT_MAX, "%.*g", precision, v);
}

/* m's p decimal digits (with leading zeros), two at a time. */
static void put_digits(char *digits, int p, unsigned long long m)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930"
		"31323334353637383940414243444546474849505152535455565758596061"
		"62636465666768697071727374757677787980818283848586878889909192"
		"939495969798" "99";
	int i = p;

	while (i >= 2) {
		unsigned r = (unsigned)(m % 100);

		m /= 100;
		i -= 2;
		digits[i] = pairs[2 * r];
		digits[i + 1] = pairs[2 * r + 1];
	}
	if (i)
		digits[0] = (char)('0' + m % 10);
}

/*
 * The P significant digits of a (> 0) into digits[], its exponent into
 * *x; returns 0, or -1 when the fast way cannot be sure.
 */
static int significant_digits(double a, int p, char *digits, int *x)
{
	uint64_t bits;
	int b, e;
	long double scaled, lo = pow10_exact[p - 1], hi = pow10_exact[p];
	unsigned long long m;
	long double frac;

	/* 2^(b-1) <= a < 2^b: X is this estimate or one more (78913 /
	 * 2^18 is log10 2 to 6 digits; the shift floors) */
	memcpy(&bits, &a, sizeof(bits));
	if (!(bits >> 52))
		return -1;	/* subnormal */
	b = (int)(bits >> 52) - 1022;
	e = ((b - 1) * 78913) >> 18;
	for (int tries = 0; tries < 2; tries++) {
		int k = p - 1 - e;

		if (k < 0 || k > POW10_MAX)
			return -1;
		scaled = (long double)a * pow10_exact[k];
		if (scaled < lo)
			e--;
		else if (scaled >= hi)
			e++;
		else
			break;
	}
	if (scaled < lo || scaled >= hi)
		return -1;
	if (exact_scaled(a, p - 1 - e, &m)) {
		m = (unsigned long long)scaled;
		frac = scaled - (long double)m;
		if (fabsl(frac - 0.5L) < 0.02L)
			return -1;	/* too near a tie to trust the product */
		if (frac > 0.5L)
			m++;
	}
	if ((long double)m >= hi) {	/* 9.99..95 rounded up to 10.0 */
		m /= 10;
		e++;
	}
	put_digits(digits, p, m);
	*x = e;
	return 0;
}

/* digits[0..n) without its trailing zeros: the length left. */
static int strip_zeros(const char *digits, int n)
{
	while (n > 1 && digits[n - 1] == '0')
		n--;
	return n;
}

/* "e+05", "e-123": a sign and at least two digits, as printf writes. */
static char *put_exponent(char *o, int x)
{
	int a = x < 0 ? -x : x;

	*o++ = 'e';
	*o++ = x < 0 ? '-' : '+';
	if (a >= 100)
		*o++ = (char)('0' + a / 100);
	*o++ = (char)('0' + a / 10 % 10);
	*o++ = (char)('0' + a % 10);
	return o;
}

size_t format_g(char *buf, double v, int precision)
{
	char digits[20], *o = buf;
	int x, n;

	if (precision < 1 || precision > 17 || !isfinite(v) || !(fabs(v) > 0) ||
	    significant_digits(fabs(v), precision, digits, &x))
		return fallback(buf, v, precision);
	if (v < 0)
		*o++ = '-';
	n = strip_zeros(digits, precision);
	if (x < -4 || x >= precision) {	/* d.ddde-XX */
		*o++ = digits[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)(n - 1));
			o += n - 1;
		}
		o = put_exponent(o, x);
	} else if (x >= 0) {		/* ddd.ddd */
		int whole = x + 1;

		memcpy(o, digits, (size_t)whole);
		o += whole;
		if (n > whole) {
			*o++ = '.';
			memcpy(o, digits + whole, (size_t)(n - whole));
			o += n - whole;
		}
	} else {			/* 0.000ddd */
		*o++ = '0';
		*o++ = '.';
		for (int i = -1; i > x; i--)
			*o++ = '0';
		memcpy(o, digits, (size_t)n);
		o += n;
	}
	*o = '\0';
	return (size_t)(o - buf);
}

/*
 * "%.Df": the integer nearest to |v| * 10^D, ties to even, is what
 * exact_scaled() computes; its digits, the point before the last D.
 * What does not fit 64 bits (|v| of 10^19 / 10^D and more), subnormals
 * and non-finite values go to snprintf.
 */
int format_fixed(char *buf, size_t size, double v, int decimals, int plus)
{
	char digits[24], out[NUMFMT_MAX + 8], *o = out;
	double a = fabs(v);
	unsigned long long m = 0;
	int n;

	if (decimals < 0 || decimals > 17 || !isfinite(v) ||
	    (a > 0 && a < DBL_MIN) ||
	    (a > 0 && exact_scaled(a, decimals, &m)))
		return snprintf(buf, size, plus ? "%+.*f" : "%.*f", decimals,
				v);
	for (n = 1; n < 20 && m >= pow10_u64[n]; n++)
		;
	if (n < decimals + 1)
		n = decimals + 1;	/* "0.001": the zeros before */
	put_digits(digits, n, m);
	if (signbit(v))
		*o++ = '-';
	else if (plus)
		*o++ = '+';
	memcpy(o, digits, (size_t)(n - decimals));
	o += n - decimals;
	if (decimals) {
		*o++ = '.';
		memcpy(o, digits + n - decimals, (size_t)decimals);
		o += decimals;
	}
	*o = '\0';
	if (size)
		memcpy(buf, out, (size_t)(o - out) + 1 <= size ?
		       (size_t)(o - out) + 1 : size);
	if (size && (size_t)(o - out) >= size)
		buf[size - 1] = '\0';
	return (int)(o - out);
}
