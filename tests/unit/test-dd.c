/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The dd parser where a golden fixture cannot say it all: a result kept
 * together with the note that qualifies it (run-golden checks either the
 * CSV or the messages of an input, not both).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/diag.h"
#include "core/input.h"
#include "core/strbuf.h"
#include "ingest/ingest.h"
#include "parsers/parser.h"
#include "parsers/dd.h"

/*
 * Ingests text: its measurements as "line op metric value" rows into
 * rows, its messages into msgs; returns ingest_input()'s status.
 */
static int ingest_text(const char *text, struct strbuf *rows,
		       struct strbuf *msgs)
{
	struct ingest_options opt;
	struct diag_list diags;
	struct result_set rs;
	struct input in;
	int rc;

	memset(&opt, 0, sizeof(opt));
	diag_list_init(&diags);
	result_set_init(&rs);
	input_from_buffer(&in, "dd.txt", text, strlen(text));
	rc = ingest_input(&in, &opt, &rs, &diags);
	strbuf_reset(rows);
	strbuf_reset(msgs);
	for (size_t i = 0; i < rs.n; i++)
		strbuf_addf(rows, "%u %s %s %.15g\n", rs.m[i].line,
			    rs.m[i].op, rs.m[i].metric, rs.m[i].values[0]);
	for (size_t i = 0; i < diags.n; i++)
		strbuf_addf(msgs, "%u: %s\n", diags.v[i].line,
			    diags.v[i].msg);
	input_release(&in);
	result_set_release(&rs);
	diag_list_release(&diags);
	return rc;
}

/*
 * Ingests text and checks its exit status, its rows and its messages
 * (msgs: the whole text, or NULL for any; want_in: a part of them).
 */
static void expect_ingest(const char *text, int rc, const char *rows,
			  const char *msgs, const char *want_in)
{
	struct strbuf got = STRBUF_INIT, said = STRBUF_INIT;

	assert_int_equal(ingest_text(text, &got, &said), rc);
	assert_string_equal(strbuf_str(&got), rows);
	if (msgs)
		assert_string_equal(strbuf_str(&said), msgs);
	if (want_in)
		assert_non_null(strstr(strbuf_str(&said), want_in));
	strbuf_release(&got);
	strbuf_release(&said);
}

/* conv=fsync failed on storage: the copy is kept, said to be unsynced. */
static void test_sync_failure_on_write(void **state)
{
	(void)state;
	expect_ingest(
		"$ dd if=/dev/zero of=/mnt/usb/t bs=1M count=256 conv=fsync\n"
		"dd: fsync failed for '/mnt/usb/t': Input/output error\n"
		"256+0 records in\n"
		"256+0 records out\n"
		"268435456 bytes (268 MB, 256 MiB) copied, 0.5 s, 537 MB/s\n",
		0,
		"5 write bytes 268435456\n"
		"5 write runtime 0.5\n"
		"5 write bw 536870912\n",
		"5: the sync dd ran after the copy failed (line 2: "
		"Input/output error): this figure is the copy "
		"without its flush to storage\n", NULL);
}

/* Into /dev/null there is nothing to flush: the read stands, unremarked. */
static void test_sync_failure_on_read(void **state)
{
	(void)state;
	expect_ingest(
		"$ dd if=/dev/sdb of=/dev/null bs=1M count=2 conv=fdatasync\n"
		"dd: fsync failed for '/dev/null': Invalid argument\n"
		"2+0 records in\n"
		"2+0 records out\n"
		"2097152 bytes (2.1 MB, 2.0 MiB) copied, 0.25 s, 8.4 MB/s\n",
		0,
		"5 read bytes 2097152\n"
		"5 read runtime 0.25\n"
		"5 read bw 8388608\n", "", NULL);
}

/*
 * A copy that stopped on an error is a partial measurement (labelled by
 * the ingest; storan check flags it), and the sync that failed after it
 * changes nothing.
 */
static void test_sync_failure_after_copy_error(void **state)
{
	(void)state;
	expect_ingest(
		"$ dd if=/dev/zero of=/dev/sdb bs=1M conv=fsync\n"
		"dd: error writing '/dev/sdb': No space left on device\n"
		"dd: fsync failed for '/dev/sdb': Input/output error\n"
		"1908+0 records in\n"
		"1907+0 records out\n"
		"2000683008 bytes (2.0 GB, 1.9 GiB) copied, 9.3 s, 215 MB/s\n",
		0,
		"6 write bytes 2000683008\n"
		"6 write runtime 9.3\n"
		"6 write bw 215127205.16129\n", NULL,
		"6: dd stopped with an error (No space left on device): its "
		"figure, kept as partial");
}

/*
 * A translated catalog keeps only the call's name: German "fsync für
 * %s fehlgeschlagen" is the same failed sync.  A file named like the
 * call is no sync failure.
 */
static void test_sync_failure_translated(void **state)
{
	(void)state;
	expect_ingest(
		"$ dd if=/dev/sdb of=/dev/null bs=1M count=2 conv=fdatasync\n"
		"dd: fdatasync für '/dev/null' fehlgeschlagen: Das Argument "
		"ist ungültig\n"
		"2+0 Datensätze ein\n"
		"2+0 Datensätze aus\n"
		"2097152 Bytes (2,1 MB, 2,0 MiB) kopiert, 0,25 s, 8,4 MB/s\n",
		0,
		"5 read bytes 2097152\n"
		"5 read runtime 0.25\n"
		"5 read bw 8388608\n", NULL, NULL);
	expect_ingest(
		"$ dd if=/dev/zero of=/mnt/fsync bs=1M count=2\n"
		"dd: error writing '/mnt/fsync ': No space left on device\n"
		"2+0 records in\n"
		"1+0 records out\n"
		"1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.25 s, 4.2 MB/s\n",
		0,
		"5 write bytes 1048576\n"
		"5 write runtime 0.25\n"
		"5 write bw 4194304\n", NULL, "dd stopped with an error");
}

/*
 * A dd command whose blanks were lost where dd's names cannot say where
 * they were ("sdbobs=": obs= or bs=?): its output is read without a
 * command (not given the earlier one), and the note says why.
 */
static void test_lost_blanks_not_certain(void **state)
{
	(void)state;
	expect_ingest(
		"$ dd if=/dev/zero of=/tmp/old bs=1M count=10\n"
		"\n"
		"root@h:~# ddif=/dev/zeroof=/dev/sdbobs=4kcount=1000\n"
		"1000+0 records in\n"
		"1000+0 records out\n"
		"4096000 bytes (4.1 MB, 3.9 MiB) copied, 0.5 s, 8.2 MB/s\n",
		0,
		"6 copy bytes 4096000\n"
		"6 copy runtime 0.5\n"
		"6 copy bw 8192000\n",
		"3: a dd command whose blanks were lost: '/dev/sdbobs=' may "
		"end in bs= or in obs=, so its operands are not read (the "
		"output at line 6 has no command)\n", NULL);
}

/*
 * A dd diagnostic's message: "dd: " ends the line's first word, which is
 * dd's name (a path to it, gdd, gnudd); anywhere else it is prose.
 */
static void test_message_after_name(void **state)
{
	static const struct {
		const char *text, *message;	/* NULL: none */
	} cases[] = {
		{ "dd: error writing 'x': No space left on device",
		  "error writing 'x': No space left on device" },
		{ "/bin/dd: failed to open 'y'", "failed to open 'y'" },
		{ "gdd: invalid number: '1G'", "invalid number: '1G'" },
		{ "/opt/gnudd: x", "x" },
		{ "ddd: x", NULL },
		{ "add: x", NULL },
		{ "then dd: x", NULL },
		{ " dd: x", NULL },
		{ "dd:\tx", NULL },
		{ "dd:x", NULL },
		{ "dd:", NULL },
		{ "d: x", NULL },
		{ "", NULL },
		{ "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.7 s, 600 MB/s",
		  NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = dd_message(cases[i].text);

		if (!cases[i].message)
			assert_null(got);
		else
			assert_string_equal(got, cases[i].message);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_failure_on_write),
		cmocka_unit_test(test_sync_failure_on_read),
		cmocka_unit_test(test_sync_failure_after_copy_error),
		cmocka_unit_test(test_sync_failure_translated),
		cmocka_unit_test(test_lost_blanks_not_certain),
		cmocka_unit_test(test_message_after_name),
	};

	return cmocka_run_group_tests_name("dd", tests, NULL, NULL);
}
