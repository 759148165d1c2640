/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's text lines as posts leave them, for parsers/fio-text.c: the
 * client/server "<host>" prefix, a log's timestamp prefix, Markdown's
 * emphasis, indentation, and result lines a mail client or a terminal
 * wrapped over two or more lines, joined again.
 */
#ifndef STORAN_FIO_TEXT_LINES_H
#define STORAN_FIO_TEXT_LINES_H

#include "parser.h"

#include <string.h>

struct fio_text_lines {
	struct parse_ctx *ctx;
	const char *origin;	/* grep prefix of the previous line */
	const char *log_prefix;	/* "20:22:23 DEBUG| [stdout]" or NULL */
	size_t log_prefix_len;
	struct strbuf unstarred;	/* a line without Markdown's '*' */
	struct strbuf joined;	/* a line with its wrapped rest */
};

/* Ready for ctx's input, its log prefix learnt. */
void fio_text_lines_init(struct fio_text_lines *fl, struct parse_ctx *ctx);
void fio_text_lines_release(struct fio_text_lines *fl);

/*
 * Line i's text, cleaned (prefixes, emphasis), with the lines that
 * continue it when a wrap cut it (*last: the last of them, else i).
 * Valid until the next call.
 */
const char *fio_text_lines_join(struct fio_text_lines *fl, size_t i,
				size_t *last);

/* Do two lines come from the same grep prefix (NULL: none)? */
static inline int same_origin(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

#endif
