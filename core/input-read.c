/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * The bytes of one input: a regular file mapped (core/filemap.h), a pipe,
 * FIFO or device read into memory up to a bound, standard input as "-".
 * A binary or sparse file is known from its first bytes and not read
 * further.  The bytes returned are NUL-terminated and the caller's until
 * given to an input (see input_read_bytes() in input.h).
 */
#include "input.h"
#include "input-private.h"
#include "filemap.h"
#include "rs-bin.h"
#include "strbuf.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Control characters but \t \n \f \r and ESC (and NUL, tested apart). */
static const unsigned char is_control[256] = {
	[1 ... 8] = 1, [11] = 1, [14 ... 26] = 1, [28 ... 31] = 1,
};

typedef unsigned char bytes16 __attribute__((vector_size(16)));

/* Lanes of v that are of the kind: 0xff, others 0. */
static inline bytes16 kind_mask(bytes16 v, enum byte_kind kind)
{
	if (kind == NEWLINES)
		return (bytes16)(v == '\n');
	return (bytes16)((v < 32) & (v != 0) & (v != '\t') & (v != '\n') &
			 (v != '\f') & (v != '\r') & (v != 27));
}

/*
 * Bytes of p[0..n) of the kind, sixteen at a time with GCC's vector
 * extension (SSE2 on x86-64): the binary test through a table, a load a
 * byte, took 6-8 ms of a 7 MB fio JSON+ file, longer than hashing it.
 * A lane counts up to 255: the lanes are added up every 255 blocks.
 */
size_t input_count_bytes(const unsigned char *p, size_t n,
			 enum byte_kind kind)
{
	size_t count = 0, i = 0;

	while (n - i >= 16) {
		bytes16 lanes = { 0 };

		for (int k = 0; k < 255 && n - i >= 16; k++, i += 16) {
			bytes16 v;

			memcpy(&v, p + i, sizeof(v));
			lanes -= kind_mask(v, kind);	/* a hit is -1 */
		}
		for (int k = 0; k < 16; k++)
			count += lanes[k];
	}
	for (; i < n; i++)
		count += kind == NEWLINES ? p[i] == '\n' : is_control[p[i]];
	return count;
}

/* NUL bytes, or more than 5% control characters, mean "not text". */
int input_looks_binary(const char *data, size_t size)
{
	if (memchr(data, '\0', size))
		return 1;
	return size &&
	       input_count_bytes((const unsigned char *)data, size,
				 CONTROL_BYTES) * 20 > size;
}

/*
 * What a stream (a pipe, a FIFO, a device) may give: storan holds it in
 * memory, so it is bounded; a file is mapped instead, whatever its size.
 * Binary data is known from its first bytes (a NUL anywhere, or the
 * control characters of the first STREAM_PROBE bytes): reading stops
 * there, and the input is then refused as binary like a file.
 */
#define STREAM_MAX (1ULL << 30)
#define STREAM_PROBE 65536

static int stream_is_binary(const char *buf, size_t len, size_t got,
			    int *probed)
{
	if (rs_bin_sniff(buf, len))
		return 0;	/* a binary result set: read whole */
	if (memchr(buf + len - got, '\0', got))
		return 1;
	if (*probed || len < STREAM_PROBE)
		return 0;
	*probed = 1;
	return input_looks_binary(buf, STREAM_PROBE);
}

/*
 * Reads fd to its end.  hint is the size stat() gave (0 for streams): a
 * regular file is read into one buffer of its size, not a growing one
 * (a 64 KiB minimum cost a 7 KB fio JSON as much malloc work as its
 * parsing).  Returns 0, -1 with errno set, -2: the stream is larger
 * than STREAM_MAX, or -3: it has more than INPUT_LINES_MAX lines (counted
 * as they come: `yes` is refused after 64 MB, not 1 GiB).
 */
static int read_fd(int fd, size_t hint, char **data, size_t *size)
{
	size_t alloc = 0, len = 0, lines = 0;
	char *buf = NULL;
	int probed = 0;

	ALLOC_GROW(buf, hint ? hint + 1 : 65536, alloc);
	for (;;) {
		ssize_t got;

		if (len + 1 >= alloc)
			ALLOC_GROW(buf, len + 65536, alloc);
		got = read(fd, buf + len, alloc - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return -1;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (hint)
			continue;
		if (stream_is_binary(buf, len, (size_t)got, &probed))
			break;	/* refused as binary: no need for the rest */
		if (len > STREAM_MAX) {
			free(buf);
			return -2;
		}
		lines += input_count_bytes((const unsigned char *)buf + len -
					   got, (size_t)got, NEWLINES);
		if (lines > INPUT_LINES_MAX) {
			free(buf);
			return -3;
		}
	}
	buf[len] = '\0';
	*data = buf;
	*size = len;
	return 0;
}

/*
 * Is the regular file open on fd (at offset off, size bytes) binary from
 * its start, or sparse?  Then *data is its first bytes, up to the first
 * hole, and a NUL (what the file holds at a hole): the binary test says
 * so without the rest being read or mapped (a 50 GB sparse file was read
 * whole and ran out of memory).  The offset is left where it was.
 */
static int probe_file(int fd, off_t off, size_t size, char **data,
		      size_t *len)
{
	size_t want = size < STREAM_PROBE ? size : STREAM_PROBE, got = 0;
	off_t hole = lseek(fd, off, SEEK_HOLE);
	char *buf;

	if (hole >= off && (size_t)(hole - off) < size) {
		if ((size_t)(hole - off) < want)
			want = (size_t)(hole - off);
	} else {
		hole = -1;
	}
	lseek(fd, off, SEEK_SET);
	if (hole < 0 && size <= STREAM_PROBE)
		return 0;	/* small: read whole, tested whole */
	buf = xmalloc(want + 2);
	while (got < want) {
		ssize_t n = pread(fd, buf + got, want - got,
				  off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	/* (a binary result set is binary data that is read whole) */
	if (hole < 0 && (!input_looks_binary(buf, got) ||
			 rs_bin_sniff(buf, got))) {
		free(buf);
		return 0;
	}
	buf[got] = '\0';	/* the hole's first byte, or past a NUL */
	buf[got + 1] = '\0';
	*data = buf;
	*len = got + 1;
	return 1;
}

int input_read_bytes(const char *path, char **data, size_t *size,
		     struct strbuf *err)
{
	struct stat st;
	size_t hint = 0;
	int fd, rc;

	if (!strcmp(path, "-")) {
		fd = STDIN_FILENO;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			strbuf_addf(err, "%s: cannot open: %s", path,
				    strerror(errno));
			return -1;
		}
	}
	if (fstat(fd, &st))
		memset(&st, 0, sizeof(st));
	if (S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "%s: is a directory, not a file", path);
		if (fd != STDIN_FILENO)
			close(fd);
		return -1;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		hint = (size_t)st.st_size;
	/* a small file opened here is read whole and tested whole, holes
	 * (zeros) and all: no probe, no seek (10,000 fio files were 30,000
	 * lseek calls) */
	if (hint && (fd == STDIN_FILENO || hint > STREAM_PROBE)) {
		off_t off = fd == STDIN_FILENO ? lseek(fd, 0, SEEK_CUR) : 0;

		if (off >= 0 && off < st.st_size &&
		    probe_file(fd, off, (size_t)(st.st_size - off), data,
			       size)) {
			if (fd != STDIN_FILENO)
				close(fd);
			return 0;
		}
	}
	/* (not stdin: a file redirected there may be read from its middle,
	 * and what storan leaves of it is the next program's) */
	if (hint && fd != STDIN_FILENO && (*data = filemap_open(fd, hint))) {
		*size = hint;
		close(fd);
		return 0;
	}
	rc = read_fd(fd, hint, data, size);
	if (rc == -3)
		strbuf_addf(err, "%s: more than %u lines; storan takes no "
			    "more from one input: split it",
			    fd == STDIN_FILENO ? "stdin" : path,
			    INPUT_LINES_MAX);
	else if (rc == -2)
		strbuf_addf(err, "%s: more than %llu MiB from a pipe or device; "
			    "storan holds no more of a stream: save it to a "
			    "file and name the file",
			    fd == STDIN_FILENO ? "stdin" : path,
			    STREAM_MAX >> 20);
	else if (rc)
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
	if (fd != STDIN_FILENO)
		close(fd);
	return rc == -3 ? -2 : rc < 0 ? -1 : 0;
}

int input_read(struct input *in, const char *path, struct strbuf *err)
{
	char *data;
	size_t size;

	if (input_read_bytes(path, &data, &size, err))
		return -1;
	input_init(in, path, data, size);
	return 0;
}
