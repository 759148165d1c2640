/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/rs-json-fast.c: what it takes and what it declines, and that a
 * document reads the same -- the same result set written back, or the
 * same error word for word -- with it and without it (json-scan alone).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/resultset.h"
#include "core/rs-json.h"
#include "core/rs-json-fast.h"
#include "core/strbuf.h"

static int fast_reads(const char *text, struct fast_measurement *f)
{
	size_t end = 0;
	int rc = fast_measurement_read(f, text, strlen(text), 0, &end);

	if (!rc)
		assert_int_equal(end, strlen(text) - (text[strlen(text) - 1] == ' '));
	return rc;
}

static void test_takes_storans_own(void **state)
{
	static const char doc[] =
		"{\"tool\": \"fio\", \"op\": \"read\", \"metric\": \"bw\", "
		"\"unit\": \"B/s\", \"values\": [1.5e8, 2, -0.0, 100836560.7907473], "
		"\"labels\": {\"bs\": \"4096\", \"host\": \"a b\"}, \"source\": 3, "
		"\"source_name\": \"a.txt\", \"line\": 42} ";
	struct fast_measurement f;

	(void)state;
	fast_measurement_init(&f);
	assert_int_equal(fast_reads(doc, &f), 0);
	assert_string_equal(f.str[FAST_TOOL], "fio");
	assert_string_equal(f.str[FAST_UNIT], "B/s");
	assert_string_equal(f.str[FAST_SOURCE_NAME], "a.txt");
	assert_int_equal(f.nvalues, 4);
	assert_memory_equal(&f.values[0], &(double){ 1.5e8 }, sizeof(double));
	assert_memory_equal(&f.values[1], &(double){ 2 }, sizeof(double));
	assert_memory_equal(&f.values[2], &(double){ -0.0 }, sizeof(double));
	assert_memory_equal(&f.values[3], &(double){ 100836560.7907473 },
			    sizeof(double));
	assert_int_equal(f.nlabels, 2);
	assert_string_equal(f.labels[1].key, "host");
	assert_string_equal(f.labels[1].value, "a b");
	assert_true(f.has_source && f.source == 3 && f.line == 42);
	/* whitespace anywhere JSON allows it, null for a string */
	assert_int_equal(fast_reads("{ \"tool\" :\"t\",\n\t\"source_name\": null,"
				    "\"values\" : [ ] ,\"labels\":{ } }", &f), 0);
	assert_null(f.str[FAST_SOURCE_NAME]);
	assert_true(f.has_values && !f.nvalues && !f.has_source);
	fast_measurement_release(&f);
}

/* Each of these goes to json-scan's reader. */
static void test_declines(void **state)
{
	static const char *const docs[] = {
		"{\"tool\": \"f\\\"io\"}",		/* an escape */
		"{\"tool\": \"f\xc3\xa9\"}",		/* beyond ASCII */
		"{\"tool\": \"a\", \"tool\": \"b\"}",	/* a key twice */
		"{\"labels\": {\"a\": \"1\", \"a\": \"2\"}}",
		"{\"labels\": {\"a\": 1}}",		/* not a string */
		"{\"summary\": {}}",			/* not this path's */
		"{\"histogram\": null}",
		"{\"other\": 1}",
		"{\"values\": [01]}",			/* not JSON */
		"{\"values\": [1.]}",
		"{\"values\": [.5]}",
		"{\"values\": [1e]}",
		"{\"values\": [+1]}",
		"{\"values\": [1e400]}",		/* not finite */
		"{\"values\": [1e-400]}",		/* digits lost */
		"{\"values\": [1, ]}",
		"{\"values\": [\"1\"]}",
		"{\"source\": -1}",
		"{\"source\": 1.0}",
		"{\"line\": 1e3}",
		"{\"line\": 12345678901234567890}",
		"{\"tool\": \"a\",}",
		"{\"tool\": \"a\"",
		"[1]",
		"{\"tool\": nul}",
		"{\"tool\": \"a\nb\"}",			/* a raw newline */
	};
	struct fast_measurement f;
	size_t end;

	(void)state;
	fast_measurement_init(&f);
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		if (!fast_measurement_read(&f, docs[i], strlen(docs[i]), 0, &end))
			fail_msg("took %s", docs[i]);
	/* zeros are kept, whatever their exponent */
	assert_int_equal(fast_reads("{\"values\": [0e-400, 0.000]}", &f), 0);
	fast_measurement_release(&f);
}

/* A set's most labels are taken; one more is declined as soon as it is
 * met (tests/cli/labels-many.sh: a million timed out, each label
 * compared with every one before it). */
static void test_labels_limit(void **state)
{
	struct fast_measurement f;
	struct strbuf doc = STRBUF_INIT;
	size_t end;

	(void)state;
	fast_measurement_init(&f);
	strbuf_adds(&doc, "{\"labels\": {");
	for (int i = 0; i < LABELS_INPUT_MAX; i++)
		strbuf_addf(&doc, "%s\"k%d\": \"v\"", i ? ", " : "", i);
	strbuf_adds(&doc, "}}");
	assert_int_equal(fast_measurement_read(&f, doc.buf, doc.len, 0, &end),
			 0);
	assert_int_equal(f.nlabels, LABELS_INPUT_MAX);
	strbuf_truncate(&doc, doc.len - 2);
	strbuf_adds(&doc, ", \"one\": \"more\"}}");
	assert_int_equal(fast_measurement_read(&f, doc.buf, doc.len, 0, &end),
			 -1);
	strbuf_release(&doc);
	fast_measurement_release(&f);
}

/* The document read with json-scan alone (fast 0) or not: the set
 * written back, or the error. */
static char *read_back(const char *doc, int fast)
{
	struct result_set rs;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	rs_json_read_fast(fast);
	result_set_init(&rs);
	if (rs_json_read("t.json", doc, strlen(doc), &rs, &err))
		strbuf_addf(&out, "error: %s", err.buf);
	else
		rs_json_write(&rs, &out);
	rs_json_read_fast(1);
	result_set_release(&rs);
	strbuf_release(&err);
	return strbuf_detach(&out);
}

#define HEAD "{\"schema\": \"storan/1\", \"measurements\": [\n"
#define TAIL "], \"sources\": [{\"path\": \"a.txt\", \"name\": \"a.txt\", " \
	"\"format\": \"fio\", \"tool_version\": null, \"sha256\": null}]}\n"
#define M(rest) "{\"tool\": \"fio\", \"op\": \"read\", " rest "}"
#define BW(v) M("\"metric\": \"bw\", \"unit\": \"B/s\", \"values\": [" v "]")

static void test_same_as_json_scan(void **state)
{
	static const char *const docs[] = {
		HEAD BW("1, 2.5, 3e3") TAIL,
		HEAD BW("1") ",\n" BW("2") ",\n" M("\"metric\": \"clat.mean\", "
		     "\"unit\": \"s\", \"values\": [1e-4], \"labels\": "
		     "{\"bs\": \"4k\", \"job\": \"j\"}, \"source\": 0, "
		     "\"line\": 7") TAIL,
		HEAD BW("-1") TAIL,			/* negative rate */
		HEAD M("\"metric\": \"util\", \"unit\": \"%\", "
		       "\"values\": [-1]") TAIL,	/* negative percent */
		HEAD BW("") TAIL,			/* no values */
		HEAD M("\"metric\": \"bw\", \"unit\": \"MB/s\", "
		       "\"values\": [1]") TAIL,	/* not a base unit */
		HEAD M("\"metric\": \"bw\", \"unit\": \"s\", "
		       "\"values\": [1]") TAIL,	/* not bw's unit */
		HEAD M("\"metric\": \"bw\", \"values\": [1]") TAIL,
		HEAD M("\"metric\": \"bw\", \"unit\": \"B/s\", \"values\": [1], "
		       "\"source\": 5") TAIL,		/* no such source */
		HEAD M("\"metric\": \"bw\", \"unit\": \"B/s\", \"values\": [1], "
		       "\"line\": 4294967296") TAIL,
		HEAD BW("1") ",\n" M("\"metric\": \"bw\", \"unit\": \"B/s\", "
		     "\"values\": [1], \"summary\": {\"n\": 3, \"mean\": 2}")
		     TAIL,				/* json-scan's, in one */
		HEAD BW("1e400") TAIL,
		HEAD BW("1e-310") TAIL,
		HEAD BW("1") ",\n" BW("2") ",\n" BW("x") TAIL,	/* syntax */
		/* measurements after sources, source_name absent */
		"{\"schema\": \"storan/1\", \"measurements\": [" BW("1") ", "
		M("\"metric\": \"bw\", \"unit\": \"B/s\", \"values\": [1], "
		  "\"source\": 0, \"source_name\": \"a.txt\"") TAIL,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char *slow = read_back(docs[i], 0), *fast = read_back(docs[i], 1);

		if (strcmp(slow, fast))
			fail_msg("document %zu:\njson-scan: %s\nfast: %s", i,
				 slow, fast);
		free(slow);
		free(fast);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_takes_storans_own),
		cmocka_unit_test(test_declines),
		cmocka_unit_test(test_labels_limit),
		cmocka_unit_test(test_same_as_json_scan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
