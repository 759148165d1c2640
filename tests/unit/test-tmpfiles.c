/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * remove_tree() while another thread keeps writing into the directory,
 * as a report's chart renderers do when SIGINT's handler removes the
 * report's temporary directory (CI saw rep.tmp-* left behind once).
 * The tree must be gone whatever the writer made after the last read.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tmpfiles.h"

enum { ROUNDS = 40 };

struct writer {
	char dir[96];		/* where the files go */
	atomic_int started;
	long made;
};

/* Creates files in w->dir until the directory is gone. */
static void *write_until_gone(void *arg)
{
	struct writer *w = arg;
	char path[160];

	for (long i = 0;; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/chart-%ld.png", w->dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			break;
		(void)!write(fd, "png", 3);
		close(fd);
		w->made++;
		if (i == 8)
			atomic_store(&w->started, 1);
	}
	atomic_store(&w->started, 1);
	return NULL;
}

/* One round: top made, the writer started in top/sub (or top), removed. */
static void remove_while_written(const char *sub)
{
	char top[64] = "/tmp/test-tmpfiles-XXXXXX";
	struct writer w = { .started = 0 };
	pthread_t tid;
	struct stat st;

	assert_non_null(mkdtemp(top));
	snprintf(w.dir, sizeof(w.dir), "%s%s", top, sub);
	if (*sub)
		assert_int_equal(mkdir(w.dir, 0755), 0);
	assert_int_equal(pthread_create(&tid, NULL, write_until_gone, &w), 0);
	while (!atomic_load(&w.started))
		sched_yield();
	assert_int_equal(remove_tree(top), 0);
	pthread_join(tid, NULL);
	assert_int_not_equal(stat(top, &st), 0);
	assert_int_equal(errno, ENOENT);
	assert_true(w.made > 8);
}

static void test_writer_in_the_directory(void **state)
{
	(void)state;
	for (int i = 0; i < ROUNDS; i++)
		remove_while_written("");
}

static void test_writer_in_a_subdirectory(void **state)
{
	(void)state;
	for (int i = 0; i < ROUNDS; i++)
		remove_while_written("/sub");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_in_the_directory),
		cmocka_unit_test(test_writer_in_a_subdirectory),
	};

	return cmocka_run_group_tests_name("tmpfiles", tests, NULL, NULL);
}
