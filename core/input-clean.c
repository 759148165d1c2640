/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * One line made clean (see input.h): the "> > " of a quoted mail, a grep
 * prefix or pdsh host (kept apart as the line's origin), its indent, the
 * typed prefixes and bold a poster put around a line of output, and the
 * one cell of a Markdown table row.  The text is copied into the arena
 * the caller sized (input.c, split_lines()).
 */
#include "input.h"
#include "input-private.h"
#include "xalloc.h"

#include <limits.h>
#include <string.h>

/* Strips "> > " quote markers. */
static void strip_quotes(const char **p, const char *end)
{
	const char *s = *p;

	for (;;) {
		const char *t = s;

		while (t < end && is_blank(*t))
			t++;
		if (t >= end || *t != '>')
			break;
		/* ">=" and ">>>" runs in prose are not worth a special case;
		 * "dieter:> " never starts a line. */
		s = t + 1;
	}
	*p = s;
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '/' ||
	       c == '+' || c == '-';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * A grep prefix is a file name with an extension, optionally followed by
 * ":LINE", then ':' — "nvme.randread.txt: read: IOPS=61.2k".  Device
 * headers ("/dev/sda:") and tool messages ("dd: error") have no extension
 * and are left alone.  Returns the length of the name, 0 if none; *skip is
 * the length of the whole prefix.
 */
/*
 * "10.0.0.11: " -- pdsh, clush and ansible put the host before each line
 * of output; a dotted IPv4 address then a colon and a blank is that and
 * nothing else.  Returns the address length, 0 if none.
 */
static size_t host_prefix(const char *s, const char *end, size_t *skip)
{
	const char *p = s;
	int parts = 0;

	while (parts < 4) {
		const char *d = p;

		while (p < end && *p >= '0' && *p <= '9' && p - d < 3)
			p++;
		if (p == d)
			return 0;
		if (++parts < 4) {
			if (p >= end || *p != '.')
				return 0;
			p++;
		}
	}
	if (p + 1 >= end || *p != ':' || (p[1] != ' ' && p[1] != '\t'))
		return 0;
	*skip = (size_t)(p - s) + 1;
	return (size_t)(p - s);
}

static size_t grep_prefix(const char *s, const char *end, size_t *skip)
{
	const char *p = s, *dot = NULL;
	size_t host = host_prefix(s, end, skip);

	if (host)
		return host;

	while (p < end && is_name_char(*p)) {
		if (*p == '.')
			dot = p;
		p++;
	}
	if (!dot || p >= end || *p != ':' || dot + 1 >= p ||
	    !is_alpha(dot[1]) || p - s < 3)
		return 0;
	for (const char *x = dot + 1; x < p; x++)
		if (!is_alpha(*x) && !(*x >= '0' && *x <= '9'))
			return 0;
	if (p + 1 < end && p[1] == '/')
		return 0;	/* "host.example:/path" is not grep */
	*skip = (size_t)(p - s) + 1;
	if (p + 1 < end && p[1] >= '0' && p[1] <= '9') {
		const char *q = p + 1;

		while (q < end && *q >= '0' && *q <= '9')
			q++;
		if (q < end && *q == ':')
			*skip = (size_t)(q - s) + 1;
	}
	return (size_t)(p - s);
}

/* A byte of a time stamp besides its digits.  (Not strchr() of a
 * literal: a call of the libc for each byte of every line's start.) */
static int is_stamp_mark(char c)
{
	return c == '-' || c == ':' || c == '.' || c == 'T' || c == 'Z' ||
	       c == '+' || c == ' ';
}

/*
 * Typed prefixes: what a poster puts before a line of output -- a list's
 * number ("2) ", "1. ", "2 - ", "(3) "), a bullet ("* ", "- ", "+ ",
 * "• "), a time stamp ("[2023-04-07 10:11:12] ", "2023-04-07T10:11:12Z ",
 * "2023-04-07 10:11:12 ",
 * "10:11:12 ", "[ 12.345678] ").  The length of one at s (with the blanks
 * after it), or 0.
 */
static size_t typed_prefix(const char *s, const char *end)
{
	const char *p = s;
	size_t digits = 0;

	/* ("| ": a mail's other quote mark, "| Timing buffered ...") */
	if (end - s >= 2 && (*s == '*' || *s == '-' || *s == '+' ||
			     *s == '|') && s[1] == ' ')
		return 2;
	if (end - s >= 4 && !memcmp(s, "\xe2\x80\xa2 ", 4))
		return 4;
	if (*p == '(')
		p++;
	while (p < end && *p >= '0' && *p <= '9' && digits < 4)
		p++, digits++;
	if (digits && digits <= 3 && p + 1 < end) {
		if ((*s == '(' && *p == ')') || (*s != '(' &&
						  (*p == ')' || *p == '.')))
			return p[1] == ' ' ? (size_t)(p + 2 - s) : 0;
		if (*s != '(' && p + 2 < end && !memcmp(p, " - ", 3))
			return (size_t)(p + 3 - s);
	}
	/* a stamp: digits with '-', ':', '.', 'T', 'Z' (and '[' ']'
	 * around), holding a ':' or a '.' between digits */
	p = s + (*s == '[');
	digits = 0;
	{
		int clock = 0;

		while (p < end && ((*p >= '0' && *p <= '9') ||
				   is_stamp_mark(*p))) {
			if (*p >= '0' && *p <= '9')
				digits++;
			else if ((*p == ':' || *p == '.') && digits)
				clock = 1;
			/* "2023-04-07 10:11:12": a date, a blank, a clock */
			if (*p == ' ' && *s != '[' && digits == 8 && !clock &&
			    p - s == 10 && p + 3 < end && is_digit(p[1]) &&
			    is_digit(p[2]) && p[3] == ':') {
				p++;
				continue;
			}
			if (*p == ' ' && (*s != '[' || (p + 1 < end &&
							 p[1] == ' ')))
				break;
			p++;
		}
		if (*s == '[') {
			if (p >= end || *p != ']')
				return 0;
			p++;
		}
		if (digits >= 6 && clock && p < end && *p == ' ')
			return (size_t)(p + 1 - s);
	}
	return 0;
}

/*
 * Does the text at [s, end) open like a line of a tool's output?  Only
 * then is a typed prefix before it taken off: a list item of prose keeps
 * its number.
 */
static int opens_output_line(const char *s, const char *end)
{
	static const char *const openings[] = {
		"Timing cached reads:", "Timing buffered disk reads",
		"Timing O_DIRECT ", "Timing buffer-cache reads:",
		"Children see throughput", "Parent sees throughput",
		/* fio's: 2 (see past_typed_prefixes) */
		"READ: ", "WRITE: ", "TRIM: ", "read : io=", "write: io=",
		"read: IOPS=", "write: IOPS=", "read : IOPS=", "trim: IOPS=",
		"Run status group ", NULL
	};
	size_t n = (size_t)(end - s);
	const char *p = s;

	if (n > 6 && !memcmp(s, "/dev/", 5) && end[-1] == ':' &&
	    !memchr(s, ' ', n))
		return 1;	/* hdparm's "/dev/sdb:" over its timings */
	for (size_t k = 0; openings[k]; k++)
		if (n >= strlen(openings[k]) &&
		    !memcmp(s, openings[k], strlen(openings[k])))
			return k < 6 ? 1 : 2;
	/* time's "real\t0m1.2s", dd's "1024+0 records", "N bytes (": and
	 * zsh's "... 0.01s user 0.50s system 99% cpu 0.512 total" */
	if ((n > 5 && (!memcmp(s, "real", 4) || !memcmp(s, "user", 4)) &&
	     (s[4] == '\t' || s[4] == ' ')) ||
	    (n > 4 && !memcmp(s, "sys", 3) && (s[3] == '\t' || s[3] == ' ')))
		return 1;
	if (n > 6 && !memcmp(end - 6, " total", 6) &&
	    memmem(s, n, "s user ", 7) && memmem(s, n, "s system ", 9))
		return 1;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p > s && p < end && *p == '+') {
		const char *q = ++p;

		while (p < end && *p >= '0' && *p <= '9')
			p++;
		return p > q && p < end && *p == ' ';
	}
	return p > s && end - p > 7 && (!memcmp(p, " bytes ", 7) ||
					!memcmp(p, " bytes,", 7));
}

/*
 * Past the typed prefixes at t (up to three: "2) - ") when the rest is
 * a line of output.  fio's text parser learns a report's own prefix from
 * its first line ("* read : io=", a code block numbered "5. read: ...",
 * "10. | 1.00th=...") and takes it off every line of the report: before
 * fio's lines, the "N. " and bullets it learns are left to it.
 */
static const char *past_typed_prefixes(const char *t, const char *end)
{
	const char *p = t;
	size_t n;

	for (int k = 0; k < 3 && (n = typed_prefix(p, end)); k++) {
		const char *prefix = p;
		int kind;

		p = skip_blanks(p + n, end);
		kind = opens_output_line(p, end);
		if (kind == 2 && (prefix[n - 2] == '.' ||
				  (n == 2 && strchr("*-+", prefix[0])) ||
				  !memcmp(prefix, "\xe2\x80\xa2", 3)))
			return t;
		if (kind)
			return p;
	}
	return t;
}

/*
 * A line of output a forum post set in bold ("** Timing buffered disk
 * reads:   90 MB in  3.04 seconds =  29.59 MB/sec**"): the marks off
 * both ends when the rest opens like a line of output.
 */
static void past_bold(const char **t, const char **end)
{
	const char *p = skip_blanks(*t + 2, *end), *e = *end;

	while (e > p && is_blank(e[-1]))
		e--;
	/* the whole line bold: "**Timing cached reads:** 18842 MB" keeps
	 * its marks (taken off, the label would read "reads:**") */
	if (e - p <= 2 || e[-1] != '*' || e[-2] != '*')
		return;
	e -= 2;
	while (e > p && is_blank(e[-1]))
		e--;
	if (!opens_output_line(p, e))
		return;
	*t = p;
	*end = e;
}

/* Sets line i's extra to v; the array is made at the first non-zero. */
#define SET_EXTRA(in, field, i, v) \
	do { \
		if (v) { \
			if (!(in)->field) \
				(in)->field = xcalloc((in)->lines_alloc, \
						      sizeof(*(in)->field)); \
			(in)->field[i] = (v); \
		} \
	} while (0)

void input_add_line(struct input *in, char **arena, const char *s,
		    const char *end, unsigned lineno)
{
	struct input_line *l;
	const char *b = s, *t;
	size_t name_len = 0, skip = 0, indent, i;

	while (end > s && is_blank(end[-1]))
		end--;
	if (in->nlines >= INPUT_LINES_MAX) {	/* refused whole: see input.h */
		in->too_many_lines = 1;
		return;
	}
	t = skip_blanks(s, end);
	if (in->nlines == in->lines_alloc)	/* (a call a line cost 3%) */
		input_grow_lines(in, in->nlines + 1);
	i = in->nlines++;
	l = &in->lines[i];
	l->lineno = lineno;
	if (t < end && *t == '>') {
		strip_quotes(&b, end);
		t = b;
	}
	/* a grep prefix or host starts the line (after quote markers) with
	 * a name character: indented lines (JSON, tables) need no look */
	if (t == b && t < end && is_name_char(*t))
		name_len = grep_prefix(b, end, &skip);
	/* (origins are numbered: past 4 GiB of them a prefix stays text) */
	if (name_len && in->names_len + name_len + 1 < UINT_MAX) {
		char *name;

		ALLOC_GROW(in->names, in->names_len + name_len + 1,
			   in->names_alloc);
		name = in->names + in->names_len;
		memcpy(name, b, name_len);
		name[name_len] = '\0';
		SET_EXTRA(in, origin, i, (unsigned)in->names_len + 1);
		in->names_len += name_len + 1;
		b += skip;
		strip_quotes(&b, end);
		t = b;
	}
	t = skip_blanks(t, end);
	indent = (size_t)(t - b);
	/* (most lines open with a letter: no prefix to look for) */
	if (t < end && !is_alpha(*t))
		t = past_typed_prefixes(t, end);
	if (end - t > 4 && t[0] == '*' && t[1] == '*')
		past_bold(&t, &end);
	if (indent > USHRT_MAX)
		indent = USHRT_MAX;
	SET_EXTRA(in, indent, i, (unsigned short)indent);
	l->text = *arena;
	l->len = (unsigned)(end - t);
	memcpy(l->text, t, l->len);
	l->text[l->len] = '\0';
	*arena += l->len + 1;
	if (in->prompt_len) {
		size_t p = in->prompt_len(l->text);

		SET_EXTRA(in, prompt, i,
			  p < USHRT_MAX ? (unsigned short)(p + 1) : 0);
	}
}

/* Is [s, e) a Markdown table's delimiter cell ("---", ":--:")? */
static int is_delimiter_cell(const char *s, const char *e)
{
	int dash = 0;

	for (; s < e; s++) {
		if (*s == '-')
			dash = 1;
		else if (*s != ':' && !is_blank(*s))
			return 0;
	}
	return dash;
}

#define TABLE_CELLS_MAX 16

/* Is [c, e) "/dev/<name>", one word: a device, as hdparm heads its output? */
static int is_device_path(const char *c, const char *e)
{
	if (e - c < 6 || memcmp(c, "/dev/", 5))
		return 0;
	for (; c < e; c++)
		if (is_blank(*c))
			return 0;
	return 1;
}

/*
 * A two-cell row whose cell out is an output line and cell name names
 * it: the output under its name as a post writes it without a table.  A
 * device before hdparm's timing is its header ("/dev/sda:"); another
 * name is a line of its own right over the output, after a blank line
 * (the context pass takes it for the plain heading of that output
 * alone).  Returns 0 when the row is none (nothing added).
 */
static int add_named_output(struct input *in, char **arena,
			    const char *const cell[2], const char *const cend[2],
			    unsigned lineno)
{
	int o = input_opens_output(cell[1], cend[1]) ? 1 :
		input_opens_output(cell[0], cend[0]) ? 0 : -1;
	const char *name, *name_end;

	if (o < 0 || input_opens_output(cell[1 - o], cend[1 - o]))
		return 0;
	name = cell[1 - o];
	name_end = cend[1 - o];
	if (name == name_end || name_end - name > 80 ||
	    is_delimiter_cell(name, name_end))
		return 0;
	if (is_device_path(name, name_end - (name_end[-1] == ':')) &&
	    cend[o] - cell[o] > 7 && !memcmp(cell[o], "Timing ", 7)) {
		char header[96];
		size_t n = (size_t)(name_end - name) - (name_end[-1] == ':');

		memcpy(header, name, n);
		header[n] = ':';
		input_add_line(in, arena, header, header + n + 1, lineno);
	} else {
		input_add_line(in, arena, name, name, lineno);	/* blank */
		input_add_line(in, arena, name, name_end, lineno);
	}
	input_add_line(in, arena, cell[o], cend[o], lineno);
	return 1;
}

/*
 * A Markdown table row ("| Timing cached reads:   18842 MB in  2.00
 * seconds = 9429.78 MB/sec |"): a post that shows an output in a table
 * puts each line in a one-cell row, under a header cell naming the
 * command or the machine ("| Raspberry Pi 5 / NVMe.M2 2To: |" over
 * "|----|").  A one-cell row becomes its cell; the delimiter row under a
 * one-cell header underlines it (a heading), or is a blank line when the
 * header is a command (the command of the rows below).  A row of two
 * cells, one an output line and the other a name ("| X1 Carbon 10th gen
 * | read: IOPS=357k, BW=1395MiB/s ... |", one row per machine), is that
 * output under its name: see add_named_output().  Returns 0 (nothing
 * added) for any other line: a row of more cells is kept as it is
 * (which cell names the output is not known).
 */
int input_add_table_row(struct input *in, char **arena, const char *s,
			const char *end, unsigned lineno)
{
	const char *b = skip_blanks(s, end), *e = end, *cell[TABLE_CELLS_MAX];
	const char *cend[TABLE_CELLS_MAX];
	size_t k = 0, delims = 0;
	int prev = in->table_cells;

	in->table_cells = 0;
	while (e > b && is_blank(e[-1]))
		e--;
	if (e - b < 3 || *b != '|' || e[-1] != '|' || !in->runs_output_tool)
		return 0;
	for (const char *p = b + 1, *c = p; p < e; p++)
		if (*p == '|' && p[-1] != '\\') {
			if (k == TABLE_CELLS_MAX)
				return 0;
			cell[k] = skip_blanks(c, p);
			cend[k] = p;
			while (cend[k] > cell[k] && is_blank(cend[k][-1]))
				cend[k]--;
			delims += is_delimiter_cell(cell[k], cend[k]);
			k++;
			c = p + 1;
		}
	if (!k)
		return 0;
	if (delims == k) {
		static const char rule[] = "---";

		if (prev != 1)
			return 0;
		in->table_cells = 1;
		if (in->nlines && in->runs_output_tool &&
		    in->runs_output_tool(in->lines[in->nlines - 1].text))
			input_add_line(in, arena, b, b, lineno);
		else
			input_add_line(in, arena, rule, rule + 3, lineno);
		return 1;
	}
	if (k == 1) {
		in->table_cells = 1;
		input_add_line(in, arena, cell[0], cend[0], lineno);
		return 1;
	}
	in->table_cells = (int)k;	/* several cells: kept as it is */
	return k == 2 && !delims && add_named_output(in, arena, cell, cend,
						      lineno);
}
