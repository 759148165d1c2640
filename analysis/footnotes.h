/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Footnotes: storan check's findings under the tables that show the
 * figures they touch, so that a published table never hides them.
 *
 * One struct footnotes holds the findings of one or more checked result
 * sets (table checks the one set it pivots; compare checks the baseline
 * and every candidate, each a set of its own) and the numbering of one
 * table.  A finding gets a number the first time a cell cites it, so the
 * footnotes read 1, 2, 3 from the top left of the table down; a finding
 * quoted word for word by two sets (the same file given as baseline and
 * candidate) keeps one number.
 *
 * Use:
 *
 *	struct footnotes fn;
 *	struct check_options opt;	// check_options_init(), --link, --ram
 *	size_t set;
 *
 *	footnotes_init(&fn, CHECK_WARNING);	// --findings warnings
 *	if (footnotes_check(&fn, rs, &opt, &set, &err))
 *		...				// unknown link
 *	// for each cell that shows a figure of measurements mi[0..n) of set:
 *	footnotes_mark_cell(&fn, &table, row, col, set, mi, n);
 *	footnotes_to_fmt(&fn, &table);		// the notes under the table
 *	footnotes_restart(&fn);			// the next table: from 1
 *	footnotes_release(&fn);
 *
 * Or, without a display table (storan report's charts): footnotes_cite()
 * gives the numbers and footnotes_render() the list.
 *
 * Only findings at least as severe as the level given to footnotes_init()
 * are cited: by default warnings; infos (few-runs, hdparm-cache...) too
 * with --findings all.  Finding which findings touch a measurement is a
 * lookup in an index built once per set (measurement -> findings), so
 * marking a table costs time linear in its cells and their measurements.
 */
#ifndef STORAN_FOOTNOTES_H
#define STORAN_FOOTNOTES_H

#include <pthread.h>
#include <stddef.h>

#include "check.h"
#include "format.h"
#include "../core/keymap.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"

/* One checked result set: its findings, who touches what, numbers. */
struct footnote_set {
	struct check_list findings;
	size_t nmeasurements;	/* of the set that was checked */
	size_t *first;		/* nmeasurements + 1 offsets into touch */
	size_t *touch;		/* finding indices, grouped by measurement */
	unsigned *number;	/* per finding: 0 not cited, else its number */
};

struct footnote_ref {
	size_t set, finding;
};

struct footnotes {
	enum check_severity min;	/* least severity that is cited */
	struct footnote_set *sets;
	size_t nsets, sets_alloc;
	struct footnote_ref *cited;	/* cited[k] is footnote k + 1 */
	size_t ncited, cited_alloc;
	struct keymap text;		/* finding text -> number - 1 */
};

/* "warnings" -> CHECK_WARNING, "all" -> CHECK_INFO; 0, or -1. */
int footnotes_parse_level(const char *name, enum check_severity *out);

void footnotes_init(struct footnotes *fn, enum check_severity min);
void footnotes_release(struct footnotes *fn);

/*
 * Runs storan check over rs (check_run with opt) and keeps its findings
 * as a new set; *set receives its id for footnotes_cite().  rs must not
 * change while fn cites it.  Returns 0, or -1 when opt->link is unknown
 * (err says so; no set is added).
 */
int footnotes_check(struct footnotes *fn, const struct result_set *rs,
		    const struct check_options *opt, size_t *set,
		    struct strbuf *err);
/*
 * footnotes_check() on a thread of its own, while the caller builds its
 * table from the same set: start it, read rs meanwhile (only read: a
 * check and a pivot share nothing but the label sets' hash cache, which
 * is atomic), then finish it, which waits and adds the set as
 * footnotes_check() would.  With one CPU, start runs it at once.
 */
struct footnotes_pending {
	const struct result_set *rs;
	const struct check_options *opt;
	struct check_options one_thread;	/* opt, on one thread */
	struct check_list list;
	struct strbuf err;
	int failed, threaded;
	size_t nchain;		/* checks its thread runs: it and those after */
	pthread_t thread;
};

void footnotes_check_start(struct footnotes_pending *p,
			   const struct result_set *rs,
			   const struct check_options *opt);
/*
 * The same for sets[0..n) into p[0..n), finished in order: on the CPUs
 * the caller leaves spare, one thread each, or one after the other on
 * fewer threads (the two checks of compare A B beside the comparison
 * were three threads on two CPUs, and slowed the comparison down: at a
 * million measurements a side, its grouping took 2.5 s, not 2.0).
 */
void footnotes_checks_start(struct footnotes_pending *p,
			    const struct result_set *sets, size_t n,
			    const struct check_options *opt);
int footnotes_check_finish(struct footnotes *fn, struct footnotes_pending *p,
			   size_t *set, struct strbuf *err);

/*
 * The footnote numbers of the findings of `set` (severe enough) that
 * touch any of the measurements mi[0..n): numbered now if not yet cited,
 * sorted, without repeats, written to nums (room for *count; grown with
 * xrealloc, caller frees).  Returns how many.  An index outside the set
 * is a BUG.
 */
size_t footnotes_cite(struct footnotes *fn, size_t set, const size_t *mi,
		      size_t n, unsigned **nums, size_t *alloc);

/* The finding behind footnote number num (1-based), or NULL. */
const struct check_finding *footnotes_finding(const struct footnotes *fn,
					      unsigned num);

/* Appends "†1,3" for the numbers (nothing when n is 0). */
void footnotes_marker(const unsigned *nums, size_t n, struct strbuf *out);

/*
 * Cites the findings that touch mi[0..n) of set and marks cell (row, col)
 * of t with their numbers (fmt_table_set_notes).  Returns how many.
 */
size_t footnotes_mark_cell(struct footnotes *fn, struct fmt_table *t,
			   size_t row, size_t col, size_t set,
			   const size_t *mi, size_t n);

/*
 * The codes of footnotes nums[0..n) appended to out, separated by ';',
 * each code once ("cached-read;short-run"; a code out already lists is
 * not repeated): compare's CSV column.  The numbers must have been cited.
 */
void footnotes_codes(const struct footnotes *fn, const unsigned *nums,
		     size_t n, struct strbuf *out);

/* Adds every footnote cited so far to t, in number order. */
void footnotes_to_fmt(const struct footnotes *fn, struct fmt_table *t);

/*
 * The footnotes cited so far as a list of their own, one per line, in
 * FMT_TEXT, FMT_MD or FMT_HTML (other kinds: nothing):
 *   †1 SOURCE:LINE: SEVERITY: CODE: message
 */
void footnotes_render(const struct footnotes *fn, enum fmt_kind kind,
		      struct strbuf *out);

/* Forgets the numbering (not the findings): the next table starts at 1. */
void footnotes_restart(struct footnotes *fn);

#endif
