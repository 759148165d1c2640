/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the libFuzzer targets under tests/fuzz/ share: a copy of the
 * fuzzer's bytes as storan holds a file (NUL-terminated), one ingest with
 * some parsers, and the checks every ingest must pass beside not crashing.
 *
 * A finding is a crash, a sanitizer report, a leak, a timeout, or a
 * BUG() from the checks below: every value a parser emitted is finite;
 * what ingest produced, written as storan JSON and read back, exports
 * the same CSV as it did (text that is not UTF-8 excepted, see
 * fuzz-common.c).  With FUZZ_CSV_ROUND_TRIP=1 in the environment, the
 * CSV export read back by the CSV import must export the same CSV too:
 * off by default, because labels whose values hold ';' then '=' (a
 * command "sync; echo 3 > ...") do not survive the k=v;k=v column, a
 * limit of the CSV contract that every input with such text hits.
 */
#ifndef STORAN_FUZZ_COMMON_H
#define STORAN_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

struct parser;
struct result_set;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data[0..size) and a NUL after it, in fresh memory the caller owns. */
char *fuzz_copy(const uint8_t *data, size_t size);

/* The parser of that name in parsers[], or BUG(). */
const struct parser *fuzz_parser(const char *name);

/*
 * Ingests data as storan ingest reads a file of that name: with the
 * parsers of list (NULL-terminated), or every parser when list is NULL;
 * then fuzz_check_result().
 */
void fuzz_ingest(const char *name, const uint8_t *data, size_t size,
		 const struct parser *const *list);

/* The checks above on an ingested result set (BUG() on a failure). */
void fuzz_check_result(const struct result_set *rs);

#endif
