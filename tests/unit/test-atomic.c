/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * -o replaces only the file it checked (issue 15): out.json is opened as
 * an output, then swapped for a symbolic link to another file (as a
 * local user could in a shared /tmp) before the commit.  The commit must
 * refuse, the other file keep its bytes, and no temporary file be left.
 * The same swap before the open is refused there.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic.h"

static char dir[64], out[96], victim[96];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/test-atomic-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out.json", dir);
	snprintf(victim, sizeof(victim), "%s/thesis.tex", dir);
	put(out, "earlier output\n");
	put(victim, "precious\n");
	return 0;
}

static int teardown(void **state)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	(void)state;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
	return 0;
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void swap_for_link(void)
{
	assert_int_equal(unlink(out), 0);
	assert_int_equal(symlink(victim, out), 0);
}

static void test_swap_before_commit(void **state)
{
	struct atomic_file af;
	char buf[64];

	(void)state;
	assert_int_equal(atomic_file_open(&af, out), 0);
	assert_int_equal(atomic_file_write(&af, "new\n", 4), 0);
	swap_for_link();
	assert_int_equal(atomic_file_commit(&af), -1);
	assert_string_equal(slurp(victim, buf, sizeof(buf)), "precious\n");
	assert_int_equal(entries(), 2);	/* the link and the victim */
}

static void test_unswapped_commit(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(write_file_atomic(out, "new\n", 4), 0);
	assert_string_equal(slurp(out, buf, sizeof(buf)), "new\n");
	assert_string_equal(slurp(victim, buf, sizeof(buf)), "precious\n");
	assert_int_equal(entries(), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_swap_before_commit,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unswapped_commit,
						setup, teardown),
	};

	return cmocka_run_group_tests_name("atomic", tests, NULL, NULL);
}
