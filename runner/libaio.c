/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libaio: Linux native AIO.  queue() fills the unit's own iocb (one per
 * unit, allocated once); commit() submits the whole batch with one
 * io_submit(); reap() collects with one io_getevents().  When the kernel
 * takes only part of a batch (EAGAIN), the rest stays queued and reap()
 * submits it again before waiting, never waiting for more than is in
 * flight.
 */
#include "engine.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>

struct aio_priv {
	io_context_t ctx;
	unsigned nbatch;	/* queued, not yet submitted */
	unsigned inflight;	/* submitted, not yet reaped */
	struct iocb *iocbs;	/* one per unit */
	struct iocb **batch;
	struct io_event *events;
};

static int aio_init(struct engine *e)
{
	struct aio_priv *p = xcalloc(1, sizeof(*p));
	int rc = io_setup((int)e->depth, &p->ctx);

	if (rc < 0) {
		free(p);
		return rc;
	}
	p->iocbs = xcalloc(e->depth, sizeof(*p->iocbs));
	p->batch = xcalloc(e->depth, sizeof(*p->batch));
	p->events = xcalloc(e->depth, sizeof(*p->events));
	e->priv = p;
	return 0;
}

static int aio_queue(struct engine *e, struct io_unit *u)
{
	struct aio_priv *p = e->priv;
	struct iocb *cb = &p->iocbs[u->index];

	if (u->dir == IO_READ)
		io_prep_pread(cb, e->fd, u->buf, u->len, (long long)u->offset);
	else
		io_prep_pwrite(cb, e->fd, u->buf, u->len, (long long)u->offset);
	cb->data = u;
	p->batch[p->nbatch++] = cb;
	return 0;
}

static int aio_commit(struct engine *e)
{
	struct aio_priv *p = e->priv;
	int rc;

	while (p->nbatch) {
		rc = io_submit(p->ctx, (long)p->nbatch, p->batch);
		if (rc == -EAGAIN || rc == -EINTR || rc == 0) {
			if (p->inflight)
				return 0;	/* reap makes room */
			continue;
		}
		if (rc < 0)
			return rc;
		p->inflight += (unsigned)rc;
		p->nbatch -= (unsigned)rc;
		for (unsigned i = 0; i < p->nbatch; i++)
			p->batch[i] = p->batch[i + (unsigned)rc];
	}
	return 0;
}

static int aio_reap(struct engine *e, unsigned min, struct io_unit **done,
		    unsigned max)
{
	struct aio_priv *p = e->priv;
	int rc;

	if (p->nbatch) {
		rc = aio_commit(e);
		if (rc < 0)
			return rc;
	}
	if (min > p->inflight)
		min = p->inflight;
	if (max > p->inflight)
		max = p->inflight;
	if (!max)
		return 0;
	do
		rc = io_getevents(p->ctx, (long)min, (long)max, p->events,
				  NULL);
	while (rc == -EINTR);
	if (rc < 0)
		return rc;
	for (int i = 0; i < rc; i++) {
		struct io_unit *u = p->events[i].data;

		/* res is the byte count or a negative errno, as a long. */
		u->result = (int64_t)(long)p->events[i].res;
		done[i] = u;
	}
	p->inflight -= (unsigned)rc;
	return rc;
}

static void aio_cleanup(struct engine *e)
{
	struct aio_priv *p = e->priv;

	if (!p)
		return;
	io_destroy(p->ctx);
	free(p->iocbs);
	free(p->batch);
	free(p->events);
	free(p);
	e->priv = NULL;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
