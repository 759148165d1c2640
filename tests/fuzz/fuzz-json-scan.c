/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/json-scan on its own: every document in the data, one after
 * another, then every lookup on every token.  The first byte packs
 * integer maps when odd (the fio JSON reader packs "bins"); the rest is
 * the text, NUL-terminated as an input's is.  The text is read twice,
 * in place and with copy_strings: the second reader must leave its
 * buffer as it was (a mapped input is hashed on another thread while it
 * is read) and find the same members, keys and strings as the first.
 * Then the first document is read again with a second thread from each
 * bracket on (jscan_parse_split()): the same tokens or the same error.
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

/* A reader of buf with every document in it scanned. */
static struct jscan *scan_all(char *buf, size_t size, int packed,
			      int copy_strings)
{
	struct jscan *js = xmalloc(sizeof(*js));
	size_t at = 0, root;

	jscan_init(js, buf, size);
	js->pack_key = packed ? "bins" : NULL;
	js->copy_strings = copy_strings;
	while (at < size) {	/* documents one after another */
		if (jscan_parse(js, at, &root))
			at = js->err.pos > at ? js->err.pos : at + 1;
		else
			at = js->end;
	}
	return js;
}

static void same_text(const char *a, const char *b, size_t i)
{
	if (!a != !b || (a && strcmp(a, b)))
		BUG("token %zu: '%s' in place, '%s' copied", i, a ? a : "-",
		    b ? b : "-");
}

/* Every object's members and every string: the same from both readers. */
static void compare_readers(struct jscan *in_place, struct jscan *copying)
{
	const struct jscan_member *m, *c;

	if (in_place->ntok != copying->ntok)
		BUG("%zu tokens in place, %zu copied", in_place->ntok,
		    copying->ntok);
	for (size_t i = 0; i < in_place->ntok; i++) {
		size_t n, k;

		if (jscan_type(in_place, i) != JSCAN_OBJECT)
			continue;
		n = jscan_members(in_place, i, &m);
		if (jscan_members(copying, i, &c) != n)
			BUG("object %zu: members differ", i);
		for (k = 0; k < n; k++) {
			if (m[k].key != c[k].key || m[k].value != c[k].value)
				BUG("object %zu: member %zu differs", i, k);
			same_text(jscan_str(in_place, m[k].key),
				  jscan_str(copying, c[k].key), m[k].key);
		}
	}
	for (size_t i = 0; i < in_place->ntok; i++)
		same_text(jscan_str(in_place, i), jscan_str(copying, i), i);
}

/*
 * jscan_parse_split() of the first document at every '{' or '[' after
 * its start (every 17th, past a hundred): what jscan_parse() gives,
 * token for token, or the same error.
 */
static void same_with_helper(const uint8_t *data, size_t size, int packed)
{
	char *buf = fuzz_copy(data, size), *two = fuzz_copy(data, size);
	struct jscan *x = xmalloc(sizeof(*x)), *y = xmalloc(sizeof(*y));
	size_t rx, ry, tried = 0;
	int cx;

	jscan_init(x, buf, size);
	x->pack_key = packed ? "bins" : NULL;
	x->copy_strings = 1;
	cx = jscan_parse(x, 0, &rx);
	for (size_t split = 1; split < size; split++) {
		if ((data[split] != '{' && data[split] != '[') ||
		    (++tried > 100 && tried % 17))
			continue;
		jscan_init(y, two, size);
		y->pack_key = x->pack_key;
		y->copy_strings = 1;
		if (jscan_parse_split(y, 0, split, &ry) != cx ||
		    y->ntok != x->ntok || (!cx && (ry != rx ||
						   y->end != x->end)) ||
		    (cx && (strcmp(y->err.text, x->err.text) ||
			    y->err.pos != x->err.pos ||
			    y->err.line != x->err.line)))
			BUG("split at %zu: not what one thread reads", split);
		for (size_t i = 0; i < x->ntok; i++)
			if (y->tok[i].start != x->tok[i].start ||
			    y->tok[i].len != x->tok[i].len ||
			    y->tok[i].next != x->tok[i].next ||
			    y->tok[i].type != x->tok[i].type ||
			    y->tok[i].flags != x->tok[i].flags)
				BUG("split at %zu: token %zu differs", split,
				    i);
		jscan_release(y);
	}
	jscan_release(x);
	free(x);
	free(y);
	free(two);
	free(buf);
}

static void fuzz_json_scan(const uint8_t *data, size_t size, int packed)
{
	char *buf = fuzz_copy(data, size), *kept = fuzz_copy(data, size);
	struct jscan *js = scan_all(buf, size, packed, 0);
	struct jscan *cs;

	walk_tokens(js);
	jscan_release(js);
	free(js);
	memcpy(buf, kept, size + 1);
	js = scan_all(buf, size, packed, 0);
	cs = scan_all(kept, size, packed, 1);
	compare_readers(js, cs);
	walk_tokens(cs);
	if (memcmp(kept, data, size))
		BUG("copy_strings wrote to its buffer");
	jscan_release(cs);
	jscan_release(js);
	free(cs);
	free(js);
	free(kept);
	free(buf);
	same_with_helper(data, size, packed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size)
		fuzz_json_scan(data + 1, size - 1, data[0] & 1);
	return 0;
}
