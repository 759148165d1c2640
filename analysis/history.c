/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * History: a store's measurements grouped into series and pooled per run;
 * see history.h.  Linear in the number of measurements: keys are mapped
 * to series once (a store has few distinct keys, shared by every run),
 * then each measurement is one lookup.
 */
#include "history.h"
#include "compare.h"
#include "format.h"
#include "stats.h"
#include "../core/cpus.h"
#include "../core/human.h"
#include "../core/keymap.h"
#include "../core/xalloc.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Labels that name a run, not a condition, whoever set them. */
static const char *const run_identity[] = { "commit", "time", "date", "run",
					     NULL };
/* Labels that say where a number came from (a path, a command line). */
static const char *const provenance[] = { "command", "file", NULL };

static int listed(const char *key, const char *const *list, size_t n)
{
	for (size_t i = 0; n == SIZE_MAX ? list[i] != NULL : i < n; i++)
		if (!strcmp(key, list[i]))
			return 1;
	return 0;
}

void history_series_labels(const struct labels *l, char *const *run_keys,
			   size_t nrun_keys, struct labels *out)
{
	labels_init(out);
	for (size_t i = 0; i < l->n; i++) {
		const char *key = l->v[i].key;

		if (listed(key, run_identity, SIZE_MAX) ||
		    listed(key, provenance, SIZE_MAX) ||
		    listed(key, (const char *const *)run_keys, nrun_keys))
			continue;
		labels_set(out, key, l->v[i].value);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every key any run's labels have, sorted, each once. */
static char **run_label_keys(const struct store_data *d, size_t *n)
{
	char **keys = NULL;
	size_t count = 0, alloc = 0, out = 0;

	for (size_t i = 0; i < d->nruns; i++)
		for (size_t j = 0; j < d->runs[i].labels.n; j++) {
			ALLOC_GROW(keys, count + 1, alloc);
			keys[count++] = d->runs[i].labels.v[j].key;
		}
	if (count)
		qsort(keys, count, sizeof(*keys), cmp_str);
	for (size_t i = 0; i < count; i++)
		if (!out || strcmp(keys[out - 1], keys[i]))
			keys[out++] = keys[i];
	*n = out;
	return keys;
}

int history_key_selected(const struct store_key *k, void *filter)
{
	const struct filter *where = filter;
	struct measurement m;

	if (!where)
		return 1;
	memset(&m, 0, sizeof(m));
	m.tool = k->tool;
	m.op = k->op;
	m.metric = k->metric;
	m.unit = k->unit;
	m.labels = k->labels;
	return filter_match(where, &m);
}

static char *series_name(const struct store_key *k, const struct labels *l)
{
	char *labels = labels_to_string(l);
	char *name = *labels ? xstrfmt("%s %s %s %s", k->tool, k->op,
				       k->metric, labels) :
			       xstrfmt("%s %s %s", k->tool, k->op, k->metric);

	free(labels);
	return name;
}

/* The series of each key (SIZE_MAX: not selected). */
static size_t *map_keys(struct history *h, const struct store_data *d,
			const struct filter *where)
{
	size_t *of = xcalloc(d->nkeys + 1, sizeof(*of)), nrun_keys;
	char **run_keys = run_label_keys(d, &nrun_keys);
	struct keymap map;
	struct strbuf sb = STRBUF_INIT;

	keymap_init(&map);
	for (size_t i = 0; i < d->nkeys; i++) {
		const struct store_key *k = &d->keys[i];
		struct labels l;
		size_t *slot;
		int created;

		of[i] = SIZE_MAX;
		if (!history_key_selected(k, (void *)(uintptr_t)where))
			continue;
		history_series_labels(&k->labels, run_keys, nrun_keys, &l);
		strbuf_reset(&sb);
		strbuf_add_keypart(&sb, k->tool);
		strbuf_add_keypart(&sb, k->op);
		strbuf_add_keypart(&sb, k->metric);
		strbuf_add_keypart(&sb, k->unit);
		labels_add_keyparts(&l, &sb);
		slot = keymap_put(&map, sb.buf, h->n, &created);
		if (created) {
			struct history_series *s;

			ALLOC_GROW(h->s, h->n + 1, h->alloc);
			s = &h->s[h->n++];
			memset(s, 0, sizeof(*s));
			s->tool = xstrdup(k->tool);
			s->op = xstrdup(k->op);
			s->metric = xstrdup(k->metric);
			s->unit = xstrdup(k->unit);
			s->name = series_name(k, &l);
			s->direction = compare_direction(k->metric);
			labels_copy(&s->labels, &l);
		}
		of[i] = *slot;
		labels_release(&l);
	}
	keymap_release(&map);
	strbuf_release(&sb);
	free(run_keys);
	return of;
}

static void pool_point(struct history_point *hp,
		       const struct store_point *const *pts, size_t n)
{
	struct stats_acc acc;
	struct stats st;

	stats_acc_init(&acc);
	for (size_t i = 0; i < n; i++) {
		const struct store_point *p = pts[i];

		if (p->values) {
			for (size_t j = 0; j < p->n; j++)
				stats_acc_add_value(&acc, p->values[j]);
		} else if (!isnan(p->mean)) {
			struct summary sm = summary_none;
			struct measurement m;

			memset(&m, 0, sizeof(m));
			sm.present = 1;
			sm.n = p->n ? (double)p->n : 1;
			sm.mean = p->mean;
			m.summary = &sm;	/* (on the stack: no free) */
			stats_acc_add_measurement(&acc, &m);
		}
	}
	stats_compute(&acc, &st);
	hp->run = pts[0]->run;
	hp->n = st.n;
	hp->mean = st.mean;
	hp->stddev = st.stddev;
	hp->min = st.min;
	hp->max = st.max;
	if (acc.values && acc.nvalues) {
		hp->nvalues = acc.nvalues;
		hp->values = xmalloc(acc.nvalues * sizeof(double));
		memcpy(hp->values, acc.values, acc.nvalues * sizeof(double));
	}
	stats_acc_release(&acc);
}

static void series_release(struct history_series *hs)
{
	for (size_t i = 0; i < hs->n; i++)
		free(hs->p[i].values);
	free(hs->p);
	free(hs->tool);
	free(hs->op);
	free(hs->metric);
	free(hs->unit);
	free(hs->name);
	labels_release(&hs->labels);
}

static int cmp_point_run(const void *a, const void *b)
{
	const struct store_point *pa = *(const struct store_point *const *)a;
	const struct store_point *pb = *(const struct store_point *const *)b;

	if (pa->run != pb->run)
		return pa->run < pb->run ? -1 : 1;
	return pa < pb ? -1 : pa > pb;	/* stable: store order */
}

static int has_points(const struct history_series *s)
{
	return s->n > 0;
}

void history_keep(struct history *h,
		  int (*keep)(const struct history_series *s))
{
	size_t out = 0;

	for (size_t i = 0; i < h->n; i++) {
		if (keep(&h->s[i]))
			h->s[out++] = h->s[i];
		else
			series_release(&h->s[i]);
	}
	h->n = out;
}

static int cmp_series(const void *a, const void *b)
{
	return strcmp(((const struct history_series *)a)->name,
		      ((const struct history_series *)b)->name);
}

void history_build(struct history *h, const struct store_data *d,
		   const struct filter *where)
{
	size_t *of, *count, *start;
	const struct store_point **byseries;

	memset(h, 0, sizeof(*h));
	h->data = d;
	of = map_keys(h, d, where);
	count = xcalloc(h->n + 1, sizeof(*count));
	start = xcalloc(h->n + 1, sizeof(*start));
	for (size_t i = 0; i < d->npoints; i++)
		if (of[d->points[i].key] != SIZE_MAX)
			count[of[d->points[i].key]]++;
	for (size_t s = 1; s <= h->n; s++)
		start[s] = start[s - 1] + count[s - 1];
	byseries = xcalloc(start[h->n] + 1, sizeof(*byseries));
	memset(count, 0, (h->n + 1) * sizeof(*count));
	for (size_t i = 0; i < d->npoints; i++) {
		size_t s = of[d->points[i].key];

		if (s != SIZE_MAX)
			byseries[start[s] + count[s]++] = &d->points[i];
	}
	for (size_t s = 0; s < h->n; s++) {
		const struct store_point **pts = byseries + start[s];
		struct history_series *hs = &h->s[s];

		qsort(pts, count[s], sizeof(*pts), cmp_point_run);
		for (size_t i = 0, j; i < count[s]; i = j) {
			for (j = i + 1; j < count[s] && pts[j]->run ==
			     pts[i]->run; j++)
				;
			ALLOC_GROW(hs->p, hs->n + 1, hs->alloc);
			pool_point(&hs->p[hs->n], pts + i, j - i);
			if (hs->p[hs->n].n && !isnan(hs->p[hs->n].mean))
				hs->n++;
			else
				free(hs->p[hs->n].values);
		}
	}
	free(byseries);
	free(start);
	free(count);
	free(of);
	/* drop the series without a point (keys that only rm'd runs had) */
	history_keep(h, has_points);
	if (h->n)
		qsort(h->s, h->n, sizeof(*h->s), cmp_series);
}

void history_release(struct history *h)
{
	for (size_t s = 0; s < h->n; s++)
		series_release(&h->s[s]);
	free(h->s);
	memset(h, 0, sizeof(*h));
}

const char *history_verdict_name(enum history_verdict v)
{
	switch (v) {
	case HISTORY_REGRESSION:
		return "regression";
	case HISTORY_IMPROVEMENT:
		return "improvement";
	case HISTORY_CHANGED:
		break;
	}
	return "changed";
}

static void judge(struct history_change *c, int direction)
{
	c->ratio = fabs(c->cp.mean_before) > 0 ?
		   c->cp.mean_after / c->cp.mean_before : NAN;
	c->change_pct = (c->ratio - 1) * 100;
	if (!direction || isnan(c->ratio))
		c->verdict = HISTORY_CHANGED;
	else if ((c->cp.mean_after > c->cp.mean_before) == (direction > 0))
		c->verdict = HISTORY_IMPROVEMENT;
	else
		c->verdict = HISTORY_REGRESSION;
}

/*
 * Series are independent: worker threads take the next one (detection
 * is deterministic per series, so the threads change nothing but time).
 */
struct detect_pool {
	const struct history *h;
	const struct detect_options *o;
	struct change_point **cps;	/* per series */
	size_t *ncps;
	size_t next;
	pthread_mutex_t lock;
};

static void detect_series(struct detect_pool *p, size_t s)
{
	const struct history_series *hs = &p->h->s[s];
	double *x = xmalloc((hs->n + 1) * sizeof(*x));

	for (size_t i = 0; i < hs->n; i++)
		x[i] = hs->p[i].mean;
	p->ncps[s] = detect_change_points(x, hs->n, p->o, &p->cps[s]);
	free(x);
}

static void *detect_worker(void *arg)
{
	struct detect_pool *p = arg;

	for (;;) {
		size_t s;

		pthread_mutex_lock(&p->lock);
		s = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (s >= p->h->n)
			return NULL;
		detect_series(p, s);
	}
}

static void detect_all(struct detect_pool *p)
{
	long cpus = storan_cpus();
	size_t nthreads = cpus > CPUS_POOL_MAX ? CPUS_POOL_MAX : (size_t)cpus;

	if (nthreads > p->h->n)
		nthreads = p->h->n;
	cpus_run_pool((unsigned)nthreads, detect_worker, p);
}

size_t history_detect(const struct history *h, const struct detect_options *o,
		      struct history_change **out)
{
	struct history_change *v = NULL;
	size_t n = 0, alloc = 0;
	struct detect_pool p = { h, o, NULL, NULL, 0,
				 PTHREAD_MUTEX_INITIALIZER };

	p.cps = xcalloc(h->n + 1, sizeof(*p.cps));
	p.ncps = xcalloc(h->n + 1, sizeof(*p.ncps));
	detect_all(&p);
	for (size_t s = 0; s < h->n; s++) {
		for (size_t i = 0; i < p.ncps[s]; i++) {
			struct history_change *c;

			ALLOC_GROW(v, n + 1, alloc);
			c = &v[n++];
			c->series = s;
			c->point = p.cps[s][i].index;
			c->cp = p.cps[s][i];
			judge(c, h->s[s].direction);
		}
		free(p.cps[s]);
	}
	free(p.cps);
	free(p.ncps);
	pthread_mutex_destroy(&p.lock);
	*out = v;
	return n;
}

static void set_mean(struct fmt_table *t, size_t r, size_t c, double v,
		     const struct display_unit *u)
{
	char buf[64];

	fmt_table_set_number(t, r, c, v, human_format(v, u, buf, sizeof(buf)));
}

static void unit_of(const struct history_series *hs, struct display_unit *u)
{
	double typical = 0;

	for (size_t i = 0; i < hs->n; i++)
		if (fabs(hs->p[i].mean) > typical)
			typical = fabs(hs->p[i].mean);
	display_unit_auto(hs->unit, typical, 0, u);
}

static void change_row(struct fmt_table *t, const struct history *h,
		       const struct history_change *c)
{
	const struct history_series *hs = &h->s[c->series];
	const struct store_run *run = &h->data->runs[hs->p[c->point].run];
	struct display_unit u;
	char *labels = labels_to_string(&hs->labels);
	size_t r = fmt_table_add_row(t);
	char buf[64];

	unit_of(hs, &u);
	fmt_table_set_cell(t, r, 0, hs->tool, NULL);
	fmt_table_set_cell(t, r, 1, hs->op, NULL);
	fmt_table_set_cell(t, r, 2, hs->metric, NULL);
	fmt_table_set_cell(t, r, 3, labels, NULL);
	fmt_table_set_cell(t, r, 4, run->name, NULL);
	fmt_table_set_cell(t, r, 5, run->time, NULL);
	fmt_table_set_cell(t, r, 6, u.name, hs->unit);
	set_mean(t, r, 7, c->cp.mean_before, &u);
	set_mean(t, r, 8, c->cp.mean_after, &u);
	snprintf(buf, sizeof(buf), "%.3f", c->ratio);
	fmt_table_set_number(t, r, 9, c->ratio, buf);
	snprintf(buf, sizeof(buf), "%+.1f%%", c->change_pct);
	fmt_table_set_number(t, r, 10, c->change_pct, buf);
	/* csv and json keep the number; p_test says what it is */
	snprintf(buf, sizeof(buf), "%s%.2g",
		 c->cp.p_kind == DETECT_P_BOUND ? "<= " : "", c->cp.p);
	fmt_table_set_number(t, r, 11, c->cp.p, buf);
	fmt_table_set_cell(t, r, 12, history_verdict_name(c->verdict), NULL);
	fmt_table_set_cell(t, r, 13, detect_p_kind_name(c->cp.p_kind), NULL);
	fmt_table_set_style(t, r, 12, c->verdict == HISTORY_REGRESSION ?
			    FMT_BAD : c->verdict == HISTORY_IMPROVEMENT ?
			    FMT_GOOD : FMT_PLAIN);
	free(labels);
}

static void changes_table_init(struct fmt_table *t)
{
	static const char *const cols[][2] = {
		{ "tool", "tool" }, { "op", "op" }, { "metric", "metric" },
		{ "labels", "labels" }, { "run", "run" }, { "time", "time" },
		{ "unit", "unit" }, { "mean_before", "before" },
		{ "mean_after", "after" }, { "ratio", "ratio" },
		{ "change_pct", "change" }, { "p_value", "p" },
		{ "verdict", "verdict" }, { "p_test", "test" },
	};

	fmt_table_init(t, NULL);
	for (size_t c = 0; c < sizeof(cols) / sizeof(*cols); c++)
		fmt_table_add_column(t, cols[c][0], cols[c][1],
				     c >= 7 && c <= 11);
}

void history_changes_table(const struct history *h,
			   const struct history_change *c, size_t n,
			   long since, struct fmt_table *t)
{
	changes_table_init(t);
	for (size_t i = 0; i < n; i++)
		if ((long)h->s[c[i].series].p[c[i].point].run > since)
			change_row(t, h, &c[i]);
}
