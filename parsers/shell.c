/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * The shell lexer: prompts, simple commands and their words, as a post's
 * shell transcript shows them; see shell.h.  It reads clean lines of the
 * input layer and depends on core/ only, so that parsers and the context
 * pass can both ask it.
 */
#include "shell.h"
#include "../core/input.h"
#include "../core/numscan.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* End of the word at p (the next blank or NUL). */
static const char *word_end(const char *p)
{
	while (*p && *p != ' ' && *p != '\t')
		p++;
	return p;
}

static int prompt_token(const char *w, const char *e)
{
	return e > w && e - w <= 64 && strchr("$#%>", e[-1]) &&
	       !memchr(w, '=', (size_t)(e - w)) && *w != '-';
}

/*
 * cmd.exe's prompt, "C:\dir>" or "G:\FIOTEST>fio ...": the command
 * follows the '>' with no blank, so the prompt is not a word of its own.
 * A Windows path holds no '<', '>', '|', '"', '*' nor '?', but may hold
 * blanks ("C:\Program Files>").
 */
static size_t windows_prompt_len(const char *s)
{
	size_t n = 3;

	if (!is_alpha(s[0]) || s[1] != ':' || s[2] != '\\')
		return 0;
	while (s[n] && !strchr("<>|\"*?", s[n]))
		n++;
	return s[n] == '>' ? (size_t)(skip_spaces(s + n + 1) - s) : 0;
}

/*
 * The "(base) " or "(venv) " a conda or Python virtual environment puts
 * before the shell's own prompt: one word in parentheses, counted only
 * when a prompt follows it (a line may start with a "(subshell)").
 */
static size_t env_prefix_len(const char *s)
{
	const char *e;

	if (*s != '(')
		return 0;	/* most lines: no word to measure */
	e = word_end(s);
	/* "()": the empty name some prompts show ("() [u@h ~]$ ") */
	if (e - s < 2 || e[-1] != ')' ||
	    memchr(s + 1, '(', (size_t)(e - s - 1)))
		return 0;
	return (size_t)(skip_spaces(e) - s);
}

static size_t bare_prompt_len(const char *s)
{
	const char *orig = s, *e, *p;
	int at_host;
	size_t win = windows_prompt_len(s);

	if (win)
		return win;
	if (*s == '[') {
		const char *close = strchr(s, ']');

		if (close && (close[1] == '$' || close[1] == '#'))
			return (size_t)(skip_spaces(close + 2) - s);
	}
	if (s[0] == '+' && (s[1] == ' ' || s[1] == '+')) {
		for (p = s; *p == '+'; p++)
			;
		return (size_t)(skip_spaces(p) - s);
	}
	if (*s == '$' || *s == '#')
		return (size_t)(skip_spaces(s + 1) - s);
	e = word_end(s);
	if (prompt_token(s, e) && (*e == ' ' || *e == '\t' || !*e))
		return (size_t)(skip_spaces(e) - s);
	if (e - s == 2 && !strncmp(s, "PS", 2)) {
		const char *w = skip_spaces(e);

		e = word_end(w);
		if (e > w && e[-1] == '>')
			return (size_t)(skip_spaces(e) - s);
		return 0;
	}
	/* Up to three words, then a lone '$' or '#': "/data # ",
	 * "marte luis # " (Gentoo: host and directory); or '%' after
	 * user@host, zsh's default on macOS ("abc@Mac-mini ~ % "): prose
	 * has "50 % of" too. */
	at_host = memchr(s, '@', (size_t)(e - s)) != NULL;
	for (int words = 0; words < 3; words++) {
		if (e - s > 64 || memchr(s, '=', (size_t)(e - s)) || *s == '-')
			return 0;
		/* fish's default: "user@host ~/dir>" or "... (branch)>" */
		if (words && at_host && e[-1] == '>' && (*e == ' ' || *e == '\t'))
			return (size_t)(skip_spaces(e) - orig);
		p = skip_spaces(e);
		if (p == e)
			return 0;
		if ((*p == '$' || *p == '#' || (*p == '%' && at_host)) &&
		    (p[1] == ' ' || p[1] == '\t' || !p[1]))
			return (size_t)(skip_spaces(p + 1) - orig);
		s = p;
		e = word_end(s);
	}
	return 0;
}

/*
 * Length of a shell prompt at s, 0 if none.  Recognised: "$ ", "# ",
 * "$dd", "[user@host dir]$ ", "user@host:~$ ", "dieter:> ", "/data # ",
 * "pi@host:~/dir $ ", "PS C:\> ", "C:\dir>", fish's "user@host ~/dir>"
 * (after "[I] " in vi mode), and "+ " of shell traces; any of them after
 * "(env) ".
 */
static size_t prompt_len(const char *s)
{
	size_t env, n;

	/* Every prompt ends in one of these, or is xtrace's "+ " (after a
	 * "(venv) " or "[I] " at most): most lines of a log are output,
	 * asked about again and again, and hold none of them ("1073741824
	 * bytes ... copied", "1024+0 records in", "real 0m1.2s"). */
	if (!strpbrk(s, "$#%>") && s[0] != '+' && s[0] != '(' && s[0] != '[')
		return 0;
	env = env_prefix_len(s);

	/* fish's vi mode marks its prompt "[I] " (insert), "[N] "... */
	if (s[0] == '[' && strchr("INVR", s[1]) && s[1] && s[2] == ']' &&
	    s[3] == ' ' && (n = bare_prompt_len(s + 4)))
		return 4 + n;
	if (env && (n = bare_prompt_len(s + env)))
		return env + n;
	return bare_prompt_len(s);
}

const char *line_after_prompt(const char *text)
{
	return text + prompt_len(text);
}

size_t shell_prompt_len(const char *text)
{
	return prompt_len(text);
}

const char *line_after_prompt_at(const struct input *in, size_t li)
{
	const char *text = in->lines[li].text;
	unsigned short known = in->prompt ? in->prompt[li] : 0;

	return known ? text + known - 1 : line_after_prompt(text);
}

int line_is_empty_at(const struct input *in, size_t li)
{
	return !*line_after_prompt_at(in, li);
}

int line_continues(const struct input_line *l)
{
	const char *t = l->text;

	return l->len && t[l->len - 1] == '\\' &&
	       (l->len == 1 || t[l->len - 2] == ' ' || t[l->len - 2] == '\t');
}

char *input_joined_command(const struct input *in, size_t first,
			   size_t *last)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = first;

	/* Each continued line without its backslash: its blank stays. */
	while (line_continues(&in->lines[i]) && i + 1 < in->nlines &&
	       i - first < COMMAND_LINES_MAX) {
		strbuf_add(&sb, in->lines[i].text, in->lines[i].len - 1);
		i++;
	}
	strbuf_adds(&sb, in->lines[i].text);
	*last = i;
	return strbuf_detach(&sb);
}

/* Does a command start cmd: a word a cache drop starts with? */
static int starts_drop_command(const char *cmd)
{
	static const char *const words[] = {
		"echo ", "sync", "sysctl ", "sudo ", "free ", "umount ",
		"blockdev ", "storan ", "sh ", "bash ", NULL
	};

	for (size_t i = 0; words[i]; i++)
		if (starts_with(cmd, words[i]))
			return 1;
	return 0;
}

int line_drops_cache(const char *text)
{
	const char *cmd;

	/* most lines name none of it: no prompt to work out for them */
	if (!strstr(text, "drop") && !strstr(text, "flushbufs") &&
	    !strstr(text, "umount"))
		return 0;
	cmd = line_after_prompt(text);

	/* a command, not prose about one ("no drop_caches, I know") */
	if (cmd == text && !starts_drop_command(cmd))
		return 0;
	return strstr(cmd, "drop_caches") || strstr(cmd, "--drop-caches") ||
	       strstr(cmd, "blockdev --flushbufs") ||
	       starts_with(cmd, "umount ") || starts_with(cmd, "sudo umount ");
}

int line_is_empty(const struct input_line *l)
{
	return !*line_after_prompt(l->text);
}

char *shell_next_word(const char **pp, const char *end)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = *pp;
	char quote = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end) {
		*pp = p;
		return NULL;
	}
	for (; p < end; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			else
				strbuf_addch(&sb, *p);
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '\\' && p + 1 < end) {
			strbuf_addch(&sb, *++p);
		} else if (*p == ' ' || *p == '\t') {
			break;
		} else {
			strbuf_addch(&sb, *p);
		}
	}
	*pp = p;
	return strbuf_detach(&sb);
}

/* Words that run the next word as a command. */
int shell_is_wrapper(const char *w)
{
	static const char *const wrappers[] = {
		"sudo", "time", "nice", "ionice", "env", "command", "exec",
		"nohup", "stdbuf", "chrt", "numactl", "taskset", "doas",
		/* cgroup and time limits: "cgexec -g blkio:hi dd ...",
		 * "systemd-run --scope -p IOWeight=10 fio ...",
		 * "timeout 60 fio ..." */
		"cgexec", "systemd-run", "timeout",
		"/usr/bin/time", "/bin/time", "builtin", "(", "{",
		/* shell keywords before a command: "for d in /dev/sd?; do
		 * hdparm -t $d; done", "if ...; then dd ...; fi" */
		"do", "then", "else", NULL
	};

	for (size_t i = 0; wrappers[i]; i++)
		if (!strcmp(w, wrappers[i]))
			return 1;
	return 0;
}

/* Does a wrapper's option take the next word as its argument? */
static int wrapper_option_takes_arg(const char *wrapper, const char *opt)
{
	if (!strcmp(wrapper, "nice") || !strcmp(wrapper, "ionice"))
		return !strcmp(opt, "-n") || !strcmp(opt, "-c");
	if (!strcmp(wrapper, "sudo") || !strcmp(wrapper, "cgexec"))
		return !strcmp(opt, "-u") || !strcmp(opt, "-g");
	if (!strcmp(wrapper, "systemd-run"))
		return !strcmp(opt, "-p") || !strcmp(opt, "--property") ||
		       !strcmp(opt, "--unit") || !strcmp(opt, "--slice") ||
		       !strcmp(opt, "-u");
	if (!strcmp(wrapper, "timeout"))
		return !strcmp(opt, "-s") || !strcmp(opt, "-k") ||
		       !strcmp(opt, "--signal") || !strcmp(opt, "--kill-after");
	if (strstr(wrapper, "time"))
		return !strcmp(opt, "-f") || !strcmp(opt, "-o");
	if (!strcmp(wrapper, "perf"))
		return !strcmp(opt, "-e") || !strcmp(opt, "-r") ||
		       !strcmp(opt, "-o") || !strcmp(opt, "-x") ||
		       !strcmp(opt, "-C") || !strcmp(opt, "-p");
	return 0;
}

static const char *base_of(const char *w)
{
	const char *slash = strrchr(w, '/');

	return slash ? slash + 1 : w;
}

/*
 * Does word w, typed as [raw, raw_end), run prog?  "fio", "/usr/bin/fio",
 * and on Windows "c:\\fio\\fio" or "fio.exe", where a backslash is a
 * separator, not the escape the shell word w took it for.
 */
static int runs_prog(const char *w, const char *raw, const char *raw_end,
		     const char *prog)
{
	size_t n = strlen(prog);
	const char *b, *e = raw_end;

	if (!strcmp(base_of(w), prog))
		return 1;
	if (!memchr(raw, '\\', (size_t)(raw_end - raw)) &&
	    !memchr(raw, '.', (size_t)(raw_end - raw)))
		return 0;	/* no Windows path, no "fio.exe" */
	while (e > raw && (e[-1] == '"' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e - raw > 4 && !strncasecmp(e - 4, ".exe", 4))
		e -= 4;
	for (b = e; b > raw && b[-1] != '\\' && b[-1] != '/' && b[-1] != '"';)
		b--;
	return (size_t)(e - b) == n && !strncmp(b, prog, n);
}

/* Matches one simple command [start, end) against prog. */
static int match_simple(const char *start, const char *end, const char *prog,
			struct shell_cmd *out)
{
	const char *p = start, *before;
	char *wrapper = NULL, *w;
	int found = 0, taskset_mask = 0;

	for (;;) {
		before = skip_spaces(p);
		w = shell_next_word(&p, end);
		if (!w)
			break;
		if (*w == '(' || *w == '{') {	/* "(dd ...)" subshells */
			memmove(w, w + 1, strlen(w));
			before++;
			if (!*w) {
				free(w);
				continue;
			}
		}
		if (wrapper && *w == '-') {
			if (wrapper_option_takes_arg(wrapper, w))
				free(shell_next_word(&p, end));
			free(w);
			continue;
		}
		/* taskset's mask, nice's level, timeout's duration */
		if (taskset_mask || (wrapper && (!strcmp(wrapper, "nice") ||
						 !strcmp(wrapper, "timeout")) &&
				     w[0] >= '0' && w[0] <= '9')) {
			taskset_mask = 0;
			free(w);
			continue;
		}
		if (!strcmp(w, "perf")) {	/* perf stat|record|trace CMD */
			free(w);
			free(shell_next_word(&p, end));
			free(wrapper);
			wrapper = xstrdup("perf");
			continue;
		}
		if (shell_is_wrapper(w) || (strchr(w, '=') && w[0] != '=' &&
				      !strchr(w, '/') && w[0] != '-')) {
			if (shell_is_wrapper(w)) {
				free(wrapper);
				wrapper = xstrdup(w);
				taskset_mask = !strcmp(w, "taskset");
			}
			free(w);
			continue;
		}
		if (runs_prog(w, before, p, prog)) {
			out->prog = before;
			out->args = p;
			out->len = (size_t)(end - before);
			found = 1;
		}
		free(w);
		break;
	}
	free(wrapper);
	return found;
}

/* Does a word in [p, end) look like an option ("-t", "if=/dev/zero")? */
static int has_option_word(const char *p, const char *end)
{
	char *w;
	int found = 0;

	while (!found && (w = shell_next_word(&p, end))) {
		found = (w[0] == '-' && w[1]) || strchr(w, '=');
		free(w);
	}
	return found;
}

/*
 * Where a command follows prose and a colon on one line ("Teste de
 * vitesse partition : sudo dd if=/dev/zero ..."): the text after the
 * first ": " whose next word runs prog (or a wrapper) with an option.
 * Prose that only names the program ("Note: dd is slow") has none, and
 * a message's colon ("dd: error writing") is followed by prose.
 */
static const char *after_prose_colon(const char *s, const char *prog)
{
	/* (most lines with a colon name no prog: no words cut for them) */
	if (!strstr(s, prog))
		return NULL;
	for (const char *c = strchr(s, ':'); c; c = strchr(c + 1, ':')) {
		const char *p = skip_spaces(c + 1), *q = p;
		char *w;
		int runs;

		if (p == c + 1 || !*p)
			continue;
		w = shell_next_word(&q, q + strlen(q));
		runs = shell_is_wrapper(w) || !strcmp(base_of(w), prog);
		free(w);
		if (runs && has_option_word(q, q + strlen(q)))
			return p;
	}
	return NULL;
}

/* shell_find() on a line whose prompt is gone, up to end. */
static size_t find_simple_commands(const char *s, const char *end,
				   const char *prog, struct shell_cmd *cmds,
				   size_t max)
{
	const char *start = s;
	size_t n = 0;
	char quote = 0;

	for (const char *p = s;; p++) {
		int sep = p >= end || !*p;

		if (sep) {
			if (n < max && match_simple(start, p, prog, &cmds[n]))
				n++;
			break;
		}

		if (*p && quote) {
			if (*p == quote)
				quote = 0;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			quote = *p;
			continue;
		}
		if (*p == ';' || *p == '|' || *p == '&')
			sep = 1;
		if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t'))
			sep = 2;	/* a comment runs to the end of line */
		if (!sep)
			continue;
		if (n < max && match_simple(start, p, prog, &cmds[n]))
			n++;
		if (sep == 2)
			break;
		start = p + 1;
	}
	return n;
}

/*
 * A command in Markdown inline code: "I ran `dd if=/dev/sdb of=/dev/null
 * bs=1M` on the old disk:".  The spans of the line that run prog with an
 * option ("`dd` is slow" runs nothing); the first that does, found.
 */
static size_t find_in_inline_code(const char *s, const char *prog,
				  struct shell_cmd *cmds, size_t max)
{
	const char *open = strchr(s, '`'), *close;

	if (!open || !strstr(s, prog))
		return 0;
	for (; open && (close = strchr(open + 1, '`')); open = strchr(close + 1,
								      '`')) {
		const char *b = open + 1, *after;
		size_t n;

		if (close == b)		/* "``cmd``": the span after both */
			continue;
		/* "- Disk speed: `$ sudo hdparm -tT /dev/nvme0n1`" */
		after = line_after_prompt(b);
		if (after < close)
			b = after;
		n = find_simple_commands(b, close, prog, cmds, max);
		if (n && has_option_word(cmds[0].args, cmds[0].prog +
					 cmds[0].len))
			return n;
	}
	return 0;
}

/*
 * A prompt glued to the output before it, which ended without a newline:
 * "umount: /dev/sda: not mountedpi@raspberrypi:~/Desktop $ sudo dd ...".
 * The word before a lone '$' or '#' holds user@host and a ':' after it,
 * as only a prompt does.  Returns the text after it, or NULL.
 */
static const char *after_glued_prompt(const char *s, const char *prog)
{
	if (!strstr(s, prog))
		return NULL;
	for (const char *p = strchr(s, ' '); p; p = strchr(p + 1, ' ')) {
		const char *w = p, *at;

		if (!((p[1] == '$' || p[1] == '#') && p[2] == ' '))
			continue;
		while (w > s && w[-1] != ' ' && w[-1] != '\t')
			w--;
		at = memchr(w, '@', (size_t)(p - w));
		if (at && at > w && memchr(at, ':', (size_t)(p - at)))
			return skip_spaces(p + 3);
	}
	return NULL;
}

int line_is_zsh_timing(const char *text)
{
	const char *u = strstr(text, "s user "), *s;

	if (!u || !ends_with(text, " total"))
		return 0;
	s = strstr(u, "s system ");
	return s && strstr(s, "% cpu ");
}

size_t shell_find(const char *line, const char *prog, struct shell_cmd *cmds,
		  size_t max)
{
	const char *s, *after_prose;
	size_t n;

	/* Most lines of a log are output, not commands: with no prog in
	 * the text, and no quote or backslash to spell it ("d''d"), no
	 * word below can run it (a dd log's 1.8 million lines were each
	 * cut into words for this). */
	if (!strstr(line, prog) && !strpbrk(line, "'\"\\"))
		return 0;
	s = line_after_prompt(line);
	/* zsh's time reports the command it ran at the start of its line:
	 * that command ran above, the line is not a new one (a dd output
	 * then "dd if=/dev/zero of=big ...  0.02s user ... 1.611 total") */
	if (line_is_zsh_timing(s))
		return 0;
	n = find_simple_commands(s, s + strlen(s), prog, cmds, max);

	if (!n && (after_prose = after_prose_colon(s, prog)))
		n = find_simple_commands(after_prose,
					 after_prose + strlen(after_prose),
					 prog, cmds, max);
	if (!n && s == line && (after_prose = after_glued_prompt(s, prog)))
		n = find_simple_commands(after_prose,
					 after_prose + strlen(after_prose),
					 prog, cmds, max);
	if (!n && s == line)
		n = find_in_inline_code(s, prog, cmds, max);
	return n;
}

char *shell_cmd_text(const struct shell_cmd *c)
{
	size_t len = c->len;

	while (len && (c->prog[len - 1] == ' ' || c->prog[len - 1] == '\t'))
		len--;
	return xstrndup(c->prog, len);
}

/*
 * Does the title count runs ("Run 1", "2nd run", "Test #3", "pass 2")?
 * Then the outputs under such headings are repetitions of one test,
 * to be pooled, not conditions.
 */
int words_count_run(const char *t, size_t len)
{
	static const char *const words[] = {
		"run", "test", "pass", "try", "trial", "round", "attempt",
		"iteration", "repeat", "repetition", NULL
	};
	int word = 0, number = 0, other = 0;

	for (size_t i = 0; i < len;) {
		size_t w = i, k;

		while (w < len && !is_blank_char(t[w]) && t[w] != '#' &&
		       t[w] != '.' && t[w] != ',' && t[w] != '(' && t[w] != ')')
			w++;
		if (w > i && t[i] >= '0' && t[i] <= '9') {
			number = 1;	/* "1", "2nd", "3." */
		} else if (w > i) {
			for (k = 0; words[k]; k++)
				if (strlen(words[k]) + 1 >= w - i &&
				    strlen(words[k]) <= w - i &&
				    !strncasecmp(t + i, words[k], strlen(words[k])))
					break;
			if (words[k])
				word = 1;
			else
				other = 1;
		}
		i = w + (w < len);
	}
	return word && number && !other;
}

int line_counts_run(const char *text)
{
	const char *t = text, *e = text + strlen(text);

	/* "Run 2:", "=== run 3 ===", "### Test #4", "**Iteration 5**" */
	while (t < e && (is_blank_char(*t) || strchr("=*#-", *t)))
		t++;
	while (e > t && (is_blank_char(e[-1]) || strchr("=*#-:", e[-1])))
		e--;
	return e > t && (size_t)(e - t) <= 40 &&
	       words_count_run(t, (size_t)(e - t));
}

/* A letter of any script: ASCII's, or a byte of a UTF-8 sequence. */
static int has_letter(const char *t)
{
	for (; *t; t++)
		if (is_alpha(*t) || (unsigned char)*t >= 0x80)
			return 1;
	return 0;
}

/* Does `echo` with the arguments [p, end) print a line of its own: no
 * -n, no redirection, pipe or second command outside quotes?  (What it
 * prints need not be its words: "$ echo $DISK" prints "sdb".) */
static int echo_prints_line(const char *p, const char *end)
{
	const char *q = p;
	char *w = shell_next_word(&q, end), quote = 0;
	int no_newline = w && w[0] == '-' && w[1] &&
			 strspn(w + 1, "neE") == strlen(w + 1) &&
			 strchr(w + 1, 'n');

	free(w);
	if (no_newline)
		return 0;
	for (; p < end; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '\\' && p + 1 < end) {
			p++;
		} else if (strchr("<>|;&`", *p)) {
			return 0;
		}
	}
	return 1;
}

int line_echoed_above(const struct input *in, size_t li)
{
	const char *cmd, *text;

	if (!li || !in->lines[li].len)
		return 0;
	text = in->lines[li].text;
	cmd = line_after_prompt_at(in, li - 1);
	/* (an echo typed after a prompt; the line below it no command) */
	if (cmd == in->lines[li - 1].text || !skip_prefix(&cmd, "echo ") ||
	    line_after_prompt_at(in, li) != text)
		return 0;
	return echo_prints_line(cmd, cmd + strlen(cmd));
}

int line_reads_as_prose(const char *text)
{
	/* ("## title" is a Markdown heading, not "# " a root prompt) */
	return has_letter(text) &&
	       (line_after_prompt(text) == text || starts_with(text, "##")) &&
	       !line_counts_run(text);
}
