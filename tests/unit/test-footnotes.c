/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Footnotes (analysis/footnotes.c): which findings a cell cites, the
 * numbers they get (citing order, no repeats, one number for the same
 * finding of two sets), the severity level, restarting, the codes of
 * compare's CSV column; and how the display table (analysis/format.c)
 * shows marks and notes in every format -- CSV untouched.  The findings
 * come from storan check itself, on a result set built here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/footnotes.h"
#include "analysis/table.h"
#include "core/strbuf.h"

/* The measurements of sample(), by index. */
enum { OVER_LINK, CLEAN, NOISY, NSAMPLE };

static void add(struct result_set *rs, const char *op, const char *link,
		const double *v, size_t n, unsigned line)
{
	struct measurement *m = result_set_add(rs, "csv", op, "bw", "B/s");

	measurement_set_source(m, 0, "typed.csv", line);
	labels_set(&m->labels, "device", "nvme0n1");
	if (link)
		labels_set(&m->labels, "link", link);
	for (size_t i = 0; i < n; i++)
		measurement_add_value(m, v[i]);
}

/*
 * A read of 2.6 GB/s over PCIe 2.0 x4 (over-link, and few-runs: info), a
 * write of 1.5 GB/s on it (few-runs only), and three runs of a randread
 * that vary by 50% (noisy).
 */
static void sample(struct result_set *rs)
{
	static const double read[] = { 2.6e9 }, write[] = { 1.5e9 };
	static const double noisy[] = { 100e6, 200e6, 300e6 };

	result_set_init(rs);
	result_set_add_source(rs, "typed.csv", NULL);
	add(rs, "read", "pcie2x4", read, 1, 2);
	add(rs, "write", "pcie2x4", write, 1, 3);
	add(rs, "randread", NULL, noisy, 3, 4);
}

static size_t checked(struct footnotes *fn, const struct result_set *rs)
{
	struct check_options opt;
	struct strbuf err = STRBUF_INIT;
	size_t set = 99;

	check_options_init(&opt);
	opt.ram = 16.0 * 1024 * 1024 * 1024;
	assert_int_equal(footnotes_check(fn, rs, &opt, &set, &err), 0);
	strbuf_release(&err);
	return set;
}

/* cite() into a fresh array; returns the count, nums for the caller. */
static size_t cite(struct footnotes *fn, size_t set, const size_t *mi,
		   size_t n, unsigned **nums)
{
	size_t alloc = 0;

	*nums = NULL;
	return footnotes_cite(fn, set, mi, n, nums, &alloc);
}

static void test_numbers_in_citing_order(void **state)
{
	struct result_set rs;
	struct footnotes fn;
	unsigned *nums;
	size_t set, k;
	const size_t clean[] = { CLEAN }, noisy[] = { NOISY };
	const size_t both[] = { OVER_LINK, NOISY, OVER_LINK };
	const size_t over[] = { OVER_LINK };

	(void)state;
	sample(&rs);
	footnotes_init(&fn, CHECK_WARNING);
	set = checked(&fn, &rs);
	assert_int_equal(set, 0);

	/* a figure no warning touches: no footnote (few-runs is info) */
	assert_int_equal(cite(&fn, set, clean, 1, &nums), 0);
	free(nums);
	/* the first cited gets 1, whatever its place in the findings */
	assert_int_equal(cite(&fn, set, noisy, 1, &nums), 1);
	assert_int_equal(nums[0], 1);
	free(nums);
	assert_string_equal(footnotes_finding(&fn, 1)->code, "noisy");
	/* a cell of two measurements: both numbers, sorted, each once */
	k = cite(&fn, set, both, 3, &nums);
	assert_int_equal(k, 2);
	assert_int_equal(nums[0], 1);
	assert_int_equal(nums[1], 2);
	free(nums);
	assert_string_equal(footnotes_finding(&fn, 2)->code, "over-link");
	assert_int_equal(footnotes_finding(&fn, 2)->line, 2);
	assert_null(footnotes_finding(&fn, 3));
	assert_null(footnotes_finding(&fn, 0));
	/* citing again keeps the number */
	assert_int_equal(cite(&fn, set, over, 1, &nums), 1);
	assert_int_equal(nums[0], 2);
	free(nums);
	/* the next table starts from 1 */
	footnotes_restart(&fn);
	assert_null(footnotes_finding(&fn, 1));
	assert_int_equal(cite(&fn, set, over, 1, &nums), 1);
	assert_int_equal(nums[0], 1);
	free(nums);
	assert_string_equal(footnotes_finding(&fn, 1)->code, "over-link");
	footnotes_release(&fn);
	result_set_release(&rs);
}

static void test_level_all_cites_infos(void **state)
{
	struct result_set rs;
	struct footnotes fn;
	enum check_severity sev;
	unsigned *nums;
	const size_t clean[] = { CLEAN }, over[] = { OVER_LINK };

	(void)state;
	assert_int_equal(footnotes_parse_level("warnings", &sev), 0);
	assert_int_equal(sev, CHECK_WARNING);
	assert_int_equal(footnotes_parse_level("all", &sev), 0);
	assert_int_equal(sev, CHECK_INFO);
	assert_int_equal(footnotes_parse_level("info", &sev), -1);
	sample(&rs);
	footnotes_init(&fn, CHECK_INFO);
	checked(&fn, &rs);
	assert_int_equal(cite(&fn, 0, clean, 1, &nums), 1);
	free(nums);
	assert_string_equal(footnotes_finding(&fn, 1)->code, "few-runs");
	assert_int_equal(footnotes_finding(&fn, 1)->severity, CHECK_INFO);
	/* the read: its over-link warning and its few-runs info */
	assert_int_equal(cite(&fn, 0, over, 1, &nums), 2);
	free(nums);
	footnotes_release(&fn);
	result_set_release(&rs);
}

/*
 * A set whose findings are all below the level (the write alone: one
 * run, few-runs is info) has no index: its cells cite nothing, and the
 * set after it still cites its own.
 */
static void test_set_with_nothing_to_cite(void **state)
{
	static const double write[] = { 1.5e9 };
	struct result_set quiet, rs;
	struct footnotes fn;
	unsigned *nums;
	const size_t first[] = { 0 }, noisy[] = { NOISY };

	(void)state;
	result_set_init(&quiet);
	result_set_add_source(&quiet, "typed.csv", NULL);
	add(&quiet, "write", "pcie2x4", write, 1, 3);
	sample(&rs);
	footnotes_init(&fn, CHECK_WARNING);
	assert_int_equal(checked(&fn, &quiet), 0);
	assert_true(fn.sets[0].findings.n > 0);	/* an info, not cited */
	assert_null(fn.sets[0].first);
	assert_int_equal(checked(&fn, &rs), 1);
	assert_int_equal(cite(&fn, 0, first, 1, &nums), 0);
	free(nums);
	assert_int_equal(cite(&fn, 1, noisy, 1, &nums), 1);
	assert_int_equal(nums[0], 1);
	free(nums);
	assert_string_equal(footnotes_finding(&fn, 1)->code, "noisy");
	footnotes_release(&fn);
	result_set_release(&rs);
	result_set_release(&quiet);
}

/* One file as baseline and candidate: its findings are one footnote. */
static void test_same_finding_two_sets(void **state)
{
	struct result_set a, b;
	struct footnotes fn;
	unsigned *nums;
	const size_t noisy[] = { NOISY };

	(void)state;
	sample(&a);
	sample(&b);
	footnotes_init(&fn, CHECK_WARNING);
	assert_int_equal(checked(&fn, &a), 0);
	assert_int_equal(checked(&fn, &b), 1);
	assert_int_equal(cite(&fn, 0, noisy, 1, &nums), 1);
	assert_int_equal(nums[0], 1);
	free(nums);
	assert_int_equal(cite(&fn, 1, noisy, 1, &nums), 1);
	assert_int_equal(nums[0], 1);
	free(nums);
	assert_null(footnotes_finding(&fn, 2));
	footnotes_release(&fn);
	result_set_release(&a);
	result_set_release(&b);
}

static void test_marker_and_codes(void **state)
{
	struct result_set rs;
	struct footnotes fn;
	struct strbuf sb = STRBUF_INIT;
	const unsigned one3[] = { 1, 3 };
	const size_t all[] = { OVER_LINK, CLEAN, NOISY };
	unsigned *nums;
	size_t k;

	(void)state;
	footnotes_marker(one3, 2, &sb);
	assert_string_equal(sb.buf, "\xe2\x80\xa0" "1,3");
	strbuf_reset(&sb);
	footnotes_marker(one3, 0, &sb);
	assert_int_equal(sb.len, 0);

	sample(&rs);
	footnotes_init(&fn, CHECK_WARNING);
	checked(&fn, &rs);
	k = cite(&fn, 0, all, 3, &nums);
	assert_int_equal(k, 2);
	footnotes_codes(&fn, nums, k, &sb);
	assert_string_equal(sb.buf, "over-link;noisy");
	/* a code already listed is not repeated */
	footnotes_codes(&fn, nums, k, &sb);
	assert_string_equal(sb.buf, "over-link;noisy");
	free(nums);
	strbuf_release(&sb);
	footnotes_release(&fn);
	result_set_release(&rs);
}

/* The pivot keeps each cell's measurements; the marks land on them. */
static void test_pivot_cells_marked(void **state)
{
	static char k_op[] = "op";
	char *rows[] = { k_op, NULL };
	struct pivot_options po;
	struct result_set rs;
	struct footnotes fn;
	struct fmt_table t;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct pivot pv;
	const size_t *mi;
	size_t n;

	(void)state;
	sample(&rs);
	memset(&po, 0, sizeof(po));
	po.metric = "bw";
	po.row_keys = rows;
	po.nrow_keys = 1;
	po.stat = PIVOT_MEAN;
	assert_int_equal(pivot_build(&pv, &rs, &po, &err), 0);
	/* rows in benchmark order: read, randread, write */
	mi = pivot_cell_members(&pv, 0, 0, &n);
	assert_int_equal(n, 1);
	assert_int_equal(mi[0], OVER_LINK);
	mi = pivot_cell_members(&pv, 1, 0, &n);
	assert_int_equal(n, 1);
	assert_int_equal(mi[0], CLEAN);
	mi = pivot_cell_members(&pv, 2, 0, &n);
	assert_int_equal(n, 1);
	assert_int_equal(mi[0], NOISY);

	footnotes_init(&fn, CHECK_WARNING);
	checked(&fn, &rs);
	pivot_to_fmt(&pv, NULL, 0.05, &t);
	for (size_t r = 0; r < pv.nrows; r++) {
		mi = pivot_cell_members(&pv, r, 0, &n);
		footnotes_mark_cell(&fn, &t, r, 1, 0, mi, n);
	}
	footnotes_to_fmt(&fn, &t);
	fmt_render(&t, FMT_TEXT, 0, &out);
	assert_string_equal(out.buf,
		"bw mean (MB/s)\n\n"
		"op        bw (MB/s)\n"
		"read        2600 \xe2\x80\xa0" "1\n"
		"write          1500\n"
		"randread     200 \xe2\x80\xa0" "2\n"
		"\n"
		"\xe2\x80\xa0" "1 typed.csv:2: warning: over-link: read of "
		"2.60 GB/s exceeds the 2.00 GB/s a PCIe 2.0 x4 link can "
		"carry\n"
		"\xe2\x80\xa0" "2 typed.csv:4: warning: noisy: randread bw "
		"varies by 50% (coefficient of variation) over 3 runs, from "
		"100 MB/s to 300 MB/s, more than 10%: one figure does not "
		"describe it\n");
	strbuf_reset(&out);
	fmt_render(&t, FMT_CSV, 0, &out);
	assert_string_equal(out.buf, "op,bw\nread,2600000000\n"
			    "write,1500000000\nrandread,200000000\n");
	strbuf_reset(&out);
	fmt_render(&t, FMT_MD, 0, &out);
	assert_non_null(strstr(out.buf, "| read | 2600 \xe2\x80\xa0" "1 |\n"));
	assert_non_null(strstr(out.buf, "| write | 1500 |\n"));
	assert_non_null(strstr(out.buf, "|\n\n\xe2\x80\xa0" "1 typed.csv:2: "
				       "warning: over-link: "));
	strbuf_reset(&out);
	fmt_render(&t, FMT_HTML, 0, &out);
	assert_non_null(strstr(out.buf, "<td class=\"num\">2600<sup class=\""
				       "fn\">\xe2\x80\xa0" "1</sup></td>"));
	assert_non_null(strstr(out.buf, "<p class=\"footnote\"><sup>"
				       "\xe2\x80\xa0" "2</sup> typed.csv:4: "));
	strbuf_reset(&out);
	fmt_render(&t, FMT_JSON, 0, &out);
	assert_non_null(strstr(out.buf, "\"findings\": {\n    \"bw\": [\n"
				       "     1\n    ]"));
	assert_non_null(strstr(out.buf, "\"footnotes\": [\n  {\n   \"n\": 1,"
				       "\n   \"source\": \"typed.csv\",\n   "
				       "\"line\": 2,\n   \"severity\": "
				       "\"warning\",\n   \"code\": "
				       "\"over-link\""));
	strbuf_reset(&out);
	footnotes_render(&fn, FMT_TEXT, &out);
	assert_int_equal(strncmp(out.buf, "\xe2\x80\xa0" "1 typed.csv:2: ", 17),
			 0);
	assert_non_null(strstr(out.buf, "\n\xe2\x80\xa0" "2 typed.csv:4: "));
	strbuf_reset(&out);
	footnotes_render(&fn, FMT_CSV, &out);
	assert_int_equal(out.len, 0);

	fmt_table_release(&t);
	footnotes_release(&fn);
	pivot_release(&pv);
	strbuf_release(&out);
	strbuf_release(&err);
	result_set_release(&rs);
}

/* A column that is itself called "findings" keeps its value in JSON. */
static void test_json_key_collision(void **state)
{
	struct fmt_table t;
	struct strbuf out = STRBUF_INIT;
	const unsigned one[] = { 1 };

	(void)state;
	fmt_table_init(&t, NULL);
	fmt_table_add_column(&t, "findings", NULL, 1);
	fmt_table_add_row(&t);
	fmt_table_set_number(&t, 0, 0, 7, NULL);
	fmt_table_set_notes(&t, 0, 0, one, 1);
	fmt_table_add_footnote(&t, 1, "a.txt", 3, "warning", "noisy", "m");
	fmt_render(&t, FMT_JSON, 0, &out);
	assert_non_null(strstr(out.buf, "\"findings\": 7,"));
	assert_non_null(strstr(out.buf, "\"_findings\": {"));
	/* setting the value again clears the marks */
	fmt_table_set_number(&t, 0, 0, 8, NULL);
	strbuf_reset(&out);
	fmt_render(&t, FMT_TEXT, 0, &out);
	assert_string_equal(out.buf, "findings\n       8\n\n"
			    "\xe2\x80\xa0" "1 a.txt:3: warning: noisy: m\n");
	fmt_table_release(&t);
	strbuf_release(&out);
}

/*
 * Four sets checked at once (each on a thread when there are CPUs) give
 * the findings and ids that four footnotes_check() calls give; an
 * unknown link fails, adding no set.
 */
static void test_check_sets_as_one_by_one(void **state)
{
	struct footnotes one, all;
	struct result_set rs[4];
	struct check_options opt;
	struct footnotes_pending pending[4];
	struct strbuf err = STRBUF_INIT;
	size_t set;

	(void)state;
	for (size_t i = 0; i < 4; i++)
		sample(&rs[i]);
	labels_set(&rs[2].m[CLEAN].labels, "link", "sata3");	/* differs */
	check_options_init(&opt);
	opt.ram = 16.0 * 1024 * 1024 * 1024;
	footnotes_init(&one, CHECK_INFO);
	footnotes_init(&all, CHECK_INFO);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(footnotes_check(&one, &rs[i], &opt, &set,
						 &err), 0);
		assert_int_equal(set, i);
	}
	for (size_t i = 0; i < 4; i++)
		footnotes_check_start(&pending[i], &rs[i], &opt);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(footnotes_check_finish(&all, &pending[i],
							&set, &err), 0);
		assert_int_equal(set, i);
	}
	assert_int_equal(all.nsets, 4);
	for (size_t i = 0; i < 4; i++) {
		const struct check_list *a = &one.sets[i].findings;
		const struct check_list *b = &all.sets[i].findings;

		assert_int_equal(a->n, b->n);
		for (size_t f = 0; f < a->n; f++) {
			assert_string_equal(a->v[f].code, b->v[f].code);
			assert_string_equal(a->v[f].message, b->v[f].message);
		}
	}
	opt.link = "no-such-link";
	footnotes_check_start(&pending[0], &rs[0], &opt);
	assert_int_equal(footnotes_check_finish(&all, &pending[0], &set,
						&err), -1);
	assert_non_null(strstr(err.buf, "no-such-link"));
	assert_int_equal(all.nsets, 4);
	footnotes_release(&one);
	footnotes_release(&all);
	for (size_t i = 0; i < 4; i++)
		result_set_release(&rs[i]);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_in_citing_order),
		cmocka_unit_test(test_level_all_cites_infos),
		cmocka_unit_test(test_set_with_nothing_to_cite),
		cmocka_unit_test(test_same_finding_two_sets),
		cmocka_unit_test(test_marker_and_codes),
		cmocka_unit_test(test_pivot_cells_marked),
		cmocka_unit_test(test_json_key_collision),
		cmocka_unit_test(test_check_sets_as_one_by_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
