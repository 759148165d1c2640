/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CSV export; see rs-csv.h for the contract. */
#include "rs-csv.h"
#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int same_number(double a, double b)
{
	return !(a < b) && !(a > b) && !isnan(a) && !isnan(b);
}

/* min and max of a single run are the mean: print its digits again
 * instead of formatting the same double three times. */
static void add_min_max(struct strbuf *sb, const struct measurement_stats *st,
			size_t mean_at, size_t mean_len)
{
	const double mm[2] = { st->min, st->max };
	char digits[40];

	/* a copy: adding to sb may move its buffer */
	if (mean_len >= sizeof(digits))
		mean_len = 0;
	memcpy(digits, sb->buf + mean_at, mean_len);
	for (size_t i = 0; i < 2; i++) {
		if (mean_len && same_number(mm[i], st->mean)) {
			strbuf_addch(sb, ',');
			strbuf_add(sb, digits, mean_len);
		} else {
			strbuf_add_csv_number(sb, mm[i]);
		}
	}
}

void rs_csv_add_key(struct strbuf *out, const struct measurement *m)
{
	strbuf_add_csv(out, m->tool);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, m->op);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, m->metric);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, m->unit);
}

void rs_csv_add_id(struct strbuf *out, const struct measurement *m)
{
	strbuf_add_csv(out, m->source_name ? m->source_name : "");
	strbuf_addch(out, ',');
	strbuf_add_number(out, m->line);
	strbuf_addch(out, ',');
	rs_csv_add_key(out, m);
}

static void write_row(const struct measurement *m, struct strbuf *out)
{
	struct measurement_stats st;
	const char *labels = labels_joined(&m->labels);
	size_t mean_at, mean_len;

	measurement_basic_stats(m, &st);
	rs_csv_add_id(out, m);
	strbuf_addch(out, ',');
	strbuf_add_number(out, (double)st.n);
	mean_at = out->len + 1;
	strbuf_add_csv_number(out, st.mean);
	mean_len = out->len - mean_at;
	strbuf_add_csv_number(out, st.n >= 2 ? st.stddev : NAN);
	add_min_max(out, &st, mean_at, mean_len);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, labels);
	/* RFC 4180 ends records with CRLF; storan writes LF, as every
	 * spreadsheet, pandas and csv module accept, and says so in docs. */
	strbuf_addch(out, '\n');
}

void rs_csv_write_rows(const struct result_set *rs, struct strbuf *out)
{
	/* rows of fio measurements with their labels are 200-300 bytes:
	 * one allocation instead of a dozen doublings */
	strbuf_grow(out, rs->n * 256);
	for (size_t i = 0; i < rs->n; i++)
		write_row(&rs->m[i], out);
}

void rs_csv_write_row(const struct result_set *rs, size_t i,
		      struct strbuf *out)
{
	write_row(&rs->m[i], out);
}

void rs_csv_write(const struct result_set *rs, struct strbuf *out)
{
	strbuf_adds(out, RS_CSV_HEADER "\n");
	rs_csv_write_rows(rs, out);
}

void rs_csv_write_drained(const struct result_set *rs, struct strbuf *out,
			  const struct strbuf_drain *drain)
{
	strbuf_adds(out, RS_CSV_HEADER "\n");
	for (size_t i = 0; i < rs->n; i++) {
		write_row(&rs->m[i], out);
		strbuf_drain_if_full(out, drain);
	}
}

/* The fields every row of one measurement's series repeats. */
static void series_prefix(const struct measurement *m, struct strbuf *sb)
{
	rs_csv_add_id(sb, m);
	strbuf_addch(sb, ',');
	strbuf_add_csv(sb, labels_joined(&m->labels));
	strbuf_add_csv_number(sb, m->series->interval);
}

void rs_csv_write_series(const struct result_set *rs, struct strbuf *out)
{
	rs_csv_write_series_drained(rs, out, NULL);
}

void rs_csv_write_series_drained(const struct result_set *rs,
				 struct strbuf *out,
				 const struct strbuf_drain *drain)
{
	struct strbuf prefix = STRBUF_INIT;

	strbuf_adds(out, RS_CSV_SERIES_HEADER "\n");
	for (size_t i = 0; i < rs->n; i++) {
		const struct series *s = rs->m[i].series;

		if (!s)
			continue;
		strbuf_reset(&prefix);
		series_prefix(&rs->m[i], &prefix);
		for (size_t k = 0; k < s->n; k++) {
			strbuf_add(out, prefix.buf, prefix.len);
			strbuf_add_csv_number(out, s->t[k]);
			strbuf_add_csv_number(out, s->v[k]);
			strbuf_addch(out, '\n');
			strbuf_drain_if_full(out, drain);
		}
	}
	strbuf_release(&prefix);
}
