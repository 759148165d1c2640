/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The shared part of the fuzz targets; see fuzz-common.h.  Each target is
 * one file under tests/fuzz/ linked with this one and libstoran.a (the
 * Makefile's `make fuzz`); docs/fuzzing.md says how to run them and how a
 * finding becomes a fixture.
 */
#include "fuzz-common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/input.h"
#include "core/json-scan.h"
#include "core/resultset.h"
#include "core/rs-csv.h"
#include "core/rs-json.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "parsers/parser.h"

/* FUZZ_CSV_ROUND_TRIP=1 in the environment: see fuzz-common.h. */
static int csv_round_trip;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *env = getenv("FUZZ_CSV_ROUND_TRIP");

	(void)argc;
	(void)argv;
	csv_round_trip = env && !strcmp(env, "1");
	rs_json_init_threads();	/* as main() does */
	return 0;
}

char *fuzz_copy(const uint8_t *data, size_t size)
{
	char *copy = xmalloc(size + 1);

	if (size)
		memcpy(copy, data, size);
	copy[size] = '\0';
	return copy;
}

const struct parser *fuzz_parser(const char *name)
{
	for (size_t i = 0; parsers[i]; i++)
		if (!strcmp(parsers[i]->name, name))
			return parsers[i];
	BUG("no parser named '%s'", name);
}

/* The diagnostics are printed as storan prints them (format strings and
 * their arguments are part of what is tested), to nowhere. */
static void print_diags(const struct diag_list *diags)
{
	static FILE *devnull;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (devnull)
		diag_print(diags, devnull);
}

static void check_values(const struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];
		const struct summary *sum;

		for (size_t v = 0; v < m->n; v++)
			if (!isfinite(m->values[v]))
				BUG("%s:%u: %s %s %s: value %g", m->source_name,
				    m->line, m->tool, m->op, m->metric,
				    m->values[v]);
		sum = measurement_summary(m);
		if (sum->present && (!isfinite(sum->mean) || !isfinite(sum->n)))
			BUG("%s:%u: %s %s %s: summary mean %g n %g",
			    m->source_name, m->line, m->tool, m->op, m->metric,
			    sum->mean, sum->n);
	}
}

static int utf8(const char *s)
{
	return !s || jscan_utf8_valid(s, strlen(s));
}

static int all_utf8(const struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];

		if (!utf8(m->tool) || !utf8(m->op) || !utf8(m->metric) ||
		    !utf8(m->unit) || !utf8(m->source_name))
			return 0;
		for (size_t k = 0; k < m->labels.n; k++)
			if (!utf8(m->labels.v[k].key) ||
			    !utf8(m->labels.v[k].value))
				return 0;
	}
	return 1;
}

/*
 * `storan ingest -o x.json` then `storan export x.json --format csv`
 * gives what `storan ingest --format csv` gives.  Not for text that is
 * not UTF-8: the JSON writer drops such a member, as jansson does
 * (core/rs-json.c), so a label read from a Latin-1 line is lost there
 * and kept in CSV -- known, and not the fuzzer's to stop at.
 */
static void check_json_round_trip(const struct result_set *rs,
				  const struct strbuf *csv)
{
	struct strbuf json = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf again = STRBUF_INIT;
	struct result_set back;

	if (!all_utf8(rs))
		return;
	result_set_init(&back);
	rs_json_write(rs, &json);
	if (rs_json_read("fuzz.json", strbuf_str(&json), json.len, &back,
			 &err))
		BUG("storan JSON written is not read back: %s\n%s",
		    strbuf_str(&err), strbuf_str(&json));
	rs_csv_write(&back, &again);
	if (strcmp(strbuf_str(csv), strbuf_str(&again)))
		BUG("CSV export differs after a JSON round trip:\n%s\n--- "
		    "after ---\n%s", strbuf_str(csv), strbuf_str(&again));
	result_set_release(&back);
	strbuf_release(&json);
	strbuf_release(&err);
	strbuf_release(&again);
}

/*
 * The CSV export read again by the CSV import exports the same CSV
 * (csv-import.c).  The CSV parser alone: text in a label can look like
 * another tool's output ("write: IOPS=" in a command) and that parser
 * then says so about the export -- a known limit, not this promise.
 */
static void check_csv_round_trip(const struct strbuf *csv)
{
	static const struct parser *csv_only[2];
	struct strbuf again = STRBUF_INIT;
	struct result_set back;
	struct diag_list diags;
	struct input in;
	const uint8_t *text = (const uint8_t *)strbuf_str(csv);

	result_set_init(&back);
	diag_list_init(&diags);
	input_init_bare(&in, "fuzz.csv", fuzz_copy(text, csv->len), csv->len);
	input_finish(&in);
	if (!csv_only[0])
		csv_only[0] = fuzz_parser("csv");
	if (ingest_input_with(&in, csv_only, NULL, &back, &diags)) {
		struct strbuf msg = STRBUF_INIT;

		for (size_t i = 0; i < diags.n; i++)
			strbuf_addf(&msg, "%s:%u: %s\n",
				    diags.v[i].file ? diags.v[i].file : "",
				    diags.v[i].line, diags.v[i].msg);
		BUG("the CSV export is not read back:\n%s%s",
		    strbuf_str(&msg), strbuf_str(csv));
	}
	rs_csv_write(&back, &again);
	if (strcmp(strbuf_str(csv), strbuf_str(&again)))
		BUG("CSV export differs after a CSV round trip:\n%s\n--- "
		    "after ---\n%s", strbuf_str(csv), strbuf_str(&again));
	input_release(&in);
	result_set_release(&back);
	diag_list_release(&diags);
	strbuf_release(&again);
}

void fuzz_check_result(const struct result_set *rs)
{
	struct strbuf csv = STRBUF_INIT;

	check_values(rs);
	if (!rs->n)
		return;
	rs_csv_write(rs, &csv);
	check_json_round_trip(rs, &csv);
	if (csv_round_trip)
		check_csv_round_trip(&csv);
	strbuf_release(&csv);
}

void fuzz_ingest(const char *name, const uint8_t *data, size_t size,
		 const struct parser *const *list)
{
	struct result_set rs;
	struct diag_list diags;
	struct input in;
	int whole = 0;

	result_set_init(&rs);
	diag_list_init(&diags);
	/* as load_input() reads a file: uncut when a parser may read it
	 * whole (a lone fio JSON document) */
	input_init_bare(&in, name, fuzz_copy(data, size), size);
	in.runs_output_tool = parser_output_after_command;
	in.prompt_len = shell_prompt_len;
	if (!list)
		whole = ingest_may_read_whole(&in);
	for (size_t i = 0; list && list[i]; i++)
		whole |= list[i]->whole_start && list[i]->whole_start(&in);
	if (whole)
		input_finish_uncut(&in);
	else
		input_finish(&in);
	if (list)
		ingest_input_with(&in, list, NULL, &rs, &diags);
	else
		ingest_input(&in, NULL, &rs, &diags);
	print_diags(&diags);
	fuzz_check_result(&rs);
	input_release(&in);
	result_set_release(&rs);
	diag_list_release(&diags);
}
