/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan plot: one chart (PNG, SVG or PDF) from result sets or raw text.
 *
 * Thin: options -> chart_spec, load the inputs, chart_build (the chart
 * model, plot/chart*.c, decides everything the user left open),
 * chart_render (plot/cairo.c), write the file whole.  Exit 0 drawn,
 * 1 drawn but an input failed, 2 trouble (usage, nothing to draw,
 * unreadable input).
 */
#include "cmd.h"
#include "../core/atomic.h"
#include "../ingest/load.h"
#include "../core/numscan.h"
#include "../plot/chart.h"

#include <getopt.h>
#include <string.h>

static const char plot_usage[] =
	"usage: storan plot INPUT... --y METRIC [options] -o FILE.png|.svg|.pdf\n"
	"\n"
	"Draws one chart.  What is not given is chosen from the data: a\n"
	"numeric x key (bs, iodepth) gives lines on a log-2 axis, a category\n"
	"(op, host) grouped bars; repetitions give 95% confidence intervals.\n"
	"\n"
	"  -y, --y METRIC        metric on y (bw, iops, clat.mean...); for\n"
	"                        percentiles and CDFs a family (clat, lat)\n"
	"  -x, --x KEY           key on x: op, tool, source or a label\n"
	"  -s, --series KEY[,K]  one line or bar colour per value\n"
	"  -w, --where k=v,...   only matching measurements (k!=v excludes)\n"
	"  -k, --kind KIND       bar line scatter box cdf percentiles\n"
	"      --stat STAT       mean (default) or median\n"
	"      --errorbars E     ci (95%, default with repetitions), sd,\n"
	"                        minmax or none\n"
	"      --ratio K=A/K=B   bars of A / B around 1.0\n"
	"      --log-x, --log-y  logarithmic axes\n"
	"  -u, --units U         MB/s MiB/s GB/s kiops us ms ..., or binary\n"
	"  -t, --title T         chart title\n"
	"      --subtitle S      line under the title\n"
	"      --width W         logical width (1200)\n"
	"      --height H        logical height (675)\n"
	"      --scale F         PNG pixels per logical pixel (1; 2 for HiDPI)\n"
	"  -o, --output FILE     .png, .svg or .pdf (required)\n"
	"  -h, --help            show this help\n";

enum {
	OPT_STAT = 256, OPT_ERRORBARS, OPT_RATIO, OPT_LOG_X, OPT_LOG_Y,
	OPT_SUBTITLE, OPT_WIDTH, OPT_HEIGHT, OPT_SCALE,
};

static const struct option plot_options[] = {
	{ "y", required_argument, NULL, 'y' },
	{ "x", required_argument, NULL, 'x' },
	{ "series", required_argument, NULL, 's' },
	{ "where", required_argument, NULL, 'w' },
	{ "kind", required_argument, NULL, 'k' },
	{ "stat", required_argument, NULL, OPT_STAT },
	{ "errorbars", required_argument, NULL, OPT_ERRORBARS },
	{ "ratio", required_argument, NULL, OPT_RATIO },
	{ "log-x", no_argument, NULL, OPT_LOG_X },
	{ "log-y", no_argument, NULL, OPT_LOG_Y },
	{ "units", required_argument, NULL, 'u' },
	{ "title", required_argument, NULL, 't' },
	{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *const kind_names[] = {
	[CHART_BAR] = "bar", [CHART_LINE] = "line",
	[CHART_SCATTER] = "scatter", [CHART_BOX] = "box", [CHART_CDF] = "cdf",
	[CHART_PERCENTILES] = "percentiles",
};

static const char *const errorbar_names[] = {
	[CHART_ERR_NONE] = "none", [CHART_ERR_SD] = "sd",
	[CHART_ERR_CI] = "ci", [CHART_ERR_MINMAX] = "minmax",
};

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

/* A positive number no larger than max, or -1. */
static int parse_size(const char *s, double max, double *out)
{
	const char *p = s;

	if (scan_double(&p, 0, out) || *p || !(*out > 0) || *out > max)
		return -1;
	return 0;
}

struct plot_args {
	struct chart_spec spec;
	struct filter where;
	struct chart_render_opts ro;
	const char *out;
};

static int parse_option(struct plot_args *a, int c)
{
	int i;

	switch (c) {
	case 'y': a->spec.y = optarg; break;
	case 'x': a->spec.x = optarg; break;
	case 's': a->spec.series = optarg; break;
	case 'u': a->spec.units = optarg; break;
	case 't': a->spec.title = optarg; break;
	case 'o': a->out = optarg; break;
	case OPT_SUBTITLE: a->spec.subtitle = optarg; break;
	case OPT_RATIO: a->spec.ratio = optarg; break;
	case OPT_LOG_X: a->spec.log_x = 1; break;
	case OPT_LOG_Y: a->spec.log_y = 1; break;
	case 'w':
		if (filter_parse(&a->where, optarg))
			return usage_error("plot", "bad --where '%s' (k=v,k!=v)",
					   optarg);
		a->spec.where = &a->where;
		break;
	case 'k':
		i = lookup(kind_names, CHART_PERCENTILES + 1, optarg);
		if (i < 0)
			return usage_error("plot", "unknown kind '%s'", optarg);
		a->spec.kind = (enum chart_kind)i;
		break;
	case OPT_STAT:
		if (strcmp(optarg, "mean") && strcmp(optarg, "median"))
			return usage_error("plot", "--stat is mean or median");
		a->spec.stat = strcmp(optarg, "mean") ? CHART_STAT_MEDIAN :
			       CHART_STAT_MEAN;
		break;
	case OPT_ERRORBARS:
		i = lookup(errorbar_names, CHART_ERR_MINMAX + 1, optarg);
		if (i < 0)
			return usage_error("plot", "unknown --errorbars '%s' "
					   "(ci sd minmax none)", optarg);
		a->spec.errorbars = (enum chart_errorbars)i;
		break;
	case OPT_WIDTH:
	case OPT_HEIGHT:
	case OPT_SCALE:
		if (parse_size(optarg, c == OPT_SCALE ? 8 : 10000,
			       c == OPT_WIDTH ? &a->ro.width :
			       c == OPT_HEIGHT ? &a->ro.height : &a->ro.scale))
			return usage_error("plot", "bad size '%s'", optarg);
		break;
	default:
		return usage_error("plot", "bad option");
	}
	return 0;
}

static int draw_chart(struct plot_args *a, const struct result_set *rs,
		      enum chart_format fmt)
{
	struct chart c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int rc = 0;

	chart_init(&c);
	if (filter_keys_check(&a->where, rs, &err) ||
	    chart_build(&c, rs, &a->spec, &err)) {
		fprintf(stderr, "storan plot: %s\n", err.buf);
		rc = -1;
	} else {
		for (size_t i = 0; i < c.nnotes; i++)
			fprintf(stderr, "storan plot: note: %s\n", c.notes[i]);
		a->ro.rs = rs;
		a->ro.command_line = storan_command_line;
		rc = chart_render(&c, fmt, &a->ro, &out) ||
		     write_file_atomic(a->out, out.buf, out.len) ? -1 : 0;
	}
	chart_release(&c);
	strbuf_release(&err);
	strbuf_release(&out);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a = { .ro = { .width = 1200, .height = 675,
				       .scale = 1 } };
	struct chart_input *inputs;
	struct result_set rs;
	struct diag_list diags;
	enum chart_format fmt;
	enum load_status st;
	int c, rc;

	filter_init(&a.where);
	while ((c = getopt_long(argc, argv, "y:x:s:w:k:u:t:o:h", plot_options,
				NULL)) != -1) {
		if (c == 'h') {
			print_usage(stdout, plot_usage);
			filter_release(&a.where);
			return EXIT_OK;
		}
		if (parse_option(&a, c)) {
			filter_release(&a.where);
			return EXIT_TROUBLE;
		}
	}
	rc = EXIT_TROUBLE;
	if (optind >= argc)
		usage_error("plot", "no input files");
	else if (!a.spec.y)
		usage_error("plot", "which metric? --y METRIC (bw, iops...)");
	else if (!a.out)
		usage_error("plot", "no output file: -o FILE.png|.svg|.pdf");
	else if (chart_format_from_path(a.out, &fmt))
		usage_error("plot", "'%s': the name must end in .png, .svg or "
			    ".pdf", a.out);
	else if (output_path_check(a.out))
		rc = EXIT_TROUBLE;
	else
		rc = EXIT_OK;
	if (rc) {
		filter_release(&a.where);
		return rc;
	}
	result_set_init(&rs);
	diag_list_init(&diags);
	st = load_inputs(argv + optind, argc - optind, NULL, &rs, &diags);
	diag_print(&diags, stderr);
	a.ro.ninputs = argc - optind;
	inputs = chart_inputs(argv + optind, a.ro.ninputs);
	a.ro.inputs = inputs;
	rc = draw_chart(&a, &rs, fmt) ? EXIT_TROUBLE : (int)st;
	chart_inputs_free(inputs, a.ro.ninputs);
	chart_render_done();
	result_set_release(&rs);
	diag_list_release(&diags);
	filter_release(&a.where);
	return rc;
}
