/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pivot and ratio tables; see table.h.
 *
 * Building is three linear passes and two sorts: select the measurements
 * and give each a row, a column and a side (hashed, so 100,000 measurements
 * cost no more than their count); sort the selection by cell; pool each
 * cell's runs and compute its statistic.  Rows and columns are then ordered
 * for people: numbers by value, ops in the order benchmarks run them.
 */
#define _GNU_SOURCE	/* qsort_r */
#include "table.h"
#include "experiment.h"
#include "steady.h"
#include "steady-table.h"
#include "../core/series.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More cells than anyone reads; a sign of a key that is unique per run. */
#define PIVOT_MAX_CELLS 10000000u

static const char *const stat_names[] = {
	[PIVOT_MEAN] = "mean", [PIVOT_MEDIAN] = "median",
	[PIVOT_MIN] = "min", [PIVOT_MAX] = "max",
	[PIVOT_CV] = "cv", [PIVOT_N] = "n",
};

int pivot_stat_parse(const char *name, enum pivot_stat *out)
{
	for (size_t i = 0; i < sizeof(stat_names) / sizeof(*stat_names); i++) {
		if (!strcmp(name, stat_names[i])) {
			*out = (enum pivot_stat)i;
			return 0;
		}
	}
	return -1;
}

const char *pivot_stat_name(enum pivot_stat stat)
{
	return stat_names[stat];
}

int pivot_ratio_parse(const char *spec, char **key, char **num, char **den)
{
	const char *eq = strchr(spec, '='), *sep = NULL, *p;
	size_t klen;
	char *pat;

	if (!eq || eq == spec)
		return -1;
	klen = (size_t)(eq - spec);
	pat = xstrfmt("/%.*s=", (int)klen, spec);
	/* the last "/KEY=" leaves '/' inside the first value alone */
	for (p = strstr(eq + 1, pat); p; p = strstr(p + 1, pat))
		sep = p;
	free(pat);
	if (!sep || sep == eq + 1 || !sep[klen + 2])
		return -1;
	*key = xstrndup(spec, klen);
	*num = xstrndup(eq + 1, (size_t)(sep - eq - 1));
	*den = xstrdup(sep + klen + 2);
	return 0;
}

/* One selected measurement and where it goes. */
struct entry {
	size_t m;
	size_t row, col;	/* in order of first appearance */
	size_t cell;		/* row-major, once the axes are sorted */
	int side;
	size_t ex;		/* its index in the experiment model */
};

/*
 * Keys the experiment model derives from the inputs' names ("test": the
 * part of x.randread.txt and x.randwrite.txt that differs) are no label:
 * an axis asks the model of the table's metric for them, so that the
 * key a mixed cell's warning names can go on --rows or --cols.
 */
struct name_keys {
	struct experiment ex;
	const struct measurement *base;	/* the result set's m[] */
	size_t *at;			/* [m - base]: index in ex, or
					 * SIZE_MAX (not taken) */
};

struct axis {
	struct keymap map;
	char **vals;		/* n * nkeys */
	size_t n, alloc, nkeys;
	char *const *keys;
	int keep_lacking;	/* a lacking key is the value "" */
	const struct name_keys *names;	/* NULL: no derived key */
	size_t *derived;	/* [k]: the model's key, or EX_NONE */
};

static void axis_init(struct axis *a, char *const *keys, size_t nkeys,
		      int keep_lacking)
{
	memset(a, 0, sizeof(*a));
	keymap_init(&a->map);
	a->keys = keys;
	a->nkeys = nkeys;
	a->keep_lacking = keep_lacking;
}

/* The keys of the axis that the model derives from names, if any. */
static void axis_derive(struct axis *a, const struct name_keys *names)
{
	for (size_t k = 0; names && k < a->nkeys; k++) {
		size_t key = experiment_key(&names->ex, a->keys[k]);

		if (key == EX_NONE ||
		    names->ex.keys[key].origin != EX_FROM_NAMES)
			continue;
		if (!a->derived) {
			a->derived = xmalloc(a->nkeys * sizeof(*a->derived));
			for (size_t j = 0; j < a->nkeys; j++)
				a->derived[j] = EX_NONE;
		}
		a->derived[k] = key;
		a->names = names;
	}
}

static const char *axis_value(const struct axis *a,
			      const struct measurement *m, size_t k)
{
	const char *v;

	if (a->derived && a->derived[k] != EX_NONE) {
		size_t i = a->names->at[m - a->names->base];

		v = i == SIZE_MAX ? NULL :
		    experiment_value(&a->names->ex, i, a->derived[k]);
	} else {
		v = measurement_key(m, a->keys[k]);
	}
	return v || !a->keep_lacking ? v : "";
}

/*
 * Index of m's tuple of values on this axis (adding it), or SIZE_MAX with
 * *missing naming the key m lacks.
 */
static size_t axis_index(struct axis *a, const struct measurement *m,
			 struct strbuf *scratch, const char **missing)
{
	size_t *slot;
	int created;

	strbuf_reset(scratch);
	for (size_t k = 0; k < a->nkeys; k++) {
		const char *v = axis_value(a, m, k);

		if (!v) {
			*missing = a->keys[k];
			return SIZE_MAX;
		}
		strbuf_adds(scratch, v);
		strbuf_addch(scratch, '\037');
	}
	slot = keymap_put(&a->map, strbuf_str(scratch), a->n, &created);
	if (created) {
		ALLOC_GROW(a->vals, (a->n + 1) * a->nkeys, a->alloc);
		for (size_t k = 0; k < a->nkeys; k++)
			a->vals[a->n * a->nkeys + k] =
				xstrdup(axis_value(a, m, k));
		a->n++;
	}
	return *slot;
}

int op_rank(const char *op)
{
	static const char *const ops[] = {
		"read", "write", "randread", "randwrite", "rw", "randrw",
		"rewrite", "reread", "bkwdread", "strideread", "recrewrite",
		"fwrite", "frewrite", "fread", "freread", "cachedread",
		"trim", "randtrim", "copy", "run", NULL,
	};

	for (int i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return i;
	return 1000;
}

static int cmp_value(const char *key, const char *a, const char *b)
{
	double x, y;

	if (!*a != !*b)		/* a lacking key (keep_lacking) goes last */
		return *a ? -1 : 1;

	if (!strcmp(key, "op")) {
		int ra = op_rank(a), rb = op_rank(b);

		if (ra != rb)
			return ra < rb ? -1 : 1;
	}
	if (is_numeric_string(a, &x) && is_numeric_string(b, &y) &&
	    (x < y || x > y))
		return x < y ? -1 : 1;
	return strcmp(a, b);
}

static int cmp_tuple(const void *pa, const void *pb, void *ctx)
{
	const struct axis *a = ctx;
	char *const *x = a->vals + *(const size_t *)pa * a->nkeys;
	char *const *y = a->vals + *(const size_t *)pb * a->nkeys;

	for (size_t k = 0; k < a->nkeys; k++) {
		int c = cmp_value(a->keys[k], x[k], y[k]);

		if (c)
			return c;
	}
	return 0;
}

/* Sorts the axis for display; rank[i] is the position of tuple i. */
static size_t *axis_sort(struct axis *a, char ***sorted_vals)
{
	size_t *order = xmalloc((a->n ? a->n : 1) * sizeof(*order));
	size_t *rank = xmalloc((a->n ? a->n : 1) * sizeof(*rank));
	char **vals = xmalloc((a->n * a->nkeys + 1) * sizeof(*vals));

	for (size_t i = 0; i < a->n; i++)
		order[i] = i;
	qsort_r(order, a->n, sizeof(*order), cmp_tuple, a);
	for (size_t i = 0; i < a->n; i++) {
		rank[order[i]] = i;
		for (size_t k = 0; k < a->nkeys; k++)
			vals[i * a->nkeys + k] =
				a->vals[order[i] * a->nkeys + k];
	}
	free(order);
	free(a->vals);
	free(a->derived);
	a->vals = NULL;
	a->derived = NULL;
	keymap_release(&a->map);
	*sorted_vals = vals;
	return rank;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->cell != b->cell)
		return a->cell < b->cell ? -1 : 1;
	if (a->side != b->side)
		return a->side - b->side;
	return (a->m > b->m) - (a->m < b->m);
}

static char **copy_keys(char *const *keys, size_t n)
{
	char **v = xmalloc((n + 1) * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(keys[i]);
	return v;
}

static void note_mix(struct pivot *pv, const char *key, const char *a,
		     const char *b)
{
	if (pv->mix_key)
		return;
	pv->mix_key = xstrdup(key);
	pv->mix_a = xstrdup(a ? a : "(none)");
	pv->mix_b = xstrdup(b ? b : "(none)");
}

/*
 * The cell of entries a and b pools two conditions (two groups of the
 * experiment model): the first key the two differ in is noted.
 */
static int differs(struct pivot *pv, const struct experiment *ex,
		   size_t a, size_t b)
{
	size_t k;

	if (ex->m[a].group == ex->m[b].group)
		return 0;
	k = experiment_first_difference(ex, a, b);
	if (k != EX_NONE)	/* (the metric is one, the side too) */
		note_mix(pv, k == EX_OP ? "op" : k == EX_TOOL ? "tool" :
			 ex->keys[k].name, experiment_value(ex, a, k),
			 experiment_value(ex, b, k));
	return 1;
}

static double stat_value(const struct stats *st, enum pivot_stat stat)
{
	if (!st->n)
		return NAN;
	switch (stat) {
	case PIVOT_MEAN:
		return st->mean;
	case PIVOT_MEDIAN:
		return st->median;
	case PIVOT_MIN:
		return st->min;
	case PIVOT_MAX:
		return st->max;
	case PIVOT_CV:
		return st->cv;
	case PIVOT_N:
		return (double)st->n;
	}
	return NAN;
}

/*
 * Pools each run of entries of one cell and side into its statistics.
 * A cell whose entries are two conditions of the experiment model (they
 * differ in a factor neither rows nor columns show) is mixed.
 */
static void pool_cells(struct pivot *pv, const struct result_set *rs,
		       const struct experiment *ex, struct entry *e,
		       size_t n)
{
	for (size_t i = 0; i < n;) {
		struct stats_acc acc;
		size_t j = i;
		int mixed = 0;

		stats_acc_init(&acc);
		for (; j < n && e[j].cell == e[i].cell &&
		       e[j].side == e[i].side; j++) {
			stats_acc_add_measurement(&acc, &rs->m[e[j].m]);
			if (!mixed && j > i)
				mixed = differs(pv, ex, e[i].ex, e[j].ex);
		}
		pv->mixed_cells += (size_t)mixed;
		stats_compute(&acc, &pv->cells[e[i].cell].st[e[i].side]);
		stats_acc_release(&acc);
		i = j;
	}
}

static void cell_values(struct pivot *pv)
{
	for (size_t i = 0; i < pv->nrows * pv->ncols; i++) {
		struct pivot_cell *c = &pv->cells[i];
		const struct stats *a = &c->st[0], *b = &c->st[1];
		double t, df;

		c->value = stat_value(a, pv->stat);
		c->p = NAN;
		if (!pv->is_ratio)
			continue;
		if (!a->n != !b->n)
			pv->half_cells++;
		c->value = c->value / stat_value(b, pv->stat);
		if (stats_welch(a->n, a->mean, a->stddev, b->n, b->mean,
				b->stddev, &c->p, &t, &df))
			c->p = NAN;
	}
}

/* Which side of a ratio m is on: 0, 1, or -1 for neither. */
static int ratio_side(const struct pivot_options *opt,
		      const struct measurement *m)
{
	const char *v;

	if (!opt->ratio_key)
		return 0;
	v = measurement_key(m, opt->ratio_key);
	if (v && !strcmp(v, opt->ratio_num))
		return 0;
	if (v && !strcmp(v, opt->ratio_den))
		return 1;
	return -1;
}

static void pivot_start(struct pivot *pv, const struct pivot_options *opt)
{
	memset(pv, 0, sizeof(*pv));
	pv->metric = xstrdup(opt->metric);
	pv->stat = opt->stat;
	pv->is_ratio = opt->ratio_key != NULL;
	if (pv->is_ratio) {
		pv->ratio_key = xstrdup(opt->ratio_key);
		pv->ratio_num = xstrdup(opt->ratio_num);
		pv->ratio_den = xstrdup(opt->ratio_den);
	}
	pv->nrow_keys = opt->nrow_keys;
	pv->ncol_keys = opt->ncol_keys;
	pv->row_key_names = copy_keys(opt->row_keys, opt->nrow_keys);
	pv->col_key_names = copy_keys(opt->col_keys, opt->ncol_keys);
}

/* Pass one: pick the measurements, give each a row, column and side. */
static int select_entries(struct pivot *pv, const struct result_set *rs,
			  const struct pivot_options *opt, struct axis *rows,
			  struct axis *cols, struct entry **out, size_t *nout,
			  struct strbuf *err)
{
	struct strbuf scratch = STRBUF_INIT;
	struct entry *e = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < rs->n && !err->len; i++) {
		const struct measurement *m = &rs->m[i];
		const char *missing = NULL;
		size_t r, c;
		int side;

		if (strcmp(m->metric, opt->metric) ||
		    (opt->where && !filter_match(opt->where, m)))
			continue;
		side = ratio_side(opt, m);
		if (side < 0)
			continue;
		r = axis_index(rows, m, &scratch, &missing);
		c = r == SIZE_MAX ? r : axis_index(cols, m, &scratch, &missing);
		if (c == SIZE_MAX) {
			if (!pv->lacking_key)
				pv->lacking_key = xstrdup(missing);
			pv->lacking++;
			continue;
		}
		if (!pv->unit)
			pv->unit = xstrdup(m->unit);
		else if (strcmp(pv->unit, m->unit))
			strbuf_addf(err, "'%s' comes in two units, %s and %s",
				    opt->metric, pv->unit, m->unit);
		ALLOC_GROW(e, n + 1, alloc);
		e[n++] = (struct entry){ i, r, c, 0, side, 0 };
	}
	strbuf_release(&scratch);
	*out = e;
	*nout = n;
	if (!err->len && !n)
		strbuf_addf(err, "no '%s' measurement %s", opt->metric,
			    pv->lacking ? "has every row and column key" :
			    "matches");
	/* a ratio with one side empty is a typo, not a table of '-' */
	for (int side = 0; opt->ratio_key && !err->len && side < 2; side++) {
		size_t k = 0;

		while (k < n && e[k].side != side)
			k++;
		if (k == n)
			strbuf_addf(err, "no '%s' measurement has %s=%s (--ratio)",
				    opt->metric, opt->ratio_key,
				    side ? opt->ratio_den : opt->ratio_num);
	}
	if (!err->len && (double)rows->n * (double)cols->n > PIVOT_MAX_CELLS)
		strbuf_addf(err, "%zu rows by %zu columns is too many cells; "
			    "narrow the table with --where", rows->n, cols->n);
	return err->len ? -1 : 0;
}

static void axis_release(struct axis *a)
{
	if (a->vals)
		for (size_t i = 0; i < a->n * a->nkeys; i++)
			free(a->vals[i]);
	free(a->vals);
	free(a->derived);
	keymap_release(&a->map);
}

/* Is key some measurement's of the metric (a label or a field)? */
static int metric_has_key(const struct result_set *rs, const char *metric,
			  const char *key)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->m[i].metric, metric) &&
		    measurement_key(&rs->m[i], key))
			return 1;
	return 0;
}

static int metric_taken(const struct measurement *m, const void *metric)
{
	return !strcmp(m->metric, metric);
}

/* The model of the metric's measurements when an axis names a key that
 * none has as a label (maybe one the names give); else NULL. */
static struct name_keys *names_model(const struct result_set *rs,
				     const struct pivot_options *opt)
{
	struct experiment_options eo = { .where = opt->where,
					 .take = metric_taken,
					 .take_arg = opt->metric,
					 .groups_only = 1 };
	struct strbuf err = STRBUF_INIT;
	struct name_keys *nk;
	int wanted = 0;

	for (size_t k = 0; !wanted && k < opt->nrow_keys; k++)
		wanted = !metric_has_key(rs, opt->metric, opt->row_keys[k]);
	for (size_t k = 0; !wanted && k < opt->ncol_keys; k++)
		wanted = !metric_has_key(rs, opt->metric, opt->col_keys[k]);
	if (!wanted)
		return NULL;
	nk = xcalloc(1, sizeof(*nk));
	if (experiment_build(&nk->ex, rs, 1, &eo, &err))
		BUG("names model: %s", err.buf);	/* no side key */
	strbuf_release(&err);
	nk->base = rs->m;
	nk->at = xmalloc((rs->n + 1) * sizeof(*nk->at));
	for (size_t i = 0; i < rs->n; i++)
		nk->at[i] = SIZE_MAX;
	for (size_t i = 0; i < nk->ex.n; i++)
		nk->at[nk->ex.m[i].index] = i;
	return nk;
}

int pivot_key_from_names(const struct result_set *rs, const char *key)
{
	struct experiment_options eo = { .groups_only = 1 };
	struct strbuf err = STRBUF_INIT;
	struct experiment ex;
	size_t k;
	int derived;

	if (experiment_build(&ex, rs, 1, &eo, &err))
		BUG("names model: %s", err.buf);
	k = experiment_key(&ex, key);
	derived = k != EX_NONE && ex.keys[k].origin == EX_FROM_NAMES;
	experiment_release(&ex);
	strbuf_release(&err);
	return derived;
}

static void names_model_free(struct name_keys *nk)
{
	if (!nk)
		return;
	experiment_release(&nk->ex);
	free(nk->at);
	free(nk);
}

/* Each cell's measurements, for the footnotes of the findings on them. */
static void record_members(struct pivot *pv, const struct entry *e, size_t n)
{
	size_t ncells = pv->nrows * pv->ncols;

	pv->member_at = xcalloc(ncells + 1, sizeof(*pv->member_at));
	pv->members = xmalloc((n ? n : 1) * sizeof(*pv->members));
	for (size_t i = 0; i < n; i++)
		pv->member_at[e[i].cell + 1]++;
	for (size_t c = 0; c < ncells; c++)
		pv->member_at[c + 1] += pv->member_at[c];
	for (size_t i = 0; i < n; i++)	/* e is sorted by cell */
		pv->members[i] = e[i].m;
}

/*
 * The experiment model of the table's entries: its rows, columns and
 * the ratio key are the sides of nothing; the model's groups say which
 * entries are repetitions of one condition.  e[i].ex is entry i's index
 * in it (the model takes them in the same order).
 */
struct entries_sel {
	const unsigned char *taken;
	const struct result_set *rs;
};

static int entry_taken(const struct measurement *m, const void *arg)
{
	const struct entries_sel *s = arg;

	return s->taken[m - s->rs->m];
}

static void model_entries(struct pivot *pv, struct experiment *ex,
			  const struct result_set *rs,
			  const struct pivot_options *opt, struct entry *e,
			  size_t n)
{
	unsigned char *taken = xcalloc(rs->n + 1, 1);
	size_t *at = xmalloc((rs->n + 1) * sizeof(*at));
	struct entries_sel sel = { taken, rs };
	/* (the cells' figures are the table's own: no group's) */
	struct experiment_options eo = { .take = entry_taken,
					 .take_arg = &sel, .pool = opt->pool,
					 .npool = opt->npool, .groups_only = 1 };
	struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		taken[e[i].m] = 1;
	if (opt->ratio_key) {
		eo.side_key = opt->ratio_key;
		eo.side_a = opt->ratio_num;
		eo.side_b = opt->ratio_den;
	}
	if (experiment_build(ex, rs, 1, &eo, &err))
		BUG("table model: %s", err.buf);	/* both sides have some */
	for (size_t i = 0; i < ex->n; i++)
		at[ex->m[i].index] = i;
	for (size_t i = 0; i < n; i++)
		e[i].ex = at[e[i].m];
	for (size_t i = 0; i < ex->nnotes && opt->npool; i++)
		if (strstr(ex->notes[i], "--pool")) {
			free(pv->pooled);
			pv->pooled = xstrdup(ex->notes[i]);
		}
	strbuf_release(&err);
	free(at);
	free(taken);
}

int pivot_build(struct pivot *pv, const struct result_set *rs,
		const struct pivot_options *opt, struct strbuf *err)
{
	struct axis rows, cols;
	struct entry *e;
	struct experiment ex;
	struct name_keys *names = names_model(rs, opt);
	size_t n, *row_rank, *col_rank;

	pivot_start(pv, opt);
	pv->steady = opt->steady;
	pv->rs = rs;
	axis_init(&rows, opt->row_keys, opt->nrow_keys, opt->keep_lacking);
	axis_init(&cols, opt->col_keys, opt->ncol_keys, opt->keep_lacking);
	axis_derive(&rows, names);
	axis_derive(&cols, names);
	if (select_entries(pv, rs, opt, &rows, &cols, &e, &n, err)) {
		axis_release(&rows);
		axis_release(&cols);
		names_model_free(names);
		free(e);
		return -1;
	}
	pv->nrows = rows.n;
	pv->ncols = cols.n;
	row_rank = axis_sort(&rows, &pv->row_vals);
	col_rank = axis_sort(&cols, &pv->col_vals);
	for (size_t i = 0; i < n; i++)
		e[i].cell = row_rank[e[i].row] * pv->ncols +
			    col_rank[e[i].col];
	free(row_rank);
	free(col_rank);
	names_model_free(names);
	model_entries(pv, &ex, rs, opt, e, n);
	qsort(e, n, sizeof(*e), cmp_entry);
	pv->cells = xcalloc(pv->nrows * pv->ncols, sizeof(*pv->cells));
	record_members(pv, e, n);
	pool_cells(pv, rs, &ex, e, n);
	experiment_release(&ex);
	pv->used = n;
	cell_values(pv);
	free(e);
	return 0;
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void pivot_release(struct pivot *pv)
{
	free(pv->metric);
	free(pv->unit);
	free(pv->ratio_key);
	free(pv->ratio_num);
	free(pv->ratio_den);
	free_strings(pv->row_key_names, pv->nrow_keys);
	free_strings(pv->col_key_names, pv->ncol_keys);
	free_strings(pv->row_vals, pv->nrows * pv->nrow_keys);
	free_strings(pv->col_vals, pv->ncols * pv->ncol_keys);
	free(pv->cells);
	free(pv->members);
	free(pv->member_at);
	free(pv->lacking_key);
	free(pv->mix_key);
	free(pv->pooled);
	free(pv->mix_a);
	free(pv->mix_b);
	memset(pv, 0, sizeof(*pv));
}

/*
 * "4K" for sizes, the value itself otherwise; a lacking key (keep_lacking)
 * is "(none)" on a row and "no KEY" over a column, as the chart names it
 * on its x axis and in its legend.
 */
static char *key_text(const char *key, const char *val, int column)
{
	char buf[64];
	double v;

	if (!*val)
		return column ? xstrfmt("no %s", key) : xstrdup("(none)");
	if (key_is_size(key) && is_numeric_string(val, &v))
		return xstrdup(human_size(v, buf, sizeof(buf)));
	return xstrdup(val);
}

static int axis_numeric(char *const *vals, size_t n, size_t nkeys, size_t k)
{
	for (size_t i = 0; i < n; i++)
		if (!is_numeric_string(vals[i * nkeys + k], NULL))
			return 0;
	return n > 0;
}

static void add_row_key_columns(const struct pivot *pv, struct fmt_table *t)
{
	for (size_t k = 0; k < pv->nrow_keys; k++)
		fmt_table_add_column(t, pv->row_key_names[k], NULL,
				     axis_numeric(pv->row_vals, pv->nrows,
						  pv->nrow_keys, k));
}

/* op, tool, metric, source: their values name themselves ("read"). */
static int key_is_field(const char *key)
{
	static const char *const keys[] = { "op", "tool", "metric", "unit",
					    "source", NULL };

	return str_in_list(key, keys);
}

/* Column c's CSV name (raw values) and heading (display values + unit). */
static void add_value_column(const struct pivot *pv, size_t c,
			     const char *unit, struct fmt_table *t)
{
	struct strbuf name = STRBUF_INIT, heading = STRBUF_INIT;

	for (size_t k = 0; k < pv->ncol_keys; k++) {
		const char *key = pv->col_key_names[k];
		const char *v = pv->col_vals[c * pv->ncol_keys + k];
		char *shown = key_text(key, v, 1);

		strbuf_addf(&name, "%s%s", k ? "/" : "", v);
		strbuf_addf(&heading, "%s%s%s%s", k ? " " : "",
			    key_is_field(key) || !*v ? "" : key,
			    key_is_field(key) || !*v ? "" : "=", shown);
		free(shown);
	}
	if (!pv->ncol_keys) {
		strbuf_adds(&name, pv->metric);
		strbuf_adds(&heading, pv->metric);
	}
	if (unit)
		strbuf_addf(&heading, " (%s)", unit);
	fmt_table_add_column(t, strbuf_str(&name), strbuf_str(&heading), 1);
	strbuf_release(&name);
	strbuf_release(&heading);
}

static int stat_has_unit(enum pivot_stat stat)
{
	return stat != PIVOT_CV && stat != PIVOT_N;
}

/*
 * The unit that keeps the smallest figure at or above 1: "221" and "1121"
 * MB/s read better than "0.221" and "1.12" GB/s.
 */
static void choose_unit(const struct pivot *pv, struct display_unit *u)
{
	double typical = 0;

	for (size_t i = 0; i < pv->nrows * pv->ncols; i++) {
		double v = fabs(pv->cells[i].value);

		if (v > 0 && (!(typical > 0) || v < typical))
			typical = v;
	}
	display_unit_auto(pv->unit, typical, 0, u);
}

/* The mark of a ratio cell: '*' significant, '~' not, ' ' untested. */
static char ratio_mark(const struct pivot_cell *c, double alpha)
{
	if (isnan(c->p))
		return ' ';
	return c->p < alpha ? '*' : '~';
}

static void set_value_cell(const struct pivot *pv, size_t r, size_t c,
			   const struct display_unit *u, double alpha,
			   int fixed, struct fmt_table *t, size_t col,
			   unsigned *marks)
{
	const struct pivot_cell *cell = pivot_cell(pv, r, c);
	char buf[64];

	if (pv->is_ratio) {
		char mark = ratio_mark(cell, alpha);

		if (mark == ' ')
			snprintf(buf, sizeof(buf), "%.2f", cell->value);
		else
			snprintf(buf, sizeof(buf), "%.2f %c", cell->value,
				 mark);
		*marks |= mark == '*' ? 1u : mark == '~' ? 2u :
			  isnan(cell->value) ? 0 : 4u;
	} else if (pv->stat == PIVOT_N) {
		snprintf(buf, sizeof(buf), "%.0f", cell->value);
	} else if (pv->stat == PIVOT_CV) {
		snprintf(buf, sizeof(buf), "%.1f", cell->value);
	} else {
		human_format(cell->value, u, buf, sizeof(buf));
	}
	fmt_table_set_number(t, r, col, stat_has_unit(pv->stat) &&
			     !pv->is_ratio && fixed ? cell->value / u->factor :
			     cell->value, buf);
	if (pv->is_ratio && ratio_mark(cell, alpha) == '~')
		fmt_table_set_style(t, r, col, FMT_WARN);
}

static void add_notes(const struct pivot *pv, double alpha, unsigned marks,
		      struct fmt_table *t)
{
	if (marks & 1u)
		fmt_table_add_note(t, "* the groups differ significantly "
				   "(Welch's t-test, p < %g)", alpha);
	if (marks & 2u)
		fmt_table_add_note(t, "~ no significant difference (p >= %g)",
				   alpha);
	if ((marks & 4u) && (marks & 3u))
		fmt_table_add_note(t, "unmarked ratios rest on single runs");
	if (pv->half_cells)
		fmt_table_add_note(t, "%zu cell(s) have only one of %s=%s and "
				   "%s=%s", pv->half_cells, pv->ratio_key,
				   pv->ratio_num, pv->ratio_key,
				   pv->ratio_den);
	if (pv->lacking)
		fmt_table_add_note(t, "%zu measurement(s) without '%s' left "
				   "out", pv->lacking, pv->lacking_key);
	if (pv->mixed_cells)
		fmt_table_add_note(t, "%zu cell(s) pool measurements that "
				   "differ in '%s' (%s, %s)", pv->mixed_cells,
				   pv->mix_key, pv->mix_a, pv->mix_b);
	if (pv->pooled)
		fmt_table_add_note(t, "%s", pv->pooled);
}

static char *pivot_title(const struct pivot *pv, const char *unit)
{
	if (pv->is_ratio)
		return xstrfmt("%s %s ratio %s=%s / %s=%s", pv->metric,
			       pivot_stat_name(pv->stat), pv->ratio_key,
			       pv->ratio_num, pv->ratio_key, pv->ratio_den);
	return xstrfmt("%s %s%s%s%s", pv->metric, pivot_stat_name(pv->stat),
		       unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
}

/* Does a member of column c have samples over time the rule judges? */
static int column_has_series(const struct pivot *pv, size_t c)
{
	for (size_t r = 0; r < pv->nrows; r++) {
		size_t n;
		const size_t *mi = pivot_cell_members(pv, r, c, &n);

		for (size_t k = 0; k < n; k++)
			if (steady_applies(pv->steady, &pv->rs->m[mi[k]]))
				return 1;
	}
	return 0;
}

/* Column c's steady column: "bw_steady", "read_steady"; heading
 * "bw steady (MB/s)". */
static void add_steady_column(const struct pivot *pv, size_t c,
			      const char *unit, struct fmt_table *t)
{
	const struct fmt_column *vc = &t->cols[pv->nrow_keys + c];
	char *name = xstrfmt("%s_steady", vc->name);
	struct strbuf heading = STRBUF_INIT;
	const char *h = vc->heading ? vc->heading : vc->name;
	const char *paren = unit ? strrchr(h, '(') : NULL;

	/* "bw (MB/s)" -> "bw steady (MB/s)" */
	if (paren && paren > h)
		strbuf_addf(&heading, "%.*ssteady %s", (int)(paren - h), h,
			    paren);
	else
		strbuf_addf(&heading, "%s steady", h);
	fmt_table_add_column(t, name, heading.buf, 1);
	free(name);
	strbuf_release(&heading);
}

/*
 * The steady figure of a cell: the mean of its members' steady parts
 * and, in words, from when ("41.2k from 212 s": the latest member's);
 * "never" or "too short" (CSV empty, JSON null) when they did not
 * settle; "1 of 2 steady" when only some did.  Empty when no member has
 * samples over time.
 */
static void set_steady_cell(const struct pivot *pv, size_t r, size_t c,
			    const struct display_unit *u, int fixed,
			    struct fmt_table *t, size_t col)
{
	size_t n, nser = 0, nsteady = 0, nshort = 0;
	const size_t *mi = pivot_cell_members(pv, r, c, &n);
	double sum = 0, from = 0;
	char num[48], text[96];

	for (size_t k = 0; k < n; k++) {
		const struct measurement *m = &pv->rs->m[mi[k]];
		struct steady_result res;

		if (!steady_applies(pv->steady, m))
			continue;
		nser++;
		steady_find(m->series, pv->steady, &res);
		if (res.steady) {
			nsteady++;
			sum += res.mean;
			from = fmax(from, res.t_from);
		} else {
			nshort += res.short_run;
		}
	}
	if (!nser)
		return;
	if (nsteady == nser) {
		double v = sum / (double)nsteady;

		human_format(v, u, num, sizeof(num));
		snprintf(text, sizeof(text), "%s from %.0f s", num, from);
		fmt_table_set_number(t, r, col, fixed ? v / u->factor : v,
				     text);
		return;
	}
	if (nsteady)
		snprintf(text, sizeof(text), "%zu of %zu steady", nsteady, nser);
	else
		snprintf(text, sizeof(text), "%s", nshort == nser ?
			 "too short" : "never");
	fmt_table_set_text_only(t, r, col, text);	/* CSV empty, JSON null */
}

void pivot_to_fmt(const struct pivot *pv, const struct display_unit *unit,
		  double alpha, struct fmt_table *out)
{
	struct display_unit u;
	const char *uname;
	unsigned marks = 0;
	char *title;
	size_t *steady_col = xcalloc(pv->ncols + 1, sizeof(*steady_col));
	size_t nsteady = 0;

	if (unit)
		u = *unit;
	else
		choose_unit(pv, &u);
	uname = stat_has_unit(pv->stat) && !pv->is_ratio ? u.name :
		pv->stat == PIVOT_CV && !pv->is_ratio ? "%" : NULL;
	title = pivot_title(pv, uname);
	fmt_table_init(out, title);
	free(title);
	add_row_key_columns(pv, out);
	for (size_t c = 0; c < pv->ncols; c++)
		add_value_column(pv, c, uname, out);
	/* (a figure's steady part: not of a ratio, not of a count) */
	for (size_t c = 0; pv->steady && !pv->is_ratio &&
	     stat_has_unit(pv->stat) && c < pv->ncols; c++)
		if (column_has_series(pv, c)) {
			steady_col[c] = out->ncols;
			add_steady_column(pv, c, uname, out);
			nsteady++;
		}
	for (size_t r = 0; r < pv->nrows; r++) {
		fmt_table_add_row(out);
		for (size_t k = 0; k < pv->nrow_keys; k++) {
			const char *v = pv->row_vals[r * pv->nrow_keys + k];
			char *shown = key_text(pv->row_key_names[k], v, 0);
			double x;

			if (out->cols[k].numeric && is_numeric_string(v, &x))
				fmt_table_set_number(out, r, k, x, shown);
			else
				fmt_table_set_cell(out, r, k, shown, v);
			free(shown);
		}
		for (size_t c = 0; c < pv->ncols; c++)
			set_value_cell(pv, r, c, &u, alpha, unit != NULL, out,
				       pv->nrow_keys + c, &marks);
		for (size_t c = 0; c < pv->ncols; c++)
			if (steady_col[c])
				set_steady_cell(pv, r, c, &u, unit != NULL,
						out, steady_col[c]);
	}
	add_notes(pv, alpha, marks, out);
	if (nsteady)
		fmt_table_add_note(out, "steady: the mean of the samples over "
				   "time from where they settled, by fio's "
				   "rule (%s within %g%s over %g s); never, "
				   "too short: they did not, or are under one "
				   "window; the figure is the whole run's",
				   pv->steady->kind == STEADY_SLOPE ?
				   "slope" : "deviation", pv->steady->limit,
				   pv->steady->pct ? "% of the mean" : "",
				   pv->steady->dur);
	free(steady_col);
}
