/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Diagnostics about the user's input, collected rather than printed, so that
 * parsers stay pure (no I/O) and the command decides how to report them.
 * Printed like a compiler's: "run3.txt:14: expected a number after 'bw='".
 */
#ifndef STORAN_DIAG_H
#define STORAN_DIAG_H

#include <stddef.h>
#include <stdio.h>

enum diag_level {
	DIAG_ERROR,	/* the input (or part of it) could not be read */
	DIAG_NOTE,	/* said for the user's information; not a failure */
};

struct diag {
	enum diag_level level;
	char *file;	/* NULL: msg already names the file */
	unsigned line;	/* 0: the whole file */
	char *msg;
};

/*
 * A list may keep only its first messages in v[] and write the rest, as
 * diag_print() prints them, to a temporary file (diag_list_spill_after()):
 * a 1 GB log of dd runs pasted again and again says 1.4 million notes,
 * 200 MB held until the input's measurements are written.  Only a list
 * that is printed (and counted) should spill: v[] holds n of its
 * diag_total() messages.
 */
struct diag_list {
	struct diag *v;
	size_t n, alloc;
	size_t spill_after;	/* 0: never spill */
	FILE *spill;		/* the messages past v[], printed */
	size_t spilled, spilled_errors, spilled_notes;
};

void diag_list_init(struct diag_list *dl);
void diag_list_release(struct diag_list *dl);
/* Past `keep` messages in v[], the list writes the next ones to a
 * temporary file (one that cannot be made: it keeps them all). */
void diag_list_spill_after(struct diag_list *dl, size_t keep);
/* Every message of the list, in v[] or written out. */
size_t diag_total(const struct diag_list *dl);
/* Forgets the diagnostics past the first n (of a list that spilled, n is
 * at most its n: what it wrote out goes all at once). */
void diag_list_truncate(struct diag_list *dl, size_t n);
void diag_add(struct diag_list *dl, enum diag_level level, const char *file,
	      unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Moves every diagnostic of src behind dst's, in order; src is left
 * empty (a parse on two threads, each with its own list).  When src
 * spilled, dst spills too. */
void diag_list_take(struct diag_list *dst, struct diag_list *src);
size_t diag_count(const struct diag_list *dl, enum diag_level level);
/* Prints every diagnostic as "FILE:LINE: msg" (notes: "FILE:LINE: note: msg"). */
void diag_print(const struct diag_list *dl, FILE *fp);

#endif
