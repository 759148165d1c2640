/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tuples of uint64_t -> index; see tuplemap.h. */
#include "tuplemap.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void tuple_map_init(struct tuple_map *t, size_t width)
{
	memset(t, 0, sizeof(*t));
	t->width = width ? width : 1;
}

void tuple_map_release(struct tuple_map *t)
{
	free(t->keys);
	free(t->values);
	memset(t, 0, sizeof(*t));
}

static uint64_t tuple_hash(const uint64_t *v, size_t w)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < w; i++) {
		h ^= v[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdULL;
	}
	return h ^ (h >> 33);
}

static void tuple_map_grow(struct tuple_map *t)
{
	struct tuple_map bigger;

	tuple_map_init(&bigger, t->width);
	bigger.cap = t->cap ? 2 * t->cap : 64;
	bigger.keys = xmalloc(bigger.cap * t->width * sizeof(uint64_t));
	bigger.values = xmalloc(bigger.cap * sizeof(size_t));
	for (size_t i = 0; i < bigger.cap; i++)
		bigger.values[i] = SIZE_MAX;
	for (size_t i = 0; i < t->cap; i++) {
		const uint64_t *k = t->keys + i * t->width;
		size_t at;

		if (t->values[i] == SIZE_MAX)
			continue;
		at = tuple_hash(k, t->width) & (bigger.cap - 1);
		while (bigger.values[at] != SIZE_MAX)
			at = (at + 1) & (bigger.cap - 1);
		memcpy(bigger.keys + at * t->width, k,
		       t->width * sizeof(uint64_t));
		bigger.values[at] = t->values[i];
	}
	bigger.n = t->n;
	tuple_map_release(t);
	*t = bigger;
}

/* Where v is, or the empty slot where it would go (the map has room). */
static size_t slot_of(const struct tuple_map *t, const uint64_t *v)
{
	size_t at = tuple_hash(v, t->width) & (t->cap - 1);

	while (t->values[at] != SIZE_MAX &&
	       memcmp(t->keys + at * t->width, v, t->width * sizeof(uint64_t)))
		at = (at + 1) & (t->cap - 1);
	return at;
}

size_t tuple_map_get(const struct tuple_map *t, const uint64_t *v)
{
	return t->cap ? t->values[slot_of(t, v)] : SIZE_MAX;
}

size_t tuple_map_put(struct tuple_map *t, const uint64_t *v, size_t fresh)
{
	size_t at;

	if (2 * (t->n + 1) > t->cap)
		tuple_map_grow(t);
	at = slot_of(t, v);
	if (t->values[at] != SIZE_MAX)
		return t->values[at];
	memcpy(t->keys + at * t->width, v, t->width * sizeof(uint64_t));
	t->values[at] = fresh;
	t->n++;
	return fresh;
}
