/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A pool of strings that are freed together.
 *
 * A table of a million rows holds twenty million short strings (each
 * cell's text and its raw form); one malloc each cost more time than
 * formatting them and doubled their memory (a 6-byte string takes a
 * 32-byte chunk).  A pool copies them end to end into large blocks and
 * frees the blocks at once.  Strings in a pool are never changed or
 * freed one by one: one that is replaced stays until the pool goes.
 *
 *	struct strpool p = STRPOOL_INIT;
 *	const char *s = strpool_add(&p, "text");
 *	strpool_release(&p);		// every string of it is gone
 */
#ifndef STORAN_STRPOOL_H
#define STORAN_STRPOOL_H

#include <stddef.h>

struct strpool_block;

struct strpool {
	struct strpool_block *head;	/* the block being filled, first */
	size_t used;			/* bytes the strings take */
};

#define STRPOOL_INIT { NULL, 0 }

/* A copy of s (NUL-terminated) that lives as long as the pool. */
const char *strpool_add(struct strpool *p, const char *s);
/* A copy of the len bytes at s, NUL added. */
const char *strpool_addn(struct strpool *p, const char *s, size_t len);
void strpool_release(struct strpool *p);

#endif
