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
static struct {
	CRYPTO_FUNCTIONS(DYNLIB_POINTER)
} crypto;

/*
 * One digest needs neither the system's openssl.cnf nor a clean-up at
 * exit: without them the first digest takes 0.6 ms, not 1.2 ms, and
 * exiting is quicker too (a 2.9 -> 2.5 ms process).
 */
static void crypto_loaded(void)
{
	crypto.OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG |
				   OPENSSL_INIT_NO_ATEXIT, NULL);
}

#define CRYPTO_SLOT(f) DYNLIB_SLOT(crypto, f)
static const struct dynlib_table crypto_lib = DYNLIB_TABLE(CRYPTO_SONAME,
	"SHA-256 digests of inputs and reports", CRYPTO_FUNCTIONS,
	CRYPTO_SLOT, crypto_loaded);
#undef CRYPTO_SLOT
static struct dynlib_once crypto_once = DYNLIB_ONCE_INIT;

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
	if (dynlib_load_once(&crypto_once, &crypto_lib))
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
