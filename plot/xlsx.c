/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.xlsx with libxlsxwriter: a workbook to play with.
 *
 *   Summary   title, how it was made (command line, storan version), the
 *             inputs with their sha256, and a link to every chart sheet;
 *   Data      one row per measurement, one column per label, the figures
 *             as numbers (numeric labels too), base units named in the
 *             headers, header row frozen, autofilter on;
 *   NN-name   per chart: its table as `storan table` prints it (units in
 *             the headings, figures as numbers, storan check's findings
 *             as cell comments and footnotes under it) and a native
 *             chart drawn from those cells, so editing a number redraws
 *             the chart; each series' whiskers as two columns of
 *             amounts below and above its figures, which the chart's
 *             error bars refer to; curves (CDFs) have their points
 *             instead.
 *
 * Document properties carry the provenance (comments: command line and
 * every input's sha256).  Sheet names are the charts' file stems, cut to
 * Excel's 31 characters; the NN prefix keeps them unique.
 */
#include "gfx.h"
#include "chart-table.h"
#include "writers.h"
#include "xlsx-data.h"
#include "../core/numfmt.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAMES_SHEET "Names"

#define MAX_DECIMALS XLSX_MAX_DECIMALS

struct book {
	lxw_workbook *wb;
	lxw_format *bold;
	/* "0", "0.0", ... "0.000000", then "0.00E+00" (XLSX_SCIENTIFIC) */
	lxw_format *figure[XLSX_NFORMATS];
	lxw_format *good, *bad, *warn;		/* verdicts */
	const struct report *r;
	struct xlsx_data *data;	/* the Data sheet's rows (xlsx-data.h) */
	unsigned nsheets;	/* worksheets added */
	unsigned data_sheet;	/* the Data sheet's number (from 1) */
	/* per chart (in the order added: libxlsxwriter's chartN.xml), its
	 * series' error bars as chart XML, NULL where it has none */
	char ***errbars;
	size_t *nerrbars;	/* series */
	size_t ncharts;
	lxw_worksheet *names;	/* hidden; see set_chart_name() */
	lxw_row_t nnames;
};

/* Worksheets through here: xlsx_data_splice() needs the Data sheet's
 * number. */
static lxw_worksheet *add_sheet(struct book *b, const char *name)
{
	b->nsheets++;
	return gfx.workbook_add_worksheet(b->wb, name);
}

static uint32_t rgb(size_t i)
{
	const unsigned char *p = chart_palette[i % CHART_NCOLORS];

	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/*
 * Text into a cell, always as text (a value starting with '=' stays a
 * string: worksheet_write_string never makes a formula), cut to Excel's
 * 32,767 characters with an ellipsis: libxlsxwriter leaves a longer one
 * out without a word.
 */

static void put_text(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col,
		     const char *text, lxw_format *fmt)
{
	char *cut = xlsx_cut_text(text);

	gfx.worksheet_write_string(ws, row, col, cut ? cut : text, fmt);
	free(cut);
}

/*
 * Names in a chart (series, title, axes) that come from the data are
 * literal text.  libxlsxwriter reads a name that starts with '=' as a
 * formula: a range, or a reference into another workbook
 * ('http://host/[x.xlsx]Sheet1'!A1) that a spreadsheet would fetch.
 * Such a name is written as text into a cell of the hidden sheet
 * "Names", and the chart points at that cell.
 */
enum chart_name { NAME_SERIES, NAME_TITLE, NAME_AXIS };

static void set_chart_name(struct book *b, enum chart_name kind, void *obj,
			   const char *text)
{
	if (text[0] != '=') {
		if (kind == NAME_SERIES)
			gfx.chart_series_set_name(obj, text);
		else if (kind == NAME_TITLE)
			gfx.chart_title_set_name(obj, text);
		else
			gfx.chart_axis_set_name(obj, text);
		return;
	}
	if (!b->names) {
		b->names = add_sheet(b, NAMES_SHEET);
		gfx.worksheet_hide(b->names);
	}
	put_text(b->names, b->nnames, 0, text, NULL);
	if (kind == NAME_SERIES)
		gfx.chart_series_set_name_range(obj, NAMES_SHEET, b->nnames, 0);
	else if (kind == NAME_TITLE)
		gfx.chart_title_set_name_range(obj, NAMES_SHEET, b->nnames, 0);
	else
		gfx.chart_axis_set_name_range(obj, NAMES_SHEET, b->nnames, 0);
	b->nnames++;
}

/* Sheet name of chart i: its file stem, at most 31 characters. */
static char *sheet_name(const struct report *r, size_t i)
{
	return xstrndup(r->charts[i].name, 31);
}

/* ---- Summary ----------------------------------------------------------- */

static void write_summary(struct book *b)
{
	const struct report *r = b->r;
	lxw_worksheet *ws = add_sheet(b, "Summary");
	lxw_row_t row = 0;

	gfx.worksheet_set_column(ws, 0, 0, 28, NULL);
	gfx.worksheet_set_column(ws, 1, 1, 70, NULL);
	put_text(ws, row++, 0, r->title, b->bold);
	put_text(ws, ++row, 0, "Made by", b->bold);
	put_text(ws, row++, 1, "storan " STORAN_VERSION, NULL);
	if (r->command_line) {
		put_text(ws, row, 0, "Command", b->bold);
		put_text(ws, row++, 1, r->command_line, NULL);
	}
	put_text(ws, row, 0, "Measurements", b->bold);
	gfx.worksheet_write_number(ws, row++, 1, (double)r->rs->n, NULL);
	if (b->data->nrows < r->rs->n) {
		char *cut = xstrfmt("the Data sheet has the first %zu (the "
				    "most a sheet holds)", b->data->nrows);

		put_text(ws, row++, 1, cut, NULL);
		free(cut);
	}
	put_text(ws, ++row, 0, "Input", b->bold);
	put_text(ws, row, 1, "sha256", b->bold);
	put_text(ws, row++, 2, "Format", b->bold);
	for (int i = 0; i < r->ninputs; i++, row++) {
		put_text(ws, row, 0, r->inputs[i].name, NULL);
		put_text(ws, row, 1, r->inputs[i].sha256, NULL);
		put_text(ws, row, 2, "(as given)", NULL);
	}
	for (size_t i = 0; i < r->rs->nsources; i++) {
		const struct source *s = &r->rs->sources[i];

		if (report_source_nameless(s))
			continue;
		put_text(ws, row, 0, s->name, NULL);
		put_text(ws, row, 1, s->sha256, NULL);
		if (s->format)
			put_text(ws, row, 2, s->format, NULL);
		row++;
	}
	put_text(ws, ++row, 0, "Sheet", b->bold);
	put_text(ws, row++, 1, "Chart", b->bold);
	for (size_t i = 0; i < r->n; i++, row++) {
		char *name = sheet_name(r, i);
		char *url = xstrfmt("internal:'%s'!A1", name);

		gfx.worksheet_write_url_opt(ws, row, 0, url, NULL, name, NULL);
		put_text(ws, row, 1, r->charts[i].chart.title,
				       NULL);
		free(url);
		free(name);
	}
	for (size_t i = 0; i < r->nnotes; i++, row++)
		put_text(ws, row + 1, 0, r->notes[i], NULL);
	if (!r->findings || !r->findings->n)
		return;
	row += 2;
	put_text(ws, row, 0, "storan check", b->bold);
	put_text(ws, row++, 1, "Finding", b->bold);
	for (size_t i = 0; i < r->findings->n; i++, row++) {
		const struct check_finding *f = &r->findings->v[i];
		char *where = xstrfmt("%s:%u: %s %s", f->source, f->line,
				      check_severity_name(f->severity),
				      f->code);

		put_text(ws, row, 0, where, NULL);
		put_text(ws, row, 1, f->message, NULL);
		free(where);
	}
}

/* ---- Data -------------------------------------------------------------- */

static const char *const data_columns[] = {
	"source", "line", "tool", "op", "metric", "unit", "n",
	"mean (in unit)", "stddev (in unit)", "min (in unit)",
	"max (in unit)",
};
_Static_assert(sizeof(data_columns) / sizeof(data_columns[0]) ==
	       XLSX_DATA_FIXED, "xlsx-data.c writes these columns");

static void write_number_fmt(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
			     double v, lxw_format *f)
{
	if (!isnan(v) && !isinf(v))
		gfx.worksheet_write_number(ws, r, c, v, f);
}

/*
 * Decimals that show three significant digits of the column's largest
 * figure (a table of MB/s: 1,234 and 98.7 shown "1234" "98.7", never
 * 5.428434773910148), at most MAX_DECIMALS.
 */
static int column_decimals(const struct fmt_table *t, size_t col)
{
	double big = 0;
	int d;

	for (size_t r = 0; r < t->nrows; r++) {
		const struct fmt_cell *cell = &t->cells[r * t->ncols + col];

		if (cell->is_number && isfinite(cell->value) &&
		    fabs(cell->value) > big)
			big = fabs(cell->value);
	}
	if (!(big > 0))
		return 0;
	d = 2 - (int)floor(log10(big));
	return d < 0 ? 0 : d > MAX_DECIMALS ? MAX_DECIMALS : d;
}

/*
 * The decimals of one figure: three significant digits of its own, never
 * fewer than its column's (0.0145 GB/s in a column of 1.34 was "0.01", a
 * p-value of 0.00025 "0.000").
 */
static lxw_format *figure_format(struct book *b, double v, int column)
{
	return b->figure[xlsx_figure_format(v, column)];
}

/*
 * The Data sheet as libxlsxwriter writes it: the header row, the pane
 * and the filter; its rows (xlsx-data.c) go in once the workbook is
 * written.
 */
static void write_data(struct book *b)
{
	const struct xlsx_data *d = b->data;
	lxw_worksheet *ws = add_sheet(b, "Data");
	lxw_col_t col;

	b->data_sheet = b->nsheets;
	for (col = 0; col < XLSX_DATA_FIXED; col++)
		put_text(ws, 0, col, data_columns[col], b->bold);
	for (size_t k = 0; k < d->nkeys; k++)
		put_text(ws, 0, col++, d->keys[k], b->bold);
	for (size_t i = 0; i < d->runs; i++) {
		char *h = xstrfmt("run %zu (in unit)", i + 1);

		put_text(ws, 0, col++, h, b->bold);
		free(h);
	}
	gfx.worksheet_freeze_panes(ws, 1, 0);
	gfx.worksheet_autofilter(ws, 0, 0, (lxw_row_t)d->nrows,
			     (lxw_col_t)(col - 1));
	gfx.worksheet_set_column(ws, 0, 0, 20, NULL);
	gfx.worksheet_set_column(ws, 7, 10, 16, NULL);
}

/* ---- chart sheets ------------------------------------------------------ */

static void style_series(const struct chart *c, lxw_chart_series *se,
			 size_t s, int columns)
{
	lxw_chart_line line = { .color = rgb(s), .width = 2.25 };
	lxw_chart_fill fill = { .color = rgb(s) };

	if (columns) {
		gfx.chart_series_set_fill(se, &fill);
		return;
	}
	gfx.chart_series_set_line(se, &line);
	if (c->kind == CHART_CDF || c->series[s].n > 40) {
		gfx.chart_series_set_marker_type(se, LXW_CHART_MARKER_NONE);
		return;
	}
	gfx.chart_series_set_marker_type(se, LXW_CHART_MARKER_CIRCLE);
	gfx.chart_series_set_marker_fill(se, &fill);
	gfx.chart_series_set_marker_line(se, &line);
}

/*
 * Curves: x-y scatter lines; a table over a numeric x (bs): scatter with
 * markers on the chart's log axis; over categories: columns, or lines.
 */
static uint8_t chart_type(const struct chart *c, int table, int category)
{
	if (!category)
		return c->kind == CHART_SCATTER ? LXW_CHART_SCATTER :
		       table ? LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS :
		       LXW_CHART_SCATTER_STRAIGHT;
	return c->kind == CHART_LINE || c->kind == CHART_PERCENTILES ?
	       LXW_CHART_LINE : LXW_CHART_COLUMN;
}

static void axes(struct book *b, const struct chart *c, lxw_chart *ch,
		 int category)
{
	lxw_chart_axis *x = gfx.chart_axis_get(ch, LXW_CHART_AXIS_TYPE_X);
	lxw_chart_axis *y = gfx.chart_axis_get(ch, LXW_CHART_AXIS_TYPE_Y);

	set_chart_name(b, NAME_AXIS, x, c->x.title);
	set_chart_name(b, NAME_AXIS, y, c->y.title);
	if (!category && c->x.scale == AXIS_LOG2)
		gfx.chart_axis_set_log_base(x, 2);
	else if (!category && c->x.scale == AXIS_LOG10)
		gfx.chart_axis_set_log_base(x, 10);
	if (!category && c->x.scale == AXIS_LOG2) {
		/* ticks at powers of two (4096, not 3026.96...) */
		gfx.chart_axis_set_min(x, exp2(floor(log2(c->x.min))));
		gfx.chart_axis_set_max(x, exp2(ceil(log2(c->x.max))));
		gfx.chart_axis_set_num_format(x, "0");
	} else if (!category && c->x.scale != AXIS_NINES) {
		gfx.chart_axis_set_min(x, c->x.min);
		gfx.chart_axis_set_max(x, c->x.max);
	}
	if (c->y.scale == AXIS_LOG10)
		gfx.chart_axis_set_log_base(y, 10);
	if (c->ratio) {
		/* bars grow from 1.0 */
		gfx.chart_axis_set_crossing(y, 1.0);
		gfx.chart_axis_set_label_position(x,
				LXW_CHART_AXIS_LABEL_POSITION_LOW);
	}
	gfx.chart_axis_set_min(y, c->y.min);
	gfx.chart_axis_set_max(y, c->y.max);
}

/* The footnotes a cell cites, as the cell's comment. */
static void note_comment(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col,
			 const struct fmt_table *t, const struct fmt_cell *cell)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < fmt_cell_nnotes(cell); i++) {
		for (size_t k = 0; k < t->nfootnotes; k++) {
			if (t->footnotes[k].n != fmt_cell_note(cell, i))
				continue;
			strbuf_addf(&sb, "%s" FMT_NOTE_MARK "%u ",
				    sb.len ? "\n" : "", fmt_cell_note(cell, i));
			fmt_footnote_text(&t->footnotes[k], &sb);
		}
	}
	if (sb.len)
		gfx.worksheet_write_comment(ws, row, col, sb.buf);
	strbuf_release(&sb);
}

static lxw_format *style_format(struct book *b, enum fmt_style style)
{
	return style == FMT_GOOD ? b->good : style == FMT_BAD ? b->bad :
	       style == FMT_WARN ? b->warn : NULL;
}

/*
 * A table (analysis/format.h) from row `top`: headings with units, figures
 * as numbers in those units with a number format of three significant
 * digits, verdicts coloured, footnoted cells carrying the finding as a
 * comment; its notes below.  With `text`, the cells as the page writes
 * them ("100 ± 4.97": the whiskers, the marks) in the columns to the
 * right.  Returns the first row after it.
 */
static lxw_row_t write_fmt_table(struct book *b, lxw_worksheet *ws,
				 const struct fmt_table *t, lxw_row_t top,
				 int text)
{
	lxw_row_t row = top + (lxw_row_t)t->nrows + 2;
	lxw_col_t text_at = (lxw_col_t)(t->ncols + 1);
	int *decimals = xmalloc((t->ncols + 1) * sizeof(*decimals));

	for (size_t col = 0; col < t->ncols; col++)
		decimals[col] = column_decimals(t, col);
	for (size_t col = 0; col < t->ncols; col++) {
		const char *h = t->cols[col].heading ? t->cols[col].heading :
				t->cols[col].name;

		put_text(ws, top, (lxw_col_t)col, h, b->bold);
		if (text)
			put_text(ws, top, text_at + (lxw_col_t)col, h,
				 b->bold);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t col = 0; col < t->ncols; col++) {
			const struct fmt_cell *cell =
				&t->cells[r * t->ncols + col];
			lxw_row_t wr = top + (lxw_row_t)(r + 1);

			if (cell->is_number)
				write_number_fmt(ws, wr, (lxw_col_t)col,
						 cell->value,
						 figure_format(b, cell->value,
							       decimals[col]));
			else if (fmt_cell_text(cell))
				put_text(ws, wr, (lxw_col_t)col,
					 fmt_cell_text(cell),
					 style_format(b, cell->style));
			note_comment(ws, wr, (lxw_col_t)col, t, cell);
			if (text && fmt_cell_text(cell))
				put_text(ws, wr, text_at + (lxw_col_t)col,
					 fmt_cell_text(cell), NULL);
		}
	}
	for (size_t i = 0; i < t->nnotes; i++)
		put_text(ws, row++, 0, t->notes[i], NULL);
	gfx.worksheet_set_column(ws, 0, (lxw_col_t)(text ? 2 * t->ncols :
						     t->ncols - 1), 16, NULL);
	free(decimals);
	return row;
}

/* One chart series per value column of the table at row top, x from
 * its column A. */
static void table_series(struct book *b, lxw_chart *ch,
			 const struct chart *c, const struct fmt_table *t,
			 const char *sheet, lxw_row_t top, int columns)
{
	for (size_t col = 1; col < t->ncols; col++) {
		lxw_chart_series *se = gfx.chart_add_series(ch, NULL, NULL);
		const char *name = t->cols[col].name;

		gfx.chart_series_set_categories(se, sheet, top + 1, 0,
					    top + (lxw_row_t)t->nrows, 0);
		gfx.chart_series_set_values(se, sheet, top + 1, (lxw_col_t)col,
					top + (lxw_row_t)t->nrows,
					(lxw_col_t)col);
		set_chart_name(b, NAME_SERIES, se,
			       t->ncols > 2 || !c->nseries ? name :
			       *c->series[0].name ? c->series[0].name :
			       c->metric);
		style_series(c, se, col - 1, columns);
	}
}

/* Curves (CDFs, percentiles from histograms): x and y columns per series,
 * from row top. */
static void write_curves(struct book *b, lxw_worksheet *ws, lxw_chart *ch,
			 const struct chart *c, const char *sheet,
			 lxw_row_t top)
{
	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];
		lxw_col_t col = (lxw_col_t)(2 * s);
		char *h = chart_table_header(c, s);
		lxw_chart_series *xs;

		put_text(ws, top, col, c->x.title, b->bold);
		put_text(ws, top, col + 1, h, b->bold);
		for (size_t i = 0; i < se->n; i++) {
			lxw_row_t r = top + (lxw_row_t)(i + 1);

			write_number_fmt(ws, r, col, se->p[i].x,
					 figure_format(b, se->p[i].x, 0));
			write_number_fmt(ws, r, col + 1, se->p[i].y,
					 figure_format(b, se->p[i].y, 0));
		}
		xs = gfx.chart_add_series(ch, NULL, NULL);
		gfx.chart_series_set_categories(xs, sheet, top + 1, col,
					    top + (lxw_row_t)se->n, col);
		gfx.chart_series_set_values(xs, sheet, top + 1, col + 1,
					top + (lxw_row_t)se->n, col + 1);
		set_chart_name(b, NAME_SERIES, xs,
			       *se->name ? se->name : c->metric);
		style_series(c, xs, s, 0);
		free(h);
	}
}

#define CHART_ROWS 24	/* a 1.5-scaled chart, and a row between */

/*
 * Error bars.  libxlsxwriter's (1.1.4) are one fixed value, percentage,
 * standard deviation or standard error for a whole series; the page's
 * whiskers differ point by point (n >= 3 the 95% interval of the mean,
 * n = 2 both values, n = 1 none).  So each series' whiskers are written
 * as two columns of the chart's sheet, the amount below and above each
 * figure (blank: no whisker), and the chart's XML is given custom error
 * bars (c:errValType "cust") that refer to those cells, once
 * libxlsxwriter has written it.  Excel and LibreOffice draw them from
 * the cells (LibreOffice ignores literal values there), so editing an
 * amount redraws its whisker like a figure.
 */
static void append_cache(struct strbuf *sb, const double *v, size_t n)
{
	char num[NUMFMT_MAX];

	strbuf_addf(sb, "<c:numCache><c:formatCode>General</c:formatCode>"
		    "<c:ptCount val=\"%zu\"/>", n);
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		format_g(num, v[i], 16);
		strbuf_addf(sb, "<c:pt idx=\"%zu\"><c:v>%s</c:v></c:pt>", i,
			    num);
	}
	strbuf_adds(sb, "</c:numCache>");
}

/* One series' c:errBars: the amounts below in column col, above in
 * col + 1, rows [top, top + n) of sheet. */
static char *errbars_xml(const char *sheet, lxw_row_t top, lxw_col_t col,
			 const double *below, const double *above, size_t n,
			 size_t s, int scatter)
{
	struct strbuf sb = STRBUF_INIT, quoted = STRBUF_INIT;
	char a[4], b[4];

	for (const char *p = sheet; *p; p++) {
		if (*p == '\'')	/* doubled in a quoted name */
			strbuf_addch(&quoted, '\'');
		strbuf_addch(&quoted, *p);
	}
	xlsx_column_name(col, a);
	xlsx_column_name(col + 1, b);
	strbuf_adds(&sb, "<c:errBars>");
	if (scatter)
		strbuf_adds(&sb, "<c:errDir val=\"y\"/>");
	strbuf_adds(&sb, "<c:errBarType val=\"both\"/>"
		    "<c:errValType val=\"cust\"/><c:noEndCap val=\"0\"/>");
	strbuf_addf(&sb, "<c:plus><c:numRef><c:f>'%s'!$%s$%u:$%s$%u</c:f>",
		    quoted.buf, b, top + 1, b, (unsigned)(top + n));
	append_cache(&sb, above, n);
	strbuf_addf(&sb, "</c:numRef></c:plus><c:minus><c:numRef>"
		    "<c:f>'%s'!$%s$%u:$%s$%u</c:f>", quoted.buf, a, top + 1, a,
		    (unsigned)(top + n));
	append_cache(&sb, below, n);
	strbuf_addf(&sb, "</c:numRef></c:minus><c:spPr><a:ln w=\"15875\">"
		    "<a:solidFill><a:srgbClr val=\"%06X\"/></a:solidFill>"
		    "</a:ln></c:spPr></c:errBars>", (unsigned)rgb(s));
	strbuf_release(&quoted);
	return strbuf_detach(&sb);
}

/* The whisker of point p below and above its figure, NAN for none; an
 * unbounded one (a ratio over a noisy baseline) reaches the axis' end. */
static void whisker(const struct chart *c, const struct chart_point *p,
		    double *below, double *above)
{
	*below = *above = NAN;
	if (!p || p->bar == BAR_NONE || !isfinite(p->y) || isnan(p->lo) ||
	    isnan(p->hi))
		return;
	*below = isfinite(p->lo) ? p->y - p->lo : p->y - c->y.min;
	*above = isfinite(p->hi) ? p->hi - p->y : c->y.max - p->y;
	if (!(*below >= 0))
		*below = 0;
	if (!(*above >= 0))
		*above = 0;
}

/*
 * The columns of whiskers of the table at row top (right of its text
 * columns), and each series' errBars kept for the chart's XML; none for
 * a chart without a whisker.
 */
static void write_whiskers(struct book *b, lxw_worksheet *ws,
			   const struct chart *c, const struct fmt_table *t,
			   const char *sheet, lxw_row_t top, int scatter)
{
	struct chart_table ct;
	lxw_col_t col = (lxw_col_t)(2 * t->ncols + 2);
	char **xml;
	int any = 0;

	if (chart_table_build(c, &ct))
		return;
	xml = xcalloc(ct.ncols + 1, sizeof(*xml));
	for (size_t s = 0; s < ct.ncols && s + 1 < t->ncols; s++) {
		double *below = xmalloc((ct.nrows + 1) * sizeof(*below));
		double *above = xmalloc((ct.nrows + 1) * sizeof(*above));
		char *h = chart_table_header(c, s), *hb, *ha;
		int has = 0;

		for (size_t r = 0; r < ct.nrows; r++) {
			whisker(c, ct.at[r * ct.ncols + s], &below[r],
				&above[r]);
			has |= !isnan(below[r]);
		}
		if (has) {
			hb = xstrfmt("%s: below", h);
			ha = xstrfmt("%s: above", h);
			put_text(ws, top, col, hb, b->bold);
			put_text(ws, top, col + 1, ha, b->bold);
			for (size_t r = 0; r < ct.nrows; r++) {
				lxw_row_t wr = top + (lxw_row_t)(r + 1);

				write_number_fmt(ws, wr, col, below[r],
						 figure_format(b, below[r], 0));
				write_number_fmt(ws, wr, col + 1, above[r],
						 figure_format(b, above[r], 0));
			}
			xml[s] = errbars_xml(sheet, top + 1, col, below, above,
					     ct.nrows, s, scatter);
			col += 2;
			any = 1;
			free(hb);
			free(ha);
		}
		free(h);
		free(below);
		free(above);
	}
	chart_table_release(&ct);
	if (any)
		gfx.worksheet_set_column(ws, (lxw_col_t)(2 * t->ncols + 2),
					 col - 1, 16, NULL);
	if (!any) {
		free(xml);
		xml = NULL;
	}
	b->errbars[b->ncharts] = xml;
	b->nerrbars[b->ncharts] = xml ? t->ncols - 1 : 0;
}

static void write_chart_sheet(struct book *b, size_t i)
{
	const struct report_chart *rc = &b->r->charts[i];
	const struct chart *c = &rc->chart;
	const struct fmt_table *t = &rc->table;
	char *sheet = sheet_name(b->r, i);
	lxw_worksheet *ws = add_sheet(b, sheet);
	int table = rc->has_table && t->ncols > 1;
	int category = table && (c->x.scale == AXIS_CATEGORY ||
				 c->x.scale == AXIS_NINES ||
				 !t->cols[0].numeric);
	lxw_chart *ch = gfx.workbook_add_chart(b->wb, chart_type(c, table,
							    category));
	lxw_chart_options opt = { .x_offset = 10, .y_offset = 10,
				  .x_scale = 1.5, .y_scale = 1.5 };

	/* the chart on top (rows 1 to CHART_ROWS), its table under it */
	if (table) {
		write_fmt_table(b, ws, t, CHART_ROWS, 1);
		table_series(b, ch, c, t, sheet, CHART_ROWS, category &&
			     chart_type(c, 1, 1) == LXW_CHART_COLUMN);
		write_whiskers(b, ws, c, t, sheet, CHART_ROWS, !category);
	} else {
		write_curves(b, ws, ch, c, sheet, CHART_ROWS);
	}
	set_chart_name(b, NAME_TITLE, ch, c->title);
	axes(b, c, ch, category);
	gfx.chart_legend_set_position(ch, c->nseries > 1 ?
				  LXW_CHART_LEGEND_BOTTOM :
				  LXW_CHART_LEGEND_NONE);
	gfx.worksheet_insert_chart_opt(ws, 0, 0, ch, &opt);
	/* printed or converted to PDF: a sheet one page wide */
	gfx.worksheet_set_landscape(ws);
	gfx.worksheet_fit_to_pages(ws, 1, 0);
	b->ncharts++;
	free(sheet);
}

/* Each series' errBars (bars[s], NULL: none) into the chart's XML, before
 * its categories or x values, where the schema wants them. */
static int insert_errbars(struct strbuf *xml, char *const *bars, size_t n)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = xml->buf;

	for (size_t s = 0; s < n; s++) {
		const char *ser = strstr(p, "<c:ser>");
		const char *end = ser ? strstr(ser, "</c:ser>") : NULL;
		const char *at = ser ? strstr(ser, "<c:cat>") : NULL;

		if (!at || (end && at > end))
			at = ser ? strstr(ser, "<c:xVal>") : NULL;
		if (!end || !at || at > end) {
			strbuf_release(&out);
			return -1;
		}
		strbuf_add(&out, p, (size_t)(at - p));
		if (bars[s])
			strbuf_adds(&out, bars[s]);
		p = at;
	}
	strbuf_adds(&out, p);
	strbuf_release(xml);
	*xml = out;
	return 0;
}

/* The charts' error bars into the workbook libxlsxwriter wrote at path. */
static int add_errbars(struct book *b, const char *path)
{
	char **names = xcalloc(b->ncharts + 1, sizeof(*names));
	struct strbuf *texts = xcalloc(b->ncharts + 1, sizeof(*texts));
	size_t n = 0;
	int rc = 0;

	for (size_t k = 0; k < b->ncharts && !rc; k++) {
		if (!b->errbars[k])
			continue;
		names[n] = xstrfmt("xl/charts/chart%zu.xml", k + 1);
		rc = xlsx_zip_read(path, names[n], &texts[n]);
		if (!rc && insert_errbars(&texts[n], b->errbars[k],
					  b->nerrbars[k]))
			rc = error("cannot add error bars to %s", names[n]);
		n++;
	}
	if (!rc && n)
		rc = xlsx_zip_replace(path, n, names, texts);
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		strbuf_release(&texts[i]);
	}
	free(names);
	free(texts);
	return rc;
}

static void free_errbars(struct book *b)
{
	for (size_t k = 0; k < b->ncharts; k++) {
		for (size_t s = 0; b->errbars[k] && s < b->nerrbars[k]; s++)
			free(b->errbars[k][s]);
		free(b->errbars[k]);
	}
	free(b->errbars);
	free(b->nerrbars);
}

/*
 * Number formats of 0 to MAX_DECIMALS decimals and scientific, numbered
 * (xf) before anything else in the workbook, in that order, as
 * xlsx-data.c expects them (their numbers in xf); verdict colours.
 */
static void add_formats(struct book *b, int32_t *xf)
{
	char spec[16] = "0.";

	for (int d = 0; d < XLSX_NFORMATS; d++) {
		b->figure[d] = gfx.workbook_add_format(b->wb);
		if (d == XLSX_SCIENTIFIC) {
			gfx.format_set_num_format(b->figure[d], "0.00E+00");
		} else if (!d) {
			gfx.format_set_num_format(b->figure[d], "#,##0");
		} else {
			memset(spec + 2, '0', (size_t)d);
			spec[2 + d] = '\0';
			gfx.format_set_num_format(b->figure[d], spec);
		}
		xf[d] = gfx.lxw_format_get_xf_index(b->figure[d]);
	}
	b->good = gfx.workbook_add_format(b->wb);
	gfx.format_set_font_color(b->good, 0x007700);
	gfx.format_set_bold(b->good);
	b->bad = gfx.workbook_add_format(b->wb);
	gfx.format_set_font_color(b->bad, 0xAA0000);
	gfx.format_set_bold(b->bad);
	b->warn = gfx.workbook_add_format(b->wb);
	gfx.format_set_bg_color(b->warn, 0xFFF4D6);
}

/*
 * The Data sheet's strings first in the shared-string table, with the
 * count of their cells; the rows written again if the formats or the
 * strings got other numbers than they were written with.
 */
static int take_data(struct book *b, const int32_t *xf)
{
	struct xlsx_data *d = b->data;
	uint32_t *index;
	int rc;

	if (xlsx_data_finish(d))
		return -1;
	index = xmalloc((d->nstrings + 1) * sizeof(*index));
	for (size_t i = 0; i < d->nstrings; i++) {
		struct sst_element *e = gfx.lxw_get_sst_index(b->wb->sst,
							      d->strings[i], 0);

		if (!e) {
			free(index);
			return error("cannot add a string to the workbook");
		}
		index[i] = e->index;
		b->wb->sst->string_count += d->refs[i] - 1;
	}
	rc = xlsx_data_renumber(d, xf, index);
	free(index);
	return rc;
}

/* Verdicts: each candidate's every row, the page's summary above it. */
static void write_verdicts(struct book *b)
{
	const struct report *r = b->r;
	lxw_worksheet *ws;
	lxw_row_t row = 0;

	if (!r->nverdicts)
		return;
	ws = add_sheet(b, "Verdicts");
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct report_verdicts *v = &r->verdicts[i];

		put_text(ws, row++, 0, v->all.title, b->bold);
		put_text(ws, row++, 0, v->summary, NULL);
		if (*v->geomeans)
			put_text(ws, row++, 0, v->geomeans, NULL);
		row = write_fmt_table(b, ws, &v->all, row + 1, 1) + 1;
	}
	gfx.worksheet_set_column(ws, 0, 0, 36, NULL);
}

static void properties(struct book *b, lxw_doc_properties *p,
		       struct strbuf *comments)
{
	static char subject[] = "Storage benchmark results";
	static char author[] = "storan " STORAN_VERSION;
	static char keywords[] = "storan, storage, benchmark";
	const struct report *r = b->r;

	strbuf_addf(comments, "Made by storan %s", STORAN_VERSION);
	if (r->command_line)
		strbuf_addf(comments, ": %s", r->command_line);
	strbuf_adds(comments, ". Inputs:");
	for (int i = 0; i < r->ninputs; i++)
		strbuf_addf(comments, " %s sha256=%s;", r->inputs[i].name,
			    r->inputs[i].sha256);
	strbuf_adds(comments, " Sources recorded in them:");
	for (size_t i = 0; i < r->rs->nsources; i++)
		strbuf_addf(comments, " %s sha256=%s;", r->rs->sources[i].name,
			    r->rs->sources[i].sha256);
	memset(p, 0, sizeof(*p));
	p->title = r->title;
	p->subject = subject;
	p->author = author;
	p->keywords = keywords;
	p->comments = comments->buf;
}

int report_write_xlsx(const struct report *r, const char *path)
{
	struct book b = { .r = r, .data = r->data };
	struct xlsx_data own;
	struct strbuf comments = STRBUF_INIT;
	lxw_doc_properties props;
	int32_t xf[XLSX_NFORMATS];
	lxw_error err;
	int rc;

	if (gfx_load_xlsx())
		return -1;
	if (!b.data) {		/* not begun early (report_start_data()) */
		xlsx_data_start(&own, r->rs);
		b.data = &own;
	}
	b.wb = gfx.workbook_new(path);
	if (!b.wb) {
		rc = error("cannot create '%s'", path);
		goto out;
	}
	add_formats(&b, xf);
	if (take_data(&b, xf)) {
		gfx.workbook_close(b.wb);
		rc = -1;
		goto out;
	}
	b.bold = gfx.workbook_add_format(b.wb);
	gfx.format_set_bold(b.bold);
	properties(&b, &props, &comments);
	gfx.workbook_set_properties(b.wb, &props);
	write_summary(&b);
	write_verdicts(&b);
	write_data(&b);
	b.errbars = xcalloc(r->n + 1, sizeof(*b.errbars));
	b.nerrbars = xcalloc(r->n + 1, sizeof(*b.nerrbars));
	for (size_t i = 0; i < r->n; i++)
		write_chart_sheet(&b, i);
	err = gfx.workbook_close(b.wb);
	if (err != LXW_NO_ERROR)
		rc = error("cannot write '%s': %s", path,
			   gfx.lxw_strerror(err));
	else
		rc = add_errbars(&b, path) ||
		     xlsx_data_splice(b.data, path, b.data_sheet) ? -1 : 0;
	free_errbars(&b);
out:
	strbuf_release(&comments);
	if (b.data == &own)
		xlsx_data_release(&own);
	return rc;
}
