/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Questions asked of a built experiment (experiment.h): a measurement's
 * codes and values, which keys distinguish a set of measurements, which
 * key goes on the x axis, values as a reader sees them, and the matching
 * of two sides.  Building it is experiment.c's.
 */
#define _GNU_SOURCE	/* qsort_r */

#include "experiment.h"
#include "experiment-private.h"
#include "../core/human.h"
#include "../core/tuplemap.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- questions --------------------------------------------------------- */

uint64_t experiment_code_of(const struct experiment *ex, size_t i, size_t k)
{
	if (k == EX_OP)
		return (uint64_t)ex->priv->tom[3 * i + 1] + 1;
	if (k == EX_TOOL)
		return (uint64_t)ex->priv->tom[3 * i] + 1;
	return experiment_code(ex, i, k);
}

size_t experiment_first_difference(const struct experiment *ex, size_t a,
				   size_t b)
{
	size_t best = EX_NONE;

	if (experiment_code_of(ex, a, EX_TOOL) !=
	    experiment_code_of(ex, b, EX_TOOL))
		return EX_TOOL;
	if (experiment_code_of(ex, a, EX_OP) != experiment_code_of(ex, b, EX_OP))
		return EX_OP;
	for (size_t k = 0; k < ex->nkeys; k++) {
		if (ex->keys[k].role != EX_FACTOR ||
		    experiment_code(ex, a, k) == experiment_code(ex, b, k))
			continue;
		if (best == EX_NONE || ex->keys[k].pref < ex->keys[best].pref)
			best = k;
	}
	return best;
}

int experiment_varies(const struct experiment *ex, const size_t *members,
		      size_t n, size_t k)
{
	for (size_t j = 1; j < n; j++)
		if (experiment_code_of(ex, members[j], k) != experiment_code_of(ex, members[0], k))
			return 1;
	return 0;
}

/*
 * Does key cand take two values among members that agree on every key
 * of have[0..nhave)?  One pass with a map from their codes to the first
 * member seen.
 */
static int adds_information(const struct experiment *ex,
			    const size_t *members, size_t n,
			    const size_t *have, size_t nhave, size_t cand)
{
	struct tuple_map seen;
	uint64_t *t = xmalloc((nhave + 1) * sizeof(*t));
	int adds = 0;

	tuple_map_init(&seen, nhave);
	for (size_t j = 0; j < n && !adds; j++) {
		size_t first;

		for (size_t h = 0; h < nhave; h++)
			t[h] = experiment_code_of(ex, members[j], have[h]);
		if (!nhave)
			t[0] = 0;
		first = tuple_map_put(&seen, t, j);
		adds = experiment_code_of(ex, members[first], cand) !=
		       experiment_code_of(ex, members[j], cand);
	}
	tuple_map_release(&seen);
	free(t);
	return adds;
}

static size_t key_pref(const struct experiment *ex, size_t k)
{
	/* the tool, then the op, right after the user's keys: they are
	 * what a test is */
	if (k == EX_TOOL)
		return 1;
	if (k == EX_OP)
		return 1;
	return ex->keys[k].pref ? ex->keys[k].pref + 1 : 0;
}

/* (qsort_r: the checks of two result sets run on two threads) */
struct pref_arg {
	const struct experiment *ex;
};

static int by_pref(const void *a, const void *b, void *arg)
{
	const struct experiment *pref_ex = ((struct pref_arg *)arg)->ex;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t px = key_pref(pref_ex, x), py = key_pref(pref_ex, y);

	if (px != py)
		return px < py ? -1 : 1;
	if (x == EX_TOOL || y == EX_TOOL)
		return x == EX_TOOL ? -1 : 1;
	if (x == EX_OP || y == EX_OP)
		return x == EX_OP ? -1 : 1;
	return strcmp(pref_ex->keys[x].name, pref_ex->keys[y].name);
}

/* Does key k have two present values (not only a value and "none")? */
static int two_values_present(const struct experiment *ex,
			      const size_t *members, size_t n, size_t k)
{
	uint64_t first = 0;

	if (k == EX_OP || k == EX_TOOL)
		return 1;
	for (size_t j = 0; j < n; j++) {
		uint64_t c = experiment_code(ex, members[j], k);

		if (!c)
			continue;
		if (!first)
			first = c;
		else if (c != first)
			return 1;
	}
	return 0;
}

/* How many distinct (a, b) value pairs the members have. */
static size_t count_pairs(const struct experiment *ex, const size_t *members,
			  size_t n, size_t a, size_t b)
{
	struct tuple_map seen;
	uint64_t t[2];
	size_t count;

	tuple_map_init(&seen, 2);
	for (size_t j = 0; j < n; j++) {
		t[0] = experiment_code_of(ex, members[j], a);
		t[1] = experiment_code_of(ex, members[j], b);
		tuple_map_put(&seen, t, seen.n);
	}
	count = seen.n;
	tuple_map_release(&seen);
	return count;
}

static size_t count_codes(const struct experiment *ex, const size_t *members,
			  size_t n, size_t k);

/*
 * A post's headings name what was measured in the author's words
 * ("=== zram1 (lz4, in RAM) ==="): where they go one to one with a key
 * chosen (a heading per device), the headings take its place.  Where
 * they do not (BEFORE: and AFTER: of one device) the key stays.
 */
static void prefer_headings(const struct experiment *ex, const size_t *members,
			    size_t n, const size_t *have, size_t nhave,
			    size_t *out, size_t nout)
{
	size_t s = experiment_key(ex, "section");

	if (s == EX_NONE || ex->keys[s].role != EX_FACTOR ||
	    ex_keys_have(have, nhave, s))
		return;
	for (size_t i = 0; i < nout; i++) {
		size_t k = out[i], v;

		if (k == EX_OP || k == EX_TOOL || ex->keys[k].numeric)
			continue;
		v = count_codes(ex, members, n, k);
		if (v > 1 && count_codes(ex, members, n, s) == v &&
		    count_pairs(ex, members, n, k, s) == v) {
			out[i] = s;
			return;
		}
	}
}

size_t experiment_distinguishing(const struct experiment *ex,
				 const size_t *members, size_t n,
				 const size_t *chosen, size_t nchosen,
				 size_t *out, size_t max)
{
	size_t *cand = xmalloc((ex->nkeys + 2) * sizeof(*cand));
	size_t *have = xmalloc((ex->nkeys + nchosen + 3) * sizeof(*have));
	size_t ncand = 0, nhave = nchosen, nout = 0;

	cand[ncand++] = EX_TOOL;
	cand[ncand++] = EX_OP;
	for (size_t k = 0; k < ex->nkeys; k++)
		if (ex->keys[k].role == EX_FACTOR)
			cand[ncand++] = k;
	qsort_r(cand, ncand, sizeof(*cand), by_pref,
		&(struct pref_arg){ ex });
	if (nchosen)
		memcpy(have, chosen, nchosen * sizeof(*have));
	/* keys with two values or more first; a key one capture has and
	 * another lacks (fio's text lists options its JSON does not) only
	 * where nothing else tells the measurements apart */
	for (int strong = 1; strong >= 0; strong--)
		for (size_t c = 0; c < ncand && nout < max; c++) {
			if (ex_keys_have(have, nhave, cand[c]) ||
			    two_values_present(ex, members, n, cand[c]) !=
			    strong ||
			    !experiment_varies(ex, members, n, cand[c]) ||
			    !adds_information(ex, members, n, have, nhave,
					      cand[c]))
				continue;
			out[nout++] = cand[c];
			have[nhave++] = cand[c];
		}
	prefer_headings(ex, members, n, have, nhave, out, nout);
	free(cand);
	free(have);
	return nout;
}

static size_t count_codes(const struct experiment *ex, const size_t *members,
			  size_t n, size_t k)
{
	struct tuple_map seen;
	uint64_t c;
	size_t count;

	tuple_map_init(&seen, 1);
	for (size_t j = 0; j < n; j++) {
		c = experiment_code_of(ex, members[j], k);
		tuple_map_put(&seen, &c, seen.n);
	}
	count = seen.n;
	tuple_map_release(&seen);
	return count;
}

size_t experiment_pick_x(const struct experiment *ex, const size_t *members,
			 size_t n)
{
	size_t dist[32], nd = experiment_distinguishing(ex, members, n, NULL, 0,
							dist, 32);

	for (size_t i = 0; i < nd; i++)
		if (dist[i] != EX_OP && dist[i] != EX_TOOL &&
		    ex->keys[dist[i]].numeric &&
		    count_codes(ex, members, n, dist[i]) >= 3)
			return dist[i];
	for (size_t i = 0; i < nd; i++)
		if (dist[i] != EX_OP)
			return dist[i];
	return EX_OP;
}

/*
 * The head and tail all long values of key k share, at word boundaries:
 * a command line is shown as the part that differs.
 */
#define LONG_VALUE 28

static void find_trim(const struct experiment *ex, size_t k)
{
	struct ex_private *p = ex->priv;
	const struct ex_key *key = &ex->keys[k];
	size_t head = SIZE_MAX, tail = SIZE_MAX;

	if (!p->trimmed) {
		p->trimmed = xcalloc(ex->nkeys + 1, sizeof(int));
		p->trim_head = xcalloc(ex->nkeys + 1, sizeof(size_t));
		p->trim_tail = xcalloc(ex->nkeys + 1, sizeof(size_t));
	}
	if (p->trimmed[k])
		return;
	p->trimmed[k] = 1;
	if (key->nvalues < 2)
		return;
	for (size_t c = 2; c <= key->nvalues; c++) {
		const char *a = key->values[1], *b = key->values[c];
		size_t la = strlen(a), lb = strlen(b), h = 0, t = 0;

		while (a[h] && a[h] == b[h])
			h++;
		while (t < la && t < lb && a[la - 1 - t] == b[lb - 1 - t])
			t++;
		head = h < head ? h : head;
		tail = t < tail ? t : tail;
	}
	/* back to the start of a word, forward to the end of one */
	while (head && key->values[1][head - 1] != ' ')
		head--;
	for (size_t c = 1; c <= key->nvalues; c++) {
		size_t len = strlen(key->values[c]);

		if (head + tail > len)
			tail = len > head ? len - head : 0;
		while (tail && key->values[c][len - tail] != ' ')
			tail--;
	}
	p->trim_head[k] = head;
	p->trim_tail[k] = tail;
}

const char *experiment_value_text(const struct experiment *ex, size_t k,
				  uint32_t code, char *buf, size_t size)
{
	const struct ex_key *key;
	const char *v;
	size_t len, head, tail;

	if (k == EX_OP || k == EX_TOOL) {
		snprintf(buf, size, "%s", ex->priv->string_v[code - 1]);
		return buf;
	}
	key = &ex->keys[k];
	v = key->values[code];
	if (!v) {
		snprintf(buf, size, "no %s", key->name);
		return buf;
	}
	if (key->size && !isnan(key->num[code]))
		return human_size(key->num[code], buf, size);
	len = strlen(v);
	if (len <= LONG_VALUE) {
		snprintf(buf, size, "%s", v);
		return buf;
	}
	find_trim(ex, k);
	head = ex->priv->trim_head[k];
	tail = ex->priv->trim_tail[k];
	if (head + tail >= len)
		head = tail = 0;
	snprintf(buf, size, "%s%.*s%s", head ? "\xe2\x80\xa6" : "",
		 (int)(len - head - tail), v + head,
		 tail ? "\xe2\x80\xa6" : "");
	return buf;
}

int experiment_value_shared(const struct experiment *ex, size_t k,
			    struct strbuf *sb)
{
	const struct ex_key *key;
	const char *cut = NULL;
	size_t head, tail;

	if (k == EX_OP || k == EX_TOOL || k >= ex->nkeys)
		return 0;
	key = &ex->keys[k];
	if (key->size)
		return 0;
	find_trim(ex, k);
	head = ex->priv->trim_head[k];
	tail = ex->priv->trim_tail[k];
	for (size_t c = 1; c <= key->nvalues && !cut; c++) {
		size_t len = strlen(key->values[c]);

		if (len > LONG_VALUE && head + tail < len && head + tail)
			cut = key->values[c];
	}
	if (!cut)
		return 0;
	strbuf_add(sb, cut, head);
	strbuf_adds(sb, "\xe2\x80\xa6");
	strbuf_adds(sb, cut + strlen(cut) - tail);
	return 1;
}

/*
 * A value in words, for titles and legends: "4K blocks", "iodepth 32", "8 jobs",
 * "direct I/O"; keys whose values say what they are by themselves (a
 * host, a device, a test, a section, an op) give the value alone.
 */
void experiment_value_words(struct strbuf *sb, const char *key,
			    const char *text)
{
	static const char *const self_evident[] = {
		"op", "tool", "rw", "host", "device", "test", "section",
		"kind", "file", "fs", "filesystem", "name", "job", "input",
		"side", "ioengine", "filename", "scheduler", NULL,
	};

	/* hdparm -T: a figure of memory, and its title must say so */
	if (!strcmp(key, "op") && !strcmp(text, "cachedread")) {
		strbuf_adds(sb, "cached reads (memory, not the drive)");
		return;
	}
	for (size_t i = 0; self_evident[i]; i++)
		if (!strcmp(key, self_evident[i])) {
			strbuf_adds(sb, text);
			return;
		}
	if (!strcmp(key, "bs"))
		strbuf_addf(sb, "%s blocks", text);
	else if (!strcmp(key, "runtime") && strspn(text, "0123456789.") ==
		 strlen(text))	/* fio's runtime=2: seconds */
		strbuf_addf(sb, "%s s runs", text);
	else if (!strcmp(key, "filesize"))
		strbuf_addf(sb, "%s files", text);
	else if (!strcmp(key, "numjobs"))
		strbuf_addf(sb, "%s job%s", text, strcmp(text, "1") ? "s" :
			    "");
	else if (!strcmp(key, "direct") && !strcmp(text, "1"))
		strbuf_adds(sb, "direct I/O");
	else if (!strcmp(key, "direct") && !strcmp(text, "0"))
		strbuf_adds(sb, "buffered I/O");
	else
		strbuf_addf(sb, "%s %s", key, text);
}

/* ---- matching two sides ------------------------------------------------ */

/* A measurement's test: tool, op, metric and the base factors' codes. */
static void test_tuple(const struct experiment *ex, size_t i,
		       const size_t *base, size_t nb, uint64_t *t)
{
	t[0] = ex->priv->tom[3 * i];
	t[1] = ex->priv->tom[3 * i + 1];
	t[2] = ex->priv->tom[3 * i + 2];
	for (size_t j = 0; j < nb; j++)
		t[3 + j] = experiment_code(ex, i, base[j]);
}

/* The largest value each word of test_tuple() and a side takes. */
static void match_bounds(const struct experiment *ex, const size_t *base,
			 size_t nb, uint64_t *max)
{
	max[0] = max[1] = max[2] = ex->priv->nstrings;
	for (size_t j = 0; j < nb; j++)
		max[3 + j] = ex->keys[base[j]].nvalues;
	max[3 + nb] = ex->nsides;
}

/*
 * The groups of sides a and b, MATCH_CHUNK at a time: their first
 * measurements into first[], their count returned; *g goes on past them.
 * (Tuples put a chunk at a time: tuple_map_put_many().)
 */
#define MATCH_CHUNK 256

static size_t next_groups(const struct experiment *ex, size_t a, size_t b,
			  size_t *g, size_t *group, size_t *first)
{
	size_t k = 0;

	for (; *g < ex->ngroups && k < MATCH_CHUNK; (*g)++) {
		const struct ex_group *gr = &ex->groups[*g];

		if (gr->side != a && gr->side != b)
			continue;
		group[k] = *g;
		first[k++] = gr->first;
	}
	return k;
}

/* The tests one side holds under several provenance values, into splits
 * (their number returned). */
static size_t split_tests(const struct experiment *ex, size_t a, size_t b,
			  const size_t *base, size_t nb,
			  struct tuple_map *within, struct tuple_map *splits)
{
	size_t w = nb + 4, group[MATCH_CHUNK], first[MATCH_CHUNK];
	size_t other[MATCH_CHUNK], nsplit = 0, k;
	uint64_t *t = xmalloc(MATCH_CHUNK * w * sizeof(*t));

	for (size_t g = 0; (k = next_groups(ex, a, b, &g, group, first));) {
		for (size_t j = 0; j < k; j++) {
			test_tuple(ex, first[j], base, nb, t + j * w);
			t[j * w + 3 + nb] = ex->groups[group[j]].side;
		}
		tuple_map_put_many(within, t, k, group, other);
		for (size_t j = 0; j < k; j++)
			if (other[j] != group[j] &&
			    tuple_map_put(splits, t + j * w, nsplit) == nsplit)
				nsplit++;
	}
	free(t);
	return nsplit;
}

/* Each group of sides a and b into its class (the same test, and the
 * same provenance where the test is split): match[], split[]. */
static void classify(const struct experiment *ex, size_t a, size_t b,
		     const size_t *base, size_t nb, const size_t *prov,
		     size_t np, const struct tuple_map *splits,
		     struct tuple_map *classes, size_t *match, int *split)
{
	size_t w = nb + np + 4, group[MATCH_CHUNK], first[MATCH_CHUNK];
	size_t got[MATCH_CHUNK], k;
	int is_split[MATCH_CHUNK];
	uint64_t *t = xmalloc(MATCH_CHUNK * w * sizeof(*t));

	for (size_t g = 0; g < ex->ngroups; g++) {
		match[g] = EX_NONE;
		if (split)
			split[g] = 0;
	}
	for (size_t g = 0; (k = next_groups(ex, a, b, &g, group, first));) {
		for (size_t j = 0; j < k; j++) {
			uint64_t *tj = t + j * w;

			test_tuple(ex, first[j], base, nb, tj);
			is_split[j] = tuple_map_get(splits, tj) != SIZE_MAX;
			for (size_t p = 0; p < np; p++)
				tj[3 + nb + p] = is_split[j] ?
					experiment_code(ex, first[j],
							prov[p]) : 0;
			tj[3 + nb + np] = (uint64_t)is_split[j];
		}
		tuple_map_put_many(classes, t, k, NULL, got);
		for (size_t j = 0; j < k; j++) {
			match[group[j]] = got[j];
			if (split)
				split[group[j]] = is_split[j];
		}
	}
	free(t);
}

size_t experiment_match(const struct experiment *ex, size_t a, size_t b,
			size_t *match, int *split, size_t *nsplit_out)
{
	size_t nb = 0, np = 0, *base = xmalloc((ex->nkeys + 1) *
					       sizeof(*base));
	size_t *prov = xmalloc((ex->nkeys + 1) * sizeof(*prov));
	uint64_t *t = xmalloc((2 * ex->nkeys + 5) * sizeof(*t));
	struct tuple_map within, splits, classes;
	size_t nsplit = 0, nclasses;

	for (size_t k = 0; k < ex->nkeys; k++) {
		if (ex->keys[k].role != EX_FACTOR)
			continue;
		if (ex->keys[k].provenance)
			prov[np++] = k;
		else
			base[nb++] = k;
	}
	tuple_map_init(&within, nb + 4);
	tuple_map_init(&splits, nb + 3);
	tuple_map_init(&classes, nb + np + 4);
	match_bounds(ex, base, nb, t);
	tuple_map_bound(&within, t);
	tuple_map_bound(&splits, t);
	for (size_t j = 0; j < np; j++)	/* classes: provenance, no side */
		t[3 + nb + j] = ex->keys[prov[j]].nvalues;
	t[3 + nb + np] = 1;
	tuple_map_bound(&classes, t);
	tuple_map_reserve(&within, ex->ngroups);
	tuple_map_reserve(&classes, ex->ngroups);
	nsplit = split_tests(ex, a, b, base, nb, &within, &splits);
	classify(ex, a, b, base, nb, prov, np, &splits, &classes, match,
		 split);
	nclasses = classes.n;
	if (nsplit_out)
		*nsplit_out = nsplit;
	tuple_map_release(&within);
	tuple_map_release(&splits);
	tuple_map_release(&classes);
	free(base);
	free(prov);
	free(t);
	return nclasses;
}
