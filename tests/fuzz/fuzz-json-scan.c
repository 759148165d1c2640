/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/json-scan on its own: every document in the data, one after
 * another, then every lookup on every token.  The first byte packs
 * integer maps when odd (the fio JSON reader packs "bins"); the rest is
 * the text, NUL-terminated as an input's is.
 */
#include "fuzz-common.h"

#include <stdlib.h>
#include <string.h>

#include "core/json-scan.h"
#include "core/xalloc.h"

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
	char *buf = fuzz_copy(data, size);
	struct jscan *js = xmalloc(sizeof(*js));
	size_t at = 0, root;

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
	if (size)
		fuzz_json_scan(data + 1, size - 1, data[0] & 1);
	return 0;
}
