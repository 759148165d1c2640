/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Log-linear latency histogram, in nanoseconds.
 *
 * Values below HIST_SUB are counted exactly; above, each power of two is
 * split into HIST_SUB equal buckets, so a bucket is never wider than
 * 1/HIST_SUB (0.78%) of the values it holds and the midpoint reported for
 * it is within 0.4% of any of them.  Adding a value is a shift, a mask and
 * an increment: no allocation, no floating point, cheap enough for every
 * I/O.  One histogram per worker thread, merged at the end (no locking).
 */
#ifndef STORAN_RUNNER_HISTOGRAM_H
#define STORAN_RUNNER_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
/* Values up to 2^HIST_MAX_BITS ns (about 9 days) fit; larger are clamped. */
#define HIST_MAX_BITS 50
#define HIST_BUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 2) * HIST_SUB)

struct histogram;

struct lat_hist {
	uint64_t count[HIST_BUCKETS];
	uint64_t n;
	uint64_t sum_ns;
	uint64_t min_ns, max_ns;
};

void lat_hist_init(struct lat_hist *h);
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);

static inline unsigned lat_hist_bucket(uint64_t ns)
{
	unsigned msb, shift;

	if (ns < HIST_SUB)
		return (unsigned)ns;
	if (ns >> HIST_MAX_BITS)
		ns = (UINT64_C(1) << HIST_MAX_BITS) - 1;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB +
	       (unsigned)((ns >> shift) & (HIST_SUB - 1));
}

static inline void lat_hist_add(struct lat_hist *h, uint64_t ns)
{
	h->count[lat_hist_bucket(ns)]++;
	h->n++;
	h->sum_ns += ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/* Lowest value of bucket b and its width, in ns. */
uint64_t lat_hist_bucket_low(unsigned b);
uint64_t lat_hist_bucket_width(unsigned b);
/* The value a bucket stands for: its middle, in ns. */
double lat_hist_bucket_mid(unsigned b);
/* The value (ns, a bucket midpoint) below which pct percent of values lie. */
double lat_hist_percentile(const struct lat_hist *h, double pct);
/* Mean in ns; 0 when empty. */
double lat_hist_mean(const struct lat_hist *h);
/*
 * Appends the non-empty buckets to out (midpoints in seconds), the form a
 * result set keeps.  out must be empty.
 */
void lat_hist_export(const struct lat_hist *h, struct histogram *out);

#endif
