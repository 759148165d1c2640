/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Memory helpers that never return NULL, and the project's message functions.
 *
 * x*alloc() die on exhaustion, so callers never check for NULL.  die() is
 * for commands only: library code reports with error() and returns, so the
 * caller chooses the policy.  BUG() is the only message that shows storan's
 * own source position; everything else names the user's input.
 */
#ifndef STORAN_XALLOC_H
#define STORAN_XALLOC_H

#include <stddef.h>
#include <stdarg.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grow *ptr so that it holds at least need elements of elem bytes. */
void *xgrow(void *ptr, size_t *alloc, size_t need, size_t elem);

#define ALLOC_GROW(ptr, need, alloc) \
	((void)((need) > (alloc) ? \
		((ptr) = xgrow((ptr), &(alloc), (need), sizeof(*(ptr)))) : 0))

/*
 * Names what this thread works on (an input's path), or NULL: when
 * memory runs out, the message says "PATH: out of memory", not only
 * "out of memory".  The caller keeps subject alive until it unsets it.
 */
void xalloc_subject(const char *subject);

/*
 * Does a command free its big structures just before it returns to
 * exit()?  Only in the sanitizer builds (make check, the fuzzers), whose
 * leak check must see everything else freed.  Elsewhere the kernel takes
 * the memory back at once: freeing two result sets of a million
 * measurements block by block was 0.4 s of compare's 3.4 s.  (Nothing
 * else is skipped: outputs are committed and temporary files unlinked
 * before.)
 */
#if defined(__SANITIZE_ADDRESS__)
#define FREE_BEFORE_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_BEFORE_EXIT 1
#endif
#endif
#ifndef FREE_BEFORE_EXIT
#define FREE_BEFORE_EXIT 0
#endif

/* Program name used as message prefix ("storan"). */
extern const char *progname;

__attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...);
/* Prints "storan: error: ..." and returns -1. */
__attribute__((format(printf, 1, 2))) int error(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
__attribute__((noreturn)) void bug_at(const char *file, int line,
				      const char *fmt, ...);
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

/* printf into a fresh string the caller frees. */
__attribute__((format(printf, 1, 2))) char *xstrfmt(const char *fmt, ...);
char *xstrvfmt(const char *fmt, va_list ap);

#endif
