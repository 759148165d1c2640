/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --where filters and grouping keys; see filter.h. */
#include "filter.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void filter_init(struct filter *f)
{
	f->v = NULL;
	f->n = f->alloc = 0;
}

void filter_release(struct filter *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].key);
		free(f->v[i].value);
	}
	free(f->v);
	filter_init(f);
}

int filter_parse(struct filter *f, const char *spec)
{
	const char *p = spec;

	while (*p) {
		const char *end = strchr(p, ','), *eq;
		struct filter_term *t;
		size_t len;

		len = end ? (size_t)(end - p) : strlen(p);
		eq = memchr(p, '=', len);
		if (!eq || eq == p || (eq == p + 1 && *p == '!'))
			return -1;
		ALLOC_GROW(f->v, f->n + 1, f->alloc);
		t = &f->v[f->n++];
		t->negate = eq[-1] == '!';
		t->key = xstrndup(p, (size_t)(eq - p) - (size_t)t->negate);
		t->value = xstrndup(eq + 1, len - (size_t)(eq - p) - 1);
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

const char *measurement_key(const struct measurement *m, const char *key)
{
	if (!strcmp(key, "tool"))
		return m->tool;
	if (!strcmp(key, "op"))
		return m->op;
	if (!strcmp(key, "metric"))
		return m->metric;
	if (!strcmp(key, "unit"))
		return m->unit;
	if (!strcmp(key, "source"))
		return m->source_name;
	return labels_get(&m->labels, key);
}

/* Positive terms with one key are alternatives; negative terms all hold. */
int filter_match(const struct filter *f, const struct measurement *m)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct filter_term *t = &f->v[i];
		const char *v = measurement_key(m, t->key);
		int any = 0, seen = 0;

		if (t->negate) {
			if (v && !strcmp(v, t->value))
				return 0;
			continue;
		}
		for (size_t j = 0; j < f->n; j++) {
			if (f->v[j].negate || strcmp(f->v[j].key, t->key))
				continue;
			seen = 1;
			if (v && !strcmp(v, f->v[j].value))
				any = 1;
		}
		if (seen && !any)
			return 0;
	}
	return 1;
}
