/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Libraries opened when first needed, not linked: cairo, fontconfig and
 * libxlsxwriter for charts and workbooks (plot/gfx.h), libpq for a
 * PostgreSQL history store (store/postgres.c).  Linked, each start of
 * storan paid for them: libpq alone brings twenty libraries (Kerberos,
 * LDAP, GnuTLS...) and took 7.7 of the 16 ms that `storan --version`
 * took; an ingest of a fio JSON file is some 70 ms.
 *
 * A user keeps the functions it calls as pointers, listed once in an
 * X-macro, and describes them in a table:
 *
 *	#define PQ_FUNCTIONS(X) X(PQconnectdb) X(PQfinish)
 *	#define PQ_POINTER(f) __typeof__(f) *f;
 *	static struct { PQ_FUNCTIONS(PQ_POINTER) } pq;
 *	#define PQ_SLOT(f) (void **)(void *)&pq.f,
 *	const struct dynlib_table t = {
 *		"libpq.so.5", "a PostgreSQL history store",
 *		(const char *const[]){ PQ_FUNCTIONS(DYNLIB_NAME) },
 *		(void **const[]){ PQ_FUNCTIONS(PQ_SLOT) },
 *		DYNLIB_COUNT(PQ_FUNCTIONS),
 *	};
 *	if (dynlib_load(&t)) ...	// said what failed
 */
#ifndef STORAN_DYNLIB_H
#define STORAN_DYNLIB_H

#include <stddef.h>

struct dynlib_table {
	const char *lib;		/* its soname */
	const char *needed_for;		/* "charts and workbooks" */
	const char *const *names;	/* the functions */
	void **const *slots;		/* where their addresses go */
	size_t n;
};

#define DYNLIB_NAME(f) #f,
#define DYNLIB_COUNT(list) \
	(sizeof((const char *const[]){ list(DYNLIB_NAME) }) / sizeof(char *))

/*
 * Opens t->lib and fills its slots; 0, or -1 after saying (error())
 * which library or function is missing and what it is needed for.
 */
int dynlib_load(const struct dynlib_table *t);

#endif
