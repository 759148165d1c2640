/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's logs (parsers/fio-log.c): a log read whole from its raw text
 * gives what its cut lines give; per-I/O logs in windows, a stall as
 * zeros; the latency unit by fio version; the note said once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/resultset.h"
#include "core/rs-json.h"
#include "core/series.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "parsers/parser.h"

/* The result set of text named name, as JSON, read cut or whole. */
static int ingest_text(const char *name, const char *text, size_t len,
		       int whole, const struct ingest_options *opt,
		       struct strbuf *json, struct diag_list *diags)
{
	struct input in;
	struct result_set rs;
	int rc;

	if (whole) {
		char *copy = xmalloc(len + 1);

		memcpy(copy, text, len);
		copy[len] = '\0';
		input_init_bare(&in, name, copy, len);
		assert_true(ingest_may_read_whole(&in));
		input_finish_uncut(&in);
	} else {
		input_from_buffer(&in, name, text, len);
	}
	result_set_init(&rs);
	rc = ingest_input(&in, opt, &rs, diags);
	for (size_t i = 0; i < rs.nsources; i++)	/* hashed the same */
		memset(rs.sources[i].sha256, 0, sizeof(rs.sources[i].sha256));
	rs_json_write(&rs, json);
	result_set_release(&rs);
	input_release(&in);
	return rc;
}

static char *slurp(const char *path, size_t *len)
{
	struct strbuf err = STRBUF_INIT;
	struct input in;
	char *copy;

	assert_int_equal(input_read(&in, path, &err), 0);
	copy = xmalloc(in.size + 1);
	memcpy(copy, in.data, in.size + 1);
	*len = in.size;
	input_release(&in);
	strbuf_release(&err);
	return copy;
}

static void test_whole_equals_cut(void **state)
{
	static const char *const files[] = {
		"0001-rw_bw.1.log", "0003-rw_iops.1.log", "0004-rw_clat.1.log",
		"0006-rw_clat_hist.1.log", "0011-raw_bw.1.log",
		"0012-raw_iops.1.log", "0013-raw_clat.1.log",
		"0016-p_clat.1.log", "1002-bad-x_bw-direction.1.log",
		"1004-bad-x_clat-last-line-cut.1.log",
	};
	struct ingest_options opt;

	(void)state;
	memset(&opt, 0, sizeof(opt));
	opt.fio_version = "3.33";
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		struct strbuf path = STRBUF_INIT;
		struct diag_list da, db;
		size_t len;
		char *text;
		int ra, rb;

		strbuf_addf(&path, "tests/parsers/fio-log/%s", files[i]);
		text = slurp(path.buf, &len);
		diag_list_init(&da);
		diag_list_init(&db);
		ra = ingest_text(files[i], text, len, 0, &opt, &a, &da);
		rb = ingest_text(files[i], text, len, 1, &opt, &b, &db);
		assert_int_equal(ra, rb);
		assert_int_equal(da.n, db.n);
		if (strcmp(a.buf, b.buf))
			fail_msg("%s: whole and cut differ", files[i]);
		if (!strstr(a.buf, "\"series\""))
			fail_msg("%s: no series", files[i]);
		diag_list_release(&da);
		diag_list_release(&db);
		strbuf_release(&a);
		strbuf_release(&b);
		strbuf_release(&path);
		free(text);
	}
}

/* Reads a log and returns its result set (caller releases). */
static void read_log(const char *name, const char *text,
		     const struct ingest_options *opt, struct result_set *rs,
		     struct diag_list *diags)
{
	struct input in;

	input_from_buffer(&in, name, text, strlen(text));
	result_set_init(rs);
	diag_list_init(diags);
	ingest_input(&in, opt, rs, diags);
	input_release(&in);
}

/* Per-I/O bw log, 4 KiB I/Os: 3 in [0,1) s, none in [1,3), 2 in [3,4). */
static void test_raw_stall(void **state)
{
	static const char log[] =
		"10, 9000, 0, 4096, 0, 0\n"
		"10, 9100, 0, 4096, 4096, 0\n"
		"400, 8000, 0, 4096, 8192, 0\n"
		"3100, 9000, 0, 4096, 0, 0\n"
		"3900, 9000, 0, 4096, 0, 0\n";
	struct result_set rs;
	struct diag_list diags;
	const struct series *s;

	(void)state;
	read_log("x_bw.1.log", log, NULL, &rs, &diags);
	assert_int_equal(rs.n, 1);
	s = rs.m[0].series;
	assert_non_null(s);
	assert_int_equal(s->n, 4);
	assert_float_equal(s->interval, 1, 0);
	assert_float_equal(s->t[0], 1, 0);
	assert_float_equal(s->v[0], 3 * 4096, 0);
	assert_float_equal(s->v[1], 0, 0);	/* the stall */
	assert_float_equal(s->v[2], 0, 0);
	assert_float_equal(s->t[3], 4, 0);
	/* the last window covers 900 ms: 2 I/Os over 0.9 s */
	assert_float_equal(s->v[3], 2 * 4096 / 0.9, 1e-6);
	/* one run: one value, the log's bytes over the time to its last
	 * I/O (5 I/Os of 4 KiB over 3.9 s), not one per window */
	assert_int_equal(rs.m[0].n, 1);
	assert_float_equal(rs.m[0].values[0], 5 * 4096 / 3.9, 1e-6);
	result_set_release(&rs);
	diag_list_release(&diags);
}

/* Per-I/O latency: every I/O's figures, as fio's JSON has them. */
static void test_raw_latency_summary(void **state)
{
	static const char log[] =
		"10, 1000, 1, 4096, 0, 0\n"
		"20, 3000, 1, 4096, 0, 0\n"
		"1500, 2000, 1, 4096, 0, 0\n";
	struct ingest_options opt;
	struct result_set rs;
	struct diag_list diags;
	const struct measurement *m;

	(void)state;
	memset(&opt, 0, sizeof(opt));
	opt.fio_version = "fio-2.17";	/* usec */
	read_log("x_clat.1.log", log, &opt, &rs, &diags);
	/* one run: mean, min, max, stddev over every I/O, n = 1 each */
	assert_int_equal(rs.n, 4);
	m = &rs.m[0];
	assert_string_equal(m->op, "write");
	assert_string_equal(m->metric, "clat.mean");
	assert_int_equal(m->n, 1);
	assert_false(measurement_summary(m)->present);
	assert_float_equal(m->values[0], 2e-3, 1e-15);
	assert_string_equal(rs.m[1].metric, "clat.min");
	assert_float_equal(rs.m[1].values[0], 1e-3, 0);
	assert_string_equal(rs.m[2].metric, "clat.max");
	assert_float_equal(rs.m[2].values[0], 3e-3, 0);
	assert_string_equal(rs.m[3].metric, "clat.stddev");
	assert_float_equal(rs.m[3].values[0], 1e-3, 1e-15);
	for (size_t k = 1; k < 4; k++) {
		assert_int_equal(rs.m[k].n, 1);
		assert_null(rs.m[k].series);
	}
	assert_int_equal(m->series->n, 2);
	assert_float_equal(m->series->v[0], 2e-3, 1e-15);
	assert_float_equal(m->series->v[1], 2e-3, 1e-15);
	assert_int_equal(diags.n, 0);
	result_set_release(&rs);
	diag_list_release(&diags);
}

/* Without a version: 3.x, and the note once for several logs. */
static void test_assumed_once(void **state)
{
	static const char log[] = "1000, 1500, 0, 0, 0\n2000, 2500, 0, 0, 0\n";
	struct ingest_options opt;
	atomic_int noted = 0;
	size_t notes = 0;

	(void)state;
	memset(&opt, 0, sizeof(opt));
	opt.fio_assume_noted = &noted;
	for (int k = 0; k < 3; k++) {
		struct result_set rs;
		struct diag_list diags;

		read_log("x_lat.1.log", log, &opt, &rs, &diags);
		assert_int_equal(rs.n, 1);
		assert_float_equal(rs.m[0].values[0], 2e-6, 1e-20);	/* the mean */
		notes += diags.n;
		result_set_release(&rs);
		diag_list_release(&diags);
	}
	assert_int_equal(notes, 1);
}

/* An averaged log (log_avg_msec): one value, the mean of its samples;
 * the samples are the series. */
static void test_averaged_one_run(void **state)
{
	static const char log[] =
		"1000, 100, 0, 0, 0\n1000, 10, 1, 0, 0\n"
		"2000, 200, 0, 0, 0\n2000, 30, 1, 0, 0\n"
		"3000, 600, 0, 0, 0\n";
	struct result_set rs;
	struct diag_list diags;

	(void)state;
	read_log("x_iops.1.log", log, NULL, &rs, &diags);
	assert_int_equal(rs.n, 2);
	assert_string_equal(rs.m[0].op, "read");
	assert_int_equal(rs.m[0].n, 1);
	assert_float_equal(rs.m[0].values[0], 300, 0);
	assert_int_equal(rs.m[0].series->n, 3);
	assert_float_equal(rs.m[0].series->v[2], 600, 0);
	assert_string_equal(rs.m[1].op, "write");
	assert_int_equal(rs.m[1].n, 1);
	assert_float_equal(rs.m[1].values[0], 20, 0);
	assert_int_equal(rs.m[1].series->n, 2);
	result_set_release(&rs);
	diag_list_release(&diags);
}

/* log_window_value=both: "time, mean, max, direction, bs, offset, prio"
 * gives the mean and, apart, the max; a plain log with log_offset whose
 * values are at most its direction (a stall: 0) is not taken for one. */
static void test_window_both(void **state)
{
	static const char both[] =
		"1000, 200, 300, 1, 0, 0, 0\n2000, 400, 900, 1, 0, 0, 0\n";
	static const char plain[] =
		"1000, 0, 1, 0, 0, 0\n2000, 2, 1, 0, 0, 0\n";
	struct result_set rs;
	struct diag_list diags;

	(void)state;
	read_log("x_iops.1.log", both, NULL, &rs, &diags);
	assert_int_equal(diags.n, 0);
	assert_int_equal(rs.n, 2);
	assert_string_equal(rs.m[0].op, "write");
	assert_string_equal(rs.m[0].metric, "iops");
	assert_float_equal(rs.m[0].values[0], 300, 0);
	assert_string_equal(rs.m[1].metric, "iops.max");
	assert_float_equal(rs.m[1].values[0], 900, 0);
	assert_int_equal(rs.m[1].series->n, 2);
	assert_float_equal(rs.m[1].series->v[0], 300, 0);
	result_set_release(&rs);
	diag_list_release(&diags);

	read_log("x_iops.1.log", plain, NULL, &rs, &diags);
	assert_int_equal(diags.n, 0);
	assert_int_equal(rs.n, 1);
	assert_string_equal(rs.m[0].op, "write");
	assert_float_equal(rs.m[0].values[0], 1, 0);
	result_set_release(&rs);
	diag_list_release(&diags);
}

/* Lines that fit both layouts (maxima of 2 or less: an IOPS log of a
 * job doing 1 or 2 I/Os a second) are read plain, and a note says so. */
static void test_window_both_ambiguous(void **state)
{
	static const char either[] =
		"1000, 1, 2, 0, 0, 0\n2000, 0, 1, 0, 0, 0\n";
	struct result_set rs;
	struct diag_list diags;

	(void)state;
	read_log("x_iops.1.log", either, NULL, &rs, &diags);
	assert_int_equal(diags.n, 1);
	assert_int_equal(diags.v[0].level, DIAG_NOTE);
	assert_non_null(strstr(diags.v[0].msg, "fit log_window_value=both "
			       "too"));
	assert_non_null(strstr(diags.v[0].msg, "read as a plain log"));
	assert_int_equal(rs.n, 2);	/* trim and write, no iops.max */
	assert_string_equal(rs.m[0].op, "trim");
	assert_string_equal(rs.m[0].metric, "iops");
	assert_string_equal(rs.m[1].op, "write");
	result_set_release(&rs);
	diag_list_release(&diags);
}

static void test_version_in_text(void **state)
{
	static const char json[] = "{\n  \"fio version\" : \"fio-3.33\",\n";
	static const char text[] = "x: (g=0): rw=read\nfio-2.17\nStarting 1";
	static const char none[] = "fio-3.33 is great\n";
	char v[32];

	(void)state;
	assert_int_equal(fio_version_in_text(json, strlen(json), v, sizeof(v)),
			 0);
	assert_string_equal(v, "fio-3.33");
	assert_int_equal(fio_version_in_text(text, strlen(text), v, sizeof(v)),
			 0);
	assert_string_equal(v, "fio-2.17");
	assert_int_equal(fio_version_in_text(none, strlen(none), v, sizeof(v)),
			 -1);
	assert_int_equal(fio_version_in_text(json, 20, v, sizeof(v)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_equals_cut),
		cmocka_unit_test(test_raw_stall),
		cmocka_unit_test(test_raw_latency_summary),
		cmocka_unit_test(test_assumed_once),
		cmocka_unit_test(test_averaged_one_run),
		cmocka_unit_test(test_window_both),
		cmocka_unit_test(test_window_both_ambiguous),
		cmocka_unit_test(test_version_in_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
