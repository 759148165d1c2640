/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Footnotes of storan check's findings under tables; see footnotes.h.
 *
 * Each checked set keeps an inverted index, measurement -> findings that
 * touch it (compressed rows: first[mi]..first[mi + 1] in touch), built in
 * two passes over the findings, so that citing a cell costs the number of
 * its measurements and their findings, never a scan of every finding.
 * Numbers are handed out in citing order; fn->text maps a finding's
 * printed form to its number so that the same finding read from the same
 * file twice (baseline and candidate) is one footnote.
 */
#include "footnotes.h"
#include "../core/cpus.h"
#include "../core/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int footnotes_parse_level(const char *name, enum check_severity *out)
{
	if (!strcmp(name, "warnings"))
		*out = CHECK_WARNING;
	else if (!strcmp(name, "all"))
		*out = CHECK_INFO;
	else
		return -1;
	return 0;
}

void footnotes_init(struct footnotes *fn, enum check_severity min)
{
	memset(fn, 0, sizeof(*fn));
	fn->min = min;
	keymap_init(&fn->text);
}

void footnotes_release(struct footnotes *fn)
{
	for (size_t i = 0; i < fn->nsets; i++) {
		struct footnote_set *s = &fn->sets[i];

		check_list_release(&s->findings);
		free(s->first);
		free(s->touch);
		free(s->number);
	}
	free(fn->sets);
	free(fn->cited);
	keymap_release(&fn->text);
	memset(fn, 0, sizeof(*fn));
}

/* Findings severe enough to cite touch a measurement of the set? */
static int cites_any(const struct check_list *l, enum check_severity min)
{
	for (size_t f = 0; f < l->n; f++)
		if (l->v[f].severity >= min && l->v[f].nmeasurements)
			return 1;
	return 0;
}

/*
 * measurement -> findings, for the findings severe enough to cite.  A
 * set that none touches has no index (first NULL): a million compared
 * rows then cite nothing without two lookups each in 8 MB arrays made
 * for the purpose.
 */
static void index_set(struct footnote_set *s, enum check_severity min)
{
	const struct check_list *l = &s->findings;
	size_t total = 0, *fill;

	s->number = xcalloc(l->n ? l->n : 1, sizeof(*s->number));
	if (!cites_any(l, min))
		return;
	s->first = xcalloc(s->nmeasurements + 2, sizeof(*s->first));
	for (size_t f = 0; f < l->n; f++) {
		if (l->v[f].severity < min)
			continue;
		for (size_t k = 0; k < l->v[f].nmeasurements; k++) {
			size_t mi = l->v[f].measurements[k];

			if (mi >= s->nmeasurements)
				BUG("finding touches measurement %zu of %zu",
				    mi, s->nmeasurements);
			s->first[mi + 1]++;
			total++;
		}
	}
	for (size_t i = 0; i < s->nmeasurements; i++)
		s->first[i + 1] += s->first[i];
	s->touch = xmalloc((total ? total : 1) * sizeof(*s->touch));
	fill = xmalloc((s->nmeasurements ? s->nmeasurements : 1) *
		       sizeof(*fill));
	if (s->nmeasurements)
		memcpy(fill, s->first, s->nmeasurements * sizeof(*fill));
	for (size_t f = 0; f < l->n; f++)
		if (l->v[f].severity >= min)
			for (size_t k = 0; k < l->v[f].nmeasurements; k++)
				s->touch[fill[l->v[f].measurements[k]]++] = f;
	free(fill);
}

/* Keeps the findings l of rs (taken) as the next set. */
static size_t add_set(struct footnotes *fn, const struct result_set *rs,
		      struct check_list *l)
{
	struct footnote_set *s;

	ALLOC_GROW(fn->sets, fn->nsets + 1, fn->sets_alloc);
	s = &fn->sets[fn->nsets];
	memset(s, 0, sizeof(*s));
	s->findings = *l;
	s->nmeasurements = rs->n;
	index_set(s, fn->min);
	return fn->nsets++;
}

int footnotes_check(struct footnotes *fn, const struct result_set *rs,
		    const struct check_options *opt, size_t *set,
		    struct strbuf *err)
{
	struct check_list l;

	check_list_init(&l);
	if (check_run(rs, opt, &l, err)) {
		check_list_release(&l);
		return -1;
	}
	*set = add_set(fn, rs, &l);
	return 0;
}

/* p and the nchain - 1 checks after it, one after the other. */
static void *pending_check(void *arg)
{
	struct footnotes_pending *p = arg;

	for (size_t i = 0; i < p->nchain; i++)
		p[i].failed = check_run(p[i].rs, p[i].opt, &p[i].list,
					&p[i].err) != 0;
	return NULL;
}

static void pending_init(struct footnotes_pending *p,
			 const struct result_set *rs,
			 const struct check_options *opt)
{
	memset(p, 0, sizeof(*p));
	p->rs = rs;
	p->opt = opt;
	p->nchain = 1;
	check_list_init(&p->list);
	strbuf_init(&p->err);
}

/* Runs the chain that starts at p on a thread, or here. */
static void pending_start(struct footnotes_pending *p, size_t nchain)
{
	p->nchain = nchain;
	p->threaded = cpus_pool_threads(2) > 1 &&
		      !pthread_create(&p->thread, NULL, pending_check, p);
	if (!p->threaded)
		pending_check(p);
}

void footnotes_check_start(struct footnotes_pending *p,
			   const struct result_set *rs,
			   const struct check_options *opt)
{
	pending_init(p, rs, opt);
	pending_start(p, 1);
}

void footnotes_checks_start(struct footnotes_pending *p,
			    const struct result_set *sets, size_t n,
			    const struct check_options *opt)
{
	long cpus = storan_cpus();
	size_t threads = cpus > 1 ? (size_t)(cpus - 1) : 1, from = 0;

	if (threads > n)
		threads = n;
	for (size_t i = 0; i < n; i++) {
		pending_init(&p[i], &sets[i], opt);
		p[i].one_thread = *opt;
		p[i].one_thread.one_thread = 1;
		p[i].opt = &p[i].one_thread;
	}
	for (size_t t = 0; t < threads; t++) {
		size_t to = n * (t + 1) / threads;

		pending_start(&p[from], to - from);
		from = to;
	}
}

int footnotes_check_finish(struct footnotes *fn, struct footnotes_pending *p,
			   size_t *set, struct strbuf *err)
{
	int rc = 0;

	if (p->threaded)
		pthread_join(p->thread, NULL);
	p->threaded = 0;	/* (a chain's later checks: joined with it) */
	if (p->failed) {
		strbuf_adds(err, strbuf_str(&p->err));
		check_list_release(&p->list);
		rc = -1;
	} else {
		*set = add_set(fn, p->rs, &p->list);
	}
	strbuf_release(&p->err);
	return rc;
}

static char *finding_key(const struct check_finding *f)
{
	return xstrfmt("%s\037%u\037%d\037%s\037%s", f->source, f->line,
		       (int)f->severity, f->code, f->message);
}

/* The number of finding f of set, giving it the next one if it has none. */
static unsigned number_of(struct footnotes *fn, size_t set, size_t f)
{
	struct footnote_set *s = &fn->sets[set];
	char *key;
	size_t *at;
	int created;

	if (s->number[f])
		return s->number[f];
	key = finding_key(&s->findings.v[f]);
	at = keymap_put(&fn->text, key, fn->ncited, &created);
	free(key);
	if (created) {
		ALLOC_GROW(fn->cited, fn->ncited + 1, fn->cited_alloc);
		fn->cited[fn->ncited++] = (struct footnote_ref){ set, f };
	}
	s->number[f] = (unsigned)(*at + 1);
	return s->number[f];
}

static int cmp_unsigned(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;

	return (a > b) - (a < b);
}

size_t footnotes_cite(struct footnotes *fn, size_t set, const size_t *mi,
		      size_t n, unsigned **nums, size_t *alloc)
{
	const struct footnote_set *s;
	size_t count = 0, kept = 0;

	if (set >= fn->nsets)
		BUG("footnote set %zu of %zu", set, fn->nsets);
	s = &fn->sets[set];
	for (size_t i = 0; s->first && i < n; i++) {
		if (mi[i] >= s->nmeasurements)
			BUG("measurement %zu of %zu cited", mi[i],
			    s->nmeasurements);
		for (size_t k = s->first[mi[i]]; k < s->first[mi[i] + 1];
		     k++) {
			ALLOC_GROW(*nums, count + 1, *alloc);
			(*nums)[count++] = number_of(fn, set, s->touch[k]);
		}
	}
	if (!count)
		return 0;
	qsort(*nums, count, sizeof(**nums), cmp_unsigned);
	for (size_t i = 0; i < count; i++)
		if (!kept || (*nums)[kept - 1] != (*nums)[i])
			(*nums)[kept++] = (*nums)[i];
	return kept;
}

const struct check_finding *footnotes_finding(const struct footnotes *fn,
					      unsigned num)
{
	const struct footnote_ref *r;

	if (!num || num > fn->ncited)
		return NULL;
	r = &fn->cited[num - 1];
	return &fn->sets[r->set].findings.v[r->finding];
}

void footnotes_marker(const unsigned *nums, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "%s%u", i ? "," : FMT_NOTE_MARK, nums[i]);
}

size_t footnotes_mark_cell(struct footnotes *fn, struct fmt_table *t,
			   size_t row, size_t col, size_t set,
			   const size_t *mi, size_t n)
{
	unsigned *nums = NULL;
	size_t alloc = 0, k = footnotes_cite(fn, set, mi, n, &nums, &alloc);

	if (k)
		fmt_table_set_notes(t, row, col, nums, k);
	free(nums);
	return k;
}

/* Is code one of the ';'-separated codes in list? */
static int has_code(const char *list, const char *code)
{
	size_t len = strlen(code);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ';');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && !strncmp(p, code, len))
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

void footnotes_codes(const struct footnotes *fn, const unsigned *nums,
		     size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct check_finding *f = footnotes_finding(fn, nums[i]);

		if (!f)
			BUG("footnote %u was never cited", nums[i]);
		if (has_code(strbuf_str(out), f->code))
			continue;
		if (out->len)
			strbuf_addch(out, ';');
		strbuf_adds(out, f->code);
	}
}

void footnotes_to_fmt(const struct footnotes *fn, struct fmt_table *t)
{
	for (size_t i = 0; i < fn->ncited; i++) {
		const struct check_finding *f =
			footnotes_finding(fn, (unsigned)(i + 1));

		fmt_table_add_footnote(t, (unsigned)(i + 1), f->source,
				       f->line,
				       check_severity_name(f->severity),
				       f->code, f->message);
	}
}

void footnotes_render(const struct footnotes *fn, enum fmt_kind kind,
		      struct strbuf *out)
{
	struct fmt_table t;

	fmt_table_init(&t, NULL);
	footnotes_to_fmt(fn, &t);
	fmt_render_footnotes(&t, kind, out);
	fmt_table_release(&t);
}

void footnotes_restart(struct footnotes *fn)
{
	for (size_t i = 0; i < fn->nsets; i++)
		memset(fn->sets[i].number, 0,
		       (fn->sets[i].findings.n ? fn->sets[i].findings.n : 1) *
		       sizeof(*fn->sets[i].number));
	fn->ncited = 0;
	keymap_release(&fn->text);
	keymap_init(&fn->text);
}
