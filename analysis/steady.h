/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Steady state of a series, by fio's own criteria (fio's steadystate.c):
 * over a window of the last `dur` seconds of samples,
 *
 *   deviation  the largest |y - mean| of the window, in % of the mean
 *              (ss=iops:1%) or in the series' unit (ss=iops:500);
 *   slope      the least-squares slope of y against the sample index,
 *              in % of the mean (ss=iops_slope:0.1%) or in units per
 *              sample,
 *
 * steady when that figure (its absolute value) is below the limit.  fio
 * checks once a second while it runs and stops the job at the first
 * steady window.  storan checks the same windows after the run, from the
 * job's log, which may go on past a first calm stretch (an SSD's write
 * cliff comes after one): a series is steady when its last window is,
 * from the start of the first window after the last one that was not --
 * "steady from 212 s" means it settled then and stayed.  On a log of a
 * run that fio stopped at its steady state, both say the same.
 *
 * The steady part of a series is its samples from there to the end; a
 * series with fewer samples than a window is not judged, and says so
 * (steady_result.short_run).
 */
#ifndef STORAN_STEADY_H
#define STORAN_STEADY_H

#include <stddef.h>

struct series;
struct strbuf;

enum steady_kind { STEADY_DEVIATION, STEADY_SLOPE };

struct steady_rule {
	enum steady_kind kind;
	double limit;		/* % of the mean when pct, else in unit */
	int pct;
	double dur;		/* s: the window */
	double ramp;		/* s: samples before are not looked at */
	char metric[8];		/* "iops", "bw", "lat", or "" for any */
};

/* storan's default when asked for none: within 10% of the mean over
 * 30 s (fio has no default: ss= is off unless given). */
#define STEADY_DEFAULT "deviation:10%,dur=30"

/*
 * Reads a rule as fio writes its ss= option, with what ss_dur= and
 * ss_ramp= say after commas: "iops:1%", "bw_slope:0.1%", "lat:2000",
 * "deviation:5%,dur=60,ramp=10" (deviation and slope: any metric).
 * 0, or -1 with the reason in err.
 */
int steady_parse(const char *spec, struct steady_rule *r, struct strbuf *err);

/* The criterion of one window of n values (fio's arithmetic). */
double steady_criterion(const struct steady_rule *r, const double *y,
			size_t n);

struct steady_result {
	int steady;		/* a window met the rule */
	int short_run;		/* fewer samples than a window */
	size_t from;		/* first sample of the steady part */
	double t_from;		/* its window's start, s (t[from] - interval) */
	double criterion;	/* of the last window; when never, the best */
	double mean;		/* of the steady part */
	double spread_pct;	/* largest |y - mean| of the steady part, % */
	size_t window;		/* samples in a window */
	int pct;		/* criterion in % (the rule's) */
};

/* Applies r to s; s's samples over an interval (1 s when it has none). */
void steady_find(const struct series *s, const struct steady_rule *r,
		 struct steady_result *out);

/* "steady from 212 s, 41.2k ± 2%" / "never steady (best 14.1%)" /
 * "too short for a 30 s window"; value formatted by the caller's fmt. */
void steady_describe(const struct steady_result *res, const char *value,
		     struct strbuf *out);

#endif
