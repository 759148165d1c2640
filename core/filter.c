/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --where filters and grouping keys; see filter.h. */
#include "filter.h"
#include "keymap.h"
#include "strbuf.h"
#include "suggest.h"
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

static const char *const key_fields[] = {
	"tool", "op", "metric", "unit", "source", NULL
};

/* Shown in an error: more keys than this end in "...". */
#define KEYS_SHOWN 32

int filter_key_check(const struct result_set *rs, const char *option,
		     const char *key, const char *const *extra,
		     struct strbuf *err)
{
	struct keymap seen;
	const char **names = NULL;
	const char *near;
	const struct label *last = NULL;
	size_t n = 0, alloc = 0;
	int created, found = 0;

	if (!rs->n)
		return 0;
	keymap_init(&seen);
	for (const char *const *f = key_fields; *f; f++) {
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = *f;
		keymap_put(&seen, *f, 0, &created);
	}
	for (const char *const *e = extra; e && *e; e++) {
		keymap_put(&seen, *e, 0, &created);
		if (!created)
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = *e;
	}
	found = keymap_get(&seen, key) != NULL;
	for (size_t i = 0; i < rs->n && !found; i++) {
		const struct labels *l = &rs->m[i].labels;

		if (l->v == last)	/* a shared set: seen already */
			continue;
		last = l->v;
		for (size_t j = 0; j < l->n; j++) {
			keymap_put(&seen, l->v[j].key, 0, &created);
			if (!created)
				continue;
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = l->v[j].key;
		}
		found = keymap_get(&seen, key) != NULL;
	}
	keymap_release(&seen);
	if (found) {
		free(names);
		return 0;
	}
	near = suggest_closest(key, names, n);
	strbuf_addf(err, "%s '%s': no measurement has that key", option, key);
	if (near)
		strbuf_addf(err, "; did you mean '%s'?", near);
	strbuf_adds(err, " (keys:");
	for (size_t i = 0; i < n && i < KEYS_SHOWN; i++)
		strbuf_addf(err, " %s", names[i]);
	strbuf_adds(err, n > KEYS_SHOWN ? " ...)" : ")");
	free(names);
	return -1;
}

int filter_keys_check(const struct filter *f, const struct result_set *rs,
		      struct strbuf *err)
{
	for (size_t i = 0; i < f->n; i++)
		if (filter_key_check(rs, "--where", f->v[i].key, NULL, err))
			return -1;
	return 0;
}
