/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The layout of storan/1 binary (docs/result-format.md), for its writer
 * (rs-bin.c) and its reader (rs-bin-read.c) only.
 */
#ifndef STORAN_RS_BIN_LAYOUT_H
#define STORAN_RS_BIN_LAYOUT_H

#include <stddef.h>

enum rs_bin_section {
	SEC_META = 1,		/* generator: u32 string, u32 0 */
	SEC_STRINGS,		/* NUL-ended strings; a string is its offset */
	SEC_LABELS,		/* u32 words: count, then key, value pairs */
	SEC_SOURCES,		/* SOURCE_BYTES a source */
	SEC_DROPS,		/* DROP_BYTES a cache drop */
	SEC_MEASUREMENTS,	/* MEASUREMENT_BYTES a measurement */
	SEC_VALUES,		/* f64: each measurement's values in turn */
	SEC_SUMMARIES,		/* SUMMARY_BYTES a summary */
	SEC_HISTOGRAMS,		/* u64 n, f64 value[n], u64 count[n] */
	SEC_SERIES,		/* see put_series() */
	SEC_KINDS
};

#define NO_STRING 0xffffffffu	/* no string */
#define HEADER_BYTES 16		/* magic, version, sections */
#define ENTRY_BYTES 24		/* kind, 0, offset, size */
#define SOURCE_BYTES 24		/* path, format, tool_version, sha256,
				 * labels, 0 */
#define DROP_BYTES 16		/* source, name, line, 0 */
#define MEASUREMENT_BYTES 48	/* tool, op, metric, unit, source_name,
				 * labels, source, line, flags, 0 (u32);
				 * values (u64) */
#define SUMMARY_BYTES 48	/* n, mean, stddev, min, max (f64),
				 * stddev_population, 0 (u32) */
#define SERIES_HEAD_BYTES 32	/* interval (f64), points, buckets, bin
				 * bytes (u64) */
enum measurement_flags { HAS_SUMMARY = 1, HAS_HISTOGRAM = 2, HAS_SERIES = 4 };

static inline size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

#endif
