/*
 * Building the chart model from a result set; see chart.h.
 *
 * The steps: select the measurements (metric, --where); choose the x key
 * and the series keys (what the user named, else the keys that vary, the
 * most telling first, leaving out keys that only restate another); sort
 * the measurements into (series, x) groups and pool each group's
 * repetitions into one point; choose the display unit; lay out the axes
 * (scale, range, ticks, labels); write titles and footer.  Latency
 * percentile curves and CDFs come from metrics named FAMILY.pNN or from
 * histograms; ratio charts divide one label's group by another's.
 */
#include "chart.h"
#include "../analysis/stats.h"
#include "../analysis/table.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SERIES_KEYS 8

/* Okabe & Ito (2008), "Color Universal Design": blue first, yellow late. */
const unsigned char chart_palette[CHART_NCOLORS][3] = {
	{ 0x00, 0x72, 0xB2 },	/* blue */
	{ 0xE6, 0x9F, 0x00 },	/* orange */
	{ 0x00, 0x9E, 0x73 },	/* bluish green */
	{ 0xD5, 0x5E, 0x00 },	/* vermillion */
	{ 0x56, 0xB4, 0xE9 },	/* sky blue */
	{ 0xCC, 0x79, 0xA7 },	/* reddish purple */
	{ 0x00, 0x00, 0x00 },	/* black */
	{ 0xF0, 0xE4, 0x42 },	/* yellow */
};

/* ---- lifetime ---------------------------------------------------------- */

static void axis_init(struct chart_axis *a)
{
	memset(a, 0, sizeof(*a));
	a->unit.name = "";
	a->unit.factor = 1;
}

static void axis_release(struct chart_axis *a)
{
	for (size_t i = 0; i < a->nticks; i++)
		free(a->ticks[i].label);
	for (size_t i = 0; i < a->ncat; i++)
		free(a->cat[i]);
	free(a->ticks);
	free(a->cat);
	free(a->title);
	free(a->key);
	axis_init(a);
}

void chart_init(struct chart *c)
{
	memset(c, 0, sizeof(*c));
	axis_init(&c->x);
	axis_init(&c->y);
}

void chart_release(struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		free(c->series[i].name);
		free(c->series[i].p);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->series);
	free(c->members);
	free(c->notes);
	free(c->title);
	free(c->subtitle);
	free(c->footer);
	free(c->metric);
	free(c->source_names);
	axis_release(&c->x);
	axis_release(&c->y);
	chart_init(c);
}

__attribute__((format(printf, 2, 3)))
static void add_note(struct chart *c, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(c->notes, c->nnotes + 1, c->notes_alloc);
	va_start(ap, fmt);
	c->notes[c->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

static void add_tick(struct chart_axis *a, double pos, const char *label)
{
	ALLOC_GROW(a->ticks, a->nticks + 1, a->ticks_alloc);
	a->ticks[a->nticks].pos = pos;
	a->ticks[a->nticks].label = xstrdup(label);
	a->nticks++;
}

static struct chart_series *add_series(struct chart *c, const char *name)
{
	struct chart_series *s;

	ALLOC_GROW(c->series, c->nseries + 1, c->series_alloc);
	s = &c->series[c->nseries++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

static struct chart_point *add_point(struct chart_series *s, double x)
{
	struct chart_point *p;

	ALLOC_GROW(s->p, s->n + 1, s->alloc);
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	p->x = x;
	p->lo = p->hi = NAN;
	for (int i = 0; i < 5; i++)
		p->box[i] = NAN;
	return p;
}

/* ---- statistics (to move onto analysis/stats.h once it is on main) ----- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile of sorted v[0..n), linear between order statistics. */
static double quantile_sorted(const double *v, size_t n, double q)
{
	double h = q * (double)(n - 1), f = floor(h);
	size_t i = (size_t)f;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - f) * (v[i + 1] - v[i]);
}

/* The figures behind one point, pooled from one or more measurements. */
struct pool {
	double *v;
	size_t n, alloc;
	const struct summary *summary;	/* the only source, when summary-only */
	size_t nsummary;		/* summary-only measurements pooled */
};

static void pool_add(struct pool *p, const struct measurement *m)
{
	if (m->n) {
		for (size_t i = 0; i < m->n; i++) {
			ALLOC_GROW(p->v, p->n + 1, p->alloc);
			p->v[p->n++] = m->values[i];
		}
		return;
	}
	if (!m->summary.present)
		return;
	p->nsummary++;
	p->summary = &m->summary;
	ALLOC_GROW(p->v, p->n + 1, p->alloc);
	p->v[p->n++] = m->summary.mean;
}

struct pool_stats {
	size_t n;
	double mean, median, sd, min, max, q1, q3;
};

/* A printed summary alone: its own figures (sd as the sample sd). */
static int pool_summary_stats(const struct pool *p, struct pool_stats *st)
{
	const struct summary *s = p->summary;

	if (p->nsummary != 1 || p->n != 1)
		return 0;
	st->n = s->n >= 1 ? (size_t)s->n : 1;
	st->mean = st->median = s->mean;
	st->sd = s->stddev;
	if (s->stddev_population && st->n > 1)
		st->sd = s->stddev * sqrt((double)st->n / (double)(st->n - 1));
	st->min = s->min;
	st->max = s->max;
	st->q1 = st->q3 = NAN;
	return 1;
}

static void pool_stats(struct pool *p, struct pool_stats *st)
{
	double sum = 0, ss = 0;

	if (pool_summary_stats(p, st))
		return;
	qsort(p->v, p->n, sizeof(double), cmp_double);
	st->n = p->n;
	for (size_t i = 0; i < p->n; i++)
		sum += p->v[i];
	st->mean = sum / (double)p->n;
	for (size_t i = 0; i < p->n; i++)
		ss += (p->v[i] - st->mean) * (p->v[i] - st->mean);
	st->sd = p->n > 1 ? sqrt(ss / (double)(p->n - 1)) : NAN;
	st->min = p->v[0];
	st->max = p->v[p->n - 1];
	st->median = quantile_sorted(p->v, p->n, 0.5);
	st->q1 = quantile_sorted(p->v, p->n, 0.25);
	st->q3 = quantile_sorted(p->v, p->n, 0.75);
}

/* Half width of the 95% confidence interval of the mean (Student t). */
static double ci95_half(const struct pool_stats *st)
{
	return stats_ci_half_width(st->n, st->sd, 0.95);
}

/* ---- keys -------------------------------------------------------------- */

/* Keys in the order a reader looks for them; other labels come after. */
static const char *const key_preference[] = {
	"bs", "iodepth", "numjobs", "filesize", "threads", "rwmixread",
	"op", "host", "device", "fs", "kind", "ioengine", "engine", "rw",
	"direct", "tool", "metric", "source", NULL,
};

static const char *const size_keys[] = {
	"bs", "filesize", "size", "bsrange", "blocksize", "count_bytes", NULL,
};

static const char *const op_order[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", "reread",
	"rewrite", "bkwdread", "strideread", "recrewrite", "fread", "freread",
	"fwrite", "frewrite", "cachedread", "trim", "randtrim", "copy", "run",
	NULL,
};

static int in_list(const char *const *list, const char *s)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], s))
			return (int)i;
	return -1;
}

static const char *key_value(const struct measurement *m, const char *key)
{
	const char *v = measurement_key(m, key);

	return v ? v : "";
}

/* One distinct value of a key and where it goes in the key's order. */
struct kval {
	const char *val;
	size_t first;		/* first measurement that has it */
	double num;
	size_t rank;
};

struct key_order {
	const char *key;
	int numeric;		/* every value a number */
	struct kval *v;		/* sorted by val, for bsearch */
	size_t n;
};

static int cmp_kval_str(const void *a, const void *b)
{
	const struct kval *x = a, *y = b;
	int c = strcmp(x->val, y->val);

	if (c)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

static const struct key_order *order_ctx;

/* Numbers by value, ops in their usual order, the rest as they came. */
static int cmp_kval_order(const void *a, const void *b)
{
	const struct kval *x = *(const struct kval *const *)a;
	const struct kval *y = *(const struct kval *const *)b;
	int ox, oy;

	if (order_ctx->numeric && (x->num < y->num || x->num > y->num))
		return x->num < y->num ? -1 : 1;
	if (!strcmp(order_ctx->key, "op")) {
		ox = in_list(op_order, x->val);
		oy = in_list(op_order, y->val);
		if (ox >= 0 && oy >= 0 && ox != oy)
			return ox < oy ? -1 : 1;
		if ((ox >= 0) != (oy >= 0))
			return ox >= 0 ? -1 : 1;
	}
	return x->first < y->first ? -1 : x->first > y->first;
}

static void key_order_build(struct key_order *ko, const struct result_set *rs,
			    const unsigned char *sel, const char *key)
{
	struct kval *all = NULL, **byorder;
	size_t n = 0, alloc = 0, u = 0;

	ko->key = key;
	ko->numeric = 1;
	for (size_t i = 0; i < rs->n; i++) {
		if (!sel[i])
			continue;
		ALLOC_GROW(all, n + 1, alloc);
		all[n].val = key_value(&rs->m[i], key);
		all[n].first = i;
		all[n].rank = 0;
		if (!is_numeric_string(all[n].val, &all[n].num))
			ko->numeric = 0;
		n++;
	}
	qsort(all, n, sizeof(*all), cmp_kval_str);
	for (size_t i = 0; i < n; i++)
		if (!u || strcmp(all[u - 1].val, all[i].val))
			all[u++] = all[i];
	byorder = xmalloc((u ? u : 1) * sizeof(*byorder));
	for (size_t i = 0; i < u; i++)
		byorder[i] = &all[i];
	order_ctx = ko;
	qsort(byorder, u, sizeof(*byorder), cmp_kval_order);
	for (size_t i = 0; i < u; i++)
		byorder[i]->rank = i;
	free(byorder);
	ko->v = all;
	ko->n = u;
}

static const struct kval *key_order_find(const struct key_order *ko,
					 const char *val)
{
	size_t lo = 0, hi = ko->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ko->v[mid].val, val);

		if (!c)
			return &ko->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	BUG("value '%s' of key '%s' not in its order", val, ko->key);
}

/* The value with rank r. */
static const struct kval *key_order_at(const struct key_order *ko, size_t r)
{
	for (size_t i = 0; i < ko->n; i++)
		if (ko->v[i].rank == r)
			return &ko->v[i];
	BUG("no rank %zu in key '%s'", r, ko->key);
}

static void key_order_release(struct key_order *ko)
{
	free(ko->v);
	ko->v = NULL;
	ko->n = 0;
}

static int is_size_key(const char *key)
{
	return in_list(size_keys, key) >= 0;
}

/* ---- which keys vary --------------------------------------------------- */

struct sig_entry {
	char *sig;		/* values of the chosen keys, joined */
	const char *val;	/* value of the candidate key */
};

static int cmp_sig(const void *a, const void *b)
{
	return strcmp(((const struct sig_entry *)a)->sig,
		      ((const struct sig_entry *)b)->sig);
}

/* Does key take more than one value where the chosen keys are all equal? */
static int key_adds_information(const struct result_set *rs,
				const unsigned char *sel, const char **chosen,
				size_t nchosen, const char *key)
{
	struct sig_entry *e = NULL;
	size_t n = 0, alloc = 0;
	int adds = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!sel[i])
			continue;
		for (size_t k = 0; k < nchosen; k++) {
			strbuf_adds(&sb, key_value(&rs->m[i], chosen[k]));
			strbuf_addch(&sb, '\x1f');
		}
		ALLOC_GROW(e, n + 1, alloc);
		e[n].sig = strbuf_detach(&sb);
		e[n].val = key_value(&rs->m[i], key);
		n++;
	}
	qsort(e, n, sizeof(*e), cmp_sig);
	for (size_t i = 1; i < n && !adds; i++)
		adds = !strcmp(e[i].sig, e[i - 1].sig) &&
		       strcmp(e[i].val, e[i - 1].val);
	for (size_t i = 0; i < n; i++)
		free(e[i].sig);
	free(e);
	return adds;
}

static int listed(const char *const *keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return 1;
	return 0;
}

/* Candidate keys: the preferred ones, then every label key in the data. */
static size_t candidate_keys(const struct result_set *rs,
			     const unsigned char *sel, const char ***out)
{
	const char **k = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; key_preference[i]; i++) {
		ALLOC_GROW(k, n + 1, alloc);
		k[n++] = key_preference[i];
	}
	for (size_t i = 0; i < rs->n; i++) {
		const struct labels *l = &rs->m[i].labels;

		if (!sel[i])
			continue;
		for (size_t j = 0; j < l->n; j++) {
			if (listed(k, n, l->v[j].key))
				continue;
			ALLOC_GROW(k, n + 1, alloc);
			k[n++] = l->v[j].key;
		}
	}
	*out = k;
	return n;
}

size_t chart_varying_keys(const struct result_set *rs,
			  const unsigned char *selected,
			  const char **chosen, size_t nchosen,
			  const char **keys, size_t max)
{
	const char **cand, **have;
	size_t ncand = candidate_keys(rs, selected, &cand), nhave = nchosen;
	size_t n = 0;

	have = xmalloc((nchosen + ncand + 1) * sizeof(*have));
	if (nchosen)
		memcpy(have, chosen, nchosen * sizeof(*have));
	for (size_t i = 0; i < ncand && n < max; i++) {
		if (listed(have, nhave, cand[i]) ||
		    !key_adds_information(rs, selected, have, nhave, cand[i]))
			continue;
		keys[n++] = cand[i];
		have[nhave++] = cand[i];
	}
	free(have);
	free(cand);
	return n;
}

/*
 * A key for a numeric axis: numbers, and at least three of them -- two
 * values (direct=0/1) are a choice between two things, not a scale.
 */
static int numeric_axis(const struct key_order *ko)
{
	return ko->numeric && ko->n >= 3;
}

const char *chart_pick_x(const struct result_set *rs,
			 const unsigned char *selected)
{
	const char *keys[32];
	size_t n = chart_varying_keys(rs, selected, NULL, 0, keys, 32);

	for (size_t i = 0; i < n; i++) {
		struct key_order ko;
		int numeric;

		key_order_build(&ko, rs, selected, keys[i]);
		numeric = numeric_axis(&ko);
		key_order_release(&ko);
		if (numeric)
			return keys[i];
	}
	return n ? keys[0] : "op";
}

/* ---- names ------------------------------------------------------------- */

/*
 * The first letter of a title inside a sentence: "Block size" is "block
 * size", but an acronym keeps its capital ("I/O depth", "IOPS").
 */
static char lower_word(const char *t)
{
	if (t[0] >= 'A' && t[0] <= 'Z' && t[1] >= 'a' && t[1] <= 'z')
		return (char)(t[0] - 'A' + 'a');
	return t[0];
}

static const struct {
	const char *key, *title;
} key_titles[] = {
	{ "bs", "Block size" },
	{ "iodepth", "I/O depth" },
	{ "numjobs", "Jobs" },
	{ "filesize", "File size" },
	{ "threads", "Threads" },
	{ "rwmixread", "Reads in the mix (%)" },
	{ "op", "Operation" },
	{ "host", "Host" },
	{ "device", "Device" },
	{ "fs", "File system" },
	{ "kind", "Kind" },
	{ "ioengine", "I/O engine" },
	{ "source", "Input" },
	{ "tool", "Tool" },
	{ "command", "Command" },
	{ "direct", "Direct I/O" },
	{ "job", "Job" },
};

const char *chart_key_title(const char *key)
{
	for (size_t i = 0; i < sizeof(key_titles) / sizeof(key_titles[0]); i++)
		if (!strcmp(key_titles[i].key, key))
			return key_titles[i].title;
	return key;
}

static const struct {
	const char *metric, *title;
} metric_titles[] = {
	{ "bw", "Throughput" },
	{ "iops", "IOPS" },
	{ "bytes", "Data transferred" },
	{ "runtime", "Runtime" },
	{ "time.real", "Elapsed time" },
	{ "time.user", "User CPU time" },
	{ "time.sys", "System CPU time" },
	{ "cpu.usr", "User CPU" },
	{ "cpu.sys", "System CPU" },
	{ "disk.util", "Disk utilisation" },
	{ "lat", "latency" },
	{ "clat", "completion latency" },
	{ "slat", "submission latency" },
};

static const char *lookup_metric(const char *m)
{
	for (size_t i = 0; i < sizeof(metric_titles) / sizeof(metric_titles[0]);
	     i++)
		if (!strcmp(metric_titles[i].metric, m))
			return metric_titles[i].title;
	return NULL;
}

/* "clat.p99.9" -> family "clat", percentile 99.9; 0 when not one. */
static int metric_percentile(const char *metric, const char *family,
			     double *p)
{
	size_t len = strlen(family);
	const char *q;

	if (strncmp(metric, family, len) || metric[len] != '.' ||
	    metric[len + 1] != 'p')
		return 0;
	q = metric + len + 2;
	return !scan_double(&q, 0, p) && !*q && *p > 0 && *p < 100;
}

const char *chart_metric_title(const char *metric, char *buf, size_t size)
{
	const char *t = lookup_metric(metric), *dot;
	char fam[32];
	double p;

	if (t) {
		snprintf(buf, size, "%c%s", t[0] >= 'a' && t[0] <= 'z' ?
			 t[0] - 'a' + 'A' : t[0], t + 1);
		return buf;
	}
	dot = strchr(metric, '.');
	if (!dot || (size_t)(dot - metric) >= sizeof(fam))
		return snprintf(buf, size, "%s", metric), buf;
	memcpy(fam, metric, (size_t)(dot - metric));
	fam[dot - metric] = '\0';
	t = lookup_metric(fam);
	if (!t)
		return snprintf(buf, size, "%s", metric), buf;
	if (!strcmp(dot + 1, "mean"))
		snprintf(buf, size, "Mean %s", t);
	else if (!strcmp(dot + 1, "min"))
		snprintf(buf, size, "Minimum %s", t);
	else if (!strcmp(dot + 1, "max"))
		snprintf(buf, size, "Maximum %s", t);
	else if (!strcmp(dot + 1, "stddev"))
		snprintf(buf, size, "Std. dev. of %s", t);
	else if (metric_percentile(metric, fam, &p))
		snprintf(buf, size, "%s %s", dot + 1, t);
	else
		snprintf(buf, size, "%s", metric);
	return buf;
}

/* "us" reads better as "µs" on a chart. */
static const char *unit_display_name(const char *name)
{
	return strcmp(name, "us") ? name : "\xc2\xb5s";
}

/* ---- number formatting ------------------------------------------------- */

/* Decimals that print every multiple of step exactly (0.25 -> 2). */
static int decimals_for(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) >
	       1e-6 * step * pow(10, d))
		d++;
	return d;
}

/* IOPS keep factor 1 and read as 61.2k, 1.2M on a chart. */
static int y_uses_suffix(const struct chart *c)
{
	return !strcmp(c->y.unit.name, "IOPS");
}

static char *format_sig(double v, char *buf, size_t size)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, size, "-");
	else if (a >= 100 || !(a > 0))
		snprintf(buf, size, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, size, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "%.3g", v);
	return buf;
}

char *chart_format_y(const struct chart *c, double v, char *buf, size_t size)
{
	char tmp[32];

	if (y_uses_suffix(c) && fabs(v) >= 1e6)
		snprintf(buf, size, "%sM", format_sig(v / 1e6, tmp, 32));
	else if (y_uses_suffix(c) && fabs(v) >= 1e4)
		snprintf(buf, size, "%sk", format_sig(v / 1e3, tmp, 32));
	else
		format_sig(v, buf, size);
	return buf;
}

/* 1 -> "p90", 3 -> "p99.9": as many decimals as the nines need. */
static char *format_nines(double x, char *buf, size_t size)
{
	int d = (int)ceil(x - 1e-9) - 2;

	snprintf(buf, size, "p%.*f", d < 0 ? 0 : d, 100 * (1 - pow(10, -x)));
	return buf;
}

char *chart_format_x(const struct chart *c, double x, char *buf, size_t size)
{
	if (c->x.scale == AXIS_CATEGORY) {
		size_t i = (size_t)llround(x);

		snprintf(buf, size, "%s", i < c->x.ncat ? c->x.cat[i] : "?");
	} else if (c->x.scale == AXIS_NINES) {
		format_nines(x, buf, size);
	} else if (c->x.size_key) {
		human_size(x, buf, size);
	} else {
		snprintf(buf, size, "%.6g", x);
	}
	return buf;
}

/* ---- axes -------------------------------------------------------------- */

double chart_axis_frac(const struct chart_axis *a, double v)
{
	double lo = a->min, hi = a->max;

	if (a->scale == AXIS_LOG2 || a->scale == AXIS_LOG10) {
		v = log(v > 0 ? v : lo);
		lo = log(lo);
		hi = log(hi);
	}
	if (!(hi > lo))
		return 0.5;
	return (v - lo) / (hi - lo);
}

static double nice_step(double range, int target)
{
	double raw = range / target, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;

	if (r <= 1)
		return mag;
	if (r <= 2)
		return 2 * mag;
	if (r <= 2.5)
		return 2.5 * mag;
	if (r <= 5)
		return 5 * mag;
	return 10 * mag;
}

/* Ticks every nice step over [lo, hi], which are widened to whole steps. */
static void linear_ticks(struct chart *c, struct chart_axis *a, double lo,
			 double hi, int is_y)
{
	double step;
	int d;
	char buf[64];

	if (!(hi > lo)) {
		double pad = fabs(lo) > 0 ? fabs(lo) / 2 : 1;

		lo -= pad;
		hi += pad;
		if (lo < 0 && !(a->min < 0))
			lo = 0;
	}
	step = nice_step(hi - lo, 6);
	a->min = floor(lo / step + 1e-9) * step;
	a->max = ceil(hi / step - 1e-9) * step;
	d = decimals_for(step);
	for (double t = a->min; t <= a->max + step / 2; t += step) {
		double v = fabs(t) < step / 1e6 ? 0 : t;

		if (is_y && y_uses_suffix(c) && a->max >= 1e4 && v > 0)
			snprintf(buf, sizeof(buf), "%.*fk",
				 decimals_for(step / 1e3), v / 1e3);
		else
			snprintf(buf, sizeof(buf), "%.*f", d, v);
		add_tick(a, v, buf);
	}
}

static void log10_ticks(struct chart *c, struct chart_axis *a, double lo,
			double hi, int is_y)
{
	int k0 = (int)floor(log10(lo) + 1e-9), k1 = (int)ceil(log10(hi) - 1e-9);
	static const double minor[] = { 1, 2, 5 };
	char buf[64];

	if (k1 <= k0)
		k1 = k0 + 1;
	a->min = pow(10, k0);
	a->max = pow(10, k1);
	for (int k = k0; k <= k1; k++) {
		for (int j = 0; j < 3; j++) {
			double t = minor[j] * pow(10, k);

			if ((j && k1 - k0 > 2) || t > a->max * (1 + 1e-9))
				continue;
			if (is_y && y_uses_suffix(c) && t >= 1e6)
				snprintf(buf, sizeof(buf), "%gM", t / 1e6);
			else if (is_y && y_uses_suffix(c) && t >= 1e4)
				snprintf(buf, sizeof(buf), "%gk", t / 1e3);
			else
				snprintf(buf, sizeof(buf), "%g", t);
			add_tick(a, t, buf);
		}
	}
}

/* Powers of two, at most about ten, starting at the smallest data value. */
static void log2_ticks(struct chart *c, double lo, double hi)
{
	int k0 = (int)ceil(log2(lo) - 1e-9), k1 = (int)floor(log2(hi) + 1e-9);
	int stride = 1;
	char buf[64];

	while ((k1 - k0) / stride + 1 > 10)
		stride++;
	for (int k = k0; k <= k1; k += stride)
		add_tick(&c->x, ldexp(1, k), chart_format_x(c, ldexp(1, k),
							     buf, sizeof(buf)));
	/* a little room so that end markers are not cut by the frame */
	c->x.min = lo / pow(2, 0.3);
	c->x.max = hi * pow(2, 0.3);
}

static void nines_ticks(struct chart *c, double lo, double hi)
{
	char buf[32];

	add_tick(&c->x, log10(2), format_nines(log10(2), buf, sizeof(buf)));
	for (int k = 1; k <= (int)floor(hi + 1e-9); k++)
		add_tick(&c->x, k, format_nines(k, buf, sizeof(buf)));
	c->x.min = lo - 0.1;
	c->x.max = hi + 0.1;
}

/* ---- selection --------------------------------------------------------- */

struct build {
	const struct result_set *rs;
	const struct chart_spec *spec;
	unsigned char *sel;
	size_t nsel;
	const char *x_key;
	const char *skeys[MAX_SERIES_KEYS];
	size_t nskeys;
	const char *ratio_key, *ratio_a, *ratio_b;
	char *ratio_parts[3];	/* what ratio_key, _a, _b point into */
	int pct;	/* points from FAMILY.pNN metrics: x is the percentile */
	int hist;	/* points from histograms */
};

static size_t select_measurements(struct build *b, int (*want)(
		const struct measurement *, const char *), const char *metric)
{
	const struct result_set *rs = b->rs;

	b->nsel = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];

		b->sel[i] = want(m, metric) &&
			    (!b->spec->where || filter_match(b->spec->where, m));
		b->nsel += b->sel[i];
	}
	return b->nsel;
}

static int want_metric(const struct measurement *m, const char *metric)
{
	return !strcmp(m->metric, metric) && (m->n || m->summary.present);
}

static int want_percentile(const struct measurement *m, const char *family)
{
	double p;

	return metric_percentile(m->metric, family, &p) &&
	       (m->n || m->summary.present);
}

static int want_histogram(const struct measurement *m, const char *family)
{
	size_t len = strlen(family);

	return m->hist.n && !strncmp(m->metric, family, len) &&
	       (!m->metric[len] || m->metric[len] == '.');
}

/* ---- grouping ---------------------------------------------------------- */

struct entry {
	size_t m;
	size_t xr;
	size_t sr[MAX_SERIES_KEYS];
};

static size_t entry_nkeys;

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	for (size_t k = 0; k < entry_nkeys; k++)
		if (x->sr[k] != y->sr[k])
			return x->sr[k] < y->sr[k] ? -1 : 1;
	if (x->xr != y->xr)
		return x->xr < y->xr ? -1 : 1;
	return x->m < y->m ? -1 : x->m > y->m;
}

static int same_series(const struct entry *a, const struct entry *b)
{
	for (size_t k = 0; k < entry_nkeys; k++)
		if (a->sr[k] != b->sr[k])
			return 0;
	return 1;
}

/* "read", or "read, host=a" with several keys; numbers keep their key. */
static char *series_name(const struct build *b, const struct measurement *m)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];

	for (size_t k = 0; k < b->nskeys; k++) {
		const char *key = b->skeys[k], *v = key_value(m, key);
		double num;

		if (k)
			strbuf_adds(&sb, ", ");
		if (!*v)
			strbuf_addf(&sb, "no %s", key);
		else if (is_numeric_string(v, &num))
			strbuf_addf(&sb, "%s=%s", key, is_size_key(key) ?
				    human_size(num, buf, sizeof(buf)) : v);
		else
			strbuf_adds(&sb, v);
	}
	return strbuf_detach(&sb);
}

/*
 * The orders of the x key and the series keys over every selected
 * measurement, and the entries sorted by series, then x.
 */
struct grouping {
	struct key_order xo;
	struct key_order so[MAX_SERIES_KEYS];
	struct entry *e;
	size_t n;
};

static void grouping_build(struct grouping *g, const struct build *b,
			   const unsigned char *sel)
{
	const struct result_set *rs = b->rs;

	key_order_build(&g->xo, rs, b->sel, b->x_key);
	for (size_t k = 0; k < b->nskeys; k++)
		key_order_build(&g->so[k], rs, b->sel, b->skeys[k]);
	g->e = xmalloc((b->nsel ? b->nsel : 1) * sizeof(*g->e));
	g->n = 0;
	for (size_t i = 0; i < rs->n; i++) {
		struct entry *e;

		if (!sel[i])
			continue;
		e = &g->e[g->n++];
		memset(e, 0, sizeof(*e));
		e->m = i;
		e->xr = key_order_find(&g->xo,
				       key_value(&rs->m[i], b->x_key))->rank;
		for (size_t k = 0; k < b->nskeys; k++)
			e->sr[k] = key_order_find(&g->so[k], key_value(
					&rs->m[i], b->skeys[k]))->rank;
	}
	entry_nkeys = b->nskeys;
	qsort(g->e, g->n, sizeof(*g->e), cmp_entry);
}

static void grouping_release(struct grouping *g, size_t nskeys)
{
	key_order_release(&g->xo);
	for (size_t k = 0; k < nskeys; k++)
		key_order_release(&g->so[k]);
	free(g->e);
}

/*
 * The x coordinate of an entry: the number, the category's index, or for
 * percentile metrics the percentile in nines.
 */
static double entry_x(const struct chart *c, const struct build *b,
		      const struct grouping *g, const struct entry *e)
{
	double p;

	if (b->pct && metric_percentile(b->rs->m[e->m].metric, b->spec->y, &p))
		return -log10(1 - p / 100);
	if (c->x.scale == AXIS_CATEGORY)
		return (double)e->xr;
	return key_order_at(&g->xo, e->xr)->num;
}

/* Sets p from the pooled figures (base units; scaled later). */
static void point_from_pool(struct chart *c, const struct chart_spec *spec,
			    struct chart_point *p, struct pool *pl)
{
	struct pool_stats st;
	double half;

	pool_stats(pl, &st);
	p->n = st.n;
	p->y = spec->stat == CHART_STAT_MEDIAN ? st.median : st.mean;
	if (c->kind == CHART_BOX) {
		p->box[0] = st.min;
		p->box[1] = st.q1;
		p->box[2] = st.median;
		p->box[3] = st.q3;
		p->box[4] = st.max;
		return;
	}
	switch (c->errorbars) {
	case CHART_ERR_SD:
		if (!isnan(st.sd) && st.n > 1) {
			p->lo = p->y - st.sd;
			p->hi = p->y + st.sd;
		}
		break;
	case CHART_ERR_CI:
		half = ci95_half(&st);
		if (!isnan(half)) {
			p->lo = st.mean - half;
			p->hi = st.mean + half;
		}
		break;
	case CHART_ERR_MINMAX:
		if (st.n > 1 && !isnan(st.min) && !isnan(st.max)) {
			p->lo = st.min;
			p->hi = st.max;
		}
		break;
	default:
		break;
	}
	/* A bandwidth, a rate or a latency is never negative: a wide
	 * interval of few runs stops at zero instead of pulling the axis
	 * below it. */
	if (!(st.min < 0) && p->lo < 0)
		p->lo = 0;
}

/* One point per (series, x) group of entries. */
static void grouping_points(struct chart *c, const struct build *b,
			    const struct grouping *g)
{
	struct chart_series *s = NULL;

	for (size_t i = 0; i < g->n;) {
		const struct entry *e = &g->e[i];
		struct pool pl = { 0 };
		struct chart_point *p;

		if (!i || !same_series(&g->e[i - 1], e)) {
			char *name = series_name(b, &b->rs->m[e->m]);

			s = add_series(c, name);
			free(name);
		}
		p = add_point(s, entry_x(c, b, g, e));
		for (; i < g->n && same_series(&g->e[i], e) &&
		       g->e[i].xr == e->xr; i++)
			pool_add(&pl, &b->rs->m[g->e[i].m]);
		point_from_pool(c, b->spec, p, &pl);
		free(pl.v);
	}
}

/* ---- percentile curves and CDFs from histograms ------------------------ */

struct bucket {
	double value;
	uint64_t count;
};

static int cmp_bucket(const void *a, const void *b)
{
	return cmp_double(&((const struct bucket *)a)->value,
			  &((const struct bucket *)b)->value);
}

/* The histograms of a group, merged: buckets sorted, equal values summed. */
static struct bucket *merge_histograms(const struct build *b,
				       const struct entry *e, size_t ne,
				       size_t *nout, double *total)
{
	struct bucket *v = NULL;
	size_t n = 0, alloc = 0, u = 0;

	for (size_t i = 0; i < ne; i++) {
		const struct histogram *h = &b->rs->m[e[i].m].hist;

		for (size_t j = 0; j < h->n; j++) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n].value = h->value[j];
			v[n++].count = h->count[j];
		}
	}
	qsort(v, n, sizeof(*v), cmp_bucket);
	*total = 0;
	for (size_t i = 0; i < n; i++) {
		*total += (double)v[i].count;
		if (u && !(v[u - 1].value < v[i].value) &&
		    !(v[u - 1].value > v[i].value))
			v[u - 1].count += v[i].count;
		else
			v[u++] = v[i];
	}
	*nout = u;
	return v;
}

/* The smallest bucket value with at least q of the samples at or below. */
static double bucket_quantile(const struct bucket *v, size_t n, double total,
			      double q)
{
	double cum = 0;

	for (size_t i = 0; i < n; i++) {
		cum += (double)v[i].count;
		if (cum >= q * total * (1 - 1e-12))
			return v[i].value;
	}
	return n ? v[n - 1].value : NAN;
}

static void histogram_series(struct chart *c, struct chart_series *s,
			     const struct bucket *v, size_t n, double total)
{
	if (c->kind == CHART_CDF) {
		double cum = 0;

		for (size_t i = 0; i < n; i++) {
			cum += (double)v[i].count;
			if (v[i].count)
				add_point(s, v[i].value)->y = 100 * cum / total;
		}
		return;
	}
	/* percentiles: p50 up to the finest percentile the count supports */
	for (double x = log10(2); x <= log10(total) + 1e-9; x += 0.02) {
		struct chart_point *p = add_point(s, x);

		p->y = bucket_quantile(v, n, total, 1 - pow(10, -x));
		p->n = (size_t)total;
	}
}

static void histogram_points(struct chart *c, const struct build *b,
			     const struct grouping *g)
{
	for (size_t i = 0; i < g->n;) {
		size_t j = i, nb;
		struct bucket *v;
		double total;
		char *name;

		while (j < g->n && same_series(&g->e[j], &g->e[i]))
			j++;
		v = merge_histograms(b, g->e + i, j - i, &nb, &total);
		name = series_name(b, &b->rs->m[g->e[i].m]);
		if (total > 0)
			histogram_series(c, add_series(c, name), v, nb, total);
		free(name);
		free(v);
		i = j;
	}
}

/* ---- the y axis -------------------------------------------------------- */

static void scale_points(struct chart *c, double f)
{
	for (size_t i = 0; i < c->nseries; i++) {
		for (size_t j = 0; j < c->series[i].n; j++) {
			struct chart_point *p = &c->series[i].p[j];

			p->y /= f;
			p->lo /= f;
			p->hi /= f;
			for (int k = 0; k < 5; k++)
				p->box[k] /= f;
		}
	}
}

static void data_range(const struct chart *c, int of_x, double *lo,
		       double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < c->nseries; i++) {
		for (size_t j = 0; j < c->series[i].n; j++) {
			const struct chart_point *p = &c->series[i].p[j];
			double v[8] = { of_x ? p->x : p->y, p->lo, p->hi,
					p->box[0], p->box[4], NAN, NAN, NAN };

			for (int k = 0; k < (of_x ? 1 : 5); k++) {
				if (isnan(v[k]))
					continue;
				*lo = v[k] < *lo ? v[k] : *lo;
				*hi = v[k] > *hi ? v[k] : *hi;
			}
		}
	}
}

static int choose_y_unit(struct chart *c, const struct chart_spec *spec,
			 const char *base_unit, struct strbuf *err)
{
	double lo, hi;
	int binary = spec->units && !strcmp(spec->units, "binary");

	if (c->ratio || c->kind == CHART_CDF) {
		c->y.unit.name = c->ratio ? "" : "%";
		c->y.unit.factor = 1;
		return 0;
	}
	if (spec->units && !binary && strcmp(spec->units, "auto")) {
		if (display_unit_parse(spec->units, base_unit, &c->y.unit)) {
			strbuf_addf(err, "unit '%s' does not fit %s (%s)",
				    spec->units, c->metric, base_unit);
			return -1;
		}
	} else if (!strcmp(base_unit, UNIT_IOPS)) {
		c->y.unit.name = "IOPS";
		c->y.unit.factor = 1;
	} else {
		data_range(c, 0, &lo, &hi);
		display_unit_auto(base_unit, fabs(hi) > fabs(lo) ? hi : lo,
				  binary, &c->y.unit);
	}
	scale_points(c, c->y.unit.factor);
	return 0;
}

static void y_axis(struct chart *c, const struct chart_spec *spec)
{
	double lo, hi;

	data_range(c, 0, &lo, &hi);
	if (c->kind == CHART_PERCENTILES && !spec->log_y && lo > 0 &&
	    hi / lo > 100)
		c->y.scale = AXIS_LOG10;
	if (spec->log_y)
		c->y.scale = AXIS_LOG10;
	if (c->y.scale == AXIS_LOG10 && !(lo > 0)) {
		add_note(c, "log y axis needs values above zero; using a "
			 "linear one");
		c->y.scale = AXIS_LINEAR;
	}
	if (c->y.scale == AXIS_LOG10) {
		log10_ticks(c, &c->y, lo, hi, 1);
	} else {
		if (c->kind == CHART_CDF) {
			lo = 0;
			hi = 100;
		}
		/* bars and lines start at their baseline: no false zoom */
		if (c->kind == CHART_BAR || c->kind == CHART_LINE) {
			lo = lo < c->baseline ? lo : c->baseline;
			hi = hi > c->baseline ? hi : c->baseline;
		}
		/* a ratio's 1.0 line is never the frame */
		if (c->ratio && !(hi > 1))
			hi = 1 + (1 - lo) / 20;
		else if (c->ratio && !(lo < 1))
			lo = 1 - (hi - 1) / 20;
		linear_ticks(c, &c->y, lo, hi, 1);
	}
}

/* ---- the x axis -------------------------------------------------------- */

static void x_axis_categories(struct chart *c, const struct grouping *g)
{
	for (size_t r = 0; r < g->xo.n; r++) {
		const struct kval *kv = key_order_at(&g->xo, r);
		char buf[64];

		ALLOC_GROW(c->x.cat, c->x.ncat + 1, c->x.cat_alloc);
		if (g->xo.numeric && c->x.size_key)
			c->x.cat[c->x.ncat++] = xstrdup(human_size(
					kv->num, buf, sizeof(buf)));
		else
			c->x.cat[c->x.ncat++] = xstrdup(*kv->val ? kv->val :
							"(none)");
		add_tick(&c->x, (double)r, c->x.cat[r]);
	}
	c->x.min = -0.5;
	c->x.max = (double)c->x.ncat - 0.5;
}

static int all_powers_of_two(const struct key_order *ko)
{
	for (size_t i = 0; i < ko->n; i++) {
		int e;

		if (!(ko->v[i].num > 0) || frexp(ko->v[i].num, &e) < 0.5 ||
		    frexp(ko->v[i].num, &e) > 0.5)
			return 0;
	}
	return 1;
}

/* Scale of a numeric x key: log 2 for sizes and doublings, else linear. */
static void x_axis_numeric_scale(struct chart *c, const struct chart_spec *spec,
				 const struct key_order *xo)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < xo->n; i++) {
		lo = xo->v[i].num < lo ? xo->v[i].num : lo;
		hi = xo->v[i].num > hi ? xo->v[i].num : hi;
	}
	c->x.scale = AXIS_LINEAR;
	if (lo > 0 && (spec->log_x || hi / lo >= 8))
		c->x.scale = c->x.size_key || all_powers_of_two(xo) ?
			     AXIS_LOG2 : AXIS_LOG10;
	if (spec->log_x && !(lo > 0))
		add_note(c, "log x axis needs values above zero; using a "
			 "linear one");
}

static void x_axis_numeric(struct chart *c)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	if (c->x.scale == AXIS_LOG2)
		log2_ticks(c, lo, hi);
	else if (c->x.scale == AXIS_LOG10)
		log10_ticks(c, &c->x, lo, hi, 0);
	else
		linear_ticks(c, &c->x, lo, hi, 0);
}

/* ---- titles ------------------------------------------------------------ */

/* Does every selected measurement have one value of key? */
static int key_constant(const struct build *b, const char *key)
{
	const char *first = NULL;

	for (size_t i = 0; i < b->rs->n; i++) {
		const char *v;

		if (!b->sel[i])
			continue;
		v = measurement_key(&b->rs->m[i], key);
		if (!v || (first && strcmp(v, first)))
			return 0;
		first = v;
	}
	return 1;
}

/* Facts every measurement in the chart shares: "fio · randread · bs=4K". */
static char *constant_facts(const struct build *b)
{
	const char *keys[64], *have[64 + MAX_SERIES_KEYS + 1];
	struct strbuf sb = STRBUF_INIT;
	const struct measurement *m = NULL;
	size_t nh = 0, nk;

	for (size_t i = 0; i < b->rs->n && !m; i++)
		if (b->sel[i])
			m = &b->rs->m[i];
	if (!m)
		return xstrdup("");
	have[nh++] = b->x_key;
	for (size_t k = 0; k < b->nskeys; k++)
		have[nh++] = b->skeys[k];
	nk = chart_varying_keys(b->rs, b->sel, have, nh, keys, 64);
	strbuf_adds(&sb, m->tool);
	if (key_constant(b, "op"))
		strbuf_addf(&sb, " \xc2\xb7 %s", m->op);
	for (size_t i = 0; i < m->labels.n; i++) {
		const struct label *l = &m->labels.v[i];
		double num;
		char buf[32];

		if (listed(have, nh, l->key) || listed(keys, nk, l->key) ||
		    strlen(l->value) > 32 || !strcmp(l->key, "command") ||
		    !key_constant(b, l->key))
			continue;
		if (is_size_key(l->key) && is_numeric_string(l->value, &num))
			strbuf_addf(&sb, " \xc2\xb7 %s=%s", l->key,
				    human_size(num, buf, sizeof(buf)));
		else
			strbuf_addf(&sb, " \xc2\xb7 %s=%s", l->key, l->value);
	}
	return strbuf_detach(&sb);
}

static char *source_list(const struct build *b)
{
	struct strbuf sb = STRBUF_INIT;
	const char **names = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < b->rs->n; i++) {
		const char *s = b->rs->m[i].source_name;

		if (!b->sel[i] || !s || !*s || listed(names, n, s))
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = s;
	}
	for (size_t i = 0; i < n && i < 4; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	if (n > 4)
		strbuf_addf(&sb, " and %zu more", n - 4);
	free(names);
	return strbuf_detach(&sb);
}

static const char *errorbars_text(enum chart_errorbars e)
{
	switch (e) {
	case CHART_ERR_SD:
		return "error bars: \xc2\xb1 1 standard deviation";
	case CHART_ERR_CI:
		return "error bars: 95% confidence interval of the mean";
	case CHART_ERR_MINMAX:
		return "error bars: minimum to maximum";
	default:
		return NULL;
	}
}

static size_t max_runs(const struct chart *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++)
			if (!isnan(c->series[i].p[j].lo) ||
			    c->kind == CHART_BOX)
				n = c->series[i].p[j].n > n ?
				    c->series[i].p[j].n : n;
	return n;
}

static void titles(struct chart *c, const struct build *b)
{
	const struct chart_spec *spec = b->spec;
	char mt[96], *facts = constant_facts(b);
	const char *err = errorbars_text(c->errorbars);
	struct strbuf sb = STRBUF_INIT;
	size_t runs = max_runs(c);

	chart_metric_title(c->metric, mt, sizeof(mt));
	if (c->ratio)
		c->y.title = xstrfmt("%s, %s=%s / %s=%s", mt, b->ratio_key,
				     b->ratio_a, b->ratio_key, b->ratio_b);
	else if (c->kind == CHART_CDF)
		c->y.title = xstrdup("Share of I/Os at or below (%)");
	else if (!strcmp(c->y.unit.name, "IOPS"))
		c->y.title = xstrdup(mt);
	else
		c->y.title = xstrfmt("%s (%s)", mt,
				     unit_display_name(c->y.unit.name));
	if (c->kind == CHART_CDF) {
		free(c->x.title);
		c->x.title = xstrfmt("%s (%s)", mt,
				     unit_display_name(c->x.unit.name));
	}
	if (spec->title)
		c->title = xstrdup(spec->title);
	else if (c->kind == CHART_PERCENTILES)
		c->title = xstrfmt("%s percentiles", mt);
	else if (c->kind == CHART_CDF)
		c->title = xstrfmt("%s distribution", mt);
	else if (c->ratio)
		c->title = xstrfmt("%s: %s=%s relative to %s=%s", mt,
				   b->ratio_key, b->ratio_a, b->ratio_key,
				   b->ratio_b);
	else
		c->title = xstrfmt("%s by %c%s", mt, lower_word(c->x.title),
				   c->x.title + 1);
	c->subtitle = xstrdup(spec->subtitle ? spec->subtitle : facts);
	c->source_names = source_list(b);
	strbuf_addf(&sb, "Data: %s", c->source_names);
	if (err && runs > 1)
		strbuf_addf(&sb, "; %s (up to %zu runs)", err, runs);
	if (c->kind == CHART_BOX)
		strbuf_adds(&sb, "; boxes: quartiles, whiskers: min to max");
	c->footer = strbuf_detach(&sb);
	free(facts);
}

/* ---- choosing keys ----------------------------------------------------- */

/* "host,op" -> skeys; the pointers go into keys, which the caller keeps. */
static int parse_series_keys(struct build *b, char *keys, struct strbuf *err)
{
	for (char *p = keys; p && *p;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (b->nskeys == MAX_SERIES_KEYS) {
			strbuf_addf(err, "at most %d series keys",
				    MAX_SERIES_KEYS);
			return -1;
		}
		b->skeys[b->nskeys++] = p;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

static void choose_keys(struct chart *c, struct build *b, int user_series)
{
	const char *have[MAX_SERIES_KEYS + 2], *rest[32];
	size_t nh = 0, nrest;

	if (b->pct || b->hist)
		b->x_key = "metric";
	else
		b->x_key = b->spec->x ? b->spec->x :
			   chart_pick_x(b->rs, b->sel);
	have[nh++] = b->x_key;
	if (b->ratio_key)
		have[nh++] = b->ratio_key;
	if (!user_series) {
		b->nskeys = chart_varying_keys(b->rs, b->sel, have, nh,
					       b->skeys, MAX_SERIES_KEYS);
		return;
	}
	for (size_t k = 0; k < b->nskeys; k++)
		have[nh++] = b->skeys[k];
	nrest = chart_varying_keys(b->rs, b->sel, have, nh, rest, 32);
	for (size_t k = 0; k < nrest; k++)
		add_note(c, "measurements also differ in '%s': each point "
			 "pools them (narrow with --where, or add the key to "
			 "--series)", rest[k]);
}

/* ---- ratio ------------------------------------------------------------- */

/*
 * KEY=A/KEY=B, read as storan table reads it (pivot_ratio_parse: the last
 * "/KEY=" splits), so that values with '/' in them -- device=/dev/sdb,
 * the commonest ratio of all -- are not cut at their first '/'.  The
 * parts are kept in b->ratio_parts and freed with the build.
 */
static int parse_ratio(struct build *b, const char *spec, struct strbuf *err)
{
	const char *slash = strchr(spec, '/'), *eq = strchr(spec, '=');

	if (!pivot_ratio_parse(spec, &b->ratio_parts[0], &b->ratio_parts[1],
			       &b->ratio_parts[2])) {
		b->ratio_key = b->ratio_parts[0];
		b->ratio_a = b->ratio_parts[1];
		b->ratio_b = b->ratio_parts[2];
		return 0;
	}
	if (eq && eq != spec && slash && slash > eq && strchr(slash, '='))
		strbuf_addf(err, "--ratio compares two values of one key "
			    "(KEY=A/KEY=B), not '%s'", spec);
	else
		strbuf_addf(err, "--ratio wants KEY=A/KEY=B, not '%s'", spec);
	return -1;
}

static const struct chart_point *find_x(const struct chart_series *s, double x)
{
	for (size_t k = 0; s && k < s->n; k++)
		if (!(s->p[k].x < x) && !(s->p[k].x > x))
			return &s->p[k];
	return NULL;
}

/* Each A point divided by the B point of the same series and x. */
static void ratio_divide(struct chart *c, const struct chart *cb,
			 const struct build *b)
{
	size_t dropped = 0;

	for (size_t i = 0; i < c->nseries; i++) {
		struct chart_series *s = &c->series[i];
		const struct chart_series *sb = NULL;
		size_t out = 0;

		for (size_t j = 0; j < cb->nseries && !sb; j++)
			if (!strcmp(cb->series[j].name, s->name))
				sb = &cb->series[j];
		for (size_t j = 0; j < s->n; j++) {
			const struct chart_point *pb = find_x(sb, s->p[j].x);

			if (!pb || !(fabs(pb->y) > 0)) {
				dropped++;
				continue;
			}
			s->p[out] = s->p[j];
			s->p[out].y = s->p[j].y / pb->y;
			s->p[out].lo = s->p[out].hi = NAN;
			out++;
		}
		s->n = out;
	}
	if (dropped)
		add_note(c, "%zu point(s) with %s=%s have no %s=%s to divide "
			 "by", dropped, b->ratio_key, b->ratio_a,
			 b->ratio_key, b->ratio_b);
}

/* ---- building ---------------------------------------------------------- */

static int select_for_kind(struct chart *c, struct build *b,
			   struct strbuf *err)
{
	const char *y = b->spec->y;

	if ((c->kind == CHART_CDF || c->kind == CHART_PERCENTILES) &&
	    b->spec->from != CHART_FROM_METRICS) {
		if (select_measurements(b, want_histogram, y)) {
			b->hist = 1;
			return 0;
		}
		if (c->kind == CHART_CDF ||
		    b->spec->from == CHART_FROM_HISTOGRAMS) {
			strbuf_addf(err, "no latency histogram of '%s' matches "
				    "(a CDF needs fio JSON+ bins or the "
				    "runner's histograms)", y);
			return -1;
		}
	}
	if (c->kind == CHART_PERCENTILES ||
	    (c->kind == CHART_AUTO && !select_measurements(b, want_metric, y) &&
	     select_measurements(b, want_percentile, y))) {
		c->kind = CHART_PERCENTILES;
		b->pct = 1;
		if (!select_measurements(b, want_percentile, y)) {
			strbuf_addf(err, "no percentiles %s.pNN match", y);
			return -1;
		}
		return 0;
	}
	if (!select_measurements(b, want_metric, y)) {
		strbuf_addf(err, "no measurement of metric '%s' matches", y);
		return -1;
	}
	return 0;
}

static const char *selected_unit(const struct build *b)
{
	for (size_t i = 0; i < b->rs->n; i++)
		if (b->sel[i])
			return b->rs->m[i].unit;
	return "";
}

static int check_units(const struct build *b, struct strbuf *err)
{
	const char *u = selected_unit(b);

	for (size_t i = 0; i < b->rs->n; i++) {
		if (b->sel[i] && strcmp(b->rs->m[i].unit, u)) {
			strbuf_addf(err, "metric '%s' comes in two units (%s "
				    "and %s); narrow it with --where",
				    b->spec->y, u, b->rs->m[i].unit);
			return -1;
		}
	}
	return 0;
}

static int has_repetitions(const struct build *b, const struct grouping *g)
{
	for (size_t i = 1; i < g->n; i++)
		if (same_series(&g->e[i - 1], &g->e[i]) &&
		    g->e[i - 1].xr == g->e[i].xr)
			return 1;
	for (size_t i = 0; i < g->n; i++) {
		const struct measurement *m = &b->rs->m[g->e[i].m];

		if (m->n > 1 || (!m->n && m->summary.n > 1))
			return 1;
	}
	return 0;
}

/* Kind, error bars and the x scale, once the keys are known. */
static void choose_kind(struct chart *c, const struct build *b)
{
	struct grouping g;

	grouping_build(&g, b, b->sel);
	if (c->kind == CHART_AUTO)
		c->kind = numeric_axis(&g.xo) && !c->ratio ? CHART_LINE :
			  CHART_BAR;
	if (c->errorbars == CHART_ERR_AUTO)
		c->errorbars = c->kind != CHART_BOX && !b->pct && !b->hist &&
			       !c->ratio && has_repetitions(b, &g) ?
			       CHART_ERR_CI : CHART_ERR_NONE;
	if (c->ratio)
		c->errorbars = CHART_ERR_NONE;
	if (c->kind == CHART_PERCENTILES)
		c->x.scale = AXIS_NINES;
	else if (c->kind == CHART_CDF)
		c->x.scale = AXIS_LINEAR;
	else if (!numeric_axis(&g.xo) || c->ratio || c->kind == CHART_BAR ||
		 c->kind == CHART_BOX)
		c->x.scale = AXIS_CATEGORY;
	else
		x_axis_numeric_scale(c, b->spec, &g.xo);
	grouping_release(&g, b->nskeys);
}

static void fill_points(struct chart *c, const struct build *b,
			const unsigned char *sel)
{
	struct grouping g;

	grouping_build(&g, b, sel);
	if (b->hist)
		histogram_points(c, b, &g);
	else
		grouping_points(c, b, &g);
	grouping_release(&g, b->nskeys);
}

static int cmp_point_x(const void *a, const void *b)
{
	return cmp_double(&((const struct chart_point *)a)->x,
			  &((const struct chart_point *)b)->x);
}

static void build_points(struct chart *c, const struct build *b)
{
	unsigned char *sel_a, *sel_b;
	struct chart cb;

	if (!c->ratio) {
		fill_points(c, b, b->sel);
	} else {
		sel_a = xcalloc(b->rs->n, 1);
		sel_b = xcalloc(b->rs->n, 1);
		for (size_t i = 0; i < b->rs->n; i++) {
			const char *v = key_value(&b->rs->m[i], b->ratio_key);

			sel_a[i] = b->sel[i] && !strcmp(v, b->ratio_a);
			sel_b[i] = b->sel[i] && !strcmp(v, b->ratio_b);
		}
		chart_init(&cb);
		cb.kind = c->kind;
		cb.x.scale = c->x.scale;
		cb.errorbars = CHART_ERR_NONE;
		fill_points(c, b, sel_a);
		fill_points(&cb, b, sel_b);
		ratio_divide(c, &cb, b);
		chart_release(&cb);
		free(sel_a);
		free(sel_b);
	}
	for (size_t i = 0; i < c->nseries; i++)
		qsort(c->series[i].p, c->series[i].n,
		      sizeof(struct chart_point), cmp_point_x);
}

/* CDF points carry latency on x: give x a display unit of its own. */
static void cdf_x_unit(struct chart *c, const char *base_unit)
{
	double lo, hi;

	data_range(c, 1, &lo, &hi);
	display_unit_auto(base_unit, hi, 0, &c->x.unit);
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++)
			c->series[i].p[j].x /= c->x.unit.factor;
}

static void x_axis(struct chart *c, const struct build *b)
{
	struct grouping g;
	double lo, hi;

	c->x.key = xstrdup(b->x_key);
	c->x.size_key = is_size_key(b->x_key);
	c->x.title = xstrdup(b->pct || b->hist ? "Percentile" :
			     chart_key_title(b->x_key));
	data_range(c, 1, &lo, &hi);
	switch (c->x.scale) {
	case AXIS_NINES:
		nines_ticks(c, lo, hi);
		break;
	case AXIS_CATEGORY:
		grouping_build(&g, b, b->sel);
		x_axis_categories(c, &g);
		grouping_release(&g, b->nskeys);
		break;
	default:
		if (c->kind == CHART_CDF)
			c->x.scale = lo > 0 && (b->spec->log_x ||
						hi / lo > 20) ?
				     AXIS_LOG10 : AXIS_LINEAR;
		x_axis_numeric(c);
		break;
	}
}

static int has_points(const struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++)
		if (c->series[i].n)
			return 1;
	return 0;
}

int chart_build(struct chart *c, const struct result_set *rs,
		const struct chart_spec *spec, struct strbuf *err)
{
	struct build b = { .rs = rs, .spec = spec };
	const char *ratio = spec->ratio;
	char *series = spec->series ? xstrdup(spec->series) : NULL;
	int rc = -1;

	chart_release(c);
	c->kind = spec->kind;
	c->errorbars = spec->errorbars;
	c->metric = xstrdup(spec->y);
	c->ratio = ratio != NULL;
	c->baseline = c->ratio ? 1 : 0;
	b.sel = xcalloc(rs->n ? rs->n : 1, 1);
	if ((ratio && parse_ratio(&b, ratio, err)) ||
	    (series && parse_series_keys(&b, series, err)) ||
	    select_for_kind(c, &b, err) || check_units(&b, err))
		goto out;
	choose_keys(c, &b, series != NULL);
	choose_kind(c, &b);
	build_points(c, &b);
	if (!has_points(c)) {
		strbuf_addf(err, "nothing to draw for '%s'%s", spec->y,
			    c->ratio ? ": no pair to divide" : "");
		goto out;
	}
	if (c->kind == CHART_CDF)
		cdf_x_unit(c, selected_unit(&b));
	if (choose_y_unit(c, spec, selected_unit(&b), err))
		goto out;
	x_axis(c, &b);
	y_axis(c, spec);
	titles(c, &b);
	c->members = xmalloc((b.nsel ? b.nsel : 1) * sizeof(size_t));
	for (size_t i = 0; i < rs->n; i++)
		if (b.sel[i])
			c->members[c->nmembers++] = i;
	rc = 0;
out:
	free(b.sel);
	for (size_t i = 0; i < 3; i++)
		free(b.ratio_parts[i]);
	free(series);
	return rc;
}
