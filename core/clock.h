/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The monotonic clock in nanoseconds: for intervals and deadlines, never
 * for dates.  Inline because the runner reads it once per batch of I/O
 * in its hot loop.
 */
#ifndef STORAN_CLOCK_H
#define STORAN_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
