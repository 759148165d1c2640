/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The I/O engine ops table: every engine fits one call sequence,
 *
 *     queue(u) ... queue(u)  ->  commit()  ->  reap(min, done[], max)
 *
 * queue() adds one prepared I/O to the engine's batch; commit() hands the
 * batch to the kernel; reap() waits for at least min completions (fewer
 * only when nothing is in flight) and returns up to max of them.  reap()
 * first submits whatever was queued and not yet committed, so that a
 * caller may leave its last chunk to reap() and one system call submits
 * and waits (io_uring does).  A synchronous engine (ENGINE_SYNC, psync)
 * does the I/O inside queue() and hands it back from reap(); the caller
 * runs it at depth 1 so that latencies stay per I/O.
 *
 * Ownership: the caller owns the io_units and their buffers (aligned, one
 * contiguous region so that io_uring can register it), for the engine's
 * whole life; engines keep no per-I/O allocations and no per-I/O state
 * beyond what sits in struct io_unit.  Engines never print: init() returns
 * a negative errno and the caller decides whether to fall back.
 */
#ifndef STORAN_RUNNER_ENGINE_H
#define STORAN_RUNNER_ENGINE_H

#include <stddef.h>
#include <stdint.h>

enum io_dir { IO_READ = 0, IO_WRITE = 1 };

struct io_unit {
	void *buf;
	uint64_t offset;
	uint64_t start_ns;	/* when it was queued */
	uint32_t len;
	uint32_t index;		/* in the pool; the registered buffer */
	enum io_dir dir;
	int64_t result;		/* bytes done or -errno, set by reap() */
};

struct engine {
	const struct engine_ops *ops;
	int fd;
	unsigned depth;		/* at most this many I/Os in flight */
	struct io_unit *units;	/* depth of them */
	void *priv;		/* the engine's own state */
};

enum engine_flags {
	ENGINE_SYNC = 1 << 0,	/* queue() does the I/O; run at depth 1 */
};

struct engine_ops {
	const char *name;
	unsigned flags;
	/* Sets up e->priv for e->fd, e->depth, e->units; 0 or -errno. */
	int (*init)(struct engine *e);
	/* 0, or -errno (the I/O was not queued). */
	int (*queue)(struct engine *e, struct io_unit *u);
	/* 0, or -errno. */
	int (*commit)(struct engine *e);
	/* Number of units stored in done[], or -errno. */
	int (*reap)(struct engine *e, unsigned min, struct io_unit **done,
		    unsigned max);
	void (*cleanup)(struct engine *e);
};

extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_psync;

/* By name ("io_uring", "libaio", "psync"), or NULL. */
const struct engine_ops *engine_find(const char *name);
/* The engines in the order storan prefers them, NULL-terminated. */
extern const struct engine_ops *const engine_preference[];

#endif
