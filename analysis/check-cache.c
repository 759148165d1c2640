/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The checks for figures that measured the page cache, not the storage:
 * a buffered test on a file smaller than RAM (small-file), a buffered dd
 * write that never waited for the disk (no-sync), a read of a file right
 * after writing or reading it with no cache drop between (cached-read);
 * and for data that is no test of it: zeros a device may compress away
 * (zero-data), a dd that stopped on an error (partial).
 *
 * A cache drop is known from the result set: the drops the ingest
 * recorded from the text, or the label cache=dropped on the measurement
 * right after one (all a result set read back from JSON or CSV has).
 */
#define _GNU_SOURCE
#include "check-private.h"
#include "../core/numscan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int is_read(const struct measurement *m)
{
	return strstr(m->op, "read") && !is_cachedread(m);
}

static int is_write(const struct measurement *m)
{
	return strstr(m->op, "write") != NULL;
}

/* ---- small-file and no-sync ---- */

/* The RAM a test ran with: a ram label, else --ram / this machine. */
static double ram_for(const struct check_ctx *c, const struct measurement *m)
{
	double r;

	return label_size(m, "ram", &r) ? r : c->opt->ram;
}

/*
 * The bytes of file a test touched: filesize or size label (per thread or
 * job: times threads or numjobs), else its bytes.
 */
static int file_size(const struct check_ctx *c, size_t pos, double *out)
{
	const struct measurement *m = M(c, c->order[pos]), *b;
	double jobs;

	if (label_size(m, "filesize", out) || label_size(m, "size", out)) {
		if (label_size(m, "threads", &jobs) ||
		    label_size(m, "numjobs", &jobs))
			*out *= jobs;
		return 1;
	}
	if (str_is(m->tool, "fio"))
		return 0;	/* fio's bytes count the I/O, not the file */
	b = check_sibling(c, pos, "bytes");
	if (!b || !(mean(b) > 0))
		return 0;
	*out = mean(b);
	return 1;
}

/*
 * fio writes that reach the device before the next: sync=1 (O_SYNC; also
 * sync=sync or dsync in newer fio), fsync=N or fdatasync=N (a flush every
 * N writes).  The page cache holds none of them for long, so the figures
 * are the storage's however small the file -- the etcd WAL test
 * (--fdatasync=1 --size=100m) is the common case.  end_fsync is not one:
 * until the end every write is buffered.
 */
static int fio_synced_write(const struct measurement *m)
{
	const char *sync = label(m, "sync");
	double n;

	if (!str_is(m->tool, "fio") || !is_write(m))
		return 0;
	return label_true(m, "sync") ||
	       (sync && (!strcmp(sync, "sync") || !strcmp(sync, "dsync"))) ||
	       (label_size(m, "fsync", &n) && n >= 1) ||
	       (label_size(m, "fdatasync", &n) && n >= 1);
}

void check_small_file(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi);
	struct check_finding *f;
	double size, ram = ram_for(c, m);
	char s[32], r[32];

	if (!is_headline(m) || is_direct(m) || is_cachedread(m) ||
	    fio_synced_write(m) ||
	    str_is(m->tool, "hdparm") || str_is(m->tool, "dd") ||
	    !(ram > 0) || !file_size(c, pos, &size) || !(size < ram))
		return;
	f = check_found_in_output(c, pos, "small-file");
	if (f) {
		check_also(f, mi);
		check_also_test(c, f, pos);
		return;
	}
	f = check_add(c, CHECK_WARNING, "small-file", mi, size, ram,
		"buffered %s test on a %s file, smaller than the %s of RAM: "
		"its figures measure the page cache, not the storage",
		m->tool, check_figure(size, UNIT_BYTES, s, sizeof(s)),
		check_figure(ram, UNIT_BYTES, r, sizeof(r)));
	check_also_test(c, f, pos);
}

/* dd's own ways of waiting for the data to reach the device. */
static int dd_synced(const struct measurement *m)
{
	const char *conv = label(m, "conv"), *oflag = label(m, "oflag");

	return (conv && (strstr(conv, "fdatasync") || strstr(conv, "fsync"))) ||
	       (oflag && (strstr(oflag, "sync") || strstr(oflag, "direct")));
}

/*
 * The RAM no-sync holds a write against: the test's ram label, or --ram.
 * Not this machine's: a post was written on another one.
 */
static double ram_of_test(const struct check_ctx *c,
			  const struct measurement *m)
{
	double r;

	if (label_size(m, "ram", &r))
		return r;
	return c->opt->ram_given ? c->opt->ram : 0;
}

/*
 * A buffered dd write without conv=fdatasync or oflag=direct|sync ends
 * when the page cache holds the data.  It measured the cache when it
 * wrote less than the machine's RAM (known from a label or --ram), or,
 * RAM unknown, when its rate is above what its link can carry.  A write
 * that ran CHECK_MIN_RUNTIME or more at under CHECK_CACHE_MIN_RATE went
 * at the disk's pace (the kernel throttles a writer to it once the dirty
 * limit is reached), whatever the RAM: no finding.
 */
void check_no_sync(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi), *b, *rt;
	struct check_finding *f;
	struct link_info l;
	const char *hint, *family = NULL;
	double ram = ram_of_test(c, m), t;
	char v[32], s[32], r[32];

	if (!str_is(m->tool, "dd") || !is_write(m) || !is_bw(m) ||
	    is_direct(m) || dd_synced(m))
		return;
	b = check_sibling(c, pos, "bytes");
	rt = check_sibling(c, pos, "runtime");
	t = rt ? mean(rt) : NAN;
	if (!b || (t >= CHECK_MIN_RUNTIME && mean(m) < CHECK_CACHE_MIN_RATE))
		return;
	f = check_found_in_output(c, pos, "no-sync");
	if (ram > 0) {
		if (!(mean(b) < ram))
			return;
		if (f) {
			check_also_test(c, f, pos);
			return;
		}
		f = check_add(c, CHECK_WARNING, "no-sync", mi, mean(b), ram,
			"dd wrote %s without conv=fdatasync or oflag=direct, "
			"less than the %s of RAM: %s is how fast the page cache "
			"took the data, not how fast the disk wrote it",
			check_figure(mean(b), UNIT_BYTES, s, sizeof(s)),
			check_figure(ram, UNIT_BYTES, r, sizeof(r)),
			check_figure(mean(m), UNIT_BW, v, sizeof(v)));
		check_also_test(c, f, pos);
		return;
	}
	if (check_link_of(c, mi, &l, &hint, &family) <= 0 || !(peak(m) > l.payload))
		return;		/* RAM unknown, nothing in the figures */
	if (f) {
		check_also_test(c, f, pos);
		return;
	}
	f = check_add(c, CHECK_WARNING, "no-sync", mi, peak(m), l.payload,
		"dd wrote %s without conv=fdatasync or oflag=direct at %s, "
		"more than its link carries: the page cache took the data, "
		"the disk had not written it yet",
		check_figure(mean(b), UNIT_BYTES, s, sizeof(s)),
		check_figure(peak(m), UNIT_BW, v, sizeof(v)));
	check_also_test(c, f, pos);
}

/* ---- partial (dd stopped on an error) ---- */

void check_partial(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi), *b;
	const char *why = label(m, "partial");
	struct check_finding *f;
	char s[32];

	if (!why || !is_headline(m))
		return;
	f = check_found_in_output(c, pos, "partial");
	if (f) {
		check_also(f, mi);
		check_also_test(c, f, pos);
		return;
	}
	b = check_sibling(c, pos, "bytes");
	if (b)
		check_figure(mean(b), UNIT_BYTES, s, sizeof(s));
	f = check_add(c, CHECK_WARNING, "partial", mi, mean(m), NAN,
		"%s stopped on an error (%s): its %s figure covers only the "
		"%s it copied before it, not the test it was asked to run",
		m->tool, why, m->op, b ? s : "data");
	check_also_test(c, f, pos);
}

/* ---- zero-data ---- */

static const char *zero_source(const struct measurement *m)
{
	const char *in = label(m, "if"), *data = label(m, "data");

	if (str_is(m->tool, "dd") && is_write(m) && in &&
	    !strcmp(in, "/dev/zero"))
		return "dd wrote zeros from /dev/zero";
	if (label(m, "zero_buffers") && !label_false(m, "zero_buffers"))
		return "fio wrote zeros (zero_buffers)";
	if (data && !strcmp(data, "zero"))
		return "the test wrote zeros (data=zero)";
	return NULL;
}

void check_zero_data(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi);
	const char *what = zero_source(m);
	struct check_finding *f;

	if (!what || !is_headline(m))
		return;
	f = check_found_here(c, pos, "zero-data");
	if (f) {
		check_also(f, mi);
		return;
	}
	if (label_false(m, "compression"))
		f = check_add(c, CHECK_INFO, "zero-data", mi, NAN, NAN,
			"%s; compression=%s says the file system does not "
			"compress, but a device or array that deduplicates "
			"would still look faster", what,
			label(m, "compression"));
	else
		f = check_add(c, CHECK_WARNING, "zero-data", mi, NAN, NAN,
			"%s: storage that compresses or deduplicates (ZFS, "
			"btrfs, VDO, SandForce SSDs, arrays) stores almost "
			"nothing and looks faster than it is", what);
	check_also_test(c, f, pos);
}

/* ---- cached-read ---- */

/* The file a test read or wrote, by the labels the parsers record. */
static const char *file_of(const struct measurement *m, int reading)
{
	const char *f = label(m, "filename");

	if (!f)
		f = label(m, "file");
	if (!f && str_is(m->tool, "dd"))
		f = label(m, reading ? "if" : "of");
	if (f && starts_with(f, "/dev/") && (!strcmp(f, "/dev/zero") ||
					     !strcmp(f, "/dev/null") ||
					     strstr(f, "random")))
		return NULL;
	return f;
}

/* Is drop d in the text measurement mi was read from (its input, and
 * the same grep prefix: two inputs may both be run.txt)? */
static int drop_in_text_of(const struct check_ctx *c, const struct cache_drop *d,
			   size_t mi)
{
	return d->source == M(c, mi)->source &&
	       !strcmp(d->name, check_source_of(c, mi));
}

/* Did the text of measurement mi drop the cache on a line in (after, upto]? */
static int cache_dropped(const struct check_ctx *c, size_t mi,
			 unsigned after, unsigned upto)
{
	for (size_t i = 0; i < c->rs->ndrops; i++) {
		const struct cache_drop *d = &c->rs->drops[i];

		if (d->line > after && d->line <= upto &&
		    drop_in_text_of(c, d, mi))
			return 1;
	}
	return 0;
}

/* The last write of file before the read at pos, in the same source. */
static long last_write_of(const struct check_ctx *c, size_t pos,
			  const char *file)
{
	size_t mi = c->order[pos];

	for (size_t k = pos; k-- > 0;) {
		const struct measurement *w = M(c, c->order[k]);
		const char *wf;

		if (w->source != M(c, mi)->source)
			break;
		if (!is_write(w) || !is_bw(w) || w->line >= M(c, mi)->line)
			continue;
		wf = file_of(w, 0);
		if (wf && !strcmp(wf, file))
			return (long)k;
	}
	return -1;
}

/* The same read again: op and block size (a 4k random read before a 1M
 * sequential one is slower for other reasons than the cache). */
static int same_read(const struct measurement *a, const struct measurement *b)
{
	const char *ba = label(a, "bs"), *bb = label(b, "bs");

	return !strcmp(a->op, b->op) && !ba == !bb && (!ba || !strcmp(ba, bb));
}

static int label_dropped(const struct measurement *m)
{
	const char *v = label(m, "cache");

	return v && !strcmp(v, "dropped");
}

/*
 * Was the cache dropped after line `after` and up to the read at pos?
 * In raw text the drop's own line says so; in a result set (the text is
 * gone) a measurement in between labelled cache=dropped does: the drop
 * came right before it.
 */
static int dropped_between(const struct check_ctx *c, size_t pos,
			   unsigned after)
{
	const struct measurement *m = M(c, c->order[pos]);

	if (cache_dropped(c, c->order[pos], after, m->line))
		return 1;
	for (size_t k = pos; k-- > 0;) {
		const struct measurement *b = M(c, c->order[k]);

		if (b->source != m->source || b->line <= after)
			break;
		if (b->line < m->line && label_dropped(b))
			return 1;
	}
	return 0;
}

/* The line of the last cache drop in the text of measurement mi at or
 * before line upto, 0 when none. */
static unsigned last_text_drop(const struct check_ctx *c, size_t mi,
			       unsigned upto)
{
	unsigned last = 0;

	for (size_t i = 0; i < c->rs->ndrops; i++) {
		const struct cache_drop *d = &c->rs->drops[i];

		if (d->line <= upto && d->line > last &&
		    drop_in_text_of(c, d, mi))
			last = d->line;
	}
	return last;
}

/*
 * The cold read this read at pos repeats: the same read of the same file
 * before it, in the same source, made right after a cache drop (label
 * cache=dropped, as the ingest gives it), with no drop since and no
 * write of the file between.  The recipe of the Arch wiki's "SSD
 * Benchmarking": drop caches, read (from the disk), read again (from the
 * page cache).  A read without a drop before it proves nothing: the
 * posts that read twice are as often a before and after (another
 * kernel, the device replugged).
 *
 * One walk back: a drop since a candidate is the text's last drop
 * above the read, or a measurement on a later line labelled
 * cache=dropped (in a result set the text is gone; the drop came right
 * before it).
 * Asking that again for each candidate made 2,000 reads take 74 s.
 */
static long cold_read_of(const struct check_ctx *c, size_t pos,
			 const char *file)
{
	const struct measurement *m = M(c, c->order[pos]);
	unsigned text_drop = last_text_drop(c, c->order[pos], m->line);
	unsigned label_drop = 0;	/* line of the last labelled drop */

	for (size_t k = pos; k-- > 0;) {
		const struct measurement *r = M(c, c->order[k]);
		const char *rf;
		int candidate;

		if (r->source != m->source)
			break;
		if (r->line >= m->line)
			continue;
		if (is_bw(r) && is_write(r) && (rf = file_of(r, 0)) &&
		    !strcmp(rf, file))
			break;		/* the write rule covers what is before */
		rf = is_bw(r) ? file_of(r, 1) : NULL;
		candidate = rf && is_read(r) && !is_direct(r) &&
			    !strcmp(rf, file) && same_read(r, m);
		if (candidate && (text_drop > r->line || label_drop > r->line))
			break;
		if (candidate && label_dropped(r))
			return (long)k;
		if (!label_drop && label_dropped(r))
			label_drop = r->line;	/* walking back: the last */
	}
	return -1;
}

/*
 * Is the read at pos (bandwidth rbw) a page-cache read after the test at
 * position k (bandwidth before), CHECK_CACHED_RATIO times faster, of no
 * more than RAM, and -- with a known link -- above it?  lim gets the
 * words for the link.
 */
static int cached_after(struct check_ctx *c, size_t pos, long k, double rbw,
			double before, char *lim, size_t limsize)
{
	size_t mi = c->order[pos];
	const struct measurement *b = check_sibling(c, (size_t)k, "bytes");
	double ram = ram_for(c, M(c, mi));
	struct link_info l;

	if (b && ram > 0 && !(mean(b) < ram))
		return 0;	/* more than RAM: cannot all be cached */
	if (!(before > 0) || !(rbw >= CHECK_CACHED_RATIO * before))
		return 0;
	*lim = '\0';
	if (check_link_of(c, mi, &l, NULL, NULL) > 0) {
		if (!(rbw > l.payload))
			return 0;
		snprintf(lim, limsize, " and above the %s link", l.display);
	}
	return 1;
}

void check_cached_read(struct check_ctx *c, size_t pos)
{
	size_t mi = c->order[pos];
	const struct measurement *m = M(c, mi), *w;
	const char *file = file_of(m, 1);
	double rbw = mean(m), before;
	char r[32], wr[32], lim[48];
	long k;

	/* a drop seen in the text, or, in a result set, the label the
	 * ingest gave a read that came right after one (the text is gone) */
	if (!file || !is_read(m) || !is_bw(m) || is_direct(m) ||
	    label_dropped(m))
		return;
	k = last_write_of(c, pos, file);
	w = k < 0 ? NULL : M(c, c->order[k]);
	if (w && !dropped_between(c, pos, w->line) &&
	    cached_after(c, pos, k, rbw, before = mean(w), lim,
			 sizeof(lim))) {
		check_add(c, CHECK_WARNING, "cached-read", mi, rbw, before,
		    "read of %s at %s came right after writing it at %s "
		    "(%.1f times faster%s, no cache drop between): it was "
		    "read from the page cache, not the disk", file,
		    check_figure(rbw, UNIT_BW, r, sizeof(r)),
		    check_figure(before, UNIT_BW, wr, sizeof(wr)), rbw / before,
		    lim);
		return;
	}
	/* the classic second read: the first one, after a cache drop,
	 * went to the disk and left the file in the page cache */
	k = cold_read_of(c, pos, file);
	if (k >= 0 && cached_after(c, pos, k, rbw,
				   before = mean(M(c, c->order[k])), lim,
				   sizeof(lim)))
		check_add(c, CHECK_WARNING, "cached-read", mi, rbw, before,
		    "read of %s at %s repeats the read of it at %s made "
		    "after a cache drop (%.1f times faster%s, no drop "
		    "since): it was read from the page cache, not the disk",
		    file,
		    check_figure(rbw, UNIT_BW, r, sizeof(r)),
		    check_figure(before, UNIT_BW, wr, sizeof(wr)), rbw / before,
		    lim);
}
