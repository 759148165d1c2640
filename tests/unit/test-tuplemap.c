/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/tuplemap.c: tuples found again after the table grew many times,
 * values given by the caller kept (not the order of insertion), tuples
 * that differ in one word only told apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/tuplemap.h"

static void test_put_get_many(void **state)
{
	enum { N = 100000 };
	struct tuple_map t;
	uint64_t v[3];

	(void)state;
	tuple_map_init(&t, 3);
	v[0] = 7;
	v[1] = 0;
	assert_int_equal(tuple_map_get(&t, v), SIZE_MAX);	/* empty */
	for (uint64_t i = 0; i < N; i++) {
		v[0] = i % 10;	/* three words, differing in one or two */
		v[1] = i / 10;
		v[2] = 5;
		assert_int_equal(tuple_map_put(&t, v, (size_t)(3 * i + 1)),
				 3 * i + 1);
	}
	assert_int_equal(t.n, N);
	for (uint64_t i = 0; i < N; i++) {
		v[0] = i % 10;
		v[1] = i / 10;
		v[2] = 5;
		/* a second put finds the first value, not the fresh one */
		assert_int_equal(tuple_map_put(&t, v, 0), 3 * i + 1);
		assert_int_equal(tuple_map_get(&t, v), 3 * i + 1);
		v[2] = 6;
		assert_int_equal(tuple_map_get(&t, v), SIZE_MAX);
	}
	assert_int_equal(t.n, N);
	tuple_map_release(&t);
}

/* Width 0 is taken as 1; the one word is the whole key. */
static void test_width_one(void **state)
{
	struct tuple_map t;
	uint64_t a = 1, b = 2;

	(void)state;
	tuple_map_init(&t, 0);
	assert_int_equal(tuple_map_put(&t, &a, 10), 10);
	assert_int_equal(tuple_map_put(&t, &b, 20), 20);
	assert_int_equal(tuple_map_put(&t, &a, 30), 10);
	assert_int_equal(tuple_map_get(&t, &b), 20);
	tuple_map_release(&t);
	assert_int_equal(tuple_map_get(&t, &a), SIZE_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_many),
		cmocka_unit_test(test_width_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
