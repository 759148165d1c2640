/* Result set: labels, statistics, JSON round trip and its errors, CSV. */
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
#include "core/strbuf.h"
#include "core/xalloc.h"

static void build(struct result_set *rs)
{
	struct measurement *m;
	size_t s;

	result_set_init(rs);
	s = result_set_add_source(rs, "/tmp/a,b.txt", "00ff");
	m = result_set_add(rs, "dd", "write", "bw", "B/s");
	measurement_add_value(m, 1073741824.0 / 1.70473);
	measurement_add_value(m, 1073741824.0 / 1.4057);
	measurement_set_source(m, s, "a,b.txt", 3);
	labels_set(&m->labels, "of", "test");
	labels_set(&m->labels, "bs", "65536");
	labels_set(&m->labels, "command", "dd \"quoted\" x");
	m = result_set_add(rs, "blockdev-perftest", "read", "bw", "B/s");
	m->summary.present = 1;
	m->summary.n = 3;
	m->summary.mean = 100e6;
	m->summary.stddev = 2e6;
	m->summary.stddev_population = 1;
	measurement_set_source(m, s, "a,b.txt", 9);
	m = result_set_add(rs, "fio", "randread", "clat", "s");
	measurement_add_value(m, 1e-4);
	m->hist.n = 2;
	m->hist.value = xcalloc(2, sizeof(double));
	m->hist.count = xcalloc(2, sizeof(uint64_t));
	m->hist.value[0] = 1e-4;
	m->hist.value[1] = 2e-4;
	m->hist.count[0] = 5;
	m->hist.count[1] = 7;
	measurement_set_source(m, s, "a,b.txt", 12);
}

static void test_labels_sorted_unique(void **state)
{
	struct labels l;
	char *s;

	(void)state;
	labels_init(&l);
	labels_set(&l, "rw", "read");
	labels_set(&l, "bs", "4096");
	labels_set(&l, "iodepth", "1");
	labels_set(&l, "bs", "8192");
	s = labels_to_string(&l);
	assert_string_equal(s, "bs=8192;iodepth=1;rw=read");
	free(s);
	labels_remove(&l, "iodepth");
	assert_null(labels_get(&l, "iodepth"));
	assert_int_equal(l.n, 2);
	labels_release(&l);
}

static void test_basic_stats(void **state)
{
	struct result_set rs;
	struct measurement_stats st;

	(void)state;
	build(&rs);
	measurement_basic_stats(&rs.m[0], &st);
	assert_int_equal(st.n, 2);
	assert_true(fabs(st.mean - 0.5 * (1073741824.0 / 1.70473 +
					  1073741824.0 / 1.4057)) < 1e-3);
	/* population 2e6 over n=3 becomes sample 2e6 * sqrt(3/2) */
	measurement_basic_stats(&rs.m[1], &st);
	assert_int_equal(st.n, 3);
	assert_true(fabs(st.stddev - 2e6 * sqrt(1.5)) < 1e-6);
	measurement_basic_stats(&rs.m[2], &st);
	assert_true(isnan(st.stddev));
	result_set_release(&rs);
}

static void test_json_round_trip(void **state)
{
	struct result_set rs, back;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	build(&rs);
	rs_json_write(&rs, &a);
	assert_true(rs_json_sniff(a.buf, a.len));
	result_set_init(&back);
	assert_int_equal(rs_json_read("x.json", a.buf, a.len, &back, &err), 0);
	rs_json_write(&back, &b);
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(back.n, 3);
	assert_true(back.m[1].summary.stddev_population);
	assert_int_equal(back.m[2].hist.count[1], 7);
	assert_string_equal(labels_get(&back.m[0].labels, "command"),
			    "dd \"quoted\" x");
	result_set_release(&rs);
	result_set_release(&back);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
}

struct bad_doc {
	const char *json;
	const char *message;
};

static const struct bad_doc bad_docs[] = {
	{ "{\"schema\": \"storan/1\",\n \"sources\": [}",
	  "bad.json:2: invalid JSON" },
	{ "{\"schema\": \"fio\"}", "bad.json: not a storan result set" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
	  "[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [\"x\"]}]}",
	  "bad.json: measurements[0]: non-number in 'values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
	  "[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1], \"source\": 4}]}",
	  "bad.json: measurements[0]: no such source in 'source'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
	  "[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": []}]}",
	  "bad.json: measurements[0]: no values and no summary in 'values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"schema\": 1}",
	  "bad.json:1: invalid JSON" },
};

static void test_json_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
		struct result_set rs;
		struct strbuf err = STRBUF_INIT;
		const char *j = bad_docs[i].json;

		result_set_init(&rs);
		assert_int_equal(rs_json_read("bad.json", j, strlen(j), &rs,
					      &err), -1);
		assert_non_null(strstr(err.buf, bad_docs[i].message));
		result_set_release(&rs);
		strbuf_release(&err);
	}
}

static void test_csv_quoting(void **state)
{
	struct result_set rs;
	struct strbuf out = STRBUF_INIT;
	const char *row;

	(void)state;
	build(&rs);
	rs_csv_write(&rs, &out);
	assert_true(!strncmp(out.buf, RS_CSV_HEADER "\n",
			     strlen(RS_CSV_HEADER) + 1));
	row = strchr(out.buf, '\n') + 1;
	assert_true(!strncmp(row, "\"a,b.txt\",3,dd,write,bw,B/s,2,",
			     strlen("\"a,b.txt\",3,dd,write,bw,B/s,2,")));
	assert_non_null(strstr(row, ",\"bs=65536;command=dd \"\"quoted\"\" x;"
				    "of=test\"\n"));
	/* summary row: sample stddev from the population one, no min/max */
	assert_non_null(strstr(out.buf, ",9,blockdev-perftest,read,bw,B/s,3,"
				      "100000000,2449489.74278318,,,\n"));
	result_set_release(&rs);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels_sorted_unique),
		cmocka_unit_test(test_basic_stats),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_csv_quoting),
	};

	return cmocka_run_group_tests_name("resultset", tests, NULL, NULL);
}
