/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Samples over time: JSON round trip, malformed series, the CSV table,
 * percentiles of a histogram interval. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/resultset.h"
#include "core/rs-csv.h"
#include "core/rs-json.h"
#include "core/series.h"
#include "core/strbuf.h"

static void build(struct result_set *rs)
{
	static const double bucket[4] = { 1e-6, 2e-6, 4e-6, 8e-6 };
	static const uint64_t c0[4] = { 0, 5, 0, 5 }, c1[4] = { 0, 0, 0, 0 };
	struct measurement *m;
	size_t s;

	result_set_init(rs);
	s = result_set_add_source(rs, "x_bw.1.log", NULL);
	m = result_set_add(rs, "fio", "read", "bw", "B/s");
	measurement_add_value(m, 1024);
	measurement_set_source(m, s, "x_bw.1.log", 1);
	labels_set(&m->labels, "job", "x");
	m->series = series_new(1);
	series_add(m->series, 1.0, 1024);
	series_add(m->series, 2.0, 2048.5);
	m = result_set_add(rs, "fio", "read", "clat.p50", "s");
	measurement_add_value(m, 2e-6);
	measurement_set_source(m, s, "x_bw.1.log", 1);
	m->series = series_new(0.5);
	series_set_buckets(m->series, bucket, 4);
	series_add_hist(m->series, 0.5, 2e-6, c0);
	series_add_hist(m->series, 1.0, 0, c1);
}

static void test_round_trip(void **state)
{
	struct result_set rs, back;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;
	const struct series *s;

	(void)state;
	build(&rs);
	rs_json_write(&rs, &a);
	assert_non_null(strstr(a.buf, "\"series\": {\"interval\": 1.0, "
			       "\"t\": [1.0, 2.0], \"v\": [1024.0, 2048.5]}"));
	assert_non_null(strstr(a.buf, "\"bins\": [[1, 5, 3, 5], []]"));
	result_set_init(&back);
	assert_int_equal(rs_json_read("x.json", a.buf, a.len, &back, &err),
			 0);
	rs_json_write(&back, &b);
	assert_string_equal(a.buf, b.buf);
	s = back.m[1].series;
	assert_int_equal(s->n, 2);
	assert_int_equal(s->nbuckets, 4);
	assert_float_equal(series_hist_percentile(s, 0, 50), 2e-6, 0);
	assert_float_equal(series_hist_percentile(s, 0, 50.1), 8e-6, 0);
	assert_float_equal(series_hist_percentile(s, 0, 99.9), 8e-6, 0);
	assert_true(isnan(series_hist_percentile(s, 1, 50)));
	assert_null(back.m[0].series->bucket);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
	result_set_release(&rs);
	result_set_release(&back);
}

/* Packed buckets: index steps and counts of one byte and of several
 * (a count past 2^32, an index past 127), read back as given. */
static void test_packed_bins(void **state)
{
	static const uint32_t idx[4] = { 0, 1, 200, 1855 };
	static const uint64_t cnt[4] = { 1, 127, 128, (uint64_t)1 << 40 };
	double bucket[1856];
	struct series *s = series_new(1);
	struct series_bins it;
	size_t i, k = 0;
	uint64_t c;

	(void)state;
	for (size_t b = 0; b < 1856; b++)
		bucket[b] = (double)(b + 1);
	series_set_buckets(s, bucket, 1856);
	series_add_sparse(s, 1, 0, idx, cnt, 4);
	series_add_sparse(s, 2, 0, idx, cnt, 0);
	series_add_sparse(s, 3, 0, idx + 3, cnt, 1);
	series_bins_begin(s, 0, &it);
	while (series_bins_next(&it, &i, &c)) {
		assert_int_equal(i, idx[k]);
		assert_int_equal(c, cnt[k]);
		k++;
	}
	assert_int_equal(k, 4);
	series_bins_begin(s, 1, &it);
	assert_int_equal(series_bins_next(&it, &i, &c), 0);
	series_bins_begin(s, 2, &it);
	assert_int_equal(series_bins_next(&it, &i, &c), 1);
	assert_int_equal(i, 1855);
	assert_int_equal(c, 1);
	/* the 2^40 I/Os of bucket 1855 hold every percentile above p0 */
	assert_float_equal(series_hist_percentile(s, 0, 1), 1856, 0);
	assert_true(isnan(series_hist_percentile(s, 1, 50)));
	series_free(s);
}

static void test_csv(void **state)
{
	struct result_set rs;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	build(&rs);
	rs_csv_write_series(&rs, &out);
	assert_string_equal(out.buf,
		RS_CSV_SERIES_HEADER "\n"
		"x_bw.1.log,1,fio,read,bw,B/s,job=x,1,1,1024\n"
		"x_bw.1.log,1,fio,read,bw,B/s,job=x,1,2,2048.5\n"
		"x_bw.1.log,1,fio,read,clat.p50,s,,0.5,0.5,2e-06\n"
		"x_bw.1.log,1,fio,read,clat.p50,s,,0.5,1,0\n");
	strbuf_release(&out);
	result_set_release(&rs);
}

#define DOC(series) \
	"{\"schema\": \"storan/1\", \"measurements\": [\n" \
	"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\", " \
	"\"unit\": \"B/s\", \"values\": [1],\n\"series\": " series "}\n" \
	"], \"sources\": []}\n"

static void test_malformed(void **state)
{
	static const struct {
		const char *doc, *want;
	} bad[] = {
		{ DOC("[1]"), "x.json:3: measurements[0]: expected an object "
		  "in 'series'" },
		{ DOC("{\"interval\": 1, \"t\": [1, 2], \"v\": [1]}"),
		  "x.json:3: measurements[0]: needs arrays t and v of one "
		  "length: 'series'" },
		{ DOC("{\"t\": [1], \"v\": [1]}"),
		  "x.json:3: measurements[0]: missing 'series.interval'" },
		{ DOC("{\"interval\": 1, \"t\": [-1], \"v\": [1]}"),
		  "x.json:3: measurements[0]: negative figure of a B/s, 1/s, "
		  "B or s metric in 'series.t'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [-5]}"),
		  "x.json:3: measurements[0]: negative figure of a B/s, 1/s, "
		  "B or s metric in 'series.v'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [\"x\"]}"),
		  "x.json:3: measurements[0]: non-number in 'series.v'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [1], "
		      "\"buckets\": [1, 2]}"),
		  "x.json:3: measurements[0]: needs buckets and one bins "
		  "array a point in 'series'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [1], "
		      "\"buckets\": [2, 1], \"bins\": [[]]}"),
		  "x.json:3: measurements[0]: not ascending: 'series.buckets'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [1], "
		      "\"buckets\": [1, 2], \"bins\": [[2, 1]]}"),
		  "x.json:3: measurements[0]: bucket index out of range or "
		  "order in 'series.bins'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [1], "
		      "\"buckets\": [1, 2], \"bins\": [[1, 1, 0, 1]]}"),
		  "x.json:3: measurements[0]: bucket index out of range or "
		  "order in 'series.bins'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [1], "
		      "\"buckets\": [1, 2], \"bins\": [[1]]}"),
		  "x.json:3: measurements[0]: needs [index, count] pairs in "
		  "'series.bins'" },
		{ DOC("{\"interval\": 1, \"t\": [1], \"v\": [1], "
		      "\"buckets\": [1, 2], \"bins\": [[1, -1]]}"),
		  "x.json:3: measurements[0]: bad count in 'series.bins'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result_set rs;
		struct strbuf err = STRBUF_INIT;

		result_set_init(&rs);
		assert_int_equal(rs_json_read("x.json", bad[i].doc,
					      strlen(bad[i].doc), &rs, &err),
				 -1);
		if (strcmp(err.buf, bad[i].want))
			fail_msg("case %zu: got '%s'", i, err.buf);
		strbuf_release(&err);
		result_set_release(&rs);
	}
}

/* A document of before the series still loads, and has none. */
static void test_old_document(void **state)
{
	static const char doc[] = "{\"schema\": \"storan/1\", "
		"\"measurements\": [{\"tool\": \"dd\", \"op\": \"read\", "
		"\"metric\": \"bw\", \"unit\": \"B/s\", \"values\": [1]}], "
		"\"sources\": []}";
	struct result_set rs;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	assert_int_equal(rs_json_read("o.json", doc, strlen(doc), &rs, &err),
			 0);
	assert_null(rs.m[0].series);
	strbuf_release(&err);
	result_set_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_packed_bins),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_old_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
