/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The keys of a chart being built: a measurement's value of a key as a
 * code (the experiment model's, or of the pseudo keys CK_SIDE and
 * CK_METRIC), what a code stands for, how codes sort and read; which
 * key goes on x and which into the series (whatever else tells points
 * apart joins the series); and from them the chart's kind.
 */
#include "chart-private.h"
#include "../analysis/table.h"
#include "../core/suggest.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- keys: codes, order, names ----------------------------------------- */

uint64_t chart_key_code(const struct build *b, size_t i, size_t k)
{
	double p;

	if (k == CK_SIDE)
		return b->ex->m[i].side + 1;
	if (k == CK_METRIC) {	/* a percentile: its value, in 1e-6 */
		chart_metric_percentile(b->ex->m[i].m->metric, b->spec->y, &p);
		return (uint64_t)llround(p * 1e6);
	}
	return experiment_code_of(b->ex, i, k);
}

/* The number a code stands for, or NAN (sides, ops, words). */
double chart_code_number(const struct build *b, size_t k, uint64_t code)
{
	if (k == CK_METRIC)
		return (double)code / 1e6;
	if (k == CK_SIDE || k == EX_OP || k == EX_TOOL || !code)
		return NAN;
	return b->ex->keys[k].num[code];
}

int chart_key_numeric(const struct build *b, size_t k)
{
	return k == CK_METRIC ||
	       (k != CK_SIDE && k != EX_OP && k != EX_TOOL &&
		b->ex->keys[k].numeric);
}

int chart_key_is_sizes(const struct build *b, size_t k)
{
	return k != CK_SIDE && k != EX_OP && k != EX_TOOL && k != CK_METRIC &&
	       b->ex->keys[k].size;
}

/* Where a code goes among its key's values: numbers by value, ops in
 * fio's order, sides as given, the rest as found. */
double chart_code_order(const struct build *b, size_t k, uint64_t code,
			size_t i)
{
	char buf[64];
	int op;

	if (k == CK_SIDE || k == CK_METRIC)
		return (double)code;
	if (k == EX_OP) {
		op = op_rank(experiment_value_text(b->ex, k, (uint32_t)code,
						   buf, sizeof(buf)));
		return op < 1000 ? op : 1000.0 + (double)i;
	}
	if (k == EX_TOOL)
		return (double)code;
	if (!code)
		return 1e300;	/* "no KEY" last */
	return (double)b->ex->keys[k].rank[code];
}

const char *chart_key_name(const struct build *b, size_t k)
{
	if (k == CK_SIDE)
		return CHART_SIDE_KEY;
	if (k == EX_OP)
		return "op";
	if (k == EX_TOOL)
		return "tool";
	if (k == CK_METRIC)
		return "metric";
	return b->ex->keys[k].name;
}

/* A value as a reader wants it: "4K", "read", "hosta", "no section". */
const char *chart_code_text(const struct build *b, size_t k,
			    uint64_t code, char *buf, size_t size)
{
	if (k == CK_SIDE) {
		snprintf(buf, size, "%s", b->ex->sides[code - 1].name);
		return buf;
	}
	if (k == CK_METRIC) {
		snprintf(buf, size, "p%g", (double)code / 1e6);
		return buf;
	}
	return experiment_value_text(b->ex, k, (uint32_t)code, buf, size);
}

/* ---- choosing keys ----------------------------------------------------- */

/* Names people type for keys that have another ("blocksize": bs). */
static const struct {
	const char *alias, *key;
} key_aliases[] = {
	{ "blocksize", "bs" }, { "block_size", "bs" }, { "block", "bs" },
	{ "qd", "iodepth" }, { "depth", "iodepth" },
	{ "queue_depth", "iodepth" }, { "jobs", "numjobs" },
	{ "readwrite", "rw" }, { "operation", "op" }, { "engine", "ioengine" },
	{ "file_size", "filesize" }, { "side", CHART_SIDE_KEY },
	{ "source", "test" },
};

static size_t find_key(const struct build *b, const char *name)
{
	size_t k;

	if (!strcmp(name, "op"))
		return EX_OP;
	if (!strcmp(name, "tool"))
		return EX_TOOL;
	if (!strcmp(name, CHART_SIDE_KEY) && b->sided)
		return CK_SIDE;
	k = experiment_key(b->ex, name);
	return k;
}

/* An unknown key: an error that lists what there is. */
static int no_such_key(const struct build *b, const char *name,
		       const char *option, struct strbuf *err)
{
	const char **names = xmalloc((b->ex->nkeys + 4) * sizeof(*names));
	const char *near = NULL;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(key_aliases) / sizeof(*key_aliases);
	     i++)
		if (!strcmp(key_aliases[i].alias, name) &&
		    find_key(b, key_aliases[i].key) != EX_NONE)
			near = key_aliases[i].key;
	names[n++] = "op";
	names[n++] = "tool";
	if (b->sided)
		names[n++] = CHART_SIDE_KEY;
	for (size_t k = 0; k < b->ex->nkeys; k++)
		names[n++] = b->ex->keys[k].name;
	if (!near)
		near = suggest_closest(name, names, n);
	strbuf_addf(err, "%s '%s': no measurement has that key", option, name);
	if (near)
		strbuf_addf(err, "; did you mean '%s'?", near);
	strbuf_adds(err, " (keys:");
	for (size_t i = 0; i < n && i < 24; i++)
		strbuf_addf(err, " %s", names[i]);
	strbuf_adds(err, n > 24 ? " ...)" : ")");
	free(names);
	return -1;
}

static int listed_key(const size_t *keys, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i] == k)
			return 1;
	return 0;
}

static size_t *all_members(const struct build *b)
{
	size_t *all = xmalloc((b->nmem ? b->nmem : 1) * sizeof(*all));

	memcpy(all, b->mem, b->nmem * sizeof(*all));
	return all;
}

/* Does key k take two or more values (sides and metrics too)? */
int chart_key_varies(const struct build *b, size_t k)
{
	for (size_t j = 1; j < b->nmem; j++)
		if (chart_key_code(b, b->mem[j], k) !=
		    chart_key_code(b, b->mem[0], k))
			return 1;
	return 0;
}

static size_t count_values(const struct build *b, size_t k)
{
	struct keymap seen;
	char buf[32];
	size_t n;
	int created;

	keymap_init(&seen);
	for (size_t j = 0; j < b->nmem; j++) {
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)chart_key_code(b, b->mem[j], k));
		keymap_put(&seen, buf, 0, &created);
	}
	n = seen.n;
	keymap_release(&seen);
	return n;
}

static int parse_series(struct build *b, const char *spec, struct strbuf *err)
{
	char *copy = xstrdup(spec);
	int rc = 0;

	for (char *p = copy; p && *p && !rc;) {
		char *comma = strchr(p, ',');
		size_t k;

		if (comma)
			*comma = '\0';
		k = find_key(b, p);
		if (k == EX_NONE)
			rc = no_such_key(b, p, "--series", err);
		else if (b->nskeys == MAX_SERIES_KEYS)
			rc = (strbuf_addf(err, "at most %d series keys",
					  MAX_SERIES_KEYS), -1);
		else if (!listed_key(b->skeys, b->nskeys, k))
			b->skeys[b->nskeys++] = k;
		p = comma ? comma + 1 : NULL;
	}
	free(copy);
	return rc;
}

/* The keys the model knows (not the side, not the percentile). */
static size_t model_keys_only(size_t *keys, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++)
		if (keys[i] != CK_SIDE && keys[i] != CK_METRIC)
			keys[out++] = keys[i];
	return out;
}

/*
 * x and the series.  Whatever else still tells points apart joins the
 * series: a point is one condition, never two pooled (--pool pools on
 * request).
 */
int chart_choose_keys(struct chart *c, struct build *b,
		      struct strbuf *err)
{
	const struct chart_spec *spec = b->spec;
	size_t have[MAX_SERIES_KEYS + 2], nh = 0, rest[32], nrest;
	size_t *all = all_members(b);
	int user_series = spec->series != NULL;

	if (b->pct || b->hist) {
		b->x = b->pct ? CK_METRIC : EX_NONE;
	} else if (spec->x) {
		b->x = find_key(b, spec->x);
		if (b->x == EX_NONE) {
			free(all);
			return no_such_key(b, spec->x, "--x", err);
		}
	} else {
		b->x = experiment_pick_x(b->ex, all, b->nmem);
	}
	if (user_series && parse_series(b, spec->series, err)) {
		free(all);
		return -1;
	}
	if (b->x != EX_NONE)
		have[nh++] = b->x;
	for (size_t k = 0; k < b->nskeys; k++)
		have[nh++] = b->skeys[k];
	/* the sides first: a comparison's series */
	if (b->sided && !c->ratio && !listed_key(have, nh, CK_SIDE) &&
	    b->nskeys < MAX_SERIES_KEYS) {
		b->skeys[b->nskeys++] = CK_SIDE;
		have[nh++] = CK_SIDE;
	}
	nh = model_keys_only(have, nh);
	nrest = experiment_distinguishing(b->ex, all, b->nmem, have, nh,
					  rest, 32);
	for (size_t k = 0; k < nrest; k++) {
		if (b->nskeys == MAX_SERIES_KEYS) {
			free(all);
			strbuf_addf(err, "the measurements differ in more "
				    "than %d keys: narrow them with --where",
				    MAX_SERIES_KEYS);
			return -1;
		}
		b->skeys[b->nskeys++] = rest[k];
		if (user_series)
			chart_add_note(c, "measurements also differ in "
				       "'%s': drawn as series of their own "
				       "(--pool %s pools them)",
				       chart_key_name(b, rest[k]),
				       chart_key_name(b, rest[k]));
	}
	/* a side-by-side chart of one side is no comparison */
	if (b->nskeys == 1 && b->skeys[0] == CK_SIDE &&
	    !chart_key_varies(b, CK_SIDE))
		b->nskeys = 0;
	free(all);
	return 0;
}

/* ---- the kind of chart ------------------------------------------------- */

/* Has any point more than one run behind it? */
static int has_repetitions(const struct build *b)
{
	for (size_t j = 0; j < b->nmem; j++)
		if (b->ex->groups[b->ex->m[b->mem[j]].group].st->n > 1)
			return 1;
	return 0;
}

/* Kind and scale once the keys are known. */
void chart_choose_kind(struct chart *c, struct build *b)
{
	int numeric = b->x != EX_NONE && chart_key_numeric(b, b->x) &&
		      !b->pct && count_values(b, b->x) >= 3;

	if (c->kind == CHART_AUTO)
		c->kind = numeric ? CHART_LINE : CHART_BAR;
	if (c->errorbars == CHART_ERR_AUTO)
		c->errorbars = has_repetitions(b) ? CHART_ERR_CI :
			       CHART_ERR_NONE;
	/* printed percentiles are figures of runs like any other (n >= 3:
	 * an interval); a curve from pooled histogram bins has no runs */
	if (b->hist)
		c->errorbars = CHART_ERR_NONE;
	if (c->kind == CHART_PERCENTILES)
		c->x.scale = AXIS_NINES;
	else if (c->kind == CHART_CDF)
		c->x.scale = AXIS_LINEAR;
	else if (!numeric || c->kind == CHART_BAR ||
		 c->kind == CHART_BOX)
		c->x.scale = AXIS_CATEGORY;
	else
		c->x.scale = AXIS_LINEAR;	/* (log or not: once points) */
	b->category = c->x.scale == AXIS_CATEGORY;
}
