/* A comparison's verdicts on a report page; see verdicts.h. */
#include "verdicts.h"
#include "../core/human.h"
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

static int shown(const struct compare_row *row, int headline_only)
{
	return !headline_only || verdicts_headline_metric(row->metric);
}

const struct compare_row *verdicts_row(const struct compare_result *r,
				       int headline_only, size_t row)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (shown(&r->rows[i], headline_only) && !row--)
			return &r->rows[i];
	return NULL;
}

/* Does label key take two values (or a value and none) among the rows? */
static int key_varies(const struct compare_result *r, int headline_only,
		      const char *key)
{
	const char *first = NULL;
	int seen = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const char *v;

		if (!shown(&r->rows[i], headline_only))
			continue;
		v = labels_get(&r->rows[i].labels, key);
		if (!seen++)
			first = v;
		else if (!v != !first || (v && strcmp(v, first)))
			return 1;
	}
	return 0;
}

static int tools_vary(const struct compare_result *r)
{
	for (size_t i = 1; i < r->nrows; i++)
		if (strcmp(r->rows[i].tool, r->rows[0].tool))
			return 1;
	return 0;
}

/* "fio randread bs=4K iodepth=32": what tells the row apart. */
static char *test_text(const struct compare_result *r, int headline_only,
		       const struct compare_row *row)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];
	double v;

	if (tools_vary(r))
		strbuf_addf(&sb, "%s ", row->tool);
	strbuf_adds(&sb, row->op);
	for (size_t j = 0; j < row->labels.n; j++) {
		const struct label *l = &row->labels.v[j];

		if (!key_varies(r, headline_only, l->key))
			continue;
		if (!strcmp(l->key, "bs") && is_numeric_string(l->value, &v))
			strbuf_addf(&sb, " bs=%s", human_size(v, buf,
							       sizeof(buf)));
		else
			strbuf_addf(&sb, " %s=%s", l->key, l->value);
	}
	return strbuf_detach(&sb);
}

/* "148 MB/s (n=3)": a mean in a unit that suits both sides. */
static void mean_text(const struct compare_row *row, const struct stats *st,
		      char *buf, size_t size)
{
	struct display_unit u;
	char num[48];

	display_unit_auto(row->unit, fmin(fabs(row->a.mean),
					  fabs(row->b.mean)), 0, &u);
	human_format(st->mean, &u, num, sizeof(num));
	snprintf(buf, size, "%s %s (n=%zu)", num, u.name, st->n);
}

static enum fmt_style verdict_style(enum verdict v)
{
	return v == VERDICT_IMPROVEMENT ? FMT_GOOD :
	       v == VERDICT_REGRESSION ? FMT_BAD :
	       v == VERDICT_INCONCLUSIVE ? FMT_WARN : FMT_PLAIN;
}

void verdicts_table(const struct compare_result *r, const char *name_a,
		    const char *name_b, int headline_only,
		    struct fmt_table *t)
{
	char *title = xstrfmt("%s against %s (baseline)", name_b, name_a);
	char *ha = xstrfmt("%s (baseline)", name_a);
	char buf[96];

	fmt_table_init(t, title);
	fmt_table_add_column(t, "test", "test", 0);
	fmt_table_add_column(t, "metric", "metric", 0);
	fmt_table_add_column(t, "baseline", ha, 1);
	fmt_table_add_column(t, "candidate", name_b, 1);
	fmt_table_add_column(t, "ratio", "ratio", 1);
	fmt_table_add_column(t, "change", "change", 1);
	fmt_table_add_column(t, "p", "p", 1);
	fmt_table_add_column(t, "verdict", "verdict", 0);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];
		char *test;
		size_t k;

		if (!shown(row, headline_only))
			continue;
		k = fmt_table_add_row(t);
		test = test_text(r, headline_only, row);
		fmt_table_set_cell(t, k, 0, test, NULL);
		free(test);
		fmt_table_set_cell(t, k, 1, row->metric, NULL);
		mean_text(row, &row->a, buf, sizeof(buf));
		fmt_table_set_number(t, k, 2, row->a.mean, buf);
		mean_text(row, &row->b, buf, sizeof(buf));
		fmt_table_set_number(t, k, 3, row->b.mean, buf);
		snprintf(buf, sizeof(buf), "%.3f", row->ratio);
		fmt_table_set_number(t, k, 4, row->ratio, buf);
		snprintf(buf, sizeof(buf), "%+.1f%%", row->change_pct);
		fmt_table_set_number(t, k, 5, row->change_pct, buf);
		snprintf(buf, sizeof(buf), row->p < 0.001 ? "<0.001" : "%.3f",
			 row->p);
		fmt_table_set_number(t, k, 6, row->p, buf);
		snprintf(buf, sizeof(buf), "%s%s", verdict_name(row->verdict),
			 row->single_runs ? " *" : "");
		fmt_table_set_cell(t, k, 7, buf, verdict_name(row->verdict));
		fmt_table_set_style(t, k, 7, verdict_style(row->verdict));
	}
	if (r->single_runs)
		fmt_table_add_note(t, "* single runs: the threshold alone "
				   "decides, no significance test is "
				   "possible");
	free(ha);
	free(title);
}

void verdicts_summary(const struct compare_result *r, struct strbuf *out)
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
	size_t shown_n = 0;

	for (size_t i = 0; i < 4; i++) {
		size_t n = r->counts[words[i].v];

		if (!n)
			continue;
		strbuf_addf(out, "%s%zu %s", shown_n++ ? ", " : "", n,
			    n == 1 ? words[i].one : words[i].many);
	}
	if (!shown_n)
		strbuf_adds(out, "nothing matched");
	strbuf_addf(out, " (%zu figure%s compared", r->nrows,
		    r->nrows == 1 ? "" : "s");
	if (r->nunmatched)
		strbuf_addf(out, ", %zu without a partner", r->nunmatched);
	strbuf_addch(out, ')');
}

void verdicts_geomeans(const struct compare_result *r, struct strbuf *out)
{
	size_t shown_n = 0;

	for (size_t g = 0; g < r->ngeo; g++) {
		if (!r->geo[g].n || !verdicts_headline_metric(r->geo[g].metric))
			continue;
		strbuf_addf(out, "%s%s \xc3\x97%.3f over %zu test%s",
			    shown_n++ ? "; " : "", r->geo[g].metric,
			    r->geo[g].value, r->geo[g].n,
			    r->geo[g].n == 1 ? "" : "s");
	}
}
