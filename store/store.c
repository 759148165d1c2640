/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The store's logic, the same for every backend: opening and migrating,
 * adding a run in one transaction, listing, removing, exporting, and
 * loading what history and detect read; see store.h.
 *
 * Every SQL statement here is one both SQLite and PostgreSQL run as it
 * is; only the schema's DDL (the migrations) is the backend's.  Rows go in
 * and out as text: a number is written with 17 significant digits, so
 * that it reads back to the same double.
 *
 * Invariants of the schema (docs/store-schema.md):
 *   - runs.name is unique; runs.inputs_sha256 is unique but for runs
 *     given a name of their own (check_duplicate): a run is stored once;
 *   - a measurement belongs to exactly one run and one measurement key
 *     (tool, op, metric, unit, labels), keys being shared between runs;
 *   - measurements.ord is the measurement's index in its result set, so
 *     that an export gives the result set back in its order.
 */
#include "store.h"
#include "../core/input.h"
#include "../core/sha256.h"
#include "../core/json-out.h"
#include "../core/keymap.h"
#include "../core/numfmt.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"

#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_ROWS 100		/* rows per INSERT (11 parameters each) */

int store_is_postgres(const char *target)
{
	return !strncmp(target, "postgresql://", 13) ||
	       !strncmp(target, "postgres://", 11);
}

/* ---- small helpers ----------------------------------------------------- */

static void add_real(struct strbuf *sb, double v)
{
	char buf[NUMFMT_MAX];

	if (!isfinite(v)) {
		strbuf_adds(sb, "null");
		return;
	}
	strbuf_add(sb, buf, format_g(buf, v, 17));
}

/* A number as a parameter: NULL for NaN (the caller frees). */
static char *real_param(double v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!isfinite(v))
		return NULL;
	add_real(&sb, v);
	return strbuf_detach(&sb);
}

static void now_utc(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int fail(struct store *s, struct strbuf *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct store *s, struct strbuf *err, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(err);
	strbuf_addf(err, "%s: ", s->target);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return STORE_ERROR;
}

static int begin(struct store *s, int write, struct strbuf *err)
{
	int rc = write ? s->ops->begin_write(s, err) :
			 s->ops->begin_read(s, err);

	if (!rc)
		s->in_transaction = 1;
	return rc;
}

static int commit(struct store *s, struct strbuf *err)
{
	s->in_transaction = 0;
	return s->ops->exec(s, "COMMIT", err);
}

static void rollback(struct store *s)
{
	struct strbuf ignored = STRBUF_INIT;

	if (s->in_transaction)
		s->ops->exec(s, "ROLLBACK", &ignored);
	s->in_transaction = 0;
	strbuf_release(&ignored);
}

static int query(struct store *s, const char *sql, int n,
		 const char *const *params, store_row_fn row, void *arg,
		 struct strbuf *err)
{
	return s->ops->query(s, sql, n, params, row, arg, err);
}

/* Row callback: the first column of the first row, copied. */
static int first_text(void *arg, int ncols, const char *const *cols)
{
	char **out = arg;

	if (ncols > 0 && cols[0] && !*out)
		*out = xstrdup(cols[0]);
	return 0;
}

static int parse_ll(const char *s, long long *out)
{
	uint64_t u;
	int neg = *s == '-';

	s += neg;
	if (scan_u64(&s, &u) || *s || u > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(long long)u : (long long)u;
	return 0;
}

static double parse_real(const char *s)
{
	double v;

	if (!s || scan_double(&s, SCAN_ALLOW_SIGN, &v) || *s)
		return NAN;
	return v;
}

/* Parameter number p as the backend writes it: "$3", or SQLite's "?". */
static void add_param(struct store *s, struct strbuf *sb, int p)
{
	if (s->ops->param[0] == '?')
		strbuf_addch(sb, '?');
	else
		strbuf_addf(sb, "%s%d", s->ops->param, p);
}

/*
 * " ($1, $2, ...), ($k, ...)": the rows of a multi-row VALUES list.  In
 * SQLite plain '?'s, numbered in order: each $N or ?N is looked up among
 * those before it (a 1,100-parameter INSERT took 4 ms to prepare).
 */
static void add_placeholders(struct store *s, struct strbuf *sb, int rows,
			     int cols)
{
	int p = 1;

	for (int r = 0; r < rows; r++) {
		strbuf_adds(sb, r ? ", (" : " (");
		for (int c = 0; c < cols; c++) {
			if (c)
				strbuf_adds(sb, ", ");
			add_param(s, sb, p++);
		}
		strbuf_addch(sb, ')');
	}
}

/* ---- labels as JSON text ----------------------------------------------- */

static void labels_json(const struct labels *l, struct strbuf *out)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(o, l->v[i].key,
				    json_string(l->v[i].value));
	json_dump_to(o, JSON_COMPACT | JSON_PRESERVE_ORDER, 0, out);
}

static int labels_from_json(const char *text, struct labels *l)
{
	json_t *o = json_loads(text, 0, NULL), *v;
	const char *key;

	if (!o || !json_is_object(o)) {
		json_decref(o);
		return -1;
	}
	json_object_foreach(o, key, v)
		if (json_is_string(v))
			labels_set(l, key, json_string_value(v));
	json_decref(o);
	return 0;
}

/* ---- opening and migrating --------------------------------------------- */

static int read_version(void *arg, int ncols, const char *const *cols)
{
	long long *v = arg;

	if (ncols > 0 && cols[0] && parse_ll(cols[0], v))
		*v = -1;
	return 0;
}

/*
 * The store's schema version into *version (0: an empty database);
 * inside a transaction.  Refuses another program's database.
 */
static int schema_version(struct store *s, long long *version,
			  struct strbuf *err)
{
	int state;

	*version = 0;
	if (s->ops->has_tables(s, &state, err))
		return STORE_ERROR;
	if (state == 1)
		return fail(s, err, "not a storan store (it holds other "
			    "tables)");
	if (state == 2 && query(s, "SELECT version FROM storan_schema", 0,
				NULL, read_version, version, err))
		return STORE_ERROR;
	if (*version < 0 || *version > s->ops->nmigrations)
		return fail(s, err, "store schema version %lld is newer than "
			    "this storan knows (%d): upgrade storan",
			    *version, s->ops->nmigrations);
	return 0;
}

/*
 * Brings the schema up to date.  Looked at in a reading transaction
 * first: a store already up to date (nearly always) is opened without
 * the write lock, so readers never wait for a writer (and a read-only
 * file can be read); else again under the write lock, since another
 * process may have migrated it in between.
 */
static int migrate(struct store *s, struct strbuf *err)
{
	long long version;
	char vbuf[24];
	const char *param[1] = { vbuf };

	if (s->ops->nmigrations != STORE_SCHEMA_VERSION)
		BUG("%s has %d migrations, the schema is version %d",
		    s->ops->name, s->ops->nmigrations, STORE_SCHEMA_VERSION);
	if (begin(s, 0, err))
		return STORE_ERROR;
	if (schema_version(s, &version, err))
		goto fail;
	rollback(s);
	if (version == s->ops->nmigrations)
		return 0;
	if (begin(s, 1, err))
		return STORE_ERROR;
	if (schema_version(s, &version, err))
		goto fail;
	for (long long v = version; v < s->ops->nmigrations; v++)
		if (s->ops->exec(s, s->ops->migrations[v], err))
			goto fail;
	if (version == s->ops->nmigrations)
		return commit(s, err);
	snprintf(vbuf, sizeof(vbuf), "%d", s->ops->nmigrations);
	if (query(s, version ? "UPDATE storan_schema SET version = $1" :
		  "INSERT INTO storan_schema (version) VALUES ($1)", 1, param,
		  NULL, NULL, err))
		goto fail;
	return commit(s, err);
fail:
	rollback(s);
	return STORE_ERROR;
}

int store_open(struct store *s, const char *target, enum store_mode mode,
	       struct strbuf *err)
{
	memset(s, 0, sizeof(*s));
	s->target = xstrdup(target);
	s->ops = store_is_postgres(target) ? &store_postgres : &store_sqlite;
	if (s->ops->open(s, target, mode, err)) {
		free(s->target);
		s->target = NULL;
		return STORE_ERROR;
	}
	if (migrate(s, err)) {
		store_close(s);
		return STORE_ERROR;
	}
	return STORE_OK;
}

void store_close(struct store *s)
{
	if (s->ops && s->conn) {
		rollback(s);
		s->ops->close(s);
	}
	free(s->target);
	memset(s, 0, sizeof(*s));
}

/* ---- runs -------------------------------------------------------------- */

void store_run_release(struct store_run *r)
{
	free(r->name);
	free(r->time);
	free(r->added);
	free(r->inputs_sha256);
	labels_release(&r->labels);
	memset(r, 0, sizeof(*r));
}

void store_runs_free(struct store_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void store_inputs_hash(const struct result_set *rs, char out[65])
{
	struct strbuf sb = STRBUF_INIT;
	char **hashes = xcalloc(rs->nsources + 1, sizeof(*hashes));
	size_t n = 0;
	int unhashed = !rs->nsources;

	for (size_t i = 0; i < rs->nsources; i++) {
		if (rs->sources[i].sha256[0])
			hashes[n++] = rs->sources[i].sha256;
		else
			unhashed = 1;
	}
	qsort(hashes, n, sizeof(*hashes), cmp_str);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s\n", hashes[i]);
	if (unhashed) {	/* what the run measured stands for its inputs */
		strbuf_adds(&sb, "measurements\n");
		for (size_t i = 0; i < rs->n; i++) {
			const struct measurement *m = &rs->m[i];

			strbuf_add_keypart(&sb, m->tool);
			strbuf_add_keypart(&sb, m->op);
			strbuf_add_keypart(&sb, m->metric);
			labels_add_keyparts(&m->labels, &sb);
			for (size_t j = 0; j < m->n; j++)
				add_real(&sb, m->values[j]);
			strbuf_addch(&sb, '\n');
		}
	}
	sha256_hex(sb.buf ? sb.buf : "", sb.len, out);
	free(hashes);
	strbuf_release(&sb);
}

/* Runs a statement of nrows x ncols parameters, freeing them. */
static int run_batch(struct store *s, const char *head, int nrows, int ncols,
		     char **params, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;

	strbuf_adds(&sql, head);
	add_placeholders(s, &sql, nrows, ncols);
	rc = query(s, sql.buf, nrows * ncols, (const char *const *)params,
		   NULL, NULL, err);
	for (int i = 0; i < nrows * ncols; i++)
		free(params[i]);
	strbuf_release(&sql);
	return rc;
}

static int add_run_labels(struct store *s, const char *id,
			  const struct labels *l, struct strbuf *err)
{
	for (size_t i = 0; i < l->n; i += BATCH_ROWS) {
		size_t rows = l->n - i < BATCH_ROWS ? l->n - i : BATCH_ROWS;
		char **p = xcalloc(rows * 3, sizeof(*p));

		for (size_t r = 0; r < rows; r++) {
			p[3 * r] = xstrdup(id);
			p[3 * r + 1] = xstrdup(l->v[i + r].key);
			p[3 * r + 2] = xstrdup(l->v[i + r].value);
		}
		if (run_batch(s, "INSERT INTO run_labels (run_id, key, value) "
			      "VALUES", (int)rows, 3, p, err)) {
			free(p);
			return STORE_ERROR;
		}
		free(p);
	}
	return 0;
}

static char *opt_dup(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

static int add_sources(struct store *s, const char *id,
		       const struct result_set *rs, struct strbuf *err)
{
	for (size_t i = 0; i < rs->nsources; i += BATCH_ROWS) {
		size_t rows = rs->nsources - i < BATCH_ROWS ?
			      rs->nsources - i : BATCH_ROWS;
		char **p = xcalloc(rows * 7, sizeof(*p));

		for (size_t r = 0; r < rows; r++) {
			const struct source *src = &rs->sources[i + r];
			char **q = p + 7 * r;

			q[0] = xstrdup(id);
			q[1] = xstrfmt("%zu", i + r);
			q[2] = xstrdup(src->path);
			q[3] = xstrdup(src->name);
			q[4] = opt_dup(src->format);
			q[5] = opt_dup(src->tool_version);
			q[6] = opt_dup(src->sha256);
		}
		if (run_batch(s, "INSERT INTO sources (run_id, idx, path, "
			      "name, format, tool_version, sha256) VALUES",
			      (int)rows, 7, p, err)) {
			free(p);
			return STORE_ERROR;
		}
		free(p);
	}
	return 0;
}

/* The distinct measurement keys of a run, and their ids in the store. */
struct run_keys {
	struct keymap map;	/* key_sha256 -> index */
	char **sha;		/* per key */
	char **labels;		/* per key: labels as JSON */
	size_t *first;		/* per key: a measurement that has it */
	char **id;		/* per key: measurement_keys.id */
	size_t *of;		/* per measurement: its key's index */
	size_t n;
};

static void run_keys_release(struct run_keys *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->sha[i]);
		free(k->labels[i]);
		free(k->id[i]);
	}
	free(k->sha);
	free(k->labels);
	free(k->first);
	free(k->id);
	free(k->of);
	keymap_release(&k->map);
}

static void collect_keys(const struct result_set *rs, struct run_keys *k)
{
	struct strbuf sb = STRBUF_INIT, lj = STRBUF_INIT;

	memset(k, 0, sizeof(*k));
	keymap_init(&k->map);
	k->sha = xcalloc(rs->n + 1, sizeof(*k->sha));
	k->labels = xcalloc(rs->n + 1, sizeof(*k->labels));
	k->first = xcalloc(rs->n + 1, sizeof(*k->first));
	k->id = xcalloc(rs->n + 1, sizeof(*k->id));
	k->of = xcalloc(rs->n + 1, sizeof(*k->of));
	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];
		char sha[65];
		size_t *slot;
		int created;

		strbuf_reset(&lj);
		labels_json(&m->labels, &lj);
		strbuf_reset(&sb);
		strbuf_add_keypart(&sb, m->tool);
		strbuf_add_keypart(&sb, m->op);
		strbuf_add_keypart(&sb, m->metric);
		strbuf_add_keypart(&sb, m->unit);
		strbuf_add_keypart(&sb, lj.buf);
		sha256_hex(sb.buf, sb.len, sha);
		slot = keymap_put(&k->map, sha, k->n, &created);
		if (created) {
			k->sha[k->n] = xstrdup(sha);
			k->labels[k->n] = strbuf_detach(&lj);
			k->first[k->n] = i;
			k->n++;
		}
		k->of[i] = *slot;
	}
	strbuf_release(&sb);
	strbuf_release(&lj);
}

static int key_id_row(void *arg, int ncols, const char *const *cols)
{
	struct run_keys *k = arg;
	const size_t *i;

	if (ncols < 2 || !cols[0] || !cols[1])
		return 0;
	i = keymap_get(&k->map, cols[1]);
	if (i && !k->id[*i])
		k->id[*i] = xstrdup(cols[0]);
	return 0;
}

/* Inserts the keys the store lacks, then reads every key's id. */
static int store_keys(struct store *s, const struct result_set *rs,
		      struct run_keys *k, struct strbuf *err)
{
	for (size_t i = 0; i < k->n; i += BATCH_ROWS) {
		size_t rows = k->n - i < BATCH_ROWS ? k->n - i : BATCH_ROWS;
		char **p = xcalloc(rows * 6, sizeof(*p));
		struct strbuf sql = STRBUF_INIT;
		int rc;

		for (size_t r = 0; r < rows; r++) {
			const struct measurement *m = &rs->m[k->first[i + r]];
			char **q = p + 6 * r;

			q[0] = xstrdup(k->sha[i + r]);
			q[1] = xstrdup(m->tool);
			q[2] = xstrdup(m->op);
			q[3] = xstrdup(m->metric);
			q[4] = xstrdup(m->unit);
			q[5] = xstrdup(k->labels[i + r]);
		}
		strbuf_adds(&sql, "INSERT INTO measurement_keys (key_sha256, "
			    "tool, op, metric, unit, labels) VALUES");
		add_placeholders(s, &sql, (int)rows, 6);
		strbuf_adds(&sql, " ON CONFLICT DO NOTHING");
		rc = query(s, sql.buf, (int)rows * 6, (const char *const *)p,
			   NULL, NULL, err);
		strbuf_reset(&sql);
		strbuf_adds(&sql, "SELECT id, key_sha256 FROM measurement_keys "
			    "WHERE key_sha256 IN (");
		for (size_t r = 0; r < rows; r++) {
			if (r)
				strbuf_adds(&sql, ", ");
			add_param(s, &sql, (int)r + 1);
		}
		strbuf_addch(&sql, ')');
		if (!rc)
			rc = query(s, sql.buf, (int)rows,
				   (const char *const *)(k->sha + i),
				   key_id_row, k, err);
		for (size_t r = 0; r < rows * 6; r++)
			free(p[r]);
		free(p);
		strbuf_release(&sql);
		if (rc)
			return STORE_ERROR;
	}
	for (size_t i = 0; i < k->n; i++)
		if (!k->id[i])
			return fail(s, err, "a measurement key was stored but "
				    "cannot be read back");
	return 0;
}

/* What the columns do not hold: a printed summary, a histogram. */
static char *measurement_extra(const struct measurement *m)
{
	json_t *o;
	struct strbuf sb = STRBUF_INIT;

	if (!measurement_summary(m)->present && !m->hist.n && !m->hist_dropped)
		return NULL;
	o = json_object();
	if (measurement_summary(m)->present) {
		const struct summary *sum = measurement_summary(m);
		json_t *su = json_object();

		json_object_set_new(su, "n", json_number_or_null(sum->n));
		json_object_set_new(su, "mean", json_number_or_null(sum->mean));
		json_object_set_new(su, "stddev",
				    json_number_or_null(sum->stddev));
		json_object_set_new(su, "min", json_number_or_null(sum->min));
		json_object_set_new(su, "max", json_number_or_null(sum->max));
		json_object_set_new(su, "stddev_population",
				    json_boolean(sum->stddev_population));
		json_object_set_new(o, "summary", su);
	}
	if (m->hist.n) {
		json_t *h = json_object(), *v = json_array(), *c = json_array();

		for (size_t i = 0; i < m->hist.n; i++) {
			json_array_append_new(v,
				json_number_or_null(m->hist.value[i]));
			json_array_append_new(c,
				json_integer((json_int_t)m->hist.count[i]));
		}
		json_object_set_new(h, "values", v);
		json_object_set_new(h, "counts", c);
		json_object_set_new(o, "histogram", h);
	}
	if (m->hist_dropped)
		json_object_set_new(o, "hist_dropped", json_true());
	json_dump_to(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
		     JSON_REAL_PRECISION(17), 0, &sb);
	return strbuf_detach(&sb);
}

static char *values_text(const struct measurement *m)
{
	struct strbuf sb = STRBUF_INIT;

	if (!m->n)
		return NULL;
	strbuf_addch(&sb, '[');
	for (size_t i = 0; i < m->n; i++) {
		if (i)
			strbuf_addch(&sb, ',');
		add_real(&sb, m->values[i]);
	}
	strbuf_addch(&sb, ']');
	return strbuf_detach(&sb);
}

/*
 * A test hook: STORAN_TEST_KILL_AFTER=N kills the process (SIGKILL, no
 * clean-up of any kind) once N measurements of a run are written, inside
 * the run's transaction -- what a crash or an OOM kill would do.
 */
static void maybe_die(size_t written)
{
	static long long after = -2;

	if (after == -2) {
		const char *e = getenv("STORAN_TEST_KILL_AFTER");

		after = -1;
		if (e && parse_ll(e, &after))
			after = -1;
	}
	if (after >= 0 && (long long)written >= after)
		raise(SIGKILL);
}

#define MCOLS 11

static void measurement_params(const struct result_set *rs, size_t i,
			       const char *run_id, const struct run_keys *k,
			       char **q)
{
	const struct measurement *m = &rs->m[i];
	const struct source *src = m->source < rs->nsources ?
				   &rs->sources[m->source] : NULL;
	struct measurement_stats st;

	measurement_basic_stats(m, &st);
	q[0] = xstrdup(run_id);
	q[1] = xstrfmt("%zu", i);
	q[2] = xstrdup(k->id[k->of[i]]);
	q[3] = xstrfmt("%zu", (size_t)m->source);
	q[4] = src && m->source_name && !strcmp(src->name, m->source_name) ?
	       NULL : opt_dup(m->source_name);
	q[5] = xstrfmt("%u", m->line);
	q[6] = xstrfmt("%zu", st.n);
	q[7] = real_param(st.mean);
	q[8] = real_param(st.stddev);
	q[9] = values_text(m);
	q[10] = measurement_extra(m);
}

static int add_measurements(struct store *s, const char *id,
			    const struct result_set *rs,
			    const struct run_keys *k, struct strbuf *err)
{
	for (size_t i = 0; i < rs->n; i += BATCH_ROWS) {
		size_t rows = rs->n - i < BATCH_ROWS ? rs->n - i : BATCH_ROWS;
		char **p = xcalloc(rows * MCOLS, sizeof(*p));
		int rc;

		for (size_t r = 0; r < rows; r++)
			measurement_params(rs, i + r, id, k, p + MCOLS * r);
		rc = run_batch(s, "INSERT INTO measurements (run_id, ord, "
			       "key_id, source, source_name, line, n, mean, "
			       "stddev, vals, extra) VALUES", (int)rows, MCOLS,
			       p, err);
		free(p);
		if (rc)
			return STORE_ERROR;
		maybe_die(i + rows);
	}
	return 0;
}

/*
 * The refusals.  A run named as a stored one: the same run again when its
 * inputs are the same (an accidental second add), else a conflict.  Other
 * inputs equal to a stored run's: refused unless the run was given a name
 * of its own (explicit, not yet stored) -- a short output (hdparm's two
 * lines) can repeat exactly on another night.
 */
#define REPEAT_HINT " (a new run that repeats them: give it a --run of " \
	"its own)"

static int check_duplicate(struct store *s, const char *name, int explicit,
			   const char *sha, struct strbuf *err)
{
	char *other = NULL, *other_sha = NULL;
	const char *p1[1] = { sha }, *p2[1] = { name };

	if (query(s, "SELECT inputs_sha256 FROM runs WHERE name = $1", 1, p2,
		  first_text, &other_sha, err))
		return STORE_ERROR;
	if (other_sha) {
		int same = !strcmp(other_sha, sha);

		free(other_sha);
		if (same)
			return fail(s, err, "run '%s' has the same inputs "
				    "(sha256 %.12s...); not added again%s",
				    name, sha, explicit ? "" : REPEAT_HINT),
			       STORE_DUPLICATE;
		return fail(s, err, "a run named '%s' is stored already (with "
			    "other inputs); choose another --run", name),
		       STORE_CONFLICT;
	}
	if (explicit)
		return 0;
	if (query(s, "SELECT name FROM runs WHERE inputs_sha256 = $1 "
		  "ORDER BY id LIMIT 1", 1, p1, first_text, &other, err))
		return STORE_ERROR;
	if (other) {
		fail(s, err, "run '%s' has the same inputs (sha256 %.12s...); "
		     "not added again%s", other, sha, REPEAT_HINT);
		free(other);
		return STORE_DUPLICATE;
	}
	return 0;
}

static int insert_run(struct store *s, struct store_run *run, char **id,
		      struct strbuf *err)
{
	char *count = xstrfmt("%zu", run->nmeasurements);
	const char *p[5] = { run->name, run->time, run->added,
			     run->inputs_sha256, count };
	int rc = query(s, "INSERT INTO runs (name, time, added, inputs_sha256, "
		       "measurements) VALUES ($1, $2, $3, $4, $5) RETURNING id",
		       5, p, first_text, id, err);

	free(count);
	if (!rc && (!*id || parse_ll(*id, &run->id)))
		rc = fail(s, err, "the new run has no id");
	return rc;
}

int store_add_run(struct store *s, const struct result_set *rs,
		  const char *name, const char *time,
		  const struct labels *labels, struct store_run *run,
		  struct strbuf *err)
{
	char sha[65], now[32];
	char *id = NULL;
	struct run_keys k;
	int rc, named;

	memset(run, 0, sizeof(*run));
	store_inputs_hash(rs, sha);
	now_utc(now);
	run->name = name ? xstrdup(name) : xstrndup(sha, 12);
	run->time = xstrdup(time ? time : now);
	run->added = xstrdup(now);
	run->inputs_sha256 = xstrdup(sha);
	run->nmeasurements = rs->n;
	labels_init(&run->labels);
	if (labels)
		labels_copy(&run->labels, labels);
	collect_keys(rs, &k);
	rc = begin(s, 1, err);
	if (!rc)
		rc = check_duplicate(s, run->name, name != NULL, sha, err);
	named = rc == STORE_CONFLICT;
	if (!rc)
		rc = insert_run(s, run, &id, err);
	if (!rc)
		rc = add_run_labels(s, id, &run->labels, err);
	if (!rc)
		rc = add_sources(s, id, rs, err);
	if (!rc)
		rc = store_keys(s, rs, &k, err);
	if (!rc)
		rc = add_measurements(s, id, rs, &k, err);
	if (!rc)
		rc = commit(s, err);
	if (rc == STORE_CONFLICT && !named)	/* a unique key, from SQL */
		fail(s, err, "a run with the same name or inputs was added "
		     "at the same time; not added");
	if (rc)
		rollback(s);
	free(id);
	run_keys_release(&k);
	return rc;
}

/* ---- listing ----------------------------------------------------------- */

struct run_list {
	struct store_run *v;
	size_t n, alloc;
	struct keymap by_id;	/* id text -> index */
};

static int run_row(void *arg, int ncols, const char *const *cols)
{
	struct run_list *l = arg;
	struct store_run *r;
	long long count = 0;
	int created;

	if (ncols < 6 || !cols[0] || !cols[1])
		return 0;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	r = &l->v[l->n];
	memset(r, 0, sizeof(*r));
	parse_ll(cols[0], &r->id);
	r->name = xstrdup(cols[1]);
	r->time = xstrdup(cols[2] ? cols[2] : "");
	r->added = xstrdup(cols[3] ? cols[3] : "");
	r->inputs_sha256 = xstrdup(cols[4] ? cols[4] : "");
	if (cols[5])
		parse_ll(cols[5], &count);
	r->nmeasurements = count > 0 ? (size_t)count : 0;
	labels_init(&r->labels);
	keymap_put(&l->by_id, cols[0], l->n, &created);
	l->n++;
	return 0;
}

static int run_label_row(void *arg, int ncols, const char *const *cols)
{
	struct run_list *l = arg;
	const size_t *i;

	if (ncols < 3 || !cols[0] || !cols[1] || !cols[2])
		return 0;
	i = keymap_get(&l->by_id, cols[0]);
	if (i)
		labels_set(&l->v[*i].labels, cols[1], cols[2]);
	return 0;
}

static int list_runs(struct store *s, struct run_list *l, struct strbuf *err)
{
	memset(l, 0, sizeof(*l));
	keymap_init(&l->by_id);
	if (query(s, "SELECT id, name, time, added, inputs_sha256, "
		  "measurements FROM runs ORDER BY time, id", 0, NULL, run_row,
		  l, err) ||
	    query(s, "SELECT run_id, key, value FROM run_labels", 0, NULL,
		  run_label_row, l, err))
		return STORE_ERROR;
	return 0;
}

int store_list_runs(struct store *s, struct store_run **runs, size_t *n,
		    struct strbuf *err)
{
	struct run_list l;
	int rc = begin(s, 0, err);

	if (!rc)
		rc = list_runs(s, &l, err);
	if (!rc)
		rc = commit(s, err);
	else
		rollback(s);
	keymap_release(&l.by_id);
	if (rc) {
		store_runs_free(l.v, l.n);
		return STORE_ERROR;
	}
	*runs = l.v;
	*n = l.n;
	return 0;
}

static int find_run(struct store *s, const char *name, char **id,
		    struct strbuf *err)
{
	const char *p[1] = { name };

	*id = NULL;
	if (query(s, "SELECT id FROM runs WHERE name = $1", 1, p, first_text,
		  id, err))
		return STORE_ERROR;
	if (!*id) {
		fail(s, err, "no run named '%s' (storan store ls %s lists "
		     "them)", name, s->target);
		return STORE_NOT_FOUND;
	}
	return 0;
}

int store_remove_run(struct store *s, const char *name, struct strbuf *err)
{
	static const char *const deletes[] = {
		"DELETE FROM measurements WHERE run_id = $1",
		"DELETE FROM sources WHERE run_id = $1",
		"DELETE FROM run_labels WHERE run_id = $1",
		"DELETE FROM runs WHERE id = $1",
	};
	char *id = NULL;
	int rc = begin(s, 1, err);

	if (!rc)
		rc = find_run(s, name, &id, err);
	for (size_t i = 0; !rc && i < sizeof(deletes) / sizeof(*deletes); i++)
		rc = query(s, deletes[i], 1, (const char *const *)&id, NULL,
			   NULL, err);
	if (!rc)
		rc = commit(s, err);
	if (rc)
		rollback(s);
	free(id);
	return rc;
}

/* ---- exporting --------------------------------------------------------- */

struct export_ctx {
	struct store *s;
	struct result_set *rs;
	size_t first_source;
	int bad;
};

static int source_row(void *arg, int ncols, const char *const *cols)
{
	struct export_ctx *x = arg;
	struct source *src;
	size_t i;

	if (ncols < 6 || !cols[1])
		return 0;
	i = result_set_add_source(x->rs, cols[1], cols[5]);
	src = &x->rs->sources[i];
	if (cols[2]) {
		free(src->name);
		src->name = xstrdup(cols[2]);
	}
	src->format = cols[3] ? xstrdup(cols[3]) : NULL;
	src->tool_version = cols[4] ? xstrdup(cols[4]) : NULL;
	return 0;
}

static int parse_values(const char *text, struct measurement *m)
{
	const char *p = text;

	if (*p++ != '[')
		return -1;
	while (*p && *p != ']') {
		double v;

		if (skip_prefix(&p, "null"))
			v = NAN;
		else if (scan_double(&p, SCAN_ALLOW_SIGN, &v))
			return -1;
		measurement_add_value(m, v);
		if (*p == ',')
			p++;
	}
	return *p == ']' ? 0 : -1;
}

static double json_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int parse_extra(const char *text, struct measurement *m)
{
	json_t *o = json_loads(text, 0, NULL), *su, *h;

	if (!o)
		return -1;
	su = json_object_get(o, "summary");
	if (json_is_object(su)) {
		struct summary *sm = measurement_add_summary(m);

		sm->n = json_num(su, "n");
		sm->mean = json_num(su, "mean");
		sm->stddev = json_num(su, "stddev");
		sm->min = json_num(su, "min");
		sm->max = json_num(su, "max");
		sm->stddev_population =
			json_is_true(json_object_get(su, "stddev_population"));
	}
	h = json_object_get(o, "histogram");
	if (json_is_object(h)) {
		json_t *v = json_object_get(h, "values");
		json_t *c = json_object_get(h, "counts");
		size_t n = json_array_size(v);

		if (n && n == json_array_size(c)) {
			m->hist.n = n;
			m->hist.value = xcalloc(n, sizeof(double));
			m->hist.count = xcalloc(n, sizeof(uint64_t));
			for (size_t i = 0; i < n; i++) {
				json_t *vi = json_array_get(v, i);

				m->hist.value[i] = json_is_number(vi) ?
					json_number_value(vi) : NAN;
				m->hist.count[i] = (uint64_t)json_integer_value(
					json_array_get(c, i));
			}
		}
	}
	m->hist_dropped = json_is_true(json_object_get(o, "hist_dropped"));
	json_decref(o);
	return 0;
}

/* ord, tool, op, metric, unit, labels, source, source_name, line, vals,
 * extra */
static int measurement_row(void *arg, int ncols, const char *const *cols)
{
	struct export_ctx *x = arg;
	struct measurement *m;
	long long source = 0, line = 0;
	const char *name;

	if (ncols < 11 || !cols[1] || !cols[2] || !cols[3] || !cols[4] ||
	    !cols[5] || !cols[6] || parse_ll(cols[6], &source) || source < 0 ||
	    (size_t)source >= x->rs->nsources - x->first_source ||
	    !cols[8] || parse_ll(cols[8], &line)) {
		x->bad++;
		return 0;
	}
	source += (long long)x->first_source;
	name = cols[7] ? cols[7] : x->rs->sources[source].name;
	m = result_set_add_from(x->rs, cols[1], cols[2], cols[3], cols[4],
				(size_t)source, name, (unsigned)line);
	if (labels_from_json(cols[5], &m->labels) ||
	    (cols[9] && parse_values(cols[9], m)) ||
	    (cols[10] && parse_extra(cols[10], m)))
		x->bad++;
	return 0;
}

/* Collects a run's (key, value) rows as labels. */
static int label_row(void *arg, int ncols, const char *const *cols)
{
	if (ncols >= 2 && cols[0] && cols[1])
		labels_set(arg, cols[0], cols[1]);
	return 0;
}

/*
 * The run's identity on each of its sources (a result set has no other
 * place for it: docs/result-format.md): run=NAME, run.time=ISO 8601 and
 * run.KEY=VALUE for each of its labels, so that an exported run says
 * which it was, and `store add` of it restores them (cmd/store.c).
 */
static int export_identity(struct store *s, const char *id,
			   const char *name, struct result_set *rs,
			   size_t first_source, struct strbuf *err)
{
	struct labels run;
	char *time = NULL;
	int rc = query(s, "SELECT time FROM runs WHERE id = $1", 1,
		       (const char *const *)&id, first_text, &time, err);

	labels_init(&run);
	if (!rc)
		rc = query(s, "SELECT key, value FROM run_labels WHERE run_id "
			   "= $1", 1, (const char *const *)&id, label_row,
			   &run, err);
	for (size_t i = first_source; !rc && i < rs->nsources; i++) {
		struct labels *l = &rs->sources[i].labels;

		labels_set(l, STORE_SOURCE_RUN, name);
		if (time)
			labels_set(l, STORE_SOURCE_RUN ".time", time);
		for (size_t j = 0; j < run.n; j++) {
			char *key = xstrfmt(STORE_SOURCE_RUN ".%s",
					    run.v[j].key);

			labels_set(l, key, run.v[j].value);
			free(key);
		}
	}
	labels_release(&run);
	free(time);
	return rc;
}

int store_export_run(struct store *s, const char *name,
		     struct result_set *rs, struct strbuf *err)
{
	struct export_ctx x = { s, rs, rs->nsources, 0 };
	char *id = NULL;
	int rc = begin(s, 0, err);

	if (!rc)
		rc = find_run(s, name, &id, err);
	if (!rc)
		rc = query(s, "SELECT idx, path, name, format, tool_version, "
			   "sha256 FROM sources WHERE run_id = $1 ORDER BY idx",
			   1, (const char *const *)&id, source_row, &x, err);
	if (!rc)
		rc = query(s, "SELECT m.ord, k.tool, k.op, k.metric, k.unit, "
			   "k.labels, m.source, m.source_name, m.line, m.vals, "
			   "m.extra FROM measurements m JOIN measurement_keys "
			   "k ON k.id = m.key_id WHERE m.run_id = $1 ORDER BY "
			   "m.ord", 1, (const char *const *)&id,
			   measurement_row, &x, err);
	if (!rc)
		rc = export_identity(s, id, name, rs, x.first_source, err);
	if (!rc)
		rc = commit(s, err);
	else
		rollback(s);
	if (!rc && x.bad)
		rc = fail(s, err, "run '%s': %d stored measurement(s) cannot "
			  "be read (edited by hand?)", name, x.bad);
	free(id);
	return rc;
}

/* ---- loading for history and detect ------------------------------------ */

struct load_ctx {
	struct store_data *d;
	struct run_list runs;
	int (*want)(const struct store_key *k, void *arg);
	void *want_arg;
	/* store ids -> indices (SIZE_MAX: not loaded): ids are dense */
	size_t *run_of, nrun_of, *key_of, nkey_of;
	size_t keys_alloc;
	struct strbuf ids;	/* the selected keys' ids, "1,5,9" */
};

/* Maps id (text) to index in *map, grown as needed. */
static void map_id(size_t **map, size_t *n, const char *id, size_t index)
{
	long long v;

	if (parse_ll(id, &v) || v < 0 || v > (long long)(SIZE_MAX / 2))
		return;
	if ((size_t)v >= *n) {
		size_t want = (size_t)v * 2 + 16;

		*map = xrealloc(*map, want * sizeof(**map));
		for (size_t i = *n; i < want; i++)
			(*map)[i] = SIZE_MAX;
		*n = want;
	}
	(*map)[v] = index;
}

static size_t lookup_id(const size_t *map, size_t n, const char *id)
{
	uint64_t v;

	if (scan_u64(&id, &v) || *id || v >= n)
		return SIZE_MAX;
	return map[v];
}

static int key_row(void *arg, int ncols, const char *const *cols)
{
	struct load_ctx *c = arg;
	struct store_key *k;

	if (ncols < 6 || !cols[0] || !cols[1] || !cols[2] || !cols[3] ||
	    !cols[4] || !cols[5])
		return 0;
	ALLOC_GROW(c->d->keys, c->d->nkeys + 1, c->keys_alloc);
	k = &c->d->keys[c->d->nkeys];
	k->tool = xstrdup(cols[1]);
	k->op = xstrdup(cols[2]);
	k->metric = xstrdup(cols[3]);
	k->unit = xstrdup(cols[4]);
	labels_init(&k->labels);
	labels_from_json(cols[5], &k->labels);
	if (c->want && !c->want(k, c->want_arg)) {
		free(k->tool);
		free(k->op);
		free(k->metric);
		free(k->unit);
		labels_release(&k->labels);
		return 0;
	}
	map_id(&c->key_of, &c->nkey_of, cols[0], c->d->nkeys);
	strbuf_addf(&c->ids, c->ids.len ? ",%s" : "%s", cols[0]);
	c->d->nkeys++;
	return 0;
}

/* run_id, key_id, n, mean (NULL where vals are there), vals */
static int point_row(void *arg, int ncols, const char *const *cols)
{
	struct load_ctx *c = arg;
	struct store_data *d = c->d;
	size_t run, key;
	struct store_point *p;
	long long n = 0;

	if (ncols < 5 || !cols[0] || !cols[1])
		return 0;
	key = lookup_id(c->key_of, c->nkey_of, cols[1]);
	run = lookup_id(c->run_of, c->nrun_of, cols[0]);
	if (run == SIZE_MAX || key == SIZE_MAX)
		return 0;
	ALLOC_GROW(d->points, d->npoints + 1, d->points_alloc);
	p = &d->points[d->npoints++];
	memset(p, 0, sizeof(*p));
	p->run = run;
	p->key = key;
	if (cols[2])
		parse_ll(cols[2], &n);
	p->n = n > 0 ? (size_t)n : 0;
	p->mean = parse_real(cols[3]);
	if (cols[4]) {
		struct measurement m;

		memset(&m, 0, sizeof(m));
		if (!parse_values(cols[4], &m)) {
			p->values = m.values;
			p->n = m.n;
		} else {
			free(m.values);
		}
	}
	return 0;
}

/* Few keys selected of many: the database skips the others' rows. */
#define KEYS_IN_SQL 2000

static int load_points(struct store *s, struct load_ctx *c, size_t all_keys,
		       struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;

	strbuf_adds(&sql, "SELECT run_id, key_id, n, CASE WHEN vals IS NULL "
		    "THEN mean END, vals FROM measurements");
	if (c->d->nkeys < all_keys && c->d->nkeys <= KEYS_IN_SQL)
		strbuf_addf(&sql, " WHERE key_id IN (%s)",
			    c->d->nkeys ? c->ids.buf : "NULL");
	rc = query(s, sql.buf, 0, NULL, point_row, c, err);
	strbuf_release(&sql);
	return rc;
}

static int count_row(void *arg, int ncols, const char *const *cols)
{
	long long *n = arg;

	if (ncols > 0 && cols[0])
		parse_ll(cols[0], n);
	return 0;
}

int store_load(struct store *s, const char *metric,
	       int (*want)(const struct store_key *k, void *arg), void *arg,
	       struct store_data *d, struct strbuf *err)
{
	struct load_ctx c;
	const char *p[1] = { metric };
	long long all_keys = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(&c, 0, sizeof(c));
	c.d = d;
	c.want = want;
	c.want_arg = arg;
	strbuf_init(&c.ids);
	rc = begin(s, 0, err);
	if (!rc)
		rc = list_runs(s, &c.runs, err);
	for (size_t i = 0; !rc && i < c.runs.n; i++) {
		char id[24];

		snprintf(id, sizeof(id), "%lld", c.runs.v[i].id);
		map_id(&c.run_of, &c.nrun_of, id, i);
	}
	if (!rc)
		rc = query(s, "SELECT count(*) FROM measurement_keys", 0, NULL,
			   count_row, &all_keys, err);
	if (!rc)
		rc = query(s, metric ?
			   "SELECT id, tool, op, metric, unit, labels FROM "
			   "measurement_keys WHERE metric = $1" :
			   "SELECT id, tool, op, metric, unit, labels FROM "
			   "measurement_keys", metric ? 1 : 0, p, key_row, &c,
			   err);
	if (!rc)
		rc = load_points(s, &c, (size_t)all_keys, err);
	if (!rc)
		rc = commit(s, err);
	else
		rollback(s);
	d->runs = c.runs.v;
	d->nruns = c.runs.n;
	keymap_release(&c.runs.by_id);
	free(c.run_of);
	free(c.key_of);
	strbuf_release(&c.ids);
	if (rc)
		store_data_release(d);
	return rc;
}

void store_data_release(struct store_data *d)
{
	store_runs_free(d->runs, d->nruns);
	for (size_t i = 0; i < d->nkeys; i++) {
		free(d->keys[i].tool);
		free(d->keys[i].op);
		free(d->keys[i].metric);
		free(d->keys[i].unit);
		labels_release(&d->keys[i].labels);
	}
	free(d->keys);
	for (size_t i = 0; i < d->npoints; i++)
		free(d->points[i].values);
	free(d->points);
	memset(d, 0, sizeof(*d));
}

/* ---- times ------------------------------------------------------------- */

static int digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!is_ascii_digit((*p)[i]))
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

int store_parse_time(const char *text, struct strbuf *out)
{
	const char *p = text, *frac = NULL;
	int y, mo, d, h = 0, mi = 0, sec = 0, oh = 0, om = 0, sign = 0;
	size_t nfrac = 0;
	struct tm tm;
	time_t t;
	char buf[40];

	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) ||
	    *p++ != '-' || digits(&p, 2, &d))
		return -1;
	if (*p == 'T' || *p == ' ') {
		p++;
		if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
			return -1;
		if (*p == ':') {
			p++;
			if (digits(&p, 2, &sec))
				return -1;
			if (*p == '.' || *p == ',') {
				frac = ++p;
				while (is_ascii_digit(*p))
					p++;
				nfrac = (size_t)(p - frac);
				if (!nfrac)
					return -1;
			}
		}
		if (*p == 'Z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			sign = *p++ == '-' ? -1 : 1;
			if (digits(&p, 2, &oh))
				return -1;
			if (*p == ':')
				p++;
			if (*p && digits(&p, 2, &om))
				return -1;
		}
	}
	if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 60 || oh > 23 || om > 59)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = timegm(&tm);
	if (tm.tm_mday != d || tm.tm_mon != mo - 1)	/* 2026-02-30 */
		return -1;
	t -= sign * (oh * 3600 + om * 60);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	strbuf_adds(out, buf);
	if (nfrac) {
		strbuf_addch(out, '.');
		strbuf_add(out, frac, nfrac);
	}
	strbuf_addch(out, 'Z');
	return 0;
}
