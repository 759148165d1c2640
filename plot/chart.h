/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chart model: what a chart shows, as data, before anything is drawn.
 *
 * chart_build() turns a result set and a chart_spec (the user's options,
 * most of them "choose for me") into a struct chart: axes with their scale,
 * range, ticks and titles; series of points in display units; a title,
 * subtitle and footer.  Which measurements are one point, which keys tell
 * points apart and how a point is summarised are the experiment model's
 * (analysis/experiment.h): a point is one of its groups (repetitions of
 * one condition), never two; keys the user did not put on x or into the
 * series but that still tell points apart join the series.  What is
 * taken here is how to show it -- which key goes on x, log axis or not,
 * units, ticks, titles -- so that it can be tested as data.  The
 * renderers (plot/cairo.c, plot/xlsx.c) only draw what the model says.
 *
 * Whiskers follow the model's summaries: none for a single run, the two
 * values for two runs (never a t-interval from n = 2), the 95% interval
 * of the mean from three runs on (--errorbars sd and minmax on request).
 *
 * Invariants: points of a series are sorted by x; y, lo and hi are in the
 * y axis's display unit (lo/hi NAN when a point has no error bar); x is
 * the key's numeric value, or a category index on an AXIS_CATEGORY axis,
 * or "nines" (-log10(1 - p)) on an AXIS_NINES axis.  A chart owns all
 * its strings.
 */
#ifndef STORAN_PLOT_CHART_H
#define STORAN_PLOT_CHART_H

#include "../core/filter.h"
#include "../core/human.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"

#include <stddef.h>

enum chart_kind {
	CHART_AUTO,
	CHART_BAR,
	CHART_LINE,
	CHART_SCATTER,
	CHART_BOX,
	CHART_CDF,
	CHART_PERCENTILES,
};

enum chart_stat { CHART_STAT_MEAN, CHART_STAT_MEDIAN };

/* Where latency percentiles come from. */
enum chart_from {
	CHART_FROM_ANY,		/* histograms where there are, else FAMILY.pNN */
	CHART_FROM_METRICS,	/* only the FAMILY.pNN metrics */
	CHART_FROM_HISTOGRAMS,	/* only histograms */
};

enum chart_errorbars {
	CHART_ERR_AUTO,		/* 95% CI where there are repetitions */
	CHART_ERR_NONE,
	CHART_ERR_SD,
	CHART_ERR_CI,
	CHART_ERR_MINMAX,
};

enum axis_scale {
	AXIS_LINEAR,
	AXIS_LOG2,
	AXIS_LOG10,
	AXIS_CATEGORY,
	AXIS_NINES,		/* percentiles: p90 = 1, p99 = 2, p99.9 = 3 */
};

/* What the user asked for; NULL and *_AUTO mean "choose from the data". */
struct chart_spec {
	const char *y;			/* metric; a family (clat) for percentiles */
	const char *x, *series;		/* keys (filter.h) */
	const struct filter *where;	/* may be NULL */
	enum chart_kind kind;
	enum chart_from from;
	enum chart_stat stat;
	enum chart_errorbars errorbars;
	int log_x, log_y;
	const char *units;		/* a display unit name, "binary" or NULL */
	const char *ratio;		/* "key=A/key=B": chart A / B around 1.0 */
	const char *compare;		/* --compare KEY: its values are sides */
	const char *title, *subtitle;
	char **pool;			/* --pool: keys pooled on request */
	size_t npool;
	/* chart_build_sets(): the sets are sides ("input" is a key); a
	 * ratio chart of side ratio_side over side 0 when set */
	size_t ratio_side;
	double alpha;			/* ratio marks: p < alpha (0: 0.05) */
	/* members are indices into base (the sets are views into it) */
	const struct result_set *base;
};

/* The key that names the sides (inputs of a report, --compare values). */
#define CHART_SIDE_KEY "input"

struct chart_tick {
	double pos;
	char *label;
};

struct chart_axis {
	enum axis_scale scale;
	double min, max;	/* the range shown, in axis coordinates */
	char *title;
	char *key;		/* x: the key it shows */
	int size_key;		/* x: values are byte sizes (human_size labels) */
	struct chart_tick *ticks;
	size_t nticks, ticks_alloc;
	char **cat;		/* AXIS_CATEGORY: category names, by index */
	size_t ncat, cat_alloc;
	struct display_unit unit;	/* y: the display unit */
};

enum point_bar {
	BAR_NONE,		/* a single run, or none asked for */
	BAR_BOTH,		/* two runs: lo and hi are the two values */
	BAR_INTERVAL,		/* the 95% confidence interval of the mean */
	BAR_SD,			/* +- one standard deviation (asked for) */
	BAR_RANGE,		/* min to max (asked for) */
};

struct chart_point {
	double x, y;
	double lo, hi;		/* error bar, NAN when none */
	enum point_bar bar;	/* what lo and hi are */
	size_t n;		/* repetitions behind y */
	double box[5];		/* CHART_BOX: min, q1, median, q3, max */
	int sig;		/* ratio: 1 significant, 0 not, -1 untested */
	double p;		/* ratio: the test's p-value, NAN untested */
	size_t member;		/* one measurement of the point (SIZE_MAX) */
	/* every measurement behind it (both sides of a ratio):
	 * chart.point_members[first .. first + nmembers) */
	size_t first, nmembers;
};

struct chart_series {
	char *name;		/* "" for the only, unnamed series */
	struct chart_point *p;
	size_t n, alloc;
};

/* A stretch of x shaded behind a series (a steady-state window), the
 * whole height, or from lo to hi (y axis coordinates) when they are
 * finite: the series' own range there, where several bands overlap. */
struct chart_band {
	double from, to;	/* x axis coordinates */
	size_t series;		/* whose colour */
	double lo, hi;		/* y range, NAN: the whole height */
};

struct chart {
	enum chart_kind kind;
	enum chart_errorbars errorbars;	/* never AUTO once built */
	char *title, *subtitle, *footer;
	char *metric;			/* the y metric (or family) */
	char *source_names;		/* "a.json, b.txt" */
	struct chart_axis x, y;
	struct chart_series *series;
	size_t nseries, series_alloc;
	double baseline;		/* bars grow from it: 0, or 1 for ratios */
	int ratio;			/* y is a ratio A / B */
	size_t *members;		/* indices of the measurements drawn */
	size_t nmembers;
	size_t *point_members;		/* see chart_point.first */
	size_t npoint_members, point_members_alloc;
	int bars;			/* kinds of whiskers drawn (1 << bar) */
	double alpha;			/* ratio marks: p < alpha */
	char *pooled;			/* what --pool pooled, or NULL */
	char **notes;			/* things the user should hear */
	size_t nnotes, notes_alloc;
	struct chart_band *bands;	/* shaded, under the lines */
	size_t nbands, bands_alloc;
};

void chart_init(struct chart *c);
void chart_release(struct chart *c);

/*
 * Builds c from the measurements of rs that spec selects.  Returns 0, or
 * -1 with a one-line reason in err (nothing matched, a bad --ratio, a key
 * that no measurement has: "did you mean ...").
 */
int chart_build(struct chart *c, const struct result_set *rs,
		const struct chart_spec *spec, struct strbuf *err);
/*
 * The same over several result sets, each one side (a report's inputs):
 * the key "input" tells them apart, and spec->ratio_side charts the
 * ratio of that side to side 0 over the experiment model's matches.
 */
int chart_build_sets(struct chart *c, const struct result_set *sets,
		     size_t nsets, const struct chart_spec *spec,
		     struct strbuf *err);
/*
 * From a model the caller built (the report: one model per tool and
 * metric, charts of parts of it): the measurements members[0..n) of ex
 * (indices into ex->m; whole groups), drawn as spec says (spec->y
 * names the metric or family, spec->where is not looked at again).
 */
struct experiment;
int chart_build_model(struct chart *c, const struct experiment *ex,
		      const size_t *members, size_t n,
		      const struct chart_spec *spec, struct strbuf *err);

/*
 * For charts built by hand (plot/timechart.c: samples over time): a
 * series, a point of it (no whisker, n 1), a shaded band, and an axis
 * over [lo, hi] with nice ticks, linear or log10 (is_y: the y axis,
 * whose unit must be set first).
 */
struct chart_series *chart_new_series(struct chart *c, const char *name);
struct chart_point *chart_new_point(struct chart_series *s, double x,
				    double y);
void chart_add_band(struct chart *c, size_t series, double from, double to);
void chart_axis_ticks(struct chart *c, struct chart_axis *a, double lo,
		      double hi, int log10_scale, int is_y);

/* Where v lies on the axis, 0 (min) to 1 (max); log axes clamp v > 0. */
double chart_axis_frac(const struct chart_axis *a, double v);

/* Formats a y value as the model's tick labels do ("61.2k", "239"). */
char *chart_format_y(const struct chart *c, double v, char *buf, size_t size);
/* Formats an x value: "4K", "p99.9", a category name, "32". */
char *chart_format_x(const struct chart *c, double x, char *buf, size_t size);

/* Readable names: "bw" -> "Throughput", "bs" -> "Block size". */
const char *chart_metric_title(const char *metric, char *buf, size_t size);
const char *chart_key_title(const char *key);

/* The Okabe-Ito palette, in the order series take it. */
#define CHART_NCOLORS 8
extern const unsigned char chart_palette[CHART_NCOLORS][3];

/* Rendering (plot/cairo.c). */
enum chart_format { CHART_PNG, CHART_SVG, CHART_PDF };

/* A file named on the command line, for provenance. */
struct chart_input {
	char *name;
	char sha256[65];	/* "" when it could not be read again */
	int binary;		/* a storan/1 binary result set */
};

/* Names and hashes paths[0..n) ("-" is "stdin", unhashed); caller frees. */
struct chart_input *chart_inputs(char *const *paths, int n);
void chart_inputs_free(struct chart_input *in, int n);

struct chart_render_opts {
	double width, height;	/* logical pixels (points in SVG and PDF) */
	double scale;		/* PNG only: device pixels per logical pixel */
	const char *command_line;
	const struct chart_input *inputs;	/* the files named */
	int ninputs;
	const struct result_set *rs;	/* the sources recorded in the data */
	/* PNG only: where the pixels go, kept by the caller from one chart
	 * to the next (NULL: a fresh image each chart).  A report's fresh
	 * 9 MB image a chart was a quarter of its page faults. */
	struct chart_pixels *pixels;
};

struct chart_pixels {
	unsigned char *data;
	size_t size;
};

void chart_pixels_release(struct chart_pixels *px);

/* .png .svg .pdf -> format; -1 for anything else. */
int chart_format_from_path(const char *path, enum chart_format *f);
/*
 * Releases the font caches cairo and fontconfig keep between charts; call
 * once, after the last chart_render (keeps leak checkers quiet).
 */
void chart_render_done(void);
/* Draws c into out (a whole file); 0, or -1 after error(). */
int chart_render(const struct chart *c, enum chart_format f,
		 const struct chart_render_opts *o, struct strbuf *out);

#endif
