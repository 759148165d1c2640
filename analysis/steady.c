/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Steady state by fio's criteria; see steady.h. */
#include "steady.h"
#include "../core/numscan.h"
#include "../core/series.h"
#include "../core/strbuf.h"

#include <math.h>
#include <string.h>

/* "5%", "0.1%", "500": the limit and whether it is a percentage. */
static int parse_limit(const char **p, struct steady_rule *r)
{
	if (scan_double(p, 0, &r->limit) || !(r->limit > 0))
		return -1;
	r->pct = **p == '%';
	*p += r->pct;
	return 0;
}

/* ",dur=30" or ",ramp=10" (seconds, "30s" too). */
static int parse_extra(const char **p, struct steady_rule *r)
{
	double *to = NULL, v;

	if (!strncmp(*p, ",dur=", 5)) {
		to = &r->dur;
		*p += 5;
	} else if (!strncmp(*p, ",ramp=", 6)) {
		to = &r->ramp;
		*p += 6;
	} else {
		return -1;
	}
	if (scan_double(p, 0, &v) || v < 0)
		return -1;
	*p += **p == 's';
	*to = v;
	return 0;
}

int steady_parse(const char *spec, struct steady_rule *r, struct strbuf *err)
{
	static const struct {
		const char *name, *metric;
		enum steady_kind kind;
	} kinds[] = {
		{ "iops_slope", "iops", STEADY_SLOPE },
		{ "bw_slope", "bw", STEADY_SLOPE },
		{ "lat_slope", "lat", STEADY_SLOPE },
		{ "slope", "", STEADY_SLOPE },
		{ "iops", "iops", STEADY_DEVIATION },
		{ "bw", "bw", STEADY_DEVIATION },
		{ "lat", "lat", STEADY_DEVIATION },
		{ "deviation", "", STEADY_DEVIATION },
	};
	const char *colon = strchr(spec, ':'), *p;
	size_t k, n = sizeof(kinds) / sizeof(kinds[0]);

	memset(r, 0, sizeof(*r));
	r->dur = 30;
	for (k = 0; colon && k < n; k++)
		if ((size_t)(colon - spec) == strlen(kinds[k].name) &&
		    !strncmp(spec, kinds[k].name, strlen(kinds[k].name)))
			break;
	if (!colon || k == n)
		goto bad;
	r->kind = kinds[k].kind;
	strcpy(r->metric, kinds[k].metric);
	p = colon + 1;
	if (parse_limit(&p, r))
		goto bad;
	while (*p)
		if (parse_extra(&p, r))
			goto bad;
	if (!(r->dur > 0))
		goto bad;
	return 0;
bad:
	strbuf_addf(err, "steady-state rule '%s': want fio's ss= form, "
		    "KIND:LIMIT[%%][,dur=S][,ramp=S] with KIND iops, bw, lat, "
		    "iops_slope, bw_slope, lat_slope, deviation or slope "
		    "(iops:1%%, bw_slope:0.1%%,dur=60)", spec);
	return -1;
}

double steady_criterion(const struct steady_rule *r, const double *y,
			size_t n)
{
	double sum = 0, mean, c = 0;

	for (size_t i = 0; i < n; i++)
		sum += y[i];
	mean = sum / (double)n;
	if (r->kind == STEADY_DEVIATION) {
		for (size_t i = 0; i < n; i++)
			c = fmax(c, fabs(y[i] - mean));
	} else {
		/* fio's: (sum_xy - sum_x sum_y / n) / (sum_x2 - sum_x^2 / n),
		 * x the sample's index in the window */
		double sx = (double)n * (double)(n - 1) / 2, sxy = 0;
		double sx2 = (double)(n - 1) * (double)n *
			     (double)(2 * n - 1) / 6;

		int whole = 1;

		for (size_t i = 0; i < n; i++) {
			sxy += (double)i * y[i];
			whole = whole && !(y[i] - floor(y[i]) > 0);
		}
		c = (sxy - sx * sum / (double)n) / (sx2 - sx * sx / (double)n);
		/* fio's sum is an integer, divided by the count as one
		 * (steadystate_slope: sum_y / intervals): with whole
		 * figures, as fio's are, its mean is truncated too */
		if (whole && r->pct && trunc(mean) > 0)
			mean = trunc(mean);
	}
	return r->pct ? 100.0 * c / mean : c;
}

/* The steady part's mean and spread, from sample from on. */
static void steady_part(const struct series *s, struct steady_result *out)
{
	double sum = 0, dev = 0;
	size_t n = s->n - out->from;

	for (size_t i = out->from; i < s->n; i++)
		sum += s->v[i];
	out->mean = sum / (double)n;
	for (size_t i = out->from; i < s->n; i++)
		dev = fmax(dev, fabs(s->v[i] - out->mean));
	out->spread_pct = out->mean > 0 ? 100 * dev / out->mean : NAN;
}

void steady_find(const struct series *s, const struct steady_rule *r,
		 struct steady_result *out)
{
	double interval = s->interval > 0 ? s->interval : 1;
	size_t first = 0, fail, n = (size_t)nearbyint(r->dur / interval);
	double best = INFINITY, last = NAN;

	memset(out, 0, sizeof(*out));
	out->criterion = NAN;
	if (n < 2)
		n = 2;	/* a slope needs two, a deviation is 0 of one */
	out->window = n;
	out->pct = r->pct;
	while (first < s->n && s->t[first] - interval < r->ramp - 1e-9)
		first++;
	if (s->n - first < n) {
		out->short_run = 1;
		return;
	}
	fail = first;
	/* the last window that misses: steady after it, if the run ends
	 * steady (a write cliff after a first calm stretch is not steady) */
	for (size_t k = first; k + n <= s->n; k++) {
		double c = fabs(steady_criterion(r, s->v + k, n));

		if (!(c < r->limit))
			fail = k + 1;
		best = fmin(best, c);
		last = c;
	}
	if (!(last < r->limit)) {
		out->criterion = best;
		return;
	}
	out->steady = 1;
	out->criterion = last;
	out->from = fail;
	out->t_from = s->t[out->from] - interval;
	if (out->t_from < 0)
		out->t_from = 0;
	steady_part(s, out);
}

void steady_describe(const struct steady_result *res, const char *value,
		     struct strbuf *out)
{
	if (res->short_run)
		strbuf_addf(out, "too short for a window of %zu samples",
			    res->window);
	else if (!res->steady)
		strbuf_addf(out, "never steady (best window %.3g%s)",
			    res->criterion, res->pct ? "%" : "");
	else
		strbuf_addf(out, "steady from %.0f s, %s \u00b1 %.2g%%",
			    res->t_from, value, res->spread_pct);
}
