/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan ingest: text that benchmarks printed -> a result set (JSON or the
 * CSV export).  Every input is tried; problems are reported as FILE:LINE.
 */
#include "cmd.h"
#include "options.h"
#include "../ingest/ingest.h"
#include "../ingest/load.h"
#include "../core/cpus.h"
#include "../core/numscan.h"
#include "../core/rs-sink.h"
#include "../core/strbuf.h"
#include "../parsers/parser.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char ingest_usage[] =
	"usage: storan ingest [--label K=V]... [--name-pattern PATTERN]\n"
	"                     [--format json|csv|binary] [-o FILE] FILE...\n"
	"\n"
	"Reads what fio, iozone, hdparm, dd, blockdev-perftest and time\n"
	"printed, wherever it sits in FILE (logs, shell transcripts, quoted\n"
	"e-mail, grep output), and writes a storan result set.  '-' reads\n"
	"standard input.  A CSV in the export format (storan export) is read\n"
	"back, so figures typed by hand can join the rest.  Headings above an\n"
	"output become label 'section', a line naming it label 'command'.\n"
	"\n"
	"  -l, --label K=V         add label K=V to every measurement\n"
	"  -n, --name-pattern PAT  labels from file names: '{host}.{test}.txt'\n"
	"                          ({_} skips a part)\n"
	"      --fio-version V     the fio that wrote the fio logs read (2.17,\n"
	"                          3.33): their latency unit, usec before 3.0,\n"
	"                          nsec since (default: what a fio output\n"
	"                          beside the logs says, else 3.x, with a note)\n"
	"  -f, --format FMT        json (default), csv or binary (storan/1\n"
	"                          binary: a quarter of JSON's bytes, read\n"
	"                          three times faster; not to a terminal)\n"
	"  -o, --output FILE       write to FILE (whole or not at all)\n"
	"  -j, --jobs N            read N inputs at a time (default: one per\n"
	"                          CPU when there are 4 inputs or more)\n"
	"  -h, --help              show this help\n";

static const char ingest_usage_end[] =
	"\n"
	"Exit status: 0 all inputs read, 1 some input gave no result or an\n"
	"error (FILE:LINE on stderr), 2 usage error or unreadable input.\n";

/* The usage, with the formats read as the parser table lists them. */
static void print_ingest_usage(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, ingest_usage);
	strbuf_adds(&sb, "\nFormats, tried in this order on every input:\n");
	parsers_describe(&sb);
	strbuf_adds(&sb, ingest_usage_end);
	print_usage(stdout, sb.buf);
	strbuf_release(&sb);
}

/* Each input, in order: its messages, then its measurements. */
static void deliver(struct result_set *rs, struct diag_list *diags,
		    const struct strbuf *text, void *arg)
{
	diag_print(diags, stderr);
	rs_sink_add(arg, rs, text);
}

static int parse_jobs(const char *arg, unsigned *threads)
{
	const char *p = arg;
	uint64_t n;

	if (scan_u64(&p, &n) || *p || n < 1 || n > 64)
		return -1;
	*threads = (unsigned)n;
	return 0;
}

/* "3", "3.33", "2.17.1", "fio-3.33", "fio-3.35-115-g6795". */
static int check_fio_version(const char *arg)
{
	const char *p = arg + (strncmp(arg, "fio-", 4) ? 0 : 4);

	if (*p < '1' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p && *p != '.' && *p != '-' ? -1 : 0;
}

static int parse_format(const char *arg, enum rs_format *fmt)
{
	if (!strcmp(arg, "json"))
		*fmt = RS_FORMAT_JSON;
	else if (!strcmp(arg, "csv"))
		*fmt = RS_FORMAT_CSV;
	else if (!strcmp(arg, "binary"))
		*fmt = RS_FORMAT_BINARY;
	else
		return -1;
	return 0;
}

int cmd_ingest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "name-pattern", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "fio-version", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ingest_options opt;
	enum rs_format fmt = RS_FORMAT_JSON;
	const char *out = NULL;
	struct rs_sink sink;
	enum load_status st;
	unsigned threads = 0;
	int c, rc;

	memset(&opt, 0, sizeof(opt));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:n:f:o:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (parse_label_arg(optarg, &opt.labels))
				return usage_error("ingest", "--label wants "
						   "KEY=VALUE, not '%s'", optarg);
			break;
		case 'n':
			opt.name_pattern = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &fmt))
				return usage_error("ingest", "unknown format "
						   "'%s' (json, csv or binary)",
						   optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'j':
			if (parse_jobs(optarg, &threads))
				return usage_error("ingest", "--jobs wants a "
						   "number from 1 to 64, not "
						   "'%s'", optarg);
			break;
		case 'F':
			if (check_fio_version(optarg))
				return usage_error("ingest", "--fio-version "
						   "wants a version like 3.33 "
						   "or fio-2.17, not '%s'",
						   optarg);
			opt.fio_version = optarg;
			opt.fio_version_from = "--fio-version";
			break;
		case 'h':
			print_ingest_usage();
			return EXIT_OK;
		default:
			return option_error("ingest", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return usage_error("ingest", "no input files");
	if (fmt == RS_FORMAT_BINARY && (!out || !strcmp(out, "-")) &&
	    isatty(STDOUT_FILENO))
		return usage_error("ingest", "binary is not for a terminal: "
				   "give -o FILE, or redirect it");
	/* the CSV export has no column for them: 2.6 MB of a 4 MB JSON+
	 * file's bins need not be kept */
	opt.drop_histograms = fmt == RS_FORMAT_CSV;
	/* nor for the inputs' hashes (6% of a long log's CPU) */
	opt.no_sha256 = fmt == RS_FORMAT_CSV;
	/* the writers read a long log's values back from a temporary file:
	 * memory stays bounded whatever its length */
	opt.spill_values = 1;
	if (rs_sink_open(&sink, fmt, out))
		return EXIT_TROUBLE;
	if (!threads)
		threads = cpus_pool_threads((size_t)(argc - optind));
	/* worker threads render CSV rows, one thread streams them */
	st = load_inputs_ordered(argv + optind, (size_t)(argc - optind), &opt,
				 threads, threads > 1 ? rs_sink_csv_rows : NULL,
				 deliver, &sink);
	/* whole or not at all: a missing input (a typo in a glob) must not
	 * replace the results already in OUT with fewer */
	if (st == LOAD_TROUBLE && out && strcmp(out, "-")) {
		sink.failed = 1;
		fprintf(stderr, "storan ingest: %s not written: an input could "
			"not be read\n", out);
	} else if (st == LOAD_TROUBLE && !sink.sources.nsources) {
		/* not one input read: no empty document on stdout for the
		 * next command of a pipe to take for a result (the header
		 * is still held, nothing was written) */
		sink.failed = 1;
	}
	rc = rs_sink_close(&sink) ? EXIT_TROUBLE : (int)st;
	labels_release(&opt.labels);
	return rc;
}
