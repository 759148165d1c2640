/*
 * libFuzzer harness over every parser and the result-set reader.
 *
 * The first byte picks the target, by its value modulo 3: 0 -> the whole
 * ingest (input layer, every parser that detects something, folding),
 * 1 -> the storan JSON reader, 2 -> core/json-scan on its own (every
 * document in the data, every lookup on every token; integer maps packed
 * when the byte is odd, as the fio JSON reader asks).  Every crash
 * becomes a fixture under tests/parsers/ (or tests/unit/).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/input.h"
#include "core/json-scan.h"
#include "core/resultset.h"
#include "core/rs-json.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "parsers/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads every token of the documents scanned so far, as a parser would. */
static void walk_tokens(struct jscan *js)
{
	const struct jscan_member *m;
	double v;

	for (size_t i = 0; i < js->ntok; i++) {
		if (js->tok[i].next <= i || js->tok[i].next > js->ntok)
			BUG("token %zu ends at %u", i, js->tok[i].next);
		jscan_num(js, i, &v);
		jscan_int(js, i);
		jscan_at(js, i, 1);
		if (jscan_type(js, i) == JSCAN_INT_MAP) {
			size_t n = jscan_size(js, i) + 1;
			uint64_t *k = xcalloc(n, sizeof(*k));
			uint64_t *c = xcalloc(n, sizeof(*c));

			if (jscan_int_map_read(js, i, k, c) != n - 1)
				BUG("integer map %zu: wrong count", i);
			free(k);
			free(c);
		}
		if (jscan_type(js, i) != JSCAN_OBJECT)
			continue;
		jscan_get(js, i, "jobs");
		for (size_t k = 0, n = jscan_members(js, i, &m); k < n; k++)
			jscan_str(js, m[k].key);
	}
	for (size_t i = 0; i < js->ntok; i++)
		jscan_str(js, i);
}

static void fuzz_json_scan(const uint8_t *data, size_t size, int packed)
{
	char *buf = xmalloc(size + 1);
	struct jscan *js = xmalloc(sizeof(*js));
	size_t at = 0, root;

	memcpy(buf, data, size);
	buf[size] = '\0';
	jscan_init(js, buf, size);
	js->pack_key = packed ? "bins" : NULL;
	while (at < size) {	/* documents one after another */
		if (jscan_parse(js, at, &root))
			at = js->err.pos > at ? js->err.pos : at + 1;
		else
			at = js->end;
	}
	walk_tokens(js);
	jscan_release(js);
	free(js);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set rs;
	struct diag_list diags;

	if (!size)
		return 0;
	if (data[0] % 3 == 2) {
		fuzz_json_scan(data + 1, size - 1, data[0] & 1);
		return 0;
	}
	result_set_init(&rs);
	diag_list_init(&diags);
	if (data[0] % 3 == 1) {
		struct strbuf err = STRBUF_INIT;

		rs_json_read("fuzz.json", (const char *)data + 1, size - 1,
			     &rs, &err);
		strbuf_release(&err);
	} else {
		struct input in;
		char *copy = xmalloc(size);

		/* as load_input() reads a file: uncut when a parser may
		 * read it whole (a lone fio JSON document) */
		memcpy(copy, data + 1, size - 1);
		copy[size - 1] = '\0';
		input_init_bare(&in, "fuzz.txt", copy, size - 1);
		if (ingest_may_read_whole(&in))
			input_finish_uncut(&in);
		else
			input_finish(&in);
		ingest_input(&in, NULL, &rs, &diags);
		input_release(&in);
	}
	result_set_release(&rs);
	diag_list_release(&diags);
	return 0;
}
