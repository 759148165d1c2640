/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What fio's three parsers (fio-text.c, fio-json.c, fio-terse.c) and its
 * log reader (fio-log.c) share: the operation a direction of a job is
 * filed under, the metric name of a percentile as fio wrote it, fio's
 * size and number suffixes, the tool version, and fio's latency histogram
 * (the JSON+ "bins") with the percentile computation fio itself runs.
 *
 * Invariants: nothing here keeps a pointer into the input; every function
 * is pure except the emit helpers, which append to the parse context.
 */
#ifndef STORAN_FIO_COMMON_H
#define STORAN_FIO_COMMON_H

#include "parser.h"
#include "../core/keymap.h"
#include "../core/strbuf.h"

#include <stddef.h>
#include <stdint.h>

enum fio_dir {
	FIO_READ,
	FIO_WRITE,
	FIO_TRIM,
	FIO_SYNC,	/* fsync/fdatasync section of an fsync=/fdatasync= job */
	FIO_MIXED,	/* unified_rw_reporting: one section for all */
	FIO_NDIRS
};

/* "read", "write", "trim", "sync", "mixed". */
const char *fio_dir_name(enum fio_dir d);

/*
 * The direction word at *p -- "read", "write", "trim", "mixed" of a job's
 * report, or with upper "READ:" ... of a group's status line (colon
 * included) -- skipped; the direction, or -1.
 */
int fio_skip_direction(const char **p, int upper);

/*
 * The op a direction is filed under, given the job's rw= value (NULL or
 * "" when unknown): randread/randwrite/randtrim when the pattern is random
 * and includes the direction, else the direction itself.  "rw=randread:8"
 * counts as randread.
 */
const char *fio_op(const char *rw, enum fio_dir d);

/*
 * The metric of a percentile, "clat.p99.9" from prefix "clat" and the
 * percentile as fio wrote it ("99.90", "99.900000", "50.00" -> "p50"):
 * trailing zeros and a trailing point dropped.  Returns -1 when the
 * text is not a decimal number (len bytes from s).
 */
int fio_pct_metric(struct strbuf *out, const char *prefix, const char *s,
		   size_t len);

/*
 * fio's size options and header sizes: "4096", "4k", "4K", "4KiB",
 * "16.0KiB", "1m", "4096B" -- every prefix is a power of 1024, as in
 * fio's own option parser (kb_base=1024, the default).  The whole string
 * must be a size.  Returns -1 when it is not.
 */
int fio_parse_size(const char *s, size_t len, double *bytes);

/*
 * A number with fio's num2str suffix for plain counts: "61.2k", "3977.2k",
 * "28301K", "9862k", "1M" (powers of 1000).  Advances *p.
 */
int fio_scan_count(const char **p, double *out);

/*
 * v in a unit of unit seconds (1e-9 for nsec) -> seconds, dividing by the
 * exact power of ten (16320 / 1e9 is closer to 16.32 usec than 16320 *
 * 1e-9).
 */
double fio_seconds(double v, double unit);

/* Seconds per unit of a latency block: "nsec", "usec", "msec", "sec". */
double fio_lat_unit(const char *s, size_t len);

/*
 * Records fio's version ("fio-3.33", len bytes) for the input's source
 * when none is known yet.
 */
/* Where a terse record ("3;fio-3.33;job;...", also glued to a status
 * update) starts in line t, or NULL. */
const char *fio_terse_start(const char *t);

void fio_set_version(struct parse_ctx *ctx, const char *v, size_t len);

/*
 * A direction whose runtime fio measured as 0 (under 1 ms): fio computes
 * bandwidth and IOPS only when the runtime is not 0 and writes 0
 * otherwise (stat.c, JSON and terse), so those and the runtime are no
 * results; says so at line li.
 */
void fio_note_no_runtime(struct parse_ctx *ctx, size_t li, const char *op,
			 const struct labels *l);

/*
 * Emits one value with a copy of labels (may be NULL) and returns the
 * measurement.
 */
struct measurement *fio_emit(struct parse_ctx *ctx, size_t li,
			     const char *op, const char *metric,
			     const char *unit, double value,
			     const struct labels *labels);

/*
 * fio's latency histogram (stat.h): values are grouped by their most
 * significant bit into FIO_IO_U_PLAT_GROUP_NR groups of 2^bits buckets;
 * a bucket's value is the middle of its range.  fio_plat_idx_to_val() is
 * that mapping for bucket idx with `bits` index bits (6 in every fio).
 */
uint64_t fio_plat_idx_to_val(unsigned idx, unsigned bits);

/*
 * Percentile pct (0..100) of a histogram whose buckets are sorted by
 * value, computed the way fio's calc_clat_percentiles() does: the first
 * bucket at which the running count reaches pct/100 * total (in long
 * double, as fio's build computes it: quantile_rank_fio()), total being
 * the sum of the counts.  Takes the running counts (cum[i]: buckets 0..i) and
 * searches them (for many percentiles of one big histogram); the bucket
 * is the walk's (tests/unit/test-fio.c walks too, and compares).
 * Returns the bucket's value, 0 for an empty histogram.
 */
double fio_hist_percentile_cum(const double *value, const uint64_t *cum,
			       size_t n, double pct);

/*
 * The lines of an input worth a look for the functions below, found once
 * (a terse log of 5,000 jobs looked at every line for every job).
 */
struct fio_lines {
	size_t *reports, nreports;	/* "NAME: (groupid=G, ..." */
	size_t *headers, nheaders;	/* "NAME: (g=G): rw=..." */
};

void fio_lines_find(const struct input *in, struct fio_lines *fl);
void fio_lines_release(struct fio_lines *fl);

/*
 * Is there a normal-format job report "NAME: (groupid=G, ..." in the
 * input?  Terse lines of a run that was also printed in the normal format
 * (--output-format=normal,terse) are the same results twice.
 */
int fio_has_normal_report(const struct input *in, const struct fio_lines *fl,
			  const char *name, size_t len, long group);



/*
 * fio --output-format=normal,json (json,terse) prints one run twice: its
 * terse lines, then the JSON document, then the normal reports.  The
 * JSON says it more exactly (bytes, ns, every option) and fio-json has
 * read it by then, so the other copies are claimed without results.
 * A fio JSON document is found as the block of claimed lines from "{"
 * to "}" right above line li (blank lines between) or right below it
 * (blank and terse lines between), and its jobs indexed in one walk.
 */
struct fio_json_block {
	size_t first, last;	/* its lines */
	struct keymap *jobs;	/* "NAME\x1fGROUP" of its jobs */
	int has_disks;		/* a "disk_util" list */
	double time;		/* its "time" in seconds (timegm), or -1 */
};

/* 1 and *b (release with fio_json_block_release), or 0. */
int fio_json_block_above(const struct parse_ctx *ctx, size_t li,
			 struct fio_json_block *b);
/* The same below li; *stop is the line the search stopped at (records
 * before it find the same block, or none). */
int fio_json_block_below(const struct parse_ctx *ctx, size_t li,
			 struct fio_json_block *b, size_t *stop);
void fio_json_block_release(struct fio_json_block *b);
/*
 * Does the block hold job NAME of group G?  When date is not NULL (a
 * normal report's "Tue Dec  1 03:49:58 2026") and the document has a
 * "time", they must be the same within a second: a run after the JSON
 * one is a repeated run, not its copy.
 */
int fio_json_block_has_job(const struct fio_json_block *b, const char *name,
			   size_t len, long group, const char *date);

/* A job header "NAME: (g=G): rw=..., bs=..., ioengine=..., iodepth=N". */
struct fio_header {
	char *name;	/* a copy: the line may be a wrapped one joined */
	size_t name_len;
	long group;
	char *rw;
	char *bs[3];		/* per direction, bytes ("4096", "512-1024") */
	struct labels labels;	/* ioengine, iodepth */
};

/* Parses a header line; 0 on success (release with fio_header_release). */
int fio_header_parse(const char *t, struct fio_header *h);
void fio_header_release(struct fio_header *h);
/*
 * Sets rw, bs (of direction d) and the header's labels on l.
 */
void fio_header_labels(const struct fio_header *h, enum fio_dir d,
		       struct labels *l);
/* Finds the last header line of job NAME in group G in the input. */
int fio_find_header(const struct input *in, const struct fio_lines *fl,
		    const char *name, size_t len,
		    long group, struct fio_header *h);

/* Keeps in dst only the labels that src has with the same value. */
void fio_labels_intersect(struct labels *dst, const struct labels *src);

/*
 * Sets a job option as a label, the way fio's JSON "job options" and a
 * command line give it: readwrite -> rw, blocksize -> bs (in bytes when
 * it is one size), name/output options skipped (the job name is the job
 * label), a flag without value -> "1".
 */
void fio_option_label(struct labels *l, const char *key, size_t keylen,
		      const char *value);

/*
 * The options of a fio command line ("$ sudo fio --rw=randrw --bs=4k
 * --name=x", also "-rw=..." as Windows users type it) as labels, through
 * fio_option_label().  Returns -1 when the line runs no fio.
 */
int fio_command_labels(const char *line, struct labels *l);

#endif
