/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A string -> index hash map (open addressing, FNV-1a, linear probing),
 * for grouping and matching measurements in linear time.  The map owns
 * copies of its keys; values are indices into the caller's arrays.
 */
#ifndef STORAN_KEYMAP_H
#define STORAN_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_INIT 14695981039346656037ULL

/* FNV-1a over the bytes of s, going on from h (FNV1A_INIT to start). */
uint64_t fnv1a(uint64_t h, const char *s);

struct keymap_entry {
	char *key;		/* NULL: empty slot */
	size_t hash;
	size_t value;
};

struct keymap {
	struct keymap_entry *v;
	size_t n, cap;		/* cap is 0 or a power of two */
};

void keymap_init(struct keymap *m);
void keymap_release(struct keymap *m);
/*
 * The value slot of key, inserting it (with value `fresh`) when absent;
 * *created says which.  The pointer is valid until the next insertion.
 */
size_t *keymap_put(struct keymap *m, const char *key, size_t fresh,
		   int *created);
/* The value of key, or NULL. */
const size_t *keymap_get(const struct keymap *m, const char *key);

/*
 * A 64-bit hash of len bytes, going on from h (HASH64_INIT to start),
 * eight bytes a step.  The length is mixed in, so that hashing the parts
 * "ab","c" and "a","bc" in turn gives different hashes.  Not FNV-1a's
 * byte loop: a log of a million runs hashes 40 MB of lines.
 */
#define HASH64_INIT 0x9e3779b97f4a7c15ULL
uint64_t hash64(uint64_t h, const void *p, size_t len);
/*
 * The bits of a 64-bit hash that a map keys on: all of them, but where
 * the environment variable env says N (1 to 63: tests), the low N only,
 * so that keys collide and the code that tells them apart runs.
 */
uint64_t hash64_mask_from_env(const char *env);

/*
 * A 64-bit hash -> 32-bit value map (open addressing, linear probing)
 * that keeps no key: where two different keys with one hash (about 1 in
 * 2^64 a pair; 3e-8 among a million keys) may be taken for one.  The
 * pasted-copy check remembers every output of a log so, without a copy of
 * its text: 12 bytes a slot, at most 4 slots in 3 taken (a 1 GB log of
 * dd runs remembers 15 million outputs; 16-byte slots at most half full
 * took four times the memory of their values).  The values are line
 * numbers and indices, below 2^32.
 */
struct hashmap64_slot {
	/* the hash in two halves: 12 bytes a slot, and a lookup that
	 * misses the cache misses it once, not in two arrays */
	uint32_t hash_lo, hash_hi;	/* 0: empty (a hash of 0 is 1) */
	uint32_t value;
};

/*
 * The slots are cut in HASHMAP64_PARTS tables by the hash's top bits,
 * each growing on its own: a table that doubles holds its old slots and
 * the new ones at once, and for one table of 100 MB that was 150 MB at
 * the peak.
 */
#define HASHMAP64_PARTS 64
struct hashmap64_part {
	struct hashmap64_slot *slot;
	size_t n, cap;		/* cap is 0 or a power of two */
};

struct hashmap64 {
	struct hashmap64_part part[HASHMAP64_PARTS];
};

void hashmap64_init(struct hashmap64 *m);
void hashmap64_release(struct hashmap64 *m);
/* As keymap_put(), for a hash. */
uint32_t *hashmap64_put(struct hashmap64 *m, uint64_t hash, uint32_t fresh,
			int *created);
/* The value of hash, or NULL. */
const uint32_t *hashmap64_get(const struct hashmap64 *m, uint64_t hash);
/* Hashes in the map. */
size_t hashmap64_count(const struct hashmap64 *m);

/*
 * A hashmap64 that remembers the latest keys only, in bounded memory: at
 * least the last `generation` keys put, at most twice that many.  Keys go
 * to the young map; when it holds `generation` keys, the old map is
 * forgotten and the young one becomes it.  A key found in the old map
 * only moves to the young one with its value.  The pasted-copy check of
 * a 1 GB log of dd runs met 15 million outputs: 240 MB to remember them
 * all, where a copy quoted a million outputs after its original is no
 * copy anyone pasted.
 */
struct recent64 {
	struct hashmap64 young, old;
	size_t young_n;		/* keys in young */
	size_t generation;
};

void recent64_init(struct recent64 *r, size_t generation);
void recent64_release(struct recent64 *r);
/* As hashmap64_put(); the pointer is valid until the next put. */
uint32_t *recent64_put(struct recent64 *r, uint64_t hash, uint32_t fresh,
		       int *created);
/* The value of hash, or NULL; one found in the old map only moves to the
 * young one, as with recent64_put().  The pointer is valid until the next
 * put. */
const uint32_t *recent64_get(struct recent64 *r, uint64_t hash);

#endif
