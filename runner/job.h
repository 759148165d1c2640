/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan run's job: the options (fio's names and meanings wherever the
 * concept is the same), presets, and the sweep that turns them into
 * measurements.
 *
 * The sweep is the product rw x bs x iodepth, in that nesting order; each
 * combination runs --repeat times (ramp, then runtime) and becomes one
 * measurement per op and metric whose values[] hold one number per
 * repetition.  randrw and rw yield two ops each (randread + randwrite,
 * read + write).  Metrics: bw (B/s), iops (1/s), lat.mean and clat.p50,
 * p90, p95, p99, p99.9, p99.99 (s; the merged latency histogram of all
 * repetitions rides on lat.mean), runtime (s), cpu.usr and cpu.sys (% of
 * one CPU, the whole process).  Labels: rw bs iodepth numjobs ioengine
 * direct size data (rwmixread for mixed patterns), the target facts
 * (target.h), --label pairs, and interrupted=yes after Ctrl-C.
 */
#ifndef STORAN_RUNNER_JOB_H
#define STORAN_RUNNER_JOB_H

#include "worker.h"
#include "../core/resultset.h"

#include <stdio.h>

#define JOB_MAX_LIST 64

struct strbuf;

struct job_options {
	const char *filename;
	const char *directory;
	uint64_t size;			/* 0: the target's own or 1 GiB */
	enum rw_mode rw[JOB_MAX_LIST];
	size_t nrw;
	unsigned rwmixread;
	uint64_t bs[JOB_MAX_LIST];	/* the sweep; fio's READ,WRITE: one */
	size_t nbs;
	uint64_t bs_write;		/* fio's WRITE size; 0: as bs[] */
	unsigned iodepth[JOB_MAX_LIST];
	size_t niodepth;
	unsigned numjobs;
	const char *ioengine;		/* NULL: io_uring, libaio, psync */
	int direct;
	double runtime, ramp;		/* s */
	double log_interval;		/* s: samples over time; 0: none */
	unsigned repeat;
	struct data_spec data;
	int drop_caches;
	int overwrite;
	int verify;
	int quiet;
	const char *destroy_data;
	struct labels labels;		/* --label */
};

/* The defaults: direct, random data, 10 s after 2 s ramp, 3 repeats. */
void job_options_init(struct job_options *o);
void job_options_release(struct job_options *o);

/*
 * Option parsers: 0, or -1 with the reason in err.  Sizes take k, M, G, T
 * (powers of 1024, as fio's do), optionally followed by "iB" or "B";
 * seconds take an optional s, m or h.
 */
int job_parse_size(const char *arg, uint64_t *out, struct strbuf *err);
int job_parse_seconds(const char *arg, double *out, struct strbuf *err);
int job_parse_rw(const char *arg, struct job_options *o, struct strbuf *err);
/*
 * --bs with fio's meaning: one size for reads and writes, or READ,WRITE
 * (and an unused TRIM) sizes, an empty one being fio's default 4k; a
 * range "512-64M" (which fio's bs has no meaning for) is a sweep, as in
 * job_parse_bs_sweep().
 */
int job_parse_bs(const char *arg, struct job_options *o, struct strbuf *err);
/* --bs-sweep: "4k,64k" or a range "512-64M" that doubles from one end to
 * the other. */
int job_parse_bs_sweep(const char *arg, struct job_options *o,
		       struct strbuf *err);
/* The block size of sweep entry i for pattern rw (fio's WRITE size for
 * write and randwrite). */
uint64_t job_block_size(const struct job_options *o, size_t i,
			enum rw_mode rw);
int job_parse_iodepth(const char *arg, struct job_options *o,
		      struct strbuf *err);
int job_parse_data(const char *arg, struct data_spec *d, struct strbuf *err);
/* blockdev-perftest, fio-4k or quick; applied before explicit options. */
int job_apply_preset(const char *name, struct job_options *o,
		     struct strbuf *err);
const char *rw_mode_name(enum rw_mode m);
/* Does any pattern of the sweep write? */
int job_writes(const struct job_options *o);

/*
 * Runs the sweep, appending to rs; a line per combination goes to
 * summary (NULL: none).  Returns an exit code: 0, 1 (interrupted or a
 * verify mismatch: rs holds what was measured), 2 (refused or failed).
 */
int job_run_sweep(struct job_options *o, struct result_set *rs,
		  FILE *summary);

#endif
