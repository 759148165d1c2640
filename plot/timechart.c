/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Charts of samples over time, for a report whose inputs have them (fio's
 * logs): what fio-plot draws, from the result set's series.
 *
 *  - a figure over time (bw, iops, mean latency), one chart per metric and
 *    op, one line per job (each log is a job's: its source name; in a
 *    before/after, one line a side, named by its side), the part where
 *    the line became steady shaded in its colour (the default rule of
 *    analysis/steady.h; each line's verdict said in the subtitle when
 *    there are one or two): the whole height for one line, a tube around
 *    each line where there are several;
 *  - latency percentiles over time from a histogram log: p50, p99 and
 *    p99.9 of each interval, one chart per log and direction.
 *
 * The points are the samples themselves: nothing is averaged here, the
 * parser made the windows (parsers/fio-log.c).  These charts have no
 * table (a row per second would bury the page); their JSON has the points.
 */
#include "report-model.h"
#include "timechart.h"
#include "../analysis/steady.h"
#include "../analysis/steady-table.h"
#include "../core/series.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIME_LINES_MAX 8	/* lines a chart holds: the palette's */
#define TIME_WORDS_MAX 2	/* lines whose verdicts the subtitle says */
/* percentile charts a report holds: a sweep of 18 block sizes and four
 * patterns has 72 histogram series, which would bury the rest */
#define TIME_HIST_CHARTS_MAX 8
/* Points a line draws at most, two of each stretch: see add_line(). */
#define TIME_STRETCHES 2000
#define TIME_POINTS_MAX (2 * TIME_STRETCHES)
#define STRINGIFY(x) #x
#define STRING_OF(x) STRINGIFY(x)

static const char *const time_metrics[] = {
	"bw", "iops", "lat.mean", "clat.mean", "slat.mean", NULL
};

/* A figure charted over time; in a comparison also the p99 of each
 * interval of a histogram log, the runs overlaid (one run's
 * percentiles have their own chart). */
static int time_metric(const struct report *r, const char *metric)
{
	for (size_t k = 0; time_metrics[k]; k++)
		if (!strcmp(metric, time_metrics[k]))
			return 1;
	return r->plan.nsides >= 2 && (!strcmp(metric, "clat.p99") ||
				       !strcmp(metric, "lat.p99"));
}

/* The largest value of the series drawn (for the display unit). */
static double largest(const struct result_set *rs, const size_t *mi,
		      size_t n)
{
	double top = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < rs->m[mi[i]].series->n; k++)
			top = fmax(top, rs->m[mi[i]].series->v[k]);
	return top;
}

/* The axes once the points are in: x from 0, y from 0 (or log10); the
 * footer names the logs, as every chart's names its data. */
static void finish_axes(struct chart *c, double tmax, double ylo,
			double yhi, int log_y)
{
	char mt[64];
	struct strbuf names = STRBUF_INIT;

	if (!c->source_names) {
		for (size_t i = 0; i < c->nseries; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "",
				    c->series[i].name);
		c->source_names = strbuf_detach(&names);
	}
	c->footer = xstrfmt("Data: %s", c->source_names);

	chart_axis_ticks(c, &c->x, 0, tmax > 0 ? tmax : 1, 0, 0);
	chart_axis_ticks(c, &c->y, log_y ? ylo : 0, yhi > 0 ? yhi : 1, log_y,
			 1);
	c->x.title = xstrdup("Time (s)");
	chart_metric_title(c->metric, mt, sizeof(mt));
	/* (as chart-text.c: "IOPS", not "IOPS (IOPS)") */
	c->y.title = strcmp(c->y.unit.name, "IOPS") ?
		     xstrfmt("%s (%s)", mt, c->y.unit.name) : xstrdup(mt);
}

/* A new chart of the report, named NN-time-what (the caller names it). */
static struct report_chart *new_chart(struct report *r)
{
	struct report_chart *rc;

	ALLOC_GROW(r->charts, r->n + 1, r->alloc);
	rc = &r->charts[r->n++];
	memset(rc, 0, sizeof(*rc));
	chart_init(&rc->chart);
	rc->chart.kind = CHART_LINE;
	rc->chart.errorbars = CHART_ERR_NONE;
	return rc;
}

/* The distinct source names of mi[0..n), in order: the footer's. */
static char *source_list(const struct result_set *rs, const size_t *mi,
			 size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const char *name = rs->m[mi[i]].source_name;
		size_t j = 0;

		if (!name)
			continue;
		while (j < i && (!rs->m[mi[j]].source_name ||
				 strcmp(rs->m[mi[j]].source_name, name)))
			j++;
		if (j == i)
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", name);
	}
	return strbuf_detach(&sb);
}

/* Does key (or the source name, key NULL) differ among mi[0..n)? */
static int differs(const struct result_set *rs, const size_t *mi, size_t n,
		   const char *key)
{
	const struct measurement *a = &rs->m[mi[0]];

	for (size_t i = 1; i < n; i++) {
		const struct measurement *b = &rs->m[mi[i]];
		const char *x = key ? labels_get(&a->labels, key) :
				a->source_name;
		const char *y = key ? labels_get(&b->labels, key) :
				b->source_name;

		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y)))
			return 1;
	}
	return 0;
}

/*
 * The side of the report measurement i is on (report A B: the input;
 * --compare KEY: its value of KEY), or SIZE_MAX when the report is no
 * comparison.
 */
static size_t side_of(const struct report *r, size_t i)
{
	const struct plan *p = &r->plan;
	const struct measurement *m = &r->rs->m[i];

	if (p->nsides < 2)
		return SIZE_MAX;
	if (p->side_key) {
		const char *v = labels_get(&m->labels, p->side_key);

		for (size_t s = 0; v && s < p->nsides; s++)
			if (!strcmp(p->side_names[s], v))
				return s;
		return SIZE_MAX;
	}
	for (size_t s = 0; s < r->nsets && s < p->nsides; s++)
		if (m >= r->sets[s].m && m < r->sets[s].m + r->sets[s].n)
			return s;
	return SIZE_MAX;
}

/* Do the lines mi[0..n) come from one side each (a before/after)? */
static int one_line_a_side(const struct report *r, const size_t *mi,
			   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (side_of(r, mi[i]) == SIZE_MAX)
			return 0;
		for (size_t j = 0; j < i; j++)
			if (side_of(r, mi[j]) == side_of(r, mi[i]))
				return 0;
	}
	return n > 1;
}

/*
 * A line's name: in a comparison whose sides have a line each, the
 * side's ("before (baseline)", "after"); else its log's, and the labels
 * that tell it from the chart's other lines (a storan run's bs=4096
 * iodepth=32).
 */
static char *line_name(const struct report *r, const size_t *mi, size_t n,
		       size_t i)
{
	const struct result_set *rs = r->rs;
	const struct measurement *m = &rs->m[mi[i]];
	struct strbuf sb = STRBUF_INIT;

	if (one_line_a_side(r, mi, n)) {
		size_t s = side_of(r, mi[i]);

		strbuf_addf(&sb, "%s%s", r->plan.side_names[s],
			    s ? "" : " (baseline)");
		return strbuf_detach(&sb);
	}
	if (n == 1 || differs(rs, mi, n, NULL))
		strbuf_adds(&sb, m->source_name ? m->source_name : "");
	for (size_t k = 0; n > 1 && k < m->labels.n; k++)
		if (differs(rs, mi, n, m->labels.v[k].key))
			strbuf_addf(&sb, "%s%s=%s", sb.len ? " " : "",
				    m->labels.v[k].key, m->labels.v[k].value);
	return strbuf_detach(&sb);
}

/*
 * The points (t[k], v[k] / factor), NAN values left out.  A line of more
 * than TIME_POINTS_MAX points (a 1 GB hist log has 180,000 intervals: 99
 * MB of chart JSON, a 12 MB SVG, for a chart 2,400 pixels wide) keeps,
 * of each of TIME_STRETCHES runs of consecutive points, the lowest and
 * the highest in time order: every spike and dip still shows.
 * Returns whether it thinned the line.
 */
static int add_line(struct chart_series *cs, const double *t,
		    const double *v, size_t n, double factor)
{
	const size_t slices = TIME_STRETCHES;

	if (n <= TIME_POINTS_MAX) {
		for (size_t k = 0; k < n; k++)
			if (!isnan(v[k]))
				chart_new_point(cs, t[k], v[k] / factor);
		return 0;
	}
	for (size_t b = 0; b < slices; b++) {
		size_t lo = SIZE_MAX, hi = SIZE_MAX;

		for (size_t k = n * b / slices; k < n * (b + 1) / slices; k++) {
			if (isnan(v[k]))
				continue;
			if (lo == SIZE_MAX || v[k] < v[lo])
				lo = k;
			if (hi == SIZE_MAX || v[k] > v[hi])
				hi = k;
		}
		if (lo == SIZE_MAX)
			continue;
		chart_new_point(cs, t[lo < hi ? lo : hi],
				v[lo < hi ? lo : hi] / factor);
		if (lo != hi)
			chart_new_point(cs, t[lo < hi ? hi : lo],
					v[lo < hi ? hi : lo] / factor);
	}
	return 1;
}

static const char thinned_words[] = "; long lines drawn at the low and "
	"high of each of " STRING_OF(TIME_STRETCHES) " stretches";

/* One line per measurement mi[0..n) (one metric, one op), shaded where
 * steady. */
static void value_chart(struct report *r, const size_t *mi, size_t n)
{
	const struct result_set *rs = r->rs;
	const struct measurement *m0 = &rs->m[mi[0]];
	struct report_chart *rc;
	struct chart *c;
	struct steady_rule rule;
	struct strbuf err = STRBUF_INIT, words = STRBUF_INIT;
	double tmax = 0, ymax = 0;
	size_t steady = 0, too_short = 0;
	int thinned = 0;
	char mt[64];

	if (steady_parse(STEADY_DEFAULT, &rule, &err))
		BUG("storan's own steady-state rule does not parse");
	rc = new_chart(r);
	rc->name = xstrfmt("%02zu-time-%s-%s", r->n, m0->metric, m0->op);
	c = &rc->chart;
	c->metric = xstrdup(m0->metric);
	display_unit_auto(m0->unit, largest(rs, mi, n), 0, &c->y.unit);
	c->title = xstrfmt("%s over time: %s",
			   chart_metric_title(m0->metric, mt, sizeof(mt)),
			   m0->op);
	for (size_t i = 0; i < n && i < TIME_LINES_MAX; i++) {
		const struct measurement *m = &rs->m[mi[i]];
		const struct series *s = m->series;
		char *name = line_name(r, mi, n, i);
		struct chart_series *cs = chart_new_series(c, name);
		struct steady_result res;

		free(name);
		thinned |= add_line(cs, s->t, s->v, s->n, c->y.unit.factor);
		for (size_t k = 0; k < s->n; k++) {
			tmax = fmax(tmax, s->t[k]);
			ymax = fmax(ymax, s->v[k] / c->y.unit.factor);
		}
		steady_find(s, &rule, &res);
		if (res.steady) {
			double lo = INFINITY, hi = -INFINITY;

			for (size_t k = res.from; k < s->n; k++) {
				lo = fmin(lo, s->v[k] / c->y.unit.factor);
				hi = fmax(hi, s->v[k] / c->y.unit.factor);
			}
			chart_add_band(c, c->nseries - 1, res.t_from,
				       s->t[s->n - 1]);
			c->bands[c->nbands - 1].lo = lo;
			c->bands[c->nbands - 1].hi = hi;
		}
		steady += res.steady;
		too_short += res.short_run;
		/* a line or a few: each one's verdict in words ("before
		 * (baseline): steady from 3 s, 3.20 k IOPS ± 2%; after:
		 * never steady ...") */
		if (n > 1 && n <= TIME_WORDS_MAX)
			strbuf_addf(&words, "%s%s: ", i ? "; " : "",
				    cs->name);
		if (n <= TIME_WORDS_MAX)
			steady_words(m, &res, &words);
	}
	if (n > TIME_LINES_MAX)
		report_add_note(r, "%s over time (%s): the first %d of %zu "
				"logs drawn", m0->metric, m0->op,
				TIME_LINES_MAX, n);
	if (n <= TIME_WORDS_MAX && too_short < n)
		c->subtitle = xstrfmt("%s%s (fio's rule: within %g%% of the "
				      "mean over %g s)%s", words.buf,
				      steady ? "; steady part shaded" : "",
				      rule.limit, rule.dur,
				      thinned ? thinned_words : "");
	else if (too_short == n)
		c->subtitle = xstrfmt("no line is long enough for the %g s a "
				      "steady-state window takes%s", rule.dur,
				      thinned ? thinned_words : "");
	else
		c->subtitle = xstrfmt("shaded: steady by fio's rule (within "
				      "%g%% of the mean over %g s), %zu "
				      "line(s) of %zu%s", rule.limit, rule.dur,
				      steady, n, thinned ? thinned_words : "");
	/* one band: the whole height; several would cover each other, so
	 * each is a tube around its own line over its steady part (its
	 * range there, and 3% of the axis either side, to show on a flat
	 * line) */
	for (size_t b = 0; b < c->nbands; b++) {
		if (c->nbands == 1) {
			c->bands[b].lo = c->bands[b].hi = NAN;
			continue;
		}
		c->bands[b].lo = fmax(0, c->bands[b].lo - 0.03 * ymax);
		c->bands[b].hi += 0.03 * ymax;
	}
	c->source_names = source_list(rs, mi, n);
	finish_axes(c, tmax, 0, ymax, 0);
	strbuf_release(&err);
	strbuf_release(&words);
}

/* p50, p99 and p99.9 of each interval of a histogram series; who the
 * series is: its log, or the labels that tell it from the others of its
 * op (a storan run's bs=4096 iodepth=32). */
static void percentile_chart(struct report *r, size_t mi, const char *who)
{
	static const double pcts[] = { 50, 99, 99.9 };
	static const char *const names[] = { "p50", "p99", "p99.9" };
	const struct measurement *m = &r->rs->m[mi];
	const struct series *s = m->series;
	struct report_chart *rc = new_chart(r);
	struct chart *c = &rc->chart;
	double tmax = 0, lo = INFINITY, hi = 0, top = 0;
	double *v = xmalloc((s->n ? s->n : 1) * sizeof(*v));
	const char *dot = strchr(m->metric, '.');
	char family[32];
	int thinned = 0;

	snprintf(family, sizeof(family), "%.*s",
		 (int)(dot ? dot - m->metric : (ptrdiff_t)strlen(m->metric)),
		 m->metric);
	rc->name = xstrfmt("%02zu-time-%s-pct-%s", r->n, family, m->op);
	c->metric = xstrdup(family);
	for (size_t k = 0; k < s->n; k++)
		top = fmax(top, series_hist_percentile(s, k, 99.9));
	display_unit_auto(m->unit, top, 0, &c->y.unit);
	for (size_t j = 0; j < 3; j++) {
		struct chart_series *cs = chart_new_series(c, names[j]);

		for (size_t k = 0; k < s->n; k++) {
			double y;

			v[k] = series_hist_percentile(s, k, pcts[j]);
			if (isnan(v[k]))
				continue;
			y = v[k] / c->y.unit.factor;
			tmax = fmax(tmax, s->t[k]);
			lo = y > 0 ? fmin(lo, y) : lo;
			hi = fmax(hi, y);
		}
		thinned |= add_line(cs, s->t, v, s->n, c->y.unit.factor);
	}
	free(v);
	c->source_names = xstrdup(m->source_name ? m->source_name : "");
	c->title = xstrfmt("%s percentiles over time: %s (%s)",
			   strcmp(family, "clat") ? "Latency" :
			   "Completion latency", m->op, who);
	c->subtitle = xstrfmt("each point: the I/Os completed in one %g s "
			      "interval of %s%s",
			      s->interval > 0 ? s->interval : 1,
			      strcmp(m->tool, "storan") ? "fio's histogram log"
							: "the run",
			      thinned ? thinned_words : "");
	/* a tail 10 times the median or more: a log axis shows both */
	finish_axes(c, tmax, isfinite(lo) ? lo : 1, hi,
		    isfinite(lo) && hi >= 10 * lo);
}

/* The measurements of metric and op with a series, in input order. */
static size_t collect(const struct result_set *rs, const char *metric,
		      const char *op, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++)
		if (rs->m[i].series && rs->m[i].series->n >= 2 &&
		    !rs->m[i].series->nbuckets &&
		    !strcmp(rs->m[i].metric, metric) &&
		    !strcmp(rs->m[i].op, op))
			out[n++] = i;
	return n;
}

/* The measurements of op with a histogram series, in input order. */
static size_t collect_histograms(const struct result_set *rs,
				 const char *op, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++)
		if (rs->m[i].series && rs->m[i].series->n >= 2 &&
		    rs->m[i].series->nbuckets && !strcmp(rs->m[i].op, op))
			out[n++] = i;
	return n;
}

/* Charts the percentiles of measurement i's histogram series. */
static void histogram_chart(struct report *r, size_t *mi, size_t i)
{
	size_t n = collect_histograms(r->rs, r->rs->m[i].op, mi), k = 0;
	char *who;

	while (k < n && mi[k] != i)
		k++;
	who = line_name(r, mi, n, k);
	percentile_chart(r, i, who);
	free(who);
}

/* Has an earlier measurement the same metric and op (charted with it)? */
static int seen_before(const struct result_set *rs, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (rs->m[j].series && !rs->m[j].series->nbuckets &&
		    rs->m[j].series->n >= 2 &&
		    !strcmp(rs->m[j].metric, rs->m[i].metric) &&
		    !strcmp(rs->m[j].op, rs->m[i].op))
			return 1;
	return 0;
}

size_t report_time_charts(struct report *r)
{
	const struct result_set *rs = r->rs;
	size_t before = r->n, *mi = xmalloc((rs->n + 1) * sizeof(*mi));
	size_t nhist = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];

		if (!m->series || m->series->n < 2)
			continue;
		if (m->series->nbuckets && nhist++ < TIME_HIST_CHARTS_MAX)
			histogram_chart(r, mi, i);
		else if (!m->series->nbuckets && time_metric(r, m->metric) &&
			 !seen_before(rs, i))
			value_chart(r, mi, collect(rs, m->metric, m->op, mi));
	}
	if (nhist > TIME_HIST_CHARTS_MAX)
		report_add_note(r, "latency percentiles over time: the first "
				"%d of %zu histogram series charted (every one "
				"in storan export --series)",
				TIME_HIST_CHARTS_MAX, nhist);
	free(mi);
	return r->n - before;
}
