/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chart model as data: which keys go on x and into series, scales,
 * ticks and their labels, units, points, error bars, percentile and CDF
 * curves, ratios, and the report's chart tables.  Result sets are built
 * by hand so that every expected figure can be worked out on paper.
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

#include "core/resultset.h"
#include "plot/chart.h"
#include "plot/chart-table.h"
#include "plot/report.h"

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.9g, want %.9g", got, want);
}

static struct measurement *add(struct result_set *rs, const char *op,
			       const char *metric, const char *unit,
			       const char *host, double bs)
{
	struct measurement *m = result_set_add(rs, "fio", op, metric, unit);

	if (host)
		labels_set(&m->labels, "host", host);
	if (bs > 0)
		labels_setf(&m->labels, "bs", "%.0f", bs);
	measurement_set_source(m, 0, host ? host : "in.json", 1);
	return m;
}

/* bw of read and write over bs 512..1M, one value each: mb MB/s * k. */
static void sweep(struct result_set *rs)
{
	result_set_init(rs);
	for (int op = 0; op < 2; op++)
		for (int k = 9; k <= 20; k++)
			measurement_add_value(add(rs, op ? "write" : "read",
						  "bw", "B/s", "a", ldexp(1, k)),
					      (op + 1) * 100e6 * (k - 8));
}

static int build(struct chart *c, const struct result_set *rs,
		 const struct chart_spec *spec)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	chart_init(c);
	rc = chart_build(c, rs, spec, &err);
	if (rc)
		print_message("chart_build: %s\n", err.buf);
	strbuf_release(&err);
	return rc;
}

static void test_numeric_x_is_log2_line(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw" };
	static const char *const labels[] = { "512", "2K", "8K", "32K",
					      "128K", "512K" };

	(void)state;
	sweep(&rs);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_int_equal(c.kind, CHART_LINE);
	assert_string_equal(c.x.key, "bs");
	assert_int_equal(c.x.scale, AXIS_LOG2);
	assert_int_equal(c.x.nticks, 6);
	for (size_t i = 0; i < c.x.nticks; i++) {
		assert_string_equal(c.x.ticks[i].label, labels[i]);
		near(c.x.ticks[i].pos, ldexp(512, 2 * (int)i), 0);
	}
	/* the end points sit inside the frame */
	assert_true(c.x.min < 512 && c.x.max > 1048576);
	assert_int_equal(c.nseries, 2);
	assert_string_equal(c.series[0].name, "read");
	assert_string_equal(c.series[1].name, "write");
	assert_int_equal(c.series[0].n, 12);
	/* 2400 MB/s at most: GB/s, values divided by 1e9 */
	assert_string_equal(c.y.unit.name, "GB/s");
	near(c.series[1].p[11].y, 2.4, 1e-12);
	near(c.series[0].p[0].x, 512, 0);
	assert_string_equal(c.y.title, "Throughput (GB/s)");
	assert_string_equal(c.x.title, "Block size");
	assert_string_equal(c.title, "Throughput by block size");
	/* bars and lines start at 0; ticks are whole steps */
	near(c.y.min, 0, 0);
	near(c.y.max, 2.5, 1e-12);
	assert_string_equal(c.y.ticks[1].label, "0.5");
	assert_int_equal(c.errorbars, CHART_ERR_NONE);
	/* what every point shares, in words: the host alone */
	assert_string_equal(c.subtitle, "fio \xc2\xb7 a");
	assert_string_equal(c.footer, "Data: a");
	chart_release(&c);
	result_set_release(&rs);
}

static void test_categories_in_op_order(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw", .units = "MiB/s" };
	static const char *const ops[] = { "randwrite", "write", "read" };

	(void)state;
	result_set_init(&rs);
	for (int i = 0; i < 3; i++)
		measurement_add_value(add(&rs, ops[i], "bw", "B/s", NULL, 0),
				      (i + 1) * 1048576.0);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_int_equal(c.kind, CHART_BAR);
	assert_int_equal(c.x.scale, AXIS_CATEGORY);
	assert_int_equal(c.x.ncat, 3);
	assert_string_equal(c.x.cat[0], "read");
	assert_string_equal(c.x.cat[1], "write");
	assert_string_equal(c.x.cat[2], "randwrite");
	near(c.x.min, -0.5, 0);
	near(c.x.max, 2.5, 0);
	assert_int_equal(c.nseries, 1);
	assert_string_equal(c.series[0].name, "");
	/* read was added last with 3 MiB/s, and sits at category 0 */
	near(c.series[0].p[0].x, 0, 0);
	near(c.series[0].p[0].y, 3, 1e-12);
	assert_string_equal(c.y.title, "Throughput (MiB/s)");
	chart_release(&c);
	result_set_release(&rs);
}

/* Three runs of 100, 110, 120 MB/s: mean 110, sd 10, t(0.975, 2). */
static void test_repetitions_give_ci(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw" };
	double half = 4.302652729911275 * 10 / sqrt(3);
	struct measurement *m;

	(void)state;
	result_set_init(&rs);
	m = add(&rs, "read", "bw", "B/s", NULL, 0);
	measurement_add_value(m, 100e6);
	measurement_add_value(m, 110e6);
	measurement_add_value(m, 120e6);
	measurement_add_value(add(&rs, "write", "bw", "B/s", NULL, 0), 50e6);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_int_equal(c.errorbars, CHART_ERR_CI);
	assert_string_equal(c.y.unit.name, "MB/s");
	near(c.series[0].p[0].y, 110, 1e-9);
	near(c.series[0].p[0].lo, 110 - half, 1e-6);
	near(c.series[0].p[0].hi, 110 + half, 1e-6);
	assert_int_equal(c.series[0].p[0].n, 3);
	/* a single run has no error bar */
	assert_true(isnan(c.series[0].p[1].lo));
	assert_non_null(strstr(c.footer, "95% confidence interval"));
	chart_release(&c);

	spec.errorbars = CHART_ERR_MINMAX;
	spec.stat = CHART_STAT_MEDIAN;
	assert_int_equal(build(&c, &rs, &spec), 0);
	near(c.series[0].p[0].lo, 100, 1e-9);
	near(c.series[0].p[0].hi, 120, 1e-9);
	chart_release(&c);

	spec.kind = CHART_BOX;
	assert_int_equal(build(&c, &rs, &spec), 0);
	near(c.series[0].p[0].box[1], 105, 1e-9);
	near(c.series[0].p[0].box[2], 110, 1e-9);
	near(c.series[0].p[0].box[3], 115, 1e-9);
	chart_release(&c);
	result_set_release(&rs);
}

/* A printed summary: population sd 10 of 4 runs is sample sd 11.547. */
static void test_summary_only(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw", .errorbars = CHART_ERR_SD };
	struct measurement *m;

	(void)state;
	result_set_init(&rs);
	m = add(&rs, "read", "bw", "B/s", NULL, 0);
	*measurement_add_summary(m) = (struct summary){ 1, 4, 100e6, 10e6,
							80e6, 120e6, 1 };
	assert_int_equal(build(&c, &rs, &spec), 0);
	near(c.series[0].p[0].y, 100, 1e-9);
	near(c.series[0].p[0].hi - 100, 10 * sqrt(4.0 / 3), 1e-9);
	chart_release(&c);
	result_set_release(&rs);
}

static void test_iops_ticks_read_k(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "iops" };
	char buf[32];

	(void)state;
	result_set_init(&rs);
	measurement_add_value(add(&rs, "randread", "iops", "1/s", NULL, 0),
			      61234);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_string_equal(c.y.unit.name, "IOPS");
	assert_string_equal(c.y.title, "IOPS");
	assert_string_equal(c.y.ticks[0].label, "0");
	assert_string_equal(c.y.ticks[1].label, "20k");
	assert_string_equal(chart_format_y(&c, 61234, buf, sizeof(buf)),
			    "61.2k");
	chart_release(&c);
	result_set_release(&rs);
}

/*
 * A title says "IOPS by I/O depth": only a capitalised word is put in
 * lower case after "by" ("Block size" -> "block size"), never an
 * acronym's capital ("I/O depth" read "i/O depth" in every fio iodepth
 * sweep of a report).
 */
static void test_title_keeps_acronyms(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "iops", .x = "iodepth" };

	(void)state;
	result_set_init(&rs);
	for (int d = 1; d <= 32; d *= 2) {
		struct measurement *m = add(&rs, "randread", "iops", "1/s",
					    NULL, 0);

		labels_setf(&m->labels, "iodepth", "%d", d);
		measurement_add_value(m, 10000.0 * d);
	}
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_string_equal(c.x.title, "I/O depth");
	assert_string_equal(c.title, "IOPS by I/O depth");
	chart_release(&c);
	result_set_release(&rs);
}

static void test_percentiles_in_nines(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "clat" };
	static const char *const pct[] = { "p50", "p90", "p99", "p99.9" };
	static const char *const metric[] = { "clat.p50", "clat.p90",
					      "clat.p99", "clat.p99.9" };
	char buf[32];

	(void)state;
	result_set_init(&rs);
	for (int i = 0; i < 4; i++)
		measurement_add_value(add(&rs, "randread", metric[3 - i], "s",
					  NULL, 0), 100e-6 * (3 - i + 1));
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_int_equal(c.kind, CHART_PERCENTILES);
	assert_int_equal(c.x.scale, AXIS_NINES);
	assert_int_equal(c.x.nticks, 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(c.x.ticks[i].label, pct[i]);
	assert_int_equal(c.series[0].n, 4);
	near(c.series[0].p[0].x, log10(2), 1e-12);
	near(c.series[0].p[3].x, 3, 1e-9);
	assert_string_equal(c.y.unit.name, "us");
	near(c.series[0].p[3].y, 400, 1e-9);
	assert_string_equal(chart_format_x(&c, 4, buf, sizeof(buf)),
			    "p99.99");
	assert_string_equal(c.title, "Completion latency percentiles");
	chart_release(&c);
	result_set_release(&rs);
}

/* Buckets at 1, 2, 4 ms with 50, 40, 10 samples. */
static struct measurement *hist(struct result_set *rs, const char *host)
{
	struct measurement *m = add(rs, "randread", "clat", "s", host, 4096);
	struct summary *sm;

	m->hist.n = 3;
	m->hist.value = malloc(3 * sizeof(double));
	m->hist.count = malloc(3 * sizeof(uint64_t));
	for (int i = 0; i < 3; i++)
		m->hist.value[i] = 1e-3 * (1 << i);
	m->hist.count[0] = 50;
	m->hist.count[1] = 40;
	m->hist.count[2] = 10;
	sm = measurement_add_summary(m);
	sm->n = 1;
	sm->mean = 1.7e-3;
	return m;
}

static void test_cdf_and_percentiles_from_histograms(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "clat", .kind = CHART_CDF };

	(void)state;
	result_set_init(&rs);
	hist(&rs, "a");
	hist(&rs, "b");
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_int_equal(c.nseries, 2);
	assert_string_equal(c.series[0].name, "a");
	assert_int_equal(c.series[0].n, 3);
	assert_string_equal(c.x.unit.name, "ms");
	near(c.series[0].p[0].x, 1, 1e-12);
	near(c.series[0].p[0].y, 50, 1e-12);
	near(c.series[0].p[1].y, 90, 1e-12);
	near(c.series[0].p[2].y, 100, 1e-12);
	near(c.y.max, 100, 0);
	chart_release(&c);

	spec.kind = CHART_PERCENTILES;
	assert_int_equal(build(&c, &rs, &spec), 0);
	/* p50 is the first bucket, p90 the second, above that the third */
	near(c.series[0].p[0].y, 1, 1e-12);
	for (size_t i = 0; i < c.series[0].n; i++) {
		double x = c.series[0].p[i].x, y = c.series[0].p[i].y;

		if (x < 1 - 1e-9)
			assert_true(y < 2.5);
		if (x > 1 + 1e-9)
			near(y, 4, 1e-12);
	}
	/* 100 samples support p99 and no finer percentile */
	near(c.series[0].p[c.series[0].n - 1].x, 2, 0.021);
	chart_release(&c);

	spec.from = CHART_FROM_METRICS;
	assert_int_not_equal(build(&c, &rs, &spec), 0);
	chart_release(&c);
	result_set_release(&rs);
}

static void test_ratio_around_one(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw", .ratio = "host=b/host=a" };

	(void)state;
	result_set_init(&rs);
	measurement_add_value(add(&rs, "read", "bw", "B/s", "a", 4096), 200);
	measurement_add_value(add(&rs, "read", "bw", "B/s", "b", 4096), 150);
	measurement_add_value(add(&rs, "read", "bw", "B/s", "a", 8192), 100);
	measurement_add_value(add(&rs, "read", "bw", "B/s", "b", 8192), 120);
	measurement_add_value(add(&rs, "read", "bw", "B/s", "b", 16384), 1);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_true(c.ratio);
	/* a block-size sweep: the ratio as a line over sizes, not bars */
	assert_int_equal(c.kind, CHART_LINE);
	near(c.baseline, 1, 0);
	assert_int_not_equal(c.x.scale, AXIS_CATEGORY);
	assert_int_equal(c.nseries, 1);
	assert_int_equal(c.series[0].n, 2);
	near(c.series[0].p[0].y, 0.75, 1e-12);
	near(c.series[0].p[1].y, 1.2, 1e-12);
	assert_true(c.y.min < 0.75 && c.y.max > 1.2);
	/* 16K has no host=a to divide by: said, not drawn */
	assert_int_equal(c.nnotes, 1);
	assert_string_equal(c.y.title, "Throughput, b / a");
	chart_release(&c);

	spec.ratio = "host=b/kind=a";
	assert_int_not_equal(build(&c, &rs, &spec), 0);
	chart_release(&c);
	result_set_release(&rs);
}

static void test_errors(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "iops" };
	struct strbuf err = STRBUF_INIT;

	(void)state;
	sweep(&rs);
	chart_init(&c);
	assert_int_equal(chart_build(&c, &rs, &spec, &err), -1);
	assert_string_equal(err.buf, "no measurement of metric 'iops' "
			    "matches");
	strbuf_reset(&err);
	spec.y = "bw";
	spec.units = "ms";
	assert_int_equal(chart_build(&c, &rs, &spec, &err), -1);
	assert_non_null(strstr(err.buf, "does not fit"));
	strbuf_reset(&err);
	spec.units = NULL;
	spec.kind = CHART_CDF;
	assert_int_equal(chart_build(&c, &rs, &spec, &err), -1);
	assert_non_null(strstr(err.buf, "histogram"));
	chart_release(&c);
	strbuf_release(&err);
	result_set_release(&rs);
}

/*
 * The input's name only restates host: it is no key of its own (the
 * experiment model's distinguishing keys); host goes on x, the op, which
 * reads best as the series, makes the series.
 */
static void test_restated_keys_left_out(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw" };

	(void)state;
	result_set_init(&rs);
	measurement_add_value(add(&rs, "read", "bw", "B/s", "a", 4096), 1);
	measurement_add_value(add(&rs, "write", "bw", "B/s", "a", 4096), 1);
	measurement_add_value(add(&rs, "read", "bw", "B/s", "b", 4096), 1);
	measurement_add_value(add(&rs, "write", "bw", "B/s", "b", 4096), 1);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_string_equal(c.x.key, "host");
	assert_int_equal(c.nseries, 2);
	assert_string_equal(c.series[0].name, "read");
	assert_string_equal(c.series[1].name, "write");
	chart_release(&c);
	result_set_release(&rs);
}

static void test_axis_frac(void **state)
{
	struct chart_axis a = { .scale = AXIS_LOG2, .min = 512,
				.max = 524288 };

	(void)state;
	near(chart_axis_frac(&a, 512), 0, 1e-12);
	near(chart_axis_frac(&a, 16384), 0.5, 1e-12);
	a.scale = AXIS_LINEAR;
	a.min = 0;
	a.max = 4;
	near(chart_axis_frac(&a, 1), 0.25, 1e-12);
}

static void test_chart_table(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw", .x = "bs" };
	struct chart_table t;
	char *h, *cell;

	(void)state;
	result_set_init(&rs);
	measurement_add_value(add(&rs, "read", "bw", "B/s", NULL, 4096), 2e8);
	measurement_add_value(add(&rs, "read", "bw", "B/s", NULL, 8192), 3e8);
	measurement_add_value(add(&rs, "write", "bw", "B/s", NULL, 8192), 1e8);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_int_equal(chart_table_build(&c, &t), 0);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(t.ncols, 2);
	assert_string_equal(t.xlabel[0], "4K");
	h = chart_table_header(&c, 1);
	assert_string_equal(h, "write (MB/s)");
	cell = chart_table_cell(&c, &t, 0, 1);
	assert_string_equal(cell, "");
	free(cell);
	cell = chart_table_cell(&c, &t, 1, 0);
	assert_string_equal(cell, "300");
	free(cell);
	free(h);
	chart_table_release(&t);
	chart_release(&c);
	result_set_release(&rs);
}

/*
 * Whiskers set no axis.  Three runs 10, 100, 190 MB/s: the 95% interval
 * of the mean, 100 +- 223.6, reaches below zero and far above.  The
 * point keeps the interval's true ends (the JSON has them: it stored 0
 * for the low end), the axis stops at zero and at 1.5 times the data.
 */
static void test_whiskers_set_no_axis(void **state)
{
	struct result_set rs;
	struct chart c;
	struct chart_spec spec = { .y = "bw", .x = "op" };
	struct measurement *m;

	(void)state;
	result_set_init(&rs);
	result_set_add_source(&rs, "in.json", NULL);
	m = add(&rs, "read", "bw", "B/s", NULL, 0);
	measurement_add_value(m, 10e6);
	measurement_add_value(m, 100e6);
	measurement_add_value(m, 190e6);
	m = add(&rs, "write", "bw", "B/s", NULL, 0);
	measurement_add_value(m, 50e6);
	assert_int_equal(build(&c, &rs, &spec), 0);
	assert_int_equal(c.series[0].p[0].bar, BAR_INTERVAL);
	assert_true(c.series[0].p[0].lo < -100);	/* MB/s */
	assert_true(c.series[0].p[0].hi > 300);
	near(c.y.min, 0, 0);
	assert_true(c.y.max <= 150 + 25);
	chart_release(&c);
	result_set_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numeric_x_is_log2_line),
		cmocka_unit_test(test_categories_in_op_order),
		cmocka_unit_test(test_repetitions_give_ci),
		cmocka_unit_test(test_summary_only),
		cmocka_unit_test(test_iops_ticks_read_k),
		cmocka_unit_test(test_title_keeps_acronyms),
		cmocka_unit_test(test_percentiles_in_nines),
		cmocka_unit_test(test_cdf_and_percentiles_from_histograms),
		cmocka_unit_test(test_ratio_around_one),
		cmocka_unit_test(test_whiskers_set_no_axis),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_restated_keys_left_out),
		cmocka_unit_test(test_axis_frac),
		cmocka_unit_test(test_chart_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
