/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Context around an output: the labels a post gives its outputs by the
 * text around them, attached after the parsers ran and before repeated
 * runs are folded (so outputs under different headings stay apart).
 *
 *   section   the nearest heading above the output: a line over a rule of
 *             dashes, equals signs or asterisks ("laptop NVMe, plain ext4"
 *             over "-----------"), a line between two such rules, or a
 *             line framed by them ("=== laptop NVMe ==="); inside a Markdown
 *             fence (``` or ~~~) only the last two, as a line over a rule
 *             there is as often the last row of a program's table.
 *             Outside fences also a Markdown "## heading" (levels 2-6;
 *             "# heading" only in a text with fences, not a command, not
 *             right above output: a lone '#' is a root prompt or a shell
 *             comment as often) and a label line: a paragraph of one
 *             short line ending in ':' or ':-' ("BEFORE:", "* ext4, 4
 *             KiB:"), or a lone "before", "after", "baseline", over a
 *             blank line, fence, prompt or output, with no option in it,
 *             not a mail's "X wrote:" nor a password prompt; or a plain
 *             line standing alone between blank lines right above an
 *             output, fence or command ("Samsung 860 EVO (SATA)": at most
 *             8 words and 60 characters, no sentence end or opening, no
 *             finite verb, no "key: value", no row of figures, nothing of
 *             a command).  A title that counts runs ("Run 2",
 *             "2nd pass", "Test #3") or says "again" is none: outputs
 *             under such lines are repetitions of one test
 *   command   the line right above the output (blank lines, prompts and
 *             the output's own claimed lines skipped) when it looks like a
 *             command: a program name after a shell prompt, a benchmark tool
 *             name with an option ("xfs iozone -I -a"), or ends in ':' and has
 *             an option ("make -j16 of linux 6.1:"); a command continued
 *             with " \" over several lines is joined into one, and an
 *             output line its poster continued so is output too
 *
 * A label a parser (or a CSV row) already set is never replaced.
 */
#ifndef STORAN_CONTEXT_H
#define STORAN_CONTEXT_H

#include <stddef.h>

struct measurement;
struct parse_ctx;

/*
 * The pass reads the input's lines in order, after the parsers (it needs
 * their claims), and labels each measurement by the line it was read
 * from.  A log read window by window (ingest/ingest.c) is read the same
 * way a window at a time: reading line i looks at most CONTEXT_BEHIND
 * lines above it, and below it past the blank lines to the next
 * non-blank one and CONTEXT_AHEAD lines further (a command continued
 * with " \").  Line indices are the window's; the pass keeps the text of
 * a heading or command in force after its line left the window.
 */
#define CONTEXT_BEHIND 40
#define CONTEXT_AHEAD 40

struct context_pass;

/*
 * The pass over ctx's input from its first line.  whole: the input is
 * all there (else its fences are known to be none: see ingest.c).
 */
struct context_pass *context_begin(struct parse_ctx *ctx, int whole);
void context_end(struct context_pass *cp);
/*
 * Reads the lines up to `to`: the heading and command in force at each,
 * the cache drops (recorded in ctx->rs, struct cache_drop, for storan
 * check) and the prose lines.  flags[i]: LINE_MEASURED when a
 * measurement was read from line i, LINE_NO_DROP when the raw text it
 * came from names no cache drop (so line_drops_cache() need not look: a
 * log's million lines were three searches each), LINE_INNER when it lies
 * inside an output, unclaimed (parse_inner_lines(): no prose).
 */
enum context_line_flags {
	LINE_MEASURED = 1 << 0,
	LINE_NO_DROP = 1 << 1,
	LINE_INNER = 1 << 2,
};
void context_scan(struct context_pass *cp, size_t to,
		  const unsigned char *flags);
/* Labels m, read from line li (below the lines read). */
void context_label(struct context_pass *cp, struct measurement *m,
		   size_t li);
/*
 * What context_label() makes of a measurement read from line li depends
 * on the measurement's own labels and tool and on these alone: two lines
 * with equal keys give one measurement the same labels.
 */
struct context_key {
	size_t section, command;	/* lines, SIZE_MAX: none */
	unsigned char cold;
};
void context_key_at(const struct context_pass *cp, size_t li,
		    struct context_key *k);
/*
 * The lines before li (at most the lines read) that are prose: neither
 * blank, nor a prompt, nor a run counter ("Run 2:"), nor output (claimed,
 * or inner: LINE_INNER).
 * Counted from the text's first line.
 */
size_t context_prose_before(const struct context_pass *cp, size_t li);
/* Did context_label() label a read cache=dropped? */
int context_labelled_cache(const struct context_pass *cp);
/* The window's first n lines go (n at most the lines read less
 * CONTEXT_BEHIND): what the pass keeps of them, it keeps. */
void context_forget(struct context_pass *cp, size_t n);

/*
 * The command on line li (joined with the lines continuing it) as the
 * command label gives it, or NULL when the line does not look like one:
 * for a parser that knows which line ran its output when prose stands
 * between them.
 */
char *context_command_text(const struct parse_ctx *ctx, size_t li);

#endif
