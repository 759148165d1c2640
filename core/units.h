/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit prefixes and the vocabulary of base units.
 *
 * storan stores every value in an SI base unit (B/s, 1/s, B, s, %) and
 * converts exactly once, in the parser, with the tool's own semantics: that
 * is why the prefix scanner takes the base explicitly instead of guessing
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

enum prefix_base {
	PREFIX_SI,	/* k/M/G are powers of 1000, Ki/Mi/Gi of 1024 */
	PREFIX_BINARY,	/* every prefix is a power of 1024 (hdparm, iozone) */
};

/*
 * Reads an optional multiplier prefix at *p ("k", "K", "M", "Gi", "T"...)
 * and an optional following 'B'.  Sets *factor (1 when there is no prefix)
 * and advances *p.  Returns 1 if a prefix or a 'B' was consumed, else 0.
 */
int scan_size_unit(const char **p, enum prefix_base base, double *factor);

/* Factor of one prefix letter (k, M, G, T, P, E; case-insensitive). */
double prefix_factor(char letter, int binary);

/* Is the metric one where a higher value is better (bw, iops)? */
int metric_higher_is_better(const char *metric);

/* Is u one of the base units above? */
int unit_is_base(const char *u);

/* The base unit a metric is stored in, or NULL when storan doesn't know it. */
const char *metric_unit(const char *metric);

#endif
