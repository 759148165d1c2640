/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Building the chart model; see chart.h.
 *
 * The steps: select the measurements (metric, --where); build the
 * experiment model of them (analysis/experiment.h); choose the x key and
 * the series keys (what the user named, else what the model says tells
 * the points apart, the most telling first; whatever else tells them
 * apart joins the series); one point per group of the model, with the
 * whisker its summary allows; choose the display unit; lay out the axes
 * (scale, range, ticks, labels); write titles and footer.  Latency
 * percentile curves and CDFs come from metrics named FAMILY.pNN or from
 * histograms; ratio charts divide one side by another, match by match.
 */
#include "chart-private.h"
#include "../analysis/experiment.h"
#include "../analysis/stats.h"
#include "../analysis/table.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/quantile.h"
#include "../core/suggest.h"
#include "../core/units.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Okabe & Ito (2008), "Color Universal Design": blue first, yellow late. */
const unsigned char chart_palette[CHART_NCOLORS][3] = {
	{ 0x00, 0x72, 0xB2 },	/* blue */
	{ 0xE6, 0x9F, 0x00 },	/* orange */
	{ 0x00, 0x9E, 0x73 },	/* bluish green */
	{ 0xD5, 0x5E, 0x00 },	/* vermillion */
	{ 0x56, 0xB4, 0xE9 },	/* sky blue */
	{ 0xCC, 0x79, 0xA7 },	/* reddish purple */
	{ 0x00, 0x00, 0x00 },	/* black */
	{ 0xF0, 0xE4, 0x42 },	/* yellow */
};

/* ---- lifetime ---------------------------------------------------------- */

static void axis_init(struct chart_axis *a)
{
	memset(a, 0, sizeof(*a));
	a->unit.name = "";
	a->unit.factor = 1;
}

static void axis_release(struct chart_axis *a)
{
	for (size_t i = 0; i < a->nticks; i++)
		free(a->ticks[i].label);
	for (size_t i = 0; i < a->ncat; i++)
		free(a->cat[i]);
	free(a->ticks);
	free(a->cat);
	free(a->title);
	free(a->key);
	axis_init(a);
}

void chart_init(struct chart *c)
{
	memset(c, 0, sizeof(*c));
	axis_init(&c->x);
	axis_init(&c->y);
}

void chart_release(struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		free(c->series[i].name);
		free(c->series[i].p);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->series);
	free(c->bands);
	free(c->members);
	free(c->point_members);
	free(c->notes);
	free(c->title);
	free(c->subtitle);
	free(c->footer);
	free(c->metric);
	free(c->source_names);
	free(c->pooled);
	axis_release(&c->x);
	axis_release(&c->y);
	chart_init(c);
}

__attribute__((format(printf, 2, 3)))
void chart_add_note(struct chart *c, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(c->notes, c->nnotes + 1, c->notes_alloc);
	va_start(ap, fmt);
	c->notes[c->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

void chart_add_tick(struct chart_axis *a, double pos, const char *label)
{
	ALLOC_GROW(a->ticks, a->nticks + 1, a->ticks_alloc);
	a->ticks[a->nticks].pos = pos;
	a->ticks[a->nticks].label = xstrdup(label);
	a->nticks++;
}

struct chart_series *chart_new_series(struct chart *c, const char *name)
{
	struct chart_series *s;

	ALLOC_GROW(c->series, c->nseries + 1, c->series_alloc);
	s = &c->series[c->nseries++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

struct chart_point *chart_add_point(struct chart_series *s, double x)
{
	struct chart_point *p;

	ALLOC_GROW(s->p, s->n + 1, s->alloc);
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	p->x = x;
	p->lo = p->hi = NAN;
	for (int i = 0; i < 5; i++)
		p->box[i] = NAN;
	p->p = NAN;
	p->sig = -1;
	p->member = SIZE_MAX;
	return p;
}


struct chart_point *chart_new_point(struct chart_series *s, double x,
				    double y)
{
	struct chart_point *p = chart_add_point(s, x);

	p->y = y;
	p->n = 1;
	return p;
}

void chart_add_band(struct chart *c, size_t series, double from, double to)
{
	ALLOC_GROW(c->bands, c->nbands + 1, c->bands_alloc);
	c->bands[c->nbands++] = (struct chart_band){ from, to, series };
}

/* ---- selection --------------------------------------------------------- */

static size_t select_measurements(struct build *b, int (*want)(
		const struct measurement *, const char *), const char *metric)
{
	b->nsel = 0;
	for (size_t s = 0; s < b->nsets; s++) {
		for (size_t i = 0; i < b->sets[s].n; i++) {
			const struct measurement *m = &b->sets[s].m[i];

			b->sel[s][i] = want(m, metric) &&
				       (!b->spec->where ||
					filter_match(b->spec->where, m));
			b->nsel += b->sel[s][i];
		}
	}
	return b->nsel;
}

static int want_metric(const struct measurement *m, const char *metric)
{
	return !strcmp(m->metric, metric) && (m->n || m->summary.present);
}

static int want_percentile(const struct measurement *m, const char *family)
{
	double p;

	return chart_metric_percentile(m->metric, family, &p) &&
	       (m->n || m->summary.present);
}

static int want_histogram(const struct measurement *m, const char *family)
{
	size_t len = strlen(family);

	return m->hist.n && !strncmp(m->metric, family, len) &&
	       (!m->metric[len] || m->metric[len] == '.');
}

static int select_for_kind(struct chart *c, struct build *b,
			   struct strbuf *err)
{
	const char *y = b->spec->y;

	if ((c->kind == CHART_CDF || c->kind == CHART_PERCENTILES) &&
	    b->spec->from != CHART_FROM_METRICS) {
		if (select_measurements(b, want_histogram, y)) {
			b->hist = 1;
			return 0;
		}
		if (c->kind == CHART_CDF ||
		    b->spec->from == CHART_FROM_HISTOGRAMS) {
			strbuf_addf(err, "no latency histogram of '%s' matches "
				    "(a CDF needs fio JSON+ bins or the "
				    "runner's histograms)", y);
			return -1;
		}
	}
	if (c->kind == CHART_PERCENTILES ||
	    (c->kind == CHART_AUTO && !select_measurements(b, want_metric, y) &&
	     select_measurements(b, want_percentile, y))) {
		c->kind = CHART_PERCENTILES;
		b->pct = 1;
		if (!select_measurements(b, want_percentile, y)) {
			strbuf_addf(err, "no percentiles %s.pNN match", y);
			return -1;
		}
		return 0;
	}
	if (!select_measurements(b, want_metric, y)) {
		strbuf_addf(err, "no measurement of metric '%s' matches", y);
		return -1;
	}
	return 0;
}

static const char *selected_unit(const struct build *b)
{
	for (size_t s = 0; s < b->nsets; s++)
		for (size_t i = 0; i < b->sets[s].n; i++)
			if (b->sel[s][i])
				return b->sets[s].m[i].unit;
	return "";
}

static int check_units(const struct build *b, struct strbuf *err)
{
	const char *u = selected_unit(b);

	for (size_t s = 0; s < b->nsets; s++) {
		for (size_t i = 0; i < b->sets[s].n; i++) {
			if (b->sel[s][i] && strcmp(b->sets[s].m[i].unit, u)) {
				strbuf_addf(err, "metric '%s' comes in two "
					    "units (%s and %s); narrow it with "
					    "--where", b->spec->y, u,
					    b->sets[s].m[i].unit);
				return -1;
			}
		}
	}
	return 0;
}

/* ---- the experiment model of the selection ----------------------------- */

struct take_arg {
	const struct build *b;
};

static int taken(const struct measurement *m, const void *arg)
{
	const struct build *b = ((const struct take_arg *)arg)->b;

	for (size_t s = 0; s < b->nsets; s++)
		if (m >= b->sets[s].m && m < b->sets[s].m + b->sets[s].n)
			return b->sel[s][m - b->sets[s].m];
	return 0;
}

/*
 * KEY=A/KEY=B, read as storan table reads it (pivot_ratio_parse: the last
 * "/KEY=" splits), so that values with '/' in them -- device=/dev/sdb,
 * the commonest ratio of all -- are not cut at their first '/'.
 */
static int parse_ratio(struct build *b, const char *spec, struct strbuf *err)
{
	const char *slash = strchr(spec, '/'), *eq = strchr(spec, '=');

	if (!pivot_ratio_parse(spec, &b->ratio_parts[0], &b->ratio_parts[1],
			       &b->ratio_parts[2]))
		return 0;
	if (eq && eq != spec && slash && slash > eq && strchr(slash, '='))
		strbuf_addf(err, "--ratio compares two values of one key "
			    "(KEY=A/KEY=B), not '%s'", spec);
	else
		strbuf_addf(err, "--ratio wants KEY=A/KEY=B, not '%s'", spec);
	return -1;
}

static int build_model(struct build *b, struct strbuf *err)
{
	const struct chart_spec *spec = b->spec;
	struct take_arg ta = { b };
	struct experiment_options eo = {
		.take = taken, .take_arg = &ta, .pool = spec->pool,
		.npool = spec->npool,
	};

	if (b->ratio_parts[0]) {
		eo.side_key = b->ratio_parts[0];
		eo.side_a = b->ratio_parts[1];
		eo.side_b = b->ratio_parts[2];
	} else if (spec->compare) {
		eo.side_key = spec->compare;
	}
	if (experiment_build(&b->own, b->sets, b->nsets, &eo, err))
		return -1;
	b->have_own = 1;
	b->ex = &b->own;
	return 0;
}

/* What the model pooled on request, for the chart's notes. */
static void note_pooled(struct chart *c, const struct experiment *ex)
{
	for (size_t i = 0; i < ex->nnotes; i++)
		if (strstr(ex->notes[i], "--pool")) {
			free(c->pooled);
			c->pooled = xstrdup(ex->notes[i]);
		}
}

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

static int chart_choose_y_unit(struct chart *c, const struct chart_spec *spec,
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

static void chart_y_axis(struct chart *c, const struct chart_spec *spec)
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
static void chart_cdf_x_unit(struct chart *c, const char *base_unit)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	display_unit_auto(base_unit, hi, 0, &c->x.unit);
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++)
			c->series[i].p[j].x /= c->x.unit.factor;
}

/* The x axis's title, and its ticks unless it has categories (laid out
 * with the points, x_axis_categories()). */
static void chart_x_axis(struct chart *c, const struct build *b)
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

/* ---- building ---------------------------------------------------------- */

static int has_points(const struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++)
		if (c->series[i].n)
			return 1;
	return 0;
}

static int finish(struct chart *c, struct build *b, struct strbuf *err)
{
	const struct chart_spec *spec = b->spec;

	if (!has_points(c)) {
		strbuf_addf(err, "nothing to draw for '%s'%s", spec->y,
			    c->ratio ? ": no test is on both sides" : "");
		return -1;
	}
	if (c->kind == CHART_CDF)
		chart_cdf_x_unit(c, b->ex->m[b->mem[0]].m->unit);
	if (chart_choose_y_unit(c, spec, b->ex->m[b->mem[0]].m->unit, err))
		return -1;
	chart_x_axis(c, b);
	chart_y_axis(c, spec);
	chart_titles(c, b);
	chart_record_members(c, b);
	return 0;
}

/* The drawing, once the model and its members are known. */
static int build_from_model(struct chart *c, struct build *b,
			    struct strbuf *err)
{
	b->in = xcalloc(b->ex->n + 1, 1);
	for (size_t j = 0; j < b->nmem; j++)
		b->in[b->mem[j]] = 1;
	b->sided = b->ex->nsides > 1;
	note_pooled(c, b->ex);
	if (c->ratio && b->ex->nsides < 2) {
		strbuf_addf(err, "a ratio needs two sides");
		return -1;
	}
	if (!b->nmem) {
		strbuf_addf(err, "no measurement of metric '%s' matches",
			    b->spec->y);
		return -1;
	}
	if (chart_choose_keys(c, b, err))
		return -1;
	chart_choose_kind(c, b);
	chart_build_points(c, b);
	return finish(c, b, err);
}

static void start(struct chart *c, const struct chart_spec *spec)
{
	chart_release(c);
	c->kind = spec->kind;
	c->errorbars = spec->errorbars;
	c->metric = xstrdup(spec->y);
	c->alpha = spec->alpha > 0 ? spec->alpha : 0.05;
	c->ratio = spec->ratio != NULL || spec->ratio_side;
	c->baseline = c->ratio ? 1 : 0;
}

int chart_build_sets(struct chart *c, const struct result_set *sets,
		     size_t nsets, const struct chart_spec *spec,
		     struct strbuf *err)
{
	struct build b = { .sets = sets, .nsets = nsets, .spec = spec };
	int rc = -1;

	start(c, spec);
	b.sel = xcalloc(nsets + 1, sizeof(*b.sel));
	for (size_t s = 0; s < nsets; s++)
		b.sel[s] = xcalloc(sets[s].n + 1, 1);
	if ((spec->ratio && parse_ratio(&b, spec->ratio, err)) ||
	    select_for_kind(c, &b, err) || check_units(&b, err) ||
	    build_model(&b, err))
		goto out;
	b.mem = xmalloc((b.ex->n + 1) * sizeof(*b.mem));
	for (size_t i = 0; i < b.ex->n; i++)
		b.mem[b.nmem++] = i;
	rc = build_from_model(c, &b, err);
out:
	if (b.have_own)
		experiment_release(&b.own);
	for (size_t s = 0; s < nsets; s++)
		free(b.sel[s]);
	free(b.sel);
	free(b.mem);
	free(b.in);
	for (size_t i = 0; i < 3; i++)
		free(b.ratio_parts[i]);
	return rc;
}

int chart_build(struct chart *c, const struct result_set *rs,
		const struct chart_spec *spec, struct strbuf *err)
{
	return chart_build_sets(c, rs, 1, spec, err);
}

int chart_build_model(struct chart *c, const struct experiment *ex,
		      const size_t *members, size_t n,
		      const struct chart_spec *spec, struct strbuf *err)
{
	struct build b = { .spec = spec, .ex = ex };
	int all_hist = n > 0;
	int rc;

	start(c, spec);
	for (size_t j = 0; j < n; j++)
		all_hist &= ex->m[members[j]].m->hist.n > 0;
	if (c->kind == CHART_CDF || (c->kind == CHART_PERCENTILES &&
				     spec->from != CHART_FROM_METRICS &&
				     all_hist))
		b.hist = 1;
	else if (c->kind == CHART_PERCENTILES)
		b.pct = 1;
	b.mem = xmalloc((n + 1) * sizeof(*b.mem));
	memcpy(b.mem, members, n * sizeof(*b.mem));
	b.nmem = n;
	rc = build_from_model(c, &b, err);
	free(b.mem);
	free(b.in);
	return rc;
}
