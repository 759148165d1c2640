/* The CSV export; see rs-csv.h for the contract. */
#include "rs-csv.h"

#include <math.h>
#include <stdlib.h>

static void add_number_field(struct strbuf *sb, double v)
{
	strbuf_addch(sb, ',');
	if (!isnan(v))
		strbuf_add_number(sb, v);
}

static void write_row(const struct measurement *m, struct strbuf *out)
{
	struct measurement_stats st;
	char *labels = labels_to_string(&m->labels);

	measurement_basic_stats(m, &st);
	strbuf_add_csv(out, m->source_name ? m->source_name : "");
	strbuf_addf(out, ",%u,", m->line);
	strbuf_add_csv(out, m->tool);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, m->op);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, m->metric);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, m->unit);
	strbuf_addf(out, ",%zu", st.n);
	add_number_field(out, st.mean);
	add_number_field(out, st.n >= 2 ? st.stddev : NAN);
	add_number_field(out, st.min);
	add_number_field(out, st.max);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, labels);
	/* RFC 4180 ends records with CRLF; storan writes LF, as every
	 * spreadsheet, pandas and csv module accept, and says so in docs. */
	strbuf_addch(out, '\n');
	free(labels);
}

void rs_csv_write(const struct result_set *rs, struct strbuf *out)
{
	strbuf_adds(out, RS_CSV_HEADER "\n");
	for (size_t i = 0; i < rs->n; i++)
		write_row(&rs->m[i], out);
}
