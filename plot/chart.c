/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chart model's core: a chart's lifetime, the pieces every step of
 * building adds to it (series, points, ticks, notes) and the calls for
 * charts built by hand (plot/timechart.c).  Building a chart from
 * measurements starts in chart-build.c, which says which file takes
 * which step; chart-private.h is what those files share.
 */
#include "chart-private.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Okabe & Ito (2008), "Color Universal Design": blue first, yellow late. */
const unsigned char chart_palette[CHART_NCOLORS][3] = {
	{ 0x00, 0x72, 0xB2 },	/* blue */
	{ 0xE6, 0x9F, 0x00 },	/* orange */
	{ 0x00, 0x9E, 0x73 },	/* bluish green */
	{ 0xD5, 0x5E, 0x00 },	/* vermillion */
	{ 0x56, 0xB4, 0xE9 },	/* sky blue */
	{ 0xCC, 0x79, 0xA7 },	/* reddish purple */
	{ 0x00, 0x00, 0x00 },	/* black */
	{ 0xF0, 0xE4, 0x42 },	/* yellow */
};

/* ---- lifetime ---------------------------------------------------------- */

static void axis_init(struct chart_axis *a)
{
	memset(a, 0, sizeof(*a));
	a->unit.name = "";
	a->unit.factor = 1;
}

static void axis_release(struct chart_axis *a)
{
	for (size_t i = 0; i < a->nticks; i++)
		free(a->ticks[i].label);
	for (size_t i = 0; i < a->ncat; i++)
		free(a->cat[i]);
	free(a->ticks);
	free(a->cat);
	free(a->title);
	free(a->key);
	axis_init(a);
}

void chart_init(struct chart *c)
{
	memset(c, 0, sizeof(*c));
	axis_init(&c->x);
	axis_init(&c->y);
}

void chart_release(struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		free(c->series[i].name);
		free(c->series[i].p);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->series);
	free(c->bands);
	free(c->members);
	free(c->point_members);
	free(c->notes);
	free(c->title);
	free(c->subtitle);
	free(c->footer);
	free(c->metric);
	free(c->source_names);
	free(c->pooled);
	axis_release(&c->x);
	axis_release(&c->y);
	chart_init(c);
}

__attribute__((format(printf, 2, 3)))
void chart_add_note(struct chart *c, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(c->notes, c->nnotes + 1, c->notes_alloc);
	va_start(ap, fmt);
	c->notes[c->nnotes++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

void chart_add_tick(struct chart_axis *a, double pos, const char *label)
{
	ALLOC_GROW(a->ticks, a->nticks + 1, a->ticks_alloc);
	a->ticks[a->nticks].pos = pos;
	a->ticks[a->nticks].label = xstrdup(label);
	a->nticks++;
}

struct chart_series *chart_new_series(struct chart *c, const char *name)
{
	struct chart_series *s;

	ALLOC_GROW(c->series, c->nseries + 1, c->series_alloc);
	s = &c->series[c->nseries++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

struct chart_point *chart_add_point(struct chart_series *s, double x)
{
	struct chart_point *p;

	ALLOC_GROW(s->p, s->n + 1, s->alloc);
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	p->x = x;
	p->lo = p->hi = NAN;
	for (int i = 0; i < 5; i++)
		p->box[i] = NAN;
	p->p = NAN;
	p->sig = -1;
	p->member = SIZE_MAX;
	return p;
}


struct chart_point *chart_new_point(struct chart_series *s, double x,
				    double y)
{
	struct chart_point *p = chart_add_point(s, x);

	p->y = y;
	p->n = 1;
	return p;
}

void chart_add_band(struct chart *c, size_t series, double from, double to)
{
	ALLOC_GROW(c->bands, c->nbands + 1, c->bands_alloc);
	c->bands[c->nbands++] = (struct chart_band){ from, to, series, NAN,
						     NAN };
}
