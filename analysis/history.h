/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * History: the runs of a store (store/store.h) as time series, one per
 * series, oldest run first -- what `storan history` prints, `storan
 * detect` searches for change points and `storan report DB` draws.
 *
 * A series is one tool, op, metric and unit under one set of conditions:
 * the measurement's labels less the run's identity (the labels `store
 * add --label` gave any run, and commit, time, date, run) and less where
 * a number came from (command, file).  history_series_labels() is the
 * one place that decides it (the experiment model of analysis/ will take
 * it over).  Measurements of one run in one series are its repetitions:
 * pooled into one point, every value kept.
 *
 * A history borrows the store_data it was built from (runs, names); the
 * data must outlive it.
 */
#ifndef STORAN_HISTORY_H
#define STORAN_HISTORY_H

#include <stddef.h>

#include "detect.h"
#include "../core/filter.h"
#include "../store/store.h"

/* One run of one series: its repetitions pooled. */
struct history_point {
	size_t run;		/* index into the store_data's runs */
	double *values;		/* each repetition; NULL: summaries */
	size_t nvalues;
	size_t n;		/* repetitions, values or summaries' n */
	double mean, stddev, min, max;	/* (analysis/stats.c) */
};

struct history_series {
	char *tool, *op, *metric, *unit;
	struct labels labels;	/* the series' conditions */
	char *name;		/* "fio randread iops bs=4096 rw=randread" */
	int direction;		/* +1: higher is better, -1 lower, 0 */
	struct history_point *p;	/* oldest run first */
	size_t n, alloc;
};

struct history {
	const struct store_data *data;
	struct history_series *s;	/* sorted by name */
	size_t n, alloc;
};

/*
 * The series labels of a measurement with labels l, in a store whose
 * runs are labelled with the keys run_keys[0..nrun_keys): written to out.
 */
void history_series_labels(const struct labels *l, char *const *run_keys,
			   size_t nrun_keys, struct labels *out);

/*
 * Builds the series of d whose measurements `where` selects (NULL:
 * all).  Series with no point are left out.
 */
void history_build(struct history *h, const struct store_data *d,
		   const struct filter *where);
/* Does the filter (NULL: all) select key k?  For store_load(). */
int history_key_selected(const struct store_key *k, void *filter);
void history_release(struct history *h);
/* Keeps the series keep() says yes to, in their order. */
void history_keep(struct history *h,
		  int (*keep)(const struct history_series *s));

/* A change point of one series, judged in the metric's own direction. */
enum history_verdict {
	HISTORY_REGRESSION,
	HISTORY_IMPROVEMENT,
	HISTORY_CHANGED,	/* the metric has no direction (bytes) */
};

struct history_change {
	size_t series;		/* index into h->s */
	size_t point;		/* the first point after the change */
	struct change_point cp;	/* means in the metric's unit */
	double ratio;		/* mean after / mean before */
	double change_pct;
	enum history_verdict verdict;
};

const char *history_verdict_name(enum history_verdict v);

/*
 * The change points of every series (each point's mean is one value),
 * series by series, in time order.  Returns how many; *out is the
 * caller's to free.
 */
size_t history_detect(const struct history *h, const struct detect_options *o,
		      struct history_change **out);

/*
 * The table `storan detect` prints (analysis/format.h): a row per change
 * of c[0..n) at a run after index since (-1: all), means in human units.
 */
struct fmt_table;
void history_changes_table(const struct history *h,
			   const struct history_change *c, size_t n,
			   long since, struct fmt_table *t);

#endif
