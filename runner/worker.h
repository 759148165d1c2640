/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One measurement run: numjobs worker threads, each with its own engine
 * instance, buffers and statistics, driving I/O at the requested depth on
 * one shared file descriptor while the calling thread keeps time (ramp,
 * then runtime), shows progress and watches for Ctrl-C.
 *
 * The hot loop allocates nothing and makes no system call of its own
 * beyond the engine's batched submit/reap and one clock read per batch:
 * every I/O of a batch is stamped with the time the batch was prepared,
 * every completion of a reap with the time the reap returned.  Workers
 * share nothing they write except their own struct: statistics are merged
 * after the threads are joined.
 *
 * Also here: the data written (random, zeros, compressible) and --verify,
 * where every 512-byte sector holds a pattern computed from (seed, sector
 * number, generation); a byte map remembers each sector's generation so
 * that what is read back can be checked whatever order writes landed in.
 */
#ifndef STORAN_RUNNER_WORKER_H
#define STORAN_RUNNER_WORKER_H

#include "engine.h"
#include "histogram.h"
#include "tseries.h"

#include <signal.h>
#include <stdint.h>

enum rw_mode { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RANDRW,
	       RW_RW, RW_NMODES };
enum data_mode { DATA_RANDOM, DATA_ZERO, DATA_COMPRESS };

/* Set from the SIGINT/SIGTERM handler; every loop checks it. */
extern volatile sig_atomic_t runner_stop_requested;

#define VERIFY_SECTOR 512

struct verify_map {
	uint64_t seed;
	uint8_t *gen;		/* per sector; 0 = unknown contents */
	uint64_t nsectors;
	uint8_t cur;		/* generation the current run writes */
};

struct data_spec {
	enum data_mode mode;
	unsigned compress_pct;	/* DATA_COMPRESS: percent of zeros */
};

struct run_spec {
	int fd;
	uint64_t region;	/* I/O stays in [0, region); a multiple of bs */
	uint32_t bs;
	unsigned depth;
	unsigned numjobs;
	enum rw_mode rw;
	unsigned mix_read;	/* randrw/rw: percent of reads */
	const struct engine_ops *ops;
	struct data_spec data;
	struct verify_map *verify;	/* NULL without --verify */
	double log_interval;	/* s: a sample every so often; 0: none */
};

struct run_result {
	uint64_t ios[2], bytes[2];	/* by enum io_dir */
	struct lat_hist hist[2];
	double runtime;			/* s */
	double usr, sys;		/* % of one CPU */
	int interrupted;
	struct run_tseries ts[2];	/* by enum io_dir; n 0 without */
};

/* Frees the result's samples over time (the rest is plain data). */
void run_result_release(struct run_result *res);

struct progress;

/*
 * Runs spec for ramp then runtime seconds.  Returns 0; 1 when interrupted
 * (res->interrupted); -1 after an I/O error; -2 after a verify mismatch
 * (both already reported).
 */
int run_once(const struct run_spec *spec, double ramp, double runtime,
	     struct run_result *res, struct progress *prog);

/* Does the mode write / pick offsets at random? */
int rw_mode_writes(enum rw_mode m);
int rw_mode_reads(enum rw_mode m);

/* What progress plans for a layout of size bytes (a guess: 500 MB/s). */
static inline double layout_seconds(uint64_t size)
{
	return (double)size / 500e6;
}

/* Fills [0, size) of a new file with the data (or the verify pattern). */
int layout_file(int fd, uint64_t size, const struct data_spec *data,
		struct verify_map *verify, struct progress *prog);
/* Reads [0, region) back and checks every sector of known generation. */
int verify_region(int fd, uint64_t region, const struct verify_map *v);

void verify_map_init(struct verify_map *v, uint64_t size, uint64_t seed);
void verify_map_release(struct verify_map *v);
/* Pattern of sectors [off, off + len) at their recorded generations. */
void verify_fill(const struct verify_map *v, void *buf, uint64_t off,
		 uint32_t len);
/* Offset of the first sector that differs, or UINT64_MAX. */
uint64_t verify_check(const struct verify_map *v, const void *buf,
		      uint64_t off, uint32_t len);

/* Fills buf with the data spec's bytes from the generator state *rng. */
void data_fill(const struct data_spec *d, void *buf, size_t len,
	       uint64_t *rng);

#endif
