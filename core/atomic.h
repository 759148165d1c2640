/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Output files are written whole or not at all: into a temporary file in
 * the same directory, then renamed over the target.  "-" is stdout.
 *
 * What -o may name, checked on the object itself (opened with O_PATH,
 * then fstat), never on a name that could change in between:
 *   - a regular file, or a new one: replaced by rename, so a reader
 *     never sees half of it; a symbolic link is followed and stays a
 *     link; a new file gets 0666 less the umask, a replaced one keeps
 *     its mode (and its owner, where storan may set it);
 *   - a FIFO or a socket: written in place (renaming over it would
 *     replace the node with a file);
 *   - /dev/null, and /dev/stdout, /dev/stderr, /dev/fd/N,
 *     /proc/self/fd/N: written in place, to that descriptor;
 *   - nothing else: a block device (its file system would be gone) or
 *     any other character device is refused, naming it.
 * Standard output that is a block device is refused too.
 *
 * "Whole" is against storan failing: an error, a full disk, a signal
 * (SIGINT, SIGTERM, SIGHUP, SIGPIPE: core/tmpfiles.h) never leave a
 * partial file, nor the temporary one.  The file is not synced to the
 * disk (as sed -i and sort -o do not): an fsync of a 3.4 MB CSV took
 * 3 ms of the 55 a 4 MB fio JSON+ ingest takes, for a result one can
 * write again.  After a power cut it may be the old file (ext4 flushes a
 * file renamed over another) or, for a new one, empty.
 *
 * Replacing a file, the write-out of the new one is started every
 * FLUSH_STEP bytes (sync_file_range, no wait): ext4 and btrfs start it
 * anyway when the rename replaces a file, all at once and in the rename
 * call (7 of its 11 ms for the 11 MB result set of a fio JSON+ file;
 * in steps, the whole ingest took 4-6 ms less).
 */
#ifndef STORAN_ATOMIC_H
#define STORAN_ATOMIC_H

#include <stddef.h>
#include <sys/types.h>

/* Returns 0, or -1 after printing what failed (naming path). */
int write_file_atomic(const char *path, const char *data, size_t len);

/*
 * May path be written as an output?  0, or -1 after printing why not
 * ("'/dev/sdb' is a block device: ...").  Commands ask before their
 * work (a two-minute run, a long ingest); atomic_file_open() asks again.
 */
int output_path_check(const char *path);

/*
 * The same, written in pieces: open, write any number of times, then
 * commit (rename into place) or abort (remove the temporary file).  Each
 * returns 0, or -1 after printing what failed.
 */
struct atomic_file {
	char *path;	/* NULL: standard output */
	char *tmp;	/* NULL: written in place */
	int fd;
	int tmp_handle;	/* core/tmpfiles.h, -1 when none */
	int failed;	/* a write failed: commit will refuse */
	int replacing;	/* tmp will be renamed over an existing file */
	mode_t mode;	/* the mode tmp gets at commit */
	uid_t uid;	/* the replaced file's owner and group */
	gid_t gid;
	dev_t dev;	/* the replaced file, as checked: it must still be */
	ino_t ino;	/* there at commit (a swapped link is refused) */
	long long written, flushed;	/* bytes: all, write-out started */
};

int atomic_file_open(struct atomic_file *af, const char *path);
int atomic_file_write(struct atomic_file *af, const char *data, size_t len);
/*
 * A strbuf_drain's fn (core/strbuf.h) for an atomic_file: writes the
 * text and empties it.  A write that failed was said, and commit
 * refuses.
 */
struct strbuf;
void atomic_file_drain(struct strbuf *text, void *af);
int atomic_file_commit(struct atomic_file *af);
void atomic_file_abort(struct atomic_file *af);

/* The process's umask (read once, without changing it for others). */
mode_t current_umask(void);

#endif
