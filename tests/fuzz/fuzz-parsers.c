/*
 * libFuzzer harness over every parser and the result-set reader.
 *
 * The first byte picks the target: even -> the whole ingest (input layer,
 * every parser that detects something, folding), odd -> the storan JSON
 * reader.  Every crash becomes a fixture under tests/parsers/.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/input.h"
#include "core/resultset.h"
#include "core/rs-json.h"
#include "core/strbuf.h"
#include "parsers/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set rs;
	struct diag_list diags;

	if (!size)
		return 0;
	result_set_init(&rs);
	diag_list_init(&diags);
	if (data[0] & 1) {
		struct strbuf err = STRBUF_INIT;

		rs_json_read("fuzz.json", (const char *)data + 1, size - 1,
			     &rs, &err);
		strbuf_release(&err);
	} else {
		struct input in;

		input_from_buffer(&in, "fuzz.txt", (const char *)data + 1,
				  size - 1);
		ingest_input(&in, NULL, &rs, &diags);
		input_release(&in);
	}
	result_set_release(&rs);
	diag_list_release(&diags);
	return 0;
}
