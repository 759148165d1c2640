/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan history: a store's runs as time series (analysis/history.h),
 * one per series, oldest run first; one row per series and run.
 */
#include "cmd.h"
#include "../analysis/format.h"
#include "../analysis/history.h"
#include "../core/human.h"
#include "../core/xalloc.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char history_usage[] =
	"usage: storan history DB [--metric M] [--where k=v,...]\n"
	"                         [--format text|csv|json|md]\n"
	"\n"
	"Prints the runs of the store DB (an SQLite file or postgresql://...)\n"
	"as time series: one per series -- tool, op, metric and the labels of\n"
	"the conditions (the run's own labels, commit, time, command and file\n"
	"are not conditions) -- one row per run, oldest first.  Measurements\n"
	"of one run in one series are repetitions: n, mean, stddev, min, max.\n"
	"\n"
	"  -m, --metric M     only metric M (bw, iops, clat.p99...)\n"
	"  -w, --where SPEC   only measurements with k=v (k!=v), ','-sep.\n"
	"  -f, --format F     text (default), csv, json or md\n"
	"  -h, --help         show this help\n";

static void add_number(struct fmt_table *t, size_t r, size_t c, double v,
		       const struct display_unit *u)
{
	char buf[64];

	if (isnan(v))
		return;
	fmt_table_set_number(t, r, c, v, human_format(v, u, buf, sizeof(buf)));
}

static void history_table(const struct history *h, struct fmt_table *t)
{
	static const char *const cols[] = { "tool", "op", "metric", "unit",
					    "labels", "run", "time", "n",
					    "mean", "stddev", "min", "max" };

	fmt_table_init(t, NULL);
	for (size_t c = 0; c < sizeof(cols) / sizeof(*cols); c++)
		fmt_table_add_column(t, cols[c], cols[c], c >= 7);
	for (size_t s = 0; s < h->n; s++) {
		const struct history_series *hs = &h->s[s];
		struct display_unit u;
		char *labels = labels_to_string(&hs->labels);
		double typical = 0;

		for (size_t i = 0; i < hs->n; i++)
			if (fabs(hs->p[i].mean) > typical)
				typical = fabs(hs->p[i].mean);
		display_unit_auto(hs->unit, typical, 0, &u);
		for (size_t i = 0; i < hs->n; i++) {
			const struct history_point *p = &hs->p[i];
			const struct store_run *run = &h->data->runs[p->run];
			size_t r = fmt_table_add_row(t);
			char n[32];

			snprintf(n, sizeof(n), "%zu", p->n);
			fmt_table_set_cell(t, r, 0, hs->tool, NULL);
			fmt_table_set_cell(t, r, 1, hs->op, NULL);
			fmt_table_set_cell(t, r, 2, hs->metric, NULL);
			fmt_table_set_cell(t, r, 3, u.name, hs->unit);
			fmt_table_set_cell(t, r, 4, labels, NULL);
			fmt_table_set_cell(t, r, 5, run->name, NULL);
			fmt_table_set_cell(t, r, 6, run->time, NULL);
			fmt_table_set_number(t, r, 7, (double)p->n, n);
			add_number(t, r, 8, p->mean, &u);
			add_number(t, r, 9, p->stddev, &u);
			add_number(t, r, 10, p->min, &u);
			add_number(t, r, 11, p->max, &u);
		}
		free(labels);
	}
}

/* Shared by history, detect and report DB: the store's series. */
int history_load(const char *db, const char *metric, const char *where,
		 struct store_data *d, struct history *h)
{
	struct strbuf err = STRBUF_INIT;
	struct filter f;
	struct store s;
	int rc = EXIT_OK;

	filter_init(&f);
	if (where && filter_parse(&f, where)) {
		filter_release(&f);
		return usage_error("history", "--where wants k=v,..., not "
				   "'%s'", where);
	}
	if (store_open(&s, db, STORE_READ, &err)) {
		rc = EXIT_TROUBLE;
	} else {
		if (store_load(&s, metric, where ? history_key_selected : NULL,
			       &f, d, &err))
			rc = EXIT_TROUBLE;
		store_close(&s);
	}
	if (rc)
		fprintf(stderr, "%s\n", strbuf_str(&err));
	else
		history_build(h, d, where ? &f : NULL);
	filter_release(&f);
	strbuf_release(&err);
	return rc;
}

int cmd_history(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "where", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *metric = NULL, *where = NULL;
	enum fmt_kind fmt = FMT_TEXT;
	struct strbuf out = STRBUF_INIT;
	struct store_data d;
	struct history h;
	struct fmt_table t;
	int c, rc;

	while ((c = getopt_long(argc, argv, "m:w:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			metric = optarg;
			break;
		case 'w':
			where = optarg;
			break;
		case 'f':
			if (fmt_parse(optarg, &fmt) || fmt == FMT_HTML)
				return usage_error("history", "unknown format "
						   "'%s' (text, csv, json, md)",
						   optarg);
			break;
		case 'h':
			print_usage(stdout, history_usage);
			return EXIT_OK;
		default:
			return usage_error("history", "bad option");
		}
	}
	if (argc - optind != 1)
		return usage_error("history", "wants one DB");
	rc = history_load(argv[optind], metric, where, &d, &h);
	if (rc)
		return rc;
	history_table(&h, &t);
	if (!h.n)
		fmt_table_add_note(&t, "%s: no series%s%s", argv[optind],
				   metric || where ? " matches" : "",
				   metric || where ? " the selection" : "");
	fmt_render(&t, fmt, 0, &out);
	fputs(strbuf_str(&out), stdout);
	fmt_table_release(&t);
	strbuf_release(&out);
	history_release(&h);
	store_data_release(&d);
	return EXIT_OK;
}
