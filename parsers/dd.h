/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of dd's parser share: dd.c (what is read, the state of
 * one output, detect and parse), dd-summary.c (the records and summary
 * lines in every dialect and locale), dd-command.c (dd command lines and
 * the kill lines that ask dd for its counts) and dd-pair.c (which command
 * an output belongs to).  Private to them; parser.h is the parsers'
 * interface.
 */
#ifndef STORAN_DD_H
#define STORAN_DD_H

#include "parser.h"
#include "pasted.h"

#include <stdint.h>

#define MAX_DD_PER_LINE 8
#define MAX_DD_BACKGROUND 16

struct dd_command {
	struct labels labels;	/* if, of, bs, count, iflag, oflag, conv */
	const char *op;
	size_t li;
};

/*
 * A dd command line read before, as it was read: a loop's log runs the
 * same few commands a million times, and reading one (its words cut,
 * every operand a label, the size printed again) was a fifth of reading
 * the log.  Its commands' labels are shared (copy-on-write) with every
 * output of it, so their hash and their text are made once too.
 */
#define DD_LINES_KEPT 8
struct dd_line_read {
	char *text;		/* NULL: an empty slot */
	uint64_t hash;
	size_t n;
	struct dd_line_command {
		struct labels labels;
		const char *op;
		int background;
	} cmd[MAX_DD_PER_LINE];
};

struct dd_state {
	struct dd_command cmd[MAX_DD_PER_LINE];
	size_t ncmd, next;	/* commands of the last dd line; next unused */
	int used;		/* an output took a command already */
	/* dd commands run in the background ("dd ... &") whose output has
	 * not come yet: it comes when each ends, among later lines */
	struct dd_command bg[MAX_DD_BACKGROUND];
	size_t nbg;
	struct dd_command taken;	/* the background command last paired */
	size_t unpaired;	/* outputs no background command was paired
				   with, so far */
	size_t bg_unpaired;	/* of them, since bg[] held what it holds */
	/* The output in progress. */
	uint64_t rec_in, rec_out;
	int have_in, have_out;
	int interrupted;	/* "^C" before the counts: in may exceed out */
	int siginfo;		/* BSD "load: ... cmd: dd" before the counts */
	int signalled;		/* a "kill -USR1" line since the last dd
				   command, not answered by an output yet */
	size_t signal_li;
	size_t error_li;	/* (size_t)-1: no dd error in this output */
	char *error;		/* its reason ("No space left on device") */
	char *error_text;	/* and the whole message, for the label */
	size_t sync_li;		/* the failed sync after the copy, if any */
	char *sync_error;
	size_t went_on_li;	/* the last conv=noerror report, or -1 */
	size_t last_li;		/* previous non-empty line index */
	int last_kind;		/* LINE_* of that line */
	int have_prev;		/* last accepted summary, if still near */
	/* The line number of the last line that reads as prose (a
	 * quote's "you wrote:", a heading: line_reads_as_prose()) and is
	 * no output nor timing.  A summary seen before is a pasted copy only
	 * with such a line between the two: a loop's runs, one after the
	 * other, print the same six digits now and then. */
	unsigned last_prose;
	struct pasted pasted;	/* the summaries taken, for that check */
	uint64_t prev_bytes;
	double prev_seconds;
	/* A dd command that lost its blanks where they cannot be put back
	 * (input_dd_blanks_lost()): its line and why, said when its
	 * output comes without a command; NULL: none since the last
	 * command. */
	size_t lost_li;
	char *lost_why;
	struct dd_line_read kept[DD_LINES_KEPT];
	size_t kept_next;	/* the slot a new line takes */
};

enum line_kind { LINE_OTHER, LINE_RECORDS_IN, LINE_RECORDS_OUT,
		 LINE_SUMMARY, LINE_ERROR, LINE_COMMAND, LINE_INTERRUPT,
		 LINE_SIGINFO };

struct summary_line {
	uint64_t bytes;
	double seconds;		/* NAN when the line has no time */
	int progress_only;	/* FreeBSD's "transferred 0.302s": never final */
	double size_bs;		/* "4K - 1073741824 bytes ...": 4096, else 0 */
};

/* Index of the next non-empty line after li, or nlines. */
static inline size_t next_line(const struct parse_ctx *ctx, size_t li)
{
	for (li++; li < ctx->in->nlines; li++)
		if (!line_is_empty(&ctx->in->lines[li]))
			break;
	return li;
}

/* dd-summary.c.  The kind of line text is ("records", "summary",
 * "bad-summary", "error"), or NULL: *records or *s filled as it says. */
const char *dd_classify(const char *raw, struct summary_line *s,
			uint64_t *records);
/* dd_classify() of a line's text past its prompt (line_after_prompt()),
 * for a reader that has it already: the prompt is found once a line. */
const char *dd_classify_after(const char *after, struct summary_line *s,
			      uint64_t *records);
int dd_read_records(const char *text, uint64_t *total);
int dd_starts_like_summary(const char *text);
/* The message after "dd: " of a dd diagnostic, or NULL. */
const char *dd_message(const char *text);

/* dd-command.c */
extern const char *const dd_names[];
/* GNU dd's size with its suffixes ("4K", "1M", "2x512"): 0, or -1. */
int dd_size(const char *s, double *out);
int dd_read_commands(void *state, const char *text, size_t li);
char *dd_wrapped_command(struct parse_ctx *ctx, size_t li, size_t *last);
void dd_forget_commands(struct dd_state *st);
/* Frees the command lines kept (end of the input). */
void dd_forget_lines_read(struct dd_state *st);
int dd_asks_for_progress(const char *text);

/* dd-pair.c.  The command whose output the summary at li is (NULL:
 * none); the background command a job line names (SIZE_MAX: none). */
const struct dd_command *dd_take_command(struct parse_ctx *ctx,
					 struct dd_state *st, size_t li,
					 uint64_t bytes);
size_t dd_job_done(const struct dd_state *st, const char *t);
void dd_drop_background(struct dd_state *st, size_t b);
void dd_forget_background(struct dd_state *st);

#endif
