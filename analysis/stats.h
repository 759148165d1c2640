/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Statistics of measurements: descriptive figures, confidence intervals,
 * and the two significance tests `storan compare` uses.
 *
 * This module is the only one that includes GSL.  GSL aborts on a domain
 * error by default; stats.c switches that off as it opens GSL (on first
 * use), and every GSL status or result is checked here: a function that cannot
 * answer returns -1 or NAN, never a made-up number.
 *
 * Definitions (docs/analysis.md says the same for users):
 *   - stddev is the sample standard deviation (divides by n-1); a printed
 *     population stddev (divides by n) is converted by sqrt(n/(n-1));
 *   - the confidence interval of the mean uses Student's t with n-1
 *     degrees of freedom;
 *   - cv is stddev/mean in percent;
 *   - p-values are two-sided.
 */
#ifndef STORAN_STATS_H
#define STORAN_STATS_H

#include <stddef.h>

#include "../core/resultset.h"

/*
 * A pool of observations of one quantity: individual values where the
 * sources printed them, else the summaries they printed (mean, stddev, n).
 * Several measurements can be pooled (repetitions spread over files).
 */
struct stats_acc {
	double n;		/* observations pooled */
	double mean;
	double m2;		/* sum of squared deviations from mean */
	double min, max;	/* NAN when a summary did not print them */
	int spread_unknown;	/* a summary had n >= 2 but no stddev */
	int summary_only;	/* some known only by a summary */
	double *values;		/* every value, when all are known */
	size_t nvalues, alloc;
};

void stats_acc_init(struct stats_acc *a);
void stats_acc_release(struct stats_acc *a);
/* Empty again, keeping the room its values took (a loop over groups). */
void stats_acc_reset(struct stats_acc *a);
void stats_acc_add_value(struct stats_acc *a, double v);
/* Adds m's values[], or its printed summary when it has no values. */
void stats_acc_add_measurement(struct stats_acc *a,
			       const struct measurement *m);

/* The figures of one pool. */
struct stats {
	size_t n;
	double mean;
	double stddev;		/* sample (n-1); NAN: n < 2, unknown */
	double min, median, max;	/* median NAN: no values */
	double cv;		/* stddev / mean, in percent; NAN as stddev */
	double ci_low, ci_high;	/* 95% CI of the mean; NAN when n < 2 */
	int have_values;	/* every observation is an individual value */
};

/* Computes the figures of a (n == 0 gives n = 0 and NANs). */
void stats_compute(const struct stats_acc *a, struct stats *st);

/*
 * Half width of the two-sided confidence interval of the mean at level
 * (0.95), by Student's t: t(1-(1-level)/2, n-1) * stddev / sqrt(n).
 * NAN when n < 2 or stddev is NAN.
 */
double stats_ci_half_width(size_t n, double stddev, double level);

/*
 * Welch's unequal-variance t-test from each side's n, mean and sample
 * stddev.  Sets *p (two-sided), *t and *df.  Returns 0, or -1 when the
 * test does not apply (n < 2 or an unknown stddev on either side).  When
 * both stddevs are 0, p is 1 for equal means and 0 otherwise.
 */
int stats_welch(size_t na, double mean_a, double sd_a, size_t nb,
		double mean_b, double sd_b, double *p, double *t, double *df);

/*
 * The Mann-Whitney U test (Wilcoxon rank-sum), two-sided.  *u is U of
 * sample a (count of pairs with a > b, ties counting one half).  The
 * p-value is exact (the U distribution enumerated) when there are no ties
 * and both samples have at most STATS_MW_EXACT_MAX values; else the normal
 * approximation with tie and continuity correction.  *exact says which.
 * Returns 0, or -1 when either sample is empty.
 */
#define STATS_MW_EXACT_MAX 20
int stats_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, double *p, double *u, int *exact);

/*
 * The q-quantile (0 < q < 1) of a histogram: the value of the first bucket
 * whose cumulative count reaches q of the total, exactly
 * (quantile_rank_frac() with no slack).  NAN for an empty one.
 */
double stats_hist_quantile(const struct histogram *h, double q);

/*
 * The confidence interval (at level) of the ratio mean_b / mean_a of two
 * independent samples, by Fieller's theorem with Welch's variances and
 * degrees of freedom: the rho with (mean_b - rho mean_a)^2 <= t^2
 * (sd_b^2/n_b + rho^2 sd_a^2/n_a).  At rho = 1 that is Welch's test, so
 * the interval leaves out 1 exactly when stats_welch() finds the
 * difference at 1 - level (a chart's star never contradicts its
 * whisker).  The lower bound is at least 0 (both means are positive).
 * Returns 0; 1 when the baseline's mean is not surely above
 * zero, so that any ratio fits (lo 0, hi INFINITY: unbounded); or -1
 * (lo and hi NAN) when it does not apply: n < 2, an unknown stddev, a
 * mean not above zero.
 */
int stats_ratio_ci(size_t na, double mean_a, double sd_a, size_t nb,
		   double mean_b, double sd_b, double level, double *lo,
		   double *hi);
/*
 * Does stats_ratio_ci()'s interval lie within [lo, hi]?  1 or 0; -1 when
 * it does not apply.  The same answer without the interval: rho is in it
 * when |mean_b - rho mean_a| / sqrt(sd_b^2/n_b + rho^2 sd_a^2/n_a) <= t,
 * so it lies within when the ratio does and that statistic at lo, at hi
 * and at infinity (the interval bounded) is at least t, which one upper
 * tail probability of Student's t decides: Qinv(), a tenth of compare's
 * time at a million rows, is not needed.
 */
int stats_ratio_ci_within(size_t na, double mean_a, double sd_a, size_t nb,
			  double mean_b, double sd_b, double level, double lo,
			  double hi);

/*
 * The q-quantile (0 <= q <= 1) of v[0..n), linear between order
 * statistics (quantile_linear(): type 7, as R and numpy do); NAN when n
 * is 0.  v is sorted in place.
 */
double stats_quantile(double *v, size_t n, double q);

/* Geometric mean of the positive, finite x[]; NAN when there is none. */
double stats_geomean(const double *x, size_t n);

/* Arithmetic mean and median of x[0..n); NAN when n is 0. */
double stats_mean(const double *x, size_t n);
double stats_median(const double *x, size_t n);

/* qsort() order of doubles, ascending (NaN where it falls: keep them out). */
int stats_cmp_double(const void *a, const void *b);

#endif
