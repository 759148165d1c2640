/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Comparing a candidate result set with a baseline: matching, significance
 * tests and verdicts -- the engine of `storan compare` (docs/analysis.md
 * states the rules for users).
 *
 * Matching.  Measurements match on tool, op, metric and their labels,
 * except labels left out of the match:
 *   - identity labels: constant within the baseline and within the
 *     candidate but different between them (host=alpha vs host=beta; a
 *     label only one side has counts as different) -- they say which input
 *     is which, not under which conditions;
 *   - provenance labels (command, section, file): where a number came from;
 *   - whatever --ignore names.
 * --match KEYS instead matches on exactly those labels.  Measurements of one
 * input with the same key are pooled as repetitions.  Matching is hashed:
 * linear in the number of measurements.
 *
 * Verdicts, with change = (mean_b / mean_a - 1) * 100 and the metric's
 * direction (bw, iops: higher is better; latency and times: lower is):
 *   |change| <= threshold          -> unchanged
 *   both sides n >= 2              -> improvement or regression when
 *                                     p < alpha, else inconclusive
 *   either side n < 2              -> improvement or regression by the
 *                                     threshold alone (single_runs set)
 *   no direction known             -> inconclusive beyond the threshold
 * The test is Welch's t by default, Mann-Whitney U when both sides have at
 * least COMPARE_MW_MIN individual values (or on request).
 */
#ifndef STORAN_COMPARE_H
#define STORAN_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "../core/filter.h"
#include "../core/pool.h"
#include "../core/resultset.h"

/* With 8 runs a side Mann-Whitney can reach p < 0.05; with 3 it never can. */
#define COMPARE_MW_MIN 8

enum compare_test {
	COMPARE_TEST_AUTO,
	COMPARE_TEST_WELCH,
	COMPARE_TEST_MANN_WHITNEY,
};

enum verdict {
	VERDICT_IMPROVEMENT,
	VERDICT_REGRESSION,
	VERDICT_UNCHANGED,
	VERDICT_INCONCLUSIVE,
	VERDICT_COUNT
};

const char *verdict_name(enum verdict v);

/*
 * +1 when a higher value is better (bw, iops), -1 when lower is (latency,
 * times: any metric stored in seconds), 0 when storan cannot tell (bytes,
 * cpu.*, disk.util, unknown metrics).
 */
int compare_direction(const char *metric);

/*
 * Is the metric compared when --metric is not given?  Those with a
 * direction, except runtime (a test's set duration, or bytes / bw again).
 */
int compare_default_metric(const char *metric);

/*
 * The headline metrics `storan compare` shows unless told otherwise: bw,
 * iops, mean latency (lat.mean, clat.mean), its p99 (lat.p99, clat.p99)
 * and the times (time.real, time.user, time.sys).  Each is also a
 * compare_default_metric().
 */
int compare_headline_metric(const char *metric);

/* The verdict rules above; p NAN when no test could be made. */
enum verdict compare_verdict(double change_pct, int direction,
			     double threshold_pct, int tested, double p,
			     double alpha);

struct compare_options {
	double threshold;		/* percent */
	double alpha;
	enum compare_test test;
	char **metrics;		/* NULL: compare_default_metric(), or
				 * compare_headline_metric() if headline */
	size_t nmetrics;
	int headline;		/* with metrics NULL: the headline set
				 * (tail rows from histograms: p99 only) */
	const struct filter *where;	/* NULL: everything */
	char **match;		/* non-NULL: match on these labels */
	size_t nmatch;
	char **ignore;			/* more labels to leave out */
	size_t nignore;
};

/*
 * tool, op, metric and unit are the compared measurements' own (or a tail
 * row's metric in the result's pool); members are in the pool: a row
 * holds no memory of its own but its labels (shared with its neighbours
 * when they have the same).  A million rows were eight million mallocs.
 */
/*
 * A side's figures in a row: what the verdict, the tests and every output
 * use of its statistics (the whole struct stats twice made a row 296
 * bytes, a million rows 296 MB at compare's peak).
 */
struct compare_side {
	size_t n;
	double mean;
	double stddev;		/* NAN: n < 2, unknown */
};

struct compare_row {
	const char *tool, *op, *metric, *unit;
	struct labels labels;		/* the labels matched on */
	struct compare_side a, b;
	double ratio;		/* mean_b / mean_a; NAN if mean_a = 0 */
	double change_pct;
	double p;			/* NAN: no test */
	const char *test;		/* "welch", "mannwhitney", "none" */
	enum verdict verdict;
	/* (bytes: with the verdict, 8 bytes of a row, not 16) */
	unsigned char single_runs;	/* verdict by the threshold alone */
	unsigned char from_histogram;	/* a tail quantile of latency bins */
	/* per side: every observation an individual value (a rank test
	 * may take them) */
	unsigned char have_values[2];
	/* The measurements pooled on each side: indices into a and b (a
	 * model holds fewer than 2^32; 168 bytes a row, not 192: a million
	 * rows came while compare's checks still held their models). */
	size_t *members[2];
	uint32_t nmembers[2];
};

struct compare_unmatched {
	int in_candidate;		/* 0: only in the baseline */
	char *tool, *op, *metric, *source;
	struct labels labels;
	unsigned line;
};

struct compare_geomean {
	char *metric;
	double value;			/* geometric mean of the ratios */
	size_t n;
};

struct compare_result {
	struct labels identity_a, identity_b;	/* what tells them apart */
	char **ignored;		/* every label left out of the match */
	size_t nignored;
	struct compare_row *rows;	/* in the baseline's order */
	size_t nrows, rows_alloc;
	struct compare_unmatched *unmatched;
	size_t nunmatched, unmatched_alloc;
	size_t compared[2];	/* measurements of each side taking part */
	size_t pooled;		/* measurements pooled as repetitions */
	size_t split_tests;	/* tests one input shows under several of
				 * its headings: matched by section */
	size_t counts[VERDICT_COUNT];
	size_t single_runs;	/* rows resting on single runs */
	struct compare_geomean *geo;	/* per metric, first-seen order */
	size_t ngeo, geo_alloc;
	char **tail_notes;		/* "mean unchanged, tail regressed" */
	size_t ntail_notes, tail_alloc;
	struct pool pool;		/* the rows' member lists, tail metrics */
};

/* Compares b (candidate) with a (baseline) into out; out's rows point
 * into a and b, which must outlive it. */
void compare_sets(const struct result_set *a, const struct result_set *b,
		  const struct compare_options *opt,
		  struct compare_result *out);
/*
 * The same for side k against side 0 of the experiment model of sets
 * (each set a side), or of the values of side_key in them (--compare
 * KEY).  Row members index the result set their measurement is in.
 */
void compare_sides(const struct result_set *sets, size_t nsets,
		   const char *side_key, size_t k,
		   const struct compare_options *opt,
		   struct compare_result *out);
void compare_result_release(struct compare_result *r);

#endif
