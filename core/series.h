/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Samples over time of one measurement: fio's bw/iops/lat logs, and the
 * latency histogram per interval of fio's clat_hist log.
 *
 * A measurement owns at most one series (measurement.series, NULL when
 * it has none); the series owns its arrays.  Points are in the order the
 * source gave them, t[i] in seconds from the start of the job, v[i] in
 * the measurement's unit.  interval is the time one point stands for
 * (fio's log_avg_msec, or the window storan put a per-I/O log into), 0
 * when the points are single events (fio's raw per-I/O logs, kept as
 * they are only when short).
 *
 * A histogram series also has, per point, the counts of the latency
 * buckets of that interval, kept sparse and packed: a fio clat_hist
 * interval has 1,856 buckets, a hundred or two of them not empty, and a
 * log of 1 GB has 180,000 intervals.  Point i's non-empty buckets are the
 * bytes hbins[hstart[i] .. hstart[i + 1]): per bucket, its index's step
 * from the one after the previous bucket (0 for the next bucket; the first
 * from index 0), then its count, each an unsigned LEB128 varint -- mostly
 * two bytes a bucket where an index and a count in arrays took twelve.
 * Read them with series_bins_next(); the indexes go into bucket[] (the
 * buckets' latencies in the measurement's unit, ascending).
 */
#ifndef STORAN_SERIES_H
#define STORAN_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct series {
	double interval;	/* s, 0 when the points are events */
	size_t n, alloc;
	double *t;		/* s from the start of the job */
	double *v;		/* in the measurement's unit */
	/* histogram series only (nbuckets > 0) */
	size_t nbuckets;
	double *bucket;		/* bucket latency, ascending */
	size_t *hstart;		/* n + 1 offsets into hbins */
	unsigned char *hbins;	/* the points' buckets, packed (above) */
	size_t hlen, halloc;
};

/* Reads the non-empty buckets of one point (series_bins_begin()). */
struct series_bins {
	const unsigned char *p, *end;
	uint64_t next;		/* the index after the last one read */
};

/* A new empty series (caller owns; series_free() it). */
struct series *series_new(double interval);
void series_free(struct series *s);
void series_add(struct series *s, double t, double v);
/* Makes s a histogram series of nbuckets buckets (copied), before any
 * point is added. */
void series_set_buckets(struct series *s, const double *bucket,
			size_t nbuckets);
/* Adds a point with the dense counts[nbuckets] of its interval. */
void series_add_hist(struct series *s, double t, double v,
		     const uint64_t *counts);
/* Adds a point with the sparse buckets of its interval (idx ascending,
 * each < nbuckets: the caller checked). */
void series_add_sparse(struct series *s, double t, double v,
		       const uint32_t *idx, const uint64_t *count, size_t k);
/* Starts reading point i's non-empty buckets (i < s->n). */
void series_bins_begin(const struct series *s, size_t i,
		       struct series_bins *it);
/* The next one's index and count, ascending; 0 after the last. */
int series_bins_next(struct series_bins *it, size_t *idx, uint64_t *count);
/*
 * The pct percentile (0..100) of point i's histogram: the latency of the
 * bucket where the running count first reaches pct% of the interval's
 * total, as fio computes its percentiles; NAN when the interval is empty.
 */
double series_hist_percentile(const struct series *s, size_t i, double pct);

#endif
