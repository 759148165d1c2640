/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The steady-state verdict of every series of a result set, as a CSV
 * table (storan export --steady) and in words: "steady from 212 s,
 * 41.2k IOPS ± 2%".  One row per measurement that has a series the rule
 * applies to (a rule named for iops, bw or lat applies to those metrics
 * only, as fio's ss=iops:... looks at IOPS only).
 */
#include "steady.h"
#include "steady-table.h"
#include "../core/human.h"
#include "../core/rs-csv.h"
#include "../core/series.h"
#include "../core/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int steady_applies(const struct steady_rule *r, const struct measurement *m)
{
	const char *dot;

	if (!m->series || !m->series->n)
		return 0;
	if (!r->metric[0])
		return 1;
	if (!strcmp(r->metric, "lat"))	/* lat.mean, clat.p99... */
		return (dot = strstr(m->metric, "lat")) &&
		       (dot == m->metric || dot[-1] == 'c' || dot[-1] == 's');
	return !strcmp(m->metric, r->metric);
}

void steady_words(const struct measurement *m,
		  const struct steady_result *res, struct strbuf *out)
{
	struct display_unit u;
	char num[32], value[64];

	display_unit_auto(m->unit, res->mean, 0, &u);
	human_format(res->mean, &u, num, sizeof(num));
	snprintf(value, sizeof(value), "%s %s", num, u.name);
	steady_describe(res, value, out);
}

static const char *verdict(const struct steady_result *res)
{
	return res->steady ? "steady" : res->short_run ? "too-short" :
	       "never";
}

void steady_table_csv(const struct result_set *rs,
		      const struct steady_rule *r, const char *rule_text,
		      struct strbuf *out)
{
	struct strbuf words = STRBUF_INIT;

	strbuf_adds(out, STEADY_CSV_HEADER "\n");
	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];
		struct steady_result res;

		if (!steady_applies(r, m))
			continue;
		steady_find(m->series, r, &res);
		strbuf_reset(&words);
		steady_words(m, &res, &words);
		rs_csv_add_id(out, m);
		strbuf_addch(out, ',');
		strbuf_add_csv(out, labels_joined(&m->labels));
		strbuf_addch(out, ',');
		strbuf_add_csv(out, rule_text);
		strbuf_addch(out, ',');
		strbuf_adds(out, verdict(&res));
		strbuf_add_csv_number(out, res.steady ? res.t_from : NAN);
		strbuf_add_csv_number(out, res.steady ? res.mean : NAN);
		strbuf_add_csv_number(out, res.steady ? res.spread_pct : NAN);
		strbuf_add_csv_number(out, res.criterion);
		strbuf_add_csv_number(out, (double)res.window);
		strbuf_addch(out, ',');
		strbuf_add_csv(out, words.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&words);
}

size_t steady_keep_part(struct result_set *rs, const struct steady_rule *r,
			struct diag_list *notes)
{
	size_t cut = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct measurement *m = &rs->m[i];
		const struct series *s = m->series;
		struct steady_result res;

		if (!steady_applies(r, m))
			continue;
		steady_find(s, r, &res);
		if (!res.steady) {
			diag_add(notes, DIAG_NOTE, m->source_name, m->line,
				 "%s %s: %s; compared whole", m->op, m->metric,
				 res.short_run ? "too short for a steady-state "
				 "window" : "never steady");
			continue;
		}
		/* the log is still one run: its figure becomes the mean of
		 * its steady part, n stays 1 */
		m->n = 0;
		measurement_drop_summary(m);
		measurement_add_value(m, res.mean);
		cut++;
	}
	return cut;
}
