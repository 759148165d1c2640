/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report's tables: every chart's points as a table -- one row per x,
 * one column per series, in the chart's display unit, each cell with the
 * whisker of its point ("239 ± 3.1" for an interval, "239 (228, 250)"
 * for two runs) -- so that a table never says other than its chart.
 * Cells cite storan check's findings on the measurements behind their
 * own point only (a read cell never points at a note about a write),
 * numbered once for the whole report (analysis/footnotes.h); the page
 * lists them once, in its caveats box.  CDFs have no table (the workbook
 * holds their points).
 */
#include "chart-table.h"
#include "tables.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void points_table(struct report *r, struct report_chart *rc)
{
	const struct chart *c = &rc->chart;
	struct chart_table t;

	if (chart_table_build(c, &t))
		return;
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
		size_t k = fmt_table_add_row(&rc->table);

		fmt_table_set_cell(&rc->table, k, 0, t.xlabel[row], NULL);
		for (size_t s = 0; s < t.ncols; s++) {
			const struct chart_point *p = t.at[row * t.ncols + s];
			char *text = chart_table_cell(c, &t, row, s);

			fmt_table_set_number(&rc->table, k, 1 + s,
					     t.y[row * t.ncols + s], text);
			free(text);
			if (r->fn && p && p->nmembers)
				footnotes_mark_cell(r->fn, &rc->table, k,
						    1 + s, r->fn_set,
						    c->point_members + p->first,
						    p->nmembers);
		}
	}
	if (c->pooled)
		fmt_table_add_note(&rc->table, "%s", c->pooled);
	chart_table_release(&t);
	rc->has_table = 1;
}

void report_tables(struct report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct report_chart *rc = &r->charts[i];
		size_t alloc = 0;

		points_table(r, rc);
		if (!rc->has_table)
			fmt_table_init(&rc->table, NULL);
		if (r->fn)
			rc->nmarks = footnotes_cite(r->fn, r->fn_set,
						    rc->chart.members,
						    rc->chart.nmembers,
						    &rc->marks, &alloc);
	}
}
