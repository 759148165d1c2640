/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan compare: a baseline against one or more candidates, measurement
 * by measurement, with significance tests and verdicts a CI job can gate
 * on (exit 1 on any regression).
 *
 * Thin: options, loading and the exit status here; matching and verdicts
 * in analysis/compare.h, storan check's findings on the compared figures
 * in analysis/footnotes.h, the text, Markdown, CSV (a contract) and JSON
 * writers in analysis/compare-out.h.  Findings never change the exit
 * status.
 */
#include "cmd.h"
#include "findings-args.h"
#include "options.h"
#include "../analysis/compare.h"
#include "../analysis/compare-out.h"
#include "../analysis/footnotes.h"
#include "../analysis/format.h"
#include "../analysis/steady.h"
#include "../analysis/steady-table.h"
#include "../core/atomic.h"
#include "../core/human.h"
#include "../ingest/load.h"
#include "../core/numscan.h"
#include "../core/pager.h"
#include "../core/suggest.h"
#include "../core/xalloc.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char compare_usage[] =
	"usage: storan compare BASELINE CANDIDATE... [options]\n"
	"\n"
	"Matches the measurements of each CANDIDATE with the BASELINE's and\n"
	"gives the ratio, the change, a significance test where there are\n"
	"repeated runs, and a verdict: improvement, regression, unchanged or\n"
	"inconclusive.  Inputs are result sets or any text 'storan ingest'\n"
	"reads.\n"
	"\n"
	"      --threshold PCT   changes within PCT are unchanged (5%)\n"
	"  -a, --alpha A         significance level (0.05)\n"
	"  -T, --test T          auto (default), welch, mannwhitney\n"
	"  -m, --metric M,...    metrics to compare (default: bw, iops,\n"
	"                        lat.mean, clat.mean, their p99 and\n"
	"                        time.*; all: every metric with a\n"
	"                        direction)\n"
	"  -w, --where K=V,...   only measurements that match\n"
	"  -M, --match KEYS      match on exactly these labels\n"
	"  -I, --ignore KEYS     also leave these labels out of the match\n"
	"  -f, --format F        text (default), md, csv, json\n"
	"      --color WHEN      auto (default), always, never\n"
	"  -o, --output FILE     write to FILE (whole or not at all)\n"
	"      --no-pager        never page (on a terminal: $STORAN_PAGER,\n"
	"                        $PAGER or less -FRX)\n"
	"      --link NAME       link for storan check's over-link (sata3,\n"
	"                        pcie3x4, ...; see storan-check(1))\n"
	"      --ram SIZE        RAM of the tested machines (default: this\n"
	"                        one's)\n"
	"      --findings F      warnings (default) or all: which findings of\n"
	"                        storan check mark a mean (" FMT_NOTE_MARK
	"1) with a note\n"
	"      --no-check        no findings, no marks\n"
	"      --steady[=RULE]   of a figure with samples over time (a fio\n"
	"                        log), only the part after it became steady\n"
	"                        (RULE as fio's ss=: iops:2%,dur=60;\n"
	"                        default " STEADY_DEFAULT ")\n"
	"  -h, --help            show this help\n"
	"\n"
	"Exit status: 0 no regression, 1 a regression (or an input only\n"
	"partly read, or nothing matched), 2 trouble.\n";

struct compare_args {
	struct compare_options co;
	struct filter where;
	enum fmt_kind format;
	const char *color;
	const char *output;
	int no_pager;
	struct findings_args fa;
	const char *steady;	/* --steady: the rule's text, or NULL */
	struct steady_rule rule;
};

static int parse_number(const char *s, int percent, double *out)
{
	const char *p = s;

	if (scan_double(&p, 0, out))
		return -1;
	if (percent && *p == '%')
		p++;
	return *p ? -1 : 0;
}

static int parse_option(int c, struct compare_args *a)
{
	struct compare_options *o = &a->co;
	int rc = findings_args_option("compare", c, optarg, &a->fa);
	struct strbuf err = STRBUF_INIT;

	if (rc >= 0)
		return rc;
	switch (c) {
	case 't':
		if (parse_number(optarg, 1, &o->threshold))
			return usage_error("compare", "bad --threshold '%s' "
					   "(a percentage: 5%%)", optarg);
		break;
	case 'a':
		if (parse_number(optarg, 0, &o->alpha) ||
		    !(o->alpha > 0 && o->alpha < 1))
			return usage_error("compare", "bad --alpha '%s' (a "
					   "number between 0 and 1)", optarg);
		break;
	case 'T':
		if (!strcmp(optarg, "auto"))
			o->test = COMPARE_TEST_AUTO;
		else if (!strcmp(optarg, "welch"))
			o->test = COMPARE_TEST_WELCH;
		else if (!strcmp(optarg, "mannwhitney"))
			o->test = COMPARE_TEST_MANN_WHITNEY;
		else
			return usage_error("compare", "unknown --test '%s'",
					   optarg);
		break;
	case 'm':
		if (option_list_add(optarg, &o->metrics, &o->nmetrics))
			return usage_error("compare", "bad --metric '%s'",
					   optarg);
		break;
	case 'w':
		if (filter_parse(&a->where, optarg))
			return usage_error("compare", "bad --where '%s' "
					   "(expected k=v or k!=v)", optarg);
		break;
	case 'M':
		if (option_list_add(optarg, &o->match, &o->nmatch))
			return usage_error("compare", "bad --match '%s'",
					   optarg);
		break;
	case 'I':
		if (option_list_add(optarg, &o->ignore, &o->nignore))
			return usage_error("compare", "bad --ignore '%s'",
					   optarg);
		break;
	case 'f':
		if (fmt_parse(optarg, &a->format) || a->format == FMT_HTML)
			return usage_error("compare", "unknown format '%s' "
					   "(text, md, csv or json)", optarg);
		break;
	case 'C':
		if (fmt_color_wanted(optarg, 1) < 0)
			return usage_error("compare", "bad --color '%s' "
					   "(auto, always or never)", optarg);
		a->color = optarg;
		break;
	case 'o':
		a->output = optarg;
		break;
	case 'S':
		a->steady = optarg ? optarg : STEADY_DEFAULT;
		rc = steady_parse(a->steady, &a->rule, &err) ?
		     usage_error("compare", "%s", err.buf) : 0;
		strbuf_release(&err);
		return rc;
	case 'P':
		a->no_pager = 1;
		break;
	default:
		return usage_error("compare", "bad option");
	}
	return 0;
}

/*
 * No --metric: the headline metrics.  "all" among them: every metric
 * with a direction (compare_default_metric()), whatever else is named.
 */
static void metrics_all(struct compare_options *o)
{
	o->headline = !o->metrics;
	for (size_t i = 0; i < o->nmetrics; i++)
		if (!strcmp(o->metrics[i], "all")) {
			option_list_free(o->metrics, o->nmetrics);
			o->metrics = NULL;
			o->nmetrics = 0;
			return;
		}
}


/*
 * Metrics storan knows by name even where no input has them (a script
 * may pass --metric time.real to inputs of every kind): the fixed names
 * and the families with their summaries and percentiles.
 */
static const char *const fixed[] = {
	"bw", "iops", "bytes", "runtime", "time.real", "time.user",
	"time.sys", "cpu.usr", "cpu.sys", "disk.util", "lat", "clat", "slat",
	"lat.mean", "clat.mean", "slat.mean", "lat.p99", "clat.p99",
};

static int metric_known(const char *m)
{
	static const char *const families[] = {
		"lat.", "clat.", "slat.", "bw.", "iops.",
	};
	const char *p;
	double v;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++)
		if (!strcmp(m, fixed[i]))
			return 1;
	for (size_t i = 0; i < sizeof(families) / sizeof(*families); i++) {
		size_t n = strlen(families[i]);

		if (strncmp(m, families[i], n))
			continue;
		p = m + n;
		if (!strcmp(p, "mean") || !strcmp(p, "min") ||
		    !strcmp(p, "max") || !strcmp(p, "stddev"))
			return 1;
		if (*p++ != 'p')
			return 0;
		return !scan_double(&p, 0, &v) && !*p && v > 0 && v <= 100;
	}
	return 0;
}

/*
 * Label keys a script may name whatever the inputs hold (CONTRACTS.md's
 * labels, the provenance keys, the key derived from input names).
 */
static const char *const known_keys[] = {
	"host", "device", "section", "command", "file", "job", "rw",
	"rwmixread", "bs", "iodepth", "numjobs", "ioengine", "direct",
	"filesize", "threads", "group", "if", "of", "count", "conv", "iflag",
	"oflag", "link", "compression", "kind", "test", "name-test",
};

/* Appends s to the candidates *v[0..*n) unless there already. */
static void add_cand(const char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* Is s one of v[0..n)? */
static int in_cands(const char *s, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, v[i]))
			return 1;
	return 0;
}

/* "unknown --metric 'iosp'; did you mean 'iops'?" and exit 2. */
static int unknown_word(const char *what, const char *word,
			const char *const *cands, size_t n)
{
	const char *best = suggest_closest(word, cands, n);

	if (best)
		return usage_error("compare", "unknown %s '%s'; did you mean "
				   "'%s'?", what, word, best);
	return usage_error("compare", "unknown %s '%s'", what, word);
}

/* A measurement's names of one kind: its metric, or its label keys. */
static size_t names_of(const struct measurement *m, int is_key)
{
	return is_key ? m->labels.n : 1;
}

static const char *name_of(const struct measurement *m, int is_key, size_t k)
{
	return is_key ? m->labels.v[k].key : m->metric;
}

/* Does a measurement of the inputs have the metric (or the label key)? */
static int inputs_have(const struct result_set *sets, int n, const char *name,
		       int is_key)
{
	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < sets[i].n; j++)
			for (size_t k = 0; k < names_of(&sets[i].m[j], is_key);
			     k++)
				if (!strcmp(name_of(&sets[i].m[j], is_key, k),
					    name))
					return 1;
	return 0;
}

static int known_metric(const char *name)
{
	return !strcmp(name, "all") || in_cands(name, fixed,
						 sizeof(fixed) / sizeof(*fixed)) ||
	       metric_known(name);
}

static int known_key(const char *name)
{
	return in_cands(name, known_keys,
			sizeof(known_keys) / sizeof(*known_keys));
}

/* "unknown --metric 'iosp'; did you mean 'iops'?": the inputs' own
 * metrics (or keys) are candidates first, then the ones storan knows. */
static int unknown_name(const char *what, const char *name,
			const struct result_set *sets, int n, int is_key)
{
	const char **cands = NULL;
	size_t nc = 0;
	int rc;

	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < sets[i].n; j++)
			for (size_t k = 0; k < names_of(&sets[i].m[j], is_key);
			     k++)
				add_cand(&cands, &nc,
					 name_of(&sets[i].m[j], is_key, k));
	if (is_key) {
		for (size_t i = 0; i < sizeof(known_keys) / sizeof(*known_keys);
		     i++)
			add_cand(&cands, &nc, known_keys[i]);
	} else {
		add_cand(&cands, &nc, "all");
		for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++)
			add_cand(&cands, &nc, fixed[i]);
	}
	rc = unknown_word(what, name, cands, nc);
	free(cands);
	return rc;
}

/*
 * Every --metric, --match and --ignore name is one the inputs have or
 * storan knows; else exit 2 with the closest known one.  Run after
 * loading.  The inputs are searched only for a name storan does not
 * know, and their names gathered only to suggest one: gathering them
 * for every compare took 0.12 s of 3.3 at a million measurements a side.
 */
static int check_names(const struct compare_args *a,
		       const struct result_set *sets, int n)
{
	const struct compare_options *o = &a->co;
	static const char *const what[] = { "--match key", "--ignore key" };
	char *const *keys[] = { o->match, o->ignore };
	size_t nkeys[] = { o->nmatch, o->nignore };

	for (size_t i = 0; i < o->nmetrics; i++)
		if (!known_metric(o->metrics[i]) &&
		    !inputs_have(sets, n, o->metrics[i], 0))
			return unknown_name("--metric", o->metrics[i], sets, n,
					    0);
	for (size_t w = 0; w < 2; w++)
		for (size_t i = 0; i < nkeys[w]; i++)
			if (!known_key(keys[w][i]) &&
			    !inputs_have(sets, n, keys[w][i], 1))
				return unknown_name(what[w], keys[w][i], sets,
						    n, 1);
	return 0;
}

/* Loads every input into its own set; the worst status. */
static enum load_status load_all(char **names, int n, struct result_set *sets,
				 struct compare_args *a)
{
	struct diag_list diags;
	enum load_status worst;

	diag_list_init(&diags);
	worst = load_inputs_each(names, (size_t)n, NULL, sets, &diags);
	for (int i = 0; a->steady && i < n; i++)
		steady_keep_part(&sets[i], &a->rule, &diags);
	diag_print(&diags, stderr);
	diag_list_release(&diags);
	return worst;
}

/* An input with nothing to compare, said with what left it empty. */
static void say_empty(const struct compare_args *a, const char *name)
{
	fprintf(stderr, "storan compare: %s: no measurement to compare%s\n",
		name, a->co.metrics || a->co.where ?
		" (--metric and --where leave none)" :
		" (bw, iops, mean and p99 latency, times; --metric all for"
		" the rest)");
}

static int exit_status(const struct compare_args *a, char **names,
		       const struct compare_result *res, int nres,
		       enum load_status st)
{
	int rc = st == LOAD_FAILED ? EXIT_FINDINGS : EXIT_OK;
	size_t matched = 0;

	for (int i = 0; i < nres; i++) {
		matched += res[i].nrows;
		if (res[i].counts[VERDICT_REGRESSION])
			rc = EXIT_FINDINGS;
		if (!i && !res[i].compared[0])
			say_empty(a, names[0]);
		if (!res[i].compared[1])
			say_empty(a, names[i + 1]);
	}
	if (!matched) {
		fputs("storan compare: no measurement matched\n", stderr);
		rc = EXIT_FINDINGS;
	}
	return rc;
}

/*
 * The width text output fits: the terminal's when standard output is
 * one (TIOCGWINSZ, else $COLUMNS, else 80); 0 (no limit) otherwise.
 */
static size_t terminal_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	double v;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	if (env && is_numeric_string(env, &v) && v >= 20 && v < 10000)
		return (size_t)v;
	return 80;
}

/*
 * storan check over every input: set i of fn is input i, checked with
 * its own cache drops only.  (They match a measurement by source name:
 * pooled, a drop in the baseline's run.txt hid the cached read at 10x
 * in the candidate's run.txt, and compare called it an improvement.)
 */
/*
 * Every input checked on the CPUs the comparison leaves spare (all of
 * them only read the sets): start_checks() before, finish_checks()
 * after; footnote set i is input i's.
 */
static struct footnotes_pending *start_checks(struct compare_args *a,
					      struct result_set *sets, int n)
{
	struct footnotes_pending *p = xcalloc((size_t)n, sizeof(*p));

	footnotes_checks_start(p, sets, (size_t)n, &a->fa.check);
	return p;
}

static void finish_checks(struct footnotes_pending *p, int n,
			  struct footnotes *fn)
{
	struct strbuf err = STRBUF_INIT;
	size_t set;

	for (int i = 0; i < n; i++)
		if (footnotes_check_finish(fn, &p[i], &set, &err) ||
		    set != (size_t)i)
			BUG("checking input %d: %s", i, strbuf_str(&err));
	strbuf_release(&err);
	free(p);
}

/* The results in a->format, into out (drained as it fills, when given). */
static void render_results(const struct compare_args *a, char **names,
			   const struct compare_result *res, int nres,
			   struct footnotes *fn, struct strbuf *out,
			   const struct strbuf_drain *drain)
{
	int to_stdout = !strcmp(a->output, "-");

	if (a->format == FMT_CSV)
		compare_write_csv(names, res, nres, fn, out);
	else if (a->format == FMT_JSON)
		compare_write_json(&a->co, names, res, nres, fn, out);
	else
		compare_write_tables(a->format, names, res, nres, fn,
				     a->format == FMT_TEXT && to_stdout &&
				     fmt_color_wanted(a->color, 1) > 0,
				     to_stdout ? terminal_width() : 0, out,
				     drain);
}

/*
 * The output, written as it is made (a million rows are 116 MB of text),
 * whole or not at all; through the pager, whole, on a terminal.  0, or
 * -1 after saying what failed.
 */
static int write_output(const struct compare_args *a, char **names,
			const struct compare_result *res, int nres,
			struct footnotes *fn)
{
	struct strbuf out = STRBUF_INIT;
	struct atomic_file af;
	struct strbuf_drain drain = { atomic_file_drain, &af };
	int rc;

	if (!strcmp(a->output, "-") && !a->no_pager && pager_command()) {
		render_results(a, names, res, nres, fn, &out, NULL);
		rc = pager_write(out.buf, out.len);
	} else if (atomic_file_open(&af, a->output)) {
		rc = -1;
	} else {
		render_results(a, names, res, nres, fn, &out, &drain);
		atomic_file_drain(&out, &af);
		rc = atomic_file_commit(&af);
	}
	strbuf_release(&out);
	return rc;
}

static int run_compare(struct compare_args *a, char **names, int n)
{
	struct result_set *sets = xcalloc((size_t)n, sizeof(*sets));
	struct compare_result *res = xcalloc((size_t)n, sizeof(*res));
	enum load_status st = load_all(names, n, sets, a);
	struct footnotes fns, *fn = a->fa.off ? NULL : &fns;
	int rc = EXIT_TROUBLE;

	footnotes_init(&fns, a->fa.level);
	if (st != LOAD_TROUBLE)
		rc = check_names(a, sets, n);
	if (st != LOAD_TROUBLE && !rc) {
		struct footnotes_pending *checks =
			fn ? start_checks(a, sets, n) : NULL;

		rc = EXIT_TROUBLE;
		for (int i = 1; i < n; i++)
			compare_sets(&sets[0], &sets[i], &a->co, &res[i - 1]);
		if (fn)
			finish_checks(checks, n, fn);
		rc = write_output(a, names, res, n - 1, fn);
		rc = rc ? EXIT_TROUBLE : exit_status(a, names, res, n - 1,
						     st);
	}
	if (!FREE_BEFORE_EXIT)
		return rc;	/* (storan exits now) */
	for (int i = 0; i < n; i++) {
		compare_result_release(&res[i]);
		result_set_release(&sets[i]);
	}
	free(res);
	free(sets);
	footnotes_release(&fns);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "threshold", required_argument, NULL, 't' },	/* long only:
							 * -t is --title */
		{ "alpha", required_argument, NULL, 'a' },
		{ "test", required_argument, NULL, 'T' },
		{ "metric", required_argument, NULL, 'm' },
		{ "where", required_argument, NULL, 'w' },
		{ "match", required_argument, NULL, 'M' },
		{ "ignore", required_argument, NULL, 'I' },
		{ "format", required_argument, NULL, 'f' },
		{ "color", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-pager", no_argument, NULL, 'P' },
		{ "steady", optional_argument, NULL, 'S' },
		FINDINGS_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_args a;
	int c, rc = 0;

	memset(&a, 0, sizeof(a));
	filter_init(&a.where);
	a.co.threshold = 5;
	a.co.alpha = 0.05;
	a.format = FMT_TEXT;
	a.color = "auto";
	a.output = "-";
	findings_args_init(&a.fa);
	while (!rc && (c = getopt_long(argc, argv, "a:T:m:w:M:I:f:o:h",
				       longopts, NULL)) != -1) {
		if (c == 'h') {
			print_usage(stdout, compare_usage);
			goto out;
		}
		rc = parse_option(c, &a);
	}
	if (!rc && a.co.match && a.co.ignore)
		rc = usage_error("compare", "--match and --ignore exclude "
				 "each other");
	if (!rc && !(a.co.threshold >= 0))
		rc = usage_error("compare", "--threshold must not be "
				 "negative");
	if (!rc && argc - optind < 2)
		rc = usage_error("compare", "needs a baseline and at least "
				 "one candidate");
	a.co.where = a.where.n ? &a.where : NULL;
	if (!rc)
		metrics_all(&a.co);
	if (!rc && output_path_check(a.output))
		rc = EXIT_TROUBLE;
	if (!rc)
		rc = run_compare(&a, argv + optind, argc - optind);
out:
	option_list_free(a.co.metrics, a.co.nmetrics);
	option_list_free(a.co.match, a.co.nmatch);
	option_list_free(a.co.ignore, a.co.nignore);
	filter_release(&a.where);
	return rc;
}
