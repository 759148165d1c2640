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

int scan_size_unit(const char **p, enum prefix_base base, double *factor)
{
	const char *s = *p;
	double f = 1.0;
	int consumed = 0;

	if (*s && strchr("kKmMgGtTpPeE", *s)) {
		int binary = base == PREFIX_BINARY || s[1] == 'i';

		/* A bare 'e' or 'm' is only a prefix when a B follows. */
		if ((*s == 'e' || *s == 'E' || *s == 'm') &&
		    s[1] != 'B' && s[1] != 'i')
			goto unit_b;
		f = prefix_factor(*s, binary);
		s++;
		if (*s == 'i')
			s++;
		consumed = 1;
	}
unit_b:
	if (*s == 'B') {
		s++;
		consumed = 1;
	}
	*factor = f;
	*p = s;
	return consumed;
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
