/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Table-driven tests of the number scanner and unit prefixes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numscan.h"
#include "core/units.h"

struct dcase {
	const char *text;
	unsigned flags;
	int status;
	double value;
	size_t consumed;
};

static const struct dcase dcases[] = {
	{ "1.70473 s", 0, SCAN_OK, 1.70473, 7 },
	{ "630 MB/s", 0, SCAN_OK, 630, 3 },
	{ "54,5651 s", SCAN_COMMA_DECIMAL, SCAN_OK, 54.5651, 7 },
	{ "54,5651 s", 0, SCAN_OK, 54, 2 },
	{ "4,3 GB", SCAN_COMMA_DECIMAL, SCAN_OK, 4.3, 3 },
	{ "30 ,", SCAN_COMMA_DECIMAL, SCAN_OK, 30, 2 },
	{ "7, 8", SCAN_COMMA_DECIMAL, SCAN_OK, 7, 1 },
	{ ".5", 0, SCAN_OK, 0.5, 2 },
	{ "1e3x", 0, SCAN_OK, 1000, 3 },
	{ "1e3x", SCAN_NO_EXPONENT, SCAN_OK, 1, 1 },
	{ "2e", 0, SCAN_OK, 2, 1 },
	{ "-5", 0, SCAN_NEGATIVE, 0, 0 },
	{ "-5", SCAN_ALLOW_SIGN, SCAN_OK, -5, 2 },
	{ "abc", 0, SCAN_NO_DIGITS, 0, 0 },
	{ "", 0, SCAN_NO_DIGITS, 0, 0 },
	{ ".", 0, SCAN_NO_DIGITS, 0, 0 },
	{ "1e999", 0, SCAN_OVERFLOW, 0, 0 },
	{ "123456789012345678901234567890123456789012345678901234567890123456789",
	  0, SCAN_TOO_LONG, 0, 0 },
};

static void test_scan_double_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(dcases) / sizeof(dcases[0]); i++) {
		const struct dcase *c = &dcases[i];
		const char *p = c->text;
		double v = -1;
		int st = scan_double(&p, c->flags, &v);

		assert_int_equal(st, c->status);
		if (st == SCAN_OK) {
			assert_true(fabs(v - c->value) <= 1e-12 * fabs(c->value));
			assert_int_equal((size_t)(p - c->text), c->consumed);
		} else {
			assert_ptr_equal(p, c->text);
		}
	}
}

/* A German LC_NUMERIC must not change what "1.5" means. */
static void test_scan_double_ignores_locale(void **state)
{
	const char *p = "1.5";
	double v;

	(void)state;
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8"))
		setlocale(LC_NUMERIC, "C");
	assert_int_equal(scan_double(&p, 0, &v), SCAN_OK);
	assert_true(fabs(v - 1.5) < 1e-15);
	setlocale(LC_NUMERIC, "C");
}

static void test_scan_u64(void **state)
{
	const char *p = "18446744073709551615 x", *q = "18446744073709551616";
	const char *r = "-1";
	uint64_t v;

	(void)state;
	assert_int_equal(scan_u64(&p, &v), SCAN_OK);
	assert_true(v == UINT64_MAX);
	assert_string_equal(p, " x");
	assert_int_equal(scan_u64(&q, &v), SCAN_OVERFLOW);
	assert_int_equal(scan_u64(&r, &v), SCAN_NEGATIVE);
}

struct ucase {
	const char *text;
	enum prefix_base base;
	double factor;
	const char *rest;
};

static const struct ucase ucases[] = {
	{ "MB/s", PREFIX_SI, 1e6, "/s" },
	{ "MB/s", PREFIX_BINARY, 1048576, "/s" },
	{ "MiB/s", PREFIX_SI, 1048576, "/s" },
	{ "KiB", PREFIX_SI, 1024, "" },
	{ "kB", PREFIX_SI, 1000, "" },
	{ "GB", PREFIX_SI, 1e9, "" },
	{ "GiB", PREFIX_SI, 1073741824.0, "" },
	{ "TB", PREFIX_SI, 1e12, "" },
	{ "B/s", PREFIX_SI, 1, "/s" },
	{ "msec", PREFIX_SI, 1, "msec" },
	{ "x", PREFIX_SI, 1, "x" },
};

static void test_scan_size_unit(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ucases) / sizeof(ucases[0]); i++) {
		const char *p = ucases[i].text;
		double f = 0;

		scan_size_unit(&p, ucases[i].base, &f);
		assert_true(fabs(f - ucases[i].factor) < 1e-6);
		assert_string_equal(p, ucases[i].rest);
	}
}

static void test_metric_units(void **state)
{
	(void)state;
	assert_string_equal(metric_unit("bw"), "B/s");
	assert_string_equal(metric_unit("clat.p99.9"), "s");
	assert_string_equal(metric_unit("time.real"), "s");
	assert_string_equal(metric_unit("cpu.usr"), "%");
	assert_null(metric_unit("bwx"));
	assert_true(metric_higher_is_better("iops"));
	assert_false(metric_higher_is_better("lat.mean"));
}

/*
 * Short decimals take a fast path (no strtod): it must give the same
 * double as strtod, bit for bit, for every digit count and position.
 */
static void test_scan_double_exact(void **state)
{
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	char text[48];

	(void)state;
	for (int i = 0; i < 300000; i++) {
		int digits, point, neg;
		size_t k = 0;
		const char *p = text;
		double got = 0, want;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		digits = 1 + (int)(x % 17);
		point = (int)((x >> 8) % (uint64_t)(digits + 1));
		neg = (int)((x >> 16) & 1);
		if (neg)
			text[k++] = '-';
		for (int d = 0; d < digits; d++) {
			if (d == point && d)
				text[k++] = '.';
			text[k++] = (char)('0' + (x >> (20 + 2 * (d % 20))) % 10);
		}
		text[k] = '\0';
		want = strtod(text, NULL);
		assert_int_equal(scan_double(&p, SCAN_ALLOW_SIGN, &got), SCAN_OK);
		if (memcmp(&got, &want, sizeof(got)))
			fail_msg("'%s': %a, strtod says %a", text, got, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_double_exact),
		cmocka_unit_test(test_scan_double_table),
		cmocka_unit_test(test_scan_double_ignores_locale),
		cmocka_unit_test(test_scan_u64),
		cmocka_unit_test(test_scan_size_unit),
		cmocka_unit_test(test_metric_units),
	};

	return cmocka_run_group_tests_name("numscan", tests, NULL, NULL);
}
