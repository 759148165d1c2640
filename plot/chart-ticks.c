/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Ticks and the numbers on them: nice linear steps, decades, powers of
 * two, a ratio's log axis, percentile nines; and the formatting of y and
 * x values that the tick labels and the renderers share
 * (chart_format_y, chart_format_x).  An axis's scale is chosen before
 * its ticks are laid out; laying them out sets its range.
 */
#include "chart-private.h"

#include <math.h>
#include <stdio.h>

/* ---- number formatting ------------------------------------------------- */

/* Decimals that print every multiple of step exactly (0.25 -> 2). */
static int decimals_for(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) >
	       1e-6 * step * pow(10, d))
		d++;
	return d;
}

/* IOPS keep factor 1 and read as 61.2k, 1.2M on a chart. */
static int y_uses_suffix(const struct chart *c)
{
	return !strcmp(c->y.unit.name, "IOPS");
}

char *chart_format_y(const struct chart *c, double v, char *buf, size_t size)
{
	char tmp[32];

	if (y_uses_suffix(c) && fabs(v) >= 1e6)
		snprintf(buf, size, "%sM", human_sig(v / 1e6, tmp, 32));
	else if (y_uses_suffix(c) && fabs(v) >= 1e4)
		snprintf(buf, size, "%sk", human_sig(v / 1e3, tmp, 32));
	else
		human_sig(v, buf, size);
	return buf;
}

/* 1 -> "p90", 3 -> "p99.9": as many decimals as the nines need. */
static char *format_nines(double x, char *buf, size_t size)
{
	int d = (int)ceil(x - 1e-9) - 2;

	snprintf(buf, size, "p%.*f", d < 0 ? 0 : d, 100 * (1 - pow(10, -x)));
	return buf;
}

char *chart_format_x(const struct chart *c, double x, char *buf, size_t size)
{
	if (c->x.scale == AXIS_CATEGORY) {
		size_t i = (size_t)llround(x);

		snprintf(buf, size, "%s", i < c->x.ncat ? c->x.cat[i] : "?");
	} else if (c->x.scale == AXIS_NINES) {
		format_nines(x, buf, size);
	} else if (c->x.size_key) {
		human_size(x, buf, size);
	} else {
		snprintf(buf, size, "%.6g", x);
	}
	return buf;
}

/* ---- ticks ------------------------------------------------------------- */

double chart_axis_frac(const struct chart_axis *a, double v)
{
	double lo = a->min, hi = a->max;

	if (a->scale == AXIS_LOG2 || a->scale == AXIS_LOG10) {
		v = log(v > 0 ? v : lo);
		lo = log(lo);
		hi = log(hi);
	}
	if (!(hi > lo))
		return 0.5;
	return (v - lo) / (hi - lo);
}

void chart_axis_ticks(struct chart *c, struct chart_axis *a, double lo,
		      double hi, int log10_scale, int is_y)
{
	a->scale = log10_scale ? AXIS_LOG10 : AXIS_LINEAR;
	if (log10_scale)
		chart_log10_ticks(c, a, lo, hi, is_y);
	else
		chart_linear_ticks(c, a, lo, hi, is_y);
}

static double nice_step(double range, int target)
{
	double raw = range / target, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;

	if (r <= 1)
		return mag;
	if (r <= 2)
		return 2 * mag;
	if (r <= 2.5)
		return 2.5 * mag;
	if (r <= 5)
		return 5 * mag;
	return 10 * mag;
}

/* Ticks every nice step over [lo, hi], which are widened to whole steps. */
void chart_linear_ticks(struct chart *c, struct chart_axis *a, double lo,
			double hi, int is_y)
{
	double step;
	int d;
	char buf[64];

	if (!(hi > lo)) {
		double pad = fabs(lo) > 0 ? fabs(lo) / 2 : 1;

		lo -= pad;
		hi += pad;
		if (lo < 0 && !(a->min < 0))
			lo = 0;
	}
	step = nice_step(hi - lo, 6);
	a->min = floor(lo / step + 1e-9) * step;
	a->max = ceil(hi / step - 1e-9) * step;
	d = decimals_for(step);
	for (double t = a->min; t <= a->max + step / 2; t += step) {
		double v = fabs(t) < step / 1e6 ? 0 : t;

		if (is_y && y_uses_suffix(c) && a->max >= 1e4 && v > 0)
			snprintf(buf, sizeof(buf), "%.*fk",
				 decimals_for(step / 1e3), v / 1e3);
		else
			snprintf(buf, sizeof(buf), "%.*f", d, v);
		chart_add_tick(a, v, buf);
	}
}

void chart_log10_ticks(struct chart *c, struct chart_axis *a, double lo,
		       double hi, int is_y)
{
	int k0 = (int)floor(log10(lo) + 1e-9), k1 = (int)ceil(log10(hi) - 1e-9);
	static const double minor[] = { 1, 2, 5 };
	char buf[64];

	if (k1 <= k0)
		k1 = k0 + 1;
	a->min = pow(10, k0);
	a->max = pow(10, k1);
	for (int k = k0; k <= k1; k++) {
		for (int j = 0; j < 3; j++) {
			double t = minor[j] * pow(10, k);

			if ((j && k1 - k0 > 2) || t > a->max * (1 + 1e-9))
				continue;
			if (is_y && y_uses_suffix(c) && t >= 1e6)
				snprintf(buf, sizeof(buf), "%gM", t / 1e6);
			else if (is_y && y_uses_suffix(c) && t >= 1e4)
				snprintf(buf, sizeof(buf), "%gk", t / 1e3);
			else
				snprintf(buf, sizeof(buf), "%g", t);
			chart_add_tick(a, t, buf);
		}
	}
}

/*
 * A ratio's log axis: from a little below the smallest point to a little
 * above the largest (not whole decades: 0.05 to 1.7 is no 0.01 to 10),
 * ticks at 1, 2 and 5 times a power of ten, 1 always among them.
 */
void chart_ratio_log_ticks(struct chart_axis *a, double lo, double hi)
{
	static const double steps[] = { 1, 2, 5 };
	char buf[32];

	a->min = fmin(lo, 1) / 1.25;
	a->max = fmax(hi, 1) * 1.25;
	for (int k = (int)floor(log10(a->min)); k <= (int)ceil(log10(a->max));
	     k++)
		for (int j = 0; j < 3; j++) {
			double t = steps[j] * pow(10, k);

			if (t < a->min || t > a->max)
				continue;
			snprintf(buf, sizeof(buf), "%g", t);
			chart_add_tick(a, t, buf);
		}
}

/* Powers of two, at most about ten, starting at the smallest data value. */
void chart_log2_ticks(struct chart *c, double lo, double hi)
{
	int k0 = (int)ceil(log2(lo) - 1e-9), k1 = (int)floor(log2(hi) + 1e-9);
	int stride = 1;
	char buf[64];

	while ((k1 - k0) / stride + 1 > 10)
		stride++;
	for (int k = k0; k <= k1; k += stride)
		chart_add_tick(&c->x, ldexp(1, k),
			       chart_format_x(c, ldexp(1, k), buf,
					      sizeof(buf)));
	/* a little room so that end markers are not cut by the frame */
	c->x.min = lo / pow(2, 0.3);
	c->x.max = hi * pow(2, 0.3);
}

void chart_nines_ticks(struct chart *c, double lo, double hi)
{
	char buf[32];

	chart_add_tick(&c->x, log10(2),
		       format_nines(log10(2), buf, sizeof(buf)));
	for (int k = 1; k <= (int)floor(hi + 1e-9); k++)
		chart_add_tick(&c->x, k, format_nines(k, buf, sizeof(buf)));
	c->x.min = lo - 0.1;
	c->x.max = hi + 0.1;
}
