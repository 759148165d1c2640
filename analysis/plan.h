/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report's plan: which charts answer what the data asks, decided from
 * the experiment model (experiment.h), before anything is drawn.
 *
 * For each tool and metric group, in the order a reader wants them
 * (throughput, IOPS, mean latency, latency percentiles, distributions,
 * elapsed time), the plan builds one model of the measurements and asks
 * it which keys tell them apart.  Then:
 *
 *   - x is the first numeric key with three values or more (a block size,
 *     a depth, a job count), else the first key that tells them apart,
 *     else the op;
 *   - with several sides (report A B, --compare KEY, --ratio) the sides
 *     are the series, and a ratio chart per candidate comes first (side
 *     k over side 0, match by match, with its interval and significance);
 *     with one, the next key is the series -- unless it has more values
 *     than a chart has colours, or its values differ tenfold (a cached
 *     read beside a disk read), when it becomes a facet;
 *   - every other key that still tells measurements apart is a facet: a
 *     chart per value combination; more than MAX_FACETS combinations are
 *     cut down by pinning the key with the most values to one value (the
 *     largest file size, 4 KiB blocks), with a note saying so;
 *   - latency percentiles and distributions are shown at one block size
 *     (4 KiB, else the smallest), as latency is quoted.
 *
 * No chart ever pools what the model keeps apart: a chart's members are
 * whole groups, and the keys not on x or in the series are pinned.
 */
#ifndef STORAN_PLAN_H
#define STORAN_PLAN_H

#include <stddef.h>

#include "experiment.h"
#include "../core/filter.h"
#include "../core/resultset.h"

#define PLAN_MAX_FACETS 12
#define PLAN_MAX_SERIES 8

enum plan_kind {
	PLAN_BARS_OR_LINES,	/* an exact metric: bars, or lines over x */
	PLAN_PERCENTILES,	/* latency percentiles: from FAMILY.pNN */
	PLAN_HIST_PERCENTILES,	/* latency percentiles: from histograms */
	PLAN_CDF,		/* a distribution: from histograms */
};

struct plan_model {
	struct experiment ex;
	char *tool;
	char *metric;		/* the metric, or the latency family */
	enum plan_kind kind;
};

struct plan_chart {
	char *name;		/* file stem, unnumbered: "fio-bw-iodepth-32" */
	size_t model;		/* index into plan.models */
	size_t *members;	/* of that model's measurements */
	size_t nmembers;
	char *x;		/* key names (NULL: the chart chooses) */
	char *series;
	size_t ratio_side;	/* 0, or k: side k over side 0 */
	char *facets;		/* "bs=4K, iodepth=32", or NULL */
};

struct plan_options {
	const struct filter *where;
	char **metrics;		/* --metric: only these (NULL: the groups) */
	size_t nmetrics;
	char **pool;		/* --pool */
	size_t npool;
	const char *side_key;	/* --compare KEY, or --ratio's key */
	const char *side_a, *side_b;	/* --ratio: KEY=A / KEY=B */
	const char *series;	/* --series: the user's series key */
	char *const *set_names;	/* experiment_options' */
};

struct plan {
	struct plan_model *models;
	size_t nmodels, models_alloc;
	struct plan_chart *charts;
	size_t ncharts, charts_alloc;
	size_t nsides;		/* of the first model: 2+ is a comparison */
	char **side_names;	/* [nsides] */
	char *side_key;		/* the label naming the sides, or NULL
				 * (each input a side); set by the caller */
	char **notes;		/* what the plan left out, and why */
	size_t nnotes, notes_alloc;
};

/*
 * Plans the charts of the measurements of sets[0..nsets), each set a
 * side (unless opt names a side key).  Returns 0, or -1 with err set (a
 * bad --compare key) or nothing to chart (err empty).
 */
int plan_build(struct plan *p, const struct result_set *sets, size_t nsets,
	       const struct plan_options *opt, struct strbuf *err);
void plan_release(struct plan *p);

#endif
