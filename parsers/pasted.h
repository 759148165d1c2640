/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pasted-copy check of dd and time: an output seen before (the same
 * command and printed figures, hashed) is one output quoted in a reply or
 * pasted again only with prose between the two (a "you wrote:", a
 * heading); without it, the runs of a loop that happen to print the same
 * figures stay runs.
 *
 * So an output needs looking up only among those with prose below them:
 * the others wait in a queue, in the order of their lines, and join the
 * table of hashes when the parser has read prose below them.  A log of
 * runs with no prose -- a loop's, the common long log -- touches no
 * table: a queue append a key, where two hash-table puts missed the
 * cache.
 *
 * Memory is bounded whatever the log's length: at least the last
 * `generation` keys are remembered (the table's and the queue's), at most
 * three times as many; a copy further from its original is taken for a
 * run.
 */
#ifndef STORAN_PASTED_H
#define STORAN_PASTED_H

#include "../core/keymap.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The generation dd and time use: 192 Ki keys (dd puts two a summary:
 * 98,304 summaries, 19 MB of a log of dd runs).  The table's maps are 3
 * MB each, the queue 4 MB at most.
 */
#define PASTED_GENERATION (192u << 10)

struct pasted_wait {
	uint64_t key;
	unsigned line;
};

struct pasted {
	struct recent64 before;	/* keys with prose below them */
	size_t nbefore;		/* keys put there (0: nothing to look up) */
	/* the others, oldest first: a ring of alloc (a power of two) */
	struct pasted_wait *wait;
	size_t head, count, alloc;
	size_t generation;
};

void pasted_init(struct pasted *p, size_t generation);
void pasted_release(struct pasted *p);

/*
 * An output hashed to key, at input line number `line`, the last prose
 * line above it being `prose` (0: none yet).  One parser's outputs come
 * in the order of their lines, so neither line nor prose ever goes down.
 * Returns the line number of the first output with this key that has
 * prose between it and this one (this one is its copy), or 0: then this
 * one is remembered.
 */
unsigned pasted_copy_of(struct pasted *p, uint64_t key, unsigned line,
			unsigned prose);

#endif
