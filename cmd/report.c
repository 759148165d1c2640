/*
 * storan report: charts, a workbook, a web page and Markdown from result
 * sets, in one directory written whole or not at all.
 *
 * Thin: load the inputs, report_plan (plot/report.c chooses the charts),
 * report_write, with the findings of storan check listed in the report
 * and numbered as footnotes on the figures they touch
 * (analysis/footnotes.h), as `storan table` marks them.  Exit 0 written, 1 written but an input failed or
 * storan check warns, 2 trouble (usage, nothing to report, a directory
 * that cannot be written).
 */
#include "cmd.h"
#include "findings-args.h"
#include "../analysis/check.h"
#include "../analysis/footnotes.h"
#include "../core/load.h"
#include "../core/xalloc.h"
#include "../plot/report.h"

#include <getopt.h>
#include <string.h>

static const char report_usage[] =
	"usage: storan report INPUT... -o DIR [--title T]\n"
	"       storan report DB -o DIR [--title T]   (a history store)\n"
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
	"Tables are those 'storan table' prints for each chart's selection.\n"
	"The findings of 'storan check' are listed, and marked as numbered\n"
	"footnotes (" FMT_NOTE_MARK "1) on the figures and charts they touch.\n"
	"\n"
	"  -o, --output DIR   the report directory (required)\n"
	"  -t, --title T      the report's title\n"
	"  -l, --link NAME    for storan check: the link (sata3, pcie3x4...)\n"
	"  -r, --ram SIZE     for storan check: RAM of the tested machine\n"
	"      --findings F   warnings (default) or all: which findings get\n"
	"                     footnote marks in tables and headings\n"
	"  -h, --help         show this help\n";

/* The inputs into rs (what could not be read into diags), the findings
 * of storan check into fn. */
static enum load_status load_and_check(char **paths, int n,
				       struct findings_args *fa,
				       struct result_set *rs,
				       struct diag_list *diags,
				       struct footnotes *fn, size_t *set)
{
	struct strbuf err = STRBUF_INIT;
	enum load_status worst = LOAD_OK;

	for (int i = 0; i < n; i++) {
		enum load_status st = load_input_hooked(paths[i], NULL, rs,
							 diags,
							 findings_text_hook,
							 fa);

		if (st > worst)
			worst = st;
	}
	diag_print(diags, stderr);
	if (footnotes_check(fn, rs, &fa->check, set, &err))
		BUG("%s", strbuf_str(&err));	/* the link was checked */
	strbuf_release(&err);
	return worst;
}

#define MAX_INPUT_NOTES 20

/*
 * What the inputs could not give, in the report's Notes too: a report is
 * read long after the terminal that showed the errors is gone, and a
 * chart of the cached read alone must not pass for the whole post.
 */
static void note_input_errors(struct report *r, const struct diag_list *dl)
{
	size_t shown = 0, errors = diag_count(dl, DIAG_ERROR);

	for (size_t i = 0; i < dl->n && shown < MAX_INPUT_NOTES; i++) {
		const struct diag *d = &dl->v[i];

		if (d->level != DIAG_ERROR)
			continue;
		shown++;
		if (!d->file)
			report_add_note(r, "input not read in full: %s",
					d->msg);
		else if (d->line)
			report_add_note(r, "input not read in full: %s:%u: %s",
					d->file, d->line, d->msg);
		else
			report_add_note(r, "input not read in full: %s: %s",
					d->file, d->msg);
	}
	if (errors > shown)
		report_add_note(r, "and %zu more error(s) in the inputs "
				"(storan ingest lists them)", errors - shown);
}

static int write_report(struct report *r, char **paths, int n,
			const char *dir, const char *title)
{
	struct chart_input *inputs = chart_inputs(paths, n);
	size_t first_note = r->nnotes;
	int rc;

	r->command_line = storan_command_line;
	r->ninputs = n;
	r->inputs = inputs;
	if (report_plan(r, r->rs, title)) {
		fputs("storan report: nothing to chart in the input\n", stderr);
		rc = -1;
	} else {
		/* the inputs' errors were said on stderr as they came */
		for (size_t i = first_note; i < r->nnotes; i++)
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
		{ "link", required_argument, NULL, OPT_FINDINGS_LINK },
		{ "ram", required_argument, NULL, OPT_FINDINGS_RAM },
		{ "findings", required_argument, NULL, OPT_FINDINGS_LEVEL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *title = NULL;
	struct findings_args fa;
	struct footnotes fn;
	size_t set = 0;
	struct result_set rs;
	struct report r;
	struct diag_list diags;
	enum load_status st;
	int c, rc = EXIT_OK;

	findings_args_init(&fa);
	while (!rc && (c = getopt_long(argc, argv, "o:t:l:r:h", longopts,
				       NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'l':	/* short for --link */
			rc = findings_args_option("report", OPT_FINDINGS_LINK,
						  optarg, &fa);
			break;
		case 'r':	/* short for --ram */
			rc = findings_args_option("report", OPT_FINDINGS_RAM,
						  optarg, &fa);
			break;
		case OPT_FINDINGS_LINK:
		case OPT_FINDINGS_RAM:
		case OPT_FINDINGS_LEVEL:
			rc = findings_args_option("report", c, optarg, &fa);
			break;
		case 'h':
			print_usage(stdout, report_usage);
			findings_args_release(&fa);
			return EXIT_OK;
		default:
			rc = usage_error("report", "bad option");
		}
	}
	if (!rc && optind >= argc)
		rc = usage_error("report", "no input files");
	else if (!rc && (!dir || !*dir))
		rc = usage_error("report", "no output directory: -o DIR");
	if (!rc && argc - optind == 1 && report_db_wanted(argv[optind]))
		rc = report_db(argv[optind], dir, title);	/* a store */
	else if (!rc)
		rc = -1;
	if (rc >= 0) {
		findings_args_release(&fa);
		return rc;
	}
	result_set_init(&rs);
	footnotes_init(&fn, fa.level);
	report_init(&r);
	diag_list_init(&diags);
	st = load_and_check(argv + optind, argc - optind, &fa, &rs, &diags,
			    &fn, &set);
	note_input_errors(&r, &diags);
	diag_list_release(&diags);
	r.rs = &rs;
	r.findings = &fn.sets[set].findings;
	r.fn = &fn;
	r.fn_set = set;
	rc = write_report(&r, argv + optind, argc - optind, dir, title) ?
	     EXIT_TROUBLE : (int)st;
	if (rc == EXIT_OK && check_count(r.findings, CHECK_WARNING))
		rc = EXIT_FINDINGS;
	report_release(&r);
	footnotes_release(&fn);
	findings_args_release(&fa);
	result_set_release(&rs);
	return rc;
}
