/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The writers of `storan compare`: its results (analysis/compare.h) as a
 * text or Markdown table per candidate, one CSV, one JSON document.
 *
 * Every writer takes names[0], the baseline's input name, and
 * names[1..nres], the candidates'; res[i] compares names[i + 1] with
 * names[0].  fn holds storan check's findings on every input (its set i
 * is input i, analysis/footnotes.h), or is NULL for no findings.  Output
 * is appended to out.
 *
 * The CSV columns are a contract (CONTRACTS.md):
 *   tool,op,metric,labels,n_a,mean_a,n_b,mean_b,ratio,change_pct,p_value,
 *   test,verdict
 * (with label input=CANDIDATE among the labels when there are several
 * candidates), and a trailing `findings` column (codes, ';') only when a
 * finding touches a compared figure: without findings, CSV reads as it
 * always did.
 */
#ifndef STORAN_COMPARE_OUT_H
#define STORAN_COMPARE_OUT_H

#include <stddef.h>

#include "compare.h"
#include "footnotes.h"
#include "format.h"
#include "../core/strbuf.h"

/*
 * One table per candidate, blank-line separated, with the summary notes
 * and the footnotes under each.  FMT_TEXT says what every row shares
 * once above the table, shows only the columns that tell rows apart and
 * fits width columns (0: no limit); other kinds (FMT_MD) show every
 * column.  color: ANSI colours for the verdicts (text only).  out goes
 * to drain as it fills (NULL: out keeps it all).
 */
void compare_write_tables(enum fmt_kind kind, char *const *names,
			  const struct compare_result *res, int nres,
			  struct footnotes *fn, int color, size_t width,
			  struct strbuf *out, const struct strbuf_drain *drain);

/* Every candidate's rows in one CSV (the contract above). */
void compare_write_csv(char *const *names, const struct compare_result *res,
		       int nres, struct footnotes *fn, struct strbuf *out);

/* One JSON document: the options' threshold and alpha, then each
 * comparison with its pairs, unmatched measurements, notes and summary. */
void compare_write_json(const struct compare_options *opt,
			char *const *names, const struct compare_result *res,
			int nres, struct footnotes *fn, struct strbuf *out);

#endif
