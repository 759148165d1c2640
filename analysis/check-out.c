/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan check's findings as text, CSV (CHECK_CSV_HEADER) and JSON
 * (storan-check/1); the checks themselves are check.c's.
 */
#include "check.h"
#include "format.h"
#include "../core/json-out.h"
#include "../core/rs-csv.h"

#include <jansson.h>

void check_write_text(const struct check_list *l, struct strbuf *out)
{
	for (size_t i = 0; i < l->n; i++) {
		/* measured by storan run: no input line to point at */
		if (l->v[i].line)
			strbuf_addf(out, "%s:%u: ", l->v[i].source,
				    l->v[i].line);
		else
			strbuf_addf(out, "%s: ", l->v[i].source);
		strbuf_addf(out, "%s: %s: %s\n",
			    check_severity_name(l->v[i].severity),
			    l->v[i].code, l->v[i].message);
	}
}

void check_write_csv(const struct check_list *l, const struct result_set *rs,
		     struct strbuf *out)
{
	strbuf_adds(out, CHECK_CSV_HEADER "\n");
	for (size_t i = 0; i < l->n; i++) {
		const struct check_finding *f = &l->v[i];
		const struct measurement *m = &rs->m[f->measurements[0]];

		strbuf_add_csv(out, f->source);
		strbuf_addf(out, ",%u,%s,%s,", f->line,
			    check_severity_name(f->severity), f->code);
		strbuf_add_csv(out, f->message);
		strbuf_addch(out, ',');
		rs_csv_add_key(out, m);
		strbuf_add_csv_number(out, f->value);
		strbuf_add_csv_number(out, f->limit);
		strbuf_addch(out, '\n');
	}
}

static json_t *finding_to_json(const struct check_finding *f,
			       const struct result_set *rs)
{
	const struct measurement *m = &rs->m[f->measurements[0]];
	json_t *o = json_object(), *ms = json_array();

	fmt_json_finding(o, f->source, f->line,
			 check_severity_name(f->severity), f->code,
			 f->message);
	json_object_set_new(o, "tool", json_string(m->tool));
	json_object_set_new(o, "op", json_string(m->op));
	json_object_set_new(o, "metric", json_string(m->metric));
	json_object_set_new(o, "unit", json_string(m->unit));
	json_object_set_new(o, "value", json_number_or_null(f->value));
	json_object_set_new(o, "limit", json_number_or_null(f->limit));
	for (size_t i = 0; i < f->nmeasurements; i++)
		json_array_append_new(ms, json_integer(
					      (json_int_t)f->measurements[i]));
	json_object_set_new(o, "measurements", ms);
	return o;
}

void check_write_json(const struct check_list *l,
		      const struct result_set *rs, struct strbuf *out)
{
	json_t *doc = json_object(), *arr = json_array();

	json_object_set_new(doc, "schema", json_string("storan-check/1"));
	json_object_set_new(doc, "warnings",
			    json_integer((json_int_t)check_count(l,
							 CHECK_WARNING)));
	json_object_set_new(doc, "infos",
			    json_integer((json_int_t)check_count(l,
							 CHECK_INFO)));
	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(arr, finding_to_json(&l->v[i], rs));
	json_object_set_new(doc, "findings", arr);
	json_dump_to(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER, 1, out);
}
