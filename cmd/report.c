/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan report: charts, a workbook, a web page and Markdown from result
 * sets, in one directory written whole or not at all.
 *
 * Thin: load the inputs (each a side when there are several), run storan
 * check over them, report_plan() (plot/report.c: the plan of
 * analysis/plan.c, compare's verdicts, the charts), report_write().
 * Exit 0 when the report is written (findings are in the page), 1 when
 * it is written but an input could not be read in full, 2 for trouble
 * (usage, nothing to report, a directory that may not be replaced).
 */
#include "cmd.h"
#include "findings-args.h"
#include "options.h"
#include "../analysis/check.h"
#include "../analysis/experiment.h"
#include "../analysis/footnotes.h"
#include "../ingest/load.h"
#include "../core/numscan.h"
#include "../core/outdir.h"
#include "../core/xalloc.h"
#include "../plot/report.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char report_usage[] =
	"usage: storan report INPUT... -o DIR [options]\n"
	"       storan report DB -o DIR [--title T]   (a history store)\n"
	"\n"
	"A page that answers what the data asks.  With two inputs or more\n"
	"(or --compare / --ratio) it is a comparison: the first input is the\n"
	"baseline, and the page opens with the verdicts of each other one\n"
	"against it (storan compare's), the geometric mean of the ratios and\n"
	"ratio charts, then the sides side by side.  With one input it\n"
	"shows what the measurements differ in.  No chart pools what\n"
	"differs (machines, drives, sections, tests, block sizes): the\n"
	"experiment model decides, as for table and compare.  Writes:\n"
	"  DIR/charts/NN-name.png, .svg   every chart\n"
	"  DIR/charts/NN-name.json        every chart as data\n"
	"  DIR/report.xlsx                Summary, Verdicts, Data, a sheet a\n"
	"                                 chart\n"
	"  DIR/index.html                 one self-contained page\n"
	"  DIR/report.md                  Markdown tables and image links\n"
	"  DIR/" MANIFEST_NAME "   the SHA-256 of every file above\n"
	"DIR is replaced whole, and only when storan wrote all of it: every\n"
	"file listed in its manifest and unchanged since (or DIR empty).\n"
	"\n"
	"  -o, --output DIR      the report directory (required)\n"
	"  -t, --title T         the report's title\n"
	"      --compare KEY     the values of label KEY are the sides\n"
	"      --ratio K=A/K=B   sides K=B (baseline) and K=A (candidate)\n"
	"  -s, --series KEY      the key drawn as series (one input)\n"
	"  -w, --where K=V,...   only measurements that match (K!=V excludes)\n"
	"  -m, --metric M        only this metric (or family: clat); again for\n"
	"                        more\n"
	"      --pool KEYS       pool measurements that differ only in these\n"
	"      --match KEYS      verdicts: match on these labels only\n"
	"      --ignore KEYS     verdicts: leave these labels out of the match\n"
	"      --threshold PCT   verdicts: a change within it is unchanged (5%)\n"
	"      --alpha A         verdicts and ratio marks: significance (0.05)\n"
	"      --scale S         PNG pixels per point (2; 1 for small files)\n"
	"      --link NAME       for storan check: the link (sata3, pcie3x4...)\n"
	"      --ram SIZE        for storan check: RAM of the tested machine\n"
	"      --findings F      warnings (default) or all: which findings get\n"
	"                        marks in the tables\n"
	"      --no-check        no findings, no marks\n"
	"  -h, --help            show this help\n"
	"\n"
	"Exit status: 0 written, 1 written but an input was not read in full,\n"
	"2 trouble.\n";

enum {
	OPT_COMPARE = 0x2000, OPT_RATIO, OPT_POOL, OPT_MATCH,
	OPT_IGNORE, OPT_THRESHOLD, OPT_ALPHA, OPT_SCALE,
};

struct report_args {
	struct report_options ro;
	struct filter where;
	const char *dir;
	struct findings_args fa;
};

static int parse_number(const char *s, double lo, double hi, double *out)
{
	const char *p = s;

	if (scan_double(&p, 0, out))
		return -1;
	if (*p == '%')
		p++;
	return *p || !(*out >= lo && *out <= hi) ? -1 : 0;
}

static int parse_option(int c, struct report_args *a)
{
	struct report_options *ro = &a->ro;
	int rc = findings_args_option("report", c, optarg, &a->fa);

	if (rc >= 0)
		return rc;
	switch (c) {
	case 'o': a->dir = optarg; break;
	case 't': ro->title = optarg; break;
	case OPT_COMPARE: ro->compare = optarg; break;
	case OPT_RATIO: ro->ratio = optarg; break;
	case 's': ro->series = optarg; break;
	case 'w':
		if (filter_parse(&a->where, optarg))
			return usage_error("report", "bad --where '%s' "
					   "(k=v,k!=v)", optarg);
		ro->where = &a->where;
		break;
	case 'm':
		if (option_list_add(optarg, &ro->metrics, &ro->nmetrics))
			return usage_error("report", "bad --metric '%s'",
					   optarg);
		break;
	case OPT_POOL:
		if (option_list_add(optarg, &ro->pool, &ro->npool))
			return usage_error("report", "bad --pool '%s'", optarg);
		break;
	case OPT_MATCH:
		if (option_list_add(optarg, &ro->match, &ro->nmatch))
			return usage_error("report", "bad --match '%s'",
					   optarg);
		break;
	case OPT_IGNORE:
		if (option_list_add(optarg, &ro->ignore, &ro->nignore))
			return usage_error("report", "bad --ignore '%s'",
					   optarg);
		break;
	case OPT_THRESHOLD:
		if (parse_number(optarg, 0, 1e6, &ro->threshold))
			return usage_error("report", "bad --threshold '%s' "
					   "(a percentage: 5%%)", optarg);
		break;
	case OPT_ALPHA:
		if (parse_number(optarg, 1e-12, 0.999999, &ro->alpha))
			return usage_error("report", "bad --alpha '%s' (a "
					   "number between 0 and 1)", optarg);
		break;
	case OPT_SCALE:
		if (parse_number(optarg, 0.25, 8, &ro->scale))
			return usage_error("report", "bad --scale '%s' (0.25 "
					   "to 8)", optarg);
		break;
	default:
		return usage_error("report", "bad option");
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "compare", required_argument, NULL, OPT_COMPARE },
		{ "ratio", required_argument, NULL, OPT_RATIO },
		{ "series", required_argument, NULL, 's' },
		{ "where", required_argument, NULL, 'w' },
		{ "metric", required_argument, NULL, 'm' },
		{ "pool", required_argument, NULL, OPT_POOL },
		{ "match", required_argument, NULL, OPT_MATCH },
		{ "ignore", required_argument, NULL, OPT_IGNORE },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "scale", required_argument, NULL, OPT_SCALE },
		FINDINGS_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	while (!rc && (c = getopt_long(argc, argv, "o:t:s:w:m:h", longopts,
				       NULL)) != -1) {
		if (c == 'h') {
			print_usage(stdout, report_usage);
			return -1;
		}
		rc = parse_option(c, a);
	}
	if (!rc && optind >= argc)
		rc = usage_error("report", "no input files");
	else if (!rc && (!a->dir || !*a->dir))
		rc = usage_error("report", "no output directory: -o DIR");
	else if (!rc && a->ro.compare && a->ro.ratio)
		rc = usage_error("report", "--compare and --ratio exclude each "
				 "other");
	else if (!rc && a->ro.match && a->ro.ignore)
		rc = usage_error("report", "--match and --ignore exclude each "
				 "other");
	else if (!rc && outdir_check(a->dir))
		rc = EXIT_TROUBLE;
	return rc;
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

/* Every input into rs, input i's measurements at [start[i], start[i+1]);
 * the inputs are loaded in parallel where CPUs allow (load.h). */
static enum load_status load_all(char **paths, int n,
				 struct result_set *rs, size_t *start,
				 struct diag_list *diags)
{
	struct result_set *sets = xcalloc((size_t)n, sizeof(*sets));
	enum load_status worst = load_inputs_each(paths, (size_t)n, NULL,
						  sets, diags);

	for (int i = 0; i < n; i++) {
		start[i] = rs->n;
		result_set_append(rs, &sets[i]);
		result_set_release(&sets[i]);
	}
	start[n] = rs->n;
	free(sets);
	diag_print(diags, stderr);
	return worst;
}

/* Views into rs, one an input (the sides of a comparison). */
static struct result_set *input_views(const struct result_set *rs,
				      const size_t *start, int n)
{
	struct result_set *v = xcalloc((size_t)n + 1, sizeof(*v));

	for (int i = 0; i < n; i++) {
		v[i].sources = rs->sources;
		v[i].nsources = rs->nsources;
		v[i].m = rs->m + start[i];
		v[i].n = start[i + 1] - start[i];
	}
	return v;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return !strcmp(path, "-") ? "stdin" : slash ? slash + 1 : path;
}

/*
 * The sides of a comparison among the inputs (experiment_input_sides():
 * hosta.* against hostb.*, but randread-4k-qd32-run1.json ... as one
 * data set).  Where inputs of one side are not next to each other, the
 * measurements are reordered so that each side is one range of rs;
 * start[] then holds the sides' ranges.  Returns the number of sides
 * (n with --compare or --ratio: the sides are a label's values then).
 */
static size_t group_sides(struct result_set *rs, size_t *start, char **paths,
			  int n, const struct report_args *a)
{
	struct result_set *views;
	const char **names;
	size_t *side_of, nsides, k = 0, at = 0;
	struct measurement *m;

	if (n < 2 || a->ro.compare || a->ro.ratio)
		return (size_t)n;
	views = input_views(rs, start, n);
	names = xmalloc((size_t)n * sizeof(*names));
	side_of = xmalloc((size_t)n * sizeof(*side_of));
	for (int i = 0; i < n; i++)
		names[i] = base_name(paths[i]);
	nsides = experiment_input_sides(views, names, (size_t)n,
					a->ro.where, side_of);
	free(views);
	free(names);
	if (nsides == (size_t)n) {
		free(side_of);
		return nsides;
	}
	m = xmalloc((rs->n + 1) * sizeof(*m));
	for (size_t s = 0; s < nsides; s++) {
		size_t first = at;

		for (int i = 0; i < n; i++) {
			size_t len = start[i + 1] - start[i];

			if (side_of[i] != s)
				continue;
			memcpy(m + at, rs->m + start[i], len * sizeof(*m));
			at += len;
		}
		start[k++] = first;
	}
	start[k] = at;
	if (!rs->m_borrowed)
		free(rs->m);
	rs->m = m;
	rs->m_borrowed = 0;
	rs->alloc = rs->n + 1;
	free(side_of);
	return nsides;
}

static int write_report(struct report *r, struct report_args *a, char **paths,
			int n)
{
	struct chart_input *inputs = chart_inputs(paths, n);
	struct strbuf err = STRBUF_INIT;
	size_t first_note = r->nnotes;
	int rc;

	r->command_line = storan_command_line;
	r->ninputs = n;
	r->inputs = inputs;
	if (report_plan(r, &a->ro, &err)) {
		fprintf(stderr, "storan report: %s\n", err.len ? err.buf :
			"nothing to chart in the input");
		rc = -1;
	} else {
		/* the inputs' errors were said on stderr as they came */
		for (size_t i = first_note; i < r->nnotes; i++)
			fprintf(stderr, "storan report: note: %s\n",
				r->notes[i]);
		rc = report_write(r, a->dir);
	}
	strbuf_release(&err);
	chart_inputs_free(inputs, n);
	chart_render_done();
	return rc;
}

/* --series and --where name keys of rs, else say which (exit 2). */
static int check_keys(const struct result_set *rs, const struct report_args *a)
{
	static const char *const extra[] = { CHART_SIDE_KEY, NULL };
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (a->ro.series)
		rc = filter_key_check(rs, "--series", a->ro.series, extra,
				      &err);
	if (!rc)
		rc = filter_keys_check(&a->where, rs, &err);
	if (rc)
		fprintf(stderr, "storan report: %s\n", err.buf);
	strbuf_release(&err);
	return rc;
}

static int run_report(struct report_args *a, char **paths, int n)
{
	size_t *start = xmalloc(((size_t)n + 1) * sizeof(*start)), set = 0;
	size_t nsides;
	struct strbuf err = STRBUF_INIT;
	struct diag_list diags;
	struct footnotes fn;
	struct result_set rs, *views;
	struct report r;
	enum load_status st;
	int rc;

	result_set_init(&rs);
	footnotes_init(&fn, a->fa.level);
	report_init(&r);
	diag_list_init(&diags);
	st = load_all(paths, n, &rs, start, &diags);
	if (check_keys(&rs, a)) {
		diag_list_release(&diags);
		rc = EXIT_TROUBLE;
		goto out;
	}
	note_input_errors(&r, &diags);
	diag_list_release(&diags);
	nsides = group_sides(&rs, start, paths, n, a);
	/* rs is final: the workbook's Data sheet is written meanwhile */
	report_start_data(&r, &rs);
	if (nsides == 1 && n > 1)
		report_add_note(&r, "the %d inputs are the tests and runs of "
				"one experiment (their names say which): "
				"shown together, not compared", n);
	if (!a->fa.off && footnotes_check(&fn, &rs, &a->fa.check, &set, &err))
		BUG("%s", strbuf_str(&err));	/* the link was checked */
	r.rs = &rs;
	r.sets = views = input_views(&rs, start, (int)nsides);
	r.nsets = nsides;
	if (!a->fa.off) {
		r.findings = &fn.sets[set].findings;
		r.fn = &fn;
		r.fn_set = set;
	}
	rc = write_report(&r, a, paths, n) ? EXIT_TROUBLE :
	     st == LOAD_OK ? EXIT_OK : EXIT_FINDINGS;
	free(views);
out:
	report_release(&r);
	footnotes_release(&fn);
	result_set_release(&rs);
	strbuf_release(&err);
	free(start);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	filter_init(&a.where);
	a.ro.threshold = 5;
	a.ro.alpha = 0.05;
	a.ro.scale = 2;
	findings_args_init(&a.fa);
	rc = parse_args(argc, argv, &a);
	if (rc < 0)
		rc = EXIT_OK;	/* --help */
	else if (!rc && argc - optind == 1 && report_db_wanted(argv[optind]))
		rc = report_db(argv[optind], a.dir, a.ro.title);  /* a store */
	else if (!rc)
		rc = run_report(&a, argv + optind, argc - optind);
	option_list_free(a.ro.metrics, a.ro.nmetrics);
	option_list_free(a.ro.pool, a.ro.npool);
	option_list_free(a.ro.match, a.ro.nmatch);
	option_list_free(a.ro.ignore, a.ro.nignore);
	filter_release(&a.where);
	return rc;
}
