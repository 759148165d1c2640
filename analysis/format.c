/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The display table and its renderers; see format.h.
 *
 * Text aligns columns by their visible width (UTF-8 code points, two
 * columns for East Asian wide ones, colour codes not counted).  JSON goes
 * through jansson so that escaping is right; numbers keep 15 significant
 * digits, integers print as integers.
 */
#include "format.h"
#include "format-private.h"
#include "../core/json-out.h"
#include "../core/xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fmt_parse(const char *name, enum fmt_kind *out)
{
	static const struct {
		const char *name;
		enum fmt_kind kind;
	} names[] = {
		{ "text", FMT_TEXT }, { "md", FMT_MD }, { "csv", FMT_CSV },
		{ "json", FMT_JSON }, { "html", FMT_HTML },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i].name)) {
			*out = names[i].kind;
			return 0;
		}
	}
	return -1;
}

int fmt_color_wanted(const char *when, int fd)
{
	const char *no = getenv("NO_COLOR");

	if (!strcmp(when, "always"))
		return 1;
	if (!strcmp(when, "never"))
		return 0;
	if (strcmp(when, "auto"))
		return -1;
	return isatty(fd) && !(no && *no);
}

void fmt_table_init(struct fmt_table *t, const char *title)
{
	memset(t, 0, sizeof(*t));
	t->title = title ? xstrdup(title) : NULL;
}

static void cell_clear(struct fmt_cell *c)
{
	memset(c, 0, sizeof(*c));	/* (what it held stays in the pool) */
}

const char *fmt_cell_text(const struct fmt_cell *c)
{
	return c->form == FMT_CELL_EMPTY || c->form == FMT_CELL_RAW ? NULL :
	       c->str;
}

const char *fmt_cell_raw(const struct fmt_cell *c)
{
	switch (c->form) {
	case FMT_CELL_SAME:
	case FMT_CELL_RAW:
		return c->str;
	case FMT_CELL_BOTH:
		return c->str + strlen(c->str) + 1;
	default:
		return NULL;
	}
}

size_t fmt_cell_nnotes(const struct fmt_cell *c)
{
	return c->notes ? c->notes[0] : 0;
}

unsigned fmt_cell_note(const struct fmt_cell *c, size_t i)
{
	return c->notes[1 + i];
}

static void footnote_clear(struct fmt_footnote *f)
{
	free(f->source);
	free(f->severity);
	free(f->code);
	free(f->message);
}

void fmt_table_release(struct fmt_table *t)
{
	for (size_t i = 0; i < t->ncols; i++) {
		free(t->cols[i].name);
		free(t->cols[i].heading);
	}
	for (size_t i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	for (size_t i = 0; i < t->nfootnotes; i++)
		footnote_clear(&t->footnotes[i]);
	free(t->footnotes);
	free(t->cols);
	free(t->cells);
	free(t->notes);
	free(t->title);
	pool_release(&t->strings);
	memset(t, 0, sizeof(*t));
}

size_t fmt_table_add_column(struct fmt_table *t, const char *name,
			    const char *heading, int numeric)
{
	if (t->nrows)
		BUG("column '%s' added after the first row", name);
	ALLOC_GROW(t->cols, t->ncols + 1, t->cols_alloc);
	t->cols[t->ncols].name = xstrdup(name);
	t->cols[t->ncols].heading = xstrdup(heading ? heading : name);
	t->cols[t->ncols].numeric = numeric;
	t->cols[t->ncols].flags = 0;
	return t->ncols++;
}

void fmt_table_set_column_flags(struct fmt_table *t, size_t col,
				unsigned flags)
{
	t->cols[col].flags = flags;
}

void fmt_table_reserve_rows(struct fmt_table *t, size_t n)
{
	ALLOC_GROW(t->cells, (t->nrows + n) * t->ncols, t->cells_alloc);
}

size_t fmt_table_add_row(struct fmt_table *t)
{
	size_t need = (t->nrows + 1) * t->ncols;

	ALLOC_GROW(t->cells, need, t->cells_alloc);
	memset(t->cells + t->nrows * t->ncols, 0,
	       t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

struct fmt_cell *fmt_table_cell(struct fmt_table *t, size_t row, size_t col)
{
	if (row >= t->nrows || col >= t->ncols)
		BUG("cell %zu,%zu outside a %zux%zu table", row, col,
		    t->nrows, t->ncols);
	return &t->cells[row * t->ncols + col];
}

void fmt_table_set_cell(struct fmt_table *t, size_t row, size_t col,
			const char *text, const char *raw)
{
	struct fmt_cell *c = fmt_table_cell(t, row, col);

	cell_clear(c);
	if (!raw)
		raw = text ? text : "";
	if (!text) {
		c->form = FMT_CELL_RAW;
		c->str = pool_strdup(&t->strings, raw);
	} else if (!strcmp(raw, text)) {
		c->form = FMT_CELL_SAME;
		c->str = pool_strdup(&t->strings, text);
	} else {	/* "text\0raw\0", one piece of the pool */
		size_t lt = strlen(text), lr = strlen(raw);
		char *both = pool_alloc(&t->strings, lt + lr + 2);

		memcpy(both, text, lt + 1);
		memcpy(both + lt + 1, raw, lr + 1);
		c->form = FMT_CELL_BOTH;
		c->str = both;
	}
}

void fmt_table_set_text_only(struct fmt_table *t, size_t row, size_t col,
			     const char *text)
{
	struct fmt_cell *c = fmt_table_cell(t, row, col);

	cell_clear(c);
	c->form = FMT_CELL_TEXT;
	c->str = pool_strdup(&t->strings, text);
}

void fmt_table_set_number(struct fmt_table *t, size_t row, size_t col,
			  double value, const char *text)
{
	struct fmt_cell *c = fmt_table_cell(t, row, col);
	struct strbuf sb = STRBUF_INIT;

	cell_clear(c);
	if (isnan(value))
		return;
	/* raw stays NULL: CSV prints the value when it writes the cell,
	 * so text and Markdown never pay for %.15g */
	if (!text) {
		strbuf_add_number(&sb, value);
		text = sb.buf;
	}
	c->form = FMT_CELL_TEXT;	/* (CSV and JSON write the value) */
	c->str = pool_strdup(&t->strings, text);
	c->value = value;
	c->is_number = 1;
	strbuf_release(&sb);
}

void fmt_table_set_style(struct fmt_table *t, size_t row, size_t col,
			 enum fmt_style style)
{
	fmt_table_cell(t, row, col)->style = style;
}

void fmt_table_add_note(struct fmt_table *t, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(t->notes, t->nnotes + 1, t->notes_alloc);
	va_start(ap, fmt);
	t->notes[t->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

void fmt_table_set_notes(struct fmt_table *t, size_t row, size_t col,
			 const unsigned *nums, size_t n)
{
	struct fmt_cell *c = fmt_table_cell(t, row, col);
	unsigned *v;

	if (!n) {
		c->notes = NULL;
		return;
	}
	v = pool_alloc(&t->strings, (n + 1) * sizeof(*v));
	v[0] = (unsigned)n;
	memcpy(v + 1, nums, n * sizeof(*nums));
	c->notes = v;
}

void fmt_table_add_footnote(struct fmt_table *t, unsigned n,
			    const char *source, unsigned line,
			    const char *severity, const char *code,
			    const char *message)
{
	struct fmt_footnote *f;

	ALLOC_GROW(t->footnotes, t->nfootnotes + 1, t->footnotes_alloc);
	f = &t->footnotes[t->nfootnotes++];
	f->n = n;
	f->source = xstrdup(source ? source : "");
	f->line = line;
	f->severity = xstrdup(severity);
	f->code = xstrdup(code);
	f->message = xstrdup(message);
}

void fmt_footnote_text(const struct fmt_footnote *f, struct strbuf *out)
{
	if (f->line)
		strbuf_addf(out, "%s:%u: ", f->source, f->line);
	else
		strbuf_addf(out, "%s: ", f->source);
	strbuf_addf(out, "%s: %s: %s", f->severity, f->code, f->message);
}

static const struct fmt_cell *cell_at(const struct fmt_table *t, size_t r,
				      size_t c)
{
	return &t->cells[r * t->ncols + c];
}

static const char *shown_text(const struct fmt_cell *c)
{
	const char *text = fmt_cell_text(c);

	return text ? text : "-";
}

/* "†1,3" for the cell's footnotes, appended. */
static void add_marker(struct strbuf *out, const struct fmt_cell *c)
{
	for (size_t i = 0; i < fmt_cell_nnotes(c); i++)
		strbuf_addf(out, "%s%u", i ? "," : FMT_NOTE_MARK,
			    fmt_cell_note(c, i));
}

/* What people read in a cell: its text and its footnote marker. */
static const char *shown(const struct fmt_cell *c, struct strbuf *scratch)
{
	if (!c->notes)
		return shown_text(c);
	strbuf_reset(scratch);
	strbuf_adds(scratch, shown_text(c));
	strbuf_addch(scratch, ' ');
	add_marker(scratch, c);
	return strbuf_str(scratch);
}

/*
 * Is code point c shown two columns wide?  The East Asian wide and
 * full-width blocks (Unicode's EastAsianWidth W and F: Hangul Jamo, CJK,
 * Hiragana and Katakana, Hangul syllables, full-width forms, the
 * supplementary ideographs).  A terminal's wcwidth() would need a UTF-8
 * locale, which storan does not assume.
 */
static int is_wide(unsigned c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf &&
						c != 0x303f) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);
}

/* Visible width: one column a code point, two for a wide one. */
static size_t width_of(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;

	while (*p) {
		unsigned c = *p;
		int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;

		if (c < 0x80) {		/* ASCII, nearly every byte */
			w++;
			p++;
			continue;
		}
		if (more)
			c &= 0x3f >> more;
		for (p++; more && (*p & 0xc0) == 0x80; more--, p++)
			c = c << 6 | (*p & 0x3f);
		w += is_wide(c) ? 2 : 1;
	}
	return w;
}

static void pad(struct strbuf *out, size_t n)
{
	strbuf_addchars(out, ' ', n);
}

static const char *ansi(enum fmt_style s)
{
	switch (s) {
	case FMT_GOOD:
		return "\033[32m";
	case FMT_BAD:
		return "\033[1;31m";
	case FMT_WARN:
		return "\033[33m";
	case FMT_PLAIN:
		break;
	}
	return NULL;
}

/* s (w columns wide) in a field of width columns. */
static void text_field(struct strbuf *out, const char *s, size_t w,
		       size_t width, int right, const char *color, int last)
{
	if (right)
		pad(out, width - w);
	if (color)
		strbuf_addf(out, "%s%s\033[0m", color, s);
	else
		strbuf_adds(out, s);
	if (!right && !last)
		pad(out, width - w);
}

/* How many bytes of s fit in w columns (at least one code point). */
static size_t fit_bytes(const char *s, size_t w)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0, n = 0;

	while (p[n]) {
		size_t len = 1, cw;
		unsigned c = p[n];
		int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;

		if (more)
			c &= 0x3f >> more;
		for (; more && (p[n + len] & 0xc0) == 0x80; more--, len++)
			c = c << 6 | (p[n + len] & 0x3f);
		cw = is_wide(c) ? 2 : 1;
		if (n && used + cw > w)
			break;
		used += cw;
		n += len;
	}
	return n;
}

/*
 * The next line of s within w columns: its length in bytes, *next where
 * the line after it starts.  Breaks at the last blank that fits; a word
 * wider than w is cut when cut is set, else kept whole.
 */
static size_t next_line(const char *s, size_t w, int cut, const char **next)
{
	size_t fit = fit_bytes(s, w), brk = 0;

	if (!s[fit]) {
		*next = s + fit;
		return fit;
	}
	for (size_t i = 1; i <= fit; i++)
		if (s[i] == ' ')
			brk = i;
	if (!brk && !cut) {
		const char *sp = strchr(s, ' ');

		fit = sp ? (size_t)(sp - s) : strlen(s);
	}
	if (!brk)
		brk = fit;
	*next = s + brk;
	while (**next == ' ')
		(*next)++;
	return brk;
}

/* s (one line) wrapped at width, continued two columns in. */
static void wrap_line(struct strbuf *out, const char *s, size_t width)
{
	int first = 1;

	if (!width || width_of(s) <= width) {
		strbuf_adds(out, s);
		strbuf_addch(out, '\n');
		return;
	}
	while (*s) {
		const char *next;
		size_t len = next_line(s, first || width < 4 ? width :
				       width - 2, 0, &next);

		strbuf_addf(out, "%s%.*s\n", first ? "" : "  ", (int)len, s);
		first = 0;
		s = next;
	}
}

/* Each line of s wrapped as wrap_line() does. */
static void wrap_lines(struct strbuf *out, const char *s, size_t width)
{
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = xstrndup(s, len);

		wrap_line(out, line, width);
		free(line);
		s += len + (nl ? 1 : 0);
	}
}

static void footnotes_text(const struct fmt_table *t, size_t width,
			   struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < t->nfootnotes; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%u ", FMT_NOTE_MARK, t->footnotes[i].n);
		fmt_footnote_text(&t->footnotes[i], &sb);
		wrap_line(out, sb.buf, width);
	}
	strbuf_release(&sb);
}

/* The sum of the shown columns' widths and the gaps between them. */
static size_t row_width(const struct fmt_table *t, const size_t *width,
			const int *hide)
{
	size_t sum = 0, n = 0;

	for (size_t c = 0; c < t->ncols; c++)
		if (!hide[c]) {
			sum += width[c];
			n++;
		}
	return sum + (n ? 2 * (n - 1) : 0);
}

/* Leaves out optional columns, then narrows the wrap column, to fit. */
static void fit_columns(const struct fmt_table *t, size_t limit,
			size_t *width, int *hide)
{
	size_t wrap = t->ncols, total;

	while ((total = row_width(t, width, hide)) > limit) {
		size_t c = t->ncols;

		while (c-- > 0)
			if (!hide[c] && (t->cols[c].flags & FMT_COL_OPTIONAL))
				break;
		if (c == (size_t)-1)
			break;
		hide[c] = 1;
	}
	for (size_t c = 0; c < t->ncols; c++)
		if (!hide[c] && (t->cols[c].flags & FMT_COL_WRAP))
			wrap = c;
	if (total > limit && wrap < t->ncols) {
		size_t rest = total - width[wrap], min = 12;

		if (min < width_of(t->cols[wrap].heading))
			min = width_of(t->cols[wrap].heading);
		width[wrap] = limit > rest + min ? limit - rest : min;
	}
}

/* Drops the blanks a line ends in, and ends it. */
static void end_line(struct strbuf *out)
{
	while (out->len && out->buf[out->len - 1] == ' ')
		out->len--;
	if (out->buf)
		out->buf[out->len] = '\0';
	strbuf_addch(out, '\n');
}

/* Line `line` of row r's cell in column c: its text into part, *w its
 * width (measured once: a million rows' cells were measured twice). */
static const char *cell_line(const struct fmt_table *t, size_t c,
			     size_t width, const char *s, const char **rest,
			     struct strbuf *part, size_t *w)
{
	const char *next;
	size_t len;

	*rest = NULL;
	*w = width_of(s);
	if (*w <= width || !(t->cols[c].flags & FMT_COL_WRAP))
		return s;
	len = next_line(s, width, 1, &next);
	strbuf_reset(part);
	strbuf_add(part, s, len);
	if (*next)
		*rest = next;
	*w = width_of(strbuf_str(part));
	return strbuf_str(part);
}

void fmt_text_row_widths(const struct fmt_table *t, const struct fmt_table *rt,
			 size_t in, size_t *width, struct strbuf *sc)
{
	for (size_t c = 0; c < t->ncols; c++) {
		size_t w = width_of(shown(cell_at(rt, in, c), sc));

		if (w > width[c])
			width[c] = w;
	}
}

void fmt_text_row(const struct fmt_table *t, const struct fmt_table *rt,
		  size_t in, const struct fmt_text_layout *lay,
		  struct fmt_row_scratch *s, struct strbuf *out)
{
	int more = 1;

	for (int line = 0; more; line++) {
		more = 0;
		for (size_t c = 0, n = 0; c < t->ncols; c++) {
			const struct fmt_cell *cell = cell_at(rt, in, c);
			const char *txt;
			size_t w;

			if (lay->hide[c])
				continue;
			if (n++)
				strbuf_adds(out, "  ");
			if (line && !s->rest[c]) {
				pad(out, lay->width[c]);
				continue;
			}
			txt = line ? s->rest[c] : shown(cell, &s->sc);
			txt = cell_line(t, c, lay->width[c], txt, &s->rest[c],
					&s->part, &w);
			more |= s->rest[c] != NULL;
			text_field(out, txt, w, lay->width[c],
				   t->cols[c].numeric,
				   lay->color && !line ? ansi(cell->style) :
				   NULL, c == lay->last);
		}
		if (line || more)
			end_line(out);
		else
			strbuf_addch(out, '\n');
	}
}

void fmt_row_scratch_init(struct fmt_row_scratch *s, size_t ncols)
{
	strbuf_init(&s->sc);
	strbuf_init(&s->part);
	s->rest = xcalloc(ncols ? ncols : 1, sizeof(*s->rest));
}

void fmt_row_scratch_release(struct fmt_row_scratch *s)
{
	strbuf_release(&s->sc);
	strbuf_release(&s->part);
	free(s->rest);
}

/* Every column as wide as its heading. */
static void heading_widths(const struct fmt_table *t, size_t *width)
{
	for (size_t c = 0; c < t->ncols; c++)
		width[c] = width_of(t->cols[c].heading);
}

/* The title and the headings. */
static void text_head(const struct fmt_table *t,
		      const struct fmt_text_layout *lay, size_t limit,
		      struct strbuf *out)
{
	if (t->title) {
		wrap_lines(out, t->title, limit);
		strbuf_addch(out, '\n');
	}
	for (size_t c = 0, n = 0; c < t->ncols; c++) {
		if (lay->hide[c])
			continue;
		if (n++)
			strbuf_adds(out, "  ");
		text_field(out, t->cols[c].heading,
			   width_of(t->cols[c].heading), lay->width[c],
			   t->cols[c].numeric, NULL, c == lay->last);
	}
	strbuf_addch(out, '\n');
}

/* The notes and footnotes under the rows. */
static void text_foot(const struct fmt_table *t, size_t limit,
		      struct strbuf *out)
{
	for (size_t i = 0; i < t->nnotes; i++) {
		if (!i)
			strbuf_addch(out, '\n');
		wrap_line(out, t->notes[i], limit);
	}
	if (t->nfootnotes && !t->nnotes)
		strbuf_addch(out, '\n');
	footnotes_text(t, limit, out);
}

void fmt_render_text_source(const struct fmt_table *t,
			    const struct fmt_text_rows *rows, int color,
			    size_t limit, struct strbuf *out,
			    const struct strbuf_drain *drain)
{
	size_t nc = t->ncols ? t->ncols : 1;
	size_t *width = xcalloc(nc, sizeof(*width));
	int *hide = xcalloc(nc, sizeof(*hide));
	struct fmt_text_layout lay = { width, hide, 0, color };

	heading_widths(t, width);
	rows->measure(rows->arg, width);
	if (limit)
		fit_columns(t, limit, width, hide);
	for (size_t c = 0; c < t->ncols; c++)
		if (!hide[c])
			lay.last = c;
	text_head(t, &lay, limit, out);
	rows->emit(rows->arg, &lay, out, drain);
	text_foot(t, limit, out);
	free(hide);
	free(width);
}

/* ---- a table's own rows ---- */

struct own_rows {
	const struct fmt_table *t;
};

static void own_measure(void *arg, size_t *width)
{
	const struct fmt_table *t = ((struct own_rows *)arg)->t;
	struct strbuf sc = STRBUF_INIT;

	for (size_t r = 0; r < t->nrows; r++)
		fmt_text_row_widths(t, t, r, width, &sc);
	strbuf_release(&sc);
}

static void own_emit(void *arg, const struct fmt_text_layout *lay,
		     struct strbuf *out, const struct strbuf_drain *drain)
{
	const struct fmt_table *t = ((struct own_rows *)arg)->t;
	struct fmt_row_scratch s;

	fmt_row_scratch_init(&s, t->ncols);
	for (size_t r = 0; r < t->nrows; r++) {
		fmt_text_row(t, t, r, lay, &s, out);
		strbuf_drain_if_full(out, drain);
	}
	fmt_row_scratch_release(&s);
}

/* Renders t's own rows. */
static void render_text_of(const struct fmt_table *t, int color,
			   size_t limit, struct strbuf *out,
			   const struct strbuf_drain *drain)
{
	struct own_rows own = { t };
	struct fmt_text_rows rows = { own_measure, own_emit, &own };

	fmt_render_text_source(t, &rows, color, limit, out, drain);
}

void fmt_render_text_width(const struct fmt_table *t, int color,
			   size_t width, struct strbuf *out)
{
	render_text_of(t, color, width, out, NULL);
}

void fmt_render_text_drained(const struct fmt_table *t, int color,
			     size_t width, struct strbuf *out,
			     const struct strbuf_drain *drain)
{
	render_text_of(t, color, width, out, drain);
}

void fmt_md_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			strbuf_adds(out, "&lt;");
		else if (strchr("|\\*_`[]", *s))
			strbuf_addf(out, "\\%c", *s);
		else
			strbuf_addch(out, *s == '\n' ? ' ' : *s);
	}
}

/* Lines of one paragraph: each but the last ends in a hard break. */
static void footnotes_md(const struct fmt_table *t, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < t->nfootnotes; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%u ", FMT_NOTE_MARK, t->footnotes[i].n);
		fmt_footnote_text(&t->footnotes[i], &sb);
		fmt_md_escape(out, sb.buf);
		strbuf_adds(out, i + 1 < t->nfootnotes ? "  \n" : "\n");
	}
	strbuf_release(&sb);
}

static void render_md(const struct fmt_table *t, struct strbuf *out)
{
	struct strbuf sc = STRBUF_INIT;

	if (t->title) {		/* names of inputs and labels: text */
		strbuf_adds(out, "**");
		fmt_md_escape(out, t->title);
		strbuf_adds(out, "**\n\n");
	}
	strbuf_addch(out, '|');
	for (size_t c = 0; c < t->ncols; c++) {
		strbuf_addch(out, ' ');
		fmt_md_escape(out, t->cols[c].heading);
		strbuf_adds(out, " |");
	}
	strbuf_adds(out, "\n|");
	for (size_t c = 0; c < t->ncols; c++)
		strbuf_adds(out, t->cols[c].numeric ? "---:|" : "---|");
	strbuf_addch(out, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_addch(out, '|');
		for (size_t c = 0; c < t->ncols; c++) {
			strbuf_addch(out, ' ');
			fmt_md_escape(out, shown(cell_at(t, r, c), &sc));
			strbuf_adds(out, " |");
		}
		strbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < t->nnotes; i++) {
		strbuf_adds(out, i ? "  \n" : "\n");
		fmt_md_escape(out, t->notes[i]);
	}
	if (t->nnotes && t->nfootnotes)
		strbuf_adds(out, "  ");
	if (t->nnotes || t->nfootnotes)
		strbuf_addch(out, '\n');
	footnotes_md(t, out);
	strbuf_release(&sc);
}

static void render_csv(const struct fmt_table *t, struct strbuf *out)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			strbuf_addch(out, ',');
		strbuf_add_csv(out, t->cols[c].name);
	}
	strbuf_addch(out, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const struct fmt_cell *cell = cell_at(t, r, c);

			if (c)
				strbuf_addch(out, ',');
			if (cell->is_number)	/* (no comma or quote in it) */
				strbuf_add_number(out, cell->value);
			else
				strbuf_add_csv(out, fmt_cell_raw(cell) ?
						    fmt_cell_raw(cell) : "");
		}
		strbuf_addch(out, '\n');
	}
}

static json_t *json_cell(const struct fmt_cell *c)
{
	if (c->is_number) {
		if (!isfinite(c->value))
			return json_null();
		if (fabs(c->value) < 9007199254740992.0 &&
		    !(fabs(c->value - nearbyint(c->value)) > 0))
			return json_integer((json_int_t)c->value);
		return json_real(c->value);
	}
	return fmt_cell_raw(c) ? json_string(fmt_cell_raw(c)) : json_null();
}

/* The row key of cell footnotes: "findings", unless a column has it. */
static char *findings_key(const struct fmt_table *t)
{
	struct strbuf key = STRBUF_INIT;
	size_t c = 0;

	strbuf_adds(&key, "findings");
	while (c < t->ncols) {
		if (!strcmp(t->cols[c].name, key.buf)) {
			strbuf_reset(&key);
			strbuf_addf(&key, "_%s", t->cols[c].name);
			c = 0;
		} else {
			c++;
		}
	}
	return strbuf_detach(&key);
}

/* {column: [numbers]} of the row's cited cells, or NULL for none. */
static json_t *json_row_findings(const struct fmt_table *t, size_t r)
{
	json_t *o = NULL;

	for (size_t c = 0; c < t->ncols; c++) {
		const struct fmt_cell *cell = cell_at(t, r, c);
		json_t *a;

		if (!cell->notes)
			continue;
		a = json_array();
		for (size_t i = 0; i < fmt_cell_nnotes(cell); i++)
			json_array_append_new(a, json_integer(
						      fmt_cell_note(cell, i)));
		if (!o)
			o = json_object();
		json_object_set_new(o, t->cols[c].name, a);
	}
	return o;
}

void fmt_json_finding(json_t *o, const char *source, unsigned line,
		      const char *severity, const char *code,
		      const char *message)
{
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "line", json_integer(line));
	json_object_set_new(o, "severity", json_string(severity));
	json_object_set_new(o, "code", json_string(code));
	json_object_set_new(o, "message", json_string(message));
}

static json_t *json_footnotes(const struct fmt_table *t)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->nfootnotes; i++) {
		const struct fmt_footnote *f = &t->footnotes[i];
		json_t *o = json_object();

		json_object_set_new(o, "n", json_integer(f->n));
		fmt_json_finding(o, f->source, f->line, f->severity, f->code,
				 f->message);
		json_array_append_new(a, o);
	}
	return a;
}

static void render_json(const struct fmt_table *t, struct strbuf *out)
{
	json_t *doc = json_object(), *cols = json_array(), *rows = json_array();
	json_t *notes = json_array();
	char *fkey = findings_key(t);

	json_object_set_new(doc, "title",
			    t->title ? json_string(t->title) : json_null());
	for (size_t c = 0; c < t->ncols; c++)
		json_array_append_new(cols, json_string(t->cols[c].name));
	for (size_t r = 0; r < t->nrows; r++) {
		json_t *row = json_object();

		json_t *found = json_row_findings(t, r);

		for (size_t c = 0; c < t->ncols; c++)
			json_object_set_new(row, t->cols[c].name,
					    json_cell(cell_at(t, r, c)));
		if (found)
			json_object_set_new(row, fkey, found);
		json_array_append_new(rows, row);
	}
	for (size_t i = 0; i < t->nnotes; i++)
		json_array_append_new(notes, json_string(t->notes[i]));
	json_object_set_new(doc, "columns", cols);
	json_object_set_new(doc, "rows", rows);
	json_object_set_new(doc, "notes", notes);
	if (t->nfootnotes)
		json_object_set_new(doc, "footnotes", json_footnotes(t));
	free(fkey);
	json_dump_to(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
		     JSON_REAL_PRECISION(15), 1, out);
}

static void html_open_cell(struct strbuf *out, const char *tag, int numeric,
			   enum fmt_style style)
{
	static const char *const cls[] = { NULL, "good", "bad", "warn" };

	strbuf_addf(out, "<%s", tag);
	if (numeric || cls[style])
		strbuf_addf(out, " class=\"%s%s%s\"", numeric ? "num" : "",
			    numeric && cls[style] ? " " : "",
			    cls[style] ? cls[style] : "");
	strbuf_addch(out, '>');
}

static void footnotes_html(const struct fmt_table *t, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < t->nfootnotes; i++) {
		strbuf_reset(&sb);
		fmt_footnote_text(&t->footnotes[i], &sb);
		strbuf_addf(out, "<p class=\"footnote\"><sup>%s%u</sup> ",
			    FMT_NOTE_MARK, t->footnotes[i].n);
		strbuf_add_markup(out, sb.buf);
		strbuf_adds(out, "</p>\n");
	}
	strbuf_release(&sb);
}

static void html_marker(struct strbuf *out, const struct fmt_cell *c)
{
	if (!c->notes)
		return;
	strbuf_adds(out, "<sup class=\"fn\">");
	add_marker(out, c);
	strbuf_adds(out, "</sup>");
}

static void render_html(const struct fmt_table *t, struct strbuf *out)
{
	strbuf_adds(out, "<table class=\"storan\">\n");
	if (t->title) {
		strbuf_adds(out, "<caption>");
		strbuf_add_markup(out, t->title);
		strbuf_adds(out, "</caption>\n");
	}
	strbuf_adds(out, "<thead><tr>");
	for (size_t c = 0; c < t->ncols; c++) {
		html_open_cell(out, "th", t->cols[c].numeric, FMT_PLAIN);
		strbuf_add_markup(out, t->cols[c].heading);
		strbuf_adds(out, "</th>");
	}
	strbuf_adds(out, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_adds(out, "<tr>");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct fmt_cell *cell = cell_at(t, r, c);

			html_open_cell(out, "td", t->cols[c].numeric,
				       cell->style);
			strbuf_add_markup(out, shown_text(cell));
			html_marker(out, cell);
			strbuf_adds(out, "</td>");
		}
		strbuf_adds(out, "</tr>\n");
	}
	strbuf_adds(out, "</tbody>\n</table>\n");
	for (size_t i = 0; i < t->nnotes; i++) {
		strbuf_adds(out, "<p class=\"note\">");
		strbuf_add_markup(out, t->notes[i]);
		strbuf_adds(out, "</p>\n");
	}
	footnotes_html(t, out);
}

void fmt_render_footnotes(const struct fmt_table *t, enum fmt_kind kind,
			  struct strbuf *out)
{
	if (kind == FMT_TEXT)
		footnotes_text(t, 0, out);
	else if (kind == FMT_MD)
		footnotes_md(t, out);
	else if (kind == FMT_HTML)
		footnotes_html(t, out);
}

void fmt_render(const struct fmt_table *t, enum fmt_kind kind, int color,
		struct strbuf *out)
{
	switch (kind) {
	case FMT_TEXT:
		render_text_of(t, color, 0, out, NULL);
		break;
	case FMT_MD:
		render_md(t, out);
		break;
	case FMT_CSV:
		render_csv(t, out);
		break;
	case FMT_JSON:
		render_json(t, out);
		break;
	case FMT_HTML:
		render_html(t, out);
		break;
	}
}
