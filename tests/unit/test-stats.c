/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Known-answer tests of analysis/stats.c.
 *
 * The reference values were computed independently of GSL, with python3
 * and mpmath (30 digits): Student's t through the regularized incomplete
 * beta function, Welch's t and degrees of freedom from their definitions,
 * and exact Mann-Whitney p-values by enumerating every C(m+n, m) split of
 * the pooled sample with itertools.combinations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "core/resultset.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want) + 1e-300))
		fail_msg("got %.17g, want %.17g (rel %g)", got, want, rel);
}

static void stats_of(const double *v, size_t n, struct stats *st)
{
	struct stats_acc a;

	stats_acc_init(&a);
	for (size_t i = 0; i < n; i++)
		stats_acc_add_value(&a, v[i]);
	stats_compute(&a, st);
	stats_acc_release(&a);
}

static void test_descriptive(void **state)
{
	static const double v[] = { 4, 1, 3, 2 };
	struct stats st;

	(void)state;
	stats_of(v, NELEM(v), &st);
	assert_int_equal(st.n, 4);
	assert_close(st.mean, 2.5, 1e-15);
	/* sample stddev: sqrt(5/3) */
	assert_close(st.stddev, 1.2909944487358056, 1e-14);
	assert_close(st.median, 2.5, 1e-15);
	assert_close(st.min, 1, 0);
	assert_close(st.max, 4, 0);
	assert_close(st.cv, 1.2909944487358056 / 2.5 * 100, 1e-14);
	/* t(0.975, 3) = 3.18244630528370959 (mpmath) */
	assert_close(st.ci_high - st.mean,
		     3.18244630528370959 * 1.2909944487358056 / 2, 1e-9);
	assert_close(st.mean - st.ci_low, st.ci_high - st.mean, 1e-12);
}

static void test_single_value(void **state)
{
	static const double v[] = { 7 };
	struct stats st;

	(void)state;
	stats_of(v, 1, &st);
	assert_int_equal(st.n, 1);
	assert_true(isnan(st.stddev));
	assert_true(isnan(st.ci_low));
	assert_true(isnan(st.cv));
	assert_close(st.median, 7, 0);
	stats_of(v, 0, &st);
	assert_int_equal(st.n, 0);
	assert_true(isnan(st.mean));
}

static void test_odd_median(void **state)
{
	static const double v[] = { 9, 1, 5 };
	struct stats st;

	(void)state;
	stats_of(v, NELEM(v), &st);
	assert_close(st.median, 5, 0);
}

static void test_ci_n3(void **state)
{
	(void)state;
	/* t(0.975, 2) = 4.30265272974946385 (mpmath) */
	assert_close(stats_ci_half_width(3, 1, 0.95),
		     4.30265272974946385 / sqrt(3), 1e-9);
	assert_true(isnan(stats_ci_half_width(1, 1, 0.95)));
	assert_true(isnan(stats_ci_half_width(5, NAN, 0.95)));
}

/* A measurement printed as mean and population stddev, no values. */
static void summary_measurement(struct measurement *m, double n, double mean,
				double sd, int population)
{
	struct summary *sm;

	memset(m, 0, sizeof(*m));
	sm = measurement_add_summary(m);	/* (the caller drops it) */
	sm->n = n;
	sm->mean = mean;
	sm->stddev = sd;
	sm->min = sm->max = NAN;
	sm->stddev_population = population;
}

static void test_population_stddev(void **state)
{
	struct measurement m;
	struct stats_acc a;
	struct stats st;

	(void)state;
	/* 1,2,3,4: population sd sqrt(1.25), sample sd sqrt(5/3) */
	summary_measurement(&m, 4, 2.5, sqrt(1.25), 1);
	stats_acc_init(&a);
	stats_acc_add_measurement(&a, &m);
	stats_compute(&a, &st);
	assert_int_equal(st.n, 4);
	assert_close(st.stddev, 1.2909944487358056, 1e-14);
	assert_false(st.have_values);
	assert_true(isnan(st.median));
	stats_acc_release(&a);
	measurement_drop_summary(&m);
}

static void test_pooling(void **state)
{
	static double v1[] = { 1, 2 }, v2[] = { 3, 4 };
	struct measurement m1, m2, ms;
	struct stats_acc a;
	struct stats st;

	(void)state;
	memset(&m1, 0, sizeof(m1));
	memset(&m2, 0, sizeof(m2));
	m1.values = v1;
	m1.n = 2;
	m2.values = v2;
	m2.n = 2;
	stats_acc_init(&a);
	stats_acc_add_measurement(&a, &m1);
	stats_acc_add_measurement(&a, &m2);
	stats_compute(&a, &st);
	assert_int_equal(st.n, 4);
	assert_close(st.stddev, 1.2909944487358056, 1e-14);
	assert_true(st.have_values);
	stats_acc_release(&a);

	/* a summary of 1,2 (sample sd sqrt(0.5)) pooled with values 3,4 */
	summary_measurement(&ms, 2, 1.5, sqrt(0.5), 0);
	stats_acc_init(&a);
	stats_acc_add_measurement(&a, &ms);
	stats_acc_add_measurement(&a, &m2);
	stats_compute(&a, &st);
	assert_int_equal(st.n, 4);
	assert_close(st.mean, 2.5, 1e-15);
	assert_close(st.stddev, 1.2909944487358056, 1e-14);
	assert_false(st.have_values);
	assert_true(isnan(st.min));
	stats_acc_release(&a);
	measurement_drop_summary(&ms);

	/* a summary without a stddev: the spread is unknown, not zero */
	summary_measurement(&ms, 3, 10, NAN, 0);
	stats_acc_init(&a);
	stats_acc_add_measurement(&a, &ms);
	stats_compute(&a, &st);
	assert_int_equal(st.n, 3);
	assert_true(isnan(st.stddev));
	stats_acc_release(&a);
	measurement_drop_summary(&ms);
}

struct welch_case {
	double a[6], b[6];
	size_t na, nb;
	double t, df, p;	/* mpmath */
};

static const struct welch_case welch_cases[] = {
	{ { 10, 11, 12, 13, 14 }, { 12, 14, 16, 18, 20, 22 }, 5, 6,
	  2.9704426289300229, 6.9722557297949337, 0.020890722943256892 },
	/* block vs file, 4 KiB: a clear drop */
	{ { 101.2, 99.8, 100.5 }, { 80.3, 81.1, 79.6 }, 3, 3,
	  -34.033909003012168, 3.9807056009567493, 4.6614998541446872e-06 },
	/* 64 KiB: a drop caused by one wild run out of three */
	{ { 502.0, 497.5, 505.1 }, { 501.2, 498.8, 150.4 }, 3, 3,
	  -1.0129584640862430, 2.0014337551486040, 0.41762899421832479 },
};

static void test_welch(void **state)
{
	(void)state;
	for (size_t i = 0; i < NELEM(welch_cases); i++) {
		const struct welch_case *c = &welch_cases[i];
		struct stats a, b;
		double p, t, df;

		stats_of(c->a, c->na, &a);
		stats_of(c->b, c->nb, &b);
		assert_int_equal(stats_welch(a.n, a.mean, a.stddev, b.n,
					     b.mean, b.stddev, &p, &t, &df), 0);
		assert_close(t, c->t, 1e-10);
		assert_close(df, c->df, 1e-10);
		assert_close(p, c->p, 1e-7);
	}
}

static void test_welch_edges(void **state)
{
	double p, t, df;

	(void)state;
	assert_int_equal(stats_welch(1, 5, NAN, 3, 5, 1, &p, &t, &df), -1);
	assert_int_equal(stats_welch(3, 5, NAN, 3, 5, 1, &p, &t, &df), -1);
	assert_int_equal(stats_welch(3, 5, 0, 3, 5, 0, &p, &t, &df), 0);
	assert_close(p, 1, 0);
	assert_int_equal(stats_welch(3, 5, 0, 3, 6, 0, &p, &t, &df), 0);
	assert_close(p, 0, 0);
	/* a huge t stays a tiny p, not an error */
	assert_int_equal(stats_welch(3, 0, 1e-9, 3, 1e9, 1e-9, &p, &t, &df),
			 0);
	assert_true(p >= 0 && p < 1e-12);
}

struct mw_case {
	double a[10], b[10];
	size_t na, nb;
	double u, p;
	int exact;
};

static const struct mw_case mw_cases[] = {
	/* complete separation, 3 a side: the smallest p there is, 2/20 */
	{ { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, 0, 0.1, 1 },
	{ { 1.1, 2.2, 3.3, 4.4 }, { 0.5, 2.5, 5, 6, 7 }, 4, 5, 6,
	  0.41269841269841270, 1 },
	{ { 12.1, 13.4, 11.8, 12.9, 13.0, 12.5, 11.9, 12.2 },
	  { 12.8, 13.9, 13.5, 14.1, 12.7, 13.6, 14.4, 13.3 }, 8, 8, 7,
	  0.0069930069930069930, 1 },
	/* ties: normal approximation with tie and continuity correction */
	{ { 1, 2, 2, 3, 4, 4, 5, 6, 7, 7 }, { 3, 4, 5, 5, 6, 7, 8, 8, 9, 9 },
	  10, 10, 22, 0.036418935987807176, 0 },
};

static void test_mann_whitney(void **state)
{
	(void)state;
	for (size_t i = 0; i < NELEM(mw_cases); i++) {
		const struct mw_case *c = &mw_cases[i];
		double p, u;
		int exact;

		assert_int_equal(stats_mann_whitney(c->a, c->na, c->b, c->nb,
						    &p, &u, &exact), 0);
		assert_close(u, c->u, 1e-12);
		assert_int_equal(exact, c->exact);
		assert_close(p, c->p, 1e-9);
		/* swapping the samples mirrors U and keeps p */
		assert_int_equal(stats_mann_whitney(c->b, c->nb, c->a, c->na,
						    &p, &u, &exact), 0);
		assert_close(u, (double)(c->na * c->nb) - c->u, 1e-12);
		assert_close(p, c->p, 1e-9);
	}
}

static void test_mann_whitney_edges(void **state)
{
	static const double same[] = { 5, 5, 5 };
	double p, u;
	int exact;

	(void)state;
	assert_int_equal(stats_mann_whitney(same, 0, same, 3, &p, &u, &exact),
			 -1);
	/* every value tied: no evidence */
	assert_int_equal(stats_mann_whitney(same, 3, same, 3, &p, &u, &exact),
			 0);
	assert_close(p, 1, 0);
	assert_false(exact);
}

static void test_hist_quantile(void **state)
{
	double value[] = { 400e-6, 100e-6, 200e-6, 800e-6 };
	uint64_t count[] = { 190, 9000, 800, 10 };
	struct histogram h = { 4, value, count };
	struct histogram empty = { 0, NULL, NULL };

	(void)state;
	/* buckets unsorted on purpose: cumulative 9000, 9800, 9990, 10000 */
	assert_close(stats_hist_quantile(&h, 0.5), 100e-6, 0);
	assert_close(stats_hist_quantile(&h, 0.99), 400e-6, 0);
	assert_close(stats_hist_quantile(&h, 0.999), 400e-6, 0);
	assert_close(stats_hist_quantile(&h, 0.9991), 800e-6, 0);
	assert_true(isnan(stats_hist_quantile(&empty, 0.99)));
}

static void test_geomean(void **state)
{
	static const double r[] = { 0.5, 2, 4, NAN, -1 };

	(void)state;
	assert_close(stats_geomean(r, 3), 1.5874010519681994, 1e-14);
	/* NAN and non-positive ratios are left out */
	assert_close(stats_geomean(r, 5), 1.5874010519681994, 1e-14);
	assert_true(isnan(stats_geomean(r + 3, 2)));
}

static int setup(void **state)
{
	(void)state;
	return 0;
}

/*
 * The ratio's interval and Welch's test say the same (a chart's star and
 * whisker agree): over a grid of means, spreads and run counts the
 * interval leaves out 1 exactly when p < 0.05.  The delta method on the
 * log ratio did not: 0.35 [0.12, 1.29] was starred.  And one known
 * answer, Fieller's interval worked by hand: a = 100 (sd 10, n 3),
 * b = 50 (sd 5, n 3), Welch's df 2.941, t(0.975, 2.941) = 3.2188
 * (Simpson's rule on the t density): [0.38296, 0.65281].
 */
static void test_ratio_ci_agrees_with_welch(void **state)
{
	static const double means[] = { 20, 50, 90, 100, 110, 180, 400 };
	static const double sds[] = { 1, 10, 40, 90 };
	static const size_t ns[] = { 3, 5, 10 };
	double lo, hi, p, t, df;

	(void)state;
	for (size_t i = 0; i < 7; i++)
		for (size_t j = 0; j < 4; j++)
			for (size_t k = 0; k < 4; k++)
				for (size_t m = 0; m < 3; m++) {
					double b = means[i];

					if (stats_ratio_ci(ns[m], 100, sds[j],
							   ns[(m + 1) % 3], b,
							   sds[k], 0.95, &lo,
							   &hi) == 1) {
						/* unbounded: never significant */
						assert_int_equal(stats_welch(
							ns[m], 100, sds[j],
							ns[(m + 1) % 3], b,
							sds[k], &p, &t, &df),
							0);
						continue;
					}
					assert_int_equal(stats_welch(
						ns[m], 100, sds[j],
						ns[(m + 1) % 3], b, sds[k],
						&p, &t, &df), 0);
					assert_true(lo <= b / 100 &&
						    b / 100 <= hi);
					assert_int_equal(p < 0.05,
							 lo > 1 || hi < 1);
				}
	assert_int_equal(stats_ratio_ci(3, 100, 10, 3, 50, 5, 0.95, &lo, &hi),
			 0);
	assert_true(fabs(lo - 0.38296) < 1e-4);
	assert_true(fabs(hi - 0.65281) < 1e-4);
	/* a noisy candidate: Fieller's lower bound -0.615 is no ratio of
	 * two positive means; 0 is (file-vs-block, write 128K) */
	assert_int_equal(stats_ratio_ci(3, 100, 5, 3, 27.3, 30, 0.95, &lo,
					 &hi), 0);
	assert_true(!(lo > 0) && !(lo < 0) && hi > 0.27);
	/* a baseline that may be 0: any ratio fits */
	assert_int_equal(stats_ratio_ci(3, 1, 10, 3, 50, 5, 0.95, &lo, &hi),
			 1);
	assert_true(!(lo > 0) && !(lo < 0) && isinf(hi));
}

/*
 * stats_ratio_ci_within() answers as the interval itself does, on
 * 200,000 random cases around the edges (bounds near the interval's
 * ends, noisy baselines, a threshold of 100% and more), mismatches only
 * where the bound is within 1e-9 of an end (rounding decides those).
 */
static void test_ratio_ci_within_is_the_interval(void **state)
{
	unsigned seed = 7;
	size_t decided = 0, within = 0;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		size_t na = 2 + (size_t)(rand_r(&seed) % 8);
		size_t nb = 2 + (size_t)(rand_r(&seed) % 8);
		double ma = 1 + rand_r(&seed) % 1000, mb = ma * (0.5 + (rand_r(&seed) % 1000) / 1000.0);
		double sa = ma * (rand_r(&seed) % 300) / 1000.0;
		double sb = rand_r(&seed) % 7 ? mb * (rand_r(&seed) % 300) / 1000.0 : 0;
		double thr = (rand_r(&seed) % 5 ? (rand_r(&seed) % 400) : (rand_r(&seed) % 1500)) / 1000.0;
		double lo, hi;
		int rc = stats_ratio_ci(na, ma, sa, nb, mb, sb, 0.95, &lo, &hi);
		int got = stats_ratio_ci_within(na, ma, sa, nb, mb, sb, 0.95,
						1 - thr, 1 + thr);
		int want;

		if (i % 3 == 0 && rc == 0 && lo > 0) {	/* a bound at an end */
			thr = 1 - lo;
			got = stats_ratio_ci_within(na, ma, sa, nb, mb, sb, 0.95,
						    1 - thr, 1 + thr);
		}
		if (rc < 0) {
			assert_int_equal(got, -1);
			continue;
		}
		want = lo >= 1 - thr && hi <= 1 + thr;
		if (got != want && !(fabs(lo - (1 - thr)) < 1e-9 ||
				     fabs(hi - (1 + thr)) < 1e-9))
			fail_msg("na %zu ma %g sa %g nb %zu mb %g sb %g thr %g: "
				 "[%.17g, %.17g] %d, within() %d", na, ma, sa,
				 nb, mb, sb, thr, lo, hi, want, got);
		decided++;
		within += (size_t)want;
	}
	/* both answers came up often */
	assert_true(within > decided / 20 && within < decided - decided / 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_single_value),
		cmocka_unit_test(test_odd_median),
		cmocka_unit_test(test_ci_n3),
		cmocka_unit_test(test_population_stddev),
		cmocka_unit_test(test_pooling),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_edges),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_mann_whitney_edges),
		cmocka_unit_test(test_hist_quantile),
		cmocka_unit_test(test_geomean),
		cmocka_unit_test(test_ratio_ci_agrees_with_welch),
		cmocka_unit_test(test_ratio_ci_within_is_the_interval),
	};

	return cmocka_run_group_tests_name("stats", tests, setup, NULL);
}
