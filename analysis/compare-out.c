/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan compare's results as people and scripts read them (see
 * compare-out.h): the text and Markdown tables, the CSV and the JSON
 * document, each built from a struct compare_result and, when asked,
 * storan check's footnotes on the compared figures.
 *
 * Text and Markdown go through analysis/format.h's display model; the
 * text table is planned first (struct text_plan below) so that what every
 * row shares is said once above it.  CSV uses the same model with the
 * contract's columns; JSON is built with jansson directly, key order
 * preserved.
 */
#include "compare-out.h"
#include "verdicts.h"
#include "../core/human.h"
#include "../core/json-out.h"
#include "../core/keymap.h"
#include "../core/xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Frees v[0..n) (NULL entries too) and v. */
static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static char *labels_text(const struct labels *l)
{
	return l->n ? labels_to_string(l) : xstrdup("");
}

static const char *const csv_columns[] = {
	"tool", "op", "metric", "labels", "n_a", "mean_a", "n_b", "mean_b",
	"ratio", "change_pct", "p_value", "test", "verdict",
};

static const char *const text_headings[] = {
	"tool", "op", "metric", "labels", "n", "baseline", "n", "candidate",
	"ratio", "change", "p", "test", "verdict",
};

static void add_columns(struct fmt_table *t)
{
	for (size_t c = 0; c < 13; c++)
		fmt_table_add_column(t, csv_columns[c], text_headings[c],
				     c >= 4 && c <= 10);
}

static void add_row(struct fmt_table *t, const struct compare_row *row,
		    const char *input)
{
	size_t r = fmt_table_add_row(t);
	struct labels l;
	char buf[64], *ls;

	labels_copy(&l, &row->labels);
	if (input)
		labels_set(&l, "input", input);
	ls = labels_text(&l);
	fmt_table_set_cell(t, r, 0, row->tool, NULL);
	fmt_table_set_cell(t, r, 1, row->op, NULL);
	fmt_table_set_cell(t, r, 2, row->metric, NULL);
	fmt_table_set_cell(t, r, 3, ls, NULL);
	fmt_table_set_number(t, r, 4, (double)row->a.n, NULL);
	verdict_mean_text(row, row->a.mean, buf, sizeof(buf));
	fmt_table_set_number(t, r, 5, row->a.mean, buf);
	fmt_table_set_number(t, r, 6, (double)row->b.n, NULL);
	verdict_mean_text(row, row->b.mean, buf, sizeof(buf));
	fmt_table_set_number(t, r, 7, row->b.mean, buf);
	verdict_cells(t, r, 8, 12, row);
	fmt_table_set_cell(t, r, 11, row->test, NULL);
	labels_release(&l);
	free(ls);
}

/*
 * Marks the baseline's and the candidate's mean with the footnotes of
 * the findings on their measurements (sets 0 and set_b of fn).
 */
static void mark_row(struct fmt_table *t, size_t r,
		     const struct compare_row *row, struct footnotes *fn,
		     size_t set_b, size_t col_a, size_t col_b)
{
	footnotes_mark_cell(fn, t, r, col_a, 0, row->members[0],
			    row->nmembers[0]);
	footnotes_mark_cell(fn, t, r, col_b, set_b, row->members[1],
			    row->nmembers[1]);
}

static char *side_title(const char *name, const struct labels *identity)
{
	char *ls = labels_text(identity), *s;

	s = xstrfmt("%s%s%s%s", name, *ls ? " (" : "", ls, *ls ? ")" : "");
	free(ls);
	return s;
}

static void add_summary_notes(struct fmt_table *t,
			      const struct compare_result *r,
			      const char *name_a, const char *name_b)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->single_runs)
		fmt_table_add_note(t, "* single runs: the threshold alone "
				   "decides, no significance test is "
				   "possible");
	for (size_t i = 0; i < r->nunmatched; i++) {
		const struct compare_unmatched *u = &r->unmatched[i];
		char *ls = labels_text(&u->labels);

		fmt_table_add_note(t, "unmatched, only in %s: %s %s %s%s%s "
				   "(%s:%u)", u->in_candidate ? name_b :
				   name_a, u->tool, u->op, u->metric,
				   *ls ? " " : "", ls, u->source, u->line);
		free(ls);
	}
	for (size_t i = 0; i < r->ntail_notes; i++)
		fmt_table_add_note(t, "tail: %s", r->tail_notes[i]);
	for (size_t i = 0; i < r->nignored; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", r->ignored[i]);
	if (sb.len)
		fmt_table_add_note(t, "left out of the match: %s", sb.buf);
	if (r->split_tests)
		fmt_table_add_note(t, "%zu test(s) matched by section too: an "
				   "input shows them under several of its "
				   "headings (--ignore section pools them)",
				   r->split_tests);
	if (r->pooled)
		fmt_table_add_note(t, "%zu measurement(s) pooled as "
				   "repetitions of a matched one", r->pooled);
	fmt_table_add_note(t, "summary: %zu regression, %zu improvement, "
			   "%zu unchanged, %zu inconclusive; %zu unmatched",
			   r->counts[VERDICT_REGRESSION],
			   r->counts[VERDICT_IMPROVEMENT],
			   r->counts[VERDICT_UNCHANGED],
			   r->counts[VERDICT_INCONCLUSIVE], r->nunmatched);
	strbuf_reset(&sb);
	for (size_t g = 0; g < r->ngeo; g++)
		if (r->geo[g].n)
			strbuf_addf(&sb, "%s%s %.3f (%zu)", sb.len ? ", " : "",
				    r->geo[g].metric, r->geo[g].value,
				    r->geo[g].n);
	if (sb.len)
		fmt_table_add_note(t, "geometric mean of ratios: %s", sb.buf);
	strbuf_release(&sb);
}

/*
 * The text table shows what tells its rows apart, and says the rest once
 * above it: the labels that are the same on every row, the tool, the
 * runs a side and the test when every row has the same.  A label is
 * shown on the rows only when it tells two rows of one tool, op and
 * metric apart that the labels before it do not (job=randread
 * rw=randread test=randread restate the op and are left out).
 */
struct text_plan {
	char **keys;		/* the labels shown on the rows, in order */
	size_t nkeys;
	struct strbuf every;	/* "fio bs=4K iodepth=16" */
	int tool, n, p, test;	/* columns shown */
};

/* "4K" for a block or file size in bytes, else the value itself. */
static void label_value(struct strbuf *sb, const char *key, const char *v)
{
	char buf[32];
	double x;

	if ((!strcmp(key, "bs") || !strcmp(key, "filesize")) &&
	    is_numeric_string(v, &x) && x >= 0)
		strbuf_adds(sb, human_size(x, buf, sizeof(buf)));
	else
		strbuf_adds(sb, v);
}

/* The row's tool, op, metric and its values of keys[0..n), as a key. */
static char *row_signature(const struct compare_row *row, char **keys,
			   size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s\037%s\037%s", row->tool, row->op, row->metric);
	for (size_t k = 0; k < n; k++) {
		const char *v = labels_get(&row->labels, keys[k]);

		strbuf_addf(&sb, "\037%c%s", v ? '=' : '-', v ? v : "");
	}
	return strbuf_detach(&sb);
}

/* A hash of row_signature() without building it. */
static uint64_t row_signature_hash(const struct compare_row *row,
				   char **keys, size_t n)
{
	const char *part[3] = { row->tool, row->op, row->metric };
	uint64_t h = HASH64_INIT;

	for (size_t i = 0; i < 3; i++)
		h = hash64(h, part[i], strlen(part[i]));
	for (size_t k = 0; k < n; k++) {
		const char *v = labels_get(&row->labels, keys[k]);

		h = v ? hash64(h, v, strlen(v)) : hash64(h, "", 0) ^ 1;
	}
	return h;
}

static int same_value(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_signature(const struct compare_row *a,
			  const struct compare_row *b, char **keys, size_t n)
{
	if (strcmp(a->tool, b->tool) || strcmp(a->op, b->op) ||
	    strcmp(a->metric, b->metric))
		return 0;
	for (size_t k = 0; k < n; k++)
		if (!same_value(labels_get(&a->labels, keys[k]),
				labels_get(&b->labels, keys[k])))
			return 0;
	return 1;
}

static int key_splits_by_strings(const struct compare_result *r, char **keys,
				 size_t n, const char *key);

/*
 * Does key tell apart two rows that keys[0..n) leave equal?  Rows are
 * met by a hash of their signature (building the strings was a second
 * of a million-row table per key); should two different signatures
 * share a hash, the strings decide.
 */
static int key_splits(const struct compare_result *r, char **keys, size_t n,
		      const char *key)
{
	struct hashmap64 seen;
	int created, splits = 0, collision = 0;

	if (r->nrows >= UINT32_MAX)
		return key_splits_by_strings(r, keys, n, key);
	hashmap64_init(&seen);
	for (size_t i = 0; !splits && !collision && i < r->nrows; i++) {
		uint64_t h = row_signature_hash(&r->rows[i], keys, n);
		uint32_t *first = hashmap64_put(&seen, h, (uint32_t)i,
						&created);
		const struct compare_row *a = &r->rows[*first];

		if (created)
			continue;
		collision = !same_signature(a, &r->rows[i], keys, n);
		splits = !collision &&
			 !same_value(labels_get(&a->labels, key),
				     labels_get(&r->rows[i].labels, key));
	}
	hashmap64_release(&seen);
	return collision ? key_splits_by_strings(r, keys, n, key) : splits;
}

static int key_splits_by_strings(const struct compare_result *r, char **keys,
				 size_t n, const char *key)
{
	struct keymap seen;
	int created, splits = 0;

	keymap_init(&seen);
	for (size_t i = 0; !splits && i < r->nrows; i++) {
		char *sig = row_signature(&r->rows[i], keys, n);
		size_t *first = keymap_put(&seen, sig, i, &created);
		const char *a, *b;

		if (!created) {
			a = labels_get(&r->rows[*first].labels, key);
			b = labels_get(&r->rows[i].labels, key);
			splits = (!a != !b) || (a && strcmp(a, b));
		}
		free(sig);
	}
	keymap_release(&seen);
	return splits;
}

/* The value of key on every row, or NULL when rows differ or lack it. */
static const char *constant_value(const struct compare_result *r,
				  const char *key)
{
	const char *v0 = labels_get(&r->rows[0].labels, key);

	for (size_t i = 1; v0 && i < r->nrows; i++) {
		const char *v = labels_get(&r->rows[i].labels, key);

		if (!v || strcmp(v, v0))
			return NULL;
	}
	return v0;
}

/* Do the two label sets have the same keys (in order: sorted)? */
static int same_keys(const struct labels *a, const struct labels *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t j = 0; j < a->n; j++)
		if (a->v[j].key != b->v[j].key &&
		    strcmp(a->v[j].key, b->v[j].key))
			return 0;
	return 1;
}

static void text_plan_init(struct text_plan *pl, const struct compare_result *r)
{
	char **all = NULL;
	size_t nall = 0;
	int created;
	struct keymap known;

	memset(pl, 0, sizeof(*pl));
	strbuf_init(&pl->every);
	keymap_init(&known);
	/* labels are sorted; rows in a run with the same keys (nearly all
	 * of a million) are passed over: each key hashed for every row was
	 * 60 ms of compare's serial text */
	for (size_t i = 0; i < r->nrows; i++) {
		if (i && same_keys(&r->rows[i].labels, &r->rows[i - 1].labels))
			continue;
		for (size_t j = 0; j < r->rows[i].labels.n; j++) {
			const char *key = r->rows[i].labels.v[j].key;

			keymap_put(&known, key, nall, &created);
			if (created) {
				all = xrealloc(all, (nall + 1) * sizeof(*all));
				all[nall++] = xstrdup(key);
			}
		}
	}
	if (nall)	/* no rows: all is NULL */
		qsort(all, nall, sizeof(*all), cmp_strp);
	for (size_t i = 1; i < r->nrows; i++) {
		const struct compare_row *a = &r->rows[0], *b = &r->rows[i];

		pl->tool |= strcmp(a->tool, b->tool) != 0;
		pl->n |= a->a.n != b->a.n || a->b.n != b->b.n;
		pl->test |= strcmp(a->test, b->test) != 0;
	}
	for (size_t i = 0; i < r->nrows; i++)
		pl->p |= !isnan(r->rows[i].p);
	if (r->nrows && !pl->tool)
		strbuf_adds(&pl->every, r->rows[0].tool);
	for (size_t k = 0; k < nall; k++) {
		const char *v = r->nrows ? constant_value(r, all[k]) : NULL;

		if (v) {
			strbuf_addf(&pl->every, "%s%s=", pl->every.len ?
				    " " : "", all[k]);
			label_value(&pl->every, all[k], v);
		} else if (key_splits(r, pl->keys, pl->nkeys, all[k])) {
			pl->keys = xrealloc(pl->keys, (pl->nkeys + 1) *
					    sizeof(*pl->keys));
			pl->keys[pl->nkeys++] = all[k];
			all[k] = NULL;
		}
	}
	free_strings(all, nall);
	keymap_release(&known);
}

static void text_plan_release(struct text_plan *pl)
{
	free_strings(pl->keys, pl->nkeys);
	strbuf_release(&pl->every);
}

/* The lines above a text table: what every row shares. */
static void text_context(const struct text_plan *pl,
			 const struct compare_result *r, struct strbuf *out)
{
	const struct compare_row *row = r->nrows ? &r->rows[0] : NULL;

	if (pl->every.len)
		strbuf_addf(out, "\nevery row: %s", pl->every.buf);
	if (row && (!pl->n || !pl->test)) {
		strbuf_adds(out, "\n");
		if (!pl->n && row->a.n == row->b.n)
			strbuf_addf(out, "runs: %zu a side", row->a.n);
		else if (!pl->n)
			strbuf_addf(out, "runs: %zu baseline, %zu candidate",
				    row->a.n, row->b.n);
		if (!pl->test && !strcmp(row->test, "none"))
			strbuf_addf(out, "%sno test", pl->n ? "" : "; ");
		else if (!pl->test)
			strbuf_addf(out, "%stest: %s", pl->n ? "" : "; ",
				    row->test);
	}
}

enum {
	TC_TOOL, TC_OP, TC_LABELS, TC_METRIC, TC_NA, TC_A, TC_NB, TC_B,
	TC_RATIO, TC_CHANGE, TC_P, TC_TEST, TC_VERDICT, TC_COUNT
};

/* Column TC_x's index in the text table (-1: not shown), by plan. */
static void text_columns(const struct text_plan *pl, struct fmt_table *t,
			 int *col)
{
	static const char *const heads[TC_COUNT] = {
		"tool", "op", "labels", "metric", "n", "baseline", "n",
		"candidate", "ratio", "change", "p", "test", "verdict",
	};
	int shown[TC_COUNT];

	for (int c = 0; c < TC_COUNT; c++)
		shown[c] = 1;
	shown[TC_TOOL] = pl->tool;
	shown[TC_LABELS] = pl->nkeys > 0;
	shown[TC_NA] = shown[TC_NB] = pl->n;
	shown[TC_P] = pl->p;
	shown[TC_TEST] = pl->test;
	for (int c = 0; c < TC_COUNT; c++)
		col[c] = !shown[c] ? -1 :
			 (int)fmt_table_add_column(t, heads[c], heads[c],
						   c >= TC_NA && c <= TC_P);
	/* to fit a terminal: the change restates the ratio, the labels
	 * wrap */
	fmt_table_set_column_flags(t, (size_t)col[TC_CHANGE],
				   FMT_COL_OPTIONAL);
	if (col[TC_LABELS] >= 0)
		fmt_table_set_column_flags(t, (size_t)col[TC_LABELS],
					   FMT_COL_WRAP);
}

static void text_cell(struct fmt_table *t, size_t r, int col,
		      const char *text)
{
	if (col >= 0)
		fmt_table_set_cell(t, r, (size_t)col, text, NULL);
}

static void text_number(struct fmt_table *t, size_t r, int col, double v,
			const char *text)
{
	if (col >= 0)
		fmt_table_set_number(t, r, (size_t)col, v, text);
}

/*
 * The labels cell of the rows that share a label set (a fio job's
 * metrics: compare_sides() gives them one) is worked out once.
 */
struct labels_cell {
	const struct label *v;
	size_t n;
	int have;
	struct strbuf text;
};

static void labels_cell(struct fmt_table *t, const struct text_plan *pl,
			size_t r, int col, const struct compare_row *row,
			struct labels_cell *memo)
{
	struct strbuf *sb = &memo->text;

	if (col < 0)
		return;
	if (!memo->have || memo->v != row->labels.v ||
	    memo->n != row->labels.n) {
		strbuf_reset(sb);
		for (size_t k = 0; k < pl->nkeys; k++) {
			const char *v = labels_get(&row->labels, pl->keys[k]);

			strbuf_addf(sb, "%s%s=", sb->len ? " " : "",
				    pl->keys[k]);
			if (v)
				label_value(sb, pl->keys[k], v);
			else
				strbuf_adds(sb, "-");
		}
		memo->have = 1;
		memo->v = row->labels.v;
		memo->n = row->labels.n;
	}
	fmt_table_set_cell(t, r, (size_t)col, strbuf_str(sb), NULL);
}

static void add_text_row(struct fmt_table *t, const struct text_plan *pl,
			 const int *col, const struct compare_row *row,
			 struct labels_cell *memo)
{
	size_t r = fmt_table_add_row(t);
	char buf[64];

	text_cell(t, r, col[TC_TOOL], row->tool);
	text_cell(t, r, col[TC_OP], row->op);
	labels_cell(t, pl, r, col[TC_LABELS], row, memo);
	text_cell(t, r, col[TC_METRIC], row->metric);
	text_number(t, r, col[TC_NA], (double)row->a.n, NULL);
	verdict_mean_text(row, row->a.mean, buf, sizeof(buf));
	text_number(t, r, col[TC_A], row->a.mean, buf);
	text_number(t, r, col[TC_NB], (double)row->b.n, NULL);
	verdict_mean_text(row, row->b.mean, buf, sizeof(buf));
	text_number(t, r, col[TC_B], row->b.mean, buf);
	verdict_figure_text(row, VF_RATIO, buf, sizeof(buf));
	text_number(t, r, col[TC_RATIO], row->ratio, buf);
	verdict_figure_text(row, VF_CHANGE, buf, sizeof(buf));
	text_number(t, r, col[TC_CHANGE], row->change_pct, buf);
	verdict_figure_text(row, VF_P, buf, sizeof(buf));
	text_number(t, r, col[TC_P], row->p, buf);
	text_cell(t, r, col[TC_TEST], row->test);
	verdict_figure_text(row, VF_VERDICT, buf, sizeof(buf));
	text_cell(t, r, col[TC_VERDICT], buf);
	fmt_table_set_style(t, r, (size_t)col[TC_VERDICT],
			    verdict_style(row->verdict));
}

/* One candidate's Markdown table: every column, the labels in full. */
static void markdown_table(const struct compare_result *res, size_t set_b,
			   const char *title, struct footnotes *fn,
			   struct fmt_table *t)
{
	fmt_table_init(t, title);
	add_columns(t);
	fmt_table_reserve_rows(t, res->nrows);
	for (size_t r = 0; r < res->nrows; r++) {
		add_row(t, &res->rows[r], NULL);
		if (fn)
			mark_row(t, r, &res->rows[r], fn, set_b, 5, 7);
	}
}

/*
 * One candidate's text table (the plan above), its rows made as they are
 * rendered (fmt_render_text_rows(): a million rows' cells were 300 MB).
 */
struct text_rows {
	const struct compare_result *res;
	struct text_plan pl;
	int col[TC_COUNT];
	struct labels_cell memo;
	struct footnotes *fn;
	size_t set_b;
};

static void make_text_row(void *arg, size_t r, struct fmt_table *one)
{
	struct text_rows *tr = arg;
	const struct compare_row *row = &tr->res->rows[r];

	add_text_row(one, &tr->pl, tr->col, row, &tr->memo);
	if (tr->fn)
		mark_row(one, 0, row, tr->fn, tr->set_b,
			 (size_t)tr->col[TC_A], (size_t)tr->col[TC_B]);
}

/*
 * Another thread's maker of rows: the same plan, columns and footnotes
 * (read only, once numbered: text_table()), a labels cell of its own.
 */
static void *clone_text_rows(void *arg)
{
	struct text_rows *c = xmalloc(sizeof(*c));

	*c = *(const struct text_rows *)arg;
	memset(&c->memo, 0, sizeof(c->memo));
	strbuf_init(&c->memo.text);
	return c;
}

static void release_text_rows(void *arg)
{
	struct text_rows *c = arg;

	strbuf_release(&c->memo.text);
	free(c);
}

/*
 * Its columns and title into t; the footnotes numbered as the rows cite
 * them (the rows made again later cite the same numbers).
 */
static void text_table(struct text_rows *tr, const struct compare_result *res,
		       size_t set_b, const char *title, struct footnotes *fn,
		       struct fmt_table *t)
{
	struct strbuf head = STRBUF_INIT;
	unsigned *nums = NULL;
	size_t alloc = 0;

	memset(tr, 0, sizeof(*tr));
	tr->res = res;
	tr->fn = fn;
	tr->set_b = set_b;
	strbuf_init(&tr->memo.text);
	text_plan_init(&tr->pl, res);
	strbuf_adds(&head, title);
	text_context(&tr->pl, res, &head);
	fmt_table_init(t, head.buf);
	text_columns(&tr->pl, t, tr->col);
	for (size_t r = 0; fn && r < res->nrows; r++) {	/* (as mark_row) */
		const struct compare_row *row = &res->rows[r];

		footnotes_cite(fn, 0, row->members[0], row->nmembers[0], &nums,
			       &alloc);
		footnotes_cite(fn, set_b, row->members[1], row->nmembers[1],
			       &nums, &alloc);
	}
	free(nums);
	strbuf_release(&head);
}

static void text_rows_release(struct text_rows *tr)
{
	text_plan_release(&tr->pl);
	strbuf_release(&tr->memo.text);
}

void compare_write_tables(enum fmt_kind kind, char *const *names,
			  const struct compare_result *res, int nres,
			  struct footnotes *fn, int color, size_t width,
			  struct strbuf *out, const struct strbuf_drain *drain)
{
	for (int i = 0; i < nres; i++) {
		char *ta = side_title(names[0], &res[i].identity_a);
		char *tb = side_title(names[i + 1], &res[i].identity_b);
		char *title = xstrfmt("baseline %s vs candidate %s", ta, tb);
		struct fmt_table t;
		struct text_rows tr;

		if (kind == FMT_TEXT)
			text_table(&tr, &res[i], (size_t)i + 1, title, fn, &t);
		else
			markdown_table(&res[i], (size_t)i + 1, title, fn, &t);
		add_summary_notes(&t, &res[i], names[0], names[i + 1]);
		if (fn)
			footnotes_to_fmt(fn, &t);
		if (i)
			strbuf_addch(out, '\n');
		if (kind == FMT_TEXT) {
			struct fmt_row_maker maker = {
				make_text_row, &tr, clone_text_rows,
				release_text_rows,
			};

			fmt_render_text_rows(&t, res[i].nrows, &maker, color,
					     width, out, drain);
			text_rows_release(&tr);
		} else {
			fmt_render(&t, kind, color, out);
		}
		if (fn)
			footnotes_restart(fn);	/* each table its own */
		strbuf_drain_if_full(out, drain);
		fmt_table_release(&t);
		free(title);
		free(ta);
		free(tb);
	}
}

/* The codes of the findings on a row's figures: "cached-read;noisy". */
static char *row_codes(struct footnotes *fn, const struct compare_row *row,
		       size_t set_b)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned *nums = NULL;
	size_t alloc = 0, n;

	n = footnotes_cite(fn, 0, row->members[0], row->nmembers[0], &nums,
			   &alloc);
	footnotes_codes(fn, nums, n, &sb);
	n = footnotes_cite(fn, set_b, row->members[1], row->nmembers[1],
			   &nums, &alloc);
	footnotes_codes(fn, nums, n, &sb);
	free(nums);
	return strbuf_detach(&sb);
}

/*
 * The contract's columns, and a trailing "findings" column only when a
 * finding touches a figure: without findings, CSV reads as it always did.
 */
void compare_write_csv(char *const *names, const struct compare_result *res,
		       int nres, struct footnotes *fn, struct strbuf *out)
{
	struct fmt_table t;
	size_t nrows = 0, k = 0;
	char **codes;
	int any = 0;

	for (int i = 0; i < nres; i++)
		nrows += res[i].nrows;
	codes = xcalloc(nrows ? nrows : 1, sizeof(*codes));
	for (int i = 0; fn && i < nres; i++)
		for (size_t r = 0; r < res[i].nrows; r++, k++) {
			codes[k] = row_codes(fn, &res[i].rows[r],
					     (size_t)i + 1);
			any |= *codes[k] != 0;
		}
	fmt_table_init(&t, NULL);
	add_columns(&t);
	if (any)
		fmt_table_add_column(&t, "findings", NULL, 0);
	k = 0;
	for (int i = 0; i < nres; i++)
		for (size_t r = 0; r < res[i].nrows; r++, k++) {
			add_row(&t, &res[i].rows[r],
				nres > 1 ? names[i + 1] : NULL);
			if (any)
				fmt_table_set_cell(&t, k, 13, codes[k], NULL);
		}
	fmt_render(&t, FMT_CSV, 0, out);
	fmt_table_release(&t);
	for (size_t i = 0; i < nrows; i++)
		free(codes[i]);
	free(codes);
}

static json_t *json_labels(const struct labels *l)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(o, l->v[i].key,
				    json_string(l->v[i].value));
	return o;
}

/* The findings on one side's figures, as storan check reports them. */
static void json_side_findings(json_t *list, struct footnotes *fn,
			       size_t set, const size_t *mi, size_t n,
			       const char *side)
{
	unsigned *nums = NULL;
	size_t alloc = 0, k = footnotes_cite(fn, set, mi, n, &nums, &alloc);

	for (size_t i = 0; i < k; i++) {
		const struct check_finding *f = footnotes_finding(fn, nums[i]);
		json_t *o = json_object();

		json_object_set_new(o, "side", json_string(side));
		fmt_json_finding(o, f->source, f->line,
				 check_severity_name(f->severity), f->code,
				 f->message);
		json_array_append_new(list, o);
	}
	free(nums);
}

static json_t *json_row(const struct compare_row *row, struct footnotes *fn,
			size_t set_b)
{
	json_t *o = json_object();

	json_object_set_new(o, "tool", json_string(row->tool));
	json_object_set_new(o, "op", json_string(row->op));
	json_object_set_new(o, "metric", json_string(row->metric));
	json_object_set_new(o, "unit", json_string(row->unit));
	json_object_set_new(o, "labels", json_labels(&row->labels));
	json_object_set_new(o, "n_a", json_integer((json_int_t)row->a.n));
	json_object_set_new(o, "mean_a", json_number_or_null(row->a.mean));
	json_object_set_new(o, "stddev_a", json_number_or_null(row->a.stddev));
	json_object_set_new(o, "n_b", json_integer((json_int_t)row->b.n));
	json_object_set_new(o, "mean_b", json_number_or_null(row->b.mean));
	json_object_set_new(o, "stddev_b", json_number_or_null(row->b.stddev));
	json_object_set_new(o, "ratio", json_number_or_null(row->ratio));
	json_object_set_new(o, "change_pct", json_number_or_null(row->change_pct));
	json_object_set_new(o, "p_value", json_number_or_null(row->p));
	json_object_set_new(o, "test", json_string(row->test));
	json_object_set_new(o, "verdict",
			    json_string(verdict_name(row->verdict)));
	json_object_set_new(o, "single_runs",
			    json_boolean(row->single_runs));
	json_object_set_new(o, "from_histogram",
			    json_boolean(row->from_histogram));
	if (fn) {
		json_t *found = json_array();

		json_side_findings(found, fn, 0, row->members[0],
				   row->nmembers[0], "baseline");
		json_side_findings(found, fn, set_b, row->members[1],
				   row->nmembers[1], "candidate");
		json_object_set_new(o, "findings", found);
	}
	return o;
}

static json_t *json_unmatched(const struct compare_unmatched *u)
{
	json_t *o = json_object();

	json_object_set_new(o, "only_in", json_string(u->in_candidate ?
						      "candidate" :
						      "baseline"));
	json_object_set_new(o, "tool", json_string(u->tool));
	json_object_set_new(o, "op", json_string(u->op));
	json_object_set_new(o, "metric", json_string(u->metric));
	json_object_set_new(o, "labels", json_labels(&u->labels));
	json_object_set_new(o, "source", json_string(u->source));
	json_object_set_new(o, "line", json_integer(u->line));
	return o;
}

static json_t *json_summary(const struct compare_result *r)
{
	json_t *o = json_object(), *geo = json_object();

	for (int v = 0; v < VERDICT_COUNT; v++)
		json_object_set_new(o, verdict_name((enum verdict)v),
				    json_integer((json_int_t)r->counts[v]));
	json_object_set_new(o, "unmatched",
			    json_integer((json_int_t)r->nunmatched));
	for (size_t g = 0; g < r->ngeo; g++)
		json_object_set_new(geo, r->geo[g].metric,
				    json_number_or_null(r->geo[g].value));
	json_object_set_new(o, "geomean_ratio", geo);
	return o;
}

static json_t *json_result(const char *name, const struct compare_result *r,
			   struct footnotes *fn, size_t set_b)
{
	json_t *o = json_object(), *v;

	json_object_set_new(o, "candidate", json_string(name));
	json_object_set_new(o, "identity_baseline",
			    json_labels(&r->identity_a));
	json_object_set_new(o, "identity_candidate",
			    json_labels(&r->identity_b));
	v = json_array();
	for (size_t i = 0; i < r->nignored; i++)
		json_array_append_new(v, json_string(r->ignored[i]));
	json_object_set_new(o, "ignored_labels", v);
	json_object_set_new(o, "split_by_section",
			    json_integer((json_int_t)r->split_tests));
	json_object_set_new(o, "compared_baseline",
			    json_integer((json_int_t)r->compared[0]));
	json_object_set_new(o, "compared_candidate",
			    json_integer((json_int_t)r->compared[1]));
	v = json_array();
	for (size_t i = 0; i < r->nrows; i++)
		json_array_append_new(v, json_row(&r->rows[i], fn, set_b));
	json_object_set_new(o, "pairs", v);
	v = json_array();
	for (size_t i = 0; i < r->nunmatched; i++)
		json_array_append_new(v, json_unmatched(&r->unmatched[i]));
	json_object_set_new(o, "unmatched", v);
	v = json_array();
	for (size_t i = 0; i < r->ntail_notes; i++)
		json_array_append_new(v, json_string(r->tail_notes[i]));
	json_object_set_new(o, "tail_notes", v);
	json_object_set_new(o, "summary", json_summary(r));
	return o;
}

void compare_write_json(const struct compare_options *opt,
			char *const *names, const struct compare_result *res,
			int nres, struct footnotes *fn, struct strbuf *out)
{
	json_t *doc = json_object(), *list = json_array();

	json_object_set_new(doc, "baseline", json_string(names[0]));
	json_object_set_new(doc, "threshold_pct", json_real(opt->threshold));
	json_object_set_new(doc, "alpha", json_real(opt->alpha));
	for (int i = 0; i < nres; i++)
		json_array_append_new(list, json_result(names[i + 1],
							&res[i], fn,
							(size_t)i + 1));
	json_object_set_new(doc, "comparisons", list);
	json_dump_to(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
		     JSON_REAL_PRECISION(15), 1, out);
}
