/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A comparison's verdicts as a report shows them (storan report A B):
 * the table a reader of the page looks at first, and its summary line.
 *
 * Rows are compare's (analysis/compare.h), the headline metrics only on
 * the page (throughput, IOPS, mean and p99 latency, elapsed time; the
 * workbook has them all).  The "test" column names a row by what tells
 * the rows apart (op, and the labels whose values differ between rows),
 * never by every label it has.
 */
#ifndef STORAN_VERDICTS_H
#define STORAN_VERDICTS_H

#include "compare.h"
#include "format.h"
#include "../core/strbuf.h"

/* bw, iops, lat.mean, clat.mean, *.p99, time.real. */
int verdicts_headline_metric(const char *metric);

/*
 * The rows a table shows, as indices into r->rows in r's order: all, or
 * the headline metrics (less IOPS where the tool's throughput is there:
 * at one block size their ratios are one number), and when there are more than max (0: no
 * limit) the max that say most -- changes before inconclusive before
 * unchanged, larger ratios first.  rows has room for r->nrows; *nshown
 * is how many qualified.  Returns how many were picked.
 */
size_t verdicts_pick(const struct compare_result *r, int headline_only,
		     size_t max, size_t *rows, size_t *nshown);

/*
 * The table of rows[0..nrows) of r, baseline name_a, candidate name_b.
 * Column 2 is the baseline's mean, column 3 the candidate's (for
 * footnote marks).  A row's test names what tells it apart from the
 * other rows of its kind (headline or all), picked or not.
 */
void verdicts_table(const struct compare_result *r, int headline_only,
		    const size_t *rows, size_t nrows, const char *name_a,
		    const char *name_b, struct fmt_table *out);

/*
 * "3 regressions, 5 improvements, 2 unchanged, 1 inconclusive (11 tests
 * compared, 2 unmatched)" over the rows verdicts_pick() takes; then per
 * headline metric the geometric mean of the ratios, per op where two to
 * four were compared: "bw: randread x0.420 (1 test), randwrite x5.518".
 */
void verdicts_summary(const struct compare_result *r, int headline_only,
		      struct strbuf *out);
void verdicts_geomeans(const struct compare_result *r, struct strbuf *out);

/* "148 MB/s": a mean of the row in a unit that suits both its sides. */
void verdict_mean_text(const struct compare_row *row, double v, char *buf,
		       size_t size);

/* A row's figure as every table shows it: ratio "1.036", change
 * "+3.6%", p "<0.001", verdict "regression *" (the star: single runs). */
enum verdict_figure { VF_RATIO, VF_CHANGE, VF_P, VF_VERDICT };
void verdict_figure_text(const struct compare_row *row,
			 enum verdict_figure f, char *buf, size_t size);

/* How a verdict is shown: improvement good, regression bad,
 * inconclusive a warning. */
enum fmt_style verdict_style(enum verdict v);

/*
 * A comparison row's ratio, change and p in columns col, col+1, col+2
 * (text as shown, the number kept), and its verdict ("regression *": the
 * star for single runs, judged by the threshold alone) styled in
 * verdict_col: compare's tables and the report's verdict table alike.
 */
void verdict_cells(struct fmt_table *t, size_t r, size_t col,
		   size_t verdict_col, const struct compare_row *row);

#endif
