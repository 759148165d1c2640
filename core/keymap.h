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

#endif
