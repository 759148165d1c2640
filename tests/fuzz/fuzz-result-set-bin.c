/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The storan/1 binary reader (rs_bin_read), on a file's bytes as
 * load_input() hands them over.  What it accepts is checked as the JSON
 * reader's sets are (fuzz_check_result: written as JSON and read back,
 * the same CSV), and written in binary and read back, the same bytes.
 */
#include "fuzz-common.h"

#include "core/resultset.h"
#include "core/rs-bin.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void check_binary_again(const struct result_set *rs)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;
	struct result_set back;

	rs_bin_write(rs, &a, NULL);
	result_set_init(&back);
	if (rs_bin_read("again.srb", a.buf, a.len, &back, &err))
		BUG("binary written, not read back: %s", err.buf);
	rs_bin_write(&back, &b, NULL);
	if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
		BUG("binary read back is not written the same");
	result_set_release(&back);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
}

/*
 * rs_bin_count() as load_inputs() uses it: a slice of that many
 * measurements made first (never more than the file could hold) takes
 * what the reader accepts, which is that many.
 */
static void check_count(const char *text, size_t size, int accepted,
			size_t n)
{
	size_t count = rs_bin_count(text, size < RS_BIN_HEAD_MAX ? size :
				    RS_BIN_HEAD_MAX, size);
	struct measurement *block;
	struct strbuf err = STRBUF_INIT;
	struct result_set rs;

	if (count > size / 48)
		BUG("%zu measurements counted in %zu bytes", count, size);
	if (accepted && count != n)
		BUG("counted %zu measurements, read %zu", count, n);
	if (!count)
		return;
	block = xmalloc(count * sizeof(*block));
	result_set_init(&rs);
	rs.m = block;
	rs.alloc = count;
	rs.m_borrowed = 1;
	if ((rs_bin_read("fuzz.srb", text, size, &rs, &err) == 0) != accepted)
		BUG("read into a slice, another answer");
	if (accepted && (!rs.m_borrowed || rs.m != block || rs.n != n))
		BUG("read into a slice, not in its place");
	result_set_release(&rs);
	free(block);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct result_set rs;
	char *text = fuzz_copy(data, size);
	int accepted;

	result_set_init(&rs);
	accepted = !rs_bin_read("fuzz.srb", text, size, &rs, &err);
	if (accepted) {
		fuzz_check_result(&rs);
		check_binary_again(&rs);
	}
	check_count(text, size, accepted, rs.n);
	result_set_release(&rs);
	strbuf_release(&err);
	free(text);
	return 0;
}
