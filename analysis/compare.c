/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Comparing result sets; see compare.h for the matching and verdict rules.
 *
 * compare_sets() works in linear passes over the measurements: select what
 * is compared; learn, per label key, whether it is constant within each
 * side (the identity labels); decide which labels the match uses; hash
 * every measurement into a group by its match key, pooling repetitions;
 * then one row per group present on both sides.
 */
#include "compare.h"
#include "experiment.h"
#include "../core/cpus.h"
#include "../core/keymap.h"
#include "table.h"
#include "../core/numscan.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[] = {
	[VERDICT_IMPROVEMENT] = "improvement",
	[VERDICT_REGRESSION] = "regression",
	[VERDICT_UNCHANGED] = "unchanged",
	[VERDICT_INCONCLUSIVE] = "inconclusive",
};

const char *verdict_name(enum verdict v)
{
	return verdict_names[v];
}

int compare_direction(const char *metric)
{
	const char *unit = metric_unit(metric);

	if (ends_with(metric, ".stddev"))
		return -1;	/* a spread: less is steadier, for bw too */
	if (metric_higher_is_better(metric))
		return 1;
	return unit && !strcmp(unit, UNIT_SECONDS) ? -1 : 0;
}

/*
 * Every metric with a direction but runtime (a test's set duration, or
 * bw again) and the extremes and spreads of a run's samples (bw.min,
 * clat.max, iops.stddev: one interval's figure, noisier than the means
 * and percentiles that say the same; asked for with --metric, they are
 * compared).
 */
int compare_default_metric(const char *metric)
{
	return compare_direction(metric) && strcmp(metric, "runtime") &&
	       !ends_with(metric, ".min") && !ends_with(metric, ".max") &&
	       !ends_with(metric, ".stddev");
}

int compare_headline_metric(const char *metric)
{
	static const char *const names[] = {
		"bw", "iops", "lat.mean", "clat.mean", "lat.p99", "clat.p99",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(metric, names[i]))
			return 1;
	return !strncmp(metric, "time.", 5) && compare_direction(metric);
}

enum verdict compare_verdict(double change_pct, int direction,
			     double threshold_pct, int tested, double p,
			     double alpha)
{
	int better;

	if (isnan(change_pct))
		return VERDICT_INCONCLUSIVE;
	if (!(fabs(change_pct) > threshold_pct))
		return VERDICT_UNCHANGED;
	if (!direction)
		return VERDICT_INCONCLUSIVE;
	better = direction * change_pct > 0;
	if (tested && !(p < alpha))
		return VERDICT_INCONCLUSIVE;
	return better ? VERDICT_IMPROVEMENT : VERDICT_REGRESSION;
}

/*
 * The matching, pooling and splitting rules are the experiment model's
 * (analysis/experiment.h): both inputs go into one model, side 0 the
 * baseline, side 1 the candidate, and its match classes are the rows.
 */
struct selection {
	const struct compare_options *opt;
};

static int in_strings(const char *s, char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, v[i]))
			return 1;
	return 0;
}

static int compared_metric(const struct measurement *m, const void *arg)
{
	const struct compare_options *opt = arg;

	if (opt->metrics)
		return in_strings(m->metric, opt->metrics, opt->nmetrics);
	return opt->headline ? compare_headline_metric(m->metric) :
	       compare_default_metric(m->metric);
}

/* Is key k of the model part of what class c is matched on? */
static int matched_on(const struct experiment *ex, size_t k, int split)
{
	const struct ex_key *key = &ex->keys[k];

	if (key->role == EX_IDENTITY || key->role == EX_POOLED ||
	    key->role == EX_COUNTER)
		return 0;
	return !key->provenance || (split && key->role == EX_FACTOR);
}

/* One match class: its group on each side (EX_NONE: none). */
struct klass {
	size_t group[2];
	int split;		/* matched by a provenance key too */
};

/* The labels a row of class c shows: those it is matched on. */
static void class_labels(const struct experiment *ex, const struct klass *c,
			 struct labels *out)
{
	size_t g = c->group[0] != EX_NONE ? c->group[0] : c->group[1];
	size_t i = ex->groups[g].first;

	labels_init(out);
	for (size_t k = 0; k < ex->nkeys; k++) {
		const char *v = experiment_value(ex, i, k);

		if (v && matched_on(ex, k, c->split))
			labels_set(out, ex->keys[k].name, v);
	}
}

/*
 * A row's labels depend only on its first group's profile (label set and
 * input) and on whether it is split: the rows of one fio job's metrics
 * share one label set (copy-on-write) instead of building it each.
 */
struct labels_memo {
	size_t profile;
	int split;
	struct labels labels;
};

#define LABELS_MEMO_INIT { EX_NONE, 0, { NULL, 0, 0 } }

static void row_labels(struct labels_memo *memo, const struct experiment *ex,
		       const struct klass *c, struct labels *out)
{
	size_t g = c->group[0] != EX_NONE ? c->group[0] : c->group[1];
	size_t profile = ex->m[ex->groups[g].first].profile;

	if (profile != memo->profile || c->split != memo->split) {
		labels_release(&memo->labels);
		class_labels(ex, c, &memo->labels);
		memo->profile = profile;
		memo->split = c->split;
	}
	labels_copy(out, &memo->labels);
}

static const struct measurement *first_of(const struct experiment *ex,
					  size_t g)
{
	return ex->m[ex->groups[g].first].m;
}

static struct compare_row *new_row(struct compare_result *r,
				   struct labels_memo *memo,
				   const struct experiment *ex,
				   const struct klass *c, const char *metric)
{
	const struct measurement *m = first_of(ex, c->group[0]);
	struct compare_row *row;

	ALLOC_GROW(r->rows, r->nrows + 1, r->rows_alloc);
	row = &r->rows[r->nrows++];
	memset(row, 0, sizeof(*row));
	row->tool = m->tool;
	row->op = m->op;
	row->metric = metric;
	row->unit = m->unit;
	row_labels(memo, ex, c, &row->labels);
	row->p = NAN;
	row->test = "none";
	return row;
}

/* The row shows the figures of its groups' measurements (indices into
 * each side's own result set). */
static void copy_members(struct compare_result *r, struct compare_row *row,
			 const struct experiment *ex, const struct klass *c)
{
	for (int s = 0; s < 2; s++) {
		const struct ex_group *g = &ex->groups[c->group[s]];

		row->nmembers[s] = (uint32_t)g->nmembers;
		row->members[s] = pool_alloc(&r->pool, g->nmembers *
					     sizeof(*row->members[s]));
		for (size_t j = 0; j < g->nmembers; j++)
			row->members[s][j] = ex->m[g->members[j]].index;
	}
}

static void change_of(struct compare_row *row)
{
	if (fabs(row->a.mean) > 0) {
		row->ratio = row->b.mean / row->a.mean;
		row->change_pct = (row->ratio - 1) * 100;
	} else {
		row->ratio = row->change_pct = NAN;
		if (!(fabs(row->b.mean) > 0))
			row->change_pct = 0;	/* 0 and 0: no change */
	}
}

/* Every value of group g (for Mann-Whitney); NULL when some run is
 * known only by a summary. */
static double *group_values(const struct experiment *ex, size_t g,
			    size_t *n)
{
	const struct ex_group *gr = &ex->groups[g];
	double *v = NULL;
	size_t alloc = 0;

	*n = 0;
	for (size_t j = 0; j < gr->nmembers; j++) {
		const struct measurement *m = ex->m[gr->members[j]].m;

		if (!m->n) {
			free(v);
			*n = 0;
			return NULL;
		}
		for (size_t i = 0; i < m->n; i++) {
			ALLOC_GROW(v, *n + 1, alloc);
			v[(*n)++] = m->values[i];
		}
	}
	return v;
}

/* Runs the chosen test; leaves p NAN when none applies. */
static void run_test(struct compare_row *row, const struct experiment *ex,
		     const struct klass *c, enum compare_test test)
{
	const struct compare_side *a = &row->a, *b = &row->b;
	int mw_ok = row->have_values[0] && row->have_values[1];
	double t, df, u, *va, *vb;
	size_t na, nb;
	int exact;

	if (a->n < 2 || b->n < 2)
		return;
	if (mw_ok && (test == COMPARE_TEST_MANN_WHITNEY ||
		      (test == COMPARE_TEST_AUTO && a->n >= COMPARE_MW_MIN &&
		       b->n >= COMPARE_MW_MIN))) {
		row->test = "mannwhitney";
		va = group_values(ex, c->group[0], &na);
		vb = group_values(ex, c->group[1], &nb);
		if (!va || !vb || stats_mann_whitney(va, na, vb, nb, &row->p,
						     &u, &exact))
			row->p = NAN;
		free(va);
		free(vb);
		return;
	}
	row->test = "welch";
	if (stats_welch(a->n, a->mean, a->stddev, b->n, b->mean, b->stddev,
			&row->p, &t, &df))
		row->p = NAN;
}

/*
 * A change within the threshold is "unchanged" only when the runs show
 * it: the ratio's interval at 1 - alpha lies within the threshold.  A
 * mean 0.4% up with an interval of [0.36, 1.67] says nothing either way.
 * Without an interval (single runs, a summary without its spread) the
 * threshold alone decides, as the verdict rules say.
 */
static int within_threshold_shown(const struct compare_row *row,
				  const struct compare_options *o)
{
	double t = o->threshold / 100;
	int within = stats_ratio_ci_within(row->a.n, row->a.mean,
					   row->a.stddev, row->b.n,
					   row->b.mean, row->b.stddev,
					   1 - o->alpha, 1 - t, 1 + t);

	return within != 0;
}

static void decide(struct compare_row *row, const struct compare_options *o)
{
	int tested = row->a.n >= 2 && row->b.n >= 2;

	row->verdict = compare_verdict(row->change_pct,
				       compare_direction(row->metric),
				       o->threshold, tested, row->p, o->alpha);
	if (row->verdict == VERDICT_UNCHANGED && tested &&
	    !row->from_histogram && !within_threshold_shown(row, o))
		row->verdict = VERDICT_INCONCLUSIVE;
	row->single_runs = !tested && !row->from_histogram &&
			   (row->verdict == VERDICT_IMPROVEMENT ||
			    row->verdict == VERDICT_REGRESSION);
}

/* "clat.mean" and "clat" have the latency family "clat". */
static char *family_of(const char *metric)
{
	size_t n = strlen(metric);

	if (ends_with(metric, ".mean"))
		n -= 5;
	return xstrndup(metric, n);
}

/* The latency bins of group g's measurements, merged. */
static void group_histogram(const struct experiment *ex, size_t g,
			    struct histogram *h)
{
	const struct ex_group *gr = &ex->groups[g];

	memset(h, 0, sizeof(*h));
	for (size_t j = 0; j < gr->nmembers; j++) {
		const struct histogram *src = &ex->m[gr->members[j]].m->hist;

		if (!src->n)
			continue;
		h->value = xrealloc(h->value, (h->n + src->n) *
				    sizeof(*h->value));
		h->count = xrealloc(h->count, (h->n + src->n) *
				    sizeof(*h->count));
		memcpy(h->value + h->n, src->value, src->n * sizeof(double));
		memcpy(h->count + h->n, src->count, src->n * sizeof(uint64_t));
		h->n += src->n;
	}
}

static char *row_key(const struct compare_row *row, const char *metric);

static void release_row(struct compare_row *row)
{
	labels_release(&row->labels);	/* the rest is borrowed or pooled */
}

/* Tail rows from latency histograms, unless the inputs printed them. */
static void histogram_rows(struct compare_result *r,
			   struct labels_memo *memo,
			   const struct experiment *ex, const struct klass *c,
			   struct keymap *rows,
			   const struct compare_options *opt)
{
	static const struct {
		double q;
		const char *suffix;
	} tails[] = { { 0.99, "p99" }, { 0.999, "p99.9" } };
	char *family = family_of(first_of(ex, c->group[0])->metric);
	struct histogram h[2];

	group_histogram(ex, c->group[0], &h[0]);
	group_histogram(ex, c->group[1], &h[1]);
	for (size_t i = 0; i < sizeof(tails) / sizeof(*tails); i++) {
		char *metric = xstrfmt("%s.%s", family, tails[i].suffix);
		struct compare_row *row;
		char *key;

		if (!opt->metrics && opt->headline &&
		    !compare_headline_metric(metric)) {
			free(metric);
			continue;
		}
		row = new_row(r, memo, ex, c, pool_strdup(&r->pool, metric));
		key = row_key(row, metric);

		if (keymap_get(rows, key)) {	/* printed: that row counts */
			release_row(row);
			r->nrows--;
		} else {
			row->from_histogram = 1;
			copy_members(r, row, ex, c);
			row->test = "hist";
			row->a.n = row->b.n = 1;
			row->a.mean = stats_hist_quantile(&h[0], tails[i].q);
			row->b.mean = stats_hist_quantile(&h[1], tails[i].q);
			row->a.stddev = row->b.stddev = NAN;
			change_of(row);
			decide(row, opt);
		}
		free(key);
		free(metric);
	}
	for (int s = 0; s < 2; s++) {
		free(h[s].value);
		free(h[s].count);
	}
	free(family);
}

static void add_unmatched(struct compare_result *r,
			  const struct experiment *ex, const struct klass *c,
			  int in_candidate)
{
	const struct measurement *m = first_of(ex, c->group[in_candidate]);
	struct compare_unmatched *u;

	ALLOC_GROW(r->unmatched, r->nunmatched + 1, r->unmatched_alloc);
	u = &r->unmatched[r->nunmatched++];
	u->in_candidate = in_candidate;
	u->tool = xstrdup(m->tool);
	u->op = xstrdup(m->op);
	u->metric = xstrdup(m->metric);
	u->source = xstrdup(m->source_name ? m->source_name : "");
	u->line = m->line;
	class_labels(ex, c, &u->labels);
}

/*
 * The classes in the order of their first group: groups are numbered as
 * the measurements came, the baseline's first, so rows follow the
 * baseline and what only the candidate has comes last.
 */
static struct klass *classes_of(const struct experiment *ex,
				const size_t *match, const int *split,
				size_t n, size_t a, size_t **order)
{
	struct klass *c = xmalloc((n ? n : 1) * sizeof(*c));
	size_t *seq = xmalloc((n ? n : 1) * sizeof(*seq)), k = 0;

	for (size_t i = 0; i < n; i++) {
		c[i].group[0] = c[i].group[1] = EX_NONE;
		c[i].split = 0;
	}
	for (size_t g = 0; g < ex->ngroups; g++) {
		const struct ex_group *gr = &ex->groups[g];

		if (match[g] == EX_NONE)
			continue;
		if (c[match[g]].group[0] == EX_NONE &&
		    c[match[g]].group[1] == EX_NONE)
			seq[k++] = match[g];
		c[match[g]].group[gr->side == a ? 0 : 1] = g;
		c[match[g]].split = split[g];
	}
	*order = seq;
	return c;
}

/*
 * Does any class have histograms on both sides (histogram_rows())?  Only
 * then are the rows' keys needed: a million rows' keys were a tenth of
 * a compare's time.
 */
static int any_histograms(const struct experiment *ex, const struct klass *c,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].group[0] != EX_NONE && c[i].group[1] != EX_NONE &&
		    first_of(ex, c[i].group[0])->hist.n &&
		    first_of(ex, c[i].group[1])->hist.n)
			return 1;
	return 0;
}

/* Side s of the row: group g's figures (compare's model is built
 * groups_only). */
static void side_of(struct compare_row *row, int s,
		    const struct experiment *ex, size_t g,
		    struct stats_acc *acc)
{
	struct stats st;

	experiment_group_stats(ex, g, acc, &st);
	*(s ? &row->b : &row->a) = (struct compare_side){ st.n, st.mean,
							   st.stddev };
	row->have_values[s] = (unsigned char)st.have_values;
}

/* A row's figures: its sides' statistics, the change, the test and the
 * verdict. */
static void row_figures(struct compare_row *row, const struct experiment *ex,
			const struct klass *k,
			const struct compare_options *opt,
			struct stats_acc *acc)
{
	side_of(row, 0, ex, k->group[0], acc);
	side_of(row, 1, ex, k->group[1], acc);
	change_of(row);
	run_test(row, ex, k, opt->test);
	decide(row, opt);
}

/*
 * The figures of n rows, FIGURE_CHUNK rows a job, on every CPU: each
 * row's own (its groups' statistics, their intervals and tests, read from
 * the model only), most of the rows' time (about 0.7 s of a million rows
 * on one CPU, where making the rows themselves took 0.2 s).
 */
#define FIGURE_CHUNK 4096

struct figures {
	struct compare_row *rows;
	const size_t *klass;	/* each row's class, in c */
	size_t n;
	const struct experiment *ex;
	const struct klass *c;
	const struct compare_options *opt;
	atomic_size_t next;	/* the first row of the next job */
};

static void *figures_worker(void *arg)
{
	struct figures *f = arg;
	struct stats_acc acc;
	size_t from;

	stats_acc_init(&acc);
	while ((from = atomic_fetch_add(&f->next, FIGURE_CHUNK)) < f->n) {
		size_t to = f->n - from < FIGURE_CHUNK ? f->n : from +
			    FIGURE_CHUNK;

		for (size_t i = from; i < to; i++)
			row_figures(&f->rows[i], f->ex, &f->c[f->klass[i]],
				    f->opt, &acc);
	}
	stats_acc_release(&acc);
	return NULL;
}

static void all_figures(struct compare_result *r, size_t first,
			const size_t *klass, const struct experiment *ex,
			const struct klass *c,
			const struct compare_options *opt)
{
	struct figures f = {
		.rows = r->rows + first, .klass = klass,
		.n = r->nrows - first, .ex = ex, .c = c, .opt = opt,
	};

	atomic_init(&f.next, 0);
	cpus_run_pool(cpus_pool_threads(f.n / FIGURE_CHUNK + 1),
		      figures_worker, &f);
}

static void fill_rows(struct compare_result *r, const struct experiment *ex,
		      size_t a, size_t b, const struct compare_options *opt)
{
	size_t *match = xmalloc((ex->ngroups + 1) * sizeof(*match)), *order;
	int *split = xmalloc((ex->ngroups + 1) * sizeof(*split));
	size_t nclasses = experiment_match(ex, a, b, match, split,
					   &r->split_tests);
	struct klass *c = classes_of(ex, match, split, nclasses, a, &order);
	int hist = any_histograms(ex, c, nclasses);
	struct labels_memo memo = LABELS_MEMO_INIT;
	size_t first = r->nrows, *klass = xmalloc((nclasses + 1) *
						  sizeof(*klass));
	struct keymap rows;
	int created;

	free(match);	/* (classes made: before the rows take memory) */
	free(split);
	keymap_init(&rows);
	/* a row a class at most, before histogram rows: no million rows
	 * copied as the array doubles */
	ALLOC_GROW(r->rows, r->nrows + nclasses, r->rows_alloc);
	for (size_t g = 0; g < ex->ngroups; g++)
		r->pooled += ex->groups[g].nmembers - 1;
	for (size_t i = 0; i < nclasses; i++) {
		struct klass *k = &c[order[i]];
		struct compare_row *row;
		char *key;

		if (k->group[0] == EX_NONE || k->group[1] == EX_NONE) {
			add_unmatched(r, ex, k, k->group[0] == EX_NONE);
			continue;
		}
		row = new_row(r, &memo, ex, k,
			      first_of(ex, k->group[0])->metric);
		copy_members(r, row, ex, k);
		klass[r->nrows - 1 - first] = order[i];
		if (!hist)
			continue;
		key = row_key(row, row->metric);
		keymap_put(&rows, key, r->nrows - 1, &created);
		free(key);
	}
	all_figures(r, first, klass, ex, c, opt);
	for (size_t i = 0; hist && i < nclasses; i++) {
		struct klass *k = &c[order[i]];

		if (k->group[0] != EX_NONE && k->group[1] != EX_NONE &&
		    first_of(ex, k->group[0])->hist.n &&
		    first_of(ex, k->group[1])->hist.n)
			histogram_rows(r, &memo, ex, k, &rows, opt);
	}
	keymap_release(&rows);
	labels_release(&memo.labels);
	free(klass);
	free(order);
	free(c);
}

/* A tail metric "clat.p99", "lat.p99.9": its family and quantile >= 99. */
static char *tail_family(const char *metric)
{
	const char *p = strstr(metric, ".p"), *q;
	double quantile;

	if (!p)
		return NULL;
	q = p + 2;
	if (scan_double(&q, 0, &quantile) || *q || quantile < 99)
		return NULL;
	return xstrndup(metric, (size_t)(p - metric));
}

static char *row_key(const struct compare_row *row, const char *metric)
{
	char *labels = labels_to_string(&row->labels);
	char *key = xstrfmt("%s\037%s\037%s\037%s", row->tool, row->op,
			    metric, labels);

	free(labels);
	return key;
}

static void add_tail_note(struct compare_result *r,
			  const struct compare_row *mean,
			  const struct compare_row *tail)
{
	char *labels = labels_to_string(&tail->labels);
	const char *tailq = tail->metric + strlen(tail->metric);

	while (tailq > tail->metric && tailq[-1] != 'p')
		tailq--;
	ALLOC_GROW(r->tail_notes, r->ntail_notes + 1, r->tail_alloc);
	r->tail_notes[r->ntail_notes++] = xstrfmt(
		"%s %s %s: mean %s (%+.1f%%) but p%s regressed (%+.1f%%)%s%s",
		tail->tool, tail->op, mean->metric, verdict_name(mean->verdict),
		mean->change_pct, tailq, tail->change_pct,
		*labels ? " at " : "", labels);
	free(labels);
}

/* Says so where the mean held but a tail quantile regressed. */
static void tail_notes(struct compare_result *r)
{
	struct keymap rows;
	int created;
	size_t tails = 0;

	/* the keys of every row only when some row is a regressed tail */
	for (size_t i = 0; !tails && i < r->nrows; i++) {
		char *family = r->rows[i].verdict == VERDICT_REGRESSION ?
			       tail_family(r->rows[i].metric) : NULL;

		tails = family != NULL;
		free(family);
	}
	if (!tails)
		return;
	keymap_init(&rows);
	for (size_t i = 0; i < r->nrows; i++) {
		char *key = row_key(&r->rows[i], r->rows[i].metric);

		keymap_put(&rows, key, i, &created);
		free(key);
	}
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *tail = &r->rows[i];
		char *family = tail->verdict == VERDICT_REGRESSION ?
			       tail_family(tail->metric) : NULL;
		char *mean_metric, *key;
		const size_t *at;

		if (!family)
			continue;
		mean_metric = xstrfmt("%s.mean", family);
		key = row_key(tail, mean_metric);
		at = keymap_get(&rows, key);
		if (at && (r->rows[*at].verdict == VERDICT_UNCHANGED ||
			   r->rows[*at].verdict == VERDICT_INCONCLUSIVE))
			add_tail_note(r, &r->rows[*at], tail);
		free(key);
		free(mean_metric);
		free(family);
	}
	keymap_release(&rows);
}

static void summarise(struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];
		size_t g = 0;

		r->counts[row->verdict]++;
		r->single_runs += (size_t)row->single_runs;
		while (g < r->ngeo && strcmp(r->geo[g].metric, row->metric))
			g++;
		if (g == r->ngeo) {
			ALLOC_GROW(r->geo, r->ngeo + 1, r->geo_alloc);
			r->geo[r->ngeo++] = (struct compare_geomean){
				xstrdup(row->metric), 0, 0 };
		}
		if (row->ratio > 0 && isfinite(row->ratio)) {
			r->geo[g].value += log(row->ratio);
			r->geo[g].n++;
		}
	}
	for (size_t g = 0; g < r->ngeo; g++)
		r->geo[g].value = r->geo[g].n ?
			exp(r->geo[g].value / (double)r->geo[g].n) : NAN;
}

/* Every label the match leaves out: identities, provenance, --ignore. */
static void list_ignored(struct compare_result *r,
			 const struct experiment *ex)
{
	for (size_t k = 0; k < ex->nkeys; k++) {
		const struct ex_key *key = &ex->keys[k];

		if (key->origin == EX_FROM_NAMES ||
		    (key->role != EX_IDENTITY && key->role != EX_POOLED &&
		     key->role != EX_COUNTER && !key->provenance))
			continue;
		r->ignored = xrealloc(r->ignored, (r->nignored + 1) *
				      sizeof(*r->ignored));
		r->ignored[r->nignored++] = xstrdup(key->name);
	}
}

void compare_sides(const struct result_set *sets, size_t nsets,
		   const char *side_key, size_t k,
		   const struct compare_options *opt,
		   struct compare_result *out)
{
	struct experiment_options eo = {
		.where = opt->where, .take = compared_metric,
		.take_arg = opt, .ignore = opt->ignore,
		.nignore = opt->nignore, .match = opt->match,
		.nmatch = opt->nmatch, .side_key = side_key,
		.groups_only = 1,
	};
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;

	memset(out, 0, sizeof(*out));
	if (experiment_build(&ex, sets, nsets, &eo, &err) || k >= ex.nsides) {
		/* (a side key the caller's model had: not here) */
		experiment_release(&ex);
		strbuf_release(&err);
		return;
	}
	out->compared[0] = ex.sides[0].nmeasurements;
	out->compared[1] = ex.sides[k].nmeasurements;
	/* against a side with nothing to compare, no label tells them
	 * apart: the other side's unmatched figures keep their labels */
	if (out->compared[0] && out->compared[1]) {
		labels_copy(&out->identity_a, &ex.sides[0].identity);
		labels_copy(&out->identity_b, &ex.sides[k].identity);
	}
	list_ignored(out, &ex);
	fill_rows(out, &ex, 0, k, opt);
	tail_notes(out);
	summarise(out);
	experiment_release(&ex);
	strbuf_release(&err);
}

void compare_sets(const struct result_set *a, const struct result_set *b,
		  const struct compare_options *opt,
		  struct compare_result *out)
{
	struct result_set sets[2] = { *a, *b };	/* (shallow: read only) */

	compare_sides(sets, 2, NULL, 1, opt, out);
}

void compare_result_release(struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		release_row(&r->rows[i]);
	for (size_t i = 0; i < r->nunmatched; i++) {
		free(r->unmatched[i].tool);
		free(r->unmatched[i].op);
		free(r->unmatched[i].metric);
		free(r->unmatched[i].source);
		labels_release(&r->unmatched[i].labels);
	}
	for (size_t i = 0; i < r->nignored; i++)
		free(r->ignored[i]);
	for (size_t i = 0; i < r->ngeo; i++)
		free(r->geo[i].metric);
	for (size_t i = 0; i < r->ntail_notes; i++)
		free(r->tail_notes[i]);
	free(r->rows);
	free(r->unmatched);
	free(r->ignored);
	free(r->geo);
	free(r->tail_notes);
	pool_release(&r->pool);
	labels_release(&r->identity_a);
	labels_release(&r->identity_b);
	memset(r, 0, sizeof(*r));
}
