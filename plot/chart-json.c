/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A chart as data (report DIR/charts/NN-name.json), so that a chart can
 * be checked against its figures and drawn again elsewhere:
 *
 *   { "title", "subtitle", "footer", "kind": "bar"|"line"|...,
 *     "metric", "unit": the display unit of y (and "factor": base units
 *     per display unit), "ratio": true for a ratio chart,
 *     "x": { "key", "title", "scale": "category"|"linear"|"log2"|...,
 *            "categories": [...] },
 *     "series": [ { "name", "points": [
 *         { "x": the number or category index, "label": as on the axis,
 *           "y": mean (or ratio) in the display unit, "n": runs,
 *           "whisker": "none"|"both"|"ci95"|"sd"|"range",
 *           "lo", "hi": its ends (null without), "values": the runs
 *           themselves in display units (up to 100; a summary has none),
 *           "p", "significant": a ratio's test,
 *           "labels": { the labels of the condition the point stands for },
 *           "sources": [ the inputs its runs were read from ] }
 *     ] } ],
 *     "steady": [ { "series", "from", "to" } ]   charts over time only:
 *         the stretch of x where that series was steady (plot/timechart.c) }
 *
 * Written through jansson with sorted keys: stable output for tests.
 */
#include "chart-json.h"
#include "../core/json-out.h"
#include "../core/version.h"
#include "../core/xalloc.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#define MAX_VALUES 100

static const char *const kind_names[] = {
	[CHART_AUTO] = "auto", [CHART_BAR] = "bar", [CHART_LINE] = "line",
	[CHART_SCATTER] = "scatter", [CHART_BOX] = "box", [CHART_CDF] = "cdf",
	[CHART_PERCENTILES] = "percentiles",
};

static const char *const scale_names[] = {
	[AXIS_LINEAR] = "linear", [AXIS_LOG2] = "log2",
	[AXIS_LOG10] = "log10", [AXIS_CATEGORY] = "category",
	[AXIS_NINES] = "nines",
};

static const char *const bar_names[] = {
	[BAR_NONE] = "none", [BAR_BOTH] = "both", [BAR_INTERVAL] = "ci95",
	[BAR_SD] = "sd", [BAR_RANGE] = "range",
};

static json_t *labels_json(const struct labels *l)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(o, l->v[i].key,
				    json_string(l->v[i].value));
	return o;
}

/* The runs behind a point, in the chart's display unit. */
static json_t *values_json(const struct chart *c, const struct chart_point *p,
			   const struct result_set *rs)
{
	json_t *a = json_array();

	for (size_t j = 0; j < p->nmembers && !c->ratio; j++) {
		const struct measurement *m =
			&rs->m[c->point_members[p->first + j]];

		for (size_t i = 0; i < m->n &&
		     json_array_size(a) < MAX_VALUES; i++)
			json_array_append_new(a, json_number_or_null(
				m->values[i] / c->y.unit.factor));
	}
	return a;
}

/* The file a measurement was read from: its source's name (a grep'd
 * file, not the prefix its lines carried), else its source_name. */
static const char *input_name(const struct result_set *rs,
			      const struct measurement *m)
{
	if (m->source < rs->nsources && rs->sources[m->source].name &&
	    *rs->sources[m->source].name)
		return rs->sources[m->source].name;
	return m->source_name ? m->source_name : "";
}

/* The inputs a point's runs were read from, each once: which machine or
 * drive a bar stands for when its labels do not say (a side is an input),
 * both inputs of a ratio. */
static json_t *sources_json(const struct chart *c, const struct chart_point *p,
			    const struct result_set *rs)
{
	json_t *a = json_array();

	for (size_t j = 0; j < p->nmembers; j++) {
		size_t k = c->point_members[p->first + j], i;
		const char *name;

		if (k >= rs->n)
			continue;
		name = input_name(rs, &rs->m[k]);
		for (i = 0; i < json_array_size(a); i++)
			if (!strcmp(json_string_value(json_array_get(a, i)),
				    name))
				break;
		if (i == json_array_size(a))
			json_array_append_new(a, json_string(name));
	}
	return a;
}

static json_t *point_json(const struct chart *c, const struct chart_point *p,
			  const struct result_set *rs)
{
	json_t *o = json_object();
	char buf[96];

	json_object_set_new(o, "x", json_number_or_null(p->x));
	json_object_set_new(o, "label", json_string(chart_format_x(c, p->x,
					buf, sizeof(buf))));
	json_object_set_new(o, "y", json_number_or_null(p->y));
	json_object_set_new(o, "n", json_integer((json_int_t)p->n));
	json_object_set_new(o, "whisker", json_string(bar_names[p->bar]));
	json_object_set_new(o, "lo", json_number_or_null(p->lo));
	json_object_set_new(o, "hi", json_number_or_null(p->hi));
	/* (a curve from pooled histogram bins has no runs to list) */
	if (c->kind != CHART_CDF && !(c->kind == CHART_PERCENTILES &&
				      c->errorbars == CHART_ERR_NONE))
		json_object_set_new(o, "values", values_json(c, p, rs));
	json_object_set_new(o, "sources", sources_json(c, p, rs));
	if (c->ratio) {
		json_object_set_new(o, "p", json_number_or_null(p->p));
		json_object_set_new(o, "significant", p->sig < 0 ?
				    json_null() : json_boolean(p->sig));
	}
	if (p->member != SIZE_MAX && p->member < rs->n)
		json_object_set_new(o, "labels",
				    labels_json(&rs->m[p->member].labels));
	return o;
}

void chart_write_json(const struct chart *c, const struct result_set *rs,
		      struct strbuf *out)
{
	json_t *doc = json_object(), *x = json_object(), *series = json_array();
	json_t *cats = json_array();

	json_object_set_new(doc, "title", json_string(c->title));
	json_object_set_new(doc, "subtitle", json_string(c->subtitle ?
							  c->subtitle : ""));
	json_object_set_new(doc, "footer", json_string(c->footer ?
							c->footer : ""));
	json_object_set_new(doc, "kind", json_string(kind_names[c->kind]));
	json_object_set_new(doc, "metric", json_string(c->metric));
	json_object_set_new(doc, "unit", json_string(c->y.unit.name));
	json_object_set_new(doc, "factor",
			    json_number_or_null(c->y.unit.factor));
	json_object_set_new(doc, "ratio", json_boolean(c->ratio));
	json_object_set_new(doc, "generator",
			    json_string("storan " STORAN_VERSION));
	json_object_set_new(x, "key", json_string(c->x.key ? c->x.key : ""));
	json_object_set_new(x, "title", json_string(c->x.title ?
						     c->x.title : ""));
	json_object_set_new(x, "scale", json_string(scale_names[c->x.scale]));
	for (size_t i = 0; i < c->x.ncat; i++)
		json_array_append_new(cats, json_string(c->x.cat[i]));
	json_object_set_new(x, "categories", cats);
	json_object_set_new(doc, "x", x);
	for (size_t s = 0; s < c->nseries; s++) {
		json_t *o = json_object(), *pts = json_array();

		json_object_set_new(o, "name", json_string(c->series[s].name));
		for (size_t i = 0; i < c->series[s].n; i++)
			json_array_append_new(pts, point_json(c,
					      &c->series[s].p[i], rs));
		json_object_set_new(o, "points", pts);
		json_array_append_new(series, o);
	}
	json_object_set_new(doc, "series", series);
	if (c->nbands) {	/* only charts over time have them */
		json_t *bands = json_array();

		for (size_t i = 0; i < c->nbands; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "series", json_string(
				c->series[c->bands[i].series].name));
			json_object_set_new(o, "from",
					    json_number_or_null(c->bands[i].from));
			json_object_set_new(o, "to",
					    json_number_or_null(c->bands[i].to));
			if (isfinite(c->bands[i].lo)) {
				json_object_set_new(o, "lo", json_number_or_null(
							    c->bands[i].lo));
				json_object_set_new(o, "hi", json_number_or_null(
							    c->bands[i].hi));
			}
			json_array_append_new(bands, o);
		}
		json_object_set_new(doc, "steady", bands);
	}
	json_dump_to(doc, JSON_INDENT(1) | JSON_SORT_KEYS |
		     JSON_REAL_PRECISION(10), 1, out);
}
