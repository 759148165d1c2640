/* SPDX-License-Identifier: GPL-3.0-or-later */
/* String -> index hash map; see keymap.h. */
#include "keymap.h"
#include "numscan.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

void keymap_init(struct keymap *m)
{
	m->v = NULL;
	m->n = m->cap = 0;
}

void keymap_release(struct keymap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->v[i].key);
	free(m->v);
	keymap_init(m);
}

uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static size_t hash_string(const char *s)
{
	return (size_t)fnv1a(FNV1A_INIT, s);
}

/* Slot holding key, or the empty slot where it would go. */
static size_t find_slot(const struct keymap *m, const char *key, size_t h)
{
	size_t i = h & (m->cap - 1);

	while (m->v[i].key &&
	       (m->v[i].hash != h || strcmp(m->v[i].key, key)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void grow(struct keymap *m)
{
	struct keymap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->v = xcalloc(m->cap, sizeof(*m->v));
	for (size_t i = 0; i < old.cap; i++)
		if (old.v[i].key)
			m->v[find_slot(m, old.v[i].key, old.v[i].hash)] =
				old.v[i];
	free(old.v);
}

size_t *keymap_put(struct keymap *m, const char *key, size_t fresh,
		   int *created)
{
	size_t h = hash_string(key), i;

	/* keep the load factor below 1/2 so that probes stay short */
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	i = find_slot(m, key, h);
	*created = !m->v[i].key;
	if (*created) {
		m->v[i].key = xstrdup(key);
		m->v[i].hash = h;
		m->v[i].value = fresh;
		m->n++;
	}
	return &m->v[i].value;
}

const size_t *keymap_get(const struct keymap *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = find_slot(m, key, hash_string(key));
	return m->v[i].key ? &m->v[i].value : NULL;
}

static uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* murmur3's finaliser: every input bit reaches every output bit */
static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

#define HASH64_K1 0x87c37b91114253d5ULL
#define HASH64_K2 0x4cf5ad432745937fULL

static uint64_t load64(const unsigned char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

static uint64_t load32(const unsigned char *s)
{
	uint32_t w;

	memcpy(&w, s, 4);
	return w;
}

/* The last n (< 8) bytes as one word, every byte in it: two loads that
 * may overlap from 4 bytes on, three single bytes below (n is mixed in
 * apart). */
static uint64_t tail_word(const unsigned char *s, size_t n)
{
	if (n >= 4)
		return load32(s) | load32(s + n - 4) << 32;
	if (!n)
		return 0;
	return (uint64_t)s[0] | (uint64_t)s[n / 2] << 8 |
	       (uint64_t)s[n - 1] << 16;
}

/*
 * Two lanes of eight bytes a step, each a multiply-rotate-multiply chain
 * of its own: the multiplications of a line's words wait on each other
 * in one chain, and the pasted-copy check hashes every output's lines
 * (5% of a dd log's ingest with one lane and a byte loop for the tail).
 */
uint64_t hash64(uint64_t h, const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t a = h, b = rotl64(h, 32) ^ HASH64_K2;
	size_t i = 0;

	for (; i + 16 <= len; i += 16) {
		a = rotl64(a ^ (load64(s + i) * HASH64_K1), 31) * HASH64_K2;
		b = rotl64(b ^ (load64(s + i + 8) * HASH64_K1), 33) *
		    HASH64_K2;
	}
	if (i + 8 <= len) {
		a = rotl64(a ^ (load64(s + i) * HASH64_K1), 31) * HASH64_K2;
		i += 8;
	}
	return mix64(a ^ rotl64(b, 17) ^
		     rotl64(tail_word(s + i, len - i) * HASH64_K1, 29) ^
		     (uint64_t)len);
}

uint64_t hash64_mask_from_env(const char *env)
{
	const char *e = getenv(env);
	uint64_t bits;

	if (!e || scan_u64(&e, &bits) || *e || !bits || bits >= 64)
		return UINT64_MAX;
	return ((uint64_t)1 << bits) - 1;
}

void hashmap64_init(struct hashmap64 *m)
{
	memset(m, 0, sizeof(*m));
}

void hashmap64_release(struct hashmap64 *m)
{
	for (size_t k = 0; k < HASHMAP64_PARTS; k++)
		free(m->part[k].slot);
	hashmap64_init(m);
}

static uint64_t slot_hash(const struct hashmap64_slot *s)
{
	return (uint64_t)s->hash_hi << 32 | s->hash_lo;
}

static size_t find_slot64(const struct hashmap64_part *m, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);
	uint64_t at;

	while ((at = slot_hash(&m->slot[i])) && at != h)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void grow64(struct hashmap64_part *m)
{
	struct hashmap64_part old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	/* zeroed by hand, not calloc(): a big table's fresh pages, read by
	 * a probe before the insert writes them, faulted twice (the zero
	 * page, then a copy of it) */
	m->slot = xmalloc(m->cap * sizeof(*m->slot));
	memset(m->slot, 0, m->cap * sizeof(*m->slot));
	for (size_t i = 0; i < old.cap; i++)
		if (slot_hash(&old.slot[i]))
			m->slot[find_slot64(m, slot_hash(&old.slot[i]))] =
				old.slot[i];
	free(old.slot);
}

uint32_t *hashmap64_put(struct hashmap64 *map, uint64_t hash, uint32_t fresh,
			int *created)
{
	/* the top six bits pick the table, the low ones the slot in it */
	struct hashmap64_part *m = &map->part[hash >> 58];

	_Static_assert(HASHMAP64_PARTS == 64, "six bits pick the table");
	size_t i;

	if (!hash)
		hash = 1;
	/* (64-bit hashes spread evenly: probes stay short at 3/4 full) */
	if ((m->n + 1) * 4 > m->cap * 3)
		grow64(m);
	i = find_slot64(m, hash);
	*created = !slot_hash(&m->slot[i]);
	if (*created) {
		m->slot[i].hash_lo = (uint32_t)hash;
		m->slot[i].hash_hi = (uint32_t)(hash >> 32);
		m->slot[i].value = fresh;
		m->n++;
	}
	return &m->slot[i].value;
}

const uint32_t *hashmap64_get(const struct hashmap64 *map, uint64_t hash)
{
	const struct hashmap64_part *m;
	size_t i;

	if (!hash)
		hash = 1;
	m = &map->part[hash >> 58];
	if (!m->cap)
		return NULL;
	i = find_slot64(m, hash);
	return slot_hash(&m->slot[i]) ? &m->slot[i].value : NULL;
}

size_t hashmap64_count(const struct hashmap64 *m)
{
	size_t n = 0;

	for (size_t k = 0; k < HASHMAP64_PARTS; k++)
		n += m->part[k].n;
	return n;
}

void recent64_init(struct recent64 *r, size_t generation)
{
	hashmap64_init(&r->young);
	hashmap64_init(&r->old);
	r->young_n = 0;
	r->generation = generation ? generation : 1;
}

void recent64_release(struct recent64 *r)
{
	hashmap64_release(&r->young);
	hashmap64_release(&r->old);
}

/* Forgets every key; each table keeps its room. */
static void hashmap64_clear(struct hashmap64 *m)
{
	for (size_t k = 0; k < HASHMAP64_PARTS; k++) {
		struct hashmap64_part *p = &m->part[k];

		if (p->slot)
			memset(p->slot, 0, p->cap * sizeof(*p->slot));
		p->n = 0;
	}
}

/*
 * The young map full: it becomes the old one, the old one goes.  Its
 * tables, emptied, are the next young map's: grown anew from 64 slots
 * each, the young map was rehashed six times a generation, in fresh
 * pages.
 */
static void recent64_age(struct recent64 *r)
{
	struct hashmap64 gone = r->old;

	r->old = r->young;
	r->young = gone;
	hashmap64_clear(&r->young);
	r->young_n = 0;
}

uint32_t *recent64_put(struct recent64 *r, uint64_t hash, uint32_t fresh,
		       int *created)
{
	const uint32_t *before;
	uint32_t *slot;

	if (r->young_n >= r->generation && !hashmap64_get(&r->young, hash))
		recent64_age(r);
	before = hashmap64_get(&r->old, hash);
	slot = hashmap64_put(&r->young, hash, before ? *before : fresh,
			     created);
	r->young_n += *created;
	if (before)
		*created = 0;
	return slot;
}

const uint32_t *recent64_get(struct recent64 *r, uint64_t hash)
{
	const uint32_t *v = hashmap64_get(&r->young, hash);
	int created;

	if (v)
		return v;
	v = hashmap64_get(&r->old, hash);
	return v ? recent64_put(r, hash, *v, &created) : NULL;
}
