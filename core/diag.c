/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Diagnostics; see diag.h. */
#include "diag.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_list_init(struct diag_list *dl)
{
	dl->v = NULL;
	dl->n = dl->alloc = 0;
}

void diag_list_truncate(struct diag_list *dl, size_t n)
{
	while (dl->n > n) {
		dl->n--;
		free(dl->v[dl->n].file);
		free(dl->v[dl->n].msg);
	}
}

void diag_list_take(struct diag_list *dst, struct diag_list *src)
{
	ALLOC_GROW(dst->v, dst->n + src->n, dst->alloc);
	if (src->n)
		memcpy(dst->v + dst->n, src->v, src->n * sizeof(*src->v));
	dst->n += src->n;
	free(src->v);
	diag_list_init(src);
}

void diag_list_release(struct diag_list *dl)
{
	diag_list_truncate(dl, 0);
	free(dl->v);
	diag_list_init(dl);
}

void diag_add(struct diag_list *dl, enum diag_level level, const char *file,
	      unsigned line, const char *fmt, ...)
{
	struct diag *d;
	va_list ap;

	ALLOC_GROW(dl->v, dl->n + 1, dl->alloc);
	d = &dl->v[dl->n++];
	d->level = level;
	d->file = file ? xstrdup(file) : NULL;
	d->line = line;
	va_start(ap, fmt);
	d->msg = xstrvfmt(fmt, ap);
	va_end(ap);
}

size_t diag_count(const struct diag_list *dl, enum diag_level level)
{
	size_t n = 0;

	for (size_t i = 0; i < dl->n; i++)
		n += dl->v[i].level == level;
	return n;
}

void diag_print(const struct diag_list *dl, FILE *fp)
{
	for (size_t i = 0; i < dl->n; i++) {
		const struct diag *d = &dl->v[i];
		const char *kind = d->level == DIAG_NOTE ? "note: " : "";

		if (!d->file)
			fprintf(fp, "%s%s\n", kind, d->msg);
		else if (d->line)
			fprintf(fp, "%s:%u: %s%s\n", d->file, d->line, kind,
				d->msg);
		else
			fprintf(fp, "%s: %s%s\n", d->file, kind, d->msg);
	}
}
