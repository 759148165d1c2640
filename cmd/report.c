/*
 * storan report: charts, a workbook, a web page and Markdown from result
 * sets, in one directory written whole or not at all.
 *
 * Thin: load the inputs, report_plan (plot/report.c chooses the charts),
 * report_write, with the findings of storan check (analysis/check.h)
 * listed in the report.  Exit 0 written, 1 written but an input failed or
 * storan check warns, 2 trouble (usage, nothing to report, a directory
 * that cannot be written).
 */
#include "cmd.h"
#include "../analysis/check.h"
#include "../analysis/links.h"
#include "../core/load.h"
#include "../core/xalloc.h"
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
	"The findings of 'storan check' are listed, and under every chart\n"
	"whose figures they touch.\n"
	"\n"
	"  -o, --output DIR   the report directory (required)\n"
	"  -t, --title T      the report's title\n"
	"  -l, --link NAME    for storan check: the link (sata3, pcie3x4...)\n"
	"  -r, --ram SIZE     for storan check: RAM of the tested machine\n"
	"  -h, --help         show this help\n";

static void scan_cache_drops(const struct input *in, void *opt)
{
	check_scan_cache_drops(in, opt);
}

/* The inputs into rs, the findings of storan check into findings. */
static enum load_status load_and_check(char **paths, int n,
				       struct check_options *opt,
				       struct result_set *rs,
				       struct check_list *findings)
{
	struct diag_list diags;
	struct strbuf err = STRBUF_INIT;
	enum load_status worst = LOAD_OK;

	diag_list_init(&diags);
	for (int i = 0; i < n; i++) {
		enum load_status st = load_input_hooked(paths[i], NULL, rs,
							 &diags,
							 scan_cache_drops, opt);

		if (st > worst)
			worst = st;
	}
	diag_print(&diags, stderr);
	if (check_run(rs, opt, findings, &err))
		BUG("%s", strbuf_str(&err));	/* the link was checked */
	diag_list_release(&diags);
	strbuf_release(&err);
	return worst;
}

static int write_report(struct report *r, char **paths, int n,
			const char *dir, const char *title)
{
	struct chart_input *inputs = chart_inputs(paths, n);
	int rc;

	r->command_line = storan_command_line;
	r->ninputs = n;
	r->inputs = inputs;
	if (report_plan(r, r->rs, title)) {
		fputs("storan report: nothing to chart in the input\n", stderr);
		rc = -1;
	} else {
		for (size_t i = 0; i < r->nnotes; i++)
			fprintf(stderr, "storan report: note: %s\n",
				r->notes[i]);
		rc = report_write(r, dir);
	}
	chart_inputs_free(inputs, n);
	chart_render_done();
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "link", required_argument, NULL, 'l' },
		{ "ram", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *title = NULL;
	struct check_options opt;
	struct check_list findings;
	struct link_info link;
	struct result_set rs;
	struct report r;
	enum load_status st;
	int c, rc = EXIT_OK;

	check_options_init(&opt);
	while (!rc && (c = getopt_long(argc, argv, "o:t:l:r:h", longopts,
				       NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'l':
			if (link_lookup(optarg, &link))
				rc = usage_error("report", "unknown link '%s'; "
						 "storan knows %s", optarg,
						 link_names());
			opt.link = optarg;
			break;
		case 'r':
			if (check_parse_size(optarg, &opt.ram))
				rc = usage_error("report", "bad RAM size '%s' "
						 "(e.g. 16G)", optarg);
			break;
		case 'h':
			print_usage(stdout, report_usage);
			check_options_release(&opt);
			return EXIT_OK;
		default:
			rc = usage_error("report", "bad option");
		}
	}
	if (!rc && optind >= argc)
		rc = usage_error("report", "no input files");
	else if (!rc && (!dir || !*dir))
		rc = usage_error("report", "no output directory: -o DIR");
	if (rc) {
		check_options_release(&opt);
		return rc;
	}
	result_set_init(&rs);
	check_list_init(&findings);
	report_init(&r);
	st = load_and_check(argv + optind, argc - optind, &opt, &rs,
			    &findings);
	r.rs = &rs;
	r.findings = &findings;
	rc = write_report(&r, argv + optind, argc - optind, dir, title) ?
	     EXIT_TROUBLE : (int)st;
	if (rc == EXIT_OK && check_count(&findings, CHECK_WARNING))
		rc = EXIT_FINDINGS;
	report_release(&r);
	check_list_release(&findings);
	check_options_release(&opt);
	result_set_release(&rs);
	return rc;
}
