/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Percentile curves and CDFs from latency histograms: the histograms of
 * a series' groups merged bucket by bucket (repetitions pooled), then
 * read as a CDF, or at percentiles from p50 to the finest the count of
 * samples supports.
 */
#include "chart-private.h"
#include "../analysis/stats.h"
#include "../core/quantile.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- percentile curves and CDFs from histograms ------------------------ */

struct bucket {
	double value;
	uint64_t count;
};

static int cmp_bucket(const void *a, const void *b)
{
	return stats_cmp_double(&((const struct bucket *)a)->value,
			  &((const struct bucket *)b)->value);
}

/*
 * The smallest bucket value with at least q of the samples at or below.
 * q comes from 1 - pow(10, -x) along the curve, so the rank forgives
 * 1e-12 of relative error (quantile_rank_frac()).
 */
static double bucket_quantile(const struct bucket *v, size_t n, double total,
			      double q)
{
	uint64_t need = quantile_rank_frac(total, q, 1e-12), cum = 0;

	for (size_t i = 0; i < n; i++) {
		cum += v[i].count;
		if (cum >= need)
			return v[i].value;
	}
	return n ? v[n - 1].value : NAN;
}

/* The histograms of one series, merged: buckets sorted, equal summed. */
struct merged {
	struct bucket *v;
	size_t n, alloc;
	double total;		/* I/Os */
	size_t runs;		/* histograms merged: the runs of a point */
};

static void merge_into(struct merged *h, const struct histogram *src)
{
	h->runs++;
	for (size_t j = 0; j < src->n; j++) {
		ALLOC_GROW(h->v, h->n + 1, h->alloc);
		h->v[h->n].value = src->value[j];
		h->v[h->n++].count = src->count[j];
	}
}

static void merged_finish(struct merged *h)
{
	size_t u = 0;

	qsort(h->v, h->n, sizeof(*h->v), cmp_bucket);
	h->total = 0;
	for (size_t i = 0; i < h->n; i++) {
		h->total += (double)h->v[i].count;
		if (u && !(h->v[u - 1].value < h->v[i].value) &&
		    !(h->v[u - 1].value > h->v[i].value))
			h->v[u - 1].count += h->v[i].count;
		else
			h->v[u++] = h->v[i];
	}
	h->n = u;
}

static void histogram_series(struct chart *c, struct chart_series *s,
			     const struct merged *h)
{
	if (c->kind == CHART_CDF) {
		double cum = 0;

		for (size_t i = 0; i < h->n; i++) {
			cum += (double)h->v[i].count;
			if (h->v[i].count) {
				struct chart_point *p =
					chart_add_point(s, h->v[i].value);

				p->y = 100 * cum / h->total;
				p->n = h->runs;
			}
		}
		return;
	}
	/* percentiles: p50 up to the finest percentile the count supports */
	for (double x = log10(2); x <= log10(h->total) + 1e-9; x += 0.02) {
		struct chart_point *p = chart_add_point(s, x);

		p->y = bucket_quantile(h->v, h->n, h->total, 1 - pow(10, -x));
		/* the runs, not the I/Os: the caption says "N runs a
		 * point" (it said 1.2 million for one fio run) */
		p->n = h->runs;
	}
}

/* One curve per series: its groups' histograms merged (repetitions). */
void chart_histogram_points(struct chart *c, const struct build *b,
			    struct series_map *sm)
{
	struct strbuf sb = STRBUF_INIT;
	struct merged *h = NULL;
	size_t nh = 0;

	for (size_t j = 0; j < b->nmem; j++) {
		size_t i = b->mem[j], s = chart_series_of(c, sm, b, i, &sb);

		if (s >= nh) {
			h = xrealloc(h, (s + 1) * sizeof(*h));
			memset(h + nh, 0, (s + 1 - nh) * sizeof(*h));
			nh = s + 1;
		}
		merge_into(&h[s], &b->ex->m[i].m->hist);
	}
	for (size_t s = 0; s < nh; s++) {
		merged_finish(&h[s]);
		if (h[s].total > 0)
			histogram_series(c, &c->series[s], &h[s]);
		free(h[s].v);
	}
	free(h);
	strbuf_release(&sb);
}
