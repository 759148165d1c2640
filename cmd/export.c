/* storan export: a result set -> the flat CSV (or JSON again). */
#include "cmd.h"
#include "options.h"
#include "../core/atomic.h"
#include "../core/load.h"
#include "../core/rs-csv.h"
#include "../core/rs-json.h"
#include "../core/strbuf.h"

#include <getopt.h>
#include <string.h>

static const char export_usage[] =
	"usage: storan export [--format csv|json] [-o FILE] INPUT...\n"
	"\n"
	"Writes result sets (or any input 'storan ingest' reads) as the flat\n"
	"CSV export, one row per measurement:\n"
	"  source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels\n"
	"\n"
	"  -f, --format FMT   csv (default) or json\n"
	"  -o, --output FILE  write to FILE (whole or not at all)\n"
	"  -h, --help         show this help\n";

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = "-";
	int csv = 1, c, rc;
	struct result_set rs;
	struct diag_list diags;
	struct strbuf sb = STRBUF_INIT;
	enum load_status st;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "csv"))
				csv = 1;
			else if (!strcmp(optarg, "json"))
				csv = 0;
			else
				return usage_error("export", "unknown format "
						   "'%s' (csv or json)", optarg);
			break;
		case 'o':
			out = optarg;
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
	if (output_path_check(out ? out : "-"))
		return EXIT_TROUBLE;
	result_set_init(&rs);
	diag_list_init(&diags);
	st = load_inputs(argv + optind, argc - optind, NULL, &rs, &diags);
	diag_print(&diags, stderr);
	if (csv)
		rs_csv_write(&rs, &sb);
	else
		rs_json_write(&rs, &sb);
	if (st == LOAD_TROUBLE && out && strcmp(out, "-"))	/* see ingest */
		fprintf(stderr, "storan export: %s not written: an input could "
			"not be read\n", out);
	else if (write_file_atomic(out ? out : "-", sb.buf, sb.len))
		st = LOAD_TROUBLE;
	rc = (int)st;
	strbuf_release(&sb);
	result_set_release(&rs);
	diag_list_release(&diags);
	return rc;
}
