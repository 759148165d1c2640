/* SPDX-License-Identifier: GPL-3.0-or-later */
/* String -> index hash map; see keymap.h. */
#include "keymap.h"
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
