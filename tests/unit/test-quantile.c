/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Table-driven tests of core/quantile.c: the sample quantile and the
 * three histogram rank rules, each at the edges that tell it apart from
 * the others.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include "core/quantile.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void test_linear(void **state)
{
	static const double v[] = { 1, 2, 3, 4 };
	static const struct { size_t n; double q, want; } cases[] = {
		{ 4, 0, 1 },	{ 4, 1, 4 },	{ 4, 0.5, 2.5 },
		{ 4, 0.25, 1.75 }, { 4, 0.75, 3.25 }, { 4, 2.0 / 3, 3 },
		{ 1, 0, 1 },	{ 1, 0.5, 1 },	{ 1, 1, 1 },
		{ 2, 0.5, 1.5 },
	};

	(void)state;
	for (size_t i = 0; i < NELEM(cases); i++) {
		double got = quantile_linear(v, cases[i].n, cases[i].q);

		if (!(fabs(got - cases[i].want) < 1e-12))
			fail_msg("n %zu q %g: got %.17g, want %g", cases[i].n,
				 cases[i].q, got, cases[i].want);
	}
	assert_true(isnan(quantile_linear(v, 0, 0.5)));
}

static void test_rank_fio(void **state)
{
	static const struct { uint64_t total; double pct; uint64_t want; }
	cases[] = {
		{ 4, 25, 1 },	{ 4, 25.01, 2 },  { 4, 50, 2 },
		{ 4, 99.99, 4 }, { 100, 50, 50 }, { 100, 50.5, 51 },
		{ 10, 100, 10 }, { 10, 150, 10 }, { 10, 0, 0 },
		{ 0, 50, 0 },
		/* pct/100 * total would be 7158.0000000000000004 and need
		 * 7159; fio's total * 0.01 * pct stops at 7158 */
		{ 23860, 30, 7158 },
	};

	(void)state;
	for (size_t i = 0; i < NELEM(cases); i++) {
		uint64_t got = quantile_rank_fio(cases[i].total, cases[i].pct);

		if (got != cases[i].want)
			fail_msg("%llu at %g%%: got %llu, want %llu",
				 (unsigned long long)cases[i].total,
				 cases[i].pct, (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
}

static void test_rank_rounded(void **state)
{
	static const struct { uint64_t n; double pct; uint64_t want; }
	cases[] = {
		{ 1000, 99, 990 }, { 1000, 99.95, 1000 }, { 1000, 99.94, 999 },
		{ 3, 50, 2 },	   { 4, 50, 2 },	   { 10, 0, 1 },
		{ 10, 100, 10 },   { 1, 99.9, 1 },	   { 1, 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < NELEM(cases); i++) {
		uint64_t got = quantile_rank_rounded(cases[i].n, cases[i].pct);

		if (got != cases[i].want)
			fail_msg("%llu at %g%%: got %llu, want %llu",
				 (unsigned long long)cases[i].n, cases[i].pct,
				 (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
}

static void test_rank_frac(void **state)
{
	volatile double three_tenths = 0.1 * 3;	/* 0.30000000000000004 */
	static const struct { double total, q, slack; uint64_t want; }
	cases[] = {
		{ 100, 0.5, 0, 50 },	  { 100, 0.505, 0, 51 },
		{ 1000, 0.999, 0, 999 },  { 1000, 0.9991, 0, 1000 },
		{ 0, 0.5, 0, 0 },	  { 4, 0, 0, 0 },
		{ 100, 0.5, 1e-12, 50 },  { 1, 0.999, 1e-12, 1 },
	};

	(void)state;
	for (size_t i = 0; i < NELEM(cases); i++) {
		uint64_t got = quantile_rank_frac(cases[i].total, cases[i].q,
						  cases[i].slack);

		if (got != cases[i].want)
			fail_msg("%g of %g (slack %g): got %llu, want %llu",
				 cases[i].q, cases[i].total, cases[i].slack,
				 (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
	/* q's own rounding error: the exact rule takes it at its word,
	 * the slack forgives it */
	assert_int_equal(quantile_rank_frac(10, three_tenths, 0), 4);
	assert_int_equal(quantile_rank_frac(10, three_tenths, 1e-12), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_rank_fio),
		cmocka_unit_test(test_rank_rounded),
		cmocka_unit_test(test_rank_frac),
	};

	return cmocka_run_group_tests_name("quantile", tests, NULL, NULL);
}
