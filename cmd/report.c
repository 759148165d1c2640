/*
 * storan report: charts, a workbook, a web page and Markdown from result
 * sets, in one directory written whole or not at all.
 *
 * Thin: load the inputs, report_plan (plot/report.c chooses the charts),
 * report_write.  Exit 0 written, 1 written but an input failed, 2 trouble
 * (usage, nothing to report, a directory that cannot be written).
 */
#include "cmd.h"
#include "../core/load.h"
#include "../plot/report.h"

#include <getopt.h>
#include <string.h>

static const char report_usage[] =
	"usage: storan report INPUT... -o DIR [--title T]\n"
	"\n"
	"Chooses the charts a reader needs from the data -- one per tool and\n"
	"metric group, block-size sweeps as lines, operations as grouped\n"
	"bars, ratios where two groups differ by one label, latency\n"
	"percentiles and distributions where present -- and writes:\n"
	"  DIR/charts/NN-name.png, .svg   every chart\n"
	"  DIR/report.xlsx                Summary, Data and a sheet per chart\n"
	"  DIR/index.html                 one self-contained page\n"
	"  DIR/report.md                  Markdown tables and image links\n"
	"DIR is replaced whole, and only when it is an earlier report.\n"
	"\n"
	"  -o, --output DIR   the report directory (required)\n"
	"  -t, --title T      the report's title\n"
	"  -h, --help         show this help\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *title = NULL;
	struct result_set rs;
	struct diag_list diags;
	struct report r;
	struct chart_input *inputs;
	enum load_status st;
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'h':
			print_usage(stdout, report_usage);
			return EXIT_OK;
		default:
			return usage_error("report", "bad option");
		}
	}
	if (optind >= argc)
		return usage_error("report", "no input files");
	if (!dir || !*dir)
		return usage_error("report", "no output directory: -o DIR");
	result_set_init(&rs);
	diag_list_init(&diags);
	report_init(&r);
	st = load_inputs(argv + optind, argc - optind, NULL, &rs, &diags);
	diag_print(&diags, stderr);
	r.command_line = storan_command_line;
	r.ninputs = argc - optind;
	inputs = chart_inputs(argv + optind, r.ninputs);
	r.inputs = inputs;
	if (report_plan(&r, &rs, title)) {
		fputs("storan report: nothing to chart in the input\n", stderr);
		rc = EXIT_TROUBLE;
	} else {
		for (size_t i = 0; i < r.nnotes; i++)
			fprintf(stderr, "storan report: note: %s\n",
				r.notes[i]);
		rc = report_write(&r, dir) ? EXIT_TROUBLE : (int)st;
	}
	chart_inputs_free(inputs, r.ninputs);
	chart_render_done();
	report_release(&r);
	result_set_release(&rs);
	diag_list_release(&diags);
	return rc;
}
