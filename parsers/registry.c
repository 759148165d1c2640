/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The parser table and the helpers parsers emit through (parse_emit,
 * claims, diagnostics, the pasted-copy check).  The ingest of an input
 * (detect, parse, context, fold) is ingest/ingest.c's.
 */
#include "parser.h"
#include "../core/cpus.h"
#include "../core/keymap.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern const struct parser parser_hdparm, parser_dd, parser_time;
extern const struct parser parser_fio_text, parser_fio_json,
	parser_fio_terse, parser_fio_log;
extern const struct parser parser_iozone, parser_blockdev_perftest;
extern const struct parser parser_csv;

const struct parser *const parsers[] = {
	&parser_hdparm,
	&parser_fio_json,
	&parser_fio_text,
	&parser_fio_terse,
	&parser_fio_log,
	&parser_dd,
	&parser_time,
	&parser_iozone,
	&parser_blockdev_perftest,
	&parser_csv,
	NULL,
};

const struct parser *parser_for_tool(const char *tool)
{
	for (size_t i = 0; tool && parsers[i]; i++)
		if (parsers[i]->tool && !strcmp(parsers[i]->tool, tool))
			return parsers[i];
	return NULL;
}

size_t parser_programs(const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; parsers[i]; i++)
		for (const char *const *p = parsers[i]->programs; p && *p; p++) {
			size_t k = 0;

			while (k < n && strcmp(out[k], *p))
				k++;
			if (k == n && n < max)
				out[n++] = *p;
		}
	return n;
}

int parser_output_after_command(const char *head)
{
	struct shell_cmd sc;

	for (size_t i = 0; parsers[i]; i++) {
		if (!parsers[i]->output_after_command)
			continue;
		for (const char *const *p = parsers[i]->programs; p && *p; p++)
			if (shell_find(head, *p, &sc, 1))
				return 1;
	}
	return 0;
}

void parsers_describe(struct strbuf *out)
{
	for (size_t i = 0; parsers[i]; i++)
		strbuf_addf(out, "  %-20s%s\n", parsers[i]->name,
			    parsers[i]->reads);
}

static const char *line_source_name(const struct parse_ctx *ctx, size_t li)
{
	const char *origin = input_origin_at(ctx->in, li);

	return origin ? origin : ctx->in->name;
}

/*
 * Makes measurement i share the label set of an earlier measurement of
 * the input with the same labels.  A log of 200,000 dd runs of one
 * command held 200,000 copies of the same six labels: 600 MB.  Sets are
 * copy-on-write, so a parser that changes labels later only gets its own
 * copy back.
 */
static void share_labels(struct parse_ctx *ctx, size_t i)
{
	struct measurement *m = &ctx->rs->m[i];
	struct strbuf *key = &ctx->label_key;
	size_t *slot;
	int created;

	/* fio gives all of a job's measurements one set already (a set
	 * freed and another made at its address is only not shared) */
	if (!m->labels.n || m->labels.v == ctx->last_shared)
		return;
	if (!ctx->label_sets) {
		ctx->label_sets = xmalloc(sizeof(*ctx->label_sets));
		keymap_init(ctx->label_sets);
	}
	strbuf_reset(key);	/* one buffer for all: no malloc a measurement */
	labels_add_keyparts(&m->labels, key);
	slot = keymap_put(ctx->label_sets, key->buf, i, &created);
	if (!created && *slot != i) {
		if (*slot < ctx->rs->n &&
		    labels_equal(&ctx->rs->m[*slot].labels, &m->labels)) {
			labels_release(&m->labels);
			labels_copy(&m->labels, &ctx->rs->m[*slot].labels);
		} else {
			*slot = i;	/* that one changed since, or is gone */
		}
	}
	ctx->last_shared = m->labels.v;
}

/* Room for measurement k's number and places. */
static void bundles_grow(struct emit_bundles *b, size_t k)
{
	size_t alloc = b->alloc;

	if (k < alloc)
		return;
	alloc = alloc ? 2 * alloc : 64;
	if (alloc <= k)
		alloc = k + 1;
	b->seq = xrealloc(b->seq, alloc * sizeof(*b->seq));
	b->places = xrealloc(b->places, alloc * sizeof(*b->places));
	memset(b->places + b->alloc, 0,
	       (alloc - b->alloc) * sizeof(*b->places));
	b->alloc = alloc;
}

/* A new measurement of one value (no bundle closed nor opened). */
static struct measurement *emit_new(struct parse_ctx *ctx, size_t li,
				    const char *tool, const char *op,
				    const char *metric, const char *unit,
				    double value)
{
	struct measurement *m;
	size_t k;

	/* the previous measurement has its labels by now */
	if (ctx->rs->n > ctx->base && !ctx->no_label_sharing)
		share_labels(ctx, ctx->rs->n - 1);
	m = result_set_add_from(ctx->rs, tool, op, metric, unit, ctx->source,
				line_source_name(ctx, li),
				input_lineno(ctx->in, li));
	measurement_add_value(m, value);
	k = ctx->rs->n - 1 - ctx->base;
	ALLOC_GROW(ctx->first_index, k + 1, ctx->first_alloc);
	ctx->first_index[k] = li;
	if (ctx->bundles) {
		bundles_grow(ctx->bundles, k);
		ctx->bundles->seq[k] = ctx->bundles->emitted++;
		ctx->bundles->places[k] = NULL;
	}
	return m;
}

struct measurement *parse_emit(struct parse_ctx *ctx, size_t li,
			       const char *tool, const char *op,
			       const char *metric, const char *unit,
			       double value)
{
	/* its labels are not known yet: no bundle may pass it */
	if (ctx->bundles)
		ctx->bundles->gen++;
	return emit_new(ctx, li, tool, op, metric, unit, value);
}

/* May values of labels l be bundled (see struct emit_bundles)?  A loop
 * asks of the same few sets: the last one's answer is kept. */
static int bundles_labels(struct emit_bundles *b, const struct labels *l)
{
	if (l->v && l->v == b->checked.v)
		return b->checked_ok;
	labels_release(&b->checked);
	labels_copy(&b->checked, l);
	b->checked_ok = labels_get(l, "command") &&
			!labels_get(l, "section") && !labels_get(l, "cache");
	return b->checked_ok;
}

/* Has m the key of a measurement of tool..unit labelled l (its source
 * being the input's, as every bundle's)? */
static int same_template(const struct measurement *m, const char *tool,
			 const char *op, const char *metric, const char *unit,
			 const struct labels *l)
{
	return !strcmp(m->metric, metric) && !strcmp(m->tool, tool) &&
	       !strcmp(m->op, op) && !strcmp(m->unit, unit) &&
	       (m->labels.v == l->v || labels_equal(&m->labels, l));
}

static void add_place(struct emit_bundles *b, size_t k, size_t li)
{
	struct value_places *vp = b->places[k];

	if (!vp)
		vp = b->places[k] = xcalloc(1, sizeof(*vp));
	ALLOC_GROW(vp->v, vp->n + 1, vp->alloc);
	vp->v[vp->n++] = (struct value_place){ li, b->emitted++ };
}

/* The slot of a key: from its text, so that keys alike share one (a
 * bundle per key, whichever copy of its strings or labels). */
static unsigned bundle_slot(const char *op, const char *metric,
			    const struct labels *l)
{
	uint64_t h = labels_hash(l);

	h = hash64(h, metric, strlen(metric));
	h = hash64(h, op, strlen(op));
	return (unsigned)(h % BUNDLES_OPEN);
}

void parse_emit_labelled(struct parse_ctx *ctx, size_t li, const char *tool,
			 const char *op, const char *metric, const char *unit,
			 double value, const struct labels *l)
{
	struct emit_bundles *b = ctx->bundles;
	struct measurement *m;
	unsigned s;

	if (!b || input_origin_at(ctx->in, li) || !bundles_labels(b, l)) {
		m = parse_emit(ctx, li, tool, op, metric, unit, value);
		labels_copy(&m->labels, l);
		return;
	}
	s = bundle_slot(op, metric, l);
	if (b->open[s].gen == b->gen) {
		size_t k = b->open[s].k;

		m = &ctx->rs->m[ctx->base + k];
		/* (the pointers as given, and the set the bundle holds: a
		 * loop's values, no strcmp) */
		if ((b->open[s].metric == metric && b->open[s].tool == tool &&
		     b->open[s].op == op && b->open[s].unit == unit &&
		     m->labels.v == l->v) ||
		    same_template(m, tool, op, metric, unit, l)) {
			measurement_add_value(m, value);
			add_place(b, k, li);
			return;
		}
	}
	/* a new bundle; another key's in the slot closes */
	m = emit_new(ctx, li, tool, op, metric, unit, value);
	labels_copy(&m->labels, l);
	b->open[s].k = ctx->rs->n - 1 - ctx->base;
	b->open[s].gen = b->gen;
	b->open[s].tool = tool;
	b->open[s].op = op;
	b->open[s].metric = metric;
	b->open[s].unit = unit;
}

void parse_bundle_values(struct parse_ctx *ctx)
{
	if (!ctx->bundles) {
		ctx->bundles = xcalloc(1, sizeof(*ctx->bundles));
		ctx->bundles->gen = 1;	/* (the slots' 0: none open) */
	}
}

void parse_bundles_taken(struct parse_ctx *ctx, size_t n)
{
	struct emit_bundles *b = ctx->bundles;

	if (!b)
		return;
	if (b->places)
		memset(b->places, 0, (n < b->alloc ? n : b->alloc) *
					     sizeof(*b->places));
	b->gen++;
}

void value_places_free(struct value_places *vp)
{
	if (vp) {
		free(vp->v);
		free(vp);
	}
}

static void bundles_release(struct parse_ctx *ctx)
{
	struct emit_bundles *b = ctx->bundles;

	if (!b)
		return;
	for (size_t k = 0; k < b->alloc; k++)
		value_places_free(b->places[k]);
	free(b->places);
	free(b->seq);
	labels_release(&b->checked);
	free(b);
	ctx->bundles = NULL;
}

void parse_inner_lines(struct parse_ctx *ctx, size_t from, size_t to)
{
	if (from >= to)
		return;
	ALLOC_GROW(ctx->inner, ctx->ninner + 1, ctx->inner_alloc);
	ctx->inner[ctx->ninner++] = (struct line_span){ from, to };
}

void parse_claim(struct parse_ctx *ctx, size_t li)
{
	parse_claim_range(ctx, li, li + 1);
}

void parse_claim_range(struct parse_ctx *ctx, size_t from, size_t to)
{
	const struct input_line *l = ctx->in->lines;
	size_t taken = 0;

	if (to > ctx->in->nlines)
		to = ctx->in->nlines;
	for (size_t i = from; i < to; i++) {
		taken += !ctx->claimed[i] && (ctx->in->uncut || l[i].len);
		ctx->claimed[i] = 1;
	}
	ctx->unclaimed -= taken;
}

int parse_command_lines(struct parse_ctx *ctx, size_t *li,
			int (*read)(void *state, const char *text,
				    size_t li),
			void *state)
{
	size_t last = *li;
	char *text;
	int found;

	if (!line_continues(&ctx->in->lines[*li])) {
		found = read(state, ctx->in->lines[*li].text, *li);
		if (found)
			parse_claim(ctx, *li);
		return found;
	}
	text = input_joined_command(ctx->in, *li, &last);
	found = read(state, text, *li);
	free(text);
	if (found) {
		parse_claim_range(ctx, *li, last + 1);
		*li = last;
	}
	return found;
}

static void vdiag(struct parse_ctx *ctx, enum diag_level level, size_t li,
		  const char *fmt, va_list ap)
{
	char *msg = xstrvfmt(fmt, ap);
	unsigned line = li < ctx->in->nlines ? input_lineno(ctx->in, li) : 0;
	const char *file = li < ctx->in->nlines ? line_source_name(ctx, li) :
			   ctx->in->name;

	diag_add(ctx->diags, level, file, line, "%s", msg);
	free(msg);
}

void parse_error(struct parse_ctx *ctx, size_t li, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(ctx, DIAG_ERROR, li, fmt, ap);
	va_end(ap);
}

void parse_note(struct parse_ctx *ctx, size_t li, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(ctx, DIAG_NOTE, li, fmt, ap);
	va_end(ap);
}

/*
 * Outputs remembered for parse_seen(): at least the last SEEN_GENERATION
 * keys, at most twice as many (3 MB a map, two maps); a copy further
 * from its original than that is taken for a run, and memory stays
 * bounded whatever the log's length.
 */
#define SEEN_GENERATION (192u << 10)

/* The value remembered for key (fresh the first time: *created). */
static uint32_t seen_put(struct parse_ctx *ctx, uint64_t key, uint32_t fresh,
			 int *created)
{
	if (!ctx->seen) {
		ctx->seen = xmalloc(sizeof(*ctx->seen));
		recent64_init(ctx->seen, SEEN_GENERATION);
	}
	return *recent64_put(ctx->seen, key, fresh, created);
}

/* Is set {key=value}?  (An empty slot has no label.) */
static int is_one_label(const struct labels *set, const char *key,
			const char *value)
{
	return set->n == 1 && !strcmp(set->v[0].value, value) &&
	       !strcmp(set->v[0].key, key);
}

void parse_label_one(struct parse_ctx *ctx, struct labels *l,
		     const char *key, const char *value)
{
	struct labels *set;

	if (l->n)
		BUG("parse_label_one() of a measurement with labels");
	if (!ctx->one_labels)
		ctx->one_labels = xcalloc(ONE_LABELS, sizeof(*ctx->one_labels));
	/* the one given last first (a real's user and sys), then the
	 * others; no hash: two commands differ early */
	set = &ctx->one_labels[ctx->one_labels_last];
	for (unsigned k = 0; !is_one_label(set, key, value); k++) {
		if (k == ONE_LABELS) {	/* none: the oldest slot's turn */
			ctx->one_labels_last = ctx->one_labels_next++ %
					       ONE_LABELS;
			set = &ctx->one_labels[ctx->one_labels_last];
			labels_release(set);
			labels_init(set);
			labels_set(set, key, value);
			break;
		}
		set = &ctx->one_labels[k];
		ctx->one_labels_last = k;
	}
	labels_copy(l, set);
}

/* The tables a context keeps for its parsers (a fork's are its own). */
static void release_memos(struct parse_ctx *ctx)
{
	if (ctx->seen) {
		recent64_release(ctx->seen);
		free(ctx->seen);
	}
	if (ctx->label_sets) {
		keymap_release(ctx->label_sets);
		free(ctx->label_sets);
	}
	for (size_t k = 0; ctx->one_labels && k < ONE_LABELS; k++)
		labels_release(&ctx->one_labels[k]);
	free(ctx->one_labels);
	strbuf_release(&ctx->label_key);
}

int parse_seen(struct parse_ctx *ctx, const char *key, size_t li,
	       size_t *orig)
{
	int created;

	/* (a line index: the input's lines are cut whole, fewer than 2^32) */
	*orig = seen_put(ctx, hash64(HASH64_INIT, key, strlen(key)),
			 (uint32_t)li, &created);
	return !created;
}

int parse_prose_between(const struct parse_ctx *ctx, size_t a, size_t b)
{
	if (ctx->in->uncut)	/* read whole: every line is output */
		return 0;
	for (size_t i = a + 1; i < b && i < ctx->in->nlines; i++)
		if (!ctx->claimed[i] && !line_is_empty_at(ctx->in, i) &&
		    !line_counts_run(ctx->in->lines[i].text) &&
		    !line_echoed_above(ctx->in, i))
			return 1;
	return 0;
}

/* Three or more of one of '-', '=' and nothing else. */
static int is_rule_text(const char *t)
{
	size_t n = 0;

	while ((*t == '-' || *t == '=') && t[n] == t[0])
		n++;
	return n >= 3 && !t[n];
}

int parse_heading_line(const struct parse_ctx *ctx, size_t li)
{
	const struct input_line *l = &ctx->in->lines[li], *above;
	const char *t = l->text;
	size_t marks = 0;

	if (ctx->in->uncut)	/* read whole: every line is output */
		return 0;
	while (t[marks] == '#')
		marks++;
	if (marks >= 2 && marks <= 6 && (t[marks] == ' ' || t[marks] == '\t'))
		return 1;
	if (!li || !is_rule_text(t))
		return 0;
	above = &ctx->in->lines[li - 1];
	return !line_is_empty_at(ctx->in, li - 1) && !ctx->claimed[li - 1] &&
	       line_after_prompt_at(ctx->in, li - 1) == above->text &&
	       !is_rule_text(above->text);
}

void parse_ctx_init(struct parse_ctx *ctx, const struct input *in,
		    struct result_set *rs, struct diag_list *diags)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->in = in;
	ctx->rs = rs;
	ctx->diags = diags;
	ctx->base = rs->n;
	ctx->source = result_set_add_source(rs, in->path, NULL);
	ctx->claimed_alloc = in->nlines + 1;
	ctx->claimed = xcalloc(ctx->claimed_alloc, 1);
}

void parse_ctx_recut(struct parse_ctx *ctx)
{
	free(ctx->claimed);
	ctx->claimed_alloc = ctx->in->nlines + 1;
	ctx->claimed = xcalloc(ctx->claimed_alloc, 1);
}

void parse_ctx_window_grew(struct parse_ctx *ctx, size_t before)
{
	const struct input *in = ctx->in;
	size_t old = ctx->claimed_alloc;

	if (in->nlines + 1 > old) {
		ALLOC_GROW(ctx->claimed, in->nlines + 1, ctx->claimed_alloc);
		memset(ctx->claimed + old, 0, ctx->claimed_alloc - old);
	}
	for (size_t i = before; i < in->nlines; i++)
		ctx->unclaimed += in->lines[i].len != 0;
}

void parse_ctx_forget(struct parse_ctx *ctx, size_t n)
{
	size_t keep = ctx->in->nlines;	/* (the input forgot them first) */

	memmove(ctx->claimed, ctx->claimed + n, keep);
	memset(ctx->claimed + keep, 0, n);
}

int parse_by_lines(struct parse_ctx *ctx, const struct parse_stream *ops)
{
	size_t before = ctx->rs->n, li = 0;
	void *state = ops->begin(ctx);

	ops->lines(ctx, state, &li, ctx->in->nlines);
	ops->end(ctx, state);
	return (int)(ctx->rs->n - before);
}

/* ---- a parse on two threads --------------------------------------------- */

struct parse_half {
	struct parse_ctx ctx;
	struct result_set rs;
	struct diag_list diags;
	size_t from, to;
	size_t unclaimed_at_fork;	/* its ctx's count when it began */
	void (*emit)(struct parse_ctx *c, size_t from, size_t to, void *arg);
	void *arg;
};

static void *emit_half(void *p)
{
	struct parse_half *h = p;

	h->emit(&h->ctx, h->from, h->to, h->arg);
	return NULL;
}

void parse_ctx_fork(struct parse_ctx *child, const struct parse_ctx *parent,
		    struct result_set *rs, struct diag_list *diags)
{
	*child = *parent;
	child->rs = rs;
	child->diags = diags;
	child->first_index = NULL;
	child->first_alloc = 0;
	child->inner = NULL;
	child->ninner = child->inner_alloc = 0;
	child->bundles = NULL;
	child->base = rs->n;
	child->seen = NULL;
	child->label_sets = NULL;
	child->one_labels = NULL;
	child->last_shared = NULL;
	strbuf_init(&child->label_key);
}

void parse_ctx_fork_release(struct parse_ctx *child)
{
	free(child->first_index);
	free(child->inner);
	bundles_release(child);
	release_memos(child);
	memset(child, 0, sizeof(*child));
}

/* The parent's input and settings; a result set, messages and memo
 * tables of its own. */
static void fork_half(const struct parse_ctx *parent, struct parse_half *h)
{
	result_set_init(&h->rs);
	diag_list_init(&h->diags);
	parse_ctx_fork(&h->ctx, parent, &h->rs, &h->diags);
	h->unclaimed_at_fork = parent->unclaimed;
}

/* Moves what the half made behind what ctx made, and frees the half's
 * own tables (their indices are the half's result set's). */
static void parse_ctx_join(struct parse_ctx *ctx, struct parse_half *h)
{
	size_t n = h->rs.n, k = ctx->rs->n - ctx->base;

	result_set_grow(ctx->rs, ctx->rs->n + n);
	ALLOC_GROW(ctx->first_index, k + n, ctx->first_alloc);
	if (n) {
		memcpy(ctx->rs->m + ctx->rs->n, h->rs.m, n * sizeof(*h->rs.m));
		memcpy(ctx->first_index + k, h->ctx.first_index,
		       n * sizeof(*h->ctx.first_index));
	}
	ctx->rs->n += n;
	for (size_t i = 0; i < h->ctx.ninner; i++)
		parse_inner_lines(ctx, h->ctx.inner[i].from,
				  h->ctx.inner[i].to);
	/* the lines the half claimed (claimed[] is shared) */
	ctx->unclaimed -= h->unclaimed_at_fork - h->ctx.unclaimed;
	if (!ctx->tool_version)
		ctx->tool_version = h->ctx.tool_version;
	diag_list_take(ctx->diags, &h->diags);
	free(h->rs.m);
	parse_ctx_fork_release(&h->ctx);
}

void parse_in_two(struct parse_ctx *ctx, size_t n,
		  void (*emit)(struct parse_ctx *c, size_t from, size_t to,
			       void *arg),
		  void *arg)
{
	struct parse_half *h = xcalloc(1, sizeof(*h));
	pthread_t tid;

	fork_half(ctx, h);
	h->from = n / 2;
	h->to = n;
	h->emit = emit;
	h->arg = arg;
	if (storan_cpus() < 2 || pthread_create(&tid, NULL, emit_half, h)) {
		emit(ctx, 0, n, arg);	/* no second thread: all here */
	} else {
		emit(ctx, 0, h->from, arg);
		pthread_join(tid, NULL);
	}
	parse_ctx_join(ctx, h);
	free(h);
}

void parse_ctx_finish(struct parse_ctx *ctx)
{
	/* the last one had no successor */
	if (ctx->rs->n > ctx->base && !ctx->no_label_sharing)
		share_labels(ctx, ctx->rs->n - 1);
}

void parse_ctx_release(struct parse_ctx *ctx)
{
	free(ctx->claimed);
	free(ctx->first_index);
	free(ctx->inner);
	bundles_release(ctx);
	release_memos(ctx);
	memset(ctx, 0, sizeof(*ctx));
}
