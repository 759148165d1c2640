/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A run's samples over time: counting per worker, the merge of workers,
 * and the series a run's measurements get from them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/resultset.h"
#include "core/series.h"
#include "runner/histogram.h"
#include "runner/run-series.h"
#include "runner/tseries.h"

/* The count of bucket b in interval k of a finished series. */
static uint64_t bin_count(const struct run_tseries *t, size_t k, unsigned b)
{
	for (size_t i = 0; i < t->nbin; i++)
		if (t->bin[i].interval == k && t->bin[i].bucket == b)
			return t->bin[i].count;
	return 0;
}

static void counts_and_buckets_per_interval(void **state)
{
	struct run_tseries t = { 0 };

	(void)state;
	run_tseries_add(&t, 0, 4096, 1000);
	run_tseries_add(&t, 0, 4096, 1000);
	run_tseries_add(&t, 0, 4096, 50);
	run_tseries_add(&t, 2, 8192, 3000);	/* interval 1: a stall */
	run_tseries_finish(&t);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.ios[0], 3);
	assert_int_equal(t.ios[1], 0);
	assert_int_equal(t.bytes[2], 8192);
	assert_int_equal(t.lat_ns[0], 2050);
	assert_int_equal(t.nbin, 3);
	/* by interval, then bucket */
	assert_int_equal(t.bin[0].bucket, lat_hist_bucket(50));
	assert_int_equal(bin_count(&t, 0, lat_hist_bucket(1000)), 2);
	assert_int_equal(bin_count(&t, 2, lat_hist_bucket(3000)), 1);
	assert_null(t.dense);
	run_tseries_release(&t);
}

/* A completion that says an interval already left counts in the one
 * being counted: finished intervals are never written again. */
static void late_completion_counts_in_current(void **state)
{
	struct run_tseries t = { 0 };

	(void)state;
	run_tseries_add(&t, 1, 512, 10);
	run_tseries_add(&t, 0, 512, 10);
	run_tseries_finish(&t);
	assert_int_equal(t.ios[1], 2);
	assert_int_equal(t.nbin, 1);
	assert_int_equal(t.bin[0].count, 2);
	run_tseries_release(&t);
}

static void merge_sums_workers(void **state)
{
	struct run_tseries a = { 0 }, b = { 0 }, run = { 0 };
	struct run_tseries *w[2] = { &a, &b };

	(void)state;
	run_tseries_add(&a, 0, 100, 1000);
	run_tseries_add(&a, 1, 100, 2000);
	run_tseries_add(&b, 1, 100, 1000);
	run_tseries_add(&b, 1, 100, 2000);
	run_tseries_add(&b, 3, 100, 9000);
	run_tseries_finish(&a);
	run_tseries_finish(&b);
	run_tseries_merge(&run, w, 2);
	assert_int_equal(run.n, 4);
	assert_int_equal(run.ios[1], 3);
	assert_int_equal(run.bytes[1], 300);
	assert_int_equal(run.ios[2], 0);
	assert_int_equal(bin_count(&run, 0, lat_hist_bucket(1000)), 1);
	assert_int_equal(bin_count(&run, 1, lat_hist_bucket(1000)), 1);
	assert_int_equal(bin_count(&run, 1, lat_hist_bucket(2000)), 2);
	assert_int_equal(bin_count(&run, 3, lat_hist_bucket(9000)), 1);
	for (size_t i = 1; i < run.nbin; i++)
		assert_true(run.bin[i - 1].interval < run.bin[i].interval ||
			    (run.bin[i - 1].interval == run.bin[i].interval &&
			     run.bin[i - 1].bucket < run.bin[i].bucket));
	run_tseries_release(&a);
	run_tseries_release(&b);
	run_tseries_release(&run);
}

static struct measurement *add(struct result_set *rs, const char *metric)
{
	struct measurement *m = result_set_add(rs, "storan", "randread",
					       metric, "s");

	measurement_add_value(m, 1);
	return m;
}

/*
 * 2.4 s of run, 1 s intervals: points at 1 and 2 s (the 0.4 s left is
 * under half an interval); interval 1 empty: a 0 for IOPS, no latency.
 */
static void series_of_a_run(void **state)
{
	struct run_tseries t = { 0 };
	struct result_set rs;
	struct measurement *m[5];

	(void)state;
	for (int i = 0; i < 99; i++)
		run_tseries_add(&t, 0, 4096, 100000);
	run_tseries_add(&t, 0, 4096, 5000000);
	run_tseries_add(&t, 2, 4096, 100000);
	run_tseries_finish(&t);
	result_set_init(&rs);
	m[0] = add(&rs, "iops");
	m[1] = add(&rs, "lat.mean");
	m[2] = add(&rs, "clat.p50");
	m[3] = add(&rs, "clat.p99.9");
	m[4] = add(&rs, "runtime");
	run_series_attach(&rs, 0, "randread", &t, 1, 2.4);
	for (int i = 0; i < 5; i++)
		m[i] = &rs.m[i];
	assert_int_equal(m[0]->series->n, 2);
	assert_float_equal(m[0]->series->v[0], 100, 0);
	assert_float_equal(m[0]->series->v[1], 0, 0);
	assert_float_equal(m[0]->series->t[1], 2, 0);
	assert_int_equal(m[1]->series->n, 1);
	assert_true(fabs(m[1]->series->v[0] - 0.000149) < 1e-9);
	/* the histogram: two buckets used, p50 at 100 us, p99.9 at 5 ms */
	assert_int_equal(m[2]->series->nbuckets, 2);
	assert_int_equal(m[2]->series->n, 1);
	assert_true(fabs(m[2]->series->v[0] - 1e-4) < 1e-6);
	assert_int_equal(m[3]->series->n, 1);
	assert_null(m[3]->series->nbuckets ? m[3] : NULL);
	assert_true(fabs(m[3]->series->v[0] - 5e-3) < 5e-5);
	assert_null(m[4]->series);
	result_set_release(&rs);
	run_tseries_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_and_buckets_per_interval),
		cmocka_unit_test(late_completion_counts_in_current),
		cmocka_unit_test(merge_sums_workers),
		cmocka_unit_test(series_of_a_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
