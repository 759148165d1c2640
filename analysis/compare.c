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
#include "../core/keymap.h"
#include "table.h"
#include "../core/numscan.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
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

/* The measurements of one side that take part. */
struct side {
	const struct result_set *rs;
	size_t *idx;
	size_t n;
};

static int in_strings(const char *s, char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, v[i]))
			return 1;
	return 0;
}

static void select_side(const struct result_set *rs,
			const struct compare_options *opt, struct side *s)
{
	s->rs = rs;
	s->idx = xmalloc((rs->n ? rs->n : 1) * sizeof(*s->idx));
	s->n = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];

		if (opt->metrics ? !in_strings(m->metric, opt->metrics,
					       opt->nmetrics) :
		    !compare_default_metric(m->metric))
			continue;
		if (opt->where && !filter_match(opt->where, m))
			continue;
		s->idx[s->n++] = i;
	}
}

/* What one side says about a label key. */
struct key_info {
	const char *value;	/* the first value seen (owned by the set) */
	size_t count;		/* measurements that have the key */
	int consistent;		/* every value equals the first */
	int kept;		/* the key takes part in the match */
};

struct key_table {
	struct keymap map;
	struct key_info (*info)[2];	/* [side] per key */
	const char **names;		/* owned by the sets */
	size_t n, alloc;
	int may_split;		/* section is left out, and not by request */
	struct keymap split;	/* test keys matched by section too */
};

static void learn_keys(struct key_table *kt, const struct side *s, int side)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct labels *l = &s->rs->m[s->idx[i]].labels;

		for (size_t j = 0; j < l->n; j++) {
			struct key_info *ki;
			int created;
			size_t k = *keymap_put(&kt->map, l->v[j].key, kt->n,
					       &created);

			if (created) {
				ALLOC_GROW(kt->info, kt->n + 1, kt->alloc);
				kt->names = xrealloc(kt->names, (kt->n + 1) *
						     sizeof(*kt->names));
				memset(kt->info[kt->n], 0,
				       sizeof(kt->info[kt->n]));
				kt->names[kt->n++] = l->v[j].key;
			}
			ki = &kt->info[k][side];
			if (!ki->count++) {
				ki->value = l->v[j].value;
				ki->consistent = 1;
			} else if (strcmp(ki->value, l->v[j].value)) {
				ki->consistent = 0;
			}
		}
	}
}

/* Constant over a side: everywhere with one value, or nowhere. */
static int constant_on(const struct key_info *ki, size_t n)
{
	return !ki->count || (ki->count == n && ki->consistent);
}

/*
 * A label that tells the inputs apart.  Against a side with nothing to
 * compare, none does: every constant label of the other side would be
 * one, and its unmatched figures would be listed without their device.
 */
static int identity_key(const struct key_info *ki, const struct side *s)
{
	const char *va = ki[0].count ? ki[0].value : NULL;
	const char *vb = ki[1].count ? ki[1].value : NULL;

	return s[0].n && s[1].n && constant_on(&ki[0], s[0].n) && constant_on(&ki[1], s[1].n) &&
	       (!va || !vb || strcmp(va, vb));
}

static void decide_keys(struct key_table *kt, const struct side *s,
			const struct compare_options *opt,
			struct compare_result *r)
{
	for (size_t k = 0; k < kt->n; k++) {
		struct key_info *ki = kt->info[k];
		const char *key = kt->names[k];
		int identity = !opt->match && identity_key(ki, s);

		if (opt->match)
			ki[0].kept = in_strings(key, opt->match, opt->nmatch);
		else
			ki[0].kept = !identity && !label_is_provenance(key) &&
				     !in_strings(key, opt->ignore,
						 opt->nignore);
		if (identity && ki[0].count)
			labels_set(&r->identity_a, key, ki[0].value);
		if (identity && ki[1].count)
			labels_set(&r->identity_b, key, ki[1].value);
		if (!ki[0].kept) {
			r->ignored = xrealloc(r->ignored, (r->nignored + 1) *
					      sizeof(*r->ignored));
			r->ignored[r->nignored++] = xstrdup(key);
		}
	}
}

static void add_kept_labels(const struct key_table *kt,
			    const struct measurement *m, struct strbuf *sb)
{
	for (size_t j = 0; j < m->labels.n; j++) {
		const size_t *k = keymap_get(&kt->map, m->labels.v[j].key);

		if (k && kt->info[*k][0].kept)
			strbuf_addf(sb, "%s=%s\037", m->labels.v[j].key,
				    m->labels.v[j].value);
	}
}

/* A test, whatever its metric: tool, op and the kept labels. */
static void test_key(const struct key_table *kt, const struct measurement *m,
		     struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s\037%s\037", m->tool, m->op);
	add_kept_labels(kt, m, sb);
}

/* Is m's test one that an input shows under several headings? */
static int split_by_section(const struct key_table *kt,
			    const struct measurement *m)
{
	struct strbuf sb = STRBUF_INIT;
	int split;

	if (!kt->split.n)
		return 0;
	test_key(kt, m, &sb);
	split = keymap_get(&kt->split, sb.buf) != NULL;
	strbuf_release(&sb);
	return split;
}

/*
 * A match key: tool, op, metric and the kept labels, and the section
 * where the test is split by it ("\036" apart: no label looks like it).
 */
static void match_key(const struct key_table *kt,
		      const struct measurement *m, const char *metric,
		      struct strbuf *sb)
{
	const char *section = labels_get(&m->labels, "section");

	strbuf_reset(sb);
	strbuf_addf(sb, "%s\037%s\037%s\037", m->tool, m->op, metric);
	add_kept_labels(kt, m, sb);
	if (split_by_section(kt, m))
		strbuf_addf(sb, "\036section%s%s", section ? "=" : "",
			    section ? section : "");
}

/*
 * A section is provenance between inputs (other posts' headings say
 * nothing of each other), but one input's headings are its parts:
 * BEFORE: and AFTER:, '## ext4' and '## btrfs' (core/context.c).  The
 * same test and metric under two headings of one input are two tests, not
 * two runs: such tests are matched by section as well, on both sides, so
 * that ext4 meets ext4 and a before/after is never averaged into one
 * figure.  --ignore section (or --match) pools them on request.
 */
static void find_splits(struct key_table *kt, const struct side *s)
{
	struct keymap seen;	/* test, metric, input -> its first */
	struct strbuf key = STRBUF_INIT;

	keymap_init(&seen);
	for (size_t i = 0; i < s->n; i++) {
		const struct measurement *m = &s->rs->m[s->idx[i]];
		const char *va = labels_get(&m->labels, "section"), *vb;
		size_t first, tlen;
		int created;

		test_key(kt, m, &key);
		tlen = key.len;
		strbuf_addf(&key, "\037%s\037%zu", m->metric, m->source);
		first = *keymap_put(&seen, key.buf, s->idx[i], &created);
		if (created)
			continue;
		vb = labels_get(&s->rs->m[first].labels, "section");
		if ((!va && !vb) || (va && vb && !strcmp(va, vb)))
			continue;
		key.buf[key.len = tlen] = '\0';	/* the test alone */
		keymap_put(&kt->split, key.buf, 0, &created);
	}
	keymap_release(&seen);
	strbuf_release(&key);
}

static void decide_splits(struct key_table *kt, const struct side *s,
			  const struct compare_options *opt,
			  struct compare_result *r)
{
	const size_t *k = keymap_get(&kt->map, "section");

	kt->may_split = k && !kt->info[*k][0].kept && !opt->match &&
			!in_strings("section", opt->ignore, opt->nignore);
	if (!kt->may_split)
		return;
	find_splits(kt, &s[0]);
	find_splits(kt, &s[1]);
	r->split_tests = kt->split.n;
}

struct hist_pool {
	double *value;
	uint64_t *count;
	size_t n;
};

struct group {
	size_t first[2];	/* first measurement of each side, or MAX */
	size_t count[2];
	size_t *members[2];	/* count[side] measurement indices */
	size_t members_alloc[2];
	struct stats_acc acc[2];
	struct hist_pool hist[2];
};

struct grouping {
	struct keymap map;
	struct group *g;
	size_t n, alloc;
};

static void hist_add(struct hist_pool *h, const struct histogram *src)
{
	h->value = xrealloc(h->value, (h->n + src->n) * sizeof(*h->value));
	h->count = xrealloc(h->count, (h->n + src->n) * sizeof(*h->count));
	memcpy(h->value + h->n, src->value, src->n * sizeof(*h->value));
	memcpy(h->count + h->n, src->count, src->n * sizeof(*h->count));
	h->n += src->n;
}

static void group_side(struct grouping *gr, const struct key_table *kt,
		       const struct side *s, int side)
{
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < s->n; i++) {
		const struct measurement *m = &s->rs->m[s->idx[i]];
		struct group *g;
		int created;
		size_t at;

		match_key(kt, m, m->metric, &key);
		at = *keymap_put(&gr->map, key.buf, gr->n, &created);
		if (created) {
			ALLOC_GROW(gr->g, gr->n + 1, gr->alloc);
			g = &gr->g[gr->n++];
			memset(g, 0, sizeof(*g));
			g->first[0] = g->first[1] = SIZE_MAX;
			stats_acc_init(&g->acc[0]);
			stats_acc_init(&g->acc[1]);
		}
		g = &gr->g[at];
		if (g->first[side] == SIZE_MAX)
			g->first[side] = s->idx[i];
		ALLOC_GROW(g->members[side], g->count[side] + 1,
			   g->members_alloc[side]);
		g->members[side][g->count[side]++] = s->idx[i];
		stats_acc_add_measurement(&g->acc[side], m);
		if (m->hist.n)
			hist_add(&g->hist[side], &m->hist);
	}
	strbuf_release(&key);
}

static void grouping_release(struct grouping *gr)
{
	for (size_t i = 0; i < gr->n; i++) {
		for (int s = 0; s < 2; s++) {
			stats_acc_release(&gr->g[i].acc[s]);
			free(gr->g[i].members[s]);
			free(gr->g[i].hist[s].value);
			free(gr->g[i].hist[s].count);
		}
	}
	free(gr->g);
	keymap_release(&gr->map);
}

static void kept_labels(const struct key_table *kt,
			const struct measurement *m, struct labels *out)
{
	const char *section = labels_get(&m->labels, "section");

	labels_init(out);
	for (size_t j = 0; j < m->labels.n; j++) {
		const size_t *k = keymap_get(&kt->map, m->labels.v[j].key);

		if (k && kt->info[*k][0].kept)
			labels_set(out, m->labels.v[j].key,
				   m->labels.v[j].value);
	}
	if (section && split_by_section(kt, m))
		labels_set(out, "section", section);
}

static struct compare_row *new_row(struct compare_result *r,
				   const struct key_table *kt,
				   const struct measurement *m,
				   const char *metric)
{
	struct compare_row *row;

	ALLOC_GROW(r->rows, r->nrows + 1, r->rows_alloc);
	row = &r->rows[r->nrows++];
	memset(row, 0, sizeof(*row));
	row->tool = xstrdup(m->tool);
	row->op = xstrdup(m->op);
	row->metric = xstrdup(metric);
	row->unit = xstrdup(m->unit);
	kept_labels(kt, m, &row->labels);
	row->p = NAN;
	row->test = "none";
	return row;
}

/* The row shows the figures of the group's measurements. */
static void copy_members(struct compare_row *row, const struct group *g)
{
	for (int s = 0; s < 2; s++) {
		row->nmembers[s] = g->count[s];
		row->members[s] = xmalloc((g->count[s] ? g->count[s] : 1) *
					  sizeof(*row->members[s]));
		if (g->count[s])
			memcpy(row->members[s], g->members[s],
			       g->count[s] * sizeof(*row->members[s]));
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

/* Runs the chosen test; leaves p NAN when none applies. */
static void run_test(struct compare_row *row, const struct group *g,
		     enum compare_test test)
{
	const struct stats *a = &row->a, *b = &row->b;
	int mw_ok = a->have_values && b->have_values;
	double t, df, u;
	int exact;

	if (a->n < 2 || b->n < 2)
		return;
	if (mw_ok && (test == COMPARE_TEST_MANN_WHITNEY ||
		      (test == COMPARE_TEST_AUTO && a->n >= COMPARE_MW_MIN &&
		       b->n >= COMPARE_MW_MIN))) {
		row->test = "mannwhitney";
		if (stats_mann_whitney(g->acc[0].values, g->acc[0].nvalues,
				       g->acc[1].values, g->acc[1].nvalues,
				       &row->p, &u, &exact))
			row->p = NAN;
		return;
	}
	row->test = "welch";
	if (stats_welch(a->n, a->mean, a->stddev, b->n, b->mean, b->stddev,
			&row->p, &t, &df))
		row->p = NAN;
}

static void decide(struct compare_row *row, const struct compare_options *o)
{
	int tested = row->a.n >= 2 && row->b.n >= 2;

	row->verdict = compare_verdict(row->change_pct,
				       compare_direction(row->metric),
				       o->threshold, tested, row->p, o->alpha);
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

/* Tail rows from latency histograms, unless the inputs printed them. */
static void histogram_rows(struct compare_result *r, const struct group *g,
			   const struct key_table *kt,
			   const struct grouping *gr, const struct side *s,
			   const struct compare_options *opt)
{
	static const struct {
		double q;
		const char *suffix;
	} tails[] = { { 0.99, "p99" }, { 0.999, "p99.9" } };
	const struct measurement *m = &s[0].rs->m[g->first[0]];
	struct strbuf key = STRBUF_INIT;
	char *family = family_of(m->metric);

	for (size_t i = 0; i < sizeof(tails) / sizeof(*tails); i++) {
		struct histogram ha = { g->hist[0].n, g->hist[0].value,
					g->hist[0].count };
		struct histogram hb = { g->hist[1].n, g->hist[1].value,
					g->hist[1].count };
		char *metric = xstrfmt("%s.%s", family, tails[i].suffix);
		struct compare_row *row;

		match_key(kt, m, metric, &key);
		if (!keymap_get(&gr->map, key.buf)) {
			row = new_row(r, kt, m, metric);
			row->from_histogram = 1;
			copy_members(row, g);
			row->test = "hist";
			row->a.n = row->b.n = 1;
			row->a.mean = stats_hist_quantile(&ha, tails[i].q);
			row->b.mean = stats_hist_quantile(&hb, tails[i].q);
			row->a.stddev = row->b.stddev = NAN;
			change_of(row);
			decide(row, opt);
		}
		free(metric);
	}
	free(family);
	strbuf_release(&key);
}

static void add_unmatched(struct compare_result *r, const struct key_table *kt,
			  const struct measurement *m, int in_candidate)
{
	struct compare_unmatched *u;

	ALLOC_GROW(r->unmatched, r->nunmatched + 1, r->unmatched_alloc);
	u = &r->unmatched[r->nunmatched++];
	u->in_candidate = in_candidate;
	u->tool = xstrdup(m->tool);
	u->op = xstrdup(m->op);
	u->metric = xstrdup(m->metric);
	u->source = xstrdup(m->source_name ? m->source_name : "");
	u->line = m->line;
	kept_labels(kt, m, &u->labels);
}

static void group_rows(struct compare_result *r, const struct grouping *gr,
		       const struct key_table *kt, const struct side *s,
		       const struct compare_options *opt)
{
	for (size_t i = 0; i < gr->n; i++) {
		const struct group *g = &gr->g[i];
		struct compare_row *row;

		r->pooled += (g->count[0] > 1 ? g->count[0] - 1 : 0) +
			     (g->count[1] > 1 ? g->count[1] - 1 : 0);
		if (g->first[0] == SIZE_MAX || g->first[1] == SIZE_MAX) {
			int c = g->first[0] == SIZE_MAX;

			add_unmatched(r, kt, &s[c].rs->m[g->first[c]], c);
			continue;
		}
		row = new_row(r, kt, &s[0].rs->m[g->first[0]],
			      s[0].rs->m[g->first[0]].metric);
		copy_members(row, g);
		stats_compute(&g->acc[0], &row->a);
		stats_compute(&g->acc[1], &row->b);
		change_of(row);
		run_test(row, g, opt->test);
		decide(row, opt);
		if (g->hist[0].n && g->hist[1].n)
			histogram_rows(r, g, kt, gr, s, opt);
	}
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

void compare_sets(const struct result_set *a, const struct result_set *b,
		  const struct compare_options *opt,
		  struct compare_result *out)
{
	struct side s[2];
	struct key_table kt;
	struct grouping gr;

	memset(out, 0, sizeof(*out));
	labels_init(&out->identity_a);
	labels_init(&out->identity_b);
	select_side(a, opt, &s[0]);
	select_side(b, opt, &s[1]);
	out->compared[0] = s[0].n;
	out->compared[1] = s[1].n;
	memset(&kt, 0, sizeof(kt));
	keymap_init(&kt.map);
	keymap_init(&kt.split);
	learn_keys(&kt, &s[0], 0);
	learn_keys(&kt, &s[1], 1);
	decide_keys(&kt, s, opt, out);
	decide_splits(&kt, s, opt, out);
	memset(&gr, 0, sizeof(gr));
	keymap_init(&gr.map);
	group_side(&gr, &kt, &s[0], 0);
	group_side(&gr, &kt, &s[1], 1);
	group_rows(out, &gr, &kt, s, opt);
	tail_notes(out);
	summarise(out);
	grouping_release(&gr);
	keymap_release(&kt.map);
	keymap_release(&kt.split);
	free(kt.info);
	free(kt.names);
	free(s[0].idx);
	free(s[1].idx);
}

void compare_result_release(struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->rows[i].tool);
		free(r->rows[i].op);
		free(r->rows[i].metric);
		free(r->rows[i].unit);
		labels_release(&r->rows[i].labels);
		free(r->rows[i].members[0]);
		free(r->rows[i].members[1]);
	}
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
	labels_release(&r->identity_a);
	labels_release(&r->identity_b);
	memset(r, 0, sizeof(*r));
}
