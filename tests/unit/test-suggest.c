/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "Did you mean": edit distances and the closest of a list. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/suggest.h"

static void test_distance(void **state)
{
	static const struct { const char *a, *b; size_t d; } cases[] = {
		{ "", "", 0 }, { "bs", "bs", 0 }, { "", "abc", 3 },
		{ "ramp_time", "ramp-time", 0 },	/* _ and - alike */
		{ "RAMP_TIME", "ramp_time", 0 },	/* case ignored */
		{ "ramptime", "ramp_time", 1 },
		{ "ingset", "ingest", 1 },		/* a swap is one edit */
		{ "randred", "randread", 1 },
		{ "kitten", "sitting", 3 },
		{ "lable", "label", 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (suggest_distance(cases[i].a, cases[i].b) != cases[i].d)
			fail_msg("'%s' '%s': %zu, want %zu", cases[i].a,
				 cases[i].b, suggest_distance(cases[i].a,
				 cases[i].b), cases[i].d);
}

static void test_closest(void **state)
{
	static const char *const opts[] = {
		"runtime", "ramp_time", "ramp", NULL, "rw", "rwmixread",
	};
	static const char *const cmds[] = {
		"check", "compare", "export", "ingest", "plot", "report",
	};

	(void)state;
	assert_string_equal(suggest_closest("ramptime", opts, 6), "ramp_time");
	assert_string_equal(suggest_closest("runtim", opts, 6), "runtime");
	assert_string_equal(suggest_closest("rwmixred", opts, 6), "rwmixread");
	assert_string_equal(suggest_closest("ingset", cmds, 6), "ingest");
	assert_string_equal(suggest_closest("repotr", cmds, 6), "report");
	/* nothing close: no suggestion rather than a wild one */
	assert_null(suggest_closest("frobnicate", cmds, 6));
	assert_null(suggest_closest("trim", cmds, 6));
	assert_null(suggest_closest("xy", opts, 6));
	/* too long to be a mistyped option */
	assert_null(suggest_closest("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
				    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", cmds,
				    6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_closest),
	};

	return cmocka_run_group_tests_name("suggest", tests, NULL, NULL);
}
