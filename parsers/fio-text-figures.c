/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's figures as its text prints them: "1,234" only where a poster
 * grouped digits, counts with k/M suffixes, byte sizes and rates with
 * their units (KiB 1024-based, kB 1000-based); see fio-text.c.
 */
#include "fio-text.h"
#include "../core/numscan.h"
#include "../core/units.h"

#include <ctype.h>
#include <string.h>

/*
 * A ',' right after a digit and before another is not fio's: fio
 * separates its fields with ", " and never groups digits.  A poster may
 * ("bw=586,774 KB/s"): read up to the comma, that figure would be 586.
 */
static int glued_comma(const char *s)
{
	return s[0] == ',' && isdigit((unsigned char)s[1]);
}

/*
 * The number at *p, taking a poster's digit grouping ("586,774") only
 * where it cannot be anything else: 1 to 3 leading digits, groups of
 * exactly three, and a unit right after (grouping_ok says whether one
 * follows; NULL: grouping is refused).  A ',' glued to digits otherwise
 * is an error, not the figure before it.
 */
static int scan_figure(const char **p, int (*grouping_ok)(const char *),
		       double *out)
{
	const char *s = *p, *start = *p;
	double v;

	if (scan_double(&s, SCAN_NO_EXPONENT, &v))
		return -1;
	if (glued_comma(s)) {
		if (!grouping_ok || s - start > 3 ||
		    memchr(start, '.', (size_t)(s - start)))
			return -1;
		for (; glued_comma(s); s += 4) {
			if (!isdigit((unsigned char)s[2]) ||
			    !isdigit((unsigned char)s[3]) ||
			    isdigit((unsigned char)s[4]))
				return -1;
			v = v * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
			    (s[3] - '0');
		}
		if (!grouping_ok(s))
			return -1;
	}
	*out = v;
	*p = s;
	return 0;
}

/* A count with fio's k/M suffix ("61.2k"), never digit-grouped. */
int fio_text_scan_count(const char **p, double *out)
{
	const char *s = *p;

	if (fio_scan_count(&s, out) || glued_comma(s))
		return -1;
	*p = s;
	return 0;
}

/* A plain decimal ("60086" msec, "0.27" %), never digit-grouped. */
int fio_text_scan_plain(const char **p, double *out)
{
	return scan_figure(p, NULL, out);
}

/* Does a unit of fio_text_scan_bytes() start at s ("KB/s", " KB/s", "MiB")? */
static int bytes_unit_follows(const char *s)
{
	if (*s == ' ')
		s++;
	return *s && strchr("kKMGTPB", *s);
}

/*
 * A rate or size with fio's unit: "52.3MiB/s", "54.9MB/s", "1471Mi",
 * "497275 B/s", "32708KB", "586,774 KB/s" (grouped by a poster).
 * binary: a prefix without 'i' is still 1024 (fio 2.x).  Advances *p
 * past an optional "/s".
 */
int fio_text_scan_bytes(const char **p, int binary, double *out)
{
	const char *s = *p;
	double v, f = 1;

	if (scan_figure(&s, bytes_unit_follows, &v))
		return -1;
	if (*s == ' ' && (s[1] == 'B' || s[1] == 'K'))
		s++;
	if (*s && strchr("kKMGTP", *s)) {
		int bin = binary || s[1] == 'i';

		f = prefix_factor(*s, bin);
		s++;
		if (*s == 'i')
			s++;
		if (s[0] == ' ' && s[1] == 'B')
			s++;	/* "5118.7M B", as a web page reflowed it */
	}
	if (*s == 'B')
		s++;
	skip_prefix(&s, "/s");
	*out = v * f;
	*p = s;
	return 0;
}

/*
 * fio_text_scan_bytes() of a figure that names its unit ("485KB/s", "0B/s"): fio
 * 1.x printed "aggrb=558404" in bytes per millisecond, and a bare number
 * read as B/s would be 1000 times too small.
 */
int fio_text_scan_bytes_with_unit(const char **p, int binary, double *out)
{
	const char *start = *p;

	if (fio_text_scan_bytes(p, binary, out))
		return -1;
	for (const char *c = start; c < *p; c++)
		if (isalpha((unsigned char)*c))
			return 0;
	return -1;
}

/* The figures of a direction line; bytes and runtime only with_io. */
