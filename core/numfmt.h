/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Numbers as text, fast: exactly what printf's "%.<precision>g" and
 * "%.<decimals>f" print, without printf.
 *
 * Ingesting a 4 MB fio JSON+ file prints some 100,000 numbers, and
 * glibc's printf works out each one with multi-precision arithmetic; this
 * takes one long double multiplication for almost all of them and hands
 * the rest to snprintf (see numfmt.c for which, and why that is exact).
 */
#ifndef STORAN_NUMFMT_H
#define STORAN_NUMFMT_H

#include <stddef.h>

#define NUMFMT_MAX 32		/* enough for any "%.17g" */

/*
 * Writes v as snprintf(buf, NUMFMT_MAX, "%.*g", precision, v) would, for
 * precision 1 to 17; returns the length.  buf gets a terminating NUL.
 */
size_t format_g(char *buf, double v, int precision);

/*
 * Writes v as snprintf(buf, size, plus ? "%+.*f" : "%.*f", decimals, v)
 * would, for decimals 0 to 17, and returns what snprintf returns.  (A
 * million-row comparison printed six such figures a row: a quarter of
 * its text's time was printf's.)
 */
int format_fixed(char *buf, size_t size, double v, int decimals, int plus);

#endif
