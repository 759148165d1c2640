/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's plan; see plan.h for the rules. */
#define _GNU_SOURCE	/* qsort_r */
#include "plan.h"
#include "table.h"
#include "../core/human.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 32
#define SIDE_KEY "input"	/* plot/chart.h's CHART_SIDE_KEY */

enum want { WANT_EXACT, WANT_PERCENTILES, WANT_HISTOGRAM };

static const struct group_def {
	const char *y;
	enum plan_kind kind;
	enum want want;
} groups[] = {
	{ "bw", PLAN_BARS_OR_LINES, WANT_EXACT },
	{ "iops", PLAN_BARS_OR_LINES, WANT_EXACT },
	{ "lat.mean", PLAN_BARS_OR_LINES, WANT_EXACT },
	{ "clat.mean", PLAN_BARS_OR_LINES, WANT_EXACT },
	{ "clat", PLAN_HIST_PERCENTILES, WANT_HISTOGRAM },
	{ "lat", PLAN_HIST_PERCENTILES, WANT_HISTOGRAM },
	{ "clat", PLAN_PERCENTILES, WANT_PERCENTILES },
	{ "lat", PLAN_PERCENTILES, WANT_PERCENTILES },
	{ "clat", PLAN_CDF, WANT_HISTOGRAM },
	{ "lat", PLAN_CDF, WANT_HISTOGRAM },
	{ "time.real", PLAN_BARS_OR_LINES, WANT_EXACT },
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

/*
 * iozone's thirteen tests on one chart are a tangle: when the ops would
 * be more series than a chart has colours, a chart per group of them.
 */
static const struct op_group {
	const char *name;
	const char *ops[6];
} op_groups[] = {
	{ "sequential", { "write", "rewrite", "read", "reread", NULL } },
	{ "random", { "randread", "randwrite", "randrw", NULL } },
	{ "strided", { "bkwdread", "strideread", "recrewrite", NULL } },
	{ "stdio", { "fwrite", "frewrite", "fread", "freread", NULL } },
	{ "other", { NULL } },
};
#define NOP_GROUPS (sizeof(op_groups) / sizeof(op_groups[0]))

static size_t op_group_of(const char *op)
{
	for (size_t g = 0; g + 1 < NOP_GROUPS; g++)
		for (size_t i = 0; op_groups[g].ops[i]; i++)
			if (!strcmp(op_groups[g].ops[i], op))
				return g;
	return NOP_GROUPS - 1;
}

static void add_note(struct plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ALLOC_GROW(p->notes, p->nnotes + 1, p->notes_alloc);
	p->notes[p->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

/* ---- what a group takes ------------------------------------------------ */

static int metric_is_percentile(const char *metric, const char *family)
{
	size_t len = strlen(family);
	const char *q;
	double v;

	if (strncmp(metric, family, len) || metric[len] != '.' ||
	    metric[len + 1] != 'p')
		return 0;
	q = metric + len + 2;
	return !scan_double(&q, 0, &v) && !*q && v > 0 && v < 100;
}

static int wanted(const struct measurement *m, const struct group_def *g)
{
	size_t len = strlen(g->y);

	switch (g->want) {
	case WANT_EXACT:
		return !strcmp(m->metric, g->y) &&
		       (m->n || measurement_summary(m)->present);
	case WANT_PERCENTILES:
		return metric_is_percentile(m->metric, g->y) &&
		       (m->n || measurement_summary(m)->present);
	default:
		return m->hist.n && !strncmp(m->metric, g->y, len) &&
		       (!m->metric[len] || m->metric[len] == '.');
	}
}

static int in_names(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* --metric bw, --metric clat (a family) or --metric clat.p99. */
static int metric_asked(const struct plan_options *opt,
			const struct group_def *g, const char *metric)
{
	if (!opt->metrics)
		return 1;
	return in_names(opt->metrics, opt->nmetrics, g->y) ||
	       in_names(opt->metrics, opt->nmetrics, metric);
}

struct take {
	const char *tool;
	const struct group_def *g;
	const struct plan_options *opt;
	const struct keymap *histograms;	/* pNN covered by bins */
};

/* The key of a test, for "has it a histogram too?". */
static char *test_key(const struct measurement *m, const char *family)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_keypart(&sb, m->tool);
	strbuf_add_keypart(&sb, m->op);
	strbuf_add_keypart(&sb, family);
	strbuf_add_keypart(&sb, m->source_name ? m->source_name : "");
	labels_add_keyparts(&m->labels, &sb);
	return strbuf_detach(&sb);
}

static int take_one(const struct measurement *m, const void *arg)
{
	const struct take *t = arg;
	char *key;
	int covered;

	if (strcmp(m->tool, t->tool) || !wanted(m, t->g) ||
	    !metric_asked(t->opt, t->g, m->metric) ||
	    (t->opt->where && !filter_match(t->opt->where, m)))
		return 0;
	if (t->g->want != WANT_PERCENTILES)
		return 1;
	/* curves from histograms make those from pNN metrics redundant
	 * where they describe the same runs */
	key = test_key(m, t->g->y);
	covered = keymap_get(t->histograms, key) != NULL;
	free(key);
	return !covered;
}

/* The tests that have a latency histogram of each family. */
static void find_histograms(const struct result_set *sets, size_t nsets,
			    struct keymap *out)
{
	static const char *const families[] = { "clat", "lat" };
	int created;

	keymap_init(out);
	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct measurement *m = &sets[s].m[i];

			for (size_t f = 0; f < 2 && m->hist.n; f++) {
				const struct group_def h = { families[f],
					PLAN_CDF, WANT_HISTOGRAM };
				char *key;

				if (!wanted(m, &h))
					continue;
				key = test_key(m, families[f]);
				keymap_put(out, key, 0, &created);
				free(key);
			}
		}
}

/* Tools in the order they first appear. */
static size_t list_tools(const struct result_set *sets, size_t nsets,
			 const char **tools, size_t max)
{
	size_t n = 0;

	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			size_t j;

			for (j = 0; j < n && strcmp(tools[j], sets[s].m[i].tool);
			     j++)
				;
			if (j == n && n < max)
				tools[n++] = sets[s].m[i].tool;
		}
	return n;
}

/* ---- keys -------------------------------------------------------------- */

static const char *key_name(const struct experiment *ex, size_t k)
{
	return k == EX_OP ? "op" : k == EX_TOOL ? "tool" : ex->keys[k].name;
}

static uint64_t code(const struct experiment *ex, size_t i, size_t k)
{
	return experiment_code_of(ex, i, k);
}

static size_t count_values(const struct experiment *ex, const size_t *mem,
			   size_t n, size_t k)
{
	struct keymap seen;
	char buf[32];
	size_t count;
	int created;

	keymap_init(&seen);
	for (size_t j = 0; j < n; j++) {
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)code(ex, mem[j], k));
		keymap_put(&seen, buf, 0, &created);
	}
	count = seen.n;
	keymap_release(&seen);
	return count;
}

/* The typical figure of each value of k: do they differ tenfold? */
static int values_differ_tenfold(const struct experiment *ex,
				 const size_t *mem, size_t n, size_t k)
{
	double lo = INFINITY, hi = 0;
	struct keymap seen;
	double *sum = xcalloc(n + 1, sizeof(*sum));
	size_t *cnt = xcalloc(n + 1, sizeof(*cnt));
	char buf[32];
	int created;

	keymap_init(&seen);
	for (size_t j = 0; j < n; j++) {
		const struct ex_group *g = &ex->groups[ex->m[mem[j]].group];
		size_t *slot;

		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)code(ex, mem[j], k));
		slot = keymap_put(&seen, buf, seen.n, &created);
		if (g->st->mean > 0) {
			sum[*slot] += log(g->st->mean);
			cnt[*slot]++;
		}
	}
	for (size_t v = 0; v < seen.n; v++) {
		double m;

		if (!cnt[v])
			continue;
		m = exp(sum[v] / (double)cnt[v]);
		lo = m < lo ? m : lo;
		hi = m > hi ? m : hi;
	}
	keymap_release(&seen);
	free(sum);
	free(cnt);
	return hi > 10 * lo;
}

/* ---- pinning ----------------------------------------------------------- */

static uint64_t pick_representative(const struct experiment *ex,
				    const size_t *mem, size_t n, size_t k,
				    int shared);

/* Has every side with members a member with code c of key k? */
static int on_every_side(const struct experiment *ex, const size_t *mem,
			 size_t n, size_t k, uint64_t c)
{
	for (size_t s = 0; s < ex->nsides; s++) {
		int any = 0, with = 0;

		for (size_t j = 0; j < n && !with; j++) {
			if (ex->m[mem[j]].side != s)
				continue;
			any = 1;
			with = code(ex, mem[j], k) == c;
		}
		if (any && !with)
			return 0;
	}
	return 1;
}

/*
 * The value a pinned key keeps: 4 KiB blocks (latency is quoted there),
 * the largest file (the least flattered by the page cache), else the
 * value with the most figures -- among those every side has, so that a
 * comparison compares (one input stopping at 256 MiB: 256 MiB).
 */
static uint64_t representative(const struct experiment *ex, const size_t *mem,
			       size_t n, size_t k)
{
	uint64_t best = pick_representative(ex, mem, n, k, 1);

	return best ? best : pick_representative(ex, mem, n, k, 0);
}

static uint64_t pick_representative(const struct experiment *ex,
				    const size_t *mem, size_t n, size_t k,
				    int shared)
{
	const struct ex_key *key = k == EX_OP || k == EX_TOOL ? NULL :
				   &ex->keys[k];
	uint64_t best = shared ? 0 : code(ex, mem[0], k);
	double bv = -1;
	size_t *count = NULL;

	if (key && !strcmp(key->name, "bs")) {
		for (size_t j = 0; j < n; j++) {
			uint64_t c = code(ex, mem[j], k);
			double v = c ? key->num[c] : NAN;

			if (shared && !on_every_side(ex, mem, n, k, c))
				continue;
			if (v > 4095.5 && v < 4096.5)
				return c;
			if (!isnan(v) && (bv < 0 || v < bv)) {
				bv = v;
				best = c;
			}
		}
		return best;
	}
	if (key && key->numeric) {
		for (size_t j = 0; j < n; j++) {
			uint64_t c = code(ex, mem[j], k);

			if (shared && !on_every_side(ex, mem, n, k, c))
				continue;
			if (c && key->num[c] > bv) {
				bv = key->num[c];
				best = c;
			}
		}
		return best;
	}
	{
		struct keymap seen;
		char buf[32];
		int created;

		keymap_init(&seen);
		count = xcalloc(n + 1, sizeof(*count));
		for (size_t j = 0; j < n; j++) {
			uint64_t c = code(ex, mem[j], k);
			size_t *slot;

			snprintf(buf, sizeof(buf), "%llu",
				 (unsigned long long)c);
			slot = keymap_put(&seen, buf, seen.n, &created);
			if (shared && created &&
			    !on_every_side(ex, mem, n, k, c))
				count[*slot] = SIZE_MAX / 2;	/* never */
			if (count[*slot] >= SIZE_MAX / 2)
				continue;
			if (++count[*slot] > bv) {
				bv = (double)count[*slot];
				best = c;
			}
		}
		keymap_release(&seen);
		free(count);
	}
	return best;
}

/* Keeps the members whose key k has the code c; returns how many. */
static size_t pin(const struct experiment *ex, size_t *mem, size_t n,
		  size_t k, uint64_t c)
{
	size_t out = 0;

	for (size_t j = 0; j < n; j++)
		if (code(ex, mem[j], k) == c)
			mem[out++] = mem[j];
	return out;
}

/* Why representative() kept that value, in words. */
static const char *pin_reason(const struct experiment *ex, size_t k)
{
	const struct ex_key *key = k == EX_OP || k == EX_TOOL ? NULL :
				   &ex->keys[k];

	if (key && !strcmp(key->name, "bs"))
		return "4 KiB blocks, or the smallest";
	if (key && key->numeric)
		return key->size ? "the largest size every input has" :
		       "the largest value every input has";
	return "the value with the most figures";
}

static void note_pin(struct plan *p, const struct plan_model *pm, size_t k,
		     uint64_t c, size_t dropped, const char *why)
{
	char buf[96];

	experiment_value_text(&pm->ex, k, (uint32_t)c, buf, sizeof(buf));
	add_note(p, "%s %s: shown at %s=%s only (%s: %s); the workbook's "
		 "Data sheet has the other %zu figure(s)", pm->tool,
		 pm->metric, key_name(&pm->ex, k), buf,
		 pin_reason(&pm->ex, k), why, dropped);
}

/* ---- charts ------------------------------------------------------------ */

static void add_slug(struct strbuf *sb, const char *s)
{
	size_t start = sb->len;

	for (; *s && sb->len - start < 40; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			strbuf_addch(sb, c);
		else if (sb->len > start && sb->buf[sb->len - 1] != '-')
			strbuf_addch(sb, '-');
	}
	while (sb->len > start && sb->buf[sb->len - 1] == '-')
		sb->buf[--sb->len] = '\0';
}

struct layout {
	size_t x;		/* EX_NONE: percentiles, distributions */
	size_t series[4];
	size_t nseries;
	int sides;		/* the sides are the series */
	size_t facets[MAX_KEYS];
	size_t nfacets;
	int op_groups;		/* a chart per op group */
	size_t ratio_side;
};

static void add_chart(struct plan *p, size_t model, const struct layout *l,
		      const size_t *mem, size_t n, const char *facet_text,
		      const char *facet_slug)
{
	const struct plan_model *pm = &p->models[model];
	struct plan_chart *c;
	struct strbuf sb = STRBUF_INIT;

	ALLOC_GROW(p->charts, p->ncharts + 1, p->charts_alloc);
	c = &p->charts[p->ncharts++];
	memset(c, 0, sizeof(*c));
	c->model = model;
	c->members = xmalloc((n ? n : 1) * sizeof(*c->members));
	memcpy(c->members, mem, n * sizeof(*mem));
	c->nmembers = n;
	c->ratio_side = l->ratio_side;
	if (l->x != EX_NONE)
		c->x = xstrdup(key_name(&pm->ex, l->x));
	for (size_t i = 0; i < l->nseries; i++)
		strbuf_addf(&sb, "%s%s", sb.len ? "," : "",
			    key_name(&pm->ex, l->series[i]));
	if (l->sides)
		strbuf_addf(&sb, "%s%s", sb.len ? "," : "", SIDE_KEY);
	c->series = sb.len ? strbuf_detach(&sb) : NULL;
	strbuf_release(&sb);
	c->facets = facet_text && *facet_text ? xstrdup(facet_text) : NULL;
	/* (numbered once the plan is complete: ratios first) */
	add_slug(&sb, pm->tool);
	strbuf_addch(&sb, '-');
	add_slug(&sb, pm->metric);
	if (pm->kind == PLAN_CDF)
		strbuf_adds(&sb, "-cdf");
	if (l->ratio_side)
		strbuf_addf(&sb, "-ratio-%zu", l->ratio_side);
	if (facet_slug && *facet_slug)
		strbuf_addf(&sb, "-%s", facet_slug);
	c->name = strbuf_detach(&sb);
}

/* Where the value of key k for measurement i sorts among the charts:
 * ops in the order benchmarks run them, the rest as the model ranks. */
static double facet_rank(const struct experiment *ex, size_t i, size_t k)
{
	uint64_t c = code(ex, i, k);
	char buf[64];

	if (k == EX_OP)
		return op_rank(experiment_value_text(ex, k, (uint32_t)c, buf,
						     sizeof(buf)));
	if (k == EX_TOOL)
		return (double)c;
	return c ? (double)ex->keys[k].rank[c] : 1e300;
}

struct facet_order {
	const struct experiment *ex;
	const struct layout *l;
	const size_t *first;
};

static int by_facets(const void *pa, const void *pb, void *arg)
{
	const struct facet_order *o = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	for (size_t f = 0; f < o->l->nfacets; f++) {
		double x = facet_rank(o->ex, o->first[a], o->l->facets[f]);
		double y = facet_rank(o->ex, o->first[b], o->l->facets[f]);

		if (x < y || x > y)
			return x < y ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

/* The members' value combinations of the facet keys, each a chart, in
 * the order of their values (hdparm's disk read before its cached one,
 * 4K before 64K), not as found. */
static void add_faceted(struct plan *p, size_t model, const struct layout *l,
			const size_t *mem, size_t n)
{
	const struct experiment *ex = &p->models[model].ex;
	struct keymap combos;
	size_t **lists = NULL, *counts = NULL, ncombo = 0, alloc = 0;
	size_t *first = NULL, *order;
	struct strbuf key = STRBUF_INIT, text = STRBUF_INIT, slug = STRBUF_INIT;
	char buf[96];

	keymap_init(&combos);
	for (size_t j = 0; j < n; j++) {
		int created;
		size_t *slot;

		strbuf_reset(&key);
		for (size_t f = 0; f < l->nfacets; f++)
			strbuf_addf(&key, "%llu,", (unsigned long long)
				    code(ex, mem[j], l->facets[f]));
		if (l->op_groups)
			strbuf_addf(&key, "g%zu",
				    op_group_of(ex->m[mem[j]].m->op));
		slot = keymap_put(&combos, strbuf_str(&key), ncombo, &created);
		if (created) {
			size_t old = alloc;

			ALLOC_GROW(lists, ncombo + 1, alloc);
			counts = xrealloc(counts, alloc * sizeof(*counts));
			first = xrealloc(first, alloc * sizeof(*first));
			for (size_t i = old; i < alloc; i++)
				lists[i] = NULL;
			lists[ncombo] = xmalloc(n * sizeof(**lists));
			counts[ncombo] = 0;
			first[ncombo] = mem[j];
			ncombo++;
		}
		lists[*slot][counts[*slot]++] = mem[j];
	}
	order = xmalloc((ncombo + 1) * sizeof(*order));
	for (size_t c = 0; c < ncombo; c++)
		order[c] = c;
	qsort_r(order, ncombo, sizeof(*order), by_facets,
		&(struct facet_order){ ex, l, first });
	for (size_t o = 0; o < ncombo; o++) {
		size_t mark, c = order[o];

		strbuf_reset(&text);
		strbuf_reset(&slug);
		for (size_t f = 0; f < l->nfacets; f++) {
			size_t k = l->facets[f];
			uint64_t v = code(ex, first[c], k);

			experiment_value_text(ex, k, (uint32_t)v, buf,
					      sizeof(buf));
			if (text.len)
				strbuf_adds(&text, ", ");
			mark = text.len;
			if (v || k == EX_OP || k == EX_TOOL)
				experiment_value_words(&text, key_name(ex, k), buf);
			else	/* "no direct" */
				strbuf_adds(&text, buf);
			if (slug.len)
				strbuf_addch(&slug, '-');
			add_slug(&slug, text.buf + mark);
		}
		if (l->op_groups) {
			const char *g = op_groups[op_group_of(
					ex->m[first[c]].m->op)].name;

			strbuf_addf(&text, "%s%s ops", text.len ? ", " : "", g);
			if (slug.len)
				strbuf_addch(&slug, '-');
			add_slug(&slug, g);
		}
		add_chart(p, model, l, lists[c], counts[c], text.buf,
			  slug.buf);
		free(lists[c]);
	}
	keymap_release(&combos);
	free(lists);
	free(counts);
	free(first);
	free(order);
	strbuf_release(&key);
	strbuf_release(&text);
	strbuf_release(&slug);
}

static size_t combinations(const struct experiment *ex, const size_t *mem,
			   size_t n, const size_t *keys, size_t nk)
{
	struct keymap seen;
	struct strbuf key = STRBUF_INIT;
	size_t count;
	int created;

	keymap_init(&seen);
	for (size_t j = 0; j < n; j++) {
		strbuf_reset(&key);
		for (size_t f = 0; f < nk; f++)
			strbuf_addf(&key, "%llu,", (unsigned long long)
				    code(ex, mem[j], keys[f]));
		keymap_put(&seen, strbuf_str(&key), 0, &created);
	}
	count = seen.n;
	keymap_release(&seen);
	strbuf_release(&key);
	return count;
}

/* Too many charts: the facet with the most values keeps one. */
static size_t cut_facets(struct plan *p, const struct plan_model *pm,
			 struct layout *l, size_t *mem, size_t n)
{
	while (l->nfacets &&
	       combinations(&pm->ex, mem, n, l->facets, l->nfacets) >
	       PLAN_MAX_FACETS) {
		size_t most = 0, mv = 0, kept;
		uint64_t c;

		for (size_t f = 0; f < l->nfacets; f++) {
			size_t v = count_values(&pm->ex, mem, n, l->facets[f]);

			if (v > mv) {
				mv = v;
				most = f;
			}
		}
		c = representative(&pm->ex, mem, n, l->facets[most]);
		kept = pin(&pm->ex, mem, n, l->facets[most], c);
		note_pin(p, pm, l->facets[most], c, n - kept,
			 "a chart for each would be too many");
		n = kept;
		l->facets[most] = l->facets[--l->nfacets];
	}
	return n;
}

/* Latency curves: at one block size, as latency is quoted. */
static size_t pin_block_size(struct plan *p, const struct plan_model *pm,
			     size_t *mem, size_t n)
{
	size_t k = experiment_key(&pm->ex, "bs"), kept;
	uint64_t c;

	if (k == EX_NONE || pm->ex.keys[k].role != EX_FACTOR ||
	    count_values(&pm->ex, mem, n, k) < 2)
		return n;
	c = representative(&pm->ex, mem, n, k);
	kept = pin(&pm->ex, mem, n, k, c);
	note_pin(p, pm, k, c, n - kept, "latency is quoted at one block "
		 "size");
	return kept;
}

/* How many charts x would make (the series the next key, if it can be). */
static size_t charts_with_x(const struct experiment *ex, const size_t *mem,
			    size_t n, size_t x, int sides)
{
	size_t have[2] = { x }, nh = 1, rest[MAX_KEYS], nr, facets[MAX_KEYS];

	nr = experiment_distinguishing(ex, mem, n, have, 1, rest, MAX_KEYS);
	if (!sides && nr && count_values(ex, mem, n, rest[0]) <=
	    PLAN_MAX_SERIES)
		have[nh++] = rest[0];
	nr = experiment_distinguishing(ex, mem, n, have, nh, facets,
				       MAX_KEYS);
	return combinations(ex, mem, n, facets, nr);
}

static int is_scale(const struct experiment *ex, const size_t *mem, size_t n,
		    size_t k)
{
	return k != EX_OP && k != EX_TOOL && ex->keys[k].numeric &&
	       count_values(ex, mem, n, k) >= 3;
}

/*
 * x: a scale (a numeric key with three values or more, as
 * experiment_pick_x() finds them) when there is one: of several (a block
 * size and an I/O depth sweep), the first in display order (the block
 * size) unless another leaves at most half as many charts, so that a
 * 40-step iodepth sweep over 4 block sizes is a line per block size
 * rather than 40 charts cut down to one.  Else, among the keys that tell the members apart, the
 * one that leaves the fewest charts (the others as series and facets);
 * the first in display order on a tie -- a job per bar rather than a
 * chart per job.
 */
static size_t fewest_charts_x(const struct experiment *ex, const size_t *mem,
			      size_t n)
{
	size_t x = experiment_pick_x(ex, mem, n), dist[MAX_KEYS], nd;
	size_t best = x, fewest;
	int sides = ex->nsides > 1, scales = is_scale(ex, mem, n, x);

	fewest = charts_with_x(ex, mem, n, x, sides);
	nd = experiment_distinguishing(ex, mem, n, NULL, 0, dist, MAX_KEYS);
	for (size_t i = 0; i < nd; i++) {
		size_t c;

		if (scales && !is_scale(ex, mem, n, dist[i]))
			continue;
		c = charts_with_x(ex, mem, n, dist[i], sides);
		/* the first scale stays unless another halves the charts */
		if (scales ? 2 * c <= fewest : c < fewest) {
			fewest = c;
			best = dist[i];
		}
	}
	return best;
}

static int side_has(const struct experiment *ex, const size_t *mem, size_t n,
		    size_t side)
{
	for (size_t j = 0; j < n; j++)
		if (ex->m[mem[j]].side == side)
			return 1;
	return 0;
}

/*
 * Moves the first facets into the series (two keys at most) while the
 * lines (or bars) stay few: mult (the sides, or 1) times their values at
 * most FOLD_MAX_LINES for absolute figures, PLAN_MAX_SERIES for ratios
 * (which sit around 1.0 and rarely cross).
 * A ratio takes any factor (ratios share a scale); absolute figures only
 * one whose values do not differ tenfold (a cached read beside a disk
 * read flattens the other lines).  A chart per block size and per op
 * becomes a chart per block size with a line per op.
 */
#define FOLD_MAX_LINES 6	/* absolute figures: beyond, lines tangle */

static void fold_series(const struct experiment *ex, const size_t *mem,
			size_t n, struct layout *l, size_t mult,
			int absolute)
{
	while (l->nfacets && l->nseries < 2 && !l->op_groups) {
		size_t k = l->facets[0], v = count_values(ex, mem, n, k);

		if (mult * v > (absolute ? FOLD_MAX_LINES : PLAN_MAX_SERIES) ||
		    (absolute && values_differ_tenfold(ex, mem, n, k)))
			return;
		mult *= v;
		l->series[l->nseries++] = k;
		memmove(l->facets, l->facets + 1,
			--l->nfacets * sizeof(*l->facets));
	}
}

/* IOPS of a tool whose throughput is planned already: at one block size
 * their ratios are one number, a second ratio chart would repeat it. */
static int ratio_restated(const struct plan *p, const struct plan_model *pm)
{
	if (strcmp(pm->metric, "iops"))
		return 0;
	for (size_t i = 0; i < p->nmodels; i++)
		if (&p->models[i] != pm && !strcmp(p->models[i].metric, "bw") &&
		    !strcmp(p->models[i].tool, pm->tool))
			return 1;
	return 0;
}

/* x, series and facets for the members of model m. */
static void lay_out(struct plan *p, size_t model, size_t *mem, size_t n,
		    const struct plan_options *opt)
{
	const struct plan_model *pm = &p->models[model];
	const struct experiment *ex = &pm->ex;
	size_t dist[MAX_KEYS], nd, rest[MAX_KEYS], nr = 0;
	struct layout l = { .x = EX_NONE };
	size_t user = opt->series ? experiment_key(ex, opt->series) : EX_NONE;

	if (opt->series && !strcmp(opt->series, "op"))
		user = EX_OP;
	if (pm->kind == PLAN_BARS_OR_LINES)
		l.x = fewest_charts_x(ex, mem, n);
	/* (what x restates drops out: a device beside its job) */
	nd = experiment_distinguishing(ex, mem, n, &l.x,
				       l.x != EX_NONE, dist, MAX_KEYS);
	for (size_t i = 0; i < nd; i++)
		rest[nr++] = dist[i];
	l.sides = ex->nsides > 1;
	if (user != EX_NONE && user != l.x && ex_keys_have(rest, nr, user)) {
		l.series[l.nseries++] = user;
	} else if (!l.sides && nr) {
		size_t s = rest[0];

		if (s == EX_OP && count_values(ex, mem, n, s) >
		    PLAN_MAX_SERIES) {
			l.series[l.nseries++] = s;
			l.op_groups = 1;
		} else if (count_values(ex, mem, n, s) <= PLAN_MAX_SERIES &&
			   !values_differ_tenfold(ex, mem, n, s)) {
			l.series[l.nseries++] = s;
		}
	}
	/* the facets: what still tells them apart, x and series known */
	{
		size_t have[6], nh = 0;

		if (l.x != EX_NONE)
			have[nh++] = l.x;
		for (size_t i = 0; i < l.nseries; i++)
			have[nh++] = l.series[i];
		l.nfacets = experiment_distinguishing(ex, mem, n, have, nh,
						      l.facets, MAX_KEYS);
	}
	/* a comparison: the ratio of each candidate first, where both
	 * it and the baseline have figures */
	for (size_t side = 1; l.sides && side < ex->nsides &&
	     pm->kind == PLAN_BARS_OR_LINES && !ratio_restated(p, pm);
	     side++) {
		struct layout r = l;
		size_t *rmem, rn;

		if (!side_has(ex, mem, n, 0) || !side_has(ex, mem, n, side))
			continue;
		r.sides = 0;
		r.ratio_side = side;
		fold_series(ex, mem, n, &r, 1, 0);
		rmem = xmalloc((n + 1) * sizeof(*rmem));
		memcpy(rmem, mem, n * sizeof(*mem));
		rn = cut_facets(p, pm, &r, rmem, n);
		add_faceted(p, model, &r, rmem, rn);
		free(rmem);
	}
	if (l.sides)
		fold_series(ex, mem, n, &l, ex->nsides, 1);
	else if (l.nseries == 1 && !l.op_groups)	/* ops x depths */
		fold_series(ex, mem, n, &l,
			    count_values(ex, mem, n, l.series[0]), 1);
	n = cut_facets(p, pm, &l, mem, n);
	add_faceted(p, model, &l, mem, n);
}

/* Ratio charts before the rest (the report numbers them in this order). */
static void order_charts(struct plan *p)
{
	struct plan_chart *sorted = xmalloc((p->ncharts + 1) *
					    sizeof(*sorted));
	size_t n = 0;

	for (int ratios = 1; ratios >= 0; ratios--)
		for (size_t i = 0; i < p->ncharts; i++)
			if ((p->charts[i].ratio_side != 0) == ratios)
				sorted[n++] = p->charts[i];
	if (n)	/* no charts: p->charts may be NULL */
		memcpy(p->charts, sorted, n * sizeof(*sorted));
	free(sorted);
}

static int plan_group(struct plan *p, const struct result_set *sets,
		      size_t nsets, const struct group_def *g,
		      const char *tool, const struct plan_options *opt,
		      const struct keymap *histograms, struct strbuf *err)
{
	struct take t = { tool, g, opt, histograms };
	struct experiment_options eo = {
		.take = take_one, .take_arg = &t, .pool = opt->pool,
		.npool = opt->npool, .side_key = opt->side_key,
		.side_a = opt->side_a, .side_b = opt->side_b,
		.set_names = opt->set_names,
	};
	struct plan_model *pm;
	size_t *mem, n;

	ALLOC_GROW(p->models, p->nmodels + 1, p->models_alloc);
	pm = &p->models[p->nmodels];
	memset(pm, 0, sizeof(*pm));
	if (experiment_build(&pm->ex, sets, nsets, &eo, err)) {
		experiment_release(&pm->ex);
		if (opt->side_key)
			strbuf_reset(err);	/* this tool lacks the key */
		return opt->side_key ? 0 : -1;
	}
	if (!pm->ex.n) {
		experiment_release(&pm->ex);
		return 0;
	}
	pm->tool = xstrdup(tool);
	pm->metric = xstrdup(g->y);
	pm->kind = g->kind;
	p->nmodels++;
	if (!p->side_names) {
		p->nsides = pm->ex.nsides;
		p->side_names = xcalloc(p->nsides + 1, sizeof(char *));
		for (size_t s = 0; s < p->nsides; s++)
			p->side_names[s] = xstrdup(pm->ex.sides[s].name);
	}
	mem = xmalloc(pm->ex.n * sizeof(*mem));
	for (size_t i = 0; i < pm->ex.n; i++)
		mem[i] = i;
	n = pm->ex.n;
	if (g->kind != PLAN_BARS_OR_LINES)
		n = pin_block_size(p, pm, mem, n);
	lay_out(p, p->nmodels - 1, mem, n, opt);
	free(mem);
	return 0;
}

/*
 * fio's mean completion latency beside its mean total latency: the same
 * curve a submission apart (slat is microseconds), a second chart that
 * tells a reader nothing new.  The workbook's Data sheet keeps it, and
 * --metric clat.mean charts it.
 */
static int restates_lat_mean(const struct plan *p, const struct group_def *g,
			     const char *tool, const struct plan_options *opt)
{
	if (opt->nmetrics || strcmp(g->y, "clat.mean"))
		return 0;
	for (size_t i = 0; i < p->nmodels; i++)
		if (!strcmp(p->models[i].metric, "lat.mean") &&
		    !strcmp(p->models[i].tool, tool))
			return 1;
	return 0;
}

int plan_build(struct plan *p, const struct result_set *sets, size_t nsets,
	       const struct plan_options *opt, struct strbuf *err)
{
	const char *tools[64];
	size_t ntools = list_tools(sets, nsets, tools, 64);
	struct keymap histograms;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	find_histograms(sets, nsets, &histograms);
	for (size_t g = 0; g < NGROUPS && !rc; g++)
		for (size_t t = 0; t < ntools && !rc; t++)
			if (!restates_lat_mean(p, &groups[g], tools[t], opt))
				rc = plan_group(p, sets, nsets, &groups[g],
						tools[t], opt, &histograms,
						err);
	keymap_release(&histograms);
	if (!rc && opt->side_key && !p->nmodels)
		rc = (strbuf_addf(err, "no measurement has the label '%s' with "
				  "two values", opt->side_key), -1);
	order_charts(p);
	return rc || !p->ncharts ? -1 : 0;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->nmodels; i++) {
		experiment_release(&p->models[i].ex);
		free(p->models[i].tool);
		free(p->models[i].metric);
	}
	for (size_t i = 0; i < p->ncharts; i++) {
		free(p->charts[i].name);
		free(p->charts[i].members);
		free(p->charts[i].x);
		free(p->charts[i].series);
		free(p->charts[i].facets);
	}
	for (size_t i = 0; i < p->nsides; i++)
		free(p->side_names[i]);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->side_names);
	free(p->side_key);
	free(p->models);
	free(p->charts);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}
