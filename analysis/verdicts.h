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
 * The table of r's rows (all of them, or the headline metrics only),
 * baseline name_a, candidate name_b.  Column 2 is the baseline's mean,
 * column 3 the candidate's (for footnote marks).
 */
void verdicts_table(const struct compare_result *r, const char *name_a,
		    const char *name_b, int headline_only,
		    struct fmt_table *out);

/* The row of r that table row `row` shows (headline_only as above). */
const struct compare_row *verdicts_row(const struct compare_result *r,
				       int headline_only, size_t row);

/*
 * "3 regressions, 5 improvements, 2 unchanged, 1 inconclusive (11 tests
 * compared, 2 unmatched)", then per metric the geometric mean of the
 * ratios: "throughput x1.12 over 8 tests".
 */
void verdicts_summary(const struct compare_result *r, struct strbuf *out);
void verdicts_geomeans(const struct compare_result *r, struct strbuf *out);

#endif
