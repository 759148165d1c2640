/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Building the chart model; see chart.h.
 *
 * The steps: select the measurements (metric, --where) and build the
 * experiment model of them (analysis/experiment.h), here; choose the x
 * key and the series keys (what the user named, else what the model
 * says tells the points apart, the most telling first; whatever else
 * tells them apart joins the series), chart-keys.c; one point per group
 * of the model, with the whisker its summary allows, chart-points.c;
 * choose the display unit and lay out the axes (scale, range, ticks,
 * labels), chart-axes.c and chart-ticks.c; write titles and footer,
 * chart-text.c.  Latency percentile curves and CDFs come from metrics
 * named FAMILY.pNN or from histograms (chart-curves.c); ratio charts
 * divide one side by another, match by match (chart-points.c).
 */
#include "chart-private.h"
#include "../analysis/table.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

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
	return !strcmp(m->metric, metric) &&
	       (m->n || measurement_summary(m)->present);
}

static int want_percentile(const struct measurement *m, const char *family)
{
	double p;

	return chart_metric_percentile(m->metric, family, &p) &&
	       (m->n || measurement_summary(m)->present);
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
