/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan detect: change points in every series of a store
 * (analysis/history.h, analysis/detect.h), each with the run where it
 * happened, the means before and after, the ratio, the p-value and the
 * verdict in the metric's direction.  A CI gate: exit 1 when the newest
 * run of a series follows a regression change point (its last one).
 */
#include "cmd.h"
#include "../analysis/compare.h"
#include "../analysis/format.h"
#include "../analysis/history.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char detect_usage[] =
	"usage: storan detect DB [--alpha 0.001] [--min-change 5%]\n"
	"                        [--since RUN] [--metric M] [--where k=v,...]\n"
	"                        [--format text|csv|json|md]\n"
	"\n"
	"Finds the change points of every series of the store DB (an SQLite\n"
	"file or postgresql://...): E-divisive means with a permutation test,\n"
	"in windows of runs, weak points merged away until each is\n"
	"significant at --alpha and moves the mean by --min-change (as Apache\n"
	"Otava does).\n"
	"One row per change point: the run it happened at, the means before\n"
	"and after (since the previous change point, up to the next), their\n"
	"ratio, the p-value, and the verdict in the metric's own direction\n"
	"(lower latency is better).  A single outlier is not a change point,\n"
	"nor are two slow runs; a step well above the noise is found once 3\n"
	"runs follow it where 10 or more precede it (4 after 8, 5 after 5).\n"
	"\n"
	"Exit 1 when the newest run of a series follows a regression (the\n"
	"series' last change point is one): a CI gate.\n"
	"\n"
	"  -a, --alpha P      significance level (default 0.001)\n"
	"      --min-change X smallest change of the mean reported (5%)\n"
	"      --since RUN    only change points at runs after RUN (those\n"
	"                     before are known); the whole history is read\n"
	"  -m, --metric M     only metric M (default: those with a direction)\n"
	"  -w, --where SPEC   only measurements with k=v (k!=v), ','-sep.\n"
	"      --window N     runs per window (default 50)\n"
	"  -f, --format F     text (default), csv, json or md\n"
	"  -h, --help         show this help\n";

enum { OPT_WINDOW = 0x100 };

static int parse_fraction(const char *arg, double *out)
{
	const char *p = arg;
	double v;

	if (scan_double(&p, 0, &v))
		return -1;
	if (*p == '%') {
		v /= 100;
		p++;
	}
	*out = v;
	return *p || !isfinite(v) ? -1 : 0;
}

/* The run index of --since, or -1 for a name no run has. */
static long since_index(const struct store_data *d, const char *name)
{
	for (size_t i = 0; i < d->nruns; i++)
		if (!strcmp(d->runs[i].name, name))
			return (long)i;
	return -1;
}

static int default_metric(const struct history_series *s)
{
	return compare_default_metric(s->metric);
}

struct detect_args {
	struct detect_options opt;
	const char *since, *metric, *where;
	enum fmt_kind fmt;
};

static int parse_args(int argc, char **argv, struct detect_args *a)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "min-change", required_argument, NULL, 'c' },
		{ "since", required_argument, NULL, 's' },
		{ "metric", required_argument, NULL, 'm' },
		{ "where", required_argument, NULL, 'w' },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	double v;

	memset(a, 0, sizeof(*a));
	detect_options_init(&a->opt);
	a->fmt = FMT_TEXT;
	while ((c = getopt_long(argc, argv, "a:m:w:f:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			if (parse_fraction(optarg, &v) || !(v > 0 && v < 1))
				return usage_error("detect", "--alpha wants a "
						   "level between 0 and 1, not "
						   "'%s'", optarg);
			a->opt.alpha = v;
			break;
		case 'c':
			if (parse_fraction(optarg, &v) || v < 0)
				return usage_error("detect", "--min-change "
						   "wants 5%% or 0.05, not "
						   "'%s'", optarg);
			a->opt.min_change = v;
			break;
		case OPT_WINDOW:
			if (parse_fraction(optarg, &v) || v < 4 || v > 10000 ||
			    v > floor(v))
				return usage_error("detect", "--window wants a "
						   "number of runs (4 to "
						   "10000), not '%s'", optarg);
			a->opt.window = (size_t)v;
			break;
		case 's':
			a->since = optarg;
			break;
		case 'm':
			a->metric = optarg;
			break;
		case 'w':
			a->where = optarg;
			break;
		case 'f':
			if (fmt_parse(optarg, &a->fmt) || a->fmt == FMT_HTML)
				return usage_error("detect", "unknown format "
						   "'%s' (text, csv, json, md)",
						   optarg);
			break;
		case 'h':
			print_usage(stdout, detect_usage);
			return -1;
		default:
			return usage_error("detect", "bad option");
		}
	}
	if (argc - optind != 1)
		return usage_error("detect", "wants one DB");
	return 0;
}

/* Prints the table; returns how many series end in a regression. */
static size_t report(const struct history *h, const struct history_change *c,
		     size_t n, long since, const struct detect_args *a)
{
	struct strbuf out = STRBUF_INIT;
	struct fmt_table t;
	size_t gated = 0, shown = 0, regressions = 0;

	history_changes_table(h, c, n, since, &t);
	for (size_t i = 0; i < n; i++) {
		const struct history_series *hs = &h->s[c[i].series];
		int last = i + 1 == n || c[i + 1].series != c[i].series;

		if ((long)hs->p[c[i].point].run <= since)
			continue;
		shown++;
		regressions += c[i].verdict == HISTORY_REGRESSION;
		if (last && c[i].verdict == HISTORY_REGRESSION) {
			gated++;
			fmt_table_add_note(&t, "the newest run follows a "
					   "regression: %s (%+.1f%% at run %s)",
					   hs->name, c[i].change_pct,
					   h->data->runs[hs->p[c[i].point].run]
					   .name);
		}
	}
	fmt_table_add_note(&t, "%zu series over %zu runs: %zu change "
			   "point(s)%s, %zu regression(s); alpha %g, "
			   "min change %g%%", h->n, h->data->nruns, shown,
			   since >= 0 ? " after --since" : "", regressions,
			   a->opt.alpha, a->opt.min_change * 100);
	fmt_render(&t, a->fmt, 0, &out);
	fputs(strbuf_str(&out), stdout);
	fmt_table_release(&t);
	strbuf_release(&out);
	return gated;
}

int cmd_detect(int argc, char **argv)
{
	struct detect_args a;
	struct store_data d;
	struct history h;
	struct history_change *c = NULL;
	size_t n;
	long since = -1;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	rc = history_load(argv[optind], a.metric, a.where, &d, &h);
	if (rc)
		return rc;
	if (a.since && (since = since_index(&d, a.since)) < 0) {
		fprintf(stderr, "%s: no run named '%s' (storan store ls %s "
			"lists them)\n", argv[optind], a.since, argv[optind]);
		rc = EXIT_TROUBLE;
	} else {
		if (!a.metric)
			history_keep(&h, default_metric);
		n = history_detect(&h, &a.opt, &c);
		rc = report(&h, c, n, since, &a) ? EXIT_FINDINGS : EXIT_OK;
	}
	free(c);
	history_release(&h);
	store_data_release(&d);
	return rc;
}
