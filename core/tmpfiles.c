/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Temporary files removed on fatal signals; see tmpfiles.h. */
#define _GNU_SOURCE
#include "tmpfiles.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_LIVE };

/* Reads of a directory that others keep filling, before giving up. */
enum { REMOVE_ROUNDS_MAX = 1000 };

static struct slot {
	atomic_int state;
	int kind;
	char path[PATH_MAX];
} slots[TMPFILES_MAX];

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE,
				     SIGQUIT };

/* ---- removing a tree, with system calls only --------------------------- */

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int is_dot(const char *name)
{
	return name[0] == '.' &&
	       (!name[1] || (name[1] == '.' && !name[2]));
}

static int empty_and_remove(int fd, int parentfd, const char *name,
			    int depth);

/* Removes the entry name of dirfd, a directory with its contents. */
static int remove_entry(int dirfd, const char *name, unsigned char type,
			int depth)
{
	struct stat st;
	int fd, rc;

	if (type == DT_UNKNOWN) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			return -1;
		type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (type != DT_DIR)
		return unlinkat(dirfd, name, 0);
	if (depth >= 8) {
		errno = ELOOP;
		return -1;
	}
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = empty_and_remove(fd, dirfd, name, depth + 1);
	close(fd);
	return rc;
}

/*
 * Every entry of dirfd.  The directory is read again from its start
 * after each batch: removing entries while reading may skip some.
 */
static int remove_entries(int dirfd, int depth)
{
	char buf[4096] __attribute__((aligned(8)));

	for (;;) {
		long n;
		int removed = 0, failed = 0;

		if (lseek(dirfd, 0, SEEK_SET) < 0)
			return -1;
		n = syscall(SYS_getdents64, dirfd, buf, sizeof(buf));
		if (n < 0)
			return -1;
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);

			off += d->d_reclen;
			if (is_dot(d->d_name))
				continue;
			if (remove_entry(dirfd, d->d_name, d->d_type, depth))
				failed = 1;
			else
				removed = 1;
		}
		if (!removed)
			return failed ? -1 : 0;
	}
}

/*
 * Empties directory fd, then removes it (name in parentfd).  Another
 * thread may still be writing into it: a report's renderers go on while
 * a fatal signal's handler runs.  What they made after the last read
 * makes the removal fail with ENOTEMPTY; the directory is read again
 * then.  Once it is gone they cannot create anything in it any more.
 */
static int empty_and_remove(int fd, int parentfd, const char *name,
			    int depth)
{
	for (int round = 0;; round++) {
		if (remove_entries(fd, depth))
			return -1;
		if (!unlinkat(parentfd, name, AT_REMOVEDIR))
			return 0;
		if ((errno != ENOTEMPTY && errno != EEXIST) ||
		    round >= REMOVE_ROUNDS_MAX)
			return -1;
	}
}

int remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = empty_and_remove(fd, AT_FDCWD, path, 0);
	close(fd);
	return rc;
}

/* ---- the registry ------------------------------------------------------ */

void tmpfiles_remove_now(void)
{
	int saved = errno;

	for (size_t i = 0; i < TMPFILES_MAX; i++) {
		struct slot *s = &slots[i];

		if (atomic_load(&s->state) != SLOT_LIVE)
			continue;
		if (s->kind == TMPFILE_DIR)
			(void)remove_tree(s->path);
		else
			(void)unlink(s->path);
		atomic_store(&s->state, SLOT_FREE);
	}
	errno = saved;
}

static void on_fatal_signal(int sig)
{
	tmpfiles_remove_now();
	/* SA_RESETHAND made the action the default again, SA_NODEFER left
	 * the signal unblocked: raising it ends the process as it would
	 * have ended without us. */
	raise(sig);
}

static void catch_fatal_signals(void)
{
	static atomic_flag done = ATOMIC_FLAG_INIT;
	struct sigaction sa, old;

	if (atomic_flag_test_and_set(&done))
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals);
	     i++) {
		if (sigaction(fatal_signals[i], NULL, &old) ||
		    (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
			continue;	/* ignored or handled: not ours */
		sigaction(fatal_signals[i], &sa, NULL);
	}
}

int tmpfiles_add(const char *path, enum tmpfile_kind kind)
{
	size_t len = strlen(path);

	if (len >= PATH_MAX)
		BUG("temporary path too long: %s", path);
	catch_fatal_signals();
	for (int i = 0; i < TMPFILES_MAX; i++) {
		int want = SLOT_FREE;

		if (!atomic_compare_exchange_strong(&slots[i].state, &want,
						    SLOT_FILLING))
			continue;
		memcpy(slots[i].path, path, len + 1);
		slots[i].kind = kind;
		atomic_store(&slots[i].state, SLOT_LIVE);
		return i;
	}
	BUG("more than %d temporary files at once", TMPFILES_MAX);
}

void tmpfiles_forget(int handle)
{
	if (handle >= 0 && handle < TMPFILES_MAX)
		atomic_store(&slots[handle].state, SLOT_FREE);
}

/* Blocks the fatal signals in this thread, after making sure they are
 * caught: what is created next is registered before one is delivered. */
void tmpfiles_hold_signals(sigset_t *old)
{
	sigset_t block;

	catch_fatal_signals();
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals);
	     i++)
		sigaddset(&block, fatal_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

void tmpfiles_release_signals(const sigset_t *old)
{
	int saved = errno;

	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = saved;
}

int tmpfiles_mkstemp(char *template, int flags, int *handle)
{
	sigset_t old;
	int fd;

	tmpfiles_hold_signals(&old);
	fd = mkostemp(template, flags);
	*handle = fd >= 0 ? tmpfiles_add(template, TMPFILE_FILE) : -1;
	tmpfiles_release_signals(&old);
	return fd;
}

char *tmpfiles_mkdtemp(char *template, int *handle)
{
	sigset_t old;
	char *dir;

	tmpfiles_hold_signals(&old);
	dir = mkdtemp(template);
	*handle = dir ? tmpfiles_add(template, TMPFILE_DIR) : -1;
	tmpfiles_release_signals(&old);
	return dir;
}
