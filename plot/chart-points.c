/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The points of a chart being built: one per group of the experiment
 * model (repetitions of one condition), or for a ratio one per match of
 * the two sides; the series they belong to, in their keys' order; the
 * categories of a category x axis in their key's order.  On return the
 * points of each series are sorted by x.
 */
#include "chart-private.h"
#include "../analysis/stats.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- points ------------------------------------------------------------ */

/* The string that names a point's series: its codes of the series keys. */
static void series_sig(const struct build *b, size_t i, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (size_t k = 0; k < b->nskeys; k++) {
		strbuf_add_int(sb,
			       (long long)chart_key_code(b, i, b->skeys[k]));
		strbuf_addch(sb, ',');
	}
}

/* "read", or "read, 4K blocks" with several keys: numbers in words
 * (experiment_value_words), names as they are. */
static char *series_name(const struct build *b, size_t i)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[96];

	for (size_t k = 0; k < b->nskeys; k++) {
		size_t key = b->skeys[k];
		uint64_t code = chart_key_code(b, i, key);

		if (k)
			strbuf_adds(&sb, ", ");
		chart_code_text(b, key, code, buf, sizeof(buf));
		if (chart_key_numeric(b, key) && code)
			experiment_value_words(&sb, chart_key_name(b, key),
					       buf);
		else
			strbuf_adds(&sb, buf);
	}
	return strbuf_detach(&sb);
}

size_t chart_series_of(struct chart *c, struct series_map *sm,
		       const struct build *b, size_t i, struct strbuf *sb)
{
	int created;
	size_t *slot;

	series_sig(b, i, sb);
	slot = keymap_put(&sm->map, strbuf_str(sb), c->nseries, &created);
	if (created) {
		char *name = series_name(b, i);

		chart_new_series(c, name);
		free(name);
		ALLOC_GROW(sm->first, sm->n + 1, sm->alloc);
		sm->first[sm->n++] = i;
	}
	return *slot;
}

static const struct build *order_b;

static int cmp_series(const void *pa, const void *pb)
{
	const size_t *a = pa, *b = pb;	/* [0]: index, [1]: a measurement */

	for (size_t k = 0; k < order_b->nskeys; k++) {
		size_t key = order_b->skeys[k];
		double x = chart_code_order(
			order_b, key, chart_key_code(order_b, a[1], key), a[1]);
		double y = chart_code_order(
			order_b, key, chart_key_code(order_b, b[1], key), b[1]);

		if (x < y || x > y)
			return x < y ? -1 : 1;
	}
	return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Series in the order of their keys' values (read before write...). */
static void sort_series(struct chart *c, const struct build *b,
			const struct series_map *sm)
{
	size_t (*ord)[2];
	struct chart_series *s;

	if (!c->nseries)
		return;
	ord = xmalloc((c->nseries + 1) * sizeof(*ord));
	s = xmalloc((c->nseries + 1) * sizeof(*s));
	for (size_t i = 0; i < c->nseries; i++) {
		ord[i][0] = i;
		ord[i][1] = sm->first[i];
	}
	order_b = b;
	qsort(ord, c->nseries, sizeof(*ord), cmp_series);
	for (size_t i = 0; i < c->nseries; i++)
		s[i] = c->series[ord[i][0]];
	memcpy(c->series, s, c->nseries * sizeof(*s));
	free(s);
	free(ord);
}

/* The x coordinate of measurement i: a number, a category, nines. */
struct x_order {
	double *order;		/* per category index: its place */
	struct keymap map;	/* code -> category index */
	uint64_t *codes;
	size_t *first;
	size_t n, alloc;
};

static size_t x_category(struct x_order *xo, const struct build *b,
			 size_t i)
{
	char buf[32];
	int created;
	size_t *slot;
	uint64_t code = chart_key_code(b, i, b->x);

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)code);
	slot = keymap_put(&xo->map, buf, xo->n, &created);
	if (created) {
		ALLOC_GROW(xo->codes, xo->n + 1, xo->alloc);
		xo->first = xrealloc(xo->first, xo->alloc * sizeof(size_t));
		xo->codes[xo->n] = code;
		xo->first[xo->n] = i;
		xo->n++;
	}
	return *slot;
}

static size_t member_index(const struct build *b, size_t i)
{
	const struct measurement *m = b->ex->m[i].m;

	if (b->spec->base)
		return (size_t)(m - b->spec->base->m);
	return b->ex->m[i].index;
}

/* The measurements of group g are the point's too. */
static void point_members(struct chart *c, struct chart_point *p,
			  const struct build *b, const struct ex_group *g)
{
	if (!p->nmembers)
		p->first = c->npoint_members;
	for (size_t j = 0; j < g->nmembers; j++) {
		ALLOC_GROW(c->point_members, c->npoint_members + 1,
			   c->point_members_alloc);
		c->point_members[c->npoint_members++] =
			member_index(b, g->members[j]);
	}
	p->nmembers += g->nmembers;
}

/* The whisker a group of the model gets (--errorbars on request). */
static void set_bar(struct chart *c, struct chart_point *p,
		    const struct ex_group *g)
{
	const struct stats *st = g->st;
	enum chart_errorbars want = c->errorbars;

	p->bar = BAR_NONE;
	if (want == CHART_ERR_NONE || g->summary == EX_SINGLE)
		return;
	if (want == CHART_ERR_MINMAX && st->n >= 2 && !isnan(st->min) &&
	    !isnan(st->max)) {
		p->bar = BAR_RANGE;
		p->lo = st->min;
		p->hi = st->max;
	} else if (g->summary == EX_BOTH) {	/* never t from two runs */
		p->bar = BAR_BOTH;
		p->lo = st->min;
		p->hi = st->max;
	} else if (want == CHART_ERR_SD && !isnan(st->stddev)) {
		p->bar = BAR_SD;
		p->lo = st->mean - st->stddev;
		p->hi = st->mean + st->stddev;
	} else if (g->summary == EX_INTERVAL) {
		p->bar = BAR_INTERVAL;
		p->lo = st->ci_low;
		p->hi = st->ci_high;
	}
	/* (an interval reaching below zero is kept as it is: the axis
	 * stops at zero, y_range() in chart-axes.c, and the whisker ends
	 * in an arrow) */
	if (p->bar != BAR_NONE)
		c->bars |= 1 << p->bar;
}

/* The box of a group: its runs' quartiles (printed summaries: none). */
static void set_box(struct chart_point *p, const struct build *b,
		    const struct ex_group *g)
{
	double *v = NULL;
	size_t n = 0, alloc = 0;

	for (size_t j = 0; j < g->nmembers; j++) {
		const struct measurement *m = b->ex->m[g->members[j]].m;

		for (size_t i = 0; i < m->n; i++) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n++] = m->values[i];
		}
	}
	p->box[0] = stats_quantile(v, n, 0);
	p->box[1] = stats_quantile(v, n, 0.25);
	p->box[2] = stats_quantile(v, n, 0.5);
	p->box[3] = stats_quantile(v, n, 0.75);
	p->box[4] = stats_quantile(v, n, 1);
	free(v);
}

static double x_of(const struct build *b, struct x_order *xo, size_t i)
{
	double p;

	if (b->pct) {
		chart_metric_percentile(b->ex->m[i].m->metric, b->spec->y, &p);
		return -log10(1 - p / 100);
	}
	if (!b->category)
		return chart_code_number(b, b->x, chart_key_code(b, i, b->x));
	return (double)x_category(xo, b, i);
}

/* One point per group of the model. */
static void group_points(struct chart *c, const struct build *b,
			 struct series_map *sm, struct x_order *xo)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t g = 0; g < b->ex->ngroups; g++) {
		const struct ex_group *gr = &b->ex->groups[g];
		size_t i = gr->first, s_at;
		struct chart_point *p;

		if (!b->in[i])
			continue;
		/* (may grow series) */
		s_at = chart_series_of(c, sm, b, i, &sb);
		p = chart_add_point(&c->series[s_at], x_of(b, xo, i));

		p->n = gr->st->n;
		p->member = member_index(b, i);
		point_members(c, p, b, gr);
		p->y = b->spec->stat == CHART_STAT_MEDIAN &&
		       !isnan(gr->st->median) ? gr->st->median : gr->st->mean;
		if (c->kind == CHART_BOX)
			set_box(p, b, gr);
		else
			set_bar(c, p, gr);
	}
	strbuf_release(&sb);
}

/* ---- ratios ------------------------------------------------------------ */

/*
 * Side 1 over side 0, one point per match of the model (the same test on
 * both sides): the ratio of the means, its 95% interval where both have
 * three runs or more, and whether Welch's test finds the difference at
 * alpha.
 */
static void ratio_points(struct chart *c, struct build *b,
			 struct series_map *sm, struct x_order *xo)
{
	size_t a = b->spec->ratio_side ? b->spec->ratio_side : 1;
	size_t *match = xmalloc((b->ex->ngroups + 1) * sizeof(*match));
	size_t n = experiment_match(b->ex, 0, a, match, NULL, NULL);
	size_t (*pair)[2] = xmalloc((n + 1) * sizeof(*pair)), dropped = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		pair[i][0] = pair[i][1] = EX_NONE;
	for (size_t g = 0; g < b->ex->ngroups; g++) {
		const struct ex_group *gr = &b->ex->groups[g];

		if (match[g] != EX_NONE && b->in[gr->first])
			pair[match[g]][gr->side == 0 ? 0 : 1] = g;
	}
	for (size_t k = 0; k < n; k++) {
		const struct ex_group *g0, *g1;
		struct chart_point *p;
		double t, df;
		size_t s_at;

		if (pair[k][0] == EX_NONE || pair[k][1] == EX_NONE) {
			dropped += pair[k][1] != EX_NONE;
			continue;
		}
		g0 = &b->ex->groups[pair[k][0]];
		g1 = &b->ex->groups[pair[k][1]];
		if (!(fabs(g0->st->mean) > 0)) {
			dropped++;
			continue;
		}
		s_at = chart_series_of(c, sm, b, g1->first, &sb);
		p = chart_add_point(&c->series[s_at], x_of(b, xo, g1->first));
		p->y = g1->st->mean / g0->st->mean;
		p->n = g1->st->n < g0->st->n ? g1->st->n : g0->st->n;
		p->member = member_index(b, g1->first);
		point_members(c, p, b, g0);
		point_members(c, p, b, g1);
		p->p = NAN;
		p->sig = -1;
		if (!stats_welch(g0->st->n, g0->st->mean, g0->st->stddev,
				 g1->st->n, g1->st->mean, g1->st->stddev, &p->p,
				 &t, &df))
			p->sig = p->p < c->alpha;
		/* (an unbounded interval, hi INFINITY, is drawn through
		 * the frame both ways: the baseline is too noisy to divide by) */
		if (g0->summary == EX_INTERVAL && g1->summary == EX_INTERVAL &&
		    stats_ratio_ci(g0->st->n, g0->st->mean, g0->st->stddev,
				   g1->st->n, g1->st->mean, g1->st->stddev,
				   1 - c->alpha, &p->lo, &p->hi) >= 0) {
			p->bar = BAR_INTERVAL;
			c->bars |= 1 << BAR_INTERVAL;
		}
	}
	if (dropped)
		chart_add_note(c, "%zu figure(s) of %s have nothing of %s to "
			       "be divided by", dropped, b->ex->sides[a].name,
			       b->ex->sides[0].name);
	free(match);
	free(pair);
	strbuf_release(&sb);
}

/* ---- categories on x, in their key's order ----------------------------- */

static const struct build *xorder_b;
static const struct x_order *xorder_xo;

static int cmp_category(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double x = chart_code_order(xorder_b, xorder_b->x, xorder_xo->codes[a],
				    xorder_xo->first[a]);
	double y = chart_code_order(xorder_b, xorder_b->x, xorder_xo->codes[b],
				    xorder_xo->first[b]);

	if (x < y || x > y)
		return x < y ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Categories in their key's order; points move to their places. */
static void x_axis_categories(struct chart *c, const struct build *b,
			      const struct x_order *xo)
{
	size_t *ord = xmalloc((xo->n + 1) * sizeof(*ord));
	double *place = xmalloc((xo->n + 1) * sizeof(*place));
	char buf[96];

	for (size_t i = 0; i < xo->n; i++)
		ord[i] = i;
	xorder_b = b;
	xorder_xo = xo;
	qsort(ord, xo->n, sizeof(*ord), cmp_category);
	for (size_t r = 0; r < xo->n; r++) {
		place[ord[r]] = (double)r;
		ALLOC_GROW(c->x.cat, c->x.ncat + 1, c->x.cat_alloc);
		c->x.cat[c->x.ncat++] = xstrdup(chart_code_text(b, b->x,
				xo->codes[ord[r]], buf, sizeof(buf)));
		chart_add_tick(&c->x, (double)r, c->x.cat[r]);
	}
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t j = 0; j < c->series[s].n; j++)
			c->series[s].p[j].x =
				place[(size_t)c->series[s].p[j].x];
	c->x.min = -0.5;
	c->x.max = (double)c->x.ncat - 0.5;
	free(place);
	free(ord);
}

/* ---- all the points ---------------------------------------------------- */

static int cmp_point_x(const void *a, const void *b)
{
	return stats_cmp_double(&((const struct chart_point *)a)->x,
			  &((const struct chart_point *)b)->x);
}

void chart_build_points(struct chart *c, struct build *b)
{
	struct series_map sm = { .n = 0 };
	struct x_order xo = { .n = 0 };

	keymap_init(&sm.map);
	keymap_init(&xo.map);
	if (b->hist)
		chart_histogram_points(c, b, &sm);
	else if (c->ratio)
		ratio_points(c, b, &sm, &xo);
	else
		group_points(c, b, &sm, &xo);
	sort_series(c, b, &sm);
	if (c->x.scale == AXIS_CATEGORY && !b->hist)
		x_axis_categories(c, b, &xo);
	for (size_t i = 0; i < c->nseries; i++)
		qsort(c->series[i].p, c->series[i].n,
		      sizeof(struct chart_point), cmp_point_x);
	keymap_release(&sm.map);
	keymap_release(&xo.map);
	free(sm.first);
	free(xo.codes);
	free(xo.first);
}

void chart_record_members(struct chart *c, const struct build *b)
{
	c->members = xmalloc((b->nmem ? b->nmem : 1) * sizeof(size_t));
	for (size_t j = 0; j < b->nmem; j++)
		c->members[c->nmembers++] = member_index(b, b->mem[j]);
}
