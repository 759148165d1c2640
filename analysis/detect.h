/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Change points in a series of runs: E-divisive means (Matteson & James,
 * 2014) with a permutation significance test, in the two steps the Hunter
 * paper (Fleming et al., 2023) adds to make it usable on benchmark
 * histories -- as Apache Otava does; docs/analysis.md tells users.
 *
 *   split  overlapping windows of `window` runs (half a window apart);
 *          in each, E-divisive: the split (tau, kappa) with the largest
 *          energy statistic Q^, kept while a permutation test of that
 *          maximum (values shuffled within each segment, the maximum
 *          searched again) gives p <= 10 * alpha -- the "weak" change
 *          points;
 *   merge  each weak point tested between its neighbours (a permutation
 *          test of the energy distance of the runs before and after);
 *          the weakest removed, its neighbours tested again, until every
 *          point has p <= alpha and changes the mean by min_change.
 *
 * Deterministic: every permutation test draws from its own generator,
 * seeded from `seed` and the segment it tests, so the same history gives
 * the same answer, and a window the new runs do not reach is tested as
 * it was.  Noise-aware: a lone outlier is not a change point (shuffled,
 * it is as extreme wherever it lands).  Fast: Q^ of every split of a
 * window in O(window^2) by running sums, windows linear in the runs,
 * permutations stopped as soon as p can no longer reach the level.
 */
#ifndef STORAN_DETECT_H
#define STORAN_DETECT_H

#include <stddef.h>
#include <stdint.h>

struct detect_options {
	double alpha;		/* 0.001 */
	double min_change;	/* relative change of the mean: 0.05 */
	size_t window;		/* runs per window: 50 */
	uint64_t seed;
};

void detect_options_init(struct detect_options *o);

struct change_point {
	size_t index;		/* the first run of the new regime */
	double mean_before;	/* runs since the previous change point */
	double mean_after;	/* runs up to the next one */
	double p;		/* see p_kind */
	enum detect_p_kind {
		DETECT_P_PERMUTATION,	/* (b + 1) / (P + 1), b of P shuffles
					 * as extreme as the runs */
		DETECT_P_BOUND,		/* no shuffle was: 1 / (P + 1), the
					 * true p is at most that */
		DETECT_P_WELCH,		/* Welch's t-test: too few runs on a
					 * side for any permutation test to
					 * reach alpha (see detect.c) */
	} p_kind;
};

/* "permutation", "bound", "welch" */
const char *detect_p_kind_name(enum detect_p_kind k);

/*
 * The change points of x[0..n) (one value per run, oldest first), in
 * order; returns how many and sets *out (the caller frees it).
 */
size_t detect_change_points(const double *x, size_t n,
			    const struct detect_options *o,
			    struct change_point **out);

#endif
