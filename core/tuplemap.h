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

struct tuple_map {
	size_t width;		/* uint64_t per tuple */
	uint64_t *keys;		/* cap * width */
	size_t *values;		/* cap; SIZE_MAX: empty */
	size_t n, cap;
};

void tuple_map_init(struct tuple_map *t, size_t width);
void tuple_map_release(struct tuple_map *t);
/* The index of tuple v, or SIZE_MAX. */
size_t tuple_map_get(const struct tuple_map *t, const uint64_t *v);
/* The index of tuple v, inserting it as `fresh` when absent. */
size_t tuple_map_put(struct tuple_map *t, const uint64_t *v, size_t fresh);

#endif
