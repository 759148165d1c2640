/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Steady-state verdicts of a result set's series; see steady-table.c. */
#ifndef STORAN_STEADY_TABLE_H
#define STORAN_STEADY_TABLE_H

#include "../core/diag.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"

struct steady_rule;
struct steady_result;

/*
 * storan export --steady, one row per series the rule applies to:
 * verdict steady, never or too-short; from (s), mean (unit) and
 * spread_pct of the steady part, empty unless steady; criterion of the
 * first steady window, or the best one; window in samples; the verdict
 * in words.
 */
#define STEADY_CSV_HEADER "source,line,tool,op,metric,unit,labels,rule," \
	"verdict,from,mean,spread_pct,criterion,window,words"

/* Does the rule look at this measurement (it has a series, of its metric)? */
int steady_applies(const struct steady_rule *r, const struct measurement *m);
/* "steady from 212 s, 41.2 K IOPS ± 2%", the value in a display unit. */
void steady_words(const struct measurement *m,
		  const struct steady_result *res, struct strbuf *out);
void steady_table_csv(const struct result_set *rs,
		      const struct steady_rule *r, const char *rule_text,
		      struct strbuf *out);

/*
 * compare --steady: each measurement with a series the rule applies to
 * gets the figure of its steady part (one value: the mean of the series'
 * samples from the first steady window on; a summary is dropped); one
 * that never settled keeps its whole-log figure, and a note says so.
 * Returns how many were cut.
 */
size_t steady_keep_part(struct result_set *rs, const struct steady_rule *r,
			struct diag_list *notes);

#endif
