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
 * the caller) are listed, and every chart a finding touches says so under
 * it.  report_write() renders everything into a temporary
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

struct report_chart {
	char *name;		/* file stem: "01-fio-bw-host-nvme" */
	struct chart chart;
};

struct report {
	char *title;
	const struct result_set *rs;
	const char *command_line;
	const struct chart_input *inputs;	/* the files named */
	int ninputs;
	const struct check_list *findings;	/* storan check's, or NULL */
	struct report_chart *charts;
	size_t n, alloc;
	char **notes;		/* what the plan left out, and why */
	size_t nnotes, notes_alloc;
};

void report_init(struct report *r);
void report_release(struct report *r);

/* Chooses the charts for rs; 0, or -1 when there is nothing to show. */
int report_plan(struct report *r, const struct result_set *rs,
		const char *title);

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

/* The findings that touch chart i's measurements, into idx; how many. */
size_t report_chart_findings(const struct report *r, size_t i, size_t *idx,
			     size_t max);

/* The writers (plot/xlsx.c, plot/html.c, plot/markdown.c). */
int report_write_xlsx(const struct report *r, const char *path);
/* svgs[i] is chart i's SVG file text. */
void report_write_html(const struct report *r, const struct strbuf *svgs,
		       struct strbuf *out);
void report_write_markdown(const struct report *r, struct strbuf *out);

#endif
