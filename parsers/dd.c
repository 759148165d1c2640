/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dd transfer summaries: GNU (old, new, any locale), BSD/macOS, BusyBox,
 * ELKS.
 *
 * Accepted, verbatim:
 *
 *   GNU >= 8.24   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s
 *   GNU <  8.24   536870912 bytes (537 MB) copied, 23.3035 s, 23.0 MB/s
 *   GNU, small    512 bytes copied, 0.000113 s, 4.5 MB/s
 *   GNU de_DE     4034920448 Bytes (4,0 GB, 3,8 GiB) kopiert, 293,807 s, 13,7 MB/s
 *   GNU ru_RU     4294967296 байт (4,3 GB, 4,0 GiB) скопирован, 54,5651 s, 78,7 MB/s
 *                 300490752 байт (300 MB, 286 MiB) скопирован, 14,6916 c, 20,5 MB/c
 *                 512 байт скопировано, 0,0202791 s, 25,2 kB/s
 *                 3774873600 байтов (3,8 GB, 3,5 GiB) скопировано, 106,197 s, 35,5 MB/s
 *   GNU ru, old   скопировано 2147483648 байт (2,1 GB), 4,17328 c, 515 MB/c
 *   GNU pl        4096 bajtów (4,1 kB, 4,0 KiB), 0,000298769 s, 13,7 MB/s
 *   GNU pl, old   skopiowane 64 bajty, 9,156e-05 s, 699 kB/s
 *   GNU ja        5000000 バイト (5.0 MB) コピーされました、 0.0286412 秒、 175 MB/秒
 *   GNU 5.x       10485760 bytes transferred in 0.028418 seconds (368981986 bytes/sec)
 *   BSD/macOS     3053371392 bytes transferred in 2151.132182 secs (1419425 bytes/sec)
 *   FreeBSD progress  1073741824 bytes (1074 MB, 1024 MiB) transferred 0.302s, 3555 MB/s
 *   GNU zh_CN     5120000字节（5.1 MB，4.9 MiB）已复制，0.0313203 s，163 MB/s
 *                 512字节已复制，0.000126482 s，4.0 MB/s
 *   BusyBox       1073741824 bytes (1.0GB) copied, 112.313516 seconds, 9.1MB/s
 *   ELKS          1474560 bytes (1440 KiB) copied
 *
 * with "N+M records in" / "N+M records out" before them (any language:
 * "962+0 Datensätze ein", "记录了1024+0 的读入", "1+0 record dentro",
 * "500+0 enregistrements lus"; a pipe gives partial records only,
 * "0+419299 записей получено"), and "dd: error writing '/dev/sdX': No space
 * left on device" style messages (dd names itself as invoked:
 * "/usr/bin/dd: error reading '/dev/xvdi': Input/output error").  Any of
 * these lines may follow a shell prompt (a background dd finishing after
 * the next prompt was printed: "[vagrant@host ~]$ 2048+0 записей
 * получено"), and the records line of an interrupted dd may carry the
 * terminal's echo: "^C11771330744+0 records in".  A page that lost the
 * breaks and the blanks glues them to the command and to each other
 * ("conv=fdatasync1+0 records in", "100+0 records in100+0 records
 * out104857600 bytes (105 MB) copied, ..."): the input layer cuts them
 * apart where the rest of the line is exactly these phrases (see
 * core/input.c, check_glued()).
 *
 * bw is bytes / seconds, computed here: the printed rate is rounded to two
 * or three digits and its unit differs between versions.  A figure is a
 * result only when it is dd's final summary:
 *
 *   - a summary right after its "records out" line is final, also when
 *     the counts in and out differ ("1953+1 records in", "1953+0 records
 *     out": a partial last block, conv=sync, ibs=/obs=), unless dd prints
 *     more right after it (a SIGUSR1 snapshot while a block was in
 *     flight);
 *   - a summary not after a records line but followed by one (or by a dd
 *     error) is a status=progress line;
 *   - the same summary twice in a row is one output printed twice;
 *   - a summary line and dd command line both seen before (a forum reply
 *     or an e-mail quoting the first post) are a copy: noted, not counted;
 *   - a dd error before the summary ("dd: error writing '/dev/sdX': No
 *     space left on device") ends the copy: dd prints what it copied and
 *     quits, and that figure is kept, labelled partial=<the message>
 *     (storan check flags it); nothing copied is no result, and counts
 *     dd goes on after (conv=noerror's report at each bad block) none;
 *     for "dd: fsync failed for '/dev/null': Invalid argument" (or
 *     fdatasync): conv=fsync syncs after the copy, so the copy was whole;
 *     kept, with a note that a write's figure lacks the flush.
 *
 * The counts that follow a line sending dd SIGUSR1 ("kill -USR1 $(pgrep
 * ^dd)", "pidof dd | sudo xargs kill -USR1") are a snapshot too, even
 * when in and out agree: noted, not a result (the next output after it
 * is final again).
 *
 * After ^C the counts in and out may differ by the block in flight; that
 * summary is still final.  On BSD and macOS, Ctrl-T prints a snapshot
 * under "load: 1.88  cmd: dd 20526 uninterruptible 0.00u 4.53s": noted,
 * never a result, even when its counts in and out agree.
 *
 * Direction: from the dd command line seen before the output (of=/dev/null
 * or /dev/zero -> read; if=/dev/zero or /dev/urandom with of= -> write,
 * without of= (into a pipe) -> copy; a device imaged into a file,
 * "if=/dev/sdb1 of=disk.img" -> read; a file or image onto a device ->
 * write; file to file, or device to device -> copy; else of= -> write,
 * if= alone -> read; of=/dev/stdout and if=/dev/stdin count as no of=
 * and no if=);
 * without a command line, op "copy".  A dd run in the background ("dd
 * ... &", the shell's job lines "[1] 4021" and "[1]+  Done  dd ..." around
 * its output) is paired with its output apart: by a lone job line right
 * after the output that names it, else by its bs= times count= making the
 * byte count, else when it is the only one pending; otherwise the output
 * gets no command (noted), never another's: only the labels every
 * pending command says alike (op read for two reads of /dev/sdb and
 * /dev/sdc, bs, count, not if=), and unpaired=K to keep it apart from
 * the other outputs of those commands (they ran on different things, not
 * as runs of one test).  A shell
 * line with several dd commands gives its outputs to them in order; a
 * command may follow prose and a colon on its line ("Teste de vitesse
 * partition : sudo dd if=/dev/zero of=/mnt/raid_storage ...").
 * Labels: bs (bytes), count, iflag, oflag, conv, if, of, command, direct=1
 * when the flag of the side that touches storage says direct; an output
 * with no dd command before it has size (its byte count) instead.
 */
#include "parser.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DD_PER_LINE 8
#define MAX_DD_BACKGROUND 16

struct dd_command {
	struct labels labels;	/* if, of, bs, count, iflag, oflag, conv */
	const char *op;
	size_t li;
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
	uint64_t prev_bytes;
	double prev_seconds;
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

/*
 * Is there a "N+M " anywhere: the counts of a records line?  dd prints
 * them through gettext as "%"PRIuMAX"+%"PRIuMAX" records in", so the
 * words are any language's, but the counts always read "N+M " (a partial
 * copy from a pipe: "0+419299 Datensätze ein").
 */
static int has_record_counts(const struct input *in)
{
	const char *p = in->data, *end = in->data + in->size;

	while ((p = memchr(p, '+', (size_t)(end - p)))) {
		const char *q = ++p;

		if (q - 2 < in->data || !is_ascii_digit(q[-2]))
			continue;
		while (q < end && is_ascii_digit(*q))
			q++;
		if (q > p && q < end && *q == ' ')
			return 1;
	}
	return 0;
}

/* GNU dd's size suffixes: c w b, kB=1000 K=KiB=1024, MB M MiB ... */
static int dd_size(const char *s, double *out)
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

static void read_one_command(struct dd_command *c, const struct shell_cmd *sc,
			     size_t li)
{
	const char *p = sc->args, *end = sc->prog + sc->len;
	const char *flag;
	char *w, *text;

	labels_init(&c->labels);
	c->li = li;
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

static void forget_commands(struct dd_state *st)
{
	for (size_t i = 0; i < st->ncmd; i++)
		labels_release(&st->cmd[i].labels);
	st->ncmd = st->next = 0;
	st->used = 0;
}

static void forget_background(struct dd_state *st)
{
	for (size_t i = 0; i < st->nbg; i++)
		labels_release(&st->bg[i].labels);
	st->nbg = st->bg_unpaired = 0;
	labels_release(&st->taken.labels);
	labels_init(&st->taken.labels);
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
 * their own.  Lines after li that hold dd operands only are joined to
 * it; returns the text (to free), NULL when none follows.
 */
static char *wrapped_dd_command(struct parse_ctx *ctx, size_t li,
				size_t *last)
{
	struct strbuf sb = STRBUF_INIT;
	size_t j;

	for (j = li + 1; j < ctx->in->nlines &&
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
static const char *const dd_names[] = { "dd", "gdd", "gnudd", NULL };

/* A dd command line: "$ sync; dd if=/dev/zero of=x bs=1M count=1; sync". */
static int read_commands(void *state, const char *text, size_t li)
{
	struct dd_state *st = state;
	struct shell_cmd sc[MAX_DD_PER_LINE];
	size_t n = 0;

	for (size_t k = 0; !n && dd_names[k]; k++)
		n = shell_find(text, dd_names[k], sc, MAX_DD_PER_LINE);

	if (!n)
		return 0;
	forget_commands(st);
	for (size_t i = 0; i < n; i++) {
		if (in_background(&sc[i]) && st->nbg < MAX_DD_BACKGROUND) {
			read_one_command(&st->bg[st->nbg++], &sc[i], li);
			continue;
		}
		read_one_command(&st->cmd[st->ncmd++], &sc[i], li);
	}
	return 1;
}

/* "16384+0 records in", "962+0 Datensätze ein": full and partial counts. */
static int read_records(const char *text, uint64_t *total)
{
	const char *p = text;
	uint64_t full, partial;

	skip_prefix(&p, "^C");	/* the echo of an interrupt */
	while (*p && (unsigned char)*p >= 0x80 && p - text < 12)
		p++;	/* zh_CN: "记录了1024+0 的读入" */
	if (scan_u64(&p, &full) || *p++ != '+' || scan_u64(&p, &partial) ||
	    *p != ' ')
		return 0;
	for (p++; *p; p++)	/* the words: no digits, short */
		if (is_ascii_digit(*p) || p - text > 80)
			return 0;
	*total = full + partial;
	return 1;
}

static int is_byte_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"bytes", "byte", "Bytes", "Byte", "octets", "octet", "байт",
		"байта", "байтов", "bajtów", "bajty", "byte(s)", "bytů",
		"バイト", NULL
	};

	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !strncmp(w, words[i], n))
			return 1;
	return 0;
}

static const char *word_end(const char *p)
{
	while (*p && *p != ' ' && *p != ',')
		p++;
	return p;
}

/* "... transferred in S secs (R bytes/sec)": GNU 5.x and BSD. */
static int read_transferred(const char *p, struct summary_line *s)
{
	if (!skip_prefix(&p, "transferred in "))
		return 0;
	if (scan_double(&p, 0, &s->seconds))
		return 0;
	p = skip_spaces(p);
	return skip_prefix(&p, "secs") || skip_prefix(&p, "seconds");
}

/* ", 1.70473 s, 630 MB/s" after the copied word (any locale). */
static int read_time_part(const char *p, struct summary_line *s)
{
	if (*p != ',' && *p != ' ')
		return 0;
	p = skip_spaces(p + 1);
	if (scan_double(&p, SCAN_COMMA_DECIMAL, &s->seconds))
		return 0;
	/* "1.70 s," (GNU), "112.3 seconds," (BusyBox), "0.302s," (FreeBSD) */
	return *p == ' ' || (*p == 's' && (p[1] == ',' || !p[1]));
}

/* Parses a dd summary line; see the top comment for the variants. */
static int read_summary(const char *text, struct summary_line *s)
{
	const char *p = text, *w;
	int parens = 0, bytes_word, verb_first = 0;

	s->seconds = NAN;
	s->progress_only = 0;
	if (skip_prefix(&p, "скопировано ") || skip_prefix(&p, "skopiowane "))
		verb_first = 1;	/* old ru and pl catalogs */
	if (scan_u64(&p, &s->bytes))
		return 0;
	if (skip_prefix(&p, "字节")) {	/* zh_CN: "512字节已复制" */
		bytes_word = 1;
		p = skip_spaces(p);
	} else {
		if (*p != ' ')
			return 0;
		w = ++p;
		p = word_end(p);
		bytes_word = is_byte_word(w, (size_t)(p - w));
		if (verb_first && *p == ',')
			return bytes_word && read_time_part(p, s);
		if (*p != ' ')
			return 0;
		p++;
	}
	if (*p == '(') {
		const char *close = strchr(p, ')');

		if (!close)
			return 0;
		parens = 1;
		p = skip_spaces(close + 1);
	}
	/* pl: "4096 bajtów (4,1 kB, 4,0 KiB), 0,000298769 s": no verb */
	if (verb_first || *p == ',')
		return bytes_word && read_time_part(p, s);
	if (read_transferred(p, s))
		return bytes_word;
	w = p;
	p = word_end(p);
	if (p == w || (!bytes_word && !parens))
		return 0;
	/* FreeBSD prints its progress so, its final summary "bytes
	 * transferred in S secs" (read above) */
	s->progress_only = p - w == 11 && !strncmp(w, "transferred", 11);
	if (!*p)	/* ELKS: no time at all */
		return bytes_word && parens && !strncmp(w, "copied", 7);
	return read_time_part(p, s);
}

/*
 * "NNN bytes (...", "NNN bytes," or "NNN bytes copied|transferred"
 * (old GNU and BSD forms) that read_summary() could not read: cut
 * short, or garbled?  ("512 bytes per sector." is prose, no summary.)
 */
static int starts_like_summary(const char *text)
{
	const char *p = text, *w;
	uint64_t n;

	if (scan_u64(&p, &n) || *p != ' ')
		return 0;
	w = ++p;
	p = word_end(p);
	if (p > w && p[-1] == ',')
		p--;	/* "64 bajty, 9,156e-05 s" */
	if (!is_byte_word(w, (size_t)(p - w)))
		return 0;
	p = skip_spaces(p);
	return !*p || *p == '(' || *p == ',' || starts_with(p, "copied") ||
	       starts_with(p, "transferred");
}

/*
 * dd's English words, or any language's records counts ("0+419299
 * записей получено") or summary ("4294967296 bytes (4,3 GB, 4,0 GiB)
 * copiados, 2,28909 s, 1,9 GB/s": a poster may keep only that line).
 */
static int dd_detect(const struct input *in)
{
	static const char *const marks[] = {
		"records in", " copied", "bytes transferred", "dd: ", NULL
	};

	for (size_t i = 0; marks[i]; i++)
		if (input_contains(in, marks[i]))
			return 60;
	if (has_record_counts(in))
		return 60;
	for (size_t i = 0; i < in->nlines; i++)
		if (starts_like_summary(line_after_prompt(in->lines[i].text)))
			return 60;
	return 0;
}

/*
 * Chinese locales print full-width punctuation: "5120000字节（5.1 MB，4.9
 * MiB）已复制，0.0313203 s，163 MB/s"; Japanese ones an ideographic comma:
 * "5000000 バイト (5.0 MB) コピーされました、 0.0286412 秒、 175 MB/秒".
 * Rewrites it as ASCII into buf.
 */
static const char *ascii_punctuation(const char *text, char *buf, size_t size)
{
	static const struct {
		const char *wide, *ascii;
	} map[] = { { "，", ", " }, { "（", " (" }, { "）", ")" },
		    { "、", ", " } };
	const size_t nmap = sizeof(map) / sizeof(map[0]);
	size_t n = 0;

	if (!strstr(text, "\xef\xbc") && !strstr(text, "、"))
		return text;
	while (*text && n + 3 < size) {
		size_t k;

		for (k = 0; k < nmap; k++)
			if (starts_with(text, map[k].wide))
				break;
		if (k < nmap) {
			memcpy(buf + n, map[k].ascii, strlen(map[k].ascii));
			n += strlen(map[k].ascii);
			text += strlen(map[k].wide);
		} else {
			buf[n++] = *text++;
		}
	}
	buf[n] = '\0';
	return buf;
}

/*
 * A dd diagnostic: "dd: error writing '/dev/sdb': No space left on
 * device".  GNU dd names itself as it was invoked (argv[0]), so
 * "/usr/bin/dd: error reading '/dev/xvdi': Input/output error" is one
 * too.  Returns the message after "dd: ", or NULL.
 */
static const char *dd_message(const char *text)
{
	const char *msg = strstr(text, "dd: "), *name = msg;

	if (!name)
		return NULL;
	/* "gdd: ", "gnudd: " (dd_names) */
	if (name - text >= 3 && !strncmp(name - 3, "gnu", 3))
		name -= 3;
	else if (name > text && name[-1] == 'g')
		name--;
	if (name > text && name[-1] != '/')
		return NULL;
	for (const char *p = text; p < name; p++)
		if (*p == ' ' || *p == '\t')
			return NULL;	/* prose, not a path */
	return msg + 4;
}

/*
 * "4K - 1073741824 bytes (1.1 GB) copied, 44.3478 s, 24.2 MB/s": a post
 * that ran one dd per block size and typed the size before each summary
 * (the command above it "bs=<4K, 64K, 128K, 1MB, 4M>").  The size, by
 * dd's own suffixes, is the run's block size: it keeps the runs apart.
 * Returns the text after "SIZE - ", or NULL.
 */
static const char *past_size_prefix(const char *text, double *bs)
{
	const char *dash = strstr(text, " - ");
	char size[16];
	size_t n;

	if (!dash || !is_ascii_digit(*text))
		return NULL;
	n = (size_t)(dash - text);
	if (n >= sizeof(size))
		return NULL;
	memcpy(size, text, n);
	size[n] = '\0';
	if (strspn(size, "0123456789") == n || dd_size(size, bs) || *bs <= 0)
		return NULL;	/* "2 - ": a list's number, not a size */
	return dash + 3;
}

static const char *classify(const char *raw, struct summary_line *s,
			    uint64_t *records)
{
	char buf[512];
	const char *text = ascii_punctuation(line_after_prompt(raw), buf,
					     sizeof(buf)), *rest;

	s->size_bs = 0;
	if (read_records(text, records))
		return "records";
	if (read_summary(text, s))
		return "summary";
	if ((rest = past_size_prefix(text, &s->size_bs)) &&
	    read_summary(rest, s))
		return "summary";
	s->size_bs = 0;
	if (starts_like_summary(text))
		return "bad-summary";
	if (dd_message(text))
		return "error";
	return NULL;
}

/* Index of the next non-empty line after li, or nlines. */
static size_t next_line(const struct parse_ctx *ctx, size_t li)
{
	for (li++; li < ctx->in->nlines; li++)
		if (!line_is_empty(&ctx->in->lines[li]))
			break;
	return li;
}

/* Is the summary at li a status=progress line (see the top comment)? */
static int is_progress(const struct parse_ctx *ctx, const struct dd_state *st,
		       size_t li)
{
	size_t n = next_line(ctx, li);
	const char *next;
	uint64_t r;

	if (st->have_out)
		return 0;
	if (n >= ctx->in->nlines)
		return 0;
	next = line_after_prompt(ctx->in->lines[n].text);
	return read_records(next, &r) || dd_message(next);
}

/* The bytes a command asks for (bs= times count=), or 0 if unknown. */
static double asked_bytes(const struct dd_command *c)
{
	const char *bs = labels_get(&c->labels, "bs");
	const char *count = labels_get(&c->labels, "count");
	double b, n;

	if (!bs || !count || dd_size(bs, &b) || dd_size(count, &n))
		return 0;
	return b * n;
}

/* Do the command's bs= and count= ask for exactly these bytes? */
static int asks_for(const struct dd_command *c, uint64_t bytes)
{
	double b = asked_bytes(c);

	return b > 0 && !(b < (double)bytes) && !(b > (double)bytes);
}

/*
 * A job's end as the shell reports it: "[1]+  Done   dd if=/dev/zero
 * of=a bs=1M" (also "Exit 1", any word): the index of the background
 * command it names, or SIZE_MAX.
 */
static int is_job_line(const char *t)
{
	const char *p = t + 1;

	if (t[0] != '[' || !is_ascii_digit(*p))
		return 0;
	while (is_ascii_digit(*p))
		p++;
	if (*p++ != ']')
		return 0;
	if (*p == '+' || *p == '-')
		p++;
	return *p == ' ' || *p == '\t';
}

static size_t job_done(const struct dd_state *st, const char *t)
{
	const char *d;

	if (!is_job_line(t) || !(d = strstr(t, " dd ")))
		return SIZE_MAX;
	d = skip_spaces(d);
	for (size_t i = 0; i < st->nbg; i++) {
		const char *cmd = labels_get(&st->bg[i].labels, "command");

		if (cmd && starts_with(d, cmd))
			return i;
	}
	return SIZE_MAX;
}

static void drop_background(struct dd_state *st, size_t b)
{
	labels_release(&st->bg[b].labels);
	memmove(&st->bg[b], &st->bg[b + 1],
		(st->nbg - b - 1) * sizeof(st->bg[0]));
	st->nbg--;
}

/*
 * The background command whose output this is: the one a lone job line
 * right after it names ("[1]+  Done   dd if=..."), else the one whose bs=
 * and count= make the byte count (and no foreground command's do), else
 * the only one pending when no foreground dd is; else none (SIZE_MAX):
 * an output given no command is better than one given another's.
 */
static size_t background_of(const struct parse_ctx *ctx,
			    const struct dd_state *st, size_t li,
			    uint64_t bytes, int *ambiguous)
{
	size_t match = SIZE_MAX, n = 0, jobs = 0, named = SIZE_MAX;
	int fg, fg_match;

	*ambiguous = 0;
	/* the job lines the shell printed right after the output */
	for (size_t k = next_line(ctx, li); k < ctx->in->nlines;
	     k = next_line(ctx, k)) {
		const char *t = line_after_prompt(ctx->in->lines[k].text);

		if (!is_job_line(t))
			break;
		if (strstr(t, " dd ")) {
			jobs++;
			named = job_done(st, t);
		}
	}
	if (jobs == 1 && named != SIZE_MAX)
		return named;
	for (size_t i = 0; i < st->nbg; i++)
		if (asks_for(&st->bg[i], bytes))
			match = i, n++;
	fg = st->next < st->ncmd;
	fg_match = fg && asks_for(&st->cmd[st->next], bytes);
	if (n == 1 && !fg_match)
		return match;
	if (!n && fg)
		return SIZE_MAX;	/* the foreground command's */
	if (st->nbg == 1 && !fg)
		return 0;
	*ambiguous = 1;
	return SIZE_MAX;
}

/* Does every candidate of an unpaired output say key=value? */
static int all_say(const struct dd_command *const *cand, size_t n,
		   const char *key, const char *value)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = labels_get(&cand[i]->labels, key);

		if (!v || strcmp(v, value))
			return 0;
	}
	return 1;
}

/*
 * An output that cannot be told apart among the pending background
 * commands (and the foreground one, when it is pending too) gets what
 * all of them say alike: two reads of 100 MiB from /dev/sdb and /dev/sdc
 * give op read, bs, count, of=/dev/null; not if=, not the command.  When
 * they differ, also unpaired=K, the K-th such output of the input: two
 * of them are two of those commands, never two runs of one test.
 */
static const struct dd_command *shared_command(struct dd_state *st)
{
	const struct dd_command *cand[MAX_DD_BACKGROUND + 1] = { NULL };
	struct dd_command *t = &st->taken;
	size_t n = 0, kept = 0;

	for (size_t i = 0; i < st->nbg; i++)
		cand[n++] = &st->bg[i];
	if (st->next < st->ncmd)
		cand[n++] = &st->cmd[st->next];
	labels_release(&t->labels);
	labels_init(&t->labels);
	t->op = cand[0]->op;
	for (size_t i = 1; i < n; i++)
		if (strcmp(cand[i]->op, t->op))
			t->op = "copy";
	for (size_t k = 0; k < cand[0]->labels.n; k++) {
		const struct label *l = &cand[0]->labels.v[k];

		if (all_say(cand + 1, n - 1, l->key, l->value))
			labels_set(&t->labels, l->key, l->value), kept++;
	}
	if (kept < cand[0]->labels.n)
		labels_setf(&t->labels, "unpaired", "%zu", ++st->unpaired);
	return t;
}

/*
 * An output among several pending commands that none is known to have
 * printed: what they all say (see shared_command()).  Once as many such
 * outputs came as background commands were pending, and no foreground
 * one could have printed them, all of them have ended.
 */
static const struct dd_command *unpaired_output(struct parse_ctx *ctx,
						struct dd_state *st,
						size_t li)
{
	const struct dd_command *c = shared_command(st);
	int fg = st->next < st->ncmd;

	if (labels_get(&c->labels, "unpaired"))
		parse_note(ctx, li, "dd output while %zu dd command%s ran in "
			   "the background: which one it is cannot be told, "
			   "no command given to it (only what they all say)",
			   st->nbg + fg, st->nbg + fg > 1 ? "s" : "");
	st->used = 1;	/* prose after it forgets them */
	if (!fg && ++st->bg_unpaired >= st->nbg) {
		for (size_t i = 0; i < st->nbg; i++)
			labels_release(&st->bg[i].labels);
		st->nbg = st->bg_unpaired = 0;
	}
	return c;
}

static const struct dd_command *take_command(struct parse_ctx *ctx,
					     struct dd_state *st, size_t li,
					     uint64_t bytes)
{
	const struct dd_command *c;
	int ambiguous;
	size_t b;

	if (st->nbg) {
		b = background_of(ctx, st, li, bytes, &ambiguous);
		if (b != SIZE_MAX) {
			labels_release(&st->taken.labels);
			labels_init(&st->taken.labels);
			labels_copy(&st->taken.labels, &st->bg[b].labels);
			st->taken.op = st->bg[b].op;
			st->taken.li = st->bg[b].li;
			drop_background(st, b);
			return &st->taken;
		}
		if (ambiguous)
			return unpaired_output(ctx, st, li);
	}
	if (!st->ncmd)
		return NULL;
	c = &st->cmd[st->next < st->ncmd ? st->next : st->ncmd - 1];
	if (st->next < st->ncmd)
		st->next++;
	st->used = 1;
	return c;
}

static const char *op_of(const struct dd_command *c)
{
	return c ? c->op : "copy";
}

/*
 * One figure of the summary s, labelled by its command.  Without one the
 * byte count is the only condition the output states, and it is a label
 * (size, in bytes): a build log's three commandless dd runs of 5120000,
 * 512 and 74816 bytes are three tests, not one test run three times,
 * while a loop's runs of one size still fold.
 */
static void emit_one(struct parse_ctx *ctx, size_t li,
		     const struct dd_command *c, const struct summary_line *s,
		     const char *partial, const char *metric,
		     const char *unit, double v)
{
	struct measurement *m = parse_emit(ctx, li, "dd", op_of(c), metric,
					   unit, v);

	if (c)
		labels_copy(&m->labels, &c->labels);
	else
		labels_setf(&m->labels, "size", "%" PRIu64, s->bytes);
	if (s->size_bs > 0 && (!c || !labels_get(&c->labels, "bs")))
		labels_setf(&m->labels, "bs", "%.0f", s->size_bs);
	if (partial)
		labels_set(&m->labels, "partial", partial);
}

static void reset_output(struct dd_state *st)
{
	st->have_in = st->have_out = st->interrupted = st->siginfo = 0;
	st->error_li = (size_t)-1;
	free(st->error);
	st->error = NULL;
	free(st->error_text);
	st->error_text = NULL;
	free(st->sync_error);
	st->sync_error = NULL;
}

/* Exactly the same printed time (both absent counts as the same). */
static int same_seconds(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return !(a < b) && !(a > b);
}

static const char *command_text(const struct dd_command *c)
{
	return c ? labels_get(&c->labels, "command") : NULL;
}

/*
 * Was the summary at li, under the same dd command, taken before?  With
 * its time printed to six digits, such a summary is one output quoted in a
 * reply or pasted again, not a second run.  Returns the first one's line
 * index, or (size_t)-1 (and remembers this one).
 */
static size_t copy_of(struct parse_ctx *ctx, size_t li, const char *command)
{
	const char *text = line_after_prompt(ctx->in->lines[li].text);
	uint64_t dd = hash64(HASH64_INIT, "dd", 2), bare;
	size_t orig, first, len = strlen(text);
	int seen;

	/* A summary quoted alone under prose ("note the time in" over the
	 * line again) has lost its command: the same line taken before
	 * under any command is its original.  Each summary with a command
	 * is remembered both ways (the bare key: an empty command). */
	bare = hash64(hash64(dd, "", 0), text, len);
	if (command && *command) {
		uint64_t key = hash64(hash64(dd, command, strlen(command)),
				      text, len);

		seen = parse_seen_hash(ctx, key, li, &orig);
		parse_seen_hash(ctx, bare, li, &first);
	} else {
		seen = parse_seen_hash(ctx, bare, li, &orig);
	}
	return seen ? orig : (size_t)-1;
}

/*
 * Emits a final summary for the next command (*c).  Returns 0 when it
 * is the one before printed twice, or a copy of one taken before.
 */
static int take_summary(struct parse_ctx *ctx, struct dd_state *st,
			size_t li, const struct summary_line *s,
			const char *partial, const struct dd_command **c)
{
	size_t orig;

	*c = NULL;
	if (st->have_prev && s->bytes == st->prev_bytes &&
	    same_seconds(s->seconds, st->prev_seconds))
		return 0;	/* the same summary printed twice */
	st->have_prev = 1;
	st->prev_bytes = s->bytes;
	st->prev_seconds = s->seconds;
	*c = take_command(ctx, st, li, s->bytes);
	orig = copy_of(ctx, li, command_text(*c));
	if (!isnan(s->seconds) && orig != (size_t)-1) {
		parse_note(ctx, li, "the same dd %s as line %u (quoted or "
			   "pasted again): not counted twice",
			   command_text(*c) ? "command and summary" : "summary",
			   ctx->in->lines[orig].lineno);
		return 0;
	}
	emit_one(ctx, li, *c, s, partial, "bytes", UNIT_BYTES,
		 (double)s->bytes);
	if (isnan(s->seconds))
		return 1;
	if (s->seconds <= 0) {
		parse_note(ctx, li, "dd reports no elapsed time; "
			   "no bandwidth computed");
		return 1;
	}
	emit_one(ctx, li, *c, s, partial, "runtime", UNIT_SECONDS, s->seconds);
	emit_one(ctx, li, *c, s, partial, "bw", UNIT_BW,
		 (double)s->bytes / s->seconds);
	return 1;
}

/*
 * Does the same dd print more after the summary at li: records, a summary
 * or an error on the next line?  Then the summary was a report while it
 * ran (a SIGUSR1 snapshot; conv=noerror's report at each read error).
 */
static int dd_goes_on(const struct parse_ctx *ctx, size_t li)
{
	size_t n = next_line(ctx, li);
	struct summary_line s;
	uint64_t r;
	const char *kind;

	if (n >= ctx->in->nlines)
		return 0;
	kind = classify(ctx->in->lines[n].text, &s, &r);
	return kind && strcmp(kind, "bad-summary");
}

/*
 * An output that stopped on an error ("dd: error writing '/dev/sdX': No
 * space left on device", then the counts and the summary dd prints as it
 * quits): what it copied, how fast, is a measurement of that much, kept
 * labelled partial=<the message>; nothing copied is no measurement.
 */
static void take_partial(struct parse_ctx *ctx, struct dd_state *st,
			 size_t li, const struct summary_line *s)
{
	const struct dd_command *c;
	char *text = xstrdup(st->error_text ? st->error_text : st->error);
	char *reason = xstrdup(st->error);

	reset_output(st);
	if (!s->bytes) {
		parse_note(ctx, li, "dd stopped with an error (%s) before it "
			   "copied anything: no result", reason);
	} else if (take_summary(ctx, st, li, s, text, &c)) {
		parse_note(ctx, li, "dd stopped with an error (%s): its "
			   "figure, kept as partial, covers only the %" PRIu64
			   " bytes it copied", reason, s->bytes);
	}
	free(text);
	free(reason);
}

static void handle_summary(struct parse_ctx *ctx, struct dd_state *st,
			   size_t li, const struct summary_line *s)
{
	size_t sync_li = st->sync_li;
	const struct dd_command *c;
	char *sync_error;
	int signalled = st->signalled;

	if (is_progress(ctx, st, li))
		return;
	/* the signal asked for this output, whichever branch it takes */
	st->signalled = 0;
	if (s->progress_only) {
		parse_note(ctx, li, "a status=progress line (FreeBSD, macOS) "
			   "without dd's final summary after it: not a result");
		reset_output(st);
		return;
	}
	if (st->error && dd_goes_on(ctx, li)) {
		parse_note(ctx, li, "the counts dd printed at an error (%s) "
			   "and went on (conv=noerror): not a result",
			   st->error);
		reset_output(st);
		st->went_on_li = li;
		return;
	}
	/* Right under that report, a summary with no counts of its own is
	 * status=progress's line of the copy still running (a post that
	 * shows "some of the output": its final summary is not there). */
	if (!st->have_in && !st->have_out && st->last_kind == LINE_SUMMARY &&
	    st->last_li == st->went_on_li) {
		parse_note(ctx, li, "a status=progress line of the copy that "
			   "went on after the error: not a result");
		reset_output(st);
		return;
	}
	if (st->error) {
		take_partial(ctx, st, li, s);
		return;
	}
	if (st->siginfo) {
		parse_note(ctx, li, "a progress report asked for with Ctrl-T "
			   "(SIGINFO) while dd ran: not a result");
		reset_output(st);
		return;
	}
	if (signalled) {
		parse_note(ctx, li, "the counts dd printed when line %u sent "
			   "it a signal (a snapshot while it ran): not a "
			   "result", ctx->in->lines[st->signal_li].lineno);
		reset_output(st);
		return;
	}
	/* Counts in and out differ at the end of a partial last block
	 * ("1953+1 records in", "1953+0 records out"): an ordinary output.
	 * Only when dd prints more after it was it a snapshot while a
	 * block was in flight. */
	if (st->have_in && st->have_out && st->rec_in != st->rec_out &&
	    !st->interrupted && dd_goes_on(ctx, li)) {
		parse_note(ctx, li, "records in and out differ and dd printed "
			   "more after them (a snapshot while it ran): not a "
			   "result");
		reset_output(st);
		return;
	}
	sync_error = st->sync_error;	/* kept past reset_output() */
	st->sync_error = NULL;
	reset_output(st);
	/* The sync concerns the output: a read into /dev/null or a pipe
	 * has nothing to flush, and its figure stands as it is. */
	if (take_summary(ctx, st, li, s, NULL, &c) && sync_error &&
	    strcmp(op_of(c), "read"))
		parse_note(ctx, li, "the sync dd ran after the copy failed "
			   "(line %u: %s): this figure is the copy without "
			   "its flush to storage",
			   ctx->in->lines[sync_li].lineno, sync_error);
	free(sync_error);
}

/*
 * coreutils runs the fsync or fdatasync of conv=fsync|fdatasync after the
 * copy loop (synchronize_output()), before it prints the counts: when it
 * fails ("Invalid argument" on /dev/null or a pipe), the copy was whole
 * and the summary that follows is real, only not synced.
 */
static int is_sync_failure(const char *message)
{
	/* "fsync failed for 'x'", "fsync für 'x' fehlgeschlagen", "échec
	 * de fsync pour 'x'": catalogs translate all but the call's name */
	static const char *const calls[] = { "fsync", "fdatasync", NULL };
	const char *quote = strpbrk(message, "'\"`\xe2");	/* the file */
	size_t upto = quote ? (size_t)(quote - message) : strlen(message);

	for (size_t i = 0; calls[i]; i++) {
		size_t n = strlen(calls[i]);

		for (const char *p = message; (p = strstr(p, calls[i])) &&
		     (size_t)(p - message) < upto; p++)
			if ((p == message || p[-1] == ' ') &&
			    (p[n] == ' ' || p[n] == ':'))
				return 1;
	}
	return 0;
}

/* Keeps the reason of "dd: error reading 'x': Input/output error". */
static void handle_error(struct dd_state *st, const char *text, size_t li)
{
	const char *message = dd_message(text), *colon;
	char *reason;

	if (!message)
		message = text;
	colon = strrchr(message, ':');
	reason = xstrdup(colon && colon[1] ? skip_spaces(colon + 1) :
			 message);
	if (is_sync_failure(message)) {
		free(st->sync_error);
		st->sync_error = reason;
		st->sync_li = li;
	} else {
		free(st->error);
		st->error = reason;
		st->error_li = li;
		free(st->error_text);
		st->error_text = xstrdup(message);
	}
}

/* BSD's Ctrl-T line: "load: 1.88  cmd: dd 20526 uninterruptible ..." */
static int is_siginfo(const char *text)
{
	return starts_with(text, "load: ") && strstr(text, "  cmd: dd ");
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
static int asks_for_progress(const char *text)
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

/* Output of the time builtin: neutral between dd outputs. */
static int is_time_line(const char *t)
{
	const char *p = t;

	if (!skip_prefix_icase(&p, "real") && !skip_prefix(&p, "user") &&
	    !skip_prefix(&p, "sys"))
		return 0;
	p = skip_spaces(p);
	return is_ascii_digit(*p);
}

/*
 * An output ends (a command line, the next records, the end of the file)
 * without a summary line: say why there is no result.  An error printed
 * before "records in" belongs to the records that follow, so at a records
 * line only a pending records pair ends the output.
 */
static void end_output(struct parse_ctx *ctx, struct dd_state *st,
		       int at_records)
{
	if (st->have_out && st->error)
		parse_note(ctx, st->last_li, "dd stopped with an error (%s): "
			   "this output is not a result", st->error);
	else if (st->have_out)
		parse_note(ctx, st->last_li, "dd printed record counts but no "
			   "byte count or time: nothing to measure");
	else if (st->error && !at_records)
		parse_note(ctx, st->error_li, "dd failed (%s): no result",
			   st->error);
	else if (st->sync_error && !at_records)
		parse_note(ctx, st->sync_li, "dd failed (%s): no result",
			   st->sync_error);
	else
		return;
	reset_output(st);
}

static int dd_parse(struct parse_ctx *ctx)
{
	struct dd_state st;
	size_t before = ctx->rs->n;

	memset(&st, 0, sizeof(st));
	st.went_on_li = (size_t)-1;
	reset_output(&st);
	st.have_prev = 0;
	st.last_kind = LINE_OTHER;
	for (size_t i = 0; i < ctx->in->nlines; i++) {
		const char *text = ctx->in->lines[i].text;
		struct summary_line s;
		uint64_t records;
		const char *kind;
		size_t first = i;

		if (line_is_empty(&ctx->in->lines[i]))
			continue;
		if (parse_command_lines(ctx, &i, read_commands, &st)) {
			size_t last;
			char *joined = i == first ?	/* not joined already */
				wrapped_dd_command(ctx, i, &last) : NULL;

			if (joined) {	/* the operands a mail wrapped */
				read_commands(&st, joined, i);
				parse_claim_range(ctx, i + 1, last + 1);
				i = last;
				free(joined);
			}
			end_output(ctx, &st, 0);
			reset_output(&st);
			st.have_prev = 0;
			st.signalled = 0;
			st.last_kind = LINE_COMMAND;
			st.last_li = i;
			continue;
		}
		if (!strcmp(line_after_prompt(text), "^C")) {
			st.last_kind = LINE_INTERRUPT;
			continue;
		}
		if (is_siginfo(text)) {
			parse_claim(ctx, i);
			st.last_kind = LINE_SIGINFO;
			continue;
		}
		kind = classify(text, &s, &records);
		if (!kind && asks_for_progress(text)) {
			st.signalled = 1;
			st.signal_li = i;
		}
		if (!kind && st.nbg) {
			size_t b = job_done(&st, line_after_prompt(text));

			if (b != SIZE_MAX)	/* it ended: its output came */
				drop_background(&st, b);
		}
		if (!kind) {
			if (st.used && !is_time_line(text) &&
			    !ctx->claimed[i])
				forget_commands(&st);
			if (!is_time_line(text)) {
				st.last_kind = LINE_OTHER;
				st.have_prev = 0;
			}
			continue;
		}
		parse_claim(ctx, i);
		if (!strcmp(kind, "records")) {
			if (st.last_kind == LINE_RECORDS_IN) {
				st.rec_out = records;
				st.have_out = 1;
				st.last_kind = LINE_RECORDS_OUT;
			} else {
				int intr = st.last_kind == LINE_INTERRUPT ||
					   starts_with(line_after_prompt(text),
						       "^C");

				int info = st.last_kind == LINE_SIGINFO;

				end_output(ctx, &st, 1);
				st.rec_in = records;
				st.have_in = 1;
				st.interrupted = intr;
				st.siginfo = info;
				st.last_kind = LINE_RECORDS_IN;
			}
		} else if (!strcmp(kind, "bad-summary")) {
			parse_error(ctx, i, "unreadable dd summary: expected "
				    "'copied, SECONDS s, RATE' after the byte "
				    "count (cut short?)");
			reset_output(&st);
			st.last_kind = LINE_OTHER;
		} else if (!strcmp(kind, "summary")) {
			handle_summary(ctx, &st, i, &s);
			st.last_kind = LINE_SUMMARY;
		} else {
			handle_error(&st, line_after_prompt(text), i);
			st.last_kind = LINE_ERROR;
		}
		st.last_li = i;
	}
	end_output(ctx, &st, 0);
	reset_output(&st);
	forget_commands(&st);
	forget_background(&st);
	return (int)(ctx->rs->n - before);
}

const struct parser parser_dd = {
	.name = "dd",
	.tool = "dd",
	.reads = "dd transfer summaries: GNU (any locale), BSD, BusyBox",
	.programs = dd_names,
	.output_after_command = 1,
	.reads_through_cache = 1,
	.detect = dd_detect,
	.parse = dd_parse,
};
