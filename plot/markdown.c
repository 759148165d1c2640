/*
 * report.md: the report as Markdown, ready to paste into a blog post --
 * a heading per chart (with the footnote marks of storan check's findings
 * about its figures), its PNG as an image link (charts/NN-name.png), and
 * its table as `storan table --format md` prints it, footnotes under it.
 * Names and messages go through fmt_md_escape() (analysis/format.h).
 */
#include "report.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* The chart's table (analysis/format.h) with its notes and footnotes. */
static void md_table(struct strbuf *sb, const struct report_chart *rc)
{
	if (rc->has_table) {
		fmt_render(&rc->table, FMT_MD, 0, sb);
		strbuf_addch(sb, '\n');
	} else if (rc->table.nfootnotes) {
		fmt_render_footnotes(&rc->table, FMT_MD, sb);
		strbuf_addch(sb, '\n');
	}
}

static void md_sources(struct strbuf *sb, const struct report *r)
{
	const struct result_set *rs = r->rs;

	strbuf_adds(sb, "## Inputs\n\n| Input | Format | sha256 |\n"
		    "|---|---|---|\n");
	for (int i = 0; i < r->ninputs; i++) {
		strbuf_adds(sb, "| ");
		fmt_md_escape(sb, r->inputs[i].name);
		strbuf_addf(sb, " | (as given) | `%s` |\n",
			    r->inputs[i].sha256);
	}
	for (size_t i = 0; i < rs->nsources; i++) {
		const struct source *s = &rs->sources[i];

		strbuf_adds(sb, "| ");
		fmt_md_escape(sb, s->name);
		strbuf_adds(sb, " | ");
		fmt_md_escape(sb, s->format ? s->format : "");
		strbuf_addf(sb, " | `%s` |\n", s->sha256);
	}
	strbuf_addch(sb, '\n');
}

static void md_finding(struct strbuf *sb, const struct check_finding *f)
{
	strbuf_addf(sb, "- **%s** `%s` ", check_severity_name(f->severity),
		    f->code);
	fmt_md_escape(sb, f->source);
	strbuf_addf(sb, ":%u: ", f->line);
	fmt_md_escape(sb, f->message);
	strbuf_addch(sb, '\n');
}

static void md_findings(struct strbuf *sb, const struct report *r)
{
	if (!r->findings)
		return;
	strbuf_adds(sb, "## Findings of storan check\n\n");
	if (!r->findings->n)
		strbuf_adds(sb, "None: no figure looks implausible.\n");
	for (size_t i = 0; i < r->findings->n; i++)
		md_finding(sb, &r->findings->v[i]);
	strbuf_addch(sb, '\n');
}

void report_write_markdown(const struct report *r, struct strbuf *sb)
{
	strbuf_adds(sb, "# ");
	fmt_md_escape(sb, r->title);
	strbuf_addf(sb, "\n\n%zu measurements from %zu input(s); made by "
		    "storan %s.\n\n", r->rs->n, r->rs->nsources,
		    STORAN_VERSION);
	if (r->lead) {
		fmt_render(r->lead, FMT_MD, 0, sb);
		strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct chart *c = &r->charts[i].chart;

		strbuf_addf(sb, "## %zu. ", i + 1);
		fmt_md_escape(sb, c->title);
		if (r->charts[i].nmarks)
			strbuf_addch(sb, ' ');
		footnotes_marker(r->charts[i].marks, r->charts[i].nmarks, sb);
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
		md_table(sb, &r->charts[i]);
	}
	md_findings(sb, r);
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
