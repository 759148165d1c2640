/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit prefixes and the vocabulary of base units.
 *
 * storan stores every value in an SI base unit (B/s, 1/s, B, s, %) and
 * converts exactly once, in the parser, with the tool's own semantics: that
 * is why prefix_factor() takes the base explicitly instead of guessing
 * (hdparm's and fio 2.x's "MB" are 1024-based, GNU dd's are 1000-based).
 */
#ifndef STORAN_UNITS_H
#define STORAN_UNITS_H

#include <stdint.h>

#define UNIT_BW "B/s"
#define UNIT_IOPS "1/s"
#define UNIT_BYTES "B"
#define UNIT_SECONDS "s"
#define UNIT_PERCENT "%"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * 1024.0 * 1024.0)

/*
 * Sizes as a user or fio's options write them: a number (no exponent),
 * an optional prefix k, m, g, t (and p with SIZE_PETA), any case, always
 * a power of 1024 as fio's kb_base=1024, then an optional "i" and an
 * optional byte mark "B": "4096", "4k", "1.5G", "16GiB", "512KB".  The
 * callers grew slightly different spellings around that core; the flags
 * keep each one's exactly (a flag only ever accepts more):
 */
enum size_flags {
	SIZE_PETA = 1 << 0,	/* "p"/"P" is a prefix too */
	SIZE_LONE_I = 1 << 1,	/* "Ki" with no B after it */
	SIZE_CAP_I = 1 << 2,	/* "KIB", "KI" */
	SIZE_LOWER_B = 1 << 3,	/* "b" is a byte as "B" is ("4kb", "4b") */
};

/*
 * Reads a size at *p as above and advances *p past it; what follows is
 * the caller's to judge (most want nothing).  *bytes is the number
 * times the prefix, not checked for sign or size.  0, or -1 when *p does
 * not start with a number (*p is not moved then).
 */
int scan_size(const char **p, unsigned flags, double *bytes);

/* Factor of one prefix letter (k, M, G, T, P, E; case-insensitive). */
double prefix_factor(char letter, int binary);

/* Is the metric one where a higher value is better (bw, iops)? */
int metric_higher_is_better(const char *metric);

/* Is u one of the base units above? */
int unit_is_base(const char *u);

/* The base unit a metric is stored in, or NULL when storan doesn't know it. */
const char *metric_unit(const char *metric);

#endif
