/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Table-driven tests of the number scanner and unit prefixes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
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

/* scan_size(): the spelling each caller accepts (runner job options: no
 * flags; check's labels and --ram; fio's option values: all). */
#define SIZE_CHECK (SIZE_PETA | SIZE_LONE_I | SIZE_LOWER_B)
#define SIZE_FIO (SIZE_CHECK | SIZE_CAP_I)

struct size_case {
	const char *text;
	unsigned flags;
	double bytes;
	const char *rest;
};

static const struct size_case size_cases[] = {
	{ "4096", 0, 4096, "" },	{ "4k", 0, 4096, "" },
	{ "4K", 0, 4096, "" },		{ "4KiB", 0, 4096, "" },
	{ "4KB", 0, 4096, "" },		{ "1.5m", 0, 1572864, "" },
	{ "2t", 0, 2199023255552.0, "" }, { "100B", 0, 100, "" },
	{ "4Ki", 0, 4096, "i" },	{ "4Kib", 0, 4096, "ib" },
	{ "4kb", 0, 4096, "b" },	{ "1P", 0, 1, "P" },
	{ "4iB", 0, 4, "iB" },		{ "4KIB", 0, 4096, "IB" },
	{ "4 k", 0, 4, " k" },		{ "4x", 0, 4, "x" },
	{ "1P", SIZE_PETA, 1125899906842624.0, "" },
	{ "4Ki", SIZE_CHECK, 4096, "" },  { "4kb", SIZE_CHECK, 4096, "" },
	{ "4b", SIZE_CHECK, 4, "" },	  { "4KIB", SIZE_CHECK, 4096, "IB" },
	{ "4KIB", SIZE_FIO, 4096, "" },	  { "4kIb", SIZE_FIO, 4096, "" },
	{ "16.0KiB", SIZE_FIO, 16384, "" }, { "4MiBs", SIZE_FIO, 4194304, "s" },
	{ "1e3", 0, 1, "e3" },
};

static void test_scan_size(void **state)
{
	double v;
	const char *p;

	(void)state;
	for (size_t i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]);
	     i++) {
		p = size_cases[i].text;
		v = 0;
		if (scan_size(&p, size_cases[i].flags, &v))
			fail_msg("'%s' not a size", size_cases[i].text);
		if (v < size_cases[i].bytes || v > size_cases[i].bytes ||
		    strcmp(p, size_cases[i].rest))
			fail_msg("'%s' flags %u: %.17g rest '%s', want %.17g "
				 "rest '%s'", size_cases[i].text,
				 size_cases[i].flags, v, p,
				 size_cases[i].bytes, size_cases[i].rest);
	}
	p = "k";
	assert_int_equal(scan_size(&p, SIZE_FIO, &v), -1);
	assert_string_equal(p, "k");
	p = "";
	assert_int_equal(scan_size(&p, 0, &v), -1);
	p = "-4k";	/* no sign: a size is never negative */
	assert_int_equal(scan_size(&p, SIZE_FIO, &v), -1);
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

/*
 * Clinger's fast path (up to 19 digits, an integer <= 2^53, a power of
 * ten up to 22 either way) against strtod(), bit for bit, on figures
 * around its edges: 15 to 20 digits, exponents -30..30, 2^53 and its
 * neighbours, leading zeros, signs, and numbers python prints.
 */
/*
 * skip_prefix() and skip_prefix_icase() (loops now, once strncmp() and
 * strncasecmp()): a match moves past the word, a miss moves nothing, a
 * text shorter than the word is a miss (never read past its NUL), the
 * empty word always matches; case is ASCII's only.
 */
static void test_skip_prefix(void **state)
{
	static const struct {
		const char *text, *word;
		int icase, match;
	} cases[] = {
		{ "real\t0m1.2s", "real", 0, 1 },
		{ "Real 1.2", "real", 0, 0 },
		{ "Real 1.2", "real", 1, 1 },
		{ "REAL", "real", 1, 1 },
		{ "rea", "real", 0, 0 },
		{ "rea", "real", 1, 0 },
		{ "", "sys", 1, 0 },
		{ "sys", "", 0, 1 },
		{ "\xc3\x89t\xc3\xa9", "\xc3\xa9t", 1, 0 },	/* no UTF-8 case */
		{ "[a]", "{a}", 1, 0 },		/* '[' is not '{' less 32 */
		{ "@b", "`b", 1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = cases[i].text;
		int got = cases[i].icase ? skip_prefix_icase(&p, cases[i].word) :
				  skip_prefix(&p, cases[i].word);

		if (got != cases[i].match)
			fail_msg("case %zu: %d, want %d", i, got,
				 cases[i].match);
		assert_ptr_equal(p, cases[i].text +
			       (got ? strlen(cases[i].word) : 0));
	}
}

static void test_scan_double_fast_path_is_strtod(void **state)
{
	static const char *fixed[] = {
		"9007199254740992", "9007199254740993", "9007199254740991",
		"9007199254740992e22", "9007199254740993e-22", "0.1", "-0",
		"-0.0e5", "1e22", "1e23", "1e-22", "1e-23", "123456789012345678",
		"1234567890123456789", "12345678901234567890", "0.30000000000000004",
		"100836560.7907473", "9.75216329957765e-05", "1E+05", "5e0",
		"0.00010235307740622908", "00000000000000000001e3",
		"4503599627370497.5", "1e-9999", "1e9999", "7e+0022",
	};
	char buf[64];
	unsigned seed = 18;

	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) + 200000; i++) {
		const char *s = buf, *t;
		double got, want;
		int st;

		if (i < sizeof(fixed) / sizeof(fixed[0])) {
			snprintf(buf, sizeof(buf), "%s", fixed[i]);
		} else {
			int nd = 1 + rand_r(&seed) % 20, dot = rand_r(&seed) % (nd + 1);
			int e = rand_r(&seed) % 61 - 30;
			char *p = buf;

			if (rand_r(&seed) % 4 == 0)
				*p++ = '-';
			for (int d = 0; d < nd; d++) {
				if (d == dot && d)
					*p++ = '.';
				*p++ = (char)('0' + rand_r(&seed) % 10);
			}
			if (rand_r(&seed) % 2)
				p += sprintf(p, "e%d", e);
			*p = '\0';
		}
		want = strtod(buf, NULL);
		st = scan_double(&s, SCAN_ALLOW_SIGN, &got);
		if (isinf(want)) {
			assert_int_equal(st, SCAN_OVERFLOW);
			continue;
		}
		assert_int_equal(st, SCAN_OK);
		assert_int_equal(*s, '\0');
		t = buf;
		if (memcmp(&got, &want, sizeof(got)))
			fail_msg("%s: %.17g, strtod %.17g", t, got, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_double_exact),
		cmocka_unit_test(test_scan_double_table),
		cmocka_unit_test(test_scan_double_fast_path_is_strtod),
		cmocka_unit_test(test_scan_double_ignores_locale),
		cmocka_unit_test(test_scan_u64),
		cmocka_unit_test(test_scan_size),
		cmocka_unit_test(test_metric_units),
		cmocka_unit_test(test_skip_prefix),
	};

	return cmocka_run_group_tests_name("numscan", tests, NULL, NULL);
}
