/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Ingest: one input's text to measurements (see ingest.c), the options
 * every command that reads raw text shares, and --name-pattern.
 */
#ifndef STORAN_INGEST_H
#define STORAN_INGEST_H

#include "../core/diag.h"
#include "../core/input.h"
#include "../core/resultset.h"

#include <stdatomic.h>

struct parser;

/* Ingest options shared by every command that reads raw text. */
struct ingest_options {
	struct labels labels;		/* --label k=v */
	const char *name_pattern;	/* --name-pattern '{host}.{test}.txt' */
	/* The output has no room for distributions (the CSV export):
	 * parsers still use them (percentiles) but need not keep them
	 * (measurement.hist_dropped keeps folding as it was). */
	int drop_histograms;
	/* The output only streams values out (storan ingest): a long log's
	 * may wait in a temporary file (core/valspill.h); analysis, which
	 * reads m->values, never asks for it. */
	int spill_values;
	/* The output has no room for an input's SHA-256 (the CSV export):
	 * it is not computed, the source's stays "". */
	int no_sha256;
	/*
	 * The fio that wrote the logs read (their latency unit): "3.33",
	 * "fio-2.17", or NULL when unknown; fio_version_from says where it
	 * was learnt ("--fio-version", "rw.json").  fio_assume_noted, when
	 * set, lets the note that fio 3.x was assumed be said once only.
	 */
	const char *fio_version, *fio_version_from;
	atomic_int *fio_assume_noted;
};

/*
 * Runs every parser over one input and appends what they found to rs.
 * Returns 0 when the input gave results and no errors, 1 when it failed
 * (diagnostics say why).
 */
int ingest_input(struct input *in, const struct ingest_options *opt,
		 struct result_set *rs, struct diag_list *diags);
/*
 * ingest_input() with only the parsers of list (NULL-terminated, in
 * parsers[] order): one parser's fuzz target reads with it alone.
 */
int ingest_input_with(struct input *in, const struct parser *const *list,
		      const struct ingest_options *opt, struct result_set *rs,
		      struct diag_list *diags);
/*
 * May a parser read the input whole (struct parser's whole_start)?  Then
 * it is finished uncut (input_finish_uncut), and ingest_input() cuts its
 * lines only if no parser did.
 */
int ingest_may_read_whole(const struct input *in);
/*
 * Is an input of size bytes worth reading window by window (core/
 * input.h, input_finish_windows())?  ingest_input() then reads it so
 * where it can, with the result of a whole read.
 */
int ingest_read_by_windows(size_t size);

/*
 * Applies --name-pattern to a source name: "{host}.{test}.txt" against
 * "old.randread.txt" sets host=old and test=randread ({_} skips a part).
 * Returns 0 on a match, -1 otherwise (labels untouched).
 */
int name_pattern_apply(const char *pattern, const char *name,
		       struct labels *labels);

#endif
