/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A run's intervals as series (run-series.h).  An interval is a point at
 * its end; the last one, cut short by the end of the run, is divided by
 * the time it had, or dropped under half an interval (the clock stops a
 * little after runtime: a spike, not a rate); an interval without I/O is
 * a 0 for bw and iops (a stall), no point for latency.
 */
#include "run-series.h"
#include "histogram.h"
#include "../core/resultset.h"
#include "../core/series.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum what { RATE_BYTES, RATE_IOS, LAT_MEAN };

/* The end of interval k and the time it covers; 0 past the last point. */
static int interval_point(size_t k, double interval, double runtime,
			  double *at, double *span)
{
	if ((double)k * interval >= runtime)
		return 0;
	*span = fmin(interval, runtime - (double)k * interval);
	*at = (double)k * interval + *span;
	return !k || *span >= interval / 2;
}

static struct series *plain_series(const struct run_tseries *t,
				   double interval, double runtime,
				   enum what what)
{
	struct series *s = series_new(interval);
	double at, span;

	for (size_t k = 0; k < t->n &&
	     interval_point(k, interval, runtime, &at, &span); k++) {
		if (what == LAT_MEAN && t->ios[k])
			series_add(s, at, (double)t->lat_ns[k] * 1e-9 /
				   (double)t->ios[k]);
		else if (what != LAT_MEAN)
			series_add(s, at, (double)(what == RATE_IOS ?
				   t->ios[k] : t->bytes[k]) / span);
	}
	return s;
}

/* The buckets any interval used, ascending: their latencies (s) into
 * *value, and map[b] the index of bucket b among them. */
static size_t used_buckets(const struct run_tseries *t, uint32_t *map,
			   double **value)
{
	unsigned char *used = xcalloc(HIST_BUCKETS, 1);
	size_t n = 0;

	for (size_t i = 0; i < t->nbin; i++)
		used[t->bin[i].bucket] = 1;
	*value = xmalloc(HIST_BUCKETS * sizeof(**value));
	for (uint32_t b = 0; b < HIST_BUCKETS; b++)
		if (used[b]) {
			map[b] = (uint32_t)n;
			(*value)[n++] = lat_hist_bucket_mid(b) * 1e-9;
		}
	free(used);
	return n;
}

/* The latency buckets of each interval, its median as the point's value
 * (fio's clat_hist log becomes the same). */
static struct series *histogram_series(const struct run_tseries *t,
				       double interval, double runtime)
{
	struct series *s = series_new(interval);
	uint32_t *map = xmalloc(HIST_BUCKETS * sizeof(*map));
	uint32_t *idx = xmalloc(HIST_BUCKETS * sizeof(*idx));
	uint64_t *count = xmalloc(HIST_BUCKETS * sizeof(*count));
	double *value, at, span;
	size_t i = 0, nb = used_buckets(t, map, &value);

	if (nb)
		series_set_buckets(s, value, nb);
	for (size_t k = 0; nb && k < t->n &&
	     interval_point(k, interval, runtime, &at, &span); k++) {
		size_t j = 0;

		for (; i < t->nbin && t->bin[i].interval == k; i++, j++) {
			idx[j] = map[t->bin[i].bucket];
			count[j] = t->bin[i].count;
		}
		if (!j)
			continue;
		series_add_sparse(s, at, 0, idx, count, j);
		s->v[s->n - 1] = series_hist_percentile(s, s->n - 1, 50);
	}
	free(value);
	free(map);
	free(idx);
	free(count);
	return s;
}

/* The pct percentile of each interval of the histogram series h. */
static struct series *percentile_series(const struct series *h, double pct)
{
	struct series *s = series_new(h->interval);

	for (size_t i = 0; i < h->n; i++)
		series_add(s, h->t[i], series_hist_percentile(h, i, pct));
	return s;
}

/* The series metric gets, or NULL (a metric without one, or no point). */
static struct series *series_for(const char *metric,
				 const struct run_tseries *t, double interval,
				 double runtime, const struct series *hist)
{
	struct series *s = NULL;

	if (!strcmp(metric, "bw"))
		s = plain_series(t, interval, runtime, RATE_BYTES);
	else if (!strcmp(metric, "iops"))
		s = plain_series(t, interval, runtime, RATE_IOS);
	else if (!strcmp(metric, "lat.mean"))
		s = plain_series(t, interval, runtime, LAT_MEAN);
	else if (!strncmp(metric, "clat.p", 6) && hist->n &&
		 strcmp(metric, "clat.p50"))
		s = percentile_series(hist, strtod(metric + 6, NULL));
	if (s && !s->n) {
		series_free(s);
		s = NULL;
	}
	return s;
}

void run_series_attach(struct result_set *rs, size_t from, const char *op,
		       const struct run_tseries *t, double interval,
		       double runtime)
{
	struct series *hist = histogram_series(t, interval, runtime);
	struct measurement *p50 = NULL;

	for (size_t i = from; i < rs->n; i++) {
		struct measurement *m = &rs->m[i];

		if (m->series || strcmp(m->op, op))
			continue;
		if (!strcmp(m->metric, "clat.p50"))
			p50 = m;
		else
			m->series = series_for(m->metric, t, interval, runtime,
					       hist);
	}
	if (p50 && hist->n)
		p50->series = hist;
	else
		series_free(hist);
}
