/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Tests of analysis/compare.c: the verdict rules, metric directions,
 * matching (identity and provenance labels, --match, --ignore, pooling,
 * unmatched), the choice of test and the tail notes.  p-values are
 * checked against the mpmath/enumeration references of test-stats.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct vcase {
	double change;
	int direction;
	int tested;
	double p;
	enum verdict want;
};

static const struct vcase vcases[] = {
	{ 4.9, 1, 0, NAN, VERDICT_UNCHANGED },
	{ -5.0, 1, 0, NAN, VERDICT_UNCHANGED },	/* |change| <= 5 */
	{ -5.1, 1, 0, NAN, VERDICT_REGRESSION },
	{ 5.1, 1, 0, NAN, VERDICT_IMPROVEMENT },
	{ 5.1, -1, 0, NAN, VERDICT_REGRESSION },	/* latency went up */
	{ -20, -1, 0, NAN, VERDICT_IMPROVEMENT },
	{ -20, 1, 1, 0.01, VERDICT_REGRESSION },
	{ -20, 1, 1, 0.05, VERDICT_INCONCLUSIVE },	/* needs p < alpha */
	{ -20, 1, 1, 0.4, VERDICT_INCONCLUSIVE },
	{ -20, 1, 1, NAN, VERDICT_INCONCLUSIVE },	/* test impossible */
	{ 20, -1, 1, 0.001, VERDICT_REGRESSION },
	{ 2, 1, 1, 0.0001, VERDICT_UNCHANGED },	/* small, significant */
	{ 30, 0, 0, NAN, VERDICT_INCONCLUSIVE },	/* no direction */
	{ 3, 0, 0, NAN, VERDICT_UNCHANGED },
	{ NAN, 1, 0, NAN, VERDICT_INCONCLUSIVE },
};

static void test_verdicts(void **state)
{
	(void)state;
	for (size_t i = 0; i < NELEM(vcases); i++) {
		const struct vcase *c = &vcases[i];

		assert_int_equal(compare_verdict(c->change, c->direction, 5,
						 c->tested, c->p, 0.05),
				 c->want);
	}
	assert_string_equal(verdict_name(VERDICT_INCONCLUSIVE),
			    "inconclusive");
}

static void test_directions(void **state)
{
	(void)state;
	assert_int_equal(compare_direction("bw"), 1);
	assert_int_equal(compare_direction("iops"), 1);
	assert_int_equal(compare_direction("lat.mean"), -1);
	assert_int_equal(compare_direction("clat.p99.9"), -1);
	assert_int_equal(compare_direction("time.real"), -1);
	assert_int_equal(compare_direction("runtime"), -1);
	assert_int_equal(compare_direction("bytes"), 0);
	assert_int_equal(compare_direction("cpu.usr"), 0);
	assert_int_equal(compare_direction("disk.util"), 0);
	/* a spread is better smaller, for bandwidth too */
	assert_int_equal(compare_direction("bw.stddev"), -1);
	assert_int_equal(compare_direction("iops.stddev"), -1);
	assert_int_equal(compare_direction("clat.stddev"), -1);
	assert_int_equal(compare_direction("bw.min"), 1);
	/* a run's sample extremes and spreads are compared when asked */
	assert_false(compare_default_metric("bw.stddev"));
	assert_false(compare_default_metric("clat.min"));
	assert_false(compare_default_metric("slat.max"));
	assert_true(compare_default_metric("bw.mean"));
	assert_true(compare_default_metric("clat.mean"));
	assert_true(compare_default_metric("clat.p99.99"));
	assert_true(compare_default_metric("bw"));
	assert_true(compare_default_metric("lat.p99"));
	assert_false(compare_default_metric("runtime"));
	assert_false(compare_default_metric("bytes"));
	/* compare's default: the headline figures only */
	assert_true(compare_headline_metric("bw"));
	assert_true(compare_headline_metric("iops"));
	assert_true(compare_headline_metric("clat.mean"));
	assert_true(compare_headline_metric("lat.p99"));
	assert_true(compare_headline_metric("time.sys"));
	assert_false(compare_headline_metric("clat.p99.9"));
	assert_false(compare_headline_metric("clat.p50"));
	assert_false(compare_headline_metric("slat.mean"));
	assert_false(compare_headline_metric("bw.mean"));
	assert_false(compare_headline_metric("runtime"));
}

static struct measurement *add(struct result_set *rs, const char *op,
			       const char *metric, const char *unit,
			       const char *labels, const double *v, size_t n)
{
	struct measurement *m = result_set_add(rs, "fio", op, metric, unit);
	char *copy = strdup(labels), *p = copy;

	/* "k=v;k=v" */
	while (p && *p) {
		char *semi = strchr(p, ';'), *eq;

		if (semi)
			*semi = '\0';
		eq = strchr(p, '=');
		*eq = '\0';
		labels_set(&m->labels, p, eq + 1);
		p = semi ? semi + 1 : NULL;
	}
	free(copy);
	for (size_t i = 0; i < n; i++)
		measurement_add_value(m, v[i]);
	measurement_set_source(m, 0, "x.txt", 7);
	return m;
}

static void defaults(struct compare_options *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = 5;
	o->alpha = 0.05;
}

static const struct compare_row *find_row(const struct compare_result *r,
					  const char *metric)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].metric, metric))
			return &r->rows[i];
	return NULL;
}

static void test_two_hosts(void **state)
{
	static const double a_bw[] = { 512e6 }, b_bw[] = { 517e6 };
	static const double a_io[] = { 41000 }, b_io[] = { 32800 };
	static const double run[] = { 60 }, more[] = { 520e6 };
	struct result_set a, b;
	struct compare_options o;
	struct compare_result r;
	const struct compare_row *row;

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	add(&a, "read", "bw", "B/s", "host=alpha;bs=1M;command=fio x",
	    a_bw, 1);
	add(&a, "randread", "iops", "1/s", "host=alpha;bs=4k;command=fio y",
	    a_io, 1);
	add(&a, "read", "runtime", "s", "host=alpha;bs=1M", run, 1);
	add(&a, "write", "bw", "B/s", "host=alpha;bs=1M", a_bw, 1);
	add(&b, "read", "bw", "B/s", "host=beta;bs=1M;command=fio x2",
	    b_bw, 1);
	add(&b, "read", "bw", "B/s", "host=beta;bs=1M;command=fio x3",
	    more, 1);
	add(&b, "randread", "iops", "1/s", "host=beta;bs=4k;command=fio y2",
	    b_io, 1);
	add(&b, "read", "runtime", "s", "host=beta;bs=1M", run, 1);
	defaults(&o);
	compare_sets(&a, &b, &o, &r);
	assert_string_equal(labels_get(&r.identity_a, "host"), "alpha");
	assert_string_equal(labels_get(&r.identity_b, "host"), "beta");
	assert_null(labels_get(&r.identity_a, "bs"));
	assert_int_equal(r.nrows, 2);	/* runtime is not compared */
	row = find_row(&r, "iops");
	assert_non_null(row);
	assert_true(fabs(row->ratio - 0.8) < 1e-12);
	assert_true(fabs(row->change_pct + 20) < 1e-9);
	assert_int_equal(row->verdict, VERDICT_REGRESSION);
	assert_true(row->single_runs);
	assert_true(isnan(row->p));
	assert_string_equal(row->test, "none");
	assert_string_equal(labels_get(&row->labels, "bs"), "4k");
	assert_null(labels_get(&row->labels, "command"));
	/* two candidate runs of read differ only in command: pooled */
	row = find_row(&r, "bw");
	assert_int_equal(row->b.n, 2);
	assert_int_equal(r.pooled, 1);
	assert_int_equal(row->verdict, VERDICT_UNCHANGED);
	assert_false(row->single_runs);
	assert_int_equal(r.nunmatched, 1);
	assert_string_equal(r.unmatched[0].op, "write");
	assert_false(r.unmatched[0].in_candidate);
	assert_string_equal(r.unmatched[0].source, "x.txt");
	assert_int_equal(r.unmatched[0].line, 7);
	assert_int_equal(r.counts[VERDICT_REGRESSION], 1);
	assert_int_equal(r.counts[VERDICT_UNCHANGED], 1);
	assert_int_equal(r.single_runs, 1);
	assert_int_equal(r.ngeo, 2);
	compare_result_release(&r);

	/* --metric runtime: compared when asked, lower is better */
	{
		static char rt[] = "runtime";
		char *metrics[] = { rt };

		o.metrics = metrics;
		o.nmetrics = 1;
		compare_sets(&a, &b, &o, &r);
		assert_int_equal(r.nrows, 1);
		assert_int_equal(r.rows[0].verdict, VERDICT_UNCHANGED);
		compare_result_release(&r);
	}
	result_set_release(&a);
	result_set_release(&b);
}

static void test_identity_rules(void **state)
{
	static const double v[] = { 100 };
	struct result_set a, b;
	struct compare_options o;
	struct compare_result r;

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	/* kernel only in b: identity; bs varies in a: a condition */
	add(&a, "read", "bw", "B/s", "bs=4096", v, 1);
	add(&a, "read", "bw", "B/s", "bs=8192", v, 1);
	add(&b, "read", "bw", "B/s", "bs=4096;kernel=6.1", v, 1);
	add(&b, "read", "bw", "B/s", "bs=16384;kernel=6.1", v, 1);
	defaults(&o);
	compare_sets(&a, &b, &o, &r);
	assert_string_equal(labels_get(&r.identity_b, "kernel"), "6.1");
	assert_int_equal(r.identity_a.n, 0);
	assert_int_equal(r.nrows, 1);
	assert_int_equal(r.nunmatched, 2);
	assert_true(r.unmatched[1].in_candidate);
	compare_result_release(&r);

	/* --ignore bs: everything pools into one match */
	{
		static char bs[] = "bs";
		char *keys[] = { bs };

		o.ignore = keys;
		o.nignore = 1;
		compare_sets(&a, &b, &o, &r);
		assert_int_equal(r.nrows, 1);
		assert_int_equal(r.rows[0].a.n, 2);
		assert_int_equal(r.nunmatched, 0);
		compare_result_release(&r);
		o.ignore = NULL;
		o.nignore = 0;
		/* --match bs: kernel is then a condition and nothing matches */
		o.match = keys;
		o.nmatch = 1;
		compare_sets(&a, &b, &o, &r);
		assert_int_equal(r.nrows, 1);
		compare_result_release(&r);
	}
	{
		static char kernel[] = "kernel";
		char *keys[] = { kernel };

		o.match = keys;
		o.nmatch = 1;
		compare_sets(&a, &b, &o, &r);
		assert_int_equal(r.nrows, 0);
		assert_int_equal(r.nunmatched, 2);	/* one key a side */
		compare_result_release(&r);
	}
	result_set_release(&a);
	result_set_release(&b);
}

/*
 * One input's headings are its parts.  Two posts that each test ext4 and
 * btrfs under '## ext4' / '## btrfs' (fixture context/0012: dd oflag=direct
 * at 211 and 173 MB/s) are matched heading by heading: pooled, ext4's
 * +18% and btrfs's -13% averaged to an 'unchanged' +4%.  A post with
 * BEFORE:/AFTER: against one without headings matches nothing, and says
 * why; --ignore section pools them on request.  Headings of two inputs
 * on one side are provenance, as before.
 */
static void test_sections_of_one_input(void **state)
{
	static const double ext4_a[] = { 211e6 }, btrfs_a[] = { 173e6 };
	static const double ext4_b[] = { 250e6 }, btrfs_b[] = { 150e6 };
	static char section[] = "section";
	char *keys[] = { section };
	struct result_set a, b;
	struct compare_options o;
	struct compare_result r;
	const struct compare_row *row;

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	add(&a, "write", "bw", "B/s", "bs=1M;section=ext4", ext4_a, 1);
	add(&a, "write", "bw", "B/s", "bs=1M;section=btrfs", btrfs_a, 1);
	add(&b, "write", "bw", "B/s", "bs=1M;section=ext4", ext4_b, 1);
	add(&b, "write", "bw", "B/s", "bs=1M;section=btrfs", btrfs_b, 1);
	defaults(&o);
	compare_sets(&a, &b, &o, &r);
	assert_int_equal(r.nrows, 2);
	assert_int_equal(r.pooled, 0);
	assert_int_equal(r.split_tests, 1);
	row = &r.rows[0];
	assert_string_equal(labels_get(&row->labels, "section"), "ext4");
	assert_int_equal(row->verdict, VERDICT_IMPROVEMENT);
	row = &r.rows[1];
	assert_string_equal(labels_get(&row->labels, "section"), "btrfs");
	assert_true(fabs(row->ratio - 150.0 / 173.0) < 1e-12);
	assert_int_equal(row->verdict, VERDICT_REGRESSION);
	compare_result_release(&r);

	/* --ignore section: pooled as asked */
	o.ignore = keys;
	o.nignore = 1;
	compare_sets(&a, &b, &o, &r);
	assert_int_equal(r.nrows, 1);
	assert_int_equal(r.split_tests, 0);
	assert_int_equal(r.rows[0].a.n, 2);
	compare_result_release(&r);
	o.ignore = NULL;
	o.nignore = 0;
	result_set_release(&b);

	/* BEFORE/AFTER against a post without headings: no match */
	result_set_init(&b);
	add(&b, "write", "bw", "B/s", "bs=1M", ext4_b, 1);
	compare_sets(&b, &a, &o, &r);
	assert_int_equal(r.nrows, 0);
	assert_int_equal(r.nunmatched, 3);
	assert_int_equal(r.split_tests, 1);
	assert_string_equal(labels_get(&r.unmatched[1].labels, "section"),
			    "ext4");
	compare_result_release(&r);

	/* two inputs on one side, each under a heading of its own: two
	 * tests, told apart by the inputs' names (the experiment model
	 * pools no inputs), so the headings need not split them: x.txt
	 * meets x.txt, y.txt has no partner */
	measurement_set_source(&a.m[1], 1, "y.txt", 9);
	compare_sets(&b, &a, &o, &r);
	assert_int_equal(r.nrows, 1);
	assert_int_equal(r.split_tests, 0);
	assert_int_equal(r.rows[0].b.n, 1);
	assert_int_equal(r.nunmatched, 1);
	compare_result_release(&r);
	result_set_release(&a);
	result_set_release(&b);
}

static void test_tests_chosen(void **state)
{
	static const double a3[] = { 502.0, 497.5, 505.1 };
	static const double b3[] = { 501.2, 498.8, 150.4 };
	static const double a8[] = { 12.1, 13.4, 11.8, 12.9, 13.0, 12.5,
				     11.9, 12.2 };
	static const double b8[] = { 12.8, 13.9, 13.5, 14.1, 12.7, 13.6,
				     14.4, 13.3 };
	struct result_set a, b;
	struct compare_options o;
	struct compare_result r;
	const struct compare_row *row;

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	add(&a, "read", "bw", "B/s", "bs=64k", a3, 3);
	add(&b, "read", "bw", "B/s", "bs=64k", b3, 3);
	add(&a, "read", "iops", "1/s", "bs=64k", a8, 8);
	add(&b, "read", "iops", "1/s", "bs=64k", b8, 8);
	defaults(&o);
	compare_sets(&a, &b, &o, &r);
	/* one wild run out of three: a big drop, honestly inconclusive */
	row = find_row(&r, "bw");
	assert_string_equal(row->test, "welch");
	assert_true(fabs(row->p - 0.41762899421832479) < 1e-9);
	assert_true(row->change_pct < -20);
	assert_int_equal(row->verdict, VERDICT_INCONCLUSIVE);
	/* eight a side: Mann-Whitney, exact */
	row = find_row(&r, "iops");
	assert_string_equal(row->test, "mannwhitney");
	assert_true(fabs(row->p - 0.0069930069930069930) < 1e-12);
	assert_int_equal(row->verdict, VERDICT_IMPROVEMENT);
	compare_result_release(&r);

	o.test = COMPARE_TEST_WELCH;
	compare_sets(&a, &b, &o, &r);
	assert_string_equal(find_row(&r, "iops")->test, "welch");
	compare_result_release(&r);
	o.test = COMPARE_TEST_MANN_WHITNEY;
	compare_sets(&a, &b, &o, &r);
	row = find_row(&r, "bw");
	assert_string_equal(row->test, "mannwhitney");
	/* 3 a side: never below 0.1 */
	assert_true(row->p >= 0.1 - 1e-12);
	compare_result_release(&r);
	result_set_release(&a);
	result_set_release(&b);
}

/* Unchanged is what the runs show, not a mean that happens to be near:
 * a 0.4% change whose ratio interval is [0.36, 1.67] is inconclusive
 * (file-vs-block's write at 128K was called unchanged). */
static void test_unchanged_needs_a_narrow_interval(void **state)
{
	static const double a_wide[] = { 100, 60, 140 };
	static const double b_wide[] = { 100.4, 61, 140.8 };
	static const double a_tight[] = { 100, 100.5, 99.5 };
	static const double b_tight[] = { 100.4, 100.9, 99.9 };
	static const double one_a[] = { 100 }, one_b[] = { 100.4 };
	struct result_set a, b;
	struct compare_options o;
	struct compare_result r;

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	add(&a, "write", "bw", "B/s", "bs=128k", a_wide, 3);
	add(&b, "write", "bw", "B/s", "bs=128k", b_wide, 3);
	add(&a, "read", "bw", "B/s", "bs=128k", a_tight, 3);
	add(&b, "read", "bw", "B/s", "bs=128k", b_tight, 3);
	add(&a, "read", "bw", "B/s", "bs=4k", one_a, 1);
	add(&b, "read", "bw", "B/s", "bs=4k", one_b, 1);
	defaults(&o);
	compare_sets(&a, &b, &o, &r);
	assert_int_equal(r.nrows, 3);
	for (size_t i = 0; i < r.nrows; i++) {
		const struct compare_row *row = &r.rows[i];
		const char *bs = labels_get(&row->labels, "bs");

		assert_true(fabs(row->change_pct) < 1);
		if (!strcmp(row->op, "write"))
			assert_int_equal(row->verdict, VERDICT_INCONCLUSIVE);
		else if (!strcmp(bs, "128k"))
			assert_int_equal(row->verdict, VERDICT_UNCHANGED);
		else	/* single runs: the threshold alone */
			assert_int_equal(row->verdict, VERDICT_UNCHANGED);
	}
	compare_result_release(&r);
	result_set_release(&a);
	result_set_release(&b);
}

static void test_summary_only(void **state)
{
	struct result_set a, b;
	struct compare_options o;
	struct compare_result r;
	struct measurement *m;

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	/* printed as mean and population stddev of 5 runs */
	m = add(&a, "read", "bw", "B/s", "bs=4k", NULL, 0);
	*measurement_add_summary(m) = (struct summary){ 1, 5, 100, 2, NAN,
							NAN, 1 };
	m = add(&b, "read", "bw", "B/s", "bs=4k", NULL, 0);
	*measurement_add_summary(m) = (struct summary){ 1, 5, 90, 2, NAN,
							NAN, 1 };
	defaults(&o);
	o.test = COMPARE_TEST_MANN_WHITNEY;
	compare_sets(&a, &b, &o, &r);
	/* no values for ranks: Welch from the summaries */
	assert_string_equal(r.rows[0].test, "welch");
	assert_true(fabs(r.rows[0].a.stddev - 2 * sqrt(5.0 / 4)) < 1e-12);
	assert_int_equal(r.rows[0].verdict, VERDICT_REGRESSION);
	compare_result_release(&r);
	result_set_release(&a);
	result_set_release(&b);
}

static void set_hist(struct measurement *m, const uint64_t *counts)
{
	static const double value[] = { 100e-6, 200e-6, 400e-6, 800e-6,
					1600e-6 };

	m->hist.n = 5;
	m->hist.value = malloc(sizeof(value));
	m->hist.count = malloc(5 * sizeof(uint64_t));
	memcpy(m->hist.value, value, sizeof(value));
	memcpy(m->hist.count, counts, 5 * sizeof(uint64_t));
}

static void test_tail(void **state)
{
	static const double va[] = { 150e-6, 151e-6, 149e-6 };
	static const double vb[] = { 151e-6, 150e-6, 152e-6 };
	static const uint64_t ca[] = { 9000, 800, 190, 10, 0 };
	static const uint64_t cb[] = { 9000, 800, 150, 30, 20 };
	struct result_set a, b;
	struct compare_options o;
	struct compare_result r;
	const struct compare_row *row;

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	set_hist(add(&a, "randread", "clat.mean", "s", "bs=4k", va, 3), ca);
	set_hist(add(&b, "randread", "clat.mean", "s", "bs=4k", vb, 3), cb);
	defaults(&o);
	compare_sets(&a, &b, &o, &r);
	assert_int_equal(r.nrows, 3);
	assert_int_equal(find_row(&r, "clat.mean")->verdict,
			 VERDICT_UNCHANGED);
	row = find_row(&r, "clat.p99");
	assert_true(row->from_histogram);
	assert_int_equal(row->verdict, VERDICT_UNCHANGED);
	row = find_row(&r, "clat.p99.9");
	assert_true(fabs(row->ratio - 4) < 1e-12);
	assert_int_equal(row->verdict, VERDICT_REGRESSION);
	assert_false(row->single_runs);
	assert_int_equal(r.ntail_notes, 1);
	assert_non_null(strstr(r.tail_notes[0], "mean unchanged"));
	assert_non_null(strstr(r.tail_notes[0], "p99.9 regressed"));
	compare_result_release(&r);

	/* a printed clat.p99.9 wins over the one from the bins */
	{
		static const double pa[] = { 400e-6 }, pb[] = { 410e-6 };

		add(&a, "randread", "clat.p99.9", "s", "bs=4k", pa, 1);
		add(&b, "randread", "clat.p99.9", "s", "bs=4k", pb, 1);
		compare_sets(&a, &b, &o, &r);
		assert_int_equal(r.nrows, 3);
		assert_false(find_row(&r, "clat.p99.9")->from_histogram);
		assert_int_equal(r.ntail_notes, 0);
		compare_result_release(&r);
	}
	result_set_release(&a);
	result_set_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_two_hosts),
		cmocka_unit_test(test_identity_rules),
		cmocka_unit_test(test_sections_of_one_input),
		cmocka_unit_test(test_tests_chosen),
		cmocka_unit_test(test_unchanged_needs_a_narrow_interval),
		cmocka_unit_test(test_summary_only),
		cmocka_unit_test(test_tail),
	};

	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
