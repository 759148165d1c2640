/*
 * Loading inputs for every command: a storan result set (JSON), or any
 * text that `storan ingest` reads, ingested on the fly.
 */
#ifndef STORAN_LOAD_H
#define STORAN_LOAD_H

#include "diag.h"
#include "resultset.h"

struct ingest_options;

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
 * Like load_input(), and calls text_hook(in, arg) on a raw-text input
 * before it is ingested: for commands that read more of the text than the
 * measurements carry (check looks for cache drops between runs).
 */
struct input;
typedef void (*load_text_hook)(const struct input *in, void *arg);
enum load_status load_input_hooked(const char *path,
				   const struct ingest_options *opt,
				   struct result_set *rs,
				   struct diag_list *diags,
				   load_text_hook text_hook, void *arg);

/* Loads every path; returns the worst status.  Every input is tried. */
enum load_status load_inputs(char *const *paths, int n,
			     const struct ingest_options *opt,
			     struct result_set *rs, struct diag_list *diags);

#endif
