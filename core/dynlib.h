/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Libraries opened when first needed, not linked: cairo, fontconfig and
 * libxlsxwriter for charts and workbooks (plot/gfx.h), libpq for a
 * PostgreSQL history store (store/postgres.c).  Linked, each start of
 * storan paid for them: libpq alone brings twenty libraries (Kerberos,
 * LDAP, GnuTLS...) and took 7.7 of the 16 ms that `storan --version`
 * took; an ingest of a fio JSON file is some 70 ms.
 *
 * libcrypto, GSL and SQLite likewise: a digest, a statistic, an SQLite
 * store (core/sha256.c, analysis/stats.c, store/sqlite.c).
 *
 * A user keeps the functions it calls as pointers, listed once in an
 * X-macro, describes them in a table and opens it once, from any thread:
 *
 *	#define PQ_FUNCTIONS(X) X(PQconnectdb) X(PQfinish)
 *	static struct { PQ_FUNCTIONS(DYNLIB_POINTER) } pq;
 *	#define PQ_SLOT(f) DYNLIB_SLOT(pq, f)
 *	static const struct dynlib_table pq_lib = DYNLIB_TABLE(
 *		"libpq.so.5", "a PostgreSQL history store", PQ_FUNCTIONS,
 *		PQ_SLOT, NULL);
 *	static struct dynlib_once pq_once = DYNLIB_ONCE_INIT;
 *	if (dynlib_load_once(&pq_once, &pq_lib)) ...	// said what failed
 */
#ifndef STORAN_DYNLIB_H
#define STORAN_DYNLIB_H

#include <pthread.h>
#include <stddef.h>

struct dynlib_table {
	const char *lib;		/* its soname */
	const char *needed_for;		/* "charts and workbooks" */
	const char *const *names;	/* the functions */
	void **const *slots;		/* where their addresses go */
	size_t n;
	void (*loaded)(void);		/* run once it is, or NULL */
};

#define DYNLIB_NAME(f) #f,
#define DYNLIB_COUNT(list) \
	(sizeof((const char *const[]){ list(DYNLIB_NAME) }) / sizeof(char *))
#define DYNLIB_POINTER(f) __typeof__(f) *f;
#define DYNLIB_SLOT(api, f) (void **)(void *)&api.f,
#define DYNLIB_TABLE(lib, needed_for, list, slot, loaded) { \
	lib, needed_for, (const char *const[]){ list(DYNLIB_NAME) }, \
	(void **const[]){ list(slot) }, DYNLIB_COUNT(list), loaded }

/* A library opened once per process: 1 loaded, -1 failed, 0 not yet. */
struct dynlib_once {
	pthread_mutex_t lock;
	_Atomic int state;
};

#define DYNLIB_ONCE_INIT { PTHREAD_MUTEX_INITIALIZER, 0 }

/*
 * Opens t->lib and fills its slots; 0, or -1 after saying (error())
 * which library or function is missing and what it is needed for.
 */
int dynlib_load(const struct dynlib_table *t);

/*
 * dynlib_load(t) the first time (then t->loaded()), by whichever thread
 * comes first; its result every time: 0, or -1 (said the first time).
 */
int dynlib_load_once(struct dynlib_once *once, const struct dynlib_table *t);

/* Loaded by now? */
int dynlib_is_loaded(const struct dynlib_once *once);

#endif
