/* Whole-or-nothing output files; see atomic.h. */
#define _GNU_SOURCE	/* sync_file_range */
#include "atomic.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/*
 * Where the temporary file goes, or NULL to write in place.  Only a
 * regular file (or a new one) is replaced by rename: renaming over
 * /dev/null or a FIFO would replace the device node with a file.  A
 * symbolic link is followed, so that the link stays a link.
 */
static char *rename_target(const char *path, int *in_place, int *replacing)
{
	struct stat st;
	char *real;

	*in_place = *replacing = 0;
	if (stat(path, &st))
		return xstrdup(path);	/* new file (or no such dir) */
	if (!S_ISREG(st.st_mode)) {
		*in_place = 1;
		return xstrdup(path);
	}
	*replacing = 1;
	real = realpath(path, NULL);
	return real ? real : xstrdup(path);
}

int atomic_file_open(struct atomic_file *af, const char *path)
{
	int saved, in_place;

	af->path = af->tmp = NULL;
	af->failed = af->replacing = 0;
	af->written = af->flushed = 0;
	if (!strcmp(path, "-")) {
		fflush(stdout);	/* keep order with what stdio printed */
		af->fd = STDOUT_FILENO;
		return 0;
	}
	af->path = rename_target(path, &in_place, &af->replacing);
	if (in_place) {
		af->fd = open(path, O_WRONLY | O_TRUNC);
		if (af->fd >= 0)
			return 0;	/* tmp NULL: no rename at commit */
	} else {
		af->tmp = xstrfmt("%s.tmp-XXXXXX", af->path);
		af->fd = mkstemp(af->tmp);
		if (af->fd >= 0)
			return 0;
	}
	saved = errno;
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	return error("cannot create '%s': %s", path, strerror(saved));
}

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

static void atomic_file_free(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->path) {
		close(af->fd);
		if (af->tmp)
			unlink(af->tmp);
	}
	atomic_file_free(af);
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
	if (!af->tmp) {		/* a device or FIFO, written in place */
		saved = close(af->fd) ? errno : 0;
		if (saved)
			error("cannot write '%s': %s", af->path,
			      strerror(saved));
		atomic_file_free(af);
		return saved ? -1 : 0;
	}
	/* no fsync(): see atomic.h */
	if (fchmod(af->fd, 0644) || close(af->fd) ||
	    rename(af->tmp, af->path)) {
		saved = errno;
		unlink(af->tmp);
		error("cannot write '%s': %s", af->path, strerror(saved));
		atomic_file_free(af);
		return -1;
	}
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
