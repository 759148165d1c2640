/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fio helpers, table-driven: ops, percentile names, fio's sizes and
 * counts, the histogram bucket mapping, and -- on every JSON+ fixture --
 * that percentiles computed from the bins equal the ones fio printed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/input.h"
#include "core/numscan.h"
#include "core/resultset.h"
#include "core/rs-json.h"
#include "core/strbuf.h"
#include "parsers/fio-common.h"
#include "ingest/ingest.h"
#include "parsers/parser.h"

static void test_op(void **state)
{
	static const struct { const char *rw; enum fio_dir d; const char *op; }
	cases[] = {
		{ "randread", FIO_READ, "randread" },
		{ "randrw", FIO_WRITE, "randwrite" },
		{ "randrw", FIO_READ, "randread" },
		{ "rw", FIO_WRITE, "write" },
		{ "readwrite", FIO_READ, "read" },
		{ "randread:8", FIO_READ, "randread" },
		{ "randwrite", FIO_READ, "read" },	/* not in the pattern */
		{ "randtrim", FIO_TRIM, "randtrim" },
		{ "write", FIO_SYNC, "sync" },
		{ NULL, FIO_WRITE, "write" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(fio_op(cases[i].rw, cases[i].d),
				    cases[i].op);
}

static void test_pct_metric(void **state)
{
	static const struct { const char *in; const char *out; } cases[] = {
		{ "99.90", "clat.p99.9" }, { "50.00", "clat.p50" },
		{ "99.900000", "clat.p99.9" }, { "1.000000", "clat.p1" },
		{ "99.95", "clat.p99.95" }, { "99.999", "clat.p99.999" },
		{ "10", "clat.p10" }, { "0.00", "clat.p0" },
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fio_pct_metric(&sb, "clat", cases[i].in,
						strlen(cases[i].in)), 0);
		assert_string_equal(sb.buf, cases[i].out);
	}
	assert_int_equal(fio_pct_metric(&sb, "clat", "9x", 2), -1);
	assert_int_equal(fio_pct_metric(&sb, "clat", "", 0), -1);
	strbuf_release(&sb);
}

static void test_sizes_and_counts(void **state)
{
	static const struct { const char *s; double v; } sizes[] = {
		{ "4096", 4096 }, { "4k", 4096 }, { "4K", 4096 },
		{ "4KiB", 4096 }, { "16.0KiB", 16384 }, { "1m", 1048576 },
		{ "4096B", 4096 }, { "1g", 1073741824 },
	};
	static const struct { const char *s; double v; } counts[] = {
		{ "61.2k", 61200 }, { "28301K", 28301000 }, { "9862k", 9862000 },
		{ "1M", 1000000 }, { "30", 30 },
	};
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		assert_int_equal(fio_parse_size(sizes[i].s, strlen(sizes[i].s),
						&v), 0);
		assert_true(!(v < sizes[i].v) && !(v > sizes[i].v));
	}
	assert_int_equal(fio_parse_size("4x", 2, &v), -1);
	assert_int_equal(fio_parse_size("100%", 4, &v), -1);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		const char *p = counts[i].s;

		assert_int_equal(fio_scan_count(&p, &v), 0);
		assert_true(!(v < counts[i].v) && !(v > counts[i].v));
	}
	assert_true(!(fio_seconds(16320, 1e-9) < 16.32e-6) &&
		    !(fio_seconds(16320, 1e-9) > 16.32e-6));
}

static void test_plat_idx_to_val(void **state)
{
	(void)state;
	assert_int_equal(fio_plat_idx_to_val(0, 6), 0);
	assert_int_equal(fio_plat_idx_to_val(127, 6), 127);
	assert_int_equal(fio_plat_idx_to_val(128, 6), 129);
	assert_int_equal(fio_plat_idx_to_val(191, 6), 255);
	assert_int_equal(fio_plat_idx_to_val(192, 6), 258);
	assert_int_equal(fio_plat_idx_to_val(795, 6), 187392);
	assert_int_equal(fio_plat_idx_to_val(1855, 6), 17112760320ULL);
}

/*
 * fio's own walk, written here as the oracle: the first bucket whose
 * running count reaches pct% of the total, the product as fio's
 * -ffast-math build computes it (total * 0.01L * pct, long double).
 */
static double walk_percentile(const double *value, const uint64_t *count,
			      size_t n, double pct)
{
	uint64_t total = 0, sum = 0;

	for (size_t i = 0; i < n; i++)
		total += count[i];
	for (size_t i = 0; i < n; i++) {
		sum += count[i];
		if ((long double)sum >= (long double)total * 0.01L *
					(long double)pct)
			return value[i];
	}
	return n ? value[n - 1] : 0;
}

/* fio_hist_percentile_cum() of plain counts (their running sums made
 * here). */
static double percentile(const double *value, const uint64_t *count,
			 size_t n, double pct)
{
	uint64_t cum[8];

	for (size_t i = 0; i < n; i++)
		cum[i] = count[i] + (i ? cum[i - 1] : 0);
	return fio_hist_percentile_cum(value, cum, n, pct);
}

static void test_hist_percentile(void **state)
{
	const double value[] = { 10, 20, 30, 40 };
	const uint64_t count[] = { 1, 1, 1, 1 };

	(void)state;
	/* the first bucket whose running count reaches p% of the total */
	assert_true(percentile(value, count, 4, 25) < 10.5);
	assert_true(percentile(value, count, 4, 25.01) > 19.5);
	assert_true(percentile(value, count, 4, 50) < 20.5);
	assert_true(percentile(value, count, 4, 99.99) > 39.5);
	assert_true(percentile(value, count, 0, 50) < 0.5);
}

/* Checks one "clat_ns"-like object: bins -> percentiles == printed. */
static double key_number(const char *key)
{
	double v = 0;

	assert_int_equal(scan_double(&key, 0, &v), SCAN_OK);
	return v;
}

static size_t check_latency(json_t *o)
{
	json_t *bins = json_object_get(o, "bins"), *pct, *v;
	size_t n = 0, checked = 0;
	double *val;
	uint64_t *cnt, *cum;
	const char *key;

	pct = json_object_get(o, "percentile");
	if (!json_is_object(bins) || !json_object_size(bins) ||
	    !json_is_object(pct))
		return 0;
	val = calloc(json_object_size(bins), sizeof(*val));
	cnt = calloc(json_object_size(bins), sizeof(*cnt));
	json_object_foreach(bins, key, v) {	/* fio writes them in order */
		val[n] = key_number(key);
		cnt[n++] = (uint64_t)json_integer_value(v);
	}
	cum = calloc(n + 1, sizeof(*cum));
	for (size_t i = 0; i < n; i++)
		cum[i] = cnt[i] + (i ? cum[i - 1] : 0);
	json_object_foreach(pct, key, v) {
		double p = key_number(key), got;

		if (!(p > 0))
			continue;
		got = walk_percentile(val, cnt, n, p);
		assert_true(!(got < json_number_value(v)) &&
			    !(got > json_number_value(v)));
		got = fio_hist_percentile_cum(val, cum, n, p);
		assert_true(!(got < json_number_value(v)) &&
			    !(got > json_number_value(v)));
		checked++;
	}
	free(val);
	free(cnt);
	free(cum);
	return checked;
}

static void test_jsonplus_fixtures(void **state)
{
	static const char *const files[] = {
		"tests/parsers/fio/0012-3_1-jsonplus-randread-ceph-bins.json",
		"tests/parsers/fio/0013-3_1-jsonplus-write-beegfs-bins.json",
		"tests/parsers/fio/0103-3_33-randrw-libaio-jsonplus.json",
		"tests/parsers/fio/0117-3_33-stonewall-jsonplus.json",
		/* p30 of 23,860 samples on a rounding boundary */
		"tests/parsers/fio/0127-3_33-jsonplus-percentile-boundary.json",
	};
	static const char *const dirs[] = { "read", "write", "trim" };
	static const char *const lats[] = { "clat_ns", "lat_ns", "slat_ns" };
	size_t checked = 0;

	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		json_error_t e;
		json_t *root = json_load_file(files[f], 0, &e), *job;
		size_t k;

		assert_non_null(root);
		json_array_foreach(json_object_get(root, "jobs"), k, job)
			for (size_t d = 0; d < 3; d++)
				for (size_t l = 0; l < 3; l++)
					checked += check_latency(json_object_get(
						json_object_get(job, dirs[d]),
						lats[l]));
		json_decref(root);
	}
	assert_true(checked > 50);
}

/* Ingests a fixture; returns its measurements in rs. */
static void ingest_fixture(const char *path, int drop_histograms,
			   struct result_set *rs)
{
	struct ingest_options opt;
	struct diag_list diags;
	struct strbuf err = STRBUF_INIT;
	struct input in;

	memset(&opt, 0, sizeof(opt));
	opt.drop_histograms = drop_histograms;
	diag_list_init(&diags);
	result_set_init(rs);
	assert_int_equal(input_read(&in, path, &err), 0);
	assert_int_equal(ingest_input(&in, &opt, rs, &diags), 0);
	input_release(&in);
	diag_list_release(&diags);
	strbuf_release(&err);
}

/*
 * JSON+ bins are kept as the histogram of each latency's .mean (its
 * counts add up to the latency's N), unless the output cannot hold them
 * (ingest --format csv): then the same measurements without histograms.
 */
static void test_jsonplus_histograms_kept_or_dropped(void **state)
{
	const char *path =
		"tests/parsers/fio/0103-3_33-randrw-libaio-jsonplus.json";
	struct result_set kept, dropped;
	size_t with_hist = 0;
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e);
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);
	/* N of the read, then the write clat: fio's own count */
	const json_int_t n[2] = {
		json_integer_value(json_object_get(json_object_get(
			json_object_get(job, "read"), "clat_ns"), "N")),
		json_integer_value(json_object_get(json_object_get(
			json_object_get(job, "write"), "clat_ns"), "N")),
	};

	(void)state;
	assert_true(n[0] > 0 && n[1] > 0);
	ingest_fixture(path, 0, &kept);
	ingest_fixture(path, 1, &dropped);
	assert_int_equal(kept.n, dropped.n);
	for (size_t i = 0; i < kept.n; i++) {
		const struct measurement *a = &kept.m[i], *b = &dropped.m[i];
		uint64_t total = 0;

		assert_string_equal(a->metric, b->metric);
		assert_int_equal(a->n, b->n);
		assert_memory_equal(a->values, b->values, sizeof(double));
		assert_int_equal(b->hist.n, 0);
		if (!a->hist.n)
			continue;
		assert_non_null(strstr(a->metric, ".mean"));
		for (size_t k = 0; k < a->hist.n; k++)
			total += a->hist.count[k];
		assert_int_equal(total, n[with_hist < 2 ? with_hist : 1]);
		with_hist++;
	}
	assert_int_equal(with_hist, 2);	/* the clat bins of read and write */
	json_decref(root);
	result_set_release(&kept);
	result_set_release(&dropped);
}

/*
 * A log of the same JSON+ document twice: dropping histograms (CSV) must
 * not change what folds -- a measurement with a histogram does not fold,
 * so .mean stays two measurements either way.
 */
static void test_dropped_histograms_fold_alike(void **state)
{
	const char *path =
		"tests/parsers/fio/0012-3_1-jsonplus-randread-ceph-bins.json";
	struct strbuf err = STRBUF_INIT, twice = STRBUF_INIT;
	struct result_set rs[2];
	struct input one;

	(void)state;
	assert_int_equal(input_read(&one, path, &err), 0);
	strbuf_add(&twice, one.data, one.size);
	strbuf_addch(&twice, '\n');
	strbuf_add(&twice, one.data, one.size);
	input_release(&one);
	for (int drop = 0; drop < 2; drop++) {
		struct ingest_options opt;
		struct diag_list diags;
		struct input in;

		memset(&opt, 0, sizeof(opt));
		opt.drop_histograms = drop;
		diag_list_init(&diags);
		result_set_init(&rs[drop]);
		input_from_buffer(&in, "twice.json", twice.buf, twice.len);
		assert_int_equal(ingest_input(&in, &opt, &rs[drop], &diags), 0);
		input_release(&in);
		diag_list_release(&diags);
	}
	assert_int_equal(rs[0].n, rs[1].n);
	for (size_t i = 0; i < rs[0].n; i++) {
		assert_string_equal(rs[0].m[i].metric, rs[1].m[i].metric);
		assert_int_equal(rs[0].m[i].n, rs[1].m[i].n);
		assert_int_equal(rs[1].m[i].hist.n, 0);
	}
	result_set_release(&rs[0]);
	result_set_release(&rs[1]);
	strbuf_release(&twice);
	strbuf_release(&err);
}

/*
 * Ingests a one-job JSON+ document whose latency `lat` ("clat_ns", or
 * fio 2.x's "clat") has these bins: the histograms into hist, the
 * messages into msgs; returns ingest_input()'s status.
 */
static int ingest_bins(const char *lat, const char *bins,
		       struct strbuf *hist, struct strbuf *msgs)
{
	struct strbuf doc = STRBUF_INIT;
	struct ingest_options opt;
	struct diag_list diags;
	struct result_set rs;
	struct input in;
	int rc;

	strbuf_addf(&doc, "{\"fio version\" : \"fio-3.33\",\n\"jobs\" : [{"
		    "\"jobname\" : \"j\", \"groupid\" : 0, \"error\" : 0,\n"
		    "\"job options\" : {\"rw\" : \"read\"},\n"
		    "\"read\" : {\"io_bytes\" : 4096, \"runtime\" : 1,\n"
		    "\"bw\" : 4, \"iops\" : 1,\n"
		    "\"%s\" : {\"min\" : 100, \"max\" : 300, "
		    "\"mean\" : 150, \"stddev\" : 1, \"N\" : 6,\n"
		    "\"percentile\" : {\"50.000000\" : 100},\n"
		    "\"bins\" : {%s}}}}]}\n", lat, bins);
	memset(&opt, 0, sizeof(opt));
	diag_list_init(&diags);
	result_set_init(&rs);
	input_from_buffer(&in, "j.json", doc.buf, doc.len);
	rc = ingest_input(&in, &opt, &rs, &diags);
	strbuf_reset(hist);
	strbuf_reset(msgs);
	for (size_t i = 0; i < rs.n; i++)
		for (size_t k = 0; k < rs.m[i].hist.n; k++)
			strbuf_addf(hist, "%s %g:%llu", rs.m[i].metric,
				    rs.m[i].hist.value[k],
				    (unsigned long long)rs.m[i].hist.count[k]);
	for (size_t i = 0; i < diags.n; i++)
		strbuf_addf(msgs, "%s\n", diags.v[i].msg);
	input_release(&in);
	result_set_release(&rs);
	diag_list_release(&diags);
	strbuf_release(&doc);
	return rc;
}

/* Bins in fio's order are read directly; another order gives the same
 * histogram (sorted). */
static void test_bins_order(void **state)
{
	static const char *const same[] = {
		"\"100\" : 5, \"200\" : 0, \"300\" : 1",
		"\"300\" : 1, \"100\" : 5, \"200\" : 0",
		"\"100\" : 5,\n\"300\" : 1",
	};
	struct strbuf first = STRBUF_INIT, h = STRBUF_INIT, msgs = STRBUF_INIT;

	(void)state;
	assert_int_equal(ingest_bins("clat_ns", same[0], &first, &msgs), 0);
	assert_string_equal(first.buf,
			    "clat.mean 1e-07:5clat.mean 3e-07:1");
	for (size_t i = 1; i < sizeof(same) / sizeof(same[0]); i++) {
		print_message("%s\n", same[i]);
		assert_int_equal(ingest_bins("clat_ns", same[i], &h, &msgs), 0);
		assert_string_equal(h.buf, first.buf);
		assert_string_equal(strbuf_str(&msgs), "");
	}
	strbuf_release(&first);
	strbuf_release(&h);
	strbuf_release(&msgs);
}

/*
 * Bins storan cannot read for sure are an error, and no distribution is
 * taken (never one made up): a key given twice, fio 2.x bits that are
 * not fio's or not a number, an index beyond fio's groups, a count that
 * is not one.  The percentiles fio printed are still the results.
 */
static void test_bins_unreadable(void **state)
{
	static const struct { const char *lat, *bins, *why; } bad[] = {
		{ "clat_ns", "\"100\" : 2, \"300\" : 1, \"100\" : 5",
		  "a bin is given twice" },
		{ "clat", "\"FIO_IO_U_PLAT_BITS\" : \"six\", \"3\" : 6",
		  "FIO_IO_U_PLAT_BITS is not fio's" },
		{ "clat", "\"FIO_IO_U_PLAT_BITS\" : 99, \"3\" : 6",
		  "FIO_IO_U_PLAT_BITS is not fio's" },
		{ "clat", "\"FIO_IO_U_PLAT_BITS\" : 6, \"99999\" : 6",
		  "a bucket index beyond fio's" },
		{ "clat", "\"FIO_IO_U_PLAT_BITS\" : 6, \"3\" : 1.5",
		  "a bin is not a count of a number" },
	};
	struct strbuf h = STRBUF_INIT, msgs = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		print_message("%s\n", bad[i].bins);
		assert_int_equal(ingest_bins(bad[i].lat, bad[i].bins, &h,
					     &msgs), 1);
		assert_string_equal(strbuf_str(&h), "");
		assert_non_null(strstr(strbuf_str(&msgs), bad[i].why));
		assert_non_null(strstr(strbuf_str(&msgs), "fio printed"));
	}
	/* fio 2.x's own: bucket index 3 of 6 bits is 3 usec */
	assert_int_equal(ingest_bins("clat", "\"FIO_IO_U_PLAT_BITS\" : 6, "
				     "\"FIO_IO_U_PLAT_VAL\" : 64, \"3\" : 6",
				     &h, &msgs), 0);
	assert_string_equal(h.buf, "clat.mean 3e-06:6");
	strbuf_release(&h);
	strbuf_release(&msgs);
}

/* Reads a file into sb (the test's inputs). */
static void slurp(const char *path, struct strbuf *sb)
{
	char *data;
	size_t size;
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(input_read_bytes(path, &data, &size, &err), 0);
	strbuf_add(sb, data, size);
	free(data);
	strbuf_release(&err);
}

/*
 * Ingests text with its lines cut first (input_init), or uncut, the way
 * load_input() takes a file that may be one fio JSON output; returns the
 * result set as JSON and the messages, with their lines, in out, and
 * whether the input was read whole (still uncut after).
 */
static int ingest_way(const struct strbuf *text, int uncut,
		      struct strbuf *out)
{
	struct diag_list diags;
	struct result_set rs;
	struct input in;
	char *copy = malloc(text->len + 1);
	int whole;

	assert_non_null(copy);
	memcpy(copy, text->buf, text->len + 1);
	diag_list_init(&diags);
	result_set_init(&rs);
	input_init_bare(&in, "w.json", copy, text->len);
	in.runs_output_tool = parser_output_after_command;
	if (uncut && ingest_may_read_whole(&in))
		input_finish_uncut(&in);
	else
		input_finish(&in);
	strbuf_addf(out, "rc %d\n", ingest_input(&in, NULL, &rs, &diags));
	whole = in.uncut;
	rs_json_write(&rs, out);
	for (size_t i = 0; i < diags.n; i++)
		strbuf_addf(out, "%s:%u: %s\n", diags.v[i].file ?
			    diags.v[i].file : "", diags.v[i].line,
			    diags.v[i].msg);
	input_release(&in);
	result_set_release(&rs);
	diag_list_release(&diags);
	return whole;
}

/* The same text read both ways: the same result set and messages. */
static void expect_same_both_ways(const struct strbuf *text, int whole)
{
	struct strbuf cut = STRBUF_INIT, uncut = STRBUF_INIT;

	assert_false(ingest_way(text, 0, &cut));
	assert_int_equal(ingest_way(text, 1, &uncut), whole);
	if (strcmp(cut.buf, uncut.buf))
		fail_msg("read whole, the input gives another result:\n"
			 "cut:\n%.3000s\nuncut:\n%.3000s", cut.buf, uncut.buf);
	assert_non_null(strstr(cut.buf, "\"measurements\""));
	strbuf_release(&cut);
	strbuf_release(&uncut);
}

/* Replaces the first from in sb by to. */
static void replace_in(struct strbuf *sb, const char *from, const char *to)
{
	char *at = strstr(sb->buf, from);
	struct strbuf out = STRBUF_INIT;

	assert_non_null(at);
	strbuf_add(&out, sb->buf, (size_t)(at - sb->buf));
	strbuf_adds(&out, to);
	strbuf_adds(&out, at + strlen(from));
	strbuf_release(sb);
	*sb = out;
}

/*
 * A file of fio JSON documents and nothing else is read whole, from its
 * raw text (lines never cut, strings copied out, not decoded in the
 * mapped file): it must give what the line-by-line reader gives, line
 * numbers, hashes and messages included.  Anything else around or in
 * the documents falls back to that reader.
 */
static void test_whole_json_same_as_lines(void **state)
{
	static const char *const files[] = {
		"tests/parsers/fio/0103-3_33-randrw-libaio-jsonplus.json",
		"sample-data/fio/captures/randrw-libaio.status-interval.json",
		"sample-data/fio/captures/stonewall.json",
	};
	struct strbuf text = STRBUF_INIT, big = STRBUF_INIT;

	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		strbuf_reset(&text);
		slurp(files[f], &text);
		expect_same_both_ways(&text, 1);
	}
	/* a failed job's message, at its line; with fio's warning above
	 * the document, the file is not JSON alone */
	strbuf_reset(&text);
	slurp("sample-data/fio/captures/error.json", &text);
	expect_same_both_ways(&text, 0);
	assert_non_null(strchr(text.buf, '\n'));
	strbuf_reset(&big);
	strbuf_adds(&big, strchr(text.buf, '\n') + 1);
	expect_same_both_ways(&big, 1);
	strbuf_reset(&text);
	ingest_way(&big, 1, &text);
	assert_non_null(strstr(text.buf, "w.json:8: fio job 'bad' failed with "
				"error 21"));
	strbuf_reset(&text);
	slurp(files[0], &text);
	/* escapes in strings are decoded either way */
	replace_in(&text, "\"jobname\" : \"", "\"jobname\" : \"q\\\"\\u00e9\\t");
	expect_same_both_ways(&text, 1);
	/* CRLF, no newline at the end, blank lines around */
	for (size_t i = 0; i < text.len; i++)
		if (text.buf[i] == '\n') {
			strbuf_add(&big, "\r\n", 2);
		} else {
			strbuf_addch(&big, text.buf[i]);
		}
	while (big.len && (big.buf[big.len - 1] == '\n' ||
			   big.buf[big.len - 1] == '\r'))
		big.buf[--big.len] = '\0';
	expect_same_both_ways(&big, 1);
	strbuf_reset(&big);
	strbuf_adds(&big, "\n  \n");
	strbuf_add(&big, text.buf, text.len);
	strbuf_adds(&big, "\n\n");
	expect_same_both_ways(&big, 1);
	/* anything else: read line by line */
	strbuf_reset(&big);
	strbuf_add(&big, text.buf, text.len);
	strbuf_adds(&big, "fio: terminating on signal 2\n");
	expect_same_both_ways(&big, 0);
	strbuf_reset(&big);
	strbuf_add(&big, text.buf, text.len - 1);
	strbuf_adds(&big, " {\"a\" : 1}\n");
	expect_same_both_ways(&big, 0);
	strbuf_reset(&big);
	strbuf_add(&big, text.buf, text.len / 2);	/* cut short */
	expect_same_both_ways(&big, 0);
	strbuf_reset(&big);
	strbuf_adds(&big, "{\"fio version\" : \"x\", \"other\" : 1}\n");
	strbuf_add(&big, text.buf, text.len);
	expect_same_both_ways(&big, 0);
	/* big enough to be hashed on another thread while it is read */
	strbuf_reset(&big);
	slurp("sample-data/fio/captures/randrw-libaio.status-interval.json",
	      &big);
	while (big.len < (2u << 20))
		strbuf_add(&big, text.buf, text.len);
	expect_same_both_ways(&big, 1);
	strbuf_release(&text);
	strbuf_release(&big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op),
		cmocka_unit_test(test_pct_metric),
		cmocka_unit_test(test_sizes_and_counts),
		cmocka_unit_test(test_plat_idx_to_val),
		cmocka_unit_test(test_hist_percentile),
		cmocka_unit_test(test_jsonplus_fixtures),
		cmocka_unit_test(test_jsonplus_histograms_kept_or_dropped),
		cmocka_unit_test(test_bins_order),
		cmocka_unit_test(test_bins_unreadable),
		cmocka_unit_test(test_dropped_histograms_fold_alike),
		cmocka_unit_test(test_whole_json_same_as_lines),
	};

	return cmocka_run_group_tests_name("fio", tests, NULL, NULL);
}
