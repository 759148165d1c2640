/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dd command lines ("$ sync; dd if=/dev/zero of=x bs=1M count=1; sync"):
 * their operands become labels, if= and of= the op (see "Direction" in
 * dd.c's top comment), "&" puts a command among the background ones;
 * and the kill lines that ask a running dd for its counts.
 */
#include "dd.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* GNU dd's size suffixes: c w b, kB=1000 K=KiB=1024, MB M MiB ... */
int dd_size(const char *s, double *out)
{
	const char *p = s;
	uint64_t n;
	double f = 1;

	if (scan_u64(&p, &n))
		return -1;
	if (*p == 'c')
		p++;
	else if (*p == 'w')
		f = 2, p++;
	else if (*p == 'b')
		f = 512, p++;
	else if (*p) {
		int binary = !(p[1] == 'B');

		f = prefix_factor(*p, binary);
		if (f <= 0)
			return -1;
		p++;
		if (*p == 'i' && p[1] == 'B')
			p += 2;
		else if (*p == 'B')
			p++;
	}
	if (*p == 'x') {	/* "2x512" */
		double rest;

		if (dd_size(p + 1, &rest))
			return -1;
		*out = (double)n * f * rest;
		return 0;
	}
	if (*p)
		return -1;
	*out = (double)n * f;
	return 0;
}

static int is_sink(const char *path)
{
	return !strcmp(path, "/dev/null") || !strcmp(path, "/dev/zero");
}

static int is_generator(const char *path)
{
	return !strcmp(path, "/dev/zero") || !strcmp(path, "/dev/urandom") ||
	       !strcmp(path, "/dev/random");
}

/*
 * "of=/dev/stdout" is the pipe dd writes to without of= ("dd if=/dev/urandom
 * of=/dev/stdout bs=1K count=10 | base64"), and "if=/dev/stdin" the pipe
 * it reads without if=: neither is storage.
 */
static int is_std_stream(const char *path)
{
	return path && (!strcmp(path, "/dev/stdout") ||
			!strcmp(path, "/dev/stdin") ||
			!strcmp(path, "/dev/fd/0") || !strcmp(path, "/dev/fd/1"));
}

/*
 * A device node ("/dev/sdb1", "/dev/mapper/vg-root", "/dev/rdisk5"), not
 * a file: /dev/shm holds files, and the streams, sinks and generators
 * are told apart before.
 */
static int is_device(const char *path)
{
	return starts_with(path, "/dev/") && !starts_with(path, "/dev/shm/") &&
	       !starts_with(path, "/dev/fd/");
}

/*
 * The op, from if= and of=: into a sink, a read; from a generator, a
 * write (or, into a pipe, a copy that touches no storage); a device
 * imaged into a file ("if=/dev/sdb1 of=disk.img"), a read; anything onto
 * a device, a write; a file copied to a file, or a device cloned onto a
 * device, a copy; of= alone a write, if= alone a read.
 */
static const char *dd_direction(const struct labels *l)
{
	const char *in = labels_get(l, "if"), *out = labels_get(l, "of");

	if (is_std_stream(in))
		in = NULL;
	if (is_std_stream(out))
		out = NULL;

	if (out && is_sink(out))
		return "read";
	if (in && is_generator(in))
		return out ? "write" : "copy";	/* "| base64": no storage */
	if (in && out)
		return is_device(in) == is_device(out) ? "copy" :
		       is_device(in) ? "read" : "write";
	if (out)
		return "write";
	if (in)
		return "read";
	return "copy";
}

/*
 * Does v close every parenthesis it opens?  The words of a command are cut
 * at blanks, so "count=$((0x580920 - 0x580880))" comes as
 * "count=$((0x580920": not a value to label with.
 */
static int parens_balanced(const char *v)
{
	int depth = 0;

	for (; *v; v++)
		depth += (*v == '(') - (*v == ')');
	return depth == 0;
}

static void read_operand(struct dd_command *c, const char *w)
{
	static const char *const keys[] = {
		"if", "of", "count", "iflag", "oflag", "conv", NULL
	};
	const char *eq = strchr(w, '=');
	double bytes;

	if (!eq || !parens_balanced(eq + 1))
		return;
	for (size_t k = 0; keys[k]; k++)
		if ((size_t)(eq - w) == strlen(keys[k]) &&
		    !strncmp(w, keys[k], (size_t)(eq - w)))
			labels_set(&c->labels, keys[k], eq + 1);
	if (starts_with(w, "bs=") && !dd_size(eq + 1, &bytes))
		labels_setf(&c->labels, "bs", "%.0f", bytes);
}

static void read_one_command(struct dd_command *c, const struct shell_cmd *sc)
{
	const char *p = sc->args, *end = sc->prog + sc->len;
	const char *flag;
	char *w, *text;

	labels_init(&c->labels);
	while ((w = shell_next_word(&p, end))) {
		read_operand(c, w);
		free(w);
	}
	c->op = dd_direction(&c->labels);
	flag = labels_get(&c->labels,
			  !strcmp(c->op, "read") ? "iflag" : "oflag");
	if (flag && strstr(flag, "direct"))
		labels_set(&c->labels, "direct", "1");
	text = shell_cmd_text(sc);
	labels_set(&c->labels, "command", text);
	free(text);
}

void dd_forget_commands(struct dd_state *st)
{
	for (size_t i = 0; i < st->ncmd; i++)
		labels_release(&st->cmd[i].labels);
	st->ncmd = st->next = 0;
	st->used = 0;
}

/* Is the simple command sc run in the background ("dd ... &", not &&)? */
static int in_background(const struct shell_cmd *sc)
{
	const char *sep = sc->prog + sc->len;

	return *sep == '&' && sep[1] != '&' && sep[1] != '>' &&
	       (sep == sc->prog || sep[-1] != '&');
}

/* Is word w an operand of dd ("bs=4096")? */
static int is_dd_operand(const char *w)
{
	static const char *const keys[] = {
		"if", "of", "bs", "ibs", "obs", "cbs", "count", "skip", "seek",
		"iseek", "oseek", "conv", "iflag", "oflag", "status", NULL
	};
	const char *eq = strchr(w, '=');

	for (size_t k = 0; eq && keys[k]; k++)
		if ((size_t)(eq - w) == strlen(keys[k]) &&
		    !strncmp(w, keys[k], (size_t)(eq - w)))
			return 1;
	return 0;
}

/* Does a line hold dd operands only ("bs=4096", "count=1024 conv=fsync")? */
static int only_dd_operands(const char *text)
{
	const char *p = text, *end = text + strlen(text);
	char *w;
	int n = 0, all = 1;

	while (all && (w = shell_next_word(&p, end))) {
		all = is_dd_operand(w);
		n++;
		free(w);
	}
	return all && n;
}

/*
 * A mail client wraps a long dd command without a backslash: "dd
 * if=/dev/zero of=1.txt" then "bs=4096" and "count=1024" on lines of
 * their own.  Lines after li that hold dd operands only (up to
 * COMMAND_LINES_MAX of them: dd has fewer operands) are joined to it;
 * returns the text (to free), NULL when none follows.
 */
char *dd_wrapped_command(struct parse_ctx *ctx, size_t li,
			size_t *last)
{
	struct strbuf sb = STRBUF_INIT;
	size_t j;

	for (j = li + 1; j < ctx->in->nlines && j - li <= COMMAND_LINES_MAX &&
	     only_dd_operands(ctx->in->lines[j].text); j++)
		;
	if (j == li + 1)
		return NULL;
	strbuf_adds(&sb, ctx->in->lines[li].text);
	for (size_t k = li + 1; k < j; k++) {
		strbuf_addch(&sb, ' ');
		strbuf_adds(&sb, ctx->in->lines[k].text);
	}
	*last = j - 1;
	return strbuf_detach(&sb);
}

/*
 * The names GNU dd is run by: its own, and those it is installed under
 * beside another dd (Homebrew's "gdd" on macOS, "gnudd" where uutils'
 * dd is the default).
 */
const char *const dd_names[] = { "dd", "gdd", "gnudd", NULL };

static void forget_line_read(struct dd_line_read *r)
{
	for (size_t i = 0; i < r->n; i++)
		labels_release(&r->cmd[i].labels);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

void dd_forget_lines_read(struct dd_state *st)
{
	for (size_t k = 0; k < DD_LINES_KEPT; k++)
		forget_line_read(&st->kept[k]);
}

/* The dd commands of line text, read or found kept; NULL when it runs
 * none. */
static const struct dd_line_read *read_line(struct dd_state *st,
					    const char *text)
{
	struct shell_cmd sc[MAX_DD_PER_LINE];
	struct dd_line_read *r;
	uint64_t hash = hash64(HASH64_INIT, text, strlen(text));
	size_t n = 0;

	for (size_t k = 0; k < DD_LINES_KEPT; k++)
		if (st->kept[k].text && st->kept[k].hash == hash &&
		    !strcmp(st->kept[k].text, text))
			return &st->kept[k];
	for (size_t k = 0; !n && dd_names[k]; k++)
		n = shell_find(text, dd_names[k], sc, MAX_DD_PER_LINE);
	if (!n)
		return NULL;
	r = &st->kept[st->kept_next];
	st->kept_next = (st->kept_next + 1) % DD_LINES_KEPT;
	forget_line_read(r);
	r->text = xstrdup(text);
	r->hash = hash;
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		struct dd_command c;

		read_one_command(&c, &sc[i]);
		r->cmd[i].labels = c.labels;
		r->cmd[i].op = c.op;
		r->cmd[i].background = in_background(&sc[i]);
	}
	return r;
}

/*
 * Every name dd runs by holds "dd": a line without it, and without a
 * quote or backslash to spell it ("d''d"), runs no dd (and most lines of
 * a log are output: they are not worth a look for each name, nor a hash).
 */
static int may_run_dd(const char *text)
{
	return strstr(text, "dd") || strpbrk(text, "'\"\\");
}

/* A dd command line: "$ sync; dd if=/dev/zero of=x bs=1M count=1; sync". */
int dd_read_commands(void *state, const char *text, size_t li)
{
	struct dd_state *st = state;
	const struct dd_line_read *r = may_run_dd(text) ?
				       read_line(st, text) : NULL;

	if (!r)
		return 0;
	dd_forget_commands(st);
	for (size_t i = 0; i < r->n; i++) {
		struct dd_command *c =
			r->cmd[i].background && st->nbg < MAX_DD_BACKGROUND ?
			&st->bg[st->nbg++] : &st->cmd[st->ncmd++];

		labels_copy(&c->labels, &r->cmd[i].labels);
		c->op = r->cmd[i].op;
		c->li = li;
	}
	return 1;
}

/* Is w a USR1 (GNU) or INFO (BSD) signal option of kill? */
static int is_progress_signal(const char *w)
{
	static const char *const sigs[] = {
		"-USR1", "-SIGUSR1", "-usr1", "-10", "-INFO", "-SIGINFO",
		"-29", "USR1", "SIGUSR1", "INFO", "SIGINFO", NULL
	};

	for (size_t i = 0; sigs[i]; i++)
		if (!strcmp(w, sigs[i]))
			return 1;
	return 0;
}

/*
 * A line that asks a running dd for its counts: "kill -USR1 $(pgrep ^dd)",
 * "pidof dd| sudo xargs kill -USR1", "pkill -usr1 dd", "kill -s INFO
 * 1234".  The counts dd prints then are a snapshot of the copy, even when
 * in and out agree (a tutorial shows one in its own block under "$ pidof
 * dd| sudo xargs kill -USR1").
 */
int dd_asks_for_progress(const char *text)
{
	const char *p, *end;
	int kill = 0, signal = 0;
	char *w;

	/* most lines of a log are none: no word split for them (it was 5%
	 * of a 200,000-run dd log) */
	if (!strstr(text, "kill"))
		return 0;
	p = line_after_prompt(text);
	/* a command, not prose about one ("tip: kill -USR1 shows it") */
	if (p == text && !starts_with(text, "kill ") &&
	    !starts_with(text, "pkill ") && !starts_with(text, "killall ") &&
	    !starts_with(text, "pidof ") && !starts_with(text, "pgrep ") &&
	    !starts_with(text, "sudo ") && !starts_with(text, "watch ") &&
	    !starts_with(text, "while "))
		return 0;
	end = p + strlen(p);
	while ((w = shell_next_word(&p, end))) {
		const char *b = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;

		if (!strcmp(b, "kill") || !strcmp(b, "pkill") ||
		    !strcmp(b, "killall"))
			kill = 1;
		else if (kill && is_progress_signal(w))
			signal = 1;
		free(w);
	}
	return kill && signal;
}

