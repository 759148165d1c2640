/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A text table whose rows are made on demand (fmt_render_text_rows()):
 * each row made into a table of one row, measured, made again and
 * rendered, on the calling thread or, when the maker can be cloned, on
 * every CPU.  Then ROW_CHUNK rows are a job: for the widths, any thread
 * takes the next chunk and widens its own widths (the largest win); for
 * the text, a round of chunks is rendered side by side, each into its
 * own buffer, and the buffers are written in order, drained as they
 * come (a million compare rows are 116 MB of text, rendered a few MB at
 * a time).  The text is the same as the calling thread alone makes.
 */
#include "format-private.h"
#include "../core/cpus.h"
#include "../core/xalloc.h"

#include <stdatomic.h>
#include <stdlib.h>

#define ROW_CHUNK 4096
#define CHUNKS_A_THREAD 2	/* in a round */

/* One thread's maker: its arg, its table of one row, its scratch. */
struct maker_state {
	void *arg;
	struct fmt_table one;
	struct fmt_row_scratch s;
	size_t *width;		/* the widths of the rows it measured */
};

struct made_rows {
	const struct fmt_table *t;
	size_t nrows;
	const struct fmt_row_maker *maker;
	struct maker_state *st;
	unsigned nstates;
	atomic_uint claimed;	/* states handed to threads, this pass */
	atomic_size_t next;	/* measure: the next row; emit: chunk */
	/* emit: the round being rendered */
	size_t round_first, round_end, nchunks;
	struct strbuf *chunk;
	const struct fmt_text_layout *lay;
};

static void state_init(struct made_rows *m, struct maker_state *st,
		       void *arg)
{
	const struct fmt_table *t = m->t;

	st->arg = arg;
	fmt_table_init(&st->one, NULL);
	for (size_t c = 0; c < t->ncols; c++) {
		fmt_table_add_column(&st->one, t->cols[c].name,
				     t->cols[c].heading, t->cols[c].numeric);
		fmt_table_set_column_flags(&st->one, c, t->cols[c].flags);
	}
	fmt_row_scratch_init(&st->s, t->ncols);
	st->width = xcalloc(t->ncols + 1, sizeof(*st->width));
}

static void state_release(struct made_rows *m, struct maker_state *st,
			  int cloned)
{
	if (cloned)
		m->maker->release(st->arg);
	fmt_table_release(&st->one);
	fmt_row_scratch_release(&st->s);
	free(st->width);
}

/* The state of the thread that asks first, then the next... */
static struct maker_state *claim_state(struct made_rows *m)
{
	unsigned k = atomic_fetch_add(&m->claimed, 1);

	if (k >= m->nstates)
		BUG("thread %u of %u", k, m->nstates);
	return &m->st[k];
}

static const struct fmt_table *make_row(struct made_rows *m,
					struct maker_state *st, size_t r)
{
	st->one.nrows = 0;
	pool_clear(&st->one.strings);
	m->maker->make(st->arg, r, &st->one);
	if (st->one.nrows != 1)
		BUG("row %zu made %zu rows", r, st->one.nrows);
	return &st->one;
}

static void *measure_worker(void *arg)
{
	struct made_rows *m = arg;
	struct maker_state *st = claim_state(m);
	size_t from;

	while ((from = atomic_fetch_add(&m->next, ROW_CHUNK)) < m->nrows) {
		size_t to = m->nrows - from < ROW_CHUNK ? m->nrows :
			    from + ROW_CHUNK;

		for (size_t r = from; r < to; r++)
			fmt_text_row_widths(m->t, make_row(m, st, r), 0,
					    st->width, &st->s.sc);
	}
	return NULL;
}

static void start_pass(struct made_rows *m)
{
	atomic_store(&m->claimed, 0);
	atomic_store(&m->next, 0);
}

static void made_measure(void *arg, size_t *width)
{
	struct made_rows *m = arg;

	start_pass(m);
	cpus_run_pool(m->nstates, measure_worker, m);
	for (unsigned k = 0; k < m->nstates; k++)
		for (size_t c = 0; c < m->t->ncols; c++)
			if (m->st[k].width[c] > width[c])
				width[c] = m->st[k].width[c];
}

static void *emit_worker(void *arg)
{
	struct made_rows *m = arg;
	struct maker_state *st = claim_state(m);
	size_t k;

	while ((k = atomic_fetch_add(&m->next, 1)) < m->nchunks) {
		size_t from = m->round_first + k * ROW_CHUNK;
		size_t to = m->round_end - from < ROW_CHUNK ? m->round_end :
			    from + ROW_CHUNK;

		strbuf_reset(&m->chunk[k]);
		for (size_t r = from; r < to; r++)
			fmt_text_row(m->t, make_row(m, st, r), 0, m->lay,
				     &st->s, &m->chunk[k]);
	}
	return NULL;
}

/* The rows on this thread alone: into out as they are made. */
static void emit_here(struct made_rows *m, struct strbuf *out,
		      const struct strbuf_drain *drain)
{
	struct maker_state *st = &m->st[0];

	for (size_t r = 0; r < m->nrows; r++) {
		fmt_text_row(m->t, make_row(m, st, r), 0, m->lay, &st->s,
			     out);
		strbuf_drain_if_full(out, drain);
	}
}

static void made_emit(void *arg, const struct fmt_text_layout *lay,
		      struct strbuf *out, const struct strbuf_drain *drain)
{
	struct made_rows *m = arg;
	size_t per_round = (size_t)m->nstates * CHUNKS_A_THREAD;

	m->lay = lay;
	if (m->nstates == 1) {
		emit_here(m, out, drain);
		return;
	}
	m->chunk = xcalloc(per_round, sizeof(*m->chunk));
	for (size_t first = 0; first < m->nrows;
	     first += per_round * ROW_CHUNK) {
		m->round_first = first;
		m->round_end = m->nrows - first < per_round * ROW_CHUNK ?
			       m->nrows : first + per_round * ROW_CHUNK;
		m->nchunks = (m->round_end - first + ROW_CHUNK - 1) /
			     ROW_CHUNK;
		start_pass(m);
		cpus_run_pool(m->nstates, emit_worker, m);
		for (size_t k = 0; k < m->nchunks; k++) {
			strbuf_add(out, m->chunk[k].buf, m->chunk[k].len);
			strbuf_drain_if_full(out, drain);
		}
	}
	for (size_t k = 0; k < per_round; k++)
		strbuf_release(&m->chunk[k]);
	free(m->chunk);
}

void fmt_render_text_rows(const struct fmt_table *t, size_t nrows,
			  const struct fmt_row_maker *maker, int color,
			  size_t width, struct strbuf *out,
			  const struct strbuf_drain *drain)
{
	struct made_rows m = { .t = t, .nrows = nrows, .maker = maker };
	struct fmt_text_rows rows = { made_measure, made_emit, &m };

	if (t->nrows)
		BUG("a table of rows made on demand holds %zu", t->nrows);
	m.nstates = maker->clone ? cpus_pool_threads(nrows / ROW_CHUNK + 1) :
		    1;
	m.st = xcalloc(m.nstates, sizeof(*m.st));
	for (unsigned k = 0; k < m.nstates; k++)
		state_init(&m, &m.st[k], k ? maker->clone(maker->arg) :
			   maker->arg);
	fmt_render_text_source(t, &rows, color, width, out, drain);
	for (unsigned k = 0; k < m.nstates; k++)
		state_release(&m, &m.st[k], k > 0);
	free(m.st);
}
