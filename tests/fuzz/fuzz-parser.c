/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One parser alone, on the text of one file: built once per parser with
 * -DFUZZ_PARSER='"fio"' (its name in parsers[]), so that each target's
 * corpus and dictionary are that tool's output and every input reaches
 * its parser, not the others' detect().  The input goes through the input
 * layer and ingest as a file would (ingest_input_with), then the checks
 * of fuzz-common.h.
 */
#include "fuzz-common.h"

#include "ingest/ingest.h"
#include "parsers/parser.h"

#ifndef FUZZ_PARSER
#error "build with -DFUZZ_PARSER='\"NAME\"' (a name in parsers[])"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct parser *list[2];

	if (!list[0])
		list[0] = fuzz_parser(FUZZ_PARSER);
	fuzz_ingest("fuzz.txt", data, size, list);
	return 0;
}
