/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The history store: runs (a result set and its identity: time, labels,
 * the hashes of its inputs) kept in an SQLite file or a PostgreSQL
 * database, behind one interface.
 *
 *   DB = "postgresql://..." or "postgres://..."   -> store/postgres.c
 *   DB = anything else (a file path)               -> store/sqlite.c
 *
 * Both hold the same schema (docs/store-schema.md), brought up to date by
 * the same versioned migrations, and behave the same: every change is one
 * transaction (a run is added whole or not at all, whatever happens to
 * the process), writers wait for each other (SQLite: WAL and a busy
 * timeout, BEGIN IMMEDIATE; PostgreSQL: a transaction-scoped advisory
 * lock), readers see one snapshot.  A run whose inputs have the same
 * hashes as a stored run's is refused, not stored twice.
 *
 * Ownership: a struct store owns its connection; every struct filled by a
 * store_* call owns its strings and is released by the matching
 * *_release.  Errors go into err as "DB: what is wrong" (the caller
 * prints it).
 *
 * Adding a backend: write store/NAME.c with a `const struct store_backend
 * store_NAME` (the ops below), and name it in store.c's pick_backend().
 */
#ifndef STORAN_STORE_H
#define STORAN_STORE_H

#include <stddef.h>

#include "../core/resultset.h"
#include "../core/strbuf.h"

/* The version the migrations bring a store to (docs/store-schema.md). */
#define STORE_SCHEMA_VERSION 2

enum store_status {
	STORE_OK = 0,
	STORE_ERROR = -1,	/* err says what */
	STORE_CONFLICT = -2,	/* a unique key exists: the run's name */
	STORE_NOT_FOUND = -3,	/* no such run */
	STORE_DUPLICATE = -4,	/* a stored run has the same inputs */
};

enum store_mode {
	STORE_READ,		/* the store must exist */
	STORE_WRITE,		/* created when it does not */
};

struct store;

/*
 * One result row: cols[i] is the text of column i, NULL for SQL NULL.
 * Return 0 to go on, anything else to stop (query returns it).
 */
typedef int (*store_row_fn)(void *arg, int ncols, const char *const *cols);

/*
 * What a backend does.  SQL is shared between backends where the two
 * dialects agree (parameters are written $1, $2... in order of use,
 * which SQLite numbers the same way); the schema's DDL differs.
 */
struct store_backend {
	const char *name;
	/* Opens target; mode STORE_READ never creates anything. */
	int (*open)(struct store *s, const char *target, enum store_mode mode,
		    struct strbuf *err);
	void (*close)(struct store *s);
	/* Statements without parameters or results ("COMMIT"; DDL). */
	int (*exec)(struct store *s, const char *sql, struct strbuf *err);
	/* One statement; params as text (NULL: SQL NULL). */
	int (*query)(struct store *s, const char *sql, int nparams,
		     const char *const *params, store_row_fn row, void *arg,
		     struct strbuf *err);
	/* A transaction that writes: waits for other writers first. */
	int (*begin_write)(struct store *s, struct strbuf *err);
	/* A transaction that only reads: one snapshot. */
	int (*begin_read)(struct store *s, struct strbuf *err);
	/*
	 * What the database holds: *state 0 no table at all, 1 tables but
	 * no storan_schema (another program's), 2 storan_schema.
	 */
	int (*has_tables)(struct store *s, int *state, struct strbuf *err);
	/* How parameters are written in generated SQL: "$" ($1, $2...),
	 * or "?" (each a plain '?', numbered in order by the database). */
	const char *param;
	/* migrations[v - 1]: the DDL that takes version v - 1 to v. */
	const char *const *migrations;
	int nmigrations;
};

extern const struct store_backend store_sqlite;
extern const struct store_backend store_postgres;

struct store {
	const struct store_backend *ops;
	char *target;		/* as given, for messages */
	void *conn;		/* the backend's */
	int in_transaction;
};

/* Is target a PostgreSQL URL? */
int store_is_postgres(const char *target);

/* Opens (and migrates) the store; 0 or STORE_ERROR. */
int store_open(struct store *s, const char *target, enum store_mode mode,
	       struct strbuf *err);
void store_close(struct store *s);

/* A run as stored. */
struct store_run {
	long long id;		/* the store's own, in order of adding */
	char *name;		/* --run ID, else the inputs' hash, short */
	char *time;		/* ISO 8601, UTC: 2026-05-01T02:00:00Z */
	char *added;		/* when it was stored, same form */
	char *inputs_sha256;	/* over the sorted hashes of its inputs */
	struct labels labels;	/* the run's own: commit, host... */
	size_t nmeasurements;
};

void store_run_release(struct store_run *r);
void store_runs_free(struct store_run *runs, size_t n);

/*
 * The hash that makes a run a duplicate: SHA-256 over the sorted
 * SHA-256s of rs's sources, and over its measurements as a result set
 * where a source has no hash.
 */
void store_inputs_hash(const struct result_set *rs, char out[65]);

/*
 * Adds rs as one run.  name NULL: the first 12 digits of the inputs'
 * hash.  time: ISO 8601 (already checked, store_parse_time), NULL: now.
 * STORE_DUPLICATE when a stored run has the same inputs, STORE_CONFLICT
 * when one has the name (err names it).
 */
int store_add_run(struct store *s, const struct result_set *rs,
		  const char *name, const char *time,
		  const struct labels *labels, struct store_run *added,
		  struct strbuf *err);

/* Every run, oldest first (by time, then by order of adding). */
int store_list_runs(struct store *s, struct store_run **runs, size_t *n,
		    struct strbuf *err);

/* STORE_NOT_FOUND when there is no run of that name. */
int store_remove_run(struct store *s, const char *name, struct strbuf *err);

/*
 * The run's result set again (appended to rs), as it was added, its
 * sources labelled with the run's identity: STORE_SOURCE_RUN=name,
 * STORE_SOURCE_RUN.time=time, STORE_SOURCE_RUN.KEY=VALUE for each of
 * its labels.
 */
#define STORE_SOURCE_RUN "run"
int store_export_run(struct store *s, const char *name,
		     struct result_set *rs, struct strbuf *err);

/*
 * Everything history and detect read, in one snapshot: the runs (oldest
 * first), the distinct measurement keys, and one point per measurement.
 */
struct store_key {
	char *tool, *op, *metric, *unit;
	struct labels labels;
};

struct store_point {
	size_t run;		/* index into runs */
	size_t key;		/* index into keys */
	double *values;		/* per repetition; NULL: summary only */
	size_t n;		/* repetitions (values, or the summary's n) */
	double mean;
};

struct store_data {
	struct store_run *runs;
	size_t nruns;
	struct store_key *keys;
	size_t nkeys;
	struct store_point *points;
	size_t npoints, points_alloc;
};

/*
 * metric: NULL for every metric (else only that one is read); want:
 * NULL for every key, else only the keys it says yes to (with arg), and
 * their measurements.
 */
int store_load(struct store *s, const char *metric,
	       int (*want)(const struct store_key *k, void *arg), void *arg,
	       struct store_data *d, struct strbuf *err);
void store_data_release(struct store_data *d);

/*
 * Reads an ISO 8601 time (2026-05-01, 2026-05-01T02:00, ...:00Z,
 * ...+02:00, fractions of a second) into its UTC form "YYYY-MM-DDTHH:MM:SSZ"
 * (fractions kept); 0, or -1 when it is not one.
 */
int store_parse_time(const char *text, struct strbuf *out);

#endif
