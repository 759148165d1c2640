/*
 * The report's tables: for every chart the pivot `storan table` prints
 * for the same selection (rows: the chart's x key, columns: its series
 * key, the chart's display unit; a ratio table for a ratio chart), with
 * the findings of storan check as numbered footnotes on the cells they
 * touch (analysis/footnotes.h), exactly as `storan table` marks them.
 *
 * Percentile curves drawn from FAMILY.pNN metrics are no pivot of one
 * metric: their table is the chart's points.  CDFs have no table (the
 * workbook holds their points).  Either way the chart's caption cites the
 * footnotes of every measurement it draws, numbered after its table's, so
 * the numbers under a table and beside its chart agree.
 */
#include "report.h"
#include "../analysis/table.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The pivot of chart rc's selection; 0, or -1 when it cannot be one. */
static int build_pivot(const struct report_chart *rc,
		       const struct result_set *rs, struct pivot *pv)
{
	const struct chart *c = &rc->chart;
	char *rows[1] = { rc->x_key }, *cols[1] = { rc->series_key };
	struct pivot_options opt = {
		.metric = c->metric, .row_keys = rows, .nrow_keys = 1,
		.col_keys = cols, .ncol_keys = rc->series_key ? 1 : 0,
		.where = rc->where.n ? &rc->where : NULL, .stat = PIVOT_MEAN,
		.keep_lacking = 1,	/* as the chart: "no section" */
	};
	struct strbuf err = STRBUF_INIT;
	char *key = NULL, *num = NULL, *den = NULL;
	int ret = -1;

	if (c->kind == CHART_CDF || c->kind == CHART_PERCENTILES ||
	    (!rc->series_key && c->nseries > 1))
		return -1;
	if (!rc->ratio || !pivot_ratio_parse(rc->ratio, &key, &num, &den)) {
		opt.ratio_key = key;
		opt.ratio_num = num;
		opt.ratio_den = den;
		ret = pivot_build(pv, rs, &opt, &err);
	}
	free(key);
	free(num);
	free(den);
	strbuf_release(&err);
	return ret;
}

/* Marks the pivot's cells with the findings that touch them. */
static void mark_pivot(struct report *r, struct report_chart *rc,
		       const struct pivot *pv)
{
	for (size_t row = 0; row < pv->nrows; row++) {
		for (size_t col = 0; col < pv->ncols; col++) {
			size_t n;
			const size_t *mi = pivot_cell_members(pv, row, col,
							      &n);

			footnotes_mark_cell(r->fn, &rc->table, row,
					    pv->nrow_keys + col, r->fn_set,
					    mi, n);
		}
	}
}

/* Percentile curves: the chart's points, x down, series across. */
static int points_table(struct report_chart *rc)
{
	const struct chart *c = &rc->chart;
	struct chart_table t;

	if (c->kind == CHART_CDF || chart_table_build(c, &t))
		return -1;
	fmt_table_init(&rc->table, NULL);
	fmt_table_add_column(&rc->table, c->x.key ? c->x.key : "x",
			     c->x.title, 0);
	for (size_t s = 0; s < t.ncols; s++) {
		char *h = chart_table_header(c, s);

		fmt_table_add_column(&rc->table, *c->series[s].name ?
				     c->series[s].name : c->metric, h, 1);
		free(h);
	}
	for (size_t row = 0; row < t.nrows; row++) {
		size_t r = fmt_table_add_row(&rc->table);

		fmt_table_set_cell(&rc->table, r, 0, t.xlabel[row], NULL);
		for (size_t s = 0; s < t.ncols; s++) {
			char *text = chart_table_cell(c, &t, row, s);

			fmt_table_set_number(&rc->table, r, 1 + s,
					     t.y[row * t.ncols + s], text);
			free(text);
		}
	}
	chart_table_release(&t);
	return 0;
}

static void chart_tables(struct report *r, struct report_chart *rc)
{
	size_t alloc = 0;
	struct pivot pv;

	if (!build_pivot(rc, r->rs, &pv)) {
		pivot_to_fmt(&pv, rc->chart.ratio ? NULL : &rc->chart.y.unit,
			     0.05, &rc->table);
		if (r->fn)
			mark_pivot(r, rc, &pv);
		pivot_release(&pv);
		rc->pivot = 1;
		rc->has_table = 1;
	} else if (!points_table(rc)) {
		rc->has_table = 1;
	} else {
		fmt_table_init(&rc->table, NULL);
	}
	if (!r->fn)
		return;
	rc->nmarks = footnotes_cite(r->fn, r->fn_set, rc->chart.members,
				    rc->chart.nmembers, &rc->marks, &alloc);
	footnotes_to_fmt(r->fn, &rc->table);
	footnotes_restart(r->fn);
}

void report_tables(struct report *r)
{
	for (size_t i = 0; i < r->n; i++)
		chart_tables(r, &r->charts[i]);
}
