/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Open addressing over tuples of uint64_t, all of one length: the
 * experiment model's group of (tool, op, metric, side, condition) and the
 * condition of a profile's factor codes are found in one probe or two,
 * with no string built.
 */
#ifndef STORAN_TUPLEMAP_H
#define STORAN_TUPLEMAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The tuples and their values are kept dense, in the order inserted; the
 * table holds 8-byte slots (a part of the hash, to skip most compares,
 * and the entry's number): growing it moves slots, never tuples.  At a
 * million groups of five words this is a third of the memory of slots
 * that held the tuples, and the time went into moving them.
 */
struct tuple_slot {
	uint32_t hash;		/* the hash's top half */
	uint32_t entry;		/* 1 + index into keys/values; 0: empty */
};

struct tuple_map {
	size_t width;		/* uint64_t per tuple */
	/* tuple_map_bound(): the tuples kept as one word each, word i
	 * shifted by shift[i] (NULL: kept as given) */
	unsigned char *shift;
	uint64_t *max;		/* the bound of each word */
	size_t stored;		/* uint64_t per tuple kept: 1 or width */
	uint64_t *keys;		/* n * stored, in the order inserted */
	size_t *values;		/* n */
	size_t n, alloc;
	struct tuple_slot *slot;
	size_t cap;		/* 0 or a power of two */
};

void tuple_map_init(struct tuple_map *t, size_t width);
void tuple_map_release(struct tuple_map *t);
/*
 * Before the first put: word i of every tuple is at most max[i] (codes
 * of a few values, mostly).  When the bounds' bits add up to 64 or less
 * the map keeps each tuple as one word: a million groups of five words
 * were 40 MB of keys, and each probe compared 40 bytes.  A word above
 * its bound later is a bug (the caller's), and is reported as one.
 */
void tuple_map_bound(struct tuple_map *t, const uint64_t *max);
/* Room for n tuples at once: no table rebuilt, no tuple moved on the
 * way (room never written to costs no memory). */
void tuple_map_reserve(struct tuple_map *t, size_t n);
/* The index of tuple v, or SIZE_MAX. */
size_t tuple_map_get(const struct tuple_map *t, const uint64_t *v);
/* The index of tuple v, inserting it as `fresh` when absent. */
size_t tuple_map_put(struct tuple_map *t, const uint64_t *v, size_t fresh);
/*
 * tuple_map_put() of the n tuples at v (width words each) in turn, each
 * inserted as fresh[i] (fresh NULL: as the map's count of tuples then);
 * their indices into out[].  The same as n puts, with the memory of their
 * slots fetched ahead (several times as fast on a map much larger than
 * the cache).
 */
void tuple_map_put_many(struct tuple_map *t, const uint64_t *v, size_t n,
			const size_t *fresh, size_t *out);

#endif
