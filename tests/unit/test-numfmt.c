/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * format_g() against snprintf("%.*g"), format_fixed() against "%.*f":
 * the same text, byte for byte, on
 * chosen hard cases and on millions of values of every magnitude and of
 * the shapes storan prints (decimal fractions, ns -> s, KiB -> B).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/numfmt.h"

static int precisions[] = { 15, 17, 6, 1 };

/* Fails with the value and both texts, so a mismatch can be replayed. */
static void check_one(double v, int p)
{
	char want[64], got[NUMFMT_MAX];
	size_t n = format_g(got, v, p);

	snprintf(want, sizeof(want), "%.*g", p, v);
	if (strcmp(want, got) || n != strlen(want))
		fail_msg("%%.%dg of %a: printf '%s', format_g '%s'", p, v, want,
			 got);
}

static void check_all(double v)
{
	for (size_t i = 0; i < sizeof(precisions) / sizeof(*precisions); i++) {
		check_one(v, precisions[i]);
		check_one(-v, precisions[i]);
	}
}

static void test_hard_cases(void **state)
{
	static const double cases[] = {
		0.0, 1.0, 0.5, 0.1, 0.3, 2.5, 0.125, 9.5, 99.5, 1e15, 1e16,
		1e17, 1e-4, 1e-5, 9.99999999999999e14, 999999999999999.5,
		9.9999999999999995e-5, 0.000099999999999999995, 1e-300,
		5e-324, 1.7976931348623157e308, 123456789012345.6,
		0.000187392, 7.5182269531e-05, 563.487303, 2308043.0,
		94.648094, 0.30000000000000004, 1.0000000000000002,
		4.35, 2.675, 1.005, 1234.5, 0.015, 1e22, 1e23, 8.5e-10,
		NAN, INFINITY, -INFINITY,
		/* exact ties at 17 digits (m * 5^20 has 18 digits, the last
		 * a 5): the 128-bit path rounds them to even */
		10001.0 / 1048576, 10003.0 / 1048576, 30001.0 / 1048576,
		/* its edges: 10^22 and 10^23 scales, integers past 2^53 */
		3.7632e-6, 9.99999999999999999e-7, 1.0000000000000001e-7,
		9007199254740993.0, 18014398509481984.0, 1.2345678901234568e16,
		123456789012345678.0, 9.999999999999999e16,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		check_all(cases[i]);
	check_one(-0.0, 15);
}

/* format_fixed() against snprintf("%.*f") and "%+.*f", truncation too. */
static void check_fixed(double v, int d)
{
	char want[400], got[400], small[8], small_want[8];

	for (int plus = 0; plus <= 1; plus++) {
		int wn = snprintf(want, sizeof(want), plus ? "%+.*f" : "%.*f",
				  d, v);
		int n = format_fixed(got, sizeof(got), v, d, plus);

		if (strcmp(want, got) || n != wn)
			fail_msg("%%%s.%df of %a: printf '%s' (%d), "
				 "format_fixed '%s' (%d)", plus ? "+" : "", d,
				 v, want, wn, got, n);
		snprintf(small_want, sizeof(small_want),
			 plus ? "%+.*f" : "%.*f", d, v);
		if (format_fixed(small, sizeof(small), v, d, plus) != wn ||
		    strcmp(small, small_want))
			fail_msg("%%.%df of %a cut to 8 bytes: printf '%s', "
				 "format_fixed '%s'", d, v, small_want, small);
	}
}

static void check_fixed_all(double v)
{
	for (int d = 0; d <= 17; d += d < 4 ? 1 : 6) {
		check_fixed(v, d);
		check_fixed(-v, d);
	}
}

static void test_fixed_hard_cases(void **state)
{
	static const double cases[] = {
		0.0, 0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 0.0005, 0.0015, 0.0025,
		1.005, 2.675, 0.125, 0.375, 99.95, 999.9995, 1e-4, 4e-4,
		5e-4, 6e-4, 0.9995, 9.9995, 123.4567, 1e15, 1e16, 1e18, 1e19,
		1.8446744073709552e19, 1e20, 1e300, 5e-324, 2.2250738585072014e-308,
		1.7976931348623157e308, 9007199254740993.0, 0.1, 0.3,
		NAN, INFINITY,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		check_fixed_all(cases[i]);
}

/* xorshift64*: the same values on every run. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void test_random_bits(void **state)
{
	uint64_t s = 88172645463325252ULL;

	(void)state;
	for (int i = 0; i < 150000; i++) {
		uint64_t bits = next(&s);
		double v;

		memcpy(&v, &bits, sizeof(v));
		check_all(v);
	}
}

/* Values like the ones parsers make: decimals of 1 to 17 digits at every
 * exponent, and integers scaled by 1e-9, 1e-6, 1e-3, 1024, 1e3. */
static void test_decimal_shapes(void **state)
{
	static const double scales[] = { 1e-9, 1e-6, 1e-3, 1024, 1e3, 1 };
	uint64_t s = 1181783497276652981ULL;

	(void)state;
	for (int i = 0; i < 150000; i++) {
		uint64_t r = next(&s);
		int digits = 1 + (int)(r % 17), exp10 = (int)(r >> 8) % 40 - 20;
		double mant = (double)(next(&s) % 100000000000000000ULL);
		double v = mant / pow(10, digits) * pow(10, exp10);

		check_all(v);
		check_all((double)(r % 10000000) *
			  scales[(r >> 40) % (sizeof(scales) / sizeof(*scales))]);
		check_all(floor(v * 2) / 2 + 0.5);	/* ties */
	}
}

/* Fixed-point figures of every size: ratios, percentages, p values,
 * random bits, and exact ties at each number of decimals. */
static void test_fixed_shapes(void **state)
{
	uint64_t s = 7316427712738218839ULL;

	(void)state;
	for (int i = 0; i < 100000; i++) {
		uint64_t r = next(&s), bits = next(&s);
		int d = (int)(r % 5), exp10 = (int)(r >> 8) % 36 - 18;
		double mant = (double)(next(&s) % 1000000000000ULL) / 1e12;
		double v, tie = (double)(r % 100000) + 0.5;

		check_fixed_all(mant * pow(10, exp10));
		check_fixed(tie / pow(10, d), d);
		check_fixed(-tie / pow(10, d), d);
		memcpy(&v, &bits, sizeof(v));
		check_fixed(v, d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hard_cases),
		cmocka_unit_test(test_random_bits),
		cmocka_unit_test(test_decimal_shapes),
		cmocka_unit_test(test_fixed_hard_cases),
		cmocka_unit_test(test_fixed_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
