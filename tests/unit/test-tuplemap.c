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

/*
 * Reserved room: the table is not rebuilt while the tuples fill it (its
 * slots stay where they are), what was put before reserving is found
 * after, and going past the room still works.
 */
static void test_reserve(void **state)
{
	enum { N = 5000 };
	struct tuple_map t;
	struct tuple_slot *slots;
	uint64_t v[2] = { 0, 9 };

	(void)state;
	tuple_map_init(&t, 2);
	assert_int_equal(tuple_map_put(&t, v, 77), 77);	/* before */
	tuple_map_reserve(&t, N);
	assert_true(t.cap >= 2 * N);
	assert_true(t.alloc >= N);
	slots = t.slot;
	for (uint64_t i = 1; i < N; i++) {
		v[0] = i;
		assert_int_equal(tuple_map_put(&t, v, (size_t)i), i);
	}
	assert_ptr_equal(t.slot, slots);	/* never rebuilt */
	v[0] = 0;
	assert_int_equal(tuple_map_get(&t, v), 77);
	tuple_map_reserve(&t, 10);		/* smaller: nothing changes */
	assert_ptr_equal(t.slot, slots);
	for (uint64_t i = N; i < 3 * N; i++) {	/* past the room */
		v[0] = i;
		assert_int_equal(tuple_map_put(&t, v, (size_t)i), i);
	}
	for (uint64_t i = 1; i < 3 * N; i++) {
		v[0] = i;
		assert_int_equal(tuple_map_get(&t, v), i);
	}
	tuple_map_release(&t);
}

/*
 * Bounded words: kept as one word when the bounds' bits fit in 64 (a
 * word with a bound of 0 too), found again the same; wider bounds keep
 * the tuples as given; a word above its bound is a bug.
 */
static void test_bound_packs(void **state)
{
	struct tuple_map t, wide;
	uint64_t max[4] = { 6, 1000, 0, 1 }, big[4] = { UINT64_MAX, 1, 1, 1 };
	uint64_t v[4];

	(void)state;
	tuple_map_init(&t, 4);
	tuple_map_bound(&t, max);
	assert_int_equal(t.stored, 1);
	for (uint64_t a = 0; a <= 6; a++)
		for (uint64_t b = 0; b <= 1000; b += 7)
			for (uint64_t d = 0; d <= 1; d++) {
				v[0] = a, v[1] = b, v[2] = 0, v[3] = d;
				tuple_map_put(&t, v, (size_t)(a * 10000 + b * 2 + d));
			}
	for (uint64_t a = 0; a <= 6; a++)
		for (uint64_t b = 0; b <= 1000; b++)
			for (uint64_t d = 0; d <= 1; d++) {
				v[0] = a, v[1] = b, v[2] = 0, v[3] = d;
				assert_int_equal(tuple_map_get(&t, v),
						 b % 7 ? SIZE_MAX :
						 a * 10000 + b * 2 + d);
			}
	tuple_map_init(&wide, 4);
	tuple_map_bound(&wide, big);		/* 67 bits: as given */
	assert_int_equal(wide.stored, 4);
	assert_int_equal(tuple_map_put(&wide, big, 5), 5);
	assert_int_equal(tuple_map_get(&wide, big), 5);
	tuple_map_release(&wide);
	tuple_map_release(&t);
}

/* One map filled by tuple_map_put_many() in batches of uneven length,
 * one by tuple_map_put() one at a time: the same answers, entries and
 * values (fresh given, and NULL: the count), bounded or not. */
static void put_many_is_puts(int bounded, int given)
{
	enum { N = 5000, W = 3 };
	static uint64_t v[N * W];
	static size_t fresh[N], one[N], many[N];
	const uint64_t max[W] = { 40, 7, 1000 };
	struct tuple_map a, b;
	uint64_t seed = 88172645463325252ULL;

	for (size_t i = 0; i < N * W; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		v[i] = seed % (max[i % W] + 1);	/* (duplicates: many) */
	}
	for (size_t i = 0; i < N; i++)
		fresh[i] = 7 * i + 1;
	tuple_map_init(&a, W);
	tuple_map_init(&b, W);
	if (bounded) {
		tuple_map_bound(&a, max);
		tuple_map_bound(&b, max);
	}
	for (size_t i = 0; i < N; i++)
		one[i] = tuple_map_put(&a, v + i * W,
				       given ? fresh[i] : a.n);
	for (size_t i = 0, k = 1; i < N; i += k, k = k * 3 % 301 + 1)
		tuple_map_put_many(&b, v + i * W, i + k > N ? N - i : k,
				   given ? fresh + i : NULL, many + i);
	assert_memory_equal(one, many, sizeof(one));
	assert_int_equal(a.n, b.n);
	assert_true(a.n > 100 && a.n < N);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(tuple_map_get(&b, v + i * W), one[i]);
	tuple_map_release(&a);
	tuple_map_release(&b);
}

static void test_put_many(void **state)
{
	(void)state;
	for (int bounded = 0; bounded < 2; bounded++)
		for (int given = 0; given < 2; given++)
			put_many_is_puts(bounded, given);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_many),
		cmocka_unit_test(test_width_one),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_bound_packs),
		cmocka_unit_test(test_put_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
