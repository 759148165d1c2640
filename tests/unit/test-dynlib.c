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
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/dynlib.h"

#define LIBC_FUNCTIONS(X) X(strlen) X(strchr)
static struct {
	LIBC_FUNCTIONS(DYNLIB_POINTER)
} c;
#define LIBC_SLOT(f) DYNLIB_SLOT(c, f)

static void test_loads_functions(void **state)
{
	const struct dynlib_table t = DYNLIB_TABLE("libc.so.6", "a test",
						   LIBC_FUNCTIONS, LIBC_SLOT,
						   NULL);

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
		NULL,
	};
	const struct dynlib_table no_fn = {
		"libc.so.6", "a test",
		(const char *const[]){ "storan_no_such_function" },
		(void **const[]){ &slot }, 1, NULL,
	};

	(void)state;
	assert_int_equal(dynlib_load(&no_lib), -1);
	assert_int_equal(dynlib_load(&no_fn), -1);
	assert_null(slot);
}

/* dynlib_load_once(): loaded once (its hook run once) by the first of
 * eight threads; a library that is not there fails every time. */
#define LIBM_FUNCTIONS(X) X(cos) X(sqrt)
static struct {
	LIBM_FUNCTIONS(DYNLIB_POINTER)
} m;
static _Atomic int hooked;

static void libm_loaded(void)
{
	hooked++;
}

#define LIBM_SLOT(f) DYNLIB_SLOT(m, f)
static const struct dynlib_table libm = DYNLIB_TABLE("libm.so.6", "a test",
						      LIBM_FUNCTIONS,
						      LIBM_SLOT, libm_loaded);
static struct dynlib_once libm_once = DYNLIB_ONCE_INIT;

static void *load_libm(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)dynlib_load_once(&libm_once, &libm);
}

static void test_load_once(void **state)
{
	static void *slot;
	const struct dynlib_table none = {
		"libstoran-no-such.so.9", "a test",
		(const char *const[]){ "strlen" }, (void **const[]){ &slot }, 1,
		libm_loaded,
	};
	static struct dynlib_once none_once = DYNLIB_ONCE_INIT;
	pthread_t t[8];

	(void)state;
	assert_false(dynlib_is_loaded(&libm_once));
	for (int i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&t[i], NULL, load_libm, NULL),
				 0);
	for (int i = 0; i < 8; i++) {
		void *rc;

		pthread_join(t[i], &rc);
		assert_int_equal((intptr_t)rc, 0);
	}
	assert_int_equal(hooked, 1);
	assert_true(dynlib_is_loaded(&libm_once));
	assert_true(m.sqrt(16.0) > 3.99 && m.sqrt(16.0) < 4.01);
	assert_int_equal(dynlib_load_once(&libm_once, &libm), 0);
	assert_int_equal(hooked, 1);
	assert_int_equal(dynlib_load_once(&none_once, &none), -1);
	assert_int_equal(dynlib_load_once(&none_once, &none), -1);
	assert_false(dynlib_is_loaded(&none_once));
	assert_int_equal(hooked, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_functions),
		cmocka_unit_test(test_missing_library_and_function),
		cmocka_unit_test(test_load_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
