/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * The input layer; see input.h for what a clean line is.
 *
 * Lines are cut and cleaned once when the file is read; the cleaned texts
 * live in one arena so that a 100 MB log costs two allocations, not a
 * million.
 */
#include "input.h"
#include "cpus.h"
#include "filemap.h"
#include "numscan.h"
#include "sha256.h"
#include "strbuf.h"
#include "xalloc.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define HASH_THREAD_MIN (1 << 20)	/* bytes */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

/* Control characters but \t \n \f \r and ESC (and NUL, tested apart). */
static const unsigned char is_control[256] = {
	[1 ... 8] = 1, [11] = 1, [14 ... 26] = 1, [28 ... 31] = 1,
};

typedef unsigned char bytes16 __attribute__((vector_size(16)));

enum byte_kind { CONTROL_BYTES, NEWLINES };

/* Lanes of v that are of the kind: 0xff, others 0. */
static inline bytes16 kind_mask(bytes16 v, enum byte_kind kind)
{
	if (kind == NEWLINES)
		return (bytes16)(v == '\n');
	return (bytes16)((v < 32) & (v != 0) & (v != '\t') & (v != '\n') &
			 (v != '\f') & (v != '\r') & (v != 27));
}

/*
 * Bytes of p[0..n) of the kind, sixteen at a time with GCC's vector
 * extension (SSE2 on x86-64): the binary test through a table, a load a
 * byte, took 6-8 ms of a 7 MB fio JSON+ file, longer than hashing it.
 * A lane counts up to 255: the lanes are added up every 255 blocks.
 */
static size_t count_bytes(const unsigned char *p, size_t n,
			  enum byte_kind kind)
{
	size_t count = 0, i = 0;

	while (n - i >= 16) {
		bytes16 lanes = { 0 };

		for (int k = 0; k < 255 && n - i >= 16; k++, i += 16) {
			bytes16 v;

			memcpy(&v, p + i, sizeof(v));
			lanes -= kind_mask(v, kind);	/* a hit is -1 */
		}
		for (int k = 0; k < 16; k++)
			count += lanes[k];
	}
	for (; i < n; i++)
		count += kind == NEWLINES ? p[i] == '\n' : is_control[p[i]];
	return count;
}

/* NUL bytes, or more than 5% control characters, mean "not text". */
static int looks_binary(const char *data, size_t size)
{
	if (memchr(data, '\0', size))
		return 1;
	return size &&
	       count_bytes((const unsigned char *)data, size, CONTROL_BYTES) *
	       20 > size;
}

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

/*
 * Past the blanks at t.  Indentation (JSON, tables) is runs of spaces,
 * taken eight at a time: a JSON+ file's 170,000 lines are indented by
 * ten and more, and this loop was a fifth of cutting them.
 */
static inline const char *skip_blanks(const char *t, const char *end)
{
	static const uint64_t spaces = 0x2020202020202020ULL;
	uint64_t w;

	while (end - t >= 8 && (memcpy(&w, t, 8), w == spaces))
		t += 8;
	while (t < end && is_blank(*t))
		t++;
	return t;
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
	if (end - s >= 2 && *s && strchr("*-+|", *s) && s[1] == ' ')
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
				   (*p && strchr("-:.TZ+ ", *p)))) {
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

	if (e - p > 2 && e[-1] == '*' && e[-2] == '*')
		e -= 2;
	while (e > p && is_blank(e[-1]))
		e--;
	if (!opens_output_line(p, e))
		return;
	*t = p;
	*end = e;
}

/* The per-line extras grow with the lines (zeros for the new room). */
#define GROW_EXTRA(in, field, old) \
	do { \
		if ((in)->field) { \
			(in)->field = xrealloc((in)->field, (in)->lines_alloc * \
					       sizeof(*(in)->field)); \
			memset((in)->field + (old), 0, ((in)->lines_alloc - \
				(old)) * sizeof(*(in)->field)); \
		} \
	} while (0)

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

/* Room for need lines. */
static void grow_lines(struct input *in, size_t need)
{
	size_t old = in->lines_alloc;

	if (need <= old)
		return;
	ALLOC_GROW(in->lines, need, in->lines_alloc);
	GROW_EXTRA(in, origin, old);
	GROW_EXTRA(in, indent, old);
}

static void add_line(struct input *in, char **arena, const char *s,
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
		grow_lines(in, in->nlines + 1);
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

		if (!in->names)	/* names are at most the whole text */
			in->names = xmalloc(in->size + 1);
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
}

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
static int qp_append(struct strbuf *sb, const char *s, const char *end)
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

/*
 * strstr(text, needle), quicker where the needle's first byte is rare:
 * strchr leaps from one candidate to the next at memchr's speed, several
 * times glibc's strstr (a 7 MB JSON+ file has no 'T' and 512 '=', and
 * searching it for "Timing " and "=3D" took 1.8 ms).  Where that byte
 * turns out common (more than one in 256 bytes so far: '=' in a fio text
 * report), strstr takes the rest.
 */
static const char *find_text(const char *text, const char *needle)
{
	size_t n = strlen(needle), tries = 0;
	const char *p = text;

	for (;;) {
		p = strchr(p, needle[0]);
		if (!p || !strncmp(p, needle, n))
			return p;
		if (++tries >= 16 && (size_t)(p - text) < tries * 256)
			return strstr(p + 1, needle);
		p++;
	}
}

/*
 * Mail archives keep messages as they were sent, often quoted-printable:
 * "seconds =3D 58.91 MB/sec", long lines wrapped with a trailing "=".
 * Any '=' of such a text is written "=3D", so that is the sign.
 */
static int looks_quoted_printable(const char *data)
{
	return find_text(data, "=3D") != NULL;
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
 * ("blocksize  W  W ..."); and the "user@host:~$ " of the next command.
 */
static int starts_reflowed_line(const char *p, const char *end)
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
	if (opens_user_prompt(p, end))
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

#define REFLOW_MAX 16

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
 * on the same line says it; after a word ("fdatasync", "direct") the
 * whole run is the count.
 */
static const char *glued_dd_opening(const char *s, const char *p,
				    const char *end)
{
	const char *plus, *e, *oplus, *oe;
	size_t n, on;

	if (dd_summary_at(p, end))	/* only right after records */
		return (p - s >= 11 && !memcmp(p - 11, "records out", 11)) ||
		       (p - s >= 10 && !memcmp(p - 10, "records in", 10)) ?
		       p : NULL;
	if (!(e = dd_records_at(p, end, &plus)))
		return NULL;
	n = (size_t)(plus - p);
	/* the out count right after, "N'+M' records out", on this line */
	if (end - e > 1 && e[-1] == 'n' && is_digit(*e) &&
	    (oe = dd_records_at(e, end, &oplus)) && oe[-1] == 't') {
		on = (size_t)(oplus - e);
		if (on < n && !memcmp(plus - on, e, on) &&
		    ((plus - on)[0] != '0' || on == 1))
			return plus - on;
		if (on == n && !memcmp(p, e, n))
			return p;
	}
	return p[-1] == '=' ? NULL : p;
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
 * too.  Returns the number of cuts.
 */
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
				    !is_blank(q[-1]) && !is_blank(q[2]))
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
 * that quotes one phrase keeps its line.
 */
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

/*
 * A Markdown table row ("| Timing cached reads:   18842 MB in  2.00
 * seconds = 9429.78 MB/sec |"): a post that shows an output in a table
 * puts each line in a one-cell row, under a header cell naming the
 * command or the machine ("| Raspberry Pi 5 / NVMe.M2 2To: |" over
 * "|----|").  A one-cell row becomes its cell; the delimiter row under a
 * one-cell header underlines it (a heading), or is a blank line when the
 * header is a command (the command of the rows below).  Returns 0
 * (nothing added) for any other line: a row of several cells is kept as
 * it is (which cell names the output in another is not known).
 */
static int add_table_row(struct input *in, char **arena, const char *s,
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
		if (prev != 1)
			return 0;
		in->table_cells = 1;
		if (in->nlines && in->runs_output_tool(
				in->lines[in->nlines - 1].text))
			add_line(in, arena, b, b, lineno);
		else
			add_line(in, arena, "---", "---" + 3, lineno);
		return 1;
	}
	if (k == 1) {
		in->table_cells = 1;
		add_line(in, arena, cell[0], cend[0], lineno);
		return 1;
	}
	in->table_cells = (int)k;	/* several cells: kept as it is */
	return 0;
}

static void add_reflowed(struct input *in, char **arena, const char *s,
			 const char *end, unsigned lineno)
{
	const char *cut[REFLOW_MAX];
	enum cut_kind kind[REFLOW_MAX];
	size_t n = 0;
	int glued = 0;

	if (add_table_row(in, arena, s, end, lineno))
		return;
	if (memchr(s, '`', (size_t)(end - s)))
		past_inline_code(&s, &end);
	if (end - s < 40) {
		add_line(in, arena, s, end, lineno);
		return;
	}
	for (const char *p = s + 1; p < end && n < REFLOW_MAX; p++) {
		const char *g, *r;

		if ((p[-1] == ' ' || p[-1] == '\t') && p[0] != ' ' &&
		    p[0] != '\t' && starts_reflowed_line(p, end))
			kind[n] = CUT_BLANK, cut[n++] = g = p;
		else if (is_digit(*p) && !is_blank(p[-1]) &&
			 !is_digit(p[-1]) && (g = glued_dd_opening(s, p, end)))
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
		add_line(in, arena, s, cut[i], lineno);
		s = cut[i];
	}
	add_line(in, arena, s, end, lineno);
}

static inline void add_piece(struct input *in, char **arena, const char *s,
		      const char *end, unsigned lineno, int has_cr)
{
	const char *c;

	/* A lone CR inside a line is a terminal overwrite. */
	while (has_cr && (c = memchr(s, '\r', (size_t)(end - s))) &&
	       c + 1 < end) {
		if (c > s)
			add_line(in, arena, s, c, lineno);
		s = c + 1;
	}
	add_reflowed(in, arena, s, end, lineno);
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
static int has_wide_blanks(const char *data, int qp)
{
	return find_text(data, "\xc2\xa0") || find_text(data, "\xe2\x80\xaf") ||
	       find_text(data, "\xe2\x80\x89") ||
	       (qp && (find_text(data, "=C2=A0") || find_text(data, "=E2=80")));
}

/* add_piece() of [s, end) with its wide blanks made plain ones. */
static void add_text(struct input *in, char **arena, const char *s,
		     const char *end, unsigned lineno, int has_cr,
		     struct strbuf *plain)
{
	if (!plain) {
		add_piece(in, arena, s, end, lineno, has_cr);
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
		  lineno, has_cr);
}

static void drop_lines(struct input *in);

static void split_lines(struct input *in)
{
	const char *s = in->data, *end = in->data + in->size;
	unsigned lineno = 1, first = 1;
	int qp = looks_quoted_printable(in->data), joining = 0;
	/* one search of the whole text spares one per line in most files */
	int cr = qp || memchr(in->data, '\r', in->size) != NULL;
	struct strbuf sb = STRBUF_INIT, wide = STRBUF_INIT;
	struct strbuf *plain = has_wide_blanks(in->data, qp) ? &wide : NULL;
	char *arena;

	/* Every clean line is no longer than its raw line (decoding only
	 * shortens) and a NUL takes the place of its '\n' or CR: the texts
	 * fit in the raw size and one more byte.  A dd output glued to
	 * what was before it (check_glued()) is cut where no blank was: a
	 * NUL more for each such cut, at most REFLOW_MAX of them in a line
	 * of at least 40 bytes (add_reflowed()), so half as much again
	 * holds them (pages never touched cost nothing). */
	in->arena = xmalloc(in->size + in->size / 2 + 2);
	arena = in->arena;
	/* a first guess of 64 bytes a line; a big array grows by mremap()
	 * without a copy, and pages never touched cost nothing */
	grow_lines(in, in->size / 64 < INPUT_LINES_MAX ? in->size / 64 + 16 :
		   INPUT_LINES_MAX);
	while (s < end && !in->too_many_lines) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *stop = nl ? nl : end;

		if (!qp) {
			add_text(in, &arena, s, stop, lineno, cr, plain);
		} else {
			if (!joining) {
				strbuf_reset(&sb);
				first = lineno;
			}
			joining = qp_append(&sb, s, stop) && nl;
			if (!joining)	/* a wrapped line keeps its first number */
				add_text(in, &arena, strbuf_str(&sb),
					 strbuf_str(&sb) + sb.len, first, cr,
					 plain);
		}
		if (!nl)
			break;
		s = nl + 1;
		lineno++;
	}
	if (joining)
		add_text(in, &arena, strbuf_str(&sb), strbuf_str(&sb) + sb.len,
			 first, cr, plain);
	in->arena_len = (size_t)(arena - in->arena);
	*arena = '\0';	/* readers of the arena stop here */
	strbuf_release(&sb);
	strbuf_release(&wide);
	if (in->too_many_lines)
		drop_lines(in);
}

/* Hashing and the binary test: what needs the raw bytes only. */
/*
 * An uncut input this big is read front to back in windows, each one's
 * pages let go once read (filemap_drop): hashing, counting its lines and
 * the one reader that takes it whole (a fio log of several GB) then hold
 * a few windows in memory, not the file.  Smaller ones are left mapped:
 * pages read twice cost a fault again.
 */
#define STREAM_MIN ((size_t)256 << 20)
#define STREAM_WINDOW ((size_t)32 << 20)

static int streamed(const struct input *in)
{
	return in->uncut && in->size >= STREAM_MIN;
}

/* hash_and_test() of a streamed input: the same hash and verdict. */
static void hash_and_test_windows(struct input *in)
{
	struct sha256_stream st;
	size_t control = 0;
	int nul = 0;

	sha256_begin(&st);
	for (size_t at = 0; at < in->size; at += STREAM_WINDOW) {
		size_t n = in->size - at < STREAM_WINDOW ? in->size - at :
			   STREAM_WINDOW;

		sha256_update(&st, in->data + at, n);
		nul = nul || memchr(in->data + at, '\0', n);
		control += count_bytes((const unsigned char *)in->data + at,
				       n, CONTROL_BYTES);
		filemap_drop(in->data, at, at + n);
	}
	sha256_end_hex(&st, in->sha256);
	in->binary = nul || control * 20 > in->size;
}

static void *hash_and_test(void *arg)
{
	struct input *in = arg;

	if (streamed(in)) {
		hash_and_test_windows(in);
		return NULL;
	}
	sha256_hex(in->data, in->size, in->sha256);
	in->binary = looks_binary(in->data, in->size);
	return NULL;
}

void input_drop_read(const struct input *in, size_t from, size_t to)
{
	if (streamed(in))
		filemap_drop(in->data, from, to);
}

static void drop_lines(struct input *in)
{
	free(in->lines);
	free(in->arena);
	free(in->names);
	free(in->origin);
	free(in->indent);
	in->lines = NULL;
	in->arena = in->names = NULL;
	in->origin = NULL;
	in->indent = NULL;
	in->nlines = in->lines_alloc = in->arena_len = in->names_len = 0;
}

/*
 * Hashing a big input and testing it for binary data take as long as
 * cutting its lines: with a CPU to spare they run side by side (the
 * lines of a binary input are then thrown away).  Small inputs (most of
 * them, read many at a time on worker threads) do one after the other.
 */
static void hash_and_split(struct input *in)
{
	pthread_t tid;
	int threaded;

	/* Refused in milliseconds, before a line is cut (cutting the 32 Mi
	 * lines up to the cap took 8 s and 600 MB).  A smaller input cannot
	 * have that many newlines; its '\r' pieces meet the cap in
	 * add_line(). */
	if (in->size >= INPUT_LINES_MAX &&
	    count_bytes((const unsigned char *)in->data, in->size,
			NEWLINES) > INPUT_LINES_MAX) {
		in->binary = looks_binary(in->data, in->size);
		in->too_many_lines = 1;
		return;
	}
	threaded = in->size >= HASH_THREAD_MIN && storan_cpus() > 1 &&
		   !pthread_create(&tid, NULL, hash_and_test, in);

	if (!threaded) {
		hash_and_test(in);
		if (!in->binary)
			split_lines(in);
		return;
	}
	split_lines(in);	/* touches lines and arena, not sha256/binary */
	pthread_join(tid, NULL);
	if (in->binary)
		drop_lines(in);
}

#define NL_BLOCK 4096	/* bytes a newline count stands for */

/* nl_before[] and nlines, as split_lines() would count the lines: one
 * a '\n', and one for a last line without it. */
static void count_lines(struct input *in)
{
	size_t blocks = in->size / NL_BLOCK + 1, total = 0;
	const unsigned char *p = (const unsigned char *)in->data;

	in->nl_before = xmalloc(blocks * sizeof(*in->nl_before));
	for (size_t b = 0; b < blocks; b++) {
		size_t from = b * NL_BLOCK, n = in->size - from;

		in->nl_before[b] = (unsigned)total;
		total += count_bytes(p + from, n < NL_BLOCK ? n : NL_BLOCK,
				     NEWLINES);
		if ((from + NL_BLOCK) % STREAM_WINDOW == 0)
			input_drop_read(in, from + NL_BLOCK - STREAM_WINDOW,
					from + NL_BLOCK);
	}
	in->nlines = total + (in->size && in->data[in->size - 1] != '\n');
}

/* The hash of an uncut input in the making (a separate object: readers
 * that hold the input const wait for it too). */
struct input_hasher {
	pthread_t thread;
	int running;
};

/* looks_quoted_printable() of a big text, window by window, each let go
 * once searched (see STREAM_MIN). */
static int quoted_printable_windows(const struct input *in)
{
	for (size_t at = 0; at < in->size; at += STREAM_WINDOW) {
		size_t n = in->size - at < STREAM_WINDOW + 2 ? in->size - at :
			   STREAM_WINDOW + 2;	/* "=3D" across windows */

		const char *p = in->data + at, *end = p + n;

		/* memchr leaps: glibc's memmem took 1.6 s of a 1 GB log */
		while ((p = memchr(p, '=', (size_t)(end - p)))) {
			if (end - p >= 3 && p[1] == '3' && p[2] == 'D')
				return 1;
			p++;
		}
		filemap_drop(in->data, at, at + STREAM_WINDOW);
	}
	return 0;
}

void input_finish_uncut(struct input *in)
{
	int qp = in->size >= STREAM_MIN ? quoted_printable_windows(in) :
		 looks_quoted_printable(in->data);

	if (in->size > UINT_MAX || qp) {
		input_finish(in);	/* its lines need decoding */
		return;
	}
	in->uncut = 1;
	if (in->size >= HASH_THREAD_MIN && storan_cpus() > 1) {
		in->hasher = xcalloc(1, sizeof(*in->hasher));
		in->hasher->running = !pthread_create(&in->hasher->thread,
						       NULL, hash_and_test, in);
	}
	if (!in->hasher || !in->hasher->running)
		hash_and_test(in);
	count_lines(in);
	in->too_many_lines = in->nlines > INPUT_LINES_MAX;
}

void input_wait_hash(const struct input *in)
{
	if (in->hasher && in->hasher->running) {
		pthread_join(in->hasher->thread, NULL);
		in->hasher->running = 0;
	}
}

static void wait_for_hash(struct input *in)
{
	input_wait_hash(in);
	free(in->hasher);
	in->hasher = NULL;
}

void input_cut_lines(struct input *in)
{
	if (!in->uncut)
		return;
	wait_for_hash(in);
	free(in->nl_before);
	in->nl_before = NULL;
	in->nlines = 0;
	in->uncut = 0;
	if (!in->binary)
		split_lines(in);
}

const char *input_sha256(struct input *in)
{
	wait_for_hash(in);
	return in->sha256;
}

char *input_text(const struct input *in, size_t *len)
{
	*len = in->uncut ? in->size : in->arena_len;
	return in->uncut ? in->data : in->arena;
}

size_t input_line_at(const struct input *in, size_t pos)
{
	size_t lo = 0, hi = in->nlines;	/* last line starting <= pos */

	if (in->uncut) {
		size_t b = pos / NL_BLOCK;

		return in->nl_before[b] +
		       count_bytes((const unsigned char *)in->data +
				   b * NL_BLOCK, pos - b * NL_BLOCK, NEWLINES);
	}
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if ((size_t)(in->lines[mid].text - in->arena) <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

unsigned input_lineno(const struct input *in, size_t li)
{
	return in->uncut ? (unsigned)li + 1 : in->lines[li].lineno;
}

const char *input_origin_at(const struct input *in, size_t li)
{
	return in->uncut ? NULL : input_line_origin(in, &in->lines[li]);
}

void input_init_bare(struct input *in, const char *path, char *data,
		     size_t size)
{
	const char *slash = strrchr(path, '/');

	memset(in, 0, sizeof(*in));
	in->path = xstrdup(path);
	if (!strcmp(path, "-"))
		in->name = xstrdup("stdin");
	else
		in->name = xstrdup(slash && slash[1] ? slash + 1 : path);
	in->data = data;
	in->size = size;
}

void input_finish(struct input *in)
{
	hash_and_split(in);
}

void input_init(struct input *in, const char *path, char *data, size_t size)
{
	input_init_bare(in, path, data, size);
	input_finish(in);
}

void input_from_buffer(struct input *in, const char *name, const char *data,
		       size_t size)
{
	char *copy = xmalloc(size + 1);

	memcpy(copy, data, size);
	copy[size] = '\0';
	input_init(in, name, copy, size);
}

/*
 * What a stream (a pipe, a FIFO, a device) may give: storan holds it in
 * memory, so it is bounded; a file is mapped instead, whatever its size.
 * Binary data is known from its first bytes (a NUL anywhere, or the
 * control characters of the first STREAM_PROBE bytes): reading stops
 * there, and the input is then refused as binary like a file.
 */
#define STREAM_MAX (1ULL << 30)
#define STREAM_PROBE 65536

static int stream_is_binary(const char *buf, size_t len, size_t got,
			    int *probed)
{
	if (memchr(buf + len - got, '\0', got))
		return 1;
	if (*probed || len < STREAM_PROBE)
		return 0;
	*probed = 1;
	return looks_binary(buf, STREAM_PROBE);
}

/*
 * Reads fd to its end.  hint is the size stat() gave (0 for streams): a
 * regular file is read into one buffer of its size, not a growing one
 * (a 64 KiB minimum cost a 7 KB fio JSON as much malloc work as its
 * parsing).  Returns 0, -1 with errno set, -2: the stream is larger
 * than STREAM_MAX, or -3: it has more than INPUT_LINES_MAX lines (counted
 * as they come: `yes` is refused after 64 MB, not 1 GiB).
 */
static int read_fd(int fd, size_t hint, char **data, size_t *size)
{
	size_t alloc = 0, len = 0, lines = 0;
	char *buf = NULL;
	int probed = 0;

	ALLOC_GROW(buf, hint ? hint + 1 : 65536, alloc);
	for (;;) {
		ssize_t got;

		if (len + 1 >= alloc)
			ALLOC_GROW(buf, len + 65536, alloc);
		got = read(fd, buf + len, alloc - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return -1;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (hint)
			continue;
		if (stream_is_binary(buf, len, (size_t)got, &probed))
			break;	/* refused as binary: no need for the rest */
		if (len > STREAM_MAX) {
			free(buf);
			return -2;
		}
		lines += count_bytes((const unsigned char *)buf + len - got,
				     (size_t)got, NEWLINES);
		if (lines > INPUT_LINES_MAX) {
			free(buf);
			return -3;
		}
	}
	buf[len] = '\0';
	*data = buf;
	*size = len;
	return 0;
}

/*
 * Is the regular file open on fd (at offset off, size bytes) binary from
 * its start, or sparse?  Then *data is its first bytes, up to the first
 * hole, and a NUL (what the file holds at a hole): the binary test says
 * so without the rest being read or mapped (a 50 GB sparse file was read
 * whole and ran out of memory).  The offset is left where it was.
 */
static int probe_file(int fd, off_t off, size_t size, char **data,
		      size_t *len)
{
	size_t want = size < STREAM_PROBE ? size : STREAM_PROBE, got = 0;
	off_t hole = lseek(fd, off, SEEK_HOLE);
	char *buf;

	if (hole >= off && (size_t)(hole - off) < size) {
		if ((size_t)(hole - off) < want)
			want = (size_t)(hole - off);
	} else {
		hole = -1;
	}
	lseek(fd, off, SEEK_SET);
	if (hole < 0 && size <= STREAM_PROBE)
		return 0;	/* small: read whole, tested whole */
	buf = xmalloc(want + 2);
	while (got < want) {
		ssize_t n = pread(fd, buf + got, want - got,
				  off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (hole < 0 && !looks_binary(buf, got)) {
		free(buf);
		return 0;
	}
	buf[got] = '\0';	/* the hole's first byte, or past a NUL */
	buf[got + 1] = '\0';
	*data = buf;
	*len = got + 1;
	return 1;
}

int input_read_bytes(const char *path, char **data, size_t *size,
		     struct strbuf *err)
{
	struct stat st;
	size_t hint = 0;
	int fd, rc;

	if (!strcmp(path, "-")) {
		fd = STDIN_FILENO;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			strbuf_addf(err, "%s: cannot open: %s", path,
				    strerror(errno));
			return -1;
		}
	}
	if (fstat(fd, &st))
		memset(&st, 0, sizeof(st));
	if (S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "%s: is a directory, not a file", path);
		if (fd != STDIN_FILENO)
			close(fd);
		return -1;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		off_t off = lseek(fd, 0, SEEK_CUR);

		hint = (size_t)st.st_size;
		if (off >= 0 && off < st.st_size &&
		    probe_file(fd, off, (size_t)(st.st_size - off), data,
			       size)) {
			if (fd != STDIN_FILENO)
				close(fd);
			return 0;
		}
	}
	/* (not stdin: a file redirected there may be read from its middle,
	 * and what storan leaves of it is the next program's) */
	if (hint && fd != STDIN_FILENO && (*data = filemap_open(fd, hint))) {
		*size = hint;
		close(fd);
		return 0;
	}
	rc = read_fd(fd, hint, data, size);
	if (rc == -3)
		strbuf_addf(err, "%s: more than %u lines; storan takes no "
			    "more from one input: split it",
			    fd == STDIN_FILENO ? "stdin" : path,
			    INPUT_LINES_MAX);
	else if (rc == -2)
		strbuf_addf(err, "%s: more than %llu MiB from a pipe or device; "
			    "storan holds no more of a stream: save it to a "
			    "file and name the file",
			    fd == STDIN_FILENO ? "stdin" : path,
			    STREAM_MAX >> 20);
	else if (rc)
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
	if (fd != STDIN_FILENO)
		close(fd);
	return rc == -3 ? -2 : rc < 0 ? -1 : 0;
}

int input_read(struct input *in, const char *path, struct strbuf *err)
{
	char *data;
	size_t size;

	if (input_read_bytes(path, &data, &size, err))
		return -1;
	input_init(in, path, data, size);
	return 0;
}

int input_changed(const struct input *in)
{
	return filemap_truncated(in->data);
}

void input_release(struct input *in)
{
	wait_for_hash(in);	/* it reads data */
	free(in->nl_before);
	free(in->path);
	free(in->name);
	if (!filemap_close(in->data))
		free(in->data);
	drop_lines(in);
	memset(in, 0, sizeof(*in));
}

int input_contains(const struct input *in, const char *needle)
{
	/* Text inputs hold no NUL (those are binary), and glibc's strstr
	 * is several times faster than its memmem. */
	if (in->binary)
		return memmem(in->data, in->size, needle, strlen(needle)) != NULL;
	return find_text(in->data, needle) != NULL;
}
