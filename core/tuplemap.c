/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tuples of uint64_t -> index; see tuplemap.h. */
#include "tuplemap.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void tuple_map_init(struct tuple_map *t, size_t width)
{
	memset(t, 0, sizeof(*t));
	t->width = t->stored = width ? width : 1;
}

/* Bits to hold 0..max. */
static unsigned bits_for(uint64_t max)
{
	unsigned b = 0;

	while (b < 64 && (max >> b))
		b++;
	return b;
}

void tuple_map_bound(struct tuple_map *t, const uint64_t *max)
{
	unsigned total = 0;

	if (t->n)
		BUG("tuple_map_bound() after a put");
	for (size_t i = 0; i < t->width; i++)
		total += bits_for(max[i]);
	if (total > 64 || t->width == 1)
		return;
	t->shift = xmalloc(t->width);
	t->max = xmalloc(t->width * sizeof(*t->max));
	total = 0;
	for (size_t i = 0; i < t->width; i++) {
		t->shift[i] = (unsigned char)total;
		t->max[i] = max[i];
		total += bits_for(max[i]);
	}
	t->stored = 1;
}

/* The tuple as kept: v itself, or packed into *one. */
static const uint64_t *stored_key(const struct tuple_map *t,
				  const uint64_t *v, uint64_t *one)
{
	if (!t->shift)
		return v;
	*one = 0;
	for (size_t i = 0; i < t->width; i++) {
		if (v[i] > t->max[i])
			BUG("tuple word %zu is %" PRIu64 ", above its bound %"
			    PRIu64, i, v[i], t->max[i]);
		if (t->max[i])	/* (a word of no bits may sit at 64) */
			*one |= v[i] << t->shift[i];
	}
	return one;
}

void tuple_map_release(struct tuple_map *t)
{
	free(t->shift);
	free(t->max);
	free(t->keys);
	free(t->values);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static void tuple_map_rehash(struct tuple_map *t, size_t cap);

void tuple_map_reserve(struct tuple_map *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 64;

	if (n > t->alloc) {
		t->alloc = n;
		t->keys = xrealloc(t->keys, n * t->stored * sizeof(*t->keys));
		t->values = xrealloc(t->values, n * sizeof(*t->values));
	}
	while (cap < 2 * n)
		cap *= 2;
	if (cap > t->cap)
		tuple_map_rehash(t, cap);
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

static const uint64_t *key_of(const struct tuple_map *t, size_t entry)
{
	return t->keys + entry * t->stored;
}

/* The table at cap slots (a power of two above 2n), every entry put
 * back where it hashes to. */
static void tuple_map_rehash(struct tuple_map *t, size_t cap)
{
	/* zeroed by hand, not calloc(): a big table's fresh pages, read by
	 * a probe before an entry is written there, were faulted twice
	 * (the zero page, then a copy of it) */
	struct tuple_slot *slot = xmalloc(cap * sizeof(*slot));

	memset(slot, 0, cap * sizeof(*slot));

	for (size_t i = 0; i < t->cap; i++) {
		const struct tuple_slot *s = &t->slot[i];
		size_t at;

		if (!s->entry)
			continue;
		at = tuple_hash(key_of(t, s->entry - 1), t->stored) &
		     (cap - 1);
		while (slot[at].entry)
			at = (at + 1) & (cap - 1);
		slot[at] = *s;
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
}

/* Where v is, or the empty slot where it would go (the map has room). */
static size_t slot_of(const struct tuple_map *t, const uint64_t *v,
		      uint64_t h)
{
	size_t at = h & (t->cap - 1);
	uint32_t top = (uint32_t)(h >> 32);

	for (;; at = (at + 1) & (t->cap - 1)) {
		const struct tuple_slot *s = &t->slot[at];

		if (!s->entry || (s->hash == top &&
				  !memcmp(key_of(t, s->entry - 1), v,
					  t->stored * sizeof(*v))))
			return at;
	}
}

size_t tuple_map_get(const struct tuple_map *t, const uint64_t *v)
{
	const struct tuple_slot *s;
	uint64_t one;

	if (!t->cap)
		return SIZE_MAX;
	v = stored_key(t, v, &one);
	s = &t->slot[slot_of(t, v, tuple_hash(v, t->stored))];
	return s->entry ? t->values[s->entry - 1] : SIZE_MAX;
}

/* Room for `more` entries without a rehash. */
static void room_for(struct tuple_map *t, size_t more)
{
	size_t cap = t->cap ? t->cap : 64;

	while (2 * (t->n + more) > cap)
		cap *= 2;
	if (cap > t->cap)
		tuple_map_rehash(t, cap);
}

/* tuple_map_put() of the stored key v, whose hash is h (room made). */
static size_t put_hashed(struct tuple_map *t, const uint64_t *v, uint64_t h,
			 size_t fresh)
{
	struct tuple_slot *s = &t->slot[slot_of(t, v, h)];
	size_t need;

	if (s->entry)
		return t->values[s->entry - 1];
	if (t->n >= UINT32_MAX - 1)
		die("more than %u distinct groups", UINT32_MAX - 2);
	need = t->n + 1;
	if (need > t->alloc) {
		t->alloc = need < 64 ? 64 : 2 * need;
		t->keys = xrealloc(t->keys, t->alloc * t->stored *
				   sizeof(*t->keys));
		t->values = xrealloc(t->values, t->alloc * sizeof(*t->values));
	}
	memcpy(t->keys + t->n * t->stored, v, t->stored * sizeof(*v));
	t->values[t->n] = fresh;
	s->hash = (uint32_t)(h >> 32);
	s->entry = (uint32_t)++t->n;
	return fresh;
}

size_t tuple_map_put(struct tuple_map *t, const uint64_t *v, size_t fresh)
{
	uint64_t one;

	v = stored_key(t, v, &one);
	room_for(t, 1);
	return put_hashed(t, v, tuple_hash(v, t->stored), fresh);
}

/*
 * A batch's slots are fetched from memory all at once, before any is
 * probed: one by one, each probe of a map of a million groups waited for
 * its own cache miss (the model's grouping and matching spent most of
 * their time so).  BATCH slots of 8 bytes stay in the cache meanwhile.
 */
#define BATCH 64

void tuple_map_put_many(struct tuple_map *t, const uint64_t *v, size_t n,
			const size_t *fresh, size_t *out)
{
	uint64_t one[BATCH], h[BATCH];
	const uint64_t *key[BATCH];

	for (size_t i = 0; i < n; i += BATCH) {
		size_t k = n - i < BATCH ? n - i : BATCH;

		room_for(t, k);
		for (size_t j = 0; j < k; j++) {
			key[j] = stored_key(t, v + (i + j) * t->width,
					    &one[j]);
			h[j] = tuple_hash(key[j], t->stored);
			__builtin_prefetch(&t->slot[h[j] & (t->cap - 1)]);
		}
		for (size_t j = 0; j < k; j++)
			out[i + j] = put_hashed(t, key[j], h[j],
						fresh ? fresh[i + j] : t->n);
	}
}
