/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sysfs and /proc readers (see sysfs.h).
 */
#define _GNU_SOURCE
#include "sysfs.h"
#include "../core/numscan.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int sysfs_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

dev_t sysfs_parse_devno(const char *s)
{
	uint64_t maj, min;

	if (scan_u64(&s, &maj) || *s++ != ':' || scan_u64(&s, &min) ||
	    (*s && *s != '\n') || maj > UINT_MAX || min > UINT_MAX)
		return 0;
	return makedev((unsigned)maj, (unsigned)min);
}

char *sysfs_block_dir(dev_t dev)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	return realpath(path, NULL);
}
