/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of storan check share: check.c (the context, the order
 * by source and line, building findings, running them, the public API)
 * and the families of checks, check-link.c (a figure against its link,
 * hdparm -T), check-cache.c (figures of the page cache) and check-runs.c
 * (how long, how steady and how often a test ran).  Nothing else
 * includes it: the API is check.h.
 *
 * A check reads the result set through struct check_ctx and appends
 * findings with check_add(); it never modifies the set.  A helper only one
 * family uses stays static in that family's file.  These names have no
 * check_ prefix, as they had when all was one file; the check_ ones
 * below are the checks, called in order by run_checks() in check.c.
 */
#ifndef STORAN_CHECK_PRIVATE_H
#define STORAN_CHECK_PRIVATE_H

#include "check.h"
#include "links.h"
#include "../core/keymap.h"
#include "../core/units.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* Findings out->v[0 .. indexed) by a hash of their key (check.c). */
struct finding_index {
	struct hashmap64 map;
	size_t indexed;
};

struct check_ctx {
	const struct result_set *rs;
	const struct check_options *opt;
	struct check_list *out;
	size_t *order;		/* measurement indices by source, line */
	struct link_info link;	/* opt->link resolved */
	int have_link;
	size_t *output;		/* per measurement: number_outputs() */
	/* per source: its path's tail where another source has its name
	 * (experiment_shown_sources()), else NULL; NULL: no clash */
	char **shown;
	/* out's findings by code and output, by code and place: the
	 * latest of each (check_found_in_output(), check_found_here()) */
	struct finding_index by_output, by_place;
};

/* ---- small helpers over measurements ---- */

/* Inline: every check calls them, on every measurement. */

static inline const struct measurement *M(const struct check_ctx *c, size_t i)
{
	return &c->rs->m[i];
}

/*
 * Is s the word w (a literal)?  The first bytes are compared inline: ten
 * checks ask a million measurements their tool, metric and unit, and the
 * calls to strcmp() were a tenth of storan check's time.
 */
static inline int str_is(const char *s, const char *w)
{
	return *s == *w && !strcmp(s, w);
}

/* The figure itself, not fio's per-sample bw.min, bw.stddev... */
static inline int is_bw(const struct measurement *m)
{
	return str_is(m->metric, "bw") && str_is(m->unit, UNIT_BW);
}

static inline int is_headline(const struct measurement *m)
{
	return is_bw(m) || (str_is(m->metric, "iops") &&
			    str_is(m->unit, UNIT_IOPS));
}

static inline int is_cachedread(const struct measurement *m)
{
	return str_is(m->op, "cachedread");
}

static inline const char *label(const struct measurement *m, const char *key)
{
	return labels_get(&m->labels, key);
}

/* A label that says yes: "1", "true", "yes", "on" (any case). */
static inline int label_true(const struct measurement *m, const char *key)
{
	const char *v = label(m, key);

	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") ||
		     !strcasecmp(v, "yes") || !strcasecmp(v, "on"));
}

static inline int label_false(const struct measurement *m, const char *key)
{
	const char *v = label(m, key);

	return v && (!strcmp(v, "0") || !strcasecmp(v, "false") ||
		     !strcasecmp(v, "no") || !strcasecmp(v, "off") ||
		     !strcasecmp(v, "none"));
}

static inline int is_direct(const struct measurement *m)
{
	return label_true(m, "direct");
}

static inline int label_size(const struct measurement *m, const char *key,
			     double *out)
{
	const char *v = label(m, key);

	return v && !check_parse_size(v, out);
}

/* The figure a check holds against a limit: the fastest run. */
static inline double peak(const struct measurement *m)
{
	struct measurement_stats st;

	measurement_basic_stats(m, &st);
	return isnan(st.max) ? st.mean : st.max;
}

static inline double mean(const struct measurement *m)
{
	struct measurement_stats st;

	measurement_basic_stats(m, &st);
	return st.mean;
}

/* check.c: where a measurement was read, and a figure in words */
const char *check_source_of(const struct check_ctx *c, size_t i);
const char *check_place_of(const struct check_ctx *c, size_t i);
const char *check_prefix_of(const struct check_ctx *c, size_t i);
char *check_figure(double v, const char *unit, char *buf, size_t size);

/* check.c: the measurement of the test at position pos with metric */
const struct measurement *check_sibling(const struct check_ctx *c,
				  size_t pos, const char *metric);

/* check.c: building findings */
__attribute__((format(printf, 7, 8)))
struct check_finding *check_add(struct check_ctx *c, enum check_severity sev,
			  const char *code, size_t mi, double value,
			  double limit, const char *fmt, ...);
void check_also(struct check_finding *f, size_t mi);
void check_also_test(struct check_ctx *c, struct check_finding *f, size_t pos);
struct check_finding *check_found_here(struct check_ctx *c, size_t pos,
				 const char *code);
struct check_finding *check_found_in_output(struct check_ctx *c, size_t pos,
				      const char *code);

/* check-link.c */
int check_link_of(struct check_ctx *c, size_t mi, struct link_info *l,
	    const char **hint, const char **family);
void check_over_link(struct check_ctx *c, size_t mi);
void check_hdparm_cache(struct check_ctx *c, size_t mi);

/* check-cache.c */
void check_small_file(struct check_ctx *c, size_t pos);
void check_no_sync(struct check_ctx *c, size_t pos);
void check_partial(struct check_ctx *c, size_t pos);
void check_zero_data(struct check_ctx *c, size_t pos);
void check_cached_read(struct check_ctx *c, size_t pos);

/* check-runs.c */
void check_short_run(struct check_ctx *c, size_t pos);
void check_short_runs_in_all(struct check_ctx *c, struct check_finding *f);
void check_steady_state(struct check_ctx *c, size_t pos);
void check_buffered_aio(struct check_ctx *c, size_t pos);
void check_repetitions(struct check_ctx *c);

#endif
