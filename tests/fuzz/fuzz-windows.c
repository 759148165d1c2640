/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A text read window by window gives what its whole read gives, byte
 * for byte: the CSV and the messages (ingest/ingest.c's promise).  With
 * windows of 96 to 495 bytes (as the input's size gives: the same input
 * the same windows) a fuzzer's short inputs span several, so that
 * what crosses a window's edge -- an output, a pasted copy, a heading,
 * another tool's output found late, the next window cut by one thread
 * or the other -- is compared with the whole read.  A difference aborts
 * with both.
 */
#include "fuzz-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/input.h"
#include "core/resultset.h"
#include "core/rs-csv.h"
#include "core/strbuf.h"
#include "ingest/ingest.h"
#include "parsers/parser.h"

/* The CSV and the messages of data, read by windows or whole. */
static void read_as(const uint8_t *data, size_t size, int by_windows,
		    struct strbuf *csv, char **msgs)
{
	struct result_set rs;
	struct diag_list diags;
	struct input in;
	size_t len = 0;
	FILE *fp = open_memstream(msgs, &len);

	result_set_init(&rs);
	diag_list_init(&diags);
	input_init_bare(&in, "fuzz.txt", fuzz_copy(data, size), size);
	in.runs_output_tool = parser_output_after_command;
	in.prompt_len = shell_prompt_len;
	/* as load_input() reads a file */
	if (ingest_may_read_whole(&in))
		input_finish_uncut(&in);
	else if (by_windows)
		input_finish_windows(&in);
	else
		input_finish(&in);
	ingest_input(&in, NULL, &rs, &diags);
	rs_csv_write(&rs, csv);
	diag_print(&diags, fp);
	fclose(fp);
	input_release(&in);
	result_set_release(&rs);
	diag_list_release(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf whole = STRBUF_INIT, win = STRBUF_INIT;
	char *whole_msgs = NULL, *win_msgs = NULL;
	char window[16];

	snprintf(window, sizeof(window), "%zu", 96 + size % 400);
	setenv("STORAN_TEST_WINDOW", window, 1);
	if (!ingest_read_by_windows(size))
		return 0;	/* one window: nothing to compare */
	read_as(data, size, 0, &whole, &whole_msgs);
	read_as(data, size, 1, &win, &win_msgs);
	if (strcmp(strbuf_str(&whole), strbuf_str(&win)) ||
	    strcmp(whole_msgs, win_msgs)) {
		fprintf(stderr, "whole read:\n%s%s\nby windows of %s bytes:\n"
			"%s%s\n", strbuf_str(&whole), whole_msgs, window,
			strbuf_str(&win), win_msgs);
		abort();
	}
	strbuf_release(&whole);
	strbuf_release(&win);
	free(whole_msgs);
	free(win_msgs);
	return 0;
}
