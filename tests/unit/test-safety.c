/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The runner opens only what it checked (issue 15): --filename F with
 * --overwrite is checked, then swapped for a symbolic link to another
 * file (as a local user could in a shared /tmp) at the one moment
 * between the checks and the open, through safety_before_open.  The
 * runner must refuse, and the other file must keep its bytes.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "runner/safety.h"

static char dir[64], file[96], victim[96], other[96];

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	for (int i = 0; i < 256; i++)	/* 256 lines: a few KiB */
		assert_int_equal(write(fd, text, strlen(text)),
				 (ssize_t)strlen(text));
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/storan-safety-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/test-file", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	put(file, "the test file\n");
	put(victim, "precious data\n");
	put(other, "another file\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	safety_before_open = NULL;
	unlink(file);
	unlink(victim);
	unlink(other);
	rmdir(dir);
	return 0;
}

static void swap_for_link(const char *path)
{
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(victim, path), 0);
}

static void swap_for_other_file(const char *path)
{
	assert_int_equal(rename(other, path), 0);
}

static void link_appears(const char *path)
{
	assert_int_equal(symlink(victim, path), 0);
}

static int open_for_writing(const char *path, struct target *t)
{
	struct safety_request req = {
		.filename = path, .writes = 1, .overwrite = 1,
	};

	return safety_open_target(&req, t);
}

static void victim_untouched(void)
{
	struct stat st;

	assert_int_equal(lstat(victim, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 256 * strlen("precious data\n"));
}

static void test_unswapped_file_opens(void **state)
{
	struct target t;
	struct stat a, b;

	(void)state;
	assert_int_equal(open_for_writing(file, &t), 0);
	assert_int_equal(fstat(t.fd, &a), 0);
	assert_int_equal(stat(file, &b), 0);
	assert_true(a.st_ino == b.st_ino);
	target_close(&t);
}

static void test_link_swapped_in_is_refused(void **state)
{
	struct target t;

	(void)state;
	safety_before_open = swap_for_link;
	assert_int_equal(open_for_writing(file, &t), -1);
	assert_int_equal(t.fd, -1);
	victim_untouched();
}

static void test_other_file_swapped_in_is_refused(void **state)
{
	struct target t;

	(void)state;
	safety_before_open = swap_for_other_file;
	assert_int_equal(open_for_writing(file, &t), -1);
	assert_int_equal(t.fd, -1);
}

/* The file behind a link the user gave is swapped: refused too.  (The
 * link itself swapped does not matter: the name was resolved once.) */
static void swap_the_file_behind(const char *path)
{
	(void)path;
	swap_for_link(file);
}

static void test_swap_behind_a_given_link_is_refused(void **state)
{
	char link[128];
	struct target t;

	(void)state;
	snprintf(link, sizeof(link), "%s/given-link", dir);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(open_for_writing(link, &t), 0);
	target_close(&t);
	safety_before_open = swap_the_file_behind;
	assert_int_equal(open_for_writing(link, &t), -1);
	victim_untouched();
	unlink(link);
}

/* A new file (no --overwrite): a link that appears is not followed. */
static void test_new_file_link_appears(void **state)
{
	struct safety_request req = { .filename = NULL, .writes = 1,
				      .size = 1 << 20 };
	char name[128];
	struct target t;

	(void)state;
	snprintf(name, sizeof(name), "%s/new-file", dir);
	req.filename = name;
	safety_before_open = link_appears;
	assert_int_equal(safety_open_target(&req, &t), -1);
	victim_untouched();
	unlink(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unswapped_file_opens,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_swapped_in_is_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_other_file_swapped_in_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_swap_behind_a_given_link_is_refused, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_new_file_link_appears,
						setup, teardown),
	};

	progname = "test-safety";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
