#define _GNU_SOURCE
/*
 * Choosing a report's charts from the data, chart tables, and writing the
 * report directory atomically; see report.h.
 *
 * The plan walks a fixed list of metric groups in the order a reader
 * wants them (throughput first), and for each tool that has the metric
 * lets the chart model choose x and series.  Keys that still vary after
 * that become facets: one chart per combination, so that no chart has
 * more lines than a reader can follow.
 *
 * Writing: everything goes into "DIR.tmp-XXXXXX" beside DIR, which then
 * replaces DIR -- by rename when DIR does not exist, by an atomic exchange
 * (renameat2 RENAME_EXCHANGE) when DIR is an earlier report.  A DIR that
 * is not a report (no index.html and report.md, and not empty) is never
 * replaced.
 */
#include "report.h"
#include "../analysis/table.h"
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

#define MAX_CHARTS 200
#define MAX_KEYS 32
#define MAX_FACETS 12	/* more charts than this for one metric: too many */

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct report_chart *rc = &r->charts[i];

		free(rc->name);
		chart_release(&rc->chart);
		filter_release(&rc->where);
		free(rc->x_key);
		free(rc->series_key);
		free(rc->ratio);
		fmt_table_release(&rc->table);
		free(rc->marks);
	}
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->charts);
	free(r->notes);
	free(r->title);
	report_init(r);
}

void report_add_note(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ALLOC_GROW(r->notes, r->nnotes + 1, r->notes_alloc);
	r->notes[r->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

/* ---- what to chart ----------------------------------------------------- */

enum want { WANT_EXACT, WANT_PERCENTILES, WANT_HISTOGRAM };

static const struct group_def {
	const char *y;
	enum chart_kind kind;
	enum want want;
} groups[] = {
	{ "bw", CHART_AUTO, WANT_EXACT },
	{ "iops", CHART_AUTO, WANT_EXACT },
	{ "lat.mean", CHART_AUTO, WANT_EXACT },
	{ "clat.mean", CHART_AUTO, WANT_EXACT },
	{ "clat", CHART_PERCENTILES, WANT_HISTOGRAM },
	{ "lat", CHART_PERCENTILES, WANT_HISTOGRAM },
	{ "clat", CHART_PERCENTILES, WANT_PERCENTILES },
	{ "lat", CHART_PERCENTILES, WANT_PERCENTILES },
	{ "clat", CHART_CDF, WANT_HISTOGRAM },
	{ "lat", CHART_CDF, WANT_HISTOGRAM },
	{ "time.real", CHART_AUTO, WANT_EXACT },
};

static int wanted(const struct measurement *m, const struct group_def *g)
{
	size_t len = strlen(g->y);

	switch (g->want) {
	case WANT_EXACT:
		return !strcmp(m->metric, g->y) &&
		       (m->n || m->summary.present);
	case WANT_PERCENTILES:
		return !strncmp(m->metric, g->y, len) &&
		       m->metric[len] == '.' && m->metric[len + 1] == 'p' &&
		       is_numeric_string(m->metric + len + 2, NULL);
	default:
		return m->hist.n && !strncmp(m->metric, g->y, len) &&
		       (!m->metric[len] || m->metric[len] == '.');
	}
}

/* Tools in the order they first appear. */
static size_t list_tools(const struct result_set *rs, const char **tools,
			 size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++) {
		size_t j;

		for (j = 0; j < n && strcmp(tools[j], rs->m[i].tool); j++)
			;
		if (j == n && n < max)
			tools[n++] = rs->m[i].tool;
	}
	return n;
}

/* File-name friendly: lower case letters, digits and '-'. */
static void add_slug(struct strbuf *sb, const char *s)
{
	for (; *s && sb->len < 60; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			strbuf_addch(sb, c);
		else if (sb->len && sb->buf[sb->len - 1] != '-')
			strbuf_addch(sb, '-');
	}
	while (sb->len && sb->buf[sb->len - 1] == '-')
		sb->buf[--sb->len] = '\0';
}

static void filter_add(struct filter *f, const char *key, const char *value)
{
	ALLOC_GROW(f->v, f->n + 1, f->alloc);
	f->v[f->n].key = xstrdup(key);
	f->v[f->n].value = xstrdup(value);
	f->v[f->n].negate = 0;
	f->n++;
}

/*
 * iozone's thirteen tests on one chart are a tangle: when a chart would
 * show more than MAX_OPS ops as lines, it is split into these groups.
 */
#define MAX_OPS 6
static const struct op_group {
	const char *name;
	const char *ops[5];
} op_groups[] = {
	{ "sequential", { "write", "rewrite", "read", "reread", NULL } },
	{ "random", { "randread", "randwrite", NULL } },
	{ "strided", { "bkwdread", "strideread", "recrewrite", NULL } },
	{ "stdio", { "fwrite", "frewrite", "fread", "freread", NULL } },
};
#define NOP_GROUPS (sizeof(op_groups) / sizeof(op_groups[0]))

static int in_op_group(const struct op_group *g, const char *op)
{
	for (size_t i = 0; g->ops[i]; i++)
		if (!strcmp(g->ops[i], op))
			return 1;
	return 0;
}

/* One chart of the plan, before it is built. */

struct plan_item {
	const struct group_def *g;
	const char *tool;
	const char *x, *series;
	const char *ratio_key, *ratio_a, *ratio_b;
	const char **facets;
	size_t nfacets;
	const char *bs;		/* latency: the one block size shown */
	/* iozone sweeps: the one file size shown (NULL: all) */
	const char *filesize;
	const struct op_group *ops;	/* only these ops (NULL: all) */
};

/*
 * The series key a chart was built with, unless a facet left it one value
 * (then its only series goes unnamed: no legend saying "no iodepth").
 */
static void keep_series(struct report_chart *rc, const char *key)
{
	struct chart *c = &rc->chart;

	if (c->nseries == 1 && key) {
		free(c->series[0].name);
		c->series[0].name = xstrdup("");
		key = NULL;
	}
	rc->series_key = key ? xstrdup(key) : NULL;
}

static void add_chart(struct report *r, const struct plan_item *it,
		      const struct measurement *m)
{
	struct chart_spec spec = {
		.y = it->g->y, .kind = it->g->kind,
		.from = it->g->want == WANT_HISTOGRAM ? CHART_FROM_HISTOGRAMS :
			it->g->want == WANT_PERCENTILES ? CHART_FROM_METRICS :
			CHART_FROM_ANY,
	};
	struct strbuf name = STRBUF_INIT, facet = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct filter f;
	struct report_chart *rc;
	char *ratio = NULL, buf[32];
	double num;

	if (r->n == MAX_CHARTS) {
		report_add_note(r, "more than %d charts: the rest left out",
			    MAX_CHARTS);
		return;
	}
	filter_init(&f);
	filter_add(&f, "tool", it->tool);
	strbuf_addf(&name, "%02zu-", r->n + 1);
	add_slug(&name, it->tool);
	strbuf_addch(&name, '-');
	add_slug(&name, it->g->y);
	if (it->g->kind == CHART_CDF)
		strbuf_adds(&name, "-cdf");
	if (it->bs)
		filter_add(&f, "bs", it->bs);
	if (it->filesize)
		filter_add(&f, "filesize", it->filesize);
	for (size_t k = 0; it->ops && it->ops->ops[k]; k++)
		filter_add(&f, "op", it->ops->ops[k]);
	if (it->ops) {
		strbuf_addch(&name, '-');
		add_slug(&name, it->ops->name);
		strbuf_addf(&facet, "%s%s ops", facet.len ? ", " : "",
			    it->ops->name);
	}
	if (it->ratio_key) {
		ratio = xstrfmt("%s=%s/%s=%s", it->ratio_key, it->ratio_a,
				it->ratio_key, it->ratio_b);
		strbuf_adds(&name, "-ratio-");
		add_slug(&name, it->ratio_key);
	}
	for (size_t k = 0; k < it->nfacets; k++) {
		const char *v = measurement_key(m, it->facets[k]);

		if (!v)
			continue;
		filter_add(&f, it->facets[k], v);
		if (key_is_size(it->facets[k]) && is_numeric_string(v, &num))
			v = human_size(num, buf, sizeof(buf));
		strbuf_addf(&facet, "%s%s=%s", facet.len ? ", " : "",
			    it->facets[k], v);
		strbuf_addch(&name, '-');
		add_slug(&name, v);
	}
	spec.x = it->x;
	spec.series = it->series;
	spec.where = &f;
	spec.ratio = ratio;
	ALLOC_GROW(r->charts, r->n + 1, r->alloc);
	rc = &r->charts[r->n];
	memset(rc, 0, sizeof(*rc));
	chart_init(&rc->chart);
	if (chart_build(&rc->chart, r->rs, &spec, &err)) {
		report_add_note(r, "no chart of %s %s%s%s: %s", it->tool,
			    it->g->y, facet.len ? " for " : "",
			    strbuf_str(&facet), err.buf);
		chart_release(&rc->chart);
		strbuf_release(&name);
		filter_release(&f);
	} else {
		keep_series(rc, it->series);
		rc->where = f;
		rc->x_key = xstrdup(rc->chart.x.key ? rc->chart.x.key : "op");
		rc->ratio = ratio;
		ratio = NULL;
		if (facet.len) {
			char *t = xstrfmt("%s \xe2\x80\x94 %s",
					  rc->chart.title, facet.buf);

			free(rc->chart.title);
			rc->chart.title = t;
		}
		rc->name = strbuf_detach(&name);
		r->n++;
	}
	free(ratio);
	strbuf_release(&facet);
	strbuf_release(&err);
}

/* One chart per combination of the facet keys' values. */
static void add_faceted(struct report *r, const struct plan_item *it,
			const unsigned char *sel)
{
	const struct result_set *rs = r->rs;
	char **seen = NULL;
	size_t nseen = 0, alloc = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct strbuf sig = STRBUF_INIT;
		size_t j;

		if (!sel[i])
			continue;
		for (size_t k = 0; k < it->nfacets; k++) {
			const char *v = measurement_key(&rs->m[i],
							it->facets[k]);

			strbuf_addf(&sig, "%s\x1f", v ? v : "");
		}
		for (j = 0; j < nseen && strcmp(seen[j], strbuf_str(&sig)); j++)
			;
		if (j < nseen) {
			strbuf_release(&sig);
			continue;
		}
		ALLOC_GROW(seen, nseen + 1, alloc);
		seen[nseen++] = strbuf_detach(&sig);
		add_chart(r, it, &rs->m[i]);
	}
	for (size_t j = 0; j < nseen; j++)
		free(seen[j]);
	free(seen);
}

static int key_is_numeric(const struct result_set *rs,
			  const unsigned char *sel, const char *key)
{
	for (size_t i = 0; i < rs->n; i++) {
		const char *v;

		if (!sel[i])
			continue;
		v = measurement_key(&rs->m[i], key);
		if (!v || !is_numeric_string(v, NULL))
			return 0;
	}
	return 1;
}

/* How many charts the facets would make. */
static size_t count_combinations(const struct result_set *rs,
				 const unsigned char *sel, const char **keys,
				 size_t nkeys)
{
	char **seen = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < rs->n && nkeys; i++) {
		struct strbuf sig = STRBUF_INIT;
		size_t j;

		if (!sel[i])
			continue;
		for (size_t k = 0; k < nkeys; k++) {
			const char *v = measurement_key(&rs->m[i], keys[k]);

			strbuf_addf(&sig, "%s\x1f", v ? v : "");
		}
		for (j = 0; j < n && strcmp(seen[j], sig.buf); j++)
			;
		if (j < n) {
			strbuf_release(&sig);
			continue;
		}
		ALLOC_GROW(seen, n + 1, alloc);
		seen[n++] = strbuf_detach(&sig);
	}
	for (size_t j = 0; j < n; j++)
		free(seen[j]);
	free(seen);
	return n;
}

/*
 * Each measurement a test of its own (dd runs, each with its command):
 * facets would make a chart per bar.  One chart, a bar per test, named by
 * the key that tells the tests apart (the command line, the job...).
 */
static void one_bar_per_test(struct report *r, struct plan_item *it,
			     const unsigned char *sel)
{
	static const char *const ids[] = { "command", "job", "section",
					   "test", "file", NULL };

	for (size_t i = 0; ids[i]; i++) {
		const char *key[1] = { ids[i] };

		if (count_combinations(r->rs, sel, key, 1) < 2)
			continue;
		it->x = ids[i];
		it->series = "op";
		it->facets = NULL;
		it->nfacets = 0;
		return;
	}
}

static int key_everywhere(const struct result_set *rs,
			  const unsigned char *sel, const char *key)
{
	for (size_t i = 0; i < rs->n; i++)
		if (sel[i] && !measurement_key(&rs->m[i], key))
			return 0;
	return 1;
}

static int listed_key(const char **keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return 1;
	return 0;
}

/*
 * Does key take two values (or a value and none) within one input?  One
 * input's sections are its parts (BEFORE: and AFTER:, "## ext4"), even
 * where an output above the first heading has none: a point must not
 * average them.
 */
static int splits_an_input(const struct result_set *rs,
			   const unsigned char *sel, const char *key)
{
	const char **first = xcalloc(rs->nsources + 1, sizeof(*first));
	unsigned char *seen = xcalloc(rs->nsources + 1, 1);
	int split = 0;

	for (size_t i = 0; i < rs->n && !split; i++) {
		size_t src = rs->m[i].source < rs->nsources ?
			     rs->m[i].source : rs->nsources;
		const char *v;

		if (!sel[i])
			continue;
		v = labels_get(&rs->m[i].labels, key);
		if (!seen[src]) {
			seen[src] = 1;
			first[src] = v;
		} else if (!v != !first[src] || (v && strcmp(v, first[src]))) {
			split = 1;
		}
	}
	free(first);
	free(seen);
	return split;
}

/*
 * Keys that would split a chart for the wrong reason: a label only some
 * captures carry (fio's JSON has no iodepth label where its normal output
 * has one: the same run, not another condition), and the capture itself
 * (source) where fio's job labels name the runs -- fio's outputs of one job
 * are runs of the same test, pooled as repetitions.
 */
static size_t drop_weak_keys(const struct result_set *rs,
			     const unsigned char *sel, const char **keys,
			     size_t n)
{
	int jobs = 0;
	size_t k = 0;

	for (size_t i = 0; i < rs->n && !jobs; i++)
		jobs = sel[i] && labels_get(&rs->m[i].labels, "job");
	for (size_t i = 0; i < n; i++) {
		if (!key_everywhere(rs, sel, keys[i]) &&
		    !(!strcmp(keys[i], "section") &&
		      splits_an_input(rs, sel, keys[i])))
			continue;
		/* The job names the runs instead of the capture; the job
		 * key itself was left out as restating the source, so put
		 * it back, or different jobs would pool into one figure. */
		if (jobs && !strcmp(keys[i], "source")) {
			if (!listed_key(keys, n, "job") &&
			    key_everywhere(rs, sel, "job"))
				keys[k++] = "job";
			continue;
		}
		keys[k++] = keys[i];
	}
	return k;
}

/*
 * Different fio jobs are different tests: when the job varies and no key
 * chosen so far tells them apart, it becomes a key too (a facet), so that
 * no point averages two jobs.
 */
static size_t keep_jobs_apart(const struct result_set *rs,
			      const unsigned char *sel, const char **keys,
			      size_t n)
{
	const char *first = NULL;

	if (n >= MAX_KEYS || listed_key(keys, n, "job") ||
	    !key_everywhere(rs, sel, "job"))
		return n;
	for (size_t i = 0; i < rs->n; i++) {
		const char *j = sel[i] ? labels_get(&rs->m[i].labels, "job") :
			      NULL;

		if (!j)
			continue;
		if (!first)
			first = j;
		else if (strcmp(first, j)) {
			keys[n++] = "job";
			break;
		}
	}
	return n;
}

/*
 * x, series and facets for the selection; chosen[0..nchosen) are keys
 * already spoken for (the ratio key).
 */
static void plan_keys(struct report *r, struct plan_item *it,
		      const unsigned char *sel, const char **chosen,
		      size_t nchosen, const char **keys)
{
	size_t n, first = 0, combos, nsel = 0;

	if (it->g->kind == CHART_PERCENTILES || it->g->kind == CHART_CDF) {
		chosen[nchosen++] = "metric";
		it->x = NULL;
		n = chart_varying_keys(r->rs, sel, chosen, nchosen, keys,
				       MAX_KEYS);
		n = drop_weak_keys(r->rs, sel, keys, n);
	} else {
		n = chart_varying_keys(r->rs, sel, chosen, nchosen, keys,
				       MAX_KEYS);
		n = drop_weak_keys(r->rs, sel, keys, n);
		n = keep_jobs_apart(r->rs, sel, keys, n);
		it->x = n ? keys[0] : "op";
		for (size_t k = 0; k < n; k++) {
			if (key_is_numeric(r->rs, sel, keys[k]) &&
			    count_combinations(r->rs, sel, &keys[k], 1) >= 3) {
				it->x = keys[k];
				first = k;
				break;
			}
		}
		if (n) {
			keys[first] = keys[0];
			keys[0] = it->x;
			keys++;
			n--;
		}
	}
	/* a sweep: the ops are its lines (bs on rows, op on columns) */
	for (size_t k = 1; it->x && k < n && strcmp(it->x, "op"); k++) {
		if (!strcmp(keys[k], "op")) {
			keys[k] = keys[0];
			keys[0] = "op";
		}
	}
	/* one unnamed series (tool is constant), never a key chart_build
	 * would choose itself among the keys dropped above */
	it->series = n ? keys[0] : it->x && !strcmp(it->x, "op") ? "tool" :
		     "op";
	it->facets = n > 1 ? keys + 1 : NULL;
	it->nfacets = n > 1 ? n - 1 : 0;
	combos = count_combinations(r->rs, sel, it->facets, it->nfacets);
	for (size_t i = 0; i < r->rs->n; i++)
		nsel += sel[i];
	/* too many charts, or charts of a point or two each */
	if (it->x && (combos > MAX_FACETS || (combos > 2 && 2 * combos > nsel)))
		one_bar_per_test(r, it, sel);
}

/*
 * Percentile curves from histograms make those from pNN metrics redundant
 * where they describe the same runs (same op and labels).
 */
static int covered_by_histograms(const struct result_set *rs,
				 const unsigned char *sel, const char *family)
{
	const struct group_def h = { family, CHART_CDF, WANT_HISTOGRAM };
	size_t *hist = NULL, nh = 0, alloc = 0;
	int all = 1;

	for (size_t i = 0; i < rs->n; i++) {
		if (!wanted(&rs->m[i], &h))
			continue;
		ALLOC_GROW(hist, nh + 1, alloc);
		hist[nh++] = i;
	}
	for (size_t i = 0; i < rs->n && all; i++) {
		size_t j;

		if (!sel[i])
			continue;
		for (j = 0; j < nh; j++) {
			const struct measurement *a = &rs->m[i];
			const struct measurement *b = &rs->m[hist[j]];

			if (!strcmp(a->tool, b->tool) && !strcmp(a->op, b->op) &&
			    labels_equal(&a->labels, &b->labels))
				break;
		}
		all = j < nh;
	}
	free(hist);
	return all;
}

/*
 * Latency curves of a block-size sweep would make a chart per block size;
 * a report shows the one latency is usually quoted at: 4K, else the
 * smallest.  Narrows sel and returns how many remain.
 */
static size_t latency_block_size(struct report *r, struct plan_item *it,
				 unsigned char *sel)
{
	const struct result_set *rs = r->rs;
	const char *best = NULL, *other = NULL;
	double bv = 0, v;
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const char *bs = sel[i] ? labels_get(&rs->m[i].labels, "bs") :
			NULL;

		if (!bs || !is_numeric_string(bs, &v))
			continue;
		if (best && strcmp(best, bs))
			other = bs;
		if (!best || (!(bv > 4096 - 0.5 && bv < 4096 + 0.5) &&
			      ((v > 4096 - 0.5 && v < 4096 + 0.5) || v < bv))) {
			best = bs;
			bv = v;
		}
	}
	if (!other)
		best = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		const char *bs = labels_get(&rs->m[i].labels, "bs");

		if (sel[i] && best && (!bs || strcmp(bs, best)))
			sel[i] = 0;
		n += sel[i];
	}
	if (best) {
		it->bs = best;
		report_add_note(r, "%s %s %s: shown at bs=%s only (storan plot "
			    "--kind %s --where bs=... draws the others)",
			    it->tool, it->g->y, it->g->kind == CHART_CDF ?
			    "distribution" : "percentiles", best,
			    it->g->kind == CHART_CDF ? "cdf" : "percentiles");
	}
	return n;
}

/* Do all the selected measurements' inputs have one of file size v? */
static int size_in_every_input(const struct result_set *rs,
			       const unsigned char *sel, double v)
{
	for (size_t i = 0; i < rs->n; i++) {
		int found = 0;

		if (!sel[i])
			continue;
		for (size_t j = 0; j < rs->n && !found; j++) {
			double w;

			found = sel[j] && rs->m[j].source_name &&
				rs->m[i].source_name &&
				!strcmp(rs->m[j].source_name,
					rs->m[i].source_name) &&
				is_numeric_string(labels_get(&rs->m[j].labels,
							     "filesize"), &w) &&
				!(w < v) && !(w > v);
		}
		if (!found)
			return 0;
	}
	return 1;
}

/*
 * iozone -a sweeps file sizes too: a line per file size makes a tangle.
 * Where there are more than four, a chart shows the largest file size
 * every input has (the one least flattered by the page cache; with one
 * input, its largest); the workbook's Data sheet has the rest.  One
 * size, not each input's largest: a chart's filter takes any of several
 * sizes from every input, which mixed 256M figures into a 512M chart.
 */
static void pin_file_size(struct report *r, struct plan_item *it,
			  unsigned char *sel)
{
	const struct result_set *rs = r->rs;
	const char *key[1] = { "filesize" }, *size = NULL;
	double best = 0, v;
	size_t pinned = 0;

	if (count_combinations(rs, sel, key, 1) <= 4 ||
	    !key_is_numeric(rs, sel, "filesize"))
		return;
	for (size_t i = 0; i < rs->n; i++) {
		const char *s = labels_get(&rs->m[i].labels, "filesize");

		if (sel[i] && is_numeric_string(s, &v) && v > best &&
		    size_in_every_input(rs, sel, v)) {
			best = v;
			size = s;
		}
	}
	if (!size)
		return;		/* no size all inputs have: all of them */
	for (size_t i = 0; i < rs->n; i++)
		if (sel[i] && (!is_numeric_string(labels_get(&rs->m[i].labels,
							     "filesize"), &v) ||
			       v < best || v > best)) {
			sel[i] = 0;
			pinned++;
		}
	/* (a chart takes its measurements by filter, not by sel) */
	it->filesize = size;
	if (pinned)
		report_add_note(r, "%s %s: charts show the largest file size "
			    "every input has; %zu figure(s) of other sizes "
			    "are in the workbook's Data sheet", it->tool,
			    it->g->y, pinned);
}

/* One set of charts per op group (op_groups) that the selection has. */
static void add_op_groups(struct report *r, struct plan_item *it,
			  const unsigned char *sel)
{
	const struct result_set *rs = r->rs;
	unsigned char *sub = xcalloc(rs->n ? rs->n : 1, 1);

	for (size_t g = 0; g < NOP_GROUPS; g++) {
		size_t n = 0;

		for (size_t i = 0; i < rs->n; i++) {
			sub[i] = sel[i] && in_op_group(&op_groups[g],
						       rs->m[i].op);
			n += sub[i];
		}
		if (!n)
			continue;
		it->ops = &op_groups[g];
		add_faceted(r, it, sub);
	}
	it->ops = NULL;
	free(sub);
}

static void plan_group(struct report *r, const struct group_def *g,
		       const char *tool, unsigned char *sel)
{
	const char *keys[MAX_KEYS + 1], *chosen[2];
	struct plan_item it = { .g = g, .tool = tool };
	size_t nsel = 0;

	for (size_t i = 0; i < r->rs->n; i++) {
		sel[i] = !strcmp(r->rs->m[i].tool, tool) &&
			 wanted(&r->rs->m[i], g);
		nsel += sel[i];
	}
	if (!nsel || (g->want == WANT_PERCENTILES &&
		      covered_by_histograms(r->rs, sel, g->y)))
		return;
	if (g->want != WANT_EXACT)
		nsel = latency_block_size(r, &it, sel);
	pin_file_size(r, &it, sel);
	plan_keys(r, &it, sel, chosen, 0, keys);
	if (it.x && strcmp(it.x, "op") && it.series &&
	    !strcmp(it.series, "op")) {
		const char *op[1] = { "op" };

		if (count_combinations(r->rs, sel, op, 1) > MAX_OPS) {
			add_op_groups(r, &it, sel);
			return;
		}
	}
	add_faceted(r, &it, sel);
}

/* ---- ratio charts ------------------------------------------------------ */

static int skip_ratio_key(const char *key)
{
	static const char *const never[] = {
		"op", "tool", "metric", "unit", "source", "command", "job",
		"section", "file", "line", NULL,
	};

	for (size_t i = 0; never[i]; i++)
		if (!strcmp(never[i], key))
			return 1;
	return 0;
}

/* The two values of key, in order of appearance; 0 unless exactly two. */
static int two_values(const struct result_set *rs, const unsigned char *sel,
		      const char *key, const char **a, const char **b)
{
	*a = *b = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		const char *v;

		if (!sel[i])
			continue;
		v = labels_get(&rs->m[i].labels, key);
		if (!v)
			return 0;
		if (!*a || !strcmp(*a, v))
			*a = v;
		else if (!*b || !strcmp(*b, v))
			*b = v;
		else
			return 0;
	}
	return *a && *b && !is_numeric_string(*a, NULL);
}

/* bw and iops of B relative to A where one label splits the data in two. */
static void plan_ratios(struct report *r, const char *tool, unsigned char *sel)
{
	const char *keys[MAX_KEYS + 1];

	for (size_t gi = 0; gi < 2; gi++) {
		const struct group_def *g = &groups[gi];
		struct plan_item it = { .g = g, .tool = tool };
		size_t nk, nsel = 0;

		for (size_t i = 0; i < r->rs->n; i++) {
			sel[i] = !strcmp(r->rs->m[i].tool, tool) &&
				 wanted(&r->rs->m[i], g);
			nsel += sel[i];
		}
		if (!nsel)
			continue;
		nk = chart_varying_keys(r->rs, sel, NULL, 0, keys, MAX_KEYS);
		for (size_t k = 0; k < nk; k++) {
			const char *chosen[2] = { keys[k] }, *sub[MAX_KEYS + 1];
			const char *a, *b;

			if (skip_ratio_key(keys[k]) ||
			    !two_values(r->rs, sel, keys[k], &a, &b))
				continue;
			it.ratio_key = keys[k];
			it.ratio_a = b;
			it.ratio_b = a;
			plan_keys(r, &it, sel, chosen, 1, sub);
			add_faceted(r, &it, sel);
		}
	}
}

int report_plan(struct report *r, const struct result_set *rs,
		const char *title)
{
	const char *tools[64];
	size_t ntools = list_tools(rs, tools, 64);
	unsigned char *sel = xcalloc(rs->n ? rs->n : 1, 1);

	r->rs = rs;
	r->title = xstrdup(title ? title : "Storage benchmark report");
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		for (size_t t = 0; t < ntools; t++)
			plan_group(r, &groups[g], tools[t], sel);
	for (size_t t = 0; t < ntools; t++)
		plan_ratios(r, tools[t], sel);
	free(sel);
	report_tables(r);
	return r->n ? 0 : -1;
}

/* ---- chart tables ------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int chart_table_build(const struct chart *c, struct chart_table *t)
{
	size_t n = 0, u = 0;
	char buf[64];

	memset(t, 0, sizeof(*t));
	if (c->kind == CHART_CDF)
		return -1;
	for (size_t s = 0; s < c->nseries; s++) {
		if (c->series[s].n > 60)
			return -1;
		n += c->series[s].n;
	}
	t->x = xmalloc((n ? n : 1) * sizeof(double));
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++)
			t->x[u++] = c->series[s].p[i].x;
	qsort(t->x, u, sizeof(double), cmp_double);
	n = u;
	u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || t->x[u - 1] < t->x[i])
			t->x[u++] = t->x[i];
	t->nrows = u;
	t->ncols = c->nseries;
	t->xlabel = xcalloc(u ? u : 1, sizeof(char *));
	t->y = xmalloc((u * t->ncols + 1) * sizeof(double));
	t->lo = xmalloc((u * t->ncols + 1) * sizeof(double));
	t->hi = xmalloc((u * t->ncols + 1) * sizeof(double));
	for (size_t i = 0; i < u * t->ncols; i++)
		t->y[i] = t->lo[i] = t->hi[i] = NAN;
	for (size_t r = 0; r < u; r++)
		t->xlabel[r] = xstrdup(chart_format_x(c, t->x[r], buf,
						      sizeof(buf)));
	for (size_t s = 0; s < c->nseries; s++) {
		for (size_t i = 0, r = 0; i < c->series[s].n; i++) {
			const struct chart_point *p = &c->series[s].p[i];

			while (t->x[r] < p->x)
				r++;
			t->y[r * t->ncols + s] = p->y;
			t->lo[r * t->ncols + s] = p->lo;
			t->hi[r * t->ncols + s] = p->hi;
		}
	}
	return 0;
}

void chart_table_release(struct chart_table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		free(t->xlabel[r]);
	free(t->xlabel);
	free(t->x);
	free(t->y);
	free(t->lo);
	free(t->hi);
	memset(t, 0, sizeof(*t));
}

char *chart_table_header(const struct chart *c, size_t col)
{
	const char *name = *c->series[col].name ? c->series[col].name :
			   c->metric;
	const char *unit = c->ratio ? "ratio" : c->y.unit.name;

	if (!strcmp(unit, "us"))
		unit = "\xc2\xb5s";
	return xstrfmt("%s (%s)", name, unit);
}

char *chart_table_cell(const struct chart *c, const struct chart_table *t,
		       size_t row, size_t col)
{
	size_t i = row * t->ncols + col;
	char y[32], e[32];

	if (isnan(t->y[i]))
		return xstrdup("");
	if (c->ratio)
		snprintf(y, sizeof(y), "%.3f", t->y[i]);
	else
		chart_format_y(c, t->y[i], y, sizeof(y));
	if (isnan(t->lo[i]) || isnan(t->hi[i]))
		return xstrdup(y);
	chart_format_y(c, (t->hi[i] - t->lo[i]) / 2, e, sizeof(e));
	return xstrfmt("%s \xc2\xb1 %s", y, e);
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

/* Renders chart i as PNG and SVG into tmp/charts/; the SVG stays in svg. */
static int render_one(const struct report *r, size_t i,
		      const struct chart_render_opts *o, const char *tmp,
		      struct strbuf *svg)
{
	struct strbuf png = STRBUF_INIT;
	char *path;
	int rc;

	if (chart_render(&r->charts[i].chart, CHART_PNG, o, &png) ||
	    chart_render(&r->charts[i].chart, CHART_SVG, o, svg)) {
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
	pthread_mutex_t lock;
};

static void *render_worker(void *arg)
{
	struct render_pool *p = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&p->lock);
		i = p->failed ? p->r->n : p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->r->n)
			return NULL;
		if (render_one(p->r, i, p->o, p->tmp, &p->svgs[i])) {
			pthread_mutex_lock(&p->lock);
			p->failed = 1;
			pthread_mutex_unlock(&p->lock);
		}
	}
}

static unsigned render_threads(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 4 || cpus < 2)
		return 1;
	return cpus > 8 ? 8 : (unsigned)cpus;
}

static int render_charts(const struct report *r, const char *tmp,
			 struct strbuf *svgs)
{
	struct chart_render_opts o = {
		.width = 1200, .height = 675, .scale = 1,
		.command_line = r->command_line, .inputs = r->inputs,
		.ninputs = r->ninputs, .rs = r->rs,
	};
	struct render_pool p = { r, &o, tmp, svgs, 1, 0,
				 PTHREAD_MUTEX_INITIALIZER };
	unsigned nthreads = render_threads(r->n), started = 0;
	pthread_t tid[8];

	if (!r->n)
		return 0;
	if (render_one(r, 0, &o, tmp, &svgs[0]))
		return -1;
	for (unsigned t = 0; nthreads > 1 && t < nthreads; t++)
		if (!pthread_create(&tid[t], NULL, render_worker, &p))
			started++;
	if (!started)
		render_worker(&p);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&p.lock);
	return p.failed ? -1 : 0;
}

static int write_pages(const struct report *r, const char *tmp,
		       const struct strbuf *svgs)
{
	struct strbuf html = STRBUF_INIT, md = STRBUF_INIT;
	char *p_html = xstrfmt("%s/index.html", tmp);
	char *p_md = xstrfmt("%s/report.md", tmp);
	char *p_xlsx = xstrfmt("%s/report.xlsx", tmp);
	int rc;

	report_write_html(r, svgs, &html);
	report_write_markdown(r, &md);
	rc = write_whole(p_html, html.buf, html.len) ||
	     write_whole(p_md, md.buf, md.len) ||
	     report_write_xlsx(r, p_xlsx) ? -1 : 0;
	strbuf_release(&html);
	strbuf_release(&md);
	free(p_html);
	free(p_md);
	free(p_xlsx);
	return rc;
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
	if (mkdir(charts, 0777))
		error("cannot create '%s': %s", charts, strerror(errno));
	else if (!render_charts(r, out.tmp, svgs) &&
		 !write_pages(r, out.tmp, svgs))
		rc = outdir_commit(&out);
	if (rc)
		outdir_abort(&out);
	for (size_t i = 0; i < r->n; i++)
		strbuf_release(&svgs[i]);
	free(svgs);
	free(charts);
	return rc;
}
