/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How many CPUs storan may use: the online ones, or 1 when the
 * environment sets STORAN_SERIAL (every second thread then stays off, so
 * a test can compare a threaded run with a serial one byte for byte).
 */
#ifndef STORAN_CPUS_H
#define STORAN_CPUS_H

long storan_cpus(void);

#endif
