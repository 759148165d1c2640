/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The page's verdict table (analysis/verdicts.c): which rows a page shows
 * when a comparison has thousands (the largest changes, in test order),
 * and what a row's test text names (the labels that differ between rows,
 * never those every row shares).  Built on hand-made compare results:
 * the table must not depend on how compare found them.
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

#include "analysis/verdicts.h"
#include "core/xalloc.h"

static void add_row(struct compare_result *r, const char *metric,
		    const char *labels, double ratio, enum verdict v)
{
	struct compare_row *row;
	char *copy = xstrdup(labels), *p = copy;

	ALLOC_GROW(r->rows, r->nrows + 1, r->rows_alloc);
	row = &r->rows[r->nrows++];
	memset(row, 0, sizeof(*row));
	row->tool = "fio";
	row->op = "randread";
	row->metric = pool_strdup(&r->pool, metric);
	row->unit = strcmp(metric, "bw") ? "1/s" : "B/s";
	labels_init(&row->labels);
	while (p && *p) {
		char *semi = strchr(p, ';'), *eq;

		if (semi)
			*semi = '\0';
		eq = strchr(p, '=');
		*eq = '\0';
		labels_set(&row->labels, p, eq + 1);
		p = semi ? semi + 1 : NULL;
	}
	row->a.n = row->b.n = 3;
	row->a.mean = 100;
	row->b.mean = 100 * ratio;
	row->ratio = ratio;
	row->change_pct = (ratio - 1) * 100;
	row->p = 0.01;
	row->verdict = v;
	free(copy);
}

static void release(struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		labels_release(&r->rows[i].labels);
	free(r->rows);
	pool_release(&r->pool);
}

/* 100 rows, three of them real changes: those come first, then the
 * largest inconclusive ones, and the picks keep the tests' order. */
static void test_pick_largest_changes_in_order(void **state)
{
	struct compare_result r = { 0 };
	size_t rows[128], nshown, n;
	char l[32];

	(void)state;
	for (int i = 0; i < 100; i++) {
		double ratio = 1.0 + 0.001 * i;
		enum verdict v = VERDICT_UNCHANGED;

		if (i == 10 || i == 50 || i == 90) {
			ratio = i == 50 ? 0.5 : 1.3;
			v = i == 50 ? VERDICT_REGRESSION : VERDICT_IMPROVEMENT;
		} else if (i == 20 || i == 70) {
			ratio = i == 20 ? 0.8 : 1.1;
			v = VERDICT_INCONCLUSIVE;
		}
		snprintf(l, sizeof(l), "iodepth=%d", i + 1);
		add_row(&r, "bw", l, ratio, v);
	}
	add_row(&r, "cpu.usr", "iodepth=1", 9.0, VERDICT_IMPROVEMENT);
	n = verdicts_pick(&r, 1, 4, rows, &nshown);
	assert_int_equal(nshown, 100);	/* cpu.usr is no headline */
	assert_int_equal(n, 4);
	assert_int_equal(rows[0], 10);
	assert_int_equal(rows[1], 20);	/* 0.8 beats 1.1 on a log scale */
	assert_int_equal(rows[2], 50);
	assert_int_equal(rows[3], 90);
	n = verdicts_pick(&r, 0, 0, rows, &nshown);
	assert_int_equal(n, 101);
	assert_int_equal(rows[100], 100);
	release(&r);
}

/* The test text names iodepth (it differs) but not host (all share it),
 * even when the rows picked happen to share their iodepth too. */
static void test_text_names_what_differs(void **state)
{
	struct compare_result r = { 0 };
	struct fmt_table t;
	size_t rows[] = { 1 };

	(void)state;
	add_row(&r, "bw", "host=a;iodepth=1", 1.0, VERDICT_UNCHANGED);
	add_row(&r, "bw", "host=a;iodepth=32", 1.5, VERDICT_IMPROVEMENT);
	add_row(&r, "iops", "host=a;iodepth=32", 1.5, VERDICT_IMPROVEMENT);
	verdicts_table(&r, 1, rows, 1, "old", "new", &t);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(fmt_cell_text(fmt_table_cell(&t, 0, 0)),
			    "randread iodepth=32");
	assert_string_equal(fmt_cell_text(fmt_table_cell(&t, 0, 7)), "improvement");
	fmt_table_release(&t);
	release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_largest_changes_in_order),
		cmocka_unit_test(test_text_names_what_differs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
