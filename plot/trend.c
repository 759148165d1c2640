/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The trend page: a store's series as charts over runs, change points
 * marked; see trend.h.
 *
 * Each chart is the chart model's own (chart_build: units, ticks, titles,
 * the min-to-max whisker of a run's repetitions) over a result set that
 * holds one measurement per series and run, with the run's position as
 * the numeric key "run" (0 = the oldest, so that the axis stays linear).
 * The change points are then added to the built chart as series of
 * their own: the mean between change points as a step line, and one
 * vertical line per change point, named with its ratio, run and verdict.
 */
#include "trend.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MARKED 6	/* change points drawn per chart (colours) */

static void add_points(struct result_set *rs, const struct history *h,
		       size_t s, const char *db)
{
	const struct history_series *hs = &h->s[s];

	for (size_t i = 0; i < hs->n; i++) {
		const struct history_point *p = &hs->p[i];
		struct measurement *m;

		m = result_set_add_from(rs, hs->tool, hs->op, hs->metric,
					hs->unit, 0, db, 0);

		labels_copy(&m->labels, &hs->labels);
		labels_setf(&m->labels, "series", "%zu", s);
		labels_setf(&m->labels, "run", "%zu", i);
		if (p->values) {
			for (size_t j = 0; j < p->nvalues; j++)
				measurement_add_value(m, p->values[j]);
		} else {
			struct summary *sm = measurement_add_summary(m);

			sm->n = (double)p->n;
			sm->mean = p->mean;
			sm->stddev = p->stddev;
			sm->min = p->min;
			sm->max = p->max;
		}
	}
}

static struct chart_series *new_series(struct chart *c, const char *name)
{
	struct chart_series *se;

	ALLOC_GROW(c->series, c->nseries + 1, c->series_alloc);
	se = &c->series[c->nseries++];
	memset(se, 0, sizeof(*se));
	se->name = xstrdup(name);
	return se;
}

static void add_point(struct chart_series *se, double x, double y)
{
	struct chart_point *p;

	ALLOC_GROW(se->p, se->n + 1, se->alloc);
	p = &se->p[se->n++];
	memset(p, 0, sizeof(*p));
	p->x = x;
	p->y = y;
	p->lo = p->hi = NAN;
	p->n = 1;
}

/* The step line of the means between change points, and a line each. */
static void mark_changes(struct chart *c, const struct history *h,
			 const struct history_change *cs, size_t n)
{
	const struct history_series *hs = &h->s[cs[0].series];
	double f = c->y.unit.factor > 0 ? c->y.unit.factor : 1;
	struct chart_series *means;
	double last = (double)hs->n - 1;

	/* (added before the lines: new_series may move c->series) */
	means = new_series(c, "mean between change points");
	add_point(means, 0, cs[0].cp.mean_before / f);
	for (size_t i = 0; i < n; i++) {
		double x = (double)cs[i].point - 0.5;

		add_point(means, x, cs[i].cp.mean_before / f);
		add_point(means, x, cs[i].cp.mean_after / f);
	}
	add_point(means, last, cs[n - 1].cp.mean_after / f);
	for (size_t i = 0; i < n && i < MAX_MARKED; i++) {
		const struct store_run *run =
			&h->data->runs[hs->p[cs[i].point].run];
		char *name = xstrfmt("\xc3\x97%.2f at %s (%s)", cs[i].ratio,
				     run->name,
				     history_verdict_name(cs[i].verdict));
		struct chart_series *se = new_series(c, name);
		double x = (double)cs[i].point - 0.5;

		add_point(se, x, c->y.min);
		add_point(se, x, c->y.max);
		free(name);
	}
}

/*
 * Runs are counted: ticks at whole runs.  The model's nice steps include
 * 2.5 (and fractions on a few runs), which would mark run 7.5; take the
 * next whole step instead (1, 2, 5, 10, ...: at most as many ticks).
 */
static void whole_run_ticks(struct chart_axis *a)
{
	double step = a->nticks > 1 ? a->ticks[1].pos - a->ticks[0].pos : 1;
	char buf[32];

	if (a->nticks > 1 && step >= 1 && !(step > floor(step)))
		return;
	step = step <= 1 ? 1 : step <= 2 ? 2 : step <= 5 ? 5 :
	       ceil(step / 10) * 10;
	for (size_t i = 0; i < a->nticks; i++)
		free(a->ticks[i].label);
	a->nticks = 0;
	a->min = floor(a->min / step) * step;
	a->max = ceil(a->max / step) * step;
	for (double t = a->min; t <= a->max + step / 2; t += step) {
		snprintf(buf, sizeof(buf), "%.0f", t);
		ALLOC_GROW(a->ticks, a->nticks + 1, a->ticks_alloc);
		a->ticks[a->nticks].pos = t;
		a->ticks[a->nticks++].label = xstrdup(buf);
	}
}

/* Removes " · series N" (our own selector, no condition) from facts. */
static void drop_selector(char *facts, size_t s)
{
	char *sel = xstrfmt(" \xc2\xb7 series %zu", s), *at;
	size_t len = strlen(sel);

	at = facts ? strstr(facts, sel) : NULL;
	if (at && (at[len] == '\0' || at[len] == ' '))
		memmove(at, at + len, strlen(at + len) + 1);
	free(sel);
}

static void retitle(struct chart *c, const struct history *h, size_t s,
		    size_t nchanges)
{
	const struct history_series *hs = &h->s[s];
	const struct store_run *first = &h->data->runs[hs->p[0].run];
	const struct store_run *last = &h->data->runs[hs->p[hs->n - 1].run];

	char mt[96], *facts = c->subtitle;

	/* as the other charts say it: the metric in words, the conditions
	 * the chart model found constant (tool, op, block size, ...) in
	 * words, then the runs it spans */
	drop_selector(facts, s);
	whole_run_ticks(&c->x);
	chart_metric_title(hs->metric, mt, sizeof(mt));
	free(c->title);
	free(c->x.title);
	c->title = xstrfmt("%s over runs", mt);
	c->subtitle = xstrfmt("%s%s%zu runs, %s (%s) to %s (%s); %zu change "
			      "point(s)", facts ? facts : "",
			      facts && *facts ? "; " : "", hs->n, first->name,
			      first->time, last->name, last->time, nchanges);
	free(facts);
	c->x.title = xstrdup("Run (0 = the oldest)");
	free(c->series[0].name);
	c->series[0].name = xstrdup(nchanges ? "each run: mean, whisker min "
				    "to max of its repetitions" : "");
}

static char *chart_name(size_t i, const struct history_series *hs)
{
	char *name = xstrfmt("%02zu-trend-%s-%s-%s", i + 1, hs->tool, hs->op,
			     hs->metric);

	for (char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-'))
			*p = '-';
	return name;
}

static void add_chart(struct report *r, const struct history *h, size_t s,
		      const struct history_change *cs, size_t n,
		      const struct result_set *rs)
{
	struct report_chart *rc;
	struct chart_spec spec;
	struct strbuf err = STRBUF_INIT;
	struct filter where;
	char sel[32];
	int failed;

	ALLOC_GROW(r->charts, r->n + 1, r->alloc);
	rc = &r->charts[r->n];
	memset(rc, 0, sizeof(*rc));
	chart_init(&rc->chart);
	filter_init(&where);
	snprintf(sel, sizeof(sel), "series=%zu", s);
	filter_parse(&where, sel);
	memset(&spec, 0, sizeof(spec));
	spec.y = h->s[s].metric;
	spec.x = "run";
	spec.where = &where;
	spec.kind = CHART_LINE;
	spec.errorbars = CHART_ERR_MINMAX;
	failed = chart_build(&rc->chart, rs, &spec, &err);
	filter_release(&where);	/* (the chart keeps no pointer to it) */
	if (failed) {
		report_add_note(r, "%s: not charted: %s", h->s[s].name,
				strbuf_str(&err));
		chart_release(&rc->chart);
		strbuf_release(&err);
		return;
	}
	strbuf_release(&err);
	retitle(&rc->chart, h, s, n);
	if (n)
		mark_changes(&rc->chart, h, cs, n);
	rc->name = chart_name(r->n, &h->s[s]);
	/* no table: a chart's table is its own points (the workbook draws
	 * from it); the change points are in the page's lead table */
	fmt_table_init(&rc->table, NULL);
	rc->has_table = 0;
	if (n > MAX_MARKED)
		report_add_note(r, "%s: %zu change points, the first %d "
				"marked on its chart", h->s[s].name, n,
				MAX_MARKED);
	r->n++;
}

/*
 * Series order on the page: those whose newest change is a regression
 * (the CI gate's), then those with a regression, with changes, the rest.
 */
struct order {
	size_t series, first, n;	/* its changes: c[first, first + n) */
	int rank;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->series < y->series ? -1 : x->series > y->series;
}

static struct order *page_order(const struct history *h,
				const struct history_change *c, size_t nc)
{
	struct order *o = xcalloc(h->n + 1, sizeof(*o));

	for (size_t s = 0; s < h->n; s++)
		o[s].series = s;
	for (size_t i = 0; i < nc; i++) {
		if (!o[c[i].series].n)
			o[c[i].series].first = i;
		o[c[i].series].n++;
	}
	for (size_t s = 0; s < h->n; s++) {
		const struct history_change *cs = c + o[s].first;
		int any = 0;

		for (size_t i = 0; i < o[s].n; i++)
			any |= cs[i].verdict == HISTORY_REGRESSION;
		o[s].rank = !o[s].n ? 3 :
			    cs[o[s].n - 1].verdict == HISTORY_REGRESSION ? 0 :
			    any ? 1 : 2;
	}
	qsort(o, h->n, sizeof(*o), cmp_order);
	return o;
}

int trend_plan(struct report *r, const struct history *h,
	       const struct history_change *c, size_t nc, const char *db,
	       const char *title, struct result_set *rs,
	       struct fmt_table *lead)
{
	struct order *o;
	size_t regressions = 0;

	if (!h->n)
		return -1;
	result_set_add_source(rs, db, NULL);
	rs->sources[0].format = xstrdup("history store");
	for (size_t s = 0; s < h->n; s++)
		add_points(rs, h, s, rs->sources[0].name);
	for (size_t i = 0; i < nc; i++)
		regressions += c[i].verdict == HISTORY_REGRESSION;
	r->title = title ? xstrdup(title) :
		   xstrfmt("History of %s: %zu series over %zu runs",
			   rs->sources[0].name, h->n, h->data->nruns);
	r->rs = rs;
	history_changes_table(h, c, nc, -1, lead);
	lead->title = xstrfmt("Change points: %zu, %zu regression(s)", nc,
			      regressions);
	if (!nc)
		fmt_table_add_note(lead, "no change point in %zu series "
				   "over %zu runs", h->n, h->data->nruns);
	r->lead = lead;
	o = page_order(h, c, nc);
	for (size_t i = 0; i < h->n && r->n < TREND_MAX_CHARTS; i++)
		add_chart(r, h, o[i].series, c + o[i].first, o[i].n, rs);
	if (h->n > TREND_MAX_CHARTS)
		report_add_note(r, "%zu series not charted (at most %d, those "
				"with change points first): storan history "
				"lists them", h->n - TREND_MAX_CHARTS,
				TREND_MAX_CHARTS);
	free(o);
	return r->n ? 0 : -1;
}
