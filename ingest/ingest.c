/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The ingest of one input: every parser in turn over its lines, then the
 * context pass (sections, commands, cache drops; context.h), then
 * repeated runs folded together (fold.h), then the user's labels.
 *
 * A long log is read window by window (core/input.h), when every parser
 * that finds its output there can read so (struct parse_stream): the
 * parsers, the context pass and the fold each go on from where they
 * stopped in the window before, and the window lets go of the lines
 * that all of them are done with.  Its measurements are folded as soon
 * as the context pass has read their lines, so that a log of a million
 * runs of a few tests holds a few rows, their values and a window of
 * lines, not a million measurements and all of its lines.  The result is
 * the one a read of the whole text gives, byte for byte; where that is
 * not sure (a parser found in a later window only, one that cannot read
 * by windows, Markdown fences, quoted-printable), the input is cut whole
 * and read again.
 *
 * Windows and parsers: each parser reads up to a line of its own in a
 * window, the first one furthest, each next one PARSER_STAGGER lines
 * short of the one before, so that a parser never sees a line its
 * successors claimed (it never does in a whole read, where they run
 * after it) and sees every claim its predecessors make there.  The
 * context pass reads up to where no parser claims any more.
 */
#include "ingest.h"
#include "context.h"
#include "fold.h"
#include "../core/cpus.h"
#include "../core/keymap.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../parsers/parser.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The keys of a --name-pattern ({host}.{test}.txt) that m got, into given:
 * they are the user's, as --label ones are. */
static void name_pattern_keys(const char *pattern, const struct labels *m,
			      struct labels *given)
{
	for (const char *p = strchr(pattern, '{'); p; p = strchr(p, '{')) {
		const char *end = strchr(++p, '}');
		char *key;
		const char *v;

		if (!end)
			break;
		key = xstrndup(p, (size_t)(end - p));
		v = labels_get(m, key);
		if (v && !labels_get(given, key))
			labels_set(given, key, v);
		free(key);
		p = end + 1;
	}
}

static void apply_labels(struct parse_ctx *ctx,
			 const struct ingest_options *opt)
{
	struct labels *given = &ctx->rs->sources[ctx->source].labels;
	const char *unmatched = NULL;

	for (size_t j = 0; opt && j < opt->labels.n; j++)
		labels_set(given, opt->labels.v[j].key, opt->labels.v[j].value);

	for (size_t i = ctx->base; i < ctx->rs->n; i++) {
		struct measurement *m = &ctx->rs->m[i];

		if (opt && opt->name_pattern &&
		    name_pattern_apply(opt->name_pattern, m->source_name,
				       &m->labels) &&
		    (!unmatched || strcmp(unmatched, m->source_name))) {
			unmatched = m->source_name;
			diag_add(ctx->diags, DIAG_NOTE, m->source_name, 0,
				 "name does not match --name-pattern '%s'",
				 opt->name_pattern);
		}
		for (size_t j = 0; opt && j < opt->labels.n; j++)
			labels_set(&m->labels, opt->labels.v[j].key,
				   opt->labels.v[j].value);
		if (opt && opt->name_pattern)
			name_pattern_keys(opt->name_pattern, &m->labels,
					  given);
	}
}

static void list_parser_names(const struct parser *const *list,
			      struct strbuf *sb)
{
	for (size_t i = 0; list[i]; i++) {
		if (i)
			strbuf_adds(sb, ", ");
		strbuf_adds(sb, list[i]->name);
	}
}

int ingest_may_read_whole(const struct input *in)
{
	for (size_t i = 0; parsers[i]; i++)
		if (parsers[i]->whole_start && parsers[i]->whole_start(in))
			return 1;
	return 0;
}

int ingest_input(struct input *in, const struct ingest_options *opt,
		 struct result_set *rs, struct diag_list *diags)
{
	return ingest_input_with(in, parsers, opt, rs, diags);
}

/*
 * Is the input one that gives nothing, binary or empty?  Then it is said
 * (an error; a note for the empty logs fio writes: a slat log for psync,
 * its default engine on Linux, a hist log without log_hist_msec) and
 * *failed tells whether it counts as a failed input.
 */
static int refused(const struct input *in, struct diag_list *diags,
		   int *failed)
{
	const char *why;

	if (in->binary) {
		diag_add(diags, DIAG_ERROR, in->name, 1,
			 "binary data, not text output of a benchmark");
		*failed = 1;
		return 1;
	}
	if (in->size)
		return 0;
	why = fio_log_empty_why(in->name);
	diag_add(diags, why ? DIAG_NOTE : DIAG_ERROR, in->name, 1, "%s",
		 why ? why : "empty file, no benchmark output found");
	*failed = !why;
	return 1;
}

/* ---- the parsers, the context pass and the fold of one input ---------- */

/* Raw bytes a window adds (to a line's end). */
#define WINDOW_BYTES ((size_t)1 << 20)
/* The parts a window is cut in (input_plan_window()), so that both
 * threads cut when they are done with their share of the one before: 4
 * let the one done first take 3 of them when the other is far behind. */
#define WINDOW_PARTS 4
/* How far short of the parser before it each parser stops in a window:
 * past the lines its predecessor may claim yet, and those it looks at. */
#define PARSER_STAGGER (PARSE_BEHIND + 2 * PARSE_AHEAD)

/* One parser that reads the input. */
struct reader {
	const struct parser *p;
	unsigned rank;		/* its place in the list */
	void *state;		/* by windows: its state between them */
	size_t next;		/* by windows: the line it reads next */
	size_t seq;		/* its measurements so far */
	/* by windows, all but the first: its messages, held to the end (a
	 * whole read has each parser's after those of the one before) */
	struct diag_list held;
	int said;		/* it emitted a measurement or a message */
	/*
	 * By windows, each parser reads in a context of its own, the first
	 * on a thread of its own beside the others (parse_ctx_fork()):
	 * what it emitted waits in out, and the lines it claimed are
	 * counted down from FORK_UNCLAIMED, until merge_reader().
	 */
	struct parse_ctx fork;
	struct result_set out;
	int forked;
	const struct parse_ctx *parent;	/* the input's context */
	size_t thread_to;	/* the line its thread reads to */
};

#define FORK_UNCLAIMED ((size_t)1 << 62)

/* Of measurement rs->m[ctx->base + k] while it is not folded. */
struct pending {
	unsigned rank;
	size_t seq;
};

struct ingest {
	struct input *in;	/* ctx's, which windows change */
	struct parse_ctx *ctx;
	const struct parser *const *list;
	struct reader *r;
	size_t nr;
	struct context_pass *cp;	/* NULL: an input read whole, uncut */
	int label;		/* the pass labels: some line is not output */
	struct fold fold;
	struct pending *pend;
	size_t pend_alloc;
	/* and its values after the first, when it took several
	 * (parse_emit_labelled()), or NULL */
	struct value_places **places;
	size_t places_alloc;
	unsigned char *measured;	/* per line: context.h's line flags */
	size_t measured_alloc;
	/* By windows: the next one, cut in parts beside the readers of
	 * this one; whether a window needs a whole read (needs_whole(), a
	 * parser found there first), looked at while the first parser
	 * reads it. */
	struct input part[WINDOW_PARTS];
	unsigned part_marks[WINDOW_PARTS];	/* raw_marks() of each */
	unsigned window_marks;			/* of the window held */
	size_t nparts;
	size_t raw_dropped;	/* input_drop_through() */
	atomic_uint parts_taken;	/* by the threads done with their share */
	int window_whole;
	size_t window_bytes;
	/*
	 * By windows: the first parser's thread, the same from window to
	 * window, told to read one (go) and waited for (done).  A thread
	 * started for each window also took a malloc arena of its own now
	 * and then, where the main thread had freed the last window's
	 * measurements into another: bench/ingest-text's log 0.50 -> 0.45
	 * s (MALLOC_ARENA_MAX=2 had shown it).
	 */
	pthread_t worker;
	sem_t go, done;
	int worker_started, worker_quit;
};

static void ingest_init(struct ingest *g, struct input *in,
			struct parse_ctx *ctx, const struct parser *const *list)
{
	size_t n = 0;

	memset(g, 0, sizeof(*g));
	g->in = in;
	g->ctx = ctx;
	g->list = list;
	g->label = 1;
	while (list[n])
		n++;
	/* (never moved: a forked context points into its reader) */
	g->r = xcalloc(n + 1, sizeof(*g->r));
	fold_init(&g->fold, ctx->rs, ctx->base, ctx->in->uncut);
	if (ctx->spill_values)
		fold_allow_spill(&g->fold);
}

static void stop_worker(struct ingest *g);

static void ingest_release(struct ingest *g)
{
	stop_worker(g);
	/* (the places of measurements not folded: a read by windows
	 * undone) */
	for (size_t k = g->fold.n; g->places &&
	     k < g->ctx->rs->n - g->ctx->base; k++)
		value_places_free(g->places[k]);
	free(g->places);
	for (size_t i = 0; i < g->nr; i++) {
		diag_list_release(&g->r[i].held);
		if (g->r[i].forked) {
			parse_ctx_fork_release(&g->r[i].fork);
			result_set_release(&g->r[i].out);
		}
	}
	free(g->r);
	context_end(g->cp);
	fold_release(&g->fold);
	free(g->pend);
	free(g->measured);
	for (size_t k = 0; k < WINDOW_PARTS; k++)
		input_stage_release(&g->part[k]);
}

static struct reader *add_reader(struct ingest *g, unsigned rank)
{
	struct reader *r = &g->r[g->nr++];

	r->p = g->list[rank];
	r->rank = rank;
	diag_list_init(&r->held);
	/* (held by windows only: a long log's, as long as the log's own) */
	r->held.spill_after = g->ctx->diags->spill_after;
	return r;
}

/* Room in measured[] for the lines held, the new ones unmarked.  An
 * uncut input read whole has no context pass to read it: none (a byte a
 * line was 160 MB for a fio log of 4.3 GB). */
static void grow_measured(struct ingest *g)
{
	size_t old = g->measured_alloc, need = g->ctx->in->nlines + 1;

	if (need <= old || g->ctx->in->uncut)
		return;
	ALLOC_GROW(g->measured, need, g->measured_alloc);
	memset(g->measured + old, 0, g->measured_alloc - old);
}

/* Line li holds a measurement's value, for the context pass. */
static void mark_measured(struct ingest *g, size_t li)
{
	if (li < g->ctx->in->nlines && g->measured)
		g->measured[li] |= LINE_MEASURED;
}

/*
 * The measurements r emitted since rs->n was `before`: whose they are,
 * in what order, on which lines; b: the numbers and places of their
 * values when they were bundled (the fork's, the set's first measurement
 * being rs->m[before]), else NULL.
 */
static void tag_new(struct ingest *g, struct reader *r, size_t before,
		    const struct emit_bundles *b)
{
	const struct parse_ctx *ctx = g->ctx;
	size_t n = ctx->rs->n - ctx->base;

	grow_measured(g);
	ALLOC_GROW(g->pend, n, g->pend_alloc);
	ALLOC_GROW(g->places, n, g->places_alloc);
	for (size_t i = before; i < ctx->rs->n; i++) {
		size_t k = i - ctx->base, li = ctx->first_index[k];
		struct value_places *vp = b ? b->places[i - before] : NULL;

		g->pend[k].rank = r->rank;
		g->pend[k].seq = b ? b->seq[i - before] : r->seq++;
		g->places[k] = vp;
		mark_measured(g, li);
		for (size_t j = 0; vp && j < vp->n; j++)
			mark_measured(g, vp->v[j].li);
	}
	if (ctx->rs->n > before)
		r->said = 1;
}

/* The lines a parser said lie inside its outputs (parse_inner_lines()),
 * marked for the context pass, which counts them no prose. */
static void take_inner(struct ingest *g, struct parse_ctx *from)
{
	grow_measured(g);
	for (size_t k = 0; g->measured && k < from->ninner; k++)
		for (size_t i = from->inner[k].from;
		     i < from->inner[k].to && i < g->ctx->in->nlines; i++)
			g->measured[i] |= LINE_INNER;
	from->ninner = 0;
}

/*
 * Around one call of a parser: its messages go where they belong (held,
 * by windows, for all but the first), and what it emitted is tagged.
 */
struct call {
	struct diag_list *own;
	size_t before_m, before_d;
};

static void call_begin(struct ingest *g, struct reader *r, struct call *c)
{
	c->own = g->ctx->diags;
	c->before_m = g->ctx->rs->n;
	if (r != g->r && g->ctx->in->windowed)
		g->ctx->diags = &r->held;
	c->before_d = diag_total(g->ctx->diags);
}

static void call_end(struct ingest *g, struct reader *r,
		     const struct call *c)
{
	if (diag_total(g->ctx->diags) > c->before_d)
		r->said = 1;
	g->ctx->diags = c->own;
	tag_new(g, r, c->before_m, NULL);
	take_inner(g, g->ctx);
}

/* A measurement held back by fold_ready(), or waiting there. */
struct held {
	struct measurement m;
	size_t li;
	struct pending pend;
	struct value_places *places;
};

/* Prose lines before li, as far as the pass read (0 without a pass). */
static size_t prose_before(const struct ingest *g, size_t li)
{
	return g->cp ? context_prose_before(g->cp, li) : 0;
}

static void place_at(const struct ingest *g, size_t li,
		     const struct pending *pend, struct fold_place *at)
{
	at->line = g->ctx->in->window_base + li;
	at->prose = prose_before(g, li);
	at->prose_next = prose_before(g, li + 1);
	at->rank = pend->rank;
	at->seq = pend->seq;
}

/* The measurement at li labelled by the context pass, into the fold. */
static size_t fold_labelled(struct ingest *g, struct measurement *m,
			    size_t li, const struct pending *pend)
{
	struct fold_place at;

	if (g->cp && g->label)
		context_label(g->cp, m, li);
	place_at(g, li, pend, &at);
	return fold_take(&g->fold, m, &at);
}

static void context_key_of(const struct ingest *g, size_t li,
			   struct context_key *k)
{
	if (g->cp && g->label)
		context_key_at(g->cp, li, k);
	else
		*k = (struct context_key){ 0, 0, 0 };
}

static int same_context(const struct context_key *a,
			const struct context_key *b)
{
	return a->section == b->section && a->command == b->command &&
	       a->cold == b->cold;
}

/* Values [j, n) of bundle b, as one measurement held back: the first
 * read at li, numbered seq. */
static void bundle_rest(const struct ingest *g, const struct measurement *b,
			const struct value_places *vp, size_t j, size_t li,
			struct pending pend, struct held *rest)
{
	size_t more = b->n - j - 1;

	measurement_init_like(&rest->m, b, b->values[j],
			      input_lineno(g->ctx->in, li));
	for (size_t t = j + 1; t < b->n; t++)
		measurement_add_value(&rest->m, b->values[t]);
	rest->li = li;
	rest->pend = pend;
	rest->places = NULL;
	if (more) {
		rest->places = xcalloc(1, sizeof(*rest->places));
		rest->places->v = xmalloc(more * sizeof(*rest->places->v));
		memcpy(rest->places->v, vp->v + j,
		       more * sizeof(*rest->places->v));
		rest->places->n = rest->places->alloc = more;
	}
}

/*
 * The values of bundle b (parse_emit_labelled()), each as the fold would
 * take a measurement of it alone, in turn: one whose line and context
 * are like the last one's joins that one's row when it may
 * (fold_join_value()), the others go through the whole labelling and
 * fold.  Those read from `limit` on are held back in *rest: 1 then.
 */
static int fold_bundle(struct ingest *g, struct measurement *b, size_t li0,
		       const struct pending *pend, struct value_places *vp,
		       size_t limit, struct held *rest)
{
	size_t row = SIZE_MAX;
	struct context_key last = { 0, 0, 0 };
	int held = 0;

	for (size_t j = 0; j < b->n; j++) {
		struct pending at_pend = { pend->rank,
					   j ? vp->v[j - 1].seq : pend->seq };
		size_t li = j ? vp->v[j - 1].li : li0;
		struct context_key key;
		struct fold_place at;
		struct measurement one;

		if (li >= limit) {
			bundle_rest(g, b, vp, j, li, at_pend, rest);
			held = 1;
			break;
		}
		context_key_of(g, li, &key);
		place_at(g, li, &at_pend, &at);
		if (row != SIZE_MAX && same_context(&key, &last) &&
		    !fold_join_value(&g->fold, row, b->values[j], &at))
			continue;
		measurement_init_like(&one, b, b->values[j],
				      input_lineno(g->ctx->in, li));
		row = fold_labelled(g, &one, li, &at_pend);
		last = key;
	}
	measurement_release(b);
	value_places_free(vp);
	return held;
}

static void hold(struct held **held, size_t *n, size_t *alloc,
		 const struct held *h)
{
	ALLOC_GROW(*held, *n + 1, *alloc);
	(*held)[(*n)++] = *h;
}

/* The pending measurements, from rs->m[first] on, moved out of the
 * array (a bundle may become several rows, which go there). */
static struct held *take_pending(struct ingest *g, size_t first, size_t *n)
{
	struct parse_ctx *ctx = g->ctx;
	struct held *p;

	*n = ctx->rs->n - first;
	p = xmalloc((*n ? *n : 1) * sizeof(*p));
	for (size_t i = first; i < ctx->rs->n; i++) {
		size_t k = i - ctx->base;

		p[i - first] = (struct held){ ctx->rs->m[i],
					      ctx->first_index[k], g->pend[k],
					      g->places[k] };
		g->places[k] = NULL;
	}
	ctx->rs->n = first;
	return p;
}

static int any_bundle(const struct ingest *g, size_t first)
{
	for (size_t i = first; i < g->ctx->rs->n; i++)
		if (g->places[i - g->ctx->base])
			return 1;
	return 0;
}

/* The held measurements back behind the rows. */
static void put_back(struct ingest *g, struct held *held, size_t nheld)
{
	struct parse_ctx *ctx = g->ctx;
	size_t w = ctx->base + g->fold.n, need = g->fold.n + nheld;

	result_set_grow(ctx->rs, w + nheld);
	ALLOC_GROW(ctx->first_index, need, ctx->first_alloc);
	ALLOC_GROW(g->pend, need, g->pend_alloc);
	ALLOC_GROW(g->places, need, g->places_alloc);
	for (size_t h = 0; h < nheld; h++, w++) {
		ctx->rs->m[w] = held[h].m;
		ctx->first_index[w - ctx->base] = held[h].li;
		g->pend[w - ctx->base] = held[h].pend;
		g->places[w - ctx->base] = held[h].places;
	}
	ctx->rs->n = w;
}

/*
 * Labels and folds the measurements read from lines below `limit`, each
 * parser's in its order: one read further down holds back the rest of
 * its parser's (a whole read folds each parser's in turn).  The others
 * wait behind the rows.  Without bundles each measurement becomes a row
 * at most, in place; with them, the pending ones are moved out first.
 *
 * A bundle with values read from `limit` on holds back only those: the
 * parser's later bundles still fold theirs read before it.  Each bundle
 * is a key of its own (no two share a row: parser.h), so the order of
 * the bundles' values among each other changes no row; and any other
 * measurement of the parser closed the bundles open before it, so it was
 * read after all their values, from `limit` on, and waits by its own
 * line.  (Blocked there, all but the first bundle of a window waited for
 * the next one, and held a second window of lines: 4 MB moved at each.)
 */
static void fold_ready(struct ingest *g, size_t limit)
{
	struct parse_ctx *ctx = g->ctx;
	struct result_set *rs = ctx->rs;
	size_t first = ctx->base + g->fold.n, nheld = 0, held_alloc = 0;
	size_t npend = 0;
	struct held *held = NULL, *pending = NULL;
	unsigned char *blocked = xcalloc(g->nr + 1, 1);

	if (any_bundle(g, first))
		pending = take_pending(g, first, &npend);
	else
		npend = rs->n - first;
	for (size_t j = 0; j < npend; j++) {
		size_t k = first + j - ctx->base;
		struct held cur = pending ? pending[j] :
			(struct held){ rs->m[first + j], ctx->first_index[k],
				       g->pend[k], NULL };
		struct measurement *m = pending ? &pending[j].m :
					&rs->m[first + j];
		unsigned slot = 0;
		struct held rest;

		while (slot < g->nr && g->r[slot].rank != cur.pend.rank)
			slot++;
		if (cur.li >= limit || blocked[slot]) {
			blocked[slot] = 1;
			hold(&held, &nheld, &held_alloc, &cur);
		} else if (!cur.places) {
			fold_labelled(g, m, cur.li, &cur.pend);
		} else if (fold_bundle(g, m, cur.li, &cur.pend, cur.places,
				       limit, &rest)) {
			hold(&held, &nheld, &held_alloc, &rest);
		}
	}
	put_back(g, held, nheld);
	free(held);
	free(pending);
	free(blocked);
}

/* Every parser of the list in turn, on the input's lines. */
static void parse_whole(struct ingest *g)
{
	struct parse_ctx *ctx = g->ctx;
	const struct input *in = ctx->in;

	for (size_t i = 0; i < in->nlines; i++)
		ctx->unclaimed += in->lines[i].len != 0;
	for (unsigned i = 0; g->list[i]; i++) {
		struct reader *r;
		struct call c;

		/* Once every line is some parser's output, no other parser
		 * can find anything: a 4 MB fio JSON+ file skips the rest. */
		if (!ctx->unclaimed)
			break;
		if (!g->list[i]->detect(in))
			continue;
		r = add_reader(g, i);
		call_begin(g, r, &c);
		r->p->parse(ctx);
		call_end(g, r, &c);
	}
}

/*
 * An uncut input that one parser reads whole (see input.h): all of its
 * lines are that output, no other parser is asked.  0 when none did.
 */
static int read_whole(struct ingest *g)
{
	struct parse_ctx *ctx = g->ctx;

	for (unsigned i = 0; g->list[i]; i++) {
		struct reader *r;
		struct call c;
		int got;

		if (!g->list[i]->parse_whole)
			continue;
		r = add_reader(g, i);
		call_begin(g, r, &c);
		got = r->p->parse_whole(ctx);
		call_end(g, r, &c);
		if (got < 0) {	/* (it emitted and said nothing) */
			g->nr--;
			continue;
		}
		/* every line is that output: unclaimed 0 says it, and no
		 * one reads claimed[] then (the context pass is not run,
		 * the fold knows an uncut input has no prose); left
		 * untouched, a log of 40 million lines does not touch 40 MB
		 * of it */
		ctx->unclaimed = 0;
		return 1;
	}
	return 0;
}

/* The context pass and the fold of an input whose parsers are done. */
static void fold_whole(struct ingest *g)
{
	struct parse_ctx *ctx = g->ctx;

	parse_ctx_finish(ctx);
	grow_measured(g);
	/* an uncut input read whole is all output: no heading, command nor
	 * cache drop (and no line table to go through) */
	if (!ctx->in->uncut) {
		g->cp = context_begin(ctx, 1);
		context_scan(g->cp, ctx->in->nlines, g->measured);
	}
	g->label = ctx->unclaimed != 0;
	fold_ready(g, SIZE_MAX);
	fold_finish(&g->fold);
}

/* The names of the parsers that said something, as the source's format
 * ("dd,time"). */
static void list_formats(const struct ingest *g, struct strbuf *formats)
{
	for (size_t i = 0; i < g->nr; i++)
		if (g->r[i].said)
			strbuf_addf(formats, "%s%s", formats->len ? "," : "",
				    g->r[i].p->name);
}

/* ---- by windows ------------------------------------------------------ */

/* The window size; STORAN_TEST_WINDOW (bytes) makes it small, so that
 * the tests read their small inputs by windows too. */
static size_t window_bytes(void)
{
	const char *e = getenv("STORAN_TEST_WINDOW");
	char *end;
	unsigned long long v;

	if (!e || !*e)
		return WINDOW_BYTES;
	v = strtoull(e, &end, 10);
	return *end || !v ? WINDOW_BYTES : (size_t)v;
}

int ingest_read_by_windows(size_t size)
{
	return size > 2 * window_bytes();
}

/*
 * What a window's raw text holds that changes how it is read, asked of
 * each part of it by the thread that cut it, beside the other thread's
 * work (a word lies in one line, and the raw copies of the parts hold
 * every line of the window's): RAW_WHOLE, what a whole read must see --
 * quoted-printable (decoded whole), Markdown fences (they change what a
 * heading is); RAW_DROP, a cache drop named (no quoted-printable spells
 * one: the context pass looks for none in the lines of a window
 * without).
 */
enum { RAW_WHOLE = 1, RAW_DROP = 2 };

static unsigned raw_marks(const char *raw)
{
	static const char *const whole[] = { "=3D", "```", "~~~", NULL };
	static const char *const drop[] = { "drop", "flushbufs", "umount",
					    NULL };
	unsigned marks = 0;

	for (size_t k = 0; whole[k] && !marks; k++)
		if (strstr(raw, whole[k]))
			marks |= RAW_WHOLE;
	for (size_t k = 0; drop[k]; k++)
		if (strstr(raw, drop[k]))
			return marks | RAW_DROP;
	return marks;
}

static int needs_whole(const struct ingest *g)
{
	return (g->window_marks & RAW_WHOLE) || g->in->too_many_lines;
}

/* The lines from `from` on came from raw text that names no cache drop? */
static void mark_no_drop(struct ingest *g, size_t from)
{
	grow_measured(g);
	if (g->window_marks & RAW_DROP)
		return;
	for (size_t i = from; i < g->in->nlines; i++)
		g->measured[i] |= LINE_NO_DROP;
}

/* detect() of the lines from `from` on and the raw bytes cut last. */
static int detect_window(const struct parser *p, const struct input *in,
			 size_t from)
{
	struct input view;

	/* (not a copy of *in: its hash and binary test are still being
	 * written on another thread; a binary text is read whole after) */
	memset(&view, 0, sizeof(view));
	view.path = in->path;
	view.name = in->name;
	view.names = in->names;
	view.names_len = in->names_len;
	view.data = in->raw_copy;
	view.size = in->raw_next - in->raw_from;
	view.nul_after = 1;	/* (raw_copy: the next line, then a NUL) */
	view.lines = in->lines + from;
	view.nlines = in->nlines - from;
	view.origin = in->origin ? in->origin + from : NULL;
	view.indent = in->indent ? in->indent + from : NULL;
	return p->detect(&view);
}

/* r reads in a context of its own (see struct reader). */
static void fork_reader(struct ingest *g, struct reader *r)
{
	result_set_init(&r->out);
	parse_ctx_fork(&r->fork, g->ctx, &r->out,
		       r == g->r ? g->ctx->diags : &r->held);
	r->fork.unclaimed = FORK_UNCLAIMED;
	parse_bundle_values(&r->fork);
	r->forked = 1;
	r->parent = g->ctx;
	r->state = r->p->stream->begin(&r->fork);
}

/* r reads on to line `to` (its stream's end, with to SIZE_MAX).  Safe
 * on a thread of its own: it touches r and the lines it claims. */
static void reader_lines(struct reader *r, size_t to)
{
	const struct parse_ctx *parent = r->parent;
	size_t before_d = diag_total(r->fork.diags);

	r->fork.claimed = parent->claimed;
	r->fork.claimed_alloc = parent->claimed_alloc;
	if (to == SIZE_MAX) {
		r->p->stream->end(&r->fork, r->state);
		r->state = NULL;
	} else if (r->next < to) {
		r->p->stream->lines(&r->fork, r->state, &r->next, to);
	}
	if (diag_total(r->fork.diags) > before_d)
		r->said = 1;
}

static int find_readers(struct ingest *g, const struct input *in,
			size_t from, int first);

/*
 * The next window's parts cut (only reading the input held), unless
 * this one is the last, by whichever threads are done with their share
 * of this one: the first parser's (dd's lines are the most work of most
 * logs) and the main thread (the other parsers, the context pass and
 * the fold), each taking the next part until none is left.
 */
static void cut_next_window(struct ingest *g)
{
	unsigned k;

	while ((k = atomic_fetch_add(&g->parts_taken, 1)) < g->nparts) {
		struct input *part = &g->part[k];

		input_cut_part(part);
		g->part_marks[k] = raw_marks(part->raw_copy);
	}
}

/* The first parser's share of a window: its lines, then the parts of the
 * next one the main thread has not taken yet. */
static void first_reader_job(struct ingest *g)
{
	reader_lines(&g->r[0], g->r[0].thread_to);
	cut_next_window(g);
}

static void wait_for(sem_t *s)
{
	while (sem_wait(s) && errno == EINTR)
		;
}

/* The first parser's thread: a window's share each time it is told. */
static void *worker_loop(void *arg)
{
	struct ingest *g = arg;

	for (;;) {
		wait_for(&g->go);
		if (g->worker_quit)
			return NULL;
		first_reader_job(g);
		sem_post(&g->done);
	}
}

/* Starts the first parser's share of a window on its thread (started at
 * the first window); 0 when there is none: a single CPU, or none to be
 * had. */
static int start_first_reader(struct ingest *g)
{
	if (storan_cpus() < 2)
		return 0;
	if (!g->worker_started) {
		if (sem_init(&g->go, 0, 0))
			return 0;
		if (sem_init(&g->done, 0, 0)) {
			sem_destroy(&g->go);
			return 0;
		}
		g->worker_quit = 0;
		if (pthread_create(&g->worker, NULL, worker_loop, g)) {
			sem_destroy(&g->go);
			sem_destroy(&g->done);
			return 0;
		}
		g->worker_started = 1;
	}
	sem_post(&g->go);
	return 1;
}

static void stop_worker(struct ingest *g)
{
	if (!g->worker_started)
		return;
	g->worker_quit = 1;
	sem_post(&g->go);
	pthread_join(g->worker, NULL);
	sem_destroy(&g->go);
	sem_destroy(&g->done);
	g->worker_started = 0;
}

/*
 * Does the window whose lines start at `from` need a whole read?  Asked
 * on the main thread while the first parser reads the window (it only
 * reads the lines and the readers' ranks): asked beside the cut of the
 * next window, on the first parser's thread, it made that thread the
 * longer one.  What the window gives meanwhile is undone with the rest
 * when the answer is yes.
 */
static void look_at_window(struct ingest *g, size_t from)
{
	if (from != SIZE_MAX && !g->window_whole)
		g->window_whole = needs_whole(g) ||
				  find_readers(g, g->in, from, 0);
}

/* What r emitted and claimed since the last merge, into the input's. */
static void merge_reader(struct ingest *g, struct reader *r)
{
	struct parse_ctx *ctx = g->ctx;
	struct result_set *rs = ctx->rs;
	size_t n = r->out.n, before = rs->n, k = rs->n - ctx->base;

	result_set_grow(rs, rs->n + n);
	ALLOC_GROW(ctx->first_index, k + n, ctx->first_alloc);
	if (n) {
		memcpy(rs->m + rs->n, r->out.m, n * sizeof(*rs->m));
		memcpy(ctx->first_index + k, r->fork.first_index,
		       n * sizeof(*ctx->first_index));
	}
	rs->n += n;
	r->out.n = 0;
	ctx->unclaimed -= FORK_UNCLAIMED - r->fork.unclaimed;
	r->fork.unclaimed = FORK_UNCLAIMED;
	if (!ctx->tool_version)
		ctx->tool_version = r->fork.tool_version;
	tag_new(g, r, before, r->fork.bundles);
	parse_bundles_taken(&r->fork, n);
	take_inner(g, &r->fork);
}

/*
 * The parsers whose output the new lines (from `from` on) hold: in the
 * first window they become the readers, which must all read by windows;
 * in a later one they must be among them, each having read the text
 * from its start as in a whole read.  0, or -1: read it whole.
 */
static int find_readers(struct ingest *g, const struct input *in,
			size_t from, int first)
{
	size_t k = 0;

	for (unsigned i = 0; g->list[i]; i++) {
		int reads = k < g->nr && g->r[k].rank == i;

		if (reads) {
			k++;
			continue;
		}
		if (!detect_window(g->list[i], in, from))
			continue;
		if (!first || !g->list[i]->stream)
			return -1;
		fork_reader(g, add_reader(g, i));
		k++;
	}
	return 0;
}

/* The last non-blank line below `below`, or 0. */
static size_t last_nonblank(const struct input *in, size_t below)
{
	while (below > 0 && !in->lines[below - 1].len)
		below--;
	return below ? below - 1 : 0;
}

static size_t minus(size_t a, size_t b)
{
	return a > b ? a - b : 0;
}

/*
 * The line the window keeps from: what the context pass looks at above
 * the lines it reads next, what each parser still refers to, the lines
 * of the measurements not folded yet.
 */
static size_t keep_from(const struct ingest *g, size_t scanned)
{
	const struct parse_ctx *ctx = g->ctx;
	size_t keep = minus(scanned, CONTEXT_BEHIND);

	for (size_t i = 0; i < g->nr; i++) {
		size_t k = g->r[i].p->stream->keep(g->r[i].state,
						   g->r[i].next);

		keep = k < keep ? k : keep;
	}
	for (size_t i = ctx->base + g->fold.n; i < ctx->rs->n; i++)
		if (ctx->first_index[i - ctx->base] < keep)
			keep = ctx->first_index[i - ctx->base];
	return keep;
}

/* The window lets go of its first n lines. */
static void forget_lines(struct ingest *g, size_t n)
{
	struct parse_ctx *ctx = g->ctx;
	size_t held = ctx->in->nlines - n;

	context_forget(g->cp, n);	/* first: it keeps texts of them */
	input_forget_lines(g->in, n);
	parse_ctx_forget(ctx, n);
	for (size_t i = 0; i < g->nr; i++) {
		g->r[i].p->stream->rebase(g->r[i].state, n);
		g->r[i].next -= n;
	}
	for (size_t i = ctx->base + g->fold.n; i < ctx->rs->n; i++) {
		struct value_places *vp = g->places[i - ctx->base];

		ctx->first_index[i - ctx->base] -= n;
		for (size_t j = 0; vp && j < vp->n; j++)
			vp->v[j].li -= n;
	}
	memmove(g->measured, g->measured + n, held);
	memset(g->measured + held, 0, n);
}

/*
 * Each parser reads on to its line of the window, the first on a thread
 * of its own where a CPU is spare; meanwhile the main thread looks at
 * the window's new lines (look_at_window()), and the others read up to
 * where the first had read before (and PARSER_STAGGER short of each
 * other), so that no line one claims is a line another reads.  Then the
 * lines below which none claims any more are labelled and folded, still
 * beside the first, and the next window is cut in parts by both threads
 * as they are done (cut_next_window()).  `from`: the window's first new
 * line (SIZE_MAX: the first window, looked at by parse_windows()).  At
 * the end of the text, all read to the end in turn.
 */
static void read_window(struct ingest *g, int at_end, size_t from)
{
	const struct input *in = g->ctx->in;
	struct reader *first = &g->r[0];
	size_t behind = first->next, to, upto;
	int threaded;

	if (at_end) {
		look_at_window(g, from);
		for (size_t i = 0; i < g->nr; i++) {
			reader_lines(&g->r[i], in->nlines);
			merge_reader(g, &g->r[i]);
		}
		context_scan(g->cp, in->nlines, g->measured);
		fold_ready(g, in->nlines);
		return;
	}
	to = last_nonblank(in, minus(in->nlines, PARSE_AHEAD));
	first->thread_to = to;
	g->nparts = input_plan_window(in, g->window_bytes, g->part,
				      WINDOW_PARTS);
	atomic_store(&g->parts_taken, 0);
	threaded = start_first_reader(g);
	if (!threaded)
		first_reader_job(g);
	look_at_window(g, from);
	to = to < behind ? to : behind;
	for (size_t i = 1; i < g->nr; i++) {
		to = minus(to, PARSER_STAGGER);
		reader_lines(&g->r[i], to);
		merge_reader(g, &g->r[i]);
	}
	upto = last_nonblank(in, minus(to, PARSER_STAGGER + PARSE_BEHIND +
					   CONTEXT_AHEAD));
	context_scan(g->cp, upto, g->measured);
	fold_ready(g, upto);
	cut_next_window(g);	/* (the parts the first's thread left) */
	if (threaded)
		wait_for(&g->done);
	merge_reader(g, first);
	forget_lines(g, keep_from(g, upto));
}

/* The parsers' ends, and the rest of the input folded. */
static void end_windows(struct ingest *g)
{
	struct parse_ctx *ctx = g->ctx;

	for (size_t i = 0; i < g->nr; i++) {
		reader_lines(&g->r[i], SIZE_MAX);
		merge_reader(g, &g->r[i]);
	}
	context_scan(g->cp, ctx->in->nlines, g->measured);
	fold_ready(g, SIZE_MAX);
	fold_finish(&g->fold);
	for (size_t i = 1; i < g->nr; i++)
		diag_list_take(ctx->diags, &g->r[i].held);
}

/*
 * Reads a windowed input window by window (see the top comment).
 * Returns 0, or -1 when it must be read whole after all (what it made
 * is then the caller's to undo).
 */
static int parse_windows(struct ingest *g)
{
	struct parse_ctx *ctx = g->ctx;
	struct input *in = g->in;
	size_t from = SIZE_MAX;	/* the first window was looked at here */

	ctx->no_label_sharing = 1;
	g->window_bytes = window_bytes();
	input_cut_window(in, g->window_bytes);
	g->window_marks = raw_marks(in->raw_copy);
	parse_ctx_window_grew(ctx, 0);
	/* (a front matter is the first lines of a Markdown post; a text
	 * with no output in its first window is no log) */
	if (needs_whole(g) || find_readers(g, in, 0, 1) || !g->nr ||
	    !strcmp(in->lines[0].text, "---"))
		return -1;
	g->cp = context_begin(ctx, 0);
	mark_no_drop(g, 0);
	input_drop_through(in, &g->raw_dropped, in->raw_next);
	for (;;) {
		int at_end = in->raw_next >= in->size;

		grow_measured(g);
		read_window(g, at_end, from);	/* (and cuts the next one) */
		if (g->window_whole)
			return -1;
		if (at_end)
			break;
		from = in->nlines;
		g->window_marks = 0;
		for (size_t k = 0; k < g->nparts; k++) {
			input_stage_adopt(in, &g->part[k]);
			g->window_marks |= g->part_marks[k];
		}
		/* (its raw bytes were copied: none is read again) */
		input_drop_through(in, &g->raw_dropped, in->raw_next);
		parse_ctx_window_grew(ctx, from);
		mark_no_drop(g, from);
	}
	end_windows(g);
	input_sha256(in);	/* (waits for the binary test) */
	if (in->binary)
		return -1;	/* a whole read refuses it, and says so */
	if (!ctx->unclaimed && context_labelled_cache(g->cp))
		return -1;	/* a whole read labels none then */
	return 0;
}

/* ---- one input ------------------------------------------------------- */

static void ctx_setup(struct parse_ctx *ctx, struct input *in,
		      const struct ingest_options *opt, struct result_set *rs,
		      struct diag_list *diags)
{
	parse_ctx_init(ctx, in, rs, diags);
	ctx->command_text = context_command_text;
	ctx->drop_histograms = opt && opt->drop_histograms;
	ctx->spill_values = opt && opt->spill_values;
	if (opt) {
		ctx->fio_version = opt->fio_version;
		ctx->fio_version_from = opt->fio_version_from;
		ctx->fio_assume_noted = opt->fio_assume_noted;
	}
}

/* A windowed input read by windows; failing that, cut whole (its
 * measurements, messages and source undone). */
static int try_windows(struct ingest *g, struct parse_ctx *ctx,
		       struct input *in, const struct ingest_options *opt,
		       struct diag_list *diags)
{
	struct result_set *rs = ctx->rs;
	size_t before_d = diag_total(diags);

	if (!parse_windows(g))
		return 1;
	for (size_t i = 0; i < g->nr; i++)
		if (g->r[i].state)
			reader_lines(&g->r[i], SIZE_MAX);
	ingest_release(g);
	result_set_truncate(rs, ctx->base, ctx->source);
	diag_list_truncate(diags, before_d);
	parse_ctx_release(ctx);
	input_cut_whole(in);
	ctx_setup(ctx, in, opt, rs, diags);
	ingest_init(g, in, ctx, g->list);
	return 0;
}

int ingest_input_with(struct input *in, const struct parser *const *list,
		      const struct ingest_options *opt, struct result_set *rs,
		      struct diag_list *diags)
{
	struct parse_ctx ctx;
	struct ingest g;
	struct strbuf formats = STRBUF_INIT, names = STRBUF_INIT;
	size_t errors_before = diag_count(diags, DIAG_ERROR);
	size_t notes_before = diag_count(diags, DIAG_NOTE);
	int failed = 0, whole = 0, windows = 0;

	ctx_setup(&ctx, in, opt, rs, diags);
	ingest_init(&g, in, &ctx, list);
	if (in->windowed)
		windows = try_windows(&g, &ctx, in, opt, diags);
	else if (in->uncut)
		whole = read_whole(&g);
	if (!whole && in->uncut) {
		input_cut_lines(in);
		parse_ctx_recut(&ctx);
		ingest_release(&g);
		ingest_init(&g, in, &ctx, list);
	}
	if (!windows && !whole && in->too_many_lines && !in->binary) {
		diag_add(diags, DIAG_ERROR, in->name, 0, "more than %u lines; "
			 "storan takes no more from one input: split it",
			 INPUT_LINES_MAX);
		ingest_release(&g);
		parse_ctx_release(&ctx);
		strbuf_release(&formats);
		return 1;
	}
	/* after the parse: an uncut input's hash is made meanwhile */
	memcpy(rs->sources[ctx.source].sha256, input_sha256(in),
	       sizeof(rs->sources[ctx.source].sha256));
	if (!windows && refused(in, diags, &failed)) {
		ingest_release(&g);
		parse_ctx_release(&ctx);
		strbuf_release(&formats);
		return failed;
	}
	if (whole) {
		/* every line is that output: unclaimed 0 says it */
		fold_whole(&g);
	} else if (!windows) {
		parse_whole(&g);
		fold_whole(&g);
	}
	list_formats(&g, &formats);
	apply_labels(&ctx, opt);
	rs->sources[ctx.source].format = strbuf_detach(&formats);
	if (ctx.tool_version)
		rs->sources[ctx.source].tool_version =
			xstrdup(ctx.tool_version);
	if (rs->n == ctx.base) {
		if (diag_count(diags, DIAG_ERROR) > errors_before) {
			/* the errors already say why */
		} else if (diag_count(diags, DIAG_NOTE) > notes_before) {
			diag_add(diags, DIAG_ERROR, in->name, 1,
				 "no result in this input (see the notes)");
		} else {
			list_parser_names(list, &names);
			diag_add(diags, DIAG_ERROR, in->name, 1,
				 "no benchmark output found (looked for %s)",
				 strbuf_str(&names));
		}
		failed = 1;
	}
	if (diag_count(diags, DIAG_ERROR) > errors_before)
		failed = 1;
	strbuf_release(&names);
	ingest_release(&g);
	parse_ctx_release(&ctx);
	return failed;
}

/* Matches name against pattern from the given positions; see parser.h. */
static int match_pattern(const char *pat, const char *name,
			 struct labels *out)
{
	const char *close;
	char *key;

	if (*pat != '{') {
		if (!*pat)
			return !*name;
		return *pat == *name && match_pattern(pat + 1, name + 1, out);
	}
	close = strchr(pat, '}');
	if (!close)
		return 0;
	key = xstrndup(pat + 1, (size_t)(close - pat - 1));
	/* Shortest non-empty capture that lets the rest match. */
	for (size_t len = 1; name[len - 1]; len++) {
		struct labels trial;

		labels_copy(&trial, out);
		if (match_pattern(close + 1, name + len, &trial)) {
			if (strcmp(key, "_")) {
				char *v = xstrndup(name, len);

				labels_set(&trial, key, v);
				free(v);
			}
			labels_release(out);
			*out = trial;
			free(key);
			return 1;
		}
		labels_release(&trial);
	}
	free(key);
	return 0;
}

int name_pattern_apply(const char *pattern, const char *name,
		       struct labels *labels)
{
	struct labels trial;

	labels_copy(&trial, labels);
	if (!match_pattern(pattern, name, &trial)) {
		labels_release(&trial);
		return -1;
	}
	labels_release(labels);
	*labels = trial;
	return 0;
}
