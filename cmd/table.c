/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan table: pivot and ratio tables of one metric.
 *
 * Thin: options, loading, then analysis/table.h builds the pivot,
 * analysis/footnotes.h marks the cells storan check's findings touch and
 * analysis/format.h renders it.  Exit 0 for a table, 1 when an input was
 * only partly read or cells pool different conditions, 2 for trouble
 * (usage, a missing input, nothing selected, an unknown --link).
 * Findings never change the exit status: that is storan check's job.
 */
#include "cmd.h"
#include "findings-args.h"
#include "../analysis/footnotes.h"
#include "../analysis/format.h"
#include "../analysis/steady.h"
#include "../analysis/table.h"
#include "../core/atomic.h"
#include "../ingest/load.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char table_usage[] =
	"usage: storan table INPUT... --rows KEY[,KEY] [--cols KEY[,KEY]]\n"
	"                    --metric M [options]\n"
	"\n"
	"Pivots one metric: KEY is op, tool, metric, source or any label\n"
	"(bs, iodepth, host...); each cell holds a statistic of the runs.\n"
	"INPUT is a result set or any text 'storan ingest' reads.\n"
	"\n"
	"  -r, --rows KEYS      keys on rows (comma-separated)\n"
	"  -c, --cols KEYS      keys on columns (default: one column)\n"
	"  -m, --metric M       the metric in the cells (bw, iops, ...)\n"
	"  -w, --where K=V,...  only measurements that match (K!=V excludes)\n"
	"      --stat S         mean (default), median, min, max, cv, n\n"
	"      --ratio K=A/K=B  divide the cells of K=A by those of K=B\n"
	"      --pool KEYS      pool measurements that differ only in these\n"
	"                       (else a cell pooling them is reported)\n"
	"      --alpha A        significance level of ratio marks (0.05)\n"
	"      --steady[=RULE]  the steady-state rule of the NAME_steady\n"
	"                       columns of figures with samples over time\n"
	"                       (fio logs; fio's ss= form, default\n"
	"                       " STEADY_DEFAULT ")\n"
	"  -u, --units U        auto (default), B/s, kB/s, MB/s, MiB/s, GB/s,\n"
	"                       GiB/s, iops, kiops, us, ms, s\n"
	"  -f, --format F       text (default), md, csv, json, html\n"
	"  -o, --output FILE    write to FILE (whole or not at all)\n"
	"      --link NAME      link for storan check's over-link (sata3,\n"
	"                       pcie3x4, ...; see storan-check(1))\n"
	"      --ram SIZE       RAM of the tested machine (default: this\n"
	"                       one's)\n"
	"      --findings F     warnings (default) or all: which findings of\n"
	"                       storan check mark a cell (" FMT_NOTE_MARK
	"1) with a note\n"
	"      --no-check       no findings, no marks\n"
	"  -h, --help           show this help\n"
	"\n"
	"Exit status: 0 table written, 1 an input was only partly read or\n"
	"cells pool different conditions, 2 trouble.\n";

struct table_args {
	struct pivot_options po;
	struct filter where;
	const char *units;
	const char *output;
	enum fmt_kind format;
	double alpha;
	char *ratio_key, *ratio_num, *ratio_den;
	struct findings_args fa;
	struct steady_rule rule;
};

/* Splits "a,b" into a NULL-terminated array; -1 for an empty part. */
static int split_keys(const char *s, char ***out, size_t *n)
{
	const char *p = s;

	*n = 0;
	*out = NULL;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (!len)
			return -1;
		*out = xrealloc(*out, (*n + 2) * sizeof(**out));
		(*out)[(*n)++] = xstrndup(p, len);
		(*out)[*n] = NULL;
		if (!end)
			return 0;
		p = end + 1;
	}
}

static void free_keys(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int parse_alpha(const char *s, double *out)
{
	const char *p = s;

	return scan_double(&p, 0, out) || *p || !(*out > 0 && *out < 1) ?
	       -1 : 0;
}

static int parse_option(int c, struct table_args *a)
{
	int rc = findings_args_option("table", c, optarg, &a->fa);

	if (rc >= 0)
		return rc;
	switch (c) {
	case 'r':
		free_keys(a->po.row_keys, a->po.nrow_keys);
		if (split_keys(optarg, &a->po.row_keys, &a->po.nrow_keys))
			return usage_error("table", "bad --rows '%s'", optarg);
		break;
	case 'c':
		free_keys(a->po.col_keys, a->po.ncol_keys);
		if (split_keys(optarg, &a->po.col_keys, &a->po.ncol_keys))
			return usage_error("table", "bad --cols '%s'", optarg);
		break;
	case 'm':
		a->po.metric = optarg;
		break;
	case 'w':
		if (filter_parse(&a->where, optarg))
			return usage_error("table", "bad --where '%s' "
					   "(expected k=v or k!=v)", optarg);
		break;
	case 's':
		if (pivot_stat_parse(optarg, &a->po.stat))
			return usage_error("table", "unknown --stat '%s'",
					   optarg);
		break;
	case 'R':
		free(a->ratio_key);
		free(a->ratio_num);
		free(a->ratio_den);
		a->ratio_key = NULL;
		if (pivot_ratio_parse(optarg, &a->ratio_key, &a->ratio_num,
				      &a->ratio_den))
			return usage_error("table", "bad --ratio '%s' "
					   "(expected KEY=A/KEY=B)", optarg);
		break;
	case 'a':
		if (parse_alpha(optarg, &a->alpha))
			return usage_error("table", "bad --alpha '%s' "
					   "(a number between 0 and 1)",
					   optarg);
		break;
	case 'u':
		a->units = optarg;
		break;
	case 'f':
		if (fmt_parse(optarg, &a->format))
			return usage_error("table", "unknown format '%s'",
					   optarg);
		break;
	case 'o':
		a->output = optarg;
		break;
	case 'S': {
		struct strbuf err = STRBUF_INIT;
		int bad = steady_parse(optarg ? optarg : STEADY_DEFAULT,
				       &a->rule, &err) ?
			  usage_error("table", "%s", err.buf) : 0;

		strbuf_release(&err);
		return bad;
	}
	case 'P':
		free_keys(a->po.pool, a->po.npool);
		if (split_keys(optarg, &a->po.pool, &a->po.npool))
			return usage_error("table", "bad --pool '%s'", optarg);
		break;
	default:
		return usage_error("table", "bad option");
	}
	return 0;
}

static int check_args(struct table_args *a)
{
	if (!a->po.metric)
		return usage_error("table", "--metric is required");
	if (!a->po.nrow_keys)
		return usage_error("table", "--rows is required");
	if (a->ratio_key) {
		for (size_t i = 0; i < a->po.nrow_keys; i++)
			if (!strcmp(a->po.row_keys[i], a->ratio_key))
				return usage_error("table", "the --ratio key "
						   "'%s' cannot be a row too",
						   a->ratio_key);
		for (size_t i = 0; i < a->po.ncol_keys; i++)
			if (!strcmp(a->po.col_keys[i], a->ratio_key))
				return usage_error("table", "the --ratio key "
						   "'%s' cannot be a column "
						   "too", a->ratio_key);
	}
	a->po.ratio_key = a->ratio_key;
	a->po.ratio_num = a->ratio_num;
	a->po.ratio_den = a->ratio_den;
	a->po.where = a->where.n ? &a->where : NULL;
	return 0;
}

/* Lists the metrics the inputs do have, for a --metric that matched none. */
static void hint_metrics(const struct result_set *rs)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < rs->n; i++) {
		const char *m = rs->m[i].metric;
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(rs->m[j].metric, m);
		if (!seen && sb.len < 200)
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", m);
	}
	if (sb.len)
		fprintf(stderr, "storan table: metrics in the inputs: %s\n",
			sb.buf);
	strbuf_release(&sb);
}

/* Marks the value cells whose measurements findings touch. */
static void add_footnotes(struct footnotes *fn, size_t set,
			  const struct pivot *pv, struct fmt_table *t)
{
	for (size_t r = 0; r < pv->nrows; r++) {
		for (size_t c = 0; c < pv->ncols; c++) {
			size_t n;
			const size_t *mi = pivot_cell_members(pv, r, c, &n);

			footnotes_mark_cell(fn, t, r, pv->nrow_keys + c, set,
					    mi, n);
		}
	}
	footnotes_to_fmt(fn, t);
}

static int render(const struct pivot *pv, const struct table_args *a,
		  struct footnotes *fn, size_t set)
{
	struct display_unit u, *unit = NULL;
	struct fmt_table t;
	struct strbuf out = STRBUF_INIT;
	int rc;

	if (a->units && strcmp(a->units, "auto")) {
		if (display_unit_parse(a->units, pv->unit, &u))
			return usage_error("table", "unit '%s' does not fit "
					   "'%s' (stored in %s)", a->units,
					   pv->metric, pv->unit);
		unit = &u;
	} else if (a->format == FMT_JSON) {
		/* JSON's figures are in the base unit (B/s, 1/s, s): its
		 * title says so, not the unit the text table would pick */
		display_unit_auto(pv->unit, 0, 0, &u);
		unit = &u;
	}
	pivot_to_fmt(pv, unit, a->alpha, &t);
	if (fn)
		add_footnotes(fn, set, pv, &t);
	fmt_render(&t, a->format, 0, &out);
	rc = write_file_atomic(a->output, out.buf, out.len) ? EXIT_TROUBLE :
	     EXIT_OK;
	fmt_table_release(&t);
	strbuf_release(&out);
	return rc;
}

/* A label or field of rs, or a key its inputs' names give ("test"). */
static int axis_key_check(const struct result_set *rs, const char *option,
			  const char *key, struct strbuf *err)
{
	size_t len = err->len;

	if (!filter_key_check(rs, option, key, NULL, err))
		return 0;
	if (!pivot_key_from_names(rs, key))
		return -1;
	strbuf_truncate(err, len);
	return 0;
}

/* Every key --rows, --cols, --ratio and --where name is one of rs's (a
 * --pool key none has is harmless: nothing differs in it); else says
 * which, with the nearest, and the caller exits 2. */
static int check_keys(const struct result_set *rs, const struct table_args *a)
{
	struct strbuf err = STRBUF_INIT;
	const struct pivot_options *po = &a->po;
	int rc = 0;

	for (size_t i = 0; !rc && i < po->nrow_keys; i++)
		rc = axis_key_check(rs, "--rows", po->row_keys[i], &err);
	for (size_t i = 0; !rc && i < po->ncol_keys; i++)
		rc = axis_key_check(rs, "--cols", po->col_keys[i], &err);
	if (!rc && a->ratio_key)
		rc = filter_key_check(rs, "--ratio", a->ratio_key, NULL, &err);
	if (!rc)
		rc = filter_keys_check(&a->where, rs, &err);
	if (rc)
		fprintf(stderr, "storan table: %s\n", err.buf);
	strbuf_release(&err);
	return rc;
}

static int run_table(struct table_args *a, char **inputs, int ninputs)
{
	struct result_set rs;
	struct diag_list diags;
	struct strbuf err = STRBUF_INIT;
	struct strbuf cerr = STRBUF_INIT;
	struct footnotes fn;
	struct footnotes_pending check;
	struct pivot pv;
	enum load_status st;
	size_t set = 0;
	int rc, built;

	result_set_init(&rs);
	diag_list_init(&diags);
	footnotes_init(&fn, a->fa.level);
	st = load_inputs(inputs, ninputs, NULL, &rs, &diags);
	diag_print(&diags, stderr);
	if (check_keys(&rs, a)) {
		rc = EXIT_TROUBLE;
		goto out;
	}
	/* the check beside the pivot: both only read rs */
	if (!a->fa.off)
		footnotes_check_start(&check, &rs, &a->fa.check);
	built = pivot_build(&pv, &rs, &a->po, &err);
	if (!a->fa.off && footnotes_check_finish(&fn, &check, &set, &cerr))
		BUG("%s", strbuf_str(&cerr));	/* --link was checked */
	if (built) {
		fprintf(stderr, "storan table: %s\n", err.buf);
		hint_metrics(&rs);
		rc = EXIT_TROUBLE;
	} else {
		rc = render(&pv, a, a->fa.off ? NULL : &fn, set);
		if (!rc && pv.mixed_cells) {
			fprintf(stderr, "storan table: warning: %zu cell(s) "
				"pool measurements that differ in '%s' (%s, "
				"%s); put '%s' on --rows or --cols, or pick "
				"one with --where\n", pv.mixed_cells,
				pv.mix_key, pv.mix_a, pv.mix_b, pv.mix_key);
			rc = EXIT_FINDINGS;
		}
		if ((int)st > rc)
			rc = (int)st;
	}
	if (FREE_BEFORE_EXIT)
		pivot_release(&pv);
out:
	if (!FREE_BEFORE_EXIT)
		return rc;	/* (storan exits now) */
	footnotes_release(&fn);
	strbuf_release(&err);
	strbuf_release(&cerr);
	diag_list_release(&diags);
	result_set_release(&rs);
	return rc;
}

int cmd_table(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rows", required_argument, NULL, 'r' },
		{ "cols", required_argument, NULL, 'c' },
		{ "metric", required_argument, NULL, 'm' },
		{ "where", required_argument, NULL, 'w' },
		{ "stat", required_argument, NULL, 's' },
		{ "ratio", required_argument, NULL, 'R' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "units", required_argument, NULL, 'u' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "pool", required_argument, NULL, 'P' },
		{ "steady", optional_argument, NULL, 'S' },
		FINDINGS_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct table_args a;
	int c, rc = 0;

	memset(&a, 0, sizeof(a));
	filter_init(&a.where);
	a.output = "-";
	a.alpha = 0.05;
	a.format = FMT_TEXT;
	findings_args_init(&a.fa);
	{
		struct strbuf err = STRBUF_INIT;

		if (steady_parse(STEADY_DEFAULT, &a.rule, &err))
			BUG("storan's own steady-state rule does not parse");
		strbuf_release(&err);
	}
	a.po.steady = &a.rule;
	while (!rc && (c = getopt_long(argc, argv, "r:c:m:w:u:f:o:h",
				       longopts, NULL)) != -1) {
		if (c == 'h') {
			print_usage(stdout, table_usage);
			goto out;
		}
		rc = parse_option(c, &a);
	}
	if (!rc)
		rc = check_args(&a);
	if (!rc && optind >= argc)
		rc = usage_error("table", "no input files");
	if (!rc && output_path_check(a.output))
		rc = EXIT_TROUBLE;
	if (!rc)
		rc = run_table(&a, argv + optind, argc - optind);
out:
	free_keys(a.po.row_keys, a.po.nrow_keys);
	free_keys(a.po.col_keys, a.po.ncol_keys);
	free_keys(a.po.pool, a.po.npool);
	free(a.ratio_key);
	free(a.ratio_num);
	free(a.ratio_den);
	filter_release(&a.where);
	return rc;
}
