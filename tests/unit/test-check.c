/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The link table and the findings engine, on result sets built here: each
 * check on both sides of its threshold, the API other commands use for
 * footnotes (check_touches, check_worst_for), sorting and errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/check.h"
#include "analysis/links.h"
#include "ingest/ingest.h"
#include "core/diag.h"
#include "core/input.h"
#include "core/numscan.h"

struct link_case {
	const char *name;
	const char *canonical;
	double payload;		/* bytes/s */
};

static const struct link_case link_cases[] = {
	{ "sata1", "sata1", 150e6 },
	{ "sata2", "sata2", 300e6 },
	{ "sata3", "sata3", 600e6 },
	{ "SATA III", "sata3", 600e6 },
	{ "sas2", "sas2", 600e6 },
	{ "sas3", "sas3", 1200e6 },
	{ "pcie1x1", "pcie1x1", 250e6 },
	{ "pcie1x16", "pcie1x16", 4e9 },
	{ "pcie2x4", "pcie2x4", 2e9 },
	{ "PCIe 2.0 x4", "pcie2x4", 2e9 },
	{ "pcie3x4", "pcie3x4", 8e9 * 4 * 128 / 130 / 8 },
	{ "PCIe Gen3 x4", "pcie3x4", 8e9 * 4 * 128 / 130 / 8 },
	{ "pcie4x8", "pcie4x8", 16e9 * 8 * 128 / 130 / 8 },
	{ "pcie5x16", "pcie5x16", 32e9 * 16 * 128 / 130 / 8 },
	{ "pcie5x2", "pcie5x2", 32e9 * 2 * 128 / 130 / 8 },
	{ "usb2", "usb2", 53.248e6 },
	{ "usb3", "usb3", 500e6 },
	{ "USB 3.0", "usb3", 500e6 },
	{ "usb3.1", "usb3.1", 10e9 * 128 / 132 / 8 },
	{ "usb3.2", "usb3.2", 20e9 * 128 / 132 / 8 },
	{ "1gbe", "1gbe", 125e6 },
	{ "10gbe", "10gbe", 1.25e9 },
	{ "10GbE", "10gbe", 1.25e9 },
	{ "25gbe", "25gbe", 3.125e9 },
	{ "40gbe", "40gbe", 5e9 },
	{ "100gbe", "100gbe", 12.5e9 },
};

static const char *const bad_links[] = {
	"", "sata4", "pcie", "pcie6x4", "pcie0x4", "pcie3x3", "pcie3x32",
	"pcie3", "pcie3x4junk", "pcie3.1x4", "usb4", "10gb",
	"a very long name that does not fit any buffer at all",
};

static void test_link_table(void **state)
{
	struct link_info l;

	(void)state;
	for (size_t i = 0; i < sizeof(link_cases) / sizeof(link_cases[0]);
	     i++) {
		const struct link_case *c = &link_cases[i];

		assert_int_equal(link_lookup(c->name, &l), 0);
		assert_string_equal(l.name, c->canonical);
		assert_true(fabs(l.payload - c->payload) <= 1e-9 * c->payload);
	}
	for (size_t i = 0; i < sizeof(bad_links) / sizeof(bad_links[0]); i++)
		assert_int_equal(link_lookup(bad_links[i], &l), -1);
	assert_int_equal(link_lookup("pcie2x4", &l), 0);
	assert_string_equal(l.display, "PCIe 2.0 x4");
	assert_string_equal(l.encoding, "8b/10b");
	assert_int_equal(link_lookup("pcie3x1", &l), 0);
	assert_string_equal(l.encoding, "128b/130b");
}

static void test_parse_size(void **state)
{
	static const struct { const char *s; double v; } good[] = {
		{ "4194304", 4194304 }, { "4m", 4194304 }, { "4M", 4194304 },
		{ "4MiB", 4194304 }, { "4MB", 4194304 }, { "1g", 1073741824 },
		{ "16GiB", 17179869184.0 }, { "512k", 524288 },
		{ "1.5G", 1610612736 }, { "2t", 2199023255552.0 },
	};
	static const char *const bad[] = {
		"", "G", "0", "-1", "4x", "4 M", "4MiBs", "1e3", "lots",
	};
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(check_parse_size(good[i].s, &v), 0);
		assert_true(fabs(v - good[i].v) < 0.5);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(check_parse_size(bad[i], &v), -1);
}

/* ---- result sets built by hand ---- */

static struct measurement *add_m(struct result_set *rs, const char *tool,
				 const char *op, const char *metric,
				 const char *unit, unsigned line,
				 const char *labels, int nvalues, ...)
{
	struct measurement *m = result_set_add(rs, tool, op, metric, unit);
	char buf[256], *p, *kv;
	va_list ap;

	if (!rs->nsources)
		result_set_add_source(rs, "post.txt", NULL);
	measurement_set_source(m, 0, "post.txt", line);
	va_start(ap, nvalues);
	for (int i = 0; i < nvalues; i++)
		measurement_add_value(m, va_arg(ap, double));
	va_end(ap);
	snprintf(buf, sizeof(buf), "%s", labels);
	for (p = buf; (kv = strsep(&p, ";"));) {
		char *eq = strchr(kv, '=');

		if (eq) {
			*eq = '\0';
			labels_set(&m->labels, kv, eq + 1);
		}
	}
	return m;
}

struct fixture {
	struct result_set rs;
	struct check_options opt;
	struct check_list l;
};

static int setup(void **state)
{
	static struct fixture f;

	result_set_init(&f.rs);
	check_options_init(&f.opt);
	f.opt.ram = 16.0 * 1024 * 1024 * 1024;
	check_list_init(&f.l);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	result_set_release(&f->rs);
	check_list_release(&f->l);
	return 0;
}

static void run(struct fixture *f)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(check_run(&f->rs, &f->opt, &f->l, &err), 0);
	strbuf_release(&err);
}

/* The finding with code touching measurement mi, or NULL. */
static const struct check_finding *find(const struct fixture *f,
					const char *code, size_t mi)
{
	for (size_t i = 0; i < f->l.n; i++)
		if (!strcmp(f->l.v[i].code, code) &&
		    check_touches(&f->l.v[i], mi))
			return &f->l.v[i];
	return NULL;
}

static void test_over_link_threshold(void **state)
{
	struct fixture *f = *state;
	const struct check_finding *x;

	f->opt.link = "pcie2x4";
	add_m(&f->rs, "csv", "read", "bw", "B/s", 2, "", 1, 2.6e9);
	add_m(&f->rs, "csv", "write", "bw", "B/s", 3, "", 1, 1.5e9);
	add_m(&f->rs, "csv", "randread", "bw", "B/s", 4, "", 1, 2e9);
	add_m(&f->rs, "hdparm", "cachedread", "bw", "B/s", 5, "", 1, 8e9);
	add_m(&f->rs, "csv", "read", "bw", "B/s", 6, "link=sata3", 1, 0.9e9);
	run(f);
	x = find(f, "over-link", 0);
	assert_non_null(x);
	assert_int_equal(x->severity, CHECK_WARNING);
	assert_int_equal(x->line, 2);
	assert_string_equal(x->message, "read of 2.60 GB/s exceeds the 2.00 "
			    "GB/s a PCIe 2.0 x4 link can carry");
	assert_null(find(f, "over-link", 1));
	assert_null(find(f, "over-link", 2));	/* exactly the limit */
	assert_null(find(f, "over-link", 3));	/* cache: hdparm-cache */
	assert_non_null(find(f, "hdparm-cache", 3));
	x = find(f, "over-link", 4);		/* the label wins */
	assert_non_null(x);
	assert_non_null(strstr(x->message, "600 MB/s a SATA 6 Gb/s"));
}

static void test_over_link_compression(void **state)
{
	struct fixture *f = *state;
	const struct check_finding *x;

	add_m(&f->rs, "fio", "read", "bw", "B/s", 7,
	      "compression=lz4;link=sata3", 1, 1.2e9);
	add_m(&f->rs, "fio", "read", "bw", "B/s", 8,
	      "compression=off;link=sata3", 1, 1.2e9);
	run(f);
	x = find(f, "over-link", 0);
	assert_non_null(x);
	assert_int_equal(x->severity, CHECK_INFO);
	assert_non_null(strstr(x->message, "compression=lz4"));
	assert_int_equal(find(f, "over-link", 1)->severity, CHECK_WARNING);
	assert_int_equal(check_worst_for(&f->l, 0), CHECK_INFO);
	assert_int_equal(check_worst_for(&f->l, 1), CHECK_WARNING);
}

static void test_unknown_link(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT;

	f->opt.link = "sata9";
	add_m(&f->rs, "csv", "read", "bw", "B/s", 2, "", 1, 2.6e9);
	assert_int_equal(check_run(&f->rs, &f->opt, &f->l, &err), -1);
	assert_non_null(strstr(err.buf, "unknown link 'sata9'"));
	assert_int_equal(f->l.n, 0);
	strbuf_release(&err);
}

static void test_small_file(void **state)
{
	struct fixture *f = *state;
	const struct check_finding *x;

	add_m(&f->rs, "iozone", "write", "bw", "B/s", 9,
	      "direct=0;filesize=4m", 1, 1.6e9);
	add_m(&f->rs, "iozone", "read", "bw", "B/s", 9,
	      "direct=0;filesize=4m", 1, 6.5e9);
	add_m(&f->rs, "iozone", "read", "bw", "B/s", 10,
	      "direct=1;filesize=4m", 1, 1.5e9);
	add_m(&f->rs, "iozone", "read", "bw", "B/s", 11,
	      "filesize=32G", 1, 1.5e9);
	add_m(&f->rs, "iozone", "read", "bw", "B/s", 12,
	      "filesize=32G;ram=64G", 1, 1.5e9);
	add_m(&f->rs, "iozone", "read", "bw", "B/s", 13,
	      "filesize=4G;threads=4", 1, 1.5e9);
	add_m(&f->rs, "fio", "read", "bw.max", "B/s", 14,
	      "size=4m", 1, 1.5e9);
	run(f);
	x = find(f, "small-file", 0);
	assert_non_null(x);
	assert_ptr_equal(x, find(f, "small-file", 1));	/* one per row */
	/* rows 9 to 13 are one output (one source, no command between,
	 * no test twice): one finding for it, touching row 12 too */
	assert_ptr_equal(x, find(f, "small-file", 4));
	assert_int_equal(x->nmeasurements, 3);
	assert_true(x->value > 4194303 && x->value < 4194305);
	assert_null(find(f, "small-file", 2));
	assert_null(find(f, "small-file", 3));
	assert_null(find(f, "small-file", 5));	/* 4 files of 4G */
	assert_null(find(f, "small-file", 6));	/* not the figure */
	f->opt.ram = 0;				/* unknown RAM: no check */
	check_list_release(&f->l);
	run(f);
	assert_null(find(f, "small-file", 0));
}

static void test_cached_read(void **state)
{
	struct fixture *f = *state;
	const char *w = "if=/dev/zero;of=t.img", *r = "if=t.img;of=/dev/null";

	add_m(&f->rs, "dd", "write", "bw", "B/s", 4, w, 1, 500e6);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 8, r, 1, 1999e6);
	add_m(&f->rs, "dd", "write", "bw", "B/s", 14, w, 1, 500e6);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 18, r, 1, 2001e6);
	add_m(&f->rs, "dd", "write", "bw", "B/s", 24, w, 1, 500e6);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 28, r, 1, 5e9);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 30,
	      "direct=1;if=t.img;iflag=direct", 1, 5e9);
	run(f);
	assert_null(find(f, "cached-read", 1));		/* 3.998 times */
	assert_non_null(find(f, "cached-read", 3));	/* 4.002 times */
	assert_non_null(find(f, "cached-read", 5));
	assert_null(find(f, "cached-read", 6));		/* O_DIRECT */
}

/* The ingest records a text's cache drops in the result set; check
 * reads them there. */
static void test_cache_drop(void **state)
{
	struct fixture *f = *state;
	static const char text[] =
		"$ dd if=/dev/zero of=t.img bs=1M count=100\n"
		"$ echo 3 > /proc/sys/vm/drop_caches\n"
		"$ dd if=t.img of=/dev/null\n";
	struct diag_list diags;
	struct input in;

	diag_list_init(&diags);
	input_from_buffer(&in, "post.txt", text, sizeof(text) - 1);
	ingest_input(&in, NULL, &f->rs, &diags);	/* commands, no output */
	input_release(&in);
	diag_list_release(&diags);
	assert_int_equal(f->rs.n, 0);
	assert_int_equal(f->rs.ndrops, 1);
	assert_string_equal(f->rs.drops[0].name, "post.txt");
	assert_int_equal(f->rs.drops[0].source, 0);
	assert_int_equal(f->rs.drops[0].line, 2);
	add_m(&f->rs, "dd", "write", "bw", "B/s", 1, "of=t.img", 1, 500e6);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 3, "if=t.img", 1, 5e9);
	add_m(&f->rs, "dd", "write", "bw", "B/s", 4, "of=t.img", 1, 500e6);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 5, "if=t.img", 1, 5e9);
	run(f);
	assert_null(find(f, "cached-read", 1));
	assert_non_null(find(f, "cached-read", 3));
}

static void test_noisy_and_few_runs(void **state)
{
	struct fixture *f = *state;
	const struct check_finding *x;

	/* CV 10% exactly is not noisy; 12% is. */
	add_m(&f->rs, "fio", "read", "bw", "B/s", 3, "job=a", 3,
	      90.0, 100.0, 110.0);
	add_m(&f->rs, "fio", "read", "bw", "B/s", 4, "job=b", 3,
	      88.0, 100.0, 112.0);
	/* Three single runs of one test at different lines: repetitions. */
	add_m(&f->rs, "dd", "read", "bw", "B/s", 5, "if=x", 1, 100.0);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 9, "if=x", 1, 101.0);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 13, "if=x", 1, 99.0);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 17, "if=y", 1, 99.0);
	run(f);
	assert_null(find(f, "noisy", 0));
	x = find(f, "noisy", 1);
	assert_non_null(x);
	assert_true(x->value > 0.119 && x->value < 0.121);
	for (size_t i = 0; i < 5; i++)
		assert_null(find(f, "few-runs", i));
	x = find(f, "few-runs", 5);
	assert_non_null(x);
	assert_int_equal(x->severity, CHECK_INFO);
}

static void test_short_run_zero_nosync(void **state)
{
	struct fixture *f = *state;
	const char *zero = "if=/dev/zero;of=t.img";
	const char *synced = "conv=fdatasync;if=/dev/zero;of=t.img";

	add_m(&f->rs, "dd", "write", "bw", "B/s", 4, zero, 1, 500e6);
	add_m(&f->rs, "dd", "write", "runtime", "s", 4, zero, 1, 4.99);
	add_m(&f->rs, "dd", "write", "bytes", "B", 4, zero, 1, 2495e6);
	add_m(&f->rs, "dd", "write", "bw", "B/s", 8, synced, 1, 500e6);
	add_m(&f->rs, "dd", "write", "runtime", "s", 8, synced, 1, 5.0);
	add_m(&f->rs, "dd", "write", "bytes", "B", 8, synced, 1, 2500e6);
	/* 2 GB over 40 s: at the disk's pace, whatever the RAM */
	add_m(&f->rs, "dd", "write", "bw", "B/s", 12, zero, 1, 50e6);
	add_m(&f->rs, "dd", "write", "runtime", "s", 12, zero, 1, 40.0);
	add_m(&f->rs, "dd", "write", "bytes", "B", 12, zero, 1, 2000e6);
	f->opt.ram_given = 1;				/* --ram 16G */
	run(f);
	assert_non_null(find(f, "short-run", 0));
	assert_non_null(find(f, "short-run", 1));	/* touches runtime */
	assert_null(find(f, "short-run", 3));
	assert_non_null(find(f, "no-sync", 0));
	assert_null(find(f, "no-sync", 3));
	assert_null(find(f, "no-sync", 6));
	assert_non_null(find(f, "zero-data", 0));
	assert_non_null(find(f, "zero-data", 3));
	assert_int_equal(check_worst_for(&f->l, 2), CHECK_WARNING);
	/* without --ram, this machine's RAM says nothing of the post's,
	 * and no link is known: no-sync stays silent */
	f->opt.ram_given = 0;
	check_list_release(&f->l);
	run(f);
	assert_null(find(f, "no-sync", 0));
	/* with a link, the rate says it: 500 MB/s over USB 2 */
	f->opt.link = "usb2";
	check_list_release(&f->l);
	run(f);
	assert_non_null(find(f, "no-sync", 0));
	f->opt.link = NULL;
}

/* A section that names one link family is a hint for over-link. */
static void test_link_hint(void **state)
{
	struct fixture *f = *state;
	const struct check_finding *x;

	add_m(&f->rs, "dd", "read", "bw", "B/s", 4,
	      "of=/dev/null;section=Samsung 860 EVO (SATA)", 1, 1.2e9);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 8,
	      "of=/dev/null;section=SATA vs NVMe", 1, 1.2e9);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 12,
	      "device=/dev/nvme0n1;of=/dev/null", 1, 1.2e9);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 16,
	      "of=/dev/null;section=Kansas office", 1, 1.2e9);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 20,
	      "of=/dev/null;section=WD Elements, USB 3.0", 1, 671e6);
	add_m(&f->rs, "dd", "read", "bw", "B/s", 24,
	      "of=/dev/null;section=a USB 3 stick", 1, 671e6);
	run(f);
	x = find(f, "over-link", 0);
	assert_non_null(x);
	assert_non_null(strstr(x->message, "likely over the SATA link"));
	assert_null(find(f, "over-link", 1));	/* two families: no hint */
	assert_null(find(f, "over-link", 2));	/* PCIe 5 x16 holds it */
	assert_null(find(f, "over-link", 3));	/* "sas" inside a word */
	x = find(f, "over-link", 4);	/* USB 3.0 is 5 Gb/s */
	assert_non_null(x);
	assert_non_null(strstr(x->message, "USB 3"));
	assert_null(find(f, "over-link", 5));	/* USB 3 may be 3.2 2x2 */
}

static void test_sorted_and_written(void **state)
{
	struct fixture *f = *state;
	struct strbuf sb = STRBUF_INIT;

	f->opt.link = "sata3";
	add_m(&f->rs, "csv", "read", "bw", "B/s", 9, "device=a", 1, 700e6);
	add_m(&f->rs, "csv", "read", "bw", "B/s", 2, "device=b", 1, 100e6);
	run(f);
	assert_int_equal(f->l.n, 3);
	assert_int_equal(f->l.v[0].line, 2);
	assert_string_equal(f->l.v[1].code, "over-link");	/* warning */
	assert_string_equal(f->l.v[2].code, "few-runs");	/* then info */
	assert_int_equal(f->l.v[2].line, 9);
	assert_int_equal(check_count(&f->l, CHECK_WARNING), 1);
	check_write_text(&f->l, &sb);
	assert_non_null(strstr(sb.buf, "post.txt:9: warning: over-link: "
			       "read of 700 MB/s exceeds the 600 MB/s a "
			       "SATA 6 Gb/s link can carry\n"));
	strbuf_reset(&sb);
	check_write_csv(&f->l, &f->rs, &sb);
	assert_true(starts_with(sb.buf, CHECK_CSV_HEADER "\n"));
	assert_non_null(strstr(sb.buf, ",csv,read,bw,B/s,700000000,"
			       "600000000\n"));
	strbuf_release(&sb);
}

/* Findings as text, every field that matters, one a line. */
static void describe(const struct check_list *l, struct strbuf *sb)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct check_finding *x = &l->v[i];

		strbuf_addf(sb, "%d %s %u %s |", (int)x->severity, x->code,
			    x->line, x->message);
		for (size_t k = 0; k < x->nmeasurements; k++)
			strbuf_addf(sb, " %zu", x->measurements[k]);
		strbuf_addch(sb, '\n');
	}
}

/* want and got hold the same findings, in order, codes among them. */
static void assert_same_findings(const struct check_list *want,
				 const struct check_list *got,
				 const char *const *codes)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char code[64];

	describe(want, &a);
	describe(got, &b);
	for (; *codes; codes++) {
		snprintf(code, sizeof(code), " %s ", *codes);
		assert_non_null(strstr(a.buf, code));
	}
	assert_string_equal(a.buf, b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* f's set checked with env=1 (in f->l) gives the findings it gives
 * without, codes among them. */
static void assert_env_changes_nothing(struct fixture *f, const char *env,
				       const char *const *codes)
{
	struct check_list plain;
	struct strbuf err = STRBUF_INIT;

	check_list_init(&plain);
	assert_int_equal(check_run(&f->rs, &f->opt, &plain, &err), 0);
	setenv(env, "1", 1);
	run(f);
	unsetenv(env);
	assert_same_findings(&plain, &f->l, codes);
	check_list_release(&plain);
	strbuf_release(&err);
}

/*
 * Enough measurements for the repetitions to run on a thread of their
 * own: the findings are those of one thread (STORAN_SERIAL=1), in the
 * same order.
 */
static void test_threaded_same_as_serial(void **state)
{
	struct fixture *f = *state;
	static const char *const codes[] = {
		"noisy", "few-runs", "over-link", NULL
	};
	char lab[64];

	f->opt.link = "sata3";
	for (unsigned k = 0; k < 6000; k++) {
		/* 701 tests repeated at spread lines; every 7th run noisy,
		 * every 5th over the link; singles of the rest */
		snprintf(lab, sizeof(lab), "if=x%u", k % 701);
		add_m(&f->rs, "dd", "read", "bw", "B/s", 3 * k + 1, lab, 1,
		      k % 5 ? 100e6 + (k % 7 ? 0 : 60e6) : 700e6);
		snprintf(lab, sizeof(lab), "job=j%u", k);
		add_m(&f->rs, "fio", "write", "bw", "B/s", 3 * k + 2, lab, 1,
		      200e6);
	}
	assert_env_changes_nothing(f, "STORAN_SERIAL", codes);
}

/*
 * The findings made are looked up by a hash of code and output (or
 * place); keys that share a hash are told apart by a look at them all:
 * with 1-bit hashes (STORAN_TEST_FINDING_HASH_BITS) every key collides,
 * and the findings are those of full hashes.
 */
static void test_finding_lookup_collisions(void **state)
{
	struct fixture *f = *state;
	static const char *const codes[] = {
		"zero-data", "short-run", "few-runs", NULL
	};
	char lab[64];

	for (unsigned k = 0; k < 3000; k++) {
		/* zeros written, each test a single run on its own line,
		 * too few samples; every third line has its IOPS too (the
		 * same place, where the latest finding is another's) */
		snprintf(lab, sizeof(lab), "if=/dev/zero;of=f%u;samples=2",
			 k);
		add_m(&f->rs, "dd", "write", "bw", "B/s", 2 * k + 1, lab, 1,
		      100e6 + k);
		if (k % 3 == 0)
			add_m(&f->rs, "dd", "write", "iops", "1/s", 2 * k + 1,
			      lab, 1, 100.0 + k);
	}
	assert_env_changes_nothing(f, "STORAN_TEST_FINDING_HASH_BITS", codes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_table),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test_setup_teardown(test_over_link_threshold,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_over_link_compression,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_link,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_file,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cached_read,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_drop,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_noisy_and_few_runs,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_run_zero_nosync,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_hint,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_threaded_same_as_serial,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_finding_lookup_collisions,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_sorted_and_written,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
