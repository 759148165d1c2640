/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/pool.c: every string added reads back as given, however many
 * and however long, until the pool is released (ASan sees the blocks).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

/* Many short strings across many blocks, interleaved with long ones
 * that get blocks of their own: none overwrites another. */
static void test_strings_survive(void **state)
{
	enum { N = 200000 };
	struct pool p = POOL_INIT;
	const char **got = malloc(N * sizeof(*got));
	char buf[64], *big = malloc(300001);

	(void)state;
	memset(big, 'x', 300000);
	big[300000] = '\0';
	for (size_t i = 0; i < N; i++) {
		if (i % 5000 == 0) {
			big[i % 300000] = 'y';
			got[i] = pool_strdup(&p, big);
			big[i % 300000] = 'x';
			continue;
		}
		snprintf(buf, sizeof(buf), "cell %zu", i);
		got[i] = pool_strdup(&p, buf);
	}
	for (size_t i = 0; i < N; i++) {
		if (i % 5000 == 0) {
			assert_int_equal(strlen(got[i]), 300000);
			assert_int_equal(got[i][i % 300000], 'y');
			continue;
		}
		snprintf(buf, sizeof(buf), "cell %zu", i);
		assert_string_equal(got[i], buf);
	}
	pool_release(&p);
	assert_null(p.head);
	free(got);
	free(big);
}

static void test_addn_and_empty(void **state)
{
	struct pool p = POOL_INIT;
	const char *a, *b;

	(void)state;
	a = pool_strndup(&p, "abcdef", 3);
	b = pool_strdup(&p, "");
	assert_string_equal(a, "abc");
	assert_string_equal(b, "");
	assert_ptr_not_equal(a, b);
	assert_int_equal(p.used, 5);
	pool_release(&p);
	pool_release(&p);	/* twice: harmless */
}

/* Arrays from the pool are aligned and apart from the strings around
 * them. */
static void test_alloc_aligned(void **state)
{
	struct pool p = POOL_INIT;
	size_t *v[1000];
	const char *s[1000];

	(void)state;
	for (int i = 0; i < 1000; i++) {
		s[i] = pool_strndup(&p, "abcdefg", (size_t)(i % 7));
		v[i] = pool_alloc(&p, (size_t)(i % 50 + 1) * sizeof(size_t));
		assert_int_equal((uintptr_t)v[i] % 8, 0);
		for (int j = 0; j <= i % 50; j++)
			v[i][j] = (size_t)(i * 100 + j);
	}
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(strlen(s[i]), (size_t)(i % 7));
		for (int j = 0; j <= i % 50; j++)
			assert_int_equal(v[i][j], i * 100 + j);
	}
	pool_release(&p);
}

/* Adopted blocks live as long as the adopting pool: both pools' strings
 * read back after the adopted one is gone; adopting into or from an
 * empty pool works too. */
static void test_adopt(void **state)
{
	struct pool a = POOL_INIT, b = POOL_INIT, empty = POOL_INIT;
	const char *sa[3000], *sb[3000];
	char buf[32];

	(void)state;
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "a%d", i);
		sa[i] = pool_strdup(&a, buf);
		snprintf(buf, sizeof(buf), "b%d", i);
		sb[i] = pool_strdup(&b, buf);
	}
	pool_adopt(&a, &b);
	assert_null(b.head);
	pool_release(&b);			/* (nothing left in it) */
	pool_adopt(&a, &empty);
	sa[0] = pool_strdup(&a, "after");	/* a still fills its block */
	for (int i = 1; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "a%d", i);
		assert_string_equal(sa[i], buf);
		snprintf(buf, sizeof(buf), "b%d", i);
		assert_string_equal(sb[i], buf);
	}
	assert_string_equal(sa[0], "after");
	pool_adopt(&empty, &a);			/* into an empty one */
	assert_null(a.head);
	assert_string_equal(sb[2999], "b2999");
	pool_release(&empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_survive),
		cmocka_unit_test(test_addn_and_empty),
		cmocka_unit_test(test_alloc_aligned),
		cmocka_unit_test(test_adopt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
