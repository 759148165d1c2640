/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPUs storan may use; see cpus.h. */
#include "cpus.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long storan_cpus(void)
{
	const char *serial = getenv("STORAN_SERIAL");
	long n;

	if (serial && *serial && strcmp(serial, "0"))
		return 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 1 ? n : 1;
}
