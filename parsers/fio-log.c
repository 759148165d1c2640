/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's per-I/O and per-interval logs: write_bw_log, write_iops_log,
 * write_lat_log (JOB_bw.N.log, _iops, _clat, _slat, _lat) and
 * write_hist_log (JOB_clat_hist.N.log).
 *
 * Accepted, verbatim (each has a fixture under tests/parsers/fio/):
 *
 *   2000, 12, 0, 0                  time ms, value, direction, bs
 *   1075, 1023822691, 0, 0          (3.x adds ", offset" and ", prio")
 *   1001, 0, 16384, 0, 0, 2, ...    hist log: time, direction, bs, then
 *                                   one count per latency bucket
 *
 * The lines do not say what they measure: fio says it in the file name,
 * so the kind is the name's bw/iops/clat/slat/lat part; a log whose name
 * does not say is an error, not a guess.  bw values are KiB/s; latency
 * logs are ns since fio 3.0 (usec before), which the file cannot tell:
 * that is an error, not a guess (the JSON output or a hist log of the same
 * run carries the unit).  A hist log's bucket count tells its
 * version (1216 buckets: fio 2.x, usec; 1856: fio 3.x, ns); its buckets
 * are summed over the run into one histogram per direction, kept on the
 * clat.p50 measurement, with fio's default percentiles computed from it.
 * Values: one per log line (metric bw, iops, clat, slat or lat: each
 * value one sample), op read/write/trim from the direction.
 */
#include "fio-common.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define HIST_MIN_FIELDS 100

/* Reads the comma-separated integers of a log line; -1 on other text. */
static int log_fields(const char *t, uint64_t *v, size_t max, size_t *n)
{
	*n = 0;
	for (;;) {
		uint64_t x;

		t = skip_spaces(t);
		if (scan_u64(&t, &x))
			return -1;
		if (*n < max)
			v[*n] = x;
		(*n)++;
		t = skip_spaces(t);
		if (!*t)
			return *n >= 4 ? 0 : -1;
		if (*t++ != ',')
			return -1;
	}
}

static int fio_log_detect(const struct input *in)
{
	size_t checked = 0;

	for (size_t i = 0; i < in->nlines && checked < 16; i++) {
		uint64_t v[8];
		size_t n;

		if (!*in->lines[i].text)
			continue;
		if (log_fields(in->lines[i].text, v, 8, &n))
			return 0;
		checked++;
	}
	return checked ? 40 : 0;
}

/* The kind of log from its name ("x_bw.1.log", "fio-3.1-floppy-clat.1.log"). */
static const char *log_kind(const char *name)
{
	static const char *const kinds[] = {
		"bw", "iops", "clat", "slat", "lat", NULL
	};
	const char *p = name;

	while (*p) {
		size_t len = strcspn(p, "_.-");

		for (size_t k = 0; kinds[k]; k++)
			if (len == strlen(kinds[k]) && !strncmp(p, kinds[k], len))
				return kinds[k];
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

static double log_value(uint64_t v, double scale)
{
	return scale < 1 ? fio_seconds((double)v, scale) : (double)v * scale;
}

static void value_log(struct parse_ctx *ctx, const char *kind)
{
	size_t mi[3];
	int have[3] = { 0, 0, 0 };
	const char *unit = UNIT_SECONDS;
	double scale = 1e-9;

	if (!strcmp(kind, "bw")) {
		unit = UNIT_BW;
		scale = 1024;
	} else if (!strcmp(kind, "iops")) {
		unit = UNIT_IOPS;
		scale = 1;
	} else {
		/* No unit in the file: a value in the wrong unit is off by
		 * 1000, so say it rather than guess. */
		parse_error(ctx, 0, "fio %s log: the file does not say whether "
			    "its values are nsec (fio >= 3.0) or usec (fio "
			    "2.x); not read (the JSON output or a clat_hist "
			    "log of the run carries the unit)", kind);
		parse_claim_range(ctx, 0, ctx->in->nlines);
		return;
	}
	for (size_t i = 0; i < ctx->in->nlines; i++) {
		uint64_t v[6];
		size_t n;

		if (log_fields(ctx->in->lines[i].text, v, 6, &n))
			continue;
		parse_claim(ctx, i);
		if (v[2] > 2) {
			parse_error(ctx, i, "fio log: unknown direction %llu",
				    (unsigned long long)v[2]);
			continue;
		}
		if (!have[v[2]]) {
			fio_emit(ctx, i, fio_dir_name((enum fio_dir)v[2]), kind,
				 unit, log_value(v[1], scale), NULL);
			mi[v[2]] = ctx->rs->n - 1;
			have[v[2]] = 1;
			continue;
		}
		measurement_add_value(&ctx->rs->m[mi[v[2]]],
				      log_value(v[1], scale));
	}
}

static void emit_hist(struct parse_ctx *ctx, size_t li, enum fio_dir d,
		      const uint64_t *bins, size_t nbins, double scale)
{
	static const char *const pcts[] = {
		"1", "5", "10", "20", "30", "40", "50", "60", "70", "80", "90",
		"95", "99", "99.5", "99.9", "99.95", "99.99"
	};
	struct histogram h = { 0, NULL, NULL };
	struct strbuf metric = STRBUF_INIT;
	size_t p50 = 0;
	uint64_t *cum = xcalloc(nbins + 1, sizeof(*cum));

	h.value = xcalloc(nbins, sizeof(double));
	h.count = xcalloc(nbins, sizeof(uint64_t));
	for (size_t i = 0; i < nbins; i++)
		if (bins[i]) {
			h.value[h.n] = (double)fio_plat_idx_to_val((unsigned)i,
								   6);
			h.count[h.n] = bins[i];
			cum[h.n] = bins[i] + (h.n ? cum[h.n - 1] : 0);
			h.n++;
		}
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		const char *s = pcts[k];
		double p, v;

		scan_double(&s, 0, &p);
		fio_pct_metric(&metric, "clat", pcts[k], strlen(pcts[k]));
		v = fio_hist_percentile_cum(h.value, cum, h.n, p);
		fio_emit(ctx, li, fio_dir_name(d), metric.buf, UNIT_SECONDS,
			 fio_seconds(v, scale), NULL);
		if (!strcmp(pcts[k], "50"))
			p50 = ctx->rs->n - 1;
	}
	for (size_t i = 0; i < h.n; i++)
		h.value[i] = fio_seconds(h.value[i], scale);
	ctx->rs->m[p50].hist = h;
	strbuf_release(&metric);
	free(cum);
}

static void hist_log(struct parse_ctx *ctx)
{
	uint64_t *v = NULL, *sum[3] = { NULL, NULL, NULL };
	size_t nbins = 0, first[3] = { 0, 0, 0 }, n, max = 4096, skip = 3;
	double scale = 0;

	v = xcalloc(max, sizeof(*v));
	for (size_t i = 0; i < ctx->in->nlines; i++) {
		if (log_fields(ctx->in->lines[i].text, v, max, &n))
			continue;
		parse_claim(ctx, i);
		if (!nbins) {	/* 3.x may add a priority column */
			skip = n - 1856 == 4 ? 4 : 3;
			nbins = n - skip;
			scale = nbins == 1216 ? 1e-6 : nbins == 1856 ? 1e-9 : 0;
		}
		if (!(scale > 0) || n - skip != nbins || n > max || v[1] > 2) {
			parse_error(ctx, i, "fio histogram log with %zu buckets "
				    "(fio writes 1216 or 1856)", n - skip);
			goto out;
		}
		if (!sum[v[1]]) {
			sum[v[1]] = xcalloc(nbins, sizeof(uint64_t));
			first[v[1]] = i;
		}
		for (size_t b = 0; b < nbins; b++)
			sum[v[1]][b] += v[skip + b];
	}
	for (int d = 0; d < 3; d++)
		if (sum[d])
			emit_hist(ctx, first[d], (enum fio_dir)d, sum[d], nbins,
				  scale);
out:
	for (int d = 0; d < 3; d++)
		free(sum[d]);
	free(v);
}

static int fio_log_parse(struct parse_ctx *ctx)
{
	size_t before = ctx->rs->n, n = 0;
	uint64_t v[8];
	const char *kind;

	for (size_t i = 0; i < ctx->in->nlines && !n; i++)
		if (log_fields(ctx->in->lines[i].text, v, 8, &n))
			n = 0;
	if (n >= HIST_MIN_FIELDS) {
		hist_log(ctx);
	} else if ((kind = log_kind(ctx->in->name))) {
		value_log(ctx, kind);
	} else {
		parse_error(ctx, 0, "a fio log, but its name does not say of "
			    "what: fio names them JOB_bw.N.log, _iops, _lat, "
			    "_clat, _slat (rename the file)");
	}
	return (int)(ctx->rs->n - before);
}

const struct parser parser_fio_log = {
	.name = "fio-log",
	.detect = fio_log_detect,
	.parse = fio_log_parse,
};
