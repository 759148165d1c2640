/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORAN_PLOT_TABLES_H
#define STORAN_PLOT_TABLES_H

#include "report-model.h"

/* Every chart's table, its cells marked with their findings
 * (plot/tables.c); report_plan() calls it. */
void report_tables(struct report *r);

#endif
