/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORAN_PLOT_CHART_JSON_H
#define STORAN_PLOT_CHART_JSON_H

#include "chart.h"
#include "../core/strbuf.h"

/* The chart as data (charts/NN-name.json); see chart-json.c. */
void chart_write_json(const struct chart *c, const struct result_set *rs,
		      struct strbuf *out);

#endif
