/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Growable strings; see strbuf.h. */
#include "strbuf.h"
#include "numfmt.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	strbuf_init(sb);
	return s;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t room = sb->alloc > sb->len ? sb->alloc - sb->len : 0;
	va_list cp;
	int n;

	/* Print straight into the free space; format a second time only
	 * when it was too small. */
	va_copy(cp, ap);
	n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("bad format '%s'", fmt);
	if ((size_t)n >= room) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_number(struct strbuf *sb, double v)
{
	char buf[NUMFMT_MAX];

	/* Whole numbers (byte counts, sizes, many rates) skip printf's
	 * floating-point path; they print the same as %.15g would. */
	if (v > -1e15 && v < 1e15 && !(v - (double)(long long)v > 0) &&
	    !(v - (double)(long long)v < 0) && !(signbit(v) && !(v < 0))) {
		strbuf_add_int(sb, (long long)v);
		return;
	}
	/* 15 significant digits survive text -> double -> text unchanged,
	 * which keeps CSV round trips byte-identical. */
	strbuf_add(sb, buf, format_g(buf, v, 15));
}

void strbuf_add_int(struct strbuf *sb, long long v)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
			       (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

void strbuf_add_csv_number(struct strbuf *sb, double v)
{
	strbuf_addch(sb, ',');
	if (!isnan(v))
		strbuf_add_number(sb, v);
}

void strbuf_add_csv(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_adds(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

void strbuf_add_markup(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': strbuf_adds(sb, "&lt;"); break;
		case '>': strbuf_adds(sb, "&gt;"); break;
		case '&': strbuf_adds(sb, "&amp;"); break;
		case '"': strbuf_adds(sb, "&quot;"); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' ||
			    *s == '\t')
				strbuf_addch(sb, *s);
		}
	}
}

void strbuf_add_keypart(struct strbuf *sb, const char *s)
{
	size_t len = strlen(s);

	strbuf_add_int(sb, (long long)len);
	strbuf_addch(sb, ':');
	strbuf_add(sb, s, len);
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
