/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "xalloc.h"

/*
 * Blocks grow from 4 KB (a small table is a small allocation) to 1 MB
 * (a million-row table is a few hundred blocks); a string longer than a
 * quarter of a block gets a block of its own, put behind the one being
 * filled so that its free room is not lost.
 */
#define BLOCK_MIN 4096
#define BLOCK_MAX (1024 * 1024)

struct strpool_block {
	struct strpool_block *next;
	size_t size, used;
	char data[];
};

static struct strpool_block *new_block(size_t size)
{
	struct strpool_block *b = xmalloc(sizeof(*b) + size);

	b->next = NULL;
	b->size = size;
	b->used = 0;
	return b;
}

static char *room_for(struct strpool *p, size_t need)
{
	struct strpool_block *b = p->head;
	size_t size;

	if (b && b->size - b->used >= need) {
		b->used += need;
		return b->data + b->used - need;
	}
	size = b ? b->size * 2 : BLOCK_MIN;
	if (size > BLOCK_MAX)
		size = BLOCK_MAX;
	if (need > size / 4) {		/* a block of its own */
		struct strpool_block *own = new_block(need);

		own->used = need;
		if (b) {
			own->next = b->next;
			b->next = own;
		} else {
			p->head = own;
		}
		return own->data;
	}
	b = new_block(size);
	b->next = p->head;
	p->head = b;
	b->used = need;
	return b->data;
}

const char *strpool_addn(struct strpool *p, const char *s, size_t len)
{
	char *d = room_for(p, len + 1);

	memcpy(d, s, len);
	d[len] = '\0';
	p->used += len + 1;
	return d;
}

const char *strpool_add(struct strpool *p, const char *s)
{
	return strpool_addn(p, s, strlen(s));
}

void strpool_release(struct strpool *p)
{
	struct strpool_block *b = p->head;

	while (b) {
		struct strpool_block *next = b->next;

		free(b);
		b = next;
	}
	p->head = NULL;
	p->used = 0;
}
