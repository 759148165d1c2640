/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/dynlib.c: a library's functions found by name; a library that is
 * not there, or lacks a function, is said and refused, not a crash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "core/dynlib.h"

#define LIBC_FUNCTIONS(X) X(strlen) X(strchr)
#define LIBC_POINTER(f) __typeof__(f) *f;
static struct {
	LIBC_FUNCTIONS(LIBC_POINTER)
} c;
#define LIBC_SLOT(f) (void **)(void *)&c.f,

static void test_loads_functions(void **state)
{
	const struct dynlib_table t = {
		"libc.so.6", "a test",
		(const char *const[]){ LIBC_FUNCTIONS(DYNLIB_NAME) },
		(void **const[]){ LIBC_FUNCTIONS(LIBC_SLOT) },
		DYNLIB_COUNT(LIBC_FUNCTIONS),
	};

	(void)state;
	assert_int_equal(DYNLIB_COUNT(LIBC_FUNCTIONS), 2);
	assert_int_equal(dynlib_load(&t), 0);
	assert_int_equal(c.strlen("four"), 4);
	assert_string_equal(c.strchr("a=b", '='), "=b");
}

static void test_missing_library_and_function(void **state)
{
	static void *slot;
	const struct dynlib_table no_lib = {
		"libstoran-no-such.so.9", "a test",
		(const char *const[]){ "strlen" }, (void **const[]){ &slot }, 1,
	};
	const struct dynlib_table no_fn = {
		"libc.so.6", "a test",
		(const char *const[]){ "storan_no_such_function" },
		(void **const[]){ &slot }, 1,
	};

	(void)state;
	assert_int_equal(dynlib_load(&no_lib), -1);
	assert_int_equal(dynlib_load(&no_fn), -1);
	assert_null(slot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_functions),
		cmocka_unit_test(test_missing_library_and_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
