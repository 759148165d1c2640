/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The words of a chart: readable names for keys and metrics
 * (chart_key_title, chart_metric_title), and the title, subtitle and
 * footer of a chart being built -- what every point shares, where the
 * data came from, what the whiskers are.
 */
#include "chart-private.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	{ "input", "Input" },
	{ "test", "Test" },
	{ "section", "Section" },
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
int chart_metric_percentile(const char *metric, const char *family,
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
	else if (chart_metric_percentile(metric, fam, &p))
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

/* ---- titles ------------------------------------------------------------ */

/* Facts every point of the chart shares: "fio · randread · bs=4K". */
/* fio's group number 0 (every job's unless stonewalled into groups) and
 * a scratch file's path say nothing a reader needs in a subtitle. */
static int noise_fact(const char *key, const char *value)
{
	return (!strcmp(key, "group") && !strcmp(value, "0")) ||
	       (!strcmp(key, "filename") && strncmp(value, "/dev/", 5));
}

/* What every point shares, in words: "fio · direct I/O · libaio". */
static char *constant_facts(const struct build *b)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[64];

	if (!b->nmem)
		return xstrdup("");
	strbuf_adds(&sb, b->ex->m[b->mem[0]].m->tool);
	if (!chart_key_varies(b, EX_OP))
		strbuf_addf(&sb, " \xc2\xb7 %s", b->ex->m[b->mem[0]].m->op);
	for (size_t k = 0; k < b->ex->nkeys; k++) {
		const struct ex_key *key = &b->ex->keys[k];
		uint64_t code = chart_key_code(b, b->mem[0], k);

		if (!code || chart_key_varies(b, k) ||
		    key->role == EX_IDENTITY || key->provenance ||
		    strlen(key->values[code]) > 32 ||
		    noise_fact(key->name, key->values[code]))
			continue;
		strbuf_adds(&sb, " \xc2\xb7 ");
		experiment_value_words(&sb, key->name,
				       chart_code_text(b, k, code, buf,
						       sizeof(buf)));
	}
	return strbuf_detach(&sb);
}

/* The file a point's measurement was read from: its source's name (the
 * grep'd file, not the prefix its lines carried), else its source_name. */
static const char *input_file_name(const struct build *b, size_t i)
{
	const struct measurement *m = b->ex->m[i].m;
	const struct result_set *set = b->sets ? &b->sets[b->ex->m[i].set] :
				       b->spec->base;

	if (set && m->source < set->nsources &&
	    set->sources[m->source].name && *set->sources[m->source].name)
		return set->sources[m->source].name;
	return m->source_name;
}

static char *source_list(const struct build *b)
{
	struct strbuf sb = STRBUF_INIT;
	const char **names = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < b->nmem; i++) {
		const char *s = input_file_name(b, b->mem[i]);
		size_t j;

		if (!s || !*s)
			continue;
		for (j = 0; j < n && strcmp(names[j], s); j++)
			;
		if (j < n)
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = s;
	}
	for (size_t i = 0; i < n && i < 4; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	/* a footer too long shrinks its type below reading size (at 800
	 * px): the first name and a count, the page's Inputs list them */
	if (n > 4 || (n > 1 && sb.len > 60)) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s and %zu more", names[0], n - 1);
	}
	free(names);
	return strbuf_detach(&sb);
}

/* What the whiskers are, as drawn: "whiskers: 95% CI (n >= 3), ...". */
static void whiskers_text(const struct chart *c, struct strbuf *sb)
{
	static const char *const what[] = {
		[BAR_BOTH] = "the two runs (n = 2)",
		[BAR_INTERVAL] = "95% confidence interval (n \xe2\x89\xa5 3)",
		[BAR_SD] = "\xc2\xb1 1 standard deviation",
		[BAR_RANGE] = "minimum to maximum",
	};
	size_t lo = SIZE_MAX, hi = 0, shown = 0;

	for (int k = BAR_BOTH; k <= BAR_RANGE; k++) {
		if (!(c->bars & (1 << k)))
			continue;
		strbuf_addf(sb, "%s%s", shown++ ? ", " : "; whiskers: ",
			    what[k]);
	}
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++) {
			size_t n = c->series[i].p[j].n;

			lo = n < lo ? n : lo;
			hi = n > hi ? n : hi;
		}
	if (hi > 1 && lo == hi)
		strbuf_addf(sb, "; %zu runs a point", hi);
	else if (hi > 1)
		strbuf_addf(sb, "; %zu to %zu runs a point", lo, hi);
}

/* Ticks and legends show long values (command lines, model names) by the
 * part that differs ("\xe2\x80\xa6#3"); the part they share is said once, in
 * the x axis's title or the subtitle, or a reader cannot tell what the
 * ticks are. */
static void shared_value_parts(struct chart *c, const struct build *b,
			       char **facts)
{
	struct strbuf sb = STRBUF_INIT;
	char *text;

	if (!b->pct && !b->hist &&
	    experiment_value_shared(b->ex, b->x, &sb)) {
		text = xstrfmt("%s (%s)", c->x.title, strbuf_str(&sb));
		free(c->x.title);
		c->x.title = text;
	}
	for (size_t i = 0; i < b->nskeys; i++) {
		strbuf_reset(&sb);
		if (!experiment_value_shared(b->ex, b->skeys[i], &sb))
			continue;
		text = xstrfmt("%s%s%s %s", *facts, **facts ? " \xc2\xb7 " : "",
			       chart_key_name(b, b->skeys[i]), strbuf_str(&sb));
		free(*facts);
		*facts = text;
	}
	strbuf_release(&sb);
}

void chart_titles(struct chart *c, const struct build *b)
{
	const struct chart_spec *spec = b->spec;
	char mt[96], *facts = constant_facts(b);
	struct strbuf sb = STRBUF_INIT;

	chart_metric_title(c->metric, mt, sizeof(mt));
	if (c->ratio)
		c->y.title = xstrfmt("%s, %s / %s", mt,
				     b->ex->sides[spec->ratio_side ?
						 spec->ratio_side : 1].name,
				     b->ex->sides[0].name);
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
		c->title = xstrfmt("%s of %s relative to %s, by %c%s", mt,
				   b->ex->sides[spec->ratio_side ?
					       spec->ratio_side : 1].name,
				   b->ex->sides[0].name, lower_word(c->x.title),
				   c->x.title + 1);
	else
		c->title = xstrfmt("%s by %c%s", mt, lower_word(c->x.title),
				   c->x.title + 1);
	shared_value_parts(c, b, &facts);
	c->subtitle = xstrdup(spec->subtitle ? spec->subtitle : facts);
	c->source_names = source_list(b);
	strbuf_addf(&sb, "Data: %s", c->source_names);
	if (c->ratio)
		strbuf_addf(&sb, "; * significant at p < %g (Welch)",
			    c->alpha);
	whiskers_text(c, &sb);
	if (c->kind == CHART_BOX)
		strbuf_adds(&sb, "; boxes: quartiles, whiskers: min to max");
	c->footer = strbuf_detach(&sb);
	free(facts);
}
