/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * CSV import: storan's own flat export read back, so that numbers no
 * parser knows (a table typed from a forum post) join a result set.
 *
 * Accepted, verbatim: the export header and rows under it, up to a blank
 * line or the end of the input (the block may sit anywhere in a post, and
 * may be quoted "> "):
 *
 *   source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels
 *   nvme.txt,12,fio,randread,iops,1/s,3,61200,850.2,60400,62100,bs=4096
 *   ,,,read,bw,B/s,1,524288000,,,,"host=old;kind=file"
 *
 * Fields: RFC 4180 (a quoted field may hold commas and "" quotes, not line
 * breaks).  source empty -> the input's name; line empty -> the CSV row's
 * own line; tool empty -> "csv"; unit one of B/s 1/s B s % and the one
 * storan stores the metric in; n a whole number >= 1.  n = 1: one value,
 * the mean (stddev empty, min and max empty or equal to it).  n > 1: a
 * summary of n runs with the sample stddev and min/max as printed.
 * labels "k=v;k=v" (a piece without '=' continues the previous value, so
 * a value holding ';' survives).  Errors name the row (1 = first row
 * under the header) and the column.
 *
 * Round trip: ingest -> export -> ingest -> export is byte-identical.  Two
 * rows of one key that an export kept apart (their line fields differ)
 * must not fold into one measurement again: the later one is kept as a
 * one-run summary, which exports the same.
 */
#include "parser.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/rs-csv.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum csv_col {
	COL_SOURCE, COL_LINE, COL_TOOL, COL_OP, COL_METRIC, COL_UNIT, COL_N,
	COL_MEAN, COL_STDDEV, COL_MIN, COL_MAX, COL_LABELS, NCOLS
};

static const char *const col_names[NCOLS] = {
	"source", "line", "tool", "op", "metric", "unit", "n", "mean",
	"stddev", "min", "max", "labels",
};

struct csv_row {
	char *f[NCOLS];
	size_t row;		/* 1-based under the header */
	size_t li;
};

/* Measurements this block emitted with an explicit line field. */
/*
 * The keys a block's rows with a line field emitted: each key once, with
 * the line of its first row and whether another row of it had another
 * line.  Found by measurement_key_hash(); keys that share a hash are
 * chained.  (The block's rows were compared each with every one before
 * it: 50,000 single-run rows took 23 s.)
 */
struct seen_key {
	size_t first;		/* its first measurement, into rs->m */
	unsigned line;
	int other_line;		/* a row of it on another line */
	uint32_t next;		/* 1 + the next key of this hash; 0: none */
};

struct csv_seen {
	struct hashmap64 by_hash;	/* hash -> 1 + first key's index */
	struct seen_key *keys;
	size_t n, alloc;
};

static void row_release(struct csv_row *r)
{
	for (int c = 0; c < NCOLS; c++) {
		free(r->f[c]);
		r->f[c] = NULL;
	}
}

static void row_error(struct parse_ctx *ctx, const struct csv_row *r,
		      int col, const char *fmt, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, fmt, what);
	parse_error(ctx, r->li, "csv row %zu, column '%s': %s", r->row,
		    col_names[col], strbuf_str(&sb));
	strbuf_release(&sb);
}

/* Splits one line into fields; -1 with *bad_col on a broken quote. */
static int split_row(const char *p, struct csv_row *r, int *nf, int *bad)
{
	int n = 0;

	for (;;) {
		struct strbuf sb = STRBUF_INIT;

		if (*p == '"') {
			for (p++;; p++) {
				if (!*p) {
					*bad = n;
					strbuf_release(&sb);
					return -1;
				}
				if (*p == '"' && p[1] == '"')
					strbuf_addch(&sb, *p++);
				else if (*p == '"')
					break;
				else
					strbuf_addch(&sb, *p);
			}
			p++;
			if (*p && *p != ',') {
				*bad = n;
				strbuf_release(&sb);
				return -1;
			}
		} else {
			while (*p && *p != ',')
				strbuf_addch(&sb, *p++);
		}
		if (n < NCOLS)
			r->f[n] = strbuf_detach(&sb);
		else
			strbuf_release(&sb);
		n++;
		if (!*p)
			break;
		p++;
	}
	*nf = n;
	return 0;
}

/* A number in a field, or NAN when the field is empty; -1 on garbage. */
static int field_number(const char *s, double *v)
{
	const char *p = s;

	if (!*s) {
		*v = NAN;
		return 0;
	}
	if (!strcmp(s, "nan") || !strcmp(s, "inf") || !strcmp(s, "-inf"))
		return -1;
	return scan_double(&p, SCAN_ALLOW_SIGN, v) || *p ? -1 : 0;
}

/*
 * "k=v;k=v" into labels, as the export writes them: a piece without '='
 * belongs to the value before it ("command=a;b" is one label, the ';'
 * the command's).  -1 when a piece has an empty key, -2 for more than
 * LABELS_INPUT_MAX labels.  One pass, labels set at once: a row of a
 * million labels is refused at once, not shifted into place.
 */
static int read_labels(const char *s, struct labels *l)
{
	char *copy = xstrdup(s), *p = copy, *value_end = NULL;
	struct label_ref *pairs = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;

	while (*p) {
		char *semi = strchr(p, ';');
		char *end = semi ? semi : p + strlen(p);
		char *eq = memchr(p, '=', (size_t)(end - p));

		if (eq == p || (!eq && !n)) {
			rc = -1;
			break;
		}
		if (eq) {	/* a new label: the value before ends here */
			if (n == LABELS_INPUT_MAX) {
				rc = -2;
				break;
			}
			if (value_end)
				*value_end = '\0';
			*eq = '\0';
			ALLOC_GROW(pairs, n + 1, alloc);
			pairs[n++] = (struct label_ref){ p, eq + 1 };
		}
		value_end = semi;
		p = semi ? semi + 1 : end;
	}
	if (!rc && labels_set_many(l, pairs, n))
		BUG("%zu labels did not fit", n);
	free(pairs);
	free(copy);
	return rc;
}

struct csv_numbers {
	uint64_t n, line;
	double mean, sd, min, max;
};

/* Checks the fields of a row; 0 when they make a measurement. */
static int check_row(struct parse_ctx *ctx, const struct csv_row *r,
		     struct csv_numbers *x)
{
	static const int needed[] = { COL_OP, COL_METRIC, COL_UNIT };
	const char *known, *p;
	double *num[] = { &x->mean, &x->sd, &x->min, &x->max };

	for (size_t i = 0; i < 3; i++)
		if (!*r->f[needed[i]])
			return row_error(ctx, r, needed[i], "%sempty", ""), -1;
	if (!unit_is_base(r->f[COL_UNIT]))
		return row_error(ctx, r, COL_UNIT, "'%s' is not a base unit "
				 "(B/s, 1/s, B, s, %%)", r->f[COL_UNIT]), -1;
	known = metric_unit(r->f[COL_METRIC]);
	if (known && strcmp(known, r->f[COL_UNIT]))
		return row_error(ctx, r, COL_UNIT, "this metric is stored in "
				 "%s", known), -1;
	p = r->f[COL_LINE];
	x->line = 0;
	if (*p && (scan_u64(&p, &x->line) || *p || x->line > UINT32_MAX))
		return row_error(ctx, r, COL_LINE, "expected a line number, "
				 "not '%s'", r->f[COL_LINE]), -1;
	p = r->f[COL_N];
	if (scan_u64(&p, &x->n) || *p || !x->n)
		return row_error(ctx, r, COL_N, "expected a whole number >= 1,"
				 " not '%s'", r->f[COL_N]), -1;
	for (int c = COL_MEAN; c <= COL_MAX; c++)
		if (field_number(r->f[c], num[c - COL_MEAN]))
			return row_error(ctx, r, c, "expected a number, not "
					 "'%s'", r->f[c]), -1;
	if (isnan(x->mean))
		return row_error(ctx, r, COL_MEAN, "%sempty", ""), -1;
	/* a rate, a count of bytes or a time is never negative (the
	 * result-set reader refuses it too: it would not read back) */
	if (strcmp(r->f[COL_UNIT], "%") && (x->mean < 0 || x->min < 0))
		return row_error(ctx, r, x->mean < 0 ? COL_MEAN : COL_MIN,
				 "%snegative figure of a B/s, 1/s, B or s "
				 "metric", ""), -1;
	if (x->n == 1 && !isnan(x->sd))
		return row_error(ctx, r, COL_STDDEV, "%sgiven for a single run "
				 "(n = 1)", ""), -1;
	if (x->sd < 0)
		return row_error(ctx, r, COL_STDDEV, "%snegative", ""), -1;
	if (x->min > x->mean || (x->n == 1 && x->min < x->mean))
		return row_error(ctx, r, COL_MIN, "%s does not fit the mean",
				 r->f[COL_MIN]), -1;
	if (x->max < x->mean || (x->n == 1 && x->max > x->mean))
		return row_error(ctx, r, COL_MAX, "%s does not fit the mean",
				 r->f[COL_MAX]), -1;
	return 0;
}

/* The key of m among those seen, or NULL; *slot: its hash's chain. */
static struct seen_key *seen_find(const struct parse_ctx *ctx,
				  struct csv_seen *seen,
				  const struct measurement *m, uint32_t **slot)
{
	int created;
	uint32_t k;

	*slot = hashmap64_put(&seen->by_hash, measurement_key_hash(m), 0,
			      &created);
	for (k = **slot; k; k = seen->keys[k - 1].next)
		if (measurement_same_key(&ctx->rs->m[seen->keys[k - 1].first],
					 m))
			return &seen->keys[k - 1];
	return NULL;
}

/* Did this block already emit the key of m with another line field? */
static int kept_apart(struct parse_ctx *ctx, struct csv_seen *seen,
		      const struct measurement *m)
{
	uint32_t *slot;
	const struct seen_key *k = seen_find(ctx, seen, m, &slot);

	return k && (k->line != m->line || k->other_line);
}

/* m (the block's last measurement, with a line field) is seen. */
static void see(struct parse_ctx *ctx, struct csv_seen *seen,
		const struct measurement *m)
{
	uint32_t *slot;
	struct seen_key *k = seen_find(ctx, seen, m, &slot);

	if (k) {
		k->other_line |= k->line != m->line;
		return;
	}
	if (seen->n >= UINT32_MAX - 1)
		return;	/* (four billion keys: no more told apart) */
	ALLOC_GROW(seen->keys, seen->n + 1, seen->alloc);
	seen->keys[seen->n] = (struct seen_key){ ctx->rs->n - 1, m->line, 0,
						 *slot };
	*slot = (uint32_t)++seen->n;
}

static void seen_reset(struct csv_seen *seen)
{
	hashmap64_release(&seen->by_hash);
	hashmap64_init(&seen->by_hash);
	seen->n = 0;
}

static void emit_row(struct parse_ctx *ctx, const struct csv_row *r,
		     const struct csv_numbers *x, struct csv_seen *seen)
{
	struct measurement *m;
	const char *tool = *r->f[COL_TOOL] ? r->f[COL_TOOL] : "csv";
	const char *name = *r->f[COL_SOURCE] ? r->f[COL_SOURCE] : NULL;
	struct labels l;
	int rc;

	labels_init(&l);
	rc = read_labels(r->f[COL_LABELS], &l);
	if (rc) {
		if (rc == -2)
			parse_error(ctx, r->li, "csv row %zu, column "
				    "'labels': more than %d labels", r->row,
				    LABELS_INPUT_MAX);
		else
			row_error(ctx, r, COL_LABELS, "expected k=v;k=v, not "
				  "'%s'", r->f[COL_LABELS]);
		labels_release(&l);
		return;
	}
	m = parse_emit(ctx, r->li, tool, r->f[COL_OP], r->f[COL_METRIC],
		       r->f[COL_UNIT], x->mean);
	labels_release(&m->labels);
	m->labels = l;
	if (name)
		measurement_set_source(m, ctx->source, name, m->line);
	if (*r->f[COL_LINE])
		m->line = (unsigned)x->line;
	if (x->n > 1 || (*r->f[COL_LINE] && kept_apart(ctx, seen, m))) {
		/* parse_emit stored the mean as a value: a summary instead */
		struct summary *sm = measurement_add_summary(m);

		m->n = 0;
		sm->n = (double)x->n;
		sm->mean = x->mean;
		sm->stddev = x->sd;
		sm->min = x->n > 1 ? x->min : x->mean;
		sm->max = x->n > 1 ? x->max : x->mean;
	}
	if (*r->f[COL_LINE])
		see(ctx, seen, m);
}

static void read_row(struct parse_ctx *ctx, size_t li, size_t row,
		     struct csv_seen *seen)
{
	struct csv_row r;
	struct csv_numbers x;
	int nf = 0, bad = 0;

	memset(&r, 0, sizeof(r));
	r.row = row;
	r.li = li;
	parse_claim(ctx, li);
	if (split_row(ctx->in->lines[li].text, &r, &nf, &bad)) {
		row_error(ctx, &r, bad < NCOLS ? bad : NCOLS - 1,
			  "%sunterminated or misplaced quote", "");
	} else if (nf != NCOLS) {
		parse_error(ctx, li, "csv row %zu has %d columns, the header "
			    "%d", row, nf, NCOLS);
	} else if (!check_row(ctx, &r, &x)) {
		emit_row(ctx, &r, &x, seen);
	}
	row_release(&r);
}

static int csv_detect(const struct input *in)
{
	/* (the length first: a long log's windows are each asked) */
	for (size_t i = 0; i < in->nlines; i++)
		if (in->lines[i].len == sizeof(RS_CSV_HEADER) - 1 &&
		    !memcmp(in->lines[i].text, RS_CSV_HEADER,
			    sizeof(RS_CSV_HEADER) - 1))
			return 90;
	return 0;
}

static int csv_parse(struct parse_ctx *ctx)
{
	struct csv_seen seen = { .keys = NULL };
	size_t before = ctx->rs->n;

	hashmap64_init(&seen.by_hash);
	for (size_t i = 0; i < ctx->in->nlines; i++) {
		size_t row = 0;

		if (strcmp(ctx->in->lines[i].text, RS_CSV_HEADER))
			continue;
		parse_claim(ctx, i);
		seen_reset(&seen);
		while (i + 1 < ctx->in->nlines &&
		       *ctx->in->lines[i + 1].text &&
		       strcmp(ctx->in->lines[i + 1].text, RS_CSV_HEADER))
			read_row(ctx, ++i, ++row, &seen);
	}
	hashmap64_release(&seen.by_hash);
	free(seen.keys);
	return (int)(ctx->rs->n - before);
}

const struct parser parser_csv = {
	.name = "csv",
	.reads = "storan's CSV export, read back (figures typed by hand)",
	.detect = csv_detect,
	.parse = csv_parse,
};
