/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The cairo renderer: draws a chart model (chart.h) as PNG, SVG or PDF.
 *
 * It decides nothing about the data -- scales, ticks, labels and points
 * all come from the model -- only where things go on the page: title,
 * subtitle, a legend row above the plot (so it never covers data), the
 * plot area with light grid lines, axis titles, and a footer naming the
 * data source.  Text is DejaVu Sans through fontconfig, with hinted
 * metrics off so that PNG, SVG and PDF lay out alike.  Series take the
 * Okabe-Ito colours (chart_palette) in order.
 *
 * Provenance goes into each file: PNG tEXt chunks (iTXt when a string is
 * not Latin-1) right after IHDR (storan encodes the PNG itself), an SVG <metadata> element, PDF document
 * metadata.  Every file is built in memory; the caller writes it whole.
 *
 * An SVG carries its words as <text>, not as cairo's glyph outlines: a
 * reader can select, search and translate them, a screen reader can read
 * them, and a blog's stylesheet can restyle them.  The layout is still
 * cairo's (the same metrics as the PNG); only the drawing of text is
 * recorded instead (struct svg_text) and written after the shapes.
 */
#include "chart.h"
#include "gfx.h"
#include "../core/input.h"
#include "../core/rs-bin.h"
#include "../core/sha256.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <zlib.h>
#include <string.h>

#define FONT "DejaVu Sans"
#define MARGIN 28.0
/* Type sizes in logical pixels: a report shows a chart 1200 wide in a
 * page read 800 wide (0.64), where 16 is 10 pixels, the least that reads
 * well; the title and the subtitle a step above. */
#define FONT_TITLE 28
#define FONT_SUBTITLE 19
#define FONT_LABEL 17	/* axis titles, the legend */
#define FONT_TICK 16
#define FONT_SMALL 14	/* the footer, the value labels */

struct canvas {
	cairo_t *cr;
	const struct chart *c;
	double w, h;
	double px0, px1, py0, py1;	/* the plot area */
	double legend_y;
	int rotate_x;			/* x labels too wide: draw them slanted */
	int wrap_x;			/* ... or on up to WRAP_LINES lines */
};

/* ---- text -------------------------------------------------------------- */

/* The text of an SVG, as <text> elements, and the style the drawing code
 * last chose (font() and grey()/color() record it here too).  It hangs on
 * the cairo context as user data: the drawing code passes only cr. */
struct svg_text {
	struct strbuf out;
	double size;
	int bold;
	unsigned char rgb[3];
	int clipped;			/* inside the plot area's clip */
};

static const cairo_user_data_key_t svg_text_key;

static struct svg_text *svg_text_of(cairo_t *cr)
{
	return gfx.cairo_get_user_data(cr, &svg_text_key);
}

static void font(cairo_t *cr, double size, int bold)
{
	struct svg_text *t = svg_text_of(cr);

	gfx.cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD :
			       CAIRO_FONT_WEIGHT_NORMAL);
	gfx.cairo_set_font_size(cr, size);
	if (t) {
		t->size = size;
		t->bold = bold;
	}
}

static void text_colour(cairo_t *cr, double r, double g, double b)
{
	struct svg_text *t = svg_text_of(cr);

	if (t) {
		t->rgb[0] = (unsigned char)lround(r * 255);
		t->rgb[1] = (unsigned char)lround(g * 255);
		t->rgb[2] = (unsigned char)lround(b * 255);
	}
}

static double text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;

	gfx.cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

static void grey(cairo_t *cr, double v)
{
	gfx.cairo_set_source_rgb(cr, v, v, v);
	text_colour(cr, v, v, v);
}

/* Past the eighth series colours repeat: the repeats are dashed. */
static void dash(cairo_t *cr, size_t i)
{
	static const double d[] = { 7, 4 };

	gfx.cairo_set_dash(cr, d, i / CHART_NCOLORS % 2 ? 2 : 0, 0);
}

static void color(cairo_t *cr, size_t i, double alpha)
{
	const unsigned char *p = chart_palette[i % CHART_NCOLORS];

	gfx.cairo_set_source_rgba(cr, p[0] / 255.0, p[1] / 255.0, p[2] / 255.0,
			      alpha);
	text_colour(cr, p[0] / 255.0, p[1] / 255.0, p[2] / 255.0);
}

/* A bar (or its legend swatch) of series i.  Past the eighth series the
 * colours repeat; the repeats are hatched with white stripes, as the
 * lines are dashed, so that no two series look alike. */
static void fill_bar(cairo_t *cr, size_t i, double x, double y, double w,
		     double h)
{
	double top = fmin(y, y + h), height = fabs(h);

	color(cr, i, 1);
	gfx.cairo_rectangle(cr, x, y, w, h);
	gfx.cairo_fill(cr);
	if (i / CHART_NCOLORS % 2 == 0)
		return;
	gfx.cairo_save(cr);
	gfx.cairo_rectangle(cr, x, y, w, h);
	gfx.cairo_clip(cr);
	gfx.cairo_set_source_rgb(cr, 1, 1, 1);
	gfx.cairo_set_line_width(cr, 2);
	for (double d = -height; d < fabs(w); d += 7) {	/* 45 degrees */
		gfx.cairo_move_to(cr, x + d, top + height);
		gfx.cairo_line_to(cr, x + d + height, top);
	}
	gfx.cairo_stroke(cr);
	gfx.cairo_restore(cr);
}

static void svg_text_add(struct svg_text *t, double x, double y,
			 double degrees, double align, const char *s)
{
	strbuf_addf(&t->out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%g\"",
		    x, y, t->size);
	if (t->bold)
		strbuf_adds(&t->out, " font-weight=\"bold\"");
	strbuf_addf(&t->out, " fill=\"#%02x%02x%02x\"", t->rgb[0], t->rgb[1],
		    t->rgb[2]);
	/* the anchor, not a start measured with DejaVu's widths, so that a
	 * viewer without DejaVu Sans still centres and right-aligns */
	if (align > 0.75)
		strbuf_adds(&t->out, " text-anchor=\"end\"");
	else if (align > 0.25)
		strbuf_adds(&t->out, " text-anchor=\"middle\"");
	if (fabs(degrees) > 0)
		strbuf_addf(&t->out, " transform=\"rotate(%g %.2f %.2f)\"",
			    degrees, x, y);
	if (t->clipped)
		strbuf_adds(&t->out, " clip-path=\"url(#storan-plot-area)\"");
	strbuf_adds(&t->out, ">");
	strbuf_add_markup(&t->out, s);
	strbuf_adds(&t->out, "</text>\n");
}

/* Draws s with its baseline at (x, y), turned by degrees (counter-
 * clockwise, about that point); align 0 left, 0.5 centre, 1 right along
 * the baseline. */
static void text_turned(cairo_t *cr, double x, double y, double degrees,
			double align, const char *s)
{
	struct svg_text *t = svg_text_of(cr);

	if (t) {
		svg_text_add(t, x, y, -degrees, align, s);
		return;
	}
	gfx.cairo_save(cr);
	gfx.cairo_move_to(cr, x, y);
	gfx.cairo_rotate(cr, -degrees * M_PI / 180);
	gfx.cairo_rel_move_to(cr, -align * text_width(cr, s), 0);
	gfx.cairo_show_text(cr, s);
	gfx.cairo_restore(cr);
}

static void text_at(cairo_t *cr, double x, double y, double align,
		    const char *s)
{
	text_turned(cr, x, y, 0, align, s);
}

/* Shrinks the font until s fits in width (never below 60%). */
static void fit_font(cairo_t *cr, const char *s, double size, int bold,
		     double width)
{
	double f = size;

	font(cr, f, bold);
	while (text_width(cr, s) > width && f > size * 0.6) {
		f -= 1;
		font(cr, f, bold);
	}
}

/* ---- coordinates ------------------------------------------------------- */

static double map_x(const struct canvas *cv, double x)
{
	return cv->px0 + chart_axis_frac(&cv->c->x, x) * (cv->px1 - cv->px0);
}

static double map_y(const struct canvas *cv, double y)
{
	return cv->py1 - chart_axis_frac(&cv->c->y, y) * (cv->py1 - cv->py0);
}

/* Width of one category slot, and of one bar in it. */
static double slot_width(const struct canvas *cv)
{
	return (cv->px1 - cv->px0) / (cv->c->x.max - cv->c->x.min);
}

static double bar_width(const struct canvas *cv)
{
	size_t ns = cv->c->nseries ? cv->c->nseries : 1;
	double w = slot_width(cv) * 0.8 / (double)ns;

	/* two fat bars look like a poster, not a chart */
	return w < 140 ? w : 140;
}

/* Centre of series s's bar at category x. */
static double bar_x(const struct canvas *cv, size_t s, double x)
{
	size_t ns = cv->c->nseries ? cv->c->nseries : 1;

	return map_x(cv, x) - bar_width(cv) * (double)ns / 2 +
	       bar_width(cv) * ((double)s + 0.5);
}

/* ---- layout ------------------------------------------------------------ */

static int has_legend(const struct chart *c)
{
	return c->nseries > 1 || (c->nseries == 1 && *c->series[0].name);
}

/* Draws the legend rows from y (top) and returns the y below them. */
static double legend(struct canvas *cv, double y, int draw)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;
	double x = MARGIN, row = 27, sw = 26;
	int bars = c->kind == CHART_BAR || c->kind == CHART_BOX;

	if (!has_legend(c))
		return y;
	font(cr, FONT_LABEL, 0);
	for (size_t i = 0; i < c->nseries; i++) {
		const char *name = *c->series[i].name ? c->series[i].name : "-";
		double w = sw + 6 + text_width(cr, name) + 22;

		if (x + w > cv->w - MARGIN && x > MARGIN) {
			x = MARGIN;
			y += row;
		}
		if (draw) {
			color(cr, i, 1);
			if (bars) {
				fill_bar(cr, i, x + 6, y + 5, 14, 14);
			} else if (c->kind == CHART_SCATTER) {
				gfx.cairo_arc(cr, x + 12, y + 12, 5, 0, 2 * M_PI);
				gfx.cairo_fill(cr);
			} else {
				gfx.cairo_set_line_width(cr, 3);
				dash(cr, i);
				gfx.cairo_move_to(cr, x, y + 12);
				gfx.cairo_line_to(cr, x + sw - 4, y + 12);
				gfx.cairo_stroke(cr);
				dash(cr, 0);
			}
			grey(cr, 0.2);
			text_at(cr, x + sw + 6, y + 17, 0, name);
		}
		x += w;
	}
	return y + row;
}

static double max_tick_width(cairo_t *cr, const struct chart_axis *a)
{
	double w = 0;

	for (size_t i = 0; i < a->nticks; i++) {
		double t = text_width(cr, a->ticks[i].label);

		w = t > w ? t : w;
	}
	return w;
}

#define WRAP_LINES 3
#define WRAP_LEN 160

/*
 * Label s cut at spaces into lines of at most width; returns how many
 * lines it takes (more than WRAP_LINES: it does not fit), the lines in
 * out when out is not NULL.
 */
static size_t wrap_label(cairo_t *cr, const char *s, double width,
			 char out[WRAP_LINES][WRAP_LEN])
{
	char line[WRAP_LEN] = "", trial[2 * WRAP_LEN];
	size_t nlines = 0;

	while (*s) {
		size_t len = strcspn(s, " ");

		if (len >= WRAP_LEN)
			return WRAP_LINES + 1;
		snprintf(trial, sizeof(trial), "%s%s%.*s", line,
			 *line ? " " : "", (int)len, s);
		if (*line && (text_width(cr, trial) > width ||
			      strlen(trial) >= WRAP_LEN)) {
			if (out && nlines < WRAP_LINES)
				memcpy(out[nlines], line, sizeof(line));
			nlines++;
			snprintf(line, sizeof(line), "%.*s", (int)len, s);
		} else {
			memcpy(line, trial, strlen(trial) + 1);
		}
		if (text_width(cr, line) > width)
			return WRAP_LINES + 1;	/* one word too wide */
		s += len;
		s += strspn(s, " ");
	}
	if (*line) {
		if (out && nlines < WRAP_LINES)
			memcpy(out[nlines], line, sizeof(line));
		nlines++;
	}
	return nlines;
}

/* The lines the widest-wrapping category label takes at slot width, or 0
 * when one does not fit in WRAP_LINES. */
static size_t wrap_lines(cairo_t *cr, const struct chart_axis *a,
			 double slot)
{
	size_t most = 1;

	for (size_t i = 0; i < a->nticks; i++) {
		size_t n = wrap_label(cr, a->ticks[i].label, slot * 0.92, NULL);

		if (n > WRAP_LINES)
			return 0;
		most = n > most ? n : most;
	}
	return most;
}

static void layout(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;
	double y = MARGIN + 30, xlab_h = 30, slot;

	if (c->subtitle && *c->subtitle)
		y += 28;
	cv->legend_y = y + 10;
	y = legend(cv, cv->legend_y, 0);
	cv->py0 = y + 14;
	font(cr, FONT_TICK, 0);
	cv->px0 = MARGIN + 32 + max_tick_width(cr, &c->y) + 10;
	cv->px1 = cv->w - MARGIN;
	slot = c->x.nticks ? (cv->px1 - cv->px0) / (double)c->x.nticks : 0;
	if (c->x.scale == AXIS_CATEGORY && max_tick_width(cr, &c->x) > slot &&
	    wrap_lines(cr, &c->x, slot)) {
		/* long names (a post's headings) whole, on a few lines */
		cv->wrap_x = (int)wrap_lines(cr, &c->x, slot);
		xlab_h = 20.0 * cv->wrap_x + 12;
	} else if (c->x.scale == AXIS_CATEGORY &&
		   max_tick_width(cr, &c->x) > slot) {
		double w = max_tick_width(cr, &c->x);

		double first;

		cv->rotate_x = 1;
		w = w < 260 ? w : 260;
		xlab_h = w * 0.5 + 24;
		/* room on the left for the first label, slanted */
		first = MARGIN + w * 0.87 - (cv->px1 - cv->px0) /
			(double)c->x.nticks / 2;
		cv->px0 = first > cv->px0 ? first : cv->px0;
		if (xlab_h > cv->h / 4)
			xlab_h = cv->h / 4;
	}
	cv->py1 = cv->h - 26 - 40 - xlab_h;
}

/* ---- frame, axes, titles ----------------------------------------------- */

static void titles(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;
	double width = cv->w - 2 * MARGIN;
	char right[64];

	grey(cr, 0.1);
	fit_font(cr, c->title, FONT_TITLE, 1, width);
	text_at(cr, MARGIN, MARGIN + 20, 0, c->title);
	if (c->subtitle && *c->subtitle) {
		grey(cr, 0.35);
		fit_font(cr, c->subtitle, FONT_SUBTITLE, 0, width);
		text_at(cr, MARGIN, MARGIN + 52, 0, c->subtitle);
	}
	snprintf(right, sizeof(right), "storan %s", STORAN_VERSION);
	font(cr, FONT_SMALL, 0);
	grey(cr, 0.45);
	text_at(cr, cv->w - MARGIN, cv->h - 12, 1, right);
	fit_font(cr, c->footer, FONT_SMALL, 0,
		 width - text_width(cr, right) - 30);
	text_at(cr, MARGIN, cv->h - 12, 0, c->footer);
}

static void grid_and_y_axis(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;

	font(cr, FONT_TICK, 0);
	gfx.cairo_set_line_width(cr, 1);
	for (size_t i = 0; i < c->y.nticks; i++) {
		double y = round(map_y(cv, c->y.ticks[i].pos)) + 0.5;

		grey(cr, 0.9);
		gfx.cairo_move_to(cr, cv->px0, y);
		gfx.cairo_line_to(cr, cv->px1, y);
		gfx.cairo_stroke(cr);
		grey(cr, 0.3);
		text_at(cr, cv->px0 - 8, y + 5, 1, c->y.ticks[i].label);
	}
	if (c->x.scale != AXIS_CATEGORY) {
		grey(cr, 0.93);
		for (size_t i = 0; i < c->x.nticks; i++) {
			double x = round(map_x(cv, c->x.ticks[i].pos)) + 0.5;

			gfx.cairo_move_to(cr, x, cv->py0);
			gfx.cairo_line_to(cr, x, cv->py1);
			gfx.cairo_stroke(cr);
		}
	}
	/* the baseline bars grow from, darker: 0, or 1.0 for ratios */
	if ((c->y.scale == AXIS_LINEAR || (c->ratio &&
					    c->y.scale == AXIS_LOG10)) &&
	    !(c->baseline < c->y.min) && !(c->baseline > c->y.max)) {
		double y = round(map_y(cv, c->baseline)) + 0.5;

		grey(cr, c->ratio ? 0.15 : 0.35);
		gfx.cairo_set_line_width(cr, c->ratio ? 1.5 : 1.2);
		gfx.cairo_move_to(cr, cv->px0, y);
		gfx.cairo_line_to(cr, cv->px1, y);
		gfx.cairo_stroke(cr);
	}
	font(cr, FONT_LABEL, 0);
	grey(cr, 0.25);
	text_turned(cr, MARGIN + 12, (cv->py0 + cv->py1) / 2, 90, 0.5,
		    c->y.title);
}

/* s, cut with an ellipsis to fit width (UTF-8 safe: cuts before a lead). */
static const char *ellipsize(cairo_t *cr, const char *s, double width,
			     char *buf, size_t size)
{
	size_t n = strlen(s);

	if (text_width(cr, s) <= width)
		return s;
	if (n + 4 > size)
		n = size - 4;
	do {
		while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
		memcpy(buf, s, n);
		memcpy(buf + n, "\xe2\x80\xa6", 4);
	} while (n-- > 1 && text_width(cr, buf) > width);
	return buf;
}

/* Where a label w wide centred at x goes so that none of it leaves the
 * image: the last tick of a long time axis ("200000") was cut off. */
static double inside_canvas(const struct canvas *cv, double x, double w)
{
	double edge = 4;

	if (x + w / 2 > cv->w - edge)
		x = cv->w - edge - w / 2;
	if (x - w / 2 < edge)
		x = edge + w / 2;
	return x;
}

static void x_axis(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;
	char buf[256];

	font(cr, FONT_TICK, 0);
	grey(cr, 0.3);
	for (size_t i = 0; i < c->x.nticks; i++) {
		double x = map_x(cv, c->x.ticks[i].pos);
		const char *l = c->x.ticks[i].label;

		if (cv->wrap_x) {
			char lines[WRAP_LINES][WRAP_LEN];
			double slot = (cv->px1 - cv->px0) /
				      (double)c->x.nticks;
			size_t n = wrap_label(cr, l, slot * 0.92, lines);

			for (size_t k = 0; k < n && k < WRAP_LINES; k++)
				text_at(cr, x, cv->py1 + 24 + 20.0 * (double)k,
					0.5, lines[k]);
			continue;
		}
		if (!cv->rotate_x) {
			text_at(cr, inside_canvas(cv, x, text_width(cr, l)),
				cv->py1 + 24, 0.5, l);
			continue;
		}
		l = ellipsize(cr, l, 260, buf, sizeof(buf));
		text_turned(cr, x + 4, cv->py1 + 14, 30, 1, l);
	}
	font(cr, FONT_LABEL, 0);
	grey(cr, 0.25);
	text_at(cr, (cv->px0 + cv->px1) / 2, cv->h - 40, 0.5, c->x.title);
}

/* ---- data -------------------------------------------------------------- */

/* A whisker cut by the frame (an interval of three wild runs reaching
 * far past the data) ends in an arrow head: it goes on. */
static void arrow_head(cairo_t *cr, double x, double y, double dir)
{
	gfx.cairo_move_to(cr, x - 5, y - 7 * dir);
	gfx.cairo_line_to(cr, x, y);
	gfx.cairo_line_to(cr, x + 5, y - 7 * dir);
	gfx.cairo_stroke(cr);
}

/*
 * The whisker of a point: for two runs their two values, dots joined by
 * a thin line (never a t-interval); for an interval, a standard
 * deviation or a range, a line with caps.
 */
static void error_bar(struct canvas *cv, double x, const struct chart_point *p,
		      double cap)
{
	cairo_t *cr = cv->cr;
	double lo = p->lo, hi = p->hi, y0, y1;
	int cut_lo = 0, cut_hi = 0;

	if (isnan(lo) || isnan(hi) || p->bar == BAR_NONE)
		return;
	/* cut by the frame, on any axis (a log one too: an end at or
	 * below zero is below its frame) */
	if (!(hi <= cv->c->y.max)) {
		hi = cv->c->y.max;
		cut_hi = 1;
	}
	if (!(lo >= cv->c->y.min)) {
		lo = cv->c->y.min;
		cut_lo = 1;
	}
	y0 = map_y(cv, lo);
	y1 = map_y(cv, hi);
	if (p->bar == BAR_BOTH) {
		gfx.cairo_set_line_width(cr, 1.2);
		gfx.cairo_move_to(cr, x, y0);
		gfx.cairo_line_to(cr, x, y1);
		gfx.cairo_stroke(cr);
		gfx.cairo_new_sub_path(cr);
		gfx.cairo_arc(cr, x, y0, 3.2, 0, 2 * M_PI);
		gfx.cairo_new_sub_path(cr);
		gfx.cairo_arc(cr, x, y1, 3.2, 0, 2 * M_PI);
		gfx.cairo_fill(cr);
		return;
	}
	gfx.cairo_set_line_width(cr, 1.6);
	gfx.cairo_move_to(cr, x, y0);
	gfx.cairo_line_to(cr, x, y1);
	if (!cut_lo) {
		gfx.cairo_move_to(cr, x - cap, y0);
		gfx.cairo_line_to(cr, x + cap, y0);
	}
	if (!cut_hi) {
		gfx.cairo_move_to(cr, x - cap, y1);
		gfx.cairo_line_to(cr, x + cap, y1);
	}
	gfx.cairo_stroke(cr);
	if (cut_hi)
		arrow_head(cr, x, y1, -1);
	if (cut_lo)
		arrow_head(cr, x, y0, 1);
}

static void marker(cairo_t *cr, size_t s, double x, double y, double r)
{
	gfx.cairo_new_sub_path(cr);
	gfx.cairo_arc(cr, x, y, r, 0, 2 * M_PI);
	color(cr, s, 1);
	gfx.cairo_fill_preserve(cr);
	gfx.cairo_set_source_rgb(cr, 1, 1, 1);
	gfx.cairo_set_line_width(cr, 1.5);
	gfx.cairo_stroke(cr);
}

/*
 * Where series s sits beside the others at one x: with whiskers, the
 * series are set a few pixels apart (dodged), so that two whiskers at
 * one block size are two, not one on top of the other.
 */
static double dodge(const struct canvas *cv, size_t s)
{
	const struct chart *c = cv->c;

	if (!c->bars || c->nseries < 2 || c->kind == CHART_SCATTER)
		return 0;
	return ((double)s - (double)(c->nseries - 1) / 2) *
	       fmin(6, 24 / (double)c->nseries);
}

/* A ratio line's significant points carry the bars' "*", beside the
 * marker in the series' colour: a whisker's end near 1.0 cannot tell the
 * eye whether it clears the line. */
static void significance_marks(struct canvas *cv, size_t s, double dx)
{
	cairo_t *cr = cv->cr;
	const struct chart_series *se = &cv->c->series[s];

	font(cr, FONT_LABEL, 1);
	color(cr, s, 1);
	for (size_t i = 0; i < se->n; i++) {
		const struct chart_point *p = &se->p[i];

		if (p->sig == 1 && isfinite(p->y))
			text_at(cr, map_x(cv, p->x) + dx + 7,
				map_y(cv, p->y) - 5, 0, "*");
	}
}

static void draw_lines(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;

	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];
		int markers = se->n <= 40 || c->kind == CHART_SCATTER;
		double dx = dodge(cv, s);

		color(cr, s, 0.9);
		for (size_t i = 0; i < se->n; i++)
			error_bar(cv, map_x(cv, se->p[i].x) + dx, &se->p[i],
				  5);
		if (c->kind != CHART_SCATTER) {
			color(cr, s, 1);
			gfx.cairo_set_line_width(cr, 2.5);
			gfx.cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
			dash(cr, s);
			for (size_t i = 0; i < se->n; i++)
				gfx.cairo_line_to(cr, map_x(cv, se->p[i].x) +
						      dx,
					      map_y(cv, se->p[i].y));
			gfx.cairo_stroke(cr);
			dash(cr, 0);
		}
		for (size_t i = 0; markers && i < se->n; i++)
			marker(cr, s, map_x(cv, se->p[i].x) + dx,
			       map_y(cv, se->p[i].y), 4.5);
		if (c->ratio)
			significance_marks(cv, s, dx);
	}
}

/* Shaded stretches of x (steady-state windows), under the lines, in
 * their series' colour, light enough for the grid to show through. */
static void draw_bands(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;

	for (size_t i = 0; i < c->nbands; i++) {
		const struct chart_band *b = &c->bands[i];
		double x0 = map_x(cv, b->from);
		double x1 = map_x(cv, b->to);
		double y0 = cv->py0, y1 = cv->py1;

		if (isfinite(b->lo) && isfinite(b->hi)) {
			/* the series' own range: a tube around its line */
			y0 = fmax(cv->py0, map_y(cv, b->hi));
			y1 = fmin(cv->py1, map_y(cv, b->lo));
		}
		color(cr, b->series, isfinite(b->lo) ? 0.22 : 0.12);
		gfx.cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
		gfx.cairo_fill(cr);
	}
}

static size_t npoints(const struct chart *c)
{
	size_t n = 0;

	for (size_t s = 0; s < c->nseries; s++)
		n += c->series[s].n;
	return n;
}

static void bar_label(struct canvas *cv, double x, const struct chart_point *p)
{
	cairo_t *cr = cv->cr;
	char buf[32];
	double top = isnan(p->hi) || p->hi < p->y ? p->y :
		     p->hi > cv->c->y.max ? cv->c->y.max : p->hi;
	double y = map_y(cv, top);
	int below = p->y < cv->c->baseline;

	if (cv->c->ratio)	/* "*": significant at the chart's alpha */
		snprintf(buf, sizeof(buf), "%.2f%s", p->y,
			 p->sig == 1 ? " *" : "");
	else
		chart_format_y(cv->c, p->y, buf, sizeof(buf));
	if (text_width(cr, buf) > bar_width(cv) + 8)
		return;
	if (below)
		y = map_y(cv, isnan(p->lo) || p->lo < cv->c->y.min ?
			  fmax(p->y, cv->c->y.min) : p->lo) + 18;
	else
		y -= 6;
	grey(cr, 0.2);
	/* a whisker cut by the frame: the label beside it, inside */
	if (y - 14 < cv->py0) {
		text_at(cr, x + 8, cv->py0 + 16, 0, buf);
		return;
	}
	if (y > cv->py1 - 2) {
		text_at(cr, x + 8, cv->py1 - 6, 0, buf);
		return;
	}
	text_at(cr, x, y, 0.5, buf);
}

static void draw_bars(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;
	double bw = bar_width(cv), gap = bw > 12 ? 2 : 0.5;
	double base = map_y(cv, c->baseline < c->y.min ? c->y.min :
			    c->baseline);
	int labels = npoints(c) <= 24;

	font(cr, FONT_SMALL, 0);
	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];

		for (size_t i = 0; i < se->n; i++) {
			double x = bar_x(cv, s, se->p[i].x);
			double y = map_y(cv, se->p[i].y);

			fill_bar(cr, s, x - bw / 2 + gap / 2, y, bw - gap,
				 base - y);
			grey(cr, 0.15);
			error_bar(cv, x, &se->p[i], bw / 5 < 6 ? bw / 5 : 6);
			if (labels)
				bar_label(cv, x, &se->p[i]);
		}
	}
}

static void draw_boxes(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	const struct chart *c = cv->c;
	double bw = bar_width(cv) * 0.8;

	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];

		for (size_t i = 0; i < se->n; i++) {
			const double *b = se->p[i].box;
			double x = bar_x(cv, s, se->p[i].x);

			if (isnan(b[1]))
				continue;
			color(cr, s, 1);
			gfx.cairo_set_line_width(cr, 1.6);
			gfx.cairo_move_to(cr, x, map_y(cv, b[0]));
			gfx.cairo_line_to(cr, x, map_y(cv, b[1]));
			gfx.cairo_move_to(cr, x, map_y(cv, b[3]));
			gfx.cairo_line_to(cr, x, map_y(cv, b[4]));
			gfx.cairo_move_to(cr, x - bw / 4, map_y(cv, b[0]));
			gfx.cairo_line_to(cr, x + bw / 4, map_y(cv, b[0]));
			gfx.cairo_move_to(cr, x - bw / 4, map_y(cv, b[4]));
			gfx.cairo_line_to(cr, x + bw / 4, map_y(cv, b[4]));
			gfx.cairo_stroke(cr);
			gfx.cairo_rectangle(cr, x - bw / 2, map_y(cv, b[3]), bw,
					map_y(cv, b[1]) - map_y(cv, b[3]));
			color(cr, s, 0.3);
			gfx.cairo_fill_preserve(cr);
			color(cr, s, 1);
			gfx.cairo_stroke(cr);
			gfx.cairo_set_line_width(cr, 3);
			gfx.cairo_move_to(cr, x - bw / 2, map_y(cv, b[2]));
			gfx.cairo_line_to(cr, x + bw / 2, map_y(cv, b[2]));
			gfx.cairo_stroke(cr);
		}
	}
}

static void draw(struct canvas *cv)
{
	cairo_t *cr = cv->cr;
	struct svg_text *t = svg_text_of(cr);
	cairo_font_options_t *fo = gfx.cairo_font_options_create();

	gfx.cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	gfx.cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	gfx.cairo_set_font_options(cr, fo);
	gfx.cairo_font_options_destroy(fo);
	gfx.cairo_set_source_rgb(cr, 1, 1, 1);
	gfx.cairo_paint(cr);	/* every pixel: png_surface() relies on it */
	layout(cv);
	titles(cv);
	legend(cv, cv->legend_y, 1);
	grid_and_y_axis(cv);
	x_axis(cv);
	gfx.cairo_save(cr);
	gfx.cairo_rectangle(cr, cv->px0 - 8, cv->py0 - 8, cv->px1 - cv->px0 + 16,
			cv->py1 - cv->py0 + 16);
	gfx.cairo_clip(cr);
	if (t)
		t->clipped = 1;
	if (cv->c->kind == CHART_BAR)
		draw_bars(cv);
	else if (cv->c->kind == CHART_BOX)
		draw_boxes(cv);
	else {
		draw_bands(cv);
		draw_lines(cv);
	}
	if (t)
		t->clipped = 0;
	gfx.cairo_restore(cr);
}

/* ---- files ------------------------------------------------------------- */

static cairo_status_t to_strbuf(void *closure, const unsigned char *data,
				unsigned int len)
{
	strbuf_add(closure, (const char *)data, len);
	return CAIRO_STATUS_SUCCESS;
}

static void put_be32(struct strbuf *sb, uint32_t v)
{
	unsigned char b[4] = { v >> 24, v >> 16, v >> 8, v };

	strbuf_add(sb, (const char *)b, 4);
}

static int is_latin1_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/* A tEXt chunk, or iTXt (UTF-8) when the text is not plain ASCII. */
static void png_text_chunk(struct strbuf *out, const char *key,
			   const char *text)
{
	struct strbuf d = STRBUF_INIT;
	int itxt = !is_latin1_ascii(text);

	strbuf_adds(&d, itxt ? "iTXt" : "tEXt");
	strbuf_adds(&d, key);
	strbuf_addch(&d, '\0');
	if (itxt)	/* uncompressed, no language, no translated key */
		strbuf_add(&d, "\0\0\0\0", 4);
	strbuf_adds(&d, text);
	put_be32(out, (uint32_t)(d.len - 4));
	strbuf_add(out, d.buf, d.len);
	put_be32(out, (uint32_t)crc32(0, (const unsigned char *)d.buf,
				      (uInt)d.len));
	strbuf_release(&d);
}

static void png_chunk(struct strbuf *out, const char *type,
		      const unsigned char *data, size_t len)
{
	uLong crc = crc32(0, (const unsigned char *)type, 4);

	put_be32(out, (uint32_t)len);
	strbuf_add(out, type, 4);
	if (len) {	/* crc32() of a NULL buffer restarts at 0 */
		strbuf_add(out, (const char *)data, len);
		crc = crc32(crc, data, (uInt)len);
	}
	put_be32(out, (uint32_t)crc);
}

static void png_provenance(struct strbuf *out, const struct chart *c,
			   const struct chart_render_opts *o)
{
	png_text_chunk(out, "Software", "storan " STORAN_VERSION);
	png_text_chunk(out, "Title", c->title);
	if (o->command_line)
		png_text_chunk(out, "Command", o->command_line);
	for (int i = 0; i < o->ninputs; i++) {
		char *t = xstrfmt("%s sha256=%s", o->inputs[i].name,
				  o->inputs[i].sha256[0] ?
				  o->inputs[i].sha256 : "unknown");

		png_text_chunk(out, "Input", t);
		free(t);
	}
	for (size_t i = 0; o->rs && i < o->rs->nsources; i++) {
		const struct source *s = &o->rs->sources[i];
		char *t = xstrfmt("%s sha256=%s", s->name,
				  s->sha256[0] ? s->sha256 : "unknown");

		png_text_chunk(out, "Data source", t);
		free(t);
	}
}

/*
 * Row y of the image as RGB with PNG filter 1 (Sub) into row[]: a chart
 * is mostly runs of one colour, which Sub turns into runs of zeros.
 */
static void png_filter_row(const unsigned char *data, int stride, int w,
			   int y, unsigned char *row)
{
	const uint32_t *px = (const uint32_t *)(const void *)
			     (data + (size_t)y * (size_t)stride);
	unsigned char *o = row, prev[3] = { 0 };

	*o++ = 1;
	for (int x = 0; x < w; x++) {
		unsigned char rgb[3] = { px[x] >> 16, px[x] >> 8, px[x] };

		for (int k = 0; k < 3; k++) {
			*o++ = (unsigned char)(rgb[k] - prev[k]);
			prev[k] = rgb[k];
		}
	}
}

/* Feeds n bytes (flush: Z_NO_FLUSH or Z_FINISH) to zs, its output to z. */
static int png_deflate(z_stream *zs, const unsigned char *in, size_t n,
		       int flush, struct strbuf *z)
{
	int rc;

	zs->next_in = (unsigned char *)(uintptr_t)in;
	zs->avail_in = (uInt)n;
	do {
		strbuf_grow(z, 65536);
		zs->next_out = (unsigned char *)z->buf + z->len;
		zs->avail_out = (uInt)(z->alloc - z->len - 1);
		rc = deflate(zs, flush);
		z->len = (size_t)((char *)zs->next_out - z->buf);
		z->buf[z->len] = '\0';
		if (rc == Z_STREAM_ERROR)
			return -1;
	} while (zs->avail_out == 0 || (flush == Z_FINISH &&
					 rc != Z_STREAM_END));
	return 0;
}

/*
 * The image's filtered rows, compressed one at a time: the whole
 * filtered image (10 MB for a chart at 2x) and room for its compressed
 * copy were fresh memory for every chart, a third of a report's time
 * in page faults.  zlib's run-length strategy compresses charts about
 * as well as cairo's own writer (libpng, adaptive filters) at a
 * fraction of the time.
 */
static int png_compress(cairo_surface_t *s, int w, int h, struct strbuf *z)
{
	const unsigned char *data = gfx.cairo_image_surface_get_data(s);
	int stride = gfx.cairo_image_surface_get_stride(s);
	size_t rowlen = 1 + 3 * (size_t)w;
	unsigned char *row = xmalloc(rowlen);
	z_stream zs = { 0 };
	int rc = deflateInit2(&zs, 6, Z_DEFLATED, 15, 8, Z_RLE) == Z_OK ?
		 0 : -1;

	for (int y = 0; !rc && y < h; y++) {
		png_filter_row(data, stride, w, y, row);
		rc = png_deflate(&zs, row, rowlen,
				 y == h - 1 ? Z_FINISH : Z_NO_FLUSH, z);
	}
	if (!rc && h <= 0)
		rc = png_deflate(&zs, row, 0, Z_FINISH, z);
	deflateEnd(&zs);
	free(row);
	return rc;
}

/* Encodes the surface as a PNG with the provenance chunks after IHDR. */
static int png_encode(cairo_surface_t *s, const struct chart *c,
		      const struct chart_render_opts *o, struct strbuf *out)
{
	int w = gfx.cairo_image_surface_get_width(s);
	int h = gfx.cairo_image_surface_get_height(s);
	unsigned char ihdr[13] = { w >> 24, w >> 16, w >> 8, w, h >> 24,
				   h >> 16, h >> 8, h, 8, 2, 0, 0, 0 };
	struct strbuf z = STRBUF_INIT;
	int rc;

	gfx.cairo_surface_flush(s);
	rc = png_compress(s, w, h, &z);
	if (!rc) {
		strbuf_add(out, "\x89PNG\r\n\x1a\n", 8);
		png_chunk(out, "IHDR", ihdr, sizeof(ihdr));
		png_provenance(out, c, o);
		png_chunk(out, "IDAT", (const unsigned char *)z.buf, z.len);
		png_chunk(out, "IEND", NULL, 0);
	}
	strbuf_release(&z);
	return rc ? error("cannot compress the PNG image") : 0;
}

/* The recorded text goes after cairo's shapes, so it is drawn last and on
 * top (as in the PNG, where no shape is drawn over text); what was drawn
 * inside the plot area keeps that area's clip. */
static int svg_add_text(struct strbuf *svg, const struct svg_text *t,
			const struct canvas *cv)
{
	const char *end = strstr(svg->buf, "</svg>");
	struct strbuf out = STRBUF_INIT;
	size_t at;

	if (!end)
		return error("cairo wrote no </svg> end tag");
	at = (size_t)(end - svg->buf);

	strbuf_add(&out, svg->buf, at);
	strbuf_addf(&out, "<clipPath id=\"storan-plot-area\"><rect x=\"%.2f\" "
		    "y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/></clipPath>\n",
		    cv->px0 - 8, cv->py0 - 8, cv->px1 - cv->px0 + 16,
		    cv->py1 - cv->py0 + 16);
	strbuf_adds(&out, "<g font-family=\"'DejaVu Sans', Verdana, "
		    "sans-serif\">\n");
	strbuf_add(&out, t->out.buf, t->out.len);
	strbuf_adds(&out, "</g>\n");
	strbuf_adds(&out, svg->buf + at);
	strbuf_release(svg);
	*svg = out;
	return 0;
}

static int svg_add_provenance(struct strbuf *svg, const struct chart *c,
			      const struct chart_render_opts *o)
{
	const char *open = strstr(svg->buf, "<svg"), *end;
	struct strbuf out = STRBUF_INIT;

	if (!open || !(end = strchr(open, '>')))
		return error("cairo wrote no <svg> element");
	end++;
	strbuf_add(&out, svg->buf, (size_t)(end - svg->buf));
	strbuf_adds(&out, "\n<title>");
	strbuf_add_markup(&out, c->title);
	strbuf_adds(&out, "</title>\n<metadata>\n<storan:provenance "
		    "xmlns:storan=\"urn:x-storan:provenance:1\" "
		    "software=\"storan " STORAN_VERSION "\">\n");
	if (o->command_line) {
		strbuf_adds(&out, "<storan:command>");
		strbuf_add_markup(&out, o->command_line);
		strbuf_adds(&out, "</storan:command>\n");
	}
	for (int i = 0; i < o->ninputs; i++) {
		strbuf_adds(&out, "<storan:input name=\"");
		strbuf_add_markup(&out, o->inputs[i].name);
		strbuf_addf(&out, "\" sha256=\"%s\"/>\n",
			    o->inputs[i].sha256);
	}
	for (size_t i = 0; o->rs && i < o->rs->nsources; i++) {
		strbuf_adds(&out, "<storan:source name=\"");
		strbuf_add_markup(&out, o->rs->sources[i].name);
		strbuf_addf(&out, "\" sha256=\"%s\"/>\n",
			    o->rs->sources[i].sha256);
	}
	strbuf_adds(&out, "</storan:provenance>\n</metadata>");
	strbuf_adds(&out, end);
	strbuf_release(svg);
	*svg = out;
	return 0;
}

static void pdf_metadata(cairo_surface_t *s, const struct chart *c,
			 const struct chart_render_opts *o)
{
	struct strbuf kw = STRBUF_INIT;

	gfx.cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, c->title);
	gfx.cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR,
				       "storan " STORAN_VERSION);
	if (o->command_line)
		gfx.cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_SUBJECT,
					       o->command_line);
	for (int i = 0; i < o->ninputs; i++)
		strbuf_addf(&kw, "%s%s sha256=%s", i ? "; " : "",
			    o->inputs[i].name, o->inputs[i].sha256);
	for (size_t i = 0; o->rs && i < o->rs->nsources; i++)
		strbuf_addf(&kw, "; source %s sha256=%s",
			    o->rs->sources[i].name, o->rs->sources[i].sha256);
	gfx.cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_KEYWORDS,
				       strbuf_str(&kw));
	strbuf_release(&kw);
}

struct chart_input *chart_inputs(char *const *paths, int n)
{
	struct chart_input *in = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*in));

	for (int i = 0; i < n; i++) {
		struct input file;
		struct strbuf err = STRBUF_INIT;
		char *data;
		size_t size;

		if (!strcmp(paths[i], "-")) {
			in[i].name = xstrdup("stdin");
			continue;
		}
		in[i].name = xstrdup(paths[i]);
		/* the bytes and their hash, not the lines input_read()
		 * would cut (100 ms of a 23 MB result set) */
		if (!input_read_bytes(paths[i], &data, &size, &err)) {
			input_init_bare(&file, paths[i], data, size);
			in[i].binary = rs_bin_sniff(data, size);
			input_sha256_bytes(data, size, in[i].sha256);
			if (input_changed(&file))	/* no hash: void */
				in[i].sha256[0] = '\0';
			input_release(&file);
		}
		strbuf_release(&err);
	}
	return in;
}

void chart_inputs_free(struct chart_input *in, int n)
{
	for (int i = 0; i < n; i++)
		free(in[i].name);
	free(in);
}

void chart_render_done(void)
{
	if (!gfx_cairo_loaded())
		return;		/* nothing drawn, nothing to clean */
	gfx.cairo_debug_reset_static_data();
	gfx.FcFini();
}

int chart_format_from_path(const char *path, enum chart_format *f)
{
	const char *dot = strrchr(path, '.');

	if (!dot)
		return -1;
	if (!strcasecmp(dot, ".png"))
		*f = CHART_PNG;
	else if (!strcasecmp(dot, ".svg"))
		*f = CHART_SVG;
	else if (!strcasecmp(dot, ".pdf"))
		*f = CHART_PDF;
	else
		return -1;
	return 0;
}

void chart_pixels_release(struct chart_pixels *px)
{
	free(px->data);
	px->data = NULL;
	px->size = 0;
}

/*
 * A w x h image, in o->pixels when given.  Not cleared: draw() paints
 * every pixel white first (13 MB of memset a chart at 2x was a tenth of
 * a report's time).
 */
static cairo_surface_t *png_surface(const struct chart_render_opts *o,
				    int w, int h)
{
	struct chart_pixels *px = o->pixels;
	int stride = gfx.cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, w);
	size_t need = (size_t)stride * (size_t)(h > 0 ? h : 0);

	if (!px || stride <= 0 || !need)
		return gfx.cairo_image_surface_create(CAIRO_FORMAT_RGB24, w,
						      h);
	if (px->size < need) {
		free(px->data);
		px->data = xmalloc(need);
		px->size = need;
	}
	return gfx.cairo_image_surface_create_for_data(px->data,
						       CAIRO_FORMAT_RGB24,
						       w, h, stride);
}

static cairo_surface_t *make_surface(enum chart_format f,
				     const struct chart_render_opts *o,
				     struct strbuf *out)
{
	cairo_surface_t *s;

	switch (f) {
	case CHART_PNG:
		return png_surface(o, (int)ceil(o->width * o->scale),
				   (int)ceil(o->height * o->scale));
	case CHART_SVG:
		s = gfx.cairo_svg_surface_create_for_stream(to_strbuf, out,
							o->width, o->height);
		gfx.cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
		return s;
	default:
		return gfx.cairo_pdf_surface_create_for_stream(to_strbuf, out,
							   o->width,
							   o->height);
	}
}

int chart_render(const struct chart *c, enum chart_format f,
		 const struct chart_render_opts *o, struct strbuf *out)
{
	struct canvas cv = { .c = c, .w = o->width, .h = o->height };
	struct svg_text text = { .out = STRBUF_INIT };
	cairo_surface_t *s;
	cairo_status_t st;
	int rc;

	if (gfx_load_cairo())
		return -1;
	s = make_surface(f, o, out);
	if (f == CHART_PDF)
		pdf_metadata(s, c, o);
	cv.cr = gfx.cairo_create(s);
	if (f == CHART_PNG)
		gfx.cairo_scale(cv.cr, o->scale, o->scale);
	if (f == CHART_SVG)
		gfx.cairo_set_user_data(cv.cr, &svg_text_key, &text, NULL);
	draw(&cv);
	st = gfx.cairo_status(cv.cr);
	gfx.cairo_destroy(cv.cr);
	if (f == CHART_PNG && st == CAIRO_STATUS_SUCCESS && png_encode(s, c, o,
								       out))
		st = CAIRO_STATUS_WRITE_ERROR;
	gfx.cairo_surface_finish(s);
	if (st == CAIRO_STATUS_SUCCESS)
		st = gfx.cairo_surface_status(s);
	gfx.cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		strbuf_release(&text.out);
		return error("cannot draw the chart: %s",
			     gfx.cairo_status_to_string(st));
	}
	rc = f == CHART_SVG ? svg_add_text(out, &text, &cv) ||
			      svg_add_provenance(out, c, o) : 0;
	strbuf_release(&text.out);
	return rc;
}
