/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a run did over time: per interval of the measured time (every
 * second by default, --log-interval), the I/Os that completed in it,
 * their bytes, the sum of their latencies and their latency histogram.
 *
 * Each worker thread counts its own completions (no locking); they come
 * in time order, so only the interval being counted is a dense
 * histogram, and a finished interval keeps just its non-empty buckets
 * -- a latency histogram has 5,760 buckets, an interval of one device a
 * few hundred of them at most.  When the run is over the workers' series
 * are summed into the run's (run_tseries_merge()).
 */
#ifndef STORAN_RUNNER_TSERIES_H
#define STORAN_RUNNER_TSERIES_H

#include <stddef.h>
#include <stdint.h>

/* One non-empty latency bucket of one interval. */
struct tseries_bin {
	uint32_t interval;
	uint32_t bucket;	/* lat_hist_bucket() */
	uint64_t count;
};

struct run_tseries {
	uint64_t *ios, *bytes, *lat_ns;	/* by interval */
	size_t n, alloc;
	/* the finished intervals' buckets, by interval then bucket */
	struct tseries_bin *bin;
	size_t nbin, bin_alloc;
	/* the interval being counted: its dense histogram, the buckets it
	 * touched (NULL until the first completion) */
	size_t cur;
	uint64_t *dense;
	uint32_t *touched;
	size_t ntouched;
};

/* Counts a completion of bytes and lat ns into interval k (an interval
 * before the one being counted counts into that one). */
void run_tseries_add(struct run_tseries *t, size_t k, uint64_t bytes,
		     uint64_t lat_ns);
/* Ends the interval being counted (before the series is read). */
void run_tseries_finish(struct run_tseries *t);
/* Adds the finished series of n workers into to (empty). */
void run_tseries_merge(struct run_tseries *to,
		       struct run_tseries *const *from, size_t n);
void run_tseries_release(struct run_tseries *t);

#endif
