/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Target facts from sysfs, /proc and uname (see target.h).  Everything
 * here only reads; a file that is missing (a VM without a model name, a
 * tmpfs without a device) just means one label fewer.
 */
#define _GNU_SOURCE
#include "target.h"
#include "safety.h"
#include "sysfs.h"
#include "../core/numscan.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

int link_name_pcie(const char *speed, const char *width, char *buf,
		   size_t size)
{
	static const struct { const char *rate; int gen; } gens[] = {
		{ "2.5 GT/s", 1 }, { "5.0 GT/s", 2 }, { "5 GT/s", 2 },
		{ "8.0 GT/s", 3 }, { "8 GT/s", 3 }, { "16.0 GT/s", 4 },
		{ "16 GT/s", 4 }, { "32.0 GT/s", 5 }, { "32 GT/s", 5 },
		{ "64.0 GT/s", 6 }, { "64 GT/s", 6 },
	};
	uint64_t lanes;

	if (scan_u64(&width, &lanes) || *width || !lanes || lanes > 32)
		return -1;
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		if (starts_with(speed, gens[i].rate)) {
			snprintf(buf, size, "pcie%dx%u", gens[i].gen,
				 (unsigned)lanes);
			return 0;
		}
	return -1;
}

int link_name_sata(const char *spd, char *buf, size_t size)
{
	if (starts_with(spd, "1.5 Gbps"))
		snprintf(buf, size, "sata1");
	else if (starts_with(spd, "3.0 Gbps"))
		snprintf(buf, size, "sata2");
	else if (starts_with(spd, "6.0 Gbps"))
		snprintf(buf, size, "sata3");
	else
		return -1;
	return 0;
}

static void label_from_file(struct labels *out, const char *key,
			    const char *dir, const char *file)
{
	char path[PATH_MAX], buf[256];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (sysfs_read(path, buf, sizeof(buf)) || !buf[0])
		return;
	for (char *p = buf; *p; p++)
		if (*p == ';' || *p == '\n')
			*p = ',';	/* ';' separates labels in the CSV */
	labels_set(out, key, buf);
}

/* "none [mq-deadline] kyber" -> "mq-deadline". */
static void label_scheduler(struct labels *out, const char *disk)
{
	char path[PATH_MAX], buf[256], *open_br, *close_br;

	snprintf(path, sizeof(path), "%s/queue/scheduler", disk);
	if (sysfs_read(path, buf, sizeof(buf)))
		return;
	open_br = strchr(buf, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (close_br) {
		*close_br = '\0';
		labels_set(out, "scheduler", open_br + 1);
	} else if (buf[0] && !strchr(buf, ' ')) {
		labels_set(out, "scheduler", buf);
	}
}

/*
 * The link: walk up the device's sysfs path; an "ataN" component means a
 * SATA port (/sys/class/ata_link/linkN/sata_spd), a directory with
 * current_link_speed is the PCIe function (NVMe).  Virtual devices have
 * neither, or a PCIe link that says nothing about them: only NVMe and
 * SATA are named.
 */
static void label_link(struct labels *out, const char *disk)
{
	char path[PATH_MAX], *real, *p, speed[64], width[64], name[32];
	const char *base = strrchr(disk, '/');
	int nvme = base && starts_with(base + 1, "nvme");

	snprintf(path, sizeof(path), "%s/device", disk);
	real = realpath(path, NULL);
	if (!real)
		return;
	for (p = strstr(real, "/ata"); p; p = strstr(p + 1, "/ata")) {
		const char *q = p + 4;
		uint64_t port;

		if (scan_u64(&q, &port) || *q != '/')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/ata_link/link%llu/sata_spd",
			 (unsigned long long)port);
		if (!sysfs_read(path, speed, sizeof(speed)) &&
		    !link_name_sata(speed, name, sizeof(name)))
			labels_set(out, "link", name);
		free(real);
		return;
	}
	while (nvme && (p = strrchr(real, '/')) && p != real) {
		snprintf(path, sizeof(path), "%s/current_link_speed", real);
		if (!sysfs_read(path, speed, sizeof(speed))) {
			snprintf(path, sizeof(path), "%s/current_link_width",
				 real);
			if (!sysfs_read(path, width, sizeof(width)) &&
			    !link_name_pcie(speed, width, name, sizeof(name)))
				labels_set(out, "link", name);
			break;
		}
		*p = '\0';
	}
	free(real);
}

static void device_facts(dev_t dev, struct labels *out)
{
	char *dir = sysfs_block_dir(dev), *disk, path[PATH_MAX];
	struct stat st;

	if (!dir)
		return;
	disk = xstrdup(dir);
	snprintf(path, sizeof(path), "%s/partition", dir);
	if (!stat(path, &st))
		*strrchr(disk, '/') = '\0';	/* a partition: its disk */
	labels_set(out, "device", strrchr(disk, '/') + 1);
	label_from_file(out, "model", disk, "device/model");
	label_from_file(out, "rotational", disk, "queue/rotational");
	label_from_file(out, "logical_block_size", disk,
			"queue/logical_block_size");
	label_from_file(out, "physical_block_size", disk,
			"queue/physical_block_size");
	label_scheduler(out, disk);
	snprintf(path, sizeof(path), "%s/device/queue_depth", disk);
	if (!stat(path, &st))
		label_from_file(out, "queue_depth", disk, "device/queue_depth");
	else
		label_from_file(out, "queue_depth", disk, "queue/nr_requests");
	label_link(out, disk);
	free(disk);
	free(dir);
}

/* Is opt one of the comma-separated options in list? */
static int has_option(const char *list, const char *opt)
{
	size_t len = strlen(opt);

	for (const char *p = list; p; p = strchr(p, ',')) {
		p += *p == ',';
		if (!strncmp(p, opt, len) && (p[len] == ',' || !p[len]))
			return 1;
	}
	return 0;
}

/*
 * compression: the mount option that turns it on (btrfs compress=,
 * compress-force=, f2fs compress_algorithm=), "no" for file systems that
 * never compress, nothing where storan cannot tell (ZFS properties,
 * per-file attributes).
 */
static void label_compression(struct labels *out, const char *fs,
			      const char *opts)
{
	static const char *const never[] = {
		"ext2", "ext3", "ext4", "xfs", "tmpfs", "vfat", "exfat",
	};
	static const char *const keys[] = {
		"compress-force=", "compress=", "compress_algorithm=",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *p = strstr(opts, keys[i]);

		if (p && (p == opts || p[-1] == ',')) {
			size_t len = strcspn(p + strlen(keys[i]), ",");
			char *v = xstrndup(p + strlen(keys[i]), len);

			labels_set(out, "compression", v);
			free(v);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (!strcmp(fs, never[i]))
			labels_set(out, "compression", "no");
}

/*
 * The file system holding a file: the mountinfo line whose maj:min is the
 * file's st_dev.  Options are the mount's and the super block's together,
 * as /proc/mounts shows them.
 */
static void fs_facts(dev_t dev, struct labels *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;

	while (f && getline(&line, &cap, f) > 0) {
		struct strbuf opts = STRBUF_INIT;
		char *fields[32], *p = line;
		int k = 0, dash;

		while (k < 32 && (fields[k] = strsep(&p, " \n")))
			if (*fields[k])
				k++;
		for (dash = 6; dash < k && strcmp(fields[dash], "-"); dash++)
			;
		if (dash + 3 >= k || sysfs_parse_devno(fields[2]) != dev)
			continue;
		labels_set(out, "fs", fields[dash + 1]);
		strbuf_adds(&opts, fields[5]);
		for (char *o = fields[dash + 3], *t; (t = strsep(&o, ","));)
			if (*t && !has_option(opts.buf, t))
				strbuf_addf(&opts, ",%s", t);
		labels_set(out, "fs_options", opts.buf);
		label_compression(out, fields[dash + 1], opts.buf);
		strbuf_release(&opts);
		break;
	}
	free(line);
	if (f)
		fclose(f);
}

static void host_facts(struct labels *out)
{
	struct utsname u;
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *line = NULL;
	size_t cap = 0;

	if (!uname(&u))
		labels_set(out, "kernel", u.release);
	while (f && getline(&line, &cap, f) > 0) {
		const char *p = line;
		char *end;

		if (!skip_prefix(&p, "model name"))
			continue;
		p = strchr(p, ':');
		if (!p)
			break;
		p = skip_spaces(p + 1);
		end = strchr(p, '\n');
		if (end)
			*end = '\0';
		labels_set(out, "cpu", p);
		break;
	}
	free(line);
	if (f)
		fclose(f);
}

void target_facts(const struct target *t, struct labels *out)
{
	struct stat st;

	if (fstat(t->fd, &st))
		return;
	if (S_ISBLK(st.st_mode)) {
		labels_set(out, "kind", "block");
		device_facts(st.st_rdev, out);
	} else {
		labels_set(out, "kind", "file");
		fs_facts(st.st_dev, out);
		device_facts(st.st_dev, out);
	}
	host_facts(out);
}
