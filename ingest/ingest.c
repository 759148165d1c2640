/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The ingest of one input: every parser in turn over its lines, then the
 * context pass (sections, commands), then repeated runs folded together,
 * then the user's labels.
 *
 * Folding: a log that holds the same command's output three times is one
 * measurement with three values, not three unrelated ones.  Two outputs
 * fold when they have the same key (tool, op, metric, unit, source name,
 * labels) and nothing but blank lines, prompts and recognised output lies
 * between them: prose in between ("then on the other card:") keeps them
 * apart, because the author is telling us the conditions changed.
 */
#include "ingest.h"
#include "context.h"
#include "../core/keymap.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../parsers/parser.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * prose[i]: how many of lines 0..i-1 are neither blank, nor a prompt,
 * nor a run counter ("Run 2:"), nor claimed output -- counted once, so
 * that each question below is two lookups (a log of 1,000 jobs repeated
 * 8 times asked it 50,000 times, walking thousands of lines each time).
 */
static size_t *count_prose(const struct parse_ctx *ctx)
{
	size_t n = ctx->in->nlines, *prose = xmalloc((n + 1) * sizeof(*prose));

	prose[0] = 0;
	for (size_t i = 0; i < n; i++)
		prose[i + 1] = prose[i] + (!ctx->claimed[i] &&
					   !line_is_empty(&ctx->in->lines[i]) &&
					   !line_counts_run(
						ctx->in->lines[i].text));
	return prose;
}

/*
 * Only blank lines, prompts and claimed output strictly between a and b?
 * The counts are made when first asked for: most inputs have no two
 * measurements with one key (a JSON+ file's 14,000 have none), and
 * counting walks every line.
 */
static int only_output_between(const struct parse_ctx *ctx, size_t **prose,
			       size_t a, size_t b)
{
	if (b <= a + 1 || ctx->in->uncut)	/* read whole: all output */
		return 1;
	if (!*prose)
		*prose = count_prose(ctx);
	return (*prose)[b] == (*prose)[a + 1];
}

/* One string of a key: the 0xff separates "ab","c" from "a","bc". */
static uint64_t hash_part(uint64_t h, const char *s)
{
	return fnv1a(h, s) ^ 0xff;
}

static uint64_t measurement_hash(const struct measurement *m)
{
	uint64_t h = FNV1A_INIT;

	h = hash_part(h, m->tool);
	h = hash_part(h, m->op);
	h = hash_part(h, m->metric);
	h = hash_part(h, m->unit);
	h = hash_part(h, m->source_name);
	/* cached per shared label set: a fio job's 15 labels are hashed
	 * once, not once per measurement */
	return h ^ labels_hash(&m->labels);
}

static int foldable(const struct measurement *m)
{
	return m->n >= 1 && !m->summary.present && !m->hist.n &&
	       !m->hist_dropped && !m->series;
}

/* Folds repeated runs of the input's measurements; see the top comment. */
static void fold_repeats(struct parse_ctx *ctx)
{
	struct result_set *rs = ctx->rs;
	size_t count = rs->n - ctx->base, nslots = 16, keep = ctx->base;
	size_t *slot, *last;	/* slot: measurement offset + 1, or 0 */
	size_t *prose = NULL;
	unsigned char *gone;

	while (nslots < 2 * count)
		nslots *= 2;
	slot = xcalloc(nslots, sizeof(*slot));
	last = xcalloc(count, sizeof(*last));
	gone = xcalloc(count, 1);
	for (size_t k = 0; k < count; k++) {
		struct measurement *m = &rs->m[ctx->base + k];
		size_t h = (size_t)measurement_hash(m) & (nslots - 1);

		last[k] = ctx->first_index[k];
		if (!foldable(m))
			continue;
		for (; slot[h]; h = (h + 1) & (nslots - 1)) {
			size_t o = slot[h] - 1;
			struct measurement *prev = &rs->m[ctx->base + o];

			if (!measurement_same_key(prev, m))
				continue;
			if (only_output_between(ctx, &prose, last[o],
						ctx->first_index[k])) {
				for (size_t v = 0; v < m->n; v++)
					measurement_add_value(prev,
							      m->values[v]);
				last[o] = ctx->first_index[k];
				gone[k] = 1;
			} else {
				slot[h] = k + 1;	/* a new series */
			}
			break;
		}
		if (!gone[k] && !slot[h])
			slot[h] = k + 1;
	}
	for (size_t k = 0; k < count; k++) {
		if (gone[k]) {
			measurement_release(&rs->m[ctx->base + k]);
			continue;
		}
		ctx->first_index[keep - ctx->base] = ctx->first_index[k];
		rs->m[keep++] = rs->m[ctx->base + k];
	}
	rs->n = keep;
	free(slot);
	free(last);
	free(gone);
	free(prose);
}

struct line_order {
	size_t line;		/* input line index the value was read from */
	size_t index;
};

static int cmp_line_order(const void *a, const void *b)
{
	const struct line_order *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Puts the input's measurements in the order their lines appear, so that
 * exports read like the file (parsers run one after another). */
static void sort_by_line(struct parse_ctx *ctx)
{
	struct result_set *rs = ctx->rs;
	size_t count = rs->n - ctx->base, in_order = 1;
	struct line_order *order;
	struct measurement *copy;

	while (in_order < count &&
	       ctx->first_index[in_order - 1] <= ctx->first_index[in_order])
		in_order++;
	if (in_order >= count)
		return;		/* one parser, in file order: nothing to do */
	order = xcalloc(count, sizeof(*order));
	copy = xcalloc(count, sizeof(*copy));

	for (size_t k = 0; k < count; k++) {
		/* Not m->line: a CSV row keeps its source's line there. */
		order[k].line = ctx->first_index[k];
		order[k].index = k;
		copy[k] = rs->m[ctx->base + k];
	}
	qsort(order, count, sizeof(*order), cmp_line_order);
	for (size_t k = 0; k < count; k++)
		rs->m[ctx->base + k] = copy[order[k].index];
	free(order);
	free(copy);
}

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

/* Every parser of the list in turn, on the input's lines. */
static void run_parsers(struct parse_ctx *ctx,
			const struct parser *const *list,
			struct strbuf *formats)
{
	const struct input *in = ctx->in;
	struct result_set *rs = ctx->rs;

	for (size_t i = 0; i < in->nlines; i++)
		ctx->unclaimed += in->lines[i].len != 0;
	for (size_t i = 0; list[i]; i++) {
		size_t before_m = rs->n, before_d = ctx->diags->n;

		/* Once every line is some parser's output, no other parser
		 * can find anything: a 4 MB fio JSON+ file skips the rest. */
		if (!ctx->unclaimed)
			break;
		if (!list[i]->detect(in))
			continue;
		list[i]->parse(ctx);
		if (rs->n > before_m || ctx->diags->n > before_d)
			strbuf_addf(formats, "%s%s", formats->len ? "," : "",
				    list[i]->name);
	}
}

int ingest_may_read_whole(const struct input *in)
{
	for (size_t i = 0; parsers[i]; i++)
		if (parsers[i]->whole_start && parsers[i]->whole_start(in))
			return 1;
	return 0;
}

/*
 * An uncut input that one parser reads whole (see input.h): all of its
 * lines are that output, no other parser is asked.  0 when none did.
 */
static int read_whole(struct parse_ctx *ctx, const struct parser *const *list,
		      struct strbuf *formats)
{
	struct result_set *rs = ctx->rs;

	for (size_t i = 0; list[i]; i++) {
		size_t before_m = rs->n, before_d = ctx->diags->n;

		if (!list[i]->parse_whole || list[i]->parse_whole(ctx) < 0)
			continue;
		/* every line is that output: unclaimed 0 says it, and no
		 * one reads claimed[] then (context_apply() returns at
		 * once, the prose counts know an uncut input has none);
		 * left untouched, a log of 40 million lines does not touch
		 * 40 MB of it */
		ctx->unclaimed = 0;
		if (rs->n > before_m || ctx->diags->n > before_d)
			strbuf_adds(formats, list[i]->name);
		return 1;
	}
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

int ingest_input_with(struct input *in, const struct parser *const *list,
		      const struct ingest_options *opt, struct result_set *rs,
		      struct diag_list *diags)
{
	struct parse_ctx ctx;
	struct strbuf formats = STRBUF_INIT, names = STRBUF_INIT;
	unsigned char *drops;
	size_t errors_before = diag_count(diags, DIAG_ERROR);
	size_t notes_before = diag_count(diags, DIAG_NOTE);
	int failed = 0, whole;

	parse_ctx_init(&ctx, in, rs, diags);
	ctx.command_text = context_command_text;
	ctx.drop_histograms = opt && opt->drop_histograms;
	if (opt) {
		ctx.fio_version = opt->fio_version;
		ctx.fio_version_from = opt->fio_version_from;
		ctx.fio_assume_noted = opt->fio_assume_noted;
	}
	whole = in->uncut && read_whole(&ctx, list, &formats);
	if (!whole && in->uncut) {
		input_cut_lines(in);
		parse_ctx_recut(&ctx);
	}
	if (!whole && in->too_many_lines && !in->binary) {
		diag_add(diags, DIAG_ERROR, in->name, 0, "more than %u lines; "
			 "storan takes no more from one input: split it",
			 INPUT_LINES_MAX);
		parse_ctx_release(&ctx);
		strbuf_release(&formats);
		return 1;
	}
	/* every line of the text, even of one refused below: a drop in
	 * it is a fact about the source it names */
	drops = context_find_cache_drops(&ctx);
	/* after the parse: an uncut input's hash is made meanwhile */
	memcpy(rs->sources[ctx.source].sha256, input_sha256(in),
	       sizeof(rs->sources[ctx.source].sha256));
	if (refused(in, diags, &failed)) {
		free(drops);
		parse_ctx_release(&ctx);
		strbuf_release(&formats);
		return failed;
	}
	if (!whole)
		run_parsers(&ctx, list, &formats);
	parse_ctx_finish(&ctx);
	context_apply(&ctx, drops);
	free(drops);
	fold_repeats(&ctx);
	sort_by_line(&ctx);
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
