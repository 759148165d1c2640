/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Result set: labels, statistics, JSON round trip and its errors, CSV. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/resultset.h"
#include "core/rs-csv.h"
#include "core/rs-bin.h"
#include "core/rs-json.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

static void build(struct result_set *rs)
{
	struct measurement *m;
	struct summary *sm;
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
	sm = measurement_add_summary(m);
	sm->n = 3;
	sm->mean = 100e6;
	sm->stddev = 2e6;
	sm->stddev_population = 1;
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

/* Keys that share first bytes, and bytes past ASCII, in strcmp's order
 * (labels_find() tells most keys apart by their first byte alone). */
static void test_labels_first_bytes(void **state)
{
	static const char *const keys[] = {
		"b", "bw", "bs", "\xc3\xa9t\xc3\xa9", "B", "bs2", "a", "\x7f",
	};
	struct labels l;
	char *s;

	(void)state;
	labels_init(&l);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		labels_set(&l, keys[i], keys[i]);
	s = labels_to_string(&l);
	assert_string_equal(s, "B=B;a=a;b=b;bs=bs;bs2=bs2;bw=bw;\x7f=\x7f;"
			    "\xc3\xa9t\xc3\xa9=\xc3\xa9t\xc3\xa9");
	free(s);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		assert_string_equal(labels_get(&l, keys[i]), keys[i]);
	assert_null(labels_get(&l, "bs1"));
	assert_null(labels_get(&l, "\xc3"));
	assert_null(labels_get(&l, ""));
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

/* Two finite values whose sum overflows still have a finite mean. */
static void test_basic_stats_huge(void **state)
{
	struct result_set rs;
	struct measurement_stats st;
	struct measurement *m;

	(void)state;
	result_set_init(&rs);
	m = result_set_add(&rs, "dd", "write", "bw", "B/s");
	measurement_add_value(m, 1e308);
	measurement_add_value(m, 1e308);
	measurement_add_value(m, 1.6e308);
	measurement_basic_stats(m, &st);
	assert_true(isfinite(st.mean));
	assert_true(fabs(st.mean / 1.2e308 - 1) < 1e-12);
	assert_true(st.max > 1.5e308);
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
	/* storan's own document, escapes and all, needs no whole reading */
	assert_true(rs_json_last_read_streamed());
	rs_json_write(&back, &b);
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(back.n, 3);
	assert_true(measurement_summary(&back.m[1])->stddev_population);
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
	/* (the streaming reader took it, with no measurements to need a
	 * source; the whole reader refused it) */
	{ "{\"schema\": \"storan/1\", \"measurements\": []}",
	  "bad.json: missing array 'sources'" },
	{ "{\"schema\": \"storan/1\",\n \"sources\": [}",
	  "bad.json:2: invalid JSON" },
	{ "{\"schema\": \"fio\"}", "bad.json: not a storan result set" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
	  "[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [\"x\"]}]}",
	  "bad.json:1: measurements[0]: non-number in 'values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
	  "[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1], \"source\": 4}]}",
	  "bad.json:1: measurements[0]: no such source in 'source'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
	  "[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": []}]}",
	  "bad.json:1: measurements[0]: no values and no summary in 'values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"schema\": 1}",
	  "bad.json:1: invalid JSON: duplicate object key" },
	/* json-scan reads the documents; these messages are jansson's */
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
	  "[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\",\n"
	  "\"unit\": \"B/s\", \"values\": [1], \"labels\": "
	  "{\"a\": \"1\", \"a\": \"2\"}}]}",
	  "bad.json:2: invalid JSON: duplicate object key near '\"a\"'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": []}"
	  "\n\n x", "bad.json:3: invalid JSON: end of file expected near 'x'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [{\"path\": 7}], "
	  "\"measurements\": []}", "bad.json: sources[0]: missing 'path'" },
	{ "[1, 2]", "bad.json: not a storan result set" },
	/* silent corruption before (issue 15): now each names its line */
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\",\n"
	  "\"unit\": \"B/s\", \"values\": [], \"summary\":\n"
	  "{\"n\": 1e300, \"mean\": 5}}]}",
	  "bad.json:4: measurements[0]: not a number of runs (1 to 2^53) in "
	  "'summary.n'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [], \"summary\": "
	  "{\"n\": 2.5, \"mean\": 5}}]}",
	  "bad.json:2: measurements[0]: not a number of runs" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"x\",\n\n"
	  "\"unit\": \"furlong\", \"values\": [1]}]}",
	  "bad.json:4: measurements[0]: not a base unit (B/s, 1/s, B, s, %): "
	  "'furlong'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"s\", \"values\": [1]}]}",
	  "bad.json:2: measurements[0]: bw is stored in B/s, not 's'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [], \"summary\": "
	  "{\"n\": 3, \"mean\": 5, \"stddev\": -1}}]}",
	  "bad.json:1: measurements[0]: negative 'summary.stddev'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1], \"line\": -4}]}",
	  "bad.json:1: measurements[0]: not a line number in 'line'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1], \"histogram\": "
	  "{\"values\": [1, 2], \"counts\": [3]}}]}",
	  "bad.json:1: measurements[0]: needs values and counts of one length" },
	/* read as they were before (issue 15): a negative rate, time or
	 * size; a summary whose figures contradict; an underflow read as 0 */
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\",\n"
	  "\"unit\": \"B/s\", \"values\": [1, -5]}]}",
	  "bad.json:3: measurements[0]: negative figure of a B/s, 1/s, B or s "
	  "metric in 'values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"lat.mean\",\n"
	  "\"unit\": \"s\", \"values\": [], \"summary\":\n"
	  "{\"n\": 3, \"mean\": -1e-3}}]}",
	  "bad.json:4: measurements[0]: negative figure of a B/s, 1/s, B or s "
	  "metric in 'summary.mean'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
	  "{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"iops\", "
	  "\"unit\": \"1/s\", \"values\": [], \"summary\": "
	  "{\"n\": 3, \"mean\": 5, \"min\": -1, \"max\": 6}}]}",
	  "bad.json:1: measurements[0]: negative figure of a B/s, 1/s, B or s "
	  "metric in 'min'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bytes\", "
	  "\"unit\": \"B\", \"values\": [1], \"histogram\": "
	  "{\"values\": [-1], \"counts\": [3]}}]}",
	  "bad.json:1: measurements[0]: negative figure of a B/s, 1/s, B or s "
	  "metric in 'histogram.values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\",\n"
	  "\"unit\": \"B/s\", \"values\": [], \"summary\":\n"
	  "{\"n\": 3, \"mean\": 5, \"min\": 7, \"max\": 6}}]}",
	  "bad.json:4: measurements[0]: greater than summary.max: "
	  "'summary.min'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\",\n"
	  "\"unit\": \"B/s\", \"values\": [], \"summary\":\n"
	  "{\"n\": 3, \"mean\": 9, \"min\": 5, \"max\": 6}}]}",
	  "bad.json:4: measurements[0]: outside [summary.min, summary.max]: "
	  "'summary.mean'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\",\n"
	  "\"unit\": \"B/s\", \"values\": [], \"summary\":\n"
	  "{\"n\": 3, \"mean\": 4, \"min\": 5, \"max\": 6}}]}",
	  "bad.json:4: measurements[0]: outside [summary.min, summary.max]: "
	  "'summary.mean'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"x\",\n"
	  "\"unit\": \"%\", \"values\": [\n1e-400]}]}",
	  "bad.json:4: measurements[0]: out of range in 'values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [], \"summary\": "
	  "{\"n\": 3, \"mean\": 5, \"stddev\": 2.5e-310}}]}",
	  "bad.json:1: measurements[0]: out of range in 'stddev'" },
	/* what the streaming reader (rs-json-read.c) hands back to the
	 * whole-document one: wrong after a good measurement, an outer key
	 * twice, text after the document, a drop before the sources */
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1]},\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [\"x\"]}]}",
	  "bad.json:3: measurements[1]: non-number in 'values'" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1]}],\n\"sources\": []}",
	  "bad.json:3: invalid JSON: duplicate object key" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1], \"values\": [2]}]}",
	  "bad.json:2: invalid JSON: duplicate object key" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1]}]}\n}",
	  "bad.json:3: invalid JSON: end of file expected" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1]},]}",
	  "bad.json:2: invalid JSON" },
	{ "{\"schema\": \"storan/1\", \"cache_drops\": [{\"source\": 0, "
	  "\"source_name\": \"a\", \"line\": 1}], \"sources\": [], "
	  "\"measurements\": []}",
	  "bad.json:1: cache_drops[0]: want" },
	{ "{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": []",
	  "bad.json:1: invalid JSON" },
	/* as storan writes them, the sources last: an index past them */
	{ "{\"schema\": \"storan/1\", \"measurements\": [\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1], \"source\": 0, "
	  "\"source_name\": \"a\"},\n"
	  "{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
	  "\"unit\": \"B/s\", \"values\": [1], \"source\": 1, "
	  "\"source_name\": \"b\"}],\n"
	  "\"sources\": [{\"path\": \"a\"}]}",
	  "bad.json:3: measurements[1]: no such source in 'source'" },
};

/* A copy of text that rs_json_read_in_place() may take as a file's. */
static char *dup_text(const char *text)
{
	size_t len = strlen(text);
	char *copy = malloc(len + 1);

	assert_non_null(copy);
	memcpy(copy, text, len + 1);
	return copy;
}

/* Read as ingest reads a file (the streaming path when the text has no
 * escapes): the same message, and what is left in the result set is what
 * the whole-document reader leaves (`read`: nothing of the streaming). */
static void check_in_place_error(const struct bad_doc *bad, size_t i,
				 const struct result_set *read)
{
	struct result_set rs;
	struct strbuf err = STRBUF_INIT;
	char *text = dup_text(bad->json);

	result_set_init(&rs);
	assert_int_equal(rs_json_read_in_place("bad.json", text, strlen(text),
					       &rs, &err), -1);
	if (!strstr(err.buf, bad->message))
		fail_msg("doc %zu in place: '%s', not '%s'", i, err.buf,
			 bad->message);
	if (strstr(err.buf + 1, "bad.json"))
		fail_msg("doc %zu in place: two messages: '%s'", i, err.buf);
	assert_int_equal(rs.n, read->n);
	assert_int_equal(rs.nsources, read->nsources);
	assert_int_equal(rs.ndrops, read->ndrops);
	result_set_release(&rs);
	strbuf_release(&err);
	free(text);
}

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
		if (!strstr(err.buf, bad_docs[i].message))
			fail_msg("doc %zu: '%s', not '%s'", i, err.buf,
				 bad_docs[i].message);
		check_in_place_error(&bad_docs[i], i, &rs);
		result_set_release(&rs);
		strbuf_release(&err);
	}
}

/* Read in place (streaming or not, as told) and read from a copy,
 * written back. */
static void assert_both_readers_agree(const char *doc, size_t n,
				      int streamed)
{
	struct result_set a, b;
	struct strbuf ja = STRBUF_INIT, jb = STRBUF_INIT, err = STRBUF_INIT;
	char *text = dup_text(doc);

	result_set_init(&a);
	result_set_init(&b);
	if (rs_json_read("x.json", doc, strlen(doc), &a, &err) ||
	    rs_json_read_in_place("x.json", text, strlen(text), &b, &err))
		fail_msg("%s: %s", doc, err.buf);
	if (rs_json_last_read_streamed() != streamed)
		fail_msg("streamed %d, not %d: %s", !streamed, streamed, doc);
	assert_int_equal(b.n, n);
	rs_json_write(&a, &ja);
	rs_json_write(&b, &jb);
	assert_string_equal(ja.buf, jb.buf);
	assert_string_equal(text, doc);		/* not written to */
	result_set_release(&a);
	result_set_release(&b);
	strbuf_release(&ja);
	strbuf_release(&jb);
	strbuf_release(&err);
	free(text);
}

/*
 * Strings with escapes (a tool, a label key and value, a source path)
 * are read in place too, decoded into copies: the text stays as it was
 * (a text with a backslash was copied before it was read, once).
 */
static void test_json_escapes_in_place(void **state)
{
	static const char doc[] = "{\"schema\": \"storan/1\", "
		"\"sources\": [{\"path\": \"a\\\\b\\u00e9.txt\"}], "
		"\"measurements\": [{\"tool\": \"d\\u0064\", \"op\": "
		"\"read\", \"metric\": \"bw\", \"unit\": \"B/s\", "
		"\"values\": [1, 2], \"labels\": {\"b\\u0073\": "
		"\"40\\u00396\", \"note\": \"a\\\"b\\tc\"}, \"source\": 0}, "
		"{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
		"\"unit\": \"B/s\", \"values\": [3], \"labels\": {\"bs\": "
		"\"4096\"}, \"source\": 0}]}";
	struct result_set rs;
	struct strbuf err = STRBUF_INIT;
	char *text = dup_text(doc);

	(void)state;
	assert_both_readers_agree(doc, 2, 1);
	result_set_init(&rs);
	assert_int_equal(rs_json_read_in_place("x.json", text, strlen(text),
					       &rs, &err), 0);
	assert_string_equal(rs.m[0].tool, "dd");
	assert_string_equal(labels_get(&rs.m[0].labels, "bs"), "4096");
	assert_string_equal(labels_get(&rs.m[0].labels, "note"), "a\"b\tc");
	assert_string_equal(rs.sources[0].path, "a\\b\xc3\xa9.txt");
	assert_string_equal(text, doc);
	result_set_release(&rs);
	strbuf_release(&err);
	free(text);
}

/*
 * Measurements without "source" in a document with no sources (written
 * by hand) were read with source 0 and no source 0: written again, in
 * JSON or in binary, storan refused its own file ("no such source"; the
 * fuzzer found it), and appended behind another set they took the next
 * set's first source.  They get a source with no path now.
 */
static void test_json_measurements_without_sources(void **state)
{
	static const char bare[] = "{\"schema\": \"storan/1\", "
		"\"sources\": [], \"measurements\": [{\"tool\": \"dd\", "
		"\"op\": \"copy\", \"metric\": \"bytes\", \"unit\": \"B\", "
		"\"values\": [4096], \"source_name\": \"typed\"}]}";
	static const char named[] = "{\"schema\": \"storan/1\", "
		"\"sources\": [{\"path\": \"dir/c.txt\"}], \"measurements\": "
		"[{\"tool\": \"dd\", \"op\": \"copy\", \"metric\": \"bytes\", "
		"\"unit\": \"B\", \"values\": [1], \"source\": 0}]}";
	struct result_set rs, back, all, c;
	struct strbuf json = STRBUF_INIT, bin = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	result_set_init(&back);
	result_set_init(&all);
	result_set_init(&c);
	assert_int_equal(rs_json_read("bare.json", bare, strlen(bare), &rs,
				      &err), 0);
	assert_int_equal(rs.nsources, 1);
	assert_int_equal(rs.m[0].source, 0);
	assert_string_equal(rs.sources[0].path, "");
	assert_string_equal(rs.m[0].source_name, "typed");
	rs_json_write(&rs, &json);
	if (rs_json_read("again.json", json.buf, json.len, &back, &err))
		fail_msg("JSON not read back: %s\n%s", err.buf, json.buf);
	assert_int_equal(back.nsources, 1);
	rs_bin_write(&rs, &bin, NULL);
	result_set_release(&back);
	result_set_init(&back);
	if (rs_bin_read("again.srb", bin.buf, bin.len, &back, &err))
		fail_msg("binary not read back: %s", err.buf);
	assert_string_equal(back.m[0].source_name, "typed");
	/* behind another set, still its own document's */
	assert_int_equal(rs_json_read("bare.json", bare, strlen(bare), &all,
				      &err), 0);
	assert_int_equal(rs_json_read("c.json", named, strlen(named), &c,
				      &err), 0);
	result_set_append(&all, &c);
	assert_int_equal(all.nsources, 2);
	assert_int_equal(all.m[0].source, 0);
	assert_int_equal(all.m[1].source, 1);
	assert_string_equal(all.sources[1].name, "c.txt");
	result_set_release(&rs);
	result_set_release(&back);
	result_set_release(&all);
	result_set_release(&c);
	strbuf_release(&json);
	strbuf_release(&bin);
	strbuf_release(&err);
}

/* Any order of the outer members reads the same, streamed or not. */
static void test_json_member_orders(void **state)
{
	static const char m[] = "{\"tool\": \"dd\", \"op\": \"read\", "
		"\"metric\": \"bw\", \"unit\": \"B/s\", \"values\": [1, 2], "
		"\"labels\": {\"bs\": \"4096\"}, \"source\": 1}";
	static const char named[] = "{\"tool\": \"dd\", \"op\": \"read\", "
		"\"metric\": \"bw\", \"unit\": \"B/s\", \"values\": [3], "
		"\"source\": 0, \"source_name\": \"x:\", \"line\": 7}";
	static const char src[] = "[{\"path\": \"a.txt\"}, {\"path\": \"b.txt\"}]";
	static const char drops[] = "[{\"source\": 1, \"source_name\": "
		"\"b.txt\", \"line\": 3}]";
	char doc[2048];

	(void)state;
	snprintf(doc, sizeof(doc), "{\"schema\": \"storan/1\", \"sources\": %s, "
		 "\"measurements\": [%s, %s], \"cache_drops\": %s}", src, m, m,
		 drops);
	assert_both_readers_agree(doc, 2, 1);
	snprintf(doc, sizeof(doc), "{\"measurements\": [%s], \"sources\": %s, "
		 "\"schema\": \"storan/1\"}", m, src);
	assert_both_readers_agree(doc, 1, 0);	/* no source_name */
	/* storan's own order, with and without a source_name */
	snprintf(doc, sizeof(doc), "{\"schema\": \"storan/1\", \"measurements\": "
		 "[%s, %s], \"sources\": %s, \"cache_drops\": %s}", named,
		 named, src, drops);
	assert_both_readers_agree(doc, 2, 1);
	snprintf(doc, sizeof(doc), " {\"generator\": {\"x\": [1, null, true]}, "
		 "\"sources\": %s, \"cache_drops\": %s, \"n\": -1.5e3, "
		 "\"measurements\": [ ] , \"schema\": \"storan/1\"}\n", src,
		 drops);
	assert_both_readers_agree(doc, 0, 1);
}

/* What the checks above must still let through: a computed mean an ulp
 * outside [min, max], a negative zero, a tiny normal figure, a negative
 * percentage. */
static void test_json_edges_accepted(void **state)
{
	static const char *const docs[] = {
		"{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
		"[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
		"\"unit\": \"B/s\", \"values\": [], \"summary\": {\"n\": 3, "
		"\"mean\": 0.10000000000000002, \"min\": 0.1, \"max\": 0.1}}]}",
		"{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
		"[{\"tool\": \"dd\", \"op\": \"read\", \"metric\": \"bw\", "
		"\"unit\": \"B/s\", \"values\": [-0.0, 0, 0e-400, 1e-300]}]}",
		"{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": "
		"[{\"tool\": \"x\", \"op\": \"read\", \"metric\": \"x\", "
		"\"unit\": \"%\", \"values\": [-3]}]}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		struct result_set rs;
		struct strbuf err = STRBUF_INIT;

		result_set_init(&rs);
		if (rs_json_read("ok.json", docs[i], strlen(docs[i]), &rs,
				 &err))
			fail_msg("doc %zu: %s", i, strbuf_str(&err));
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

/*
 * The reference: how measurements were written before the direct writer,
 * through a jansson tree.  The direct writer must print the same bytes.
 */
static json_t *ref_real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ref_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *ref_measurement(const struct measurement *m)
{
	json_t *o = json_object(), *vals = json_array(), *labels;

	json_object_set_new(o, "tool", json_string(m->tool));
	json_object_set_new(o, "op", json_string(m->op));
	json_object_set_new(o, "metric", json_string(m->metric));
	json_object_set_new(o, "unit", json_string(m->unit));
	for (size_t i = 0; i < m->n; i++)
		json_array_append_new(vals, ref_real_or_null(m->values[i]));
	json_object_set_new(o, "values", vals);
	if (measurement_summary(m)->present) {
		const struct summary *sum = measurement_summary(m);
		json_t *s = json_object();

		json_object_set_new(s, "n", json_real(sum->n));
		json_object_set_new(s, "mean", ref_real_or_null(sum->mean));
		json_object_set_new(s, "stddev", ref_real_or_null(sum->stddev));
		json_object_set_new(s, "stddev_population",
				    json_boolean(sum->stddev_population));
		json_object_set_new(s, "min", ref_real_or_null(sum->min));
		json_object_set_new(s, "max", ref_real_or_null(sum->max));
		json_object_set_new(o, "summary", s);
	}
	if (m->hist.n) {
		json_t *h = json_object(), *v = json_array(), *c = json_array();

		for (size_t i = 0; i < m->hist.n; i++) {
			json_array_append_new(v, json_real(m->hist.value[i]));
			json_array_append_new(c, json_integer(
				(json_int_t)m->hist.count[i]));
		}
		json_object_set_new(h, "values", v);
		json_object_set_new(h, "counts", c);
		json_object_set_new(o, "histogram", h);
	}
	labels = json_object();
	for (size_t i = 0; i < m->labels.n; i++)
		json_object_set_new(labels, m->labels.v[i].key,
				    json_string(m->labels.v[i].value));
	json_object_set_new(o, "labels", labels);
	json_object_set_new(o, "source", json_integer((json_int_t)m->source));
	json_object_set_new(o, "source_name", ref_str_or_null(m->source_name));
	json_object_set_new(o, "line", json_integer(m->line));
	return o;
}

static void test_json_writer_matches_jansson(void **state)
{
	static const double values[] = {
		0, -0.0, 1, 1e-5, 1.5e-9, 123456789.125, 1e22, 2.5e-310,
		0.1, 1.0 / 3, 563.487303, 9007199254740993.0, NAN, INFINITY,
		-7.25, 1e300, 4.2e-5, 100,
	};
	struct result_set rs;
	struct strbuf got = STRBUF_INIT;
	size_t count = 0, s;
	struct measurement *m;

	(void)state;
	result_set_init(&rs);
	s = result_set_add_source(&rs, "x.json", "ab");
	for (size_t i = 0; i < sizeof(values) / sizeof(*values); i++) {
		m = result_set_add(&rs, "fio", "read", "clat.p99", "s");
		measurement_add_value(m, values[i]);
		measurement_add_value(m, values[(i + 5) % 18]);
		measurement_set_source(m, s, i % 2 ? "x.json" : "d\"ir/\x01.txt",
				       (unsigned)i);
		labels_set(&m->labels, "job", "tab\there \"q\" \\ \u00e9 \x7f");
		labels_set(&m->labels, "section", i % 3 ? "ok" : "bad \xe9 latin1");
		labels_set(&m->labels, "k\xff", "v");
		if (i % 4 == 1) {
			struct summary *sm = measurement_add_summary(m);

			sm->n = i % 8 == 1 ? NAN : 3;
			sm->mean = values[i];
			sm->stddev = values[(i + 1) % 18];
			sm->min = NAN;
			sm->max = values[(i + 3) % 18];
			sm->stddev_population = (int)(i % 2);
		}
		if (i % 3 == 2) {
			m->hist.n = 4;
			m->hist.value = calloc(4, sizeof(double));
			m->hist.count = calloc(4, sizeof(uint64_t));
			for (size_t k = 0; k < 4; k++) {
				m->hist.value[k] = values[(i + k) % 18];
				m->hist.count[k] = (uint64_t)(k * 1000003 + i);
			}
		}
	}
	m = result_set_add(&rs, "bad\xc3(", "read", "bw", "B/s");
	measurement_set_source(m, s, "ok", 1);
	rs_json_add_measurements(&rs, 0, &count, &got);
	for (size_t i = 0, at = 0; i < rs.n; i++) {
		json_t *ref = ref_measurement(&rs.m[i]);
		char *want = json_dumps(ref, JSON_PRESERVE_ORDER |
					JSON_REAL_PRECISION(17));
		/* each line after "\n  ", or ",\n  " but the first */
		const char *line = got.buf + at + (i ? 4 : 3);
		size_t len = strlen(want);

		if (strncmp(line, want, len))
			fail_msg("measurement %zu:\n  got  %.*s\n  want %s", i,
				 (int)len, line, want);
		at = (size_t)(line - got.buf) + len;
		free(want);
		json_decref(ref);
	}
	strbuf_release(&got);
	result_set_release(&rs);
}

/*
 * Histogram values are printed once a thread and copied after (a memo of
 * 2,048 slots): 6,000 distinct values, each printed three times in three
 * orders, overwrite slots again and again and must still print as
 * jansson does.
 */
static void test_histogram_values_memo(void **state)
{
	enum { DISTINCT = 6000, N = 3 * DISTINCT };
	struct result_set rs;
	struct strbuf got = STRBUF_INIT;
	struct measurement *m;
	json_t *ref;
	char *want;
	size_t count = 0;

	(void)state;
	result_set_init(&rs);
	m = result_set_add(&rs, "fio", "read", "clat.mean", "s");
	measurement_add_value(m, 1e-3);
	m->hist.n = N;
	m->hist.value = calloc(N, sizeof(double));
	m->hist.count = calloc(N, sizeof(uint64_t));
	for (size_t k = 0; k < N; k++) {
		size_t i = k < DISTINCT ? k : k < 2 * DISTINCT ?
			   DISTINCT - 1 - (k - DISTINCT) :
			   (k * 7919) % DISTINCT;

		/* fio-like bucket values in seconds, and some odd ones */
		m->hist.value[k] = i % 5 ? (double)(i * 512 + 3) / 1e9 :
				   -(double)i * 1e17 - 0.5;
		m->hist.count[k] = k;
	}
	rs_json_add_measurements(&rs, 0, &count, &got);
	ref = ref_measurement(&rs.m[0]);
	want = json_dumps(ref, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	assert_string_equal(got.buf + 3, want);
	free(want);
	json_decref(ref);
	strbuf_release(&got);
	result_set_release(&rs);
}

static void assert_values(const struct measurement *m, const double *v,
			  size_t n)
{
	assert_int_equal(m->n, n);
	assert_memory_equal(m->values, v, n * sizeof(*v));
}

/*
 * A measurement's strings and first value share one block: changing the
 * key or the source keeps the values, a second value moves them out, and
 * everything is freed once (ASan).
 */
static void test_measurement_block(void **state)
{
	static const double v[] = { 1.5, 2.5, 3.5 };
	struct result_set rs;
	struct measurement *m;

	(void)state;
	result_set_init(&rs);
	m = result_set_add_from(&rs, "fio", "read", "bw", "B/s", 0, "a.txt", 7);
	assert_string_equal(m->source_name, "a.txt");
	assert_int_equal(m->line, 7);
	measurement_add_value(m, 1.5);
	assert_values(m, v, 1);
	measurement_set_source(m, 0, "a-much-longer-source-name.txt", 9);
	measurement_set_key(m, "dd", "write", "throughput.mean", "B/s");
	assert_string_equal(m->tool, "dd");
	assert_string_equal(m->metric, "throughput.mean");
	assert_string_equal(m->source_name, "a-much-longer-source-name.txt");
	assert_int_equal(m->line, 9);
	assert_values(m, v, 1);
	measurement_add_value(m, 2.5);
	measurement_add_value(m, 3.5);
	assert_values(m, v, 3);
	measurement_set_key(m, "dd", "read", "bw", "B/s");
	assert_values(m, v, 3);
	m = result_set_add(&rs, "time", "run", "real", "s");
	assert_null(m->source_name);
	measurement_set_source(m, 0, "t.txt", 1);
	assert_string_equal(m->source_name, "t.txt");
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->n, 0);
	result_set_release(&rs);
}

/*
 * result_set_append(): into an empty set it takes src's arrays whole
 * (nothing copied); into a set with sources, src's measurements follow
 * and point at their own sources, renumbered after dst's.
 */
static void one_source_set(struct result_set *rs, const char *name,
			   double v)
{
	struct measurement *m;
	size_t src;

	result_set_init(rs);
	src = result_set_add_source(rs, name, NULL);
	m = result_set_add_from(rs, "fio", "read", "bw", "B/s", src, name, 7);
	measurement_add_value(m, v);
}

static void test_append(void **state)
{
	struct result_set dst, a, b;
	const struct measurement *m_a;

	(void)state;
	result_set_init(&dst);
	one_source_set(&a, "a.txt", 1);
	one_source_set(&b, "b.txt", 2);
	m_a = a.m;
	result_set_append(&dst, &a);
	assert_ptr_equal(dst.m, m_a);		/* taken, not copied */
	assert_int_equal(a.n, 0);
	assert_null(a.m);
	result_set_append(&dst, &b);
	assert_int_equal(dst.n, 2);
	assert_int_equal(dst.nsources, 2);
	assert_int_equal(dst.m[1].source, 1);
	assert_string_equal(dst.sources[dst.m[1].source].name, "b.txt");
	assert_string_equal(dst.sources[dst.m[0].source].name, "a.txt");
	assert_int_equal((int)dst.m[1].values[0], 2);
	assert_int_equal(b.n, 0);
	result_set_release(&a);
	result_set_release(&b);
	result_set_release(&dst);
}

/* A set whose measurements go to slice[0..room) of another's array. */
static void slice_set(struct result_set *rs, struct measurement *slice,
		      size_t room)
{
	result_set_init(rs);
	rs->m = slice;
	rs->alloc = room;
	rs->m_borrowed = 1;
}

/* An empty set owning an array of room measurements, to be sliced. */
static struct measurement *array_set(struct result_set *rs, size_t room)
{
	result_set_init(rs);
	rs->m = xmalloc(room * sizeof(*rs->m));
	rs->alloc = room;
	return rs->m;
}

static void add_one(struct result_set *rs, const char *name, double v)
{
	size_t src = result_set_add_source(rs, name, NULL);
	struct measurement *m = result_set_add_from(rs, "fio", "read", "bw",
						    "B/s", src, name, 7);

	measurement_add_value(m, v);
}

/*
 * Slices of one array (load_inputs() of binary result sets): each input's
 * measurements are made in its place and appended where they are; an
 * empty one before moves the next forward; one that outgrows its room
 * moves to an array of its own; none is freed but the array.  (ASan:
 * a slice freed or reallocated is an invalid free.)
 */
static void test_append_slices(void **state)
{
	struct result_set all, a, b, c, d;
	struct measurement *block = array_set(&all, 6);

	(void)state;
	slice_set(&a, block, 2);
	slice_set(&b, block + 2, 1);
	slice_set(&c, block + 3, 2);
	slice_set(&d, block + 5, 1);
	add_one(&a, "a.txt", 1);
	add_one(&a, "a2.txt", 2);
	add_one(&b, "b.txt", 3);
	add_one(&d, "d.txt", 5);
	add_one(&d, "d2.txt", 6);		/* outgrows its room */
	assert_ptr_equal(a.m, block);
	assert_ptr_equal(b.m, block + 2);
	assert_false(d.m_borrowed);
	assert_true(d.alloc >= 2);
	assert_ptr_not_equal(d.m, block + 5);
	result_set_append(&all, &a);
	result_set_append(&all, &b);
	assert_ptr_equal(all.m, block);		/* in place, not copied */
	assert_int_equal(all.n, 3);
	assert_int_equal(all.m[2].source, 2);
	assert_string_equal(all.sources[all.m[2].source].name, "b.txt");
	result_set_append(&all, &c);		/* empty: nothing */
	result_set_append(&all, &d);		/* copied behind b's */
	assert_ptr_equal(all.m, block);
	assert_int_equal(all.n, 5);
	for (size_t i = 0; i < all.n; i++) {
		assert_int_equal((int)all.m[i].values[0], (int)i + 1 +
				 (i >= 3));
		assert_int_equal(all.m[i].source, i);
	}
	assert_string_equal(all.sources[all.m[4].source].name, "d2.txt");
	result_set_release(&a);
	result_set_release(&b);
	result_set_release(&c);
	result_set_release(&d);
	result_set_release(&all);
}

/* A slice after an empty one is copied forward within the array. */
static void test_append_slice_forward(void **state)
{
	struct result_set all, a, b;
	struct measurement *block = array_set(&all, 4);

	(void)state;
	slice_set(&a, block, 2);
	slice_set(&b, block + 2, 2);
	add_one(&b, "b.txt", 3);
	add_one(&b, "b2.txt", 4);
	result_set_append(&all, &a);		/* (a failed: empty) */
	assert_ptr_equal(all.m, block);		/* the array kept */
	result_set_append(&all, &b);
	assert_ptr_equal(all.m, block);
	assert_int_equal(all.n, 2);
	assert_int_equal((int)all.m[0].values[0], 3);
	assert_int_equal((int)all.m[1].values[0], 4);
	assert_string_equal(all.sources[all.m[1].source].name, "b2.txt");
	result_set_release(&a);
	result_set_release(&b);
	result_set_release(&all);
}

/*
 * Cache drops move with their set, whichever way it is appended (their
 * source index shifted as the measurements'), and go with their source
 * when it is truncated away (an input voided while read).
 */
static void test_append_cache_drops(void **state)
{
	struct result_set dst, a, b;

	(void)state;
	result_set_init(&dst);
	one_source_set(&a, "a.txt", 1);
	result_set_add_cache_drop(&a, 0, "a.txt", 3);
	one_source_set(&b, "b.txt", 2);
	result_set_add_cache_drop(&b, 0, "run.txt", 9);
	result_set_add_cache_drop(&b, 0, "b.txt", 12);
	result_set_append(&dst, &a);		/* taken whole */
	result_set_append(&dst, &b);		/* copied after */
	assert_int_equal(dst.ndrops, 3);
	assert_string_equal(dst.drops[0].name, "a.txt");
	assert_int_equal(dst.drops[0].source, 0);
	assert_int_equal(dst.drops[0].line, 3);
	assert_string_equal(dst.drops[2].name, "b.txt");
	assert_int_equal(dst.drops[2].source, 1);	/* b's source, moved */
	assert_int_equal(dst.drops[2].line, 12);
	assert_int_equal(b.ndrops, 0);
	assert_null(b.drops);
	/* the drops of a source truncated away go with it */
	result_set_truncate(&dst, 1, 1);
	assert_int_equal(dst.ndrops, 1);
	assert_string_equal(dst.drops[0].name, "a.txt");
	result_set_truncate(&dst, 0, 0);
	assert_int_equal(dst.ndrops, 0);
	result_set_release(&a);
	result_set_release(&b);
	result_set_release(&dst);
}

/*
 * The JSON reader: a measurement whose labels are written as the last
 * one's shares its set (one copy for a job's metrics); a different one
 * gets its own; changing a shared set changes only its measurement.
 */
static void test_json_shares_labels(void **state)
{
	static const char doc[] =
		"{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\","
		" \"unit\": \"B/s\", \"values\": [1],"
		" \"labels\": {\"bs\": \"4096\", \"host\": \"a\"}},"
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"iops\","
		" \"unit\": \"1/s\", \"values\": [2],"
		" \"labels\": {\"bs\": \"4096\", \"host\": \"a\"}},"
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\","
		" \"unit\": \"B/s\", \"values\": [3],"
		" \"labels\": {\"bs\": \"4096\", \"host\": \"b\"}}]}";
	struct result_set rs;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	assert_int_equal(rs_json_read("s.json", doc, strlen(doc), &rs, &err),
			 0);
	assert_int_equal(rs.n, 3);
	assert_ptr_equal(rs.m[0].labels.v, rs.m[1].labels.v);
	assert_ptr_not_equal(rs.m[1].labels.v, rs.m[2].labels.v);
	assert_string_equal(labels_get(&rs.m[2].labels, "host"), "b");
	labels_set(&rs.m[1].labels, "host", "c");
	assert_string_equal(labels_get(&rs.m[0].labels, "host"), "a");
	assert_string_equal(labels_get(&rs.m[1].labels, "host"), "c");
	result_set_release(&rs);
	strbuf_release(&err);
}

/*
 * A set written again further down, with other sets between (the same
 * bs and iodepth for the next op), shares the first one's too.
 */
static void test_json_shares_labels_again(void **state)
{
	static const char doc[] =
		"{\"schema\": \"storan/1\", \"sources\": [], \"measurements\": ["
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\","
		" \"unit\": \"B/s\", \"values\": [1],"
		" \"labels\": {\"bs\": \"4096\", \"host\": \"a\"}},"
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\","
		" \"unit\": \"B/s\", \"values\": [2],"
		" \"labels\": {\"bs\": \"8192\", \"host\": \"a\"}},"
		"{\"tool\": \"fio\", \"op\": \"write\", \"metric\": \"bw\","
		" \"unit\": \"B/s\", \"values\": [3],"
		" \"labels\": {\"bs\": \"4096\", \"host\": \"a\"}}]}";
	struct result_set rs;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	assert_int_equal(rs_json_read("s.json", doc, strlen(doc), &rs, &err),
			 0);
	assert_int_equal(rs.n, 3);
	assert_ptr_equal(rs.m[0].labels.v, rs.m[2].labels.v);
	assert_ptr_not_equal(rs.m[0].labels.v, rs.m[1].labels.v);
	labels_set(&rs.m[2].labels, "bs", "1M");	/* copy on write */
	assert_string_equal(labels_get(&rs.m[0].labels, "bs"), "4096");
	result_set_release(&rs);
	strbuf_release(&err);
}

/*
 * Regression: a document read in place copies its strings into the
 * reader's token store, which is reset (its extra chunks freed) after
 * every measurement; the sharing test compared the next measurement's
 * labels with pointers into that freed store (heap-use-after-free
 * under ASan, seen in CI on `storan report`).  Two long values take a
 * store chunk each, so the reset frees one of them.
 */
static void append_long_measurement(struct strbuf *doc, const char *t)
{
	strbuf_adds(doc, "{\"tool\": \"fio\", \"op\": \"read\","
		      " \"metric\": \"bw\", \"unit\": \"B/s\","
		      " \"values\": [1], \"labels\": {");
	for (int k = 0; k < 2; k++) {
		strbuf_addf(doc, "\"k%d\": \"a", k);
		for (int i = 0; i < 20000; i++)
			strbuf_addch(doc, 'b');
		strbuf_adds(doc, "\", ");
	}
	strbuf_addf(doc, "\"t\": \"%s\"}}", t);
}

static void test_json_shares_long_labels(void **state)
{
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
	struct result_set rs;

	(void)state;
	strbuf_adds(&doc, "{\"schema\": \"storan/1\", \"sources\": [],"
		      " \"measurements\": [");
	append_long_measurement(&doc, "1");
	strbuf_addch(&doc, ',');
	append_long_measurement(&doc, "1");
	strbuf_addch(&doc, ',');
	append_long_measurement(&doc, "2");
	strbuf_adds(&doc, "]}");
	result_set_init(&rs);
	assert_int_equal(rs_json_read_in_place("e.json", doc.buf, doc.len, &rs,
					       &err), 0);
	assert_int_equal(rs.n, 3);
	assert_ptr_equal(rs.m[0].labels.v, rs.m[1].labels.v);
	assert_int_equal(strlen(labels_get(&rs.m[1].labels, "k1")), 20001);
	assert_string_equal(labels_get(&rs.m[2].labels, "t"), "2");
	result_set_release(&rs);
	strbuf_release(&doc);
	strbuf_release(&err);
}

/*
 * Pooled measurements (storan/1 read back by rs-json-fast.c) share one
 * key text and keep their values in the set's pool; changed, they move
 * to blocks of their own; appended to another set, their pool goes
 * with them; ASan sees every free.
 */
static void test_pooled(void **state)
{
	static const char doc[] =
		"{\"schema\": \"storan/1\", \"measurements\": [\n"
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\", "
		"\"unit\": \"B/s\", \"values\": [1, 2, 3], \"source\": 0, \"source_name\": \"a.txt\"},\n"
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\", "
		"\"unit\": \"B/s\", \"values\": [4], \"source\": 0, \"source_name\": \"a.txt\"},\n"
		"{\"tool\": \"fio\", \"op\": \"write\", \"metric\": \"bw\", "
		"\"unit\": \"B/s\", \"values\": [5], \"source\": 0, \"source_name\": \"a.txt\"}],\n"
		"\"sources\": [{\"path\": \"d/a.txt\", \"name\": \"a.txt\", "
		"\"format\": \"fio\", \"tool_version\": null, \"sha256\": null}]}\n";
	struct result_set rs, all;
	struct strbuf err = STRBUF_INIT;
	struct measurement *m;

	(void)state;
	result_set_init(&rs);
	result_set_init(&all);
	assert_int_equal(rs_json_read("t.json", doc, strlen(doc), &rs, &err), 0);
	assert_int_equal(rs.n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_true(rs.m[i].pooled);
	assert_ptr_equal(rs.m[0].tool, rs.m[1].tool);	/* one text */
	assert_ptr_not_equal(rs.m[0].tool, rs.m[2].tool);
	assert_string_equal(rs.m[2].op, "write");
	assert_string_equal(rs.m[1].source_name, "a.txt");
	assert_true(measurement_same_key(&rs.m[0], &rs.m[1]));
	assert_int_equal(measurement_key_hash(&rs.m[0]),
			 measurement_key_hash(&rs.m[1]));
	/* a value more: out of the pool; a new source name: its own block */
	measurement_add_value(&rs.m[1], 6);
	assert_int_equal(rs.m[1].n, 2);
	assert_true(rs.m[1].values[0] > 3.99 && rs.m[1].values[1] > 5.99);
	measurement_set_source(&rs.m[2], 0, "b.txt", 9);
	assert_false(rs.m[2].pooled);
	assert_string_equal(rs.m[2].op, "write");
	assert_string_equal(rs.m[2].source_name, "b.txt");
	assert_true(rs.m[2].values[0] > 4.99);
	/* into a set that has measurements of its own: the pool goes too */
	m = result_set_add(&all, "dd", "write", "bw", "B/s");
	measurement_add_value(m, 7);
	result_set_append(&all, &rs);
	assert_int_equal(all.n, 4);
	assert_string_equal(all.m[1].tool, "fio");
	assert_true(all.m[3].values[0] > 4.99);
	result_set_release(&rs);
	assert_string_equal(all.m[2].metric, "bw");	/* still there */
	assert_true(all.m[1].values[2] > 2.99);
	result_set_release(&all);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels_sorted_unique),
		cmocka_unit_test(test_labels_first_bytes),
		cmocka_unit_test(test_basic_stats),
		cmocka_unit_test(test_basic_stats_huge),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_edges_accepted),
		cmocka_unit_test(test_json_member_orders),
		cmocka_unit_test(test_json_escapes_in_place),
		cmocka_unit_test(test_json_measurements_without_sources),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_json_writer_matches_jansson),
		cmocka_unit_test(test_histogram_values_memo),
		cmocka_unit_test(test_measurement_block),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_append_slices),
		cmocka_unit_test(test_append_slice_forward),
		cmocka_unit_test(test_pooled),
		cmocka_unit_test(test_append_cache_drops),
		cmocka_unit_test(test_json_shares_labels),
		cmocka_unit_test(test_json_shares_labels_again),
		cmocka_unit_test(test_json_shares_long_labels),
	};

	return cmocka_run_group_tests_name("resultset", tests, NULL, NULL);
}
