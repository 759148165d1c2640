/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The flat CSV export, a contract other tools rely on:
 *
 *   source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels
 *
 * One row per measurement; source is the input's base name (or grep
 * prefix); labels are "k=v;k=v" sorted by key; RFC 4180 quoting; numbers
 * with 15 significant digits; stddev empty when n < 2.
 */
#ifndef STORAN_RS_CSV_H
#define STORAN_RS_CSV_H

#include "resultset.h"
#include "strbuf.h"

#define RS_CSV_HEADER "source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels"

void rs_csv_write(const struct result_set *rs, struct strbuf *out);
/* The same, its text passed to drain as it is made (a million
 * measurements' CSV is 300 MB). */
void rs_csv_write_drained(const struct result_set *rs, struct strbuf *out,
			  const struct strbuf_drain *drain);
/* The rows alone, without the header (for writers that stream). */
void rs_csv_write_rows(const struct result_set *rs, struct strbuf *out);
/* A measurement's "tool,op,metric,unit" fields, quoted where needed. */
void rs_csv_add_key(struct strbuf *out, const struct measurement *m);
/* Its "source,line,tool,op,metric,unit": the fields every table that
 * names a measurement starts with (the export, --series, --steady). */
void rs_csv_add_id(struct strbuf *out, const struct measurement *m);
/* The row of measurement i alone. */
void rs_csv_write_row(const struct result_set *rs, size_t i,
		      struct strbuf *out);

/*
 * The samples over time of every measurement that has them (storan
 * export --series), a long table, one row per point:
 *
 *   source,line,tool,op,metric,unit,labels,interval,t,value
 *
 * interval and t in seconds (t from the start of the job), value in unit;
 * the first seven fields as in the flat export.
 */
#define RS_CSV_SERIES_HEADER \
	"source,line,tool,op,metric,unit,labels,interval,t,value"
void rs_csv_write_series(const struct result_set *rs, struct strbuf *out);
/* The same, its text passed to drain as it is made (a 1 GB hist log's
 * table is 190 MB). */
void rs_csv_write_series_drained(const struct result_set *rs,
				 struct strbuf *out,
				 const struct strbuf_drain *drain);

#endif
