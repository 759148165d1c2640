/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of the chart model share, and nothing outside them
 * sees: struct build (one chart being built from measurements), the
 * pseudo keys beside the experiment model's, and the steps and helpers
 * that one file calls in another.  plot/chart.h is the public API;
 * chart-build.c says which file takes which step.
 */
#ifndef STORAN_PLOT_CHART_PRIVATE_H
#define STORAN_PLOT_CHART_PRIVATE_H

#include "chart.h"
#include "../analysis/experiment.h"
#include "../core/keymap.h"

#include <stddef.h>
#include <stdint.h>

/* At most this many keys make the series (--series and what joins it). */
#define MAX_SERIES_KEYS 8

/* Pseudo keys beside the model's (EX_OP, EX_TOOL): the side, the metric. */
#define CK_SIDE (SIZE_MAX - 3)
#define CK_METRIC (SIZE_MAX - 4)

/*
 * One chart being built: the inputs and the spec, the selection, the
 * experiment model (built here, or the caller's), the measurements drawn
 * and the keys chosen for x and the series.  Lives for one chart_build*
 * call (chart-build.c), which frees what it owns.
 */
struct build {
	const struct result_set *sets;
	size_t nsets;
	const struct chart_spec *spec;
	unsigned char **sel;	/* [set][measurement] */
	size_t nsel;
	const struct experiment *ex;	/* the model: own, or the caller's */
	struct experiment own;
	int have_own;
	size_t *mem;		/* the measurements drawn: indices into ex */
	size_t nmem;
	unsigned char *in;	/* [ex index]: drawn */
	size_t x;			/* a key of the model, or a pseudo key */
	size_t skeys[MAX_SERIES_KEYS];
	size_t nskeys;
	char *ratio_parts[3];		/* --ratio KEY=A/KEY=B */
	int pct;	/* points from FAMILY.pNN metrics: x is the percentile */
	int hist;	/* points from histograms */
	int sided;	/* several sides: "input" names them */
	int category;	/* x is a category axis (chart_choose_kind) */
};

/* The series of measurement i, added when new (series in key order). */
struct series_map {
	struct keymap map;
	size_t *first;		/* per series: a measurement of it */
	size_t n, alloc;
};

/* chart.c: the pieces every step adds; notes are for the user to hear,
 * a point starts with no whisker, box or test (NAN, sig -1). */
__attribute__((format(printf, 2, 3)))
void chart_add_note(struct chart *c, const char *fmt, ...);
void chart_add_tick(struct chart_axis *a, double pos, const char *label);
struct chart_point *chart_add_point(struct chart_series *s, double x);

/* chart-text.c: "clat.p99.9" -> 99.9 of family "clat" (0: not one);
 * the title, subtitle, footer and axis titles of a built chart. */
int chart_metric_percentile(const char *metric, const char *family,
			    double *p);
void chart_titles(struct chart *c, const struct build *b);

/* chart-ticks.c: tick layouts over [lo, hi]; each sets the axis's range
 * (is_y: labels in the y unit's style, 61.2k for IOPS). */
void chart_linear_ticks(struct chart *c, struct chart_axis *a, double lo,
			double hi, int is_y);
void chart_log10_ticks(struct chart *c, struct chart_axis *a, double lo,
		       double hi, int is_y);
void chart_ratio_log_ticks(struct chart_axis *a, double lo, double hi);
void chart_log2_ticks(struct chart *c, double lo, double hi);
void chart_nines_ticks(struct chart *c, double lo, double hi);

/* chart-keys.c: codes of a key (k: a key of the model, or CK_*) and
 * the choice of x, the series and the kind. */
uint64_t chart_key_code(const struct build *b, size_t i, size_t k);
double chart_code_number(const struct build *b, size_t k, uint64_t code);
int chart_key_numeric(const struct build *b, size_t k);
int chart_key_is_sizes(const struct build *b, size_t k);
double chart_code_order(const struct build *b, size_t k, uint64_t code,
			size_t i);
const char *chart_key_name(const struct build *b, size_t k);
const char *chart_code_text(const struct build *b, size_t k,
			    uint64_t code, char *buf, size_t size);
int chart_key_varies(const struct build *b, size_t k);
int chart_choose_keys(struct chart *c, struct build *b,
		      struct strbuf *err);
void chart_choose_kind(struct chart *c, struct build *b);

/* chart-points.c: the series of measurement i (added when new); the
 * points of the chart, sorted by x; the members it records. */
size_t chart_series_of(struct chart *c, struct series_map *sm,
		       const struct build *b, size_t i, struct strbuf *sb);
void chart_build_points(struct chart *c, struct build *b);
void chart_record_members(struct chart *c, const struct build *b);

/* chart-curves.c: a CDF or percentile curve a series, from histograms. */
void chart_histogram_points(struct chart *c, const struct build *b,
			    struct series_map *sm);

/* chart-axes.c: once the points are in: the y unit (points scaled into
 * it), then each axis's scale, range and ticks. */
int chart_choose_y_unit(struct chart *c, const struct chart_spec *spec,
			const char *base_unit, struct strbuf *err);
void chart_y_axis(struct chart *c, const struct chart_spec *spec);
void chart_cdf_x_unit(struct chart *c, const char *base_unit);
void chart_x_axis(struct chart *c, const struct build *b);

#endif
