/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Tests of the pivot and ratio model (analysis/table.c) and of the table
 * renderers (analysis/format.c): cells, ordering, pooling, what is left
 * out, and the exact CSV/Markdown a user gets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/format.h"
#include "analysis/table.h"
#include "core/human.h"
#include "core/strbuf.h"

static char k_bs[] = "bs", k_op[] = "op", k_host[] = "host";
static char k_section[] = "section";

static void add(struct result_set *rs, const char *op, const char *bs,
		const char *kind, const double *v, size_t n)
{
	struct measurement *m = result_set_add(rs, "fio", op, "bw", "B/s");

	labels_set(&m->labels, "bs", bs);
	if (kind)
		labels_set(&m->labels, "kind", kind);
	for (size_t i = 0; i < n; i++)
		measurement_add_value(m, v[i]);
}

/* read and write at three block sizes, added out of order. */
static void sample_set(struct result_set *rs)
{
	static const double r1m[] = { 1000e6, 1010e6 }, r4k[] = { 100e6 };
	static const double w4k[] = { 80e6, 90e6, 100e6 }, r64k[] = { 500e6 };
	static const double w1m[] = { 900e6 };

	result_set_init(rs);
	add(rs, "write", "4096", NULL, w4k, 3);
	add(rs, "read", "1048576", NULL, r1m, 2);
	add(rs, "read", "4096", NULL, r4k, 1);
	add(rs, "read", "65536", NULL, r64k, 1);
	add(rs, "write", "1048576", NULL, w1m, 1);
}

static void opts(struct pivot_options *o, char **rows, char **cols,
		 size_t ncols)
{
	memset(o, 0, sizeof(*o));
	o->metric = "bw";
	o->row_keys = rows;
	o->nrow_keys = 1;
	o->col_keys = cols;
	o->ncol_keys = ncols;
	o->stat = PIVOT_MEAN;
}

static void test_pivot_cells_and_order(void **state)
{
	static char *rows[] = { k_bs }, *cols[] = { k_op };
	struct result_set rs;
	struct pivot_options o;
	struct pivot pv;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	sample_set(&rs);
	opts(&o, rows, cols, 1);
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	assert_int_equal(pv.nrows, 3);
	assert_int_equal(pv.ncols, 2);
	/* numeric keys by value, ops in benchmark order */
	assert_string_equal(pv.row_vals[0], "4096");
	assert_string_equal(pv.row_vals[1], "65536");
	assert_string_equal(pv.row_vals[2], "1048576");
	assert_string_equal(pv.col_vals[0], "read");
	assert_string_equal(pv.col_vals[1], "write");
	assert_true(fabs(pivot_cell(&pv, 0, 1)->value - 90e6) < 1e-3);
	assert_true(fabs(pivot_cell(&pv, 2, 0)->value - 1005e6) < 1e-3);
	assert_true(isnan(pivot_cell(&pv, 1, 1)->value));
	assert_int_equal(pv.used, 5);
	assert_int_equal(pv.mixed_cells, 0);
	assert_string_equal(pv.unit, "B/s");
	pivot_release(&pv);
	result_set_release(&rs);
	strbuf_release(&err);
}

static void test_pivot_stats(void **state)
{
	static char *rows[] = { k_bs }, *cols[] = { k_op };
	static const enum pivot_stat stat[] = { PIVOT_MEDIAN, PIVOT_MIN,
						PIVOT_MAX, PIVOT_N, PIVOT_CV };
	static const double want[] = { 90e6, 80e6, 100e6, 3,
				       10e6 / 90e6 * 100 };
	struct result_set rs;
	struct pivot_options o;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	sample_set(&rs);
	opts(&o, rows, cols, 1);
	for (size_t i = 0; i < sizeof(stat) / sizeof(*stat); i++) {
		struct pivot pv;

		o.stat = stat[i];
		assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
		assert_true(fabs(pivot_cell(&pv, 0, 1)->value - want[i]) <=
			    1e-9 * want[i]);
		pivot_release(&pv);
	}
	result_set_release(&rs);
	strbuf_release(&err);
}

static void test_pivot_mixed_and_lacking(void **state)
{
	static char *rows[] = { k_bs };
	static const double v[] = { 1 };
	struct result_set rs;
	struct pivot_options o;
	struct pivot pv;
	struct strbuf err = STRBUF_INIT;
	struct measurement *m;

	(void)state;
	sample_set(&rs);
	m = result_set_add(&rs, "fio", "read", "bw", "B/s");
	measurement_add_value(m, v[0]);	/* no bs label */
	opts(&o, rows, NULL, 0);
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	assert_int_equal(pv.ncols, 1);
	assert_int_equal(pv.lacking, 1);
	assert_string_equal(pv.lacking_key, "bs");
	/* 4096 and 1M pool a read with a write: said, not hidden */
	assert_int_equal(pv.mixed_cells, 2);
	assert_string_equal(pv.mix_key, "op");
	pivot_release(&pv);
	result_set_release(&rs);
	strbuf_release(&err);
}

/*
 * The headings of one post (BEFORE:/AFTER:, ## ext4 / ## btrfs) are its
 * parts: the same test under two of them is two tests, and a cell that
 * pools them is mixed, as fixture context/0012 gave with hdparm -t on
 * /dev/sda, 99.67 MB/sec before and 199.87 after, shown as one 157.
 * Between inputs a section is provenance and pools (other headings of
 * other posts).
 */
static void test_pivot_sections_of_one_input(void **state)
{
	static char *rows[] = { k_bs };
	static const double v[] = { 104511569.92, 209578885.12 };
	struct result_set rs;
	struct pivot_options o;
	struct pivot pv;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	add(&rs, "read", "4096", NULL, v, 1);
	labels_set(&rs.m[0].labels, "section", "BEFORE");
	add(&rs, "read", "4096", NULL, v + 1, 1);
	labels_set(&rs.m[1].labels, "section", "AFTER");
	opts(&o, rows, NULL, 0);
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	assert_int_equal(pv.mixed_cells, 1);
	assert_string_equal(pv.mix_key, "section");
	assert_string_equal(pv.mix_a, "BEFORE");
	assert_string_equal(pv.mix_b, "AFTER");
	pivot_release(&pv);
	/* a heading over one output only, none over the other: mixed too */
	labels_release(&rs.m[0].labels);
	labels_init(&rs.m[0].labels);
	labels_set(&rs.m[0].labels, "bs", "4096");
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	assert_int_equal(pv.mixed_cells, 1);
	assert_string_equal(pv.mix_a, "(none)");
	pivot_release(&pv);
	/* two inputs under two headings: two setups all the same (the
	 * experiment model pools no sections) */
	labels_set(&rs.m[0].labels, "section", "BEFORE");
	rs.m[1].source = 1;
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	assert_int_equal(pv.mixed_cells, 1);
	assert_string_equal(pv.mix_key, "section");
	pivot_release(&pv);
	/* on an axis, sections are rows of their own */
	rs.m[1].source = 0;
	rows[0] = k_section;
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	rows[0] = k_bs;
	assert_int_equal(pv.mixed_cells, 0);
	assert_int_equal(pv.nrows, 2);
	pivot_release(&pv);
	result_set_release(&rs);
	strbuf_release(&err);
}

static void test_pivot_provenance_pools(void **state)
{
	static char *rows[] = { k_bs };
	static const double v[] = { 10, 20 };
	struct result_set rs;
	struct pivot_options o;
	struct pivot pv;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	add(&rs, "read", "4096", NULL, v, 1);
	labels_set(&rs.m[0].labels, "command", "fio a.fio");
	add(&rs, "read", "4096", NULL, v + 1, 1);
	labels_set(&rs.m[1].labels, "command", "fio b.fio");
	opts(&o, rows, NULL, 0);
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	assert_int_equal(pv.mixed_cells, 0);
	assert_int_equal(pivot_cell(&pv, 0, 0)->st[0].n, 2);
	assert_true(fabs(pivot_cell(&pv, 0, 0)->value - 15) < 1e-12);
	pivot_release(&pv);
	result_set_release(&rs);
	strbuf_release(&err);
}

static void test_pivot_errors(void **state)
{
	static char *rows[] = { k_bs }, *nokey[] = { k_host };
	struct result_set rs;
	struct pivot_options o;
	struct pivot pv;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	sample_set(&rs);
	opts(&o, rows, NULL, 0);
	o.metric = "iops";
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), -1);
	assert_string_equal(err.buf, "no 'iops' measurement matches");
	pivot_release(&pv);
	strbuf_reset(&err);
	opts(&o, nokey, NULL, 0);
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), -1);
	assert_string_equal(err.buf,
			    "no 'bw' measurement has every row and column key");
	pivot_release(&pv);
	strbuf_reset(&err);
	measurement_set_key(&rs.m[0], rs.m[0].tool, rs.m[0].op,
			    rs.m[0].metric, "MB/s");
	opts(&o, rows, NULL, 0);
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), -1);
	assert_non_null(strstr(err.buf, "two units"));
	pivot_release(&pv);
	result_set_release(&rs);
	strbuf_release(&err);
}

static void test_ratio_parse(void **state)
{
	char *k, *a, *b;

	(void)state;
	assert_int_equal(pivot_ratio_parse("kind=file/kind=block", &k, &a, &b),
			 0);
	assert_string_equal(k, "kind");
	assert_string_equal(a, "file");
	assert_string_equal(b, "block");
	free(k);
	free(a);
	free(b);
	assert_int_equal(pivot_ratio_parse("device=/dev/sda/device=/dev/sdb",
					   &k, &a, &b), 0);
	assert_string_equal(a, "/dev/sda");
	assert_string_equal(b, "/dev/sdb");
	free(k);
	free(a);
	free(b);
	assert_int_equal(pivot_ratio_parse("kind=file/host=b", &k, &a, &b),
			 -1);
	assert_int_equal(pivot_ratio_parse("kind=file", &k, &a, &b), -1);
	assert_int_equal(pivot_ratio_parse("=a/=b", &k, &a, &b), -1);
	assert_int_equal(pivot_ratio_parse("k=a/k=", &k, &a, &b), -1);
	assert_int_equal(pivot_ratio_parse("k=/k=b", &k, &a, &b), -1);
}

static void test_ratio_cells(void **state)
{
	static char *rows[] = { k_bs };
	static const double blk4[] = { 101.2, 99.8, 100.5 };
	static const double fil4[] = { 80.3, 81.1, 79.6 };
	static const double blk64[] = { 502.0, 497.5, 505.1 };
	static const double fil64[] = { 501.2, 498.8, 150.4 };
	static const double blk1m[] = { 1000 };
	struct result_set rs;
	struct pivot_options o;
	struct pivot pv;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	add(&rs, "read", "4096", "block", blk4, 3);
	add(&rs, "read", "4096", "file", fil4, 3);
	add(&rs, "read", "65536", "block", blk64, 3);
	add(&rs, "read", "65536", "file", fil64, 3);
	add(&rs, "read", "1048576", "block", blk1m, 1);
	add(&rs, "read", "1048576", "other", blk1m, 1);
	opts(&o, rows, NULL, 0);
	o.ratio_key = "kind";
	o.ratio_num = "file";
	o.ratio_den = "block";
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	assert_int_equal(pv.nrows, 3);
	assert_true(fabs(pivot_cell(&pv, 0, 0)->value -
			 (241.0 / 3) / (301.5 / 3)) < 1e-12);
	/* p-values as in test-stats.c (mpmath) */
	assert_true(fabs(pivot_cell(&pv, 0, 0)->p - 4.6614998541e-06) <
		    1e-12);
	assert_true(fabs(pivot_cell(&pv, 1, 0)->p - 0.41762899421832) <
		    1e-9);
	assert_true(isnan(pivot_cell(&pv, 2, 0)->value));
	assert_int_equal(pv.half_cells, 1);
	/* kind=other is in neither group */
	assert_int_equal(pv.used, 5);
	pivot_release(&pv);
	result_set_release(&rs);
	strbuf_release(&err);
}

static void render(const struct pivot *pv, enum fmt_kind k,
		   const struct display_unit *u, struct strbuf *out)
{
	struct fmt_table t;

	pivot_to_fmt(pv, u, 0.05, &t);
	strbuf_reset(out);
	fmt_render(&t, k, 0, out);
	fmt_table_release(&t);
}

static void test_render(void **state)
{
	static char *rows[] = { k_bs }, *cols[] = { k_op };
	struct result_set rs;
	struct pivot_options o;
	struct pivot pv;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct display_unit mib = { "MiB/s", 1048576.0 };

	(void)state;
	sample_set(&rs);
	opts(&o, rows, cols, 1);
	assert_int_equal(pivot_build(&pv, &rs, &o, &err), 0);
	render(&pv, FMT_CSV, NULL, &out);
	assert_string_equal(out.buf,
			    "bs,read,write\n"
			    "4096,100000000,90000000\n"
			    "65536,500000000,\n"
			    "1048576,1005000000,900000000\n");
	render(&pv, FMT_MD, NULL, &out);
	assert_string_equal(out.buf,
			    "**bw mean (MB/s)**\n\n"
			    "| bs | read (MB/s) | write (MB/s) |\n"
			    "|---:|---:|---:|\n"
			    "| 4K | 100 | 90.0 |\n"
			    "| 64K | 500 | - |\n"
			    "| 1M | 1005 | 900 |\n");
	render(&pv, FMT_CSV, &mib, &out);
	assert_string_equal(out.buf + strlen("bs,read,write\n"),
			    "4096,95.367431640625,85.8306884765625\n"
			    "65536,476.837158203125,\n"
			    "1048576,958.442687988281,858.306884765625\n");
	render(&pv, FMT_TEXT, &mib, &out);
	assert_string_equal(out.buf,
			    "bw mean (MiB/s)\n\n"
			    " bs  read (MiB/s)  write (MiB/s)\n"
			    " 4K          95.4           85.8\n"
			    "64K           477              -\n"
			    " 1M           958            858\n");
	render(&pv, FMT_HTML, NULL, &out);
	assert_non_null(strstr(out.buf, "<th class=\"num\">read (MB/s)</th>"));
	assert_non_null(strstr(out.buf, "<td class=\"num\">4K</td>"));
	render(&pv, FMT_JSON, NULL, &out);
	assert_non_null(strstr(out.buf, "\"bs\": 65536,"));
	assert_non_null(strstr(out.buf, "\"write\": null"));
	pivot_release(&pv);
	result_set_release(&rs);
	strbuf_release(&err);
	strbuf_release(&out);
}

static void test_fmt_escaping(void **state)
{
	struct fmt_table t;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	fmt_table_init(&t, NULL);
	fmt_table_add_column(&t, "labels", "labels", 0);
	fmt_table_add_column(&t, "x", "x", 1);
	fmt_table_add_row(&t);
	fmt_table_set_cell(&t, 0, 0, "a|b \"<c>\"", NULL);
	fmt_table_set_number(&t, 0, 1, 0.1, "0.10");
	fmt_table_set_style(&t, 0, 1, FMT_BAD);
	fmt_render(&t, FMT_CSV, 0, &out);
	assert_string_equal(out.buf, "labels,x\n\"a|b \"\"<c>\"\"\",0.1\n");
	strbuf_reset(&out);
	fmt_render(&t, FMT_MD, 0, &out);
	assert_non_null(strstr(out.buf, "| a\\|b \"&lt;c>\" | 0.10 |"));
	strbuf_reset(&out);
	fmt_render(&t, FMT_HTML, 0, &out);
	assert_non_null(strstr(out.buf, "<td>a|b &quot;&lt;c&gt;&quot;</td>"));
	assert_non_null(strstr(out.buf, "<td class=\"num bad\">0.10</td>"));
	strbuf_reset(&out);
	fmt_render(&t, FMT_TEXT, 1, &out);
	assert_non_null(strstr(out.buf, "\033[1;31m0.10\033[0m"));
	fmt_table_release(&t);
	strbuf_release(&out);
}

/*
 * A title is Markdown text too: compare's names the inputs and their
 * identity labels ("baseline a*b.json (dev=x<y>) vs ..."), where a '<'
 * opened an HTML tag that swallowed the label and a '*' started emphasis.
 */
static void test_md_title_escaped(void **state)
{
	struct fmt_table t;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	fmt_table_init(&t, "baseline a*b.json (dev=x<y>) vs candidate c.json");
	fmt_table_add_column(&t, "x", "x", 1);
	fmt_table_add_row(&t);
	fmt_table_set_number(&t, 0, 0, 1, "1");
	fmt_render(&t, FMT_MD, 0, &out);
	assert_non_null(strstr(out.buf, "**baseline a\\*b.json (dev=x&lt;y>) "
			       "vs candidate c.json**\n"));
	strbuf_reset(&out);
	fmt_render(&t, FMT_HTML, 0, &out);
	assert_non_null(strstr(out.buf, "(dev=x&lt;y&gt;)"));
	fmt_table_release(&t);
	strbuf_release(&out);
}

/* Text columns line up under wide (CJK) labels: two columns each. */
static void test_text_width_of_wide_labels(void **state)
{
	struct fmt_table t;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	fmt_table_init(&t, NULL);
	fmt_table_add_column(&t, "host", "host", 0);
	fmt_table_add_column(&t, "x", "x", 1);
	fmt_table_add_row(&t);
	fmt_table_set_cell(&t, 0, 0, "abcdef", NULL);
	fmt_table_set_number(&t, 0, 1, 1, "1.00");
	fmt_table_add_row(&t);
	fmt_table_set_cell(&t, 1, 0, "\u65e5\u672c\u8a9e", NULL);	/* 6 wide */
	fmt_table_set_number(&t, 1, 1, 2, "2.00");
	fmt_render(&t, FMT_TEXT, 0, &out);
	assert_non_null(strstr(out.buf, "abcdef  1.00\n"));
	assert_non_null(strstr(out.buf, "\u65e5\u672c\u8a9e  2.00\n"));
	fmt_table_release(&t);
	strbuf_release(&out);
}

/* Figures in a display unit: digits as the size asks, never a cut one. */
static void test_human_format(void **state)
{
	struct display_unit gb = { "GB/s", 1e9 }, us = { "us", 1e-6 };
	char buf[32];

	(void)state;
	assert_string_equal(human_format(1.5e9, &gb, buf, sizeof(buf)), "1.50");
	assert_string_equal(human_format(523e9, &gb, buf, sizeof(buf)), "523");
	assert_string_equal(human_format(7.5e-6, &us, buf, sizeof(buf)), "7.50");
	assert_string_equal(human_format(NAN, &gb, buf, sizeof(buf)), "-");
	/* 1e308 B/s: once a 32-byte cut of 1e299's 300 digits */
	assert_string_equal(human_format(1e308, &gb, buf, sizeof(buf)),
			    "1e+299");
}

/* human_sig(): the same digits below 1e15, every digit above (charts). */
static void test_human_sig(void **state)
{
	static const struct { double x; const char *want; } cases[] = {
		{ 1234567, "1234567" }, { 239, "239" }, { 100, "100" },
		{ 99.96, "100.0" }, { 61.23, "61.2" }, { 10, "10.0" },
		{ 1.254, "1.25" }, { 1, "1.00" }, { 0.01234, "0.0123" },
		{ 0, "0" }, { -61.23, "-61.2" }, { NAN, "-" },
		{ 1e15, "1000000000000000" },
	};
	struct display_unit one = { "B/s", 1 };
	char buf[32], ref[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(human_sig(cases[i].x, buf, sizeof(buf)),
				    cases[i].want);
		if (!(fabs(cases[i].x) >= 1e15))
			assert_string_equal(human_format(cases[i].x, &one, ref,
							 sizeof(ref)), buf);
	}
	assert_string_equal(human_format(1e15, &one, buf, sizeof(buf)),
			    "1e+15");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pivot_cells_and_order),
		cmocka_unit_test(test_human_format),
		cmocka_unit_test(test_human_sig),
		cmocka_unit_test(test_text_width_of_wide_labels),
		cmocka_unit_test(test_pivot_stats),
		cmocka_unit_test(test_pivot_mixed_and_lacking),
		cmocka_unit_test(test_pivot_provenance_pools),
		cmocka_unit_test(test_pivot_sections_of_one_input),
		cmocka_unit_test(test_pivot_errors),
		cmocka_unit_test(test_ratio_parse),
		cmocka_unit_test(test_ratio_cells),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_fmt_escaping),
		cmocka_unit_test(test_md_title_escaped),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
