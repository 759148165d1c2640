/*
 * index.html: the report as one self-contained page -- CSS inline, every
 * chart as inline SVG, the tables `storan table --format html` prints,
 * storan check's findings (numbered footnotes on the figures and charts
 * they touch, and all of them in a list), notes and inputs; no script, no font, no
 * URL outside the report, so it opens anywhere, offline.
 *
 * cairo names the ids in each SVG glyph0-1, clip1...; on one page those
 * would collide between charts (a later chart would borrow an earlier
 * one's glyphs), so every id and reference gets the chart's prefix.
 */
#include "report.h"
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
	".meta,figcaption,.note{color:#555;font-size:.9em}"
	"figure{margin:0;background:#fff;border:1px solid #e4e4e4}"
	"figure svg{display:block;width:100%;height:auto}"
	"figcaption{padding:.4em .8em}"
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
	"td.warn{background:#fff4d6}td.bad{color:#a00}td.good{color:#070}"
	"li.warning b{color:#a04000}";

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

/* The chart's table (analysis/format.h) with its notes and footnotes. */
static void html_table(struct strbuf *sb, const struct report_chart *rc)
{
	if (rc->has_table) {
		fmt_render(&rc->table, FMT_HTML, 0, sb);
	} else if (rc->table.nfootnotes) {
		strbuf_adds(sb, "<div class=\"footnotes\">\n");
		fmt_render_footnotes(&rc->table, FMT_HTML, sb);
		strbuf_adds(sb, "</div>\n");
	}
}

static void html_finding(struct strbuf *sb, const struct check_finding *f)
{
	strbuf_addf(sb, "<li class=\"%s\"><b>%s</b> <code>%s</code> ",
		    check_severity_name(f->severity),
		    check_severity_name(f->severity), f->code);
	strbuf_add_markup(sb, f->source);
	strbuf_addf(sb, ":%u: ", f->line);
	strbuf_add_markup(sb, f->message);
	strbuf_adds(sb, "</li>\n");
}

static void html_findings(struct strbuf *sb, const struct report *r)
{
	if (!r->findings)
		return;
	strbuf_adds(sb, "<section id=\"findings\">\n<h2>Findings of storan "
		    "check</h2>\n");
	if (!r->findings->n)
		strbuf_adds(sb, "<p>None: no figure looks implausible.</p>\n");
	strbuf_adds(sb, "<ul>\n");
	for (size_t i = 0; i < r->findings->n; i++)
		html_finding(sb, &r->findings->v[i]);
	strbuf_adds(sb, "</ul>\n</section>\n");
}

static void html_chart(struct strbuf *sb, const struct report *r, size_t i,
		       const struct strbuf *svg)
{
	const struct chart *c = &r->charts[i].chart;
	const char *name = r->charts[i].name;

	strbuf_addf(sb, "<section id=\"c%zu\">\n<h2>%zu. ", i + 1, i + 1);
	strbuf_add_markup(sb, c->title);
	if (r->charts[i].nmarks) {
		strbuf_adds(sb, " <sup class=\"fn\">");
		footnotes_marker(r->charts[i].marks, r->charts[i].nmarks, sb);
		strbuf_adds(sb, "</sup>");
	}
	strbuf_adds(sb, "</h2>\n<figure>\n");
	inline_svg(sb, strbuf_str(svg), i + 1);
	strbuf_adds(sb, "\n<figcaption>");
	strbuf_add_markup(sb, c->footer);
	strbuf_addf(sb, ". <a href=\"charts/%s.png\">PNG</a> "
		    "<a href=\"charts/%s.svg\">SVG</a></figcaption>\n"
		    "</figure>\n", name, name);
	html_table(sb, &r->charts[i]);
	strbuf_adds(sb, "</section>\n");
}

static void html_sources(struct strbuf *sb, const struct report *r)
{
	strbuf_adds(sb, "<section id=\"inputs\">\n<h2>Inputs</h2>\n<table>\n"
		    "<tr><th>Input</th><th>Format</th><th>sha256</th></tr>\n");
	for (int i = 0; i < r->ninputs; i++) {
		strbuf_adds(sb, "<tr><td>");
		strbuf_add_markup(sb, r->inputs[i].name);
		strbuf_addf(sb, "</td><td>(as given)</td><td><code>%s</code>"
			    "</td></tr>\n", r->inputs[i].sha256);
	}
	for (size_t i = 0; i < r->rs->nsources; i++) {
		const struct source *s = &r->rs->sources[i];

		strbuf_adds(sb, "<tr><td>");
		strbuf_add_markup(sb, s->name);
		strbuf_adds(sb, "</td><td>");
		strbuf_add_markup(sb, s->format ? s->format : "");
		strbuf_addf(sb, "</td><td><code>%s</code></td></tr>\n",
			    s->sha256);
	}
	strbuf_adds(sb, "</table>\n");
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
	strbuf_addf(sb, "</h1>\n<p class=\"meta\">%zu measurements from "
		    "%zu input(s); made by storan %s.</p>\n", r->rs->n,
		    r->rs->nsources, STORAN_VERSION);
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
	strbuf_adds(sb, "<nav><ol>\n");
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
	html_findings(sb, r);
	html_sources(sb, r);
	strbuf_adds(sb, "</main>\n</body>\n</html>\n");
}
