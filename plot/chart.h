/*
 * The chart model: what a chart shows, as data, before anything is drawn.
 *
 * chart_build() turns a result set and a chart_spec (the user's options,
 * most of them "choose for me") into a struct chart: axes with their scale,
 * range, ticks and titles; series of points in display units; a title,
 * subtitle and footer.  Every decision about a chart -- which key goes on
 * x, which makes the series, log axis or not, units, tick positions and
 * labels, error bars -- is taken here, so that it can be tested as data.
 * The renderers (plot/cairo.c, plot/xlsx.c) only draw what the model says.
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
	const char *title, *subtitle;
};

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

struct chart_point {
	double x, y;
	double lo, hi;		/* error bar, NAN when none */
	size_t n;		/* repetitions behind y */
	double box[5];		/* CHART_BOX: min, q1, median, q3, max */
};

struct chart_series {
	char *name;		/* "" for the only, unnamed series */
	struct chart_point *p;
	size_t n, alloc;
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
	char **notes;			/* things the user should hear */
	size_t nnotes, notes_alloc;
};

void chart_init(struct chart *c);
void chart_release(struct chart *c);

/*
 * Builds c from the measurements of rs that spec selects.  Returns 0, or
 * -1 with a one-line reason in err (nothing matched, a bad --ratio...).
 */
int chart_build(struct chart *c, const struct result_set *rs,
		const struct chart_spec *spec, struct strbuf *err);

/* Where v lies on the axis, 0 (min) to 1 (max); log axes clamp v > 0. */
double chart_axis_frac(const struct chart_axis *a, double v);

/* Formats a y value as the model's tick labels do ("61.2k", "239"). */
char *chart_format_y(const struct chart *c, double v, char *buf, size_t size);
/* Formats an x value: "4K", "p99.9", a category name, "32". */
char *chart_format_x(const struct chart *c, double x, char *buf, size_t size);

/* The x key chart_build would choose on its own ("bs", "op"...). */
const char *chart_pick_x(const struct result_set *rs,
			 const unsigned char *selected);

/*
 * Keys that vary among the selected measurements and say something that
 * the keys in chosen[0..nchosen) do not (a key that only restates another,
 * like source beside host, is left out).  Fills keys (strings owned by
 * rs) in order of preference and returns how many.
 */
size_t chart_varying_keys(const struct result_set *rs,
			  const unsigned char *selected,
			  const char **chosen, size_t nchosen,
			  const char **keys, size_t max);

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
};

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
