/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The result set; see resultset.h for the ownership rules. */
#include "resultset.h"
#include "keymap.h"
#include "series.h"
#include "strbuf.h"
#include "valspill.h"
#include "xalloc.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/*
 * Labels are copy-on-write: the array lives in a block with a reference
 * count, so that the hundreds of measurements of one fio job share its
 * option labels instead of copying them.  labels_copy() takes a reference;
 * labels_set()/labels_remove() copy a shared block before changing it.
 * The block also caches the "k=v;k=v" string the exports print.
 */
struct label_block {
	/* atomic: the halves of a big set are freed on two threads, and
	 * a set may be shared across them */
	atomic_uint refs;
	/* The keys and values are in the block, after v[] (one malloc for
	 * the set: labels_set_many()); such a block is never changed in
	 * place, labels_own() copies it.  A set of five labels was eleven
	 * mallocs, a third of a loaded measurement's memory. */
	int packed;
	char *joined;		/* cached labels_joined(), or NULL */
	char *rendered;		/* cached labels_rendered(), or NULL */
	/* cached labels_hash(), 0 when not yet; atomic: a check and a
	 * table's pivot read one set on two threads, and both may hash */
	_Atomic uint64_t hash;
	struct label v[];
};

static struct label_block *block_of(struct label *v)
{
	return (struct label_block *)(void *)((char *)v -
					      offsetof(struct label_block, v));
}

static struct label_block *block_new(size_t alloc)
{
	struct label_block *b = xmalloc(sizeof(*b) + alloc * sizeof(b->v[0]));

	atomic_init(&b->refs, 1);
	b->packed = 0;
	b->joined = NULL;
	b->rendered = NULL;
	atomic_init(&b->hash, 0);
	return b;
}

void labels_init(struct labels *l)
{
	l->v = NULL;
	l->n = l->alloc = 0;
}

void labels_release(struct labels *l)
{
	struct label_block *b;

	if (!l->v)
		return;
	b = block_of(l->v);
	if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) == 1) {
		for (size_t i = 0; !b->packed && i < l->n; i++) {
			free(l->v[i].key);
			free(l->v[i].value);
		}
		free(b->joined);
		free(b->rendered);
		free(b);
	}
	labels_init(l);
}

void labels_copy(struct labels *dst, const struct labels *src)
{
	*dst = *src;
	if (src->v)
		atomic_fetch_add_explicit(&block_of(src->v)->refs, 1,
					  memory_order_relaxed);
}

/* Makes l's block its own, with room for need labels, cache dropped. */
static void labels_own(struct labels *l, size_t need)
{
	struct label_block *b = l->v ? block_of(l->v) : NULL, *nb;
	size_t alloc = l->alloc;

	while (alloc < need)
		alloc = alloc ? 2 * alloc : 4;
	if (b && b->refs == 1 && !b->packed) {	/* ours alone: in place */
		free(b->joined);
		free(b->rendered);
		b->joined = b->rendered = NULL;
		atomic_store_explicit(&b->hash, 0, memory_order_relaxed);
		if (alloc == l->alloc)
			return;
		b = xrealloc(b, sizeof(*b) + alloc * sizeof(b->v[0]));
		l->v = b->v;
		l->alloc = alloc;
		return;
	}
	nb = block_new(alloc);
	for (size_t i = 0; i < l->n; i++) {
		nb->v[i].key = xstrdup(l->v[i].key);
		nb->v[i].value = xstrdup(l->v[i].value);
	}
	if (b) {	/* ours is dropped (the last one, if the others went) */
		struct labels old = *l;

		labels_release(&old);
	}
	l->v = nb->v;
	l->alloc = alloc;
}

/*
 * strcmp()'s order.  Most keys a lookup meets differ from it in their
 * first byte: those are told apart without a call (a fifth of storan
 * check's time at a million measurements was strcmp, nearly all from
 * the checks' label lookups).
 */
static inline int key_cmp(const char *a, const char *b)
{
	if (*a != *b)
		return (unsigned char)*a - (unsigned char)*b;
	return a == b ? 0 : strcmp(a, b);
}

/* Index of key, or of where it would go (with *found = 0). */
static size_t labels_find(const struct labels *l, const char *key, int *found)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(l->v[mid].key, key);

		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

int labels_set(struct labels *l, const char *key, const char *value)
{
	int found;
	size_t i = labels_find(l, key, &found);

	if (found && !strcmp(l->v[i].value, value))
		return 0;	/* nothing changes: keep sharing */
	if (!found && l->n >= LABELS_MAX)
		return -1;
	labels_own(l, l->n + !found);
	if (found) {
		free(l->v[i].value);
		l->v[i].value = xstrdup(value);
		return 0;
	}
	memmove(l->v + i + 1, l->v + i, (l->n - i) * sizeof(*l->v));
	l->v[i].key = xstrdup(key);
	l->v[i].value = xstrdup(value);
	l->n++;
	return 0;
}

/* A pair and where it came: of two pairs with one key, the later wins. */
struct ranked_label {
	const char *key, *value;
	size_t rank;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked_label *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* A packed set of the k pairs (sorted, keys unique): one malloc. */
static void pack(struct labels *out, const struct ranked_label *pairs,
		 size_t k)
{
	size_t bytes = 0;
	struct label_block *b;
	char *at;

	for (size_t i = 0; i < k; i++)
		bytes += strlen(pairs[i].key) + strlen(pairs[i].value) + 2;
	b = xmalloc(sizeof(*b) + k * sizeof(b->v[0]) + bytes);
	atomic_init(&b->refs, 1);
	b->packed = 1;
	b->joined = b->rendered = NULL;
	atomic_init(&b->hash, 0);
	at = (char *)(b->v + k);
	for (size_t i = 0; i < k; i++) {
		size_t lk = strlen(pairs[i].key) + 1;
		size_t lv = strlen(pairs[i].value) + 1;

		b->v[i].key = memcpy(at, pairs[i].key, lk);
		b->v[i].value = memcpy(at + lk, pairs[i].value, lv);
		at += lk + lv;
	}
	out->v = b->v;
	out->n = out->alloc = k;
}

int labels_set_many(struct labels *l, const struct label_ref *pairs,
		    size_t n)
{
	struct ranked_label *all;
	struct labels out;
	size_t total = l->n + n, k = 0;

	if (!n)
		return 0;
	if (n > LABELS_MAX)
		return -1;	/* (before any work: n may be huge) */
	all = xmalloc(total * sizeof(*all));
	for (size_t i = 0; i < l->n; i++)
		all[i] = (struct ranked_label){ l->v[i].key, l->v[i].value, i };
	for (size_t i = 0; i < n; i++)
		all[l->n + i] = (struct ranked_label){ pairs[i].key,
						       pairs[i].value,
						       l->n + i };
	qsort(all, total, sizeof(*all), cmp_ranked);
	for (size_t i = 0; i < total; i++)	/* the last of each key */
		if (i + 1 == total || strcmp(all[i].key, all[i + 1].key))
			all[k++] = all[i];
	if (k > LABELS_MAX) {
		free(all);
		return -1;
	}
	pack(&out, all, k);
	free(all);
	labels_release(l);
	*l = out;
	return 0;
}

void labels_setf(struct labels *l, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = xstrvfmt(fmt, ap);
	va_end(ap);
	(void)labels_set(l, key, v);	/* storan's own keys: a few */
	free(v);
}

const char *labels_get(const struct labels *l, const char *key)
{
	int found;
	size_t i = labels_find(l, key, &found);

	return found ? l->v[i].value : NULL;
}

void labels_remove(struct labels *l, const char *key)
{
	int found;
	size_t i = labels_find(l, key, &found);

	if (!found)
		return;
	labels_own(l, l->n);
	free(l->v[i].key);
	free(l->v[i].value);
	memmove(l->v + i, l->v + i + 1, (l->n - i - 1) * sizeof(*l->v));
	l->n--;
}

int labels_equal(const struct labels *a, const struct labels *b)
{
	if (a->n != b->n)
		return 0;
	if (a->v == b->v)
		return 1;	/* the same shared block */
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].key, b->v[i].key) ||
		    strcmp(a->v[i].value, b->v[i].value))
			return 0;
	return 1;
}

void labels_add_keyparts(const struct labels *l, struct strbuf *sb)
{
	for (size_t i = 0; i < l->n; i++) {
		strbuf_add_keypart(sb, l->v[i].key);
		strbuf_add_keypart(sb, l->v[i].value);
	}
}

const char *labels_joined(const struct labels *l)
{
	struct label_block *b;
	struct strbuf sb = STRBUF_INIT;

	if (!l->v)
		return "";
	b = block_of(l->v);
	if (b->joined)
		return b->joined;
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			strbuf_addch(&sb, ';');
		strbuf_adds(&sb, l->v[i].key);
		strbuf_addch(&sb, '=');
		strbuf_adds(&sb, l->v[i].value);
	}
	b->joined = strbuf_detach(&sb);
	return b->joined;
}

uint64_t labels_hash(const struct labels *l)
{
	struct label_block *b;
	uint64_t h;

	if (!l->v)
		return FNV1A_INIT;
	b = block_of(l->v);
	h = atomic_load_explicit(&b->hash, memory_order_relaxed);
	if (h)
		return h;
	h = FNV1A_INIT;
	for (size_t i = 0; i < l->n; i++) {
		h = fnv1a(fnv1a(h, l->v[i].key), "=");
		h = fnv1a(fnv1a(h, l->v[i].value), ";");
	}
	h = h ? h : 1;
	/* (two threads store the same value) */
	atomic_store_explicit(&b->hash, h, memory_order_relaxed);
	return h;
}

const char *labels_rendered(const struct labels *l,
			    void (*render)(const struct labels *,
					   struct strbuf *))
{
	struct label_block *b;
	struct strbuf sb = STRBUF_INIT;

	if (!l->v)
		return NULL;	/* no block to keep it in */
	b = block_of(l->v);
	if (!b->rendered) {
		render(l, &sb);
		b->rendered = strbuf_detach(&sb);
	}
	return b->rendered;
}

char *labels_to_string(const struct labels *l)
{
	return xstrdup(labels_joined(l));
}

void result_set_init(struct result_set *rs)
{
	memset(rs, 0, sizeof(*rs));
}

static void source_release(struct source *s)
{
	free(s->path);
	free(s->name);
	free(s->format);
	free(s->tool_version);
	labels_release(&s->labels);
}

/*
 * A measurement's strings and its first values share one allocation:
 * tool (the block's start), op, metric, unit, the source name (NULL or in
 * the block), then, 8-aligned, room for values[0] (or for every value a
 * reader knew at once: result_set_add_values()).  A 4 MB fio JSON+ file
 * makes 14,000 measurements of one value each, and their six allocations
 * each were a fifth of the work; a result set read back holds a million
 * measurements of three values, a malloc'd array each was 32 bytes and a
 * chunk header more.  While alloc is 0, values points into the block
 * (also with n 0, at the room for the first one) or is NULL.
 */
static char *key_block_of(const struct measurement *m)
{
	return m->tool;
}

void measurement_release(struct measurement *m)
{
	if (!m->pooled)
		free(key_block_of(m));	/* strings, perhaps the first values */
	if (m->alloc)
		free(m->values);
	free(m->hist.value);
	free(m->hist.count);
	series_free(m->series);
	spilled_values_free(m->spilled);
	free(m->summary);
	labels_release(&m->labels);
	memset(m, 0, sizeof(*m));
}

void result_set_release(struct result_set *rs)
{
	for (size_t i = 0; i < rs->nsources; i++)
		source_release(&rs->sources[i]);
	for (size_t i = 0; i < rs->n; i++)
		measurement_release(&rs->m[i]);
	for (size_t i = 0; i < rs->ndrops; i++)
		free(rs->drops[i].name);
	free(rs->sources);
	if (!rs->m_borrowed)
		free(rs->m);
	free(rs->drops);
	pool_release(&rs->pool);
	result_set_init(rs);
}

void result_set_own(struct result_set *rs, size_t room)
{
	struct measurement *own;

	if (!rs->m_borrowed)
		return;
	if (room < rs->n)
		room = rs->n;
	own = xmalloc((room ? room : 1) * sizeof(*own));
	if (rs->n)
		memcpy(own, rs->m, rs->n * sizeof(*own));
	rs->m = own;
	rs->alloc = room;
	rs->m_borrowed = 0;
}

void result_set_grow(struct result_set *rs, size_t need)
{
	if (need <= rs->alloc)
		return;
	/* (a slice: more than its place in the array of all, an input
	 * that grew since its size was read) */
	result_set_own(rs, need);
	ALLOC_GROW(rs->m, need, rs->alloc);
}

void result_set_add_cache_drop(struct result_set *rs, size_t source,
			       const char *name, unsigned line)
{
	struct cache_drop *d;

	ALLOC_GROW(rs->drops, rs->ndrops + 1, rs->drops_alloc);
	d = &rs->drops[rs->ndrops++];
	d->source = source;
	d->name = xstrdup(name);
	d->line = line;
}

void result_set_truncate(struct result_set *rs, size_t n, size_t nsources)
{
	size_t kept;

	while (rs->n > n)
		measurement_release(&rs->m[--rs->n]);
	while (rs->nsources > nsources)
		source_release(&rs->sources[--rs->nsources]);
	kept = 0;
	for (size_t i = 0; i < rs->ndrops; i++) {
		if (rs->drops[i].source < nsources)
			rs->drops[kept++] = rs->drops[i];
		else
			free(rs->drops[i].name);
	}
	rs->ndrops = kept;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

size_t result_set_add_source(struct result_set *rs, const char *path,
			     const char *sha256)
{
	struct source *s;

	ALLOC_GROW(rs->sources, rs->nsources + 1, rs->sources_alloc);
	s = &rs->sources[rs->nsources];
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->name = xstrdup(base_name(path));
	if (sha256) {
		strncpy(s->sha256, sha256, sizeof(s->sha256) - 1);
		s->sha256[sizeof(s->sha256) - 1] = '\0';
	}
	return rs->nsources++;
}

/* A measurement counts its values in 32 bits (struct measurement:
 * 128 bytes, two cache lines). */
static void check_value_count(size_t n)
{
	if (n > UINT32_MAX)
		die("more than %u values in one measurement", UINT32_MAX);
}

/*
 * A new block for m's strings with room for `room` values (at least one),
 * the values it held in its old block (alloc 0) moved along.  (The
 * strings may be the old block's: it is freed last.)
 */
static void set_strings(struct measurement *m, const char *tool,
			const char *op, const char *metric, const char *unit,
			const char *source_name, size_t room)
{
	const char *parts[5] = { tool, op, metric, unit, source_name };
	char **fields[5] = {
		&m->tool, &m->op, &m->metric, &m->unit, &m->source_name
	};
	char *old = m->pooled ? NULL : key_block_of(m), *kb, *p;
	size_t len[5], total = 0;
	double *slot;

	for (int i = 0; i < 5; i++)
		total += len[i] = parts[i] ? strlen(parts[i]) + 1 : 0;
	total = (total + 7) & ~(size_t)7;	/* the values 8-aligned */
	if (!m->alloc && m->n > room)
		room = m->n;
	if (!room)
		room = 1;
	p = kb = xmalloc(total + room * sizeof(double));
	for (int i = 0; i < 5; i++) {
		*fields[i] = parts[i] ? memcpy(p, parts[i], len[i]) : NULL;
		p += len[i];
	}
	slot = (double *)(void *)(kb + total);
	if (!m->alloc) {	/* its values live in the block */
		if (m->n)
			memcpy(slot, m->values, m->n * sizeof(double));
		m->values = slot;
	}
	free(old);
	m->pooled = 0;		/* all its own now */
}

void measurement_set_key(struct measurement *m, const char *tool,
			 const char *op, const char *metric, const char *unit)
{
	set_strings(m, tool, op, metric, unit, m->source_name, 1);
}

struct measurement *result_set_add(struct result_set *rs, const char *tool,
				   const char *op, const char *metric,
				   const char *unit)
{
	return result_set_add_from(rs, tool, op, metric, unit, 0, NULL, 0);
}

struct measurement *result_set_add_from(struct result_set *rs,
					const char *tool, const char *op,
					const char *metric, const char *unit,
					size_t source, const char *source_name,
					unsigned line)
{
	return result_set_add_values(rs, tool, op, metric, unit, source,
				     source_name, line, NULL, 0);
}

struct measurement *result_set_add_pooled(struct result_set *rs,
					  const char *key, size_t source,
					  unsigned line, const double *values,
					  size_t n)
{
	char **fields[5], *p = (char *)(uintptr_t)key;
	struct measurement *m;

	result_set_grow(rs, rs->n + 1);
	m = &rs->m[rs->n++];
	memset(m, 0, sizeof(*m));
	fields[0] = &m->tool;
	fields[1] = &m->op;
	fields[2] = &m->metric;
	fields[3] = &m->unit;
	fields[4] = &m->source_name;
	for (int i = 0; i < 5; i++) {
		*fields[i] = p;
		p += strlen(p) + 1;
	}
	check_value_count(n);
	if (n) {
		m->values = pool_alloc(&rs->pool, n * sizeof(*values));
		memcpy(m->values, values, n * sizeof(*values));
	}
	m->n = (uint32_t)n;
	m->source = source;
	m->line = line;
	m->pooled = 1;
	labels_init(&m->labels);
	return m;
}

struct measurement *result_set_add_values(struct result_set *rs,
					  const char *tool, const char *op,
					  const char *metric, const char *unit,
					  size_t source,
					  const char *source_name,
					  unsigned line, const double *values,
					  size_t n)
{
	struct measurement *m;

	check_value_count(n);
	result_set_grow(rs, rs->n + 1);
	m = &rs->m[rs->n++];
	memset(m, 0, sizeof(*m));
	set_strings(m, tool, op, metric, unit, source_name, n);
	if (n)
		memcpy(m->values, values, n * sizeof(*values));
	m->n = (uint32_t)n;
	m->source = source;
	m->line = line;
	labels_init(&m->labels);
	return m;
}

const struct summary summary_none = {
	.present = 0, .n = 0, .mean = NAN, .stddev = NAN, .min = NAN,
	.max = NAN, .stddev_population = 0,
};

struct summary *measurement_add_summary(struct measurement *m)
{
	if (!m->summary) {
		m->summary = xmalloc(sizeof(*m->summary));
		*m->summary = summary_none;
		m->summary->mean = 0;
	}
	m->summary->present = 1;
	return m->summary;
}

void measurement_drop_summary(struct measurement *m)
{
	free(m->summary);
	m->summary = NULL;
}

void measurement_add_value(struct measurement *m, double v)
{
	size_t alloc;

	if (!m->alloc && !m->n && m->values) {	/* most hold just this one */
		m->values[0] = v;
		m->n = 1;
		return;
	}
	check_value_count((size_t)m->n + 1);
	if (m->n < m->alloc) {
		m->values[m->n++] = v;
		return;
	}
	/* twice the room (capped at the count's limit); out of the key
	 * block the first time */
	alloc = m->n < 2 ? 2 : 2 * (size_t)m->n;
	if (alloc > UINT32_MAX)
		alloc = UINT32_MAX;
	if (m->alloc) {
		m->values = xrealloc(m->values, alloc * sizeof(*m->values));
	} else {
		double *heap = xmalloc(alloc * sizeof(*heap));

		if (m->n)
			memcpy(heap, m->values, m->n * sizeof(*heap));
		m->values = heap;
	}
	m->alloc = (uint32_t)alloc;
	m->values[m->n++] = v;
}

int measurement_spill(struct measurement *m, struct value_file *vf)
{
	if (spilled_values_add(&m->spilled, vf, m->values, m->n))
		return -1;
	if (m->alloc)		/* (else they live in the key block) */
		free(m->values);
	m->values = NULL;
	m->n = m->alloc = 0;
	return 0;
}

size_t measurement_nvalues(const struct measurement *m)
{
	return m->n + (m->spilled ? m->spilled->n : 0);
}

int measurement_each_value(const struct measurement *m,
			   int (*each)(const double *v, size_t n, void *arg),
			   void *arg)
{
	int rc = spilled_values_each(m->spilled, each, arg);

	return rc || !m->n ? rc : each(m->values, m->n, arg);
}

void measurement_init_like(struct measurement *one,
			   const struct measurement *m, double v, unsigned line)
{
	memset(one, 0, sizeof(*one));
	one->source = m->source;
	one->line = line;
	one->hist_dropped = m->hist_dropped;
	set_strings(one, m->tool, m->op, m->metric, m->unit, m->source_name,
		    1);
	measurement_add_value(one, v);
	labels_copy(&one->labels, &m->labels);
}

void measurement_set_source(struct measurement *m, size_t source,
			    const char *name, unsigned line)
{
	m->source = source;
	m->line = line;
	set_strings(m, m->tool, m->op, m->metric, m->unit, name, 1);
}

/*
 * The key's strings as they lie in the key block, "tool\0op\0metric\0
 * unit\0source\0", or NULL (a string missing, or a source name that is
 * empty: NULL and "" are one name).  One hash and one memcmp() then do
 * for five strlen()s and strcmp()s: the fold asks it of a million
 * measurements.
 */
static const char *key_text(const struct measurement *m, size_t *len)
{
	const char *src = m->source_name;

	if (!m->tool || !m->op || !m->metric || !m->unit || !src || !*src)
		return NULL;
	*len = (size_t)(src - m->tool) + strlen(src) + 1;
	return m->tool;
}

uint64_t measurement_key_hash(const struct measurement *m)
{
	const char *parts[5] = { m->tool, m->op, m->metric, m->unit,
				 m->source_name ? m->source_name : "" };
	const char *text;
	uint64_t h = HASH64_INIT;
	size_t len;

	if ((text = key_text(m, &len))) {
		h = hash64(h, text, len);
	} else {
		for (int i = 0; i < 5; i++)
			h = hash64(h, parts[i] ? parts[i] : "",
				   parts[i] ? strlen(parts[i]) + 1 : 1);
	}
	/* cached per shared label set: a fio job's 15 labels are hashed
	 * once, not once per measurement */
	return h ^ labels_hash(&m->labels);
}

int measurement_same_key(const struct measurement *a,
			 const struct measurement *b)
{
	size_t la, lb;
	const char *ta = key_text(a, &la), *tb = key_text(b, &lb);

	if (ta && tb)
		return la == lb && !memcmp(ta, tb, la) &&
		       labels_equal(&a->labels, &b->labels);
	return !strcmp(a->tool, b->tool) && !strcmp(a->op, b->op) &&
	       !strcmp(a->metric, b->metric) && !strcmp(a->unit, b->unit) &&
	       !strcmp(a->source_name ? a->source_name : "",
		       b->source_name ? b->source_name : "") &&
	       labels_equal(&a->labels, &b->labels);
}

/* Are src's measurements the next ones of dst's array already? */
static int follows_in_place(const struct result_set *dst,
			    const struct result_set *src)
{
	return src->m_borrowed && dst->m && src->m == dst->m + dst->n &&
	       src->n <= dst->alloc - dst->n;
}

void result_set_append(struct result_set *dst, struct result_set *src)
{
	size_t base = dst->nsources;
	int in_place = follows_in_place(dst, src);

	/* Into an empty set (the first input a command loads): the arrays
	 * change hands, a million measurements are not copied.  (Not into
	 * an array made for all inputs, whose slices others hold.) */
	if (!in_place && !dst->n && !dst->nsources && !dst->ndrops &&
	    !dst->alloc) {
		free(dst->sources);
		free(dst->m);
		free(dst->drops);
		*dst = *src;
		result_set_init(src);
		return;
	}
	ALLOC_GROW(dst->sources, dst->nsources + src->nsources,
		   dst->sources_alloc);
	if (src->nsources)	/* (src->sources may be NULL) */
		memcpy(dst->sources + dst->nsources, src->sources,
		       src->nsources * sizeof(*src->sources));
	dst->nsources += src->nsources;
	if (!in_place)
		result_set_grow(dst, dst->n + src->n);
	/* (a borrowed src may lie further on in dst's array: copied
	 * forward, each measurement is read before its place is written) */
	for (size_t i = 0; i < src->n; i++) {
		if (!in_place)
			dst->m[dst->n] = src->m[i];
		dst->m[dst->n].source += base;
		dst->n++;
	}
	ALLOC_GROW(dst->drops, dst->ndrops + src->ndrops, dst->drops_alloc);
	for (size_t i = 0; i < src->ndrops; i++) {
		dst->drops[dst->ndrops] = src->drops[i];
		dst->drops[dst->ndrops++].source += base;
	}
	pool_adopt(&dst->pool, &src->pool);
	free(src->sources);
	if (!src->m_borrowed)
		free(src->m);
	free(src->drops);
	result_set_init(src);
}

void result_set_remove(struct result_set *rs, size_t i)
{
	measurement_release(&rs->m[i]);
	memmove(rs->m + i, rs->m + i + 1, (rs->n - i - 1) * sizeof(*rs->m));
	rs->n--;
}

/* The passes of measurement_basic_stats() over a measurement's values,
 * a piece at a time (core/valspill.h): the same sums in the same order
 * as one loop over values[]. */
struct stats_pass {
	size_t seen;
	double sum, min, max, mean, ss;
};

static int sum_and_extremes(const double *v, size_t n, void *arg)
{
	struct stats_pass *p = arg;

	if (!p->seen)
		p->min = p->max = v[0];
	for (size_t i = 0; i < n; i++) {
		p->sum += v[i];
		if (v[i] < p->min)
			p->min = v[i];
		if (v[i] > p->max)
			p->max = v[i];
	}
	p->seen += n;
	return 0;
}

static int running_mean(const double *v, size_t n, void *arg)
{
	struct stats_pass *p = arg;

	for (size_t i = 0; i < n; i++)
		p->mean += (v[i] - p->mean) / (double)(++p->seen);
	return 0;
}

static int squares(const double *v, size_t n, void *arg)
{
	struct stats_pass *p = arg;

	for (size_t i = 0; i < n; i++)
		p->ss += (v[i] - p->mean) * (v[i] - p->mean);
	return 0;
}

void measurement_basic_stats(const struct measurement *m,
			     struct measurement_stats *st)
{
	struct stats_pass p = { 0, 0, NAN, NAN, 0, 0 };
	size_t n = measurement_nvalues(m);

	if (!n && measurement_summary(m)->present) {
		const struct summary *s = measurement_summary(m);

		st->n = (size_t)s->n;
		st->mean = s->mean;
		st->stddev = s->stddev;
		/* A printed population stddev becomes the sample one. */
		if (s->stddev_population && s->n >= 2 && !isnan(s->stddev))
			st->stddev = s->stddev * sqrt(s->n / (s->n - 1));
		st->min = s->min;
		st->max = s->max;
		return;
	}
	measurement_each_value(m, sum_and_extremes, &p);
	st->n = n;
	st->min = p.min;
	st->max = p.max;
	st->mean = n ? p.sum / (double)n : NAN;
	if (isinf(st->mean) && isfinite(st->min) && isfinite(st->max)) {
		/* the sum of finite values overflowed (1e308 twice): a
		 * running mean stays within them */
		p.seen = 0;
		measurement_each_value(m, running_mean, &p);
		st->mean = p.mean;
	}
	p.mean = st->mean;
	measurement_each_value(m, squares, &p);
	st->stddev = n >= 2 ? sqrt(p.ss / (double)(n - 1)) : NAN;
}
