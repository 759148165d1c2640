/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * Text whose lines were rewritten on the way to the file: a mail kept
 * quoted-printable, no-break spaces copied from a web page, a progress
 * line overwritten in a terminal ('\r'), and lines a page or mail client
 * ran together ("$ dd ... 1024+0 records in 1024+0 records out ...",
 * dd's output glued to its command without a blank).  Each is undone
 * here, every piece under the number of the file line it came from, and
 * the pieces go to input_add_line() (input-clean.c) one by one.
 */
#include "input.h"
#include "input-private.h"
#include "strbuf.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Appends a quoted-printable line to sb, decoded ("=3D" is '=', "=20" a
 * blank; "=00" is left as it is).  Returns 1 when the line ends in a
 * soft break ("=" at the end: the mail client wrapped it and the next
 * line continues it).
 */
int input_qp_append(struct strbuf *sb, const char *s, const char *end)
{
	while (end > s && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (; s < end; s++) {
		if (*s == '=' && s + 1 == end)
			return 1;
		/* "=00" stays as it is: a NUL would end the line's text
		 * early, hiding what follows from every parser */
		if (*s == '=' && s + 2 < end + 1 && hex_value(s[1]) >= 0 &&
		    hex_value(s[2]) >= 0 && (s[1] != '0' || s[2] != '0')) {
			strbuf_addch(sb, (char)(hex_value(s[1]) * 16 +
						hex_value(s[2])));
			s += 2;
			continue;
		}
		strbuf_addch(sb, *s);
	}
	return 0;
}

/* Does [p, end) open with the phrase? */
static int opens_with(const char *p, const char *end, const char *phrase)
{
	size_t n = strlen(phrase);

	return (size_t)(end - p) >= n && !memcmp(p, phrase, n);
}

/*
 * "user@host:~/dir$" and a blank at p: the prompt of the next command,
 * which a page that lost its breaks glues after the output before it.
 */
static int opens_user_prompt(const char *p, const char *end)
{
	const char *e = p, *at = NULL, *colon = NULL;

	while (e < end && *e != ' ' && *e != '\t' && e - p <= 64) {
		if (*e == '@' && !at)
			at = e;
		if (*e == ':' && at && !colon)
			colon = e;
		e++;
	}
	return at && colon && at > p && colon > at + 1 && e < end &&
	       e - p <= 64 &&
	       (e[-1] == '$' || e[-1] == '#');
}

/*
 * Does a line of output start at p, in a line whose breaks a web page or
 * mail client lost?  Only fixed phrases that nothing else prints:
 * hdparm's "Timing ... reads" and its "/dev/sdX:" header before one, dd's
 * "N+M records in|out" and "N bytes (" / "N bytes copied|transferred",
 * the shell's "real 0m1.2s" / "user" / "sys", iozone's table header
 * ("kB  reclen ...", "random random ..."), blockdev-perftest's
 * ("blocksize  W  W ..."); and the "user@host:~$ " of the next command
 * (looked for only when the line has an '@': has_at).
 */
static int starts_reflowed_line(const char *p, const char *end, int has_at)
{
	const char *q = p;

	switch (*p) {
	case 'T':
		return opens_with(p, end, "Timing cached reads:") ||
		       opens_with(p, end, "Timing buffered disk reads") ||
		       opens_with(p, end, "Timing buffer-cache reads:") ||
		       opens_with(p, end, "Timing O_DIRECT ");
	case '/':
		if (!opens_with(p, end, "/dev/"))
			return 0;
		while (q < end && *q != ' ' && *q != '\t')
			q++;
		return q[-1] == ':' && opens_with(skip_blanks(q, end), end,
						  "Timing ");
	case 'r': case 'u': case 's':
		if (!opens_with(p, end, "real") && !opens_with(p, end, "user") &&
		    !opens_with(p, end, "sys"))
			return opens_with(p, end, "random random ");
		q = skip_blanks(p + (*p == 's' ? 3 : 4), end);
		if (q == p + (*p == 's' ? 3 : 4))
			return 0;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		return q < end && *q == 'm' && q + 1 < end &&
		       q[1] >= '0' && q[1] <= '9';
	case 'b':	/* blockdev-perftest's "blocksize        W ..." */
		return opens_with(p, end, "blocksize ") &&
		       opens_with(skip_blanks(p + 10, end), end, "W ");
	case 'K': case 'k':
		return opens_with(p, end, "KB  reclen ") ||
		       opens_with(p, end, "kB  reclen ") ||
		       opens_with(p, end, "KB reclen ") ||
		       opens_with(p, end, "kB reclen ");
	}
	if (has_at && opens_user_prompt(p, end))
		return 1;
	if (*p < '0' || *p > '9')
		return 0;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q < end && *q == '+') {
		const char *d = ++q;

		while (q < end && *q >= '0' && *q <= '9')
			q++;
		return q > d && (opens_with(q, end, " records in") ||
				 opens_with(q, end, " records out"));
	}
	return opens_with(q, end, " bytes (") ||
	       opens_with(q, end, " bytes copied") ||
	       opens_with(q, end, " bytes transferred");
}

/*
 * Does [p, end) open a line of a tool's output: one of the phrases
 * above (not a prompt), or fio's result line ("read: IOPS=357k, BW=...",
 * 2.x "write: io=...", the group's "READ: bw=...")?  A table cell holding
 * one is that output (input_add_table_row()).
 */
int input_opens_output(const char *p, const char *end)
{
	static const char *const fio[] = {
		"read: IOPS=", "write: IOPS=", "trim: IOPS=", "read : io=",
		"write: io=", "trim : io=", "READ: bw=", "WRITE: bw=",
		"READ: io=", "WRITE: io=", NULL
	};

	for (size_t k = 0; fio[k]; k++)
		if (opens_with(p, end, fio[k]))
			return 1;
	return p < end && !opens_user_prompt(p, end) &&
	       starts_reflowed_line(p, end,
				    memchr(p, '@', (size_t)(end - p)) != NULL);
}

/* Is [h, e) hdparm's device header ("/dev/sda:"), blanks around it? */
static int is_device_header(const char *h, const char *e)
{
	const char *p;

	while (h < e && is_blank(*h))
		h++;
	while (e > h && is_blank(e[-1]))
		e--;
	if (!opens_with(h, e, "/dev/") || e[-1] != ':')
		return 0;
	for (p = h; p < e && !is_blank(*p); p++)
		;
	return p == e;
}

/*
 * A line that is one Markdown inline-code span, as a blog shows an
 * output or a command ("`/dev/sda: Timing cached reads: ... MB/sec`"):
 * narrows [*s, *end) to the span's text.  A fence ("```") is no span.
 */
static void past_inline_code(const char **s, const char **end)
{
	const char *b = *s, *e = *end;

	while (b < e && is_blank(*b))
		b++;
	while (e > b && is_blank(e[-1]))
		e--;
	if (e - b < 3 || *b != '`' || e[-1] != '`' || b[1] == '`' ||
	    memchr(b + 1, '`', (size_t)(e - b - 2)))
		return;
	*s = b + 1;
	*end = e - 1;
}

/* Past a run of digits at p. */
static const char *past_digits(const char *p, const char *end)
{
	while (p < end && is_digit(*p))
		p++;
	return p;
}

/*
 * dd's "N+M records in" or "N+M records out" (the English words) at p:
 * the end of the phrase, or NULL.  *plus is the '+'.
 */
static const char *dd_records_at(const char *p, const char *end,
				 const char **plus)
{
	const char *q = past_digits(p, end), *d;

	if (q == p || q >= end || *q != '+')
		return NULL;
	*plus = q;
	d = ++q;
	q = past_digits(q, end);
	if (q == d)
		return NULL;
	if (opens_with(q, end, " records in"))
		return q + 11;
	if (opens_with(q, end, " records out"))
		return q + 12;
	return NULL;
}

/* dd's summary opening at p: "N bytes (", "N bytes copied|transferred". */
static int dd_summary_at(const char *p, const char *end)
{
	const char *q = past_digits(p, end);

	return q > p && (opens_with(q, end, " bytes (") ||
			 opens_with(q, end, " bytes copied") ||
			 opens_with(q, end, " bytes transferred"));
}

/*
 * A dd output glued to what was before it, where a page lost the break
 * and the blank between them: "... conv=fdatasync1+0 records in",
 * "records in131072+0 records out2147483648 bytes (2.1 GB) copied, ...".
 * p is the first digit of a run that a non-blank, non-digit ends
 * before; returns where the output starts (in the run: the run may
 * hold the end of an operand, "count=1010+0 records in10+0 records
 * out"), or NULL.  Where the run may end in a number of its own (after
 * '=' or a digit) the split is taken only when the "records out" count
 * says it: on the same line, or opening the next one when the records
 * in end this line ("bs=1M count=10001000+0 records in" over "1000+0
 * records out", a forum post that lost only that break); after a word
 * ("fdatasync", "direct") the whole run is the count, but not after a
 * path (of=/dev/sda11+0: sda1 or sda11?), which a "records out" count
 * must settle.
 */
/* Is p inside a path ("of=/dev/sda11+0 records in": the digits may be
 * the device's own, sda1 or sda11)?  The word before p holds a '/'. */
static int in_path(const char *s, const char *p)
{
	for (const char *q = p; q > s && q[-1] != ' ' && q[-1] != '\t'; q--)
		if (q[-1] == '/')
			return 1;
	return 0;
}

/*
 * The "records out" line opening the next raw line (after blanks and a
 * mail's quote marks), [next, data_end): the start of its count, *plus
 * its '+'; NULL when it holds none.
 */
static const char *records_out_below(const char *next, const char *data_end,
				     const char **plus)
{
	const char *e;

	if (!next)
		return NULL;
	while (next < data_end && (is_blank(*next) || *next == '>'))
		next++;
	e = dd_records_at(next, data_end, plus);
	return e && e[-1] == 't' ? next : NULL;
}

/*
 * Where in the digits [p, plus) the records in count starts, as the
 * records out count at o (its '+' at oplus) says it ("1010" over "10":
 * "10"), or NULL when it says nothing.
 */
static const char *split_by_out_count(const char *p, const char *plus,
				      const char *o, const char *oplus)
{
	size_t n = (size_t)(plus - p), on = (size_t)(oplus - o);

	if (on < n && !memcmp(plus - on, o, on) &&
	    ((plus - on)[0] != '0' || on == 1))
		return plus - on;
	if (on == n && !memcmp(p, o, n))
		return p;
	return NULL;
}

static const char *glued_dd_opening(const char *s, const char *p,
				    const char *end, const char *next,
				    const char *data_end)
{
	const char *plus, *e, *oplus, *oe, *o, *split = NULL;

	if (dd_summary_at(p, end))	/* only right after records */
		return (p - s >= 11 && !memcmp(p - 11, "records out", 11)) ||
		       (p - s >= 10 && !memcmp(p - 10, "records in", 10)) ?
		       p : NULL;
	if (!(e = dd_records_at(p, end, &plus)))
		return NULL;
	/* the out count right after, "N'+M' records out", on this line */
	if (end - e > 1 && e[-1] == 'n' && is_digit(*e) &&
	    (oe = dd_records_at(e, end, &oplus)) && oe[-1] == 't')
		split = split_by_out_count(p, plus, e, oplus);
	/* or opening the next line, the records in ending this one */
	else if (e[-1] == 'n' && skip_blanks(e, end) == end &&
		 (o = records_out_below(next, data_end, &oplus)))
		split = split_by_out_count(p, plus, o, oplus);
	if (split)
		return split;
	return p[-1] == '=' || in_path(s, p) ? NULL : p;
}

/*
 * The end of a GNU dd summary's rate when more text is glued to it
 * ("... copied, 40.7823 s, 52.7 MB/s## sync# dd ..."): the next prompt
 * or command starts there.  NULL when the summary at p ends the line or
 * a blank follows its rate.
 */
static const char *glued_after_rate(const char *p, const char *end)
{
	const char *c = NULL, *r;

	for (const char *q = p; q + 9 <= end; q++)
		if (!memcmp(q, " copied, ", 9)) {
			c = q + 9;
			break;
		}
	if (!c)
		return NULL;
	for (r = c; r + 2 < end; r++)
		if (r[0] == 'B' && r[1] == '/' && r[2] == 's')
			break;
	if (r + 2 >= end)
		return NULL;
	r += 3;
	return r < end && !is_blank(*r) && *r != ',' && *r != ')' ? r : NULL;
}

enum cut_kind { CUT_BLANK, CUT_GLUED, CUT_RATE };

/*
 * The glued cuts hold only when every piece they open is exactly one of
 * dd's phrases: a records line to the next cut ("1+0 records in"), or a
 * summary (to its rate, where a cut after the rate frees what was glued
 * after it).  Else they all go (the blank-led cuts stay): returns the
 * cuts kept.
 */
static size_t check_glued(const char **cut, enum cut_kind *kind, size_t n,
			  const char *end)
{
	size_t k = 0;
	int ok = 1;

	for (size_t i = 0; i < n && ok; i++) {
		const char *stop = i + 1 < n ? cut[i + 1] : end, *plus, *e;

		if (kind[i] != CUT_GLUED)
			continue;
		if (dd_summary_at(cut[i], stop))
			continue;
		e = dd_records_at(cut[i], stop, &plus);
		while (e && e < stop && is_blank(*e))
			e++;
		ok = e == stop;
	}
	if (ok)
		return n;
	for (size_t i = 0; i < n; i++)
		if (kind[i] == CUT_BLANK)
			kind[k] = kind[i], cut[k++] = cut[i];
	return k;
}

/*
 * Where a page glued a dd output to its command, it glued the prompts
 * too: "...38## sync# dd if=/dev/zero ... of=/data/tmp131072+0 records
 * in..." and, after the summary's rate, "MB/s## sync# dd if=...".  In
 * the piece before a glued output and the piece after a glued rate, a
 * "# " or "$ " right after a non-blank opens a prompt line: cut there
 * too, but not where it ends a prompt of its own ("root@host:~# dd ...",
 * "[root@host ~]# dd ...": its line is already a command after a prompt,
 * and "root@host:~" cut off stood alone as a heading).  Returns the number
 * of cuts.
 */
static int ends_prompt(const char *a, const char *q, const char *end)
{
	/* the word that q ends: "root@host:~#" */
	const char *w = q;

	if (q[-1] == ']')
		return 1;
	while (w > a && !is_blank(w[-1]))
		w--;
	return opens_user_prompt(w, end);
}

static size_t cut_glued_prompts(const char *s, const char **cut,
				enum cut_kind *kind, size_t n, const char *end)
{
	const char *out[REFLOW_MAX];
	enum cut_kind ok[REFLOW_MAX];
	size_t k = 0;

	for (size_t i = 0; i <= n && k < REFLOW_MAX; i++) {
		const char *a = i ? cut[i - 1] : s, *b = i < n ? cut[i] : end;

		if ((i < n && kind[i] == CUT_GLUED &&
		     !dd_summary_at(cut[i], end)) ||
		    (i && kind[i - 1] == CUT_RATE))
			for (const char *q = a + 1; q + 2 < b && k < REFLOW_MAX;
			     q++)
				if ((*q == '#' || *q == '$') && q[1] == ' ' &&
				    !is_blank(q[-1]) && !is_blank(q[2]) &&
				    !ends_prompt(a, q, b))
					ok[k] = CUT_RATE, out[k++] = q;
		if (i < n && k < REFLOW_MAX)
			ok[k] = kind[i], out[k++] = cut[i];
	}
	memcpy(cut, out, k * sizeof(*cut));
	memcpy(kind, ok, k * sizeof(*kind));
	return k;
}

/*
 * A line a web page or mail client ran together from several ("$ dd
 * if=/dev/zero of=t bs=1M count=1024 1024+0 records in 1024+0 records
 * out 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 5.1 s, 211 MB/s") is
 * cut again before each such opening, every piece under the line's own
 * number.  Two openings, or one after a command, make it one: a sentence
 * that quotes one phrase keeps its line.  next is the raw line after
 * this one (NULL at the end), where a records out count may settle a
 * split.
 */
/*
 * The end of the line at next (NULL: none), found once into *cache: its
 * newline, or the NUL after the text (a window's copy has one after the
 * line it holds beyond the window: input_cut_window()).
 */
static const char *line_end(const char *next, const char **cache)
{
	if (next && !*cache)
		*cache = next + strcspn(next, "\n");
	return *cache;
}

/*
 * Does [s, end) hold " records " or " bytes"?  From blank to blank:
 * glibc's memmem() builds a table for each call, and two calls for each
 * line of 40 bytes or more were 4% of a dd log's ingest.
 */
static int has_dd_word(const char *s, const char *end)
{
	while ((s = memchr(s, ' ', (size_t)(end - s)))) {
		size_t left = (size_t)(end - ++s);

		if ((left >= 8 && !memcmp(s, "records ", 8)) ||
		    (left >= 5 && !memcmp(s, "bytes", 5)))
			return 1;
	}
	return 0;
}

static void add_cut(struct input *in, char **arena, const char *s,
		    const char *end, unsigned lineno, const char *next)
{
	const char *cut[REFLOW_MAX];
	enum cut_kind kind[REFLOW_MAX];
	size_t n = 0;
	const char *next_end = NULL;
	int glued = 0, has_at, may_glue;

	if (end - s < 40) {
		input_add_line(in, arena, s, end, lineno);
		return;
	}
	/* (a prompt glued after output has a user@host: most lines have
	 * no '@' to look for at each word) */
	has_at = memchr(s, '@', (size_t)(end - s)) != NULL;
	/* (a glued dd output opens with "N+M records" or "N bytes": every
	 * number of a CSV row was tried, 6% of its ingest in perf) */
	may_glue = has_dd_word(s, end);
	for (const char *p = s + 1; p < end && n < REFLOW_MAX; p++) {
		const char *g, *r;

		if ((p[-1] == ' ' || p[-1] == '\t') && p[0] != ' ' &&
		    p[0] != '\t' && starts_reflowed_line(p, end, has_at))
			kind[n] = CUT_BLANK, cut[n++] = g = p;
		else if (may_glue && is_digit(*p) && !is_blank(p[-1]) &&
			 !is_digit(p[-1]) &&
			 (g = glued_dd_opening(s, p, end, next,
					       line_end(next, &next_end))))
			kind[n] = CUT_GLUED, cut[n++] = g, glued = 1;
		else
			continue;
		p = g;
		/* a summary's rate with the next prompt glued to it */
		if (n < REFLOW_MAX && dd_summary_at(g, end) &&
		    (r = glued_after_rate(g, end)))
			kind[n] = CUT_RATE, cut[n++] = p = r, glued = 1;
	}
	if (glued && (n = check_glued(cut, kind, n, end)))
		n = cut_glued_prompts(s, cut, kind, n, end);
	if (n == 1) {
		/* one opening: the text before it is a command of a tool
		 * that prints such a line */
		const char *h = s;
		char *head;

		while (h < cut[0] && (is_blank(*h) || *h == '>'))
			h++;	/* "> $ dd ...": a quoted mail's line */
		if (is_device_header(h, cut[0]))	/* hdparm's */
			goto cut;
		if (!in->runs_output_tool)
			n = 0;
		else {
			head = xstrndup(h, (size_t)(cut[0] - h));
			if (!in->runs_output_tool(head))
				n = 0;
			free(head);
		}
	}
cut:
	for (size_t i = 0; i < n; i++) {
		input_add_line(in, arena, s, cut[i], lineno);
		s = cut[i];
	}
	input_add_line(in, arena, s, end, lineno);
}

/*
 * A Markdown table's row, a line that is one inline-code span, a dd
 * command whose blanks were lost (rebuilt, input-blanks.c), then the
 * cuts of add_cut().  A rebuilt line longer than a quarter of the raw
 * one and 2 bytes more is left as it is: split_lines() sized the arena
 * by that.
 */
static void add_reflowed(struct input *in, char **arena, const char *s,
			 const char *end, unsigned lineno, const char *next)
{
	struct strbuf rebuilt = STRBUF_INIT, why = STRBUF_INIT;
	size_t raw;

	if (input_add_table_row(in, arena, s, end, lineno))
		return;
	if (memchr(s, '`', (size_t)(end - s)))
		past_inline_code(&s, &end);
	raw = (size_t)(end - s);
	if (input_dd_blanks_lost(s, end, &rebuilt, &why) > 0 &&
	    rebuilt.len <= raw + raw / 4 + 2) {
		s = strbuf_str(&rebuilt);
		end = s + rebuilt.len;
	}
	add_cut(in, arena, s, end, lineno, next);
	strbuf_release(&rebuilt);
	strbuf_release(&why);
}

static inline void add_piece(struct input *in, char **arena, const char *s,
		      const char *end, unsigned lineno, int has_cr,
		      const char *next)
{
	const char *c;

	/* A lone CR inside a line is a terminal overwrite. */
	while (has_cr && (c = memchr(s, '\r', (size_t)(end - s))) &&
	       c + 1 < end) {
		if (c > s)
			input_add_line(in, arena, s, c, lineno);
		s = c + 1;
	}
	add_reflowed(in, arena, s, end, lineno, next);
}

/* Length of a no-break or thin space at s in UTF-8 (U+00A0, U+202F,
 * U+2009), else 0. */
static size_t wide_blank(const char *s, const char *end)
{
	const unsigned char *u = (const unsigned char *)s;

	if (end - s >= 2 && u[0] == 0xc2 && u[1] == 0xa0)
		return 2;
	if (end - s >= 3 && u[0] == 0xe2 && u[1] == 0x80 &&
	    (u[2] == 0xaf || u[2] == 0x89))
		return 3;
	return 0;
}

/*
 * Text copied from a web page or a mail client carries no-break spaces
 * for blanks (" Timing cached reads:\xc2\xa0 25000 MB", "5.1\xc2\xa0s"), and
 * French typography a narrow one before units: no parser knows them
 * for blanks.  Does the text hold any (raw, or as quoted-printable)?
 */
int input_has_wide_blanks(const char *data, int qp)
{
	return input_find_text(data, "\xc2\xa0") ||
	       input_find_text(data, "\xe2\x80\xaf") ||
	       input_find_text(data, "\xe2\x80\x89") ||
	       (qp && (input_find_text(data, "=C2=A0") ||
		       input_find_text(data, "=E2=80")));
}

/* add_piece() of [s, end) with its wide blanks made plain ones. */
void input_add_text(struct input *in, char **arena, const char *s,
		    const char *end, unsigned lineno, int has_cr,
		    struct strbuf *plain, const char *next)
{
	if (!plain) {
		add_piece(in, arena, s, end, lineno, has_cr, next);
		return;
	}
	strbuf_reset(plain);
	while (s < end) {
		size_t w = wide_blank(s, end);
		const char *run = s;

		if (w) {
			strbuf_addch(plain, ' ');
			s += w;
			continue;
		}
		while (s < end && !wide_blank(s, end))
			s++;
		strbuf_add(plain, run, (size_t)(s - run));
	}
	add_piece(in, arena, strbuf_str(plain), strbuf_str(plain) + plain->len,
		  lineno, has_cr, next);
}
