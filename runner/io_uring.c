/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * io_uring through liburing.  The ring is made by the thread that uses it
 * (single issuer, deferred task work where the kernel has them: the
 * completions are then run in our own io_uring_enter, no interrupts of the
 * submitting thread).  The file is registered (IOSQE_FIXED_FILE) and so is
 * the buffer region, one buffer per unit (read_fixed/write_fixed), which
 * saves the kernel a file lookup and a page pinning per I/O; if the kernel
 * refuses either, plain fds and buffers are used.  commit() submits;
 * reap() submits what is still pending and waits in one io_uring_enter().
 */
#include "engine.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>

struct uring_priv {
	struct io_uring ring;
	int fixed_file;
	int fixed_bufs;
	unsigned pending;	/* SQEs prepared, not yet submitted */
	struct io_uring_cqe **cqes;
};

static int uring_setup(struct engine *e, struct uring_priv *p)
{
	unsigned flags = 0;
	int rc;

#ifdef IORING_SETUP_DEFER_TASKRUN
	flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
#endif
	rc = io_uring_queue_init(e->depth, &p->ring, flags);
	if (rc == -EINVAL && flags)
		rc = io_uring_queue_init(e->depth, &p->ring, 0);
	return rc;
}

static void uring_register(struct engine *e, struct uring_priv *p)
{
	struct iovec *iov = xcalloc(e->depth, sizeof(*iov));

	p->fixed_file = !io_uring_register_files(&p->ring, &e->fd, 1);
	for (unsigned i = 0; i < e->depth; i++) {
		iov[i].iov_base = e->units[i].buf;
		iov[i].iov_len = e->units[i].len;
	}
	p->fixed_bufs = !io_uring_register_buffers(&p->ring, iov, e->depth);
	free(iov);
}

static int uring_init(struct engine *e)
{
	struct uring_priv *p = xcalloc(1, sizeof(*p));
	int rc = uring_setup(e, p);

	if (rc < 0) {
		free(p);
		return rc;
	}
	uring_register(e, p);
	p->cqes = xcalloc(e->depth, sizeof(*p->cqes));
	e->priv = p;
	return 0;
}

static int uring_queue(struct engine *e, struct io_unit *u)
{
	struct uring_priv *p = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
	int fd = p->fixed_file ? 0 : e->fd;

	if (!sqe)
		return -EBUSY;
	if (p->fixed_bufs && u->dir == IO_READ)
		io_uring_prep_read_fixed(sqe, fd, u->buf, u->len, u->offset,
					 (int)u->index);
	else if (p->fixed_bufs)
		io_uring_prep_write_fixed(sqe, fd, u->buf, u->len, u->offset,
					  (int)u->index);
	else if (u->dir == IO_READ)
		io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
	else
		io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
	if (p->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, u);
	p->pending++;
	return 0;
}

static int uring_commit(struct engine *e)
{
	struct uring_priv *p = e->priv;
	int rc;

	if (!p->pending)
		return 0;
	rc = io_uring_submit(&p->ring);
	if (rc == -EINTR || rc == -EAGAIN || rc == -EBUSY)
		return 0;	/* reap() submits what is left */
	if (rc < 0)
		return rc;
	p->pending -= (unsigned)rc < p->pending ? (unsigned)rc : p->pending;
	return 0;
}

static int uring_reap(struct engine *e, unsigned min, struct io_unit **done,
		      unsigned max)
{
	struct uring_priv *p = e->priv;
	unsigned n;
	int rc;

	if (p->pending || io_uring_cq_ready(&p->ring) < min) {
		rc = io_uring_submit_and_wait(&p->ring, min);
		if (rc == -EINTR || rc == -EAGAIN || rc == -EBUSY)
			return 0;
		if (rc < 0)
			return rc;
		p->pending -= (unsigned)rc < p->pending ? (unsigned)rc
							 : p->pending;
	}
	n = io_uring_peek_batch_cqe(&p->ring, p->cqes, max);
	for (unsigned i = 0; i < n; i++) {
		struct io_unit *u = io_uring_cqe_get_data(p->cqes[i]);

		u->result = p->cqes[i]->res;
		done[i] = u;
	}
	io_uring_cq_advance(&p->ring, n);
	return (int)n;
}

static void uring_cleanup(struct engine *e)
{
	struct uring_priv *p = e->priv;

	if (!p)
		return;
	io_uring_queue_exit(&p->ring);
	free(p->cqes);
	free(p);
	e->priv = NULL;
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
