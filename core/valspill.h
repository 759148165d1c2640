/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Values moved out of memory into a temporary file as a long log folds.
 *
 * A shell log of a million dd runs folds into a few dozen rows of a
 * hundred thousand values each (ingest/fold.h): 6 values a run, 48 bytes,
 * 240 MB for a 1 GB log, that storan ingest only has to write out at the
 * end.  Its fold moves a row's values, a chunk at a time, into one
 * temporary file per input (unlinked, in $TMPDIR or /tmp: gone with the
 * process),
 * and memory holds the latest ones only.
 *
 * A spilled measurement's values are the file's (m->spilled->n of them,
 * in order) followed by m->values[0 .. m->n): core/resultset.h's
 * measurement_nvalues() counts them all, measurement_each_value() reads
 * them all, measurement_spill() moves them here.  Only storan ingest
 * asks for spilling (struct ingest_options.spill_values), and only its
 * writers read such a measurement: measurement_basic_stats() (the CSV
 * export) and core/rs-json.c know of it; every other command keeps
 * values in memory, where analysis reads m->values directly.
 */
#ifndef STORAN_VALSPILL_H
#define STORAN_VALSPILL_H

#include <stddef.h>
#include <stdint.h>

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
 * Appends v[0 .. n) to vf as the next values of *s (made, with a
 * reference to vf, when NULL).  Returns 0, or -1 when the write failed
 * (*s unchanged).
 */
int spilled_values_add(struct spilled_values **s, struct value_file *vf,
		       const double *v, size_t n);
/*
 * Calls each(v, n, arg) on the values of s in order, a piece at a time,
 * and returns 0 (or each()'s first non-zero).  A temporary file that
 * cannot be read back (an I/O error in TMPDIR) is fatal: die().
 */
int spilled_values_each(const struct spilled_values *s,
			int (*each)(const double *v, size_t n, void *arg),
			void *arg);
/* Frees s (m->spilled) and its reference to the file. */
void spilled_values_free(struct spilled_values *s);

#endif
