/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of the input layer share, and nothing else: core/input.h
 * is the API.  A file's text becomes lines in four steps, one file each:
 *
 *   core/input-read.c    the bytes of a file, a pipe or a device, and the
 *                        binary test
 *   core/input.c         the struct input: hashing (on a thread when big),
 *                        the line table, uncut inputs
 *   core/input-reflow.c  text rewritten on the way: quoted-printable,
 *                        no-break spaces, terminal overwrites, lines run
 *                        together (a dd output glued to its command)
 *   core/input-blanks.c  a dd command whose blanks were lost, rebuilt
 *                        (input_dd_blanks_lost() in input.h)
 *   core/input-clean.c   one line made clean: quote markers, grep and host
 *                        prefixes, typed prefixes, bold, table cells
 *
 * split_lines() (input.c) hands each raw line to input_add_text(), which
 * cuts it into pieces and gives each to input_add_line().
 */
#ifndef STORAN_INPUT_PRIVATE_H
#define STORAN_INPUT_PRIVATE_H

#include "input.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct strbuf;

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
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

/* input-read.c: the binary test, and byte counts it shares with the
 * line counting of uncut inputs. */
enum byte_kind { CONTROL_BYTES, NEWLINES };
size_t input_count_bytes(const unsigned char *p, size_t n,
			 enum byte_kind kind);
/* NUL bytes, or more than 5% control characters, mean "not text". */
int input_looks_binary(const char *data, size_t size);

/* input.c: strstr() for needles whose first byte is rare; room in the
 * line table (and its per-line extras) for need lines. */
const char *input_find_text(const char *text, const char *needle);
void input_grow_lines(struct input *in, size_t need);

/*
 * The most pieces input_add_text() cuts one line into, beyond its own
 * (input-reflow.c).  split_lines() sizes the arena by it: each cut where
 * no blank was costs a NUL more, and only lines of 40 bytes and more are
 * cut.
 */
#define REFLOW_MAX 16

/*
 * input-reflow.c.  input_qp_append() decodes one quoted-printable line
 * onto sb, returning 1 when it ends in a soft break (the next line
 * continues it).  input_has_wide_blanks() says whether the text holds
 * no-break or thin spaces; input_add_text() then takes a plain-blank copy
 * of each line through plain (NULL when it holds none), and adds the line
 * [s, end) to in, cut where it ran together, under the file's lineno.
 * next is where the raw line after it starts in in->data (NULL after the
 * last): what it opens with may settle where a line ran together.
 */
int input_qp_append(struct strbuf *sb, const char *s, const char *end);
int input_has_wide_blanks(const char *data, int qp);
void input_add_text(struct input *in, char **arena, const char *s,
		    const char *end, unsigned lineno, int has_cr,
		    struct strbuf *plain, const char *next);

/* input-reflow.c: does [p, end) open a line of a tool's output ("Timing
 * cached reads:", "1+0 records in", "read: IOPS=")? */
int input_opens_output(const char *p, const char *end);

/*
 * input-clean.c.  input_add_line() adds [s, end) as one clean line,
 * its text copied to *arena (which it advances).  input_add_table_row()
 * adds a one-cell Markdown table row as its cell, or 0 (nothing added)
 * for a line that is none.
 */
void input_add_line(struct input *in, char **arena, const char *s,
		    const char *end, unsigned lineno);
int input_add_table_row(struct input *in, char **arena, const char *s,
			const char *end, unsigned lineno);

#endif
