/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report's plan (analysis/plan.c): which key goes on x, which are the
 * series, which become facets and how facets are named in a title; the
 * cut that keeps a page to a handful of charts; ratio charts first in a
 * comparison.  Each case is a way a page could mislead or drown a reader.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "core/xalloc.h"

static const double three[] = { 100, 110, 120 };

/* A bw and an iops measurement of op with labels "k=v;k=v", three runs. */
static void add(struct result_set *rs, const char *source, const char *op,
		const char *labels)
{
	static const char *const metric[] = { "bw", "iops" };
	static const char *const unit[] = { "B/s", "1/s" };
	size_t src = SIZE_MAX;

	for (size_t i = 0; i < rs->nsources; i++)
		if (!strcmp(rs->sources[i].name, source))
			src = i;
	if (src == SIZE_MAX)
		src = result_set_add_source(rs, source, NULL);
	for (size_t k = 0; k < 2; k++) {
		struct measurement *m = result_set_add_from(
			rs, "fio", op, metric[k], unit[k], src, source, 1);
		char *copy = xstrdup(labels), *p = copy;

		while (p && *p) {
			char *semi = strchr(p, ';'), *eq;

			if (semi)
				*semi = '\0';
			eq = strchr(p, '=');
			*eq = '\0';
			labels_set(&m->labels, p, eq + 1);
			p = semi ? semi + 1 : NULL;
		}
		for (size_t i = 0; i < 3; i++)
			measurement_add_value(m, three[i] * (double)(k + 1));
		free(copy);
	}
}

static const struct plan_chart *find(const struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->ncharts; i++)
		if (!strcmp(p->charts[i].name, name))
			return &p->charts[i];
	return NULL;
}

/* A block-size sweep of four ops on two hosts: bs on x, the ops as
 * series, a chart per host, and the host named in words. */
static void test_sweep_x_series_facets(void **state)
{
	static const char *const ops[] = { "read", "write", "randread",
					   "randwrite" };
	struct result_set rs;
	struct plan p = { 0 };
	struct strbuf err = STRBUF_INIT;
	const struct plan_chart *c;
	char l[64];

	(void)state;
	result_set_init(&rs);
	for (int h = 0; h < 2; h++)
		for (int o = 0; o < 4; o++)
			for (int b = 0; b < 4; b++) {
				snprintf(l, sizeof(l), "host=h%d;bs=%d", h,
					 4096 << b);
				add(&rs, "sweep.json", ops[o], l);
			}
	assert_int_equal(plan_build(&p, &rs, 1, &(struct plan_options){ 0 },
				    &err), 0);
	assert_int_equal(p.ncharts, 4);	/* bw and iops, per host */
	c = find(&p, "fio-bw-h1");
	assert_non_null(c);
	assert_string_equal(c->x, "bs");
	assert_string_equal(c->series, "op");
	assert_string_equal(c->facets, "h1");
	assert_int_equal(c->nmembers, 4 * 4 * 1);
	plan_release(&p);
	result_set_release(&rs);
	strbuf_release(&err);
}

/* Facets in words ("direct I/O"), and so are the file names; two
 * keys of two values each are folded into the series. */
static void test_facet_words(void **state)
{
	struct result_set rs;
	struct plan p = { 0 };
	struct strbuf err = STRBUF_INIT;
	char l[128];

	(void)state;
	result_set_init(&rs);
	for (int b = 0; b < 2; b++)
		for (int d = 0; d < 2; d++)
			for (int j = 0; j < 2; j++)
				for (int x = 0; x < 2; x++) {
					snprintf(l, sizeof(l),
						 "bs=%d;iodepth=%d;numjobs=%d;"
						 "direct=%d", 4096 << (4 * b),
						 1 << (5 * d), 1 << (2 * j), x);
					add(&rs, "grid.json", "randread", l);
				}
	assert_int_equal(plan_build(&p, &rs, 1, &(struct plan_options){ 0 },
				    &err), 0);
	assert_true(p.ncharts > 0);
	for (size_t i = 0; i < p.ncharts; i++) {
		const char *f = p.charts[i].facets;

		assert_non_null(f);
		assert_null(strchr(f, '='));	/* never raw key=value */
	}
	{
		int found = 0;

		for (size_t i = 0; i < p.ncharts; i++)
			found |= !strcmp(p.charts[i].facets, "direct I/O");
		assert_true(found);
	}
	/* iodepth and numjobs (2 x 2 lines) are the series, direct the
	 * facet: a chart for buffered and one for direct I/O */
	assert_non_null(find(&p, "fio-bw-direct-i-o"));
	assert_string_equal(find(&p, "fio-bw-direct-i-o")->series,
			    "iodepth,numjobs");
	plan_release(&p);
	result_set_release(&rs);
	strbuf_release(&err);
}

/* 5 hosts x 5 depths x 4 job counts: 100 combinations are cut down to a
 * handful by pinning, and a note says what was left out. */
static void test_many_facets_pinned(void **state)
{
	struct result_set rs;
	struct plan p = { 0 };
	struct strbuf err = STRBUF_INIT;
	char l[96];

	(void)state;
	result_set_init(&rs);
	for (int h = 0; h < 5; h++)
		for (int d = 0; d < 5; d++)
			for (int j = 0; j < 4; j++)
				for (int b = 0; b < 3; b++) {
					snprintf(l, sizeof(l),
						 "host=h%d;iodepth=%d;"
						 "numjobs=%d;bs=%d", h,
						 1 << (2 * d), 1 << j,
						 4096 << b);
					add(&rs, "big.json", "read", l);
				}
	assert_int_equal(plan_build(&p, &rs, 1, &(struct plan_options){ 0 },
				    &err), 0);
	assert_true(p.ncharts <= 2 * PLAN_MAX_FACETS);
	assert_true(p.nnotes > 0);
	assert_non_null(strstr(p.notes[0], "shown at"));
	plan_release(&p);
	result_set_release(&rs);
	strbuf_release(&err);
}

/* Two inputs of the same tests: a comparison; the ratio charts come
 * first, then the sides as the series. */
static void test_comparison_ratio_first(void **state)
{
	struct result_set rs[2];
	struct plan p = { 0 };
	struct strbuf err = STRBUF_INIT;
	char l[64];

	(void)state;
	for (int s = 0; s < 2; s++) {
		result_set_init(&rs[s]);
		for (int b = 0; b < 3; b++) {
			snprintf(l, sizeof(l), "bs=%d", 4096 << b);
			add(&rs[s], s ? "new.json" : "old.json", "randread",
			    l);
		}
	}
	assert_int_equal(plan_build(&p, rs, 2, &(struct plan_options){ 0 },
				    &err), 0);
	assert_int_equal(p.nsides, 2);
	/* the throughput's ratio (IOPS at one block size: the same ratio,
	 * no chart of its own), then bw and iops side by side */
	assert_int_equal(p.ncharts, 3);
	assert_int_equal(p.charts[0].ratio_side, 1);
	assert_string_equal(p.charts[0].name, "fio-bw-ratio-1");
	for (size_t i = 1; i < p.ncharts; i++) {
		assert_int_equal(p.charts[i].ratio_side, 0);
		assert_non_null(strstr(p.charts[i].series, "input"));
	}
	plan_release(&p);
	for (int s = 0; s < 2; s++)
		result_set_release(&rs[s]);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_x_series_facets),
		cmocka_unit_test(test_facet_words),
		cmocka_unit_test(test_many_facets_pinned),
		cmocka_unit_test(test_comparison_ratio_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
