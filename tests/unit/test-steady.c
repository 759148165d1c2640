/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Steady state (analysis/steady.c): fio's arithmetic, rules, verdicts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/steady.h"
#include "core/series.h"
#include "core/strbuf.h"

static void test_parse(void **state)
{
	struct steady_rule r;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(steady_parse("iops:5%", &r, &err), 0);
	assert_int_equal(r.kind, STEADY_DEVIATION);
	assert_string_equal(r.metric, "iops");
	assert_true(r.pct);
	assert_float_equal(r.limit, 5, 0);
	assert_float_equal(r.dur, 30, 0);
	assert_int_equal(steady_parse("bw_slope:0.1%,dur=60,ramp=10s", &r,
				      &err), 0);
	assert_int_equal(r.kind, STEADY_SLOPE);
	assert_string_equal(r.metric, "bw");
	assert_float_equal(r.dur, 60, 0);
	assert_float_equal(r.ramp, 10, 0);
	assert_int_equal(steady_parse("lat:2000", &r, &err), 0);
	assert_false(r.pct);
	assert_int_equal(steady_parse(STEADY_DEFAULT, &r, &err), 0);
	assert_string_equal(r.metric, "");
	for (size_t i = 0; i < 6; i++) {
		static const char *const bad[] = {
			"iops", "iops:", "iops:-1%", "wiggle:1%",
			"iops:1%,dur=0", "iops:1%,window=3",
		};

		strbuf_reset(&err);
		assert_int_equal(steady_parse(bad[i], &r, &err), -1);
		assert_non_null(strstr(err.buf, "want fio's ss= form"));
	}
	strbuf_release(&err);
}

/*
 * The windows fio 3.33 printed in its JSON (steadystate.data) with its own
 * criterion, for the runs of tests/parsers/fio-log/fio-3.33-ss*.json:
 * ss=iops:5% gave "criterion": "0.400000%", "max_deviation": 2.0;
 * ss=iops_slope:2% gave "criterion": "-0.060000%", "slope": -0.3.
 */
static void test_fio_arithmetic(void **state)
{
	static const double dev[] = { 500, 500, 500, 498, 502 };
	static const double slope[] = { 501, 500, 500, 500 };
	struct steady_rule r;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(steady_parse("iops:5%", &r, &err), 0);
	assert_float_equal(steady_criterion(&r, dev, 5), 0.4, 1e-12);
	r.pct = 0;
	assert_float_equal(steady_criterion(&r, dev, 5), 2.0, 1e-12);
	assert_int_equal(steady_parse("iops_slope:2%", &r, &err), 0);
	assert_float_equal(steady_criterion(&r, slope, 4), -0.06,
			   1e-9);
	r.pct = 0;
	assert_float_equal(steady_criterion(&r, slope, 4), -0.3, 1e-12);
	strbuf_release(&err);
}

/* 1 s samples: a ramp over the first 20 s, then flat within 1%. */
static struct series *ramp_then_flat(size_t n)
{
	struct series *s = series_new(1);

	for (size_t i = 0; i < n; i++) {
		double v = i < 20 ? 1000 + 2000 * (double)i : 40000;

		series_add(s, (double)(i + 1), v + (i % 2 ? 200 : -200));
	}
	return s;
}

static void test_find(void **state)
{
	struct steady_rule r;
	struct steady_result res;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct series *s = ramp_then_flat(60), *noisy = series_new(1);

	(void)state;
	assert_int_equal(steady_parse("iops:1%,dur=10", &r, &err), 0);
	steady_find(s, &r, &res);
	assert_true(res.steady);
	assert_int_equal(res.window, 10);
	assert_int_equal(res.from, 20);		/* the first flat sample */
	assert_float_equal(res.t_from, 20, 0);
	assert_float_equal(res.mean, 40000, 1e-9);
	assert_float_equal(res.spread_pct, 0.5, 1e-9);
	steady_describe(&res, "40k IOPS", &text);
	assert_string_equal(text.buf, "steady from 20 s, 40k IOPS \u00b1 0.5%");
	/* a ramp: 10 s of a slope under 0.1% only once flat */
	assert_int_equal(steady_parse("iops_slope:0.1%,dur=10", &r, &err), 0);
	steady_find(s, &r, &res);
	assert_true(res.steady);
	assert_true(res.from >= 19 && res.from <= 20);
	/* samples before the ramp time are not looked at */
	assert_int_equal(steady_parse("iops:2%,dur=10,ramp=30", &r, &err), 0);
	steady_find(s, &r, &res);
	assert_int_equal(res.from, 30);
	/* +-20% every other second: never within 2% */
	for (size_t i = 0; i < 60; i++)
		series_add(noisy, (double)(i + 1), i % 2 ? 1200 : 800);
	assert_int_equal(steady_parse("iops:2%,dur=10", &r, &err), 0);
	steady_find(noisy, &r, &res);
	assert_false(res.steady);
	assert_false(res.short_run);
	assert_float_equal(res.criterion, 20, 1e-9);
	strbuf_reset(&text);
	steady_describe(&res, "", &text);
	assert_string_equal(text.buf, "never steady (best window 20%)");
	/* a window longer than the run */
	assert_int_equal(steady_parse("iops:2%,dur=120", &r, &err), 0);
	steady_find(s, &r, &res);
	assert_true(res.short_run);
	assert_false(res.steady);
	series_free(s);
	series_free(noisy);
	strbuf_release(&err);
	strbuf_release(&text);
}

/*
 * Every steady-state run of fio beside the fio-log fixtures: the window
 * fio printed (steadystate.data, read+write as fio sums them) gives
 * fio's criterion (printed "%f%%") and its verdict.
 */
static void test_fio_runs(void **state)
{
	static const char *const runs[] = {
		"tests/parsers/fio-log/fio-3.33-ss-iops.json",
		"tests/parsers/fio-log/fio-3.33-ss-slope.json",
		"tests/parsers/fio-log/fio-3.33-ss-never.json",
	};

	(void)state;
	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		json_t *doc = json_load_file(runs[k], 0, NULL), *ss, *data;
		struct steady_rule r;
		struct strbuf err = STRBUF_INIT;
		double y[64], crit;
		size_t n = 0, i;
		json_t *v;

		assert_non_null(doc);
		ss = json_object_get(json_array_get(json_object_get(doc,
				     "jobs"), 0), "steadystate");
		assert_int_equal(steady_parse(json_string_value(
			json_object_get(ss, "ss")), &r, &err), 0);
		data = json_object_get(json_object_get(ss, "data"),
				       r.metric[0] == 'b' ? "bw" : "iops");
		json_array_foreach(data, i, v)
			if (n < 64)
				y[n++] = (double)json_integer_value(v);
		assert_int_equal(n, (size_t)json_integer_value(
			json_object_get(ss, "duration")));
		crit = steady_criterion(&r, y, n);
		assert_float_equal(crit, strtod(json_string_value(
			json_object_get(ss, "criterion")), NULL), 5e-7);
		assert_int_equal(fabs(crit) < r.limit, json_integer_value(
			json_object_get(ss, "attained")));
		json_decref(doc);
		strbuf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_fio_arithmetic),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_fio_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
