/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A result set written one input at a time, as JSON (storan/1) or as the
 * CSV export, so that memory stays bounded by the largest input, not by
 * all of them: each input's measurements are written and freed before the
 * next input is read.  Only the list of sources (small) is kept to the
 * end, where the JSON document lists it.  storan/1 binary (core/rs-bin.h)
 * puts every string and label set before the measurements, so its sink
 * keeps the measurements to the end (a long log's values stay in their
 * temporary file, read back as they are written).  The file is replaced
 * whole or not at all (core/atomic).
 */
#ifndef STORAN_RS_SINK_H
#define STORAN_RS_SINK_H

#include "atomic.h"
#include "resultset.h"
#include "strbuf.h"

enum rs_format { RS_FORMAT_JSON, RS_FORMAT_CSV, RS_FORMAT_BINARY };

struct rs_sink {
	enum rs_format fmt;
	struct atomic_file file;
	struct strbuf buf;
	/* sources only, no measurements; binary: the whole set */
	struct result_set sources;
	size_t count;			/* measurements written */
	int failed;			/* a write failed, or the caller said
					 * the output must not be kept */
};

/* Opens out ("-" or NULL: standard output); -1 with a message said. */
int rs_sink_open(struct rs_sink *s, enum rs_format fmt, const char *out);

/*
 * Writes one input's result set, frees its measurements and keeps only
 * its sources.  text: its CSV rows when a worker thread made them
 * already (rs_sink_csv_rows), else empty; JSON needs the running source
 * count, known only here.  A big set is rendered on two threads.
 */
void rs_sink_add(struct rs_sink *s, struct result_set *rs,
		 const struct strbuf *text);

/* On a worker thread: rs's CSV rows into out when s writes CSV, and its
 * measurements freed (rs->n = 0: the text holds them). */
void rs_sink_csv_rows(struct result_set *rs, struct strbuf *out,
		      void *s);

/* Ends the document and commits the file (discards it when failed);
 * -1 when it was not written. */
int rs_sink_close(struct rs_sink *s);

#endif
