/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The end of a fio output: the group status lines ("READ: bw=...") and
 * the disk lines ("sda: ios=..."), with the labels every report of the
 * group shares; see fio-text.c.
 */
#include "fio-text.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Labels and op shared by every report (of group g, or all: g < -1). */
static const char *common_labels(struct text_state *st, long g, int dir,
				 struct labels *l)
{
	const char *op = NULL;
	int first = 1;

	labels_init(l);
	for (size_t i = 0; i < st->nreps; i++) {
		const struct fio_report *r = &st->reps[i];

		if (g >= -1 && r->group != g)
			continue;
		for (int d = 0; d < FIO_NDIRS; d++) {
			if (!r->op[d] || d == FIO_SYNC || (dir >= 0 && d != dir))
				continue;
			if (first) {
				labels_release(l);
				labels_copy(l, &r->dl[d]);
			} else {
				fio_labels_intersect(l, &r->dl[d]);
			}
			if (first)
				op = r->op[d];
			else if (op && strcmp(op, r->op[d]))
				op = NULL;	/* mixed: no common op */
			first = 0;
		}
	}
	labels_remove(l, "partial");
	if (st->partial)
		labels_set(l, "partial", "1");
	return first ? NULL : op;
}

/*
 * The labels of a status line with no job report above it (an excerpt
 * of status lines, a run with its report cut): the options of the fio
 * command that ran it, with rw bs ioengine iodepth from the output's
 * sole job header or else that command, as a report's would be (see
 * fio_text_begin_dir()).  Its op, or NULL.
 */
static const char *lone_status_labels(struct text_state *st, enum fio_dir d,
				      struct labels *l)
{
	const struct fio_header *h = fio_text_sole_header(st);
	const char *rw;

	labels_release(l);
	labels_copy(l, &st->cmd);
	if (h) {
		fio_header_labels(h, d, l);
		return fio_op(h->rw, d);
	}
	for (size_t i = 0; i < st->cmd_job.n; i++)
		labels_set(l, st->cmd_job.v[i].key, st->cmd_job.v[i].value);
	rw = labels_get(&st->cmd_job, "rw");
	return rw ? fio_op(rw, d) : NULL;
}

/* "READ: bw=20.9MiB/s (21.9MB/s), ..., io=64.0MiB (67.1MB), run=..." */
/*
 * Job reports of group g in the current output.  The group status line
 * of a group of one report (one job, or numjobs with group_reporting)
 * says that report's bandwidth and bytes again: a second measurement of
 * one figure, labelled job=all, that a table by op pooled with the
 * job's and flagged as mixed (every one-job fio output, exit 1).
 */
static size_t reports_in_group(const struct text_state *st, long g)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nreps; i++)
		n += st->reps[i].group == g;
	return n;
}

int fio_text_status_line(struct text_state *st, size_t li, const char *t)
{
	const char *p = t, *v, *op;
	double bw, bytes;
	struct labels l;
	int d = fio_skip_direction(&p, 1), v2;

	if (d < 0)
		return 0;
	/* -2: quoted without its "Run status group" line (see below) */
	if (fio_text_quoted_again(st, li, t, st->status_group == -2))
		return 1;
	parse_claim(st->ctx, li);
	v2 = strstr(p, "aggrb=") != NULL;
	if (fio_text_find_value(p, v2 ? "aggrb=" : "bw=", &v) ||
	    fio_text_scan_bytes_with_unit(&v, v2, &bw) || fio_text_find_value(p, "io=", &v) ||
	    fio_text_scan_bytes_with_unit(&v, v2, &bytes)) {
		parse_error(st->ctx, li, "unreadable fio group status line");
		return 1;
	}
	if (st->nreps && st->reps[st->nreps - 1].snapshot)
		return 1;	/* a snapshot's aggregate */
	if (reports_in_group(st, st->status_group) == 1)
		return 1;	/* the one report's figures again */
	op = common_labels(st, st->status_group, d, &l);
	if (!op && !l.n)	/* no job report */
		op = lone_status_labels(st, (enum fio_dir)d, &l);
	if (!op)
		op = fio_dir_name((enum fio_dir)d);
	if (st->status_group >= 0)
		labels_setf(&l, "group", "%ld", st->status_group);
	labels_set(&l, "job", "all");
	labels_remove(&l, "numjobs");
	fio_emit(st->ctx, li, op, "bw", UNIT_BW, bw, &l);
	fio_emit(st->ctx, li, op, "bytes", UNIT_BYTES, bytes, &l);
	labels_release(&l);
	return 1;
}

/*
 * A group status line quoted without its "Run status group N" line
 * ("WRITE: io=28584MB, aggrb=487812KB/s, ..." or "WRITE: bw=39.3MiB/s
 * ..., io=..., run=..."): the aggregate of a group storan cannot name.
 * Only fio's fields make it one, not a word "WRITE:" in prose.
 */
int fio_text_lone_status_line(struct text_state *st, size_t li, const char *t)
{
	const char *p = t;

	if (fio_skip_direction(&p, 1) < 0)
		return 0;
	p = skip_spaces(p);
	if (!(starts_with(p, "bw=") && strstr(p, ", run=")) &&
	    !(starts_with(p, "io=") && strstr(p, ", aggrb=")))
		return 0;
	st->status_group = -2;	/* any report of the output */
	st->in_status = st->summary_seen = 1;
	return fio_text_status_line(st, li, t);
}

/* Did every job report of the output fail (err != 0)? */
/* Are the output's reports all copies of a JSON document's jobs, and
 * has that document its disks too? */
static int disks_in_json(const struct text_state *st)
{
	for (size_t i = 0; i < st->nreps; i++)
		if (!st->reps[i].json_copy)
			return 0;
	return st->nreps > 0 && st->json_block && st->json.has_disks;
}

static int all_reports_failed(const struct text_state *st)
{
	for (size_t i = 0; i < st->nreps; i++)
		if (!st->reps[i].failed)
			return 0;
	return st->nreps > 0;
}

/* "sda: ios=16398/16511, merge=..., util=100.00%" */
int fio_text_disk_line(struct text_state *st, size_t li, const char *t)
{
	const char *colon = strstr(t, ": ios="), *v, *op;
	struct labels l;
	double util;
	char *dev;

	if (!colon)
		return 0;
	if (fio_text_quoted_again(st, li, t, !st->nreps))
		return 1;	/* a quote's "Disk stats" block: no report */
	parse_claim(st->ctx, li);
	if (fio_text_find_value(colon, ", util=", &v) ||
	    fio_text_scan_plain(&v, &util) || *v != '%') {
		parse_error(st->ctx, li, "unreadable fio disk stats line");
		return 1;
	}
	if (all_reports_failed(st)) {
		parse_note(st->ctx, li, "disk stats of a run whose jobs all "
			   "failed: not a result");
		return 1;
	}
	if (disks_in_json(st) ||
	    (st->nreps && st->reps[st->nreps - 1].snapshot))
		return 1;	/* the JSON copy's, or a snapshot's */
	op = common_labels(st, -2, -1, &l);
	labels_remove(&l, "job");
	labels_remove(&l, "numjobs");
	dev = xstrndup(t, (size_t)(colon - t));
	labels_set(&l, "device", dev);
	fio_emit(st->ctx, li, op ? op : "run", "disk.util", UNIT_PERCENT,
		 util, &l);
	free(dev);
	labels_release(&l);
	return 1;
}
