/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Selecting measurements: the --where k=v,k!=v filters and the keys that
 * tables, comparisons and charts group by.
 *
 * A KEY is one of the measurement's fields -- tool, op, metric, unit,
 * source -- or any label name.
 */
#ifndef STORAN_FILTER_H
#define STORAN_FILTER_H

#include "resultset.h"

struct filter_term {
	char *key;
	char *value;
	int negate;	/* k!=v */
};

struct filter {
	struct filter_term *v;
	size_t n, alloc;
};

void filter_init(struct filter *f);
void filter_release(struct filter *f);
/*
 * Adds the terms of "k=v,k!=v,..." to f.  Terms with the same key are
 * alternatives (op=read,op=write matches either).  Returns 0, or -1 when a
 * term has no '='.
 */
int filter_parse(struct filter *f, const char *spec);
int filter_match(const struct filter *f, const struct measurement *m);

/* The value of KEY for m ("op" -> m->op, "bs" -> label bs), or NULL. */
const char *measurement_key(const struct measurement *m, const char *key);

#endif
