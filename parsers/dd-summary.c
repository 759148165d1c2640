/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dd's own lines, read in every dialect and locale dd.c's top comment
 * quotes: the records counts ("16384+0 records in", "962+0 Datensätze
 * ein"), the transfer summary, a summary cut short, and dd's diagnostics.
 * What a line is, never what it means for a result: that is dd.c's.
 */
#include "dd.h"
#include "../core/numscan.h"

#include <math.h>
#include <string.h>

/* "16384+0 records in", "962+0 Datensätze ein": full and partial counts. */
int dd_read_records(const char *text, uint64_t *total)
{
	const char *p = text;
	uint64_t full, partial;

	skip_prefix(&p, "^C");	/* the echo of an interrupt */
	while (*p && (unsigned char)*p >= 0x80 && p - text < 12)
		p++;	/* zh_CN: "记录了1024+0 的读入" */
	if (scan_u64(&p, &full) || *p++ != '+' || scan_u64(&p, &partial) ||
	    *p != ' ')
		return 0;
	for (p++; *p; p++)	/* the words: no digits, short */
		if (is_ascii_digit(*p) || p - text > 80)
			return 0;
	*total = full + partial;
	return 1;
}

static int is_byte_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"bytes", "byte", "Bytes", "Byte", "octets", "octet", "байт",
		"байта", "байтов", "bajtów", "bajty", "byte(s)", "bytů",
		"バイト", NULL
	};

	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !strncmp(w, words[i], n))
			return 1;
	return 0;
}

static const char *word_end(const char *p)
{
	while (*p && *p != ' ' && *p != ',')
		p++;
	return p;
}

/* "... transferred in S secs (R bytes/sec)": GNU 5.x and BSD. */
static int read_transferred(const char *p, struct summary_line *s)
{
	if (!skip_prefix(&p, "transferred in "))
		return 0;
	if (scan_double(&p, 0, &s->seconds))
		return 0;
	p = skip_spaces(p);
	return skip_prefix(&p, "secs") || skip_prefix(&p, "seconds");
}

/* ", 1.70473 s, 630 MB/s" after the copied word (any locale). */
static int read_time_part(const char *p, struct summary_line *s)
{
	if (*p != ',' && *p != ' ')
		return 0;
	p = skip_spaces(p + 1);
	if (scan_double(&p, SCAN_COMMA_DECIMAL, &s->seconds))
		return 0;
	/* "1.70 s," (GNU), "112.3 seconds," (BusyBox), "0.302s," (FreeBSD) */
	return *p == ' ' || (*p == 's' && (p[1] == ',' || !p[1]));
}

/* Parses a dd summary line; see dd.c's top comment for the variants. */
static int read_summary(const char *text, struct summary_line *s)
{
	const char *p = text, *w;
	int parens = 0, bytes_word, verb_first = 0;

	s->seconds = NAN;
	s->progress_only = 0;
	if (skip_prefix(&p, "скопировано ") || skip_prefix(&p, "skopiowane "))
		verb_first = 1;	/* old ru and pl catalogs */
	if (scan_u64(&p, &s->bytes))
		return 0;
	if (skip_prefix(&p, "字节")) {	/* zh_CN: "512字节已复制" */
		bytes_word = 1;
		p = skip_spaces(p);
	} else {
		if (*p != ' ')
			return 0;
		w = ++p;
		p = word_end(p);
		bytes_word = is_byte_word(w, (size_t)(p - w));
		if (verb_first && *p == ',')
			return bytes_word && read_time_part(p, s);
		if (*p != ' ')
			return 0;
		p++;
	}
	if (*p == '(') {
		const char *close = strchr(p, ')');

		if (!close)
			return 0;
		parens = 1;
		p = skip_spaces(close + 1);
	}
	/* pl: "4096 bajtów (4,1 kB, 4,0 KiB), 0,000298769 s": no verb */
	if (verb_first || *p == ',')
		return bytes_word && read_time_part(p, s);
	if (read_transferred(p, s))
		return bytes_word;
	w = p;
	p = word_end(p);
	if (p == w || (!bytes_word && !parens))
		return 0;
	/* FreeBSD prints its progress so, its final summary "bytes
	 * transferred in S secs" (read above) */
	s->progress_only = p - w == 11 && !strncmp(w, "transferred", 11);
	if (!*p)	/* ELKS: no time at all */
		return bytes_word && parens && !strncmp(w, "copied", 7);
	return read_time_part(p, s);
}

/*
 * "NNN bytes (...", "NNN bytes," or "NNN bytes copied|transferred"
 * (old GNU and BSD forms) that read_summary() could not read: cut
 * short, or garbled?  ("512 bytes per sector." is prose, no summary.)
 */
int dd_starts_like_summary(const char *text)
{
	const char *p = text, *w;
	uint64_t n;

	if (scan_u64(&p, &n) || *p != ' ')
		return 0;
	w = ++p;
	p = word_end(p);
	if (p > w && p[-1] == ',')
		p--;	/* "64 bajty, 9,156e-05 s" */
	if (!is_byte_word(w, (size_t)(p - w)))
		return 0;
	p = skip_spaces(p);
	return !*p || *p == '(' || *p == ',' || starts_with(p, "copied") ||
	       starts_with(p, "transferred");
}

/*
 * Chinese locales print full-width punctuation: "5120000字节（5.1 MB，4.9
 * MiB）已复制，0.0313203 s，163 MB/s"; Japanese ones an ideographic comma:
 * "5000000 バイト (5.0 MB) コピーされました、 0.0286412 秒、 175 MB/秒".
 * Rewrites it as ASCII into buf.
 */
static const char *ascii_punctuation(const char *text, char *buf, size_t size)
{
	static const struct {
		const char *wide, *ascii;
	} map[] = { { "，", ", " }, { "（", " (" }, { "）", ")" },
		    { "、", ", " } };
	const size_t nmap = sizeof(map) / sizeof(map[0]);
	size_t n = 0;

	/* (one look for both first bytes: most lines hold neither) */
	if (!strpbrk(text, "\xef\xe3") ||
	    (!strstr(text, "\xef\xbc") && !strstr(text, "、")))
		return text;
	while (*text && n + 3 < size) {
		size_t k;

		for (k = 0; k < nmap; k++)
			if (starts_with(text, map[k].wide))
				break;
		if (k < nmap) {
			memcpy(buf + n, map[k].ascii, strlen(map[k].ascii));
			n += strlen(map[k].ascii);
			text += strlen(map[k].wide);
		} else {
			buf[n++] = *text++;
		}
	}
	buf[n] = '\0';
	return buf;
}

/*
 * A dd diagnostic: "dd: error writing '/dev/sdb': No space left on
 * device".  GNU dd names itself as it was invoked (argv[0]), so
 * "/usr/bin/dd: error reading '/dev/xvdi': Input/output error" is one
 * too.  Returns the message after "dd: ", or NULL.
 */
const char *dd_message(const char *text)
{
	/* "dd: " ends the first word, or it is prose ("then dd: ..."), not
	 * a path: no search of the whole line (every line is asked) */
	size_t w = strcspn(text, " \t");
	const char *msg, *name;

	if (w < 3 || text[w] != ' ' || memcmp(text + w - 3, "dd:", 3))
		return NULL;
	msg = name = text + w - 3;
	/* "gdd: ", "gnudd: " (dd_names) */
	if (name - text >= 3 && !strncmp(name - 3, "gnu", 3))
		name -= 3;
	else if (name > text && name[-1] == 'g')
		name--;
	if (name > text && name[-1] != '/')
		return NULL;
	return msg + 4;
}

/*
 * "4K - 1073741824 bytes (1.1 GB) copied, 44.3478 s, 24.2 MB/s": a post
 * that ran one dd per block size and typed the size before each summary
 * (the command above it "bs=<4K, 64K, 128K, 1MB, 4M>").  The size, by
 * dd's own suffixes, is the run's block size: it keeps the runs apart.
 * Returns the text after "SIZE - ", or NULL.
 */
static const char *past_size_prefix(const char *text, double *bs)
{
	const char *dash;
	char size[16];
	size_t n;

	if (!is_ascii_digit(*text) || !(dash = strstr(text, " - ")))
		return NULL;
	n = (size_t)(dash - text);
	if (n >= sizeof(size))
		return NULL;
	memcpy(size, text, n);
	size[n] = '\0';
	if (strspn(size, "0123456789") == n || dd_size(size, bs) || *bs <= 0)
		return NULL;	/* "2 - ": a list's number, not a size */
	return dash + 3;
}

const char *dd_classify(const char *raw, struct summary_line *s,
			uint64_t *records)
{
	return dd_classify_after(line_after_prompt(raw), s, records);
}

const char *dd_classify_after(const char *after, struct summary_line *s,
			      uint64_t *records)
{
	char buf[512];
	const char *text = ascii_punctuation(after, buf, sizeof(buf)), *rest;

	s->size_bs = 0;
	if (dd_read_records(text, records))
		return "records";
	if (read_summary(text, s))
		return "summary";
	if ((rest = past_size_prefix(text, &s->size_bs)) &&
	    read_summary(rest, s)) {
		/* a size larger than what was copied is no block size ("1G -"
		 * over a 1 GiB copy's summary names the total, not bs) */
		if (s->size_bs > (double)s->bytes)
			s->size_bs = 0;
		return "summary";
	}
	s->size_bs = 0;
	if (dd_starts_like_summary(text))
		return "bad-summary";
	if (dd_message(text))
		return "error";
	return NULL;
}

