/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "xalloc.h"

/*
 * Blocks grow from 4 KB (a small table is a small allocation) to 1 MB
 * (a million-row table is a few hundred blocks); a request larger than a
 * quarter of a block gets a block of its own, put behind the one being
 * filled so that its free room is not lost.
 */
#define BLOCK_MIN 4096
#define BLOCK_MAX (1024 * 1024)
#define ALIGN 8

struct pool_block {
	struct pool_block *next;
	size_t size, used;
	_Alignas(ALIGN) char data[];
};

static struct pool_block *new_block(size_t size)
{
	struct pool_block *b = xmalloc(sizeof(*b) + size);

	b->next = NULL;
	b->size = size;
	b->used = 0;
	return b;
}

static char *own_block(struct pool *p, size_t need)
{
	struct pool_block *own = new_block(need);

	own->used = need;
	if (p->head) {
		own->next = p->head->next;
		p->head->next = own;
	} else {
		p->head = own;
	}
	return own->data;
}

static char *room_for(struct pool *p, size_t need, size_t align)
{
	struct pool_block *b = p->head;
	size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0, size;

	p->used += need;
	if (b && at <= b->size && b->size - at >= need) {
		b->used = at + need;
		return b->data + at;
	}
	size = b ? b->size * 2 : BLOCK_MIN;
	if (size > BLOCK_MAX)
		size = BLOCK_MAX;
	if (need > size / 4)
		return own_block(p, need);
	b = new_block(size);
	b->next = p->head;
	p->head = b;
	b->used = need;
	return b->data;
}

void *pool_alloc(struct pool *p, size_t size)
{
	return room_for(p, size ? size : 1, ALIGN);
}

const char *pool_strndup(struct pool *p, const char *s, size_t len)
{
	char *d = room_for(p, len + 1, 1);

	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

const char *pool_strdup(struct pool *p, const char *s)
{
	return pool_strndup(p, s, strlen(s));
}

void pool_adopt(struct pool *p, struct pool *from)
{
	struct pool_block *last;

	if (!from->head)
		return;
	if (!p->head) {
		*p = *from;
		*from = (struct pool)POOL_INIT;
		return;
	}
	for (last = from->head; last->next; last = last->next)
		;
	last->next = p->head->next;	/* behind the block p fills */
	p->head->next = from->head;
	p->used += from->used;
	*from = (struct pool)POOL_INIT;
}

void pool_release(struct pool *p)
{
	struct pool_block *b = p->head;

	while (b) {
		struct pool_block *next = b->next;

		free(b);
		b = next;
	}
	p->head = NULL;
	p->used = 0;
}

void pool_clear(struct pool *p)
{
	struct pool_block *rest;

	if (!p->head)
		return;
	rest = p->head->next;
	p->head->next = NULL;
	p->head->used = 0;
	p->used = 0;
	while (rest) {
		struct pool_block *next = rest->next;

		free(rest);
		rest = next;
	}
}
