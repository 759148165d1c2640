/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A comparison's verdicts on a report page; see verdicts.h. */
#include "verdicts.h"
#include "../core/human.h"
#include "../core/keymap.h"
#include "../core/numfmt.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int verdicts_headline_metric(const char *metric)
{
	size_t len = strlen(metric);

	return !strcmp(metric, "bw") || !strcmp(metric, "iops") ||
	       !strcmp(metric, "lat.mean") || !strcmp(metric, "clat.mean") ||
	       !strcmp(metric, "time.real") ||
	       (len > 4 && !strcmp(metric + len - 4, ".p99"));
}

/*
 * The rows a table shows: all, or the headline metrics -- less IOPS of a
 * tool whose throughput is there too (at one block size the two ratios
 * are the same number: a second row, chart and mean that say nothing).
 */
struct shown {
	int headline_only;
	struct keymap bw_tools;		/* tools with a bw row */
};

static void shown_init(struct shown *sh, const struct compare_result *r,
		       int headline_only)
{
	int created;

	sh->headline_only = headline_only;
	keymap_init(&sh->bw_tools);
	for (size_t i = 0; headline_only && i < r->nrows; i++)
		if (!strcmp(r->rows[i].metric, "bw"))
			keymap_put(&sh->bw_tools, r->rows[i].tool, 0,
				   &created);
}

static int shown(const struct shown *sh, const struct compare_row *row)
{
	if (!sh->headline_only)
		return 1;
	if (!strcmp(row->metric, "iops") &&
	    keymap_get(&sh->bw_tools, row->tool))
		return 0;
	return verdicts_headline_metric(row->metric);
}

static void shown_release(struct shown *sh)
{
	keymap_release(&sh->bw_tools);
}

/*
 * The label keys that take two values (or a value and none) among the
 * rows shown, and whether the tools do: what a row's test text needs to
 * tell it apart.  One pass over the rows.
 */
struct varying {
	struct keymap keys;	/* key -> index into first[] */
	const char **name;	/* per key */
	const char **first;	/* the first value seen, per key */
	size_t *count;		/* rows that have the key */
	int *varies;
	size_t n, alloc;
	int tools;
};

static void varying_add(struct varying *vy, const struct label *l,
			size_t rows_before)
{
	int created;
	size_t *slot = keymap_put(&vy->keys, l->key, vy->n, &created);

	if (created) {
		ALLOC_GROW(vy->first, vy->n + 1, vy->alloc);
		vy->name = xrealloc(vy->name, vy->alloc * sizeof(*vy->name));
		vy->name[vy->n] = l->key;
		vy->count = xrealloc(vy->count, vy->alloc * sizeof(*vy->count));
		vy->varies = xrealloc(vy->varies,
				      vy->alloc * sizeof(*vy->varies));
		vy->first[vy->n] = l->value;
		vy->count[vy->n] = 0;
		vy->varies[vy->n] = rows_before > 0;	/* absent before */
		vy->n++;
	} else if (strcmp(vy->first[*slot], l->value)) {
		vy->varies[*slot] = 1;
	}
	vy->count[*slot]++;
}

static int same_value(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Does key k tell apart rows the text so far (sig[]) does not?  Rows
 * with one text are paired with the first row of that text. */
static int separates(const struct varying *vy, size_t k,
		     const struct compare_result *r, const struct shown *sh,
		     struct strbuf *sig)
{
	struct keymap first;
	int created, split = 0;

	keymap_init(&first);
	for (size_t i = 0; i < r->nrows && !split; i++) {
		size_t *at;

		if (!shown(sh, &r->rows[i]))
			continue;
		at = keymap_put(&first, strbuf_str(&sig[i]), i, &created);
		split = !created &&
			!same_value(labels_get(&r->rows[*at].labels,
					       vy->name[k]),
				    labels_get(&r->rows[i].labels, vy->name[k]));
	}
	keymap_release(&first);
	return split;
}

/*
 * A key that varies only along with what the text already says tells no
 * row apart: fio's group number, one per job when each op is a job of
 * its own, made "randread group=0" and "randwrite group=1".  Keys are
 * taken in order, each kept only where it splits rows the tool, the op
 * and the keys kept before it leave together.
 */
static void drop_redundant(struct varying *vy, const struct compare_result *r,
			   const struct shown *sh)
{
	struct strbuf *sig = xcalloc(r->nrows ? r->nrows : 1, sizeof(*sig));

	for (size_t i = 0; i < r->nrows; i++)
		strbuf_addf(&sig[i], "%s\x1f%s", r->rows[i].tool,
			    r->rows[i].op);
	for (size_t k = 0; k < vy->n; k++) {
		if (!vy->varies[k])
			continue;
		if (!separates(vy, k, r, sh, sig)) {
			vy->varies[k] = 0;
			continue;
		}
		for (size_t i = 0; i < r->nrows; i++) {
			const char *v = labels_get(&r->rows[i].labels,
						   vy->name[k]);

			strbuf_addf(&sig[i], "\x1f%s", v ? v : "\x1e");
		}
	}
	for (size_t i = 0; i < r->nrows; i++)
		strbuf_release(&sig[i]);
	free(sig);
}

static void varying_build(struct varying *vy, const struct compare_result *r,
			  int headline_only)
{
	const char *tool = NULL;
	size_t rows = 0;
	struct shown sh;

	memset(vy, 0, sizeof(*vy));
	keymap_init(&vy->keys);
	shown_init(&sh, r, headline_only);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];

		if (!shown(&sh, row))
			continue;
		if (!tool)
			tool = row->tool;
		else if (strcmp(tool, row->tool))
			vy->tools = 1;
		for (size_t j = 0; j < row->labels.n; j++)
			varying_add(vy, &row->labels.v[j], rows);
		rows++;
	}
	for (size_t k = 0; k < vy->n; k++)
		vy->varies[k] |= vy->count[k] != rows;
	drop_redundant(vy, r, &sh);
	shown_release(&sh);
}

static int varying_key(const struct varying *vy, const char *key)
{
	const size_t *slot = keymap_get(&vy->keys, key);

	return slot && vy->varies[*slot];
}

static void varying_release(struct varying *vy)
{
	keymap_release(&vy->keys);
	free(vy->name);
	free(vy->first);
	free(vy->count);
	free(vy->varies);
}

/* Does the text so far say value already ("randread job=randread
 * rw=randread test=randread" says randread once)? */
static int says_again(const struct strbuf *sb, const char *value)
{
	size_t len = strlen(value);

	for (const char *p = sb->buf; p && (p = strstr(p, value)); p++) {
		int starts = p == sb->buf || p[-1] == ' ' || p[-1] == '=';
		int ends = p[len] == '\0' || p[len] == ' ';

		if (starts && ends)
			return 1;
	}
	return 0;
}

/* "fio randread bs=4K iodepth=32": what tells the row apart, each
 * value once. */
static char *test_text(const struct varying *vy,
		       const struct compare_row *row)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];
	double v;

	if (vy->tools)
		strbuf_addf(&sb, "%s ", row->tool);
	strbuf_adds(&sb, row->op);
	for (size_t j = 0; j < row->labels.n; j++) {
		const struct label *l = &row->labels.v[j];

		if (!varying_key(vy, l->key) || says_again(&sb, l->value))
			continue;
		if (!strcmp(l->key, "bs") && is_numeric_string(l->value, &v))
			strbuf_addf(&sb, " bs=%s", human_size(v, buf,
							       sizeof(buf)));
		else
			strbuf_addf(&sb, " %s=%s", l->key, l->value);
	}
	return strbuf_detach(&sb);
}

/*
 * How much a row says: a verdict of change first, then an inconclusive
 * one, then unchanged; within each, the larger change (on a log scale,
 * so that halving counts as much as doubling).
 */
static double row_weight(const struct compare_row *row)
{
	double size = isfinite(row->ratio) && row->ratio > 0 ?
		      fabs(log(row->ratio)) : 0;
	int rank = row->verdict == VERDICT_REGRESSION ||
		   row->verdict == VERDICT_IMPROVEMENT ? 2 :
		   row->verdict == VERDICT_INCONCLUSIVE ? 1 : 0;

	return rank * 1000.0 + (size < 999 ? size : 999);
}

struct weighted {
	double w;
	size_t i;
};

static int by_weight_desc(const void *a, const void *b)
{
	const struct weighted *x = a, *y = b;

	if (x->w < y->w)
		return 1;
	if (x->w > y->w)
		return -1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int by_index(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

size_t verdicts_pick(const struct compare_result *r, int headline_only,
		     size_t max, size_t *rows, size_t *nshown)
{
	struct weighted *w = xmalloc((r->nrows + 1) * sizeof(*w));
	size_t n = 0;
	struct shown sh;

	shown_init(&sh, r, headline_only);
	for (size_t i = 0; i < r->nrows; i++)
		if (shown(&sh, &r->rows[i]))
			w[n++] = (struct weighted){ row_weight(&r->rows[i]), i };
	*nshown = n;
	if (max && n > max) {
		qsort(w, n, sizeof(*w), by_weight_desc);
		n = max;
	}
	for (size_t j = 0; j < n; j++)
		rows[j] = w[j].i;
	qsort(rows, n, sizeof(*rows), by_index);
	shown_release(&sh);
	free(w);
	return n;
}

/* "a b" into buf, cut to size as snprintf would (a million rows'
 * figures went through printf's format parser). */
static void join_words(char *buf, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + 1 + lb < size) {
		memcpy(buf, a, la);
		buf[la] = ' ';
		memcpy(buf + la + 1, b, lb + 1);
	} else {
		snprintf(buf, size, "%s %s", a, b);
	}
}

void verdict_mean_text(const struct compare_row *row, double v, char *buf,
		       size_t size)
{
	struct display_unit u;
	char num[48];

	display_unit_auto(row->unit, fmin(fabs(row->a.mean),
					  fabs(row->b.mean)), 0, &u);
	human_format(v, &u, num, sizeof(num));
	join_words(buf, size, num, u.name);
}

/* "148 MB/s (n=3)": a side's mean, and its runs. */
static void mean_text(const struct compare_row *row,
		      const struct compare_side *st, char *buf, size_t size)
{
	char m[80];

	verdict_mean_text(row, st->mean, m, sizeof(m));
	snprintf(buf, size, "%s (n=%zu)", m, st->n);
}

void verdict_figure_text(const struct compare_row *row,
			 enum verdict_figure f, char *buf, size_t size)
{
	switch (f) {
	case VF_RATIO:
		format_fixed(buf, size, row->ratio, 3, 0);
		break;
	case VF_CHANGE:
		if ((size_t)format_fixed(buf, size, row->change_pct, 1, 1) + 1 <
		    size)
			strcat(buf, "%");
		break;
	case VF_P:
		if (row->p < 0.001)
			snprintf(buf, size, "<0.001");
		else
			format_fixed(buf, size, row->p, 3, 0);
		break;
	case VF_VERDICT:
		snprintf(buf, size, "%s%s", verdict_name(row->verdict),
			 row->single_runs ? " *" : "");
		break;
	}
}

enum fmt_style verdict_style(enum verdict v)
{
	return v == VERDICT_IMPROVEMENT ? FMT_GOOD :
	       v == VERDICT_REGRESSION ? FMT_BAD :
	       v == VERDICT_INCONCLUSIVE ? FMT_WARN : FMT_PLAIN;
}

void verdict_cells(struct fmt_table *t, size_t r, size_t col,
		   size_t verdict_col, const struct compare_row *row)
{
	char buf[64];

	verdict_figure_text(row, VF_RATIO, buf, sizeof(buf));
	fmt_table_set_number(t, r, col, row->ratio, buf);
	verdict_figure_text(row, VF_CHANGE, buf, sizeof(buf));
	fmt_table_set_number(t, r, col + 1, row->change_pct, buf);
	verdict_figure_text(row, VF_P, buf, sizeof(buf));
	fmt_table_set_number(t, r, col + 2, row->p, buf);
	verdict_figure_text(row, VF_VERDICT, buf, sizeof(buf));
	fmt_table_set_cell(t, r, verdict_col, buf, verdict_name(row->verdict));
	fmt_table_set_style(t, r, verdict_col, verdict_style(row->verdict));
}

void verdicts_table(const struct compare_result *r, int headline_only,
		    const size_t *rows, size_t nrows, const char *name_a,
		    const char *name_b, struct fmt_table *t)
{
	char *title = xstrfmt("%s against %s (baseline)", name_b, name_a);
	char *ha = xstrfmt("%s (baseline)", name_a);
	char buf[96];
	struct varying vy;

	varying_build(&vy, r, headline_only);
	fmt_table_init(t, title);
	fmt_table_add_column(t, "test", "test", 0);
	fmt_table_add_column(t, "metric", "metric", 0);
	fmt_table_add_column(t, "baseline", ha, 1);
	fmt_table_add_column(t, "candidate", name_b, 1);
	fmt_table_add_column(t, "ratio", "ratio", 1);
	fmt_table_add_column(t, "change", "change", 1);
	fmt_table_add_column(t, "p", "p", 1);
	fmt_table_add_column(t, "verdict", "verdict", 0);
	for (size_t i = 0; i < nrows; i++) {
		const struct compare_row *row = &r->rows[rows[i]];
		char *test;
		size_t k;

		k = fmt_table_add_row(t);
		test = test_text(&vy, row);
		fmt_table_set_cell(t, k, 0, test, NULL);
		free(test);
		fmt_table_set_cell(t, k, 1, row->metric, NULL);
		mean_text(row, &row->a, buf, sizeof(buf));
		fmt_table_set_number(t, k, 2, row->a.mean, buf);
		mean_text(row, &row->b, buf, sizeof(buf));
		fmt_table_set_number(t, k, 3, row->b.mean, buf);
		verdict_cells(t, k, 4, 7, row);
	}
	if (r->single_runs)
		fmt_table_add_note(t, "* single runs: the threshold alone "
				   "decides, no significance test is "
				   "possible");
	varying_release(&vy);
	free(ha);
	free(title);
}

void verdicts_summary(const struct compare_result *r, int headline_only,
		      struct strbuf *out)
{
	static const struct {
		enum verdict v;
		const char *one, *many;
	} words[] = {
		{ VERDICT_REGRESSION, "regression", "regressions" },
		{ VERDICT_IMPROVEMENT, "improvement", "improvements" },
		{ VERDICT_UNCHANGED, "unchanged", "unchanged" },
		{ VERDICT_INCONCLUSIVE, "inconclusive", "inconclusive" },
	};
	size_t counts[VERDICT_COUNT] = { 0 }, shown_n = 0, rows = 0;
	struct shown sh;

	shown_init(&sh, r, headline_only);
	for (size_t i = 0; i < r->nrows; i++)
		if (shown(&sh, &r->rows[i])) {
			counts[r->rows[i].verdict]++;
			rows++;
		}
	for (size_t i = 0; i < 4; i++) {
		size_t n = counts[words[i].v];

		if (!n)
			continue;
		strbuf_addf(out, "%s%zu %s", shown_n++ ? ", " : "", n,
			    n == 1 ? words[i].one : words[i].many);
	}
	if (!shown_n)
		strbuf_adds(out, "nothing matched");
	strbuf_addf(out, " (%zu %sfigure%s compared", rows,
		    headline_only ? "headline " : "", rows == 1 ? "" : "s");
	if (headline_only && rows < r->nrows)
		strbuf_addf(out, "; %zu in all, the workbook's Verdicts sheet",
			    r->nrows);
	if (r->nunmatched)
		strbuf_addf(out, ", %zu without a partner", r->nunmatched);
	strbuf_addch(out, ')');
	shown_release(&sh);
}

/* The geometric mean of the ratios of the headline rows of metric
 * (and op, unless NULL), as compare computes it: over finite ratios
 * above zero.  Returns how many there were. */
static size_t geomean_of(const struct compare_result *r,
			 const struct shown *sh, const char *metric,
			 const char *op, double *value)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];

		if (!shown(sh, row) || strcmp(row->metric, metric) ||
		    (op && strcmp(row->op, op)) || !isfinite(row->ratio) ||
		    !(row->ratio > 0))
			continue;
		sum += log(row->ratio);
		n++;
	}
	*value = n ? exp(sum / (double)n) : NAN;
	return n;
}

/*
 * Per headline metric, and per op where a few ops were compared (reads
 * twice as slow and writes five times as fast are no "x1.5"): "bw:
 * randread x0.420, randwrite x5.518".
 */
void verdicts_geomeans(const struct compare_result *r, struct strbuf *out)
{
	const char *ops[4];
	size_t nops = 0, shown_n = 0;
	struct shown sh;
	double v;

	shown_init(&sh, r, 1);
	for (size_t i = 0; i < r->nrows && nops <= 4; i++) {
		size_t j;

		if (!shown(&sh, &r->rows[i]))
			continue;
		for (j = 0; j < nops && strcmp(ops[j], r->rows[i].op); j++)
			;
		if (j == nops && nops++ < 4)
			ops[j] = r->rows[i].op;
	}
	for (size_t g = 0; g < r->ngeo; g++) {
		const char *metric = r->geo[g].metric;
		size_t n;

		if (!geomean_of(r, &sh, metric, NULL, &v))
			continue;
		strbuf_addf(out, "%s%s", shown_n++ ? "; " : "", metric);
		if (nops < 2 || nops > 4) {
			n = geomean_of(r, &sh, metric, NULL, &v);
			strbuf_addf(out, " \xc3\x97%.3f over %zu test%s", v, n,
				    n == 1 ? "" : "s");
			continue;
		}
		strbuf_addch(out, ':');
		for (size_t o = 0, k = 0; o < nops; o++) {
			n = geomean_of(r, &sh, metric, ops[o], &v);
			if (n)
				strbuf_addf(out, "%s %s \xc3\x97%.3f (%zu "
					    "test%s)", k++ ? "," : "", ops[o],
					    v, n, n == 1 ? "" : "s");
		}
	}
	shown_release(&sh);
}
