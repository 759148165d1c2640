/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How many CPUs storan may use: the online ones, or 1 when the
 * environment sets STORAN_SERIAL (every second thread then stays off, so
 * a test can compare a threaded run with a serial one byte for byte).
 */
#ifndef STORAN_CPUS_H
#define STORAN_CPUS_H

#include <stddef.h>

long storan_cpus(void);

#define CPUS_POOL_MAX 8

/*
 * The threads a pool of `jobs` independent jobs (inputs read, charts
 * rendered) is worth: one for one job or with one CPU, else one per CPU
 * up to CPUS_POOL_MAX and the jobs (the two sides of compare A B, each a
 * result set of a million measurements, took 1.5 s each one after the
 * other; a thread costs some 50 us).  Every pool asks this, so STORAN_SERIAL
 * serialises them all.
 */
unsigned cpus_pool_threads(size_t jobs);

/*
 * Runs worker(arg) on up to `threads` threads (at most CPUS_POOL_MAX)
 * and waits for them all; with one thread, or when no thread can be
 * started, runs it here.  The worker takes its jobs from arg (under its
 * own lock) until none is left, so any number of copies finishes the work.
 */
void cpus_run_pool(unsigned threads, void *(*worker)(void *), void *arg);

#endif
