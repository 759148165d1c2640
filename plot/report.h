/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report: what the plan (analysis/plan.h) decided, drawn, and the
 * directory that holds it.
 *
 * report_plan() asks the plan for the charts, and with two or more sides
 * (report A B, --compare KEY, --ratio) compare (analysis/compare.h) for
 * the verdicts of each candidate against the baseline; it builds every
 * chart from the plan's experiment models (plot/chart.h), its table from
 * its points (so the table shows exactly what the chart does: one row
 * per x, one column per series, the whisker and n of each point), and
 * marks the cells with storan check's findings, numbered once for the
 * whole report (analysis/footnotes.h): a cell cites only the findings on
 * the measurements behind its own figure.  report_write() renders it
 * into a directory written whole (core/outdir.h):
 *
 *   DIR/charts/NN-name.png, .svg   every chart (PNG at 2x by default)
 *   DIR/charts/NN-name.json        the chart as data: series, points with
 *                                  n, mean or values, interval, labels
 *   DIR/report.xlsx                Summary, Verdicts, Data, a sheet per
 *                                  chart
 *   DIR/index.html                 one self-contained page
 *   DIR/report.md                  Markdown tables and image links
 *
 * A report borrows its result sets (which must outlive it) and owns the
 * rest.
 */
#ifndef STORAN_PLOT_REPORT_H
#define STORAN_PLOT_REPORT_H

#include "report-model.h"

/*
 * Plans and builds everything for r->sets (set r->rs, r->sets, r->nsets,
 * r->fn first).  Returns 0, or -1 with err set (a bad --compare key) or
 * empty (nothing to chart).
 */
int report_plan(struct report *r, const struct report_options *opt,
		struct strbuf *err);

/* Writes DIR atomically; 0, or -1 after error() (DIR is left as it was). */
int report_write(const struct report *r, const char *dir);

#endif
