/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Bounded memory for long logs (issue 18): the pasted-copy check's map
 * of recent outputs (core/keymap.c, recent64) and values moved to a
 * temporary file as a fold's rows grow (core/valspill.c, ingest/fold.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/keymap.h"
#include "core/resultset.h"
#include "core/valspill.h"
#include "ingest/fold.h"

static uint64_t key_of(uint64_t i)
{
	return hash64(HASH64_INIT, &i, sizeof(i));
}

/* The last `generation` keys are always found, with their first value;
 * keys far older are forgotten; memory holds two generations at most. */
static void test_recent_keys(void **state)
{
	enum { GEN = 1000, N = 10 * GEN };
	struct recent64 r;
	int created;

	(void)state;
	recent64_init(&r, GEN);
	for (uint32_t i = 0; i < N; i++) {
		assert_int_equal(*recent64_put(&r, key_of(i), i, &created), i);
		assert_true(created);
		/* GEN keys back (two a turn: this one, and the one found
		 * again) is still known, with its value */
		if (i >= GEN / 2) {
			uint32_t back = i - GEN / 2;

			assert_int_equal(*recent64_put(&r, key_of(back), 7,
						       &created), back);
			assert_false(created);
		}
		assert_true(hashmap64_count(&r.young) +
			    hashmap64_count(&r.old) <= 2 * GEN + 1);
	}
	/* one seen at the start and never again is long gone */
	assert_int_equal(*recent64_put(&r, key_of(0), 42, &created), 42);
	assert_true(created);
	recent64_release(&r);
}

/* A key found in the old map moves to the young one: it survives the
 * next ageing, where an untouched one of its time does not. */
static void test_recent_kept_alive(void **state)
{
	enum { GEN = 100 };
	struct recent64 r;
	int created;

	(void)state;
	recent64_init(&r, GEN);
	recent64_put(&r, key_of(1), 1, &created);
	recent64_put(&r, key_of(2), 2, &created);
	for (uint32_t i = 10; i < 10 + GEN; i++)	/* 1 and 2 age */
		recent64_put(&r, key_of(i), i, &created);
	recent64_put(&r, key_of(1), 99, &created);	/* 1 found again */
	assert_false(created);
	for (uint32_t i = 1000; i < 1000 + GEN; i++)	/* another age */
		recent64_put(&r, key_of(i), i, &created);
	assert_int_equal(*recent64_put(&r, key_of(1), 99, &created), 1);
	assert_false(created);
	assert_int_equal(*recent64_put(&r, key_of(2), 99, &created), 99);
	assert_true(created);
	recent64_release(&r);
}

/*
 * Against a model of the two generations (two arrays searched by hand),
 * on hashes that crowd a few slots of one table (runs of keys that
 * wrap past its end): every put gives the model's value and says
 * whether the key was new.
 */
struct model_gen {
	uint64_t key[64];
	uint32_t value[64];
	size_t n;
};

static int model_find(const struct model_gen *g, uint64_t key)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->key[i] == key)
			return (int)i;
	return -1;
}

static uint32_t model_put(struct model_gen *young, struct model_gen *old,
			  size_t generation, uint64_t key, uint32_t fresh,
			  int *created)
{
	int y = model_find(young, key), o;

	if (y >= 0) {
		*created = 0;
		return young->value[y];
	}
	if (young->n >= generation) {
		*old = *young;
		young->n = 0;
	}
	o = model_find(old, key);
	*created = o < 0;
	young->key[young->n] = key;
	young->value[young->n] = o < 0 ? fresh : old->value[o];
	return young->value[young->n++];
}

static void test_recent_against_model(void **state)
{
	enum { GEN = 8, KEYS = 40, PUTS = 20000 };
	struct model_gen young = { .n = 0 }, old = { .n = 0 };
	uint64_t key[KEYS];
	struct recent64 r;
	uint64_t rnd = 12345;

	(void)state;
	recent64_init(&r, GEN);
	for (size_t k = 0; k < KEYS; k++)	/* slots 60..63, 0..2 of 64 */
		key[k] = ((uint64_t)(k + 1) << 8) | ((60 + k % 7) & 63);
	for (uint32_t i = 0; i < PUTS; i++) {
		int created, want_created;
		uint64_t k;
		uint32_t want;

		rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
		k = key[(rnd >> 33) % KEYS];
		want = model_put(&young, &old, GEN, k, i, &want_created);
		assert_int_equal(*recent64_put(&r, k, i, &created), want);
		assert_int_equal(created, want_created);
		assert_true(hashmap64_count(&r.young) +
			    hashmap64_count(&r.old) <= young.n + old.n);
	}
	recent64_release(&r);
}

struct collect {
	double *v;
	size_t n;
};

static int collect_values(const double *v, size_t n, void *arg)
{
	struct collect *c = arg;

	memcpy(c->v + c->n, v, n * sizeof(*v));
	c->n += n;
	return 0;
}

static void assert_values(const struct measurement *m, const double *want,
			  size_t n)
{
	struct collect c = { calloc(n + 1, sizeof(double)), 0 };

	assert_int_equal(measurement_nvalues(m), n);
	assert_int_equal(measurement_each_value(m, collect_values, &c), 0);
	assert_int_equal(c.n, n);
	assert_memory_equal(c.v, want, n * sizeof(double));
	free(c.v);
}

static struct measurement *new_row(struct result_set *rs, const char *metric)
{
	return result_set_add_from(rs, "dd", "write", metric, "B/s", 0,
				   "log.txt", 1);
}

/* Spilled in several chunks, two measurements' interleaved in one file:
 * each reads back its own values in order, and its statistics are those
 * of the same values in memory, to the last bit. */
static void test_spill_values(void **state)
{
	enum { N = 5000 };
	struct result_set rs, mem;
	struct value_file *vf = value_file_new();
	struct measurement *a, *b;
	struct measurement_stats got, want;
	double *va = calloc(N, sizeof(double)), *vb = calloc(N, sizeof(double));

	(void)state;
	assert_non_null(vf);
	result_set_init(&rs);
	result_set_init(&mem);
	new_row(&rs, "bw");
	new_row(&rs, "iops");
	new_row(&mem, "bw");
	for (size_t i = 0; i < N; i++) {
		a = &rs.m[0];
		b = &rs.m[1];
		va[i] = 1e9 + (double)(i * 7919 % 1000) / 3.0;
		vb[i] = (double)i;
		measurement_add_value(a, va[i]);
		measurement_add_value(b, vb[i]);
		measurement_add_value(&mem.m[0], va[i]);
		if (i % 1234 == 1233) {		/* a chunk each, in turns */
			assert_int_equal(measurement_spill(a, vf), 0);
			assert_int_equal(measurement_spill(b, vf), 0);
			assert_int_equal(a->n, 0);
		}
	}
	value_file_unref(vf);	/* the rows keep it open */
	assert_non_null(rs.m[0].spilled);
	assert_int_equal(rs.m[0].spilled->n, 4 * 1234);
	assert_values(&rs.m[0], va, N);
	assert_values(&rs.m[1], vb, N);
	measurement_basic_stats(&rs.m[0], &got);
	measurement_basic_stats(&mem.m[0], &want);
	assert_int_equal(got.n, N);
	assert_memory_equal(&got.mean, &want.mean, sizeof(double));
	assert_memory_equal(&got.stddev, &want.stddev, sizeof(double));
	assert_memory_equal(&got.min, &want.min, sizeof(double));
	assert_memory_equal(&got.max, &want.max, sizeof(double));
	result_set_release(&rs);
	result_set_release(&mem);
	free(va);
	free(vb);
}

/* A row that spilled everything it had: its values are the file's. */
static void test_spill_all(void **state)
{
	struct result_set rs;
	struct value_file *vf = value_file_new();
	struct measurement_stats st;
	const double want[] = { 1, 2, 4 };

	(void)state;
	result_set_init(&rs);
	for (int i = 0; i < 3; i++)
		measurement_add_value(new_row(&rs, "bw"), want[i]);
	/* three rows of one value each, the first in its key block */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(measurement_spill(&rs.m[i], vf), 0);
	value_file_unref(vf);
	measurement_add_value(&rs.m[0], 8);	/* after it: in memory */
	assert_values(&rs.m[0], (const double[]){ 1, 8 }, 2);
	measurement_basic_stats(&rs.m[2], &st);
	assert_int_equal(st.n, 1);
	assert_memory_equal(&st.mean, &want[2], sizeof(double));
	assert_true(isnan(st.stddev));
	result_set_release(&rs);
}

/* A fold allowed to spill keeps few values in memory whatever the
 * number of runs, and loses none, in order. */
static void test_fold_spills(void **state)
{
	enum { RUNS = 200000, KEYS = 3 };
	struct result_set rs;
	struct fold f;
	double *want[KEYS];
	size_t held_max = 0;

	(void)state;
	unsetenv("STORAN_TEST_SPILL");
	result_set_init(&rs);
	fold_init(&f, &rs, 0, 1);
	fold_allow_spill(&f);
	for (int k = 0; k < KEYS; k++)
		want[k] = calloc(RUNS, sizeof(double));
	for (size_t i = 0; i < RUNS * KEYS; i++) {
		static const char *const metric[KEYS] = { "bw", "bytes",
							  "runtime" };
		struct fold_place at = { i, 0, 0, 0, i };
		struct measurement *m = new_row(&rs, metric[i % KEYS]);
		double v = (double)i / 7.0;

		measurement_add_value(m, v);
		want[i % KEYS][i / KEYS] = v;
		fold_take(&f, m, &at);
		rs.n = f.n;	/* as ingest does: rows only */
		held_max = f.held > held_max ? f.held : held_max;
	}
	fold_finish(&f);
	assert_int_equal(rs.n, KEYS);
	assert_true(held_max <= FOLD_VALUES_HELD + 1);
	for (int k = 0; k < KEYS; k++) {
		assert_non_null(rs.m[k].spilled);
		assert_values(&rs.m[k], want[k], RUNS);
		free(want[k]);
	}
	fold_release(&f);
	result_set_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recent_keys),
		cmocka_unit_test(test_recent_kept_alive),
		cmocka_unit_test(test_recent_against_model),
		cmocka_unit_test(test_spill_values),
		cmocka_unit_test(test_spill_all),
		cmocka_unit_test(test_fold_spills),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
