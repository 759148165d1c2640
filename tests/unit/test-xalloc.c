/* SPDX-License-Identifier: GPL-3.0-or-later */
/* core/xalloc.c: what the x-functions promise besides dying on failure. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* A block grown past glibc's mmap threshold keeps what it held. */
static void test_realloc_keeps_contents(void **state)
{
	char *p;

	(void)state;
	p = xmalloc(100);
	strcpy(p, "kept");
	p = xrealloc(p, (size_t)6 << 20);
	assert_string_equal(p, "kept");
	free(p);
}

/* ALLOC_GROW: room for at least what is needed, by doubling, kept. */
static void test_alloc_grow(void **state)
{
	size_t alloc = 0, *v = NULL;

	(void)state;
	for (size_t i = 0; i < 1000; i++) {
		ALLOC_GROW(v, i + 1, alloc);
		v[i] = i * 3;
	}
	assert_true(alloc >= 1000 && alloc < 2000);
	for (size_t i = 0; i < 1000; i++)
		assert_int_equal(v[i], i * 3);
	free(v);
}

/* xstrndup() stops at n bytes or the string's end. */
static void test_strndup(void **state)
{
	char *a = xstrndup("abcdef", 3), *b = xstrndup("ab", 10);

	(void)state;
	assert_string_equal(a, "abc");
	assert_string_equal(b, "ab");
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_realloc_keeps_contents),
		cmocka_unit_test(test_alloc_grow),
		cmocka_unit_test(test_strndup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
