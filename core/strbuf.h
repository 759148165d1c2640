/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A growable string.  Invariant: buf is always NUL-terminated and
 * buf[len] == '\0'; an initialised strbuf owns buf (release with
 * strbuf_release, or take it with strbuf_detach).
 */
#ifndef STORAN_STRBUF_H
#define STORAN_STRBUF_H

#include <stddef.h>
#include <stdarg.h>
#include <string.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
/* Makes room for extra more bytes (and the NUL) without adding any. */
void strbuf_grow(struct strbuf *sb, size_t extra);

/*
 * The appends are inline: writing a JSON+ file's result set calls them
 * 900,000 times for a few bytes each, and a call into strbuf.c, then to
 * its growth check, then to memcpy cost more than the bytes; inline, a
 * constant string is a move or two.
 */
static inline void strbuf_add(struct strbuf *sb, const char *data,
			      size_t len)
{
	if (sb->alloc - sb->len <= len)	/* room for len and the NUL? */
		strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

static inline void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

static inline void strbuf_addch(struct strbuf *sb, char c)
{
	if (sb->alloc - sb->len <= 1)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}
/* n copies of c (a table's padding). */
static inline void strbuf_addchars(struct strbuf *sb, char c, size_t n)
{
	if (sb->alloc - sb->len <= n)
		strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

__attribute__((format(printf, 2, 3)))
void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Appends a double the way every storan export prints numbers (%.15g). */
void strbuf_add_number(struct strbuf *sb, double v);
/* An integer in decimal, without printf. */
void strbuf_add_int(struct strbuf *sb, long long v);
/* Appends ',' and v as strbuf_add_number() does; NaN is an empty field. */
void strbuf_add_csv_number(struct strbuf *sb, double v);
/* Appends s quoted for CSV as RFC 4180 asks (only when needed). */
void strbuf_add_csv(struct strbuf *sb, const char *s);
/*
 * Appends s as text of HTML or XML (SVG): & < > " escaped, and the control
 * characters XML does not allow (all but tab and newline) left out.
 */
void strbuf_add_markup(struct strbuf *sb, const char *s);
/*
 * Appends s as "LENGTH:s": a key made of such parts (a measurement's
 * tool, op and labels, say) never equals one of other parts.
 */
void strbuf_add_keypart(struct strbuf *sb, const char *s);
/* The buffer, never NULL (an empty strbuf reads as ""). */
const char *strbuf_str(const struct strbuf *sb);
/* Forgets what was added past the first len bytes. */
static inline void strbuf_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

/*
 * Where a writer's text goes while it is made, when the whole of it is
 * too much to hold: the JSON or CSV of the series of a 1 GB fio log is
 * hundreds of MB, one measurement.  fn takes out's text and empties out.
 */
struct strbuf_drain {
	void (*fn)(struct strbuf *out, void *arg);
	void *arg;
};

#define STRBUF_DRAIN_AT ((size_t)256 << 10)

/* Passes out's text to drain once it holds STRBUF_DRAIN_AT bytes or
 * more; drain NULL: out keeps it all. */
static inline void strbuf_drain_if_full(struct strbuf *out,
					const struct strbuf_drain *drain)
{
	if (drain && out->len >= STRBUF_DRAIN_AT)
		drain->fn(out, drain->arg);
}

#endif
