/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every quantile rule storan uses, in one place, each under its own name,
 * so that which rule a number follows is a choice a caller makes here and
 * not a loop it writes again.
 *
 * A sample's quantile is linear between order statistics
 * (quantile_linear).  A histogram's quantile is the value of the first
 * bucket, in value order, at which the running count reaches a rank; the
 * rules below differ only in that rank, and they differ on purpose:
 *
 *   quantile_rank_fio()      what fio prints: a parser must reproduce
 *                            fio's own figures to the bucket.
 *   quantile_rank_rounded()  what `storan run` prints for its own
 *                            histograms (pct% of n, rounded to nearest).
 *   quantile_rank_frac()     storan's reading of a histogram it was given
 *                            (compare's tails, the chart's percentile
 *                            curves): at least q of the total, with the
 *                            slack the caller can justify.
 *
 * A rank is a running count, so a walk compares whole numbers and every
 * caller keeps the walk that fits its own bucket layout.
 */
#ifndef STORAN_QUANTILE_H
#define STORAN_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The q-quantile (0 <= q <= 1) of the sorted v[0..n): linear between
 * order statistics (type 7, as R and numpy do).  NAN when n is 0.
 */
double quantile_linear(const double *sorted, size_t n, double q);

/*
 * The running count at which fio's calc_clat_percentiles() stops for
 * percentile pct (0..100) of total values: ceil(total * 0.01 * pct) in
 * long double, in that order (see quantile.c), at most total; 0 when
 * pct is not above 0.
 */
uint64_t quantile_rank_fio(uint64_t total, double pct);

/*
 * The running count for percentile pct (0..100) of n values as `storan
 * run` reports it: pct% of n rounded to the nearest, kept in [1, n].
 * n must not be 0.
 */
uint64_t quantile_rank_rounded(uint64_t n, double pct);

/*
 * The smallest running count that is at least q of total:
 * ceil(q * total * (1 - slack)), 0 when that is not above 0.  total is
 * a sum of counts (a double holds it exactly below 2^53).  slack 0 is the
 * exact rule; a caller whose q carries rounding error of its own (the
 * chart's q = 1 - 10^-x) forgives it with a small relative slack.
 */
uint64_t quantile_rank_frac(double total, double q, double slack);

#endif
