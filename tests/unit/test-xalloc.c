/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core/xalloc.c's huge-page advice: it covers a big block's mapping
 * whole.  Advice on the 2 MB-aligned interior only split the mapping in
 * three, and glibc's realloc() could no longer grow the block with
 * mremap() (EFAULT): each doubling of a million rows was a new block and
 * a copy.  The mapping holding the block is read from /proc/self/maps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* The mapping [*from, *to) that holds address p: 0, or -1. */
static int mapping_of(const void *p, uintptr_t *from, uintptr_t *to)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (sscanf(line, "%lx-%lx", &a, &b) == 2 &&
		    a <= (uintptr_t)p && (uintptr_t)p < b) {
			*from = a;
			*to = b;
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

static void test_big_block_one_mapping(void **state)
{
	size_t size = (size_t)9 << 20, more = (size_t)40 << 20;
	uintptr_t from, to;
	char *p;

	(void)state;
#ifdef UNDER_ASAN
	skip();	/* ASan's allocator maps blocks its own way */
#endif
	mallopt(M_TRIM_THRESHOLD, 2 << 20);	/* as storan.c: a fixed
						 * mmap threshold */
	xalloc_huge_pages(1);
	p = xmalloc(size);
	memset(p, 'x', size);
	assert_int_equal(mapping_of(p, &from, &to), 0);
	/* the whole block in one mapping: not split at 2 MB boundaries */
	assert_true(to >= (uintptr_t)p + size);
	p = xrealloc(p, more);
	assert_int_equal(mapping_of(p, &from, &to), 0);
	assert_true(to >= (uintptr_t)p + more);
	assert_int_equal(p[0], 'x');
	assert_int_equal(p[size - 1], 'x');
	free(p);
	xalloc_huge_pages(0);
}

/* Without huge pages asked for, nothing changes either. */
static void test_small_and_off(void **state)
{
	char *p;

	(void)state;
	p = xmalloc(100);
	strcpy(p, "kept");
	p = xrealloc(p, (size_t)6 << 20);
	assert_string_equal(p, "kept");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big_block_one_mapping),
		cmocka_unit_test(test_small_and_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
