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
	free(s->hidx);
	free(s->hcount);
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

void series_add_sparse(struct series *s, double t, double v,
		       const uint32_t *idx, const uint64_t *count, size_t k)
{
	series_add(s, t, v);
	if (s->hlen + k > s->halloc) {
		size_t alloc = s->halloc;

		s->hidx = xgrow(s->hidx, &alloc, s->hlen + k,
				sizeof(*s->hidx));
		s->hcount = xrealloc(s->hcount, alloc * sizeof(*s->hcount));
		s->halloc = alloc;
	}
	memcpy(s->hidx + s->hlen, idx, k * sizeof(*idx));
	memcpy(s->hcount + s->hlen, count, k * sizeof(*count));
	s->hlen += k;
	s->hstart[s->n] = s->hlen;
}

void series_add_hist(struct series *s, double t, double v,
		     const uint64_t *counts)
{
	size_t k = 0;
	uint32_t *idx = xmalloc(s->nbuckets * sizeof(*idx));
	uint64_t *cnt = xmalloc(s->nbuckets * sizeof(*cnt));

	for (size_t b = 0; b < s->nbuckets; b++)
		if (counts[b]) {
			idx[k] = (uint32_t)b;
			cnt[k++] = counts[b];
		}
	series_add_sparse(s, t, v, idx, cnt, k);
	free(idx);
	free(cnt);
}

/* As fio: the running count must reach quantile_rank_fio(). */
double series_hist_percentile(const struct series *s, size_t i, double pct)
{
	uint64_t total = 0, run = 0, need;

	if (!s->nbuckets || i >= s->n)
		return NAN;
	for (size_t k = s->hstart[i]; k < s->hstart[i + 1]; k++)
		total += s->hcount[k];
	if (!total)
		return NAN;
	need = quantile_rank_fio(total, pct);
	for (size_t k = s->hstart[i]; k < s->hstart[i + 1]; k++) {
		run += s->hcount[k];
		if (run >= need)
			return s->bucket[s->hidx[k]];
	}
	return s->bucket[s->hidx[s->hstart[i + 1] - 1]];
}
