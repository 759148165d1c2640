/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The measurement loop, data patterns and --verify (see worker.h).
 */
#define _GNU_SOURCE
#include "worker.h"
#include "progress.h"
#include "../core/clock.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t runner_stop_requested;

enum phase { PHASE_RAMP, PHASE_MEASURE, PHASE_STOP };
enum failure { FAIL_NONE, FAIL_IO, FAIL_VERIFY };

/* wyrand: one multiply per 64 random bits, plenty for offsets and data. */
static inline uint64_t rng_next(uint64_t *s)
{
	__uint128_t t;

	*s += UINT64_C(0xa0761d6478bd642f);
	t = (__uint128_t)*s * (*s ^ UINT64_C(0xe7037ed1a0b428db));
	return (uint64_t)(t >> 64) ^ (uint64_t)t;
}

/* A uniform integer in [0, n) without a division. */
static inline uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return (uint64_t)(((__uint128_t)rng_next(s) * n) >> 64);
}

int rw_mode_writes(enum rw_mode m)
{
	return m == RW_WRITE || m == RW_RANDWRITE || m == RW_RANDRW ||
	       m == RW_RW;
}

int rw_mode_reads(enum rw_mode m)
{
	return m != RW_WRITE && m != RW_RANDWRITE;
}

static int rw_mode_random(enum rw_mode m)
{
	return m == RW_RANDREAD || m == RW_RANDWRITE || m == RW_RANDRW;
}

/* ---- data ------------------------------------------------------------ */

static void fill_random(void *buf, size_t len, uint64_t *rng)
{
	unsigned char *p = buf;
	uint64_t w;

	for (; len >= 8; p += 8, len -= 8) {
		w = rng_next(rng);
		memcpy(p, &w, 8);
	}
	w = rng_next(rng);
	memcpy(p, &w, len);
}

/*
 * Compressible data the way fio's buffer_compress_percentage makes it:
 * each 4 KiB segment is random for (100 - pct)% of it, zeros after.
 */
void data_fill(const struct data_spec *d, void *buf, size_t len,
	       uint64_t *rng)
{
	unsigned char *p = buf;

	if (d->mode == DATA_ZERO) {
		memset(buf, 0, len);
		return;
	}
	if (d->mode == DATA_RANDOM) {
		fill_random(buf, len, rng);
		return;
	}
	for (size_t off = 0; off < len; off += 4096) {
		size_t seg = len - off < 4096 ? len - off : 4096;
		size_t rnd = seg * (100 - d->compress_pct) / 100;

		fill_random(p + off, rnd, rng);
		memset(p + off + rnd, 0, seg - rnd);
	}
}

/*
 * Makes every 4 KiB of a write buffer unique (its first 8 bytes), so that
 * a deduplicating target cannot store the same block twice for free.  Not
 * for zeros, and not where a segment's random part is shorter than 8.
 */
static inline void data_stamp(const struct data_spec *d, void *buf,
			      uint32_t len, uint64_t value)
{
	unsigned char *p = buf;

	if (d->mode == DATA_ZERO ||
	    (d->mode == DATA_COMPRESS && 4096 * (100 - d->compress_pct) < 800))
		return;
	for (uint32_t off = 0; off < len; off += 4096) {
		uint64_t v = value + off;

		memcpy(p + off, &v, 8);
	}
}

/* ---- verify ---------------------------------------------------------- */

void verify_map_init(struct verify_map *v, uint64_t size, uint64_t seed)
{
	v->seed = seed;
	v->nsectors = size / VERIFY_SECTOR;
	v->gen = xcalloc(v->nsectors ? v->nsectors : 1, 1);
	v->cur = 1;
}

void verify_map_release(struct verify_map *v)
{
	free(v->gen);
	v->gen = NULL;
}

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void sector_pattern(const struct verify_map *v, uint64_t sector,
			   unsigned gen, uint64_t *out)
{
	uint64_t base = v->seed + sector * UINT64_C(0x9e3779b97f4a7c15) +
			gen * UINT64_C(0xd1b54a32d192ed03);

	for (unsigned i = 0; i < VERIFY_SECTOR / 8; i++)
		out[i] = mix64(base + i);
}

void verify_fill(const struct verify_map *v, void *buf, uint64_t off,
		 uint32_t len)
{
	uint64_t s0 = off / VERIFY_SECTOR, pat[VERIFY_SECTOR / 8];
	unsigned char *p = buf;

	for (uint32_t i = 0; i < len / VERIFY_SECTOR; i++) {
		sector_pattern(v, s0 + i, v->gen[s0 + i], pat);
		memcpy(p + (size_t)i * VERIFY_SECTOR, pat, VERIFY_SECTOR);
	}
}

uint64_t verify_check(const struct verify_map *v, const void *buf,
		      uint64_t off, uint32_t len)
{
	uint64_t s0 = off / VERIFY_SECTOR, pat[VERIFY_SECTOR / 8];
	const unsigned char *p = buf;

	for (uint32_t i = 0; i < len / VERIFY_SECTOR; i++) {
		if (!v->gen[s0 + i])
			continue;
		sector_pattern(v, s0 + i, v->gen[s0 + i], pat);
		if (memcmp(p + (size_t)i * VERIFY_SECTOR, pat, VERIFY_SECTOR))
			return off + (uint64_t)i * VERIFY_SECTOR;
	}
	return UINT64_MAX;
}

/* A write of sectors [off, off + len) at the current generation. */
static void verify_prepare_write(struct verify_map *v, void *buf,
				 uint64_t off, uint32_t len)
{
	memset(v->gen + off / VERIFY_SECTOR, v->cur, len / VERIFY_SECTOR);
	verify_fill(v, buf, off, len);
}

/* ---- workers --------------------------------------------------------- */

struct run_shared {
	const struct run_spec *spec;
	_Atomic int phase;
	_Atomic int failed;		/* enum failure of the first error */
	_Atomic uint64_t measure_start;	/* ns, once measuring began */
	uint64_t interval_ns;		/* spec->log_interval */
	pthread_mutex_t lock;		/* guards msg */
	char msg[256];
	pthread_barrier_t ready;	/* workers set up, timing may start */
};

struct worker {
	pthread_t tid;
	struct run_shared *sh;
	unsigned id;
	uint64_t rng;
	uint64_t seq_block;		/* next block of a sequential job */
	struct engine eng;
	void *bufs;
	struct io_unit **free_units;
	struct io_unit **done;
	unsigned nfree;
	uint64_t ios[2], bytes[2];
	_Atomic uint64_t live;		/* completions, for progress */
	struct lat_hist hist[2];
	struct run_tseries ts[2];	/* --log-interval */
	/* the interval completions fall in: [ts_from, ts_to) ns is ts_k */
	uint64_t ts_from, ts_to;
	size_t ts_k;
};

static void run_fail(struct run_shared *sh, enum failure kind,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void run_fail(struct run_shared *sh, enum failure kind,
		     const char *fmt, ...)
{
	int none = FAIL_NONE;
	va_list ap;

	pthread_mutex_lock(&sh->lock);
	if (atomic_compare_exchange_strong(&sh->failed, &none, (int)kind)) {
		va_start(ap, fmt);
		vsnprintf(sh->msg, sizeof(sh->msg), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&sh->lock);
	atomic_store(&sh->phase, PHASE_STOP);
}

static int worker_setup(struct worker *w)
{
	const struct run_spec *sp = w->sh->spec;
	size_t size = (size_t)sp->depth * sp->bs;
	int rc;

	if (posix_memalign(&w->bufs, 4096, size))
		die("out of memory for %zu bytes of I/O buffers", size);
	data_fill(&sp->data, w->bufs, size, &w->rng);
	w->eng.ops = sp->ops;
	w->eng.fd = sp->fd;
	w->eng.depth = sp->depth;
	w->eng.units = xcalloc(sp->depth, sizeof(struct io_unit));
	w->free_units = xcalloc(sp->depth, sizeof(*w->free_units));
	w->done = xcalloc(sp->depth, sizeof(*w->done));
	for (unsigned i = 0; i < sp->depth; i++) {
		struct io_unit *u = &w->eng.units[i];

		u->buf = (char *)w->bufs + (size_t)i * sp->bs;
		u->len = sp->bs;
		u->index = i;
		w->free_units[w->nfree++] = u;
	}
	lat_hist_init(&w->hist[0]);
	lat_hist_init(&w->hist[1]);
	w->seq_block = sp->region / sp->bs * w->id / sp->numjobs;
	rc = sp->ops->init(&w->eng);
	if (rc < 0) {
		w->eng.priv = NULL;
		run_fail(w->sh, FAIL_IO, "%s: cannot set up: %s", sp->ops->name,
			 strerror(-rc));
	}
	return rc;
}

static void worker_teardown(struct worker *w)
{
	if (w->eng.priv)
		w->eng.ops->cleanup(&w->eng);
	free(w->eng.units);
	free(w->free_units);
	free(w->done);
	free(w->bufs);
}

static void prep_io(struct worker *w, struct io_unit *u)
{
	const struct run_spec *sp = w->sh->spec;
	uint64_t nblocks = sp->region / sp->bs, block;

	if (rw_mode_random(sp->rw)) {
		block = rng_below(&w->rng, nblocks);
	} else {
		block = w->seq_block;
		w->seq_block = block + 1 < nblocks ? block + 1 : 0;
	}
	u->offset = block * sp->bs;
	if (sp->rw == RW_RANDRW || sp->rw == RW_RW)
		u->dir = rng_below(&w->rng, 100) < sp->mix_read ? IO_READ
								 : IO_WRITE;
	else
		u->dir = rw_mode_writes(sp->rw) ? IO_WRITE : IO_READ;
	if (u->offset + u->len > sp->region)
		BUG("I/O at %llu would leave the region",
		    (unsigned long long)u->offset);
	if (u->dir == IO_WRITE && sp->verify)
		verify_prepare_write(sp->verify, u->buf, u->offset, u->len);
	else if (u->dir == IO_WRITE)
		data_stamp(&sp->data, u->buf, u->len,
			   u->offset ^ rng_next(&w->rng));
}

void run_result_release(struct run_result *res)
{
	run_tseries_release(&res->ts[0]);
	run_tseries_release(&res->ts[1]);
}

/* The index of the --log-interval interval of the measured time that
 * holds now: a comparison for most completions (a division per I/O
 * cost 3% of a 500k IOPS job). */
static size_t interval_of(struct worker *w, uint64_t now)
{
	uint64_t t0, len = w->sh->interval_ns;

	if (now >= w->ts_from && now < w->ts_to)
		return w->ts_k;
	t0 = atomic_load_explicit(&w->sh->measure_start,
				  memory_order_relaxed);
	if (!t0 || now < t0)
		return 0;	/* of the ramp, seen after the switch */
	w->ts_k = (size_t)((now - t0) / len);
	w->ts_from = t0 + (uint64_t)w->ts_k * len;
	w->ts_to = w->ts_from + len;
	return w->ts_k;
}

static void complete_io(struct worker *w, struct io_unit *u, uint64_t now,
			int measuring)
{
	const struct run_spec *sp = w->sh->spec;
	uint64_t bad;

	if (u->result != (int64_t)u->len) {
		run_fail(w->sh, FAIL_IO, "%s at offset %llu (%u bytes): %s",
			 u->dir == IO_READ ? "read" : "write",
			 (unsigned long long)u->offset, u->len,
			 u->result < 0 ? strerror((int)-u->result)
				       : "short transfer");
		return;
	}
	/* Reads race with nothing only when the job does not write. */
	if (sp->verify && !rw_mode_writes(sp->rw)) {
		bad = verify_check(sp->verify, u->buf, u->offset, u->len);
		if (bad != UINT64_MAX)
			run_fail(w->sh, FAIL_VERIFY, "verify: the data read "
				 "at offset %llu is not what storan wrote "
				 "there",
				 (unsigned long long)bad);
	}
	if (!measuring)
		return;
	w->ios[u->dir]++;
	w->bytes[u->dir] += u->len;
	lat_hist_add(&w->hist[u->dir], now - u->start_ns);
	if (sp->log_interval > 0)
		run_tseries_add(&w->ts[u->dir], interval_of(w, now), u->len,
				now - u->start_ns);
}

/*
 * Queues every free unit.  A batch is handed over in chunks no larger
 * than what is already in flight (1, then doubling from an idle queue):
 * the device always has work while the next chunk is prepared, which
 * matters on devices that finish everything they were given before they
 * report any of it (virtio in several hypervisors), and costs only a
 * logarithmic number of system calls.  The last chunk is left to reap(),
 * which submits it and waits in one call where the engine can.
 */
static int submit_batch(struct worker *w)
{
	const struct engine_ops *ops = w->eng.ops;
	unsigned inflight = w->eng.depth - w->nfree, chunk;
	uint64_t now;
	int rc;

	while (w->nfree) {
		chunk = inflight ? inflight : 1;
		if (chunk > w->nfree)
			chunk = w->nfree;
		now = clock_now_ns();
		for (unsigned i = 0; i < chunk; i++) {
			struct io_unit *u = w->free_units[--w->nfree];

			prep_io(w, u);
			u->start_ns = now;
			rc = ops->queue(&w->eng, u);
			if (rc < 0)
				return rc;
		}
		inflight += chunk;
		if (w->nfree && (rc = ops->commit(&w->eng)) < 0)
			return rc;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct engine_ops *ops = w->sh->spec->ops;
	unsigned depth = w->sh->spec->depth;
	int phase, ok = worker_setup(w) == 0, rc, n;
	uint64_t now;

	pthread_barrier_wait(&w->sh->ready);
	while (ok) {
		phase = atomic_load_explicit(&w->sh->phase,
					     memory_order_relaxed);
		if (phase != PHASE_STOP && (rc = submit_batch(w)) < 0) {
			run_fail(w->sh, FAIL_IO, "%s: submit: %s", ops->name,
				 strerror(-rc));
			phase = PHASE_STOP;
		}
		if (phase == PHASE_STOP && w->nfree == depth)
			break;
		n = ops->reap(&w->eng, 1, w->done, depth);
		if (n < 0) {
			run_fail(w->sh, FAIL_IO, "%s: reap: %s", ops->name,
				 strerror(-n));
			break;	/* cannot tell what is in flight */
		}
		now = clock_now_ns();
		for (int i = 0; i < n; i++) {
			complete_io(w, w->done[i], now, phase == PHASE_MEASURE);
			w->free_units[w->nfree++] = w->done[i];
		}
		atomic_fetch_add_explicit(&w->live, (uint64_t)n,
					  memory_order_relaxed);
	}
	worker_teardown(w);
	return NULL;
}

/* ---- the timing thread ----------------------------------------------- */

static double cpu_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

static uint64_t live_total(struct worker *w, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += atomic_load_explicit(&w[i].live, memory_order_relaxed);
	return sum;
}

static void sleep_until(uint64_t deadline)
{
	uint64_t now = clock_now_ns();
	struct timespec ts;

	if (now >= deadline)
		return;
	deadline -= now;
	if (deadline > 200000000u)
		deadline = 200000000u;	/* wake for progress and Ctrl-C */
	ts.tv_sec = (time_t)(deadline / 1000000000u);
	ts.tv_nsec = (long)(deadline % 1000000000u);
	nanosleep(&ts, NULL);
}

/*
 * Keeps time: ramp, then runtime, watching for Ctrl-C and failures.
 * Returns the measured interval in ns (0 when it never began) and the
 * CPU time used during it.
 */
static uint64_t keep_time(struct run_shared *sh, struct worker *w,
			  double ramp, double runtime, struct rusage *ru,
			  struct progress *prog, int *interrupted)
{
	uint64_t t0 = clock_now_ns(), ramp_end = t0 + (uint64_t)(ramp * 1e9);
	uint64_t measure_start = 0, end = 0, last_ios = 0, last_t = t0, now;
	double iops = -1;

	if (ramp <= 0) {
		getrusage(RUSAGE_SELF, &ru[0]);
		measure_start = clock_now_ns();
		atomic_store(&sh->measure_start, measure_start);
		atomic_store(&sh->phase, PHASE_MEASURE);
	}
	for (;;) {
		sleep_until(measure_start ? end : ramp_end);
		now = clock_now_ns();
		if (runner_stop_requested) {
			*interrupted = 1;
			break;
		}
		if (atomic_load(&sh->phase) == PHASE_STOP)
			break;
		if (!measure_start && now >= ramp_end) {
			getrusage(RUSAGE_SELF, &ru[0]);
			measure_start = clock_now_ns();
			atomic_store(&sh->measure_start, measure_start);
			atomic_store(&sh->phase, PHASE_MEASURE);
		}
		if (measure_start && !end)
			end = measure_start + (uint64_t)(runtime * 1e9);
		if (measure_start && now >= end)
			break;
		if (now - last_t >= 250000000u) {
			uint64_t ios = live_total(w, sh->spec->numjobs);

			iops = (double)(ios - last_ios) * 1e9 /
			       (double)(now - last_t);
			last_ios = ios;
			last_t = now;
		}
		progress_show(prog, measure_start ? "measure" : "ramp",
			      (double)(now - t0) * 1e-9, ramp + runtime, iops,
			      0);
	}
	atomic_store(&sh->phase, PHASE_STOP);
	now = clock_now_ns();
	getrusage(RUSAGE_SELF, &ru[1]);
	return measure_start ? now - measure_start : 0;
}

static void collect(struct worker *w, unsigned n, struct run_result *res)
{
	struct run_tseries **ts = xcalloc(n, sizeof(*ts));

	for (int d = 0; d < 2; d++) {
		for (unsigned i = 0; i < n; i++) {
			res->ios[d] += w[i].ios[d];
			res->bytes[d] += w[i].bytes[d];
			lat_hist_merge(&res->hist[d], &w[i].hist[d]);
			run_tseries_finish(&w[i].ts[d]);
			ts[i] = &w[i].ts[d];
		}
		run_tseries_merge(&res->ts[d], ts, n);
		for (unsigned i = 0; i < n; i++)
			run_tseries_release(&w[i].ts[d]);
	}
	free(ts);
}

/* Workers run with SIGINT/SIGTERM blocked: only this thread sees them. */
static void start_workers(struct run_shared *sh, struct worker *w)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (unsigned i = 0; i < sh->spec->numjobs; i++) {
		w[i].sh = sh;
		w[i].id = i;
		w[i].rng = clock_now_ns() ^ (UINT64_C(0x9e3779b97f4a7c15) * (i + 1));
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i]))
			die("cannot start a worker thread");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int run_once(const struct run_spec *spec, double ramp, double runtime,
	     struct run_result *res, struct progress *prog)
{
	struct run_shared sh;
	struct worker *w = xcalloc(spec->numjobs, sizeof(*w));
	struct rusage ru[2];
	uint64_t measured = 0;
	int interrupted = 0, failed;

	memset(&sh, 0, sizeof(sh));
	memset(res, 0, sizeof(*res));
	memset(ru, 0, sizeof(ru));
	lat_hist_init(&res->hist[0]);
	lat_hist_init(&res->hist[1]);
	sh.spec = spec;
	sh.interval_ns = (uint64_t)(spec->log_interval * 1e9 + 0.5);
	atomic_init(&sh.phase, PHASE_RAMP);
	atomic_init(&sh.failed, FAIL_NONE);
	pthread_mutex_init(&sh.lock, NULL);
	pthread_barrier_init(&sh.ready, NULL, spec->numjobs + 1);
	start_workers(&sh, w);
	pthread_barrier_wait(&sh.ready);
	if (atomic_load(&sh.failed) == FAIL_NONE)
		measured = keep_time(&sh, w, ramp, runtime, ru, prog,
				     &interrupted);
	atomic_store(&sh.phase, PHASE_STOP);
	for (unsigned i = 0; i < spec->numjobs; i++)
		pthread_join(w[i].tid, NULL);
	collect(w, spec->numjobs, res);
	res->runtime = (double)measured * 1e-9;
	if (res->runtime > 0) {
		res->usr = 100.0 / res->runtime *
			   (cpu_seconds(&ru[1].ru_utime) -
			    cpu_seconds(&ru[0].ru_utime));
		res->sys = 100.0 / res->runtime *
			   (cpu_seconds(&ru[1].ru_stime) -
			    cpu_seconds(&ru[0].ru_stime));
	}
	res->interrupted = interrupted;
	failed = atomic_load(&sh.failed);
	if (failed != FAIL_NONE) {
		progress_clear(prog);
		error("%s", sh.msg);
	}
	pthread_barrier_destroy(&sh.ready);
	pthread_mutex_destroy(&sh.lock);
	free(w);
	if (failed != FAIL_NONE)
		return failed == FAIL_VERIFY ? -2 : -1;
	return interrupted;
}

/* ---- whole-file passes ----------------------------------------------- */

#define PASS_CHUNK (4u << 20)

static void *pass_buffer(uint64_t size, size_t *len)
{
	void *buf;

	*len = size < PASS_CHUNK ? (size_t)size : PASS_CHUNK;
	if (posix_memalign(&buf, 4096, *len))
		die("out of memory for a %zu-byte buffer", *len);
	return buf;
}

int layout_file(int fd, uint64_t size, const struct data_spec *data,
		struct verify_map *verify, struct progress *prog)
{
	uint64_t rng = clock_now_ns();
	double planned = layout_seconds(size);
	size_t len;
	char *buf = pass_buffer(size, &len);
	int rc = 0;

	data_fill(data, buf, len, &rng);
	for (uint64_t off = 0; off < size && !rc; off += len) {
		size_t n = size - off < len ? (size_t)(size - off) : len;
		ssize_t done;

		if (runner_stop_requested) {
			rc = 1;
			break;
		}
		if (verify)
			verify_prepare_write(verify, buf, off, (uint32_t)n);
		else
			data_stamp(data, buf, (uint32_t)n,
				   off ^ rng_next(&rng));
		done = pwrite(fd, buf, n, (off_t)off);
		if (done != (ssize_t)n)
			rc = error("cannot lay out the test file at offset "
				   "%llu: %s", (unsigned long long)off,
				   done < 0 ? strerror(errno) : "short write");
		progress_show(prog, "layout",
			      planned * (double)off / (double)size, planned,
			      -1, 0);
	}
	if (!rc && fdatasync(fd))
		rc = error("cannot sync the test file: %s", strerror(errno));
	free(buf);
	return rc;
}

int verify_region(int fd, uint64_t region, const struct verify_map *v)
{
	size_t len;
	char *buf = pass_buffer(region, &len);
	int rc = 0;

	for (uint64_t off = 0; off < region && !rc; off += len) {
		size_t n = region - off < len ? (size_t)(region - off) : len;
		ssize_t got = pread(fd, buf, n, (off_t)off);
		uint64_t bad;

		if (got != (ssize_t)n) {
			rc = error("verify: cannot read back offset %llu: %s",
				   (unsigned long long)off,
				   got < 0 ? strerror(errno) : "short read");
			break;
		}
		bad = verify_check(v, buf, off, (uint32_t)n);
		if (bad != UINT64_MAX)
			rc = error("verify: the data at offset %llu is not "
				   "what storan wrote there",
				   (unsigned long long)bad);
	}
	free(buf);
	return rc;
}
