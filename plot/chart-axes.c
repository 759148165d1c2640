/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The axes of a chart whose points are built: the y display unit (the
 * points are scaled into it), the range and scale of y and of x
 * (linear, log, nines).  Tick layouts are chart-ticks.c's; a category x
 * axis is laid out with the points (chart-points.c).
 */
#include "chart-private.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
#include <string.h>

/* ---- the y axis -------------------------------------------------------- */

static void scale_points(struct chart *c, double f)
{
	for (size_t i = 0; i < c->nseries; i++) {
		for (size_t j = 0; j < c->series[i].n; j++) {
			struct chart_point *p = &c->series[i].p[j];

			p->y /= f;
			p->lo /= f;
			p->hi /= f;
			for (int k = 0; k < 5; k++)
				p->box[k] /= f;
		}
	}
}

static void data_range(const struct chart *c, int of_x, double *lo,
		       double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < c->nseries; i++) {
		for (size_t j = 0; j < c->series[i].n; j++) {
			const struct chart_point *p = &c->series[i].p[j];
			double v[5] = { of_x ? p->x : p->y, p->lo, p->hi,
					p->box[0], p->box[4] };

			for (int k = 0; k < (of_x ? 1 : 5); k++) {
				if (!isfinite(v[k]))
					continue;
				*lo = v[k] < *lo ? v[k] : *lo;
				*hi = v[k] > *hi ? v[k] : *hi;
			}
		}
	}
}

int chart_choose_y_unit(struct chart *c, const struct chart_spec *spec,
			const char *base_unit, struct strbuf *err)
{
	double lo, hi;
	int binary = spec->units && !strcmp(spec->units, "binary");

	if (c->ratio || c->kind == CHART_CDF) {
		c->y.unit.name = c->ratio ? "" : "%";
		c->y.unit.factor = 1;
		return 0;
	}
	if (spec->units && !binary && strcmp(spec->units, "auto")) {
		if (display_unit_parse(spec->units, base_unit, &c->y.unit)) {
			strbuf_addf(err, "unit '%s' does not fit %s (%s)",
				    spec->units, c->metric, base_unit);
			return -1;
		}
	} else if (!strcmp(base_unit, UNIT_IOPS)) {
		c->y.unit.name = "IOPS";
		c->y.unit.factor = 1;
	} else {
		data_range(c, 0, &lo, &hi);
		display_unit_auto(base_unit, fabs(hi) > fabs(lo) ? hi : lo,
				  binary, &c->y.unit);
	}
	scale_points(c, c->y.unit.factor);
	return 0;
}

/*
 * The y range: the data, and the whiskers as far as twice the data's
 * span above it (a wild interval of three runs must not squash the
 * data into the bottom of the chart; the renderer marks a whisker cut
 * there with an arrow).
 */
static void y_range(const struct chart *c, double *lo, double *hi)
{
	double dlo = INFINITY, dhi = -INFINITY;

	data_range(c, 0, lo, hi);
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++) {
			double y = c->series[i].p[j].y;

			dlo = y < dlo ? y : dlo;
			dhi = y > dhi ? y : dhi;
		}
	/* whiskers set no axis: it stops half the data's span above the
	 * data, and at zero below figures that cannot be negative; a
	 * whisker cut there ends in an arrow (it goes on; the tables and
	 * charts/NN.json have its ends) */
	if (dhi > dlo || dhi > 0) {
		double span = dhi - (dlo < 0 ? dlo : 0);

		if (*hi > dhi + span / 2)
			*hi = dhi + span / 2;
	}
	if (!(dlo < 0) && *lo < 0)
		*lo = 0;
}

/* The smallest and largest point (no whiskers). */
static void points_range(const struct chart *c, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++) {
			double y = c->series[i].p[j].y;

			*lo = y < *lo ? y : *lo;
			*hi = y > *hi ? y : *hi;
		}
}

void chart_y_axis(struct chart *c, const struct chart_spec *spec)
{
	double lo, hi, plo, phi;

	y_range(c, &lo, &hi);
	points_range(c, &plo, &phi);
	/* ratios spread over 5x or more: halving and doubling look alike
	 * on a log axis, as they should (0.05 and 0.14 were one pixel) */
	if (c->ratio && !spec->log_y && plo > 0 && phi / plo >= 5) {
		/* whiskers within a factor of 2 of the points fit too */
		c->y.scale = AXIS_LOG10;
		chart_ratio_log_ticks(&c->y, lo > plo / 2 ? lo : plo / 2,
				      hi < phi * 2 ? hi : phi * 2);
		return;
	}
	/* three decades or more of the points (whiskers decide nothing: a
	 * tail's interval reaching below 0 ends in an arrow): a log axis,
	 * 1 10 100 (K M G) */
	if (!spec->log_y && !c->ratio && plo > 0 && phi / plo >= 1000 &&
	    c->kind != CHART_BAR && c->kind != CHART_BOX &&
	    c->kind != CHART_CDF)
		c->y.scale = AXIS_LOG10;
	if (c->kind == CHART_PERCENTILES && !spec->log_y && plo > 0 &&
	    phi / plo > 100)
		c->y.scale = AXIS_LOG10;
	if (spec->log_y)
		c->y.scale = AXIS_LOG10;
	if (c->y.scale == AXIS_LOG10 && !(plo > 0)) {
		chart_add_note(c, "log y axis needs values above zero; using a "
				  "linear one");
		c->y.scale = AXIS_LINEAR;
	}
	if (c->y.scale == AXIS_LOG10) {
		/* whiskers within a factor of 2 of the points fit; a longer
		 * one ends in an arrow (it would add empty decades) */
		chart_log10_ticks(c, &c->y, lo > plo / 2 ? lo : plo / 2,
				  hi < phi * 2 ? hi : phi * 2, 1);
	} else {
		if (c->kind == CHART_CDF) {
			lo = 0;
			hi = 100;
		}
		/* bars and lines start at their baseline: no false zoom */
		if (c->kind == CHART_BAR || c->kind == CHART_LINE) {
			lo = lo < c->baseline ? lo : c->baseline;
			hi = hi > c->baseline ? hi : c->baseline;
		}
		/* a ratio's 1.0 line is never the frame */
		if (c->ratio && !(hi > 1))
			hi = 1 + (1 - lo) / 20;
		else if (c->ratio && !(lo < 1))
			lo = 1 - (hi - 1) / 20;
		chart_linear_ticks(c, &c->y, lo, hi, 1);
	}
}

/* ---- the x axis -------------------------------------------------------- */

static int all_powers_of_two(const struct chart *c)
{
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t j = 0; j < c->series[s].n; j++) {
			int e;
			double f = frexp(c->series[s].p[j].x, &e);

			if (!(c->series[s].p[j].x > 0) || f < 0.5 || f > 0.5)
				return 0;
		}
	return 1;
}

/* Scale of a numeric x key: log 2 for sizes and doublings, else linear. */
static void x_axis_numeric_scale(struct chart *c, const struct chart_spec *spec)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	c->x.scale = AXIS_LINEAR;
	if (lo > 0 && (spec->log_x || hi / lo >= 8))
		c->x.scale = c->x.size_key || all_powers_of_two(c) ?
			     AXIS_LOG2 : AXIS_LOG10;
	if (spec->log_x && !(lo > 0))
		chart_add_note(c, "log x axis needs values above zero; using a "
				  "linear one");
}

static void x_axis_numeric(struct chart *c)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	if (c->x.scale == AXIS_LOG2)
		chart_log2_ticks(c, lo, hi);
	else if (c->x.scale == AXIS_LOG10)
		chart_log10_ticks(c, &c->x, lo, hi, 0);
	else
		chart_linear_ticks(c, &c->x, lo, hi, 0);
}

/* CDF points carry latency on x: give x a display unit of its own. */
void chart_cdf_x_unit(struct chart *c, const char *base_unit)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	display_unit_auto(base_unit, hi, 0, &c->x.unit);
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++)
			c->series[i].p[j].x /= c->x.unit.factor;
}

/* The x axis's title, and its ticks unless it has categories (laid out
 * with the points, x_axis_categories() in chart-points.c). */
void chart_x_axis(struct chart *c, const struct build *b)
{
	double lo, hi;

	c->x.key = xstrdup(b->pct || b->hist ? "metric" :
			   chart_key_name(b, b->x));
	c->x.size_key = b->x != EX_NONE && chart_key_is_sizes(b, b->x);
	c->x.title = xstrdup(b->pct || b->hist ? "Percentile" :
			     chart_key_title(chart_key_name(b, b->x)));
	switch (c->x.scale) {
	case AXIS_NINES:
		data_range(c, 1, &lo, &hi);
		chart_nines_ticks(c, lo, hi);
		break;
	case AXIS_CATEGORY:
		break;
	default:
		if (c->kind == CHART_CDF) {
			data_range(c, 1, &lo, &hi);
			c->x.scale = lo > 0 && (b->spec->log_x ||
						hi / lo > 20) ?
				     AXIS_LOG10 : AXIS_LINEAR;
		} else {
			x_axis_numeric_scale(c, b->spec);
		}
		x_axis_numeric(c);
		break;
	}
}
