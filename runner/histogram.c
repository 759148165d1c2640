/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Log-linear latency histogram: bucket arithmetic, percentiles, export.
 * The bucket layout is described in histogram.h; bucket b covers
 * [lat_hist_bucket_low(b), lat_hist_bucket_low(b) + width).
 */
#include "histogram.h"
#include "../core/quantile.h"
#include "../core/resultset.h"
#include "../core/xalloc.h"

#include <string.h>

void lat_hist_init(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
	dst->n += src->n;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t lat_hist_bucket_low(unsigned b)
{
	unsigned shift;

	if (b < HIST_SUB)
		return b;
	shift = b / HIST_SUB - 1;
	return (uint64_t)(HIST_SUB + b % HIST_SUB) << shift;
}

uint64_t lat_hist_bucket_width(unsigned b)
{
	return b < HIST_SUB ? 1 : UINT64_C(1) << (b / HIST_SUB - 1);
}

double lat_hist_bucket_mid(unsigned b)
{
	return (double)lat_hist_bucket_low(b) +
	       (double)(lat_hist_bucket_width(b) - 1) / 2.0;
}

double lat_hist_percentile(const struct lat_hist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->n)
		return 0;
	/* The smallest value with at least pct% of values at or below it. */
	rank = quantile_rank_rounded(h->n, pct);
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= rank)
			return lat_hist_bucket_mid(b);
	}
	BUG("histogram counts do not add up to %llu", (unsigned long long)h->n);
}

double lat_hist_mean(const struct lat_hist *h)
{
	return h->n ? (double)h->sum_ns / (double)h->n : 0;
}

void lat_hist_export(const struct lat_hist *h, struct histogram *out)
{
	size_t n = 0, k = 0;

	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		n += h->count[b] != 0;
	out->n = n;
	out->value = xcalloc(n ? n : 1, sizeof(double));
	out->count = xcalloc(n ? n : 1, sizeof(uint64_t));
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		if (!h->count[b])
			continue;
		out->value[k] = lat_hist_bucket_mid(b) * 1e-9;
		out->count[k++] = h->count[b];
	}
}
