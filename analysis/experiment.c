/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The experiment model; see experiment.h for the rules it applies.
 *
 * Building is a few linear passes: take the measurements (and their
 * sides); code each distinct label set with its input once (a profile);
 * learn the keys and intern their values; derive the keys the input
 * names hold; give each key its role; then hash every measurement into
 * its group by integer tuple (tool, op, metric, side, factor codes) and
 * pool the groups' runs.
 */
#include "experiment.h"
#include "experiment-private.h"
#include "../core/human.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/tuplemap.h"
#include "../core/xalloc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int label_is_provenance(const char *key)
{
	static const char *const keys[] = { "command", "section", "file",
					    NULL };

	return str_in_list(key, keys);
}

int key_is_size(const char *key)
{
	static const char *const keys[] = { "bs", "blocksize", "filesize",
					    "size", "recsize", "io_size",
					    NULL };

	return str_in_list(key, keys);
}

#define TEST_KEY "test"

static const char *const role_names[] = {
	[EX_CONSTANT] = "constant", [EX_FACTOR] = "factor",
	[EX_IDENTITY] = "identity", [EX_COUNTER] = "counter",
	[EX_POOLED] = "pooled",
};

const char *ex_role_name(enum ex_role role)
{
	return role_names[role];
}

enum ex_summary ex_summary_for(size_t n)
{
	return n == 0 ? EX_EMPTY : n == 1 ? EX_SINGLE : n == 2 ? EX_BOTH :
	       EX_INTERVAL;
}

/* ---- building state ---------------------------------------------------- */


static size_t intern_string(struct ex_private *p, const char *s)
{
	int created;
	size_t *slot = keymap_put(&p->strings, s, p->nstrings, &created);

	if (created) {
		ALLOC_GROW(p->string_v, p->nstrings + 1, p->strings_alloc);
		p->string_v[p->nstrings++] = xstrdup(s);
	}
	return *slot;
}

/*
 * intern_string() for a run of measurements: a tool, an op and a few
 * metrics repeat from one measurement to the next, and comparing with
 * the last few is cheaper than hashing (six million lookups in a
 * compare of a million a side).
 */
#define RECENT 4
struct recent_strings {
	const char *s[RECENT];
	size_t code[RECENT];
	size_t next;
};

static size_t intern_recent(struct ex_private *p, struct recent_strings *r,
			    const char *s)
{
	size_t code;

	for (size_t i = 0; i < RECENT; i++)
		if (r->s[i] && (r->s[i] == s || !strcmp(r->s[i], s)))
			return r->code[i];
	code = intern_string(p, s);
	r->s[r->next] = s;
	r->code[r->next] = code;
	r->next = (r->next + 1) % RECENT;
	return code;
}

static int in_names(char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return 1;
	return 0;
}

/* ---- keys and their values --------------------------------------------- */

static size_t add_key(struct experiment *ex, const char *name,
		      enum ex_origin origin)
{
	struct ex_private *p = ex->priv;
	int created;
	size_t *slot = keymap_put(&p->key_index, name, ex->nkeys, &created);
	struct ex_key *k;

	if (!created)
		return *slot;
	ALLOC_GROW(ex->keys, ex->nkeys + 1, ex->keys_alloc);
	ALLOC_GROW(p->value_index, ex->nkeys + 1, p->value_index_alloc);
	k = &ex->keys[ex->nkeys];
	memset(k, 0, sizeof(*k));
	k->name = xstrdup(name);
	k->origin = origin;
	k->provenance = label_is_provenance(name);
	k->size = key_is_size(name);
	k->numeric = 1;
	k->values = xcalloc(1, sizeof(*k->values));
	k->num = xcalloc(1, sizeof(*k->num));
	k->num[0] = NAN;
	keymap_init(&p->value_index[ex->nkeys]);
	return ex->nkeys++;
}

static uint32_t add_value(struct experiment *ex, size_t key, const char *v)
{
	struct ex_key *k = &ex->keys[key];
	int created;
	size_t *slot = keymap_put(&ex->priv->value_index[key], v,
				  k->nvalues + 1, &created);

	if (created) {
		size_t code = ++k->nvalues;
		double num;

		k->values = xrealloc(k->values, (code + 1) * sizeof(char *));
		k->num = xrealloc(k->num, (code + 1) * sizeof(double));
		k->values[code] = xstrdup(v);
		if (is_numeric_string(v, &num)) {
			k->num[code] = num;
		} else {
			k->num[code] = NAN;
			k->numeric = 0;
		}
	}
	if (*slot > UINT32_MAX)
		BUG("more than 2^32 values of '%s'", k->name);
	return (uint32_t)*slot;
}

size_t experiment_key(const struct experiment *ex, const char *name)
{
	const size_t *k;

	if (!ex->priv)
		return EX_NONE;
	k = keymap_get(&ex->priv->key_index, name);
	return k ? *k : EX_NONE;
}

const char *experiment_value(const struct experiment *ex, size_t i, size_t k)
{
	if (k == EX_OP)
		return ex->m[i].m->op;
	if (k == EX_TOOL)
		return ex->m[i].m->tool;
	return ex->keys[k].values[experiment_code(ex, i, k)];
}

/* ---- taking the measurements, and their sides -------------------------- */

int ex_taken(const struct measurement *m,
	     const struct experiment_options *opt)
{
	if (opt->where && !filter_match(opt->where, m))
		return 0;
	return !opt->take || opt->take(m, opt->take_arg);
}

static size_t add_side(struct experiment *ex, const char *name)
{
	struct ex_side *s;

	ALLOC_GROW(ex->sides, ex->nsides + 1, ex->sides_alloc);
	s = &ex->sides[ex->nsides];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	labels_init(&s->identity);
	return ex->nsides++;
}

/* The side of m under --compare/--ratio; EX_NONE: not taken. */
static size_t side_by_key(struct experiment *ex,
			  const struct experiment_options *opt,
			  const struct measurement *m)
{
	const char *v = labels_get(&m->labels, opt->side_key);

	if (!v)
		return EX_NONE;
	if (opt->side_a)	/* --ratio: the baseline B is side 0 */
		return !strcmp(v, opt->side_b) ? 0 :
		       !strcmp(v, opt->side_a) ? 1 : EX_NONE;
	for (size_t s = 0; s < ex->nsides; s++)
		if (!strcmp(ex->sides[s].name, v))
			return s;
	return add_side(ex, v);
}

static void take_measurements(struct experiment *ex,
			      const struct result_set *sets, size_t nsets,
			      const struct experiment_options *opt)
{
	ex->priv->side_key = opt->side_key;
	if (opt->side_key && opt->side_a) {
		add_side(ex, opt->side_b);
		add_side(ex, opt->side_a);
	}
	for (size_t s = 0; !opt->side_key && s < nsets; s++)
		add_side(ex, "");	/* named by its inputs: name_sides() */
	/* room for every measurement at once: what is not taken is never
	 * touched, so costs no memory, and growing by doubling copied (and
	 * faulted in) the array again and again */
	for (size_t s = 0; s < nsets; s++)
		ex->m_alloc += sets[s].n;
	if (ex->m_alloc >= UINT32_MAX)	/* (struct ex_measurement) */
		die("more than %u measurements", (unsigned)UINT32_MAX - 1);
	ex->m = xmalloc((ex->m_alloc + 1) * sizeof(*ex->m));
	for (size_t s = 0; s < nsets; s++) {
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct measurement *m = &sets[s].m[i];
			size_t side = s;
			struct ex_measurement *e;

			if (!ex_taken(m, opt))
				continue;
			if (opt->side_key &&
			    (side = side_by_key(ex, opt, m)) == EX_NONE)
				continue;
			ALLOC_GROW(ex->m, ex->n + 1, ex->m_alloc);
			e = &ex->m[ex->n++];
			e->m = m;
			e->set = s;
			e->index = i;
			e->side = side;
			e->profile = e->group = UINT32_MAX;	/* (none yet) */
			ex->sides[side].nmeasurements++;
		}
	}
}

/* ---- inputs and profiles ----------------------------------------------- */

/*
 * The input's name: its grep prefix, else its file's name, or the tail
 * of its path where another input has that name (shown: see
 * experiment_shown_sources()): x/run.txt and y/run.txt are two inputs, not
 * two runs of one.
 */
static const char *input_name(const struct result_set *set,
			      char *const *shown, const struct measurement *m)
{
	const char *file = m->source < set->nsources ?
			   set->sources[m->source].name : NULL;

	if (m->source_name && *m->source_name &&
	    (!file || strcmp(m->source_name, file)))
		return m->source_name;
	if (shown && m->source < set->nsources && shown[m->source])
		return shown[m->source];
	if (m->source_name && *m->source_name)
		return m->source_name;
	return file ? file : "";
}

/*
 * The file an input's grep prefix came from ("do-5bucks.txt" for the
 * lines "fio_randread.log:..." in it), or NULL when the input is named
 * by its file alone.  Two machines' grep'd files hold the same prefixes:
 * the file is what tells them apart.
 */
static const char *input_file(const struct result_set *set,
			      const struct measurement *m)
{
	const char *file;

	if (m->source >= set->nsources)
		return NULL;
	file = set->sources[m->source].name;
	if (!file || !*file || !m->source_name ||
	    !strcmp(file, m->source_name))
		return NULL;
	return file;
}

static size_t add_input(struct experiment *ex, struct keymap *inputs,
			size_t set, const char *file, const char *name)
{
	struct strbuf key = STRBUF_INIT;
	int created;
	size_t *slot;

	strbuf_add_int(&key, (long long)set);
	strbuf_add_keypart(&key, file ? file : "");
	strbuf_add_keypart(&key, name);
	slot = keymap_put(inputs, key.buf, ex->ninputs, &created);
	if (created) {
		struct ex_private *p = ex->priv;

		ALLOC_GROW(ex->inputs, ex->ninputs + 1, ex->inputs_alloc);
		ALLOC_GROW(p->input_file, ex->ninputs + 1,
			   p->input_file_alloc);
		p->input_file[ex->ninputs] = file ? xstrdup(file) : NULL;
		ex->inputs[ex->ninputs++] = xstrdup(name);
	}
	strbuf_release(&key);
	return *slot;
}

/* A profile's hash: its input, side, tool and label set (cached per
 * shared label set). */
static uint64_t profile_hash(size_t in, size_t side,
			     const struct measurement *m)
{
	uint64_t h = hash64(HASH64_INIT, m->tool, strlen(m->tool));

	h = hash64(h, &in, sizeof(in));
	h = hash64(h, &side, sizeof(side));
	return h ^ labels_hash(&m->labels);
}

/* Is profile q the one of a measurement m of input `in` and side? */
static int in_profile(const struct experiment *ex, size_t q, size_t in,
		      size_t side, const struct measurement *m)
{
	const struct measurement *first = ex->priv->profile_m[q];

	return ex->profile_input[q] == in &&
	       ex->priv->profile_side[q] == side &&
	       !strcmp(first->tool, m->tool) &&
	       labels_equal(&first->labels, &m->labels);
}

/* A new profile, m its first measurement. */
static size_t new_profile(struct experiment *ex, size_t in, size_t side,
			  const struct measurement *m)
{
	struct ex_private *p = ex->priv;
	size_t n = ex->nprofiles + 1;

	if (n > ex->profiles_alloc) {
		ex->profiles_alloc = 2 * n;
		p->profile_m = xrealloc(p->profile_m, ex->profiles_alloc *
					sizeof(*p->profile_m));
		p->profile_side = xrealloc(p->profile_side,
					   ex->profiles_alloc * sizeof(size_t));
		ex->profile_input = xrealloc(ex->profile_input,
					     ex->profiles_alloc *
					     sizeof(size_t));
	}
	p->profile_m[ex->nprofiles] = m;
	p->profile_side[ex->nprofiles] = side;
	ex->profile_input[ex->nprofiles] = in;
	return ex->nprofiles++;
}

/*
 * The profile of m, made if new.  Looked up by its hash and checked
 * against the profile's first measurement (a million measurements' keys
 * as text were a tenth of a grouping); two profiles with one hash, the
 * later ones go by their text in `collided`.
 */
static size_t profile_of(struct experiment *ex, struct hashmap64 *by_hash,
			 uint64_t mask, struct keymap *collided, size_t in,
			 size_t side, const struct measurement *m)
{
	struct strbuf key = STRBUF_INIT;
	int created;
	uint32_t *q;
	size_t *slot, found;

	if (ex->nprofiles >= UINT32_MAX)	/* (the map's values) */
		die("more than %u label sets", (unsigned)UINT32_MAX);
	q = hashmap64_put(by_hash, profile_hash(in, side, m) & mask,
			  (uint32_t)ex->nprofiles, &created);
	if (created) {
		new_profile(ex, in, side, m);
		return *q;
	}
	if (in_profile(ex, *q, in, side, m))
		return *q;
	strbuf_add_int(&key, (long long)in);
	strbuf_addch(&key, ':');
	strbuf_add_int(&key, (long long)side);
	strbuf_addch(&key, ':');
	strbuf_add_keypart(&key, m->tool);
	labels_add_keyparts(&m->labels, &key);
	slot = keymap_put(collided, key.buf, ex->nprofiles, &created);
	found = created ? new_profile(ex, in, side, m) : *slot;
	strbuf_release(&key);
	return found;
}

/*
 * One profile per distinct (input, label set): measurements of one fio
 * job share a label block, so the common case is "same as the one
 * before" and costs a pointer compare.
 */
static void find_profiles(struct experiment *ex,
			  const struct result_set *sets, size_t nsets)
{
	struct hashmap64 by_hash;
	struct keymap collided, inputs;
	const struct label *last_v = NULL;
	size_t last_input = EX_NONE, last_profile = EX_NONE, last_side = 0;
	size_t last_set = 0;
	const char *last_file = NULL, *last_name = NULL;
	char ***shown = xcalloc(nsets ? nsets : 1, sizeof(*shown));
	/* (STORAN_TEST_PROFILE_HASH_BITS: profiles collide in tests) */
	uint64_t mask = hash64_mask_from_env("STORAN_TEST_PROFILE_HASH_BITS");

	for (size_t s = 0; s < nsets; s++)
		shown[s] = experiment_shown_sources(&sets[s]);
	hashmap64_init(&by_hash);
	keymap_init(&collided);
	keymap_init(&inputs);
	for (size_t i = 0; i < ex->n; i++) {
		struct ex_measurement *e = &ex->m[i];
		const char *file = input_file(&sets[e->set], e->m);
		const char *name = input_name(&sets[e->set], shown[e->set],
					      e->m);
		size_t in;

		/* (the input of the measurement before, most often: no key
		 * built and looked up for each of a million) */
		if (last_input != EX_NONE && e->set == last_set &&
		    file == last_file && !strcmp(name, last_name))
			in = last_input;
		else
			in = add_input(ex, &inputs, e->set, file, name);
		last_set = e->set;
		last_file = file;
		last_name = name;

		if (in == last_input && e->side == last_side &&
		    e->m->labels.v == last_v && last_v &&
		    !strcmp(e->m->tool, ex->priv->profile_m[last_profile]->tool)) {
			e->profile = last_profile;
			continue;
		}
		e->profile = profile_of(ex, &by_hash, mask, &collided, in,
					e->side, e->m);
		last_v = e->m->labels.v;
		last_input = in;
		last_side = e->side;
		last_profile = e->profile;
	}
	hashmap64_release(&by_hash);
	keymap_release(&collided);
	keymap_release(&inputs);
	for (size_t s = 0; s < nsets; s++)
		experiment_free_shown(shown[s], sets[s].nsources);
	free(shown);
}

/* Keys the user gave to storan ingest --label: recorded in the sources. */
static int user_key(const struct result_set *sets, size_t nsets,
		    const char *key)
{
	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].nsources; i++)
			if (labels_get(&sets[s].sources[i].labels, key))
				return 1;
	return 0;
}

static void learn_label_keys(struct experiment *ex,
			     const struct result_set *sets, size_t nsets)
{
	for (size_t p = 0; p < ex->nprofiles; p++) {
		const struct labels *l = &ex->priv->profile_m[p]->labels;

		for (size_t j = 0; j < l->n; j++)
			if (experiment_key(ex, l->v[j].key) == EX_NONE)
				add_key(ex, l->v[j].key,
					user_key(sets, nsets, l->v[j].key) ?
					EX_FROM_USER : EX_FROM_LABEL);
	}
}

/*
 * Is the command line a condition of m?  For time it is what was timed.
 * The other tools' parsers take every option that matters from it as a
 * label of its own (bs, oflag, direct, iodepth, device, filesize...):
 * what else differs between two of their command lines is where the
 * output went or which file a loop wrote, and two hosts' runs of one
 * test differ there.  So for them it is a record of how the figure was
 * made, shown but never splitting.
 */
static int command_is_condition(const struct measurement *m)
{
	return !strcmp(m->tool, "time") || !strcmp(m->tool, "csv");
}

static void fill_label_codes(struct experiment *ex)
{
	ex->codes = xcalloc(ex->nprofiles * ex->nkeys + 1, sizeof(uint32_t));
	for (size_t p = 0; p < ex->nprofiles; p++) {
		const struct measurement *m = ex->priv->profile_m[p];
		const struct labels *l = &m->labels;

		for (size_t j = 0; j < l->n; j++) {
			size_t k = experiment_key(ex, l->v[j].key);

			if (!strcmp(l->v[j].key, "command") &&
			    !command_is_condition(m))
				continue;

			ex->codes[p * ex->nkeys + k] =
				add_value(ex, k, l->v[j].value);
		}
	}
}

/* ---- what the input names say ------------------------------------------ */

/* The side of each input (its first profile's). */
static size_t *input_sides(const struct experiment *ex)
{
	size_t *side = xcalloc(ex->ninputs + 1, sizeof(*side));

	for (size_t p = ex->nprofiles; p-- > 0;)
		side[ex->profile_input[p]] = ex->priv->profile_side[p];
	return side;
}

static void add_note(struct experiment *ex, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct experiment *ex, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ALLOC_GROW(ex->notes, ex->nnotes + 1, ex->notes_alloc);
	ex->notes[ex->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

/* The derived key "test": input i's tokens at the POS_TEST positions. */
static void add_test_key(struct experiment *ex, struct name_tokens *names,
			 const enum position_kind *kind, size_t ntok)
{
	size_t key = add_key(ex, experiment_key(ex, TEST_KEY) == EX_NONE ?
			     TEST_KEY : "name-test", EX_FROM_NAMES);
	uint32_t *code = xcalloc(ex->ninputs + 1, sizeof(*code));
	struct strbuf v = STRBUF_INIT;

	for (size_t i = 0; i < ex->ninputs; i++) {
		strbuf_reset(&v);
		for (size_t t = 0; t < ntok; t++)
			if (kind[t] == POS_TEST)
				strbuf_addf(&v, "%s%s", v.len ? "-" : "",
					    names[i].tok[t]);
		code[i] = add_value(ex, key, v.buf);
	}
	/* a column more in the codes: the matrix is rebuilt wider */
	{
		size_t old = ex->nkeys - 1;
		uint32_t *wide = xcalloc(ex->nprofiles * ex->nkeys + 1,
					 sizeof(uint32_t));

		for (size_t p = 0; p < ex->nprofiles; p++) {
			memcpy(wide + p * ex->nkeys, ex->codes + p * old,
			       old * sizeof(uint32_t));
			wide[p * ex->nkeys + key] =
				code[ex->profile_input[p]];
		}
		free(ex->codes);
		ex->codes = wide;
	}
	strbuf_release(&v);
	free(code);
}

/* Each side's name tokens (hosta of hosta.randread.txt): its name, unless
 * the user's labels name it (name_sides()). */
static void name_sides_by_tokens(struct experiment *ex,
				 struct name_tokens *names,
				 const enum position_kind *kind, size_t ntok,
				 const size_t *side_of)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t s = 0; s < ex->nsides && !ex->priv->side_key; s++) {
		size_t i;

		for (i = 0; i < ex->ninputs && side_of[i] != s; i++)
			;
		if (i == ex->ninputs)
			continue;
		strbuf_reset(&sb);
		for (size_t t = 0; t < ntok; t++)
			if (kind[t] == POS_SIDE)
				strbuf_addf(&sb, "%s%s", sb.len ? "-" : "",
					    names[i].tok[t]);
		if (!sb.len)
			continue;
		free(ex->sides[s].name);
		ex->sides[s].name = xstrdup(sb.buf);
		ex->sides[s].named_by_tokens = 1;
	}
	strbuf_release(&sb);
}

/*
 * Cuts level (0: the files, 1: the names) of every input into tokens,
 * appended to names[].  Names of different shapes (not as many tokens
 * each) are one token each, whole.
 */
static void tokenize_level(struct experiment *ex, struct name_tokens *names,
			   int level)
{
	size_t n = 0;
	int same_shape = 1;

	for (size_t i = 0; i < ex->ninputs; i++) {
		const char *s = level ? ex->inputs[i] :
				ex->priv->input_file[i];
		struct name_tokens t;

		ex_name_tokenize(s ? s : "", &t);
		if (i == 0)
			n = t.n;
		same_shape &= t.n == n && t.n > 0;
		free(t.copy);
	}
	for (size_t i = 0; i < ex->ninputs; i++) {
		const char *s = level ? ex->inputs[i] :
				ex->priv->input_file[i];
		struct name_tokens t;
		char **keep = level ? &names[i].copy2 : &names[i].copy;

		if (!same_shape) {
			*keep = ex_name_without_extension(s ? s : "");
			names[i].tok[names[i].n++] = *keep;
			continue;
		}
		ex_name_tokenize(s ? s : "", &t);
		*keep = t.copy;
		for (size_t k = 0; k < t.n; k++)
			names[i].tok[names[i].n++] = t.tok[k];
	}
}

/*
 * What tokens the inputs' names vary in, and what that says.  An input
 * from a grep'd file is named by two levels, the file and the prefix,
 * each cut into tokens of its own.
 */
static void derive_name_keys(struct experiment *ex)
{
	struct name_tokens *names;
	size_t *side_of, ntok;
	enum position_kind kind[2 * MAX_TOKENS];
	int tests = 0, counters = 0, files = 0;

	if (ex->ninputs < 2)
		return;
	for (size_t i = 0; i < ex->ninputs; i++)
		files |= ex->priv->input_file[i] != NULL;
	names = xcalloc(ex->ninputs, sizeof(*names));
	if (files)
		tokenize_level(ex, names, 0);
	tokenize_level(ex, names, 1);
	ntok = names[0].n;
	side_of = input_sides(ex);
	for (size_t t = 0; t < ntok; t++) {
		kind[t] = ex_name_classify_position(names, ex->ninputs, side_of,
					    ex->nsides, t);
		tests += kind[t] == POS_TEST;
		counters += kind[t] == POS_COUNTER;
	}
	if (tests)
		add_test_key(ex, names, kind, ntok);
	name_sides_by_tokens(ex, names, kind, ntok, side_of);
	if (counters)
		add_note(ex, "inputs whose names differ only by a run number "
			 "are repetitions of one test");
	for (size_t i = 0; i < ex->ninputs; i++) {
		free(names[i].copy);
		free(names[i].copy2);
	}
	free(names);
	free(side_of);
}

/* ---- roles ------------------------------------------------------------- */

/* Per key and side: the first code seen, and whether another was. */
static void decide_roles(struct experiment *ex,
			 const struct experiment_options *opt)
{
	size_t ns = ex->nsides ? ex->nsides : 1;
	uint32_t *first = xmalloc(ns * sizeof(*first));
	unsigned char *seen = xmalloc(ns), *varies = xmalloc(ns);

	for (size_t k = 0; k < ex->nkeys; k++) {
		struct ex_key *key = &ex->keys[k];
		int within = 0, between = 0, sides_with = 0;
		uint32_t any = 0;

		memset(seen, 0, ns);
		memset(varies, 0, ns);
		for (size_t p = 0; p < ex->nprofiles; p++) {
			size_t s = ex->priv->profile_side[p];
			uint32_t c = ex->codes[p * ex->nkeys + k];

			if (!seen[s]) {
				seen[s] = 1;
				first[s] = c;
			} else if (first[s] != c) {
				varies[s] = 1;
			}
		}
		for (size_t s = 0; s < ns; s++) {
			if (!seen[s])
				continue;
			within |= varies[s];
			if (sides_with++ && first[s] != any)
				between = 1;
			any = first[s];
		}
		if (in_names(opt->pool, opt->npool, key->name) ||
		    in_names(opt->ignore, opt->nignore, key->name) ||
		    (opt->match && !in_names(opt->match, opt->nmatch,
					     key->name)))
			key->role = EX_POOLED;
		else if (opt->side_key && !strcmp(opt->side_key, key->name))
			key->role = EX_IDENTITY;
		else if (opt->match)	/* what --match names: matched */
			key->role = EX_FACTOR;
		else if (within)
			key->role = EX_FACTOR;
		else if (between && sides_with == (int)ex->nsides)
			key->role = EX_IDENTITY;
		else
			key->role = between ? EX_FACTOR : EX_CONSTANT;
	}
	free(first);
	free(seen);
	free(varies);
}

/* Keys a reader looks for first, after the user's own. */
static const char *const preferred[] = {
	"bs", "iodepth", "numjobs", "rw", "rwmixread", "filesize", "threads",
	"kind", "host", "device", "fs", "ioengine", "direct", "sync",
	"section", TEST_KEY, "job", NULL,
};

static size_t preference(const struct ex_key *k)
{
	if (k->origin == EX_FROM_USER)
		return 0;
	for (size_t i = 0; preferred[i]; i++)
		if (!strcmp(preferred[i], k->name))
			return 1 + i;
	if (k->provenance)
		return 1000;	/* command, file: they restate the rest */
	return 100;
}

struct rank_entry {
	size_t code;
	double num;
};

static int by_number(const void *a, const void *b)
{
	const struct rank_entry *x = a, *y = b;

	if (x->num < y->num || x->num > y->num)
		return x->num < y->num ? -1 : 1;
	return x->code < y->code ? -1 : x->code > y->code;
}

static void rank_values(struct ex_key *k)
{
	struct rank_entry *e = xmalloc((k->nvalues + 1) * sizeof(*e));

	k->rank = xcalloc(k->nvalues + 1, sizeof(*k->rank));
	for (size_t c = 1; c <= k->nvalues; c++) {
		e[c - 1].code = c;
		e[c - 1].num = k->numeric ? k->num[c] : (double)c;
	}
	qsort(e, k->nvalues, sizeof(*e), by_number);
	for (size_t i = 0; i < k->nvalues; i++)
		k->rank[e[i].code] = i + 1;
	free(e);
}

static void finish_keys(struct experiment *ex)
{
	for (size_t k = 0; k < ex->nkeys; k++) {
		ex->keys[k].pref = preference(&ex->keys[k]);
		rank_values(&ex->keys[k]);
	}
}

/* ---- sides' names ------------------------------------------------------- */

/*
 * The tokens every input of side s begins with ("before" of
 * before_bw.1.log, before_iops.1.log and before.json: a fio job's logs
 * and output), when its inputs are not all of one name; NULL else.
 */
static char *common_name_start(const struct experiment *ex, size_t s)
{
	const char *first = NULL;
	size_t len = 0;
	int several = 0;

	for (size_t p = 0; p < ex->nprofiles; p++) {
		const char *name = ex->inputs[ex->profile_input[p]];
		size_t k = 0;

		if (ex->priv->profile_side[p] != s)
			continue;
		if (!first) {
			first = name;
			len = strlen(name);
			continue;
		}
		if (!strcmp(name, first))
			continue;
		several = 1;
		while (k < len && name[k] == first[k])
			k++;
		/* whole tokens: "before_" and "before." end on one */
		if (k < len && !(name[k] == '\0' ||
				 ex_name_is_separator(name[k])))
			while (k > 0 && !ex_name_is_separator(first[k - 1]))
				k--;
		len = k;
	}
	while (len > 0 && ex_name_is_separator(first[len - 1]))
		len--;
	return several && len ? xstrndup(first, len) : NULL;
}

static void name_sides(struct experiment *ex)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t s = 0; s < ex->nsides; s++) {
		struct ex_side *side = &ex->sides[s];
		size_t p;

		for (p = 0; p < ex->nprofiles; p++)
			if (ex->priv->profile_side[p] == s)
				break;
		if (p == ex->nprofiles)
			continue;
		if (!*side->name) {	/* an input's own name, at least */
			char *start = common_name_start(ex, s);

			free(side->name);
			side->name = start ? start :
				     xstrdup(ex->inputs[ex->profile_input[p]]);
		}
		for (size_t k = 0; k < ex->nkeys; k++) {
			const char *v = ex->keys[k].values[
				ex->codes[p * ex->nkeys + k]];

			if (ex->keys[k].role == EX_IDENTITY && v)
				labels_set(&side->identity, ex->keys[k].name,
					   v);
		}
		if (ex->priv->side_key) {	/* the key the user named */
			size_t k = experiment_key(ex, ex->priv->side_key);
			char size[32];
			double num;

			strbuf_reset(&sb);
			experiment_value_words(&sb, ex->priv->side_key,
					       k != EX_NONE && ex->keys[k].size &&
					       is_numeric_string(side->name,
								 &num) ?
					       human_size(num, size,
							  sizeof(size)) :
					       side->name);
			free(side->name);
			side->name = strbuf_detach(&sb);
			continue;
		}
		strbuf_reset(&sb);
		/* the user's labels, the names' tokens, the other labels */
		for (size_t pass = 0; pass < 2 && !sb.len; pass++) {
			if (pass == 1 && side->named_by_tokens)
				break;
			for (size_t i = 0; i < side->identity.n; i++) {
				size_t k = experiment_key(ex,
						side->identity.v[i].key);

				if (pass == 0 &&
				    ex->keys[k].origin != EX_FROM_USER)
					continue;
				if (sb.len)
					strbuf_adds(&sb, ", ");
				experiment_value_words(&sb,
						       side->identity.v[i].key,
						       side->identity.v[i].value);
			}
		}
		if (sb.len) {
			free(side->name);
			side->name = strbuf_detach(&sb);
		}
	}
	strbuf_release(&sb);
}

/* The directory path sits in, its last part ("runs/before/x.log" ->
 * "before"), or NULL when the path names none. */
static char *directory_name(const char *path)
{
	const char *end = strrchr(path, '/'), *start;

	while (end && end > path && end[-1] == '/')
		end--;
	if (!end || end == path)
		return NULL;
	start = end;
	while (start > path && start[-1] != '/')
		start--;
	if ((end - start == 1 && *start == '.') ||
	    (end - start == 2 && !strncmp(start, "..", 2)))
		return NULL;
	return xstrndup(start, (size_t)(end - start));
}

/* Does every name exist, not empty, and differ from the others? */
static int names_distinct(char *const *name, size_t n)
{
	for (size_t s = 0; s < n; s++) {
		if (!name[s] || !*name[s])
			return 0;
		for (size_t t = 0; t < s; t++)
			if (!strcmp(name[s], name[t]))
				return 0;
	}
	return 1;
}

/* The sides take name[] when use says so; name[] is freed either way. */
static void adopt_side_names(struct experiment *ex, char **name,
			     size_t nsets, int use)
{
	for (size_t s = 0; s < nsets; s++) {
		if (use) {
			free(ex->sides[s].name);
			ex->sides[s].name = name[s];
		} else {
			free(name[s]);
		}
	}
	free(name);
}

static void name_sides_by_files(struct experiment *ex,
				char *const *files, size_t nsets)
{
	char **name = xcalloc(nsets, sizeof(*name));

	for (size_t s = 0; s < nsets; s++) {
		const char *slash = strrchr(files[s], '/');

		name[s] = ex_name_without_extension(slash ? slash + 1 :
						    files[s]);
	}
	adopt_side_names(ex, name, nsets, names_distinct(name, nsets));
}

/*
 * Sides (one result set each) whose inputs' names gave them one name:
 * before/job_bw.1.log and after/job_bw.1.log are both "job".  Then the
 * directories the inputs of their first measurements sat in name them
 * ("before", "after"), where those tell every side apart; else the
 * names of the files the sets came from (before.json, after.json: two
 * storan runs), where the caller knows them; else the names stay.
 */
static void tell_sides_apart(struct experiment *ex,
			     const struct result_set *sets, size_t nsets,
			     char *const *files)
{
	char **dir;
	int clash = 0, distinct;

	if (ex->nsides != nsets || nsets < 2)
		return;
	for (size_t a = 0; a < nsets; a++)
		for (size_t b = a + 1; b < nsets; b++)
			clash |= !strcmp(ex->sides[a].name, ex->sides[b].name);
	if (!clash)
		return;
	dir = xcalloc(nsets, sizeof(*dir));
	for (size_t s = 0; s < nsets; s++) {
		/* a view into a merged set lists every input's sources: its
		 * own are its measurements' */
		const struct measurement *m = sets[s].n ? &sets[s].m[0] : NULL;

		dir[s] = m && m->source < sets[s].nsources ?
			 directory_name(sets[s].sources[m->source].path) :
			 NULL;
	}
	distinct = names_distinct(dir, nsets);
	adopt_side_names(ex, dir, nsets, distinct);
	if (!distinct && files)
		name_sides_by_files(ex, files, nsets);
}

/* ---- groups ------------------------------------------------------------ */

/* Measurement i joins group g, a new one when g is the next. */
static void join_group(struct experiment *ex, size_t i, size_t g)
{
	struct ex_measurement *e = &ex->m[i];

	if (g == ex->ngroups) {
		ALLOC_GROW(ex->groups, ex->ngroups + 1, ex->groups_alloc);
		memset(&ex->groups[g], 0, sizeof(ex->groups[g]));
		ex->groups[g].summary = EX_EMPTY;
		ex->groups[g].side = e->side;
		ex->groups[g].first = i;
		ex->ngroups++;
	}
	e->group = g;
	ex->groups[g].nmembers++;
}

/* Each measurement's group, by its (tool, op, metric, side, condition),
 * GROUP_CHUNK of them at a time (tuple_map_put_many()). */
#define GROUP_CHUNK 256

static void put_in_groups(struct experiment *ex, struct tuple_map *groups,
			  const size_t *condition)
{
	const uint32_t *tom = ex->priv->tom;
	uint64_t *tuple = xmalloc(GROUP_CHUNK * 5 * sizeof(*tuple));
	size_t got[GROUP_CHUNK];

	for (size_t i = 0; i < ex->n; i += GROUP_CHUNK) {
		size_t k = ex->n - i < GROUP_CHUNK ? ex->n - i : GROUP_CHUNK;

		for (size_t j = 0; j < k; j++) {
			uint64_t *t = tuple + 5 * j;

			t[0] = tom[3 * (i + j)];
			t[1] = tom[3 * (i + j) + 1];
			t[2] = tom[3 * (i + j) + 2];
			t[3] = ex->m[i + j].side;
			t[4] = condition[ex->m[i + j].profile];
		}
		tuple_map_put_many(groups, tuple, k, NULL, got);
		for (size_t j = 0; j < k; j++)
			join_group(ex, i + j, got[j]);
	}
	free(tuple);
}

static void make_groups(struct experiment *ex)
{
	struct ex_private *p = ex->priv;
	size_t nf = 0, *factor = xmalloc((ex->nkeys + 1) * sizeof(*factor));
	uint64_t *tuple = xmalloc((ex->nkeys + 5) * sizeof(*tuple));
	size_t *condition = xmalloc((ex->nprofiles + 1) * sizeof(*condition));
	struct recent_strings recent[3] = { { { NULL }, { 0 }, 0 } };
	struct tuple_map conditions, groups;

	for (size_t k = 0; k < ex->nkeys; k++)
		if (ex->keys[k].role == EX_FACTOR)
			factor[nf++] = k;
	tuple_map_init(&conditions, nf);
	for (size_t q = 0; q < ex->nprofiles; q++) {
		for (size_t f = 0; f < nf; f++)
			tuple[f] = ex->codes[q * ex->nkeys + factor[f]];
		if (!nf)
			tuple[0] = 0;
		condition[q] = tuple_map_put(&conditions, tuple,
					     conditions.n);
	}
	p->tom = xmalloc((ex->n + 1) * 3 * sizeof(uint32_t));
	for (size_t i = 0; i < ex->n; i++) {
		const struct measurement *m = ex->m[i].m;

		p->tom[3 * i] = (uint32_t)intern_recent(p, &recent[0], m->tool);
		p->tom[3 * i + 1] = (uint32_t)intern_recent(p, &recent[1],
							    m->op);
		p->tom[3 * i + 2] = (uint32_t)intern_recent(p, &recent[2],
							    m->metric);
	}
	/* at most a group a measurement: room for them at once (untouched
	 * room costs no memory) */
	ex->groups_alloc = ex->n + 1;
	ex->groups = xmalloc(ex->groups_alloc * sizeof(*ex->groups));
	tuple_map_init(&groups, 5);
	tuple[0] = tuple[1] = tuple[2] = p->nstrings;	/* the bounds */
	tuple[3] = ex->nsides;
	tuple[4] = conditions.n;
	tuple_map_bound(&groups, tuple);
	tuple_map_reserve(&groups, ex->n);
	put_in_groups(ex, &groups, condition);
	tuple_map_release(&conditions);
	tuple_map_release(&groups);
	free(condition);
	free(tuple);
	free(factor);
}

/* Every group's members in one array (a group's own malloc was a
 * million mallocs for a million groups). */
static void fill_groups(struct experiment *ex)
{
	size_t *at = xcalloc(ex->ngroups + 1, sizeof(*at)), next = 0;

	ex->priv->members = xmalloc((ex->n + 1) * sizeof(size_t));
	for (size_t g = 0; g < ex->ngroups; g++) {
		ex->groups[g].members = ex->priv->members + next;
		next += ex->groups[g].nmembers;
	}
	for (size_t i = 0; i < ex->n; i++) {
		size_t g = ex->m[i].group;

		ex->groups[g].members[at[g]++] = i;
	}
	free(at);
}

void experiment_group_stats(const struct experiment *ex, size_t g,
			    struct stats_acc *acc, struct stats *st)
{
	const struct ex_group *gr = &ex->groups[g];

	stats_acc_reset(acc);
	for (size_t j = 0; j < gr->nmembers; j++)
		stats_acc_add_measurement(acc, ex->m[gr->members[j]].m);
	stats_compute(acc, st);
}

/* Every group's statistics, and the summary they allow. */
static void group_stats(struct experiment *ex)
{
	struct stats *all = xmalloc((ex->ngroups + 1) * sizeof(*all));
	struct stats_acc acc;

	ex->priv->stats = all;
	stats_acc_init(&acc);
	for (size_t g = 0; g < ex->ngroups; g++) {
		struct ex_group *gr = &ex->groups[g];
		struct stats *st = &all[g];

		experiment_group_stats(ex, g, &acc, st);
		gr->st = st;
		gr->summary = ex_summary_for(st->n);
		/* a printed summary of n runs without its spread or its
		 * extremes: the mean alone */
		if (gr->summary == EX_INTERVAL && isnan(st->ci_low))
			gr->summary = EX_SINGLE;
		if (gr->summary == EX_BOTH &&
		    (isnan(st->min) || isnan(st->max)))
			gr->summary = EX_SINGLE;
	}
	stats_acc_release(&acc);
}

/* ---- building ---------------------------------------------------------- */

/* One note naming every key --pool pooled. */
static void note_pooled(struct experiment *ex,
			const struct experiment_options *opt)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < ex->nkeys; k++)
		if (ex->keys[k].role == EX_POOLED &&
		    in_names(opt->pool, opt->npool, ex->keys[k].name))
			strbuf_addf(&sb, "%s'%s'", sb.len ? ", " : "",
				    ex->keys[k].name);
	if (sb.len)
		add_note(ex, "measurements that differ only in %s are "
			 "pooled, as --pool asked", sb.buf);
	strbuf_release(&sb);
}

static int check_sides(struct experiment *ex,
		       const struct experiment_options *opt,
		       struct strbuf *err)
{
	if (!opt->side_key)
		return 0;
	if (opt->side_a) {
		for (size_t s = 0; s < 2; s++)
			if (!ex->sides[s].nmeasurements) {
				strbuf_addf(err, "no measurement has %s=%s",
					    opt->side_key, ex->sides[s].name);
				return -1;
			}
		return 0;
	}
	if (ex->nsides < 2) {
		strbuf_addf(err, "--compare %s: %s", opt->side_key,
			    ex->nsides ? "the label has one value only" :
			    "no measurement has that label");
		return -1;
	}
	return 0;
}

int experiment_build(struct experiment *ex, const struct result_set *sets,
		     size_t nsets, const struct experiment_options *opt,
		     struct strbuf *err)
{
	static const struct experiment_options none;

	memset(ex, 0, sizeof(*ex));
	ex->priv = xcalloc(1, sizeof(*ex->priv));
	keymap_init(&ex->priv->key_index);
	keymap_init(&ex->priv->strings);
	if (!opt)
		opt = &none;
	take_measurements(ex, sets, nsets, opt);
	if (check_sides(ex, opt, err))
		return -1;
	find_profiles(ex, sets, nsets);
	learn_label_keys(ex, sets, nsets);
	fill_label_codes(ex);
	if (!opt->no_name_keys)
		derive_name_keys(ex);
	decide_roles(ex, opt);
	finish_keys(ex);
	name_sides(ex);
	if (!opt->side_key)
		tell_sides_apart(ex, sets, nsets, opt->set_names);
	make_groups(ex);
	fill_groups(ex);
	if (!opt->groups_only)
		group_stats(ex);
	note_pooled(ex, opt);
	return 0;
}

void experiment_release(struct experiment *ex)
{
	struct ex_private *p = ex->priv;

	for (size_t k = 0; k < ex->nkeys; k++) {
		struct ex_key *key = &ex->keys[k];

		for (size_t c = 1; c <= key->nvalues; c++)
			free(key->values[c]);
		free(key->values);
		free(key->num);
		free(key->rank);
		free(key->name);
		if (p)
			keymap_release(&p->value_index[k]);
	}
	for (size_t s = 0; s < ex->nsides; s++) {
		free(ex->sides[s].name);
		labels_release(&ex->sides[s].identity);
	}
	for (size_t i = 0; i < ex->ninputs; i++) {
		free(ex->inputs[i]);
		if (p)
			free(p->input_file[i]);
	}
	for (size_t i = 0; i < ex->nnotes; i++)
		free(ex->notes[i]);
	if (p) {
		keymap_release(&p->key_index);
		keymap_release(&p->strings);
		for (size_t i = 0; i < p->nstrings; i++)
			free(p->string_v[i]);
		free(p->string_v);
		free(p->value_index);
		free(p->stats);
		free(p->profile_m);
		free(p->profile_side);
		free(p->tom);
		free(p->trim_head);
		free(p->trim_tail);
		free(p->trimmed);
		free(p->input_file);
		free(p->members);
		free(p);
	}
	free(ex->keys);
	free(ex->m);
	free(ex->groups);
	free(ex->sides);
	free(ex->codes);
	free(ex->profile_input);
	free(ex->inputs);
	free(ex->notes);
	memset(ex, 0, sizeof(*ex));
}
