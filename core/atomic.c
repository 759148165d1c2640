/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whole-or-nothing output files; see atomic.h. */
#define _GNU_SOURCE	/* sync_file_range, O_PATH */
#include "atomic.h"
#include "strbuf.h"
#include "tmpfiles.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define FLUSH_STEP (2LL << 20)	/* bytes; 1 and 4 MiB were no better */

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- the umask --------------------------------------------------------- */

static mode_t umask_seen;

/* From /proc (reading it does not change it for the other threads, as a
 * umask(0) and back would for a moment); umask() where there is none. */
static void read_umask(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];
	unsigned long m;
	char *end;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Umask:", 6))
			continue;
		m = strtoul(line + 6, &end, 8);
		if (end != line + 6 && m <= 0777) {
			umask_seen = (mode_t)m;
			fclose(f);
			return;
		}
	}
	if (f)
		fclose(f);
	umask_seen = umask(022);
	umask(umask_seen);
}

mode_t current_umask(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_umask);
	return umask_seen;
}

/* ---- what -o names ----------------------------------------------------- */

enum out_kind {
	OUT_NEW,	/* no such file: created */
	OUT_REGULAR,	/* replaced by rename */
	OUT_IN_PLACE,	/* a FIFO, a socket, /dev/null: opened, written */
	OUT_DESCRIPTOR,	/* /dev/stdout, /dev/fd/N: that descriptor */
};

struct out_target {
	enum out_kind kind;
	int fd;		/* OUT_DESCRIPTOR: the descriptor */
	struct stat st;	/* what was found (not OUT_NEW) */
};

/* N when path names open descriptor N (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N), else -1. */
static int descriptor_name(const char *path)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long n;

	if (!strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (size_t i = 0; i < 2; i++) {
		size_t len = strlen(prefixes[i]);

		if (strncmp(path, prefixes[i], len) || !path[len])
			continue;
		n = strtol(path + len, &end, 10);
		if (!*end && n >= 0 && n < INT_MAX && path[len] != '-' &&
		    path[len] != '+')
			return (int)n;
	}
	return -1;
}

/* A descriptor (standard output, /dev/fd/N) may be a terminal or a pipe,
 * never a block device. */
static int refuse_block_device(const char *what, const struct stat *st)
{
	if (S_ISBLK(st->st_mode))
		return error("%s is a block device (%u:%u): storan never "
			     "writes its output onto a device, that would "
			     "destroy what it holds; name a file",
			     what, major(st->st_rdev), minor(st->st_rdev));
	return 0;
}

static int refuse_device(const char *what, const struct stat *st)
{
	if (refuse_block_device(what, st))
		return -1;
	if (S_ISCHR(st->st_mode) && st->st_rdev != makedev(1, 3))
		return error("%s is a character device (%u:%u): storan "
			     "writes its output to a file, a FIFO, "
			     "/dev/null or standard output only", what,
			     major(st->st_rdev), minor(st->st_rdev));
	if (S_ISDIR(st->st_mode))
		return error("%s is a directory; name a file", what);
	return 0;
}

/* What path is, from the object it names (see atomic.h); 0 or -1. */
static int classify(const char *path, struct out_target *t)
{
	char *what = xstrfmt("'%s'", path);
	int fd = descriptor_name(path), rc = 0;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (fd >= 0) {
		t->kind = OUT_DESCRIPTOR;
		t->fd = fd;
		if (fstat(fd, &t->st))
			rc = error("cannot write '%s': %s", path,
				   strerror(errno));
		else
			rc = refuse_block_device(what, &t->st);
		free(what);
		return rc;
	}
	fd = open(path, O_PATH | O_CLOEXEC);	/* follows a link */
	if (fd < 0) {
		if (errno != ENOENT)
			rc = error("cannot create '%s': %s", path,
				   strerror(errno));
		t->kind = OUT_NEW;
	} else if (fstat(fd, &t->st)) {
		rc = error("cannot use '%s': %s", path, strerror(errno));
	} else if (!(rc = refuse_device(what, &t->st))) {
		t->kind = S_ISREG(t->st.st_mode) ? OUT_REGULAR : OUT_IN_PLACE;
	}
	if (fd >= 0)
		close(fd);
	free(what);
	return rc;
}

int output_path_check(const char *path)
{
	struct out_target t;
	struct stat st;

	if (strcmp(path, "-"))
		return classify(path, &t);
	if (fstat(STDOUT_FILENO, &st))
		return 0;	/* closed: the write will say so */
	return refuse_block_device("standard output", &st);
}

/* ---- opening ----------------------------------------------------------- */

static void atomic_file_reset(struct atomic_file *af)
{
	memset(af, 0, sizeof(*af));
	af->fd = -1;
	af->tmp_handle = -1;
}

static int same_object(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* A FIFO or /dev/null: opened again, and it must be what was checked
 * (a name swapped meanwhile for a link to a device is refused). */
static int open_in_place(struct atomic_file *af, const char *path,
			 const struct out_target *t)
{
	struct stat st;

	af->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (af->fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(af->fd, &st) || !same_object(&st, &t->st)) {
		close(af->fd);
		af->fd = -1;
		return error("'%s' changed while storan opened it; not "
			     "written", path);
	}
	af->path = xstrdup(path);
	return 0;
}

/* A new or regular file: a temporary one beside it, renamed at commit.
 * A symbolic link is followed, so that the link stays a link. */
/*
 * Is the file at the resolved path still the one that was checked?  A
 * link swapped in after the check (a shared /tmp) would otherwise make
 * the rename replace whatever it points to: a device node, someone's
 * file.  The resolved path has no link left in it, and rename() does not
 * follow its last one, so what lstat() sees here is what is replaced.
 */
static int still_checked(const char *real, dev_t dev, ino_t ino)
{
	struct stat now;

	return !lstat(real, &now) && S_ISREG(now.st_mode) &&
	       now.st_dev == dev && now.st_ino == ino;
}

static int open_temporary(struct atomic_file *af, const char *path,
			  const struct out_target *t)
{
	char *real = t->kind == OUT_REGULAR ? realpath(path, NULL) : NULL;
	int saved;

	if (real && !still_checked(real, t->st.st_dev, t->st.st_ino)) {
		free(real);
		return error("'%s' changed while storan checked it: not "
			     "written", path);
	}
	af->dev = t->st.st_dev;
	af->ino = t->st.st_ino;
	af->path = real ? real : xstrdup(path);
	af->replacing = t->kind == OUT_REGULAR;
	af->mode = af->replacing ? t->st.st_mode & 0777 :
		   0666 & ~current_umask();
	af->uid = t->st.st_uid;
	af->gid = t->st.st_gid;
	af->tmp = xstrfmt("%s.tmp-XXXXXX", af->path);
	af->fd = tmpfiles_mkstemp(af->tmp, O_CLOEXEC, &af->tmp_handle);
	if (af->fd >= 0)
		return 0;
	saved = errno;
	free(af->path);
	free(af->tmp);
	atomic_file_reset(af);
	return error("cannot create '%s': %s", path, strerror(saved));
}

int atomic_file_open(struct atomic_file *af, const char *path)
{
	struct out_target t;

	atomic_file_reset(af);
	if (!strcmp(path, "-")) {
		if (output_path_check("-"))
			return -1;
		fflush(stdout);	/* keep order with what stdio printed */
		af->fd = STDOUT_FILENO;
		return 0;
	}
	if (classify(path, &t))
		return -1;
	switch (t.kind) {
	case OUT_DESCRIPTOR:
		if (t.fd == STDOUT_FILENO)
			fflush(stdout);
		af->fd = dup(t.fd);
		if (af->fd < 0)
			return error("cannot write '%s': %s", path,
				     strerror(errno));
		af->path = xstrdup(path);
		return 0;
	case OUT_IN_PLACE:
		return open_in_place(af, path, &t);
	default:
		return open_temporary(af, path, &t);
	}
}

/* ---- writing ----------------------------------------------------------- */

/* Starts the write-out of what was written since the last time (see
 * atomic.h); a hint, so a failure is no error: the rename still does it. */
static void flush_in_steps(struct atomic_file *af, size_t len)
{
	af->written += (long long)len;
	if (!af->replacing || !af->tmp ||
	    af->written - af->flushed < FLUSH_STEP)
		return;
	(void)sync_file_range(af->fd, af->flushed, af->written - af->flushed,
			      SYNC_FILE_RANGE_WRITE);
	af->flushed = af->written;
}

int atomic_file_write(struct atomic_file *af, const char *data, size_t len)
{
	if (af->failed)
		return -1;
	if (!write_all(af->fd, data, len)) {
		flush_in_steps(af, len);
		return 0;
	}
	af->failed = 1;
	return error("cannot write '%s': %s",
		     af->path ? af->path : "standard output", strerror(errno));
}

void atomic_file_drain(struct strbuf *text, void *af)
{
	atomic_file_write(af, text->buf, text->len);
	strbuf_reset(text);
}

static void atomic_file_free(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	atomic_file_reset(af);
}

/* The temporary file is gone or renamed: the signal handler must not
 * touch its name any more. */
static void drop_tmp(struct atomic_file *af, int unlink_it)
{
	if (unlink_it)
		unlink(af->tmp);
	tmpfiles_forget(af->tmp_handle);
	af->tmp_handle = -1;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->path) {
		close(af->fd);
		if (af->tmp)
			drop_tmp(af, 1);
	}
	atomic_file_free(af);
}

/* The replaced file's mode, and its owner where storan may set it (root
 * writing a user's file leaves it the user's). */
static int take_over_mode(const struct atomic_file *af)
{
	if (fchmod(af->fd, af->mode))
		return -1;
	if (af->replacing && (af->uid != geteuid() || af->gid != getegid()))
		(void)!fchown(af->fd, af->uid, af->gid);
	return 0;
}

int atomic_file_commit(struct atomic_file *af)
{
	int saved;

	if (!af->path)
		return af->failed ? -1 : 0;
	if (af->failed) {
		atomic_file_abort(af);
		return -1;
	}
	if (!af->tmp) {		/* a FIFO or a descriptor, written in place */
		saved = close(af->fd) ? errno : 0;
		if (saved)
			error("cannot write '%s': %s", af->path,
			      strerror(saved));
		atomic_file_free(af);
		return saved ? -1 : 0;
	}
	/* no fsync(): see atomic.h */
	saved = take_over_mode(af) ? errno : 0;
	if (close(af->fd) && !saved)
		saved = errno;
	if (!saved && af->replacing &&
	    !still_checked(af->path, af->dev, af->ino))
		saved = ESTALE;	/* swapped since it was opened */
	if (!saved && rename(af->tmp, af->path))
		saved = errno;
	if (saved) {
		drop_tmp(af, 1);
		error("cannot write '%s': %s", af->path, strerror(saved));
		atomic_file_free(af);
		return -1;
	}
	drop_tmp(af, 0);
	atomic_file_free(af);
	return 0;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	struct atomic_file af;

	if (atomic_file_open(&af, path))
		return -1;
	if (atomic_file_write(&af, data, len)) {
		atomic_file_abort(&af);
		return -1;
	}
	return atomic_file_commit(&af);
}
