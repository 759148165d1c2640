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

struct strbuf;

/*
 * Is KEY a key of rs: a field (tool, op, metric, unit, source), one of
 * extra[] (NULL-terminated, may be NULL: a command's own keys), or a
 * label some measurement of rs has?  0 when it is, or when rs is empty
 * (nothing to say a key is wrong); else -1 with err set to
 *   --rows 'bss': no measurement has that key; did you mean 'bs'?
 *   (keys: tool op metric unit source bs iodepth ...)
 * OPTION names where the user typed it.
 */
int filter_key_check(const struct result_set *rs, const char *option,
		     const char *key, const char *const *extra,
		     struct strbuf *err);
/* filter_key_check() for the key of every term of f, as --where. */
int filter_keys_check(const struct filter *f, const struct result_set *rs,
		      struct strbuf *err);

#endif
