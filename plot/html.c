/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * index.html: the report as one self-contained page -- CSS inline, every
 * chart as inline SVG, tables as analysis/format.h renders them; no
 * script, no font, no URL outside the report, so it opens anywhere,
 * offline.  What a reader came for comes first:
 *
 *   the title, and what was compared (or what the measurements differ
 *   in, for one input);
 *   with two sides or more, per candidate: the summary of the verdicts,
 *   the geometric mean of the ratios per metric, the verdict table;
 *   the caveats: storan check's findings, each once, grouped by code
 *   with a count and the lines they concern (the numbers the cells cite);
 *   the charts -- a comparison's ratio charts first -- each with its
 *   table;
 *   notes on what the page leaves out, and the inputs with their sha256.
 *
 * cairo names the ids in each SVG glyph0-1, clip1...; on one page those
 * would collide between charts (a later chart would borrow an earlier
 * one's glyphs), so every id and reference gets the chart's prefix.
 */
#include "writers.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char css[] =
	"body{margin:0;background:#fafafa;color:#1a1a1a;"
	"font:16px/1.5 'DejaVu Sans',system-ui,sans-serif}"
	"main{max-width:1240px;margin:0 auto;padding:24px}"
	"h1{font-size:2em;margin:.2em 0}"
	"h2{font-size:1.35em;margin:1.6em 0 .4em}"
	"h3{font-size:1.1em;margin:1.2em 0 .3em}"
	".meta,figcaption,.note{color:#555;font-size:.9em}"
	"figure{margin:0;background:#fff;border:1px solid #e4e4e4}"
	"figure svg{display:block;width:100%;height:auto}"
	"figcaption{padding:.4em .8em}"
	".scroll{overflow-x:auto}"
	"table{border-collapse:collapse;margin:.8em 0;background:#fff;"
	"font-size:.92em}"
	"th,td{border:1px solid #ddd;padding:.25em .6em;text-align:right}"
	"th:first-child,td:first-child{text-align:left}"
	"th{background:#f0f0f0}"
	"code{font-size:.85em;word-break:break-all}"
	"nav ol{columns:2}"
	"caption{text-align:left;font-weight:bold;padding:.3em 0}"
	"sup.fn,.footnote sup{color:#a04000}"
	".footnote{color:#555;font-size:.85em;margin:.2em 0}"
	"td.warn{background:#fff4d6}td.bad{color:#a00;font-weight:bold}"
	"td.good{color:#070;font-weight:bold}"
	".verdict{font-size:1.15em;margin:.4em 0}"
	".caveats{background:#fff8e6;border:1px solid #f0d48a;"
	"padding:.6em 1em;margin:1em 0}"
	".caveats h2{margin-top:.2em}"
	".caveats li{margin:.3em 0}"
	"details{margin:.2em 0 .4em 1em;font-size:.9em;color:#444}"
	"@media(max-width:820px){main{padding:12px}nav ol{columns:1}}";

/*
 * The SVG file without its XML declaration, ids prefixed with "cN-".  One
 * pass over the text: looking for each kind of reference separately would
 * rescan the rest of the file after every match.
 */
static void inline_svg(struct strbuf *sb, const char *svg, size_t n)
{
	static const char *const refs[] = { " id=\"", "href=\"#", "url(#" };
	const char *p = strstr(svg, "<svg"), *copied;

	if (!p)
		return;
	for (copied = p; *p; p++) {
		for (size_t i = 0; i < 3; i++) {
			size_t len = strlen(refs[i]);

			if (*p != refs[i][0] || strncmp(p, refs[i], len))
				continue;
			strbuf_add(sb, copied, (size_t)(p - copied) + len);
			strbuf_addf(sb, "c%zu-", n);
			p += len - 1;
			copied = p + 1;
			break;
		}
	}
	strbuf_adds(sb, copied);
}

static void html_table(struct strbuf *sb, const struct fmt_table *t)
{
	strbuf_adds(sb, "<div class=\"scroll\">\n");
	fmt_render(t, FMT_HTML, 0, sb);
	strbuf_adds(sb, "</div>\n");
}

/* ---- the comparison ---------------------------------------------------- */

static void html_verdicts(struct strbuf *sb, const struct report *r)
{
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct report_verdicts *v = &r->verdicts[i];

		strbuf_adds(sb, "<section class=\"verdicts\">\n<h2>");
		strbuf_add_markup(sb, r->plan.side_names[v->side]);
		strbuf_adds(sb, " against ");
		strbuf_add_markup(sb, r->plan.side_names[0]);
		strbuf_adds(sb, "</h2>\n<p class=\"verdict\">");
		strbuf_add_markup(sb, v->summary);
		strbuf_adds(sb, "</p>\n");
		if (*v->geomeans) {
			strbuf_adds(sb, "<p>Geometric mean of the ratios "
				    "(candidate / baseline): ");
			strbuf_add_markup(sb, v->geomeans);
			strbuf_adds(sb, ".</p>\n");
		}
		if (v->table.nrows)
			html_table(sb, &v->table);
		strbuf_adds(sb, "</section>\n");
	}
}

/* ---- caveats ----------------------------------------------------------- */

/*
 * The number each finding of r->findings is cited by in the tables' cells
 * (0: not cited), found in one pass over the cited ones.
 */
static unsigned *citation_numbers(const struct report *r)
{
	const struct check_list *l = r->findings;
	unsigned *num = xcalloc(l->n + 1, sizeof(*num));

	for (unsigned k = 1; r->fn && k <= r->fn->ncited; k++) {
		const struct check_finding *f = footnotes_finding(r->fn, k);

		if (f >= l->v && f < l->v + l->n)
			num[f - l->v] = k;
	}
	return num;
}

static void html_finding(struct strbuf *sb, const struct check_finding *f,
			 unsigned num)
{
	if (num)
		strbuf_addf(sb, "<li id=\"f%u\"><b>" FMT_NOTE_MARK "%u</b> ",
			    num, num);
	else
		strbuf_adds(sb, "<li>");
	strbuf_add_markup(sb, f->source);
	strbuf_addf(sb, ":%u: ", f->line);
	strbuf_add_markup(sb, f->message);
	strbuf_adds(sb, "</li>\n");
}

/*
 * The findings of one code, each once: its count and lines, then every
 * finding with the number the cells cite it by (a short list open, a long
 * one folded).
 */
static void html_code(struct strbuf *sb, const struct report *r,
		      const char *code, const unsigned *num)
{
	const struct check_list *l = r->findings;
	struct strbuf places = STRBUF_INIT;
	size_t n = check_code_places(l, code, &places);

	strbuf_addf(sb, "<li><b>%s</b> \xe2\x80\x94 %zu finding%s (", code, n,
		    n == 1 ? "" : "s");
	strbuf_add_markup(sb, places.buf);
	strbuf_adds(sb, ")");
	strbuf_release(&places);
	strbuf_adds(sb, n > 5 ? "\n<details><summary>the findings</summary><ul>\n"
		    : "\n<ul>\n");
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].code, code))
			html_finding(sb, &l->v[i], num[i]);
	strbuf_adds(sb, n > 5 ? "</ul></details>" : "</ul>");
	strbuf_adds(sb, "</li>\n");
}

static void html_caveats(struct strbuf *sb, const struct report *r)
{
	const struct check_list *l = r->findings;
	unsigned *num;

	if (!l || !l->n)
		return;
	num = citation_numbers(r);
	strbuf_adds(sb, "<section id=\"caveats\" class=\"caveats\">\n"
		    "<h2>Caveats</h2>\n<p class=\"note\">What storan check "
		    "finds implausible or fragile in these figures, by kind; "
		    "cells marked " FMT_NOTE_MARK "N in the tables cite "
		    "finding N.</p>\n<ul>\n");
	for (size_t i = 0; i < l->n; i++) {
		size_t j;

		for (j = 0; j < i && strcmp(l->v[j].code, l->v[i].code); j++)
			;
		if (j == i)
			html_code(sb, r, l->v[i].code, num);
	}
	strbuf_adds(sb, "</ul>\n</section>\n");
	free(num);
}

/* ---- charts ------------------------------------------------------------ */

static void html_chart(struct strbuf *sb, const struct report *r, size_t i,
		       const struct strbuf *svg)
{
	const struct report_chart *rc = &r->charts[i];
	const struct chart *c = &rc->chart;

	strbuf_addf(sb, "<section id=\"c%zu\">\n<h3>%zu. ", i + 1, i + 1);
	strbuf_add_markup(sb, c->title);
	strbuf_adds(sb, "</h3>\n<figure>\n");
	inline_svg(sb, strbuf_str(svg), i + 1);
	strbuf_adds(sb, "\n<figcaption>");
	strbuf_add_markup(sb, c->footer);
	strbuf_addf(sb, ". <a href=\"charts/%s.png\">PNG</a> "
		    "<a href=\"charts/%s.svg\">SVG</a> "
		    "<a href=\"charts/%s.json\">data</a></figcaption>\n"
		    "</figure>\n", rc->name, rc->name, rc->name);
	if (rc->has_table)
		html_table(sb, &rc->table);
	strbuf_adds(sb, "</section>\n");
}

static void html_sources(struct strbuf *sb, const struct report *r)
{
	strbuf_adds(sb, "<section id=\"inputs\">\n<h2>Inputs</h2>\n"
		    "<div class=\"scroll\"><table>\n"
		    "<tr><th>Input</th><th>Format</th><th>sha256</th></tr>\n");
	for (int i = 0; i < r->ninputs; i++) {
		strbuf_adds(sb, "<tr><td>");
		strbuf_add_markup(sb, r->inputs[i].name);
		strbuf_adds(sb, "</td><td>");
		strbuf_add_markup(sb, report_input_format(r, i));
		strbuf_addf(sb, "</td><td><code>%s</code></td></tr>\n",
			    report_sha_text(r->inputs[i].sha256));
	}
	for (size_t i = 0; i < r->rs->nsources; i++) {
		const struct source *s = &r->rs->sources[i];

		if (!report_source_listed(r, s))
			continue;
		strbuf_adds(sb, "<tr><td>");
		strbuf_add_markup(sb, s->name);
		strbuf_adds(sb, "</td><td>");
		strbuf_add_markup(sb, s->format ? s->format : "");
		strbuf_addf(sb, "</td><td><code>%s</code></td></tr>\n",
			    report_sha_text(s->sha256));
	}
	strbuf_adds(sb, "</table></div>\n");
	if (r->command_line) {
		strbuf_adds(sb, "<p class=\"meta\">Command: <code>");
		strbuf_add_markup(sb, r->command_line);
		strbuf_adds(sb, "</code></p>\n");
	}
	strbuf_adds(sb, "</section>\n");
}

static void html_head(struct strbuf *sb, const struct report *r)
{
	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		    "content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"storan "
		    STORAN_VERSION "\">\n<title>");
	strbuf_add_markup(sb, r->title);
	strbuf_addf(sb, "</title>\n<style>%s</style>\n</head>\n<body>\n"
		    "<main>\n<h1>", css);
	strbuf_add_markup(sb, r->title);
	strbuf_adds(sb, "</h1>\n<p class=\"meta\">");
	if (r->plan.nsides > 1) {
		strbuf_adds(sb, "Compared: ");
		for (size_t s = 0; s < r->plan.nsides; s++) {
			if (s)
				strbuf_adds(sb, s + 1 == r->plan.nsides ?
					    " and " : ", ");
			strbuf_adds(sb, "<b>");
			strbuf_add_markup(sb, r->plan.side_names[s]);
			strbuf_adds(sb, s ? "</b>" : "</b> (baseline)");
		}
		strbuf_adds(sb, ". ");
	}
	report_add_counts(r, sb);
	strbuf_adds(sb, "</p>\n");
}

void report_write_html(const struct report *r, const struct strbuf *svgs,
		       struct strbuf *sb)
{
	html_head(sb, r);
	if (r->lead) {
		strbuf_adds(sb, "<section id=\"lead\">\n");
		fmt_render(r->lead, FMT_HTML, 0, sb);
		strbuf_adds(sb, "</section>\n");
	}
	html_verdicts(sb, r);
	if (r->has_factors) {
		strbuf_adds(sb, "<section id=\"factors\">\n");
		html_table(sb, &r->factors);
		strbuf_adds(sb, "</section>\n");
	}
	html_caveats(sb, r);
	strbuf_adds(sb, "<h2>Charts</h2>\n<nav><ol>\n");
	for (size_t i = 0; i < r->n; i++) {
		strbuf_addf(sb, "<li><a href=\"#c%zu\">", i + 1);
		strbuf_add_markup(sb, r->charts[i].chart.title);
		strbuf_adds(sb, "</a></li>\n");
	}
	strbuf_adds(sb, "</ol></nav>\n");
	for (size_t i = 0; i < r->n; i++)
		html_chart(sb, r, i, &svgs[i]);
	if (r->nnotes) {
		strbuf_adds(sb, "<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n");
		for (size_t i = 0; i < r->nnotes; i++) {
			strbuf_adds(sb, "<li class=\"note\">");
			strbuf_add_markup(sb, r->notes[i]);
			strbuf_adds(sb, "</li>\n");
		}
		strbuf_adds(sb, "</ul>\n</section>\n");
	}
	html_sources(sb, r);
	strbuf_adds(sb, "</main>\n</body>\n</html>\n");
}
