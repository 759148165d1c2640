/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan export: a result set -> the flat CSV (or JSON again); with
 * --run, a run of a history store (store/store.h) back to a result set.
 */
#include "cmd.h"
#include "options.h"
#include "../analysis/steady.h"
#include "../analysis/steady-table.h"
#include "../core/atomic.h"
#include "../ingest/load.h"
#include "../core/rs-bin.h"
#include "../core/rs-csv.h"
#include "../core/rs-json.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../store/store.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

static const char export_usage[] =
	"usage: storan export [--format csv|json|binary] [-o FILE] INPUT...\n"
	"       storan export --series [-o FILE] INPUT...\n"
	"       storan export --steady[=RULE] [-o FILE] INPUT...\n"
	"       storan export DB --run ID [--format csv|json|binary] [-o FILE]\n"
	"\n"
	"Writes result sets (or any input 'storan ingest' reads) as the flat\n"
	"CSV export, one row per measurement:\n"
	"  source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels\n"
	"\n"
	"--format json writes the storan/1 result set, --format binary the\n"
	"same in storan/1 binary: a quarter of the bytes, read three times\n"
	"as fast by every command (docs/result-format.md).  Either converts\n"
	"the other: storan export --format json big.srb -o big.json.\n"
	"\n"
	"With --series, writes the samples over time instead (fio's bw, iops,\n"
	"lat and clat_hist logs), a long table, one row per point:\n"
	"  source,line,tool,op,metric,unit,labels,interval,t,value\n"
	"interval and t in seconds (t from the start of the job), value in\n"
	"unit; a measurement without samples over time has no row.\n"
	"\n"
	"With --steady, writes whether and when each of those series became\n"
	"steady by fio's criteria (RULE as fio's ss=, with ss_dur as dur=:\n"
	"iops:1%, bw_slope:0.1%,dur=60, deviation:5%,ramp=10; default\n"
	"" STEADY_DEFAULT "), one row per series:\n"
	"  " STEADY_CSV_HEADER "\n"
	"verdict steady, never or too-short (fewer samples than a window);\n"
	"from (s), mean and spread_pct of the part from the first steady\n"
	"window on; words: \"steady from 212 s, 41.2 K IOPS \u00b1 2%\".\n"
	"\n"
	"With --run, writes run ID of the history store DB (an SQLite file or\n"
	"postgresql://...) as it was added with 'storan store add'.\n"
	"\n"
	"  -f, --format FMT   csv (default), json or binary\n"
	"      --run ID       the run of the store DB to export\n"
	"      --series       the samples over time, as a long CSV table\n"
	"      --steady[=RULE]  the steady-state verdict of each series\n"
	"  -o, --output FILE  write to FILE (whole or not at all)\n"
	"  -h, --help         show this help\n";

/* The run of a store, as a result set; its trouble said on stderr. */
static enum load_status load_run(const char *db, const char *run,
				 struct result_set *rs)
{
	struct strbuf err = STRBUF_INIT;
	struct store s;
	int rc = store_open(&s, db, STORE_READ, &err);

	if (!rc) {
		rc = store_export_run(&s, run, rs, &err);
		store_close(&s);
	}
	if (rc)
		fprintf(stderr, "%s\n", strbuf_str(&err));
	strbuf_release(&err);
	return rc ? LOAD_TROUBLE : LOAD_OK;
}

enum export_kind { EXPORT_CSV, EXPORT_JSON, EXPORT_BINARY, EXPORT_SERIES };

/*
 * The export written as it is made, whole or not at all: a 1 GB hist
 * log's series is 190 MB of CSV, a million measurements 300 MB (held
 * whole, either more than doubled the peak memory of the export).  0, or
 * -1 after saying what failed.
 */
static int write_drained(const char *path, const struct result_set *rs,
			 enum export_kind kind)
{
	struct atomic_file af;
	struct strbuf_drain drain = { atomic_file_drain, &af };
	struct strbuf sb = STRBUF_INIT;

	if (atomic_file_open(&af, path))
		return -1;
	if (kind == EXPORT_SERIES)
		rs_csv_write_series_drained(rs, &sb, &drain);
	else if (kind == EXPORT_CSV)
		rs_csv_write_drained(rs, &sb, &drain);
	else if (kind == EXPORT_BINARY)
		rs_bin_write(rs, &sb, &drain);
	else
		rs_json_write_drained(rs, &sb, &drain);
	atomic_file_drain(&sb, &af);
	strbuf_release(&sb);
	return atomic_file_commit(&af);
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "run", required_argument, NULL, 'r' },
		{ "series", no_argument, NULL, 's' },
		{ "steady", optional_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = "-", *run = NULL, *steady = NULL;
	enum export_kind kind = EXPORT_CSV;
	int series = 0, c, rc;
	struct result_set rs;
	struct diag_list diags;
	struct strbuf sb = STRBUF_INIT;
	struct steady_rule rule;
	enum load_status st;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "csv"))
				kind = EXPORT_CSV;
			else if (!strcmp(optarg, "json"))
				kind = EXPORT_JSON;
			else if (!strcmp(optarg, "binary"))
				kind = EXPORT_BINARY;
			else
				return usage_error("export", "unknown format "
						   "'%s' (csv, json or binary)",
						   optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'r':
			run = optarg;
			break;
		case 's':
			series = 1;
			break;
		case 'S':
			steady = optarg ? optarg : STEADY_DEFAULT;
			if (steady_parse(steady, &rule, &sb)) {
				rc = usage_error("export", "%s", sb.buf);
				strbuf_release(&sb);
				return rc;
			}
			break;
		case 'h':
			print_usage(stdout, export_usage);
			return EXIT_OK;
		default:
			return option_error("export", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return usage_error("export", "no input files");
	if (series && steady)
		return usage_error("export", "--series or --steady, not both");
	if ((series || steady) && kind != EXPORT_CSV)
		return usage_error("export", "--series and --steady write "
				   "CSV (the JSON has the series already)");
	if (kind == EXPORT_BINARY && (!out || !strcmp(out, "-")) &&
	    isatty(STDOUT_FILENO))
		return usage_error("export", "binary is not for a terminal: "
				   "give -o FILE, or redirect it");
	if (output_path_check(out ? out : "-"))
		return EXIT_TROUBLE;
	if (run && argc - optind != 1)
		return usage_error("export", "--run wants one DB, not %d "
				   "inputs", argc - optind);
	result_set_init(&rs);
	diag_list_init(&diags);
	if (run)
		st = load_run(argv[optind], run, &rs);
	else
		st = load_inputs(argv + optind, argc - optind, NULL, &rs,
				 &diags);
	if (run && st == LOAD_TROUBLE) {
		result_set_release(&rs);
		diag_list_release(&diags);
		return EXIT_TROUBLE;
	}
	diag_print(&diags, stderr);
	if (steady)		/* a row a series: small */
		steady_table_csv(&rs, &rule, steady, &sb);
	if (st == LOAD_TROUBLE && out && strcmp(out, "-"))	/* see ingest */
		fprintf(stderr, "storan export: %s not written: an input could "
			"not be read\n", out);
	else if (steady ? write_file_atomic(out ? out : "-", sb.buf, sb.len) :
		 write_drained(out ? out : "-", &rs, series ? EXPORT_SERIES :
			       kind))
		st = LOAD_TROUBLE;
	rc = (int)st;
	if (!FREE_BEFORE_EXIT)
		return rc;	/* (storan exits now) */
	strbuf_release(&sb);
	result_set_release(&rs);
	diag_list_release(&diags);
	return rc;
}
