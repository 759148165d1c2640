/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The plausibility checks; see check.h for the API and
 * docs/storan-check.1 for every code, its threshold and its reasoning.
 *
 * Each check is a function over the whole result set that appends
 * findings.  Two views of the set are built once: `order`, the
 * measurement indices sorted by source and line (so that "the test on
 * this line" and "what came before" are cheap), and repetition groups
 * (same tool, op, metric, unit and labels, wherever they were read) for
 * the checks about spread.  Nothing in the result set is modified.
 *
 * This file holds what every check uses (the helpers over measurements,
 * the order, building findings), runs them and sorts what they found,
 * and the rest of the API.  The checks live by family: check-link.c (a
 * figure against its link, hdparm -T), check-cache.c (the page cache,
 * zeros, a dd stopped on an error), check-runs.c (short, unsteady,
 * noisy or single runs); check-private.h is what they share.  The
 * writers are in check-out.c.
 */
#define _GNU_SOURCE
#include "check-private.h"
#include "experiment.h"
#include "links.h"
#include "../core/cpus.h"
#include "../core/human.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fewer measurements are checked on one thread (a thread costs more). */
#define CHECK_THREAD_MIN 4096

/* ---- small helpers over measurements ---- */

const char *check_source_of(const struct check_ctx *c, size_t i)
{
	const struct measurement *m = M(c, i);

	if (m->source_name)
		return m->source_name;
	return m->source < c->rs->nsources ? c->rs->sources[m->source].name :
	       "?";
}

/*
 * Where a finding points: the file its line number counts in.  A line
 * of a grep'd file ("fio_randwrite.log:  write: ...") is line N of the
 * file grep wrote, not of fio_randwrite.log: the finding names that file,
 * and its message starts with the prefix (check_prefix_of()).
 */
const char *check_place_of(const struct check_ctx *c, size_t i)
{
	const struct measurement *m = M(c, i);

	if (c->shown && m->source < c->rs->nsources && c->shown[m->source])
		return c->shown[m->source];
	if (m->source < c->rs->nsources && c->rs->sources[m->source].name &&
	    *c->rs->sources[m->source].name)
		return c->rs->sources[m->source].name;
	return check_source_of(c, i);
}

/* The grep prefix of measurement i, or NULL (see check_place_of()). */
const char *check_prefix_of(const struct check_ctx *c, size_t i)
{
	const struct measurement *m = M(c, i);
	const char *file = m->source < c->rs->nsources ?
			   c->rs->sources[m->source].name : NULL;
	const char *src = check_source_of(c, i);

	return file && *file && strcmp(file, src) ? src : NULL;
}

int check_parse_size(const char *s, double *out)
{
	const char *p = s;
	double v;

	if (scan_size(&p, SIZE_PETA | SIZE_LONE_I | SIZE_LOWER_B, &v) || *p ||
	    !(v > 0))
		return -1;
	*out = v;
	return 0;
}

/* "2.60 GB/s", "4.00 MiB", "1.70 s": bandwidth decimal, sizes binary. */
char *check_figure(double v, const char *unit, char *buf, size_t size)
{
	struct display_unit u;
	char num[16];

	display_unit_auto(unit, v, !strcmp(unit, UNIT_BYTES), &u);
	human_format(v, &u, num, sizeof(num));
	snprintf(buf, size, "%s %s", num, u.name);
	return buf;
}

/* ---- the order by source and line, and the test on one line ---- */

static int by_position(const void *a, const void *b, void *arg)
{
	const struct result_set *rs = ((struct check_ctx *)arg)->rs;
	const struct measurement *x = &rs->m[*(const size_t *)a];
	const struct measurement *y = &rs->m[*(const size_t *)b];

	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Are the measurements, as c->order has them, in by_position()'s order? */
static int in_position_order(struct check_ctx *c)
{
	for (size_t i = 1; i < c->rs->n; i++)
		if (by_position(&c->order[i - 1], &c->order[i], c) > 0)
			return 0;
	return 1;
}

static int same_place(const struct check_ctx *c, size_t a, size_t b)
{
	return M(c, a)->source == M(c, b)->source &&
	       M(c, a)->line == M(c, b)->line &&
	       !strcmp(check_source_of(c, a), check_source_of(c, b));
}

/* The measurement of the same test (place, op, labels) with metric. */
const struct measurement *check_sibling(const struct check_ctx *c,
				  size_t pos, const char *metric)
{
	const struct measurement *m = M(c, c->order[pos]);
	size_t lo = pos, hi = pos;

	while (lo > 0 && same_place(c, c->order[lo - 1], c->order[pos]))
		lo--;
	while (hi + 1 < c->rs->n && same_place(c, c->order[hi + 1],
					       c->order[pos]))
		hi++;
	for (size_t k = lo; k <= hi; k++) {
		const struct measurement *s = M(c, c->order[k]);

		if (!strcmp(s->metric, metric) && !strcmp(s->op, m->op) &&
		    !strcmp(s->tool, m->tool) &&
		    labels_equal(&s->labels, &m->labels))
			return s;
	}
	return NULL;
}

/* Two label values equal, both absent counting as equal. */
static int labels_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* ---- building findings ---- */

__attribute__((format(printf, 7, 8)))
struct check_finding *check_add(struct check_ctx *c, enum check_severity sev,
			  const char *code, size_t mi, double value,
			  double limit, const char *fmt, ...)
{
	struct check_finding *f;
	va_list ap;

	ALLOC_GROW(c->out->v, c->out->n + 1, c->out->alloc);
	f = &c->out->v[c->out->n++];
	f->severity = sev;
	f->code = code;
	va_start(ap, fmt);
	f->message = xstrvfmt(fmt, ap);
	va_end(ap);
	if (check_prefix_of(c, mi)) {
		char *m = xstrfmt("%s: %s", check_prefix_of(c, mi), f->message);

		free(f->message);
		f->message = m;
	}
	f->source = xstrdup(check_place_of(c, mi));
	f->line = M(c, mi)->line;
	f->measurements = xmalloc(sizeof(*f->measurements));
	f->measurements[0] = mi;
	f->nmeasurements = 1;
	f->value = value;
	f->limit = limit;
	return f;
}

void check_also(struct check_finding *f, size_t mi)
{
	if (check_touches(f, mi))
		return;
	f->measurements = xrealloc(f->measurements, (f->nmeasurements + 1) *
				   sizeof(*f->measurements));
	f->measurements[f->nmeasurements++] = mi;
}

/* Adds every measurement of the same test as mi (place, op, labels). */
void check_also_test(struct check_ctx *c, struct check_finding *f, size_t pos)
{
	const struct measurement *m = M(c, c->order[pos]);

	for (size_t k = pos; k-- > 0 && same_place(c, c->order[k],
						   c->order[pos]);)
		if (!strcmp(M(c, c->order[k])->op, m->op) &&
		    labels_equal(&M(c, c->order[k])->labels, &m->labels))
			check_also(f, c->order[k]);
	for (size_t k = pos + 1; k < c->rs->n && same_place(c, c->order[k],
							    c->order[pos]);
	     k++)
		if (!strcmp(M(c, c->order[k])->op, m->op) &&
		    labels_equal(&M(c, c->order[k])->labels, &m->labels))
			check_also(f, c->order[k]);
}

/* ---- the findings made, by code and output or place ---- */

/* The bits of the findings' hashes used: all but in tests, where
 * STORAN_TEST_FINDING_HASH_BITS=N keeps N and keys collide. */
static uint64_t finding_hash_mask(void)
{
	return hash64_mask_from_env("STORAN_TEST_FINDING_HASH_BITS");
}

static uint64_t output_key(const struct check_ctx *c, const char *code,
			   size_t mi)
{
	size_t id = c->output[mi];

	return hash64(hash64(HASH64_INIT, code, strlen(code)), &id,
		      sizeof(id)) & finding_hash_mask();
}

/* What same_place() compares: source, line, and the source's name. */
static uint64_t place_key(const struct check_ctx *c, const char *code,
			  size_t mi)
{
	const char *name = check_source_of(c, mi);
	uint64_t h = hash64(HASH64_INIT, code, strlen(code));
	unsigned where[2] = { M(c, mi)->source, M(c, mi)->line };

	h = hash64(h, where, sizeof(where));
	return hash64(h, name, strlen(name)) & finding_hash_mask();
}

static int same_output(const struct check_ctx *c, size_t a, size_t b)
{
	return c->output[a] == c->output[b];
}

/* How findings are keyed: by code and output, or by code and place. */
struct finding_key {
	uint64_t (*key)(const struct check_ctx *c, const char *code,
			size_t mi);
	int (*same)(const struct check_ctx *c, size_t a, size_t b);
};

static const struct finding_key of_output = { output_key, same_output };
static const struct finding_key at_place = { place_key, same_place };

/* The findings made since the last call put in ix (a later one of a key
 * in the place of the earlier one). */
static void index_findings(struct check_ctx *c, struct finding_index *ix,
			   const struct finding_key *k)
{
	int created;

	if (c->out->n >= UINT32_MAX)
		die("more than %u findings", UINT32_MAX - 1);
	for (; ix->indexed < c->out->n; ix->indexed++) {
		const struct check_finding *f = &c->out->v[ix->indexed];

		*hashmap64_put(&ix->map, k->key(c, f->code, f->measurements[0]),
			       (uint32_t)ix->indexed, &created) =
			(uint32_t)ix->indexed;
	}
}

/*
 * The latest finding of code that k->same(c, its first measurement, mi)
 * holds for, or NULL: the index says which one it is; two keys with one
 * hash (about 1 in 2^64 a pair) are told apart by a look at them all.
 * (A look at them all for every test was quadratic: 20,000 dd runs of
 * as many files, each a single run, took 0.7 s to check, 100,000 20 s.)
 */
static struct check_finding *latest(struct check_ctx *c,
				    struct finding_index *ix,
				    const struct finding_key *k,
				    const char *code, size_t mi)
{
	const uint32_t *at;
	struct check_finding *f;

	index_findings(c, ix, k);
	at = hashmap64_get(&ix->map, k->key(c, code, mi));
	if (!at)
		return NULL;
	f = &c->out->v[*at];
	if (!strcmp(f->code, code) && k->same(c, f->measurements[0], mi))
		return f;
	for (size_t i = c->out->n; i-- > 0;) {
		f = &c->out->v[i];
		if (!strcmp(f->code, code) && k->same(c, f->measurements[0], mi))
			return f;
	}
	return NULL;
}

/* Has a finding with this code been made for the test at pos already? */
struct check_finding *check_found_here(struct check_ctx *c, size_t pos,
				 const char *code)
{
	return latest(c, &c->by_place, &at_place, code, c->order[pos]);
}

/* A test: tool, op, metric, unit and every label, hashed (the label
 * set's hash is cached: one fio job's metrics share it). */
static uint64_t test_hash(const struct measurement *m)
{
	const char *part[4] = { m->tool, m->op, m->metric, m->unit };
	uint64_t h = HASH64_INIT;

	for (size_t i = 0; i < 4; i++)
		h = hash64(h, part[i], strlen(part[i]));
	return h ^ labels_hash(&m->labels);
}

static int same_test(const struct measurement *a, const struct measurement *b)
{
	return !strcmp(a->tool, b->tool) && !strcmp(a->op, b->op) &&
	       !strcmp(a->metric, b->metric) && !strcmp(a->unit, b->unit) &&
	       labels_equal(&a->labels, &b->labels);
}

/*
 * Is the test at c->order[pos] one of those at c->order[from..pos)?  The
 * hash map says which one it would be; two tests that share a hash
 * (about 1 in 2^64 a pair) are told apart by a look at them all.
 */
static int test_seen(const struct check_ctx *c, struct hashmap64 *seen,
		     size_t from, size_t pos)
{
	const struct measurement *m = M(c, c->order[pos]);
	int created;
	uint32_t *at = hashmap64_put(seen, test_hash(m), (uint32_t)pos,
				     &created);

	if (created)
		return 0;
	if (same_test(M(c, c->order[*at]), m))
		return 1;
	for (size_t i = from; i < pos; i++)
		if (same_test(M(c, c->order[i]), m))
			return 1;
	return 0;
}

/*
 * Outputs: one tool's text read as one run of measurements, in position
 * order, with one source, command and section, and no test twice (an
 * iozone -t block's summary lines, an auto table's 25 rows, a fio
 * report, a blockdev-perftest table).  dd, hdparm and time print one line
 * a run: there an output is a line.  A reason that holds for the output
 * is one finding that touches all of it, not one a line.
 */
static int output_spans_lines(const char *tool)
{
	return !strcmp(tool, "iozone") || !strcmp(tool, "fio") ||
	       !strcmp(tool, "blockdev-perftest");
}

static size_t *number_outputs(const struct check_ctx *c)
{
	size_t *out = xmalloc((c->rs->n ? c->rs->n : 1) * sizeof(*out));
	size_t id = 0, from = 0;
	struct hashmap64 seen;

	if (c->rs->n >= UINT32_MAX)
		die("more than %u measurements to check", UINT32_MAX - 1);
	hashmap64_init(&seen);
	for (size_t pos = 0; pos < c->rs->n; pos++) {
		const struct measurement *m = M(c, c->order[pos]), *p;

		if (pos) {
			p = M(c, c->order[pos - 1]);
			if (strcmp(check_source_of(c, c->order[pos]),
				   check_source_of(c, c->order[pos - 1])) ||
			    m->source != p->source || strcmp(m->tool, p->tool) ||
			    !labels_same(label(m, "command"),
					 label(p, "command")) ||
			    !labels_same(label(m, "section"),
					 label(p, "section")) ||
			    (!output_spans_lines(m->tool) &&
			     m->line != p->line) ||
			    test_seen(c, &seen, from, pos)) {
				id++;
				from = pos;
				hashmap64_release(&seen);
				hashmap64_init(&seen);
			}
		}
		if (from == pos)	/* the output's first test */
			(void)test_seen(c, &seen, from, pos);
		out[c->order[pos]] = id;
	}
	hashmap64_release(&seen);
	return out;
}

/* Has a finding with this code been made for pos's output already? */
struct check_finding *check_found_in_output(struct check_ctx *c, size_t pos,
				      const char *code)
{
	return latest(c, &c->by_output, &of_output, code, c->order[pos]);
}

/* ---- running, sorting ---- */

static int by_finding(const void *a, const void *b, void *arg)
{
	const struct result_set *rs = ((struct check_ctx *)arg)->rs;
	const struct check_finding *x = a, *y = b;
	const struct measurement *mx = &rs->m[x->measurements[0]];
	const struct measurement *my = &rs->m[y->measurements[0]];
	int c;

	if (mx->source != my->source)
		return mx->source < my->source ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->severity != y->severity)		/* warnings first */
		return x->severity > y->severity ? -1 : 1;
	c = strcmp(x->code, y->code);
	if (c)
		return c;
	if (x->measurements[0] != y->measurements[0])
		return x->measurements[0] < y->measurements[0] ? -1 : 1;
	return 0;
}

/*
 * The checks of one measurement at a time, in text order.  Each speaks
 * of a headline figure only (bandwidth or IOPS: is_headline() is the
 * first of its conditions, or is_bw()): the others, fio's latencies and
 * percentiles, most of a fio JSON's, are passed over here at once.
 */
static void check_each(struct check_ctx *c)
{
	for (size_t pos = 0; pos < c->rs->n; pos++) {
		if (!is_headline(M(c, c->order[pos])))
			continue;
		check_over_link(c, c->order[pos]);
		check_hdparm_cache(c, c->order[pos]);
		check_small_file(c, pos);
		check_no_sync(c, pos);
		check_partial(c, pos);
		check_zero_data(c, pos);
		check_cached_read(c, pos);
		check_short_run(c, pos);
		check_steady_state(c, pos);
		check_buffered_aio(c, pos);
	}
}

static void *repetitions_job(void *arg)
{
	check_repetitions(arg);
	return NULL;
}

/* src's findings moved to the end of dst's. */
static void list_move(struct check_list *dst, struct check_list *src)
{
	ALLOC_GROW(dst->v, dst->n + src->n, dst->alloc);
	if (src->n)
		memcpy(dst->v + dst->n, src->v, src->n * sizeof(*src->v));
	dst->n += src->n;
	free(src->v);
	check_list_init(src);
}

/*
 * Every check.  The repetitions (a model of the whole set: two thirds of
 * the time at a million measurements) run on a thread of their own
 * beside the others (unless opt->one_thread), into a list of their own
 * appended after theirs: the findings come in the order of a run on one
 * thread, and each family's check_found_in_output() sees its own codes
 * either way.
 */
static void run_checks(struct check_ctx *c)
{
	struct check_ctx rep = *c;
	struct check_list found;
	pthread_t thread;
	int threaded;

	check_list_init(&found);
	rep.out = &found;
	memset(&rep.by_output, 0, sizeof(rep.by_output));	/* its own */
	memset(&rep.by_place, 0, sizeof(rep.by_place));
	threaded = c->rs->n >= CHECK_THREAD_MIN && !c->opt->one_thread &&
		   storan_cpus() > 1 &&
		   !pthread_create(&thread, NULL, repetitions_job, &rep);
	check_each(c);
	if (threaded)
		pthread_join(thread, NULL);
	else
		check_repetitions(&rep);
	hashmap64_release(&rep.by_output.map);
	hashmap64_release(&rep.by_place.map);
	list_move(c->out, &found);
}

int check_run(const struct result_set *rs, const struct check_options *opt,
	      struct check_list *out, struct strbuf *err)
{
	struct check_ctx c;
	size_t first = out->n;

	memset(&c, 0, sizeof(c));
	c.rs = rs;
	c.opt = opt;
	c.out = out;
	if (opt->link) {
		if (link_lookup(opt->link, &c.link)) {
			strbuf_addf(err, "unknown link '%s'; storan knows %s",
				    opt->link, link_names());
			return -1;
		}
		c.have_link = 1;
	}
	c.order = xmalloc((rs->n ? rs->n : 1) * sizeof(*c.order));
	for (size_t i = 0; i < rs->n; i++)
		c.order[i] = i;
	if (!in_position_order(&c))	/* as read, mostly: no sort */
		qsort_r(c.order, rs->n, sizeof(*c.order), by_position, &c);
	c.output = number_outputs(&c);
	c.shown = experiment_shown_sources(rs);
	run_checks(&c);
	for (size_t i = first; i < out->n; i++)
		if (!strcmp(out->v[i].code, "short-run"))
			check_short_runs_in_all(&c, &out->v[i]);
	if (out->n > first)	/* out->v may still be NULL */
		qsort_r(out->v + first, out->n - first, sizeof(*out->v),
			by_finding, &c);
	free(c.order);
	free(c.output);
	hashmap64_release(&c.by_output.map);
	hashmap64_release(&c.by_place.map);
	experiment_free_shown(c.shown, rs->nsources);
	return 0;
}

int check_touches(const struct check_finding *f, size_t mi)
{
	for (size_t i = 0; i < f->nmeasurements; i++)
		if (f->measurements[i] == mi)
			return 1;
	return 0;
}

int check_worst_for(const struct check_list *l, size_t mi)
{
	int worst = -1;

	for (size_t i = 0; i < l->n; i++)
		if (check_touches(&l->v[i], mi) &&
		    (int)l->v[i].severity > worst)
			worst = (int)l->v[i].severity;
	return worst;
}

size_t check_count(const struct check_list *l, enum check_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->v[i].severity == sev;
	return n;
}

const char *check_severity_name(enum check_severity sev)
{
	return sev == CHECK_WARNING ? "warning" : "info";
}

void check_list_init(struct check_list *l)
{
	l->v = NULL;
	l->n = l->alloc = 0;
}

void check_list_release(struct check_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].message);
		free(l->v[i].source);
		free(l->v[i].measurements);
	}
	free(l->v);
	check_list_init(l);
}

void check_list_keep(struct check_list *l, enum check_severity min)
{
	size_t keep = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].severity >= min) {
			l->v[keep++] = l->v[i];
			continue;
		}
		free(l->v[i].message);
		free(l->v[i].source);
		free(l->v[i].measurements);
	}
	l->n = keep;
}

/* ---- options, RAM ---- */

double check_system_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	char buf[4096];
	const char *p;
	uint64_t kib;
	FILE *fp;
	size_t n;

	if (pages > 0 && size > 0)
		return (double)pages * (double)size;
	fp = fopen("/proc/meminfo", "r");
	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strstr(buf, "MemTotal:");
	if (!p)
		return 0;
	p = skip_spaces(p + strlen("MemTotal:"));
	return scan_u64(&p, &kib) ? 0 : (double)kib * 1024;
}

void check_options_init(struct check_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->ram = check_system_ram();
}

/* Is finding j's line that of an earlier one of code and its source,
 * from finding i on? (A line with four figures is listed once.) */
static int line_listed(const struct check_list *l, const char *code,
		       size_t i, size_t j)
{
	for (size_t k = i; k < j; k++)
		if (!strcmp(l->v[k].code, code) &&
		    !strcmp(l->v[k].source, l->v[j].source) &&
		    l->v[k].line == l->v[j].line)
			return 1;
	return 0;
}

size_t check_code_places(const struct check_list *l, const char *code,
			 struct strbuf *out)
{
	size_t total = 0;

	for (size_t i = 0; i < l->n; i++) {
		size_t lines = 0, j;

		if (strcmp(l->v[i].code, code))
			continue;
		total++;
		for (j = 0; j < i; j++)	/* its source listed already? */
			if (!strcmp(l->v[j].code, code) &&
			    !strcmp(l->v[j].source, l->v[i].source))
				break;
		if (j < i)
			continue;
		for (j = i; j < l->n; j++)
			lines += !strcmp(l->v[j].code, code) &&
				 !strcmp(l->v[j].source, l->v[i].source);
		strbuf_addf(out, "%s%s line%s ", out->len ? "; " : "",
			    l->v[i].source, lines == 1 ? "" : "s");
		for (j = i, lines = 0; j < l->n; j++)
			if (!strcmp(l->v[j].code, code) &&
			    !strcmp(l->v[j].source, l->v[i].source) &&
			    !line_listed(l, code, i, j))
				strbuf_addf(out, "%s%u", lines++ ? ", " : "",
					    l->v[j].line);
	}
	return total;
}
