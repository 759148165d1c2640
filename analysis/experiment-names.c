/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the input names say, for the experiment model: names cut into
 * tokens, which token positions count runs, name the test or name the
 * side; and, before a model is built, which inputs are the sides of a
 * comparison (experiment_input_sides()).  Building is experiment.c's.
 */
#include "experiment.h"
#include "experiment-private.h"
#include "../core/human.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- what the input names say ------------------------------------------ */

int ex_name_is_separator(char c)
{
	return c == '.' || c == '-' || c == '_' || c == '+' || c == ' ' ||
	       c == ',' || c == '/';
}

/* The last k directories of path and its file name ("x/run.txt"). */
static const char *path_tail(const char *path, size_t k)
{
	const char *p = path + strlen(path);
	size_t slashes = 0;

	while (p > path && !(p[-1] == '/' && ++slashes > k))
		p--;
	return p;
}

/* Do two of the clashing sources show the same tail of different paths? */
static int tails_clash(const struct result_set *set, const int *clash,
		       size_t k)
{
	struct keymap seen;
	int same = 0;

	keymap_init(&seen);
	for (size_t i = 0; i < set->nsources && !same; i++) {
		int created;
		size_t *at;

		if (!clash[i])
			continue;
		at = keymap_put(&seen, path_tail(set->sources[i].path, k), i,
				&created);
		same = !created && strcmp(set->sources[*at].path,
					  set->sources[i].path);
	}
	keymap_release(&seen);
	return same;
}

/* Which sources share their base name with one of another path? */
static int *name_clashes(const struct result_set *set, size_t *nclash)
{
	int *clash = xcalloc(set->nsources ? set->nsources : 1,
			     sizeof(*clash));
	struct keymap first;

	*nclash = 0;
	keymap_init(&first);
	for (size_t i = 0; i < set->nsources; i++) {
		const struct source *s = &set->sources[i];
		int created;
		size_t *at;

		if (!s->name || !s->path)
			continue;
		at = keymap_put(&first, s->name, i, &created);
		if (!created && strcmp(set->sources[*at].path, s->path)) {
			*nclash += !clash[i] + !clash[*at];
			clash[i] = clash[*at] = 1;
		}
	}
	/* a third of the same name and the first's path clashes too */
	for (size_t i = 0; *nclash && i < set->nsources; i++) {
		const size_t *at = set->sources[i].name ?
				   keymap_get(&first, set->sources[i].name) :
				   NULL;

		if (at && clash[*at] && !clash[i]) {
			clash[i] = 1;
			(*nclash)++;
		}
	}
	keymap_release(&first);
	return clash;
}

char **experiment_shown_sources(const struct result_set *set)
{
	size_t nclash, k = 1;
	int *clash = name_clashes(set, &nclash);
	char **shown = NULL;

	if (nclash) {
		while (k < 64 && tails_clash(set, clash, k))
			k++;
		shown = xcalloc(set->nsources, sizeof(*shown));
		for (size_t i = 0; i < set->nsources; i++)
			if (clash[i])
				shown[i] = xstrdup(path_tail(
					set->sources[i].path, k));
	}
	free(clash);
	return shown;
}

void experiment_free_shown(char **shown, size_t n)
{
	for (size_t i = 0; shown && i < n; i++)
		free(shown[i]);
	free(shown);
}

/* "hosta.randread.txt" -> "hosta.randread": an extension is no token. */
char *ex_name_without_extension(const char *name)
{
	static const char *const ext[] = { ".txt", ".log", ".out", ".json",
					   ".csv", ".md", ".fio", NULL };
	size_t len = strlen(name);

	for (size_t i = 0; ext[i]; i++) {
		size_t el = strlen(ext[i]);

		if (len > el && !strcmp(name + len - el, ext[i])) {
			len -= el;
			break;
		}
	}
	return xstrndup(name, len);
}

/* "hosta.randread.txt" -> hosta, randread. */
void ex_name_tokenize(const char *name, struct name_tokens *t)
{
	char *p;

	t->copy = ex_name_without_extension(name);
	t->n = 0;
	for (p = t->copy; *p;) {
		while (*p && ex_name_is_separator(*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (t->n == MAX_TOKENS) {	/* the rest as one token */
			t->n = 0;
			break;
		}
		t->tok[t->n++] = p;
		while (*p && !ex_name_is_separator(*p))
			p++;
	}
	/* fio's histogram log, JOB_clat_hist.N.log: "clat_hist" is one
	 * word, as "bw" of JOB_bw.N.log is, so that a job's logs have names
	 * of one shape (the job and its index apart) */
	for (size_t k = 1; k < t->n; k++) {
		const char *w = t->tok[k - 1];

		if (strcmp(t->tok[k], "hist") || (strcmp(w, "clat") &&
		    strcmp(w, "lat") && strcmp(w, "slat")) ||
		    t->tok[k] - w != (ptrdiff_t)strlen(w) + 1)
			continue;
		t->copy[t->tok[k] - t->copy - 1] = '_';
		memmove(&t->tok[k], &t->tok[k + 1],
			(t->n - k - 1) * sizeof(t->tok[0]));
		t->n--;
	}
}

/* "run3", "rep-2", "r1", "iter_10": a run number, whatever its value. */
static int ex_name_counter_word(const char *s)
{
	static const char *const words[] = { "run", "rep", "repeat", "iter",
					     "iteration", "try", "pass",
					     "round", "r", NULL };

	for (size_t i = 0; words[i]; i++) {
		size_t len = strlen(words[i]);

		if (!strncasecmp(s, words[i], len) && s[len] &&
		    strspn(s + len, "0123456789") == strlen(s + len) &&
		    strlen(s + len) <= 4)
			return 1;
	}
	return 0;
}

/*
 * Is position pos a run counter over the names?  Every value a counter
 * word, or every value a small number, and within each side numbers
 * that count from 0 or 1 with no gap (1 2 3; a 512 and 4096 are sizes).
 */
static int ex_name_counter_position(struct name_tokens *names, size_t n,
			    const size_t *side_of, size_t nsides, size_t pos)
{
	int words = 1, numbers = 1;

	for (size_t i = 0; i < n; i++) {
		const char *v = names[i].tok[pos];

		words &= ex_name_counter_word(v);
		numbers &= strspn(v, "0123456789") == strlen(v) &&
			   strlen(v) <= 3;
	}
	if (words)
		return 1;
	if (!numbers)
		return 0;
	for (size_t s = 0; s < nsides; s++) {
		unsigned char seen[1000] = { 0 };
		size_t lo = 1000, hi = 0, distinct = 0;

		for (size_t i = 0; i < n; i++) {
			size_t v = (size_t)strtoul(names[i].tok[pos], NULL,
						   10);

			if (side_of[i] != s || seen[v])
				continue;
			seen[v] = 1;
			distinct++;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		if (distinct > 1 && (lo > 1 || hi - lo + 1 != distinct))
			return 0;
	}
	return 1;
}


enum position_kind ex_name_classify_position(struct name_tokens *names,
					    size_t n, const size_t *side_of,
					    size_t nsides, size_t pos)
{
	int all_equal = 1, within = 0;

	for (size_t i = 1; i < n; i++)
		all_equal &= !strcmp(names[i].tok[pos], names[0].tok[pos]);
	if (all_equal)
		return POS_SAME;
	if (ex_name_counter_position(names, n, side_of, nsides, pos))
		return POS_COUNTER;
	for (size_t i = 0; i < n && !within; i++)
		for (size_t j = i + 1; j < n && !within; j++)
			within = side_of[i] == side_of[j] &&
				 strcmp(names[i].tok[pos], names[j].tok[pos]);
	return within ? POS_TEST : POS_SIDE;
}

/* ---- which inputs are sides -------------------------------------------- */

static uint64_t same_test_hash(const struct measurement *m)
{
	uint64_t h = fnv1a(fnv1a(fnv1a(FNV1A_INIT, m->tool), m->op),
			   m->metric);

	return (h ^ labels_hash(&m->labels)) * 0x9e3779b97f4a7c15ULL;
}

static int same_test(const struct measurement *x, const struct measurement *y)
{
	return !strcmp(x->tool, y->tool) && !strcmp(x->op, y->op) &&
	       !strcmp(x->metric, y->metric) &&
	       labels_equal(&x->labels, &y->labels);
}

int experiment_sets_share_a_measurement(const struct result_set *a,
					const struct result_set *b,
					const struct experiment_options *opt)
{
	size_t cap = 16, mask, *slot;
	int found = 0;

	while (cap < 2 * a->n)
		cap *= 2;
	mask = cap - 1;
	slot = xmalloc(cap * sizeof(*slot));
	for (size_t i = 0; i < cap; i++)
		slot[i] = SIZE_MAX;
	for (size_t i = 0; i < a->n; i++) {
		size_t h;

		if (!ex_taken(&a->m[i], opt))
			continue;
		for (h = same_test_hash(&a->m[i]) & mask;
		     slot[h] != SIZE_MAX; h = (h + 1) & mask)
			if (same_test(&a->m[slot[h]], &a->m[i]))
				break;
		slot[h] = i;
	}
	for (size_t j = 0; j < b->n && !found; j++) {
		if (!ex_taken(&b->m[j], opt))
			continue;
		for (size_t h = same_test_hash(&b->m[j]) & mask;
		     slot[h] != SIZE_MAX && !found; h = (h + 1) & mask)
			found = same_test(&a->m[slot[h]], &b->m[j]);
	}
	free(slot);
	return found;
}

/* Do inputs a and b measure a test in common (experiment_match())? */
static int inputs_share_a_test(const struct result_set *sets, size_t a,
			       size_t b, const struct filter *where)
{
	struct result_set pair[2] = { sets[a], sets[b] };
	struct experiment_options opt = { .where = where, .no_name_keys = 1,
					  .groups_only = 1 };
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;
	size_t *match, n;
	unsigned char *seen;
	int shared = 0;

	if (experiment_sets_share_a_measurement(&sets[a], &sets[b], &opt))
		return 1;
	if (experiment_build(&ex, pair, 2, &opt, &err)) {
		strbuf_release(&err);
		return 0;
	}
	match = xmalloc((ex.ngroups + 1) * sizeof(*match));
	n = experiment_match(&ex, 0, 1, match, NULL, NULL);
	seen = xcalloc(n + 1, 1);
	for (size_t g = 0; g < ex.ngroups && !shared; g++) {
		if (match[g] == EX_NONE)
			continue;
		seen[match[g]] |= (unsigned char)(1u << (ex.groups[g].side ?
							 1 : 0));
		shared = seen[match[g]] == 3;
	}
	free(seen);
	free(match);
	experiment_release(&ex);
	strbuf_release(&err);
	return shared;
}

/* Does token tok say label value v: "randwrite" rw=randwrite, "4k"
 * bs=4096, "qd32" iodepth=32 (letters before a number)? */
static int token_says(const char *tok, const char *v)
{
	char size[32];
	double num;
	size_t letters = 0;

	if (!strcasecmp(tok, v))
		return 1;
	if (!is_numeric_string(v, &num))
		return 0;
	human_size(num, size, sizeof(size));
	if (!strcasecmp(tok, size) ||
	    (!strncasecmp(tok, size, strlen(size)) &&
	     (!strcasecmp(tok + strlen(size), "b") ||
	      !strcasecmp(tok + strlen(size), "ib"))))
		return 1;
	while (isalpha((unsigned char)tok[letters]))
		letters++;
	return letters && tok[letters] && !strcmp(tok + letters, v);
}

/*
 * Does every input's token at pos restate a label of its own
 * measurements (not one the user gave ingest --label, which names what
 * is compared)?  Then the names only repeat the conditions:
 * randwrite-4k-qd32.json.
 */
static int position_restates_labels(const struct result_set *sets,
				    struct name_tokens *t, size_t n,
				    size_t pos)
{
	for (size_t i = 0; i < n; i++) {
		int said = 0;

		for (size_t j = 0; j < sets[i].n && !said; j++) {
			const struct measurement *m = &sets[i].m[j];
			const struct labels *user =
				m->source < sets[i].nsources ?
				&sets[i].sources[m->source].labels : NULL;

			for (size_t k = 0; k < m->labels.n && !said; k++)
				said = token_says(t[i].tok[pos],
						  m->labels.v[k].value) &&
				       !(user && labels_get(user,
						m->labels.v[k].key));
			if (j > 64)
				break;	/* a job's labels: the first do */
		}
		if (!said)
			return 0;
	}
	return 1;
}

/*
 * Do positions p and q vary together: each value at one goes with one
 * value at the other ("do-5bucks" and "vultr-25gbssd": do with 5bucks)?
 * Such positions are one part of the names, whatever their separators.
 */
static int covary(struct name_tokens *t, size_t n, size_t p, size_t q)
{
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			if (!strcmp(t[a].tok[p], t[b].tok[p]) !=
			    !strcmp(t[a].tok[q], t[b].tok[q]))
				return 0;
	return 1;
}

/*
 * Is position pos of the names one that names sides?  Some two inputs
 * whose names differ there and only there (run counters aside) measure
 * a test in common: hosta.randread and hostb.randread.  Where no such
 * pair does (randread-4k against randwrite-4k, 4k against 64k), the
 * position names tests.
 */
static int side_position(const struct result_set *sets,
			 struct name_tokens *t, size_t n, size_t pos,
			 const enum position_kind *kind, const size_t *group,
			 size_t ntok, const struct filter *where)
{
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++) {
			size_t p;

			if (!strcmp(t[a].tok[pos], t[b].tok[pos]))
				continue;
			for (p = 0; p < ntok; p++)
				if (group[p] != group[pos] &&
				    kind[p] != POS_COUNTER &&
				    strcmp(t[a].tok[p], t[b].tok[p]))
					break;
			if (p == ntok &&
			    inputs_share_a_test(sets, a, b, where))
				return 1;
		}
	return 0;
}

size_t experiment_input_sides(const struct result_set *sets,
			      const char *const *names, size_t n,
			      const struct filter *where, size_t *side_of)
{
	struct name_tokens *t = xcalloc(n + 1, sizeof(*t));
	enum position_kind kind[2 * MAX_TOKENS];
	size_t group[2 * MAX_TOKENS];
	size_t *none = xcalloc(n + 1, sizeof(*none)), ntok, nsides = 0;
	int same_shape = 1;
	struct keymap sides;
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		ex_name_tokenize(names[i], &t[i]);
		same_shape &= t[i].n == t[0].n && t[i].n > 0;
	}
	for (size_t i = 0; i < n && !same_shape; i++) {
		free(t[i].copy);
		t[i].copy = ex_name_without_extension(names[i]);
		t[i].tok[0] = t[i].copy;
		t[i].n = 1;
	}
	ntok = n ? t[0].n : 0;
	/* one side for all: which positions are run counters, which vary */
	for (size_t p = 0; p < ntok; p++) {
		kind[p] = ex_name_classify_position(t, n, none, 1, p);
		group[p] = p;
		for (size_t q = 0; q < p; q++)
			if (kind[p] == POS_TEST && kind[q] == POS_TEST &&
			    group[q] == q && covary(t, n, p, q)) {
				group[p] = q;
				break;
			}
	}
	for (size_t p = 0; p < ntok; p++)
		if (kind[p] == POS_TEST && group[p] == p &&
		    !position_restates_labels(sets, t, n, p) &&
		    side_position(sets, t, n, p, kind, group, ntok, where))
			kind[p] = POS_SIDE;
	for (size_t p = 0; p < ntok; p++)
		if (group[p] != p && kind[group[p]] == POS_SIDE)
			kind[p] = POS_SIDE;
	keymap_init(&sides);
	for (size_t i = 0; i < n; i++) {
		int created;

		strbuf_reset(&key);
		for (size_t p = 0; p < ntok; p++)
			if (kind[p] == POS_SIDE)
				strbuf_add_keypart(&key, t[i].tok[p]);
		side_of[i] = *keymap_put(&sides, strbuf_str(&key), nsides,
					 &created);
		nsides += created;
	}
	keymap_release(&sides);
	strbuf_release(&key);
	for (size_t i = 0; i < n; i++)
		free(t[i].copy);
	free(t);
	free(none);
	return nsides;
}
