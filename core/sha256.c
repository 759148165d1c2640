/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SHA-256 digests in hex; see sha256.h. */
#include "sha256.h"
#include "dynlib.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <unistd.h>

/*
 * libcrypto is opened when a first digest is asked for (core/dynlib.h):
 * linked, its 21,000 relocations were 4 of the 10.5 ms of every storan
 * start on the test VM, and compare, table and check never hash.  An
 * ingest hashes on a thread of its own, which opens it there.
 */
#ifndef CRYPTO_SONAME
#define CRYPTO_SONAME "libcrypto.so.3"
#endif
#define CRYPTO_FUNCTIONS(X) \
	X(EVP_Digest) \
	X(EVP_DigestFinal_ex) \
	X(EVP_DigestInit_ex) \
	X(EVP_DigestUpdate) \
	X(EVP_MD_CTX_free) \
	X(EVP_MD_CTX_new) \
	X(EVP_sha256) \
	X(OPENSSL_init_crypto)
#define CRYPTO_POINTER(f) __typeof__(f) *f;
static struct {
	CRYPTO_FUNCTIONS(CRYPTO_POINTER)
} crypto;
#undef CRYPTO_POINTER

static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
static int crypto_state;	/* 1 loaded, -1 failed (and said so) */

/*
 * One digest needs neither the system's openssl.cnf nor a clean-up at
 * exit: without them the first digest takes 0.6 ms, not 1.2 ms, and
 * exiting is quicker too (a 2.9 -> 2.5 ms process).
 */
#define CRYPTO_SLOT(f) (void **)(void *)&crypto.f,
static void load_crypto(void)
{
	const struct dynlib_table t = {
		CRYPTO_SONAME, "SHA-256 digests of inputs and reports",
		(const char *const[]){ CRYPTO_FUNCTIONS(DYNLIB_NAME) },
		(void **const[]){ CRYPTO_FUNCTIONS(CRYPTO_SLOT) },
		DYNLIB_COUNT(CRYPTO_FUNCTIONS),
	};

	if (dynlib_load(&t)) {
		crypto_state = -1;
		return;
	}
	crypto.OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG |
				   OPENSSL_INIT_NO_ATEXIT, NULL);
	crypto_state = 1;
}
#undef CRYPTO_SLOT

static void to_hex(const unsigned char *digest, char out[65])
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < SHA256_DIGEST_LENGTH; i++) {
		out[2 * i] = hex[digest[i] >> 4];
		out[2 * i + 1] = hex[digest[i] & 15];
	}
	out[2 * SHA256_DIGEST_LENGTH] = '\0';
}

/* Once per process, thread-safe; a digest storan cannot make is fatal
 * (libcrypto is a dependency of its package). */
static void init_crypto(void)
{
	pthread_once(&crypto_once, load_crypto);
	if (crypto_state < 0)
		die("cannot compute SHA-256 digests");
}

void sha256_hex(const void *data, size_t size, char out[65])
{
	unsigned char digest[SHA256_DIGEST_LENGTH];

	init_crypto();
	if (!crypto.EVP_Digest(data, size, digest, NULL, crypto.EVP_sha256(),
			       NULL))
		die("SHA-256 failed");
	to_hex(digest, out);
}

int sha256_file_hex(int dirfd, const char *name, char out[65])
{
	unsigned char digest[SHA256_DIGEST_LENGTH], buf[65536];
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	EVP_MD_CTX *ctx;
	ssize_t got = 0;

	if (fd < 0)
		return -1;
	init_crypto();
	ctx = crypto.EVP_MD_CTX_new();
	if (!ctx ||
	    !crypto.EVP_DigestInit_ex(ctx, crypto.EVP_sha256(), NULL))
		die("SHA-256 failed");
	while ((got = read(fd, buf, sizeof(buf))) > 0 ||
	       (got < 0 && errno == EINTR))
		if (got > 0 && !crypto.EVP_DigestUpdate(ctx, buf, (size_t)got))
			die("SHA-256 failed");
	if (!got && !crypto.EVP_DigestFinal_ex(ctx, digest, NULL))
		die("SHA-256 failed");
	crypto.EVP_MD_CTX_free(ctx);
	close(fd);
	if (got < 0)
		return -1;
	to_hex(digest, out);
	return 0;
}

void sha256_begin(struct sha256_stream *st)
{
	EVP_MD_CTX *ctx;

	init_crypto();
	ctx = crypto.EVP_MD_CTX_new();
	if (!ctx ||
	    !crypto.EVP_DigestInit_ex(ctx, crypto.EVP_sha256(), NULL))
		die("SHA-256 failed");
	st->ctx = ctx;
}

void sha256_update(struct sha256_stream *st, const void *data, size_t size)
{
	if (!crypto.EVP_DigestUpdate(st->ctx, data, size))
		die("SHA-256 failed");
}

void sha256_end_hex(struct sha256_stream *st, char out[65])
{
	unsigned char digest[SHA256_DIGEST_LENGTH];

	if (!crypto.EVP_DigestFinal_ex(st->ctx, digest, NULL))
		die("SHA-256 failed");
	crypto.EVP_MD_CTX_free(st->ctx);
	st->ctx = NULL;
	to_hex(digest, out);
}
