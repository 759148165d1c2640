/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * E-divisive means with permutation tests, windowed and merged as the
 * Hunter paper does; see detect.h.
 *
 * The energy statistic of X = x[s, tau) and Y = x[tau, kappa), with
 * n = tau - s, m = kappa - tau and W(a, b) the sum of |x_i - x_j| over
 * a <= i < j < b:
 *
 *	Sxx = W(s, tau), Syy = W(tau, kappa),
 *	Sxy = W(s, kappa) - Sxx - Syy,
 *	E   = 2 Sxy / (n m) - Sxx / C(n, 2) - Syy / C(m, 2),
 *	Q^  = n m / (n + m) E
 *
 * (a within-term of a single value is 0).  W(s, .) is one row of running
 * sums; W(tau, .) follows from W(tau + 1, .) by adding |x_tau - x_j|, so
 * every (tau, kappa) of a segment costs O(1): O(L^2) for a segment of L.
 *
 * The merge test is the same statistic at one split, whose permutation
 * distribution needs no search: over the sorted values z_1 <= ... <= z_N,
 * the sum of pairwise distances within a subset is sum z_k (2 r_k - c - 1)
 * (r_k: rank of z_k within the subset of c), so one permutation of the
 * labels costs O(N).
 *
 * Values are centred on their median and divided by their mean absolute
 * deviation first: the statistic does not change (it is shift- and
 * scale-equivariant, and the tests compare it with itself), the sums stay
 * small, and ties between a permutation and the observed split compare
 * equal whatever the unit.
 */
#define _GNU_SOURCE		/* qsort_r */
#include "detect.h"
#include "stats.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TIE_EPS 1e-9	/* Q^s closer than this (relative) are equal */

void detect_options_init(struct detect_options *o)
{
	o->alpha = 0.001;
	o->min_change = 0.05;
	o->window = 50;
	o->seed = 0x5354524f414e3031ULL;	/* "STROAN01" */
}

/* ---- a small deterministic generator (splitmix64) ---------------------- */

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed, size_t a, size_t b,
		     size_t c)
{
	r->s = seed ^ (a * 0x9e3779b97f4a7c15ULL) ^
	       (b * 0xc2b2ae3d27d4eb4fULL) ^ (c * 0x165667b19e3779f9ULL);
	rng_next(r);
}

/* Uniform in [0, n), without modulo bias (Lemire's method). */
static size_t rng_below(struct rng *r, size_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t t = -(uint64_t)n % n;

		while (low < t) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (size_t)(m >> 64);
}

static void shuffle(double *v, size_t n, struct rng *r)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(r, i);
		double t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* ---- Q^ over every split of a segment ---------------------------------- */

struct split {
	double q;
	size_t tau;		/* -1 (SIZE_MAX): none */
};

/*
 * Scratch of best_split for segments of up to `max` runs: three rows of
 * running sums, and tables that spare the inner loop its divisions:
 * c2[k] = 1 / C(k, 2) (0 for k < 2), inv[k] = 1 / k.
 */
struct split_work {
	double *rows, *c2, *inv;
	size_t max;
};

static void split_work_init(struct split_work *w, size_t max)
{
	w->max = max;
	w->rows = xmalloc(3 * (max + 1) * sizeof(double));
	w->c2 = xmalloc((max + 1) * sizeof(double));
	w->inv = xmalloc((max + 1) * sizeof(double));
	for (size_t k = 0; k <= max; k++) {
		w->c2[k] = k > 1 ? 2 / ((double)k * (double)(k - 1)) : 0;
		w->inv[k] = k ? 1 / (double)k : 0;
	}
}

static void split_work_release(struct split_work *w)
{
	free(w->rows);
	free(w->c2);
	free(w->inv);
}

/*
 * Q^ = n m / (n + m) (2 Sxy / (n m) - Sxx / C(n, 2) - Syy / C(m, 2))
 *    = (2 Sxy - n m (Sxx / C(n, 2) + Syy / C(m, 2))) / (n + m)
 */
static struct split best_split(const double *x, size_t s, size_t e,
			       struct split_work *w)
{
	size_t len = e - s;
	double *ws = w->rows, *prev = ws + len + 1, *cur = prev + len + 1;
	const double *c2 = w->c2, *inv = w->inv;
	struct split best = { -INFINITY, SIZE_MAX };

	if (len < 2)
		return best;
	/* ws[b - s] = W(s, b) */
	ws[0] = ws[1] = 0;
	for (size_t b = s + 2; b <= e; b++) {
		double add = 0, xb = x[b - 1];

		for (size_t i = s; i < b - 1; i++)
			add += fabs(x[i] - xb);
		ws[b - s] = ws[b - 1 - s] + add;
	}
	/* prev = W(e - 1, .): zeros; then rows for tau = e - 2 ... s + 1 */
	for (size_t b = 0; b <= len; b++)
		prev[b] = 0;
	for (size_t tau = e - 1; tau > s; tau--) {
		double run = 0, n = (double)(tau - s);
		double cxx = c2[tau - s] * ws[tau - s];

		cur[tau - s] = cur[tau + 1 - s] = 0;
		for (size_t kappa = tau + 2; kappa <= e; kappa++) {
			run += fabs(x[tau] - x[kappa - 1]);
			cur[kappa - s] = prev[kappa - s] + run;
		}
		for (size_t kappa = tau + 1; kappa <= e; kappa++) {
			size_t mi = kappa - tau;
			double m = (double)mi, syy = cur[kappa - s];
			double sxy = ws[kappa - s] - ws[tau - s] - syy;
			double q = (2 * sxy - n * m * (cxx + c2[mi] * syy)) *
				   inv[kappa - s];

			if (q > best.q) {
				best.q = q;
				best.tau = tau;
			}
		}
		{
			double *t = prev;

			prev = cur;
			cur = t;
		}
	}
	return best;
}

/* The best split over the segments bounds[0..nb] (bounds ascending). */
static struct split best_of(const double *x, const size_t *bounds, size_t nb,
			    struct split_work *rows)
{
	struct split best = { -INFINITY, SIZE_MAX };

	for (size_t i = 0; i + 1 < nb; i++) {
		struct split sp = best_split(x, bounds[i], bounds[i + 1], rows);

		if (sp.tau != SIZE_MAX && sp.q > best.q)
			best = sp;
	}
	return best;
}

/*
 * Permutations for a test at `level` whose each permutation costs about
 * `cost` steps.  A test stops as soon as p can no longer reach the level,
 * so a non-significant one costs a few permutations whatever the count;
 * the count matters where the change is real.  Enough that p could go
 * ten times below the level (PERM_RESOLUTION exceedances still pass: one
 * unlucky draw does not decide) where a permutation is cheap -- short
 * windows and neighbourhoods, the short histories a CI gate starts with --
 * and within PERM_BUDGET steps where it is not (windows of 50 runs: 200,
 * which keep detect over 1,000 runs x 100 series under its 2 s), but
 * never fewer than reach the level once (1 / level - 1).
 */
#define PERM_RESOLUTION 10
#define PERM_BUDGET 500000.0

static size_t permutations_for(double level, double cost)
{
	double want = ceil(PERM_RESOLUTION / level) - 1;
	double least = ceil(1 / level) - 1;
	double p = fmin(want, fmax(least, floor(PERM_BUDGET / fmax(cost, 1))));

	return p < 19 ? 19 : p > 99999 ? 99999 : (size_t)p;
}

static int at_least(double a, double b)
{
	return a >= b - TIE_EPS * fmax(1, fabs(b));
}

/*
 * Is the maximum q of E-divisive over segments bounds[] significant at
 * level?  Shuffles within each segment and searches again.
 */
static double max_test(const double *x, const size_t *bounds, size_t nb,
		       double q, double level, uint64_t seed,
		       struct split_work *rows,
		       double *copy)
{
	size_t from = bounds[0], to = bounds[nb - 1], b = 0, k;
	/* priced by the window, not its segments: a window divided once
	 * would otherwise buy twice the permutations of one undivided, and
	 * long histories have many (+20% CPU) */
	size_t perms = permutations_for(level, (double)(to - from) *
					       (double)(to - from));
	struct rng r;

	rng_seed(&r, seed, from, to, nb);
	memcpy(copy + from, x + from, (to - from) * sizeof(*x));
	for (k = 1; k <= perms; k++) {
		for (size_t i = 0; i + 1 < nb; i++)
			shuffle(copy + bounds[i], bounds[i + 1] - bounds[i],
				&r);
		if (at_least(best_of(copy, bounds, nb, rows).q, q))
			b++;
		if ((double)(b + 1) / (double)(perms + 1) > level)
			return (double)(b + 1) / (double)(k + 1);
	}
	return (double)(b + 1) / (double)(perms + 1);
}

static void insert_sorted(size_t *v, size_t *n, size_t x)
{
	size_t i = *n;

	while (i > 0 && v[i - 1] > x) {
		v[i] = v[i - 1];
		i--;
	}
	v[i] = x;
	(*n)++;
}

/* E-divisive in x[from, to): appends the weak change points to cps. */
static void divide_window(const double *x, size_t from, size_t to,
			  double level, uint64_t seed, struct split_work *rows,
			  double *copy, size_t **cps, size_t *ncps,
			  size_t *alloc)
{
	size_t *bounds = xmalloc((to - from + 2) * sizeof(*bounds)), nb = 2;

	bounds[0] = from;
	bounds[1] = to;
	for (;;) {
		struct split sp = best_of(x, bounds, nb, rows);

		if (sp.tau == SIZE_MAX || !(sp.q > 0) ||
		    max_test(x, bounds, nb, sp.q, level, seed, rows, copy) >
		    level)
			break;
		insert_sorted(bounds, &nb, sp.tau);
		ALLOC_GROW(*cps, *ncps + 1, *alloc);
		(*cps)[(*ncps)++] = sp.tau;
	}
	free(bounds);
}

/* ---- the merge test: the best split of a neighbourhood ----------------- */

/*
 * Scratch of the merge test, for a neighbourhood of up to `alloc` runs:
 * the values in test order, their ranks among themselves, two Fenwick
 * trees (count and sum by rank) and the within-sums of every prefix and
 * suffix.
 */
struct merge_scratch {
	double *v, *sum, *sxx, *syy;
	double *row;		/* by rank: sum of |z - z_j| over all j */
	size_t *rank, *pos, *cnt;
	size_t alloc;
};

static void scratch_grow(struct merge_scratch *g, size_t n)
{
	if (n <= g->alloc)
		return;
	g->alloc = n;
	g->v = xrealloc(g->v, n * sizeof(*g->v));
	g->sum = xrealloc(g->sum, (n + 1) * sizeof(*g->sum));
	g->sxx = xrealloc(g->sxx, (n + 1) * sizeof(*g->sxx));
	g->syy = xrealloc(g->syy, (n + 1) * sizeof(*g->syy));
	g->row = xrealloc(g->row, n * sizeof(*g->row));
	g->rank = xrealloc(g->rank, n * sizeof(*g->rank));
	g->pos = xrealloc(g->pos, n * sizeof(*g->pos));
	g->cnt = xrealloc(g->cnt, (n + 1) * sizeof(*g->cnt));
}

static void scratch_release(struct merge_scratch *g)
{
	free(g->v);
	free(g->sum);
	free(g->sxx);
	free(g->syy);
	free(g->row);
	free(g->rank);
	free(g->pos);
	free(g->cnt);
}

/*
 * Adds value v of rank r to the trees holding `count` values summing to
 * `total`; returns the sum of its distances to them.
 */
static double tree_add(struct merge_scratch *g, size_t n, size_t r, double v,
		       size_t count, double total)
{
	size_t below = 0;
	double sum_below = 0;

	for (size_t i = r; i > 0; i -= i & -i) {
		below += g->cnt[i];
		sum_below += g->sum[i];
	}
	for (size_t i = r + 1; i <= n; i += i & -i) {
		g->cnt[i]++;
		g->sum[i] += v;
	}
	return ((double)below * v - sum_below) +
	       ((total - sum_below) - (double)(count - below) * v);
}

/*
 * Q^(0, tau, n) of g->v for every tau; the largest, and at `at` in *q_at.
 * One pass of the trees gives each value's distances to those before it,
 * d_t; its distances to those after are row_t - d_t, row_t (to all the
 * others) being the same wherever a shuffle puts the value.
 */
static double best_tau(struct merge_scratch *g, size_t n, size_t at,
		       double *q_at)
{
	double total = 0, best = -INFINITY, whole;

	memset(g->cnt, 0, (n + 1) * sizeof(*g->cnt));
	memset(g->sum, 0, (n + 1) * sizeof(*g->sum));
	g->sxx[0] = 0;
	for (size_t t = 0; t < n; t++) {
		double d = tree_add(g, n, g->rank[t], g->v[t], t, total);

		g->sxx[t + 1] = g->sxx[t] + d;
		/* for now: the distances to the values after t */
		g->syy[t] = g->row[g->rank[t]] - d;
		total += g->v[t];
	}
	g->syy[n] = 0;
	for (size_t t = n; t-- > 0;)
		g->syy[t] += g->syy[t + 1];
	whole = g->sxx[n];
	for (size_t tau = 1; tau < n; tau++) {
		double a = (double)tau, b = (double)(n - tau);
		double sxx = g->sxx[tau], syy = g->syy[tau];
		double q = a * b / (a + b) *
			   (2 * (whole - sxx - syy) / (a * b) -
			    (a > 1 ? 2 * sxx / (a * (a - 1)) : 0) -
			    (b > 1 ? 2 * syy / (b * (b - 1)) : 0));

		if (tau == at)
			*q_at = q;
		if (q > best)
			best = q;
	}
	return best;
}

/* row[k] = sum over j of |z_k - z_j|, z sorted: in one pass. */
static void row_sums(struct merge_scratch *g, const double *x, size_t n)
{
	double below = 0, all = 0;

	for (size_t k = 0; k < n; k++)
		all += x[g->pos[k]];
	for (size_t k = 0; k < n; k++) {
		double z = x[g->pos[k]];

		g->row[k] = ((double)k * z - below) +
			    ((all - below - z) - (double)(n - 1 - k) * z);
		below += z;
	}
}

static int cmp_pos(const void *a, const void *b, void *base)
{
	double va = ((const double *)base)[*(const size_t *)a];
	double vb = ((const double *)base)[*(const size_t *)b];

	if (va < vb || va > vb)
		return va < vb ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/*
 * p of a change at `at` in x[from, to): how often the best split of the
 * shuffled runs (X from `from`, Y up to `to`, the split anywhere) is at
 * least the observed split's.  The search over every split is what makes
 * it honest for a point that was chosen as the best one.
 */
static double neighbourhood_test(const double *x, size_t from, size_t at,
				 size_t to, double level, uint64_t seed,
				 struct merge_scratch *g, int *bound)
{
	size_t n = to - from, b = 0, k;
	size_t perms = permutations_for(level, (double)n * (log2((double)n) + 1));
	double q = -INFINITY;
	struct rng r;
	union { const double *c; void *v; } base = { x + from };

	scratch_grow(g, n);
	for (size_t i = 0; i < n; i++)
		g->pos[i] = i;
	qsort_r(g->pos, n, sizeof(*g->pos), cmp_pos, base.v);
	for (size_t i = 0; i < n; i++)
		g->rank[g->pos[i]] = i;
	row_sums(g, x + from, n);
	memcpy(g->v, x + from, n * sizeof(*g->v));
	best_tau(g, n, at - from, &q);
	rng_seed(&r, seed ^ 0xa5a5a5a5ULL, from, to, at);
	for (k = 1; k <= perms; k++) {
		double ignored;

		for (size_t i = n; i > 1; i--) {	/* values with ranks */
			size_t j = rng_below(&r, i), tr = g->rank[i - 1];
			double tv = g->v[i - 1];

			g->v[i - 1] = g->v[j];
			g->rank[i - 1] = g->rank[j];
			g->v[j] = tv;
			g->rank[j] = tr;
		}
		if (at_least(best_tau(g, n, SIZE_MAX, &ignored), q))
			b++;
		if ((double)(b + 1) / (double)(perms + 1) > level) {
			*bound = 0;
			return (double)(b + 1) / (double)(k + 1);
		}
	}
	*bound = !b;
	return (double)(b + 1) / (double)(perms + 1);
}

/*
 * The smallest p any permutation test of k runs against n - k can give:
 * the observed order and its mirror image are the two most extreme of
 * the C(n, k) orders.  2 / C(16, 3) = 0.0036: no permutation test can
 * find 3 runs after 13 different at 0.001, however large the step.
 */
static double permutation_floor(size_t n, size_t k)
{
	double c = 1;

	if (k > n - k)
		k = n - k;
	for (size_t i = 1; i <= k && c < 1e15; i++)
		c = c * (double)(n - k + i) / (double)i;
	return fmin(1, 2 / c);
}

static double stddev_of(const double *x, size_t n, double mean)
{
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

/* Welch's t-test of x[lo, at) against x[at, hi); 1 where it cannot apply. */
static double welch_p(const double *x, size_t lo, size_t at, size_t hi)
{
	double ma = stats_mean(x + lo, at - lo), mb = stats_mean(x + at, hi - at);
	double p, t, df;

	if (stats_welch(at - lo, ma, stddev_of(x + lo, at - lo, ma), hi - at,
			mb, stddev_of(x + at, hi - at, mb), &p, &t, &df))
		return 1;
	return p;
}

/*
 * Tests and describes cps[i] between its neighbours (raw: the units).
 *
 * The permutation test makes no assumption about the noise, but it can
 * only tell apart as many orders as the runs have: where fewer than
 * SHORT_ORDERS orders are as extreme as the observed one at alpha (its
 * floor above alpha / SHORT_ORDERS: 3 runs against fewer than 61, 6
 * against fewer than 15, at alpha 0.001), it cannot decide.  There the
 * point is judged as Apache Otava judges every point, by Welch's t-test
 * of the runs before against those after -- if at least SHORT_MIN_RUNS
 * runs lie on each side (a lone slow run or two is not a step) and the
 * permutation test, at the windows' level (10 alpha), does not call the
 * order chance.
 */
#define SHORT_ORDERS 20
#define SHORT_MIN_RUNS 3

static void describe(const double *x, const double *raw, size_t n,
		     struct change_point *cps, size_t ncps, size_t i,
		     const struct detect_options *o, struct merge_scratch *g)
{
	size_t from = i ? cps[i - 1].index : 0;
	size_t to = i + 1 < ncps ? cps[i + 1].index : n;
	size_t at = cps[i].index, reach = o->window;
	/* the test looks a window each way: the runs that show the change */
	size_t lo = at - from > reach ? at - reach : from;
	size_t hi = to - at > reach ? at + reach : to;
	int shrt = permutation_floor(hi - lo, at - lo) * SHORT_ORDERS >
		   o->alpha;
	double level = shrt ? fmin(0.5, o->alpha * 10) : o->alpha;
	int bound;

	cps[i].mean_before = stats_mean(raw + from, at - from);
	cps[i].mean_after = stats_mean(raw + at, to - at);
	cps[i].p = neighbourhood_test(x, lo, at, hi, level, o->seed, g,
				      &bound);
	cps[i].p_kind = bound ? DETECT_P_BOUND : DETECT_P_PERMUTATION;
	if (shrt && at - lo >= SHORT_MIN_RUNS && hi - at >= SHORT_MIN_RUNS &&
	    cps[i].p <= level) {
		double pw = welch_p(x, lo, at, hi);

		if (pw < cps[i].p) {
			cps[i].p = pw;
			cps[i].p_kind = DETECT_P_WELCH;
		}
	}
}

const char *detect_p_kind_name(enum detect_p_kind k)
{
	return k == DETECT_P_BOUND ? "bound" :
	       k == DETECT_P_WELCH ? "welch" : "permutation";
}

static double rel_change(const struct change_point *c)
{
	if (!(fabs(c->mean_before) > 0))
		return fabs(c->mean_after) > 0 ? INFINITY : 0;
	return fabs(c->mean_after / c->mean_before - 1);
}

/* Removes the weakest point until all are significant and large. */
static size_t merge(const double *x, const double *raw, size_t n,
		    struct change_point *cps, size_t ncps,
		    const struct detect_options *o, struct merge_scratch *g)
{
	for (size_t i = 0; i < ncps; i++)
		describe(x, raw, n, cps, ncps, i, o, g);
	while (ncps) {
		size_t weakest = 0;

		for (size_t i = 1; i < ncps; i++)
			if (cps[i].p > cps[weakest].p)
				weakest = i;
		if (!(cps[weakest].p > o->alpha)) {
			for (size_t i = 1; i < ncps; i++)
				if (rel_change(&cps[i]) <
				    rel_change(&cps[weakest]))
					weakest = i;
			if (rel_change(&cps[weakest]) >= o->min_change)
				break;
		}
		memmove(cps + weakest, cps + weakest + 1,
			(ncps - weakest - 1) * sizeof(*cps));
		ncps--;
		if (weakest > 0)
			describe(x, raw, n, cps, ncps, weakest - 1, o, g);
		if (weakest < ncps)
			describe(x, raw, n, cps, ncps, weakest, o, g);
	}
	return ncps;
}

/* x centred on its median, in units of its mean absolute deviation. */
static double *normalised(const double *x, size_t n)
{
	double *v = xmalloc(n * sizeof(*v)), med = stats_median(x, n);
	double mad = 0;

	for (size_t i = 0; i < n; i++)
		mad += fabs(x[i] - med);
	mad /= (double)n;
	if (!(mad > 0))
		mad = 1;
	for (size_t i = 0; i < n; i++)
		v[i] = (x[i] - med) / mad;
	return v;
}

static int cmp_size(const void *a, const void *b)
{
	size_t va = *(const size_t *)a, vb = *(const size_t *)b;

	return (va > vb) - (va < vb);
}

size_t detect_change_points(const double *raw, size_t n,
			    const struct detect_options *o,
			    struct change_point **out)
{
	size_t window = o->window < 4 ? 4 : o->window, step = window / 2;
	double level = o->alpha < 0.05 ? o->alpha * 10 :
		       o->alpha < 0.5 ? o->alpha * 2 : o->alpha;
	size_t *weak = NULL, nweak = 0, alloc = 0, start = 0, uniq = 0;
	struct change_point *cps;
	struct merge_scratch g;
	double *x, *copy;
	struct split_work rows;

	*out = NULL;
	if (n < 3)
		return 0;
	memset(&g, 0, sizeof(g));
	x = normalised(raw, n);
	split_work_init(&rows, window);
	copy = xmalloc(n * sizeof(*copy));
	while (start < n) {
		size_t end = start + window < n ? start + window : n;
		size_t before = nweak, last = 0;

		divide_window(x, start, end, level, o->seed, &rows, copy, &weak,
			      &nweak, &alloc);
		for (size_t i = before; i < nweak; i++)
			if (weak[i] > last)
				last = weak[i];
		if (end == n)
			break;
		start = last > start + step ? last : start + step;
	}
	if (nweak)
		qsort(weak, nweak, sizeof(*weak), cmp_size);
	cps = xcalloc(nweak + 1, sizeof(*cps));
	for (size_t i = 0; i < nweak; i++)
		if (!uniq || cps[uniq - 1].index != weak[i])
			cps[uniq++].index = weak[i];
	uniq = merge(x, raw, n, cps, uniq, o, &g);
	scratch_release(&g);
	free(weak);
	split_work_release(&rows);
	free(copy);
	free(x);
	if (!uniq) {
		free(cps);
		return 0;
	}
	*out = cps;
	return uniq;
}
