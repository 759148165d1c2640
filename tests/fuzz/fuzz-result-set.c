/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The storan JSON reader (rs_json_read), on a document as load_input()
 * hands it over (NUL-terminated).  What it accepts is written again and
 * must be read back the same: the CSV exports of the first and second
 * reading are equal (fuzz_check_result).
 */
#include "fuzz-common.h"

#include "core/resultset.h"
#include "core/rs-json.h"
#include "core/strbuf.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct result_set rs;
	char *text = fuzz_copy(data, size);

	result_set_init(&rs);
	rs_json_sniff(text, size);
	if (!rs_json_read("fuzz.json", text, size, &rs, &err))
		fuzz_check_result(&rs);
	result_set_release(&rs);
	strbuf_release(&err);
	free(text);
	return 0;
}
