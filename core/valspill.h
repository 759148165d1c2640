/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Values moved out of memory into a temporary file as a long log folds.
 *
 * A shell log of a million dd runs folds into a few dozen rows of a
 * hundred thousand values each (ingest/fold.h): 6 values a run, 48 bytes,
 * 240 MB for a 1 GB log, that storan ingest only has to write out at the
 * end.  Its fold moves a row's values, a chunk at a time, into one
 * temporary file per input (tmpfile(): unlinked, gone with the process),
 * and memory holds the latest ones only.
 *
 * A spilled measurement's values are the file's (m->spilled->n of them,
 * in order) followed by m->values[0 .. m->n): measurement_nvalues() counts
 * them all, measurement_each_value() reads them all.  Only storan ingest
 * asks for spilling (struct ingest_options.spill_values), and only its
 * writers read such a measurement: measurement_basic_stats() (the CSV
 * export) and core/rs-json.c know of it; every other command keeps
 * values in memory, where analysis reads m->values directly.
 */
#ifndef STORAN_VALSPILL_H
#define STORAN_VALSPILL_H

#include <stddef.h>
#include <stdint.h>

struct measurement;
struct value_file;		/* one input's file, shared by its rows */

struct value_chunk {
	uint64_t offset;	/* bytes into the file */
	size_t n;		/* values */
};

struct spilled_values {
	struct value_file *file;	/* a reference of its own */
	size_t n;			/* values in the file */
	struct value_chunk *chunk;
	size_t nchunks, alloc;
};

/* A new temporary file, or NULL when none can be made (values then stay
 * in memory). */
struct value_file *value_file_new(void);
/* Drops the caller's reference; the last one closes the file.  Safe on
 * two threads at once (the two that render a result set release its
 * measurements). */
void value_file_unref(struct value_file *vf);

/*
 * Appends m's values in memory to vf and empties m->values (its buffer
 * freed).  Returns 0, or -1 when the write failed: m is unchanged then
 * (its values stay in memory).
 */
int measurement_spill(struct measurement *m, struct value_file *vf);
/* Values spilled and held: m->n without spilling. */
size_t measurement_nvalues(const struct measurement *m);
/*
 * Calls each(v, n, arg) on m's values in order, a piece at a time, and
 * returns 0 (or each()'s first non-zero).  A temporary file that cannot
 * be read back (an I/O error in TMPDIR) is fatal: die().
 */
int measurement_each_value(const struct measurement *m,
			   int (*each)(const double *v, size_t n, void *arg),
			   void *arg);
/* Frees s (m->spilled) and its reference to the file. */
void spilled_values_free(struct spilled_values *s);

#endif
