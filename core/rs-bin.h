/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The result set in binary (storan/1 binary): the same content as the
 * storan/1 JSON document, in fixed-size little-endian records that are
 * read where the file is mapped, with no text to scan.  A million
 * measurements are 295 MB of JSON and 72 MB here, and are read several
 * times faster.  docs/result-format.md describes every byte; JSON stays
 * the format to exchange and to read, `storan export --format binary`
 * and `--format json` convert one into the other.
 *
 * Every reader of result sets takes either (ingest/load.c tells them
 * apart by the first bytes).  The reader trusts nothing in the file:
 * every offset, count and figure is checked as the JSON reader checks
 * its text, with a message naming the file and the measurement.
 */
#ifndef STORAN_RS_BIN_H
#define STORAN_RS_BIN_H

#include "resultset.h"
#include "strbuf.h"

#include <stdint.h>

/* The first eight bytes: as PNG's, a byte above 0x7f first (no text
 * tool takes it for text) and the line ends a text-mode copy mangles. */
#define RS_BIN_MAGIC "\211srs\r\n\032\n"
#define RS_BIN_MAGIC_LEN 8
#define RS_BIN_VERSION 1

/* Do the first len bytes of data start a binary result set? */
int rs_bin_sniff(const char *data, size_t len);

/* rs as a binary result set, passed to drain as it is made (whole into
 * out when drain is NULL). */
void rs_bin_write(const struct result_set *rs, struct strbuf *out,
		  const struct strbuf_drain *drain);

/*
 * The number of measurements in a binary result set of file_size bytes,
 * as the table of sections in its first len bytes (head) gives it (a
 * hint, checked by nothing else): 0 when they do not say.  The table of
 * sections is in the first RS_BIN_HEAD_MAX bytes.
 */
#define RS_BIN_HEAD_MAX (16 + 64 * 24)
size_t rs_bin_count(const char *head, size_t len, uint64_t file_size);

/*
 * Appends the set in data[0..len) to rs (its sources after rs's).  0, or
 * -1 with "NAME: what is wrong" in err and rs as it was.
 */
int rs_bin_read(const char *name, const char *data, size_t len,
		struct result_set *rs, struct strbuf *err);

#endif
