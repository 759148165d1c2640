/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's terse (--minimal, --output-format=terse) lines, versions 2 to 5,
 * field positions as in fio's HOWTO ("Terse output") and stat.c.
 *
 * Accepted, verbatim (each has a fixture under tests/parsers/fio/):
 *
 *   3;fio-3.7;bio;0;0;1146880;...;1.000000%=1011;5.000000%=1044;...
 *   3;fio-3.27;test;0;0;...;0%=0;...;0.00%;sda;14914;4958;...;83.03%
 *   2;name;0;0;...                      (v2: no fio version field)
 *   5;fio-3.33;job;0;0;...              (v5: bw samples and iops stats)
 *   [R(1),P(7)][0.7%][r=85.0MiB/s][r=85 IOPS][eta 043;fio-3.28;...
 *                                       (glued to a status update)
 *
 * Layout: version, fio version (v3+), job name, group id, error; then one
 * block per direction -- read, write, and trim in v2/v4/v5 (mixed with
 * unified_rw_reporting) -- of 41 fields (47 in v5): io KiB, bw KiB/s,
 * iops, runtime ms, slat/clat min max mean stddev (usec), 20 clat
 * percentiles "P%=usec" (unused ones "0%=0"), lat min max mean stddev,
 * bw min max agg% mean stddev (KiB/s) [v5: bw samples, iops min max mean
 * stddev samples]; then cpu usr% sys% ctx majf minf, 7 IO depths, 10 usec
 * and 12 msec latency buckets, and (v3+) per disk: name, ios r/w, merges
 * r/w, ticks r/w, in_queue, util%.  The blocks are found by their
 * percentile fields, so every version and direction count is read the
 * same way.
 *
 * Terse values are truncated usec and KiB; when the same run was also
 * printed in the normal format (--output-format=normal,terse) the normal
 * report is the result and its terse line is only claimed.  rw, bs,
 * ioengine and iodepth come from the job's header line when the input has
 * one.  A job with error != 0 gives no result and an error.
 */
#include "fio-common.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define TERSE_TAIL 34		/* cpu 5, depths 7, usec 10, msec 12 */
#define COMMAND_LOOKBACK 8	/* lines above a terse line for its command */

struct field {
	const char *s;
	size_t len;
};

struct terse {
	struct parse_ctx *ctx;
	size_t li;
	struct field *f;
	size_t n, alloc;
	unsigned version;
	struct labels labels;
	const char *rw;
	struct strbuf metric;
	struct fio_lines lines;	/* headers and reports of the input */
	/* the fio JSON document below the last record searched from, and
	 * where that search stopped: the records before it share it */
	struct fio_json_block json;
	int json_found;
	size_t json_stop;	/* 0: no search yet */
};

/*
 * Is the record at s, in line t, a terse line even when cut short?  One
 * that names fio's version ("3;fio-2.0.15;") and starts the line, or a
 * string literal: prose quoting one ("like 3;fio-3.28;myjob;0;0;...")
 * does neither.  A v2 record, or one glued to a status update, shows
 * itself by its percentiles.
 */
static int names_fio(const char *t, const char *s)
{
	/* "# 3;fio-2.1;..." in a script's comment starts it too */
	return (s == t || s == line_after_prompt(t) || s[-1] == '"' ||
		s[-1] == '\'') && s[1] == ';' &&
	       !strncmp(s + 2, "fio-", 4) && s[6] >= '0' && s[6] <= '9';
}

static int fio_terse_detect(const struct input *in)
{
	/* Every terse line holds a ';' (a mail may spell it =3B): a log
	 * with none is not walked line by line, each searched for ";fio-" */
	if (!input_contains(in, ";") && !input_contains(in, "=3B") &&
	    !input_contains(in, "=3b"))
		return 0;
	for (size_t i = 0; i < in->nlines; i++) {
		const char *t = in->lines[i].text, *s = fio_terse_start(t);

		if (s && (strchr(s, '%') || names_fio(t, s)))
			return 60;
	}
	return 0;
}

/* The fields of [s, end). */
static void split(struct terse *tr, const char *s, const char *end)
{
	tr->n = 0;
	for (;;) {
		const char *semi = memchr(s, ';', (size_t)(end - s));
		size_t len = semi ? (size_t)(semi - s) : (size_t)(end - s);

		ALLOC_GROW(tr->f, tr->n + 1, tr->alloc);
		tr->f[tr->n].s = s;
		tr->f[tr->n++].len = len;
		if (!semi)
			break;
		s = semi + 1;
	}
}

/*
 * Where the record starting at s in line t ends: at the line's end, or,
 * when a quote opens it (a terse line kept in a program's string
 * literal: "3;fio-3.36;...;0.00%";), at the last such quote.
 */
static const char *terse_end(const char *t, const char *s)
{
	const char *end = s + strlen(s), *q;

	if (s > t && (s[-1] == '"' || s[-1] == '\'') &&
	    (q = strrchr(s, s[-1])) != NULL)
		return q;
	return end;
}

/* Field k as a number (a trailing '%' allowed); -1 when it is none. */
static int fnum(const struct terse *tr, size_t k, double *v)
{
	char buf[64];
	const char *p = buf;
	size_t len;

	if (k >= tr->n || (len = tr->f[k].len) == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, tr->f[k].s, len);
	buf[len] = '\0';
	if (scan_double(&p, SCAN_NO_EXPONENT, v))
		return -1;
	if (*p == '%')
		p++;
	return *p ? -1 : 0;
}

static int is_pct(const struct terse *tr, size_t k)
{
	return k < tr->n && memchr(tr->f[k].s, '=', tr->f[k].len) &&
	       memchr(tr->f[k].s, '%', tr->f[k].len);
}

static void emit(struct terse *tr, const char *op, const char *metric,
		 const char *unit, double v)
{
	fio_emit(tr->ctx, tr->li, op, metric, unit, v, &tr->labels);
}

/* Four latency fields in usec: prefix.min .max .mean .stddev. */
static int emit_lat(struct terse *tr, const char *op, size_t k,
		    const char *prefix)
{
	static const char *const names[] = { "min", "max", "mean", "stddev" };
	double v[4];

	for (int i = 0; i < 4; i++)
		if (fnum(tr, k + (size_t)i, &v[i]))
			return -1;
	if (!(v[0] > 0) && !(v[1] > 0) && !(v[2] > 0))
		return 0;	/* not measured (sync engines, gtod_reduce) */
	for (int i = 0; i < 4; i++) {
		strbuf_reset(&tr->metric);
		strbuf_addf(&tr->metric, "%s.%s", prefix, names[i]);
		emit(tr, op, tr->metric.buf, UNIT_SECONDS,
		     fio_seconds(v[i], 1e-6));
	}
	return 0;
}

/* "99.900000%=1234" -> clat.p99.9 = 1234 usec; "0%=0" is unused. */
static int emit_pct(struct terse *tr, const char *op, size_t k)
{
	const char *s = tr->f[k].s, *pc = memchr(s, '%', tr->f[k].len);
	const char *p;
	double v;
	char buf[32];
	size_t vlen;

	/* a field cut short or garbled has no "%=" to split at */
	if (!pc || (size_t)(pc - s) + 2 > tr->f[k].len || pc[1] != '=')
		return -1;
	vlen = tr->f[k].len - (size_t)(pc - s) - 2;
	if (vlen >= sizeof(buf))
		return -1;
	memcpy(buf, pc + 2, vlen);
	buf[vlen] = '\0';
	p = buf;
	if (scan_double(&p, SCAN_NO_EXPONENT, &v) || *p)
		return -1;
	if (fio_pct_metric(&tr->metric, "clat", s, (size_t)(pc - s)))
		return -1;
	if (!strcmp(tr->metric.buf, "clat.p0"))
		return 0;
	emit(tr, op, tr->metric.buf, UNIT_SECONDS, fio_seconds(v, 1e-6));
	return 0;
}

static int emit_samples(struct terse *tr, const char *op, size_t k)
{
	static const char *const bw[] = { "bw.min", "bw.max", NULL,
					  "bw.mean", "bw.stddev" };
	static const char *const iops[] = { "iops.min", "iops.max",
					    "iops.mean", "iops.stddev" };
	double v[5], sum = 0;

	for (int i = 0; i < 5; i++) {
		if (fnum(tr, k + (size_t)i, &v[i]))
			return -1;
		sum += v[i];
	}
	if (sum > 0)
		for (int i = 0; i < 5; i++)
			if (bw[i])
				emit(tr, op, bw[i], UNIT_BW, v[i] * 1024);
	if (tr->version != 5)
		return 0;
	sum = 0;
	for (int i = 0; i < 4; i++) {
		if (fnum(tr, k + 6 + (size_t)i, &v[i]))
			return -1;
		sum += v[i];
	}
	if (sum > 0)
		for (int i = 0; i < 4; i++)
			emit(tr, op, iops[i], UNIT_IOPS, v[i]);
	return 0;
}

/* One direction's block at field k; returns -1 on a malformed field. */
static int emit_block(struct terse *tr, size_t k, enum fio_dir d,
		      int *did_io)
{
	const char *op = fio_op(tr->rw, d);
	double io, bw, iops, runtime;

	if (fnum(tr, k, &io) || fnum(tr, k + 1, &bw) ||
	    fnum(tr, k + 2, &iops) || fnum(tr, k + 3, &runtime))
		return -1;
	if (!(io > 0) && !(runtime > 0))
		return 0;
	*did_io = *did_io ? 2 : 1;
	if (runtime > 0) {
		emit(tr, op, "bw", UNIT_BW, bw * 1024);
		emit(tr, op, "iops", UNIT_IOPS, iops);
	} else {
		fio_note_no_runtime(tr->ctx, tr->li, op, &tr->labels);
	}
	emit(tr, op, "bytes", UNIT_BYTES, io * 1024);
	if (runtime > 0)
		emit(tr, op, "runtime", UNIT_SECONDS, runtime / 1000);
	if (emit_lat(tr, op, k + 4, "slat") || emit_lat(tr, op, k + 8, "clat"))
		return -1;
	for (size_t i = 0; i < 20; i++)
		if (emit_pct(tr, op, k + 12 + i))
			return -1;
	if (emit_lat(tr, op, k + 32, "lat"))
		return -1;
	return emit_samples(tr, op, k + 36);
}

static enum fio_dir block_dir(const struct terse *tr, size_t b, size_t nb)
{
	if (nb == 1)
		return FIO_MIXED;
	if (b == 2 && tr->version == 3)
		return FIO_MIXED;
	return b < 3 ? (enum fio_dir)b : FIO_MIXED;
}

/* Per-disk groups after the fixed tail: name;8 numbers;util%. */
static void emit_disks(struct terse *tr, size_t k, const char *op)
{
	while (k + 8 < tr->n) {
		double v, util;
		char *dev;
		struct labels l;

		if (!fnum(tr, k, &v) || fnum(tr, k + 8, &util) ||
		    tr->f[k + 8].s[tr->f[k + 8].len - 1] != '%')
			return;
		labels_copy(&l, &tr->labels);
		labels_remove(&l, "job");
		dev = xstrndup(tr->f[k].s, tr->f[k].len);
		labels_set(&l, "device", dev);
		fio_emit(tr->ctx, tr->li, op, "disk.util", UNIT_PERCENT, util,
			 &l);
		free(dev);
		labels_release(&l);
		k += 9;
		/* md arrays: aggregated member stats up to the next util% */
		for (size_t j = k; j < tr->n && j < k + 9; j++)
			if (!fnum(tr, j, &v) &&
			    tr->f[j].s[tr->f[j].len - 1] == '%') {
				k = j + 1;
				break;
			}
	}
}

/*
 * Without a job header, an echoed fio command line just above the terse
 * line says what ran.
 */
static void command_labels(struct terse *tr)
{
	for (size_t i = tr->li; i-- > 0 && i + COMMAND_LOOKBACK > tr->li;) {
		const char *t = tr->ctx->in->lines[i].text;

		if (fio_terse_start(t))
			continue;
		if (!fio_command_labels(t, &tr->labels)) {
			tr->rw = labels_get(&tr->labels, "rw");
			return;
		}
	}
}

static void set_labels(struct terse *tr, size_t h, struct fio_header *hdr)
{
	const struct field *name = &tr->f[h - 3];
	double g = 0;
	char *job = xstrndup(name->s, name->len);

	fnum(tr, h - 2, &g);
	labels_init(&tr->labels);
	tr->rw = NULL;
	if (!fio_find_header(tr->ctx->in, &tr->lines, name->s, name->len,
			     (long)g, hdr)) {
		fio_header_labels(hdr, FIO_READ, &tr->labels);
		tr->rw = hdr->rw;
	} else {
		command_labels(tr);
	}
	labels_set(&tr->labels, "job", job);
	labels_setf(&tr->labels, "group", "%.0f", g);
	free(job);
}

/*
 * Is the record's job in the fio JSON document printed right below it
 * (--output-format=json,terse: fio writes the terse lines first; see
 * fio-common.h)?  Then the JSON's results stand.
 */
static int in_json_below(struct terse *tr, size_t h)
{
	double group;

	if (fnum(tr, h - 2, &group))
		return 0;
	/* once per run of terse lines, not once per record of it */
	if (tr->li >= tr->json_stop) {
		if (tr->json_found)
			fio_json_block_release(&tr->json);
		tr->json_found = fio_json_block_below(tr->ctx, tr->li,
						      &tr->json,
						      &tr->json_stop);
	}
	return tr->json_found &&
	       fio_json_block_has_job(&tr->json, tr->f[h - 3].s,
				      tr->f[h - 3].len, (long)group, NULL);
}

static int terse_record(struct terse *tr)
{
	size_t h = tr->version == 2 ? 4 : 5, blen = tr->version == 5 ? 47 : 41;
	size_t nb = 0, tail;
	double err = 0, usr, sys, group;
	struct fio_header hdr;
	int did_io = 0;
	const char *op;
	size_t mark = tr->ctx->rs->n;

	if (tr->version >= 3 && !(tr->f[1].len > 4 &&
				  starts_with(tr->f[1].s, "fio-")))
		return -1;
	while (is_pct(tr, h + nb * blen + 12) && is_pct(tr, h + nb * blen + 31))
		nb++;
	tail = h + nb * blen;
	if (!nb || tail + TERSE_TAIL > tr->n || fnum(tr, h - 1, &err))
		return -1;
	if (tr->version >= 3)
		fio_set_version(tr->ctx, tr->f[1].s, tr->f[1].len);
	if (in_json_below(tr, h))
		return 0;	/* the JSON copy says it (and any error) */
	if (err > 0) {
		parse_error(tr->ctx, tr->li, "fio job '%.*s' failed with error "
			    "%.0f: no result taken from its terse line",
			    (int)tr->f[h - 3].len, tr->f[h - 3].s, err);
		return 0;
	}
	if (fnum(tr, h - 2, &group))
		return -1;
	if (fio_has_normal_report(tr->ctx->in, &tr->lines, tr->f[h - 3].s,
				  tr->f[h - 3].len, (long)group))
		return 0;	/* the normal report says it better */
	set_labels(tr, h, &hdr);
	for (size_t b = 0; b < nb; b++)
		if (emit_block(tr, h + b * blen, block_dir(tr, b, nb), &did_io))
			goto bad;
	if (fnum(tr, tail, &usr) || fnum(tr, tail + 1, &sys))
		goto bad;
	op = did_io == 1 ? NULL : "run";
	for (size_t b = 0; !op && b < nb; b++) {
		double io, rt;

		fnum(tr, h + b * blen, &io);
		fnum(tr, h + b * blen + 3, &rt);
		if (io > 0 || rt > 0)
			op = fio_op(tr->rw, block_dir(tr, b, nb));
	}
	emit(tr, op, "cpu.usr", UNIT_PERCENT, usr);
	emit(tr, op, "cpu.sys", UNIT_PERCENT, sys);
	emit_disks(tr, tail + TERSE_TAIL, op);
	labels_release(&tr->labels);
	fio_header_release(&hdr);
	return 0;
bad:
	/* a broken line yields no figure, not the ones before the break */
	while (tr->ctx->rs->n > mark)
		result_set_remove(tr->ctx->rs, tr->ctx->rs->n - 1);
	labels_release(&tr->labels);
	fio_header_release(&hdr);
	return -1;
}

static int fio_terse_parse(struct parse_ctx *ctx)
{
	struct terse tr;
	size_t before = ctx->rs->n;

	memset(&tr, 0, sizeof(tr));
	tr.ctx = ctx;
	strbuf_init(&tr.metric);
	fio_lines_find(ctx->in, &tr.lines);
	for (size_t i = 0; i < ctx->in->nlines; i++) {
		const char *t = ctx->in->lines[i].text;
		const char *s = fio_terse_start(t);

		if (!s || !(strchr(s, '%') || names_fio(t, s)))
			continue;
		tr.li = i;
		tr.version = (unsigned)(s[0] - '0');
		split(&tr, s, terse_end(t, s));
		if (tr.n < 40 && !names_fio(t, s))
			continue;
		parse_claim(ctx, i);
		if (terse_record(&tr))
			parse_error(ctx, i, "fio terse v%u line with an "
				    "unexpected layout (%zu fields; cut "
				    "short?)",
				    tr.version, tr.n);
	}
	free(tr.f);
	strbuf_release(&tr.metric);
	fio_lines_release(&tr.lines);
	if (tr.json_found)
		fio_json_block_release(&tr.json);
	return (int)(ctx->rs->n - before);
}

static const char *const fio_terse_programs[] = { "fio", NULL };

const struct parser parser_fio_terse = {
	.name = "fio-terse",
	.tool = "fio",
	.reads = "fio's terse lines (--minimal), versions 2 to 5",
	.programs = fio_terse_programs,
	.detect = fio_terse_detect,
	.parse = fio_terse_parse,
};
