/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A text table rendered whole, rendered drained as it fills
 * (fmt_render_text_drained()) and rendered from rows made on demand
 * (fmt_render_text_rows(), what storan compare writes a million rows
 * with) are the same text, byte for byte: wrapped cells, hidden optional
 * columns, styles, notes and footnotes included, at any width.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "analysis/format.h"
#include "core/strbuf.h"

#define ROWS 20000

struct collected {
	struct strbuf text;
	size_t calls;
};

static void collect(struct strbuf *out, void *arg)
{
	struct collected *c = arg;

	strbuf_add(&c->text, out->buf, out->len);
	strbuf_reset(out);
	c->calls++;
}

/* Row r, long enough to wrap in 60 columns, one blank cell in seven,
 * added to t (a fmt_row_fn too). */
static void add_row(void *arg, size_t r, struct fmt_table *t)
{
	static const unsigned cites[] = { 1, 2 };
	size_t row = fmt_table_add_row(t);
	char text[96];

	(void)arg;
	fmt_table_set_cell(t, row, 0, r % 2 ? "read" : "randwrite", NULL);
	snprintf(text, sizeof(text), "bs=%zu iodepth=%zu job=job%zu "
		 "command=fio --name=job%zu", (size_t)512 << (r % 8), r % 32,
		 r, r);
	if (r % 7)
		fmt_table_set_cell(t, row, 1, text, NULL);
	snprintf(text, sizeof(text), "%.3f", 1 + (double)r / ROWS);
	fmt_table_set_number(t, row, 2, 1 + (double)r / ROWS, text);
	snprintf(text, sizeof(text), "%+.1f%%", (double)r / 200);
	fmt_table_set_number(t, row, 3, (double)r / 200, text);
	fmt_table_set_style(t, row, 2, r % 3 ? FMT_GOOD : FMT_BAD);
	if (r % 1000 == 5)
		fmt_table_set_notes(t, row, 2, cites, 2);
}

/* The columns, notes and footnotes; rows added unless rows is 0. */
static void fill(struct fmt_table *t, size_t rows)
{
	fmt_table_add_column(t, "op", "op", 0);
	fmt_table_add_column(t, "labels", "labels", 0);
	fmt_table_add_column(t, "ratio", "ratio", 1);
	fmt_table_add_column(t, "change", "change", 1);
	fmt_table_set_column_flags(t, 1, FMT_COL_WRAP);
	fmt_table_set_column_flags(t, 3, FMT_COL_OPTIONAL);
	for (size_t r = 0; r < rows; r++)
		add_row(NULL, r, t);
	fmt_table_add_note(t, "summary: %d rows, some of them wrapped at "
			   "the width the terminal has", ROWS);
	fmt_table_add_footnote(t, 1, "a.json", 12, "warning", "noisy",
			       "the runs vary by 12%");
	fmt_table_add_footnote(t, 2, "b.json", 40, "error", "cached-read",
			       "faster than the link");
}

static const size_t widths[] = { 0, 60, 200 };

/* A way to render the test table drained: from its own rows or made. */
typedef void (*render_fn)(const struct fmt_table *t, int color,
			  size_t width, struct strbuf *out,
			  const struct strbuf_drain *drain);

static void from_rows(const struct fmt_table *t, int color, size_t width,
		      struct strbuf *out, const struct strbuf_drain *drain)
{
	fmt_render_text_drained(t, color, width, out, drain);
}

static void made_rows(const struct fmt_table *t, int color, size_t width,
		      struct strbuf *out, const struct strbuf_drain *drain)
{
	struct fmt_row_maker maker = { add_row, NULL, NULL, NULL };

	fmt_render_text_rows(t, ROWS, &maker, color, width, out, drain);
}

/* A maker that threads share: each its own (counted) clone. */
static int clones;

static void *clone_maker(void *arg)
{
	(void)arg;
	clones++;
	return &clones;
}

static void release_maker(void *arg)
{
	assert_ptr_equal(arg, &clones);
	clones--;
}

static void made_rows_shared(const struct fmt_table *t, int color,
			     size_t width, struct strbuf *out,
			     const struct strbuf_drain *drain)
{
	struct fmt_row_maker maker = { add_row, NULL, clone_maker,
				       release_maker };

	fmt_render_text_rows(t, ROWS, &maker, color, width, out, drain);
	assert_int_equal(clones, 0);
}

/* render(t) gives what whole gives held and rendered at once, at every
 * width, with and without colour, drained more than four times. */
static void check_same(const struct fmt_table *whole,
		       const struct fmt_table *t, render_fn render)
{
	for (size_t w = 0; w < sizeof(widths) / sizeof(*widths); w++) {
		for (int color = 0; color <= 1; color++) {
			struct strbuf want = STRBUF_INIT, out = STRBUF_INIT;
			struct collected c = { STRBUF_INIT, 0 };
			struct strbuf_drain drain = { collect, &c };

			fmt_render_text_width(whole, color, widths[w], &want);
			render(t, color, widths[w], &out, &drain);
			collect(&out, &c);
			assert_true(want.len > 4 * STRBUF_DRAIN_AT);
			assert_true(c.calls > 4);
			assert_int_equal(c.text.len, want.len);
			assert_memory_equal(c.text.buf, want.buf, want.len);
			strbuf_release(&want);
			strbuf_release(&out);
			strbuf_release(&c.text);
		}
	}
}

static void test_drained_is_whole(void **state)
{
	struct fmt_table t;

	(void)state;
	fmt_table_init(&t, "baseline a.json vs candidate b.json");
	fill(&t, ROWS);
	check_same(&t, &t, from_rows);
	fmt_table_release(&t);
}

/* Rows made on demand (fmt_render_text_rows()) render as the same rows
 * held in the table: made here in order, or on every CPU in chunks. */
static void test_rows_on_demand(void **state)
{
	struct fmt_table whole, head;

	(void)state;
	fmt_table_init(&whole, "baseline a.json vs candidate b.json");
	fill(&whole, ROWS);
	fmt_table_init(&head, "baseline a.json vs candidate b.json");
	fill(&head, 0);
	check_same(&whole, &head, made_rows);
	check_same(&whole, &head, made_rows_shared);
	fmt_table_release(&whole);
	fmt_table_release(&head);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drained_is_whole),
		cmocka_unit_test(test_rows_on_demand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
