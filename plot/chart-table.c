/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A chart's numbers as a table (the report's tables, the workbook's
 * sheets); see chart-table.h.
 */
#include "chart-table.h"
#include "../analysis/stats.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int chart_table_build(const struct chart *c, struct chart_table *t)
{
	size_t n = 0, u = 0;
	char buf[96];

	memset(t, 0, sizeof(*t));
	if (c->kind == CHART_CDF)
		return -1;
	for (size_t s = 0; s < c->nseries; s++) {
		if (c->series[s].n > 60)
			return -1;
		n += c->series[s].n;
	}
	t->x = xmalloc((n ? n : 1) * sizeof(double));
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++)
			t->x[u++] = c->series[s].p[i].x;
	qsort(t->x, u, sizeof(double), stats_cmp_double);
	n = u;
	u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || t->x[u - 1] < t->x[i])
			t->x[u++] = t->x[i];
	t->nrows = u;
	t->ncols = c->nseries;
	t->xlabel = xcalloc(u ? u : 1, sizeof(char *));
	t->y = xmalloc((u * t->ncols + 1) * sizeof(double));
	t->lo = xmalloc((u * t->ncols + 1) * sizeof(double));
	t->hi = xmalloc((u * t->ncols + 1) * sizeof(double));
	t->at = xcalloc(u * t->ncols + 1, sizeof(*t->at));
	for (size_t i = 0; i < u * t->ncols; i++)
		t->y[i] = t->lo[i] = t->hi[i] = NAN;
	for (size_t r = 0; r < u; r++)
		t->xlabel[r] = xstrdup(chart_format_x(c, t->x[r], buf,
						      sizeof(buf)));
	for (size_t s = 0; s < c->nseries; s++) {
		for (size_t i = 0, r = 0; i < c->series[s].n; i++) {
			const struct chart_point *p = &c->series[s].p[i];

			while (t->x[r] < p->x)
				r++;
			t->y[r * t->ncols + s] = p->y;
			t->lo[r * t->ncols + s] = p->lo;
			t->hi[r * t->ncols + s] = p->hi;
			t->at[r * t->ncols + s] = p;
		}
	}
	return 0;
}

void chart_table_release(struct chart_table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		free(t->xlabel[r]);
	free(t->xlabel);
	free(t->x);
	free(t->y);
	free(t->lo);
	free(t->hi);
	free(t->at);
	memset(t, 0, sizeof(*t));
}

char *chart_table_header(const struct chart *c, size_t col)
{
	const char *name = *c->series[col].name ? c->series[col].name :
			   c->metric;
	const char *unit = c->ratio ? "ratio" : c->y.unit.name;

	if (!strcmp(unit, "us"))
		unit = "\xc2\xb5s";
	return xstrfmt("%s (%s)", name, unit);
}

static void format_value(const struct chart *c, double v, char *buf,
			 size_t size)
{
	if (c->ratio)
		snprintf(buf, size, "%.3f", v);
	else
		chart_format_y(c, v, buf, size);
}

/* A whisker's half width in the unit of its value, in plain decimals with
 * three significant digits: "0.0202 ± 0.0000398", not "± 3.98e-05" (a
 * reader compares the two digit by digit). */
static void format_half_width(const struct chart *c, double v, char *buf,
			      size_t size)
{
	int decimals;

	if (c->ratio || !(v > 0 && v < 0.01)) {	/* %g is plain there */
		format_value(c, v, buf, size);
		return;
	}
	decimals = 2 - (int)floor(log10(v));
	snprintf(buf, size, "%.*f", decimals < 0 ? 0 : decimals > 12 ? 12 :
		 decimals, v);
}

char *chart_table_cell(const struct chart *c, const struct chart_table *t,
		       size_t row, size_t col)
{
	size_t i = row * t->ncols + col;
	const struct chart_point *p = t->at[i];
	char y[32], lo[32], hi[32], e[32];
	const char *mark = p && p->sig == 1 ? " *" : "";

	if (isnan(t->y[i]))
		return xstrdup("");
	format_value(c, t->y[i], y, sizeof(y));
	if (!p || p->bar == BAR_NONE || isnan(p->lo) || isnan(p->hi))
		return xstrfmt("%s%s", y, mark);
	if (p->bar == BAR_BOTH || p->bar == BAR_RANGE) {
		format_value(c, p->lo, lo, sizeof(lo));
		format_value(c, p->hi, hi, sizeof(hi));
		return xstrfmt("%s (%s%s%s)%s", y, lo,
			       p->bar == BAR_BOTH ? ", " : "\xe2\x80\x93", hi,
			       mark);
	}
	if (c->ratio && isinf(p->hi))
		return xstrfmt("%s [unbounded]%s", y, mark);
	if (c->ratio) {	/* an interval of a ratio is not symmetric */
		format_value(c, p->lo, lo, sizeof(lo));
		format_value(c, p->hi, hi, sizeof(hi));
		return xstrfmt("%s [%s\xe2\x80\x93%s]%s", y, lo, hi, mark);
	}
	format_half_width(c, (t->hi[i] - t->lo[i]) / 2, e, sizeof(e));
	return xstrfmt("%s \xc2\xb1 %s", y, e);
}
