/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of fio's text parser share (fio-text.c: reports and
 * result lines; fio-text-figures.c: the figures as fio prints them;
 * fio-text-summary.c: the group status and disk lines).  Private to
 * them; parser.h is the parsers' interface.
 */
#ifndef STORAN_FIO_TEXT_H
#define STORAN_FIO_TEXT_H

#include "fio-common.h"
#include "fio-text-lines.h"
#include "../core/keymap.h"

struct fio_report {
	char *name;		/* NULL: no report header (an excerpt) */
	long group;
	const char *origin;
	struct labels dl[FIO_NDIRS];	/* labels of each direction */
	const char *op[FIO_NDIRS];	/* NULL: direction not reported */
	size_t m_first, m_end;	/* its measurements in rs */
	int failed;		/* err != 0: no result taken */
	int json_copy;		/* the JSON document above said it */
	int snapshot;		/* --status-interval: a later report ends it */
};

struct text_state {
	struct parse_ctx *ctx;
	struct fio_header *hdrs;	/* every header seen so far */
	size_t nhdrs, hdrs_alloc;
	const char **hdr_origin;
	struct fio_report *reps;	/* reports of the current output */
	size_t nreps, reps_alloc;
	struct labels cmd;	/* options of the last fio command line */
	struct labels cmd_job;	/* its rw bs ioengine iodepth: no header */
	int cmd_used;		/* fio's output after it began */
	int cmds_listed;	/* commands one after another, no output */
	int partial, client_mode;
	/* the report being read */
	struct fio_report *rep;
	int skip;		/* a failed job: claim, emit nothing */
	enum fio_dir dir;
	int have_dir;
	/* continuation blocks */
	const char *pct_prefix;
	int orphan_pct;		/* in percentile rows without their header */
	double pct_unit;
	enum fio_dir pct_dir;
	int in_status, in_disk;
	int summary_seen;	/* the output's status or disk lines began */
	int prose_after_bare;	/* prose since direction lines alone */
	size_t out_hdr_first;	/* hdrs[] of the current output begin here */
	long status_group;
	/* per report line, the last line reporting the same job of the
	 * same process (pid): an earlier one is a --status-interval
	 * snapshot of it */
	struct keymap *last_report;
	/* each result line's text (and grep prefix) -> where it was last */
	struct keymap *result_lines;
	struct strbuf report_key;
	/* the fio JSON document right above the output's first report */
	int json_block;
	struct fio_json_block json;
	struct strbuf metric;
	struct fio_text_lines lines;	/* as the post left them */
};

void fio_text_begin_dir(struct text_state *st, enum fio_dir d);
int fio_text_find_value(const char *p, const char *key, const char **at);
int fio_text_quoted_again(struct text_state *st, size_t li, const char *t,
			int alone);
const struct fio_header *fio_text_sole_header(const struct text_state *st);
int fio_text_scan_count(const char **p, double *out);
int fio_text_scan_plain(const char **p, double *out);
int fio_text_scan_bytes(const char **p, int binary, double *out);
int fio_text_scan_bytes_with_unit(const char **p, int binary, double *out);
int fio_text_status_line(struct text_state *st, size_t li, const char *t);
int fio_text_lone_status_line(struct text_state *st, size_t li, const char *t);
int fio_text_disk_line(struct text_state *st, size_t li, const char *t);

#endif
