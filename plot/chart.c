/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Building the chart model; see chart.h.
 *
 * The steps: select the measurements (metric, --where); build the
 * experiment model of them (analysis/experiment.h); choose the x key and
 * the series keys (what the user named, else what the model says tells
 * the points apart, the most telling first; whatever else tells them
 * apart joins the series); one point per group of the model, with the
 * whisker its summary allows; choose the display unit; lay out the axes
 * (scale, range, ticks, labels); write titles and footer.  Latency
 * percentile curves and CDFs come from metrics named FAMILY.pNN or from
 * histograms; ratio charts divide one side by another, match by match.
 */
#include "chart-private.h"
#include "../analysis/experiment.h"
#include "../analysis/stats.h"
#include "../analysis/table.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/quantile.h"
#include "../core/suggest.h"
#include "../core/units.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Okabe & Ito (2008), "Color Universal Design": blue first, yellow late. */
const unsigned char chart_palette[CHART_NCOLORS][3] = {
	{ 0x00, 0x72, 0xB2 },	/* blue */
	{ 0xE6, 0x9F, 0x00 },	/* orange */
	{ 0x00, 0x9E, 0x73 },	/* bluish green */
	{ 0xD5, 0x5E, 0x00 },	/* vermillion */
	{ 0x56, 0xB4, 0xE9 },	/* sky blue */
	{ 0xCC, 0x79, 0xA7 },	/* reddish purple */
	{ 0x00, 0x00, 0x00 },	/* black */
	{ 0xF0, 0xE4, 0x42 },	/* yellow */
};

/* ---- lifetime ---------------------------------------------------------- */

static void axis_init(struct chart_axis *a)
{
	memset(a, 0, sizeof(*a));
	a->unit.name = "";
	a->unit.factor = 1;
}

static void axis_release(struct chart_axis *a)
{
	for (size_t i = 0; i < a->nticks; i++)
		free(a->ticks[i].label);
	for (size_t i = 0; i < a->ncat; i++)
		free(a->cat[i]);
	free(a->ticks);
	free(a->cat);
	free(a->title);
	free(a->key);
	axis_init(a);
}

void chart_init(struct chart *c)
{
	memset(c, 0, sizeof(*c));
	axis_init(&c->x);
	axis_init(&c->y);
}

void chart_release(struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		free(c->series[i].name);
		free(c->series[i].p);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->series);
	free(c->bands);
	free(c->members);
	free(c->point_members);
	free(c->notes);
	free(c->title);
	free(c->subtitle);
	free(c->footer);
	free(c->metric);
	free(c->source_names);
	free(c->pooled);
	axis_release(&c->x);
	axis_release(&c->y);
	chart_init(c);
}

__attribute__((format(printf, 2, 3)))
static void chart_add_note(struct chart *c, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(c->notes, c->nnotes + 1, c->notes_alloc);
	va_start(ap, fmt);
	c->notes[c->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

void chart_add_tick(struct chart_axis *a, double pos, const char *label)
{
	ALLOC_GROW(a->ticks, a->nticks + 1, a->ticks_alloc);
	a->ticks[a->nticks].pos = pos;
	a->ticks[a->nticks].label = xstrdup(label);
	a->nticks++;
}

struct chart_series *chart_new_series(struct chart *c, const char *name)
{
	struct chart_series *s;

	ALLOC_GROW(c->series, c->nseries + 1, c->series_alloc);
	s = &c->series[c->nseries++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

struct chart_point *chart_add_point(struct chart_series *s, double x)
{
	struct chart_point *p;

	ALLOC_GROW(s->p, s->n + 1, s->alloc);
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	p->x = x;
	p->lo = p->hi = NAN;
	for (int i = 0; i < 5; i++)
		p->box[i] = NAN;
	p->p = NAN;
	p->sig = -1;
	p->member = SIZE_MAX;
	return p;
}


struct chart_point *chart_new_point(struct chart_series *s, double x,
				    double y)
{
	struct chart_point *p = chart_add_point(s, x);

	p->y = y;
	p->n = 1;
	return p;
}

void chart_add_band(struct chart *c, size_t series, double from, double to)
{
	ALLOC_GROW(c->bands, c->nbands + 1, c->bands_alloc);
	c->bands[c->nbands++] = (struct chart_band){ from, to, series };
}

/* ---- selection --------------------------------------------------------- */

static size_t select_measurements(struct build *b, int (*want)(
		const struct measurement *, const char *), const char *metric)
{
	b->nsel = 0;
	for (size_t s = 0; s < b->nsets; s++) {
		for (size_t i = 0; i < b->sets[s].n; i++) {
			const struct measurement *m = &b->sets[s].m[i];

			b->sel[s][i] = want(m, metric) &&
				       (!b->spec->where ||
					filter_match(b->spec->where, m));
			b->nsel += b->sel[s][i];
		}
	}
	return b->nsel;
}

static int want_metric(const struct measurement *m, const char *metric)
{
	return !strcmp(m->metric, metric) && (m->n || m->summary.present);
}

static int want_percentile(const struct measurement *m, const char *family)
{
	double p;

	return chart_metric_percentile(m->metric, family, &p) &&
	       (m->n || m->summary.present);
}

static int want_histogram(const struct measurement *m, const char *family)
{
	size_t len = strlen(family);

	return m->hist.n && !strncmp(m->metric, family, len) &&
	       (!m->metric[len] || m->metric[len] == '.');
}

static int select_for_kind(struct chart *c, struct build *b,
			   struct strbuf *err)
{
	const char *y = b->spec->y;

	if ((c->kind == CHART_CDF || c->kind == CHART_PERCENTILES) &&
	    b->spec->from != CHART_FROM_METRICS) {
		if (select_measurements(b, want_histogram, y)) {
			b->hist = 1;
			return 0;
		}
		if (c->kind == CHART_CDF ||
		    b->spec->from == CHART_FROM_HISTOGRAMS) {
			strbuf_addf(err, "no latency histogram of '%s' matches "
				    "(a CDF needs fio JSON+ bins or the "
				    "runner's histograms)", y);
			return -1;
		}
	}
	if (c->kind == CHART_PERCENTILES ||
	    (c->kind == CHART_AUTO && !select_measurements(b, want_metric, y) &&
	     select_measurements(b, want_percentile, y))) {
		c->kind = CHART_PERCENTILES;
		b->pct = 1;
		if (!select_measurements(b, want_percentile, y)) {
			strbuf_addf(err, "no percentiles %s.pNN match", y);
			return -1;
		}
		return 0;
	}
	if (!select_measurements(b, want_metric, y)) {
		strbuf_addf(err, "no measurement of metric '%s' matches", y);
		return -1;
	}
	return 0;
}

static const char *selected_unit(const struct build *b)
{
	for (size_t s = 0; s < b->nsets; s++)
		for (size_t i = 0; i < b->sets[s].n; i++)
			if (b->sel[s][i])
				return b->sets[s].m[i].unit;
	return "";
}

static int check_units(const struct build *b, struct strbuf *err)
{
	const char *u = selected_unit(b);

	for (size_t s = 0; s < b->nsets; s++) {
		for (size_t i = 0; i < b->sets[s].n; i++) {
			if (b->sel[s][i] && strcmp(b->sets[s].m[i].unit, u)) {
				strbuf_addf(err, "metric '%s' comes in two "
					    "units (%s and %s); narrow it with "
					    "--where", b->spec->y, u,
					    b->sets[s].m[i].unit);
				return -1;
			}
		}
	}
	return 0;
}

/* ---- the experiment model of the selection ----------------------------- */

struct take_arg {
	const struct build *b;
};

static int taken(const struct measurement *m, const void *arg)
{
	const struct build *b = ((const struct take_arg *)arg)->b;

	for (size_t s = 0; s < b->nsets; s++)
		if (m >= b->sets[s].m && m < b->sets[s].m + b->sets[s].n)
			return b->sel[s][m - b->sets[s].m];
	return 0;
}

/*
 * KEY=A/KEY=B, read as storan table reads it (pivot_ratio_parse: the last
 * "/KEY=" splits), so that values with '/' in them -- device=/dev/sdb,
 * the commonest ratio of all -- are not cut at their first '/'.
 */
static int parse_ratio(struct build *b, const char *spec, struct strbuf *err)
{
	const char *slash = strchr(spec, '/'), *eq = strchr(spec, '=');

	if (!pivot_ratio_parse(spec, &b->ratio_parts[0], &b->ratio_parts[1],
			       &b->ratio_parts[2]))
		return 0;
	if (eq && eq != spec && slash && slash > eq && strchr(slash, '='))
		strbuf_addf(err, "--ratio compares two values of one key "
			    "(KEY=A/KEY=B), not '%s'", spec);
	else
		strbuf_addf(err, "--ratio wants KEY=A/KEY=B, not '%s'", spec);
	return -1;
}

static int build_model(struct build *b, struct strbuf *err)
{
	const struct chart_spec *spec = b->spec;
	struct take_arg ta = { b };
	struct experiment_options eo = {
		.take = taken, .take_arg = &ta, .pool = spec->pool,
		.npool = spec->npool,
	};

	if (b->ratio_parts[0]) {
		eo.side_key = b->ratio_parts[0];
		eo.side_a = b->ratio_parts[1];
		eo.side_b = b->ratio_parts[2];
	} else if (spec->compare) {
		eo.side_key = spec->compare;
	}
	if (experiment_build(&b->own, b->sets, b->nsets, &eo, err))
		return -1;
	b->have_own = 1;
	b->ex = &b->own;
	return 0;
}

/* What the model pooled on request, for the chart's notes. */
static void note_pooled(struct chart *c, const struct experiment *ex)
{
	for (size_t i = 0; i < ex->nnotes; i++)
		if (strstr(ex->notes[i], "--pool")) {
			free(c->pooled);
			c->pooled = xstrdup(ex->notes[i]);
		}
}

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
static double chart_code_number(const struct build *b, size_t k, uint64_t code)
{
	if (k == CK_METRIC)
		return (double)code / 1e6;
	if (k == CK_SIDE || k == EX_OP || k == EX_TOOL || !code)
		return NAN;
	return b->ex->keys[k].num[code];
}

static int chart_key_numeric(const struct build *b, size_t k)
{
	return k == CK_METRIC ||
	       (k != CK_SIDE && k != EX_OP && k != EX_TOOL &&
		b->ex->keys[k].numeric);
}

static int chart_key_is_sizes(const struct build *b, size_t k)
{
	return k != CK_SIDE && k != EX_OP && k != EX_TOOL && k != CK_METRIC &&
	       b->ex->keys[k].size;
}

/* Where a code goes among its key's values: numbers by value, ops in
 * fio's order, sides as given, the rest as found. */
static double chart_code_order(const struct build *b, size_t k, uint64_t code,
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
static int chart_choose_keys(struct chart *c, struct build *b,
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

/* ---- points ------------------------------------------------------------ */

/* The string that names a point's series: its codes of the series keys. */
static void series_sig(const struct build *b, size_t i, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (size_t k = 0; k < b->nskeys; k++) {
		strbuf_add_int(sb,
			       (long long)chart_key_code(b, i, b->skeys[k]));
		strbuf_addch(sb, ',');
	}
}

/* "read", or "read, 4K blocks" with several keys: numbers in words
 * (experiment_value_words), names as they are. */
static char *series_name(const struct build *b, size_t i)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[96];

	for (size_t k = 0; k < b->nskeys; k++) {
		size_t key = b->skeys[k];
		uint64_t code = chart_key_code(b, i, key);

		if (k)
			strbuf_adds(&sb, ", ");
		chart_code_text(b, key, code, buf, sizeof(buf));
		if (chart_key_numeric(b, key) && code)
			experiment_value_words(&sb, chart_key_name(b, key),
					       buf);
		else
			strbuf_adds(&sb, buf);
	}
	return strbuf_detach(&sb);
}

size_t chart_series_of(struct chart *c, struct series_map *sm,
		       const struct build *b, size_t i,
		       struct strbuf *sb)
{
	int created;
	size_t *slot;

	series_sig(b, i, sb);
	slot = keymap_put(&sm->map, strbuf_str(sb), c->nseries, &created);
	if (created) {
		char *name = series_name(b, i);

		chart_new_series(c, name);
		free(name);
		ALLOC_GROW(sm->first, sm->n + 1, sm->alloc);
		sm->first[sm->n++] = i;
	}
	return *slot;
}

static const struct build *order_b;

static int cmp_series(const void *pa, const void *pb)
{
	const size_t *a = pa, *b = pb;	/* [0]: index, [1]: a measurement */

	for (size_t k = 0; k < order_b->nskeys; k++) {
		size_t key = order_b->skeys[k];
		double x = chart_code_order(
			order_b, key, chart_key_code(order_b, a[1], key), a[1]);
		double y = chart_code_order(
			order_b, key, chart_key_code(order_b, b[1], key), b[1]);

		if (x < y || x > y)
			return x < y ? -1 : 1;
	}
	return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Series in the order of their keys' values (read before write...). */
static void sort_series(struct chart *c, const struct build *b,
			const struct series_map *sm)
{
	size_t (*ord)[2];
	struct chart_series *s;

	if (!c->nseries)
		return;
	ord = xmalloc((c->nseries + 1) * sizeof(*ord));
	s = xmalloc((c->nseries + 1) * sizeof(*s));
	for (size_t i = 0; i < c->nseries; i++) {
		ord[i][0] = i;
		ord[i][1] = sm->first[i];
	}
	order_b = b;
	qsort(ord, c->nseries, sizeof(*ord), cmp_series);
	for (size_t i = 0; i < c->nseries; i++)
		s[i] = c->series[ord[i][0]];
	memcpy(c->series, s, c->nseries * sizeof(*s));
	free(s);
	free(ord);
}

/* The x coordinate of measurement i: a number, a category, nines. */
struct x_order {
	double *order;		/* per category index: its place */
	struct keymap map;	/* code -> category index */
	uint64_t *codes;
	size_t *first;
	size_t n, alloc;
};

static size_t x_category(struct x_order *xo, const struct build *b,
			 size_t i)
{
	char buf[32];
	int created;
	size_t *slot;
	uint64_t code = chart_key_code(b, i, b->x);

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)code);
	slot = keymap_put(&xo->map, buf, xo->n, &created);
	if (created) {
		ALLOC_GROW(xo->codes, xo->n + 1, xo->alloc);
		xo->first = xrealloc(xo->first, xo->alloc * sizeof(size_t));
		xo->codes[xo->n] = code;
		xo->first[xo->n] = i;
		xo->n++;
	}
	return *slot;
}

static size_t member_index(const struct build *b, size_t i)
{
	const struct measurement *m = b->ex->m[i].m;

	if (b->spec->base)
		return (size_t)(m - b->spec->base->m);
	return b->ex->m[i].index;
}

/* The measurements of group g are the point's too. */
static void point_members(struct chart *c, struct chart_point *p,
			  const struct build *b, const struct ex_group *g)
{
	if (!p->nmembers)
		p->first = c->npoint_members;
	for (size_t j = 0; j < g->nmembers; j++) {
		ALLOC_GROW(c->point_members, c->npoint_members + 1,
			   c->point_members_alloc);
		c->point_members[c->npoint_members++] =
			member_index(b, g->members[j]);
	}
	p->nmembers += g->nmembers;
}

/* The whisker a group of the model gets (--errorbars on request). */
static void set_bar(struct chart *c, struct chart_point *p,
		    const struct ex_group *g)
{
	const struct stats *st = &g->st;
	enum chart_errorbars want = c->errorbars;

	p->bar = BAR_NONE;
	if (want == CHART_ERR_NONE || g->summary == EX_SINGLE)
		return;
	if (want == CHART_ERR_MINMAX && st->n >= 2 && !isnan(st->min) &&
	    !isnan(st->max)) {
		p->bar = BAR_RANGE;
		p->lo = st->min;
		p->hi = st->max;
	} else if (g->summary == EX_BOTH) {	/* never t from two runs */
		p->bar = BAR_BOTH;
		p->lo = st->min;
		p->hi = st->max;
	} else if (want == CHART_ERR_SD && !isnan(st->stddev)) {
		p->bar = BAR_SD;
		p->lo = st->mean - st->stddev;
		p->hi = st->mean + st->stddev;
	} else if (g->summary == EX_INTERVAL) {
		p->bar = BAR_INTERVAL;
		p->lo = st->ci_low;
		p->hi = st->ci_high;
	}
	/* (an interval reaching below zero is kept as it is: the axis
	 * stops at zero, y_range(), and the whisker ends in an arrow) */
	if (p->bar != BAR_NONE)
		c->bars |= 1 << p->bar;
}

/* The box of a group: its runs' quartiles (printed summaries: none). */
static void set_box(struct chart_point *p, const struct build *b,
		    const struct ex_group *g)
{
	double *v = NULL;
	size_t n = 0, alloc = 0;

	for (size_t j = 0; j < g->nmembers; j++) {
		const struct measurement *m = b->ex->m[g->members[j]].m;

		for (size_t i = 0; i < m->n; i++) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n++] = m->values[i];
		}
	}
	p->box[0] = stats_quantile(v, n, 0);
	p->box[1] = stats_quantile(v, n, 0.25);
	p->box[2] = stats_quantile(v, n, 0.5);
	p->box[3] = stats_quantile(v, n, 0.75);
	p->box[4] = stats_quantile(v, n, 1);
	free(v);
}

static double x_of(const struct build *b, struct x_order *xo, size_t i)
{
	double p;

	if (b->pct) {
		chart_metric_percentile(b->ex->m[i].m->metric, b->spec->y, &p);
		return -log10(1 - p / 100);
	}
	if (!b->category)
		return chart_code_number(b, b->x, chart_key_code(b, i, b->x));
	return (double)x_category(xo, b, i);
}

/* One point per group of the model. */
static void group_points(struct chart *c, const struct build *b,
			 struct series_map *sm, struct x_order *xo)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t g = 0; g < b->ex->ngroups; g++) {
		const struct ex_group *gr = &b->ex->groups[g];
		size_t i = gr->first, s_at;
		struct chart_point *p;

		if (!b->in[i])
			continue;
		/* (may grow series) */
		s_at = chart_series_of(c, sm, b, i, &sb);
		p = chart_add_point(&c->series[s_at], x_of(b, xo, i));

		p->n = gr->st.n;
		p->member = member_index(b, i);
		point_members(c, p, b, gr);
		p->y = b->spec->stat == CHART_STAT_MEDIAN &&
		       !isnan(gr->st.median) ? gr->st.median : gr->st.mean;
		if (c->kind == CHART_BOX)
			set_box(p, b, gr);
		else
			set_bar(c, p, gr);
	}
	strbuf_release(&sb);
}

/* ---- ratios ------------------------------------------------------------ */

/*
 * Side 1 over side 0, one point per match of the model (the same test on
 * both sides): the ratio of the means, its 95% interval where both have
 * three runs or more, and whether Welch's test finds the difference at
 * alpha.
 */
static void ratio_points(struct chart *c, struct build *b,
			 struct series_map *sm, struct x_order *xo)
{
	size_t a = b->spec->ratio_side ? b->spec->ratio_side : 1;
	size_t *match = xmalloc((b->ex->ngroups + 1) * sizeof(*match));
	size_t n = experiment_match(b->ex, 0, a, match, NULL, NULL);
	size_t (*pair)[2] = xmalloc((n + 1) * sizeof(*pair)), dropped = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		pair[i][0] = pair[i][1] = EX_NONE;
	for (size_t g = 0; g < b->ex->ngroups; g++) {
		const struct ex_group *gr = &b->ex->groups[g];

		if (match[g] != EX_NONE && b->in[gr->first])
			pair[match[g]][gr->side == 0 ? 0 : 1] = g;
	}
	for (size_t k = 0; k < n; k++) {
		const struct ex_group *g0, *g1;
		struct chart_point *p;
		double t, df;
		size_t s_at;

		if (pair[k][0] == EX_NONE || pair[k][1] == EX_NONE) {
			dropped += pair[k][1] != EX_NONE;
			continue;
		}
		g0 = &b->ex->groups[pair[k][0]];
		g1 = &b->ex->groups[pair[k][1]];
		if (!(fabs(g0->st.mean) > 0)) {
			dropped++;
			continue;
		}
		s_at = chart_series_of(c, sm, b, g1->first, &sb);
		p = chart_add_point(&c->series[s_at], x_of(b, xo, g1->first));
		p->y = g1->st.mean / g0->st.mean;
		p->n = g1->st.n < g0->st.n ? g1->st.n : g0->st.n;
		p->member = member_index(b, g1->first);
		point_members(c, p, b, g0);
		point_members(c, p, b, g1);
		p->p = NAN;
		p->sig = -1;
		if (!stats_welch(g0->st.n, g0->st.mean, g0->st.stddev,
				 g1->st.n, g1->st.mean, g1->st.stddev, &p->p,
				 &t, &df))
			p->sig = p->p < c->alpha;
		/* (an unbounded interval, hi INFINITY, is drawn through
		 * the frame both ways: the baseline is too noisy to divide by) */
		if (g0->summary == EX_INTERVAL && g1->summary == EX_INTERVAL &&
		    stats_ratio_ci(g0->st.n, g0->st.mean, g0->st.stddev,
				   g1->st.n, g1->st.mean, g1->st.stddev,
				   1 - c->alpha, &p->lo, &p->hi) >= 0) {
			p->bar = BAR_INTERVAL;
			c->bars |= 1 << BAR_INTERVAL;
		}
	}
	if (dropped)
		chart_add_note(c, "%zu figure(s) of %s have nothing of %s to "
			       "be divided by", dropped, b->ex->sides[a].name,
			       b->ex->sides[0].name);
	free(match);
	free(pair);
	strbuf_release(&sb);
}

/* ---- the y axis -------------------------------------------------------- */

static void scale_points(struct chart *c, double f)
{
	for (size_t i = 0; i < c->nseries; i++) {
		for (size_t j = 0; j < c->series[i].n; j++) {
			struct chart_point *p = &c->series[i].p[j];

			p->y /= f;
			p->lo /= f;
			p->hi /= f;
			for (int k = 0; k < 5; k++)
				p->box[k] /= f;
		}
	}
}

static void data_range(const struct chart *c, int of_x, double *lo,
		       double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < c->nseries; i++) {
		for (size_t j = 0; j < c->series[i].n; j++) {
			const struct chart_point *p = &c->series[i].p[j];
			double v[5] = { of_x ? p->x : p->y, p->lo, p->hi,
					p->box[0], p->box[4] };

			for (int k = 0; k < (of_x ? 1 : 5); k++) {
				if (!isfinite(v[k]))
					continue;
				*lo = v[k] < *lo ? v[k] : *lo;
				*hi = v[k] > *hi ? v[k] : *hi;
			}
		}
	}
}

static int chart_choose_y_unit(struct chart *c, const struct chart_spec *spec,
			       const char *base_unit, struct strbuf *err)
{
	double lo, hi;
	int binary = spec->units && !strcmp(spec->units, "binary");

	if (c->ratio || c->kind == CHART_CDF) {
		c->y.unit.name = c->ratio ? "" : "%";
		c->y.unit.factor = 1;
		return 0;
	}
	if (spec->units && !binary && strcmp(spec->units, "auto")) {
		if (display_unit_parse(spec->units, base_unit, &c->y.unit)) {
			strbuf_addf(err, "unit '%s' does not fit %s (%s)",
				    spec->units, c->metric, base_unit);
			return -1;
		}
	} else if (!strcmp(base_unit, UNIT_IOPS)) {
		c->y.unit.name = "IOPS";
		c->y.unit.factor = 1;
	} else {
		data_range(c, 0, &lo, &hi);
		display_unit_auto(base_unit, fabs(hi) > fabs(lo) ? hi : lo,
				  binary, &c->y.unit);
	}
	scale_points(c, c->y.unit.factor);
	return 0;
}

/*
 * The y range: the data, and the whiskers as far as twice the data's
 * span above it (a wild interval of three runs must not squash the
 * data into the bottom of the chart; the renderer marks a whisker cut
 * there with an arrow).
 */
static void y_range(const struct chart *c, double *lo, double *hi)
{
	double dlo = INFINITY, dhi = -INFINITY;

	data_range(c, 0, lo, hi);
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++) {
			double y = c->series[i].p[j].y;

			dlo = y < dlo ? y : dlo;
			dhi = y > dhi ? y : dhi;
		}
	/* whiskers set no axis: it stops half the data's span above the
	 * data, and at zero below figures that cannot be negative; a
	 * whisker cut there ends in an arrow (it goes on; the tables and
	 * charts/NN.json have its ends) */
	if (dhi > dlo || dhi > 0) {
		double span = dhi - (dlo < 0 ? dlo : 0);

		if (*hi > dhi + span / 2)
			*hi = dhi + span / 2;
	}
	if (!(dlo < 0) && *lo < 0)
		*lo = 0;
}

/* The smallest and largest point (no whiskers). */
static void points_range(const struct chart *c, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++) {
			double y = c->series[i].p[j].y;

			*lo = y < *lo ? y : *lo;
			*hi = y > *hi ? y : *hi;
		}
}

static void chart_y_axis(struct chart *c, const struct chart_spec *spec)
{
	double lo, hi, plo, phi;

	y_range(c, &lo, &hi);
	points_range(c, &plo, &phi);
	/* ratios spread over 5x or more: halving and doubling look alike
	 * on a log axis, as they should (0.05 and 0.14 were one pixel) */
	if (c->ratio && !spec->log_y && plo > 0 && phi / plo >= 5) {
		/* whiskers within a factor of 2 of the points fit too */
		c->y.scale = AXIS_LOG10;
		chart_ratio_log_ticks(&c->y, lo > plo / 2 ? lo : plo / 2,
				      hi < phi * 2 ? hi : phi * 2);
		return;
	}
	/* three decades or more of the points (whiskers decide nothing: a
	 * tail's interval reaching below 0 ends in an arrow): a log axis,
	 * 1 10 100 (K M G) */
	if (!spec->log_y && !c->ratio && plo > 0 && phi / plo >= 1000 &&
	    c->kind != CHART_BAR && c->kind != CHART_BOX &&
	    c->kind != CHART_CDF)
		c->y.scale = AXIS_LOG10;
	if (c->kind == CHART_PERCENTILES && !spec->log_y && plo > 0 &&
	    phi / plo > 100)
		c->y.scale = AXIS_LOG10;
	if (spec->log_y)
		c->y.scale = AXIS_LOG10;
	if (c->y.scale == AXIS_LOG10 && !(plo > 0)) {
		chart_add_note(c, "log y axis needs values above zero; using a "
				  "linear one");
		c->y.scale = AXIS_LINEAR;
	}
	if (c->y.scale == AXIS_LOG10) {
		/* whiskers within a factor of 2 of the points fit; a longer
		 * one ends in an arrow (it would add empty decades) */
		chart_log10_ticks(c, &c->y, lo > plo / 2 ? lo : plo / 2,
				  hi < phi * 2 ? hi : phi * 2, 1);
	} else {
		if (c->kind == CHART_CDF) {
			lo = 0;
			hi = 100;
		}
		/* bars and lines start at their baseline: no false zoom */
		if (c->kind == CHART_BAR || c->kind == CHART_LINE) {
			lo = lo < c->baseline ? lo : c->baseline;
			hi = hi > c->baseline ? hi : c->baseline;
		}
		/* a ratio's 1.0 line is never the frame */
		if (c->ratio && !(hi > 1))
			hi = 1 + (1 - lo) / 20;
		else if (c->ratio && !(lo < 1))
			lo = 1 - (hi - 1) / 20;
		chart_linear_ticks(c, &c->y, lo, hi, 1);
	}
}

/* ---- the x axis -------------------------------------------------------- */

static const struct build *xorder_b;
static const struct x_order *xorder_xo;

static int cmp_category(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double x = chart_code_order(xorder_b, xorder_b->x, xorder_xo->codes[a],
				    xorder_xo->first[a]);
	double y = chart_code_order(xorder_b, xorder_b->x, xorder_xo->codes[b],
				    xorder_xo->first[b]);

	if (x < y || x > y)
		return x < y ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Categories in their key's order; points move to their places. */
static void x_axis_categories(struct chart *c, const struct build *b,
			      const struct x_order *xo)
{
	size_t *ord = xmalloc((xo->n + 1) * sizeof(*ord));
	double *place = xmalloc((xo->n + 1) * sizeof(*place));
	char buf[96];

	for (size_t i = 0; i < xo->n; i++)
		ord[i] = i;
	xorder_b = b;
	xorder_xo = xo;
	qsort(ord, xo->n, sizeof(*ord), cmp_category);
	for (size_t r = 0; r < xo->n; r++) {
		place[ord[r]] = (double)r;
		ALLOC_GROW(c->x.cat, c->x.ncat + 1, c->x.cat_alloc);
		c->x.cat[c->x.ncat++] = xstrdup(chart_code_text(b, b->x,
				xo->codes[ord[r]], buf, sizeof(buf)));
		chart_add_tick(&c->x, (double)r, c->x.cat[r]);
	}
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t j = 0; j < c->series[s].n; j++)
			c->series[s].p[j].x =
				place[(size_t)c->series[s].p[j].x];
	c->x.min = -0.5;
	c->x.max = (double)c->x.ncat - 0.5;
	free(place);
	free(ord);
}

static int all_powers_of_two(const struct chart *c)
{
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t j = 0; j < c->series[s].n; j++) {
			int e;
			double f = frexp(c->series[s].p[j].x, &e);

			if (!(c->series[s].p[j].x > 0) || f < 0.5 || f > 0.5)
				return 0;
		}
	return 1;
}

/* Scale of a numeric x key: log 2 for sizes and doublings, else linear. */
static void x_axis_numeric_scale(struct chart *c, const struct chart_spec *spec)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	c->x.scale = AXIS_LINEAR;
	if (lo > 0 && (spec->log_x || hi / lo >= 8))
		c->x.scale = c->x.size_key || all_powers_of_two(c) ?
			     AXIS_LOG2 : AXIS_LOG10;
	if (spec->log_x && !(lo > 0))
		chart_add_note(c, "log x axis needs values above zero; using a "
				  "linear one");
}

static void x_axis_numeric(struct chart *c)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	if (c->x.scale == AXIS_LOG2)
		chart_log2_ticks(c, lo, hi);
	else if (c->x.scale == AXIS_LOG10)
		chart_log10_ticks(c, &c->x, lo, hi, 0);
	else
		chart_linear_ticks(c, &c->x, lo, hi, 0);
}

/* Has any point more than one run behind it? */
static int has_repetitions(const struct build *b)
{
	for (size_t j = 0; j < b->nmem; j++)
		if (b->ex->groups[b->ex->m[b->mem[j]].group].st.n > 1)
			return 1;
	return 0;
}

/* Kind and scale once the keys are known. */
static void chart_choose_kind(struct chart *c, struct build *b)
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

/* CDF points carry latency on x: give x a display unit of its own. */
static void chart_cdf_x_unit(struct chart *c, const char *base_unit)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	display_unit_auto(base_unit, hi, 0, &c->x.unit);
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++)
			c->series[i].p[j].x /= c->x.unit.factor;
}

/* The x axis's title, and its ticks unless it has categories (laid out
 * with the points, x_axis_categories()). */
static void chart_x_axis(struct chart *c, const struct build *b)
{
	double lo, hi;

	c->x.key = xstrdup(b->pct || b->hist ? "metric" :
			   chart_key_name(b, b->x));
	c->x.size_key = b->x != EX_NONE && chart_key_is_sizes(b, b->x);
	c->x.title = xstrdup(b->pct || b->hist ? "Percentile" :
			     chart_key_title(chart_key_name(b, b->x)));
	switch (c->x.scale) {
	case AXIS_NINES:
		data_range(c, 1, &lo, &hi);
		chart_nines_ticks(c, lo, hi);
		break;
	case AXIS_CATEGORY:
		break;
	default:
		if (c->kind == CHART_CDF) {
			data_range(c, 1, &lo, &hi);
			c->x.scale = lo > 0 && (b->spec->log_x ||
						hi / lo > 20) ?
				     AXIS_LOG10 : AXIS_LINEAR;
		} else {
			x_axis_numeric_scale(c, b->spec);
		}
		x_axis_numeric(c);
		break;
	}
}

/* ---- building ---------------------------------------------------------- */

static int has_points(const struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++)
		if (c->series[i].n)
			return 1;
	return 0;
}

static int cmp_point_x(const void *a, const void *b)
{
	return stats_cmp_double(&((const struct chart_point *)a)->x,
			  &((const struct chart_point *)b)->x);
}

static void chart_build_points(struct chart *c, struct build *b)
{
	struct series_map sm = { .n = 0 };
	struct x_order xo = { .n = 0 };

	keymap_init(&sm.map);
	keymap_init(&xo.map);
	if (b->hist)
		chart_histogram_points(c, b, &sm);
	else if (c->ratio)
		ratio_points(c, b, &sm, &xo);
	else
		group_points(c, b, &sm, &xo);
	sort_series(c, b, &sm);
	if (c->x.scale == AXIS_CATEGORY && !b->hist)
		x_axis_categories(c, b, &xo);
	for (size_t i = 0; i < c->nseries; i++)
		qsort(c->series[i].p, c->series[i].n,
		      sizeof(struct chart_point), cmp_point_x);
	keymap_release(&sm.map);
	keymap_release(&xo.map);
	free(sm.first);
	free(xo.codes);
	free(xo.first);
}

static void chart_record_members(struct chart *c, const struct build *b)
{
	c->members = xmalloc((b->nmem ? b->nmem : 1) * sizeof(size_t));
	for (size_t j = 0; j < b->nmem; j++)
		c->members[c->nmembers++] = member_index(b, b->mem[j]);
}

static int finish(struct chart *c, struct build *b, struct strbuf *err)
{
	const struct chart_spec *spec = b->spec;

	if (!has_points(c)) {
		strbuf_addf(err, "nothing to draw for '%s'%s", spec->y,
			    c->ratio ? ": no test is on both sides" : "");
		return -1;
	}
	if (c->kind == CHART_CDF)
		chart_cdf_x_unit(c, b->ex->m[b->mem[0]].m->unit);
	if (chart_choose_y_unit(c, spec, b->ex->m[b->mem[0]].m->unit, err))
		return -1;
	chart_x_axis(c, b);
	chart_y_axis(c, spec);
	chart_titles(c, b);
	chart_record_members(c, b);
	return 0;
}

/* The drawing, once the model and its members are known. */
static int build_from_model(struct chart *c, struct build *b,
			    struct strbuf *err)
{
	b->in = xcalloc(b->ex->n + 1, 1);
	for (size_t j = 0; j < b->nmem; j++)
		b->in[b->mem[j]] = 1;
	b->sided = b->ex->nsides > 1;
	note_pooled(c, b->ex);
	if (c->ratio && b->ex->nsides < 2) {
		strbuf_addf(err, "a ratio needs two sides");
		return -1;
	}
	if (!b->nmem) {
		strbuf_addf(err, "no measurement of metric '%s' matches",
			    b->spec->y);
		return -1;
	}
	if (chart_choose_keys(c, b, err))
		return -1;
	chart_choose_kind(c, b);
	chart_build_points(c, b);
	return finish(c, b, err);
}

static void start(struct chart *c, const struct chart_spec *spec)
{
	chart_release(c);
	c->kind = spec->kind;
	c->errorbars = spec->errorbars;
	c->metric = xstrdup(spec->y);
	c->alpha = spec->alpha > 0 ? spec->alpha : 0.05;
	c->ratio = spec->ratio != NULL || spec->ratio_side;
	c->baseline = c->ratio ? 1 : 0;
}

int chart_build_sets(struct chart *c, const struct result_set *sets,
		     size_t nsets, const struct chart_spec *spec,
		     struct strbuf *err)
{
	struct build b = { .sets = sets, .nsets = nsets, .spec = spec };
	int rc = -1;

	start(c, spec);
	b.sel = xcalloc(nsets + 1, sizeof(*b.sel));
	for (size_t s = 0; s < nsets; s++)
		b.sel[s] = xcalloc(sets[s].n + 1, 1);
	if ((spec->ratio && parse_ratio(&b, spec->ratio, err)) ||
	    select_for_kind(c, &b, err) || check_units(&b, err) ||
	    build_model(&b, err))
		goto out;
	b.mem = xmalloc((b.ex->n + 1) * sizeof(*b.mem));
	for (size_t i = 0; i < b.ex->n; i++)
		b.mem[b.nmem++] = i;
	rc = build_from_model(c, &b, err);
out:
	if (b.have_own)
		experiment_release(&b.own);
	for (size_t s = 0; s < nsets; s++)
		free(b.sel[s]);
	free(b.sel);
	free(b.mem);
	free(b.in);
	for (size_t i = 0; i < 3; i++)
		free(b.ratio_parts[i]);
	return rc;
}

int chart_build(struct chart *c, const struct result_set *rs,
		const struct chart_spec *spec, struct strbuf *err)
{
	return chart_build_sets(c, rs, 1, spec, err);
}

int chart_build_model(struct chart *c, const struct experiment *ex,
		      const size_t *members, size_t n,
		      const struct chart_spec *spec, struct strbuf *err)
{
	struct build b = { .spec = spec, .ex = ex };
	int all_hist = n > 0;
	int rc;

	start(c, spec);
	for (size_t j = 0; j < n; j++)
		all_hist &= ex->m[members[j]].m->hist.n > 0;
	if (c->kind == CHART_CDF || (c->kind == CHART_PERCENTILES &&
				     spec->from != CHART_FROM_METRICS &&
				     all_hist))
		b.hist = 1;
	else if (c->kind == CHART_PERCENTILES)
		b.pct = 1;
	b.mem = xmalloc((n + 1) * sizeof(*b.mem));
	memcpy(b.mem, members, n * sizeof(*b.mem));
	b.nmem = n;
	rc = build_from_model(c, &b, err);
	free(b.mem);
	free(b.in);
	return rc;
}
