#define _GNU_SOURCE
/*
 * Result set <-> JSON.  Writing builds a jansson tree in a fixed key order
 * (JSON_PRESERVE_ORDER) so that documents diff well; reading validates
 * every field and names the first one that is wrong.
 */
#include "rs-json.h"
#include "json-out.h"
#include "version.h"
#include "xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *source_to_json(const struct source *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "path", json_string(s->path));
	json_object_set_new(o, "name", json_string(s->name));
	json_object_set_new(o, "format", str_or_null(s->format));
	json_object_set_new(o, "tool_version", str_or_null(s->tool_version));
	json_object_set_new(o, "sha256", str_or_null(s->sha256[0] ?
						      s->sha256 : NULL));
	return o;
}

static json_t *summary_to_json(const struct summary *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "n", json_real(s->n));
	json_object_set_new(o, "mean", json_number_or_null(s->mean));
	json_object_set_new(o, "stddev", json_number_or_null(s->stddev));
	json_object_set_new(o, "stddev_population",
			    json_boolean(s->stddev_population));
	json_object_set_new(o, "min", json_number_or_null(s->min));
	json_object_set_new(o, "max", json_number_or_null(s->max));
	return o;
}

static json_t *histogram_to_json(const struct histogram *h)
{
	json_t *o = json_object(), *v = json_array(), *c = json_array();

	for (size_t i = 0; i < h->n; i++) {
		json_array_append_new(v, json_real(h->value[i]));
		json_array_append_new(c, json_integer((json_int_t)h->count[i]));
	}
	json_object_set_new(o, "values", v);
	json_object_set_new(o, "counts", c);
	return o;
}

static json_t *measurement_to_json(const struct measurement *m)
{
	json_t *o = json_object(), *vals = json_array(), *labels;

	json_object_set_new(o, "tool", json_string(m->tool));
	json_object_set_new(o, "op", json_string(m->op));
	json_object_set_new(o, "metric", json_string(m->metric));
	json_object_set_new(o, "unit", json_string(m->unit));
	for (size_t i = 0; i < m->n; i++)
		json_array_append_new(vals, json_number_or_null(m->values[i]));
	json_object_set_new(o, "values", vals);
	if (m->summary.present)
		json_object_set_new(o, "summary", summary_to_json(&m->summary));
	if (m->hist.n)
		json_object_set_new(o, "histogram",
				    histogram_to_json(&m->hist));
	labels = json_object();
	for (size_t i = 0; i < m->labels.n; i++)
		json_object_set_new(labels, m->labels.v[i].key,
				    json_string(m->labels.v[i].value));
	json_object_set_new(o, "labels", labels);
	json_object_set_new(o, "source", json_integer((json_int_t)m->source));
	json_object_set_new(o, "source_name", str_or_null(m->source_name));
	json_object_set_new(o, "line", json_integer(m->line));
	return o;
}

static void dump_line(json_t *o, struct strbuf *out)
{
	json_dump_to(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17), 0, out);
}

void rs_json_begin(struct strbuf *out)
{
	strbuf_adds(out, "{\n \"schema\": \"" STORAN_SCHEMA "\",\n"
		    " \"generator\": \"storan " STORAN_VERSION "\",\n"
		    " \"measurements\": [");
}

void rs_json_add_measurements(const struct result_set *rs, size_t offset,
			      size_t *count, struct strbuf *out)
{
	for (size_t i = 0; i < rs->n; i++) {
		json_t *o = measurement_to_json(&rs->m[i]);

		json_object_set_new(o, "source",
				    json_integer((json_int_t)(rs->m[i].source +
							      offset)));
		strbuf_adds(out, (*count)++ ? ",\n  " : "\n  ");
		dump_line(o, out);
	}
}

void rs_json_end(const struct source *sources, size_t nsources,
		 struct strbuf *out)
{
	strbuf_adds(out, "\n ],\n \"sources\": [");
	for (size_t i = 0; i < nsources; i++) {
		strbuf_adds(out, i ? ",\n  " : "\n  ");
		dump_line(source_to_json(&sources[i]), out);
	}
	strbuf_adds(out, "\n ]\n}\n");
}

void rs_json_write(const struct result_set *rs, struct strbuf *out)
{
	size_t count = 0;

	rs_json_begin(out);
	rs_json_add_measurements(rs, 0, &count, out);
	rs_json_end(rs->sources, rs->nsources, out);
}

void rs_json_init_threads(void)
{
	json_object_seed(0);
}

int rs_json_sniff(const char *text, size_t len)
{
	size_t n = len < 4096 ? len : 4096;

	return memmem(text, n, "\"storan/", 8) != NULL &&
	       memmem(text, n, "\"schema\"", 8) != NULL;
}

/* Reading: each helper fills err and returns -1 on the first problem. */
struct reader {
	const char *name;
	struct strbuf *err;
	size_t index;		/* measurement being read */
};

static int fail(struct reader *r, const char *what, const char *field)
{
	strbuf_addf(r->err, "%s: measurements[%zu]: %s '%s'", r->name,
		    r->index, what, field);
	return -1;
}

static int get_string(struct reader *r, json_t *o, const char *key,
		      const char **out, int required)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		*out = NULL;
		return required ? fail(r, "missing", key) : 0;
	}
	if (!json_is_string(v))
		return fail(r, "expected a string in", key);
	*out = json_string_value(v);
	return 0;
}

static double get_number(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int read_values(struct reader *r, json_t *o, struct measurement *m)
{
	json_t *vals = json_object_get(o, "values"), *v;
	size_t i;

	if (!json_is_array(vals))
		return fail(r, "missing array", "values");
	json_array_foreach(vals, i, v) {
		if (!json_is_number(v))
			return fail(r, "non-number in", "values");
		measurement_add_value(m, json_number_value(v));
	}
	return 0;
}

static int read_summary(struct reader *r, json_t *o, struct measurement *m)
{
	json_t *s = json_object_get(o, "summary");

	if (!s)
		return 0;
	if (!json_is_object(s) || !json_is_number(json_object_get(s, "n")) ||
	    !json_is_number(json_object_get(s, "mean")))
		return fail(r, "needs numbers n and mean:", "summary");
	m->summary.present = 1;
	m->summary.n = get_number(json_object_get(s, "n"));
	m->summary.mean = get_number(json_object_get(s, "mean"));
	m->summary.stddev = get_number(json_object_get(s, "stddev"));
	m->summary.min = get_number(json_object_get(s, "min"));
	m->summary.max = get_number(json_object_get(s, "max"));
	m->summary.stddev_population =
		json_is_true(json_object_get(s, "stddev_population"));
	return 0;
}

static int read_histogram(struct reader *r, json_t *o, struct measurement *m)
{
	json_t *h = json_object_get(o, "histogram"), *v, *c;
	size_t n;

	if (!h)
		return 0;
	v = json_object_get(h, "values");
	c = json_object_get(h, "counts");
	if (!json_is_array(v) || !json_is_array(c) ||
	    json_array_size(v) != json_array_size(c))
		return fail(r, "needs values and counts of one length:",
			    "histogram");
	n = json_array_size(v);
	m->hist.n = n;
	m->hist.value = xcalloc(n, sizeof(double));
	m->hist.count = xcalloc(n, sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		json_t *ci = json_array_get(c, i);

		if (!json_is_number(json_array_get(v, i)) ||
		    !json_is_integer(ci) || json_integer_value(ci) < 0)
			return fail(r, "bad bucket in", "histogram");
		m->hist.value[i] = get_number(json_array_get(v, i));
		m->hist.count[i] = (uint64_t)json_integer_value(ci);
	}
	return 0;
}

static int read_labels(struct reader *r, json_t *o, struct measurement *m)
{
	json_t *labels = json_object_get(o, "labels"), *v;
	const char *key;

	if (!labels)
		return 0;
	if (!json_is_object(labels))
		return fail(r, "expected an object in", "labels");
	json_object_foreach(labels, key, v) {
		if (!json_is_string(v))
			return fail(r, "non-string label", key);
		labels_set(&m->labels, key, json_string_value(v));
	}
	return 0;
}

static int read_measurement(struct reader *r, json_t *o,
			    struct result_set *rs, size_t base)
{
	const char *tool, *op, *metric, *unit, *sname;
	json_t *src = json_object_get(o, "source");
	struct measurement *m;
	size_t source = 0;

	if (!json_is_object(o))
		return fail(r, "expected an object at", "measurements");
	if (get_string(r, o, "tool", &tool, 1) ||
	    get_string(r, o, "op", &op, 1) ||
	    get_string(r, o, "metric", &metric, 1) ||
	    get_string(r, o, "unit", &unit, 1) ||
	    get_string(r, o, "source_name", &sname, 0))
		return -1;
	if (src) {
		if (!json_is_integer(src) || json_integer_value(src) < 0 ||
		    (size_t)json_integer_value(src) >= rs->nsources - base)
			return fail(r, "no such source in", "source");
		source = (size_t)json_integer_value(src);
	}
	m = result_set_add(rs, tool, op, metric, unit);
	m->source = base + source;
	m->source_name = xstrdup(sname ? sname :
				 rs->nsources > base ?
				 rs->sources[base + source].name : "");
	m->line = (unsigned)json_integer_value(json_object_get(o, "line"));
	if (read_values(r, o, m) || read_summary(r, o, m) ||
	    read_histogram(r, o, m) || read_labels(r, o, m))
		return -1;
	if (!m->n && !m->summary.present)
		return fail(r, "no values and no summary in", "values");
	return 0;
}

static int read_sources(struct reader *r, json_t *doc, struct result_set *rs)
{
	json_t *sources = json_object_get(doc, "sources"), *s;
	size_t i;

	if (!json_is_array(sources)) {
		strbuf_addf(r->err, "%s: missing array 'sources'", r->name);
		return -1;
	}
	json_array_foreach(sources, i, s) {
		json_t *p = json_object_get(s, "path");
		const char *sha, *fmt, *ver;
		size_t k;

		if (!json_is_string(p)) {
			strbuf_addf(r->err, "%s: sources[%zu]: missing 'path'",
				    r->name, i);
			return -1;
		}
		sha = json_string_value(json_object_get(s, "sha256"));
		fmt = json_string_value(json_object_get(s, "format"));
		ver = json_string_value(json_object_get(s, "tool_version"));
		k = result_set_add_source(rs, json_string_value(p), sha);
		if (fmt)
			rs->sources[k].format = xstrdup(fmt);
		if (ver)
			rs->sources[k].tool_version = xstrdup(ver);
	}
	return 0;
}

int rs_json_read(const char *name, const char *text, size_t len,
		 struct result_set *rs, struct strbuf *err)
{
	struct reader r = { name, err, 0 };
	json_error_t jerr;
	json_t *doc, *schema, *ms, *o;
	size_t base = rs->nsources, i;
	int rc = -1;

	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		strbuf_addf(err, "%s:%d: invalid JSON: %s", name, jerr.line,
			    jerr.text);
		return -1;
	}
	schema = json_object_get(doc, "schema");
	if (!json_is_string(schema) ||
	    strcmp(json_string_value(schema), STORAN_SCHEMA)) {
		strbuf_addf(err, "%s: not a storan result set (schema is not "
			    "'%s')", name, STORAN_SCHEMA);
		goto out;
	}
	if (read_sources(&r, doc, rs))
		goto out;
	ms = json_object_get(doc, "measurements");
	if (!json_is_array(ms)) {
		strbuf_addf(err, "%s: missing array 'measurements'", name);
		goto out;
	}
	json_array_foreach(ms, i, o) {
		r.index = i;
		if (read_measurement(&r, o, rs, base))
			goto out;
	}
	rc = 0;
out:
	json_decref(doc);
	return rc;
}
