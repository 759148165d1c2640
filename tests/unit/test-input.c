/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The input layer: quote markers, prompts, grep prefixes, CR, shell_find. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/filemap.h"
#include "core/input.h"
#include "parsers/shell.h"
#include "ingest/load.h"
#include "core/resultset.h"
#include "core/strbuf.h"
#include "ingest/ingest.h"
#include "parsers/parser.h"

static void load(struct input *in, const char *text)
{
	input_from_buffer(in, "t.txt", text, strlen(text));
}

/* load() with the parsers' answer to "does a tool print output after
 * this command?", which a cut after a command needs. */
static void load_cut(struct input *in, const char *text)
{
	char *copy = strdup(text);

	assert_non_null(copy);
	input_init_bare(in, "t.txt", copy, strlen(text));
	in->runs_output_tool = parser_output_after_command;
	input_finish(in);
}

/*
 * dd's records in glued to the last operand ("count=1010+0 records in")
 * with the records out on the next line: that count says where the
 * operand ends, as it does on one line; a count that fits no split
 * leaves the line whole (the digits may all be the operand's).
 */
static void test_glued_records_split_by_next_line(void **state)
{
	struct input in;

	(void)state;
	load_cut(&in, "root@h:~# dd if=/dev/zero of=t bs=1M count=1010+0 "
		 "records in\n10+0 records out\n");
	assert_int_equal(in.nlines, 3);
	assert_string_equal(in.lines[0].text,
			    "root@h:~# dd if=/dev/zero of=t bs=1M count=10");
	assert_string_equal(in.lines[1].text, "10+0 records in");
	assert_int_equal(in.lines[1].lineno, 1);
	input_release(&in);

	load_cut(&in, "# dd if=/dev/zero bs=1M of=/dev/sda11+0 records in\n"
		 "> 1+0 records out\n");
	assert_int_equal(in.nlines, 3);
	assert_string_equal(in.lines[0].text,
			    "# dd if=/dev/zero bs=1M of=/dev/sda1");
	input_release(&in);

	load_cut(&in, "$ dd if=/dev/zero of=t bs=1M count=1010+0 records in\n"
		 "5+0 records out\n");
	assert_int_equal(in.nlines, 2);
	input_release(&in);
}

/* input_dd_blanks_lost() on line, its result and its text (out or why). */
static void expect_blanks(const char *line, int rc, const char *text)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;

	assert_int_equal(input_dd_blanks_lost(line, line + strlen(line), &out,
					      &why), rc);
	if (rc > 0)
		assert_string_equal(strbuf_str(&out), text);
	else if (rc < 0)
		assert_string_equal(strbuf_str(&why), text);
	strbuf_release(&out);
	strbuf_release(&why);
}

/*
 * A dd command whose blanks a page lost: put back where only one operand
 * name ends the text before each '=', else why not; other lines are none.
 */
static void test_dd_blanks_lost(void **state)
{
	(void)state;
	expect_blanks("ddif=/dev/zeroof=/tmp/xbs=1M count=1024", 1,
		      "dd if=/dev/zero of=/tmp/x bs=1M count=1024");
	expect_blanks("root@proxmox1:~# ddif=/dev/zeroof=/dev/mapper/mpathabs=1M"
		      "count=100oflag=direct100+0 recordsin100+0 records out",
		      1, "root@proxmox1:~# dd if=/dev/zero of=/dev/mapper/mpatha"
		      " bs=1M count=100 oflag=direct100+0 records in100+0 "
		      "records out");
	expect_blanks("[root@nfs ~]# ddif=/dev/zero of=./size.disk bs=1M", 1,
		      "[root@nfs ~]# dd if=/dev/zero of=./size.disk bs=1M");
	expect_blanks("sudo ddbs=1Mif=/dev/hda|gzip", 1,
		      "sudo dd bs=1M if=/dev/hda|gzip");
	expect_blanks("ddif=/dev/sdaskip=1of=x", 1,
		      "dd if=/dev/sda skip=1 of=x");
	expect_blanks("ddif=/dev/zeroof=/dev/sdbobs=4kcount=1000", -1,
		      "'/dev/sdbobs=' may end in bs= or in obs=");
	expect_blanks("ddif=/dev/sdiseek=1of=y", -1,
		      "'/dev/sdiseek=' may end in seek= or in iseek=");
	expect_blanks("ddif=/dev/zeroxyz=3", -1,
		      "'/dev/zeroxyz=' ends in no name of a dd operand");
	expect_blanks("np.std(x, ddof=1)", 0, NULL);
	expect_blanks("ddof=1", 0, NULL);	/* one operand: a word */
	expect_blanks("dd if=/dev/zero of=x", 0, NULL);
	expect_blanks("ddif=/dev/hda|gzip", 0, NULL);
}

/*
 * A two-cell Markdown row of a name and an output line is that output
 * under its name: a device as hdparm's header, another name as a line
 * of its own after a blank one.  Other rows stay as they are.
 */
static void test_table_row_name_and_output(void **state)
{
	struct input in;

	(void)state;
	load_cut(&in, "| /dev/sda | Timing buffered disk reads: 362 MB in "
		 "3.01 seconds = 120.33 MB/sec |\n"
		 "| X1 Carbon | read: IOPS=357k, BW=1395MiB/s (1463MB/s)"
		 "(81.7GiB/60001msec) |\n"
		 "| a | b | read: IOPS=1, BW=1MiB/s |\n"
		 "| Name | Result |\n");
	assert_int_equal(in.nlines, 7);
	assert_string_equal(in.lines[0].text, "/dev/sda:");
	assert_string_equal(in.lines[1].text, "Timing buffered disk reads: "
			    "362 MB in 3.01 seconds = 120.33 MB/sec");
	assert_string_equal(in.lines[2].text, "");
	assert_string_equal(in.lines[3].text, "X1 Carbon");
	assert_string_equal(in.lines[4].text, "read: IOPS=357k, BW=1395MiB/s "
			    "(1463MB/s)(81.7GiB/60001msec)");
	assert_int_equal(in.lines[4].lineno, 2);
	assert_string_equal(in.lines[5].text,
			    "| a | b | read: IOPS=1, BW=1MiB/s |");
	assert_string_equal(in.lines[6].text, "| Name | Result |");
	input_release(&in);
}

static void test_quotes_indent_crlf(void **state)
{
	struct input in;

	(void)state;
	load(&in, "> > \t Timing x\r\n>>plain\n  > one\nno\r");
	assert_int_equal(in.nlines, 4);
	assert_string_equal(in.lines[0].text, "Timing x");
	assert_int_equal(input_line_indent(&in, &in.lines[0]), 3); /* " \t " */
	assert_string_equal(in.lines[1].text, "plain");
	assert_string_equal(in.lines[2].text, "one");
	assert_string_equal(in.lines[3].text, "no");
	assert_int_equal(in.lines[3].lineno, 4);
	input_release(&in);
}

static void test_lone_cr_splits_keeping_lineno(void **state)
{
	struct input in;

	(void)state;
	load(&in, "a\n1 s\r2 s\r3 s\nb\n");
	assert_int_equal(in.nlines, 5);
	assert_string_equal(in.lines[1].text, "1 s");
	assert_string_equal(in.lines[3].text, "3 s");
	assert_int_equal(in.lines[3].lineno, 2);
	assert_int_equal(in.lines[4].lineno, 3);
	input_release(&in);
}

static void test_quoted_printable(void **state)
{
	struct input in;

	(void)state;
	load(&in, "> Timing buffered disk reads: 176 MB in  3.00 seconds =3D=\n"
		  " 58.63 MB/sec\nnext=20line\n=\n");
	assert_int_equal(in.nlines, 3);
	assert_string_equal(in.lines[0].text, "Timing buffered disk reads: "
			    "176 MB in  3.00 seconds = 58.63 MB/sec");
	assert_int_equal(in.lines[0].lineno, 1);
	assert_string_equal(in.lines[1].text, "next line");
	assert_int_equal(in.lines[1].lineno, 3);
	input_release(&in);
	load(&in, "a=b and =41 stay as they are\n");	/* no =3D: not QP */
	assert_string_equal(in.lines[0].text, "a=b and =41 stay as they are");
	input_release(&in);
	/* a NUL would end the text early, its len saying more (fuzzed) */
	load(&in, "x =3D 1=00 y\n");
	assert_string_equal(in.lines[0].text, "x = 1=00 y");
	assert_int_equal(in.lines[0].len, strlen("x = 1=00 y"));
	input_release(&in);
}

static void test_grep_prefix(void **state)
{
	struct input in;

	(void)state;
	load(&in, "nvme.randread.txt:  read: IOPS=61.2k\n"
		  "run1.log:12: bw=5\n"
		  "/dev/sda:\n"
		  "dd: error writing\n"
		  "host.example:/srv x\n"
		  "e.g.: nothing\n"
		  "10.0.0.11:      Children see throughput\n"
		  "10.0.0.1:x\n");
	assert_string_equal(input_line_origin(&in, &in.lines[0]), "nvme.randread.txt");
	assert_string_equal(in.lines[0].text, "read: IOPS=61.2k");
	assert_string_equal(input_line_origin(&in, &in.lines[1]), "run1.log");
	assert_string_equal(in.lines[1].text, "bw=5");
	for (size_t i = 2; i < 6; i++)
		assert_null(input_line_origin(&in, &in.lines[i]));
	assert_string_equal(input_line_origin(&in, &in.lines[6]), "10.0.0.11");
	assert_string_equal(in.lines[6].text, "Children see throughput");
	assert_null(input_line_origin(&in, &in.lines[7]));
	input_release(&in);
}

/*
 * input_contains() leaps between candidates of the needle's first byte
 * and hands over to strstr where they are dense: the sparse text stays
 * on the leaps (one '=' in 300 bytes), the dense one hands over; each
 * is searched at its start, its end and for what it lacks.
 */
static void test_contains(void **state)
{
	struct strbuf sparse = STRBUF_INIT, dense = STRBUF_INIT;
	struct input in;

	(void)state;
	for (int i = 0; i < 200; i++) {	/* one '=' in 300 bytes */
		strbuf_addf(&sparse, "%0299d=", i);
		strbuf_adds(&dense, "a=1 b=2 c=3 ");	/* three in 12 */
	}
	strbuf_adds(&sparse, "x =3D y\n");
	strbuf_adds(&dense, "x =3D y\n");
	input_from_buffer(&in, "s.txt", sparse.buf, sparse.len);
	assert_true(input_contains(&in, "=3D"));
	assert_true(input_contains(&in, "0000000001="));
	assert_false(input_contains(&in, "=3E"));
	assert_true(input_contains(&in, ""));
	input_release(&in);
	input_from_buffer(&in, "d.txt", dense.buf, dense.len);
	assert_true(input_contains(&in, "=3D"));
	assert_true(input_contains(&in, "a=1"));
	assert_true(input_contains(&in, "y"));
	assert_false(input_contains(&in, "=4"));
	input_release(&in);
	strbuf_release(&sparse);
	strbuf_release(&dense);
}

/*
 * A window as detect() sees it: its bytes, then the next line and a NUL
 * (nul_after).  A match is counted only within the window's bytes,
 * whether it lies past them or runs over their end.
 */
static void test_contains_window(void **state)
{
	char text[] = "dd if=x of=y\nreal 1s\nnext iozone line\n";
	struct input view;

	(void)state;
	memset(&view, 0, sizeof(view));
	view.data = text;
	view.size = strlen("dd if=x of=y\nreal 1s\n");
	view.nul_after = 1;
	assert_true(input_contains(&view, "real"));
	assert_true(input_contains(&view, "1s\n"));
	assert_false(input_contains(&view, "iozone"));	/* past */
	assert_false(input_contains(&view, "1s\nnext"));	/* over */
	view.nul_after = 0;			/* bounded: memmem */
	assert_true(input_contains(&view, "real"));
	assert_false(input_contains(&view, "iozone"));
}

static void test_binary_and_sha(void **state)
{
	struct input in;

	(void)state;
	input_from_buffer(&in, "b", "ab\0cd", 5);
	assert_true(in.binary);
	input_release(&in);
	load(&in, "abc");
	assert_false(in.binary);
	assert_string_equal(in.sha256, "ba7816bf8f01cfea414140de5dae2223"
			    "b00361a396177a9cb410ff61f20015ad");
	input_release(&in);
}

/* Text of size bytes ('a', a newline every 40) with control bytes at
 * every step-th byte from first, count of them. */
static int binary_verdict(size_t size, size_t first, size_t step,
			  size_t count, unsigned char control)
{
	char *text = malloc(size);
	struct input in;
	int binary;

	assert_non_null(text);
	for (size_t i = 0; i < size; i++)
		text[i] = i % 40 == 39 ? '\n' : 'a';
	for (size_t k = 0, i = first; k < count && i < size; k++, i += step)
		text[i] = (char)control;
	input_from_buffer(&in, "c", text, size);
	binary = in.binary;
	input_release(&in);
	free(text);
	return binary;
}

/* More than 5% control bytes is binary, 5% is not: wherever they sit
 * (sixteen-byte blocks or the tail), whichever they are, and past 255
 * in one lane of the block count. */
static void test_binary_threshold(void **state)
{
	(void)state;
	assert_false(binary_verdict(4000, 0, 20, 200, 1));
	assert_true(binary_verdict(4000, 0, 19, 201, 1));
	assert_false(binary_verdict(4000, 3, 19, 200, 31));
	assert_true(binary_verdict(4000, 3, 19, 201, 31));
	/* the tail past the last block of sixteen */
	assert_true(binary_verdict(19, 18, 1, 1, 0x0b));
	assert_false(binary_verdict(20, 19, 1, 1, 0x0b));
	/* \t \f \r ESC are text, DEL and bytes >= 128 too */
	assert_false(binary_verdict(4000, 0, 2, 2000, '\t'));
	assert_false(binary_verdict(4000, 0, 2, 2000, '\f'));
	assert_false(binary_verdict(4000, 0, 2, 2000, '\r'));
	assert_false(binary_verdict(4000, 0, 2, 2000, 27));
	assert_false(binary_verdict(4000, 0, 2, 2000, 127));
	assert_false(binary_verdict(4000, 0, 2, 2000, 0xc3));
	/* one lane: 510 hits, 254 if a lane's count wrapped at 256 */
	assert_true(binary_verdict(16 * 255 * 2 + 7, 5, 16, 510, 2));
	assert_false(binary_verdict(16 * 255 * 2 + 7, 5, 16, 408, 2));
	assert_true(binary_verdict(16 * 255 * 2 + 7, 5, 16, 409, 2));
}

struct prompt_case {
	const char *line;
	const char *after;
};

static const struct prompt_case prompts[] = {
	{ "$ dd if=x", "dd if=x" },
	{ "$dd if=x", "dd if=x" },
	{ "abc@Mac-mini ~ % sudo dd if=x", "sudo dd if=x" },	/* zsh */
	{ "It used 50 % of the time", "It used 50 % of the time" },
	{ "# hdparm -t /dev/sda", "hdparm -t /dev/sda" },
	{ "root@bpi-r3:~# hdparm -Tt", "hdparm -Tt" },
	{ "[root@linuxso.com ~]# hdparm -t", "hdparm -t" },
	{ "[vincent@localhost ~]$ sudo dd", "sudo dd" },
	{ "dieter:> sudo dd if=a", "sudo dd if=a" },
	{ "/data # time dd if=a", "time dd if=a" },
	{ "marte luis # dd if=a of=/dev/sde", "dd if=a of=/dev/sde" },
	{ "echo a=b # x", "echo a=b # x" },
	{ "pi@ian:~/Documents/Raspbian $ ls", "ls" },
	{ "+ dd if=/dev/zero", "dd if=/dev/zero" },
	{ "PS C:\\> fio job", "fio job" },
	{ "G:\\FIOTEST>fio --rw=randwrite", "fio --rw=randwrite" },
	{ "C:\\Program Files\\fio> fio job", "fio job" },
	{ "c:\\>", "" },
	{ "C:\\dir\\a.txt", "C:\\dir\\a.txt" },
	{ "(base) [ec2-user@ip-10 iops]$ fio --rw=read", "fio --rw=read" },
	{ "(venv) user@host:~$ fio job", "fio job" },
	{ "(base) $ dd if=x", "dd if=x" },
	{ "(cd /tmp; dd if=x)", "(cd /tmp; dd if=x)" },
	{ "(note) fio was run twice", "(note) fio was run twice" },
	{ "dd if=/dev/zero of=x > log", "dd if=/dev/zero of=x > log" },
	{ "Timing cached reads:", "Timing cached reads:" },
};

/* Which lines read as prose between two outputs (pasted copies need
 * one, parsers/shell.h): words do, in any script; blanks, commands, run
 * counters and lines without a letter do not. */
static void test_prose_lines(void **state)
{
	static const struct {
		const char *line;
		int prose;
	} lines[] = {
		{ "On Tuesday you wrote that the first run took this long:", 1 },
		{ "## disk B", 1 },
		{ "done", 1 },
		{ "\xd0\xa2\xd0\xb5\xd1\x81\xd1\x82", 1 },	/* Test */
		{ "", 0 },
		{ "$ sync; echo 3 > /proc/sys/vm/drop_caches", 0 },
		{ "# time ./bench.sh", 0 },
		{ "3", 0 },
		{ "--- 42 ---", 0 },
		{ "Run 2:", 0 },
		{ "=== run 3 ===", 0 },
		{ "[@]", 0 },		/* '@' and '[' are no letters */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (line_reads_as_prose(lines[i].line) != lines[i].prose)
			fail_msg("'%s': %d, want %d", lines[i].line,
				 !lines[i].prose, lines[i].prose);
}

static void test_prompts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(prompts) / sizeof(prompts[0]); i++)
		assert_string_equal(line_after_prompt(prompts[i].line),
				    prompts[i].after);
}

/* The text of prompts[] (and lines whose prompt is too long to keep),
 * each twice, between output lines. */
static void prompt_text(struct strbuf *sb)
{
	for (int rep = 0; rep < 2; rep++)
		for (size_t i = 0; i < sizeof(prompts) / sizeof(prompts[0]);
		     i++) {
			strbuf_adds(sb, prompts[i].line);
			strbuf_adds(sb, "\n1024+0 records in\n\n");
		}
	strbuf_adds(sb, "$");
	for (int k = 0; k < 70000; k++)	/* a prompt past 65,534 bytes */
		strbuf_addch(sb, ' ');
	strbuf_adds(sb, "dd if=x\n");
}

/* Every line held: its prompt as found when it was cut is the prompt
 * found now, and there is one (prompt_len was given). */
static void assert_prompts_kept(const struct input *in)
{
	assert_non_null(in->prompt);
	for (size_t i = 0; i < in->nlines; i++) {
		size_t p = shell_prompt_len(in->lines[i].text);

		assert_int_equal(in->prompt[i], p < 65535 ? p + 1 : 0);
		assert_ptr_equal(line_after_prompt_at(in, i),
				 line_after_prompt(in->lines[i].text));
	}
}

/*
 * The prompt of each line is found as it is cut (core/input.h's prompt)
 * and kept with the line read whole, and by windows: cut in parts,
 * adopted, and moved down as the first lines are forgotten.
 */
static void bare_with_prompts(struct input *in, const struct strbuf *sb)
{
	char *copy = strdup(sb->buf);

	assert_non_null(copy);
	input_init_bare(in, "t.txt", copy, sb->len);
	in->prompt_len = shell_prompt_len;
}

static void test_prompts_found_when_cut(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct input in, part[4];

	(void)state;
	prompt_text(&sb);
	bare_with_prompts(&in, &sb);
	input_finish(&in);
	assert_prompts_kept(&in);
	assert_int_equal(in.prompt[in.nlines - 1], 0);	/* too long */
	input_release(&in);

	bare_with_prompts(&in, &sb);
	input_finish_windows(&in);
	memset(part, 0, sizeof(part));
	input_cut_window(&in, 200);
	assert_prompts_kept(&in);
	for (;;) {
		size_t n = input_plan_window(&in, 200, part, 4);

		for (size_t k = 0; k < n; k++)
			input_cut_part(&part[k]);
		for (size_t k = 0; k < n; k++)
			input_stage_adopt(&in, &part[k]);
		assert_prompts_kept(&in);
		if (!n)
			break;
		input_forget_lines(&in, in.nlines / 2);
		assert_prompts_kept(&in);
	}
	for (size_t k = 0; k < 4; k++)
		input_stage_release(&part[k]);
	input_release(&in);
	strbuf_release(&sb);
}

/*
 * What an echo typed after a prompt printed on the next line is the
 * session's output, not prose (line_echoed_above()): its words or not
 * ("$DISK"), unless it prints no line of its own (-n, a redirection, a
 * pipe, a second command) or the next line is a command.
 */
static void test_echo_output(void **state)
{
	static const struct {
		const char *text;
		int echoed;	/* of the second line */
	} cases[] = {
		{ "$ echo === sdb ===\n=== sdb ===\n", 1 },
		{ "$ echo \"run on $DISK\"\nrun on sdb\n", 1 },
		{ "root@h:~# echo -e 'a\\tb'\na\tb\n", 1 },
		{ "$ echo 'a; b'\na; b\n", 1 },
		{ "echo first disk\nfirst disk\n", 0 },	/* no prompt */
		{ "$ echo -n x\nthen prose\n", 0 },
		{ "$ echo -ne x\nthen prose\n", 0 },
		{ "$ echo 3 > /proc/sys/vm/drop_caches\nthen prose\n", 0 },
		{ "$ echo x | tee f\nx\n", 0 },
		{ "$ echo x; sync\nx\n", 0 },
		{ "$ echo x\n$ ls\n", 0 },		/* a command */
		{ "$ echo\n\n", 0 },			/* a blank line */
		{ "$ echoes x\nx\n", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct input in;

		load(&in, cases[i].text);
		assert_int_equal(in.nlines, 2);
		if (line_echoed_above(&in, 1) != cases[i].echoed)
			fail_msg("%s: %d", cases[i].text, !cases[i].echoed);
		assert_false(line_echoed_above(&in, 0));
		input_release(&in);
	}
}

static void test_joined_command(void **state)
{
	struct input in;
	size_t last;
	char *t;

	(void)state;
	load(&in, "$ fio --name=w \\\n    --size=4g \\\n--rw=write\n"
		  "out\ncd C:\\fio\\\nnext \\");
	assert_true(line_continues(&in.lines[0]));
	assert_false(line_continues(&in.lines[2]));
	assert_false(line_continues(&in.lines[4]));
	t = input_joined_command(&in, 0, &last);
	assert_string_equal(t, "$ fio --name=w --size=4g --rw=write");
	assert_int_equal(last, 2);
	free(t);
	t = input_joined_command(&in, 3, &last);
	assert_string_equal(t, "out");
	assert_int_equal(last, 3);
	free(t);
	t = input_joined_command(&in, 5, &last);	/* continues past the end */
	assert_string_equal(t, "next \\");
	assert_int_equal(last, 5);
	free(t);
	input_release(&in);
}

static void test_shell_find(void **state)
{
	struct shell_cmd c[4];
	char *t;

	(void)state;
	assert_int_equal(shell_find("$ sync; dd if=a of=b; sync", "dd", c, 4), 1);
	t = shell_cmd_text(&c[0]);
	assert_string_equal(t, "dd if=a of=b");
	free(t);
	assert_int_equal(shell_find("dd if=a of=f bs=1M && dd if=f of=/dev/null",
				    "dd", c, 4), 2);
	t = shell_cmd_text(&c[1]);
	assert_string_equal(t, "dd if=f of=/dev/null");
	free(t);
	assert_int_equal(shell_find("sudo nice -n 19 /bin/dd if=x", "dd", c, 4), 1);
	assert_int_equal(shell_find("time dd if=/dev/zero bs=1M | md5sum", "dd",
				    c, 4), 1);
	assert_int_equal(shell_find("I ran dd with bs=1M", "dd", c, 4), 0);
	assert_int_equal(shell_find("perf stat -e cycles -r 3 dd if=/dev/zero "
				    "of=/dev/null", "dd", c, 4), 1);
	assert_int_equal(shell_find("dd if=a of=b  # dd if=x", "dd", c, 4), 1);
	t = shell_cmd_text(&c[0]);
	assert_string_equal(t, "dd if=a of=b");
	free(t);
	assert_int_equal(shell_find("dd: error writing", "dd", c, 4), 0);
	/* Windows paths: a backslash separates, it does not escape */
	assert_int_equal(shell_find("D:\\>c:\\fio\\fio\\fio --name=w", "fio",
				    c, 4), 1);
	assert_int_equal(shell_find("C:\\>\"C:\\Program Files\\fio\\fio.exe\" "
				    "--name=w", "fio", c, 4), 1);
	assert_int_equal(shell_find("c:\\fio\\fiostat --name=w", "fio", c, 4),
			 0);
	assert_int_equal(shell_find("for d in a b; do hdparm -t $d; done",
				    "hdparm", c, 4), 1);
	assert_int_equal(shell_find("Teste de vitesse partition : sudo dd "
				    "if=/dev/zero of=/mnt/r bs=1G", "dd", c, 4),
			 1);
	t = shell_cmd_text(&c[0]);
	assert_string_equal(t, "dd if=/dev/zero of=/mnt/r bs=1G");
	free(t);
	assert_int_equal(shell_find("Result: time dd if=a of=b", "dd", c, 4), 1);
	assert_int_equal(shell_find("Note: dd is slow here", "dd", c, 4), 0);
	assert_int_equal(shell_find("Note: use fio, dd if=a is old", "dd", c,
				    4), 0);
	assert_int_equal(shell_find("dd bs=$((1024*1024)) count=10", "dd", c, 4), 1);
	t = shell_cmd_text(&c[0]);
	assert_string_equal(t, "dd bs=$((1024*1024)) count=10");
	free(t);
}

static void test_name_pattern(void **state)
{
	struct labels l;

	(void)state;
	labels_init(&l);
	assert_int_equal(name_pattern_apply("{host}.{test}.txt",
					    "old.randread.txt", &l), 0);
	assert_string_equal(labels_get(&l, "host"), "old");
	assert_string_equal(labels_get(&l, "test"), "randread");
	labels_release(&l);
	assert_int_equal(name_pattern_apply("{_}-{fs}.log", "a-b-xfs.log", &l), 0);
	assert_string_equal(labels_get(&l, "fs"), "b-xfs");
	assert_null(labels_get(&l, "_"));
	labels_release(&l);
	assert_int_equal(name_pattern_apply("{host}.txt", "x.json", &l), -1);
	assert_int_equal(l.n, 0);
	labels_release(&l);
}

/*
 * Runs of the same command, kept apart by prose (so not folded), share
 * one label set: a 39 MB dd log held one copy per run (600 MB).
 */
static void test_runs_share_labels(void **state)
{
	static const char text[] =
		"$ dd if=/dev/zero of=f bs=1M count=64\n"
		"64+0 records in\n64+0 records out\n"
		"67108864 bytes (67 MB, 64 MiB) copied, 0.1 s, 671 MB/s\n"
		"now the same card once more:\n"
		"$ dd if=/dev/zero of=f bs=1M count=64\n"
		"64+0 records in\n64+0 records out\n"
		"67108864 bytes (67 MB, 64 MiB) copied, 0.2 s, 335 MB/s\n";
	struct input in;
	struct result_set rs;
	struct diag_list diags;
	size_t first = SIZE_MAX, shared = 0;

	(void)state;
	load(&in, text);
	result_set_init(&rs);
	diag_list_init(&diags);
	assert_int_equal(ingest_input(&in, NULL, &rs, &diags), 0);
	for (size_t i = 0; i < rs.n; i++) {
		if (strcmp(rs.m[i].metric, "bw"))
			continue;
		assert_non_null(labels_get(&rs.m[i].labels, "bs"));
		if (first == SIZE_MAX)
			first = i;
		else
			shared += rs.m[i].labels.v == rs.m[first].labels.v;
	}
	assert_int_not_equal(first, SIZE_MAX);
	assert_int_equal(shared, 1);
	diag_list_release(&diags);
	result_set_release(&rs);
	input_release(&in);
}

/*
 * The per-line extras (origin, indent) are made at the first
 * line that has one and grow with the table: right for lines before,
 * after and far past the first guess of the table's size.
 */
static void test_line_extras_grow(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct input in;

	(void)state;
	for (int i = 0; i < 5000; i++) {
		if (i == 3)
			strbuf_adds(&sb, "   indented\n");
		else if (i == 2000)
			strbuf_adds(&sb, "> > quoted\n");
		else if (i == 4999)
			strbuf_adds(&sb, "run7.log: grepped\n");
		else
			strbuf_adds(&sb, "x\n");
	}
	load(&in, sb.buf);
	assert_int_equal(in.nlines, 5000);
	for (size_t i = 0; i < in.nlines; i++) {
		const struct input_line *l = &in.lines[i];

		/* the blank after the last marker or the prefix counts */
		assert_int_equal(input_line_indent(&in, l),
				 i == 3 ? 3 : i == 2000 || i == 4999 ? 1 : 0);
		if (i == 4999)
			assert_string_equal(input_line_origin(&in, l),
					    "run7.log");
		else
			assert_null(input_line_origin(&in, l));
	}
	assert_string_equal(in.lines[4999].text, "grepped");
	input_release(&in);
	strbuf_release(&sb);
}

/* A temporary file of at least size bytes of numbered lines. */
static char *write_lines(size_t size, size_t *written)
{
	char *path = strdup("/tmp/storan-test-input-XXXXXX");
	int fd = mkstemp(path);
	struct strbuf sb = STRBUF_INIT;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	for (size_t i = 0; sb.len < size; i++)
		strbuf_addf(&sb, "line %zu of a big input\n", i);
	assert_int_equal(fwrite(sb.buf, 1, sb.len, f), sb.len);
	fclose(f);
	*written = sb.len;
	strbuf_release(&sb);
	return path;
}

/* A big file is mapped, a small or page-sized one read: the same lines. */
static void test_big_file_mapped_or_read(void **state)
{
	static const size_t sizes[] = { 1000, FILEMAP_MIN + 5, 1 << 21 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct strbuf err = STRBUF_INIT;
		size_t len;
		char *path = write_lines(sizes[k], &len);
		struct input in;

		if (k == 2)	/* exactly 512 pages: no room for the NUL */
			assert_int_equal(truncate(path, (off_t)(len = sizes[k])),
					 0);
		assert_int_equal(input_read(&in, path, &err), 0);
		assert_int_equal(in.size, len);
		assert_int_equal(in.data[len], '\0');
		assert_string_equal(in.lines[0].text, "line 0 of a big input");
		assert_string_equal(in.lines[7].text, "line 7 of a big input");
		assert_int_equal(in.lines[7].lineno, 8);
		assert_false(in.binary);
		assert_false(input_changed(&in));
		input_release(&in);
		unlink(path);
		free(path);
		strbuf_release(&err);
	}
}

/* The bytes of a new file of lines, big enough to be mapped. */
static char *mapped_lines(char **path, size_t *size)
{
	struct strbuf err = STRBUF_INIT;
	size_t len;
	char *data;

	*path = write_lines(FILEMAP_MIN + 100000, &len);
	assert_int_equal(input_read_bytes(*path, &data, size, &err), 0);
	assert_int_equal(*size, len);
	strbuf_release(&err);
	return data;
}

/*
 * A mapped file truncated by another program before it is read: no
 * SIGBUS, and the input says it changed (the loader then keeps nothing).
 */
static void test_mapped_file_truncated(void **state)
{
	size_t size;
	char *path, *data = mapped_lines(&path, &size);
	struct input in;

	(void)state;
	assert_int_equal(truncate(path, 4096), 0);
	input_init(&in, path, data, size);	/* reads every byte */
	assert_true(input_changed(&in));
	assert_true(in.binary);		/* the lost part reads as NULs */
	input_release(&in);
	unlink(path);
	free(path);
}

/*
 * Bytes appended to a mapped file (a log still being written) are not
 * seen: the text still ends with a NUL at its size; a shrink that stays
 * within the last page raises no SIGBUS but is seen all the same.
 */
static void test_mapped_file_grows_or_shrinks_a_little(void **state)
{
	size_t size;
	char *path, *data = mapped_lines(&path, &size);
	struct input in;
	FILE *f;

	(void)state;
	f = fopen(path, "a");
	for (int i = 0; i < 3000; i++)
		fputs("appended while mapped\n", f);
	fclose(f);
	assert_int_equal(data[size], '\0');
	assert_int_equal(strlen(data), size);
	input_init(&in, path, data, size);
	assert_false(input_changed(&in));	/* grown, not shrunk */
	assert_int_equal(truncate(path, (off_t)size - 10), 0);
	assert_true(input_changed(&in));	/* same last page */
	input_release(&in);
	unlink(path);
	free(path);
}

/* dd's report, repeated past the size files are mapped from. */
static char *write_dd_log(void)
{
	char *path = strdup("/tmp/storan-test-input-XXXXXX");
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	for (long n = 0; n < FILEMAP_MIN + 4096;)
		n += fprintf(f, "1048576 bytes (1.0 MB, 1.0 MiB) copied, "
			     "0.5 s, 2.1 MB/s\n");
	fclose(f);
	return path;
}

/* Between reading and parsing: the file is truncated, as by logrotate. */
static void truncate_it(const struct input *in)
{
	assert_false(input_changed(in));
	assert_int_equal(truncate(in->path, 0), 0);
}

/*
 * The loader's word on a file that shrank while it was read: an error
 * that says so and no measurement, not a crash (the parsers touch the
 * lost pages again: SIGBUS) nor a made-up number.  Untouched, the same
 * file gives its results.
 */
static void test_changed_file_gives_no_result(void **state)
{
	char *path = write_dd_log();

	(void)state;
	for (int cut = 0; cut < 2; cut++) {
		struct diag_list diags;
		struct result_set rs;
		enum load_status st;

		diag_list_init(&diags);
		result_set_init(&rs);
		st = load_input_between(path, NULL, &rs, &diags,
					cut ? truncate_it : NULL);
		if (!cut) {
			assert_int_equal(st, LOAD_OK);
			assert_true(rs.n > 0);
		} else {
			assert_int_equal(st, LOAD_FAILED);
			assert_int_equal(rs.n, 0);
			assert_int_equal(rs.nsources, 0);
			assert_int_equal(diags.n, 1);
			assert_non_null(strstr(diags.v[0].msg, "shrank"));
		}
		result_set_release(&rs);
		diag_list_release(&diags);
	}
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotes_indent_crlf),
		cmocka_unit_test(test_glued_records_split_by_next_line),
		cmocka_unit_test(test_dd_blanks_lost),
		cmocka_unit_test(test_table_row_name_and_output),
		cmocka_unit_test(test_lone_cr_splits_keeping_lineno),
		cmocka_unit_test(test_quoted_printable),
		cmocka_unit_test(test_grep_prefix),
		cmocka_unit_test(test_binary_and_sha),
		cmocka_unit_test(test_binary_threshold),
		cmocka_unit_test(test_contains),
		cmocka_unit_test(test_contains_window),
		cmocka_unit_test(test_prompts),
		cmocka_unit_test(test_prompts_found_when_cut),
		cmocka_unit_test(test_echo_output),
		cmocka_unit_test(test_prose_lines),
		cmocka_unit_test(test_joined_command),
		cmocka_unit_test(test_shell_find),
		cmocka_unit_test(test_name_pattern),
		cmocka_unit_test(test_runs_share_labels),
		cmocka_unit_test(test_line_extras_grow),
		cmocka_unit_test(test_big_file_mapped_or_read),
		cmocka_unit_test(test_mapped_file_truncated),
		cmocka_unit_test(test_mapped_file_grows_or_shrinks_a_little),
		cmocka_unit_test(test_changed_file_gives_no_result),
	};

	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}
