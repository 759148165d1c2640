/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The writers of a built report, one per format: the workbook
 * (plot/xlsx.c), the page (plot/html.c) and the Markdown
 * (plot/markdown.c).  report_write() calls them.
 */
#ifndef STORAN_PLOT_WRITERS_H
#define STORAN_PLOT_WRITERS_H

#include "report-model.h"

int report_write_xlsx(const struct report *r, const char *path);
/* svgs[i] is chart i's SVG file text. */
void report_write_html(const struct report *r, const struct strbuf *svgs,
		       struct strbuf *out);
void report_write_markdown(const struct report *r, struct strbuf *out);

#endif
