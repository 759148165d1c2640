/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The input layer (core/input.c) without any parser: the text cut into
 * clean lines, then every question parsers ask of a line (prompt, blank,
 * continued command, cache drop, the shell commands of a program), and
 * the same text kept uncut and cut later, as a fio JSON reader would.
 * Checked: the invariants input.h states (text NUL-terminated, len its
 * length, no blank at either end, line numbers rising from 1 and within
 * the file) and that cutting late gives the lines cutting at once gives.
 */
#include "fuzz-common.h"

#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "parsers/shell.h"
#include "core/rs-json.h"
#include "core/xalloc.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

static void check_line(const struct input *in, size_t li, unsigned *prev,
		       unsigned last)
{
	const struct input_line *l = &in->lines[li];

	if (strlen(l->text) != l->len)
		BUG("line %zu: len %u, text of %zu", li, l->len,
		    strlen(l->text));
	if (l->len && (is_blank(l->text[0]) || is_blank(l->text[l->len - 1])))
		BUG("line %zu: blank at an end: '%s'", li, l->text);
	if (l->lineno < *prev || l->lineno < 1 || l->lineno > last)
		BUG("line %zu: number %u after %u (last %u)", li, l->lineno,
		    *prev, last);
	*prev = l->lineno;
	if (input_line_at(in, (size_t)(l->text - in->arena)) != li &&
	    l->len)
		BUG("line %zu: input_line_at() says %zu", li,
		    input_line_at(in, (size_t)(l->text - in->arena)));
}

/* What parsers ask of a line, each answer only looked at by sanitizers. */
static void ask_line(const struct input *in, size_t li)
{
	static const char *const progs[] = {
		"dd", "fio", "hdparm", "iozone", "time", NULL
	};
	const struct input_line *l = &in->lines[li];
	struct shell_cmd cmds[4];
	size_t last;

	line_is_empty(l);
	line_drops_cache(l->text);
	line_after_prompt(l->text);
	input_origin_at(in, li);
	input_line_indent(in, l);
	if (line_continues(l)) {
		free(input_joined_command(in, li, &last));
		if (last < li || last >= in->nlines ||
		    last > li + COMMAND_LINES_MAX)
			BUG("line %zu: continued to %zu", li, last);
	}
	for (size_t p = 0; progs[p]; p++) {
		size_t n = shell_find(l->text, progs[p], cmds, 4);

		for (size_t c = 0; c < n && c < 4; c++) {
			const char *at = cmds[c].args;
			const char *end = cmds[c].prog + cmds[c].len;
			char *w;

			free(shell_cmd_text(&cmds[c]));
			while ((w = shell_next_word(&at, end))) {
				shell_is_wrapper(w);
				free(w);
			}
		}
	}
}

static unsigned count_file_lines(const char *data, size_t size)
{
	unsigned n = 1;

	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void same_lines(const struct input *a, const struct input *b)
{
	if (a->nlines != b->nlines || a->binary != b->binary ||
	    strcmp(a->sha256, b->sha256))
		BUG("cut late: %zu lines (binary %d), at once %zu (%d)",
		    b->nlines, b->binary, a->nlines, a->binary);
	for (size_t i = 0; i < a->nlines; i++) {
		const char *oa = input_origin_at(a, i);
		const char *ob = input_origin_at(b, i);

		if (strcmp(a->lines[i].text, b->lines[i].text) ||
		    a->lines[i].lineno != b->lines[i].lineno ||
		    (!oa != !ob) || (oa && strcmp(oa, ob)))
			BUG("line %zu differs cut late", i);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in, late;
	unsigned prev = 0, last = count_file_lines((const char *)data, size);
	size_t len;

	input_init_bare(&in, "fuzz.txt", fuzz_copy(data, size), size);
	rs_json_sniff(in.data, in.size);
	input_finish(&in);
	input_text(&in, &len);
	for (size_t i = 0; i < in.nlines; i++) {
		check_line(&in, i, &prev, last);
		ask_line(&in, i);
	}
	input_contains(&in, "READ: bw=");

	input_init_bare(&late, "fuzz.txt", fuzz_copy(data, size), size);
	input_finish_uncut(&late);
	if (late.uncut) {
		input_text(&late, &len);
		for (size_t pos = 0; pos < len; pos += 1 + pos / 2)
			if (input_line_at(&late, pos) >= late.nlines)
				BUG("uncut: offset %zu at line %zu of %zu", pos,
				    input_line_at(&late, pos), late.nlines);
		input_cut_lines(&late);
	}
	input_sha256(&in);
	input_sha256(&late);
	same_lines(&in, &late);
	input_release(&in);
	input_release(&late);
	return 0;
}
