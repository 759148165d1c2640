/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values moved out of memory into a temporary file; see valspill.h. */
#define _GNU_SOURCE	/* O_TMPFILE, mkostemp */
#include "valspill.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_PIECE 2048		/* values read back at a time: 16 KB */

struct value_file {
	int fd;
	uint64_t end;		/* bytes written */
	atomic_size_t refs;
};

/*
 * An unlinked file in $TMPDIR (else /tmp): tmpfile() ignores TMPDIR, and
 * a user whose /tmp is a small tmpfs must be able to send 240 MB of a
 * long log's values elsewhere.  Never named where O_TMPFILE works; else
 * unlinked as soon as made.
 */
static int open_unlinked(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	path = xstrfmt("%s/storan-values.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

struct value_file *value_file_new(void)
{
	struct value_file *vf;
	int fd = open_unlinked();

	if (fd < 0)
		return NULL;
	vf = xcalloc(1, sizeof(*vf));
	vf->fd = fd;
	atomic_init(&vf->refs, 1);
	return vf;
}

static struct value_file *value_file_ref(struct value_file *vf)
{
	atomic_fetch_add(&vf->refs, 1);
	return vf;
}

void value_file_unref(struct value_file *vf)
{
	if (!vf || atomic_fetch_sub(&vf->refs, 1) != 1)
		return;
	close(vf->fd);
	free(vf);
}

/* All of len bytes at offset, or -1. */
static int write_at(int fd, const void *buf, size_t len, uint64_t offset)
{
	const char *p = buf;

	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)offset);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
		offset += (uint64_t)w;
	}
	return 0;
}

static void read_at(const struct value_file *vf, void *buf, size_t len,
		    uint64_t offset)
{
	char *p = buf;

	while (len) {
		ssize_t r = pread(vf->fd, p, len, (off_t)offset);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die("cannot read back the values kept in a temporary "
			    "file: %s", r < 0 ? strerror(errno) :
			    "it is shorter than written");
		p += r;
		len -= (size_t)r;
		offset += (uint64_t)r;
	}
}

int spilled_values_add(struct spilled_values **sp, struct value_file *vf,
		       const double *v, size_t n)
{
	struct spilled_values *s = *sp;
	struct value_chunk *last;

	if (!n)
		return 0;
	if (write_at(vf->fd, v, n * sizeof(*v), vf->end))
		return -1;
	if (!s) {
		s = *sp = xcalloc(1, sizeof(*s));
		s->file = value_file_ref(vf);
	} else if (s->file != vf) {
		BUG("values spilled to two files");
	}
	last = s->nchunks ? &s->chunk[s->nchunks - 1] : NULL;
	if (last && last->offset + last->n * sizeof(*v) == vf->end) {
		last->n += n;	/* right behind */
	} else {
		ALLOC_GROW(s->chunk, s->nchunks + 1, s->alloc);
		s->chunk[s->nchunks++] = (struct value_chunk){ vf->end, n };
	}
	vf->end += n * sizeof(*v);
	s->n += n;
	return 0;
}

/* Chunk c's values, a piece at a time. */
static int each_in_chunk(const struct value_file *vf,
			 const struct value_chunk *c,
			 int (*each)(const double *v, size_t n, void *arg),
			 void *arg)
{
	double piece[READ_PIECE];
	int rc;

	for (size_t done = 0; done < c->n;) {
		size_t k = c->n - done < READ_PIECE ? c->n - done : READ_PIECE;

		read_at(vf, piece, k * sizeof(double),
			c->offset + done * sizeof(double));
		rc = each(piece, k, arg);
		if (rc)
			return rc;
		done += k;
	}
	return 0;
}

int spilled_values_each(const struct spilled_values *s,
			int (*each)(const double *v, size_t n, void *arg),
			void *arg)
{
	int rc;

	for (size_t c = 0; s && c < s->nchunks; c++) {
		rc = each_in_chunk(s->file, &s->chunk[c], each, arg);
		if (rc)
			return rc;
	}
	return 0;
}

void spilled_values_free(struct spilled_values *s)
{
	if (!s)
		return;
	value_file_unref(s->file);
	free(s->chunk);
	free(s);
}
