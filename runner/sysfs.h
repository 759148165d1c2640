/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Small readers of sysfs and /proc that both the target facts (target.c)
 * and the safety rules (safety.c) use.  They only read; a file that is
 * missing is an error return, never a message.
 */
#ifndef STORAN_RUNNER_SYSFS_H
#define STORAN_RUNNER_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

/* Reads a small sysfs/proc file, trailing blanks cut; 0 or -1. */
int sysfs_read(const char *path, char *buf, size_t size);
/* "8:16" -> makedev(8, 16); 0 when it is not of that form. */
dev_t sysfs_parse_devno(const char *s);
/* The real sysfs directory of a block device, or NULL; caller frees. */
char *sysfs_block_dir(dev_t dev);

#endif
