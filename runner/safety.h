/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The never-destroy-data rules, in one place.  storan run writes only to
 *
 *   - a file it created itself (unlinked as soon as it is open, so that
 *     nothing is left behind after success, failure, Ctrl-C or a kill);
 *   - an existing regular file when --overwrite is given (and the file is
 *     not in use as swap nor behind a loop device);
 *   - a block device when --destroy-data=DEVICE names that same device,
 *     and even then never when the device, one of its partitions or a
 *     holder is mounted, used as swap, or part of an md/dm/LVM stack, and
 *     only through an exclusive (O_EXCL) open that stays open for the run.
 *
 * Without --destroy-data a write to a device is refused, naming the
 * file-system or partition-table signature found on it.  A write test
 * that does not fit in the free space is refused before it starts.
 * Reading is free.  safety_open_target() is the only way the runner gets
 * a file descriptor to measure; struct target says which range
 * [0, size) the runner may touch.
 */
#ifndef STORAN_RUNNER_SAFETY_H
#define STORAN_RUNNER_SAFETY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct strbuf;

enum target_kind {
	TARGET_NEW_FILE,	/* created (and already unlinked) by storan */
	TARGET_FILE,		/* an existing regular file */
	TARGET_BLOCK,		/* a block device */
};

struct safety_request {
	const char *filename;	/* NULL: a new file in directory */
	const char *directory;	/* NULL: the current directory */
	uint64_t size;		/* 0: not given */
	int writes;		/* the sweep writes to the target */
	int direct;
	int overwrite;
	const char *destroy_data;	/* --destroy-data=DEVICE, or NULL */
};

struct target {
	enum target_kind kind;
	int fd;
	char *path;		/* as named, or the new file's (gone) name */
	uint64_t size;		/* the runner uses [0, size), no more */
	int needs_layout;	/* new file: fill it before reading */
};

#define DEFAULT_FILE_SIZE (UINT64_C(1) << 30)

/*
 * Opens the target the request names, applying every rule above.
 * Returns 0, or -1 after printing why it refused (error()).
 */
int safety_open_target(const struct safety_request *req, struct target *t);
void target_close(struct target *t);

/*
 * Tests only: called with --filename after every check on it and before
 * it is opened, so that a test can swap the name (for a symbolic link to
 * a device, say) at the one moment a local attacker would.  NULL in
 * storan itself.  Whatever is found then, the runner opens only the
 * object it checked (O_NOFOLLOW, then fstat: the same inode, or the same
 * device number), or refuses.
 */
extern void (*safety_before_open)(const char *path);

/*
 * What a block device's first bytes say it holds: "ext2/3/4 file system",
 * "GPT partition table", ... joined with ", " into out; returns the
 * number of signatures found.  buf holds the first len bytes.
 */
int safety_signatures(const unsigned char *buf, size_t len,
		      struct strbuf *out);

/*
 * Why the block device dev (or a partition or holder of it) must not be
 * written: mounted, swap, stacked.  Appends reasons to why and returns
 * their number (0: none found).
 */
int safety_device_busy(dev_t dev, struct strbuf *why);

#endif
