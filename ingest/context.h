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

struct parse_ctx;

/*
 * The lines of ctx's input that drop the page cache (parsers/shell.h's
 * line_drops_cache()), each recorded in ctx->rs (struct cache_drop, for
 * storan check) under its grep prefix or the input's name: a flag per
 * line, for context_apply().  Called once per input, after its lines
 * are cut (an input read whole, uncut, has none to look at); the caller
 * frees the flags.
 */
unsigned char *context_find_cache_drops(struct parse_ctx *ctx);

/*
 * Labels the measurements the parsers emitted for ctx's input; drops is
 * what context_find_cache_drops() found (cache=dropped goes on the reads
 * that follow a drop).
 */
void context_apply(struct parse_ctx *ctx, const unsigned char *drops);

/*
 * The command on line li (joined with the lines continuing it) as the
 * command label gives it, or NULL when the line does not look like one:
 * for a parser that knows which line ran its output when prose stands
 * between them.
 */
char *context_command_text(const struct parse_ctx *ctx, size_t li);

#endif
