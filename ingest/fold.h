/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Folding repeated runs as they are read: a log that holds the same
 * command's output three times is one measurement with three values, not
 * three unrelated ones.  Two outputs fold when they have the same key
 * (tool, op, metric, unit, source name, labels) and nothing but blank
 * lines, prompts and recognised output lies between them: prose in
 * between ("then on the other card:") keeps them apart, because the
 * author is telling us the conditions changed.
 *
 * The measurements of an input come to the fold one at a time, labelled
 * (ingest/context.h), each in its parser's order; the fold keeps one row
 * per series, so that a log of a million runs of a few tests holds a few
 * rows and their values, not a million measurements.  The rows are
 * rs->m[base ..], the fold's; fold_finish() puts them in the order their
 * first lines come in the text, so that exports read like the file.
 */
#ifndef STORAN_FOLD_H
#define STORAN_FOLD_H

#include <stddef.h>
#include <stdint.h>

struct measurement;
struct result_set;
struct fold_row;
struct value_file;

struct fold {
	struct result_set *rs;
	size_t base;		/* the rows are rs->m[base .. base + n) */
	size_t n, alloc;
	struct fold_row *row;
	size_t *slot;		/* the latest row of a key, + 1; 0: free */
	size_t nslots, nkeyed;
	int all_output;		/* an input read whole: no prose in it */
	/*
	 * The rows' values may go to a temporary file (core/valspill.h)
	 * once they hold more than FOLD_VALUES_HELD in memory: set by
	 * storan ingest, whose output only streams them out.  held counts
	 * the values the rows hold in memory; past spill_at, they spill.
	 */
	int may_spill;
	size_t held, spill_at, spill_min;
	struct value_file *spill;	/* made when first needed */
};

/* Values the rows of one input hold in memory before they spill: 2 MB,
 * 4 with the slack of the arrays growing. */
#define FOLD_VALUES_HELD ((size_t)1 << 18)
/* Rows with fewer values keep them (a file chunk costs 16 bytes). */
#define FOLD_SPILL_MIN 16

/* Where a measurement was read: a text line index and the prose lines
 * before it and before the next line (ingest/context.h); its parser's
 * place in the table and its own among that parser's measurements. */
struct fold_place {
	size_t line, prose, prose_next;
	unsigned rank;
	size_t seq;
};

void fold_init(struct fold *f, struct result_set *rs, size_t base,
	       int all_output);
/*
 * The rows' values may go to a temporary file (see may_spill).  The
 * environment variable STORAN_TEST_SPILL=N, for tests, spills every row
 * past N values held: the goldens, read so, must not change.
 */
void fold_allow_spill(struct fold *f);
void fold_release(struct fold *f);
/*
 * Takes *m: its values join the row of its series (and m is released),
 * or it becomes a row, moved to rs->m[base + n] (which holds nothing
 * else: m itself, a measurement moved away, or room rs is grown by when
 * m lies elsewhere).  Returns the index of that row.
 */
size_t fold_take(struct fold *f, struct measurement *m,
		 const struct fold_place *at);
/*
 * One more value of the key of row `row`, read at `at`, as fold_take()
 * of a measurement of that key and value would join it: 0 when it
 * joined, -1 when that row is no longer its key's latest or prose lies
 * between (the value is then the caller's to take).
 */
int fold_join_value(struct fold *f, size_t row, double v,
		    const struct fold_place *at);
/* Puts the rows in the order of their first lines (then of their
 * parsers, then as each parser emitted them). */
void fold_finish(struct fold *f);

#endif
