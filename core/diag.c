/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Diagnostics; see diag.h. */
#include "diag.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_list_init(struct diag_list *dl)
{
	memset(dl, 0, sizeof(*dl));
}

void diag_list_spill_after(struct diag_list *dl, size_t keep)
{
	dl->spill_after = keep ? keep : 1;
}

size_t diag_total(const struct diag_list *dl)
{
	return dl->n + dl->spilled;
}

static void forget_spill(struct diag_list *dl)
{
	if (dl->spill)
		fclose(dl->spill);
	dl->spill = NULL;
	dl->spilled = dl->spilled_errors = dl->spilled_notes = 0;
}

void diag_list_truncate(struct diag_list *dl, size_t n)
{
	if (n < diag_total(dl) && dl->spilled) {
		if (n > dl->n)
			BUG("diagnostics truncated within the ones written out");
		forget_spill(dl);
	}
	while (dl->n > n) {
		dl->n--;
		free(dl->v[dl->n].file);
		free(dl->v[dl->n].msg);
	}
}

static void print_one(const struct diag *d, FILE *fp)
{
	const char *kind = d->level == DIAG_NOTE ? "note: " : "";

	if (!d->file)
		fprintf(fp, "%s%s\n", kind, d->msg);
	else if (d->line)
		fprintf(fp, "%s:%u: %s%s\n", d->file, d->line, kind, d->msg);
	else
		fprintf(fp, "%s: %s%s\n", d->file, kind, d->msg);
}

/* Is the next message for the file?  (Its file is made then.) */
static int spills(struct diag_list *dl)
{
	if (!dl->spill && dl->spill_after && dl->n >= dl->spill_after) {
		dl->spill = tmpfile();
		if (!dl->spill)
			dl->spill_after = 0;	/* kept, then */
	}
	return dl->spill != NULL;
}

/* Writes d out (and frees its strings). */
static void spill_one(struct diag_list *dl, struct diag *d)
{
	print_one(d, dl->spill);
	dl->spilled++;
	dl->spilled_errors += d->level == DIAG_ERROR;
	dl->spilled_notes += d->level == DIAG_NOTE;
	free(d->file);
	free(d->msg);
}

/* Copies what src wrote out behind what dst did. */
static void copy_spill(struct diag_list *dst, struct diag_list *src)
{
	char buf[65536];
	size_t got;

	rewind(src->spill);
	while ((got = fread(buf, 1, sizeof(buf), src->spill)))
		fwrite(buf, 1, got, dst->spill);
	dst->spilled += src->spilled;
	dst->spilled_errors += src->spilled_errors;
	dst->spilled_notes += src->spilled_notes;
	forget_spill(src);
}

void diag_list_take(struct diag_list *dst, struct diag_list *src)
{
	if (src->spill && !dst->spill) {
		dst->spill_after = dst->n;	/* src's go after dst's */
		if (!spills(dst))
			BUG("no temporary file for the messages");
	}
	if (!dst->spill) {
		ALLOC_GROW(dst->v, dst->n + src->n, dst->alloc);
		if (src->n)
			memcpy(dst->v + dst->n, src->v,
			       src->n * sizeof(*src->v));
		dst->n += src->n;
	} else {
		for (size_t i = 0; i < src->n; i++)
			spill_one(dst, &src->v[i]);
		if (src->spill)
			copy_spill(dst, src);
	}
	free(src->v);
	forget_spill(src);
	src->v = NULL;
	src->n = src->alloc = 0;
}

void diag_list_release(struct diag_list *dl)
{
	diag_list_truncate(dl, 0);
	forget_spill(dl);
	free(dl->v);
	diag_list_init(dl);
}

void diag_add(struct diag_list *dl, enum diag_level level, const char *file,
	      unsigned line, const char *fmt, ...)
{
	struct diag one, *d = &one;
	va_list ap;

	if (!spills(dl)) {
		ALLOC_GROW(dl->v, dl->n + 1, dl->alloc);
		d = &dl->v[dl->n++];
	}
	d->level = level;
	d->file = file ? xstrdup(file) : NULL;
	d->line = line;
	va_start(ap, fmt);
	d->msg = xstrvfmt(fmt, ap);
	va_end(ap);
	if (d == &one)
		spill_one(dl, d);
}

size_t diag_count(const struct diag_list *dl, enum diag_level level)
{
	size_t n = level == DIAG_ERROR ? dl->spilled_errors :
		   dl->spilled_notes;

	for (size_t i = 0; i < dl->n; i++)
		n += dl->v[i].level == level;
	return n;
}

void diag_print(const struct diag_list *dl, FILE *fp)
{
	char buf[65536];
	size_t got;

	for (size_t i = 0; i < dl->n; i++)
		print_one(&dl->v[i], fp);
	if (!dl->spill)
		return;
	fflush(dl->spill);
	rewind(dl->spill);
	while ((got = fread(buf, 1, sizeof(buf), dl->spill)))
		fwrite(buf, 1, got, fp);
}
