/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Tables as shown to people and scripts: a display model and its text,
 * Markdown, CSV, JSON and HTML renderers.
 *
 * The model knows nothing of storan's statistics: `storan table` fills it
 * from a pivot (analysis/table.h), `storan compare` from its verdicts, and
 * plot/report reuse it for their Markdown and HTML pages.  Each cell holds
 * two spellings -- `text` for people (human units, "4K") and `raw` for
 * machines (CSV: "4096", full precision) -- and, for JSON, a number.
 *
 * Building one:
 *
 *	struct fmt_table t;
 *	fmt_table_init(&t, "bw (MB/s) by bs");
 *	fmt_table_add_column(&t, "bs", "bs", 0);
 *	fmt_table_add_column(&t, "read", "read (MB/s)", 1);
 *	r = fmt_table_add_row(&t);
 *	fmt_table_set_cell(&t, r, 0, "4K", "4096");
 *	fmt_table_set_number(&t, r, 1, 123.4e6, "123");
 *	fmt_render(&t, FMT_MD, 0, &out);
 *	fmt_table_release(&t);
 *
 * Invariants: columns are added before rows; every cell starts empty
 * (rendered as "" in CSV, "-" in text/md/html, null in JSON); the table
 * owns copies of every string given to it.
 *
 * Footnotes (storan check's findings, analysis/footnotes.h): a cell may
 * cite numbered footnotes, shown after its text as "123 MB/s †1,3" in
 * text and Markdown and as a <sup class="fn"> in HTML; the footnotes
 * themselves follow the notes under the table.  CSV shows neither (its
 * cells stay raw figures).  JSON gives each row with a cited cell a
 * "findings" object, column name -> array of footnote numbers, and the
 * document a "footnotes" array of {n, source, line, severity, code,
 * message}; both only when there is a footnote, so that a table without
 * one renders exactly as before.  Should a column itself be named
 * "findings", the row key becomes "_findings" (underscores are added
 * until it is unique).
 */
#ifndef STORAN_FORMAT_H
#define STORAN_FORMAT_H

#include <stddef.h>

#include "../core/strbuf.h"
#include "../core/pool.h"

enum fmt_kind {
	FMT_TEXT,	/* aligned columns for a terminal */
	FMT_MD,		/* a Markdown pipe table for a blog post */
	FMT_CSV,	/* header of column names, raw values, RFC 4180 */
	FMT_JSON,	/* {title, columns, rows: [{name: value}], notes} */
	FMT_HTML,	/* a <table> fragment (no page around it) */
};

/* Parses "text", "md", "csv", "json", "html"; 0 on success. */
int fmt_parse(const char *name, enum fmt_kind *out);

/* How a cell reads: coloured on a terminal, a CSS class in HTML. */
enum fmt_style {
	FMT_PLAIN,
	FMT_GOOD,	/* green, class "good" */
	FMT_BAD,	/* red, class "bad" */
	FMT_WARN,	/* yellow, class "warn" */
};

/* How a text column gives way when a table must fit a width. */
enum fmt_column_flags {
	FMT_COL_WRAP = 1 << 0,		/* narrowed, its cells wrapped */
	FMT_COL_OPTIONAL = 1 << 1,	/* left out (rightmost first) */
};

struct fmt_column {
	char *name;	/* CSV header and JSON key: "bs", "read" */
	char *heading;	/* text/md/html header: "read (MB/s)" */
	int numeric;	/* right-aligned */
	unsigned flags;	/* enum fmt_column_flags */
};

/*
 * A cell: 32 bytes (a table of a million rows and ten columns is ten
 * million of them), its strings and footnote numbers in its table's pool.
 * Read it through fmt_cell_text() and fmt_cell_raw().
 */
enum fmt_cell_form {
	FMT_CELL_EMPTY,		/* no text, no raw */
	FMT_CELL_TEXT,		/* str is the text; no raw */
	FMT_CELL_SAME,		/* str is the text and the raw */
	FMT_CELL_BOTH,		/* str is the text, the raw follows its NUL */
	FMT_CELL_RAW,		/* no text; str is the raw */
};

struct fmt_cell {
	const char *str;	/* see form */
	double value;	/* JSON number, CSV %.15g, when is_number */
	const unsigned *notes;	/* [0] how many, then the numbers; or NULL */
	unsigned char form;	/* enum fmt_cell_form */
	unsigned char is_number;
	unsigned char style;	/* enum fmt_style */
};

/* For people (NULL: empty, shown "-"), and for CSV and JSON (NULL: empty,
 * null; a number's raw form is its value). */
const char *fmt_cell_text(const struct fmt_cell *c);
const char *fmt_cell_raw(const struct fmt_cell *c);
/* The footnote numbers the cell cites: how many, and the i-th. */
size_t fmt_cell_nnotes(const struct fmt_cell *c);
unsigned fmt_cell_note(const struct fmt_cell *c, size_t i);

/* The marker before footnote numbers: "†1", "†1,3" (UTF-8 dagger). */
#define FMT_NOTE_MARK "\xe2\x80\xa0"

/* A footnote under the table: one finding of storan check. */
struct fmt_footnote {
	unsigned n;		/* the number cells cite */
	char *source;
	unsigned line;
	char *severity;		/* "warning", "info" */
	char *code;
	char *message;
};

struct fmt_table {
	char *title;	/* NULL: none */
	struct fmt_column *cols;
	size_t ncols, cols_alloc;
	struct fmt_cell *cells;	/* row-major, nrows * ncols */
	size_t nrows, cells_alloc;
	char **notes;	/* lines printed under the table (not in CSV) */
	size_t nnotes, notes_alloc;
	struct fmt_footnote *footnotes;	/* after the notes (not in CSV) */
	size_t nfootnotes, footnotes_alloc;
	struct pool strings;	/* the cells' text and raw strings */
};

void fmt_table_init(struct fmt_table *t, const char *title);
void fmt_table_release(struct fmt_table *t);
/* Adds a column (only before the first row); returns its index. */
size_t fmt_table_add_column(struct fmt_table *t, const char *name,
			    const char *heading, int numeric);
/* Sets a column's enum fmt_column_flags. */
void fmt_table_set_column_flags(struct fmt_table *t, size_t col,
				unsigned flags);
/* Room for n rows more at once (a million rows' cells were copied at
 * every doubling). */
void fmt_table_reserve_rows(struct fmt_table *t, size_t n);
/* Appends a row of empty cells; returns its index. */
size_t fmt_table_add_row(struct fmt_table *t);
struct fmt_cell *fmt_table_cell(struct fmt_table *t, size_t row, size_t col);
/* A text cell: shown as text, raw (NULL: same as text) in CSV and JSON. */
void fmt_table_set_cell(struct fmt_table *t, size_t row, size_t col,
			const char *text, const char *raw);
/* A cell people read that has no figure: empty in CSV, null in JSON. */
void fmt_table_set_text_only(struct fmt_table *t, size_t row, size_t col,
			     const char *text);
/*
 * A number: shown as text, written with 15 significant digits in CSV and
 * as a JSON number.  A NAN value leaves the cell empty.
 */
void fmt_table_set_number(struct fmt_table *t, size_t row, size_t col,
			  double value, const char *text);
void fmt_table_set_style(struct fmt_table *t, size_t row, size_t col,
			 enum fmt_style style);
void fmt_table_add_note(struct fmt_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The footnote numbers a cell cites (copied; n 0 clears them).  Setting
 * the cell's value clears them: mark a cell after filling it.
 */
void fmt_table_set_notes(struct fmt_table *t, size_t row, size_t col,
			 const unsigned *nums, size_t n);
/* Appends a footnote; numbers should run 1, 2, 3 as cells cite them. */
void fmt_table_add_footnote(struct fmt_table *t, unsigned n,
			    const char *source, unsigned line,
			    const char *severity, const char *code,
			    const char *message);
/* "SOURCE:LINE: SEVERITY: CODE: message" of a footnote, appended. */
void fmt_footnote_text(const struct fmt_footnote *f, struct strbuf *out);

/*
 * A finding as JSON, written here only: adds "source", "line",
 * "severity", "code" and "message" to the jansson object o, in that
 * order, after whatever the caller put first ("n" of a table's footnote,
 * "side" of a compared figure's finding) and before what it adds after
 * (storan check's measurement).  A NULL string leaves its key out.
 */
struct json_t;
void fmt_json_finding(struct json_t *o, const char *source, unsigned line,
		      const char *severity, const char *code,
		      const char *message);

/*
 * Appends the table to out in the given format.  color adds ANSI colours
 * for styled cells in FMT_TEXT (the caller decides: a terminal, NO_COLOR).
 */
void fmt_render(const struct fmt_table *t, enum fmt_kind kind, int color,
		struct strbuf *out);

/*
 * FMT_TEXT within width columns (0: as fmt_render()): optional columns
 * are left out, rightmost first, until the rows fit; then the wrap
 * column is narrowed (to no less than 12) and its cells wrapped onto
 * more lines; the title's lines, the notes and the footnotes are wrapped
 * at blanks, continued two columns in.  A word wider than the width
 * stays whole.
 */
void fmt_render_text_width(const struct fmt_table *t, int color,
			   size_t width, struct strbuf *out);
/* The same, out passed to drain as it fills (NULL: out keeps it all): a
 * million rows are 116 MB of text. */
void fmt_render_text_drained(const struct fmt_table *t, int color,
			     size_t width, struct strbuf *out,
			     const struct strbuf_drain *drain);

/*
 * Makes row r of a table: adds one row to `one` (a table of t's columns,
 * emptied before each call) and fills it.  Called twice for each row:
 * for the columns' widths, then for the text.
 */
typedef void (*fmt_row_fn)(void *arg, size_t r, struct fmt_table *one);

/*
 * A maker of rows, and whether threads may share the work: clone() gives
 * another thread an arg of its own (its caches; release() lets it go),
 * with which make() may run beside the others, rows in any order.
 * Without clone, rows are made on the calling thread, in order.
 */
struct fmt_row_maker {
	fmt_row_fn make;
	void *arg;
	void *(*clone)(void *arg);
	void (*release)(void *clone);
};

/*
 * fmt_render_text_drained() of t (its columns, title, notes and
 * footnotes, no rows) with nrows rows that the maker makes when they are
 * needed: the cells of a million rows are never held at once (they were
 * 300 MB of compare's peak).  With clone, a long table's rows are made
 * and rendered on every CPU, a few thousand at a time, and written in
 * order: the same text.
 */
void fmt_render_text_rows(const struct fmt_table *t, size_t nrows,
			  const struct fmt_row_maker *maker, int color,
			  size_t width, struct strbuf *out,
			  const struct strbuf_drain *drain);

/*
 * Appends just the table's footnotes, one per line, in FMT_TEXT, FMT_MD
 * or FMT_HTML (other kinds: nothing): what fmt_render() puts under the
 * table, for pages that place them elsewhere.
 */
void fmt_render_footnotes(const struct fmt_table *t, enum fmt_kind kind,
			  struct strbuf *out);

/*
 * Should output to fd be coloured?  when is "auto" (yes on a terminal
 * unless NO_COLOR is set and not empty), "always" or "never".  Returns 1
 * or 0, or -1 for another word.
 */
int fmt_color_wanted(const char *when, int fd);

/*
 * Text as Markdown shows it: its markup characters escaped (a '|' cannot
 * break a table), '<' as an entity, since Markdown passes tags through
 * to HTML (a label "host=<b>x</b>" must not become bold, nor a script, in
 * a blog post), a line break as a blank.
 */
void fmt_md_escape(struct strbuf *out, const char *s);

#endif
