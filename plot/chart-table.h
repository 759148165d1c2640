/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORAN_PLOT_CHART_TABLE_H
#define STORAN_PLOT_CHART_TABLE_H

#include "chart.h"

/*
 * A chart's numbers as a table: one row per x value, one column per
 * series; y/lo/hi are nrows x ncols, NAN where a series has no point,
 * and at[] the point each cell shows (NULL where none).
 */
struct chart_table {
	size_t nrows, ncols;
	double *x;
	char **xlabel;
	double *y, *lo, *hi;
	const struct chart_point **at;
};

/* 0, or -1 when the chart is a curve (CDF, histogram percentiles). */
int chart_table_build(const struct chart *c, struct chart_table *t);
void chart_table_release(struct chart_table *t);
/* "read (MB/s)": a column header with the unit. */
char *chart_table_header(const struct chart *c, size_t col);
/* "239 ± 3.1" (interval), "239 (228, 250)" (two runs), "239". */
char *chart_table_cell(const struct chart *c, const struct chart_table *t,
		       size_t row, size_t col);

#endif
