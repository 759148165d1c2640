/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pasted-copy check of dd and time (parsers/pasted.c): an output seen
 * before is a copy only with prose between the two, the first one's line
 * is named, and memory stays bounded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/keymap.h"
#include "parsers/pasted.h"

static uint64_t key_of(uint64_t i)
{
	return hash64(HASH64_INIT, &i, sizeof(i));
}

/* A loop's runs printing the same figures, one after the other: runs. */
static void test_repeat_without_prose_is_a_run(void **state)
{
	struct pasted p;

	(void)state;
	pasted_init(&p, 100);
	assert_int_equal(pasted_copy_of(&p, key_of(1), 10, 0), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(1), 20, 0), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(1), 30, 0), 0);
	/* prose above all three, none between them and the fourth */
	assert_int_equal(pasted_copy_of(&p, key_of(2), 40, 5), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(2), 50, 5), 0);
	pasted_release(&p);
}

/* Quoted again after prose: a copy of the first one, whose line is named
 * (not the line of a run repeated before the prose). */
static void test_repeat_after_prose_is_a_copy(void **state)
{
	struct pasted p;

	(void)state;
	pasted_init(&p, 100);
	assert_int_equal(pasted_copy_of(&p, key_of(1), 10, 0), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(1), 15, 0), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(3), 16, 0), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(1), 30, 20), 10);
	/* the prose at 20 lies between 10 and every later one too */
	assert_int_equal(pasted_copy_of(&p, key_of(1), 40, 20), 10);
	/* one first seen below the prose has none between it and its
	 * repeat: a run */
	assert_int_equal(pasted_copy_of(&p, key_of(4), 41, 20), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(4), 42, 20), 0);
	assert_int_equal(pasted_copy_of(&p, key_of(4), 44, 43), 41);
	assert_int_equal(pasted_copy_of(&p, key_of(3), 45, 43), 16);
	pasted_release(&p);
}

/* A log with no prose keeps the last `generation` keys waiting, no more;
 * prose after a long stretch finds the recent ones only. */
static void test_bounded(void **state)
{
	enum { GEN = 100, N = 100 * GEN };
	struct pasted p;

	(void)state;
	pasted_init(&p, GEN);
	for (unsigned i = 1; i <= N; i++) {
		assert_int_equal(pasted_copy_of(&p, key_of(i), i, 0), 0);
		assert_true(p.count <= GEN);
		assert_true(p.alloc <= 2 * GEN);
	}
	assert_int_equal(p.nbefore, 0);	/* no table touched */
	assert_int_equal(pasted_copy_of(&p, key_of(N), N + 2, N + 1), N);
	assert_int_equal(pasted_copy_of(&p, key_of(N - GEN + 1), N + 3, N + 1),
			 N - GEN + 1);
	assert_int_equal(pasted_copy_of(&p, key_of(1), N + 4, N + 1), 0);
	pasted_release(&p);
}

/*
 * Random outputs and prose against the rule said plainly: a copy when the
 * key's first line lies above the last prose line.  Half the outputs are
 * new keys, half repeat one of the last few (a repeat in the same
 * stretch without prose, and one across prose, both come often).  No
 * ageing: fewer keys than a generation.
 */
static void test_against_the_rule(void **state)
{
	enum { STEPS = 40000 };
	static unsigned first[STEPS];
	unsigned line = 0, prose = 0, nkeys = 0;
	struct pasted p;

	(void)state;
	srand(7);
	pasted_init(&p, 1u << 20);
	for (int s = 0; s < STEPS; s++) {
		unsigned k, want;

		line += 1 + (unsigned)rand() % 3;
		if (rand() % 6 == 0) {	/* a line of prose */
			prose = line;
			continue;
		}
		if (!nkeys || rand() % 2)
			k = nkeys++;
		else
			k = nkeys - 1 - (unsigned)rand() % (nkeys < 8 ? nkeys : 8);
		want = first[k] && first[k] < prose ? first[k] : 0;
		assert_int_equal(pasted_copy_of(&p, key_of(k), line, prose),
				 want);
		if (!first[k])
			first[k] = line;
	}
	pasted_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repeat_without_prose_is_a_run),
		cmocka_unit_test(test_repeat_after_prose_is_a_copy),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_against_the_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
