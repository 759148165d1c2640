/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A pool of small allocations that are freed together.
 *
 * A table of a million rows holds twenty million short strings (each
 * cell's text and its raw form), a comparison of a million rows two
 * million arrays of member indices; one malloc each cost more time than
 * filling them and doubled their memory (a 6-byte string takes a 32-byte
 * chunk).  A pool places them end to end in large blocks and frees the
 * blocks at once.  Nothing in a pool is resized or freed on its own: what
 * is replaced stays until the pool goes.
 *
 *	struct pool p = POOL_INIT;
 *	const char *s = pool_strdup(&p, "text");
 *	size_t *v = pool_alloc(&p, n * sizeof(*v));
 *	pool_release(&p);		// s and v are gone
 */
#ifndef STORAN_POOL_H
#define STORAN_POOL_H

#include <stddef.h>

struct pool_block;

struct pool {
	struct pool_block *head;	/* the block being filled, first */
	size_t used;			/* bytes given out */
};

#define POOL_INIT { NULL, 0 }

/* size bytes aligned for any scalar (8 bytes), uninitialised. */
void *pool_alloc(struct pool *p, size_t size);
/* A copy of s (NUL-terminated) that lives as long as the pool. */
const char *pool_strdup(struct pool *p, const char *s);
/* A copy of the len bytes at s, NUL added. */
const char *pool_strndup(struct pool *p, const char *s, size_t len);
void pool_release(struct pool *p);
/* Everything given out is let go; the block being filled is kept for
 * what comes next (a table made again for each of a million rows). */
void pool_clear(struct pool *p);
/* p takes the blocks of `from` (left empty): what was allocated in
 * either lives as long as p. */
void pool_adopt(struct pool *p, struct pool *from);

#endif
