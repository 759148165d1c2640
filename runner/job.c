/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan run's options and presets (see job.h).  The sweep itself is in
 * sweep.c.
 */
#include "job.h"
#include "../core/numscan.h"
#include "../core/strbuf.h"
#include "../core/suggest.h"
#include "../core/units.h"

#include <math.h>
#include <string.h>

static const char *const rw_names[RW_NMODES] = {
	[RW_READ] = "read",
	[RW_WRITE] = "write",
	[RW_RANDREAD] = "randread",
	[RW_RANDWRITE] = "randwrite",
	[RW_RANDRW] = "randrw",
	[RW_RW] = "rw",
};

const char *rw_mode_name(enum rw_mode m)
{
	return rw_names[m];
}

void job_options_init(struct job_options *o)
{
	memset(o, 0, sizeof(*o));
	o->rwmixread = 50;
	o->iodepth[0] = 1;
	o->niodepth = 1;
	o->numjobs = 1;
	o->direct = 1;
	o->runtime = 10;
	o->ramp = 2;
	o->log_interval = 1;	/* what fio-plot users chart: per second */
	o->repeat = 3;
	o->data.mode = DATA_RANDOM;
	labels_init(&o->labels);
}

void job_options_release(struct job_options *o)
{
	labels_release(&o->labels);
}

int job_parse_size(const char *arg, uint64_t *out, struct strbuf *err)
{
	const char *p = arg;
	double v;

	if (scan_size(&p, 0, &v)) {
		strbuf_addf(err, "'%s' is not a size", arg);
		return -1;
	}
	if (*p || v < 1 || v > 9e18 || floor(v) < v) {
		strbuf_addf(err, "'%s' is not a whole number of bytes (4k, "
			    "512M, 1G)", arg);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int job_parse_seconds(const char *arg, double *out, struct strbuf *err)
{
	const char *p = arg;
	double v;

	if (scan_double(&p, SCAN_NO_EXPONENT, &v))
		goto bad;
	if (*p == 'm' && !p[1])
		v *= 60, p++;
	else if (*p == 'h' && !p[1])
		v *= 3600, p++;
	else if (*p == 's' && !p[1])
		p++;
	if (*p || v > 1e7)
		goto bad;
	*out = v;
	return 0;
bad:
	strbuf_addf(err, "'%s' is not a duration (10, 0.5, 2m)", arg);
	return -1;
}

/* Calls one(item) for each comma-separated item of arg. */
static int for_each_item(const char *arg, struct job_options *o,
			 struct strbuf *err,
			 int (*one)(const char *, struct job_options *,
				    struct strbuf *))
{
	char item[64];

	do {
		const char *comma = strchr(arg, ',');
		size_t len = comma ? (size_t)(comma - arg) : strlen(arg);

		if (!len || len >= sizeof(item)) {
			strbuf_addf(err, "empty or overlong item in the list");
			return -1;
		}
		memcpy(item, arg, len);
		item[len] = '\0';
		if (one(item, o, err))
			return -1;
		arg = comma ? comma + 1 : NULL;
	} while (arg);
	return 0;
}

/* ", did you mean 'X'?" when one of cands is close to word. */
static void add_suggestion(struct strbuf *err, const char *word,
			   const char *const *cands, size_t n)
{
	const char *s = suggest_closest(word, cands, n);

	if (s)
		strbuf_addf(err, "; did you mean '%s'?", s);
}

static int rw_one(const char *item, struct job_options *o, struct strbuf *err)
{
	/* fio's other name for rw */
	const char *name = !strcmp(item, "readwrite") ? "rw" : item;

	for (int m = 0; m < RW_NMODES; m++) {
		if (strcmp(name, rw_names[m]))
			continue;
		if (o->nrw == JOB_MAX_LIST)
			break;
		o->rw[o->nrw++] = (enum rw_mode)m;
		return 0;
	}
	strbuf_addf(err, "'%s' is not one of read, write, randread, "
		    "randwrite, randrw, rw (or the list is too long)", item);
	add_suggestion(err, item, rw_names, RW_NMODES);
	return -1;
}

int job_parse_rw(const char *arg, struct job_options *o, struct strbuf *err)
{
	o->nrw = 0;
	return for_each_item(arg, o, err, rw_one);
}

#define BS_MAX (UINT64_C(1) << 30)

static int bs_check(uint64_t bs, const char *item, struct strbuf *err)
{
	if (bs < 512 || bs % 512 || bs > BS_MAX) {
		strbuf_addf(err, "block size '%s' must be a multiple of 512 "
			    "between 512 and 1G", item);
		return -1;
	}
	return 0;
}

static int bs_add(struct job_options *o, uint64_t bs, const char *item,
		  struct strbuf *err)
{
	if (bs_check(bs, item, err))
		return -1;
	if (o->nbs == JOB_MAX_LIST) {
		strbuf_addf(err, "more than %d block sizes", JOB_MAX_LIST);
		return -1;
	}
	o->bs[o->nbs++] = bs;
	return 0;
}

static int bs_one(const char *item, struct job_options *o, struct strbuf *err)
{
	const char *dash = strchr(item, '-');
	char lo_text[64];
	uint64_t lo, hi;

	if (!dash) {
		if (job_parse_size(item, &lo, err))
			return -1;
		return bs_add(o, lo, item, err);
	}
	memcpy(lo_text, item, (size_t)(dash - item));
	lo_text[dash - item] = '\0';
	if (job_parse_size(lo_text, &lo, err) ||
	    job_parse_size(dash + 1, &hi, err))
		return -1;
	if (lo > hi) {
		strbuf_addf(err, "range '%s' runs backwards", item);
		return -1;
	}
	for (uint64_t bs = lo; bs <= hi; bs *= 2)
		if (bs_add(o, bs, item, err))
			return -1;
	return 0;
}

int job_parse_bs_sweep(const char *arg, struct job_options *o,
		       struct strbuf *err)
{
	o->nbs = 0;
	o->bs_write = 0;
	return for_each_item(arg, o, err, bs_one);
}

/* One of fio's READ,WRITE,TRIM sizes; empty is fio's default, 4k. */
static int bs_side(const char *text, size_t len, uint64_t *out,
		   struct strbuf *err)
{
	char item[64];

	if (!len) {
		*out = 4096;
		return 0;
	}
	if (len >= sizeof(item) || memchr(text, '-', len)) {
		strbuf_addf(err, "'%.*s' is not one block size (--bs "
			    "READ,WRITE takes one size for each, as fio's bs "
			    "does; a range is --bs-sweep)", (int)len, text);
		return -1;
	}
	memcpy(item, text, len);
	item[len] = '\0';
	return job_parse_size(item, out, err) || bs_check(*out, item, err) ?
	       -1 : 0;
}

int job_parse_bs(const char *arg, struct job_options *o, struct strbuf *err)
{
	uint64_t side[3];
	const char *p = arg;
	size_t n = 0;

	if (!strchr(arg, ','))		/* one size, or a range */
		return job_parse_bs_sweep(arg, o, err);
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (n == 3) {
			strbuf_addf(err, "--bs '%s': fio's bs takes at most "
				    "READ,WRITE,TRIM sizes; a list of block "
				    "sizes to sweep is --bs-sweep %s", arg,
				    arg);
			return -1;
		}
		if (bs_side(p, len, &side[n++], err))
			return -1;
		if (!comma)
			break;
		p = comma + 1;
	}
	/* a trim size is accepted, as fio does, and unused: storan has no
	 * trim pattern */
	o->bs[0] = side[0];
	o->nbs = 1;
	o->bs_write = side[1];
	return 0;
}

uint64_t job_block_size(const struct job_options *o, size_t i,
			enum rw_mode rw)
{
	if (o->bs_write && (rw == RW_WRITE || rw == RW_RANDWRITE))
		return o->bs_write;
	return o->bs[i];
}

static int depth_one(const char *item, struct job_options *o,
		     struct strbuf *err)
{
	const char *p = item;
	uint64_t v;

	if (scan_u64(&p, &v) || *p || !v || v > 4096 ||
	    o->niodepth == JOB_MAX_LIST) {
		strbuf_addf(err, "iodepth '%s' is not a number from 1 to 4096 "
			    "(or the list is too long)", item);
		return -1;
	}
	o->iodepth[o->niodepth++] = (unsigned)v;
	return 0;
}

int job_parse_iodepth(const char *arg, struct job_options *o,
		      struct strbuf *err)
{
	o->niodepth = 0;
	return for_each_item(arg, o, err, depth_one);
}

int job_parse_data(const char *arg, struct data_spec *d, struct strbuf *err)
{
	const char *p = arg;
	uint64_t pct;

	if (!strcmp(arg, "random")) {
		d->mode = DATA_RANDOM;
	} else if (!strcmp(arg, "zero")) {
		d->mode = DATA_ZERO;
	} else if (skip_prefix(&p, "compress:") && !scan_u64(&p, &pct) &&
		   !*p && pct <= 100) {
		d->mode = DATA_COMPRESS;
		d->compress_pct = (unsigned)pct;
	} else {
		static const char *const kinds[] = { "random", "zero" };

		strbuf_addf(err, "'%s' is not random, zero or compress:PCT "
			    "(0-100)", arg);
		add_suggestion(err, arg, kinds, 2);
		return -1;
	}
	return 0;
}

int job_apply_preset(const char *name, struct job_options *o,
		     struct strbuf *err)
{
	if (!strcmp(name, "blockdev-perftest")) {
		/* SCST's script: sequential write then read, 3 runs each. */
		job_parse_rw("write,read", o, err);
		job_parse_bs_sweep("512-64M", o, err);
		job_parse_iodepth("1", o, err);
		o->repeat = 3;
	} else if (!strcmp(name, "fio-4k")) {
		/* The popular three-test script: 4 KiB random, QD64. */
		job_parse_rw("randread,randrw,randwrite", o, err);
		job_parse_bs("4k", o, err);
		job_parse_iodepth("64", o, err);
		o->rwmixread = 75;
	} else if (!strcmp(name, "quick")) {
		/* A one-minute overview: 16 short runs. */
		job_parse_rw("read,write,randread,randwrite", o, err);
		job_parse_bs_sweep("4k,1M", o, err);
		job_parse_iodepth("32", o, err);
		o->runtime = 3;
		o->ramp = 0.5;
		o->repeat = 2;
	} else {
		static const char *const presets[] = {
			"blockdev-perftest", "fio-4k", "quick"
		};

		strbuf_addf(err, "unknown preset '%s' (blockdev-perftest, "
			    "fio-4k, quick)", name);
		add_suggestion(err, name, presets, 3);
		return -1;
	}
	return 0;
}

int job_writes(const struct job_options *o)
{
	for (size_t i = 0; i < o->nrw; i++)
		if (rw_mode_writes(o->rw[i]))
			return 1;
	return 0;
}
