/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A long log read window by window (ingest/ingest.c) gives what a whole
 * read gives, byte for byte: measurements and messages; and a message
 * list that writes its tail to a file (core/diag.h) prints and counts as
 * one that keeps it.
 */
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
#include "core/rs-csv.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "ingest/load.h"

static char *printed(const struct diag_list *dl)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	diag_print(dl, fp);
	fclose(fp);
	return buf;
}

static void add_some(struct diag_list *dl, int from, int to)
{
	for (int i = from; i < to; i++)
		diag_add(dl, i % 3 ? DIAG_NOTE : DIAG_ERROR, "log.txt",
			 (unsigned)i, "message %d", i);
}

static void test_spilled_messages(void **state)
{
	struct diag_list kept, spilled, other;
	char *a, *b;

	(void)state;
	diag_list_init(&kept);
	diag_list_init(&spilled);
	diag_list_init(&other);
	diag_list_spill_after(&spilled, 3);
	diag_list_spill_after(&other, 2);
	add_some(&kept, 0, 10);
	add_some(&spilled, 0, 6);
	add_some(&other, 6, 10);
	diag_list_take(&spilled, &other);	/* both wrote out */
	assert_int_equal(diag_total(&spilled), 10);
	assert_int_equal(spilled.n, 3);
	assert_int_equal(diag_total(&other), 0);
	assert_int_equal(diag_count(&spilled, DIAG_ERROR),
			 diag_count(&kept, DIAG_ERROR));
	assert_int_equal(diag_count(&spilled, DIAG_NOTE),
			 diag_count(&kept, DIAG_NOTE));
	a = printed(&kept);
	b = printed(&spilled);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* one that kept all takes one that wrote out: it writes out too */
	add_some(&other, 10, 14);
	diag_list_spill_after(&other, 1);
	add_some(&other, 14, 16);
	diag_list_take(&kept, &other);
	add_some(&kept, 16, 17);
	assert_int_equal(diag_total(&kept), 17);
	diag_list_truncate(&other, 0);
	add_some(&other, 0, 17);	/* the same, all kept */
	a = printed(&other);
	b = printed(&kept);
	assert_string_equal(a, b);
	free(a);
	free(b);
	diag_list_truncate(&spilled, 2);
	assert_int_equal(diag_total(&spilled), 2);
	diag_list_release(&kept);
	diag_list_release(&spilled);
	diag_list_release(&other);
}

/*
 * A log of dd runs timed with time, with what changes their context
 * along the way: headings, prose, cache drops, runs pasted again, a
 * command continued over lines, a dd error.
 */
static char *write_log(int runs)
{
	char *path = xstrdup("/tmp/storan-test-windows-XXXXXX");
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "w");

	assert_non_null(fp);
	for (int i = 0; i < runs; i++) {
		if (i % 97 == 0)
			fprintf(fp, "## disk %d\n\n", i / 97 % 3);
		if (i % 41 == 0)
			fprintf(fp, "then on the other card:\n\n");
		if (i % 53 == 0)
			fprintf(fp, "$ echo 3 > /proc/sys/vm/drop_caches\n");
		if (i % 61 == 0)
			fprintf(fp, "$ dd if=/dev/sdb of=/dev/null \\\n"
				"    bs=1M count=64\n");
		else
			fprintf(fp, "$ time dd if=/dev/zero of=f%d bs=1M "
				"count=64 conv=fdatasync\n", i % 5);
		if (i % 71 == 0) {
			fprintf(fp, "dd: error writing 'f1': No space left "
				"on device\n");
		}
		fprintf(fp, "64+0 records in\n64+0 records out\n"
			"67108864 bytes (67 MB, 64 MiB) copied, %d.%03d s, "
			"%d MB/s\n\n", 1 + i % 3, (i * 37) % 1000, 30 + i % 9);
		if (i % 89 == 1)	/* pasted again, after prose */
			fprintf(fp, "as I said:\n$ time dd if=/dev/zero of=f%d "
				"bs=1M count=64 conv=fdatasync\n"
				"67108864 bytes (67 MB, 64 MiB) copied, "
				"%d.%03d s, %d MB/s\n\n", i % 5, 1 + i % 3,
				(i * 37) % 1000, 30 + i % 9);
		if (i % 61)
			fprintf(fp, "real\t0m1.%03ds\nuser\t0m0.00%ds\n"
				"sys\t0m0.%03ds\n\n", (i * 13) % 1000, i % 10,
				(i * 7) % 1000);
	}
	fclose(fp);
	return path;
}

/* The CSV and the messages of path, loaded with windows of `window`
 * bytes. */
static void load_with(const char *path, const char *window,
		      struct strbuf *csv, char **msgs, int *st)
{
	struct result_set rs;
	struct diag_list diags;

	setenv("STORAN_TEST_WINDOW", window, 1);
	result_set_init(&rs);
	diag_list_init(&diags);
	diag_list_spill_after(&diags, 10);
	*st = (int)load_input(path, NULL, &rs, &diags);
	rs_csv_write(&rs, csv);
	*msgs = printed(&diags);
	result_set_release(&rs);
	diag_list_release(&diags);
	unsetenv("STORAN_TEST_WINDOW");
}

static void test_windows_read_as_whole(void **state)
{
	static const char *const windows[] = { "2000", "7777", "40000",
					       NULL };
	char *path = write_log(3000), *whole_msgs;
	struct strbuf whole = STRBUF_INIT;
	int whole_st;

	(void)state;
	/* a window as big as the log: read whole */
	load_with(path, "1000000000", &whole, &whole_msgs, &whole_st);
	assert_true(whole.len > 1000);
	assert_non_null(strstr(whole_msgs, "pasted again"));
	for (size_t w = 0; windows[w]; w++) {
		struct strbuf csv = STRBUF_INIT;
		char *msgs;
		int st;

		load_with(path, windows[w], &csv, &msgs, &st);
		assert_int_equal(st, whole_st);
		assert_string_equal(strbuf_str(&csv), strbuf_str(&whole));
		assert_string_equal(msgs, whole_msgs);
		strbuf_release(&csv);
		free(msgs);
	}
	strbuf_release(&whole);
	free(whole_msgs);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spilled_messages),
		cmocka_unit_test(test_windows_read_as_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
