/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A report as data: its charts and their tables, the verdicts of a
 * comparison, its notes and inputs.  plot/report.c plans and builds one
 * and writes it (plot/report.h); the parts it is built from (time
 * charts, tables) and the writers of each format read and add to it
 * through this header only, so nothing below report.c calls back up.
 */
#ifndef STORAN_PLOT_REPORT_MODEL_H
#define STORAN_PLOT_REPORT_MODEL_H

#include "chart.h"
#include "../analysis/check.h"
#include "../analysis/compare.h"
#include "../analysis/footnotes.h"
#include "../analysis/format.h"
#include "../analysis/plan.h"

struct xlsx_data;

struct report_chart {
	char *name;		/* file stem: "01-fio-bw-ratio-1" */
	struct chart chart;
	int ratio;		/* a ratio chart of a comparison */
	size_t side;		/* ratio: the candidate side */
	/* Its table: the chart's points (has_table 0 for CDFs, whose
	 * points are the workbook's) */
	struct fmt_table table;
	int has_table;
	unsigned *marks;	/* findings the chart's figures cite */
	size_t nmarks;
};

/* A candidate side against the baseline (side 0). */
struct report_verdicts {
	size_t side;
	struct compare_result res;
	struct fmt_table table;		/* the headline rows */
	struct fmt_table all;		/* every row (the workbook) */
	char *summary;			/* "2 regressions, ... (n compared)" */
	char *geomeans;			/* "bw x1.12 over 8 tests; ..." */
};

struct report_options {
	const char *title;
	const struct filter *where;
	char **metrics;
	size_t nmetrics;
	char **pool;
	size_t npool;
	const char *compare;		/* --compare KEY */
	const char *ratio;		/* --ratio KEY=A/KEY=B */
	const char *series;		/* --series KEY */
	char **match, **ignore;		/* for the verdicts */
	size_t nmatch, nignore;
	double threshold, alpha;	/* for the verdicts (5%, 0.05) */
	double scale;			/* PNG pixels per point (2) */
};

struct report {
	char *title;
	const struct result_set *rs;	/* every input, merged */
	const struct result_set *sets;	/* views into rs: one per input */
	size_t nsets;
	const char *command_line;
	const struct chart_input *inputs;	/* the files named */
	int ninputs;
	const struct check_list *findings;	/* storan check's, or NULL */
	struct footnotes *fn;		/* numbers findings; NULL: none */
	size_t fn_set;			/* the set of rs in fn */
	double scale;
	struct plan plan;
	struct report_verdicts *verdicts;	/* one per candidate side */
	size_t nverdicts;
	struct fmt_table factors;	/* one side: what varies (keys) */
	int has_factors;
	struct report_chart *charts;
	size_t n, alloc;
	char **notes;		/* for the reader: what the page leaves out */
	size_t nnotes, notes_alloc;
	/* A table the page and the Markdown open with (its title as the
	 * heading), before the charts; NULL: none.  Borrowed. */
	const struct fmt_table *lead;
	/* The workbook's Data sheet rows, begun by report_start_data();
	 * NULL: the workbook writes them itself.  Owned. */
	struct xlsx_data *data;
};

void report_init(struct report *r);
void report_release(struct report *r);

/*
 * Begins the workbook's Data sheet (a row per measurement of rs, the
 * report's whole result set) on a thread of its own, while the report is
 * planned: call it once rs will not change again.  Optional: without it
 * the workbook writes those rows when it is written.
 */
void report_start_data(struct report *r, const struct result_set *rs);

/*
 * The sources to list under Inputs beside the files given: those a
 * result set was made from.  A source that is itself one of the files
 * given (text handed to report directly: the same SHA-256) is listed
 * once, as given.
 */
int report_source_listed(const struct report *r, const struct source *s);
/* A source with no name and no hash (a result set's measurements that
 * named none): nothing to tell, in any list of sources. */
int report_source_nameless(const struct source *s);

/* "N measurements from M sources; made by storan V." (the sources with
 * a name or a hash; none: no "from"). */
void report_add_counts(const struct report *r, struct strbuf *sb);

/* What input i is: the format of the source it is (text read directly),
 * else "result set" (storan JSON, its sources listed after it). */
const char *report_input_format(const struct report *r, int i);

/* A SHA-256 as shown: the digest, or an em dash where none is known. */
const char *report_sha_text(const char *sha256);

/* Adds a note to the report's Notes. */
void report_add_note(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
