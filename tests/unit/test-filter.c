/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Keys a command names (--rows, --where ...) checked against the data. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "core/filter.h"
#include "core/strbuf.h"

static void two_measurements(struct result_set *rs)
{
	struct measurement *m;

	result_set_init(rs);
	m = result_set_add(rs, "fio", "randread", "bw", "B/s");
	labels_set(&m->labels, "bs", "4096");
	m = result_set_add(rs, "fio", "randwrite", "bw", "B/s");
	labels_set(&m->labels, "bs", "4096");
	labels_set(&m->labels, "iodepth", "16");	/* only here */
}

static void test_known(void **state)
{
	static const char *const extra[] = { "input", NULL };
	struct result_set rs;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	two_measurements(&rs);
	assert_int_equal(filter_key_check(&rs, "--rows", "op", NULL, &err), 0);
	assert_int_equal(filter_key_check(&rs, "--rows", "source", NULL, &err),
			 0);
	assert_int_equal(filter_key_check(&rs, "--rows", "bs", NULL, &err), 0);
	assert_int_equal(filter_key_check(&rs, "--rows", "iodepth", NULL,
					  &err), 0);
	assert_int_equal(filter_key_check(&rs, "--series", "input", extra,
					  &err), 0);
	assert_int_equal(err.len, 0);
	strbuf_release(&err);
	result_set_release(&rs);
}

static void test_unknown(void **state)
{
	struct result_set rs;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	two_measurements(&rs);
	assert_int_equal(filter_key_check(&rs, "--cols", "iodetph", NULL,
					  &err), -1);
	assert_string_equal(err.buf, "--cols 'iodetph': no measurement has "
			    "that key; did you mean 'iodepth'? (keys: tool op "
			    "metric unit source bs iodepth)");
	strbuf_reset(&err);
	assert_int_equal(filter_key_check(&rs, "--rows", "input", NULL, &err),
			 -1);
	assert_string_equal(err.buf, "--rows 'input': no measurement has "
			    "that key (keys: tool op metric unit source bs "
			    "iodepth)");
	strbuf_release(&err);
	result_set_release(&rs);
}

static void test_where(void **state)
{
	struct result_set rs, empty;
	struct strbuf err = STRBUF_INIT;
	struct filter f;

	(void)state;
	two_measurements(&rs);
	filter_init(&f);
	assert_int_equal(filter_parse(&f, "op=randread,iodepth!=1"), 0);
	assert_int_equal(filter_keys_check(&f, &rs, &err), 0);
	assert_int_equal(filter_parse(&f, "bss!=4k"), 0);
	assert_int_equal(filter_keys_check(&f, &rs, &err), -1);
	assert_non_null(strstr(err.buf, "--where 'bss': no measurement has "
			       "that key; did you mean 'bs'?"));
	/* nothing loaded: nothing to say a key is wrong */
	result_set_init(&empty);
	assert_int_equal(filter_keys_check(&f, &empty, &err), 0);
	filter_release(&f);
	strbuf_release(&err);
	result_set_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_where),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
