/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a parse context keeps for its parsers: the one-label sets that
 * parse_label_one() shares between measurements.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "core/input.h"
#include "core/resultset.h"
#include "parsers/parser.h"

/*
 * The same label asked twice gives one set; more labels in turn than
 * the context keeps (a loop over ONE_LABELS + 3 commands) still give
 * each its own value, and a set given out outlives its slot (ASan:
 * no set is freed while a measurement holds it); a parser that adds to
 * a shared set gets its own copy, the others keep theirs.
 */
static void test_label_one_shared(void **state)
{
	enum { N = ONE_LABELS + 3, ROUNDS = 4 };
	struct labels held[ROUNDS][N], a, b;
	struct result_set rs;
	struct diag_list diags;
	struct parse_ctx ctx;
	struct input in;
	char value[32];

	(void)state;
	input_from_buffer(&in, "t.txt", "x\n", 2);
	result_set_init(&rs);
	diag_list_init(&diags);
	parse_ctx_init(&ctx, &in, &rs, &diags);
	labels_init(&a);
	labels_init(&b);
	parse_label_one(&ctx, &a, "command", "dd of=f1");
	parse_label_one(&ctx, &b, "command", "dd of=f1");
	assert_ptr_equal(a.v, b.v);
	labels_set(&b, "bs", "4096");		/* copy on write */
	assert_ptr_not_equal(a.v, b.v);
	assert_int_equal(a.n, 1);
	assert_string_equal(labels_get(&a, "command"), "dd of=f1");
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < N; k++) {
			snprintf(value, sizeof(value), "dd of=f%d", k);
			labels_init(&held[r][k]);
			parse_label_one(&ctx, &held[r][k], "command", value);
			assert_int_equal(held[r][k].n, 1);
			assert_string_equal(labels_get(&held[r][k], "command"),
					    value);
		}
	parse_ctx_release(&ctx);	/* the context's sets go first */
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < N; k++) {
			snprintf(value, sizeof(value), "dd of=f%d", k);
			assert_string_equal(labels_get(&held[r][k], "command"),
					    value);
			labels_release(&held[r][k]);
		}
	labels_release(&a);
	labels_release(&b);
	result_set_release(&rs);
	diag_list_release(&diags);
	input_release(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_one_shared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
