/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The latency histogram: bucket error bound, percentiles against exact
 * order statistics, merging, export to the result set's form.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "core/resultset.h"
#include "runner/histogram.h"

/* Every value maps to a bucket that holds it and is at most 1% wide. */
static void test_bucket_bounds(void **state)
{
	uint64_t v = 1;

	(void)state;
	for (int i = 0; i < 4000; i++) {
		unsigned b = lat_hist_bucket(v);
		uint64_t low = lat_hist_bucket_low(b);
		uint64_t width = lat_hist_bucket_width(b);

		assert_true(b < HIST_BUCKETS);
		assert_true(low <= v);
		assert_true(v < low + width);
		assert_true((double)width <= 0.01 * (double)low || width == 1);
		v += v / 97 + 1;
		if (v >> (HIST_MAX_BITS - 1))
			break;
	}
}

/* Buckets are contiguous: each starts where the previous ends. */
static void test_buckets_contiguous(void **state)
{
	(void)state;
	for (unsigned b = 1; b < HIST_BUCKETS; b++)
		assert_int_equal(lat_hist_bucket_low(b),
				 lat_hist_bucket_low(b - 1) +
				 lat_hist_bucket_width(b - 1));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Percentiles within 1% of the exact order statistic. */
static void test_percentiles(void **state)
{
	static const double pcts[] = { 50, 90, 95, 99, 99.9, 99.99 };
	enum { N = 200000 };
	uint64_t *v = malloc(N * sizeof(*v)), seed = 42;
	struct lat_hist *h = malloc(sizeof(*h));

	(void)state;
	lat_hist_init(h);
	for (int i = 0; i < N; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		/* log-uniform from 1 us to 100 ms, like real latencies */
		v[i] = 1000 + (seed >> 11) % 1000 * (1u << (seed >> 60) % 17);
		lat_hist_add(h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		size_t rank = (size_t)(pcts[k] / 100 * N + 0.5);
		double exact = (double)v[rank - 1];
		double got = lat_hist_percentile(h, pcts[k]);

		assert_true(got > exact * 0.99 && got < exact * 1.01);
	}
	assert_int_equal(h->n, N);
	assert_int_equal(h->min_ns, v[0]);
	assert_int_equal(h->max_ns, v[N - 1]);
	free(v);
	free(h);
}

static void test_merge_and_export(void **state)
{
	struct lat_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct histogram out;

	(void)state;
	lat_hist_init(a);
	lat_hist_init(b);
	lat_hist_add(a, 100);
	lat_hist_add(a, 100);
	lat_hist_add(b, 1000000);
	lat_hist_merge(a, b);
	assert_int_equal(a->n, 3);
	assert_int_equal(a->min_ns, 100);
	assert_int_equal(a->max_ns, 1000000);
	assert_true(lat_hist_mean(a) > 333399 && lat_hist_mean(a) < 333401);
	lat_hist_export(a, &out);
	assert_int_equal(out.n, 2);
	assert_int_equal(out.count[0], 2);
	assert_true(out.value[0] > 0.99e-7 && out.value[0] < 1.01e-7);
	assert_int_equal(out.count[1], 1);
	assert_true(out.value[1] > 0.99e-3 && out.value[1] < 1.01e-3);
	free(out.value);
	free(out.count);
	free(a);
	free(b);
}

static void test_empty_and_clamp(void **state)
{
	struct lat_hist *h = malloc(sizeof(*h));

	(void)state;
	lat_hist_init(h);
	assert_true(lat_hist_percentile(h, 99) < 1);
	assert_true(lat_hist_mean(h) < 1);
	lat_hist_add(h, UINT64_MAX);
	assert_true(lat_hist_bucket(UINT64_MAX) < HIST_BUCKETS);
	assert_true(lat_hist_percentile(h, 50) > 1e14);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_buckets_contiguous),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_merge_and_export),
		cmocka_unit_test(test_empty_and_clamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
