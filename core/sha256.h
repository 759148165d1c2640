/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SHA-256 as 64 lowercase hex digits: the provenance of inputs, and the
 * manifest of a report directory.  OpenSSL's libcrypto rather than a
 * smaller library: it uses the CPU's SHA extensions where there are
 * some, and hashing was a third of ingesting a 4 MB fio JSON+ file.
 */
#ifndef STORAN_SHA256_H
#define STORAN_SHA256_H

#include <stddef.h>

void sha256_hex(const void *data, size_t size, char out[65]);

/* The file's digest: 0, or -1 with errno set (it could not be read). */
int sha256_file_hex(int dirfd, const char *name, char out[65]);

/* The same in pieces, for a text read front to back in windows. */
struct sha256_stream {
	void *ctx;	/* EVP_MD_CTX */
};
void sha256_begin(struct sha256_stream *st);
void sha256_update(struct sha256_stream *st, const void *data, size_t size);
/* The digest in hex; the stream is released. */
void sha256_end_hex(struct sha256_stream *st, char out[65]);

#endif
