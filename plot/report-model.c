/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A report as data: made, released, its notes and inputs; see
 * report-model.h.
 */
#include "report-model.h"
#include "xlsx-data.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct report_chart *rc = &r->charts[i];

		free(rc->name);
		chart_release(&rc->chart);
		fmt_table_release(&rc->table);
		free(rc->marks);
	}
	for (size_t i = 0; i < r->nverdicts; i++) {
		compare_result_release(&r->verdicts[i].res);
		fmt_table_release(&r->verdicts[i].table);
		fmt_table_release(&r->verdicts[i].all);
		free(r->verdicts[i].summary);
		free(r->verdicts[i].geomeans);
	}
	if (r->has_factors)
		fmt_table_release(&r->factors);
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	plan_release(&r->plan);
	if (r->data)
		xlsx_data_release(r->data);
	free(r->data);
	free(r->verdicts);
	free(r->charts);
	free(r->notes);
	free(r->title);
	report_init(r);
}

void report_start_data(struct report *r, const struct result_set *rs)
{
	r->data = xmalloc(sizeof(*r->data));
	xlsx_data_start(r->data, rs);
}

int report_source_nameless(const struct source *s)
{
	return !*s->sha256 && !(s->name && *s->name);
}

void report_add_counts(const struct report *r, struct strbuf *sb)
{
	size_t named = 0;

	for (size_t k = 0; k < r->rs->nsources; k++)
		named += !report_source_nameless(&r->rs->sources[k]);
	strbuf_addf(sb, "%zu measurement%s", r->rs->n,
		    r->rs->n == 1 ? "" : "s");
	if (named)	/* (nameless sources: none to count) */
		strbuf_addf(sb, " from %zu source%s", named,
			    named == 1 ? "" : "s");
	strbuf_addf(sb, "; made by storan %s.", STORAN_VERSION);
}

int report_source_listed(const struct report *r, const struct source *s)
{
	if (!*s->sha256)
		return !report_source_nameless(s);
	for (int i = 0; i < r->ninputs; i++)
		if (!strcmp(r->inputs[i].sha256, s->sha256))
			return 0;
	return 1;
}

const char *report_input_format(const struct report *r, int i)
{
	const char *sha = r->inputs[i].sha256;

	for (size_t k = 0; *sha && k < r->rs->nsources; k++)
		if (!strcmp(r->rs->sources[k].sha256, sha) &&
		    r->rs->sources[k].format)
			return r->rs->sources[k].format;
	return r->inputs[i].binary ? "result set (binary)" : "result set";
}

const char *report_sha_text(const char *sha256)
{
	return *sha256 ? sha256 : "\xe2\x80\x94";
}

void report_add_note(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ALLOC_GROW(r->notes, r->nnotes + 1, r->notes_alloc);
	r->notes[r->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}
