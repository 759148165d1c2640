/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.md: the report as Markdown, ready to paste into a blog post, in
 * the page's order (plot/html.c): what was compared and the verdicts
 * first, the caveats (storan check's findings, each once, by code), then
 * a heading per chart with its PNG (charts/NN-name.png) and its table,
 * notes and inputs.  Names and messages go through fmt_md_escape()
 * (analysis/format.h).
 */
#include "writers.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void md_table(struct strbuf *sb, const struct fmt_table *t)
{
	fmt_render(t, FMT_MD, 0, sb);
	strbuf_addch(sb, '\n');
}

static void md_sources(struct strbuf *sb, const struct report *r)
{
	const struct result_set *rs = r->rs;

	strbuf_adds(sb, "## Inputs\n\n| Input | Format | sha256 |\n"
		    "|---|---|---|\n");
	for (int i = 0; i < r->ninputs; i++) {
		strbuf_adds(sb, "| ");
		fmt_md_escape(sb, r->inputs[i].name);
		strbuf_adds(sb, " | ");
		fmt_md_escape(sb, report_input_format(r, i));
		strbuf_addf(sb, " | `%s` |\n",
			    report_sha_text(r->inputs[i].sha256));
	}
	for (size_t i = 0; i < rs->nsources; i++) {
		const struct source *s = &rs->sources[i];

		if (!report_source_listed(r, s))
			continue;
		strbuf_adds(sb, "| ");
		fmt_md_escape(sb, s->name);
		strbuf_adds(sb, " | ");
		fmt_md_escape(sb, s->format ? s->format : "");
		strbuf_addf(sb, " | `%s` |\n", report_sha_text(s->sha256));
	}
	strbuf_addch(sb, '\n');
}

static void md_verdicts(struct strbuf *sb, const struct report *r)
{
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct report_verdicts *v = &r->verdicts[i];

		strbuf_adds(sb, "## ");
		fmt_md_escape(sb, r->plan.side_names[v->side]);
		strbuf_adds(sb, " against ");
		fmt_md_escape(sb, r->plan.side_names[0]);
		strbuf_adds(sb, "\n\n**");
		fmt_md_escape(sb, v->summary);
		strbuf_adds(sb, "**\n\n");
		if (*v->geomeans) {
			strbuf_adds(sb, "Geometric mean of the ratios "
				    "(candidate / baseline): ");
			fmt_md_escape(sb, v->geomeans);
			strbuf_adds(sb, ".\n\n");
		}
		if (v->table.nrows)
			md_table(sb, &v->table);
	}
}

/* Each code once: its count, its first finding, then the others. */
static void md_caveats(struct strbuf *sb, const struct report *r)
{
	const struct check_list *l = r->findings;

	if (!l || !l->n)
		return;
	strbuf_adds(sb, "## Caveats\n\nWhat storan check finds implausible "
		    "or fragile in these figures; a cell marked "
		    FMT_NOTE_MARK "N cites finding N.\n\n");
	for (size_t i = 0; i < l->n; i++) {
		size_t j, n = 0;

		for (j = 0; j < i && strcmp(l->v[j].code, l->v[i].code); j++)
			;
		if (j < i)
			continue;
		{
			struct strbuf places = STRBUF_INIT;

			n = check_code_places(l, l->v[i].code, &places);
			strbuf_addf(sb, "- **%s** (%zu): ", l->v[i].code, n);
			fmt_md_escape(sb, places.buf);
			strbuf_release(&places);
		}
		strbuf_adds(sb, n > 1 ? ". The first: " : ". ");
		fmt_md_escape(sb, l->v[i].message);
		strbuf_addch(sb, '\n');
	}
	for (unsigned k = 1; r->fn && k <= r->fn->ncited; k++) {
		const struct check_finding *f = footnotes_finding(r->fn, k);

		strbuf_addf(sb, "%s" FMT_NOTE_MARK "%u `%s` ", k == 1 ?
			    "\n" : "", k, f->code);
		fmt_md_escape(sb, f->source);
		strbuf_addf(sb, ":%u: ", f->line);
		fmt_md_escape(sb, f->message);
		strbuf_adds(sb, "  \n");
	}
	strbuf_addch(sb, '\n');
}

void report_write_markdown(const struct report *r, struct strbuf *sb)
{
	strbuf_adds(sb, "# ");
	fmt_md_escape(sb, r->title);
	strbuf_adds(sb, "\n\n");
	if (r->plan.nsides > 1) {
		strbuf_adds(sb, "Compared: ");
		for (size_t s = 0; s < r->plan.nsides; s++) {
			if (s)
				strbuf_adds(sb, s + 1 == r->plan.nsides ?
					    " and " : ", ");
			strbuf_adds(sb, "**");
			fmt_md_escape(sb, r->plan.side_names[s]);
			strbuf_adds(sb, s ? "**" : "** (baseline)");
		}
		strbuf_adds(sb, ". ");
	}
	report_add_counts(r, sb);
	strbuf_adds(sb, "\n\n");
	if (r->lead) {
		fmt_render(r->lead, FMT_MD, 0, sb);
		strbuf_addch(sb, '\n');
	}
	md_verdicts(sb, r);
	if (r->has_factors)
		md_table(sb, &r->factors);
	md_caveats(sb, r);
	for (size_t i = 0; i < r->n; i++) {
		const struct chart *c = &r->charts[i].chart;

		strbuf_addf(sb, "## %zu. ", i + 1);
		fmt_md_escape(sb, c->title);
		strbuf_adds(sb, "\n\n");
		if (*c->subtitle) {
			fmt_md_escape(sb, c->subtitle);
			strbuf_adds(sb, "\n\n");
		}
		strbuf_adds(sb, "![");
		fmt_md_escape(sb, c->title);
		strbuf_addf(sb, "](charts/%s.png)\n\n", r->charts[i].name);
		fmt_md_escape(sb, c->footer);
		strbuf_adds(sb, ".\n\n");
		if (r->charts[i].has_table)
			md_table(sb, &r->charts[i].table);
	}
	if (r->nnotes) {
		strbuf_adds(sb, "## Notes\n\n");
		for (size_t i = 0; i < r->nnotes; i++) {
			strbuf_adds(sb, "- ");
			fmt_md_escape(sb, r->notes[i]);
			strbuf_addch(sb, '\n');
		}
		strbuf_addch(sb, '\n');
	}
	md_sources(sb, r);
	if (r->command_line) {
		strbuf_adds(sb, "Command: `");
		strbuf_adds(sb, r->command_line);
		strbuf_adds(sb, "`\n");
	}
}
