/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Display units; see human.h. */
#include "human.h"
#include "numfmt.h"
#include "numscan.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct unit_row {
	const char *name;
	const char *base;
	double factor;
};

static const struct unit_row unit_table[] = {
	{ "B/s", UNIT_BW, 1 },
	{ "kB/s", UNIT_BW, 1e3 },
	{ "KiB/s", UNIT_BW, 1024.0 },
	{ "MB/s", UNIT_BW, 1e6 },
	{ "MiB/s", UNIT_BW, 1048576.0 },
	{ "GB/s", UNIT_BW, 1e9 },
	{ "GiB/s", UNIT_BW, 1073741824.0 },
	{ "iops", UNIT_IOPS, 1 },
	{ "IOPS", UNIT_IOPS, 1 },
	{ "kiops", UNIT_IOPS, 1e3 },
	{ "k IOPS", UNIT_IOPS, 1e3 },
	{ "M IOPS", UNIT_IOPS, 1e6 },
	{ "1/s", UNIT_IOPS, 1 },
	{ "B", UNIT_BYTES, 1 },
	{ "kB", UNIT_BYTES, 1e3 },
	{ "KiB", UNIT_BYTES, 1024.0 },
	{ "MB", UNIT_BYTES, 1e6 },
	{ "MiB", UNIT_BYTES, 1048576.0 },
	{ "GB", UNIT_BYTES, 1e9 },
	{ "GiB", UNIT_BYTES, 1073741824.0 },
	{ "ns", UNIT_SECONDS, 1e-9 },
	{ "us", UNIT_SECONDS, 1e-6 },
	{ "µs", UNIT_SECONDS, 1e-6 },
	{ "ms", UNIT_SECONDS, 1e-3 },
	{ "s", UNIT_SECONDS, 1 },
	{ "%", UNIT_PERCENT, 1 },
};

#define NUNITS (sizeof(unit_table) / sizeof(unit_table[0]))

int display_unit_parse(const char *name, const char *base_unit,
		       struct display_unit *out)
{
	for (size_t i = 0; i < NUNITS; i++) {
		if (strcasecmp(unit_table[i].name, name) ||
		    (base_unit && strcmp(unit_table[i].base, base_unit)))
			continue;
		/* case-insensitive only where it can't confuse MB and Mb */
		if (strcmp(unit_table[i].name, name) &&
		    strcmp(unit_table[i].base, UNIT_IOPS))
			continue;
		out->name = unit_table[i].name;
		out->factor = unit_table[i].factor;
		return 0;
	}
	return -1;
}

static void pick(struct display_unit *out, const char *name, double factor)
{
	out->name = name;
	out->factor = factor;
}

void display_unit_auto(const char *base_unit, double typical, int binary,
		       struct display_unit *out)
{
	double t = fabs(typical);

	if (!strcmp(base_unit, UNIT_BW) || !strcmp(base_unit, UNIT_BYTES)) {
		int bw = !strcmp(base_unit, UNIT_BW);
		double k = binary ? 1024.0 : 1000.0;

		if (t >= k * k * k)
			pick(out, bw ? (binary ? "GiB/s" : "GB/s") :
				  (binary ? "GiB" : "GB"), k * k * k);
		else if (t >= k * k)
			pick(out, bw ? (binary ? "MiB/s" : "MB/s") :
				  (binary ? "MiB" : "MB"), k * k);
		else if (t >= k)
			pick(out, bw ? (binary ? "KiB/s" : "kB/s") :
				  (binary ? "KiB" : "kB"), k);
		else
			pick(out, bw ? "B/s" : "B", 1);
	} else if (!strcmp(base_unit, UNIT_SECONDS)) {
		if (t >= 1 || !(t > 0))
			pick(out, "s", 1);
		else if (t >= 1e-3)
			pick(out, "ms", 1e-3);
		else if (t >= 1e-6)
			pick(out, "us", 1e-6);
		else
			pick(out, "ns", 1e-9);
	} else if (!strcmp(base_unit, UNIT_IOPS)) {
		if (t >= 1e6)
			pick(out, "M IOPS", 1e6);
		else if (t >= 1e4)
			pick(out, "k IOPS", 1e3);
		else
			pick(out, "IOPS", 1);
	} else {
		pick(out, base_unit, 1);
	}
}

char *human_format(double v, const struct display_unit *u, char *buf,
		   size_t size)
{
	double x = v / u->factor;

	if (fabs(x) >= 1e15)	/* no figure runs so long: digits, not a cut */
		snprintf(buf, size, "%.3g", x);
	else
		human_sig(x, buf, size);
	return buf;
}

/* (format_g() writes NUMFMT_MAX bytes at most: cut to size) */
static void put_g3(double x, char *buf, size_t size)
{
	char g[NUMFMT_MAX];

	format_g(g, x, 3);
	snprintf(buf, size, "%s", g);
}

char *human_sig(double x, char *buf, size_t size)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(buf, size, "-");
	else if (a >= 100 || !(a > 0))
		format_fixed(buf, size, x, 0, 0);
	else if (a >= 10)
		format_fixed(buf, size, x, 1, 0);
	else if (a >= 1)
		format_fixed(buf, size, x, 2, 0);
	else
		put_g3(x, buf, size);
	return buf;
}

char *human_size(double bytes, char *buf, size_t size)
{
	static const char suffix[] = "KMGTPE";
	double v = bytes;
	int i = -1;

	while (i < 5 && v >= 1024 && !(fmod(v, 1024) > 0)) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, size, "%.0f", bytes);
	else
		snprintf(buf, size, "%.0f%c", v, suffix[i]);
	return buf;
}

int is_numeric_string(const char *s, double *out)
{
	const char *p = s;
	double v;

	if (scan_double(&p, 0, &v) || *p)
		return 0;
	if (out)
		*out = v;
	return 1;
}
