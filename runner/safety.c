/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The never-destroy-data rules (see safety.h).  Every check that can
 * refuse runs before a byte is written; a refusal names the target and
 * says what would make it acceptable.
 */
#define _GNU_SOURCE
#include "safety.h"
#include "sysfs.h"
#include "../core/human.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* ---- signatures ---------------------------------------------------- */

struct signature {
	const char *what;
	size_t offset;
	const char *magic;
	size_t len;
};

/* Where blkid(8) finds them; the first bytes of a device are enough. */
static const struct signature signatures[] = {
	{ "ext2/3/4 file system", 1080, "\x53\xef", 2 },
	{ "XFS file system", 0, "XFSB", 4 },
	{ "btrfs file system", 65600, "_BHRfS_M", 8 },
	{ "F2FS file system", 1024, "\x10\x20\xf5\xf2", 4 },
	{ "NTFS file system", 3, "NTFS    ", 8 },
	{ "FAT file system", 54, "FAT1", 4 },
	{ "FAT32 file system", 82, "FAT32   ", 8 },
	{ "ISO 9660 file system", 32769, "CD001", 5 },
	{ "squashfs file system", 0, "hsqs", 4 },
	{ "Linux swap", 4086, "SWAPSPACE2", 10 },
	{ "Linux swap", 4086, "SWAP-SPACE", 10 },
	{ "LUKS encrypted volume", 0, "LUKS\xba\xbe", 6 },
	{ "LVM2 physical volume", 512, "LABELONE", 8 },
	{ "LVM2 physical volume", 0, "LABELONE", 8 },
	{ "Linux RAID (md) member", 4096, "\xfc\x4e\x2b\xa9", 4 },
	{ "Linux RAID (md) member", 0, "\xfc\x4e\x2b\xa9", 4 },
	{ "GPT partition table", 512, "EFI PART", 8 },
	{ "GPT partition table", 4096, "EFI PART", 8 },
	{ "DOS partition table or boot sector", 510, "\x55\xaa", 2 },
};

int safety_signatures(const unsigned char *buf, size_t len,
		      struct strbuf *out)
{
	const char *last = NULL;
	int found = 0;

	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]);
	     i++) {
		const struct signature *s = &signatures[i];

		if (s->offset + s->len > len ||
		    memcmp(buf + s->offset, s->magic, s->len))
			continue;
		if (last && !strcmp(last, s->what))
			continue;	/* the same thing at two offsets */
		if (found++)
			strbuf_adds(out, ", ");
		strbuf_adds(out, s->what);
		last = s->what;
	}
	return found;
}

/* ---- is the device in use? ----------------------------------------- */

struct devset {
	dev_t *v;
	size_t n, alloc;
};

static void devset_add(struct devset *s, dev_t d)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == d)
			return;
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = d;
}

static int devset_has(const struct devset *s, dev_t d)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == d)
			return 1;
	return 0;
}

/* The names in a sysfs directory such as holders/ or slaves/. */
static int list_dir(const char *path, struct strbuf *names)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n++)
			strbuf_adds(names, ", ");
		strbuf_adds(names, de->d_name);
	}
	closedir(d);
	return n;
}

static void why_add(struct strbuf *why, int *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void why_add(struct strbuf *why, int *n, const char *fmt, ...)
{
	va_list ap;

	if ((*n)++)
		strbuf_adds(why, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(why, fmt, ap);
	va_end(ap);
}

/* The device, its partitions (when it is a whole disk), their stacking. */
static void collect_family(const char *sysdir, struct devset *set,
			   struct strbuf *why, int *n)
{
	struct strbuf p = STRBUF_INIT, names = STRBUF_INIT;
	const char *name = strrchr(sysdir, '/');
	char devno[32];
	DIR *d;
	struct dirent *de;

	name = name ? name + 1 : sysdir;
	strbuf_addf(&p, "%s/dev", sysdir);
	if (!sysfs_read(p.buf, devno, sizeof(devno)))
		devset_add(set, sysfs_parse_devno(devno));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/holders", sysdir);
	if (list_dir(p.buf, &names))
		why_add(why, n, "%s is held by %s (md/dm/LVM or another "
			"stacked device)", name, names.buf);
	strbuf_reset(&names);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/slaves", sysdir);
	if (list_dir(p.buf, &names))
		why_add(why, n, "%s is a stacked (md/dm/LVM) device over %s",
			name, names.buf);
	d = opendir(sysdir);
	while (d && (de = readdir(d))) {
		struct stat st;

		if (strncmp(de->d_name, name, strlen(name)) ||
		    !strcmp(de->d_name, name))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s/partition", sysdir, de->d_name);
		if (stat(p.buf, &st))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", sysdir, de->d_name);
		collect_family(p.buf, set, why, n);
	}
	if (d)
		closedir(d);
	strbuf_release(&p);
	strbuf_release(&names);
}

/* Splits line at blanks in place; returns the number of fields. */
static int split_fields(char *line, char **field, int max)
{
	int k = 0;

	while (*line && k < max) {
		while (*line == ' ' || *line == '\t' || *line == '\n')
			*line++ = '\0';
		if (!*line)
			break;
		field[k++] = line;
		while (*line && *line != ' ' && *line != '\t' && *line != '\n')
			line++;
	}
	return k;
}

/*
 * Mounts: /proc/self/mountinfo's "maj:min" field, and its source path for
 * file systems whose maj:min is not the device's (btrfs).  The fields are
 * "id parent maj:min root mountpoint options [optional...] - type source".
 */
static void check_mounts(const struct devset *set, struct strbuf *why,
			 int *n)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *field[32];
	size_t cap = 0;

	while (f && getline(&line, &cap, f) > 0) {
		int k = split_fields(line, field, 32), dash = 6;
		struct stat st;
		dev_t d;

		while (dash < k && strcmp(field[dash], "-"))
			dash++;
		if (k < 5)
			continue;
		d = sysfs_parse_devno(field[2]);
		if (!devset_has(set, d) && dash + 2 < k &&
		    field[dash + 2][0] == '/' && !stat(field[dash + 2], &st) &&
		    S_ISBLK(st.st_mode))
			d = st.st_rdev;
		if (devset_has(set, d))
			why_add(why, n, "%s is mounted on %s",
				dash + 2 < k ? field[dash + 2] : "it",
				field[4]);
	}
	free(line);
	if (f)
		fclose(f);
}

/* /proc/swaps: "Filename Type Size Used Priority", a header first. */
static void check_swaps(const struct devset *set, dev_t fdev, ino_t ino,
			struct strbuf *why, int *n)
{
	FILE *f = fopen("/proc/swaps", "re");
	char *line = NULL, *field[2];
	size_t cap = 0;

	while (f && getline(&line, &cap, f) > 0) {
		struct stat st;

		if (split_fields(line, field, 2) < 1 || field[0][0] != '/' ||
		    stat(field[0], &st))
			continue;
		if ((S_ISBLK(st.st_mode) && set &&
		     devset_has(set, st.st_rdev)) ||
		    (S_ISREG(st.st_mode) && st.st_dev == fdev &&
		     st.st_ino == ino))
			why_add(why, n, "%s is in use as swap", field[0]);
	}
	free(line);
	if (f)
		fclose(f);
}

/* A file behind a loop device is that device's data: not to be written. */
static void check_loop_backing(dev_t fdev, ino_t ino, struct strbuf *why,
			       int *n)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[300], file[4096];
		struct stat st;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		if (sysfs_read(path, file, sizeof(file)) || stat(file, &st))
			continue;
		if (st.st_dev == fdev && st.st_ino == ino)
			why_add(why, n, "it is the backing file of /dev/%s",
				de->d_name);
	}
	if (d)
		closedir(d);
}

int safety_device_busy(dev_t dev, struct strbuf *why)
{
	struct devset set = { NULL, 0, 0 };
	char *sysdir = sysfs_block_dir(dev);
	int n = 0;

	devset_add(&set, dev);
	if (sysdir)
		collect_family(sysdir, &set, why, &n);
	check_mounts(&set, why, &n);
	check_swaps(&set, 0, 0, why, &n);
	free(sysdir);
	free(set.v);
	return n;
}

/* ---- opening the target -------------------------------------------- */

void (*safety_before_open)(const char *path);

/* O_NOCTTY: a terminal swapped in must not become ours. */
static int open_flags(const struct safety_request *req, int rw)
{
	return (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOCTTY |
	       (req->direct ? O_DIRECT : 0);
}

static void before_open(const char *path)
{
	if (safety_before_open)
		safety_before_open(path);
}

static int check_free_space(const char *dir, uint64_t need)
{
	struct statvfs sv;
	char a[32], b[32];
	uint64_t avail;

	if (statvfs(dir, &sv))
		return error("cannot check free space in '%s': %s", dir,
			     strerror(errno));
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail >= need)
		return 0;
	return error("refusing: the test file needs %sB but '%s' has only "
		     "%sB free", human_size((double)need, a, sizeof(a)), dir,
		     human_size((double)avail, b, sizeof(b)));
}

/*
 * A new file, unlinked at once: nothing can be left behind.  Its size is
 * a whole number of 4 KiB blocks so that direct I/O can fill all of it.
 */
static int open_new_file(const struct safety_request *req, struct target *t)
{
	uint64_t size = (req->size ? req->size : DEFAULT_FILE_SIZE) &
			~UINT64_C(4095);
	const char *dir = req->directory ? req->directory : ".";
	char *name;
	int fd;

	if (!size)
		return error("--size: a new test file needs at least 4 KiB");
	if (req->filename) {
		name = xstrdup(req->filename);
		before_open(name);
		/* O_EXCL: not through a link, nor onto anything that exists */
		fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_NOCTTY | O_CLOEXEC, 0600);
	} else {
		name = xstrfmt("%s/storan-run.XXXXXX", dir);
		fd = mkostemp(name, O_CLOEXEC);
	}
	if (fd < 0) {
		error("cannot create '%s': %s", name, strerror(errno));
		free(name);
		return -1;
	}
	unlink(name);
	t->kind = TARGET_NEW_FILE;
	t->fd = fd;
	t->path = name;
	t->size = size;
	t->needs_layout = 1;
	if (req->direct && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_DIRECT))
		return error("'%s': the file system does not take O_DIRECT "
			     "(%s); use --buffered", name, strerror(errno));
	if (fallocate(fd, 0, 0, (off_t)size) && errno == ENOSPC)
		return error("refusing: no room for a %llu-byte test file in "
			     "'%s'", (unsigned long long)size, dir);
	return 0;
}

/*
 * Opens the regular file st describes, and nothing else: the name is
 * resolved once (a link the user gave is followed there), the last part
 * opened with O_NOFOLLOW, and the descriptor must be that same inode.
 * A name swapped meanwhile (a link to a device in a shared /tmp) is
 * refused, never written.
 */
static int open_checked_file(const struct safety_request *req,
			     const struct stat *st, struct target *t)
{
	char *real = realpath(req->filename, NULL);
	struct stat fst;

	if (!real)
		return error("cannot open '%s': %s", req->filename,
			     strerror(errno));
	before_open(req->filename);
	t->fd = open(real, open_flags(req, req->writes) | O_NOFOLLOW);
	free(real);
	if (t->fd < 0 && errno == ELOOP)
		return error("'%s' changed while storan opened it (now a "
			     "symbolic link); not touched", req->filename);
	if (t->fd < 0)
		return error("cannot open '%s': %s", req->filename,
			     strerror(errno));
	if (fstat(t->fd, &fst) || !S_ISREG(fst.st_mode) ||
	    fst.st_dev != st->st_dev || fst.st_ino != st->st_ino)
		return error("'%s' changed while storan opened it (not the "
			     "file it checked); not touched", req->filename);
	return 0;
}

static int open_existing_file(const struct safety_request *req,
			      const struct stat *st, struct target *t)
{
	struct strbuf why = STRBUF_INIT;
	int n = 0;

	t->kind = TARGET_FILE;
	t->path = xstrdup(req->filename);
	t->size = req->size ? req->size : (uint64_t)st->st_size;
	if (req->writes && !req->overwrite)
		return error("refusing to write to '%s': storan did not create "
			     "it (--overwrite lets storan destroy its "
			     "contents)", req->filename);
	if (t->size > (uint64_t)st->st_size)
		return error("'%s' has %llu bytes, less than --size; storan "
			     "does not grow files it did not create",
			     req->filename, (unsigned long long)st->st_size);
	if (!t->size)
		return error("'%s' is empty; give a file with data to read",
			     req->filename);
	if (req->writes) {
		check_swaps(NULL, st->st_dev, st->st_ino, &why, &n);
		check_loop_backing(st->st_dev, st->st_ino, &why, &n);
	}
	if (n) {
		error("refusing to write to '%s': %s", req->filename, why.buf);
		strbuf_release(&why);
		return -1;
	}
	return open_checked_file(req, st, t);
}

static int same_device(const char *a, dev_t rdev)
{
	struct stat st;

	return !stat(a, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
}

/* Why writing to the device must not happen even with --destroy-data. */
static int device_write_allowed(const struct safety_request *req,
				const struct stat *st)
{
	struct strbuf why = STRBUF_INIT;
	unsigned char *head = xcalloc(1, 68 * 1024);
	ssize_t got = -1;
	int fd, rc = 0, read_errno;

	fd = open(req->filename, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0)
		got = pread(fd, head, 68 * 1024, 0);
	read_errno = errno;
	if (fd >= 0)
		close(fd);
	if (!req->destroy_data && got < 0) {
		rc = error("refusing to write to block device '%s' (storan "
			   "cannot read it to see what it holds: %s); "
			   "--destroy-data=%s destroys it", req->filename,
			   strerror(read_errno), req->filename);
	} else if (!req->destroy_data) {
		if (got > 0 && safety_signatures(head, (size_t)got, &why))
			rc = error("refusing to write to '%s': it holds a %s; "
				   "--destroy-data=%s destroys it",
				   req->filename, why.buf, req->filename);
		else
			rc = error("refusing to write to block device '%s' "
				   "(no known signature found, but it may "
				   "hold data); --destroy-data=%s destroys it",
				   req->filename, req->filename);
	} else if (!same_device(req->destroy_data, st->st_rdev)) {
		rc = error("refusing to write to '%s': --destroy-data names "
			   "'%s', not that device", req->filename,
			   req->destroy_data);
	} else if (safety_device_busy(st->st_rdev, &why)) {
		rc = error("refusing to write to '%s': %s", req->filename,
			   why.buf);
	}
	free(head);
	strbuf_release(&why);
	return rc;
}

static int open_block_device(const struct safety_request *req,
			     const struct stat *st, struct target *t)
{
	uint64_t devsize = 0;
	struct stat fst;

	t->kind = TARGET_BLOCK;
	t->path = xstrdup(req->filename);
	if (req->overwrite)
		return error("'%s' is a block device: --overwrite is for "
			     "regular files, --destroy-data=%s for devices",
			     req->filename, req->filename);
	if (req->writes && device_write_allowed(req, st))
		return -1;
	/* O_EXCL on a block device: the kernel refuses it when in use.
	 * A link is followed (/dev/disk/by-id/...): the device number must
	 * then be the one checked. */
	before_open(req->filename);
	t->fd = open(req->filename, open_flags(req, req->writes) |
		     (req->writes ? O_EXCL : 0));
	if (t->fd < 0)
		return error("cannot open '%s'%s: %s", req->filename,
			     req->writes ? " exclusively" : "",
			     strerror(errno));
	if (fstat(t->fd, &fst) || !S_ISBLK(fst.st_mode) ||
	    fst.st_rdev != st->st_rdev)
		return error("'%s' changed while storan opened it",
			     req->filename);
	if (ioctl(t->fd, BLKGETSIZE64, &devsize) || !devsize)
		return error("cannot read the size of '%s'", req->filename);
	t->size = req->size ? req->size : devsize;
	if (t->size > devsize)
		return error("--size is larger than '%s' (%llu bytes)",
			     req->filename, (unsigned long long)devsize);
	return 0;
}

/* The directory a new file goes to: --directory, or --filename's own. */
static char *new_file_dir(const struct safety_request *req)
{
	const char *slash;

	if (!req->filename)
		return xstrdup(req->directory ? req->directory : ".");
	slash = strrchr(req->filename, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == req->filename)
		return xstrdup("/");
	return xstrndup(req->filename, (size_t)(slash - req->filename));
}

static int open_target(const struct safety_request *req, struct target *t)
{
	struct stat st;
	int exists = 0, rc;
	char *dir;

	if (req->filename) {
		exists = !stat(req->filename, &st);
		if (!exists && errno != ENOENT)
			return error("cannot stat '%s': %s", req->filename,
				     strerror(errno));
	}
	if (req->destroy_data && (!exists || !S_ISBLK(st.st_mode)))
		return error("--destroy-data is for block devices; --filename "
			     "must name that same device");
	if (!exists) {
		dir = new_file_dir(req);
		rc = check_free_space(dir, req->size ? req->size
						     : DEFAULT_FILE_SIZE);
		free(dir);
		return rc ? rc : open_new_file(req, t);
	}
	if (S_ISREG(st.st_mode))
		return open_existing_file(req, &st, t);
	if (S_ISBLK(st.st_mode))
		return open_block_device(req, &st, t);
	return error("'%s' is neither a regular file nor a block device",
		     req->filename);
}

int safety_open_target(const struct safety_request *req, struct target *t)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (!open_target(req, t))
		return 0;
	target_close(t);
	return -1;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	free(t->path);
	t->path = NULL;
}
