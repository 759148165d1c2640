/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Allocation and message helpers; see xalloc.h. */
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *progname = "storan";

static _Thread_local const char *subject;

void xalloc_subject(const char *what)
{
	subject = what;
}

static __attribute__((noreturn)) void out_of_memory(size_t size)
{
	if (subject)
		die("%s: out of memory (%zu bytes more)", subject, size);
	die("out of memory (%zu bytes more)", size);
}

static void *check(void *p, size_t size)
{
	if (!p)
		out_of_memory(size);
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1), size);
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1),
		     nmemb * size);
}

void *xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1), size);
}

char *xstrdup(const char *s)
{
	return check(strdup(s), strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n), n + 1);
}

void *xgrow(void *ptr, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc;

	if (need <= n)
		return ptr;
	n = n ? n : 8;
	while (n < need) {
		if (n > ((size_t)-1 / 2) / elem)
			out_of_memory((size_t)-1);
		n *= 2;
	}
	*alloc = n;
	return xrealloc(ptr, n * elem);
}

char *xstrvfmt(const char *fmt, va_list ap)
{
	va_list cp;
	int len;
	char *s;

	va_copy(cp, ap);
	len = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (len < 0)
		BUG("bad format '%s'", fmt);
	s = xmalloc((size_t)len + 1);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	return s;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xstrvfmt(fmt, ap);
	va_end(ap);
	return s;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", progname, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(2);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: BUG: %s:%d: ", progname, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
