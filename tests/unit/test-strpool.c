/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/strpool.c: every string added reads back as given, however many
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

#include "core/strpool.h"

/* Many short strings across many blocks, interleaved with long ones
 * that get blocks of their own: none overwrites another. */
static void test_strings_survive(void **state)
{
	enum { N = 200000 };
	struct strpool p = STRPOOL_INIT;
	const char **got = malloc(N * sizeof(*got));
	char buf[64], *big = malloc(300001);

	(void)state;
	memset(big, 'x', 300000);
	big[300000] = '\0';
	for (size_t i = 0; i < N; i++) {
		if (i % 5000 == 0) {
			big[i % 300000] = 'y';
			got[i] = strpool_add(&p, big);
			big[i % 300000] = 'x';
			continue;
		}
		snprintf(buf, sizeof(buf), "cell %zu", i);
		got[i] = strpool_add(&p, buf);
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
	strpool_release(&p);
	assert_null(p.head);
	free(got);
	free(big);
}

static void test_addn_and_empty(void **state)
{
	struct strpool p = STRPOOL_INIT;
	const char *a, *b;

	(void)state;
	a = strpool_addn(&p, "abcdef", 3);
	b = strpool_add(&p, "");
	assert_string_equal(a, "abc");
	assert_string_equal(b, "");
	assert_ptr_not_equal(a, b);
	assert_int_equal(p.used, 5);
	strpool_release(&p);
	strpool_release(&p);	/* twice: harmless */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_survive),
		cmocka_unit_test(test_addn_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
