/*
 * Change point detection (analysis/detect.c) on synthetic series with
 * known shifts: steps, several steps, outliers, slow drift, under noise
 * of 1, 5, 10 and 20% of the mean.  Precision and recall are printed per
 * scenario and noise level (a detected point counts when it lies within
 * TOLERANCE runs of a true one) and held to floors that a detector
 * reporting every run, or none, or ones in the wrong place, fails.
 *
 * The noise is Gaussian from a fixed generator (splitmix64, Box-Muller),
 * so every run of the test sees the same series.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/detect.h"
#include "analysis/stats.h"

#define TOLERANCE 5
#define SERIES_PER_CASE 12
#define MAXN 400

static uint64_t rng_state;

static double uniform(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* A scenario: the mean at run i, and its true change points. */
struct scenario {
	const char *name;
	size_t n;
	double (*level)(size_t i, size_t n);
	size_t truth[4];
	size_t ntruth;
	/* drift: any detected point inside [lo, hi] is a hit of truth[0] */
	size_t drift_lo, drift_hi;
	int outliers;
};

static double flat(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return 1000;
}

static double step(size_t i, size_t n)
{
	(void)n;
	return i < 120 ? 1000 : 1250;
}

static double steps(size_t i, size_t n)
{
	(void)n;
	return i < 80 ? 1000 : i < 160 ? 1250 : i < 230 ? 1000 : 1300;
}

static double drift(size_t i, size_t n)
{
	(void)n;
	if (i < 150)
		return 1000;
	if (i < 250)
		return 1000 + 300 * (double)(i - 150) / 100;
	return 1300;
}

static const struct scenario scenarios[] = {
	{ "flat", 300, flat, { 0 }, 0, 0, 0, 0 },
	{ "step +25%", 200, step, { 120 }, 1, 0, 0, 0 },
	{ "3 steps", 300, steps, { 80, 160, 230 }, 3, 0, 0, 0 },
	{ "outliers", 300, flat, { 0 }, 0, 0, 0, 3 },
	{ "drift +30%", 350, drift, { 200 }, 1, 150 - TOLERANCE,
	  250 + TOLERANCE, 0 },
};

struct score {
	size_t truth, found, hit_found, hit_truth;
};

static int near(size_t a, size_t b)
{
	return (a > b ? a - b : b - a) <= TOLERANCE;
}

static void score_one(const struct scenario *sc, const struct change_point *c,
		      size_t nc, struct score *s)
{
	s->truth += sc->ntruth;
	s->found += nc;
	for (size_t i = 0; i < nc; i++) {
		int hit = 0;

		for (size_t t = 0; t < sc->ntruth; t++)
			hit |= sc->drift_hi ?
			       c[i].index >= sc->drift_lo &&
			       c[i].index <= sc->drift_hi :
			       near(c[i].index, sc->truth[t]);
		s->hit_found += hit;
	}
	for (size_t t = 0; t < sc->ntruth; t++) {
		int hit = 0;

		for (size_t i = 0; i < nc; i++)
			hit |= sc->drift_hi ?
			       c[i].index >= sc->drift_lo &&
			       c[i].index <= sc->drift_hi :
			       near(c[i].index, sc->truth[t]);
		s->hit_truth += hit;
	}
}

static void make_series(const struct scenario *sc, double noise, double *x)
{
	for (size_t i = 0; i < sc->n; i++) {
		double mean = sc->level(i, sc->n);

		x[i] = mean * (1 + noise * gauss());
	}
	for (int k = 0; k < sc->outliers; k++)	/* lone runs, twice the value */
		x[(size_t)k * sc->n / (size_t)sc->outliers + 20 +
		  (size_t)(uniform() * 40)] *= 2;
}

static struct score run_case(const struct scenario *sc, double noise)
{
	struct detect_options o;
	struct score s = { 0, 0, 0, 0 };
	double x[MAXN];

	detect_options_init(&o);
	rng_state = 12345 + (uint64_t)(noise * 1000);
	for (int k = 0; k < SERIES_PER_CASE; k++) {
		struct change_point *c;
		size_t nc;

		make_series(sc, noise, x);
		nc = detect_change_points(x, sc->n, &o, &c);
		score_one(sc, c, nc, &s);
		free(c);
	}
	return s;
}

static double ratio(size_t a, size_t b)
{
	return b ? (double)a / (double)b : 1;
}

/*
 * Floors per scenario and noise level.  Without a true change point
 * (flat, outliers) precision has no meaning: the floor is the number of
 * points found at most, in 12 series of 300 runs.  At 20% noise a 25%
 * step is 1.25 standard deviations: half of them go unseen.
 */
static const double noises[] = { 0.01, 0.05, 0.10, 0.20 };
static const double min_precision[][4] = {
	{ 0, 0, 0, 2 },		/* flat: points found at most */
	{ 1, 1, 0.9, 0.5 },
	{ 1, 1, 0.9, 0.7 },
	{ 0, 0, 0, 2 },		/* outliers: points found at most */
	{ 1, 1, 0.9, 0.5 },
};
static const double min_recall[][4] = {
	{ 1, 1, 1, 1 },
	{ 1, 1, 1, 0.3 },
	{ 1, 1, 1, 0.4 },
	{ 1, 1, 1, 1 },
	{ 1, 1, 0.5, 0 },
};

static void test_synthetic(void **state)
{
	int failed = 0;

	(void)state;
	printf("# scenario     noise  true found  precision recall\n");
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(*scenarios); i++)
		for (size_t j = 0; j < 4; j++) {
			struct score s = run_case(&scenarios[i], noises[j]);
			double p = ratio(s.hit_found, s.found);
			double r = ratio(s.hit_truth, s.truth);
			int bad = scenarios[i].ntruth ?
				  p < min_precision[i][j] ||
				  r < min_recall[i][j] :
				  (double)s.found > min_precision[i][j];

			printf("# %-12s %4.0f%% %5zu %5zu  %9.2f %6.2f%s\n",
			       scenarios[i].name, noises[j] * 100, s.truth,
			       s.found, p, r, bad ? "  BELOW FLOOR" : "");
			failed |= bad;
		}
	assert_false(failed);
}

/* A step at the newest runs: found once three runs follow it, never at
 * one (a lone slow run is an outlier until the next nights agree). */
static void test_runs_after_step(void **state)
{
	struct detect_options o;
	double x[100];

	(void)state;
	detect_options_init(&o);
	rng_state = 99;
	for (size_t i = 0; i < 100; i++)
		x[i] = 1000 * (1 + 0.02 * gauss());
	for (size_t after = 1; after <= 6; after++) {
		struct change_point *c;
		size_t nc, n = 80 + after;

		for (size_t i = 80; i < n; i++)
			x[i] = 800 * (1 + 0.02 * gauss());
		nc = detect_change_points(x, n, &o, &c);
		printf("# step -20%% at run 80, %zu run(s) after: %zu change "
		       "point(s)%s\n", after, nc, nc && c[nc - 1].index == 80 ?
		       " at 80" : "");
		if (after == 1)
			assert_int_equal(nc, 0);
		if (after >= 4) {
			assert_int_equal(nc, 1);
			assert_int_equal(c[0].index, 80);
			assert_true(fabs(c[0].mean_after / c[0].mean_before -
					 0.8) < 0.02);
			assert_true(c[0].p <= o.alpha);
		}
		free(c);
	}
}

/* The same series, the same answer; and a series too short for any. */
static void test_deterministic(void **state)
{
	struct detect_options o;
	struct change_point *a, *b;
	double x[200];
	size_t na, nb;

	(void)state;
	detect_options_init(&o);
	rng_state = 7;
	for (size_t i = 0; i < 200; i++)
		x[i] = (i < 100 ? 10 : 11) * (1 + 0.03 * gauss());
	na = detect_change_points(x, 200, &o, &a);
	nb = detect_change_points(x, 200, &o, &b);
	assert_int_equal(na, nb);
	assert_true(na >= 1);
	assert_memory_equal(a, b, na * sizeof(*a));
	free(a);
	free(b);
	assert_int_equal(detect_change_points(x, 2, &o, &a), 0);
	assert_null(a);
	for (size_t i = 0; i < 50; i++)
		x[i] = 5;	/* constant: nothing to split */
	assert_int_equal(detect_change_points(x, 50, &o, &a), 0);
}

/* min_change: a significant but small shift is not reported. */
static void test_min_change(void **state)
{
	struct detect_options o;
	struct change_point *c;
	double x[200];
	size_t nc;

	(void)state;
	detect_options_init(&o);
	rng_state = 3;
	for (size_t i = 0; i < 200; i++)
		x[i] = (i < 100 ? 1000 : 1030) * (1 + 0.003 * gauss());
	nc = detect_change_points(x, 200, &o, &c);
	assert_int_equal(nc, 0);	/* 3% < 5% */
	o.min_change = 0.01;
	nc = detect_change_points(x, 200, &o, &c);
	assert_int_equal(nc, 1);
	assert_int_equal(c[0].index, 100);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_runs_after_step),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_min_change),
	};

	stats_init();
	return cmocka_run_group_tests_name("detect", tests, NULL, NULL);
}
