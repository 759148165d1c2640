/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The store in a PostgreSQL database (DB = postgresql://...), for a team
 * whose CI runners on many machines share one history.  libpq, text
 * parameters and results: the same statements as SQLite's (store.c).
 *
 * Concurrency: every writing transaction first takes one transaction-
 * scoped advisory lock (pg_advisory_xact_lock), so writers -- adding,
 * removing, migrating the schema -- run one after the other and never
 * deadlock on the unique keys they share (measurement_keys); the lock
 * goes with the transaction, also when the client dies.  Readers take a
 * REPEATABLE READ snapshot and never wait.  A client killed in the middle
 * of a run leaves nothing: the server rolls the open transaction back.
 */
#include "store.h"
#include "../core/dynlib.h"
#include "../core/xalloc.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/*
 * libpq is opened when a PostgreSQL store is (core/dynlib.h): linked, it
 * and the twenty libraries it needs took half of every storan start.
 */
#ifndef PQ_SONAME
#define PQ_SONAME "libpq.so.5"
#endif
#define PQ_FUNCTIONS(X) \
	X(PQclear) \
	X(PQconnectdb) \
	X(PQerrorMessage) \
	X(PQexec) \
	X(PQfinish) \
	X(PQgetResult) \
	X(PQgetisnull) \
	X(PQgetvalue) \
	X(PQnfields) \
	X(PQntuples) \
	X(PQresultErrorField) \
	X(PQresultErrorMessage) \
	X(PQresultStatus) \
	X(PQsendQueryParams) \
	X(PQsetNoticeProcessor) \
	X(PQsetSingleRowMode) \
	X(PQstatus)
static struct {
	PQ_FUNCTIONS(DYNLIB_POINTER)
} pq;

#define PQ_SLOT(f) DYNLIB_SLOT(pq, f)
static const struct dynlib_table pq_lib = DYNLIB_TABLE(PQ_SONAME,
	"a PostgreSQL history store", PQ_FUNCTIONS, PQ_SLOT, NULL);
#undef PQ_SLOT
static struct dynlib_once pq_once = DYNLIB_ONCE_INIT;

/* "storan" as the key of the advisory lock every writer takes. */
#define WRITE_LOCK_KEY "7310131210"

static void strip_newlines(struct strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == '\n' ||
			   sb->buf[sb->len - 1] == ' '))
		sb->buf[--sb->len] = '\0';
	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] == '\n')
			sb->buf[i] = ' ';
}

static int pg_error(struct store *s, struct strbuf *err, PGresult *res)
{
	const char *state = res ? pq.PQresultErrorField(res, PG_DIAG_SQLSTATE) :
			    NULL;

	strbuf_reset(err);
	strbuf_addf(err, "%s: %s", s->target,
		    res ? pq.PQresultErrorMessage(res) : pq.PQerrorMessage(s->conn));
	strip_newlines(err);
	pq.PQclear(res);
	return state && !strcmp(state, "23505") ? STORE_CONFLICT :
	       STORE_ERROR;
}

static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static int pg_open(struct store *s, const char *target, enum store_mode mode,
		   struct strbuf *err)
{
	PGconn *conn;

	(void)mode;	/* the database exists, or nothing can be done */
	if (dynlib_load_once(&pq_once, &pq_lib)) {
		strbuf_addf(err, "%s: cannot use a PostgreSQL store without "
			    "%s", target, PQ_SONAME);
		s->conn = NULL;
		return STORE_ERROR;
	}
	conn = pq.PQconnectdb(target);
	s->conn = conn;
	if (!conn || pq.PQstatus(conn) != CONNECTION_OK) {
		strbuf_addf(err, "%s: cannot connect: %s", target,
			    conn ? pq.PQerrorMessage(conn) : "out of memory");
		strip_newlines(err);
		pq.PQfinish(conn);
		s->conn = NULL;
		return STORE_ERROR;
	}
	pq.PQsetNoticeProcessor(conn, quiet, NULL);
	return 0;
}

static void pg_close(struct store *s)
{
	if (s->conn)	/* (a failed open may have no libpq) */
		pq.PQfinish(s->conn);
	s->conn = NULL;
}

static int pg_exec(struct store *s, const char *sql, struct strbuf *err)
{
	PGresult *res = pq.PQexec(s->conn, sql);
	ExecStatusType st = pq.PQresultStatus(res);

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		return pg_error(s, err, res);
	pq.PQclear(res);
	return 0;
}

/* The rows of one result to row(); returns what row() returned. */
static int deliver(PGresult *res, store_row_fn row, void *arg)
{
	int ncols = pq.PQnfields(res), nrows = pq.PQntuples(res), stop = 0;
	const char **cols = xcalloc((size_t)ncols + 1, sizeof(*cols));

	for (int r = 0; row && !stop && r < nrows; r++) {
		for (int c = 0; c < ncols; c++)
			cols[c] = pq.PQgetisnull(res, r, c) ? NULL :
				  pq.PQgetvalue(res, r, c);
		stop = row(arg, ncols, cols);
	}
	free(cols);
	return stop;
}

/*
 * Rows come one at a time (single-row mode): a history of ten million
 * measurements is never held whole by libpq.  The results are read to
 * the end whatever happens, so that the connection is ready again.
 */
static int pg_query(struct store *s, const char *sql, int nparams,
		    const char *const *params, store_row_fn row, void *arg,
		    struct strbuf *err)
{
	PGresult *res;
	int rc = 0, stop = 0;

	if (!pq.PQsendQueryParams(s->conn, sql, nparams, NULL, params, NULL, NULL,
			       0))
		return pg_error(s, err, NULL);
	pq.PQsetSingleRowMode(s->conn);
	while ((res = pq.PQgetResult(s->conn))) {
		ExecStatusType st = pq.PQresultStatus(res);

		if (st == PGRES_SINGLE_TUPLE || st == PGRES_TUPLES_OK) {
			if (!rc && !stop)
				stop = deliver(res, row, arg);
			pq.PQclear(res);
		} else if (st == PGRES_COMMAND_OK) {
			pq.PQclear(res);
		} else if (!rc) {
			rc = pg_error(s, err, res);	/* clears res */
		} else {
			pq.PQclear(res);
		}
	}
	return rc ? rc : stop;
}

static int pg_begin_write(struct store *s, struct strbuf *err)
{
	if (pg_exec(s, "BEGIN", err))
		return STORE_ERROR;
	if (pg_exec(s, "SELECT pg_advisory_xact_lock(" WRITE_LOCK_KEY ")",
		    err)) {
		struct strbuf ignored = STRBUF_INIT;

		pg_exec(s, "ROLLBACK", &ignored);
		strbuf_release(&ignored);
		return STORE_ERROR;
	}
	return 0;
}

static int pg_begin_read(struct store *s, struct strbuf *err)
{
	return pg_exec(s, "BEGIN ISOLATION LEVEL REPEATABLE READ", err);
}

static int flag_row(void *arg, int ncols, const char *const *cols)
{
	int *v = arg;

	*v = ncols > 0 && cols[0] && cols[0][0] == 't';
	return 0;
}

static int pg_has_tables(struct store *s, int *state, struct strbuf *err)
{
	int any = 0, ours = 0;

	if (pg_query(s, "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE "
		     "schemaname = current_schema())", 0, NULL, flag_row, &any,
		     err) ||
	    pg_query(s, "SELECT to_regclass('storan_schema') IS NOT NULL", 0,
		     NULL, flag_row, &ours, err))
		return STORE_ERROR;
	*state = ours ? 2 : any ? 1 : 0;
	return 0;
}

/* The same schema as SQLite's (store/sqlite.c), in PostgreSQL's types. */
static const char *const pg_migrations[] = {
	/* 1 */
	"CREATE TABLE storan_schema (version INTEGER NOT NULL);"
	"CREATE TABLE runs ("
	" id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" time TEXT NOT NULL,"
	" added TEXT NOT NULL,"
	" inputs_sha256 TEXT NOT NULL UNIQUE,"
	" measurements BIGINT NOT NULL);"
	"CREATE INDEX runs_time ON runs (time, id);"
	"CREATE TABLE run_labels ("
	" run_id BIGINT NOT NULL REFERENCES runs (id),"
	" key TEXT NOT NULL,"
	" value TEXT NOT NULL,"
	" PRIMARY KEY (run_id, key));"
	"CREATE TABLE sources ("
	" run_id BIGINT NOT NULL REFERENCES runs (id),"
	" idx INTEGER NOT NULL,"
	" path TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" format TEXT,"
	" tool_version TEXT,"
	" sha256 TEXT,"
	" PRIMARY KEY (run_id, idx));"
	"CREATE TABLE measurement_keys ("
	" id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	" key_sha256 TEXT NOT NULL UNIQUE,"
	" tool TEXT NOT NULL,"
	" op TEXT NOT NULL,"
	" metric TEXT NOT NULL,"
	" unit TEXT NOT NULL,"
	" labels TEXT NOT NULL);"
	"CREATE INDEX measurement_keys_metric ON measurement_keys (metric);"
	"CREATE TABLE measurements ("
	" run_id BIGINT NOT NULL REFERENCES runs (id),"
	" ord INTEGER NOT NULL,"
	" key_id BIGINT NOT NULL REFERENCES measurement_keys (id),"
	" source INTEGER NOT NULL,"
	" source_name TEXT,"
	" line INTEGER NOT NULL,"
	" n INTEGER NOT NULL,"
	" mean DOUBLE PRECISION,"
	" stddev DOUBLE PRECISION,"
	" vals TEXT,"
	" extra TEXT,"
	" PRIMARY KEY (run_id, ord));",
	/* 2: the same inputs may be stored again under a name of their own */
	"ALTER TABLE runs DROP CONSTRAINT runs_inputs_sha256_key;"
	"CREATE INDEX runs_inputs ON runs (inputs_sha256);",
};

const struct store_backend store_postgres = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.query = pg_query,
	.begin_write = pg_begin_write,
	.begin_read = pg_begin_read,
	.param = "$",
	.has_tables = pg_has_tables,
	.migrations = pg_migrations,
	.nmigrations = sizeof(pg_migrations) / sizeof(*pg_migrations),
};
