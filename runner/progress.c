/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The progress line (see progress.h).  "\r" plus the line, padded to
 * erase what was longer before; progress_clear() wipes it so that
 * warnings and the summary start on a clean line.
 */
#include "progress.h"
#include "../core/clock.h"
#include "../core/human.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void progress_init(struct progress *p, int quiet, double total_seconds)
{
	memset(p, 0, sizeof(*p));
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->total = total_seconds;
}

void progress_set_what(struct progress *p, const char *what)
{
	snprintf(p->what, sizeof(p->what), "%s", what);
}

static void format_eta(double s, char *buf, size_t size)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, size, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, size, "%lu:%02lu", t / 60, t % 60);
}

void progress_show(struct progress *p, const char *phase, double elapsed,
		   double planned, double iops, int force)
{
	double now = (double)clock_now_ns() * 1e-9, pct, left;
	char eta[32], rate[48] = "";
	int n;

	if (!p->enabled || (!force && now - p->last_shown < 0.25))
		return;
	p->last_shown = now;
	if (elapsed > planned)
		elapsed = planned;
	pct = p->total > 0 ? 100.0 * (p->done + elapsed) / p->total : 100;
	left = p->total - p->done - elapsed;
	format_eta(left, eta, sizeof(eta));
	if (iops >= 0) {
		struct display_unit u;
		char num[32];

		display_unit_auto("1/s", iops, 0, &u);
		snprintf(rate, sizeof(rate), "  %s %s",
			 human_format(iops, &u, num, sizeof(num)), u.name);
	}
	n = fprintf(stderr, "\r%s: %s  %3.0f%%  ETA %s%s", phase, p->what,
		    pct > 100 ? 100 : pct, eta, rate);
	if (n > 0 && n < p->shown)
		fprintf(stderr, "%*s", p->shown - n, "");
	p->shown = n > 0 ? n : 0;
	fflush(stderr);
}

void progress_step_done(struct progress *p, double planned)
{
	p->done += planned;
}

void progress_clear(struct progress *p)
{
	if (!p->enabled || !p->shown)
		return;
	fprintf(stderr, "\r%*s\r", p->shown, "");
	fflush(stderr);
	p->shown = 0;
}
