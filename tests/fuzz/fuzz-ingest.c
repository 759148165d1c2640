/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The whole ingest of one file: the input layer, every parser that
 * detects something, the context pass (sections, commands), folding of
 * repeated runs; then the checks of fuzz-common.h.  Slower than the
 * one-parser targets (every detect() on every input); it finds what
 * happens between parsers (two of them reading one line).
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("fuzz.txt", data, size, NULL);
	return 0;
}
