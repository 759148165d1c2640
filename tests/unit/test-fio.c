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
#include "core/strbuf.h"
#include "parsers/fio-common.h"
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

static void test_hist_percentile(void **state)
{
	const double value[] = { 10, 20, 30, 40 };
	const uint64_t count[] = { 1, 1, 1, 1 };

	(void)state;
	/* the first bucket whose running count reaches p% of the total */
	assert_true(fio_hist_percentile(value, count, 4, 25) < 10.5);
	assert_true(fio_hist_percentile(value, count, 4, 25.01) > 19.5);
	assert_true(fio_hist_percentile(value, count, 4, 50) < 20.5);
	assert_true(fio_hist_percentile(value, count, 4, 99.99) > 39.5);
	assert_true(fio_hist_percentile(value, count, 0, 50) < 0.5);
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
		got = fio_hist_percentile(val, cnt, n, p);
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

	(void)state;
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
		assert_true(total > 0);
		with_hist++;
	}
	assert_int_equal(with_hist, 2);	/* the clat bins of read and write */
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

/* The clat histogram of a one-job JSON+ document with these bins. */
static void clat_histogram(const char *bins, struct strbuf *out)
{
	struct strbuf doc = STRBUF_INIT;
	struct ingest_options opt;
	struct diag_list diags;
	struct result_set rs;
	struct input in;

	strbuf_addf(&doc, "{\"fio version\" : \"fio-3.33\",\n\"jobs\" : [{"
		    "\"jobname\" : \"j\", \"groupid\" : 0, \"error\" : 0,\n"
		    "\"job options\" : {\"rw\" : \"read\"},\n"
		    "\"read\" : {\"io_bytes\" : 4096, \"runtime\" : 1,\n"
		    "\"clat_ns\" : {\"min\" : 100, \"max\" : 300, "
		    "\"mean\" : 150, \"stddev\" : 1, \"N\" : 6,\n"
		    "\"bins\" : {%s}}}}]}\n", bins);
	memset(&opt, 0, sizeof(opt));
	diag_list_init(&diags);
	result_set_init(&rs);
	input_from_buffer(&in, "j.json", doc.buf, doc.len);
	assert_int_equal(ingest_input(&in, &opt, &rs, &diags), 0);
	strbuf_reset(out);
	for (size_t i = 0; i < rs.n; i++)
		for (size_t k = 0; k < rs.m[i].hist.n; k++)
			strbuf_addf(out, "%s %g:%llu", rs.m[i].metric,
				    rs.m[i].hist.value[k],
				    (unsigned long long)rs.m[i].hist.count[k]);
	input_release(&in);
	result_set_release(&rs);
	diag_list_release(&diags);
	strbuf_release(&doc);
}

/* Bins in fio's order are read directly; any other order, or a key
 * given twice (its last count wins), gives the same histogram. */
static void test_bins_order_and_duplicates(void **state)
{
	static const char *const same[] = {
		"\"100\" : 5, \"200\" : 0, \"300\" : 1",
		"\"300\" : 1, \"100\" : 5, \"200\" : 0",
		"\"100\" : 2, \"300\" : 1, \"100\" : 5",
		"\"100\" : 5,\n\"300\" : 1",
	};
	struct strbuf first = STRBUF_INIT, h = STRBUF_INIT;

	(void)state;
	clat_histogram(same[0], &first);
	assert_string_equal(first.buf,
			    "clat.mean 1e-07:5clat.mean 3e-07:1");
	for (size_t i = 1; i < sizeof(same) / sizeof(same[0]); i++) {
		print_message("%s\n", same[i]);
		clat_histogram(same[i], &h);
		assert_string_equal(h.buf, first.buf);
	}
	strbuf_release(&first);
	strbuf_release(&h);
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
		cmocka_unit_test(test_bins_order_and_duplicates),
		cmocka_unit_test(test_dropped_histograms_fold_alike),
	};

	return cmocka_run_group_tests_name("fio", tests, NULL, NULL);
}
