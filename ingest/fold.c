/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Folding repeated runs as they are read; see fold.h. */
#include "fold.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/resultset.h"
#include "../core/valspill.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct fold_row {
	uint64_t hash;		/* of its key */
	size_t first;		/* the text line of its first value */
	unsigned rank;
	size_t seq;
	size_t last;		/* the text line of its latest value */
	size_t prose_after;	/* prose lines before the line after last */
	int latest;		/* the latest row of its key: in the map */
};

void fold_init(struct fold *f, struct result_set *rs, size_t base,
	       int all_output)
{
	memset(f, 0, sizeof(*f));
	f->rs = rs;
	f->base = base;
	f->all_output = all_output;
}

void fold_allow_spill(struct fold *f)
{
	const char *test = getenv("STORAN_TEST_SPILL");
	uint64_t n;

	f->may_spill = 1;
	f->spill_at = FOLD_VALUES_HELD;
	f->spill_min = FOLD_SPILL_MIN;
	if (test && !scan_u64(&test, &n) && !*test) {
		f->spill_at = (size_t)n;
		f->spill_min = 1;
	}
}

void fold_release(struct fold *f)
{
	free(f->row);
	free(f->slot);
	value_file_unref(f->spill);	/* the rows keep theirs */
	memset(f, 0, sizeof(*f));
}

/*
 * The rows hold more values than FOLD_VALUES_HELD: those with many move
 * them to the temporary file.  One that cannot be made or written keeps
 * them all in memory, as without spilling (no value is lost).
 */
static void spill_rows(struct fold *f)
{
	if (!f->spill && !(f->spill = value_file_new())) {
		f->may_spill = 0;
		return;
	}
	for (size_t r = 0; r < f->n; r++) {
		struct measurement *m = &f->rs->m[f->base + r];
		size_t n = m->n;

		if (!n || n < f->spill_min || m->hist.n || m->series)
			continue;
		if (measurement_spill(m, f->spill)) {
			f->may_spill = 0;
			return;
		}
		f->held -= n;
	}
	/* what stayed (rows of few values) waits until it has doubled:
	 * a million rows of 15 values are not gone through at each run */
	if (f->held > f->spill_at / 2)
		f->spill_at = 2 * f->held;
}

/* n more values held in the rows. */
static void count_held(struct fold *f, size_t n)
{
	f->held += n;
	if (f->may_spill && f->held > f->spill_at)
		spill_rows(f);
}

static int foldable(const struct measurement *m)
{
	return m->n >= 1 && !measurement_summary(m)->present && !m->hist.n &&
	       !m->hist_dropped && !m->series;
}

static void place_slot(struct fold *f, size_t r)
{
	size_t h = (size_t)f->row[r].hash & (f->nslots - 1);

	while (f->slot[h])
		h = (h + 1) & (f->nslots - 1);
	f->slot[h] = r + 1;
}

/* Room for one more key, below half full (probes stay short). */
static void grow_slots(struct fold *f)
{
	if ((f->nkeyed + 1) * 2 <= f->nslots)
		return;
	f->nslots = f->nslots ? 2 * f->nslots : 16;
	free(f->slot);
	f->slot = xcalloc(f->nslots, sizeof(*f->slot));
	for (size_t r = 0; r < f->n; r++)
		if (f->row[r].latest)
			place_slot(f, r);
}

/*
 * Only blank lines, prompts and output between the row's latest value
 * and a measurement read at `at`?  (Neighbours need no count; an input
 * read whole is all output.)
 */
static int only_output_between(const struct fold *f, const struct fold_row *r,
			       const struct fold_place *at)
{
	return f->all_output || at->line <= r->last + 1 ||
	       at->prose == r->prose_after;
}

/* m as a new row; the latest of its key when keyed. */
static void add_row(struct fold *f, struct measurement *m,
		    const struct fold_place *at, uint64_t hash, int keyed)
{
	struct measurement *dst;
	struct fold_row *r;

	/* (m in rs lies at base + n or after: no move of the array then) */
	result_set_grow(f->rs, f->base + f->n + 1);
	dst = &f->rs->m[f->base + f->n];
	if (dst != m)
		*dst = *m;
	ALLOC_GROW(f->row, f->n + 1, f->alloc);
	r = &f->row[f->n++];
	r->hash = hash;
	r->first = r->last = at->line;
	r->rank = at->rank;
	r->seq = at->seq;
	r->prose_after = at->prose_next;
	r->latest = keyed;
	f->nkeyed += keyed;
	count_held(f, dst->n);
}

size_t fold_take(struct fold *f, struct measurement *m,
		 const struct fold_place *at)
{
	uint64_t hash;
	size_t h;

	if (!foldable(m)) {
		add_row(f, m, at, 0, 0);
		return f->n - 1;
	}
	hash = measurement_key_hash(m);
	grow_slots(f);
	for (h = (size_t)hash & (f->nslots - 1); f->slot[h];
	     h = (h + 1) & (f->nslots - 1)) {
		size_t o = f->slot[h] - 1;
		struct fold_row *r = &f->row[o];
		struct measurement *prev = &f->rs->m[f->base + o];

		if (r->hash != hash || !measurement_same_key(prev, m))
			continue;
		if (only_output_between(f, r, at)) {
			for (size_t v = 0; v < m->n; v++)
				measurement_add_value(prev, m->values[v]);
			r->last = at->line;
			r->prose_after = at->prose_next;
			count_held(f, m->n);
			measurement_release(m);
			return o;
		}
		/* a new series of the key: later runs join that one */
		r->latest = 0;
		f->nkeyed--;
		add_row(f, m, at, hash, 1);
		f->slot[h] = f->n;
		return f->n - 1;
	}
	add_row(f, m, at, hash, 1);
	f->slot[h] = f->n;
	return f->n - 1;
}

int fold_join_value(struct fold *f, size_t row, double v,
		    const struct fold_place *at)
{
	struct fold_row *r = &f->row[row];

	if (!r->latest || !only_output_between(f, r, at))
		return -1;
	measurement_add_value(&f->rs->m[f->base + row], v);
	r->last = at->line;
	r->prose_after = at->prose_next;
	count_held(f, 1);
	return 0;
}

struct row_order {
	const struct fold_row *row;
	size_t index;
};

static int cmp_row_order(const void *a, const void *b)
{
	const struct fold_row *x = ((const struct row_order *)a)->row;
	const struct fold_row *y = ((const struct row_order *)b)->row;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void fold_finish(struct fold *f)
{
	struct row_order *order;
	struct measurement *copy;
	size_t in_order = 1;

	while (in_order < f->n && cmp_row_order(
		       &(struct row_order){ &f->row[in_order - 1], 0 },
		       &(struct row_order){ &f->row[in_order], 0 }) <= 0)
		in_order++;
	if (in_order >= f->n)
		return;		/* one parser, in file order: nothing to do */
	order = xcalloc(f->n, sizeof(*order));
	copy = xcalloc(f->n, sizeof(*copy));
	for (size_t k = 0; k < f->n; k++) {
		order[k].row = &f->row[k];
		order[k].index = k;
		copy[k] = f->rs->m[f->base + k];
	}
	qsort(order, f->n, sizeof(*order), cmp_row_order);
	for (size_t k = 0; k < f->n; k++)
		f->rs->m[f->base + k] = copy[order[k].index];
	free(order);
	free(copy);
}
