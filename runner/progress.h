/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Progress on stderr while a sweep runs: the phase (layout, ramp,
 * measure, verify), what runs, percent of the whole sweep, ETA and the
 * live IOPS, rewritten in place at most a few times a second.  Only when
 * stderr is a terminal and --quiet is not given; otherwise every call is
 * a no-op.  Single-threaded: only the timing thread calls it.
 */
#ifndef STORAN_RUNNER_PROGRESS_H
#define STORAN_RUNNER_PROGRESS_H

struct progress {
	int enabled;
	double total;		/* planned seconds of the whole sweep */
	double done;		/* planned seconds of what is finished */
	double last_shown;	/* monotonic seconds */
	int shown;		/* columns of the last line */
	char what[96];		/* "randread 4K qd32 2/3" */
};

void progress_init(struct progress *p, int quiet, double total_seconds);
void progress_set_what(struct progress *p, const char *what);
/*
 * Shows phase, elapsed of planned seconds in the current step, and
 * iops (negative: not shown).  Rate-limited unless force.
 */
void progress_show(struct progress *p, const char *phase, double elapsed,
		   double planned, double iops, int force);
/* A step of planned seconds is over. */
void progress_step_done(struct progress *p, double planned);
/* Erases the line (before other messages and at the end). */
void progress_clear(struct progress *p);

#endif
