/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Big input files mapped instead of read.
 *
 * read() copies a file into fresh memory: for a 4 MB fio JSON+ file that
 * was 1,080 page faults and a copy, a sixth of ingesting it.  A private
 * mapping shows the page cache itself.  Its one danger is a file that
 * shrinks while it is mapped (a log truncated by logrotate): touching a
 * page past the new end raises SIGBUS.  Here that never kills storan: the
 * handler puts a page of zeros there and marks the mapping truncated, and
 * the reader then reports "the file shrank while it was read" and keeps
 * nothing from it (a shrink within the last page raises nothing: the
 * size is checked again, on the file kept open).  An I/O error reading a
 * page looks the same to the handler and is reported the same way.
 * Bytes appended meanwhile are not seen: the last page, NUL-terminated,
 * is the mapping's own.  Writes to a mapping stay private.
 */
#ifndef STORAN_FILEMAP_H
#define STORAN_FILEMAP_H

#include <stddef.h>

#define FILEMAP_MIN (1 << 20)	/* smaller files are read: cheaper */

/*
 * Maps the size bytes of the regular file open on fd, NUL-terminated
 * (data[size] is 0).  Returns NULL when the file is not worth mapping or
 * cannot be (too small, a size that leaves no byte for the NUL, no slot
 * left, mmap failing): the caller reads it instead.
 */
char *filemap_open(int fd, size_t size);
/* Did the file lose bytes under mapping data (they read as zeros), or
 * one of its pages fail to read? */
int filemap_truncated(const char *data);
/*
 * A reader that went through bytes [from, to) of mapping data, will not
 * write them and may not come back: their whole pages leave memory (the
 * page cache keeps them; touched again, they come back from it).  Reading
 * a log of several GB front to back then holds a window, not the file.
 * The last page (the mapping's own, with the NUL) is kept.  Nothing for
 * data that is not a mapping.
 */
void filemap_drop(const char *data, size_t from, size_t to);
/* Offset off rounded down to a page's start (off itself before any file
 * was mapped: nothing is dropped then). */
size_t filemap_page_floor(size_t off);
/* Unmaps data and returns 1 if it is a mapping, else returns 0. */
int filemap_close(char *data);

#endif
