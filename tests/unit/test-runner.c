/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan run's pure parts: option parsers and presets, file-system and
 * partition-table signatures, link names, the --verify pattern and the
 * data generator.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/strbuf.h"
#include "runner/job.h"
#include "runner/safety.h"
#include "runner/sysfs.h"
#include "runner/target.h"

static void test_sizes(void **state)
{
	static const struct { const char *text; uint64_t v; } good[] = {
		{ "512", 512 }, { "4k", 4096 }, { "4K", 4096 },
		{ "64M", 64u << 20 }, { "1G", 1u << 30 }, { "1GiB", 1u << 30 },
		{ "2MB", 2u << 20 }, { "1.5k", 1536 }, { "100B", 100 },
	};
	static const char *const bad[] = {
		"", "k", "4x", "1.3", "-4k", "4kk", "0", "4 k",
	};
	struct strbuf err = STRBUF_INIT;
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(job_parse_size(good[i].text, &v, &err), 0);
		assert_int_equal(v, good[i].v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&err);
		assert_int_equal(job_parse_size(bad[i], &v, &err), -1);
		assert_non_null(strstr(err.buf, bad[i]));
	}
	strbuf_release(&err);
}

static void test_bs_lists_and_ranges(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;

	(void)state;
	job_options_init(&o);
	assert_int_equal(job_parse_bs_sweep("512-64M", &o, &err), 0);
	assert_int_equal(o.nbs, 18);
	assert_int_equal(o.bs[0], 512);
	assert_int_equal(o.bs[17], 64u << 20);
	assert_int_equal(job_parse_bs_sweep("4k,1M", &o, &err), 0);
	assert_int_equal(o.nbs, 2);
	assert_int_equal(o.bs[1], 1u << 20);
	assert_int_equal(o.bs_write, 0);
	assert_int_equal(job_parse_bs_sweep("4k-12k", &o, &err), 0);
	assert_int_equal(o.nbs, 2);	/* 4k, 8k: 16k passes the end */
	assert_int_equal(job_parse_bs_sweep("64k-4k", &o, &err), -1);
	assert_int_equal(job_parse_bs_sweep("100", &o, &err), -1);
	assert_int_equal(job_parse_bs_sweep("4k,,8k", &o, &err), -1);
	assert_int_equal(job_parse_bs_sweep("2G", &o, &err), -1);
	/* --bs without a comma: one size, or a range (a sweep) */
	assert_int_equal(job_parse_bs("512-64M", &o, &err), 0);
	assert_int_equal(o.nbs, 18);
	assert_int_equal(job_parse_bs("8k", &o, &err), 0);
	assert_int_equal(o.nbs, 1);
	assert_int_equal(job_block_size(&o, 0, RW_RANDWRITE), 8192);
	strbuf_release(&err);
	job_options_release(&o);
}

/* fio's meaning: bs=4k,64k is 4k reads and 64k writes, ,8k is the
 * default 4k for reads, and a third (trim) size is allowed. */
static void test_bs_fio_read_write(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;

	(void)state;
	job_options_init(&o);
	assert_int_equal(job_parse_bs("4k,64k", &o, &err), 0);
	assert_int_equal(o.nbs, 1);
	assert_int_equal(job_block_size(&o, 0, RW_READ), 4096);
	assert_int_equal(job_block_size(&o, 0, RW_RANDREAD), 4096);
	assert_int_equal(job_block_size(&o, 0, RW_WRITE), 65536);
	assert_int_equal(job_block_size(&o, 0, RW_RANDWRITE), 65536);
	assert_int_equal(job_parse_bs(",8k", &o, &err), 0);
	assert_int_equal(job_block_size(&o, 0, RW_READ), 4096);
	assert_int_equal(job_block_size(&o, 0, RW_WRITE), 8192);
	assert_int_equal(job_parse_bs("16k,16k,4k", &o, &err), 0);
	assert_int_equal(job_block_size(&o, 0, RW_WRITE), 16384);
	strbuf_reset(&err);
	assert_int_equal(job_parse_bs("4k,64k,1M,2M", &o, &err), -1);
	assert_non_null(strstr(err.buf, "--bs-sweep 4k,64k,1M,2M"));
	strbuf_reset(&err);
	assert_int_equal(job_parse_bs("4k,512-64M", &o, &err), -1);
	assert_non_null(strstr(err.buf, "--bs-sweep"));
	assert_int_equal(job_parse_bs("4k,100", &o, &err), -1);
	/* a sweep after a pair forgets the write size */
	assert_int_equal(job_parse_bs("4k,64k", &o, &err), 0);
	assert_int_equal(job_parse_bs_sweep("4k,64k", &o, &err), 0);
	assert_int_equal(job_block_size(&o, 1, RW_WRITE), 65536);
	assert_int_equal(job_block_size(&o, 0, RW_WRITE), 4096);
	strbuf_release(&err);
	job_options_release(&o);
}

static void test_rw_depth_data_seconds(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;
	double s;

	(void)state;
	job_options_init(&o);
	assert_int_equal(job_parse_rw("randrw,read", &o, &err), 0);
	assert_int_equal(o.nrw, 2);
	assert_int_equal(o.rw[0], RW_RANDRW);
	assert_int_equal(job_parse_rw("readwrite", &o, &err), 0);
	assert_int_equal(o.rw[0], RW_RW);	/* fio's other name */
	assert_int_equal(job_parse_rw("randomread", &o, &err), -1);
	strbuf_reset(&err);
	assert_int_equal(job_parse_rw("read,randred", &o, &err), -1);
	assert_non_null(strstr(err.buf, "did you mean 'randread'?"));
	assert_int_equal(job_parse_iodepth("1,32,4096", &o, &err), 0);
	assert_int_equal(o.iodepth[2], 4096);
	assert_int_equal(job_parse_iodepth("0", &o, &err), -1);
	assert_int_equal(job_parse_iodepth("4097", &o, &err), -1);
	assert_int_equal(job_parse_data("compress:30", &o.data, &err), 0);
	assert_int_equal(o.data.mode, DATA_COMPRESS);
	assert_int_equal(o.data.compress_pct, 30);
	assert_int_equal(job_parse_data("compress:101", &o.data, &err), -1);
	assert_int_equal(job_parse_data("ones", &o.data, &err), -1);
	strbuf_reset(&err);
	assert_int_equal(job_parse_data("randm", &o.data, &err), -1);
	assert_non_null(strstr(err.buf, "did you mean 'random'?"));
	assert_int_equal(job_parse_seconds("2m", &s, &err), 0);
	assert_true(s > 119.9 && s < 120.1);
	assert_int_equal(job_parse_seconds("0.25", &s, &err), 0);
	assert_true(s > 0.24 && s < 0.26);
	assert_int_equal(job_parse_seconds("10x", &s, &err), -1);
	strbuf_release(&err);
	job_options_release(&o);
}

static void test_presets(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;

	(void)state;
	job_options_init(&o);
	assert_int_equal(job_apply_preset("fio-4k", &o, &err), 0);
	assert_int_equal(o.nrw, 3);
	assert_int_equal(o.rw[1], RW_RANDRW);
	assert_int_equal(o.rwmixread, 75);
	assert_int_equal(o.iodepth[0], 64);
	assert_int_equal(o.bs[0], 4096);
	assert_true(job_writes(&o));
	assert_int_equal(job_apply_preset("blockdev-perftest", &o, &err), 0);
	assert_int_equal(o.rw[0], RW_WRITE);
	assert_int_equal(o.rw[1], RW_READ);
	assert_int_equal(o.nbs, 18);
	assert_int_equal(job_apply_preset("quick", &o, &err), 0);
	assert_int_equal(o.nrw * o.nbs * o.niodepth * o.repeat, 16);
	assert_int_equal(job_apply_preset("slow", &o, &err), -1);
	assert_non_null(strstr(err.buf, "slow"));
	strbuf_reset(&err);
	assert_int_equal(job_apply_preset("fio4k", &o, &err), -1);
	assert_non_null(strstr(err.buf, "did you mean 'fio-4k'?"));
	job_parse_rw("read,randread", &o, &err);
	assert_false(job_writes(&o));
	strbuf_release(&err);
	job_options_release(&o);
}

static void put(unsigned char *buf, size_t off, const char *s, size_t len)
{
	memcpy(buf + off, s, len);
}

static void test_signatures(void **state)
{
	unsigned char *buf = calloc(1, 70000);
	struct strbuf what = STRBUF_INIT;

	(void)state;
	assert_int_equal(safety_signatures(buf, 70000, &what), 0);
	put(buf, 1080, "\x53\xef", 2);
	assert_int_equal(safety_signatures(buf, 70000, &what), 1);
	assert_string_equal(what.buf, "ext2/3/4 file system");
	memset(buf, 0, 70000);
	strbuf_reset(&what);
	put(buf, 510, "\x55\xaa", 2);
	put(buf, 512, "EFI PART", 8);
	assert_int_equal(safety_signatures(buf, 70000, &what), 2);
	assert_string_equal(what.buf, "GPT partition table, DOS partition "
			    "table or boot sector");
	memset(buf, 0, 70000);
	strbuf_reset(&what);
	put(buf, 65600, "_BHRfS_M", 8);
	assert_int_equal(safety_signatures(buf, 70000, &what), 1);
	/* A short device: offsets past the end are not read. */
	assert_int_equal(safety_signatures(buf, 4096, &what), 0);
	strbuf_reset(&what);
	put(buf, 4086, "SWAPSPACE2", 10);
	assert_int_equal(safety_signatures(buf, 4096, &what), 1);
	assert_string_equal(what.buf, "Linux swap");
	strbuf_release(&what);
	free(buf);
}

static void test_links_and_devno(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(link_name_pcie("8.0 GT/s PCIe", "4", buf,
					sizeof(buf)), 0);
	assert_string_equal(buf, "pcie3x4");
	assert_int_equal(link_name_pcie("16.0 GT/s PCIe", "2", buf,
					sizeof(buf)), 0);
	assert_string_equal(buf, "pcie4x2");
	assert_int_equal(link_name_pcie("Unknown", "4", buf, sizeof(buf)), -1);
	assert_int_equal(link_name_pcie("8.0 GT/s", "x4", buf, sizeof(buf)),
			 -1);
	assert_int_equal(link_name_sata("6.0 Gbps", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sata3");
	assert_int_equal(link_name_sata("3.0 Gbps", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sata2");
	assert_int_equal(link_name_sata("<unknown>", buf, sizeof(buf)), -1);
	assert_true(sysfs_parse_devno("8:16") == makedev(8, 16));
	assert_true(sysfs_parse_devno("259:0\n") == makedev(259, 0));
	assert_true(sysfs_parse_devno("8-16") == 0);
	assert_true(sysfs_parse_devno(":1") == 0);
}

/* A flipped byte anywhere in a known sector is found; unknown ones not. */
static void test_verify_pattern(void **state)
{
	struct verify_map v;
	unsigned char *buf = malloc(8192);

	(void)state;
	verify_map_init(&v, 1 << 20, 1234);
	memset(v.gen + 16, 3, 16);	/* sectors of offsets 8192..16383 */
	verify_fill(&v, buf, 8192, 8192);
	assert_true(verify_check(&v, buf, 8192, 8192) == UINT64_MAX);
	buf[5000] ^= 1;
	assert_true(verify_check(&v, buf, 8192, 8192) == 8192 + 4608);
	buf[5000] ^= 1;
	v.gen[20] = 4;	/* a newer generation was written there */
	assert_true(verify_check(&v, buf, 8192, 8192) == 8192 + 2048);
	v.gen[20] = 0;	/* unknown contents are not checked */
	buf[2100] ^= 0xff;
	assert_true(verify_check(&v, buf, 8192, 8192) == UINT64_MAX);
	verify_map_release(&v);
	free(buf);
}

static void test_data_fill(void **state)
{
	struct data_spec d = { DATA_COMPRESS, 75 };
	unsigned char *buf = malloc(65536);
	size_t zeros = 0;
	uint64_t rng = 1;

	(void)state;
	data_fill(&d, buf, 65536, &rng);
	for (size_t i = 0; i < 65536; i++)
		zeros += !buf[i];
	assert_true(zeros > 65536 * 3 / 4 && zeros < 65536 * 3 / 4 + 300);
	d.mode = DATA_ZERO;
	data_fill(&d, buf, 65536, &rng);
	for (size_t i = 0; i < 65536; i++)
		assert_int_equal(buf[i], 0);
	d.mode = DATA_RANDOM;
	data_fill(&d, buf, 65536, &rng);
	zeros = 0;
	for (size_t i = 0; i < 65536; i++)
		zeros += !buf[i];
	assert_true(zeros < 600);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_bs_lists_and_ranges),
		cmocka_unit_test(test_bs_fio_read_write),
		cmocka_unit_test(test_rw_depth_data_seconds),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_links_and_devno),
		cmocka_unit_test(test_verify_pattern),
		cmocka_unit_test(test_data_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
