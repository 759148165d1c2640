/*
 * Output files are written whole or not at all: into a temporary file in
 * the same directory, then renamed over the target.  "-" is stdout.
 */
#ifndef STORAN_ATOMIC_H
#define STORAN_ATOMIC_H

#include <stddef.h>

/* Returns 0, or -1 after printing what failed (naming path). */
int write_file_atomic(const char *path, const char *data, size_t len);

#endif
