/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's logs (parsers/fio-log.c) say what they measure only in their
 * file name: the first byte picks one (bw, iops, clat, a histogram log,
 * or a name that says nothing), the rest is the file.
 */
#include "fuzz-common.h"

#include "parsers/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"job_bw.1.log", "job_iops.1.log", "job_clat.1.log",
		"job_clat_hist.1.log", "job_lat.2.log", "fuzz.log",
	};
	static const struct parser *list[2];

	if (!size)
		return 0;
	if (!list[0])
		list[0] = fuzz_parser("fio-log");
	fuzz_ingest(names[data[0] % (sizeof(names) / sizeof(names[0]))],
		    data + 1, size - 1, list);
	return 0;
}
