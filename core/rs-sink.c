/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A result set written as it streams (storan ingest's output); see
 * rs-sink.h.
 */
#include "rs-sink.h"
#include "cpus.h"
#include "rs-bin.h"
#include "rs-csv.h"
#include "rs-json.h"

#include <pthread.h>
#include <string.h>

#define SINK_CHUNK (256 << 10)	/* bytes written at a time */
#define RENDER_SPLIT_MIN 4096	/* measurements worth a second thread */

int rs_sink_open(struct rs_sink *s, enum rs_format fmt,
		     const char *out)
{
	memset(s, 0, sizeof(*s));
	s->fmt = fmt;
	result_set_init(&s->sources);
	if (atomic_file_open(&s->file, out ? out : "-"))
		return -1;
	if (fmt == RS_FORMAT_CSV)
		strbuf_adds(&s->buf, RS_CSV_HEADER "\n");
	else if (fmt == RS_FORMAT_JSON)
		rs_json_begin(&s->buf);
	return 0;
}

/* Writes text (a failure is remembered, reported at close) and empties
 * it. */
static void sink_write(struct rs_sink *s, struct strbuf *text)
{
	if (text->len && atomic_file_write(&s->file, text->buf, text->len))
		s->failed = 1;
	strbuf_reset(text);
}

static void sink_flush(struct rs_sink *s)
{
	sink_write(s, &s->buf);
}

static void sink_drain(struct strbuf *text, void *s)
{
	sink_write(s, text);
}

/* Measurements [from, to) as text, each freed once it is; flush says
 * when to pass the text on. */
struct render_range {
	enum rs_format fmt;
	struct result_set *rs;
	size_t from, to;
	size_t source_offset;	/* JSON: sources written before rs's */
	size_t count;		/* JSON: measurements written before */
	struct strbuf out;
};

static void render_range(struct render_range *r, struct rs_sink *flush)
{
	/* a measurement too long to hold (a 1 GB log's series) goes out in
	 * pieces as it is written, where this thread writes */
	struct strbuf_drain drain = { sink_drain, flush };

	for (size_t i = r->from; i < r->to; i++) {
		if (r->fmt == RS_FORMAT_CSV)
			rs_csv_write_row(r->rs, i, &r->out);
		else
			rs_json_add_measurement(r->rs, i, r->source_offset,
						&r->count, &r->out,
						flush ? &drain : NULL);
		/* here, while it is in the cache, and on both threads:
		 * freeing 14,000 measurements was a third of this */
		measurement_release(&r->rs->m[i]);
		if (flush && r->out.len >= SINK_CHUNK)
			sink_write(flush, &r->out);
	}
}

/*
 * A big set (a 4 MB fio JSON+ file gives 14,000 measurements and 170,000
 * histogram buckets) is rendered on two threads, in pieces of
 * RENDER_PIECE measurements: this thread renders one piece in three
 * straight into the sink and writes them all, the other renders the
 * rest into buffers it reuses once they are written.  (Rendering one
 * half into memory meant 4 MB of fresh pages for a JSON+ file's JSON,
 * and fresh pages are what both threads wait on.)  One in two left this
 * thread the longer: writing 11 MB of JSON took it 7.5 ms more.
 */
#define RENDER_PIECE 512	/* measurements */
#define OTHER_BUFS 3

/* Is piece k the other thread's? */
static int others_piece(size_t k)
{
	return k % 3 != 0;
}

struct pieces {
	struct render_range next;	/* the other thread's next piece */
	size_t total;			/* measurements */
	struct strbuf buf[OTHER_BUFS];
	size_t made, written;		/* its pieces rendered, written */
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

/* Measurements of piece k, from where ranges start. */
static void piece_bounds(struct render_range *r, const struct pieces *p,
			 size_t k, size_t count0)
{
	r->from = k * RENDER_PIECE;
	r->to = r->from + RENDER_PIECE < p->total ? r->from + RENDER_PIECE :
		p->total;
	r->count = count0 + r->from;
}

/* The other thread: its pieces (1, 2, 4, 5...) into buf[i % OTHER_BUFS]. */
static void *render_other_pieces(void *arg)
{
	struct pieces *p = arg;
	size_t count0 = p->next.count, i = 0;

	for (size_t k = 0; k * RENDER_PIECE < p->total; k++) {
		struct render_range r = p->next;

		if (!others_piece(k))
			continue;
		pthread_mutex_lock(&p->lock);
		while (p->written + OTHER_BUFS <= i)	/* buffer not free */
			pthread_cond_wait(&p->changed, &p->lock);
		pthread_mutex_unlock(&p->lock);
		piece_bounds(&r, p, k, count0);
		r.out = p->buf[i % OTHER_BUFS];
		strbuf_reset(&r.out);
		render_range(&r, NULL);
		pthread_mutex_lock(&p->lock);
		p->buf[i % OTHER_BUFS] = r.out;
		p->made = ++i;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* This thread: its pieces, and the other's as they are made. */
static void render_own_pieces(struct rs_sink *s, struct pieces *p,
			      struct render_range *mine)
{
	size_t count0 = mine->count;

	for (size_t k = 0, i = 0; k * RENDER_PIECE < p->total; k++) {
		if (!others_piece(k)) {
			piece_bounds(mine, p, k, count0);
			render_range(mine, s);
			continue;
		}
		/* the sink's text first, then the other thread's piece */
		sink_write(s, &mine->out);
		pthread_mutex_lock(&p->lock);
		while (p->made <= i)
			pthread_cond_wait(&p->changed, &p->lock);
		pthread_mutex_unlock(&p->lock);
		sink_write(s, &p->buf[i % OTHER_BUFS]);
		pthread_mutex_lock(&p->lock);
		p->written = ++i;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
	mine->count = count0 + p->total;
}

/* Does rs hold a long log's values in a temporary file?  They are
 * written out as they are read back, here only (the other thread holds
 * its pieces in memory). */
static int any_spilled(const struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		if (rs->m[i].spilled)
			return 1;
	return 0;
}

/* Renders, writes and frees rs's measurements. */
static void sink_render(struct rs_sink *s, struct result_set *rs)
{
	struct render_range first = {
		s->fmt, rs, 0, rs->n, s->sources.nsources, s->count, s->buf
	};
	struct pieces p;
	pthread_t tid;

	if (rs->n < RENDER_SPLIT_MIN || storan_cpus() < 2 ||
	    any_spilled(rs)) {
		render_range(&first, s);
		s->buf = first.out;
		s->count = first.count;
		return;
	}
	/* label caches are shared by both threads: filled first */
	if (s->fmt == RS_FORMAT_CSV)
		for (size_t i = 0; i < rs->n; i++)
			labels_joined(&rs->m[i].labels);
	else
		rs_json_prepare(rs, 0, rs->n);
	memset(&p, 0, sizeof(p));
	p.next = first;
	p.total = rs->n;
	for (int b = 0; b < OTHER_BUFS; b++)
		strbuf_init(&p.buf[b]);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	if (pthread_create(&tid, NULL, render_other_pieces, &p)) {
		render_range(&first, s);	/* no thread: all here */
	} else {
		render_own_pieces(s, &p, &first);
		pthread_join(tid, NULL);
	}
	s->buf = first.out;
	s->count = first.count;
	for (int b = 0; b < OTHER_BUFS; b++)
		strbuf_release(&p.buf[b]);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.changed);
}

/* An input's CSV rows, made by a worker thread. */
static void sink_csv_text(struct rs_sink *s, const struct strbuf *text)
{
	if (text->len < SINK_CHUNK) {
		/* 10,000 fio files' rows were 10,000 writes */
		strbuf_add(&s->buf, text->buf, text->len);
		return;
	}
	sink_flush(s);	/* the header, once, and smaller texts */
	/* written as it is: a copy of a 4 MB text costs 1,000 page faults */
	if (atomic_file_write(&s->file, text->buf, text->len))
		s->failed = 1;
}

void rs_sink_add(struct rs_sink *s, struct result_set *rs,
		     const struct strbuf *text)
{
	if (s->fmt == RS_FORMAT_BINARY) {	/* written at the end */
		result_set_append(&s->sources, rs);
		return;
	}
	if (s->fmt != RS_FORMAT_CSV || !text->len) {
		sink_render(s, rs);	/* (and frees the measurements) */
	} else {
		sink_csv_text(s, text);
		/* rs_sink_csv_rows() freed them already; another renderer
		 * may not have */
		for (size_t i = 0; i < rs->n; i++)
			measurement_release(&rs->m[i]);
	}
	rs->n = 0;
	result_set_append(&s->sources, rs);
	if (s->buf.len >= SINK_CHUNK)
		sink_flush(s);
}

void rs_sink_csv_rows(struct result_set *rs, struct strbuf *out,
		       void *arg)
{
	const struct rs_sink *s = arg;

	if (s->fmt != RS_FORMAT_CSV)
		return;
	rs_csv_write_rows(rs, out);
	/* freed here, by the thread that took them: 10,000 fio files
	 * freed by the writing thread waited on the workers' malloc
	 * locks */
	for (size_t i = 0; i < rs->n; i++)
		measurement_release(&rs->m[i]);
	rs->n = 0;
}

int rs_sink_close(struct rs_sink *s)
{
	if (s->failed) {
		/* (what is still held, stdout's header included, is not
		 * written) */
	} else if (s->fmt == RS_FORMAT_JSON) {
		rs_json_end(&s->sources, &s->buf);
	} else if (s->fmt == RS_FORMAT_BINARY) {
		struct strbuf_drain drain = { sink_drain, s };

		rs_bin_write(&s->sources, &s->buf, &drain);
	}
	if (!s->failed)
		sink_flush(s);
	result_set_release(&s->sources);
	strbuf_release(&s->buf);
	if (s->failed) {
		atomic_file_abort(&s->file);
		return -1;
	}
	return atomic_file_commit(&s->file);
}
