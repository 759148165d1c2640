/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPUs storan may use; see cpus.h. */
#include "cpus.h"

#include <pthread.h>
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

unsigned cpus_pool_threads(size_t jobs)
{
	long cpus = storan_cpus();

	if (jobs < 2 || cpus < 2)
		return 1;
	if ((size_t)cpus > jobs)
		cpus = (long)jobs;
	return cpus > CPUS_POOL_MAX ? CPUS_POOL_MAX : (unsigned)cpus;
}

void cpus_run_pool(unsigned threads, void *(*worker)(void *), void *arg)
{
	pthread_t tid[CPUS_POOL_MAX];
	unsigned started = 0;

	if (threads > CPUS_POOL_MAX)
		threads = CPUS_POOL_MAX;
	for (unsigned t = 0; threads > 1 && t < threads; t++)
		if (!pthread_create(&tid[t], NULL, worker, arg))
			started++;
	if (!started)
		worker(arg);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
}
