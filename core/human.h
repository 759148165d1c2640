/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Display units, chosen at the last moment (values are stored in SI base
 * units).  Shared by table, compare, check, plot and report so that every
 * output prints "MB/s" the same way.
 */
#ifndef STORAN_HUMAN_H
#define STORAN_HUMAN_H

#include <stddef.h>

/* A display unit: a name and what one of it is in the base unit. */
struct display_unit {
	const char *name;	/* "MB/s", "MiB/s", "us", "K IOPS", "%" */
	double factor;		/* value_in_display = value / factor */
};

/*
 * Looks up a unit name given by the user (--units MB/s, MiB/s, kB/s,
 * GB/s, GiB/s, B/s, iops, kiops, us, ms, ns, s, %...); 0 on success.
 * The unit must fit the base unit (no "ms" for a B/s metric).
 */
int display_unit_parse(const char *name, const char *base_unit,
		       struct display_unit *out);

/*
 * Chooses a readable unit for values of base_unit whose magnitude is
 * typical (e.g. the largest |value| of a column).  binary picks MiB/s
 * over MB/s.
 */
void display_unit_auto(const char *base_unit, double typical, int binary,
		       struct display_unit *out);

/*
 * Formats v (base unit) in unit u with about 3-4 significant digits:
 * "239", "1.25", "61.2" (human_sig()), but 1e15 or more as "1e+15".
 * Returns buf.
 */
char *human_format(double v, const struct display_unit *u, char *buf,
		   size_t size);

/*
 * x as it stands, with about 3-4 significant digits: whole numbers from
 * 100 ("239", "1234567"), one decimal from 10 ("61.2"), two from 1
 * ("1.25"), three significant below ("0.0123"); "-" for NAN.  Every digit
 * of a large figure is printed: a chart's axis labels (chart_format_y)
 * use this directly, human_format() cuts at 1e15.
 */
char *human_sig(double x, char *buf, size_t size);

/* Sizes such as block sizes: 4096 -> "4K", 1048576 -> "1M", 512 -> "512". */
char *human_size(double bytes, char *buf, size_t size);

/* Is the string a plain non-negative number (a numeric label value)? */
int is_numeric_string(const char *s, double *out);

#endif
