/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The store in an SQLite file (the default: embedded, nothing to start).
 *
 * Concurrency: the file is in WAL mode, so readers never wait for a
 * writer nor block one; writers take the write lock at BEGIN IMMEDIATE
 * and wait for each other up to BUSY_TIMEOUT_MS (sqlite3_busy_timeout),
 * so several CI jobs adding at once lose nothing.  A run is one
 * transaction: a process killed in the middle of one leaves the file as
 * it was (the WAL's uncommitted frames are ignored on the next open).
 * synchronous=NORMAL: durable against a crash of storan; after a power
 * cut the last transactions may be gone, the file still consistent.
 *
 * Statements are prepared once per connection and kept (a run's
 * measurements go in as a few identical multi-row INSERTs).
 */
#include "store.h"
#include "../core/dynlib.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * libsqlite3 is opened when a store is (core/dynlib.h): linked, it was
 * 1.3 of the 10.5 ms of every storan start on the test VM, and only
 * storan store and history read a store.
 */
#ifndef SQLITE3_SONAME
#define SQLITE3_SONAME "libsqlite3.so.0"
#endif
#define SQLITE_FUNCTIONS(X) \
	X(sqlite3_bind_text) \
	X(sqlite3_busy_timeout) \
	X(sqlite3_clear_bindings) \
	X(sqlite3_close) \
	X(sqlite3_column_count) \
	X(sqlite3_column_text) \
	X(sqlite3_errmsg) \
	X(sqlite3_exec) \
	X(sqlite3_extended_errcode) \
	X(sqlite3_finalize) \
	X(sqlite3_open_v2) \
	X(sqlite3_prepare_v2) \
	X(sqlite3_reset) \
	X(sqlite3_sleep) \
	X(sqlite3_step)
static struct {
	SQLITE_FUNCTIONS(DYNLIB_POINTER)
} sq;

#define SQLITE_SLOT(f) DYNLIB_SLOT(sq, f)
static const struct dynlib_table sqlite_lib = DYNLIB_TABLE(SQLITE3_SONAME,
	"an SQLite history store", SQLITE_FUNCTIONS, SQLITE_SLOT, NULL);
#undef SQLITE_SLOT
static struct dynlib_once sqlite_once = DYNLIB_ONCE_INIT;

#define BUSY_TIMEOUT_MS 120000
#define NCACHED 16

struct sqlite_conn {
	sqlite3 *db;
	struct {
		char *sql;
		sqlite3_stmt *stmt;
	} cache[NCACHED];
	unsigned next;		/* slot replaced next (round robin) */
};

static int sql_error(struct store *s, struct strbuf *err, const char *what)
{
	struct sqlite_conn *c = s->conn;

	strbuf_reset(err);
	strbuf_addf(err, "%s: %s%s", s->target, what ? what : "",
		    sq.sqlite3_errmsg(c->db));
	return (sq.sqlite3_extended_errcode(c->db) & 0xff) == SQLITE_CONSTRAINT ?
	       STORE_CONFLICT : STORE_ERROR;
}

/* What a path that is not a regular file is, for the message. */
static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device" :
	       S_ISCHR(m) ? "a character device" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/*
 * A new store is created here, not by SQLite: O_EXCL and O_NOFOLLOW, so a
 * link planted at the path (a shared /tmp) is never followed to a device
 * or to someone's file; in a sticky directory nobody else can swap the
 * file we made before SQLite opens it.
 */
static int create_store_file(const char *target, struct strbuf *err)
{
	int fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_NOCTTY | O_CLOEXEC, 0666);

	if (fd < 0 && errno != EEXIST) {
		strbuf_addf(err, "%s: cannot create: %s", target,
			    strerror(errno));
		return STORE_ERROR;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * The path a store may be opened at: an existing regular file (a link to
 * one is followed), created first when storing into a new one.  A device
 * is never a store: SQLite would write its header over the file system
 * (`storan history /dev/sdb` made /dev/sdb an empty database), and a
 * reader never makes a store of an empty file.
 */
static int store_file(const char *target, enum store_mode mode,
		      struct stat *st, struct strbuf *err)
{
	if (stat(target, st) && errno == ENOENT && mode != STORE_READ &&
	    create_store_file(target, err))
		return STORE_ERROR;
	if (stat(target, st)) {
		strbuf_addf(err, "%s: %s", target, errno == ENOENT ?
			    "no such store (storan store add creates one)" :
			    strerror(errno));
		return STORE_ERROR;
	}
	if (!S_ISREG(st->st_mode)) {
		strbuf_addf(err, "%s: is %s, not a store", target,
			    file_kind(st->st_mode));
		return STORE_ERROR;
	}
	if (mode == STORE_READ && st->st_size == 0) {
		strbuf_addf(err, "%s: an empty file, not a store (storan "
			    "store add creates one)", target);
		return STORE_ERROR;
	}
	return 0;
}

/* Still the file that was checked?  (A path swapped for a link to a
 * device between the check and SQLite's open is refused before SQLite
 * reads or writes a byte of it.) */
static int same_file(const char *target, const struct stat *was,
		     struct strbuf *err)
{
	struct stat now;

	if (stat(target, &now) || now.st_dev != was->st_dev ||
	    now.st_ino != was->st_ino || !S_ISREG(now.st_mode)) {
		strbuf_addf(err, "%s: changed while storan opened it",
			    target);
		return 0;
	}
	return 1;
}

static void drop_conn(struct store *s)
{
	struct sqlite_conn *c = s->conn;

	sq.sqlite3_close(c->db);
	free(c);
	s->conn = NULL;
}

/*
 * sql, tried again while the file is busy, up to the busy timeout.
 * Switching a new file to WAL takes its write lock, and when writers
 * that opened it at the same moment hold locks of their own SQLite
 * answers SQLITE_BUSY at once, without the busy handler (waiting could
 * deadlock): one of eight nightly writers starting together failed so,
 * "not a store: database is locked".
 */
static int exec_while_busy(struct sqlite_conn *c, const char *sql)
{
	enum { STEP_MS = 5 };
	int rc;

	for (int waited = 0;
	     (rc = sq.sqlite3_exec(c->db, sql, NULL, NULL, NULL)) ==
		     SQLITE_BUSY && waited < BUSY_TIMEOUT_MS;
	     waited += STEP_MS)
		sq.sqlite3_sleep(STEP_MS);
	return rc;
}

static int sqlite_open(struct store *s, const char *target,
		       enum store_mode mode, struct strbuf *err)
{
	struct sqlite_conn *c;
	struct stat st;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	if (dynlib_load_once(&sqlite_once, &sqlite_lib)) {
		strbuf_addf(err, "%s: cannot open an SQLite store", target);
		return STORE_ERROR;
	}
	if (store_file(target, mode, &st, err))
		return STORE_ERROR;
	c = xcalloc(1, sizeof(*c));
	s->conn = c;
	if (sq.sqlite3_open_v2(target, &c->db, flags, NULL) != SQLITE_OK) {
		sql_error(s, err, "cannot open: ");
		drop_conn(s);
		return STORE_ERROR;
	}
	if (!same_file(target, &st, err)) {
		drop_conn(s);
		return STORE_ERROR;
	}
	sq.sqlite3_busy_timeout(c->db, BUSY_TIMEOUT_MS);
	/* the first statement reads the file: "file is not a database" */
	if (exec_while_busy(c, "PRAGMA journal_mode=WAL; "
			    "PRAGMA synchronous=NORMAL")) {
		sql_error(s, err, "not a store: ");
		drop_conn(s);
		return STORE_ERROR;
	}
	return 0;
}

static void sqlite_close(struct store *s)
{
	struct sqlite_conn *c = s->conn;

	for (int i = 0; i < NCACHED; i++) {
		sq.sqlite3_finalize(c->cache[i].stmt);
		free(c->cache[i].sql);
	}
	sq.sqlite3_close(c->db);
	free(c);
	s->conn = NULL;
}

static int sqlite_exec(struct store *s, const char *sql, struct strbuf *err)
{
	struct sqlite_conn *c = s->conn;

	if (sq.sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_error(s, err, NULL);
	return 0;
}

static sqlite3_stmt *prepared(struct store *s, const char *sql)
{
	struct sqlite_conn *c = s->conn;
	sqlite3_stmt *stmt;
	unsigned slot;

	for (int i = 0; i < NCACHED; i++)
		if (c->cache[i].sql && !strcmp(c->cache[i].sql, sql)) {
			sq.sqlite3_reset(c->cache[i].stmt);
			sq.sqlite3_clear_bindings(c->cache[i].stmt);
			return c->cache[i].stmt;
		}
	if (sq.sqlite3_prepare_v2(c->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	slot = c->next++ % NCACHED;
	sq.sqlite3_finalize(c->cache[slot].stmt);
	free(c->cache[slot].sql);
	c->cache[slot].sql = xstrdup(sql);
	c->cache[slot].stmt = stmt;
	return stmt;
}

static int sqlite_query(struct store *s, const char *sql, int nparams,
			const char *const *params, store_row_fn row, void *arg,
			struct strbuf *err)
{
	sqlite3_stmt *stmt = prepared(s, sql);
	const char **cols = NULL;
	int rc, ncols, stop = 0;

	if (!stmt)
		return sql_error(s, err, NULL);
	for (int i = 0; i < nparams; i++)
		if (params[i] && sq.sqlite3_bind_text(stmt, i + 1, params[i], -1,
						   SQLITE_STATIC) != SQLITE_OK)
			return sql_error(s, err, NULL);
	ncols = sq.sqlite3_column_count(stmt);
	if (ncols)
		cols = xcalloc((size_t)ncols, sizeof(*cols));
	while ((rc = sq.sqlite3_step(stmt)) == SQLITE_ROW) {
		if (!row || stop)
			continue;
		for (int i = 0; i < ncols; i++)
			cols[i] = (const char *)sq.sqlite3_column_text(stmt, i);
		stop = row(arg, ncols, cols);
	}
	free(cols);
	if (rc != SQLITE_DONE) {
		rc = sql_error(s, err, NULL);
		sq.sqlite3_reset(stmt);
		return rc;
	}
	sq.sqlite3_reset(stmt);
	return stop;
}

static int sqlite_begin_write(struct store *s, struct strbuf *err)
{
	return sqlite_exec(s, "BEGIN IMMEDIATE", err);
}

static int sqlite_begin_read(struct store *s, struct strbuf *err)
{
	return sqlite_exec(s, "BEGIN", err);
}

static int count_row(void *arg, int ncols, const char *const *cols)
{
	long *n = arg;

	*n = ncols > 0 && cols[0] ? strtol(cols[0], NULL, 10) : 0;
	return 0;
}

static int sqlite_has_tables(struct store *s, int *state, struct strbuf *err)
{
	long any = 0, ours = 0;

	if (sqlite_query(s, "SELECT count(*) FROM sqlite_master WHERE type = "
			 "'table'", 0, NULL, count_row, &any, err) ||
	    sqlite_query(s, "SELECT count(*) FROM sqlite_master WHERE type = "
			 "'table' AND name = 'storan_schema'", 0, NULL,
			 count_row, &ours, err))
		return STORE_ERROR;
	*state = ours ? 2 : any ? 1 : 0;
	return 0;
}

/* docs/store-schema.md describes every table and column. */
static const char *const sqlite_migrations[] = {
	/* 1 */
	"CREATE TABLE storan_schema (version INTEGER NOT NULL);"
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" time TEXT NOT NULL,"
	" added TEXT NOT NULL,"
	" inputs_sha256 TEXT NOT NULL UNIQUE,"
	" measurements INTEGER NOT NULL);"
	"CREATE INDEX runs_time ON runs (time, id);"
	"CREATE TABLE run_labels ("
	" run_id INTEGER NOT NULL REFERENCES runs (id),"
	" key TEXT NOT NULL,"
	" value TEXT NOT NULL,"
	" PRIMARY KEY (run_id, key)) WITHOUT ROWID;"
	"CREATE TABLE sources ("
	" run_id INTEGER NOT NULL REFERENCES runs (id),"
	" idx INTEGER NOT NULL,"
	" path TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" format TEXT,"
	" tool_version TEXT,"
	" sha256 TEXT,"
	" PRIMARY KEY (run_id, idx)) WITHOUT ROWID;"
	"CREATE TABLE measurement_keys ("
	" id INTEGER PRIMARY KEY,"
	" key_sha256 TEXT NOT NULL UNIQUE,"
	" tool TEXT NOT NULL,"
	" op TEXT NOT NULL,"
	" metric TEXT NOT NULL,"
	" unit TEXT NOT NULL,"
	" labels TEXT NOT NULL);"
	"CREATE INDEX measurement_keys_metric ON measurement_keys (metric);"
	"CREATE TABLE measurements ("
	" run_id INTEGER NOT NULL REFERENCES runs (id),"
	" ord INTEGER NOT NULL,"
	" key_id INTEGER NOT NULL REFERENCES measurement_keys (id),"
	" source INTEGER NOT NULL,"
	" source_name TEXT,"
	" line INTEGER NOT NULL,"
	" n INTEGER NOT NULL,"
	" mean REAL,"
	" stddev REAL,"
	" vals TEXT,"
	" extra TEXT,"
	" PRIMARY KEY (run_id, ord)) WITHOUT ROWID;",
	/*
	 * 2: the same inputs may be stored again under a name of their own
	 * (a two-line hdparm output repeats exactly): inputs_sha256 loses
	 * UNIQUE.  SQLite drops a constraint only by rebuilding the table;
	 * foreign keys are not enforced (no PRAGMA), so the children's
	 * REFERENCES runs (id) find the rebuilt table, ids kept.
	 */
	"CREATE TABLE runs_v2 ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" time TEXT NOT NULL,"
	" added TEXT NOT NULL,"
	" inputs_sha256 TEXT NOT NULL,"
	" measurements INTEGER NOT NULL);"
	"INSERT INTO runs_v2 (id, name, time, added, inputs_sha256, "
	"measurements) SELECT id, name, time, added, inputs_sha256, "
	"measurements FROM runs;"
	"DROP TABLE runs;"
	"ALTER TABLE runs_v2 RENAME TO runs;"
	"CREATE INDEX runs_time ON runs (time, id);"
	"CREATE INDEX runs_inputs ON runs (inputs_sha256);",
};

const struct store_backend store_sqlite = {
	.name = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.exec = sqlite_exec,
	.query = sqlite_query,
	.begin_write = sqlite_begin_write,
	.begin_read = sqlite_begin_read,
	.param = "?",
	.has_tables = sqlite_has_tables,
	.migrations = sqlite_migrations,
	.nmigrations = sizeof(sqlite_migrations) / sizeof(*sqlite_migrations),
};
