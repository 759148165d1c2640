/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The checks of how a figure was taken: a run too short to reach a steady
 * state (short-run), one that never settled (steady-state), libaio
 * without direct=1 (buffered-aio); and, over the repetitions of each
 * test, a spread too wide for one figure (noisy) or a single run
 * (few-runs).  The repetitions are the groups of the experiment model
 * (analysis/experiment.h), taken in text order.
 */
#define _GNU_SOURCE
#include "check-private.h"
#include "experiment.h"
#include "steady.h"
#include "../core/numscan.h"
#include "../core/series.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- short-run ---- */

void check_short_run(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi), *rt;
	struct check_finding *f;
	double t = NAN, samples;
	char v[32];

	if (!is_headline(m) || is_cachedread(m))
		return;
	rt = check_sibling(c, pos, "runtime");
	if (rt)
		t = mean(rt);
	if (label_size(m, "samples", &samples) &&
	    samples < CHECK_MIN_SAMPLES) {
		check_add(c, CHECK_WARNING, "short-run", mi, samples,
		    CHECK_MIN_SAMPLES, "%s figure rests on %.0f samples, "
		    "fewer than %d: too few to show a steady state",
		    m->op, samples, CHECK_MIN_SAMPLES);
		return;
	}
	if (isnan(t) || !(t < CHECK_MIN_RUNTIME))
		return;
	f = check_found_in_output(c, pos, "short-run");
	if (!f) {
		/* the message quotes the runtime: its row names that
		 * measurement (unit s), and touches the figure too */
		f = check_add(c, CHECK_WARNING, "short-run",
			(size_t)(rt - c->rs->m), t, CHECK_MIN_RUNTIME,
			"%s ran for %s, under %.0f s: too short to get past "
			"caches, write-back and the drive's own buffers to a "
			"steady state", m->op,
			check_figure(t, UNIT_SECONDS, v, sizeof(v)),
			CHECK_MIN_RUNTIME);
		check_also(f, mi);
	}
	check_also_test(c, f, pos);
}

/*
 * A short-run finding that every figure of an output shares (a
 * blockdev-perftest table of 64 MiB transfers) says so, with the range
 * of the runtimes, rather than quote its first row alone: its mark on
 * every cell of the table must read as true of each.
 */
void check_short_runs_in_all(struct check_ctx *c, struct check_finding *f)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t figures = 0, runtimes = 0;
	char a[32], b[32];

	for (size_t i = 0; i < f->nmeasurements; i++) {
		const struct measurement *m = M(c, f->measurements[i]);

		if (str_is(m->metric, "runtime")) {
			double t = mean(m);

			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
			runtimes++;
		} else if (is_headline(m)) {
			figures++;
		}
	}
	if (figures < 3 || runtimes < 3 || !(lo < hi))
		return;	/* one test, or its runs: the first says it */
	free(f->message);
	f->message = xstrfmt("%s%sall %zu tests of this output ran for %s to "
			     "%s, under %.0f s: too short to get past caches, "
			     "write-back and the drive's own buffers to a "
			     "steady state",
			     check_prefix_of(c, f->measurements[0]) ?
			     check_prefix_of(c, f->measurements[0]) : "",
			     check_prefix_of(c, f->measurements[0]) ? ": " : "",
			     runtimes,
			     check_figure(lo, UNIT_SECONDS, a, sizeof(a)),
			     check_figure(hi, UNIT_SECONDS, b, sizeof(b)),
			     CHECK_MIN_RUNTIME);
}

/* ---- steady-state and buffered-aio (fio) ---- */

/*
 * A figure with its samples over time (a fio log): did they settle, by
 * the default rule (steady.h)?  A series too short for a window says
 * nothing here (short-run speaks of short runs).
 */
static void check_series_steady(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi);
	struct steady_rule r;
	struct steady_result res;
	struct strbuf err = STRBUF_INIT;
	struct check_finding *f;
	int bad_rule = steady_parse(STEADY_DEFAULT, &r, &err);

	strbuf_release(&err);
	if (bad_rule)
		BUG("storan's own steady-state rule does not parse");
	if (!is_headline(m) || check_found_here(c, pos, "steady-state"))
		return;
	steady_find(m->series, &r, &res);
	if (res.steady || res.short_run)
		return;
	f = check_add(c, CHECK_WARNING, "steady-state", mi, res.criterion, r.limit,
		"%s %s never settled over its %zu samples: no %.0f s window "
		"stayed within %g%% of its mean (the best one within %.3g%%), "
		"so its figure averages a moving target", m->op, m->metric,
		m->series->n, r.dur, r.limit, res.criterion);
	check_also_test(c, f, pos);
}

void check_steady_state(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi);
	const char *crit = label(m, "steadystate");
	struct check_finding *f;

	if (m->series) {
		check_series_steady(c, pos);
		return;
	}
	if (!is_headline(m) || !label_false(m, "ss_attained") ||
	    check_found_here(c, pos, "steady-state"))
		return;
	f = check_add(c, CHECK_WARNING, "steady-state", mi, NAN, NAN,
		"fio's steady-state criterion%s%s was not attained: the "
		"device was still changing when the job ended",
		crit ? " " : "", crit ? crit : "");
	check_also_test(c, f, pos);
}

void check_buffered_aio(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi);
	const char *engine = label(m, "ioengine");
	double depth;

	/* buffered only when said so (direct=0): fio's normal report
	 * prints no direct= at all, and most such jobs use direct=1 */
	if (!is_headline(m) || !engine || strcmp(engine, "libaio") ||
	    !label_false(m, "direct") || !label_size(m, "iodepth", &depth) ||
	    !(depth > 1) || check_found_here(c, pos, "buffered-aio"))
		return;
	check_add(c, CHECK_INFO, "buffered-aio", mi, depth, NAN,
	    "ioengine=libaio without direct=1 submits synchronously on "
	    "Linux: iodepth=%s had no effect, the test ran at depth 1",
	    label(m, "iodepth"));
}

/* ---- noisy and few-runs, over repetition groups ---- */

static int spread_metric(const struct measurement *m)
{
	return is_headline(m) || str_is(m->metric, "time.real") ||
	       (ends_with(m->metric, ".mean") &&
		(starts_with(m->metric, "lat") ||
		 starts_with(m->metric, "clat")));
}

/*
 * The statistics of a group: one member speaks for itself (its values or
 * the summary its tool printed); several pool their values, a summary
 * counting as one run of its mean.
 */
static void group_stats(struct check_ctx *c, const size_t *members,
			size_t n, struct measurement_stats *st)
{
	struct measurement all;

	if (n == 1) {
		measurement_basic_stats(M(c, members[0]), st);
		return;
	}
	memset(&all, 0, sizeof(all));
	for (size_t i = 0; i < n; i++) {
		const struct measurement *m = M(c, members[i]);

		for (size_t v = 0; v < m->n; v++)
			measurement_add_value(&all, m->values[v]);
		if (!m->n && m->summary)	/* (present) */
			measurement_add_value(&all, m->summary->mean);
	}
	measurement_basic_stats(&all, st);
	free(all.values);
}

static void check_noisy(struct check_ctx *c, const size_t *members,
			size_t nmembers, const struct measurement_stats *st)
{
	const struct measurement *m = M(c, members[0]);
	struct check_finding *f;
	double cv = st->stddev / st->mean;
	char lo[32], hi[32];

	if (!(cv > CHECK_MAX_CV))
		return;
	if (isnan(st->min) || isnan(st->max))
		f = check_add(c, CHECK_WARNING, "noisy", members[0], cv,
			CHECK_MAX_CV, "%s %s varies by %.0f%% (coefficient of "
			"variation) over %zu runs, more than %.0f%%: one figure "
			"does not describe it", m->op, m->metric, cv * 100,
			st->n, CHECK_MAX_CV * 100);
	else
		f = check_add(c, CHECK_WARNING, "noisy", members[0], cv,
			CHECK_MAX_CV, "%s %s varies by %.0f%% (coefficient of "
			"variation) over %zu runs, from %s to %s, more than "
			"%.0f%%: one figure does not describe it", m->op,
			m->metric, cv * 100, st->n,
			check_figure(st->min, m->unit, lo, sizeof(lo)),
			check_figure(st->max, m->unit, hi, sizeof(hi)),
			CHECK_MAX_CV * 100);
	for (size_t i = 1; i < nmembers; i++)
		check_also(f, members[i]);
}

static void check_few_runs(struct check_ctx *c, size_t pos, size_t mi)
{
	const struct measurement *m = M(c, mi);
	struct check_finding *f;
	char v[32];

	if (!is_headline(m) || is_cachedread(m))
		return;
	f = check_found_in_output(c, pos, "few-runs");
	if (!f) {
		check_add(c, CHECK_INFO, "few-runs", mi, 1, 3,
		    "%s at %s is a single run: repeat the test (3 runs or "
		    "more) to know how much it varies", m->op,
		    check_figure(mean(m), m->unit, v, sizeof(v)));
		return;
	}
	check_also(f, mi);
	m = M(c, f->measurements[0]);
	free(f->message);
	f->message = xstrfmt("%s at %s and %zu more figure%s of this output "
			     "are single runs: repeat the test (3 runs or "
			     "more) to know how much they vary", m->op,
			     check_figure(mean(m), m->unit, v, sizeof(v)),
			     f->nmeasurements - 1,
			     f->nmeasurements > 2 ? "s" : "");
}

static int spread_taken(const struct measurement *m, const void *arg)
{
	(void)arg;
	return spread_metric(m);
}

/* (qsort_r: the checks of two result sets run on two threads) */
static int by_text_position(const void *a, const void *b, void *arg)
{
	const size_t *order_pos = arg;
	size_t x = order_pos[*(const size_t *)a];
	size_t y = order_pos[*(const size_t *)b];

	return x < y ? -1 : x > y;
}

/*
 * The repetitions of each test are a group of the experiment model
 * (analysis/experiment.h: equal in every factor, inputs that differ only
 * by a run number included); groups are taken in the order of their
 * first figure in the text, their members in text order.
 */
void check_repetitions(struct check_ctx *c)
{
	struct experiment_options eo = { .take = spread_taken,
					 .groups_only = 1 };
	size_t n = c->rs->n ? c->rs->n : 1;
	size_t *pos = xmalloc(n * sizeof(*pos)), *first, *members, *mi;
	struct strbuf err = STRBUF_INIT;
	struct experiment ex;

	if (experiment_build(&ex, c->rs, 1, &eo, &err))
		BUG("check: %s", err.buf);	/* no sides: cannot fail */
	for (size_t i = 0; i < c->rs->n; i++)
		pos[c->order[i]] = i;
	first = xmalloc((ex.ngroups + 1) * sizeof(*first));
	members = xmalloc(n * sizeof(*members));
	for (size_t g = 0; g < ex.ngroups; g++)
		first[g] = ex.m[ex.groups[g].first].index;
	qsort_r(first, ex.ngroups, sizeof(*first), by_text_position, pos);
	for (size_t i = 0; i < ex.n; i++)	/* (first[] holds rs indices) */
		members[ex.m[i].index] = ex.m[i].group;
	/* one array for every group's members in turn (a million groups
	 * were a million mallocs) */
	mi = xmalloc(n * sizeof(*mi));
	for (size_t k = 0; k < ex.ngroups; k++) {
		const struct ex_group *g = &ex.groups[members[first[k]]];
		struct measurement_stats st;

		for (size_t j = 0; j < g->nmembers; j++)
			mi[j] = ex.m[g->members[j]].index;
		if (g->nmembers > 1)
			qsort_r(mi, g->nmembers, sizeof(*mi),
				by_text_position, pos);
		group_stats(c, mi, g->nmembers, &st);
		if (st.n == 1 && g->nmembers == 1)
			check_few_runs(c, pos[mi[0]], mi[0]);
		else if (st.n >= 2 && st.mean > 0 && !isnan(st.stddev))
			check_noisy(c, mi, g->nmembers, &st);
	}
	free(mi);
	experiment_release(&ex);
	strbuf_release(&err);
	free(members);
	free(first);
	free(pos);
}
