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

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp;
	int fd, saved;

	if (!strcmp(path, "-")) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout))
			return error("cannot write to standard output: %s",
				     strerror(errno));
		return 0;
	}
	tmp = xstrfmt("%s.tmp-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		saved = errno;
		free(tmp);
		return error("cannot create '%s': %s", path, strerror(saved));
	}
	if (write_all(fd, data, len) || fchmod(fd, 0644) || fsync(fd) ||
	    close(fd)) {
		saved = errno;
		unlink(tmp);
		free(tmp);
		return error("cannot write '%s': %s", path, strerror(saved));
	}
	if (rename(tmp, path)) {
		saved = errno;
		unlink(tmp);
		free(tmp);
		return error("cannot write '%s': %s", path, strerror(saved));
	}
	free(tmp);
	return 0;
}
