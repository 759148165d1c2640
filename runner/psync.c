/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * psync: pread(2)/pwrite(2), one I/O per system call.  queue() does the
 * I/O; reap() hands back the units done since the last reap.  The caller
 * runs this engine at depth 1 (ENGINE_SYNC), so done[] holds one unit.
 */
#include "engine.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

struct psync_priv {
	unsigned ndone;
	struct io_unit *done[];
};

static int psync_init(struct engine *e)
{
	struct psync_priv *p;

	p = xcalloc(1, sizeof(*p) + e->depth * sizeof(p->done[0]));
	e->priv = p;
	return 0;
}

static int64_t psync_rw(int fd, struct io_unit *u)
{
	ssize_t n;

	do {
		if (u->dir == IO_READ)
			n = pread(fd, u->buf, u->len, (off_t)u->offset);
		else
			n = pwrite(fd, u->buf, u->len, (off_t)u->offset);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int psync_queue(struct engine *e, struct io_unit *u)
{
	struct psync_priv *p = e->priv;

	u->result = psync_rw(e->fd, u);
	p->done[p->ndone++] = u;
	return 0;
}

static int psync_commit(struct engine *e)
{
	(void)e;
	return 0;
}

static int psync_reap(struct engine *e, unsigned min, struct io_unit **done,
		      unsigned max)
{
	struct psync_priv *p = e->priv;
	unsigned n = p->ndone < max ? p->ndone : max;

	(void)min;
	for (unsigned i = 0; i < n; i++)
		done[i] = p->done[i];
	for (unsigned i = n; i < p->ndone; i++)
		p->done[i - n] = p->done[i];
	p->ndone -= n;
	return (int)n;
}

static void psync_cleanup(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.flags = ENGINE_SYNC,
	.init = psync_init,
	.queue = psync_queue,
	.commit = psync_commit,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};
