/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The shell lexer: what a shell transcript's lines are made of.  A post
 * shows commands after prompts ("$ ", "root@h:~# ", "[u@h d]$ "),
 * continued over lines with " \", behind wrappers (sudo, time, nice) and
 * assignments, sometimes in Markdown inline code or glued to the output
 * before them.  Parsers ask it which line ran their tool; the context
 * pass asks it for a command label and for cache drops.  It reads the
 * clean lines of core/input and depends on nothing else.
 */
#ifndef STORAN_SHELL_H
#define STORAN_SHELL_H

#include <stddef.h>

struct input;
struct input_line;

/* Is the line blank, or only a shell prompt ("$", "pi@host:~ $")? */
int line_is_empty(const struct input_line *l);

/*
 * Does the line drop the page cache ("echo 3 > /proc/sys/vm/drop_caches",
 * "sysctl vm.drop_caches=3", "umount", "blockdev --flushbufs",
 * "storan run --drop-caches")?  A read after it comes from the device.
 * Only a command does: after a prompt, or starting with such a command's
 * word (echo, sync, sysctl, sudo...); prose that names one does not.
 */
int line_drops_cache(const char *text);

/* Text after a shell prompt ("$ ", "root@h:~# ", "[u@h d]$ ", "+ "). */
const char *line_after_prompt(const char *text);
/* The length of that prompt: what an input's prompt_len is given, so
 * that its lines' prompts are found once, as they are cut. */
size_t shell_prompt_len(const char *text);
/* line_after_prompt() and line_is_empty() of line li of in, by the
 * prompt found when it was cut (core/input.h's prompt) where it was. */
const char *line_after_prompt_at(const struct input *in, size_t li);
int line_is_empty_at(const struct input *in, size_t li);
/*
 * Is line li what an `echo` typed after a prompt on the line above it
 * printed ("$ echo === sdb ===" over "=== sdb ===")?  The session's own
 * output, not a poster's words: it may label what follows (the context
 * pass reads it so), but tells no pasted copy from a run -- the same
 * command and timing under two echoed disk names are two runs.
 */
int line_echoed_above(const struct input *in, size_t li);

/*
 * Does the line end in a backslash after a blank ("fio --name=w \"), the
 * way a transcript continues a long command on the next line?  (A
 * Windows path's "C:\fio\" does not.)
 */
int line_continues(const struct input_line *l);

/* Lines a continued command is joined over, at most. */
#define COMMAND_LINES_MAX 32

/*
 * A shell command from line first on, with the lines that continue it
 * joined: each " \" and line break become one blank ("fio --name=w
 * --size=4g" from "fio --name=w \" over "--size=4g").  *last is set to
 * its last line.  A line that does not continue is copied alone.  The
 * caller frees the text.
 */
char *input_joined_command(const struct input *in, size_t first,
			   size_t *last);

/* One simple command of a shell line: the program word and what follows. */
struct shell_cmd {
	const char *prog;	/* the program word, e.g. "dd" */
	const char *args;	/* first character after the program word */
	size_t len;		/* from prog to the end of the simple command */
};

/*
 * Finds the simple commands of a shell line that run prog (compared on the
 * program's base name, after sudo/time/nice/env wrappers and VAR=x
 * assignments).  The line may start with a prompt, or with prose and a
 * colon when none runs prog from the start ("Test partition : sudo dd
 * if=/dev/zero ...": the word after ": " runs prog, with an option), or
 * with a prompt glued to the output before it ("... not mountedpi@pi:~ $
 * sudo dd ..."), or in Markdown inline code when it runs prog with an
 * option ("I ran `dd if=/dev/sdb of=/dev/null bs=1M` on it:").  Returns
 * how many were found, at most max.
 */
size_t shell_find(const char *line, const char *prog, struct shell_cmd *cmds,
		  size_t max);

/*
 * Is the line zsh's time report ("dd if=/dev/zero of=x  0.01s user 0.50s
 * system 99% cpu 0.512 total")?  It starts with the command it timed.
 */
int line_is_zsh_timing(const char *text);

/* Copies a simple command's text ("dd if=/dev/zero of=x bs=1M"). */
char *shell_cmd_text(const struct shell_cmd *c);

/*
 * Walks the words of a simple command: returns the next word (quotes
 * removed) into a fresh string, or NULL at the end.
 */
/* Does word w run the command after it ("sudo", "time", "nice", "do")? */
int shell_is_wrapper(const char *w);
char *shell_next_word(const char **p, const char *end);

/* Are the len bytes at t only a run counter's words ("Run 2", "test
 * #4", "3rd pass")? */
int words_count_run(const char *t, size_t len);
/*
 * Is the line only a run counter ("Run 2:", "=== run 3 ===", "Test #4")?
 * The outputs around it are repetitions of one test: such a line does
 * not keep them from folding into one measurement, as prose would.
 */
int line_counts_run(const char *text);

/*
 * Could the line be words between two outputs ("you wrote:", "as I
 * said:", a "## heading")?  Not when it is blank, a command after a
 * prompt, a run counter, or holds no letter (tee's "3" of a cache drop).
 * A parser's own output and other parsers' it tells apart itself: dd
 * and time take an output seen before for a pasted copy only with such
 * a line between the two.
 */
int line_reads_as_prose(const char *text);

#endif
