/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Between the text renderer (format.c) and its rows made on demand
 * (format-rows.c): a row's widths and text, and a source of rows.
 */
#ifndef STORAN_FORMAT_PRIVATE_H
#define STORAN_FORMAT_PRIVATE_H

#include "format.h"

/* The columns' widths, the hidden ones, the last shown, colour. */
struct fmt_text_layout {
	const size_t *width;
	const int *hide;
	size_t last;
	int color;
};

/* What rendering a row needs beside its cells: one per thread. */
struct fmt_row_scratch {
	struct strbuf sc, part;
	const char **rest;	/* per column: its cell's text still to wrap */
};

void fmt_row_scratch_init(struct fmt_row_scratch *s, size_t ncols);
void fmt_row_scratch_release(struct fmt_row_scratch *s);

/* Widens width[] (t's columns) to row `in` of rt's cells. */
void fmt_text_row_widths(const struct fmt_table *t, const struct fmt_table *rt,
			 size_t in, size_t *width, struct strbuf *sc);
/* Row `in` of rt (t's columns) as text lines, appended to out. */
void fmt_text_row(const struct fmt_table *t, const struct fmt_table *rt,
		  size_t in, const struct fmt_text_layout *lay,
		  struct fmt_row_scratch *s, struct strbuf *out);

/* Where a text table's rows come from: measure() widens width[] to
 * them all, emit() appends them (drained as out fills). */
struct fmt_text_rows {
	void (*measure)(void *arg, size_t *width);
	void (*emit)(void *arg, const struct fmt_text_layout *lay,
		     struct strbuf *out, const struct strbuf_drain *drain);
	void *arg;
};

/* t's title, headings, the rows, notes and footnotes, in FMT_TEXT
 * within `limit` columns (fmt_render_text_width()). */
void fmt_render_text_source(const struct fmt_table *t,
			    const struct fmt_text_rows *rows, int color,
			    size_t limit, struct strbuf *out,
			    const struct strbuf_drain *drain);

#endif
