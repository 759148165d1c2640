/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A run's samples over time (tseries.h) as the result set's series, the
 * same ones fio's logs become: bw and iops a rate per interval, lat.mean
 * the mean latency per interval, clat.p50 a histogram series (the
 * latency buckets of each interval, as fio's clat_hist log) and the
 * other clat percentiles their value per interval.
 */
#ifndef STORAN_RUNNER_RUN_SERIES_H
#define STORAN_RUNNER_RUN_SERIES_H

#include "tseries.h"

#include <stddef.h>

struct result_set;

/*
 * Gives the measurements of op from index from on that have no series yet
 * theirs from t (intervals of interval s, of a run of runtime s).
 */
void run_series_attach(struct result_set *rs, size_t from, const char *op,
		       const struct run_tseries *t, double interval,
		       double runtime);

#endif
