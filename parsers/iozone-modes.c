/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * iozone's throughput mode (-t: "Children see throughput for 4 initial
 * writers = ...") and its -R report sections, in their own words; see
 * iozone.c for what is read and how it is labelled.
 */
#include "iozone.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* "Children see throughput for N <name>" (throughput_test()). */
static const struct ioz_name ioz_tput_names[] = {
	{ "initial writers", "write" },	{ "rewriters", "rewrite" },
	{ "readers", "read" },		{ "re-readers", "reread" },
	{ "reverse readers", "bkwdread" }, { "stride readers", "strideread" },
	{ "random readers", "randread" }, { "mixed workload", "randrw" },
	{ "random writers", "randwrite" }, { "pwrite writers", "pwrite" },
	{ "pread readers", "pread" },	{ "fwriters", "fwrite" },
	{ "freaders", "fread" },	{ NULL, NULL },
};

/* '"Writer report"' ... (dump_excel()). */
static const struct ioz_name ioz_report_names[] = {
	{ "Writer report", "write" },	{ "Re-writer report", "rewrite" },
	{ "Reader report", "read" },	{ "Re-Reader report", "reread" },
	{ "Random read report", "randread" },
	{ "Random write report", "randwrite" },
	{ "Backward read report", "bkwdread" },
	{ "Record rewrite report", "recrewrite" },
	{ "Stride read report", "strideread" },
	{ "Fwrite report", "fwrite" },	{ "Re-Fwrite report", "frewrite" },
	{ "Fread report", "fread" },	{ "Re-Fread report", "freread" },
	{ NULL, NULL },
};

/* '"  Initial write "    8857.66' (throughput_tests[] in iozone.c). */
static const struct ioz_name ioz_tput_report_names[] = {
	{ "Initial write", "write" },	{ "Rewrite", "rewrite" },
	{ "Read", "read" },		{ "Re-read", "reread" },
	{ "Reverse Read", "bkwdread" },	{ "Stride read", "strideread" },
	{ "Random read", "randread" },	{ "Mixed workload", "randrw" },
	{ "Random write", "randwrite" }, { "Pwrite", "pwrite" },
	{ "Pread", "pread" },		{ "Fwrite", "fwrite" },
	{ "Fread", "fread" },		{ NULL, NULL },
};

/* "= 8857.66 kB/sec": the number and its unit. */
static int read_tput_value(const char *p, double *v, const char **unit)
{
	p = strchr(p, '=');
	if (!p)
		return -1;
	p = skip_spaces(p + 1);
	if (scan_double(&p, 0, v))
		return -1;
	p = skip_spaces(p);
	if (skip_prefix(&p, "kB") || skip_prefix(&p, "KB"))
		*unit = "kB";
	else if (skip_prefix(&p, "ops"))
		*unit = "ops";
	else
		return -1;
	if (skip_prefix(&p, "/sec"))
		*unit = **unit == 'k' ? "kB/sec" : "ops/sec";
	return *skip_spaces(p) ? -1 : 0;
}

static void emit_tput(struct ioz_state *st, size_t li, const char *aggr,
		      double v, const char *unit)
{
	struct measurement *m;
	const char *metric = "bw", *u = UNIT_BW;
	double f = KIB;

	if (!strcmp(unit, "ops/sec")) {
		metric = "iops", u = UNIT_IOPS, f = 1;
	} else if (!strcmp(unit, "kB")) {
		metric = "bytes", u = UNIT_BYTES;
	} else if (!strcmp(unit, "ops")) {
		if (!(st->run.bs > 0)) {
			parse_note(st->ctx, li, "'Min xfer' in operations "
				   "with no record size known: not kept");
			return;
		}
		metric = "bytes", u = UNIT_BYTES, f = st->run.bs;
	}
	m = parse_emit(st->ctx, li, "iozone", st->tp_op, metric, u, v * f);
	labels_setf(&m->labels, "threads", "%d", st->tp_threads);
	labels_set(&m->labels, "aggregate", aggr);
	iozone_label_command(st, m);
	if (st->run.filesize > 0)
		labels_setf(&m->labels, "filesize", "%.0f", st->run.filesize);
	if (st->run.bs > 0)
		labels_setf(&m->labels, "bs", "%.0f", st->run.bs);
	if (st->run.direct >= 0)
		labels_set(&m->labels, "direct", st->run.direct ? "1" : "0");
}

/* "Children see throughput for  4 initial writers  = 8857.66 kB/sec" */
static int read_children(struct ioz_state *st, size_t li, const char *p,
			 int parent)
{
	const char *eq, *unit, *op;
	uint64_t n;
	double v;
	size_t len;

	p = skip_spaces(p);
	st->tp_op = NULL;	/* per-process lines below need a known test */
	if (scan_u64(&p, &n) || !(eq = strchr(p, '='))) {
		parse_error(st->ctx, li, "unreadable iozone throughput line");
		return 1;
	}
	p = skip_spaces(p);
	len = (size_t)(eq - p);
	while (len && iozone_is_blank(p[len - 1]))
		len--;
	op = iozone_find_name(ioz_tput_names, p, len);
	if (!op) {
		parse_error(st->ctx, li, "unknown iozone throughput test "
			    "'%.*s'", (int)len, p);
		return 1;
	}
	st->tp_op = op;
	st->tp_threads = (int)n;
	if (read_tput_value(eq, &v, &unit) || strchr(unit, '/') == NULL) {
		parse_error(st->ctx, li, "expected '= N kB/sec' or "
			    "'= N ops/sec' in iozone throughput line");
		return 1;
	}
	emit_tput(st, li, parent ? "parent" : "children", v, unit);
	st->run.read_tput = 1;
	return 1;
}

int iozone_read_throughput(struct ioz_state *st, size_t li)
{
	const char *t = st->ctx->in->lines[li].text, *p, *unit;
	static const char *const per[] = { "Min", "process-min", "Max",
		"process-max", "Avg", "process-avg" };
	double v;

	if ((p = strstr(t, "Children see throughput for")))
		return parse_claim(st->ctx, li),
		       read_children(st, li, p + 27, 0);
	if ((p = strstr(t, "Parent sees throughput for")))
		return parse_claim(st->ctx, li),
		       read_children(st, li, p + 26, 1);
	for (size_t i = 0; i < 6; i += 2) {
		p = t;
		if (!skip_prefix(&p, per[i]) ||
		    !(skip_prefix(&p, " throughput per process") ||
		      skip_prefix(&p, " throughput per thread")))
			continue;
		parse_claim(st->ctx, li);
		if (!st->tp_op)
			return parse_error(st->ctx, li, "iozone per-process "
					   "figure with no 'Children see' line "
					   "above it"), 1;
		if (read_tput_value(p, &v, &unit) || !strchr(unit, '/'))
			return parse_error(st->ctx, li, "expected '= N kB/sec'"
					   " in iozone throughput line"), 1;
		emit_tput(st, li, per[i + 1], v, unit);
		return 1;
	}
	p = t;
	if (!skip_prefix(&p, "Min xfer"))
		return 0;
	parse_claim(st->ctx, li);
	if (!st->tp_op)
		return parse_error(st->ctx, li, "iozone 'Min xfer' with no "
				   "'Children see' line above it"), 1;
	if (read_tput_value(p, &v, &unit) || strchr(unit, '/'))
		return parse_error(st->ctx, li, "expected '= N kB' or '= N ops'"
				   " after 'Min xfer'"), 1;
	emit_tput(st, li, "process-min", v, unit);
	return 1;
}

/* A quoted token '"64"': its number. */
static int quoted_number(const struct ioz_tok *t, double *v)
{
	const char *p = t->s + 1;

	return t->len >= 3 && t->s[0] == '"' && t->s[t->len - 1] == '"' &&
	       !scan_double(&p, SCAN_NO_EXPONENT, v) &&
	       p == t->s + t->len - 1;
}

/* '"Writer report"' and the other -R section titles. */
static int read_report_title(struct ioz_state *st, size_t li)
{
	const char *t = st->ctx->in->lines[li].text;
	size_t len = strlen(t);
	const char *op;

	if (len < 3 || t[0] != '"' || t[len - 1] != '"')
		return 0;
	if (starts_with(t, "\"Throughput report")) {
		st->in_report = st->rep_tput = 1;
		st->rep_op = NULL;
		return parse_claim(st->ctx, li), 1;
	}
	if (st->in_report && st->rep_tput &&
	    (starts_with(t, "\"Record size =") ||
	     starts_with(t, "\"Output is in")))
		return parse_claim(st->ctx, li), 1;
	op = iozone_find_name(ioz_report_names, t + 1, len - 2);
	if (!op)
		return 0;
	st->in_report = 1;
	st->rep_tput = 0;
	st->rep_op = op;
	st->nrecs = 0;
	st->in_table = 0;
	parse_claim(st->ctx, li);
	return 1;
}

static void read_report_row(struct ioz_state *st, size_t li, size_t n)
{
	const struct ioz_tok *t = st->toks;
	size_t fit = 0;
	double kb;

	quoted_number(&t[0], &kb);
	while (fit < st->nrecs && !(st->recs[fit] > kb))
		fit++;
	if (n - 1 != fit) {
		parse_error(st->ctx, li, "iozone report row for file size %.0f"
			    " kB has %zu values for %zu record sizes up to "
			    "it; cannot tell which record sizes they are",
			    kb, n - 1, fit);
		return;
	}
	for (size_t v = 1; v < n; v++) {
		double x;

		if (!iozone_tok_number(&t[v], &x)) {
			parse_error(st->ctx, li, "iozone report value '%.*s' "
				    "is not a number", (int)t[v].len, t[v].s);
			return;
		}
		iozone_emit_cell(st, li, st->rep_op, x, kb, st->recs[v - 1]);
	}
}

/* '"  Initial write "    8857.66' */
static void read_tput_report_row(struct ioz_state *st, size_t li)
{
	const char *t = st->ctx->in->lines[li].text, *close, *name, *p;
	size_t len;
	double v;
	const char *op;

	close = strchr(t + 1, '"');
	if (!close) {
		parse_error(st->ctx, li, "unreadable iozone throughput report "
			    "row");
		return;
	}
	name = skip_spaces(t + 1);
	len = (size_t)(close - name);
	while (len && iozone_is_blank(name[len - 1]))
		len--;
	op = iozone_find_name(ioz_tput_report_names, name, len);
	if (!op) {
		parse_error(st->ctx, li, "unknown iozone throughput report "
			    "test '%.*s'", (int)len, name);
		return;
	}
	if (st->run.read_tput)
		return;		/* repeats the "Children see" lines */
	p = skip_spaces(close + 1);
	if (scan_double(&p, 0, &v) || *skip_spaces(p) ||
	    st->run.threads <= 0 || !st->run.mode_known) {
		parse_error(st->ctx, li, "iozone throughput report row without"
			    " the 'Children see' lines: cannot tell its "
			    "process count and unit");
		return;
	}
	st->tp_op = op;
	st->tp_threads = st->run.threads;
	emit_tput(st, li, "children", v, st->run.mode == IOZ_OPS ?
		  "ops/sec" : "kB/sec");
}

int iozone_read_report(struct ioz_state *st, size_t li, size_t n)
{
	const struct ioz_tok *t = st->toks;
	double v;

	if (read_report_title(st, li))
		return 1;
	if (!st->in_report || !n || t[0].s[0] != '"')
		return 0;
	parse_claim(st->ctx, li);
	if (st->rep_tput) {
		read_tput_report_row(st, li);
		return 1;
	}
	if (!st->nrecs) {	/* the record sizes: "4"  "8"  "16" */
		for (size_t i = 0; i < n && i < IOZ_MAX_RECS; i++) {
			if (!quoted_number(&t[i], &v) ||
			    (i && !(v > st->recs[i - 1]))) {
				parse_error(st->ctx, li, "unreadable iozone "
					    "report header");
				st->in_report = 0;
				return 1;
			}
			st->recs[st->nrecs++] = v;
		}
		return 1;
	}
	if (!quoted_number(&t[0], &v)) {
		parse_error(st->ctx, li, "unreadable iozone report row");
		return 1;
	}
	if (!st->run.read_table)
		read_report_row(st, li, n);
	return 1;
}
