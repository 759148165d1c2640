/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Facts about what is being measured, as labels of every measurement:
 * kind (file or block), fs and fs_options (from /proc/self/mountinfo),
 * compression (the mount option that enables it, or "no" for file
 * systems that never compress),
 * device, model, rotational, logical_block_size, physical_block_size,
 * scheduler, queue_depth (sysfs), link (pcie3x4, sata3: from the PCIe or
 * SATA link the device sits on, when sysfs exposes it), kernel (uname)
 * and cpu (/proc/cpuinfo).  A fact storan cannot read is left out, never
 * guessed.
 */
#ifndef STORAN_RUNNER_TARGET_H
#define STORAN_RUNNER_TARGET_H

#include <stddef.h>
#include <sys/types.h>

struct labels;
struct target;

/* Collects the facts about t into labels. */
void target_facts(const struct target *t, struct labels *out);

/* "8.0 GT/s PCIe" and "4" -> "pcie3x4"; 0, or -1 when unknown. */
int link_name_pcie(const char *speed, const char *width, char *buf,
		   size_t size);
/* "6.0 Gbps" -> "sata3"; 0, or -1 when unknown. */
int link_name_sata(const char *spd, char *buf, size_t size);

#endif
