/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's text lines as posts leave them; see fio-text-lines.h.
 */
#include "fio-text-lines.h"
#include "fio-common.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Pieces a wrap may cut one fio result line into (a status line cut at
 * 72 columns makes three) */
#define WRAP_PIECES_MAX 4

static void fio_text_lines_learn_prefix(struct fio_text_lines *fl,
				    const struct input *in);

void fio_text_lines_init(struct fio_text_lines *fl, struct parse_ctx *ctx)
{
	memset(fl, 0, sizeof(*fl));
	fl->ctx = ctx;
	strbuf_init(&fl->unstarred);
	strbuf_init(&fl->joined);
	fio_text_lines_learn_prefix(fl, ctx->in);
}

void fio_text_lines_release(struct fio_text_lines *fl)
{
	strbuf_release(&fl->unstarred);
	strbuf_release(&fl->joined);
}

/* "<host> rest": the client/server prefix; *host set, rest returned. */
static const char *strip_host(const char *t)
{
	const char *close;

	if (*t != '<' || !(close = strstr(t, "> ")) || strchr(t + 1, ' ') <
	    close)
		return t;
	return skip_spaces(close + 2);
}

/*
 * t past its indentation, no-break spaces (U+00A0) included: a web page
 * or a quoted-printable mail ("=C2=A0=C2=A0 slat (nsec): ...") indents
 * fio's lines with them, and they are no part of a line's text.
 */
static const char *skip_indent(const char *t)
{
	for (;;) {
		if (*t == ' ' || *t == '\t')
			t++;
		else if ((unsigned char)t[0] == 0xc2 &&
			 (unsigned char)t[1] == 0xa0)
			t += 2;
		else
			return t;
	}
}

/*
 * A test harness's log prefix before every line of fio's output
 * ("20:22:23 DEBUG| [stdout]   write: IOPS=19, ..."): learnt from the
 * first direction or status line with other text before it (not a status
 * update's "[eta ...]" glued to a report line), then stripped from every
 * line that starts with text of the same shape (digits may differ).
 */
static void fio_text_lines_learn_prefix(struct fio_text_lines *fl,
					const struct input *in)
{
	static const char *const anchors[] = {
		"read: IOPS=", "write: IOPS=", "trim: IOPS=", "read : io=",
		"write: io=", "trim : io=", "Run status group ", NULL
	};

	for (size_t i = 0; i < in->nlines; i++) {
		const char *t = skip_indent(in->lines[i].text), *at = NULL;
		const char *end;

		for (size_t k = 0; anchors[k] && !at; k++)
			at = strstr(t, anchors[k]);
		if (!at || at == t || strstr(t, "[eta ") ||
		    starts_with(t, "Jobs:"))
			continue;
		for (end = at; end > t && (end[-1] == ' ' || end[-1] == '\t');)
			end--;
		if (end == t)
			continue;
		fl->log_prefix = t;
		fl->log_prefix_len = (size_t)(end - t);
		return;
	}
}

/*
 * t without the learnt prefix, or t when it does not start with one of
 * that shape.  A run of digits matches a run of any length: a page that
 * numbers the lines of a code block ("9. clat percentiles (usec):" then
 * "10. | 1.00th=[...]") or a log whose counter grows a digit keeps its
 * shape, not its width.
 */
static const char *strip_log_prefix(const struct fio_text_lines *fl,
				    const char *t)
{
	const char *a = fl->log_prefix, *end;
	const char *s = t;

	if (!a)		/* no prefix learnt: NULL + 0 is undefined in C */
		return t;
	end = a + fl->log_prefix_len;
	while (a < end) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*s)) {
			while (a < end && isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*s))
				s++;
		} else if (*a++ != *s++) {
			return t;
		}
	}
	return skip_indent(s);
}

/*
 * A figure emphasised in Markdown ("read: **IOPS=4737k**, BW=...",
 * "*iops=463*"): fio prints no '*' in a result line, so they go (a job
 * or header line keeps its name as written).
 */
static const char *strip_emphasis(struct fio_text_lines *fl, const char *t)
{
	if (!strchr(t, '*') || strstr(t, ": (groupid=") || strstr(t, ": (g="))
		return t;
	strbuf_reset(&fl->unstarred);
	for (const char *p = t; *p; p++)
		if (*p != '*')
			strbuf_addch(&fl->unstarred, *p);
	return strbuf_str(&fl->unstarred);	/* "" for a line of stars */
}

/* Does t start a fio line of its own (a header, report, result line)? */
static int starts_record(const char *t)
{
	const char *p = t;
	int d;

	if (strstr(t, ": (g=") || strstr(t, ": (groupid=") ||
	    strstr(t, ": ios=") || fio_skip_direction(&p, 1) >= 0)
		return 1;
	p = t;
	d = fio_skip_direction(&p, 0);
	return d >= 0 && *skip_spaces(p) == ':';
}

/*
 * fio lines whose end is known -- a job header ends with its iodepth, a
 * disk line with a '%', a group status line with "msec" -- and what the
 * rest of one cut by a wrap must hold; NULL when t is complete or none
 * of them.
 */
static const char *missing_end(const char *t)
{
	const char *p = t;

	if (strstr(t, ": (g=") && strstr(t, "): rw="))
		return strstr(t, ", iodepth=") ? NULL : "iodepth=";
	if (strstr(t, ": ios="))
		return ends_with(t, "%") ? NULL : "%";
	if (fio_skip_direction(&p, 1) >= 0)
		return ends_with(t, "msec") ? NULL : "msec";
	return NULL;
}

/* Does next start with a fio field "key=" ("mint=", "aggrios=", "64=")? */
static int starts_with_field(const char *next)
{
	size_t n = 0;

	while (isalnum((unsigned char)next[n]) || next[n] == '_')
		n++;
	return n && next[n] == '=';
}

/* Does t end a line whose missing end is need (see missing_end())? */
static int holds_end(const char *t, const char *need)
{
	return strcmp(need, "iodepth=") ? ends_with(t, need) :
					  strstr(t, need) != NULL;
}

/*
 * A wrap inside a word or figure ("ioeng" then "ine=sync", "aggrutil=93.8"
 * then "2%"), not at a blank: a job header, a status or a disk line has
 * blanks only after a ',' or before a '(', never between two letters or
 * digits, so the wrap took no blank away.
 */
static int cut_inside_word(const char *t, size_t len, const char *next)
{
	return len && (isalnum((unsigned char)t[len - 1]) ||
		       t[len - 1] == '.') &&
	       (isalnum((unsigned char)*next) || *next == '%');
}

static const char *clean_text(struct fio_text_lines *fl, size_t i);

/* Does next start with a command-line option ("--size=4G", "-iodepth=8")? */
static int starts_option(const char *next)
{
	const char *p = next + (next[0] == '-' && next[1] == '-');

	return p[0] == '-' && isalpha((unsigned char)p[1]);
}

/*
 * Is next more options of the fio command t, which a mail client wrapped
 * ("# fio --filename=/dev/mmcblk0 --direct=1 --rw=randread --bs=1M" then
 * "--ioengine=sync --iodepth=256 --size=4G ...")?  No fio output line
 * starts with a '-'.
 */
static int continues_command(const char *t, const char *next)
{
	struct labels l;
	int is_cmd;

	if (!starts_option(next) || !strstr(t, "fio"))
		return 0;
	labels_init(&l);
	is_cmd = !fio_command_labels(t, &l);
	labels_release(&l);
	return is_cmd;
}

/*
 * Does one of the lines from j on end the fio line whose end need is
 * missing, every line up to it a piece of it (not empty, no record of
 * its own)?  A mail client that cuts at a fixed width may cut a long
 * status line twice ("...83.3MiB/s", "(87.4MB/s-87.4MB/s), io=...,
 * run=49154-", "49154msec").
 */
static int ends_below(struct fio_text_lines *fl, size_t j, const char *need)
{
	const struct input *in = fl->ctx->in;

	for (size_t k = j; k < in->nlines && k < j + WRAP_PIECES_MAX; k++) {
		const char *t;

		if (fl->ctx->claimed[k] ||
		    !same_origin(input_line_origin(in, &in->lines[k]),
				 fl->origin))
			return 0;
		t = clean_text(fl, k);
		if (!*t || starts_record(t))
			return 0;
		if (holds_end(t, need))
			return 1;
	}
	return 0;
}

/*
 * Is line j the rest of t, wrapped?  fio prints every result on one
 * line; a mail client breaks one after a ", " (">    READ: io=...,
 * maxb=...," then "> mint=...") or at a fixed width, a blog ends it with
 * " \" as a shell line, a terminal cuts it anywhere ("aggrutil=93.8"
 * then "2%").  A line that starts a fio record of its own is never the
 * rest of another.
 *   1: join with a blank (the wrap replaced one), 2: join as is.
 */
static int wrapped_rest(struct fio_text_lines *fl, const char *t, size_t j)
{
	const char *need = missing_end(t);
	const char *next;
	size_t len = strlen(t);
	int later = need && ends_below(fl, j, need);

	next = clean_text(fl, j);	/* after ends_below(): one buffer */
	if (!*next || starts_record(next))
		return 0;
	if (len > 1 && t[len - 1] == '\\' && strchr(" ,", t[len - 2]) &&
	    strchr(t, '='))
		return 1;
	if (len && t[len - 1] == ',' && starts_with_field(next))
		return 1;
	if (continues_command(t, next))
		return 1;
	if (!later)
		return 0;
	return cut_inside_word(t, len, next) ? 2 : 1;
}

/* The text of line i as the fio parser reads it (prefixes stripped). */
static const char *clean_text(struct fio_text_lines *fl, size_t i)
{
	const char *t = strip_log_prefix(fl,
					 skip_indent(fl->ctx->in->lines[i].text));

	return strip_emphasis(fl, strip_host(t));
}

/*
 * Line i and the lines that are its wrapped rest, as one line in
 * fl->joined; *last is set to the last line taken.  No fio line wraps
 * over more than COMMAND_LINES_MAX: a longer run of " \" lines (160,000
 * in a crafted file) is not joined on and on, each join reading the
 * whole text again.
 */
const char *fio_text_lines_join(struct fio_text_lines *fl, size_t i,
				size_t *last)
{
	const struct input *in = fl->ctx->in;

	strbuf_reset(&fl->joined);
	strbuf_adds(&fl->joined, clean_text(fl, i));
	for (*last = i; *last + 1 < in->nlines &&
	     *last - i + 1 < COMMAND_LINES_MAX; ++*last) {
		const struct input_line *l = &in->lines[*last + 1];
		const char *next;
		int how;

		if (fl->ctx->claimed[*last + 1] ||
		    !same_origin(input_line_origin(in, l), fl->origin))
			break;
		how = wrapped_rest(fl, fl->joined.buf, *last + 1);
		if (!how)
			break;
		next = clean_text(fl, *last + 1);
		while (fl->joined.len &&
		       strchr(" \\", fl->joined.buf[fl->joined.len - 1]))
			fl->joined.buf[--fl->joined.len] = '\0';
		if (how == 1)
			strbuf_addch(&fl->joined, ' ');
		strbuf_adds(&fl->joined, next);
	}
	return fl->joined.buf;
}
