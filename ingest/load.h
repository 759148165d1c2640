/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loading inputs for every command: a storan result set (JSON), or any
 * text that `storan ingest` reads, ingested on the fly.
 */
#ifndef STORAN_LOAD_H
#define STORAN_LOAD_H

#include "../core/diag.h"
#include "../core/resultset.h"

struct ingest_options;
struct strbuf;

enum load_status {
	LOAD_OK = 0,
	LOAD_FAILED = 1,	/* read, but (partly) not understood */
	LOAD_TROUBLE = 2,	/* missing, unreadable, a directory */
};

/*
 * Loads one path ("-" = stdin) and appends it to rs.  Problems go to
 * diags (file:line: why).  opt may be NULL.
 */
enum load_status load_input(const char *path, const struct ingest_options *opt,
			    struct result_set *rs, struct diag_list *diags);

/*
 * For tests only: load_input(), calling between(in) on a raw-text input
 * after it is read and before it is ingested (tests/unit/test-input.c
 * truncates the file there, as logrotate would, to see the loader notice).
 * Commands learn what the text says from the result set: its cache drops
 * are recorded by the ingest (struct cache_drop).
 */
struct input;
enum load_status load_input_between(const char *path,
				    const struct ingest_options *opt,
				    struct result_set *rs,
				    struct diag_list *diags,
				    void (*between)(const struct input *in));

/*
 * Loads every path; returns the worst status.  Every input is tried, two
 * or more in parallel where there are CPUs for it (load_inputs_each());
 * the result set and the messages are in input order all the same.
 */
enum load_status load_inputs(char *const *paths, int n,
			     const struct ingest_options *opt,
			     struct result_set *rs, struct diag_list *diags);

/*
 * Loads every path with up to `threads` worker threads (parsers are pure,
 * so inputs are independent) and hands each input's result set and
 * diagnostics to deliver() on the calling thread, in input order.
 * deliver() owns neither: they are released after it returns.  At most a
 * few inputs are held ahead of the one being delivered, so memory stays
 * bounded by the largest inputs, not their sum.  Returns the worst status.
 */
typedef void (*load_deliver_fn)(struct result_set *rs,
				struct diag_list *diags,
				const struct strbuf *text, void *arg);
/*
 * Optional: turns one input's result set into output text on the worker
 * thread (so that formatting runs in parallel too); deliver() gets it.
 * It may release the measurements it rendered (rs->n = 0): memory is
 * best freed by the thread that took it (a free into another thread's
 * malloc arena waits for its lock).
 */
typedef void (*load_render_fn)(struct result_set *rs, struct strbuf *out,
			       void *arg);
/*
 * Loads path i into sets[i] (n sets, initialised here), in parallel where
 * there are CPUs for it, the messages into diags in input order: the sides
 * of a comparison.  Returns the worst status.
 */
enum load_status load_inputs_each(char *const *paths, size_t n,
				  const struct ingest_options *opt,
				  struct result_set *sets,
				  struct diag_list *diags);

enum load_status load_inputs_ordered(char *const *paths, size_t n,
				     const struct ingest_options *opt,
				     unsigned threads, load_render_fn render,
				     load_deliver_fn deliver, void *arg);

#endif
