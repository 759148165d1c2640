/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Charts of samples over time in a report; see timechart.c. */
#ifndef STORAN_PLOT_TIMECHART_H
#define STORAN_PLOT_TIMECHART_H

#include <stddef.h>

struct report;

/* Adds the report's charts over time (none when no input has samples
 * over time); returns how many. */
size_t report_time_charts(struct report *r);

#endif
