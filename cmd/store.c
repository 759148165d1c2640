/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan store add|ls|rm: runs into and out of the history store
 * (store/store.h), an SQLite file or a PostgreSQL database.
 *
 * Thin: parse options, load the inputs, one store call, print.  Exit 0
 * done; 1 nothing done for a finding (the run is stored already, an input
 * could not be read in full); 2 trouble (usage, a store that cannot be
 * opened, no such run).
 */
#include "cmd.h"
#include "../analysis/format.h"
#include "../ingest/load.h"
#include "../core/xalloc.h"
#include "../store/store.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char store_usage[] =
	"usage: storan store add DB RESULT... [--run ID] [--time ISO8601]\n"
	"                        [--label k=v]...\n"
	"       storan store ls DB [--format text|csv|json|md]\n"
	"       storan store rm DB --run ID\n"
	"\n"
	"Keeps runs -- a result set and its identity: when, which commit,\n"
	"which host, anything labelled -- in a history store that\n"
	"'storan history', 'storan detect' and 'storan report DB' read.\n"
	"DB is an SQLite file (created by the first add), or a PostgreSQL\n"
	"database given as postgresql://[user@]host[:port]/db?... .\n"
	"\n"
	"add      stores the inputs (storan result sets, or any text\n"
	"         'storan ingest' reads) as one run, whole or not at all;\n"
	"         a run whose inputs have the hashes of a stored run's is\n"
	"         refused (exit 1), unless given a --run ID no run has (a\n"
	"         short output can repeat exactly on another night)\n"
	"      --run ID       the run's name (default: 12 digits of the\n"
	"                     inputs' hash)\n"
	"      --time T       when it ran, ISO 8601 (default: now), e.g.\n"
	"                     2026-05-01T02:00:00Z or 2026-05-01\n"
	"  -l, --label k=v    a label of the run (commit=SHA, host=ci3...);\n"
	"                     not part of any series' identity\n"
	"ls       lists the runs, oldest first\n"
	"  -f, --format F     text (default), csv, json or md\n"
	"rm       removes one run\n"
	"      --run ID       the run to remove\n"
	"\n"
	"'storan export DB --run ID' gives a run back as a result set.\n"
	"  -h, --help         show this help\n";

static int store_trouble(const struct strbuf *err)
{
	fprintf(stderr, "%s\n", strbuf_str(err));
	return EXIT_TROUBLE;
}

static int open_store(struct store *s, const char *db, enum store_mode mode)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (store_open(s, db, mode, &err))
		rc = store_trouble(&err);
	strbuf_release(&err);
	return rc;
}

/* Loads every input into rs; 0, or the exit code (nothing is added). */
static int load_run(const char *db, char **paths, int n,
		    struct result_set *rs)
{
	struct diag_list diags;
	enum load_status st;

	diag_list_init(&diags);
	st = load_inputs(paths, n, NULL, rs, &diags);
	diag_print(&diags, stderr);
	diag_list_release(&diags);
	if (st != LOAD_OK) {
		fprintf(stderr, "%s: run not added: an input could not be "
			"read in full\n", db);
		return (int)st;
	}
	if (!rs->n) {
		fprintf(stderr, "%s: run not added: the inputs hold no "
			"measurement\n", db);
		return EXIT_FINDINGS;
	}
	return 0;
}

/* The value of key on every source of rs, or NULL where they differ. */
static const char *source_identity(const struct result_set *rs,
				   const char *key)
{
	const char *v = NULL;

	for (size_t i = 0; i < rs->nsources; i++) {
		const char *w = labels_get(&rs->sources[i].labels, key);

		if (!w || (v && strcmp(v, w)))
			return NULL;
		v = w;
	}
	return v;
}

/*
 * A run exported from a store ('storan export DB --run ID') carries its
 * identity on its sources (store/store.h): its name, time and labels are
 * the defaults of --run, --time and --label, so that it goes into another
 * store as the same run, and into its own as a duplicate.
 */
static void restore_identity(const struct result_set *rs, const char **name,
			     struct strbuf *when, struct labels *labels)
{
	const char *t = source_identity(rs, STORE_SOURCE_RUN ".time");
	size_t skip = strlen(STORE_SOURCE_RUN ".");

	if (!*name)
		*name = source_identity(rs, STORE_SOURCE_RUN);
	if (!when->len && t && store_parse_time(t, when))
		strbuf_reset(when);
	if (!rs->nsources)
		return;
	for (size_t i = 0; i < rs->sources[0].labels.n; i++) {
		const char *k = rs->sources[0].labels.v[i].key, *v;

		if (strncmp(k, STORE_SOURCE_RUN ".", skip) ||
		    !strcmp(k + skip, "time") || labels_get(labels, k + skip))
			continue;
		v = source_identity(rs, k);
		if (v)
			labels_set(labels, k + skip, v);
	}
}

static int store_add(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, 't' },
		{ "label", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *db;
	struct strbuf when = STRBUF_INIT, err = STRBUF_INIT;
	struct labels labels;
	struct result_set rs;
	struct store s;
	struct store_run run;
	int c, rc = 0;

	labels_init(&labels);
	while (!rc && (c = getopt_long(argc, argv, "l:h", longopts,
				       NULL)) != -1) {
		switch (c) {
		case 'r':
			if (!*optarg)
				rc = usage_error("store", "--run wants a name");
			name = optarg;
			break;
		case 't':
			strbuf_reset(&when);
			if (store_parse_time(optarg, &when))
				rc = usage_error("store", "--time wants an ISO "
						 "8601 time (2026-05-01T02:00"
						 ":00Z), not '%s'", optarg);
			break;
		case 'l':
			if (parse_label_arg(optarg, &labels))
				rc = usage_error("store", "--label wants "
						 "KEY=VALUE, not '%s'", optarg);
			break;
		case 'h':
			print_usage(stdout, store_usage);
			rc = -1;
			break;
		default:
			rc = usage_error("store", "bad option");
		}
	}
	if (!rc && argc - optind < 2)
		rc = usage_error("store", "add wants DB and at least one "
				 "result set");
	if (rc) {
		labels_release(&labels);
		strbuf_release(&when);
		return rc < 0 ? EXIT_OK : rc;
	}
	db = argv[optind];
	result_set_init(&rs);
	rc = load_run(db, argv + optind + 1, argc - optind - 1, &rs);
	if (!rc)
		restore_identity(&rs, &name, &when, &labels);
	if (!rc)
		rc = open_store(&s, db, STORE_WRITE);
	if (!rc) {
		int st = store_add_run(&s, &rs, name, when.len ? when.buf :
				       NULL, &labels, &run, &err);

		if (st == STORE_OK)
			printf("%s: added run %s: %zu measurements, %s\n", db,
			       run.name, run.nmeasurements, run.time);
		else
			fprintf(stderr, "%s\n", strbuf_str(&err));
		rc = st == STORE_OK ? EXIT_OK : st == STORE_DUPLICATE ?
		     EXIT_FINDINGS : EXIT_TROUBLE;
		store_run_release(&run);
		store_close(&s);
	}
	result_set_release(&rs);
	labels_release(&labels);
	strbuf_release(&when);
	strbuf_release(&err);
	return rc;
}

static void runs_table(const struct store_run *runs, size_t n,
		       struct fmt_table *t)
{
	fmt_table_init(t, NULL);
	fmt_table_add_column(t, "run", "run", 0);
	fmt_table_add_column(t, "time", "time", 0);
	fmt_table_add_column(t, "measurements", "measurements", 1);
	fmt_table_add_column(t, "labels", "labels", 0);
	fmt_table_add_column(t, "added", "added", 0);
	fmt_table_add_column(t, "inputs_sha256", "inputs sha256", 0);
	for (size_t i = 0; i < n; i++) {
		size_t r = fmt_table_add_row(t);
		char *labels = labels_to_string(&runs[i].labels);
		char num[32], sha[16];

		snprintf(num, sizeof(num), "%zu", runs[i].nmeasurements);
		snprintf(sha, sizeof(sha), "%.12s", runs[i].inputs_sha256);
		fmt_table_set_cell(t, r, 0, runs[i].name, NULL);
		fmt_table_set_cell(t, r, 1, runs[i].time, NULL);
		fmt_table_set_number(t, r, 2, (double)runs[i].nmeasurements,
				     num);
		fmt_table_set_cell(t, r, 3, labels, NULL);
		fmt_table_set_cell(t, r, 4, runs[i].added, NULL);
		fmt_table_set_cell(t, r, 5, sha, runs[i].inputs_sha256);
		free(labels);
	}
}

static int store_ls(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum fmt_kind fmt = FMT_TEXT;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct store_run *runs = NULL;
	struct fmt_table t;
	struct store s;
	size_t n = 0;
	int c, rc;

	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (fmt_parse(optarg, &fmt) || fmt == FMT_HTML)
				return usage_error("store", "unknown format "
						   "'%s' (text, csv, json, md)",
						   optarg);
			break;
		case 'h':
			print_usage(stdout, store_usage);
			return EXIT_OK;
		default:
			return usage_error("store", "bad option");
		}
	}
	if (argc - optind != 1)
		return usage_error("store", "ls wants one DB");
	rc = open_store(&s, argv[optind], STORE_READ);
	if (rc)
		return rc;
	if (store_list_runs(&s, &runs, &n, &err)) {
		rc = store_trouble(&err);
	} else {
		runs_table(runs, n, &t);
		fmt_render(&t, fmt, 0, &out);
		fputs(strbuf_str(&out), stdout);
		fmt_table_release(&t);
	}
	store_runs_free(runs, n);
	store_close(&s);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}

static int store_rm(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL;
	struct strbuf err = STRBUF_INIT;
	struct store s;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			name = optarg;
			break;
		case 'h':
			print_usage(stdout, store_usage);
			return EXIT_OK;
		default:
			return usage_error("store", "bad option");
		}
	}
	if (argc - optind != 1)
		return usage_error("store", "rm wants one DB");
	if (!name)
		return usage_error("store", "rm wants --run ID");
	rc = open_store(&s, argv[optind], STORE_READ);
	if (rc)
		return rc;
	if (store_remove_run(&s, name, &err))
		rc = store_trouble(&err);
	else
		printf("%s: removed run %s\n", argv[optind], name);
	store_close(&s);
	strbuf_release(&err);
	return rc;
}

int cmd_store(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} subs[] = {
		{ "add", store_add },
		{ "ls", store_ls },
		{ "rm", store_rm },
	};

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_usage(argc < 2 ? stderr : stdout, store_usage);
		return argc < 2 ? EXIT_TROUBLE : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(*subs); i++)
		if (!strcmp(argv[1], subs[i].name)) {
			optind = 1;
			return subs[i].fn(argc - 1, argv + 1);
		}
	return usage_error("store", "'%s' is not add, ls or rm", argv[1]);
}
