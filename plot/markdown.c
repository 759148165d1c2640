/*
 * report.md: the report as Markdown, ready to paste into a blog post --
 * a heading per chart, its PNG as an image link (charts/NN-name.png), and
 * its numbers as a table with units in the header.  Pipes in names are
 * escaped so that a label value cannot break a table.
 */
#include "report.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void md_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '[' ||
		    *s == ']' || *s == '\\' || *s == '`')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s == '\n' ? ' ' : *s);
	}
}

static void md_table(struct strbuf *sb, const struct chart *c)
{
	struct chart_table t;

	if (chart_table_build(c, &t)) {
		strbuf_adds(sb, "The workbook (report.xlsx) has this chart's "
			    "points.\n\n");
		return;
	}
	strbuf_adds(sb, "| ");
	md_text(sb, c->x.title);
	for (size_t col = 0; col < t.ncols; col++) {
		char *h = chart_table_header(c, col);

		strbuf_adds(sb, " | ");
		md_text(sb, h);
		free(h);
	}
	strbuf_adds(sb, " |\n|---");
	for (size_t col = 0; col < t.ncols; col++)
		strbuf_adds(sb, "|---:");
	strbuf_adds(sb, "|\n");
	for (size_t row = 0; row < t.nrows; row++) {
		strbuf_adds(sb, "| ");
		md_text(sb, t.xlabel[row]);
		for (size_t col = 0; col < t.ncols; col++) {
			char *cell = chart_table_cell(c, &t, row, col);

			strbuf_adds(sb, " | ");
			md_text(sb, cell);
			free(cell);
		}
		strbuf_adds(sb, " |\n");
	}
	strbuf_addch(sb, '\n');
	chart_table_release(&t);
}

static void md_sources(struct strbuf *sb, const struct report *r)
{
	const struct result_set *rs = r->rs;

	strbuf_adds(sb, "## Inputs\n\n| Input | Format | sha256 |\n"
		    "|---|---|---|\n");
	for (int i = 0; i < r->ninputs; i++) {
		strbuf_adds(sb, "| ");
		md_text(sb, r->inputs[i].name);
		strbuf_addf(sb, " | (as given) | `%s` |\n",
			    r->inputs[i].sha256);
	}
	for (size_t i = 0; i < rs->nsources; i++) {
		const struct source *s = &rs->sources[i];

		strbuf_adds(sb, "| ");
		md_text(sb, s->name);
		strbuf_adds(sb, " | ");
		md_text(sb, s->format ? s->format : "");
		strbuf_addf(sb, " | `%s` |\n", s->sha256);
	}
	strbuf_addch(sb, '\n');
}

static void md_finding(struct strbuf *sb, const struct check_finding *f)
{
	strbuf_addf(sb, "- **%s** `%s` ", check_severity_name(f->severity),
		    f->code);
	md_text(sb, f->source);
	strbuf_addf(sb, ":%u: ", f->line);
	md_text(sb, f->message);
	strbuf_addch(sb, '\n');
}

/* Under a chart: the findings that touch its figures (the footnote). */
static void md_chart_findings(struct strbuf *sb, const struct report *r,
			      size_t i)
{
	size_t idx[16], n = report_chart_findings(r, i, idx, 16);

	if (!n)
		return;
	strbuf_addf(sb, "\xe2\x9a\xa0 `storan check` has %zu finding(s) "
		    "about figures in this chart:\n\n", n);
	for (size_t k = 0; k < n; k++)
		md_finding(sb, &r->findings->v[idx[k]]);
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
	md_text(sb, r->title);
	strbuf_addf(sb, "\n\n%zu measurements from %zu input(s); made by "
		    "storan %s.\n\n", r->rs->n, r->rs->nsources,
		    STORAN_VERSION);
	for (size_t i = 0; i < r->n; i++) {
		const struct chart *c = &r->charts[i].chart;

		strbuf_addf(sb, "## %zu. ", i + 1);
		md_text(sb, c->title);
		strbuf_adds(sb, "\n\n");
		if (*c->subtitle) {
			md_text(sb, c->subtitle);
			strbuf_adds(sb, "\n\n");
		}
		strbuf_adds(sb, "![");
		md_text(sb, c->title);
		strbuf_addf(sb, "](charts/%s.png)\n\n", r->charts[i].name);
		md_table(sb, c);
		md_text(sb, c->footer);
		strbuf_adds(sb, ".\n\n");
		md_chart_findings(sb, r, i);
	}
	md_findings(sb, r);
	if (r->nnotes) {
		strbuf_adds(sb, "## Notes\n\n");
		for (size_t i = 0; i < r->nnotes; i++) {
			strbuf_adds(sb, "- ");
			md_text(sb, r->notes[i]);
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
