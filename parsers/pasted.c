/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pasted-copy check of dd and time; see pasted.h. */
#include "pasted.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

void pasted_init(struct pasted *p, size_t generation)
{
	memset(p, 0, sizeof(*p));
	p->generation = generation ? generation : 1;
	recent64_init(&p->before, p->generation);
}

void pasted_release(struct pasted *p)
{
	recent64_release(&p->before);
	free(p->wait);
	memset(p, 0, sizeof(*p));
}

static struct pasted_wait *oldest(struct pasted *p)
{
	return &p->wait[p->head];
}

static void drop_oldest(struct pasted *p)
{
	p->head = (p->head + 1) & (p->alloc - 1);
	p->count--;
}

/* Twice the room, the ring unrolled from its oldest key. */
static void grow_ring(struct pasted *p)
{
	size_t alloc = p->alloc ? 2 * p->alloc : 64;
	struct pasted_wait *w = xmalloc(alloc * sizeof(*w));

	for (size_t k = 0; k < p->count; k++)
		w[k] = p->wait[(p->head + k) & (p->alloc - 1)];
	free(p->wait);
	p->wait = w;
	p->head = 0;
	p->alloc = alloc;
}

static void enqueue(struct pasted *p, uint64_t key, unsigned line)
{
	if (p->count == p->generation)
		drop_oldest(p);	/* (its copy would be too far to count) */
	if (p->count == p->alloc)
		grow_ring(p);
	p->wait[(p->head + p->count) & (p->alloc - 1)] =
		(struct pasted_wait){ key, line };
	p->count++;
}

/* The keys with prose below them join the table, the first line of a
 * key staying its line. */
static void settle(struct pasted *p, unsigned prose)
{
	while (p->count && oldest(p)->line < prose) {
		int created;

		recent64_put(&p->before, oldest(p)->key, oldest(p)->line,
			     &created);
		p->nbefore++;
		drop_oldest(p);
	}
}

unsigned pasted_copy_of(struct pasted *p, uint64_t key, unsigned line,
			unsigned prose)
{
	settle(p, prose);
	if (p->nbefore) {
		const uint32_t *orig = recent64_get(&p->before, key);

		if (orig)
			return *orig;
	}
	enqueue(p, key, line);
	return 0;
}
