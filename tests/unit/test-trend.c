/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The trend page's model (plot/trend.c) as data: series of a store built
 * by analysis/history.c from a store_data made here, their change points
 * found, and the charts planned -- which series come first, what each
 * chart holds (the runs with their repetitions, the means between change
 * points, a line per change point named with ratio, run and verdict) and
 * the change table the page opens with.
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

#include "analysis/format.h"
#include "analysis/history.h"
#include "analysis/stats.h"
#include "core/xalloc.h"
#include "plot/trend.h"

#define NRUNS 30

/* Two dd series over 30 runs, 3 repetitions each: write gets 20% slower
 * from run 20 (index 19), read stays; the runs carry commit labels. */
static void make_data_n(struct store_data *d, size_t nruns)
{
	memset(d, 0, sizeof(*d));
	d->nruns = nruns;
	d->runs = xcalloc(nruns, sizeof(*d->runs));
	for (size_t i = 0; i < nruns; i++) {
		d->runs[i].name = xstrfmt("n%zu", i + 1);
		d->runs[i].time = xstrfmt("2026-01-%02zuT02:00:00Z", i + 1);
		labels_init(&d->runs[i].labels);
		labels_setf(&d->runs[i].labels, "commit", "c%zu", i + 1);
	}
	d->nkeys = 2;
	d->keys = xcalloc(2, sizeof(*d->keys));
	for (size_t k = 0; k < 2; k++) {
		d->keys[k].tool = xstrdup("dd");
		d->keys[k].op = xstrdup(k ? "write" : "read");
		d->keys[k].metric = xstrdup("bw");
		d->keys[k].unit = xstrdup("B/s");
		labels_init(&d->keys[k].labels);
		labels_set(&d->keys[k].labels, "bs", "1048576");
		/* a command label is provenance: no series of its own */
		labels_set(&d->keys[k].labels, "command", "dd ...");
	}
	d->npoints = 2 * nruns;
	d->points = xcalloc(d->npoints, sizeof(*d->points));
	for (size_t i = 0; i < d->npoints; i++) {
		struct store_point *p = &d->points[i];
		size_t run = i / 2, key = i % 2;
		double level = key && run >= 19 ? 400e6 : 500e6;

		p->run = run;
		p->key = key;
		p->n = 3;
		p->values = xmalloc(3 * sizeof(double));
		for (size_t j = 0; j < 3; j++)
			p->values[j] = level * (1 + 0.01 * (double)((run * 7 +
					       j * 3 + key) % 5) / 4.0);
		p->mean = stats_mean(p->values, 3);
	}
}

static void make_data(struct store_data *d)
{
	make_data_n(d, NRUNS);
}

static void test_trend_plan(void **state)
{
	struct store_data d;
	struct history h;
	struct history_change *c;
	struct detect_options o;
	struct result_set rs;
	struct fmt_table lead;
	struct report r;
	const struct chart *ch;
	size_t nc;

	(void)state;
	make_data(&d);
	history_build(&h, &d, NULL);
	assert_int_equal(h.n, 2);
	assert_string_equal(h.s[0].name, "dd read bw bs=1048576");
	assert_int_equal(h.s[0].n, NRUNS);
	assert_int_equal(h.s[0].p[0].n, 3);
	detect_options_init(&o);
	nc = history_detect(&h, &o, &c);
	assert_int_equal(nc, 1);
	assert_int_equal(c[0].series, 1);
	assert_int_equal(c[0].point, 19);
	assert_int_equal(c[0].verdict, HISTORY_REGRESSION);

	result_set_init(&rs);
	report_init(&r);
	fmt_table_init(&lead, NULL);
	assert_int_equal(trend_plan(&r, &h, c, nc, "results.db", NULL, &rs,
				    &lead), 0);
	assert_string_equal(r.title, "History of results.db: 2 series over "
			    "30 runs");
	assert_ptr_equal(r.lead, &lead);
	assert_int_equal(lead.nrows, 1);
	assert_string_equal(lead.title, "Change points: 1, 1 regression(s)");
	assert_int_equal(rs.n, 2 * NRUNS);	/* a measurement per run */
	assert_int_equal(r.n, 2);
	/* the regressed series first */
	ch = &r.charts[0].chart;
	/* in words, as the other charts: the metric, then the conditions */
	assert_string_equal(ch->title, "Throughput over runs");
	assert_non_null(strstr(ch->subtitle, "dd \xc2\xb7 write"));
	assert_null(strstr(ch->subtitle, "series"));
	assert_non_null(strstr(ch->subtitle, "30 runs, n1 "));
	assert_string_equal(r.charts[0].name, "01-trend-dd-write-bw");
	assert_int_equal(ch->nseries, 3);
	assert_int_equal(ch->series[0].n, NRUNS);
	assert_true(ch->series[0].p[0].hi > ch->series[0].p[0].lo);
	assert_string_equal(ch->series[1].name, "mean between change points");
	assert_int_equal(ch->series[1].n, 4);
	assert_true(fabs(ch->series[1].p[1].x - 18.5) < 1e-9);
	assert_true(fabs(ch->series[1].p[2].y / ch->series[1].p[1].y - 0.8) <
		    0.01);
	assert_string_equal(ch->series[2].name,
			    "\xc3\x97" "0.80 at n20 (regression)");
	assert_true(fabs(ch->series[2].p[0].x - 18.5) < 1e-9);
	assert_true(ch->series[2].p[0].y <= ch->series[2].p[1].y);
	assert_int_equal(r.charts[0].has_table, 0);	/* the lead has them */
	assert_string_equal(ch->x.title, "Run (0 = the oldest)");
	assert_int_equal(ch->x.scale, AXIS_LINEAR);
	for (size_t i = 0; i < ch->x.nticks; i++)	/* whole runs */
		assert_false(ch->x.ticks[i].pos > floor(ch->x.ticks[i].pos));
	/* the steady series: its runs alone, no legend, no table */
	ch = &r.charts[1].chart;
	assert_int_equal(ch->nseries, 1);
	assert_string_equal(ch->series[0].name, "");
	assert_int_equal(r.charts[1].has_table, 0);

	report_release(&r);
	fmt_table_release(&lead);
	result_set_release(&rs);
	free(c);
	history_release(&h);
	store_data_release(&d);
}

/* 14 runs (0 to 13): the model's nice step is 2.5, the ticks whole runs. */
static void test_trend_whole_runs(void **state)
{
	struct store_data d;
	struct history h;
	struct result_set rs;
	struct fmt_table lead;
	struct report r;
	const struct chart_axis *x;

	(void)state;
	make_data_n(&d, 14);
	history_build(&h, &d, NULL);
	result_set_init(&rs);
	report_init(&r);
	fmt_table_init(&lead, NULL);
	assert_int_equal(trend_plan(&r, &h, NULL, 0, "results.db", NULL, &rs,
				    &lead), 0);
	x = &r.charts[0].chart.x;
	assert_true(x->nticks >= 3);
	for (size_t i = 0; i < x->nticks; i++) {
		printf("# tick %s at %g\n", x->ticks[i].label, x->ticks[i].pos);
		assert_false(x->ticks[i].pos > floor(x->ticks[i].pos));
		assert_null(strchr(x->ticks[i].label, '.'));
	}
	assert_true(x->min <= 0 && x->max >= 13);
	report_release(&r);
	fmt_table_release(&lead);
	result_set_release(&rs);
	history_release(&h);
	store_data_release(&d);
}

/* A history with no series plans nothing. */
static void test_trend_empty(void **state)
{
	struct store_data d;
	struct history h;
	struct result_set rs;
	struct fmt_table lead;
	struct report r;

	(void)state;
	memset(&d, 0, sizeof(d));
	history_build(&h, &d, NULL);
	result_set_init(&rs);
	report_init(&r);
	fmt_table_init(&lead, NULL);
	assert_int_equal(trend_plan(&r, &h, NULL, 0, "x.db", NULL, &rs,
				    &lead), -1);
	report_release(&r);
	fmt_table_release(&lead);
	result_set_release(&rs);
	history_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trend_plan),
		cmocka_unit_test(test_trend_whole_runs),
		cmocka_unit_test(test_trend_empty),
	};

	return cmocka_run_group_tests_name("trend", tests, NULL, NULL);
}
