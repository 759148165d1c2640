/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan report DB -o DIR: the trend page of a history store
 * (plot/trend.h), reached from cmd/report.c when its one input is a
 * store.  Loads the series, finds their change points as `storan detect`
 * does, and writes the report as every report is written (report_write:
 * a temporary directory renamed into place).
 */
#include "cmd.h"
#include "../analysis/compare.h"
#include "../analysis/history.h"
#include "../core/xalloc.h"
#include "../plot/trend.h"
#include "../store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int report_db_wanted(const char *input)
{
	char magic[16];
	FILE *fp;
	int is = 0;

	if (store_is_postgres(input))
		return 1;
	fp = fopen(input, "rb");
	if (!fp)
		return 0;
	is = fread(magic, 1, sizeof(magic), fp) == sizeof(magic) &&
	     !memcmp(magic, "SQLite format 3", 16);
	fclose(fp);
	return is;
}

static int default_metric(const struct history_series *s)
{
	return compare_default_metric(s->metric);
}

int report_db(const char *db, const char *dir, const char *title)
{
	struct detect_options o;
	struct store_data d;
	struct history h;
	struct history_change *c = NULL;
	struct result_set rs;
	struct fmt_table lead;
	struct report r;
	struct chart_input *inputs;
	char *paths[1] = { (char *)(uintptr_t)db };
	size_t nc;
	int rc = history_load(db, NULL, NULL, &d, &h);

	if (rc)
		return rc;
	history_keep(&h, default_metric);
	detect_options_init(&o);
	nc = history_detect(&h, &o, &c);
	result_set_init(&rs);
	report_init(&r);
	fmt_table_init(&lead, NULL);
	inputs = chart_inputs(paths, 1);
	r.command_line = storan_command_line;
	r.inputs = inputs;
	r.ninputs = 1;
	if (trend_plan(&r, &h, c, nc, db, title, &rs, &lead)) {
		fprintf(stderr, "%s: nothing to chart: no series in the "
			"store\n", db);
		rc = EXIT_TROUBLE;
	} else {
		rc = report_write(&r, dir) ? EXIT_TROUBLE : EXIT_OK;
	}
	chart_render_done();
	chart_inputs_free(inputs, 1);
	report_release(&r);
	fmt_table_release(&lead);
	result_set_release(&rs);
	free(c);
	history_release(&h);
	store_data_release(&d);
	return rc;
}
