/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A run's samples over time, counted per worker and summed (tseries.h).
 */
#include "tseries.h"
#include "histogram.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Makes room for interval k (grown as the run goes: an interval is 24
 * bytes). */
static void tseries_grow(struct run_tseries *t, size_t k)
{
	if (k >= t->alloc) {
		size_t alloc = t->alloc;

		t->ios = xgrow(t->ios, &alloc, k + 1, sizeof(*t->ios));
		t->bytes = xrealloc(t->bytes, alloc * sizeof(*t->bytes));
		t->lat_ns = xrealloc(t->lat_ns, alloc * sizeof(*t->lat_ns));
		memset(t->ios + t->alloc, 0,
		       (alloc - t->alloc) * sizeof(*t->ios));
		memset(t->bytes + t->alloc, 0,
		       (alloc - t->alloc) * sizeof(*t->bytes));
		memset(t->lat_ns + t->alloc, 0,
		       (alloc - t->alloc) * sizeof(*t->lat_ns));
		t->alloc = alloc;
	}
	if (k >= t->n)
		t->n = k + 1;
}

static int by_bucket(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The interval being counted leaves its non-empty buckets, in order. */
static void flush_interval(struct run_tseries *t)
{
	if (!t->ntouched)
		return;
	qsort(t->touched, t->ntouched, sizeof(*t->touched), by_bucket);
	ALLOC_GROW(t->bin, t->nbin + t->ntouched, t->bin_alloc);
	for (size_t i = 0; i < t->ntouched; i++) {
		uint32_t b = t->touched[i];

		t->bin[t->nbin++] = (struct tseries_bin){
			.interval = (uint32_t)t->cur, .bucket = b,
			.count = t->dense[b] };
		t->dense[b] = 0;
	}
	t->ntouched = 0;
}

/* Counts count values of bucket b into interval k (at least cur). */
static void count_bucket(struct run_tseries *t, size_t k, uint32_t b,
			 uint64_t count)
{
	if (!t->dense) {
		t->dense = xcalloc(HIST_BUCKETS, sizeof(*t->dense));
		t->touched = xmalloc(HIST_BUCKETS * sizeof(*t->touched));
		t->cur = k;
	}
	if (k > t->cur) {
		flush_interval(t);
		t->cur = k;
	}
	if (!t->dense[b])
		t->touched[t->ntouched++] = b;
	t->dense[b] += count;
}

void run_tseries_add(struct run_tseries *t, size_t k, uint64_t bytes,
		     uint64_t lat_ns)
{
	/* a worker's clock only moves on; a completion seen at the switch
	 * from ramp to measure may still say interval 0 */
	if (t->dense && k < t->cur)
		k = t->cur;
	tseries_grow(t, k);
	t->ios[k]++;
	t->bytes[k] += bytes;
	t->lat_ns[k] += lat_ns;
	count_bucket(t, k, lat_hist_bucket(lat_ns), 1);
}

void run_tseries_finish(struct run_tseries *t)
{
	if (t->dense)
		flush_interval(t);
	free(t->dense);
	free(t->touched);
	t->dense = NULL;
	t->touched = NULL;
}

static void add_counts(struct run_tseries *to, const struct run_tseries *from)
{
	for (size_t k = 0; k < from->n; k++) {
		if (!from->ios[k])
			continue;
		tseries_grow(to, k);
		to->ios[k] += from->ios[k];
		to->bytes[k] += from->bytes[k];
		to->lat_ns[k] += from->lat_ns[k];
	}
}

void run_tseries_merge(struct run_tseries *to,
		       struct run_tseries *const *from, size_t n)
{
	size_t *pos = xcalloc(n ? n : 1, sizeof(*pos));

	for (size_t i = 0; i < n; i++)
		add_counts(to, from[i]);
	/* each worker's bins are in interval order: one pass over all */
	for (size_t k = 0; k < to->n; k++)
		for (size_t i = 0; i < n; i++)
			for (; pos[i] < from[i]->nbin &&
			       from[i]->bin[pos[i]].interval == k; pos[i]++)
				count_bucket(to, k, from[i]->bin[pos[i]].bucket,
					     from[i]->bin[pos[i]].count);
	run_tseries_finish(to);
	free(pos);
}

void run_tseries_release(struct run_tseries *t)
{
	free(t->ios);
	free(t->bytes);
	free(t->lat_ns);
	free(t->bin);
	free(t->dense);
	free(t->touched);
	memset(t, 0, sizeof(*t));
}
