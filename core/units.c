/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit prefixes and metric units; see units.h. */
#include "units.h"
#include "numscan.h"

#include <string.h>

double prefix_factor(char letter, int binary)
{
	static const char letters[] = "kmgtpe";
	const char *at;
	double base = binary ? 1024.0 : 1000.0, f = 1.0;
	char c = (char)(letter | 0x20);

	at = strchr(letters, c);
	if (!c || !at)
		return 0;
	for (int i = 0; i <= at - letters; i++)
		f *= base;
	return f;
}

int scan_size(const char **p, unsigned flags, double *bytes)
{
	const char *s = *p;
	const char *prefixes = flags & SIZE_PETA ? "kKmMgGtTpP" : "kKmMgGtT";
	double v, f = 1;

	if (scan_double(&s, SCAN_NO_EXPONENT, &v))
		return -1;
	if (*s && strchr(prefixes, *s)) {
		f = prefix_factor(*s++, 1);
		if ((*s == 'i' || (*s == 'I' && (flags & SIZE_CAP_I))) &&
		    ((flags & SIZE_LONE_I) || s[1] == 'B'))
			s++;
	}
	if (*s == 'B' || (*s == 'b' && (flags & SIZE_LOWER_B)))
		s++;
	*bytes = v * f;
	*p = s;
	return 0;
}

int metric_higher_is_better(const char *metric)
{
	return !strcmp(metric, "bw") || !strcmp(metric, "iops") ||
	       starts_with(metric, "bw.") || starts_with(metric, "iops.");
}

int unit_is_base(const char *u)
{
	return !strcmp(u, UNIT_BW) || !strcmp(u, UNIT_IOPS) ||
	       !strcmp(u, UNIT_BYTES) || !strcmp(u, UNIT_SECONDS) ||
	       !strcmp(u, UNIT_PERCENT);
}

const char *metric_unit(const char *metric)
{
	static const struct {
		const char *prefix;
		const char *unit;
	} table[] = {
		{ "bw", UNIT_BW },
		{ "iops", UNIT_IOPS },
		{ "bytes", UNIT_BYTES },
		{ "runtime", UNIT_SECONDS },
		{ "time.", UNIT_SECONDS },
		{ "lat", UNIT_SECONDS },
		{ "clat", UNIT_SECONDS },
		{ "slat", UNIT_SECONDS },
		{ "cpu.", UNIT_PERCENT },
		{ "disk.util", UNIT_PERCENT },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		size_t n = strlen(table[i].prefix);

		if (!strncmp(metric, table[i].prefix, n) &&
		    (metric[n] == '\0' || metric[n] == '.' ||
		     table[i].prefix[n - 1] == '.'))
			return table[i].unit;
	}
	return NULL;
}
