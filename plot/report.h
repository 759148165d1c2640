/*
 * The report: which charts and tables a reader needs, chosen from the data,
 * and the directory that holds them.
 *
 * report_plan() looks at a result set and builds one chart per tool and
 * metric group (throughput, IOPS, mean latency, latency percentiles, CDFs
 * from histograms, elapsed time), split into one chart per value of any
 * key that would otherwise crowd a chart (a facet), plus a ratio chart
 * where the data holds two groups that differ by one label (file vs block,
 * old vs new host).  The findings of `storan check` (r->findings, run by
 * the caller) are listed; footnotes (analysis/footnotes.h) mark the
 * figures they touch in each chart's table and the chart's caption, as
 * `storan table` marks them.  Tables are pivots (analysis/table.h) rendered
 * by analysis/format.h: the table `storan table` prints for the same rows
 * and columns.  report_write() renders everything into a temporary
 * directory beside DIR and renames it into place, so a failed run leaves
 * no half report:
 *
 *   DIR/charts/NN-name.png, .svg   every chart
 *   DIR/report.xlsx                Summary, Data, one sheet per chart
 *   DIR/index.html                 one self-contained page
 *   DIR/report.md                  Markdown tables and image links
 *
 * A report borrows its result set (which must outlive it) and owns the rest.
 */
#ifndef STORAN_PLOT_REPORT_H
#define STORAN_PLOT_REPORT_H

#include "chart.h"
#include "../analysis/check.h"
#include "../analysis/footnotes.h"
#include "../analysis/format.h"

struct report_chart {
	char *name;		/* file stem: "01-fio-bw-host-nvme" */
	struct chart chart;
	/* what the chart selects, for its pivot table */
	struct filter where;
	char *x_key, *series_key;	/* series_key NULL: one column */
	char *ratio;			/* "key=A/key=B" or NULL */
	/*
	 * Its table (report_tables): the pivot `storan table` would print,
	 * or the chart's points for percentile curves; has_table 0 when
	 * there is none (CDFs), and then table holds only the footnotes.
	 */
	struct fmt_table table;
	int has_table;
	int pivot;			/* table is a pivot (rows x, cols series) */
	unsigned *marks;		/* footnotes the chart's figures cite */
	size_t nmarks;
};

struct report {
	char *title;
	const struct result_set *rs;
	const char *command_line;
	const struct chart_input *inputs;	/* the files named */
	int ninputs;
	const struct check_list *findings;	/* storan check's, or NULL */
	struct footnotes *fn;		/* numbers findings; NULL: none */
	size_t fn_set;			/* the set of rs in fn */
	struct report_chart *charts;
	size_t n, alloc;
	char **notes;		/* what the plan left out, and why */
	size_t nnotes, notes_alloc;
	/* A table the page and the Markdown open with (its title as the
	 * heading), before the charts; NULL: none.  Borrowed. */
	const struct fmt_table *lead;
};

void report_init(struct report *r);
void report_release(struct report *r);

/* Adds a note to the report's Notes (before report_plan adds its own). */
void report_add_note(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Chooses the charts for rs; 0, or -1 when there is nothing to show. */
int report_plan(struct report *r, const struct result_set *rs,
		const char *title);

/*
 * Builds every chart's table and cites r->fn's findings in it (numbered
 * anew for each chart, from its table's top left); report_plan does it.
 */
void report_tables(struct report *r);

/* Writes DIR atomically; 0, or -1 after error() (DIR is left as it was). */
int report_write(const struct report *r, const char *dir);

/*
 * A chart's numbers as a table: one row per x value, one column per
 * series; y/lo/hi are nrows x ncols, NAN where a series has no point.
 */
struct chart_table {
	size_t nrows, ncols;
	double *x;
	char **xlabel;
	double *y, *lo, *hi;
};

/* 0, or -1 when the chart is a curve (CDF, histogram percentiles). */
int chart_table_build(const struct chart *c, struct chart_table *t);
void chart_table_release(struct chart_table *t);
/* "read (MB/s)": a column header with the unit. */
char *chart_table_header(const struct chart *c, size_t col);
/* "239 ± 3.1" (the half width of the error bar when it has one). */
char *chart_table_cell(const struct chart *c, const struct chart_table *t,
		       size_t row, size_t col);


/* The writers (plot/xlsx.c, plot/html.c, plot/markdown.c). */
int report_write_xlsx(const struct report *r, const char *path);
/* svgs[i] is chart i's SVG file text. */
void report_write_html(const struct report *r, const struct strbuf *svgs,
		       struct strbuf *out);
void report_write_markdown(const struct report *r, struct strbuf *out);

#endif
