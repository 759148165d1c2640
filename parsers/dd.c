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
 * core/input-reflow.c, check_glued()).  A page that lost the blanks
 * inside the command too ("ddif=/dev/zeroof=/tmp/xbs=1M count=1024")
 * has them put back there where dd's operand names make each one
 * certain (core/input-blanks.c); where they do not ("of=/dev/sdbobs=4k":
 * obs= or bs=?), the output gets no command, not an earlier one's, and
 * a note says which '=' is in doubt.
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
 *     or an e-mail quoting the first post) are a copy: noted, not counted
 *     (looked for among the last 98,304 summaries or more: memory stays
 *     bounded in a log of millions of runs, parsers/registry.c);
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
 * A command's reach ends at a heading (a title over a rule, "## title"):
 * a how-to's template command above "## Results" labels none of them.
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
#include "dd.h"
#include "../core/input.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
		if (dd_starts_like_summary(
			    line_after_prompt(in->lines[i].text)))
			return 60;
	return 0;
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
	next = line_after_prompt_at(ctx->in, n);
	return dd_read_records(next, &r) || dd_message(next);
}

static const char *op_of(const struct dd_command *c)
{
	return c ? c->op : "copy";
}

/* Does an output of c with summary s need a bs label of its own?
 * (Asked once an output, not once a figure: labels_get() goes through
 * the command's labels.) */
static int needs_bs(const struct dd_command *c, const struct summary_line *s)
{
	return s->size_bs > 0 && (!c || !labels_get(&c->labels, "bs"));
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
		     const char *partial, int add_bs, const char *metric,
		     const char *unit, double v)
{
	struct measurement *m;

	if (c && !add_bs && !partial) {	/* the command's labels alone */
		parse_emit_labelled(ctx, li, "dd", op_of(c), metric, unit, v,
				    &c->labels);
		return;
	}
	m = parse_emit(ctx, li, "dd", op_of(c), metric, unit, v);
	if (c)
		labels_copy(&m->labels, &c->labels);
	else
		labels_setf(&m->labels, "size", "%" PRIu64, s->bytes);
	if (add_bs)
		labels_setf(&m->labels, "bs", "%.0f", s->size_bs);
	if (partial)
		labels_set(&m->labels, "partial", partial);
}

static void forget_lost_blanks(struct dd_state *st)
{
	free(st->lost_why);
	st->lost_why = NULL;
}

/*
 * A line whose dd command lost its blanks where they cannot be put back
 * (the input layer rebuilt those it could): its output is this
 * command's, not an earlier one's, and gets none; remember why.
 */
static int lost_blanks_command(struct dd_state *st, const char *text,
			       size_t li)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	int lost = input_dd_blanks_lost(text, text + strlen(text), &out,
					&why) < 0;

	if (lost) {
		dd_forget_commands(st);
		forget_lost_blanks(st);
		st->lost_li = li;
		st->lost_why = strbuf_detach(&why);
	}
	strbuf_release(&out);
	strbuf_release(&why);
	return lost;
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
 * Was the summary at li, under the same dd command, taken before, with
 * prose between the two?  With its time printed to six digits, such a
 * summary is one output quoted in a reply or pasted again, not a second
 * run.  Returns the first one's line number, or 0 (and remembers this
 * one).
 */
static unsigned copy_of(struct parse_ctx *ctx, struct dd_state *st,
			size_t li, const char *command)
{
	const char *text = line_after_prompt_at(ctx->in, li);
	unsigned line = input_lineno(ctx->in, li), orig;
	/* (the line's own hash, the command's going on from it) */
	uint64_t bare = hash64(HASH64_INIT, text, strlen(text));

	/* A summary quoted alone under prose ("note the time in" over the
	 * line again) has lost its command: the same line taken before
	 * under any command is its original.  Each summary with a command
	 * is remembered both ways (the bare key: no command). */
	if (!command || !*command)
		return pasted_copy_of(&st->pasted, bare, line, st->last_prose);
	orig = pasted_copy_of(&st->pasted,
			      hash64(bare, command, strlen(command)),
			      line, st->last_prose);
	pasted_copy_of(&st->pasted, bare, line, st->last_prose);
	return orig;
}

/*
 * The output at li has no command because the dd command above it lost
 * its blanks where dd's operand names cannot tell where they were: say
 * which, once.
 */
static void say_lost_blanks(struct parse_ctx *ctx, struct dd_state *st,
			    size_t li)
{
	parse_note(ctx, st->lost_li, "a dd command whose blanks were lost: "
		   "%s, so its operands are not read (the output at line %u "
		   "has no command)", st->lost_why,
		   ctx->in->lines[li].lineno);
	forget_lost_blanks(st);
}

/*
 * Emits a final summary for the next command (*c).  Returns 0 when it
 * is the one before printed twice, or a copy of one taken before.
 */
static int take_summary(struct parse_ctx *ctx, struct dd_state *st,
			size_t li, const struct summary_line *s,
			const char *partial, const struct dd_command **c)
{
	unsigned orig;
	int add_bs;

	*c = NULL;
	if (st->have_prev && s->bytes == st->prev_bytes &&
	    same_seconds(s->seconds, st->prev_seconds))
		return 0;	/* the same summary printed twice */
	st->have_prev = 1;
	st->prev_bytes = s->bytes;
	st->prev_seconds = s->seconds;
	*c = dd_take_command(ctx, st, li, s->bytes);
	if (!*c && st->lost_why)
		say_lost_blanks(ctx, st, li);
	orig = copy_of(ctx, st, li, command_text(*c));
	if (!isnan(s->seconds) && orig) {
		parse_note(ctx, li, "the same dd %s as line %u (quoted or "
			   "pasted again): not counted twice",
			   command_text(*c) ? "command and summary" : "summary",
			   orig);
		return 0;
	}
	add_bs = needs_bs(*c, s);
	emit_one(ctx, li, *c, s, partial, add_bs, "bytes", UNIT_BYTES,
		 (double)s->bytes);
	if (isnan(s->seconds))
		return 1;
	if (s->seconds <= 0) {
		parse_note(ctx, li, "dd reports no elapsed time; "
			   "no bandwidth computed");
		return 1;
	}
	emit_one(ctx, li, *c, s, partial, add_bs, "runtime", UNIT_SECONDS,
		 s->seconds);
	emit_one(ctx, li, *c, s, partial, add_bs, "bw", UNIT_BW,
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
	kind = dd_classify(ctx->in->lines[n].text, &s, &r);
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

static void *dd_begin(struct parse_ctx *ctx)
{
	struct dd_state *st = xcalloc(1, sizeof(*st));

	(void)ctx;
	st->went_on_li = (size_t)-1;
	pasted_init(&st->pasted, PASTED_GENERATION);
	reset_output(st);
	st->last_kind = LINE_OTHER;
	return st;
}

/* Reads lines [*li, to); see struct parse_stream. */
static void dd_lines(struct parse_ctx *ctx, void *state, size_t *li,
		     size_t to)
{
	struct dd_state *st = state;
	size_t i;

	for (i = *li; i < to; i++) {
		const char *text = ctx->in->lines[i].text;
		/* (the prompt found as the line was cut: it was 6% of a
		 * loop's log) */
		const char *after = line_after_prompt_at(ctx->in, i);
		struct summary_line s;
		uint64_t records;
		const char *kind;
		size_t first = i;

		if (!*after)	/* (line_is_empty()) */
			continue;
		if (parse_command_lines(ctx, &i, dd_read_commands, st)) {
			size_t last;
			char *joined = i == first ?	/* not joined already */
				dd_wrapped_command(ctx, i, &last) : NULL;

			if (joined) {	/* the operands a mail wrapped */
				dd_read_commands(st, joined, i);
				parse_claim_range(ctx, i + 1, last + 1);
				i = last;
				free(joined);
			}
			end_output(ctx, st, 0);
			reset_output(st);
			forget_lost_blanks(st);
			st->have_prev = 0;
			st->signalled = 0;
			st->last_kind = LINE_COMMAND;
			st->last_li = i;
			continue;
		}
		if (!strcmp(after, "^C")) {
			st->last_kind = LINE_INTERRUPT;
			continue;
		}
		if (is_siginfo(text)) {
			parse_claim(ctx, i);
			st->last_kind = LINE_SIGINFO;
			continue;
		}
		kind = dd_classify_after(after, &s, &records);
		if (!kind && dd_asks_for_progress(text)) {
			st->signalled = 1;
			st->signal_li = i;
		}
		if (!kind && st->nbg) {
			size_t b = dd_job_done(st, after);

			if (b != SIZE_MAX)	/* it ended: its output came */
				dd_drop_background(st, b);
		}
		if (!kind && lost_blanks_command(st, text, i)) {
			end_output(ctx, st, 0);
			reset_output(st);
			st->have_prev = 0;
			st->last_kind = LINE_OTHER;
			continue;
		}
		if (!kind) {
			int timing = is_time_line(text);
			int other = !timing && !ctx->claimed[i];

			if (other && line_reads_as_prose(text) &&
			    !line_echoed_above(ctx->in, i))
				st->last_prose = input_lineno(ctx->in, i);
			if ((st->used && other) || parse_heading_line(ctx, i))
				dd_forget_commands(st);
			if (!timing) {
				st->last_kind = LINE_OTHER;
				st->have_prev = 0;
			}
			continue;
		}
		parse_claim(ctx, i);
		if (!strcmp(kind, "records")) {
			if (st->last_kind == LINE_RECORDS_IN) {
				st->rec_out = records;
				st->have_out = 1;
				st->last_kind = LINE_RECORDS_OUT;
			} else {
				int intr = st->last_kind == LINE_INTERRUPT ||
					   starts_with(after, "^C");

				int info = st->last_kind == LINE_SIGINFO;

				end_output(ctx, st, 1);
				st->rec_in = records;
				st->have_in = 1;
				st->interrupted = intr;
				st->siginfo = info;
				st->last_kind = LINE_RECORDS_IN;
			}
		} else if (!strcmp(kind, "bad-summary")) {
			parse_error(ctx, i, "unreadable dd summary: expected "
				    "'copied, SECONDS s, RATE' after the byte "
				    "count (cut short?)");
			reset_output(st);
			st->last_kind = LINE_OTHER;
		} else if (!strcmp(kind, "summary")) {
			handle_summary(ctx, st, i, &s);
			st->last_kind = LINE_SUMMARY;
		} else {
			handle_error(st, after, i);
			st->last_kind = LINE_ERROR;
		}
		st->last_li = i;
	}
	*li = i;
}

static void dd_end(struct parse_ctx *ctx, void *state)
{
	struct dd_state *st = state;

	end_output(ctx, st, 0);
	reset_output(st);
	forget_lost_blanks(st);
	dd_forget_commands(st);
	dd_forget_background(st);
	dd_forget_lines_read(st);
	pasted_release(&st->pasted);
	free(st);
}

static size_t min_li(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The lines a note still to come may name (end_output(), the went-on
 * summary right above a summary); dd looks at none above li. */
static size_t dd_keep(const void *state, size_t li)
{
	const struct dd_state *st = state;
	size_t keep = li;

	if (st->have_out || st->last_kind == LINE_SUMMARY)
		keep = min_li(keep, st->last_li);
	if (st->error)
		keep = min_li(keep, st->error_li);
	if (st->sync_error)
		keep = min_li(keep, st->sync_li);
	if (st->signalled)
		keep = min_li(keep, st->signal_li);
	if (st->lost_why)	/* said when its output comes */
		keep = min_li(keep, st->lost_li);
	return keep;
}

/* A line index moved down by gone, or `lost` for a line that is gone
 * (SIZE_MAX, none, stays so). */
static void rebase_li(size_t *li, size_t gone, size_t lost)
{
	if (*li != SIZE_MAX)
		*li = *li >= gone ? *li - gone : lost;
}

static void dd_rebase(void *state, size_t gone)
{
	struct dd_state *st = state;

	/* a line gone is one no note names: last_li then matches no
	 * went-on summary (nor SIZE_MAX, none) */
	rebase_li(&st->last_li, gone, SIZE_MAX - 1);
	rebase_li(&st->went_on_li, gone, SIZE_MAX);
	rebase_li(&st->error_li, gone, SIZE_MAX);
	rebase_li(&st->sync_li, gone, 0);
	rebase_li(&st->signal_li, gone, 0);
	for (size_t k = 0; k < st->ncmd; k++)
		rebase_li(&st->cmd[k].li, gone, 0);
	for (size_t k = 0; k < st->nbg; k++)
		rebase_li(&st->bg[k].li, gone, 0);
	rebase_li(&st->taken.li, gone, 0);
	rebase_li(&st->lost_li, gone, 0);
}

static const struct parse_stream dd_stream = {
	.begin = dd_begin,
	.lines = dd_lines,
	.end = dd_end,
	.keep = dd_keep,
	.rebase = dd_rebase,
};

static int dd_parse(struct parse_ctx *ctx)
{
	return parse_by_lines(ctx, &dd_stream);
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
	.stream = &dd_stream,
};
