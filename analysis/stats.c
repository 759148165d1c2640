/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Statistics: pooling, descriptive figures, Student-t confidence
 * intervals, Welch's t-test and the Mann-Whitney U test; see stats.h.
 *
 * The only file in storan that includes GSL.  GSL's error handler is off
 * (load_gsl), so its distribution functions return NAN on a domain error
 * and its _e functions return a status: both are checked before a number
 * leaves this file.
 */
#include "stats.h"
#include "../core/dynlib.h"
#include "../core/quantile.h"
#include "../core/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

/*
 * GSL is opened when a first statistic needs it (core/dynlib.h): linked,
 * it was 1.9 of the 10.5 ms of every storan start on the test VM, and
 * ingest and export never need it.  Its error handler, which aborts, goes
 * off as it is opened.
 */
#ifndef GSL_SONAME
#define GSL_SONAME "libgsl.so.27"
#endif
#define GSL_FUNCTIONS(X) \
	X(gsl_cdf_tdist_Q) \
	X(gsl_cdf_tdist_Qinv) \
	X(gsl_cdf_ugaussian_Q) \
	X(gsl_set_error_handler_off) \
	X(gsl_sf_choose_e)
static struct {
	GSL_FUNCTIONS(DYNLIB_POINTER)
} gsl;

static void gsl_loaded(void)
{
	gsl.gsl_set_error_handler_off();
}

#define GSL_SLOT(f) DYNLIB_SLOT(gsl, f)
static const struct dynlib_table gsl_lib = DYNLIB_TABLE(GSL_SONAME,
	"confidence intervals and significance tests", GSL_FUNCTIONS,
	GSL_SLOT, gsl_loaded);
#undef GSL_SLOT
static struct dynlib_once gsl_once = DYNLIB_ONCE_INIT;

/* GSL's functions, opened on first use (thread-safe); a statistic storan
 * cannot compute is fatal (GSL is a dependency of its package). */
static void need_gsl(void)
{
	if (dynlib_load_once(&gsl_once, &gsl_lib))
		die("cannot compute statistics");
}

static double t_upper_tail(double t, double df)
{
	need_gsl();
	return gsl.gsl_cdf_tdist_Q(t, df);
}

static double t_upper_quantile(double q, double df)
{
	need_gsl();
	return gsl.gsl_cdf_tdist_Qinv(q, df);
}

void stats_acc_init(struct stats_acc *a)
{
	memset(a, 0, sizeof(*a));
	a->min = a->max = NAN;
}

void stats_acc_release(struct stats_acc *a)
{
	free(a->values);
	stats_acc_init(a);
}

void stats_acc_reset(struct stats_acc *a)
{
	double *values = a->values;
	size_t alloc = a->alloc;

	stats_acc_init(a);
	a->values = values;
	a->alloc = alloc;
}

/* NAN-aware min/max: an unknown bound stays unknown. */
static void merge_bounds(struct stats_acc *a, double lo, double hi, int first)
{
	if (first) {
		a->min = lo;
		a->max = hi;
		return;
	}
	a->min = isnan(a->min) || isnan(lo) ? NAN : fmin(a->min, lo);
	a->max = isnan(a->max) || isnan(hi) ? NAN : fmax(a->max, hi);
}

/*
 * Adds a group of n observations with its mean and sum of squared
 * deviations (Chan et al.'s pairwise update, exact for any split).
 */
static void merge_group(struct stats_acc *a, double n, double mean, double m2)
{
	double total = a->n + n, delta = mean - a->mean;

	a->m2 += m2 + delta * delta * a->n * n / total;
	a->mean += delta * n / total;
	a->n = total;
}

void stats_acc_add_value(struct stats_acc *a, double v)
{
	merge_bounds(a, v, v, !(a->n > 0));
	merge_group(a, 1, v, 0);
	if (!a->summary_only) {
		ALLOC_GROW(a->values, a->nvalues + 1, a->alloc);
		a->values[a->nvalues++] = v;
	}
}

static void add_summary(struct stats_acc *a, const struct measurement *m)
{
	struct measurement_stats ms;
	double n, m2 = 0;

	/* measurement_basic_stats converts a population stddev already */
	measurement_basic_stats(m, &ms);
	n = ms.n ? (double)ms.n : 1;
	if (n >= 2) {
		if (isnan(ms.stddev))
			a->spread_unknown = 1;
		else
			m2 = ms.stddev * ms.stddev * (n - 1);
	}
	merge_bounds(a, ms.min, ms.max, !(a->n > 0));
	merge_group(a, n, ms.mean, m2);
	a->summary_only = 1;
	free(a->values);
	a->values = NULL;
	a->nvalues = a->alloc = 0;
}

void stats_acc_add_measurement(struct stats_acc *a,
			       const struct measurement *m)
{
	if (!m->n) {
		if (measurement_summary(m)->present)
			add_summary(a, m);
		return;
	}
	for (size_t i = 0; i < m->n; i++)
		stats_acc_add_value(a, m->values[i]);
}

int stats_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* A few runs (the common case: 3 or 5) are sorted on the stack. */
#define MEDIAN_ON_STACK 16

static void insertion_sort(double *s, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = s[i];
		size_t j = i;

		for (; j > 0 && s[j - 1] > v; j--)
			s[j] = s[j - 1];
		s[j] = v;
	}
}

static double median_of(const double *v, size_t n)
{
	double stack[MEDIAN_ON_STACK], *s = stack, med;

	if (n > MEDIAN_ON_STACK)
		s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	if (n > MEDIAN_ON_STACK)
		qsort(s, n, sizeof(*s), stats_cmp_double);
	else
		insertion_sort(s, n);
	med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (s != stack)
		free(s);
	return med;
}

double stats_quantile(double *v, size_t n, double q)
{
	if (n)
		qsort(v, n, sizeof(*v), stats_cmp_double);
	return quantile_linear(v, n, q);
}

/*
 * Student's t for a two-sided interval at level with df degrees of
 * freedom.  Every group of the experiment model asks it at 95% for its
 * few runs; GSL's inverse takes a microsecond or two, a million groups
 * seconds, so the 95% values for up to T95_MAX - 1 degrees of freedom
 * are computed once (on first use, by whichever thread: pthread_once)
 * and looked up.
 */
#define T95_MAX 256
#define T95_LEVEL 0.95
static double t95[T95_MAX];
static pthread_once_t t95_once = PTHREAD_ONCE_INIT;

static void fill_t95(void)
{
	for (size_t df = 1; df < T95_MAX; df++)
		t95[df] = t_upper_quantile((1 - T95_LEVEL) / 2, (double)df);
}

static double t_quantile(double level, size_t df)
{
	/* (-Wfloat-equal: level == T95_LEVEL, the same double as the
	 * callers' 0.95, so the figures do not change by a bit) */
	if (level >= T95_LEVEL && level <= T95_LEVEL && df < T95_MAX) {
		pthread_once(&t95_once, fill_t95);
		return t95[df];
	}
	return t_upper_quantile((1 - level) / 2, (double)df);
}

double stats_ci_half_width(size_t n, double stddev, double level)
{
	double t;

	if (n < 2 || isnan(stddev) || !(level > 0 && level < 1))
		return NAN;
	t = t_quantile(level, n - 1);
	if (!isfinite(t))
		return NAN;
	return t * stddev / sqrt((double)n);
}

void stats_compute(const struct stats_acc *a, struct stats *st)
{
	double half;

	st->n = (size_t)a->n;
	st->mean = st->n ? a->mean : NAN;
	st->min = st->n ? a->min : NAN;
	st->max = st->n ? a->max : NAN;
	st->have_values = st->n && !a->summary_only;
	st->median = st->have_values ? median_of(a->values, a->nvalues) : NAN;
	st->stddev = st->n >= 2 && !a->spread_unknown ?
		     sqrt(a->m2 / (a->n - 1)) : NAN;
	st->cv = fabs(st->mean) > 0 ? st->stddev / fabs(st->mean) * 100 : NAN;
	half = stats_ci_half_width(st->n, st->stddev, 0.95);
	st->ci_low = st->mean - half;
	st->ci_high = st->mean + half;
}

/* Fieller's statistic at ratio rho (va, vb: the means' variances). */
static double fieller_t(double rho, double mean_a, double va, double mean_b,
			double vb)
{
	return fabs(mean_b - rho * mean_a) / sqrt(vb + rho * rho * va);
}

int stats_ratio_ci_within(size_t na, double mean_a, double sd_a, size_t nb,
			  double mean_b, double sd_b, double level, double lo,
			  double hi)
{
	double va, vb, df, ratio, tmin;

	if (na < 2 || nb < 2 || isnan(sd_a) || isnan(sd_b) ||
	    !(mean_a > 0) || !(mean_b > 0) || !(level > 0 && level < 1))
		return -1;
	ratio = mean_b / mean_a;
	if (!(ratio >= lo && ratio <= hi))
		return 0;	/* the interval holds the ratio */
	va = sd_a * sd_a / (double)na;
	vb = sd_b * sd_b / (double)nb;
	if (!(va + vb > 0))
		return 1;	/* the interval is the ratio */
	df = (va + vb) * (va + vb) /
	     (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	tmin = fieller_t(hi, mean_a, va, mean_b, vb);
	if (lo > 0)	/* (below 0 no bound is: the interval starts at 0) */
		tmin = fmin(tmin, fieller_t(lo, mean_a, va, mean_b, vb));
	if (va > 0)	/* bounded when mean_a^2 > t^2 va */
		tmin = fmin(tmin, mean_a / sqrt(va));
	return t_upper_tail(tmin, df) <= (1 - level) / 2;
}

int stats_ratio_ci(size_t na, double mean_a, double sd_a, size_t nb,
		   double mean_b, double sd_b, double level, double *lo,
		   double *hi)
{
	double va, vb, df, t, A, disc;

	*lo = *hi = NAN;
	if (na < 2 || nb < 2 || isnan(sd_a) || isnan(sd_b) ||
	    !(mean_a > 0) || !(mean_b > 0) || !(level > 0 && level < 1))
		return -1;
	va = sd_a * sd_a / (double)na;
	vb = sd_b * sd_b / (double)nb;
	if (!(va + vb > 0)) {		/* no spread at all: the ratio itself */
		*lo = *hi = mean_b / mean_a;
		return 0;
	}
	/* Welch's degrees of freedom: the interval excludes 1 exactly when
	 * stats_welch() finds the difference at 1 - level */
	df = (va + vb) * (va + vb) /
	     (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	t = t_upper_quantile((1 - level) / 2, df);
	if (!isfinite(t))
		return -1;
	A = mean_a * mean_a - t * t * va;
	if (!(A > 0)) {		/* the baseline's mean may be 0 */
		*lo = 0;
		*hi = INFINITY;
		return 1;
	}
	disc = mean_a * mean_a * vb + mean_b * mean_b * va - t * t * va * vb;
	if (disc < 0)
		disc = 0;
	*lo = (mean_a * mean_b - t * sqrt(disc)) / A;
	*hi = (mean_a * mean_b + t * sqrt(disc)) / A;
	/* two positive means have a positive ratio: the candidate's own
	 * noise can put Fieller's bound below 0, which no ratio reaches */
	if (*lo < 0)
		*lo = 0;
	return 0;
}

int stats_welch(size_t na, double mean_a, double sd_a, size_t nb,
		double mean_b, double sd_b, double *p, double *t, double *df)
{
	double va, vb, se2, q;

	if (na < 2 || nb < 2 || isnan(sd_a) || isnan(sd_b))
		return -1;
	va = sd_a * sd_a / (double)na;
	vb = sd_b * sd_b / (double)nb;
	se2 = va + vb;
	if (!(se2 > 0)) {
		/* No spread on either side: the means differ or they don't. */
		*t = NAN;
		*df = NAN;
		*p = !(mean_a < mean_b) && !(mean_a > mean_b) ? 1 : 0;
		return 0;
	}
	*t = (mean_b - mean_a) / sqrt(se2);
	*df = se2 * se2 / (va * va / (double)(na - 1) +
			   vb * vb / (double)(nb - 1));
	q = t_upper_tail(fabs(*t), *df);
	if (isnan(q))
		return -1;
	*p = fmin(1, 2 * q);
	return 0;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	return stats_cmp_double(&((const struct ranked *)pa)->v,
			  &((const struct ranked *)pb)->v);
}

/*
 * Rank sum of sample a (midranks for ties) and the tie term
 * sum(t^3 - t) over groups of t tied values.
 */
static double rank_sum_a(struct ranked *r, size_t n, double *ties)
{
	double sum = 0;

	qsort(r, n, sizeof(*r), cmp_ranked);
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double mid, t;

		while (j < n && !(r[j].v > r[i].v))
			j++;
		mid = ((double)i + 1 + (double)j) / 2;	/* ranks i+1..j */
		for (size_t k = i; k < j; k++)
			if (r[k].from_a)
				sum += mid;
		t = (double)(j - i);
		*ties += t * t * t - t;
		i = j;
	}
	return sum;
}

/*
 * P(U <= k) for samples of m and n values without ties: the number of
 * arrangements with U = u follows f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u)
 * (the largest value comes from the first sample or the second), divided
 * by C(m+n, m).  Exact in doubles while C(m+n, m) < 2^53.
 */
static double mw_exact_cdf(size_t m, size_t n, size_t k)
{
	size_t len = m * n + 1;
	double *prev = xcalloc((n + 1) * len, sizeof(double));
	double *cur = xcalloc((n + 1) * len, sizeof(double));
	double total = 0, below = 0, *tmp;
	gsl_sf_result choose;

	for (size_t j = 0; j <= n; j++)
		prev[j * len] = 1;		/* f(0, j, 0) = 1 */
	for (size_t i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * len * sizeof(double));
		cur[0] = 1;			/* f(i, 0, 0) = 1 */
		for (size_t j = 1; j <= n; j++)
			for (size_t u = 0; u < len; u++)
				cur[j * len + u] = (u >= j ?
					prev[j * len + u - j] : 0) +
					cur[(j - 1) * len + u];
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	for (size_t u = 0; u < len; u++) {
		total += prev[n * len + u];
		if (u <= k)
			below += prev[n * len + u];
	}
	free(prev);
	free(cur);
	need_gsl();
	if (gsl.gsl_sf_choose_e((unsigned)(m + n), (unsigned)m, &choose) !=
	    GSL_SUCCESS || fabs(choose.val - total) > 0.5)
		return NAN;
	return below / total;
}

static double mw_normal_p(double u, double na, double nb, double ties)
{
	double n = na + nb, mu = na * nb / 2, var, z, q;

	var = na * nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (!(var > 0))
		return 1;	/* every value tied: no evidence either way */
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	if (z < 0)
		return 1;
	need_gsl();
	q = gsl.gsl_cdf_ugaussian_Q(z);
	return isnan(q) ? NAN : fmin(1, 2 * q);
}

int stats_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, double *p, double *u, int *exact)
{
	struct ranked *r;
	double ties, ra;

	if (!na || !nb)
		return -1;
	r = xmalloc((na + nb) * sizeof(*r));
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	ra = rank_sum_a(r, na + nb, &ties);
	free(r);
	*u = ra - (double)na * ((double)na + 1) / 2;
	*exact = !(ties > 0) && na <= STATS_MW_EXACT_MAX &&
		 nb <= STATS_MW_EXACT_MAX;
	if (*exact) {
		double lo = fmin(*u, (double)(na * nb) - *u);

		*p = fmin(1, 2 * mw_exact_cdf(na, nb, (size_t)lo));
	} else {
		*p = mw_normal_p(*u, (double)na, (double)nb, ties);
	}
	return isnan(*p) ? -1 : 0;
}

struct bucket {
	double v;
	uint64_t count;
};

static int cmp_bucket(const void *pa, const void *pb)
{
	return stats_cmp_double(&((const struct bucket *)pa)->v,
			  &((const struct bucket *)pb)->v);
}

double stats_hist_quantile(const struct histogram *h, double q)
{
	struct bucket *b;
	double total = 0, result = NAN;
	uint64_t need, cum = 0;

	for (size_t i = 0; i < h->n; i++)
		total += (double)h->count[i];
	if (!(total > 0) || !(q > 0 && q < 1))
		return NAN;
	b = xmalloc(h->n * sizeof(*b));
	for (size_t i = 0; i < h->n; i++)
		b[i] = (struct bucket){ h->value[i], h->count[i] };
	qsort(b, h->n, sizeof(*b), cmp_bucket);
	need = quantile_rank_frac(total, q, 0);
	for (size_t i = 0; i < h->n; i++) {
		cum += b[i].count;
		if (cum >= need) {
			result = b[i].v;
			break;
		}
	}
	free(b);
	return result;
}

double stats_geomean(const double *x, size_t n)
{
	double sum = 0;
	size_t used = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			continue;
		sum += log(x[i]);
		used++;
	}
	return used ? exp(sum / (double)used) : NAN;
}

double stats_mean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_median(const double *x, size_t n)
{
	return n ? median_of(x, n) : NAN;
}
