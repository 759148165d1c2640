/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan/1 binary (core/rs-bin.h): a set written and read back is the
 * same set (its JSON the same bytes), shares strings and label sets as
 * the JSON reader does, and a damaged file -- cut at any byte, any byte
 * changed -- is refused with a message or read into a set that the JSON
 * reader takes too: the binary reader accepts nothing JSON refuses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/resultset.h"
#include "core/rs-bin.h"
#include "core/rs-bin-layout.h"
#include "core/rs-json.h"
#include "core/series.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

static void add_job(struct result_set *rs, size_t s, const char *metric,
		    const char *unit, double v)
{
	struct measurement *m = result_set_add(rs, "fio", "randread", metric,
					       unit);

	measurement_add_value(m, v);
	measurement_add_value(m, v * 1.01);
	measurement_set_source(m, s, "job.json", 7);
	labels_set(&m->labels, "bs", "4096");
	labels_set(&m->labels, "rw", "randread");
}

static void add_series(struct result_set *rs, size_t s)
{
	static const double bucket[] = { 1e-6, 2e-6, 4e-6, 8e-6 };
	static const uint32_t idx[] = { 0, 2, 3 };
	static const uint64_t cnt[] = { 5, 0, 9 };
	struct measurement *m = result_set_add(rs, "fio", "read", "bw", "B/s");

	measurement_add_value(m, 5e7);
	measurement_set_source(m, s, "x_bw.1.log", 1);
	m->series = series_new(1.0);
	series_add(m->series, 1.0, 4e7);
	series_add(m->series, 2.0, 6e7);
	m = result_set_add(rs, "fio", "read", "clat.p50", "s");
	measurement_add_value(m, 2e-6);
	measurement_set_source(m, s, "x_clat_hist.1.log", 1);
	m->series = series_new(0.5);
	series_set_buckets(m->series, bucket, 4);
	series_add_sparse(m->series, 0.5, 2e-6, idx, cnt, 3);
	series_add_sparse(m->series, 1.0, 1e-6, idx, cnt, 0);
	series_add_sparse(m->series, 1.5, 8e-6, idx + 2, cnt + 2, 1);
}

/* Two buckets, JSON+'s bins. */
static void add_histogram(struct measurement *m)
{
	static const double value[] = { 1e-4, 2e-4 };
	static const uint64_t count[] = { 5, 7 };

	m->hist.n = 2;
	m->hist.value = xmalloc(sizeof(value));
	m->hist.count = xmalloc(sizeof(count));
	memcpy(m->hist.value, value, sizeof(value));
	memcpy(m->hist.count, count, sizeof(count));
}

/* Every part a set may have: values, a summary, a histogram, plain and
 * histogram series, labels shared and not, a cache drop, a source's
 * labels, a measurement without a source name. */
static void build(struct result_set *rs)
{
	struct measurement *m;
	struct summary *sm;
	size_t s;

	result_set_init(rs);
	s = result_set_add_source(rs, "/tmp/a,b.txt", "00ff");
	rs->sources[s].format = xstrdup("dd,fio");
	labels_set(&rs->sources[s].labels, "host", "nvme1");
	result_set_add_source(rs, "-", NULL);
	add_job(rs, s, "bw", "B/s", 1e8);
	add_job(rs, s, "iops", "1/s", 2.5e4);
	m = result_set_add(rs, "blockdev-perftest", "read", "bw", "B/s");
	sm = measurement_add_summary(m);
	sm->n = 3;
	sm->mean = 100e6;
	sm->stddev = 2e6;
	sm->min = NAN;
	sm->max = NAN;
	sm->stddev_population = 1;
	measurement_set_source(m, 1, "stdin", 9);
	m = result_set_add(rs, "fio", "randread", "clat", "s");
	measurement_add_value(m, 1e-4);
	add_histogram(m);
	measurement_set_source(m, s, "a,b.txt", 12);
	m = result_set_add(rs, "time", "run", "cpu.sys", "%");
	measurement_add_value(m, -0.0);	/* (a % may be negative: 0 is) */
	labels_set(&m->labels, "command", "dd \"quoted\" \xff x");
	add_series(rs, s);
	result_set_add_cache_drop(rs, s, "a,b.txt", 3);
}

static void json_of(const struct result_set *rs, struct strbuf *out)
{
	strbuf_reset(out);
	rs_json_write(rs, out);
}

/* rs written as JSON and read back (what a set is once stored). */
static void through_json(const struct result_set *rs, struct result_set *out)
{
	struct strbuf json = STRBUF_INIT, err = STRBUF_INIT;

	rs_json_write(rs, &json);
	result_set_init(out);
	if (rs_json_read("x.json", json.buf, json.len, out, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&json);
	strbuf_release(&err);
}

/*
 * Binary carries what JSON carries: a set read back from either is the
 * same (a measurement without a source name takes its source's, a label
 * that is not UTF-8 is dropped), and a set read from JSON comes back
 * from binary as it was, binary again the same bytes.
 */
static void test_round_trip(void **state)
{
	struct result_set rs, via_json, back;
	struct strbuf bin = STRBUF_INIT, again = STRBUF_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	build(&rs);
	through_json(&rs, &via_json);
	rs_bin_write(&rs, &bin, NULL);
	assert_true(rs_bin_sniff(bin.buf, bin.len));
	assert_false(rs_json_sniff(bin.buf, bin.len));
	result_set_init(&back);
	if (rs_bin_read("x.srb", bin.buf, bin.len, &back, &err))
		fail_msg("%s", err.buf);
	json_of(&via_json, &a);
	json_of(&back, &b);
	assert_string_equal(a.buf, b.buf);
	assert_string_equal(back.m[4].source_name, "a,b.txt");
	assert_null(labels_get(&back.m[4].labels, "command"));
	assert_string_equal(labels_get(&back.sources[0].labels, "host"),
			    "nvme1");
	strbuf_reset(&bin);
	rs_bin_write(&via_json, &bin, NULL);
	rs_bin_write(&back, &again, NULL);
	assert_int_equal(again.len, bin.len);
	assert_memory_equal(again.buf, bin.buf, bin.len);
	result_set_release(&rs);
	result_set_release(&via_json);
	result_set_release(&back);
	strbuf_release(&bin);
	strbuf_release(&again);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
}

/* Read after a set that holds one already: sources and measurements
 * after its own, and a refused file leaves it as it was. */
static void test_appends(void **state)
{
	struct result_set rs, into;
	struct strbuf bin = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	build(&rs);
	rs_bin_write(&rs, &bin, NULL);
	result_set_init(&into);
	assert_int_equal(rs_bin_read("x.srb", bin.buf, bin.len, &into, &err),
			 0);
	assert_int_equal(rs_bin_read("x.srb", bin.buf, bin.len, &into, &err),
			 0);
	assert_int_equal(into.n, 2 * rs.n);
	assert_int_equal(into.nsources, 4);
	assert_int_equal(into.m[rs.n].source, 2);
	assert_int_equal(into.ndrops, 2);
	assert_int_equal(into.drops[1].source, 2);
	bin.buf[bin.len - 9] ^= 0x40;	/* a series' last point, damaged */
	assert_int_equal(rs_bin_read("x.srb", bin.buf, bin.len - 8, &into,
				     &err), -1);
	assert_int_equal(into.n, 2 * rs.n);
	assert_int_equal(into.nsources, 4);
	assert_int_equal(into.ndrops, 2);
	result_set_release(&rs);
	result_set_release(&into);
	strbuf_release(&bin);
	strbuf_release(&err);
}

/* A job's metrics share its label set read back, and measurements of
 * the same tool .. source name one text of them, as the JSON reader
 * shares them. */
static void test_shares(void **state)
{
	struct result_set rs, back;
	struct strbuf bin = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	build(&rs);
	add_job(&rs, 0, "bw", "B/s", 2e8);
	labels_set(&rs.m[rs.n - 1].labels, "bs", "8192");
	rs_bin_write(&rs, &bin, NULL);
	result_set_init(&back);
	assert_int_equal(rs_bin_read("x.srb", bin.buf, bin.len, &back, &err),
			 0);
	assert_ptr_equal(back.m[0].labels.v, back.m[1].labels.v);
	assert_ptr_equal(back.m[0].tool, back.m[rs.n - 1].tool);
	assert_ptr_not_equal(back.m[0].labels.v, back.m[rs.n - 1].labels.v);
	assert_true(back.m[0].pooled);
	result_set_release(&rs);
	result_set_release(&back);
	strbuf_release(&bin);
	strbuf_release(&err);
}

/* Reads data as a file: the set's JSON into json when accepted (0), the
 * message into err when not (-1).  A message names the file. */
static int read_as_file(const char *data, size_t len, struct strbuf *json,
			struct strbuf *err)
{
	struct result_set rs;
	char *copy = xmalloc(len + 1);
	int rc;

	memcpy(copy, data, len);	/* (ASan sees a read past len) */
	copy[len] = '\0';
	result_set_init(&rs);
	strbuf_reset(err);
	rc = rs_bin_read("d.srb", copy, len, &rs, err);
	if (rc) {
		assert_int_equal(rs.n, 0);
		assert_int_equal(strncmp(err->buf, "d.srb: ", 7), 0);
	} else {
		json_of(&rs, json);
	}
	result_set_release(&rs);
	free(copy);
	return rc;
}

static void test_cut_anywhere(void **state)
{
	struct result_set rs;
	struct strbuf bin = STRBUF_INIT, json = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	build(&rs);
	rs_bin_write(&rs, &bin, NULL);
	for (size_t len = 0; len < bin.len; len++)
		if (!read_as_file(bin.buf, len, &json, &err))
			fail_msg("cut at %zu of %zu bytes: read", len,
				 bin.len);
	result_set_release(&rs);
	strbuf_release(&bin);
	strbuf_release(&json);
	strbuf_release(&err);
}

/*
 * Any byte changed: refused, or read into a set whose JSON the JSON
 * reader reads back to the same JSON.
 */
static void test_any_byte_changed(void **state)
{
	static const unsigned char to[] = { 0x00, 0xff, 0x01, 0x80, 0x7f };
	struct result_set rs;
	struct strbuf bin = STRBUF_INIT, json = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf again = STRBUF_INIT;
	size_t refused = 0, read = 0;

	(void)state;
	build(&rs);
	rs_bin_write(&rs, &bin, NULL);
	for (size_t i = 0; i < bin.len; i++) {
		char was = bin.buf[i];

		for (size_t k = 0; k < sizeof(to); k++) {
			struct result_set back;

			bin.buf[i] = (char)(to[k] ^ (k > 1 ? (unsigned char)
						     was : 0));
			if (read_as_file(bin.buf, bin.len, &json, &err)) {
				refused++;
				continue;
			}
			read++;
			result_set_init(&back);
			if (rs_json_read("d.json", json.buf, json.len, &back,
					 &err))
				fail_msg("byte %zu = %#x: binary read, JSON "
					 "refused: %s", i,
					 (unsigned char)bin.buf[i], err.buf);
			json_of(&back, &again);
			assert_string_equal(again.buf, json.buf);
			result_set_release(&back);
		}
		bin.buf[i] = was;
	}
	/* (a changed figure or reserved byte reads; a changed count not) */
	assert_true(refused > 0 && read > 0);
	result_set_release(&rs);
	strbuf_release(&bin);
	strbuf_release(&json);
	strbuf_release(&err);
	strbuf_release(&again);
}

/* ---- refusals, each with its words ---- */

struct sections {
	size_t at[SEC_KINDS], size[SEC_KINDS];
};

static uint64_t le64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void sections_of(const struct strbuf *bin, struct sections *s)
{
	uint32_t n;

	memcpy(&n, bin->buf + 12, 4);
	for (uint32_t i = 0; i < n; i++) {
		const char *e = bin->buf + HEADER_BYTES + i * ENTRY_BYTES;
		uint32_t kind;

		memcpy(&kind, e, 4);
		s->at[kind] = le64(e + 8);
		s->size[kind] = le64(e + 16);
	}
}

static void put64(struct strbuf *bin, size_t at, uint64_t v)
{
	memcpy(bin->buf + at, &v, 8);
}

static void putf(struct strbuf *bin, size_t at, double d)
{
	memcpy(bin->buf + at, &d, 8);
}

static void put32(struct strbuf *bin, size_t at, uint32_t v)
{
	memcpy(bin->buf + at, &v, 4);
}

/* build()'s set with one change made by `damage`, refused with a message
 * that holds `words`. */
static void refused_with(void (*damage)(struct strbuf *,
					 const struct sections *),
			 const char *words)
{
	struct result_set rs;
	struct strbuf bin = STRBUF_INIT, json = STRBUF_INIT, err = STRBUF_INIT;
	struct sections s;

	build(&rs);
	rs_bin_write(&rs, &bin, NULL);
	sections_of(&bin, &s);
	damage(&bin, &s);
	assert_int_equal(read_as_file(bin.buf, bin.len, &json, &err), -1);
	if (!strstr(err.buf, words))
		fail_msg("'%s' does not say '%s'", err.buf, words);
	result_set_release(&rs);
	strbuf_release(&bin);
	strbuf_release(&json);
	strbuf_release(&err);
}

static void nan_value(struct strbuf *b, const struct sections *s)
{
	putf(b, s->at[SEC_VALUES], NAN);
}

static void subnormal_value(struct strbuf *b, const struct sections *s)
{
	putf(b, s->at[SEC_VALUES] + 8, 4.9e-324);
}

static void negative_iops(struct strbuf *b, const struct sections *s)
{
	putf(b, s->at[SEC_VALUES] + 16, -1);	/* m[1]'s first value */
}

static uint32_t get32(const struct strbuf *b, size_t at)
{
	uint32_t v;

	memcpy(&v, b->buf + at, 4);
	return v;
}

static void unit_of_metric(struct strbuf *b, const struct sections *s)
{
	size_t m0 = s->at[SEC_MEASUREMENTS], m1 = m0 + MEASUREMENT_BYTES;

	put32(b, m1 + 12, get32(b, m0 + 12));	/* iops in B/s */
}

static void mid_string(struct strbuf *b, const struct sections *s)
{
	size_t m0 = s->at[SEC_MEASUREMENTS];

	put32(b, m0, get32(b, m0) + 1);	/* "io", of "fio" */
}

static void unsorted_labels(struct strbuf *b, const struct sections *s)
{
	/* the first set is m[0]'s: bs, rw -- swap its two pairs */
	size_t w = s->at[SEC_LABELS];
	char pair[8];

	memcpy(pair, b->buf + w + 4, 8);
	memmove(b->buf + w + 4, b->buf + w + 12, 8);
	memcpy(b->buf + w + 12, pair, 8);
}

static void no_such_source(struct strbuf *b, const struct sections *s)
{
	put32(b, s->at[SEC_MEASUREMENTS] + 24, 2);
}

static void unknown_flag(struct strbuf *b, const struct sections *s)
{
	put32(b, s->at[SEC_MEASUREMENTS] + 32, 8);
}

static void too_many_values(struct strbuf *b, const struct sections *s)
{
	put64(b, s->at[SEC_MEASUREMENTS] + 40, UINT64_MAX / 4);
}

static void values_left_over(struct strbuf *b, const struct sections *s)
{
	put64(b, s->at[SEC_MEASUREMENTS] + 40, 1);	/* of 2 */
}

static void summary_runs(struct strbuf *b, const struct sections *s)
{
	putf(b, s->at[SEC_SUMMARIES], 2.5);
}

static void huge_count(struct strbuf *b, const struct sections *s)
{
	/* n = 2, values[2], then counts[0] */
	put64(b, s->at[SEC_HISTOGRAMS] + 8 + 16, UINT64_MAX);
}

static void bucket_past_end(struct strbuf *b, const struct sections *s)
{
	/* past the plain series (2 points) and the head, t, v and 4
	 * buckets of the histogram one (3 points): the first point's
	 * byte count, then its first step */
	size_t bins = s->at[SEC_SERIES] + SERIES_HEAD_BYTES + 8 * 4 +
		      SERIES_HEAD_BYTES + 8 * (3 + 3 + 4);

	b->buf[bins + 1] = 9;	/* bucket 9 of 4 */
}

static void newer_version(struct strbuf *b, const struct sections *s)
{
	(void)s;
	put32(b, 8, 2);
}

static void test_refusals(void **state)
{
	(void)state;
	refused_with(nan_value, "measurements[0]: figure out of range in "
		     "'values'");
	refused_with(subnormal_value, "figure out of range");
	refused_with(negative_iops, "measurements[1]: negative figure of a "
		     "B/s, 1/s, B or s metric in 'values'");
	refused_with(unit_of_metric, "is stored in");
	refused_with(mid_string, "measurements[0]: missing tool, op, metric "
		     "or unit");
	refused_with(unsorted_labels, "keys are not strings in ascending "
		     "order in 'labels'");
	refused_with(no_such_source, "no such source");
	refused_with(unknown_flag, "unknown flags 0x8");
	refused_with(too_many_values, "its values are cut short");
	refused_with(values_left_over, "8 bytes of values that no "
		     "measurement has");
	refused_with(summary_runs, "not a number of runs");
	refused_with(huge_count, "bad count in 'histogram'");
	refused_with(bucket_past_end, "'series.bins'");
	refused_with(newer_version, "version 2; this storan reads version 1");
}

static void keep_drained(struct strbuf *out, void *arg)
{
	strbuf_add(arg, out->buf, out->len);
	strbuf_reset(out);
}

/* Drained as it is made (a long values list in pieces): the same bytes. */
static void test_drained(void **state)
{
	struct result_set rs;
	struct strbuf whole = STRBUF_INIT, out = STRBUF_INIT, got = STRBUF_INIT;
	struct strbuf_drain drain = { keep_drained, &got };
	struct measurement *m;

	(void)state;
	build(&rs);
	m = result_set_add(&rs, "dd", "write", "bw", "B/s");
	for (int i = 0; i < 100000; i++)
		measurement_add_value(m, 1e6 + i);
	rs_bin_write(&rs, &whole, NULL);
	rs_bin_write(&rs, &out, &drain);
	keep_drained(&out, &got);
	assert_true(whole.len > 2 * STRBUF_DRAIN_AT);
	assert_int_equal(got.len, whole.len);
	assert_memory_equal(got.buf, whole.buf, whole.len);
	strbuf_release(&out);
	strbuf_release(&got);
	strbuf_release(&whole);
	result_set_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_cut_anywhere),
		cmocka_unit_test(test_any_byte_changed),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_drained),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
