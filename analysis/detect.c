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

#define TIE_EPS 1e-9		/* Q^s closer than this (relative) are equal */

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

/* ---- Q^ over every split of a segment ------------------------------------- */

struct split {
	double q;
	size_t tau;		/* -1 (SIZE_MAX): none */
};

/* Scratch rows for best_split: 3 * (L + 1) doubles. */
static struct split best_split(const double *x, size_t s, size_t e,
			       double *rows)
{
	size_t len = e - s;
	double *ws = rows, *prev = rows + len + 1, *cur = prev + len + 1;
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
		double cxx = n > 1 ? 2 / (n * (n - 1)) : 0;

		cur[tau - s] = cur[tau + 1 - s] = 0;
		for (size_t kappa = tau + 2; kappa <= e; kappa++) {
			run += fabs(x[tau] - x[kappa - 1]);
			cur[kappa - s] = prev[kappa - s] + run;
		}
		for (size_t kappa = tau + 1; kappa <= e; kappa++) {
			double m = (double)(kappa - tau);
			double sxx = ws[tau - s], syy = cur[kappa - s];
			double sxy = ws[kappa - s] - sxx - syy;
			double cyy = m > 1 ? 2 / (m * (m - 1)) : 0;
			double q = n * m / (n + m) *
				   (2 * sxy / (n * m) - cxx * sxx - cyy * syy);

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
			    double *rows)
{
	struct split best = { -INFINITY, SIZE_MAX };

	for (size_t i = 0; i + 1 < nb; i++) {
		struct split sp = best_split(x, bounds[i], bounds[i + 1], rows);

		if (sp.tau != SIZE_MAX && sp.q > best.q)
			best = sp;
	}
	return best;
}

/* Permutations for a level: p = (b + 1) / (P + 1) can reach it with one
 * exceedance (b = 1), so that one unlucky draw does not decide. */
static size_t permutations_for(double level)
{
	double p = ceil(2 / level) - 1;

	return p < 19 ? 19 : p > 19999 ? 19999 : (size_t)p;
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
		       double q, double level, uint64_t seed, double *rows,
		       double *copy)
{
	size_t from = bounds[0], to = bounds[nb - 1];
	size_t perms = permutations_for(level), b = 0, k;
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
			  double level, uint64_t seed, double *rows,
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

/* ---- the merge test: energy distance at one split -------------------------- */

struct sorted_seg {
	double *z;		/* the values of the segment, sorted */
	size_t *pos;		/* their positions in it */
	unsigned char *in_x;	/* per sorted value: before the split */
	size_t alloc;
};

static int cmp_pos(const void *a, const void *b, void *base)
{
	double va = ((const double *)base)[*(const size_t *)a];
	double vb = ((const double *)base)[*(const size_t *)b];

	if (va < vb || va > vb)
		return va < vb ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Q^ of the labels in_x over the sorted z (nx of them in X). */
static double split_q(const struct sorted_seg *g, size_t n, size_t nx)
{
	double sxx = 0, syy = 0, all = 0, nn = (double)nx;
	double m = (double)(n - nx);
	size_t rx = 0, ry = 0;

	for (size_t k = 0; k < n; k++) {
		double z = g->z[k];

		all += z * (double)(2 * (k + 1)) - z * (double)(n + 1);
		if (g->in_x[k])
			sxx += z * (2 * (double)++rx - nn - 1);
		else
			syy += z * (2 * (double)++ry - m - 1);
	}
	return nn * m / (nn + m) *
	       (2 * (all - sxx - syy) / (nn * m) -
		(nn > 1 ? 2 * sxx / (nn * (nn - 1)) : 0) -
		(m > 1 ? 2 * syy / (m * (m - 1)) : 0));
}

/* p of the split of x[from, to) at tau (fixed split, permuted labels). */
static double split_test(const double *x, size_t from, size_t tau, size_t to,
			 double level, uint64_t seed, struct sorted_seg *g)
{
	size_t n = to - from, nx = tau - from, b = 0, k;
	size_t perms = permutations_for(level);
	double q;
	struct rng r;

	if (n > g->alloc) {
		g->alloc = n;
		g->z = xrealloc(g->z, n * sizeof(*g->z));
		g->pos = xrealloc(g->pos, n * sizeof(*g->pos));
		g->in_x = xrealloc(g->in_x, n);
	}
	for (size_t i = 0; i < n; i++)
		g->pos[i] = i;
	{
		union { const double *c; void *v; } base = { x + from };

		qsort_r(g->pos, n, sizeof(*g->pos), cmp_pos, base.v);
	}
	for (size_t k2 = 0; k2 < n; k2++) {
		g->z[k2] = x[from + g->pos[k2]];
		g->in_x[k2] = g->pos[k2] < nx;
	}
	q = split_q(g, n, nx);
	rng_seed(&r, seed ^ 0xa5a5a5a5ULL, from, to, tau);
	for (k = 1; k <= perms; k++) {
		for (size_t i = n; i > 1; i--) {
			size_t j = rng_below(&r, i);
			unsigned char t = g->in_x[i - 1];

			g->in_x[i - 1] = g->in_x[j];
			g->in_x[j] = t;
		}
		if (at_least(split_q(g, n, nx), q))
			b++;
		if ((double)(b + 1) / (double)(perms + 1) > level)
			return (double)(b + 1) / (double)(k + 1);
	}
	return (double)(b + 1) / (double)(perms + 1);
}

/* Tests and describes cps[i] between its neighbours (raw: the units). */
static void describe(const double *x, const double *raw, size_t n,
		     struct change_point *cps, size_t ncps, size_t i,
		     const struct detect_options *o, struct sorted_seg *g)
{
	size_t from = i ? cps[i - 1].index : 0;
	size_t to = i + 1 < ncps ? cps[i + 1].index : n;
	size_t at = cps[i].index;

	cps[i].mean_before = stats_mean(raw + from, at - from);
	cps[i].mean_after = stats_mean(raw + at, to - at);
	cps[i].p = split_test(x, from, at, to, o->alpha, o->seed, g);
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
		    const struct detect_options *o, struct sorted_seg *g)
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
	struct sorted_seg g = { NULL, NULL, NULL, 0 };
	double *x, *rows, *copy;

	*out = NULL;
	if (n < 3)
		return 0;
	x = normalised(raw, n);
	rows = xmalloc(3 * (window + 1) * sizeof(*rows));
	copy = xmalloc(n * sizeof(*copy));
	while (start < n) {
		size_t end = start + window < n ? start + window : n;
		size_t before = nweak, last = 0;

		divide_window(x, start, end, level, o->seed, rows, copy, &weak,
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
	free(g.z);
	free(g.pos);
	free(g.in_x);
	free(weak);
	free(rows);
	free(copy);
	free(x);
	if (!uniq) {
		free(cps);
		return 0;
	}
	*out = cps;
	return uniq;
}
