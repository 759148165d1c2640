/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The experiment model (analysis/experiment.c): which keys are factors,
 * what input names say, which measurements are repetitions, how sides are
 * named and matched, and the summary each number of runs gets.  The
 * cases are the ways earlier reports misled: five drives under headings
 * pooled into one bar, randread and randrw reads of one host pooled, a
 * derived device naming a side the user had labelled.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/experiment.h"
#include "core/xalloc.h"

/* A measurement of bw with the values v and labels "k=v;k=v". */
static struct measurement *add(struct result_set *rs, const char *source,
			       const char *op, const char *labels,
			       const double *v, size_t n)
{
	size_t src = SIZE_MAX;
	struct measurement *m;
	char *copy = xstrdup(labels), *p = copy;

	for (size_t i = 0; i < rs->nsources; i++)
		if (!strcmp(rs->sources[i].name, source))
			src = i;
	if (src == SIZE_MAX)
		src = result_set_add_source(rs, source, NULL);
	m = result_set_add_from(rs, "fio", op, "bw", "B/s", src, source, 1);
	while (p && *p) {
		char *semi = strchr(p, ';'), *eq;

		if (semi)
			*semi = '\0';
		eq = strchr(p, '=');
		*eq = '\0';
		labels_set(&m->labels, p, eq + 1);
		p = semi ? semi + 1 : NULL;
	}
	for (size_t i = 0; i < n; i++)
		measurement_add_value(m, v[i]);
	free(copy);
	return m;
}

static const double one[] = { 100 }, two[] = { 100, 110 };
static const double three[] = { 100, 110, 120 };

static const struct ex_key *key(const struct experiment *ex, const char *n)
{
	size_t k = experiment_key(ex, n);

	assert_true(k != EX_NONE);
	return &ex->keys[k];
}

/* Five drives under five headings of one post: five conditions. */
static void test_sections_are_factors(void **state)
{
	static const char *const drive[] = { "Samsung 860", "Crucial MX500",
					     "WD Blue", "Intel 545", "Kingston" };
	struct result_set rs;
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;
	char l[64];

	(void)state;
	result_set_init(&rs);
	for (size_t i = 0; i < 5; i++) {
		snprintf(l, sizeof(l), "section=%s", drive[i]);
		add(&rs, "post.txt", "read", l, one, 1);
	}
	assert_int_equal(experiment_build(&ex, &rs, 1, NULL, &err), 0);
	assert_int_equal(ex.ngroups, 5);
	assert_int_equal(key(&ex, "section")->role, EX_FACTOR);
	for (size_t g = 0; g < 5; g++) {
		assert_int_equal(ex.groups[g].st->n, 1);
		assert_int_equal(ex.groups[g].summary, EX_SINGLE);
	}
	experiment_release(&ex);
	result_set_release(&rs);
}

/*
 * One host's randread and randrw reads, grep'd into two files: the same
 * labels, but the names say they are two tests; a second host alike.
 */
static void test_names_tell_tests_and_sides(void **state)
{
	struct result_set sets[2];
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;
	size_t split, match[8];

	(void)state;
	result_set_init(&sets[0]);
	result_set_init(&sets[1]);
	add(&sets[0], "hosta.randread.txt", "read", "", three, 3);
	add(&sets[0], "hosta.randrw.txt", "read", "", three, 3);
	add(&sets[1], "hostb.randread.txt", "read", "", three, 3);
	add(&sets[1], "hostb.randrw.txt", "read", "", three, 3);
	assert_int_equal(experiment_build(&ex, sets, 2, NULL, &err), 0);
	assert_int_equal(ex.ngroups, 4);
	assert_int_equal(key(&ex, "test")->role, EX_FACTOR);
	assert_int_equal(key(&ex, "test")->origin, EX_FROM_NAMES);
	assert_string_equal(ex.sides[0].name, "hosta");
	assert_string_equal(ex.sides[1].name, "hostb");
	/* randread meets randread, randrw meets randrw */
	assert_int_equal(experiment_match(&ex, 0, 1, match, NULL, &split), 2);
	for (size_t g = 0; g < 4; g++) {
		const char *t = experiment_value(&ex, ex.groups[g].first,
						 experiment_key(&ex, "test"));

		for (size_t h = 0; h < 4; h++)
			if (match[h] == match[g])
				assert_string_equal(
					experiment_value(&ex,
						ex.groups[h].first,
						experiment_key(&ex, "test")),
					t);
	}
	experiment_release(&ex);
	result_set_release(&sets[0]);
	result_set_release(&sets[1]);
}

/* groups_only: the same groups and members, no statistics. */
static void test_groups_only(void **state)
{
	struct result_set rs;
	struct experiment full, bare;
	struct experiment_options opt = { .groups_only = 1 };
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	add(&rs, "nvme-run1.json", "read", "bs=4096", one, 1);
	add(&rs, "nvme-run2.json", "read", "bs=4096", one, 1);
	add(&rs, "nvme-run1.json", "write", "bs=4096", one, 1);
	add(&rs, "nvme-run2.json", "read", "bs=512", one, 1);
	assert_int_equal(experiment_build(&full, &rs, 1, NULL, &err), 0);
	assert_int_equal(experiment_build(&bare, &rs, 1, &opt, &err), 0);
	assert_int_equal(bare.ngroups, full.ngroups);
	assert_int_equal(bare.ngroups, 3);
	for (size_t g = 0; g < bare.ngroups; g++) {
		assert_non_null(full.groups[g].st);
		assert_null(bare.groups[g].st);
		assert_int_equal(bare.groups[g].summary, EX_EMPTY);
		assert_int_equal(bare.groups[g].nmembers,
				 full.groups[g].nmembers);
		assert_int_equal(bare.groups[g].first, full.groups[g].first);
		for (size_t j = 0; j < bare.groups[g].nmembers; j++)
			assert_int_equal(bare.groups[g].members[j],
					 full.groups[g].members[j]);
	}
	assert_int_equal(full.groups[0].st->n, 2);
	experiment_release(&full);
	experiment_release(&bare);
	result_set_release(&rs);
	strbuf_release(&err);
}

/* Profiles whose hashes collide (STORAN_TEST_PROFILE_HASH_BITS keeps
 * one bit or two) are told apart by their text: the same profiles and
 * groups as with the whole hash. */
static void test_profile_hash_collisions(void **state)
{
	static const char *const bits[] = { "1", "2", NULL };
	struct result_set rs;
	struct experiment want;
	struct strbuf err = STRBUF_INIT;
	char labels[64];

	(void)state;
	result_set_init(&rs);
	for (int i = 0; i < 40; i++) {
		snprintf(labels, sizeof(labels), "bs=%d;job=j%d", 512 << (i % 5),
			 i % 8);
		add(&rs, i % 3 ? "a-run1.json" : "a-run2.json",
		    i % 2 ? "read" : "write", labels, two, 2);
	}
	assert_int_equal(experiment_build(&want, &rs, 1, NULL, &err), 0);
	assert_true(want.nprofiles > 8);
	for (size_t b = 0; bits[b]; b++) {
		struct experiment got;

		setenv("STORAN_TEST_PROFILE_HASH_BITS", bits[b], 1);
		assert_int_equal(experiment_build(&got, &rs, 1, NULL, &err), 0);
		unsetenv("STORAN_TEST_PROFILE_HASH_BITS");
		assert_int_equal(got.nprofiles, want.nprofiles);
		assert_int_equal(got.ngroups, want.ngroups);
		for (size_t i = 0; i < got.n; i++) {
			assert_int_equal(got.m[i].profile, want.m[i].profile);
			assert_int_equal(got.m[i].group, want.m[i].group);
		}
		experiment_release(&got);
	}
	experiment_release(&want);
	result_set_release(&rs);
	strbuf_release(&err);
}

/* run1 run2 run3 of one test are repetitions; 512 and 4096 are not. */
static void test_run_numbers_are_counters(void **state)
{
	struct result_set rs;
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	add(&rs, "nvme-run1.json", "read", "bs=4096", one, 1);
	add(&rs, "nvme-run2.json", "read", "bs=4096", one, 1);
	add(&rs, "nvme-run3.json", "read", "bs=4096", one, 1);
	assert_int_equal(experiment_build(&ex, &rs, 1, NULL, &err), 0);
	assert_int_equal(ex.ngroups, 1);
	assert_int_equal(ex.groups[0].st->n, 3);
	assert_int_equal(ex.groups[0].summary, EX_INTERVAL);
	assert_true(ex.nnotes >= 1);
	experiment_release(&ex);
	result_set_release(&rs);

	result_set_init(&rs);
	add(&rs, "dd-1.txt", "write", "", one, 1);
	add(&rs, "dd-2.txt", "write", "", one, 1);
	add(&rs, "dd-512.txt", "write", "", one, 1);
	assert_int_equal(experiment_build(&ex, &rs, 1, NULL, &err), 0);
	assert_int_equal(ex.ngroups, 3);	/* 1 2 512: no count */
	experiment_release(&ex);
	result_set_release(&rs);
}

/* The user's kind=file/kind=block names the sides, not a derived device. */
static void test_user_labels_name_sides(void **state)
{
	struct result_set sets[2];
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&sets[0]);
	result_set_init(&sets[1]);
	add(&sets[0], "block.txt", "read", "device=/dev/sdb;kind=block",
	    three, 3);
	add(&sets[1], "file.txt", "read", "device=/mnt/test/f;kind=file",
	    three, 3);
	labels_set(&sets[0].sources[0].labels, "kind", "block");
	labels_set(&sets[1].sources[0].labels, "kind", "file");
	assert_int_equal(experiment_build(&ex, sets, 2, NULL, &err), 0);
	assert_int_equal(key(&ex, "kind")->role, EX_IDENTITY);
	assert_int_equal(key(&ex, "device")->role, EX_IDENTITY);
	assert_string_equal(ex.sides[0].name, "block");
	assert_string_equal(ex.sides[1].name, "file");
	{
		size_t match[4];

		assert_int_equal(experiment_match(&ex, 0, 1, match, NULL,
						  NULL), 1);
	}
	experiment_release(&ex);
	result_set_release(&sets[0]);
	result_set_release(&sets[1]);
}

static void test_summaries_by_runs(void **state)
{
	(void)state;
	assert_int_equal(ex_summary_for(0), EX_EMPTY);
	assert_int_equal(ex_summary_for(1), EX_SINGLE);
	assert_int_equal(ex_summary_for(2), EX_BOTH);
	assert_int_equal(ex_summary_for(3), EX_INTERVAL);
	assert_int_equal(ex_summary_for(30), EX_INTERVAL);
}

/* --pool KEY pools what differs in it, and says so. */
static void test_pool_on_request(void **state)
{
	static char host[] = "host";
	char *pool[] = { host };
	struct experiment_options opt = { .pool = pool, .npool = 1 };
	struct result_set rs;
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	add(&rs, "a.txt", "read", "host=a", two, 2);
	add(&rs, "a.txt", "read", "host=b", one, 1);
	assert_int_equal(experiment_build(&ex, &rs, 1, NULL, &err), 0);
	assert_int_equal(ex.ngroups, 2);
	experiment_release(&ex);
	assert_int_equal(experiment_build(&ex, &rs, 1, &opt, &err), 0);
	assert_int_equal(ex.ngroups, 1);
	assert_int_equal(ex.groups[0].st->n, 3);
	assert_int_equal(key(&ex, "host")->role, EX_POOLED);
	assert_non_null(strstr(ex.notes[ex.nnotes - 1], "host"));
	experiment_release(&ex);
	result_set_release(&rs);
}

/*
 * A device that restates the command is no second distinction, and for
 * dd the command is no condition at all (its parser labels what matters);
 * for time it is the only one.
 */
static void test_distinguishing_skips_restatements(void **state)
{
	struct result_set rs;
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;
	size_t *all, keys[8], n;
	struct measurement *m;
	char buf[64];

	(void)state;
	result_set_init(&rs);
	add(&rs, "log.txt", "write",
	    "command=dd if=/dev/zero of=/dev/sdb bs=1M count=100;"
	    "device=/dev/sdb", one, 1);
	add(&rs, "log.txt", "write",
	    "command=dd if=/dev/zero of=/dev/sdc bs=1M count=100;"
	    "device=/dev/sdc", one, 1);
	assert_int_equal(experiment_build(&ex, &rs, 1, NULL, &err), 0);
	all = xmalloc(ex.n * sizeof(*all));
	for (size_t i = 0; i < ex.n; i++)
		all[i] = i;
	n = experiment_distinguishing(&ex, all, ex.n, NULL, 0, keys, 8);
	assert_int_equal(n, 1);
	assert_string_equal(ex.keys[keys[0]].name, "device");
	assert_int_equal(key(&ex, "command")->role, EX_CONSTANT);
	free(all);
	experiment_release(&ex);
	result_set_release(&rs);

	/* time: the command is what was timed, shown by what differs */
	result_set_init(&rs);
	m = add(&rs, "log.txt", "run",
		"command=tar cf /backup/home.tar /home/alice", one, 1);
	measurement_set_key(m, "time", "run", "time.real", "s");
	m = add(&rs, "log.txt", "run",
		"command=tar cf /backup/home.tar /home/bob", one, 1);
	measurement_set_key(m, "time", "run", "time.real", "s");
	assert_int_equal(experiment_build(&ex, &rs, 1, NULL, &err), 0);
	assert_int_equal(ex.ngroups, 2);
	assert_string_equal(experiment_value_text(&ex,
			experiment_key(&ex, "command"),
			experiment_code(&ex, 0, experiment_key(&ex, "command")),
			buf, sizeof(buf)),
		"\xe2\x80\xa6/home/alice");
	experiment_release(&ex);
	result_set_release(&rs);
}

/* BEFORE: and AFTER: in each input: matched heading by heading. */
static void test_sections_split_matching(void **state)
{
	struct result_set sets[2];
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;
	size_t split = 0, match[8];

	(void)state;
	for (int s = 0; s < 2; s++) {
		result_set_init(&sets[s]);
		add(&sets[s], s ? "new.txt" : "old.txt", "read",
		    s ? "host=new;section=BEFORE" : "host=old;section=BEFORE",
		    three, 3);
		add(&sets[s], s ? "new.txt" : "old.txt", "read",
		    s ? "host=new;section=AFTER" : "host=old;section=AFTER",
		    three, 3);
	}
	assert_int_equal(experiment_build(&ex, sets, 2, NULL, &err), 0);
	assert_int_equal(key(&ex, "host")->role, EX_IDENTITY);
	assert_int_equal(experiment_match(&ex, 0, 1, match, NULL, &split), 2);
	assert_int_equal(split, 1);
	experiment_release(&ex);
	result_set_release(&sets[0]);
	result_set_release(&sets[1]);
}

/* --compare KEY: its values are the sides; one value is an error. */
static void test_compare_key_sides(void **state)
{
	struct experiment_options opt = { .side_key = "kind" };
	struct result_set rs;
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&rs);
	add(&rs, "x.txt", "read", "bs=4096;kind=file", three, 3);
	add(&rs, "x.txt", "read", "bs=4096;kind=block", three, 3);
	add(&rs, "x.txt", "read", "bs=8192;kind=block", three, 3);
	assert_int_equal(experiment_build(&ex, &rs, 1, &opt, &err), 0);
	assert_int_equal(ex.nsides, 2);
	assert_int_equal(ex.ngroups, 3);
	assert_int_equal(key(&ex, "bs")->role, EX_FACTOR);
	experiment_release(&ex);
	opt.side_key = "bs";
	opt.side_a = "8192";
	opt.side_b = "4096";
	assert_int_equal(experiment_build(&ex, &rs, 1, &opt, &err), 0);
	assert_string_equal(ex.sides[0].name, "4K blocks");	/* in words */
	experiment_release(&ex);
	opt.side_key = "nosuch";
	opt.side_a = opt.side_b = NULL;
	assert_int_equal(experiment_build(&ex, &rs, 1, &opt, &err), -1);
	assert_non_null(strstr(err.buf, "no measurement has that label"));
	experiment_release(&ex);
	strbuf_release(&err);
	result_set_release(&rs);
}

/* A measurement of op from the file `file`, its lines grep-prefixed with
 * `prefix` (grep -H '' fio_randread.log ... > do-5bucks.txt). */
static void add_prefixed(struct result_set *rs, const char *file,
			 const char *prefix, const char *op)
{
	size_t src = SIZE_MAX;
	struct measurement *m;

	for (size_t i = 0; i < rs->nsources; i++)
		if (!strcmp(rs->sources[i].name, file))
			src = i;
	if (src == SIZE_MAX)
		src = result_set_add_source(rs, file, NULL);
	m = result_set_add_from(rs, "fio", op, "bw", "B/s", src, prefix, 1);
	for (size_t i = 0; i < 3; i++)
		measurement_add_value(m, three[i]);
}

/*
 * Two machines, one grep'd file each, holding the same prefixes: the
 * files name the sides (not "fio_randread.log", which both have), the
 * prefixes the tests; merged into one set, the machines are never
 * pooled as repetitions of each other.
 */
static void test_grep_files_name_sides(void **state)
{
	static const char *const file[] = { "do-5bucks.txt",
					    "vultr-25gbssd.txt" };
	struct result_set rs[2], merged;
	struct experiment ex;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	result_set_init(&merged);
	for (int s = 0; s < 2; s++) {
		result_set_init(&rs[s]);
		add_prefixed(&rs[s], file[s], "fio_randread.log", "randread");
		add_prefixed(&rs[s], file[s], "fio_randwrite.log",
			     "randwrite");
		add_prefixed(&merged, file[s], "fio_randread.log",
			     "randread");
		add_prefixed(&merged, file[s], "fio_randwrite.log",
			     "randwrite");
	}
	assert_int_equal(experiment_build(&ex, rs, 2, NULL, &err), 0);
	assert_int_equal(ex.nsides, 2);
	assert_string_equal(ex.sides[0].name, "do-5bucks");
	assert_string_equal(ex.sides[1].name, "vultr-25gbssd");
	experiment_release(&ex);

	assert_int_equal(experiment_build(&ex, &merged, 1, NULL, &err), 0);
	assert_int_equal(ex.ngroups, 4);	/* 2 machines x 2 tests */
	for (size_t g = 0; g < ex.ngroups; g++)
		assert_int_equal(ex.groups[g].st->n, 3);
	experiment_release(&ex);
	for (int s = 0; s < 2; s++)
		result_set_release(&rs[s]);
	result_set_release(&merged);
	strbuf_release(&err);
}

/* One set per input file, a bw measurement per (op, labels) given. */
static void input_set(struct result_set *rs, const char *name,
		      const char *op, const char *labels)
{
	result_set_init(rs);
	add(rs, name, op, labels, three, 3);
}

/*
 * Which inputs given to report are sides: hosta.* and hostb.* measure
 * the same tests (sides); randread-4k-qd32-run1.json and the like only
 * repeat their labels in their names (one data set); do-5bucks.json and
 * vultr-25gbssd.json differ in two tokens that go together (sides).
 */
static void test_input_sides(void **state)
{
	struct result_set rs[8];
	size_t side[8];
	const char *hosts[] = { "hosta.randread.txt", "hosta.randrw.txt",
				"hostb.randread.txt", "hostb.randrw.txt" };
	const char *runs[] = { "randread-4k-qd32-run1.json",
			       "randread-4k-qd32-run2.json",
			       "randwrite-4k-qd32-run1.json",
			       "randread-64k-qd1-run1.json" };
	const char *vps[] = { "do-5bucks.json", "vultr-25gbssd.json" };

	(void)state;
	input_set(&rs[0], hosts[0], "randread", "rw=randread");
	input_set(&rs[1], hosts[1], "randrw", "rw=randrw");
	input_set(&rs[2], hosts[2], "randread", "rw=randread");
	input_set(&rs[3], hosts[3], "randrw", "rw=randrw");
	assert_int_equal(experiment_input_sides(rs, hosts, 4, NULL, side), 2);
	assert_int_equal(side[0], 0);
	assert_int_equal(side[1], 0);
	assert_int_equal(side[2], 1);
	assert_int_equal(side[3], 1);
	for (int i = 0; i < 4; i++)
		result_set_release(&rs[i]);

	input_set(&rs[0], runs[0], "randread", "rw=randread;bs=4096;iodepth=32");
	input_set(&rs[1], runs[1], "randread", "rw=randread;bs=4096;iodepth=32");
	input_set(&rs[2], runs[2], "randwrite", "rw=randwrite;bs=4096;iodepth=32");
	input_set(&rs[3], runs[3], "randread", "rw=randread;bs=65536;iodepth=1");
	assert_int_equal(experiment_input_sides(rs, runs, 4, NULL, side), 1);
	for (int i = 0; i < 4; i++)
		result_set_release(&rs[i]);

	input_set(&rs[0], vps[0], "randread", "rw=randread");
	input_set(&rs[1], vps[1], "randread", "rw=randread");
	assert_int_equal(experiment_input_sides(rs, vps, 2, NULL, side), 2);
	for (int i = 0; i < 2; i++)
		result_set_release(&rs[i]);

	/* no measurement the same in both (each names its host): the
	 * model finds the test they share */
	input_set(&rs[0], vps[0], "randread", "rw=randread;host=a");
	input_set(&rs[1], vps[1], "randread", "rw=randread;host=b");
	assert_int_equal(experiment_input_sides(rs, vps, 2, NULL, side), 2);
	for (int i = 0; i < 2; i++)
		result_set_release(&rs[i]);
}

/* The same measurement in two inputs that --where leaves out is no test
 * they share: the randread both have is not taken, and the randwrite and
 * randrw left are two tests of one data set. */
static void test_input_sides_where(void **state)
{
	struct result_set rs[2];
	struct filter where;
	size_t side[2];
	const char *names[] = { "randwrite.json", "randrw.json" };

	(void)state;
	result_set_init(&rs[0]);
	result_set_init(&rs[1]);
	add(&rs[0], names[0], "randread", "job=r", three, 3);
	add(&rs[0], names[0], "randwrite", "job=w", three, 3);
	add(&rs[1], names[1], "randread", "job=r", three, 3);
	add(&rs[1], names[1], "randrw", "job=m", three, 3);
	assert_int_equal(experiment_input_sides(rs, names, 2, NULL, side), 2);
	filter_init(&where);
	assert_int_equal(filter_parse(&where, "job!=r"), 0);
	assert_int_equal(experiment_input_sides(rs, names, 2, &where, side),
			 1);
	filter_release(&where);
	result_set_release(&rs[0]);
	result_set_release(&rs[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_are_factors),
		cmocka_unit_test(test_names_tell_tests_and_sides),
		cmocka_unit_test(test_groups_only),
		cmocka_unit_test(test_profile_hash_collisions),
		cmocka_unit_test(test_run_numbers_are_counters),
		cmocka_unit_test(test_user_labels_name_sides),
		cmocka_unit_test(test_summaries_by_runs),
		cmocka_unit_test(test_pool_on_request),
		cmocka_unit_test(test_distinguishing_skips_restatements),
		cmocka_unit_test(test_sections_split_matching),
		cmocka_unit_test(test_compare_key_sides),
		cmocka_unit_test(test_grep_files_name_sides),
		cmocka_unit_test(test_input_sides),
		cmocka_unit_test(test_input_sides_where),
	};

	progname = "test-experiment";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
