/* Whole-or-nothing output files; see atomic.h. */
#include "atomic.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int atomic_file_open(struct atomic_file *af, const char *path)
{
	int saved;

	af->path = af->tmp = NULL;
	af->failed = 0;
	if (!strcmp(path, "-")) {
		fflush(stdout);	/* keep order with what stdio printed */
		af->fd = STDOUT_FILENO;
		return 0;
	}
	af->path = xstrdup(path);
	af->tmp = xstrfmt("%s.tmp-XXXXXX", path);
	af->fd = mkstemp(af->tmp);
	if (af->fd >= 0)
		return 0;
	saved = errno;
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	return error("cannot create '%s': %s", path, strerror(saved));
}

int atomic_file_write(struct atomic_file *af, const char *data, size_t len)
{
	if (af->failed)
		return -1;
	if (!write_all(af->fd, data, len))
		return 0;
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
	if (fchmod(af->fd, 0644) || fsync(af->fd) || close(af->fd) ||
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
