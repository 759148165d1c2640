/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which dd command an output belongs to: the next one of the last dd
 * line, or one run in the background, told by the shell's job line, by
 * bs= times count= making the byte count, or by being the only one
 * pending; else none, and the output gets only what all the pending
 * commands say alike (see dd.c's top comment).
 */
#include "dd.h"
#include "../core/numscan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The bytes a command asks for (bs= times count=), or 0 if unknown. */
static double asked_bytes(const struct dd_command *c)
{
	const char *bs = labels_get(&c->labels, "bs");
	const char *count = labels_get(&c->labels, "count");
	double b, n;

	if (!bs || !count || dd_size(bs, &b) || dd_size(count, &n))
		return 0;
	return b * n;
}

/* Do the command's bs= and count= ask for exactly these bytes? */
static int asks_for(const struct dd_command *c, uint64_t bytes)
{
	double b = asked_bytes(c);

	return b > 0 && !(b < (double)bytes) && !(b > (double)bytes);
}

/*
 * A job's end as the shell reports it: "[1]+  Done   dd if=/dev/zero
 * of=a bs=1M" (also "Exit 1", any word): the index of the background
 * command it names, or SIZE_MAX.
 */
static int is_job_line(const char *t)
{
	const char *p = t + 1;

	if (t[0] != '[' || !is_ascii_digit(*p))
		return 0;
	while (is_ascii_digit(*p))
		p++;
	if (*p++ != ']')
		return 0;
	if (*p == '+' || *p == '-')
		p++;
	return *p == ' ' || *p == '\t';
}

size_t dd_job_done(const struct dd_state *st, const char *t)
{
	const char *d;

	if (!is_job_line(t) || !(d = strstr(t, " dd ")))
		return SIZE_MAX;
	d = skip_spaces(d);
	for (size_t i = 0; i < st->nbg; i++) {
		const char *cmd = labels_get(&st->bg[i].labels, "command");

		if (cmd && starts_with(d, cmd))
			return i;
	}
	return SIZE_MAX;
}

void dd_drop_background(struct dd_state *st, size_t b)
{
	labels_release(&st->bg[b].labels);
	memmove(&st->bg[b], &st->bg[b + 1],
		(st->nbg - b - 1) * sizeof(st->bg[0]));
	st->nbg--;
}

/*
 * The background command whose output this is: the one a lone job line
 * right after it names ("[1]+  Done   dd if=..."), else the one whose bs=
 * and count= make the byte count (and no foreground command's do), else
 * the only one pending when no foreground dd is; else none (SIZE_MAX):
 * an output given no command is better than one given another's.
 */
static size_t background_of(const struct parse_ctx *ctx,
			    const struct dd_state *st, size_t li,
			    uint64_t bytes, int *ambiguous)
{
	size_t match = SIZE_MAX, n = 0, jobs = 0, named = SIZE_MAX;
	int fg, fg_match;

	*ambiguous = 0;
	/* the job lines the shell printed right after the output */
	for (size_t k = next_line(ctx, li); k < ctx->in->nlines;
	     k = next_line(ctx, k)) {
		const char *t = line_after_prompt(ctx->in->lines[k].text);

		if (!is_job_line(t))
			break;
		if (strstr(t, " dd ")) {
			jobs++;
			named = dd_job_done(st, t);
		}
	}
	if (jobs == 1 && named != SIZE_MAX)
		return named;
	for (size_t i = 0; i < st->nbg; i++)
		if (asks_for(&st->bg[i], bytes))
			match = i, n++;
	fg = st->next < st->ncmd;
	fg_match = fg && asks_for(&st->cmd[st->next], bytes);
	if (n == 1 && !fg_match)
		return match;
	if (!n && fg)
		return SIZE_MAX;	/* the foreground command's */
	if (st->nbg == 1 && !fg)
		return 0;
	*ambiguous = 1;
	return SIZE_MAX;
}

/* Does every candidate of an unpaired output say key=value? */
static int all_say(const struct dd_command *const *cand, size_t n,
		   const char *key, const char *value)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = labels_get(&cand[i]->labels, key);

		if (!v || strcmp(v, value))
			return 0;
	}
	return 1;
}

/*
 * An output that cannot be told apart among the pending background
 * commands (and the foreground one, when it is pending too) gets what
 * all of them say alike: two reads of 100 MiB from /dev/sdb and /dev/sdc
 * give op read, bs, count, of=/dev/null; not if=, not the command.  When
 * they differ, also unpaired=K, the K-th such output of the input: two
 * of them are two of those commands, never two runs of one test.
 */
static const struct dd_command *shared_command(struct dd_state *st)
{
	const struct dd_command *cand[MAX_DD_BACKGROUND + 1] = { NULL };
	struct dd_command *t = &st->taken;
	size_t n = 0, kept = 0;

	for (size_t i = 0; i < st->nbg; i++)
		cand[n++] = &st->bg[i];
	if (st->next < st->ncmd)
		cand[n++] = &st->cmd[st->next];
	labels_release(&t->labels);
	labels_init(&t->labels);
	t->op = cand[0]->op;
	for (size_t i = 1; i < n; i++)
		if (strcmp(cand[i]->op, t->op))
			t->op = "copy";
	for (size_t k = 0; k < cand[0]->labels.n; k++) {
		const struct label *l = &cand[0]->labels.v[k];

		if (all_say(cand + 1, n - 1, l->key, l->value))
			labels_set(&t->labels, l->key, l->value), kept++;
	}
	if (kept < cand[0]->labels.n)
		labels_setf(&t->labels, "unpaired", "%zu", ++st->unpaired);
	return t;
}

/*
 * An output among several pending commands that none is known to have
 * printed: what they all say (see shared_command()).  Once as many such
 * outputs came as background commands were pending, and no foreground
 * one could have printed them, all of them have ended.
 */
static const struct dd_command *unpaired_output(struct parse_ctx *ctx,
						struct dd_state *st,
						size_t li)
{
	const struct dd_command *c = shared_command(st);
	int fg = st->next < st->ncmd;

	if (labels_get(&c->labels, "unpaired"))
		parse_note(ctx, li, "dd output while %zu dd command%s ran in "
			   "the background: which one it is cannot be told, "
			   "no command given to it (only what they all say)",
			   st->nbg + fg, st->nbg + fg > 1 ? "s" : "");
	st->used = 1;	/* prose after it forgets them */
	if (!fg && ++st->bg_unpaired >= st->nbg) {
		for (size_t i = 0; i < st->nbg; i++)
			labels_release(&st->bg[i].labels);
		st->nbg = st->bg_unpaired = 0;
	}
	return c;
}

const struct dd_command *dd_take_command(struct parse_ctx *ctx,
					 struct dd_state *st, size_t li,
					 uint64_t bytes)
{
	const struct dd_command *c;
	int ambiguous;
	size_t b;

	if (st->nbg) {
		b = background_of(ctx, st, li, bytes, &ambiguous);
		if (b != SIZE_MAX) {
			labels_release(&st->taken.labels);
			labels_init(&st->taken.labels);
			labels_copy(&st->taken.labels, &st->bg[b].labels);
			st->taken.op = st->bg[b].op;
			st->taken.li = st->bg[b].li;
			dd_drop_background(st, b);
			return &st->taken;
		}
		if (ambiguous)
			return unpaired_output(ctx, st, li);
	}
	if (!st->ncmd)
		return NULL;
	c = &st->cmd[st->next < st->ncmd ? st->next : st->ncmd - 1];
	if (st->next < st->ncmd)
		st->next++;
	st->used = 1;
	return c;
}

void dd_forget_background(struct dd_state *st)
{
	for (size_t i = 0; i < st->nbg; i++)
		labels_release(&st->bg[i].labels);
	st->nbg = st->bg_unpaired = 0;
	labels_release(&st->taken.labels);
	labels_init(&st->taken.labels);
}

