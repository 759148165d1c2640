/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Samples over time; see series.h for the layout and who owns what. */
#include "series.h"
#include "quantile.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct series *series_new(double interval)
{
	struct series *s = xcalloc(1, sizeof(*s));

	s->interval = interval;
	return s;
}

void series_free(struct series *s)
{
	if (!s)
		return;
	free(s->t);
	free(s->v);
	free(s->bucket);
	free(s->hstart);
	free(s->hbins);
	free(s);
}

void series_add(struct series *s, double t, double v)
{
	if (s->n == s->alloc) {
		size_t alloc = s->alloc;

		s->t = xgrow(s->t, &alloc, s->n + 1, sizeof(*s->t));
		s->v = xrealloc(s->v, alloc * sizeof(*s->v));
		if (s->nbuckets)	/* n + 1 offsets */
			s->hstart = xrealloc(s->hstart, (alloc + 1) *
					     sizeof(*s->hstart));
		s->alloc = alloc;
	}
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->n++;
}

void series_set_buckets(struct series *s, const double *bucket,
			size_t nbuckets)
{
	s->nbuckets = nbuckets;
	s->bucket = xmalloc(nbuckets * sizeof(*s->bucket));
	memcpy(s->bucket, bucket, nbuckets * sizeof(*s->bucket));
	s->hstart = xrealloc(s->hstart, (s->alloc + 1) * sizeof(*s->hstart));
	s->hstart[0] = 0;
}

/* Room for one more bucket: two varints of at most 10 bytes. */
#define BIN_MAX 20

static void reserve_bin(struct series *s)
{
	if (s->hlen + BIN_MAX > s->halloc)
		s->hbins = xgrow(s->hbins, &s->halloc, s->hlen + BIN_MAX,
				 sizeof(*s->hbins));
}

static void put_varint(struct series *s, uint64_t x)
{
	while (x >= 0x80) {
		s->hbins[s->hlen++] = (unsigned char)(x | 0x80);
		x >>= 7;
	}
	s->hbins[s->hlen++] = (unsigned char)x;
}

/* One non-empty bucket of the point being added; *next as in
 * series_bins. */
static void put_bin(struct series *s, uint64_t *next, size_t idx,
		    uint64_t count)
{
	reserve_bin(s);
	put_varint(s, idx - *next);
	put_varint(s, count);
	*next = idx + 1;
}

void series_add_sparse(struct series *s, double t, double v,
		       const uint32_t *idx, const uint64_t *count, size_t k)
{
	uint64_t next = 0;

	series_add(s, t, v);
	for (size_t j = 0; j < k; j++)
		put_bin(s, &next, idx[j], count[j]);
	s->hstart[s->n] = s->hlen;
}

void series_add_hist(struct series *s, double t, double v,
		     const uint64_t *counts)
{
	uint64_t next = 0;

	series_add(s, t, v);
	for (size_t b = 0; b < s->nbuckets; b++)
		if (counts[b])
			put_bin(s, &next, b, counts[b]);
	s->hstart[s->n] = s->hlen;
}

void series_bins_begin(const struct series *s, size_t i,
		       struct series_bins *it)
{
	it->p = s->hbins + s->hstart[i];
	it->end = s->hbins + s->hstart[i + 1];
	it->next = 0;
}

/* The writer made them: a varint ends within the point's bytes. */
static uint64_t get_varint(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	uint64_t x = 0;

	for (unsigned shift = 0;; shift += 7) {
		x |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80))
			break;
	}
	*pp = p;
	return x;
}

int series_bins_next(struct series_bins *it, size_t *idx, uint64_t *count)
{
	if (it->p >= it->end)
		return 0;
	it->next += get_varint(&it->p);
	*idx = (size_t)it->next++;
	*count = get_varint(&it->p);
	return 1;
}

/* As fio: the running count must reach quantile_rank_fio(). */
double series_hist_percentile(const struct series *s, size_t i, double pct)
{
	struct series_bins it;
	uint64_t total = 0, run = 0, need, count;
	size_t idx, last = 0;

	if (!s->nbuckets || i >= s->n)
		return NAN;
	series_bins_begin(s, i, &it);
	while (series_bins_next(&it, &idx, &count))
		total += count;
	if (!total)
		return NAN;
	need = quantile_rank_fio(total, pct);
	series_bins_begin(s, i, &it);
	while (series_bins_next(&it, &idx, &count)) {
		run += count;
		last = idx;
		if (run >= need)
			break;
	}
	return s->bucket[last];
}
