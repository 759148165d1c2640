/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * The report: the plan's charts built, their tables, the verdicts of a
 * comparison, and the directory written whole; see report.h.
 */
#include "report.h"
#include "chart-json.h"
#include "tables.h"
#include "timechart.h"
#include "writers.h"
#include "xlsx-data.h"
#include "../analysis/experiment.h"
#include "../analysis/table.h"
#include "../analysis/verdicts.h"
#include "../core/cpus.h"
#include "../core/json-out.h"
#include "../core/numscan.h"
#include "../core/outdir.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the charts --------------------------------------------------------- */

static enum chart_kind chart_kind_of(enum plan_kind k)
{
	return k == PLAN_CDF ? CHART_CDF :
	       k == PLAN_BARS_OR_LINES ? CHART_AUTO : CHART_PERCENTILES;
}

static enum chart_from chart_from_of(enum plan_kind k)
{
	return k == PLAN_PERCENTILES ? CHART_FROM_METRICS :
	       k == PLAN_BARS_OR_LINES ? CHART_FROM_ANY :
	       CHART_FROM_HISTOGRAMS;
}

/* "Throughput by block size -- iodepth=32": a facet's values, after. */
static void add_facets_to_title(struct chart *c, const char *facets)
{
	char *t;

	if (!facets)
		return;
	t = xstrfmt("%s \xe2\x80\x94 %s", c->title, facets);
	free(c->title);
	c->title = t;
}

static void build_chart(struct report *r, const struct plan_chart *pc,
			const struct report_options *opt)
{
	const struct plan_model *pm = &r->plan.models[pc->model];
	struct chart_spec spec = {
		.y = pm->metric, .kind = chart_kind_of(pm->kind),
		.from = chart_from_of(pm->kind), .x = pc->x,
		.series = pc->series, .ratio_side = pc->ratio_side,
		.alpha = opt->alpha, .base = r->rs, .pool = opt->pool,
		.npool = opt->npool,
	};
	struct strbuf err = STRBUF_INIT;
	struct report_chart *rc;

	ALLOC_GROW(r->charts, r->n + 1, r->alloc);
	rc = &r->charts[r->n];
	memset(rc, 0, sizeof(*rc));
	chart_init(&rc->chart);
	if (chart_build_model(&rc->chart, &pm->ex, pc->members, pc->nmembers,
			      &spec, &err)) {
		report_add_note(r, "no chart of %s %s%s%s: %s", pm->tool,
				pm->metric, pc->facets ? " for " : "",
				pc->facets ? pc->facets : "", err.buf);
		chart_release(&rc->chart);
		strbuf_release(&err);
		return;
	}
	add_facets_to_title(&rc->chart, pc->facets);
	rc->name = xstrfmt("%02zu-%s", r->n + 1, pc->name);
	rc->ratio = pc->ratio_side != 0;
	rc->side = pc->ratio_side;
	r->n++;
	strbuf_release(&err);
}

/* ---- the verdicts -------------------------------------------------------- */

/* The index in r->rs of member j of side s of a row. */
static size_t merged_index(const struct report *r, int side_is_set,
			   size_t set, size_t idx)
{
	if (!side_is_set)
		return idx;
	return (size_t)(r->sets[set].m - r->rs->m) + idx;
}

/* Marks the baseline's and the candidate's means, in the page's table
 * of rows[0..n), with their findings. */
static void mark_verdicts(struct report *r, struct report_verdicts *v,
			  int by_sets, const size_t *rows, size_t n_rows)
{
	for (size_t row = 0; r->fn && row < n_rows; row++) {
		const struct compare_row *cr = &v->res.rows[rows[row]];

		for (int s = 0; s < 2; s++) {
			size_t n = cr->nmembers[s];
			size_t *mi = xmalloc((n ? n : 1) * sizeof(*mi));

			for (size_t j = 0; j < n; j++)
				mi[j] = merged_index(r, by_sets,
						     s ? v->side : 0,
						     cr->members[s][j]);
			footnotes_mark_cell(r->fn, &v->table, row, 2 + s,
					    r->fn_set, mi, n);
			free(mi);
		}
	}
}

/*
 * The page's verdict table: the headline metrics, at most
 * PAGE_VERDICT_ROWS rows (the largest changes; a page of 10,000 rows
 * answers nothing); the workbook's Verdicts sheet has every row.
 */
#define PAGE_VERDICT_ROWS 30

static void verdict_tables(struct report *r, struct report_verdicts *v,
			   int by_sets)
{
	const char *a = r->plan.side_names[0];
	const char *b = r->plan.side_names[v->side];
	size_t *rows = xmalloc((v->res.nrows + 1) * sizeof(*rows));
	size_t n, nshown;

	n = verdicts_pick(&v->res, 1, PAGE_VERDICT_ROWS, rows, &nshown);
	verdicts_table(&v->res, 1, rows, n, a, b, &v->table);
	if (n < nshown)
		fmt_table_add_note(&v->table, "the %zu rows of the largest "
				   "changes of %zu, in test order; the "
				   "workbook's Verdicts sheet has every row",
				   n, nshown);
	mark_verdicts(r, v, by_sets, rows, n);
	n = verdicts_pick(&v->res, 0, 0, rows, &nshown);
	verdicts_table(&v->res, 0, rows, n, a, b, &v->all);
	free(rows);
}

static void add_verdicts(struct report *r, const struct report_options *opt,
			 size_t side)
{
	struct compare_options co = {
		.threshold = opt->threshold, .alpha = opt->alpha,
		.where = opt->where, .match = opt->match,
		.nmatch = opt->nmatch, .ignore = opt->ignore,
		.nignore = opt->nignore,
	};
	struct report_verdicts *v;
	struct strbuf sb = STRBUF_INIT;
	const char *key = opt->compare;
	int by_sets = !key && !opt->ratio;

	if (opt->ratio)
		key = r->plan.side_key;
	r->verdicts = xrealloc(r->verdicts, (r->nverdicts + 1) *
			       sizeof(*r->verdicts));
	v = &r->verdicts[r->nverdicts++];
	memset(v, 0, sizeof(*v));
	v->side = side;
	if (by_sets)
		compare_sides(r->sets, r->nsets, NULL, side, &co, &v->res);
	else
		compare_sides(r->rs, 1, key, side, &co, &v->res);
	verdict_tables(r, v, by_sets);
	verdicts_summary(&v->res, 1, &sb);
	v->summary = strbuf_detach(&sb);
	verdicts_geomeans(&v->res, &sb);
	v->geomeans = strbuf_detach(&sb);
}

/* ---- one side: what varies ----------------------------------------------- */

/* The values of factor k of model ex in display order, appended to the
 * list (as text, each once). */
static void add_factor_values(const struct experiment *ex, size_t k,
			      struct strbuf *list)
{
	const struct ex_key *key = &ex->keys[k];
	char buf[96];

	for (size_t rank = 1; rank <= key->nvalues; rank++)
		for (size_t c = 1; c <= key->nvalues; c++) {
			const char *v;
			char *quoted;

			if (key->rank[c] != rank)
				continue;
			v = experiment_value_text(ex, k, (uint32_t)c, buf,
						  sizeof(buf));
			quoted = xstrfmt("\x1f%s\x1f", v);
			if (!strstr(strbuf_str(list), quoted))
				strbuf_adds(list, quoted);
			free(quoted);
		}
}

/* The keys that tell the measurements apart, with their values, over
 * every model: what a reader of a one-input report compares. */
static void factors_table(struct report *r)
{
	const char *names[64];
	struct strbuf lists[64];
	size_t n = 0;

	if (!r->plan.nmodels || r->plan.nsides > 1)
		return;
	for (size_t m = 0; m < r->plan.nmodels; m++) {
		const struct experiment *ex = &r->plan.models[m].ex;
		size_t *all = xmalloc((ex->n + 1) * sizeof(*all));
		size_t dist[64], nd;

		/* the keys that tell the measurements apart, as the charts
		 * see them: not if= and of= beside the headings they
		 * restate */
		for (size_t j = 0; j < ex->n; j++)
			all[j] = j;
		nd = experiment_distinguishing(ex, all, ex->n, NULL, 0, dist,
					       64);
		free(all);
		for (size_t d = 0; d < nd; d++) {
			size_t i, k = dist[d];

			/* (a key only some captures carry is no
			 * difference a reader compares) */
			if (k == EX_OP || k == EX_TOOL ||
			    ex->keys[k].role != EX_FACTOR ||
			    ex->keys[k].nvalues < 2)
				continue;
			for (i = 0; i < n && strcmp(names[i],
						    ex->keys[k].name); i++)
				;
			if (i == n && n == 64)
				continue;
			if (i == n) {
				names[n] = ex->keys[k].name;
				strbuf_init(&lists[n++]);
			}
			add_factor_values(ex, k, &lists[i]);
		}
	}
	fmt_table_init(&r->factors, "What the measurements differ in");
	fmt_table_add_column(&r->factors, "key", "key", 0);
	fmt_table_add_column(&r->factors, "values", "values", 0);
	for (size_t i = 0; i < n; i++) {
		struct strbuf text = STRBUF_INIT;
		size_t row = fmt_table_add_row(&r->factors), count = 0;

		/* "\x1fa\x1f\x1fb\x1f" -> "a, b", at most 24 shown;
		 * values with commas of their own are parted by " · " */
		const char *sep = strstr(strbuf_str(&lists[i]), ",") ?
				  " \xc2\xb7 " : ", ";

		for (char *p = lists[i].buf; p && (p = strchr(p, '\x1f'));) {
			char *e = strchr(p + 1, '\x1f');

			if (count++ < 24)
				strbuf_addf(&text, "%s%.*s", text.len ?
					    sep : "", (int)(e - p - 1), p + 1);
			p = e + 1;
		}
		if (count > 24)
			strbuf_addf(&text, " and %zu more", count - 24);
		fmt_table_set_cell(&r->factors, row, 0, names[i], NULL);
		fmt_table_set_cell(&r->factors, row, 1, text.buf, NULL);
		strbuf_release(&text);
		strbuf_release(&lists[i]);
	}
	r->has_factors = r->factors.nrows > 0;
	if (!r->has_factors)
		fmt_table_release(&r->factors);
}

static int compared_by_default(const struct measurement *m, const void *arg)
{
	(void)arg;
	return compare_default_metric(m->metric);
}

/* Is any test (tool, op, metric, conditions) in input 0 and another?
 * The same measurement in both is one (quick); else compare decides. */
static int inputs_share_a_test(const struct report *r,
			       const struct report_options *opt)
{
	struct compare_options co = { .threshold = 5, .alpha = 0.05,
				      .where = opt->where };
	struct experiment_options same = { .where = opt->where,
					   .take = compared_by_default };
	int shared = 0;

	for (size_t s = 1; s < r->nsets && !shared; s++)
		shared = experiment_sets_share_a_measurement(&r->sets[0],
							     &r->sets[s],
							     &same);
	for (size_t s = 1; s < r->nsets && !shared; s++) {
		struct compare_result res;

		compare_sides(r->sets, r->nsets, NULL, s, &co, &res);
		shared = res.nrows > 0;
		compare_result_release(&res);
	}
	return shared;
}

/* The files the sides came from, one an input (borrowed names), or NULL
 * when the inputs are not the sets. */
static char **set_files(const struct report *r)
{
	char **files;

	if (!r->inputs || r->ninputs < 0 || (size_t)r->ninputs != r->nsets)
		return NULL;
	files = xcalloc(r->nsets, sizeof(*files));
	for (size_t s = 0; s < r->nsets; s++)
		files[s] = r->inputs[s].name;
	return files;
}

int report_plan(struct report *r, const struct report_options *opt,
		struct strbuf *err)
{
	struct plan_options po = {
		.where = opt->where, .metrics = opt->metrics,
		.nmetrics = opt->nmetrics, .pool = opt->pool,
		.npool = opt->npool, .side_key = opt->compare,
		.series = opt->series,
	};
	char *rk = NULL, *ra = NULL, *rb = NULL, **files = NULL;
	int rc;

	r->title = xstrdup(opt->title ? opt->title :
			   "Storage benchmark report");
	r->scale = opt->scale;
	if (opt->ratio && pivot_ratio_parse(opt->ratio, &rk, &ra, &rb)) {
		strbuf_addf(err, "--ratio wants KEY=A/KEY=B, not '%s'",
			    opt->ratio);
		return -1;
	}
	if (rk) {
		po.side_key = rk;
		po.side_a = ra;
		po.side_b = rb;
	}
	/* --compare/--ratio: sides by a label, over every input at once;
	 * inputs that share no test are one data set, not sides */
	if (po.side_key || (r->nsets > 1 && !inputs_share_a_test(r, opt)))
		rc = plan_build(&r->plan, r->rs, 1, &po, err);
	else {
		files = set_files(r);
		po.set_names = files;
		rc = plan_build(&r->plan, r->sets, r->nsets, &po, err);
	}
	if (!rc && !po.side_key && r->nsets > 1 && r->plan.nsides < 2)
		report_add_note(r, "the inputs have no test in common: their "
				"figures are shown together, not compared");
	if (!rc) {
		r->plan.side_key = po.side_key ? xstrdup(po.side_key) : NULL;
		for (size_t i = 0; i < r->plan.ncharts; i++)
			build_chart(r, &r->plan.charts[i], opt);
		report_time_charts(r);
		for (size_t s = 1; s < r->plan.nsides; s++)
			add_verdicts(r, opt, s);
		factors_table(r);
		for (size_t i = 0; i < r->plan.nnotes; i++)
			report_add_note(r, "%s", r->plan.notes[i]);
		report_tables(r);
	}
	free(rk);
	free(ra);
	free(rb);
	free(files);
	return rc || !r->n ? -1 : 0;
}

/* ---- writing ----------------------------------------------------------- */

static int write_whole(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	if (!fp)
		return error("cannot create '%s': %s", path, strerror(errno));
	if (fwrite(data, 1, len, fp) != len) {
		fclose(fp);
		return error("cannot write '%s': %s", path, strerror(errno));
	}
	if (fclose(fp))
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

/* Renders chart i as PNG (its pixels in px) and SVG into tmp/charts/;
 * the SVG stays in svg. */
static int render_one(const struct report *r, size_t i,
		      const struct chart_render_opts *shared,
		      struct chart_pixels *px, const char *tmp,
		      struct strbuf *svg)
{
	struct chart_render_opts o = *shared;
	struct strbuf png = STRBUF_INIT;
	char *path;
	int rc;

	o.pixels = px;
	if (chart_render(&r->charts[i].chart, CHART_PNG, &o, &png) ||
	    chart_render(&r->charts[i].chart, CHART_SVG, &o, svg)) {
		strbuf_release(&png);
		return -1;
	}
	path = xstrfmt("%s/charts/%s.png", tmp, r->charts[i].name);
	rc = write_whole(path, png.buf, png.len);
	free(path);
	strbuf_release(&png);
	if (rc)
		return -1;
	path = xstrfmt("%s/charts/%s.svg", tmp, r->charts[i].name);
	rc = write_whole(path, svg->buf, svg->len);
	free(path);
	if (!rc) {
		struct strbuf json = STRBUF_INIT;

		chart_write_json(&r->charts[i].chart, r->rs, &json);
		path = xstrfmt("%s/charts/%s.json", tmp, r->charts[i].name);
		rc = write_whole(path, json.buf, json.len);
		free(path);
		strbuf_release(&json);
	}
	return rc ? -1 : 0;
}

/*
 * Charts are independent: worker threads take the next one to render
 * (cairo is thread-safe across surfaces).  The first chart is drawn before
 * any thread starts, so that fontconfig and cairo's font cache are set up
 * once, by one thread.
 */
struct render_pool {
	const struct report *r;
	const struct chart_render_opts *o;
	const char *tmp;
	struct strbuf *svgs;
	size_t next;
	int failed;
	/* the image the first chart was drawn in: the first worker's */
	struct chart_pixels first;
	pthread_mutex_t lock;
};

static void *render_worker(void *arg)
{
	struct render_pool *p = arg;
	struct chart_pixels px;

	pthread_mutex_lock(&p->lock);
	px = p->first;
	p->first = (struct chart_pixels){ NULL, 0 };
	pthread_mutex_unlock(&p->lock);
	for (;;) {
		size_t i;

		pthread_mutex_lock(&p->lock);
		i = p->failed ? p->r->n : p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->r->n) {
			chart_pixels_release(&px);
			return NULL;
		}
		if (render_one(p->r, i, p->o, &px, p->tmp, &p->svgs[i])) {
			pthread_mutex_lock(&p->lock);
			p->failed = 1;
			pthread_mutex_unlock(&p->lock);
		}
	}
}

static int render_charts(const struct report *r, const char *tmp,
			 struct strbuf *svgs)
{
	struct chart_render_opts o = {
		.width = 1200, .height = 675,
		.scale = r->scale > 0 ? r->scale : 2,
		.command_line = r->command_line, .inputs = r->inputs,
		.ninputs = r->ninputs, .rs = r->rs,
	};
	struct render_pool p = { r, &o, tmp, svgs, 1, 0, { NULL, 0 },
				 PTHREAD_MUTEX_INITIALIZER };
	unsigned nthreads = cpus_pool_threads(r->n);

	if (!r->n)
		return 0;
	if (render_one(r, 0, &o, &p.first, tmp, &svgs[0])) {
		chart_pixels_release(&p.first);
		return -1;
	}
	cpus_run_pool(nthreads, render_worker, &p);
	chart_pixels_release(&p.first);	/* (no worker took it) */
	pthread_mutex_destroy(&p.lock);
	return p.failed ? -1 : 0;
}

static int write_pages(const struct report *r, const char *tmp,
		       const struct strbuf *svgs)
{
	struct strbuf html = STRBUF_INIT, md = STRBUF_INIT;
	char *p_html = xstrfmt("%s/index.html", tmp);
	char *p_md = xstrfmt("%s/report.md", tmp);
	int rc;

	report_write_html(r, svgs, &html);
	report_write_markdown(r, &md);
	rc = write_whole(p_html, html.buf, html.len) ||
	     write_whole(p_md, md.buf, md.len) ? -1 : 0;
	strbuf_release(&html);
	strbuf_release(&md);
	free(p_html);
	free(p_md);
	return rc;
}

/*
 * The workbook needs nothing the charts' images give: it is written by a
 * thread of its own while the charts are drawn (its Data sheet's rows
 * were begun earlier still, see report_start_data()).
 */
struct workbook_job {
	const struct report *r;
	char *path;
	int rc;
	int threaded;
	pthread_t tid;
};

static void *workbook_worker(void *arg)
{
	struct workbook_job *j = arg;

	j->rc = report_write_xlsx(j->r, j->path);
	return NULL;
}

static void workbook_start(struct workbook_job *j, const struct report *r,
			   const char *tmp)
{
	j->r = r;
	j->path = xstrfmt("%s/report.xlsx", tmp);
	j->rc = 0;
	j->threaded = storan_cpus() > 1 &&
		      !pthread_create(&j->tid, NULL, workbook_worker, j);
}

static int workbook_finish(struct workbook_job *j)
{
	if (j->threaded)
		pthread_join(j->tid, NULL);
	else
		workbook_worker(j);
	free(j->path);
	return j->rc;
}

int report_write(const struct report *r, const char *dir)
{
	struct outdir out;
	struct strbuf *svgs;
	char *charts;
	int rc = -1;

	if (outdir_open(&out, dir))
		return -1;
	charts = xstrfmt("%s/charts", out.tmp);
	svgs = xcalloc(r->n ? r->n : 1, sizeof(*svgs));
	if (mkdir(charts, 0777)) {
		error("cannot create '%s': %s", charts, strerror(errno));
	} else {
		struct workbook_job book;
		int failed;

		workbook_start(&book, r, out.tmp);
		failed = render_charts(r, out.tmp, svgs) ||
			 write_pages(r, out.tmp, svgs);
		failed |= workbook_finish(&book) != 0;
		if (!failed)
			rc = outdir_commit(&out);
	}
	if (rc)
		outdir_abort(&out);
	for (size_t i = 0; i < r->n; i++)
		strbuf_release(&svgs[i]);
	free(svgs);
	free(charts);
	return rc;
}
