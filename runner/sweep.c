/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sweep (see job.h): open the target through safety.c, pick the
 * engine, lay out a new file, run every combination --repeat times and
 * record each repetition as values of the combination's measurements.
 * Whatever happens after the target is open, it is closed (a file storan
 * created is already unlinked) and what was measured stays in the set.
 */
#define _GNU_SOURCE
#include "job.h"
#include "progress.h"
#include "run-series.h"
#include "safety.h"
#include "target.h"
#include "../core/clock.h"
#include "../core/human.h"
#include "../core/units.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sweep {
	struct job_options *o;
	struct target t;
	const struct engine_ops *ops;
	struct labels base;
	struct verify_map vmap;
	struct progress prog;
	struct result_set *rs;
	size_t src;
	FILE *summary;
	int warned_drop;
};

/* ---- the engine ------------------------------------------------------ */

static int engine_probe(const struct engine_ops *ops, int fd)
{
	struct io_unit u;
	struct engine e;
	void *buf;
	int rc;

	if (posix_memalign(&buf, 4096, 4096))
		die("out of memory");
	memset(&u, 0, sizeof(u));
	memset(&e, 0, sizeof(e));
	u.buf = buf;
	u.len = 4096;
	e.ops = ops;
	e.fd = fd;
	e.depth = 1;
	e.units = &u;
	rc = ops->init(&e);
	if (!rc)
		ops->cleanup(&e);
	free(buf);
	return rc;
}

/* The named engine, or the first of io_uring, libaio, psync that works. */
static int choose_engine(struct sweep *s)
{
	const struct engine_ops *ops;
	int rc;

	if (s->o->ioengine) {
		ops = engine_find(s->o->ioengine);
		rc = ops ? engine_probe(ops, s->t.fd) : -ENOENT;
		if (rc)
			return error("ioengine %s is not available here: %s",
				     s->o->ioengine, strerror(-rc));
		s->ops = ops;
		return 0;
	}
	for (size_t i = 0; (ops = engine_preference[i]); i++) {
		rc = engine_probe(ops, s->t.fd);
		if (!rc) {
			s->ops = ops;
			return 0;
		}
		if (engine_preference[i + 1])
			warning("%s is not available here (%s); trying %s",
				ops->name, strerror(-rc),
				engine_preference[i + 1]->name);
	}
	return error("no I/O engine works here");
}

/* ---- recording ------------------------------------------------------- */

static const struct {
	const char *metric;
	double pct;
} percentiles[] = {
	{ "clat.p50", 50 }, { "clat.p90", 90 }, { "clat.p95", 95 },
	{ "clat.p99", 99 }, { "clat.p99.9", 99.9 }, { "clat.p99.99", 99.99 },
};

/* Appends v to the measurement (op, metric, labels), made on first use. */
static struct measurement *add_value(struct sweep *s, size_t from,
				     const struct labels *l, const char *op,
				     const char *metric, const char *unit,
				     double v)
{
	struct result_set *rs = s->rs;
	struct measurement *m;

	for (size_t i = from; i < rs->n; i++) {
		m = &rs->m[i];
		if (!strcmp(m->op, op) && !strcmp(m->metric, metric)) {
			measurement_add_value(m, v);
			return m;
		}
	}
	m = result_set_add(rs, "storan", op, metric, unit);
	labels_copy(&m->labels, l);
	measurement_set_source(m, s->src, rs->sources[s->src].name, 0);
	measurement_add_value(m, v);
	return m;
}

/* The ops a pattern yields, by direction; NULL where it does none. */
static void pattern_ops(enum rw_mode rw, unsigned mix, const char *op[2])
{
	int rnd = rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;

	op[IO_READ] = rw_mode_reads(rw) ? (rnd ? "randread" : "read") : NULL;
	op[IO_WRITE] = rw_mode_writes(rw) ? (rnd ? "randwrite" : "write")
					  : NULL;
	if (rw == RW_RANDRW || rw == RW_RW) {
		if (mix == 0)
			op[IO_READ] = NULL;
		if (mix == 100)
			op[IO_WRITE] = NULL;
	}
}

static void record_run(struct sweep *s, size_t from, const struct labels *l,
		       enum rw_mode rw, const struct run_result *r)
{
	const char *op[2];

	pattern_ops(rw, s->o->rwmixread, op);
	for (int d = 0; d < 2; d++) {
		const struct lat_hist *h = &r->hist[d];
		double nolat = h->n ? 0 : NAN;

		if (!op[d])
			continue;
		add_value(s, from, l, op[d], "bw", UNIT_BW,
			  (double)r->bytes[d] / r->runtime);
		add_value(s, from, l, op[d], "iops", UNIT_IOPS,
			  (double)r->ios[d] / r->runtime);
		add_value(s, from, l, op[d], "lat.mean", UNIT_SECONDS,
			  nolat + lat_hist_mean(h) * 1e-9);
		for (size_t i = 0; i < sizeof(percentiles) /
				       sizeof(percentiles[0]); i++)
			add_value(s, from, l, op[d], percentiles[i].metric,
				  UNIT_SECONDS, nolat + 1e-9 *
				  lat_hist_percentile(h, percentiles[i].pct));
		add_value(s, from, l, op[d], "runtime", UNIT_SECONDS,
			  r->runtime);
		add_value(s, from, l, op[d], "cpu.usr", UNIT_PERCENT, r->usr);
		add_value(s, from, l, op[d], "cpu.sys", UNIT_PERCENT, r->sys);
		if (r->ts[d].n)	/* the first repetition's */
			run_series_attach(s->rs, from, op[d], &r->ts[d],
					  s->o->log_interval, r->runtime);
	}
}

/* The merged histogram of all repetitions goes on lat.mean. */
static void attach_histograms(struct sweep *s, size_t from,
			      const struct lat_hist *acc)
{
	for (size_t i = from; i < s->rs->n; i++) {
		struct measurement *m = &s->rs->m[i];
		int d = strcmp(m->op, "write") && strcmp(m->op, "randwrite") ?
			IO_READ : IO_WRITE;

		if (!strcmp(m->metric, "lat.mean") && !m->hist.n &&
		    acc[d].n)
			lat_hist_export(&acc[d], &m->hist);
	}
}

/* The mean of (op, metric) among the measurements from index from. */
static double combo_mean(struct sweep *s, size_t from, const char *op,
			 const char *metric)
{
	struct measurement_stats st;

	for (size_t i = from; i < s->rs->n; i++)
		if (!strcmp(s->rs->m[i].op, op) &&
		    !strcmp(s->rs->m[i].metric, metric)) {
			measurement_basic_stats(&s->rs->m[i], &st);
			return st.mean;
		}
	return NAN;
}

static void print_summary(struct sweep *s, size_t from)
{
	for (size_t i = from; s->summary && i < s->rs->n; i++) {
		const struct measurement *m = &s->rs->m[i];
		struct measurement_stats bw, iops, mean, p99;
		struct display_unit ui, ub, ul, up;
		char a[32], b[32], c[32], d[32], bs[32];
		const char *mixed = labels_get(&m->labels, "rwmixread") ?
				    labels_get(&m->labels, "rw") : NULL;
		double bytes;

		if (strcmp(m->metric, "bw"))
			continue;
		measurement_basic_stats(m, &bw);
		iops.mean = combo_mean(s, from, m->op, "iops");
		mean.mean = combo_mean(s, from, m->op, "lat.mean");
		p99.mean = combo_mean(s, from, m->op, "clat.p99");
		display_unit_auto(UNIT_IOPS, iops.mean, 0, &ui);
		display_unit_auto(UNIT_BW, bw.mean, 1, &ub);
		display_unit_auto(UNIT_SECONDS, mean.mean, 0, &ul);
		display_unit_auto(UNIT_SECONDS, p99.mean, 0, &up);
		fprintf(s->summary, "%-9s bs=%-5s qd=%-4s %s %s  %s %s  "
			"lat %s %s  p99 %s %s  n=%zu%s%s\n", m->op,
			is_numeric_string(labels_get(&m->labels, "bs"), &bytes)
			? human_size(bytes, bs, sizeof(bs)) : "?",
			labels_get(&m->labels, "iodepth"),
			human_format(iops.mean, &ui, a, sizeof(a)), ui.name,
			human_format(bw.mean, &ub, b, sizeof(b)), ub.name,
			human_format(mean.mean, &ul, c, sizeof(c)), ul.name,
			human_format(p99.mean, &up, d, sizeof(d)), up.name,
			(size_t)m->n, mixed ? "  of " : "", mixed ? mixed : "");
	}
	if (s->summary)
		fflush(s->summary);
}

/* ---- one combination ------------------------------------------------- */

/* Like fio's invalidate=1: the page cache forgets the target first. */
static void forget_cache(struct sweep *s)
{
	int fd;

	if (!s->o->direct)
		fdatasync(s->t.fd);
	posix_fadvise(s->t.fd, 0, 0, POSIX_FADV_DONTNEED);
	if (!s->o->drop_caches)
		return;
	sync();
	fd = open("/proc/sys/vm/drop_caches",
		  O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		if (!s->warned_drop++)
			warning("--drop-caches: cannot write to "
				"/proc/sys/vm/drop_caches (%s); only this "
				"file's cache is dropped", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
}

static void combo_labels(struct sweep *s, enum rw_mode rw, uint64_t bs,
			 unsigned depth, struct labels *l)
{
	labels_copy(l, &s->base);
	labels_set(l, "rw", rw_mode_name(rw));
	labels_setf(l, "bs", "%llu", (unsigned long long)bs);
	labels_setf(l, "iodepth", "%u", depth);
	if (rw == RW_RANDRW || rw == RW_RW)
		labels_setf(l, "rwmixread", "%u", s->o->rwmixread);
}

/* Returns 0, 1 interrupted, -1 failed, -2 verify mismatch. */
static int run_combo(struct sweep *s, enum rw_mode rw, uint64_t bs,
		     unsigned depth)
{
	struct job_options *o = s->o;
	struct run_spec spec;
	struct labels l;
	struct lat_hist *acc = xcalloc(2, sizeof(*acc));
	struct run_result *res = xmalloc(sizeof(*res));
	size_t from = s->rs->n;
	int rc = 0;

	labels_init(&l);
	combo_labels(s, rw, bs, depth, &l);
	memset(&spec, 0, sizeof(spec));
	spec.fd = s->t.fd;
	spec.bs = (uint32_t)bs;
	spec.region = s->t.size / bs * bs;
	spec.depth = depth;
	spec.numjobs = o->numjobs;
	spec.rw = rw;
	spec.mix_read = o->rwmixread;
	spec.ops = s->ops;
	spec.data = o->data;
	spec.verify = o->verify ? &s->vmap : NULL;
	lat_hist_init(&acc[0]);
	lat_hist_init(&acc[1]);
	for (unsigned rep = 0; rep < o->repeat && !rc; rep++) {
		char what[96], bsz[32];

		snprintf(what, sizeof(what), "%s %s qd%u %u/%u",
			 rw_mode_name(rw), human_size((double)bs, bsz,
			 sizeof(bsz)), depth, rep + 1, o->repeat);
		progress_set_what(&s->prog, what);
		forget_cache(s);
		if (o->verify && rw_mode_writes(rw))
			s->vmap.cur = s->vmap.cur == 255 ? 2 : s->vmap.cur + 1;
		/* only the first repetition's samples over time are kept */
		spec.log_interval = rep ? 0 : o->log_interval;
		rc = run_once(&spec, o->ramp, o->runtime, res, &s->prog);
		progress_step_done(&s->prog, o->ramp + o->runtime);
		if (rc)
			break;	/* an interrupted repetition is dropped */
		record_run(s, from, &l, rw, res);
		run_result_release(res);
		lat_hist_merge(&acc[0], &res->hist[0]);
		lat_hist_merge(&acc[1], &res->hist[1]);
		if (o->verify && rw_mode_writes(rw)) {
			progress_show(&s->prog, "verify", 0, 0, -1, 1);
			if (verify_region(s->t.fd, spec.region, &s->vmap))
				rc = -2;
		}
	}
	attach_histograms(s, from, acc);
	progress_clear(&s->prog);
	print_summary(s, from);
	labels_release(&l);
	free(acc);
	free(res);
	return rc;
}

/* ---- the sweep ------------------------------------------------------- */

/* I/O buffers of all jobs together: a guard against typing 64M at QD4096. */
#define BUF_MAX (UINT64_C(16) << 30)

static int check_buffers(struct sweep *s, uint64_t bs)
{
	const struct job_options *o = s->o;

	if (bs > s->t.size)
		return error("block size %llu is larger than the %llu bytes "
			     "under test", (unsigned long long)bs,
			     (unsigned long long)s->t.size);
	for (size_t d = 0; d < o->niodepth; d++)
		if (bs * o->iodepth[d] * o->numjobs > BUF_MAX)
			return error("bs %llu x iodepth %u x numjobs %u needs "
				     "more than %llu bytes of buffers",
				     (unsigned long long)bs, o->iodepth[d],
				     o->numjobs, (unsigned long long)BUF_MAX);
	return 0;
}

static int open_target(struct sweep *s)
{
	struct job_options *o = s->o;
	struct safety_request req;

	memset(&req, 0, sizeof(req));
	req.filename = o->filename;
	req.directory = o->directory;
	req.size = o->size;
	req.writes = job_writes(o);
	req.direct = o->direct;
	req.overwrite = o->overwrite;
	req.destroy_data = o->destroy_data;
	if (safety_open_target(&req, &s->t))
		return -1;
	for (size_t i = 0; i < o->nbs; i++)
		for (size_t r = 0; r < o->nrw; r++)
			if (check_buffers(s, job_block_size(o, i, o->rw[r])))
				return -1;
	return 0;
}

static void base_labels(struct sweep *s)
{
	struct job_options *o = s->o;

	target_facts(&s->t, &s->base);
	labels_setf(&s->base, "size", "%llu", (unsigned long long)s->t.size);
	labels_set(&s->base, "direct", o->direct ? "1" : "0");
	labels_set(&s->base, "ioengine", s->ops->name);
	labels_setf(&s->base, "numjobs", "%u", o->numjobs);
	if (o->data.mode == DATA_COMPRESS)
		labels_setf(&s->base, "data", "compress:%u",
			    o->data.compress_pct);
	else
		labels_set(&s->base, "data",
			   o->data.mode == DATA_ZERO ? "zero" : "random");
	for (size_t i = 0; i < o->labels.n; i++)
		labels_set(&s->base, o->labels.v[i].key, o->labels.v[i].value);
}

/* A synchronous engine runs one I/O at a time per job. */
static void sync_engine_depth(struct sweep *s)
{
	struct job_options *o = s->o;

	if (!(s->ops->flags & ENGINE_SYNC))
		return;
	for (size_t i = 0; i < o->niodepth; i++)
		if (o->iodepth[i] > 1) {
			warning("%s does one I/O at a time: --iodepth runs at "
				"1 (--numjobs gives parallel I/O)",
				s->ops->name);
			break;
		}
	o->iodepth[0] = 1;
	o->niodepth = 1;
}

static int run_all(struct sweep *s)
{
	struct job_options *o = s->o;
	int rc = 0;

	for (size_t r = 0; r < o->nrw && !rc; r++)
		for (size_t b = 0; b < o->nbs && !rc; b++)
			for (size_t d = 0; d < o->niodepth && !rc; d++)
				rc = run_combo(s, o->rw[r],
					       job_block_size(o, b, o->rw[r]),
					       o->iodepth[d]);
	return rc;
}

static void mark_interrupted(struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		labels_set(&rs->m[i].labels, "interrupted", "yes");
}

static int sweep_body(struct sweep *s)
{
	struct job_options *o = s->o;
	double total;
	int rc;

	if (open_target(s) || choose_engine(s))
		return 2;
	sync_engine_depth(s);
	base_labels(s);
	/* A new file is gone once the run ends: name the run instead of a
	 * temporary name nobody will find. */
	s->src = result_set_add_source(s->rs, s->t.kind == TARGET_NEW_FILE ?
				       "storan-run" : s->t.path, NULL);
	s->rs->sources[s->src].format = xstrdup("storan-run");
	s->rs->sources[s->src].tool_version = xstrdup(STORAN_VERSION);
	if (o->verify)
		verify_map_init(&s->vmap, s->t.size, clock_now_ns());
	total = (double)(o->nrw * o->nbs * o->niodepth * o->repeat) *
		(o->ramp + o->runtime);
	if (s->t.needs_layout)
		total += layout_seconds(s->t.size);
	progress_init(&s->prog, o->quiet, total);
	if (s->t.needs_layout) {
		progress_set_what(&s->prog, "new test file");
		rc = layout_file(s->t.fd, s->t.size, &o->data,
				 o->verify ? &s->vmap : NULL, &s->prog);
		progress_step_done(&s->prog, layout_seconds(s->t.size));
		progress_clear(&s->prog);
		if (rc)
			return rc < 0 ? 2 : 1;
	}
	rc = run_all(s);
	if (rc == 1)
		mark_interrupted(s->rs);
	return rc == 0 ? 0 : rc == -1 ? 2 : 1;
}

int job_run_sweep(struct job_options *o, struct result_set *rs,
		  FILE *summary)
{
	struct sweep s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.rs = rs;
	s.summary = summary;
	s.t.fd = -1;
	labels_init(&s.base);
	rc = sweep_body(&s);
	if (rc == 1 && runner_stop_requested)
		warning("interrupted: the repetitions completed so far are "
			"kept, marked interrupted=yes");
	target_close(&s.t);
	verify_map_release(&s.vmap);
	labels_release(&s.base);
	return rc;
}
