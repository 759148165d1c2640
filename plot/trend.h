/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The trend page of `storan report DB -o DIR`: a chart per series of a
 * store (analysis/history.h), value over runs, with its change points
 * marked, and the table of change points first.
 *
 * trend_plan() fills a report (plot/report.h) -- charts from the chart
 * model (chart_build on a result set of the series' points, then the
 * change points added to it as series of their own), the change table
 * as the page's lead table -- which report_write() writes as every other
 * report: into a temporary directory, renamed into place.  The report
 * borrows rs and lead, which the caller keeps until it is written.
 */
#ifndef STORAN_PLOT_TREND_H
#define STORAN_PLOT_TREND_H

#include "report.h"
#include "../analysis/history.h"

/* The most trend charts one page shows (series with changes first). */
#define TREND_MAX_CHARTS 60

/*
 * Plans r from h and its change points c[0..nc) (history_detect order):
 * fills rs with one measurement per series and run, lead with the change
 * table.  Returns 0, or -1 when h has no series.
 */
int trend_plan(struct report *r, const struct history *h,
	       const struct history_change *c, size_t nc, const char *db,
	       const char *title, struct result_set *rs,
	       struct fmt_table *lead);

#endif
