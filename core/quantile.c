/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The quantile rules (see quantile.h).
 */
#include "quantile.h"

#include <math.h>

double quantile_linear(const double *sorted, size_t n, double q)
{
	double h, f;
	size_t i;

	if (!n)
		return NAN;
	h = q * (double)(n - 1);
	f = floor(h);
	i = (size_t)f;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - f) * (sorted[i + 1] - sorted[i]);
}

/*
 * fio compares the running count, in long double, with what its source
 * writes (long double)pct / 100.0 * total -- but fio is built with
 * -ffast-math (its Makefile's OPTFLAGS), and gcc then computes total *
 * 0.01L * pct, as the x86-64 code of Debian's fio 3.33 shows (fildll,
 * fmul by the 80-bit 0.01, fmul by pct).  The two differ in the last bit
 * now and then: 30% of 23,860 is 7158.0000000000000004 the first way,
 * 7157.9999999999999996 fio's, and fio printed the bucket where the
 * running count reaches 7158.  The smallest integer count that passes
 * is the product's ceiling (a long double holds any uint64_t exactly).
 */
uint64_t quantile_rank_fio(uint64_t total, double pct)
{
	long double want = (long double)total * 0.01L * (long double)pct;

	if (!(want > 0))
		return 0;
	return want >= (long double)total ? total : (uint64_t)ceill(want);
}

uint64_t quantile_rank_rounded(uint64_t n, double pct)
{
	uint64_t rank = (uint64_t)(pct / 100.0 * (double)n + 0.5);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return rank;
}

/*
 * A running count c (a whole number) reaches x exactly when it reaches
 * ceil(x), so the rank is that ceiling and the walks compare integers.
 */
uint64_t quantile_rank_frac(double total, double q, double slack)
{
	double want = q * total * (1 - slack);

	return want > 0 ? (uint64_t)ceil(want) : 0;
}
