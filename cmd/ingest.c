/*
 * storan ingest: text that benchmarks printed -> a result set (JSON or the
 * CSV export).  Every input is tried; problems are reported as FILE:LINE.
 */
#include "cmd.h"
#include "../core/atomic.h"
#include "../core/load.h"
#include "../core/rs-csv.h"
#include "../core/rs-json.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../parsers/parser.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char ingest_usage[] =
	"usage: storan ingest [--label K=V]... [--name-pattern PATTERN]\n"
	"                     [--format json|csv] [-o FILE] FILE...\n"
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
	"  -f, --format FMT        json (default) or csv\n"
	"  -o, --output FILE       write to FILE (whole or not at all)\n"
	"  -h, --help              show this help\n"
	"\n"
	"Exit status: 0 all inputs read, 1 some input gave no result or an\n"
	"error (FILE:LINE on stderr), 2 usage error or unreadable input.\n";

/* Parses "k=v" into labels; -1 when it is not of that form. */
int parse_label_arg(const char *arg, struct labels *labels)
{
	const char *eq = strchr(arg, '=');
	char *key;

	if (!eq || eq == arg || strchr(arg, ';'))
		return -1;
	key = xstrndup(arg, (size_t)(eq - arg));
	labels_set(labels, key, eq + 1);
	free(key);
	return 0;
}

enum output_format { FORMAT_JSON, FORMAT_CSV };

static int write_result_set(const struct result_set *rs,
			    enum output_format fmt, const char *out)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (fmt == FORMAT_CSV)
		rs_csv_write(rs, &sb);
	else
		rs_json_write(rs, &sb);
	rc = write_file_atomic(out ? out : "-", sb.buf, sb.len);
	strbuf_release(&sb);
	return rc;
}

static int parse_format(const char *arg, enum output_format *fmt)
{
	if (!strcmp(arg, "json"))
		*fmt = FORMAT_JSON;
	else if (!strcmp(arg, "csv"))
		*fmt = FORMAT_CSV;
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ingest_options opt;
	enum output_format fmt = FORMAT_JSON;
	const char *out = NULL;
	struct result_set rs;
	struct diag_list diags;
	enum load_status st;
	int c, rc;

	memset(&opt, 0, sizeof(opt));
	while ((c = getopt_long(argc, argv, "l:n:f:o:h", longopts, NULL)) != -1) {
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
						   "'%s' (json or csv)", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			print_usage(stdout, ingest_usage);
			return EXIT_OK;
		default:
			return usage_error("ingest", "bad option");
		}
	}
	if (optind >= argc)
		return usage_error("ingest", "no input files");
	result_set_init(&rs);
	diag_list_init(&diags);
	st = load_inputs(argv + optind, argc - optind, &opt, &rs, &diags);
	diag_print(&diags, stderr);
	rc = write_result_set(&rs, fmt, out) ? EXIT_TROUBLE : (int)st;
	result_set_release(&rs);
	diag_list_release(&diags);
	labels_release(&opt.labels);
	return rc;
}
