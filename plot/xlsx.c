/*
 * report.xlsx with libxlsxwriter: a workbook to play with.
 *
 *   Summary   title, how it was made (command line, storan version), the
 *             inputs with their sha256, and a link to every chart sheet;
 *   Data      one row per measurement, one column per label, the figures
 *             as numbers (numeric labels too), base units named in the
 *             headers, header row frozen, autofilter on;
 *   NN-name   per chart: its table (units in the headers) and a native
 *             Excel chart drawn from those cells, so editing a number
 *             redraws the chart.
 *
 * Document properties carry the provenance (comments: command line and
 * every input's sha256).  Sheet names are the charts' file stems, cut to
 * Excel's 31 characters; the NN prefix keeps them unique.
 */
#include "report.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>

struct book {
	lxw_workbook *wb;
	lxw_format *bold;
	const struct report *r;
};

static uint32_t rgb(size_t i)
{
	const unsigned char *p = chart_palette[i % CHART_NCOLORS];

	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
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
	lxw_worksheet *ws = workbook_add_worksheet(b->wb, "Summary");
	lxw_row_t row = 0;

	worksheet_set_column(ws, 0, 0, 28, NULL);
	worksheet_set_column(ws, 1, 1, 70, NULL);
	worksheet_write_string(ws, row++, 0, r->title, b->bold);
	worksheet_write_string(ws, ++row, 0, "Made by", b->bold);
	worksheet_write_string(ws, row++, 1, "storan " STORAN_VERSION, NULL);
	if (r->command_line) {
		worksheet_write_string(ws, row, 0, "Command", b->bold);
		worksheet_write_string(ws, row++, 1, r->command_line, NULL);
	}
	worksheet_write_string(ws, row, 0, "Measurements", b->bold);
	worksheet_write_number(ws, row++, 1, (double)r->rs->n, NULL);
	worksheet_write_string(ws, ++row, 0, "Input", b->bold);
	worksheet_write_string(ws, row, 1, "sha256", b->bold);
	worksheet_write_string(ws, row++, 2, "Format", b->bold);
	for (int i = 0; i < r->ninputs; i++, row++) {
		worksheet_write_string(ws, row, 0, r->inputs[i].name, NULL);
		worksheet_write_string(ws, row, 1, r->inputs[i].sha256, NULL);
		worksheet_write_string(ws, row, 2, "(as given)", NULL);
	}
	for (size_t i = 0; i < r->rs->nsources; i++, row++) {
		const struct source *s = &r->rs->sources[i];

		worksheet_write_string(ws, row, 0, s->name, NULL);
		worksheet_write_string(ws, row, 1, s->sha256, NULL);
		if (s->format)
			worksheet_write_string(ws, row, 2, s->format, NULL);
	}
	worksheet_write_string(ws, ++row, 0, "Sheet", b->bold);
	worksheet_write_string(ws, row++, 1, "Chart", b->bold);
	for (size_t i = 0; i < r->n; i++, row++) {
		char *name = sheet_name(r, i);
		char *url = xstrfmt("internal:'%s'!A1", name);

		worksheet_write_url_opt(ws, row, 0, url, NULL, name, NULL);
		worksheet_write_string(ws, row, 1, r->charts[i].chart.title,
				       NULL);
		free(url);
		free(name);
	}
	for (size_t i = 0; i < r->nnotes; i++, row++)
		worksheet_write_string(ws, row + 1, 0, r->notes[i], NULL);
	if (!r->findings || !r->findings->n)
		return;
	row += 2;
	worksheet_write_string(ws, row, 0, "storan check", b->bold);
	worksheet_write_string(ws, row++, 1, "Finding", b->bold);
	for (size_t i = 0; i < r->findings->n; i++, row++) {
		const struct check_finding *f = &r->findings->v[i];
		char *where = xstrfmt("%s:%u: %s %s", f->source, f->line,
				      check_severity_name(f->severity),
				      f->code);

		worksheet_write_string(ws, row, 0, where, NULL);
		worksheet_write_string(ws, row, 1, f->message, NULL);
		free(where);
	}
}

/* ---- Data -------------------------------------------------------------- */

static const char *const data_columns[] = {
	"source", "line", "tool", "op", "metric", "unit", "n",
	"mean (in unit)", "stddev (in unit)", "min (in unit)",
	"max (in unit)",
};
#define NDATA (sizeof(data_columns) / sizeof(data_columns[0]))

static size_t label_keys(const struct result_set *rs, const char ***out)
{
	const char **k = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < rs->n; i++) {
		for (size_t j = 0; j < rs->m[i].labels.n; j++) {
			const char *key = rs->m[i].labels.v[j].key;
			size_t x;

			for (x = 0; x < n && strcmp(k[x], key); x++)
				;
			if (x < n)
				continue;
			ALLOC_GROW(k, n + 1, alloc);
			k[n++] = key;
		}
	}
	*out = k;
	return n;
}

static void write_number_or_blank(lxw_worksheet *ws, lxw_row_t r,
				  lxw_col_t c, double v)
{
	if (!isnan(v) && !isinf(v))
		worksheet_write_number(ws, r, c, v, NULL);
}

static void write_measurement(lxw_worksheet *ws, lxw_row_t row,
			      const struct measurement *m, const char **keys,
			      size_t nkeys)
{
	struct measurement_stats st;
	lxw_col_t col = NDATA;

	measurement_basic_stats(m, &st);
	worksheet_write_string(ws, row, 0, m->source_name ? m->source_name :
			       "", NULL);
	worksheet_write_number(ws, row, 1, m->line, NULL);
	worksheet_write_string(ws, row, 2, m->tool, NULL);
	worksheet_write_string(ws, row, 3, m->op, NULL);
	worksheet_write_string(ws, row, 4, m->metric, NULL);
	worksheet_write_string(ws, row, 5, m->unit, NULL);
	worksheet_write_number(ws, row, 6, (double)st.n, NULL);
	write_number_or_blank(ws, row, 7, st.mean);
	write_number_or_blank(ws, row, 8, st.stddev);
	write_number_or_blank(ws, row, 9, st.min);
	write_number_or_blank(ws, row, 10, st.max);
	for (size_t k = 0; k < nkeys; k++, col++) {
		const char *v = labels_get(&m->labels, keys[k]);
		double num;

		if (!v)
			continue;
		if (is_numeric_string(v, &num))
			worksheet_write_number(ws, row, col, num, NULL);
		else
			worksheet_write_string(ws, row, col, v, NULL);
	}
	for (size_t i = 0; i < m->n; i++)
		write_number_or_blank(ws, row, (lxw_col_t)(col + i),
				      m->values[i]);
}

static void write_data(struct book *b)
{
	const struct result_set *rs = b->r->rs;
	lxw_worksheet *ws = workbook_add_worksheet(b->wb, "Data");
	const char **keys;
	size_t nkeys = label_keys(rs, &keys), runs = 0;
	lxw_col_t col;

	for (size_t i = 0; i < rs->n; i++)
		runs = rs->m[i].n > runs ? rs->m[i].n : runs;
	for (col = 0; col < NDATA; col++)
		worksheet_write_string(ws, 0, col, data_columns[col], b->bold);
	for (size_t k = 0; k < nkeys; k++)
		worksheet_write_string(ws, 0, col++, keys[k], b->bold);
	for (size_t i = 0; i < runs; i++) {
		char *h = xstrfmt("run %zu (in unit)", i + 1);

		worksheet_write_string(ws, 0, col++, h, b->bold);
		free(h);
	}
	for (size_t i = 0; i < rs->n; i++)
		write_measurement(ws, (lxw_row_t)(i + 1), &rs->m[i], keys,
				  nkeys);
	worksheet_freeze_panes(ws, 1, 0);
	worksheet_autofilter(ws, 0, 0, (lxw_row_t)rs->n,
			     (lxw_col_t)(col - 1));
	worksheet_set_column(ws, 0, 0, 20, NULL);
	worksheet_set_column(ws, 7, 10, 16, NULL);
	free(keys);
}

/* ---- chart sheets ------------------------------------------------------ */

static void style_series(const struct chart *c, lxw_chart_series *se,
			 size_t s, int columns)
{
	lxw_chart_line line = { .color = rgb(s), .width = 2.25 };
	lxw_chart_fill fill = { .color = rgb(s) };

	if (columns) {
		chart_series_set_fill(se, &fill);
		return;
	}
	chart_series_set_line(se, &line);
	if (c->kind == CHART_CDF || c->series[s].n > 40) {
		chart_series_set_marker_type(se, LXW_CHART_MARKER_NONE);
		return;
	}
	chart_series_set_marker_type(se, LXW_CHART_MARKER_CIRCLE);
	chart_series_set_marker_fill(se, &fill);
	chart_series_set_marker_line(se, &line);
}

static uint8_t chart_type(const struct chart *c, int table)
{
	if (!table || (c->x.scale != AXIS_CATEGORY &&
		       c->x.scale != AXIS_NINES))
		return c->kind == CHART_SCATTER ? LXW_CHART_SCATTER :
		       table ? LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS :
		       LXW_CHART_SCATTER_STRAIGHT;
	return c->kind == CHART_LINE || c->kind == CHART_PERCENTILES ?
	       LXW_CHART_LINE : LXW_CHART_COLUMN;
}

static void axes(const struct chart *c, lxw_chart *ch, int table)
{
	lxw_chart_axis *x = chart_axis_get(ch, LXW_CHART_AXIS_TYPE_X);
	lxw_chart_axis *y = chart_axis_get(ch, LXW_CHART_AXIS_TYPE_Y);
	int category = table && (c->x.scale == AXIS_CATEGORY ||
				 c->x.scale == AXIS_NINES);

	chart_axis_set_name(x, c->x.title);
	chart_axis_set_name(y, c->y.title);
	if (!category && c->x.scale == AXIS_LOG2)
		chart_axis_set_log_base(x, 2);
	else if (!category && c->x.scale == AXIS_LOG10)
		chart_axis_set_log_base(x, 10);
	if (!category && c->x.scale != AXIS_NINES) {
		chart_axis_set_min(x, c->x.min);
		chart_axis_set_max(x, c->x.max);
	}
	if (c->y.scale == AXIS_LOG10)
		chart_axis_set_log_base(y, 10);
	if (c->ratio) {
		/* bars grow from 1.0 */
		chart_axis_set_crossing(y, 1.0);
		chart_axis_set_label_position(x,
				LXW_CHART_AXIS_LABEL_POSITION_LOW);
	}
	chart_axis_set_min(y, c->y.min);
	chart_axis_set_max(y, c->y.max);
}

/* The chart's table at A1: x, one column per series, then error bars. */
static void write_table(struct book *b, lxw_worksheet *ws, lxw_chart *ch,
			const struct chart *c, const struct chart_table *t,
			const char *sheet)
{
	int errs = c->errorbars != CHART_ERR_NONE;
	int category = c->x.scale == AXIS_CATEGORY ||
		       c->x.scale == AXIS_NINES;
	lxw_col_t ecol = (lxw_col_t)(1 + t->ncols);

	worksheet_write_string(ws, 0, 0, c->x.title, b->bold);
	for (size_t row = 0; row < t->nrows; row++) {
		if (category)
			worksheet_write_string(ws, (lxw_row_t)(row + 1), 0,
					       t->xlabel[row], NULL);
		else
			worksheet_write_number(ws, (lxw_row_t)(row + 1), 0,
					       t->x[row], NULL);
	}
	for (size_t s = 0; s < t->ncols; s++) {
		char *h = chart_table_header(c, s);
		lxw_col_t col = (lxw_col_t)(1 + s);
		lxw_chart_series *se;

		worksheet_write_string(ws, 0, col, h, b->bold);
		for (size_t row = 0; row < t->nrows; row++) {
			size_t i = row * t->ncols + s;

			write_number_or_blank(ws, (lxw_row_t)(row + 1), col,
					      t->y[i]);
			if (!errs)
				continue;
			write_number_or_blank(ws, (lxw_row_t)(row + 1), ecol,
					      t->lo[i]);
			write_number_or_blank(ws, (lxw_row_t)(row + 1),
					      ecol + 1, t->hi[i]);
		}
		if (errs) {
			char *lo = xstrfmt("%s: error bar low", h);
			char *hi = xstrfmt("%s: error bar high", h);

			worksheet_write_string(ws, 0, ecol, lo, b->bold);
			worksheet_write_string(ws, 0, ecol + 1, hi, b->bold);
			free(lo);
			free(hi);
			ecol += 2;
		}
		se = chart_add_series(ch, NULL, NULL);
		chart_series_set_categories(se, sheet, 1, 0,
					    (lxw_row_t)t->nrows, 0);
		chart_series_set_values(se, sheet, 1, col,
					(lxw_row_t)t->nrows, col);
		chart_series_set_name(se, *c->series[s].name ?
				      c->series[s].name : c->metric);
		style_series(c, se, s, chart_type(c, 1) == LXW_CHART_COLUMN);
		free(h);
	}
	worksheet_set_column(ws, 0, (lxw_col_t)(ecol - 1), 16, NULL);
}

/* Curves (CDFs, percentiles from histograms): x and y columns per series. */
static void write_curves(struct book *b, lxw_worksheet *ws, lxw_chart *ch,
			 const struct chart *c, const char *sheet)
{
	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];
		lxw_col_t col = (lxw_col_t)(2 * s);
		char *h = chart_table_header(c, s);
		lxw_chart_series *xs;

		worksheet_write_string(ws, 0, col, c->x.title, b->bold);
		worksheet_write_string(ws, 0, col + 1, h, b->bold);
		for (size_t i = 0; i < se->n; i++) {
			worksheet_write_number(ws, (lxw_row_t)(i + 1), col,
					       se->p[i].x, NULL);
			write_number_or_blank(ws, (lxw_row_t)(i + 1), col + 1,
					      se->p[i].y);
		}
		xs = chart_add_series(ch, NULL, NULL);
		chart_series_set_categories(xs, sheet, 1, col,
					    (lxw_row_t)se->n, col);
		chart_series_set_values(xs, sheet, 1, col + 1,
					(lxw_row_t)se->n, col + 1);
		chart_series_set_name(xs, *se->name ? se->name : c->metric);
		style_series(c, xs, s, 0);
		free(h);
	}
}

static void write_chart_sheet(struct book *b, size_t i)
{
	const struct chart *c = &b->r->charts[i].chart;
	char *sheet = sheet_name(b->r, i);
	lxw_worksheet *ws = workbook_add_worksheet(b->wb, sheet);
	struct chart_table t;
	int table = !chart_table_build(c, &t);
	lxw_chart *ch = workbook_add_chart(b->wb, chart_type(c, table));
	lxw_chart_options opt = { .x_offset = 10, .y_offset = 10,
				  .x_scale = 1.5, .y_scale = 1.5 };

	if (table)
		write_table(b, ws, ch, c, &t, sheet);
	else
		write_curves(b, ws, ch, c, sheet);
	chart_title_set_name(ch, c->title);
	axes(c, ch, table);
	chart_legend_set_position(ch, c->nseries > 1 ?
				  LXW_CHART_LEGEND_BOTTOM :
				  LXW_CHART_LEGEND_NONE);
	worksheet_insert_chart_opt(ws, 1, (lxw_col_t)(table ?
			2 + t.ncols * (c->errorbars != CHART_ERR_NONE ? 3 : 1) :
			2 * c->nseries + 1), ch, &opt);
	worksheet_freeze_panes(ws, 1, 0);
	if (table)
		chart_table_release(&t);
	free(sheet);
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
	struct book b = { .r = r };
	struct strbuf comments = STRBUF_INIT;
	lxw_doc_properties props;
	lxw_error err;

	b.wb = workbook_new(path);
	if (!b.wb)
		return error("cannot create '%s'", path);
	b.bold = workbook_add_format(b.wb);
	format_set_bold(b.bold);
	properties(&b, &props, &comments);
	workbook_set_properties(b.wb, &props);
	write_summary(&b);
	write_data(&b);
	for (size_t i = 0; i < r->n; i++)
		write_chart_sheet(&b, i);
	err = workbook_close(b.wb);
	strbuf_release(&comments);
	if (err != LXW_NO_ERROR)
		return error("cannot write '%s': %s", path,
			     lxw_strerror(err));
	return 0;
}
