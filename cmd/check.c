/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan check: explain implausible figures before people publish them.
 *
 * Loads every input (a result set, or any text `storan ingest` reads),
 * notes where raw text drops the page cache, runs analysis/check over
 * everything and prints the findings.  Exit 0 without warnings, 1 with at
 * least one warning (or an input that was read but not understood), 2 on
 * trouble: an unknown --link, a bad --ram, an unreadable input (named;
 * the other inputs are still checked).
 */
#include "cmd.h"
#include "../analysis/check.h"
#include "../analysis/links.h"
#include "../core/input.h"
#include "../ingest/load.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"

#include <getopt.h>
#include <string.h>

static const char check_usage[] =
	"usage: storan check [--link NAME] [--ram SIZE] [--format text|csv|json]\n"
	"                    INPUT...\n"
	"\n"
	"Explains implausible figures: a bandwidth above what the link can\n"
	"carry, a buffered test on a file smaller than RAM, a read served from\n"
	"the page cache right after a write, zeros from /dev/zero, runs too\n"
	"short or too noisy, hdparm -T.  INPUT is a result set or any text\n"
	"'storan ingest' reads.  Every code is explained in storan-check(1).\n"
	"\n"
	"      --link NAME    the link the data crossed, where a measurement\n"
	"                     has no 'link' label: sata1 sata2 sata3 sas2 sas3\n"
	"                     pcie1x1..pcie5x16 usb2 usb3 usb3.1 usb3.2\n"
	"                     1gbe 10gbe 25gbe 40gbe 100gbe\n"
	"      --ram SIZE     RAM of the machine that ran the tests (16G,\n"
	"                     16384m; K M G T are 1024-based); default: this\n"
	"                     machine's\n"
	"  -f, --format FMT   text (default), csv or json\n"
	"      --severity S   show findings of S and above: info (default)\n"
	"                     or warning (the exit status is the same)\n"
	"  -h, --help         show this help\n"
	"\n"
	"Exit status: 0 no warning, 1 at least one warning, 2 trouble.\n";

static void write_findings(const char *format, const struct check_list *l,
			   const struct result_set *rs)
{
	struct strbuf sb = STRBUF_INIT;

	if (!strcmp(format, "csv"))
		check_write_csv(l, rs, &sb);
	else if (!strcmp(format, "json"))
		check_write_json(l, rs, &sb);
	else
		check_write_text(l, &sb);
	fwrite(sb.buf ? sb.buf : "", 1, sb.len, stdout);
	strbuf_release(&sb);
}

static int run_check(char **paths, int n, struct check_options *opt,
		     const char *format, enum check_severity min)
{
	struct result_set rs;
	struct diag_list diags;
	struct check_list findings;
	struct strbuf err = STRBUF_INIT;
	enum load_status worst = LOAD_OK;
	int rc;

	result_set_init(&rs);
	diag_list_init(&diags);
	check_list_init(&findings);
	for (int i = 0; i < n; i++) {
		enum load_status st = load_input(paths[i], NULL, &rs, &diags);

		if (st > worst)
			worst = st;
	}
	diag_print(&diags, stderr);
	if (check_run(&rs, opt, &findings, &err))
		BUG("%s", strbuf_str(&err));	/* cmd_check checked it */
	rc = check_count(&findings, CHECK_WARNING) ? EXIT_FINDINGS : EXIT_OK;
	check_list_keep(&findings, min);
	write_findings(format, &findings, &rs);
	if ((int)worst > rc)
		rc = (int)worst;
	if (!FREE_BEFORE_EXIT)
		return rc;	/* (storan exits now) */
	check_list_release(&findings);
	diag_list_release(&diags);
	result_set_release(&rs);
	strbuf_release(&err);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "link", required_argument, NULL, 'l' },
		{ "ram", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "severity", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_options opt;
	struct link_info link;
	const char *format = "text";
	enum check_severity min = CHECK_INFO;
	int c, rc;

	check_options_init(&opt);
	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (link_lookup(optarg, &link))
				return usage_error("check", "unknown link '%s'; "
						   "storan knows %s", optarg,
						   link_names());
			opt.link = optarg;
			break;
		case 'r':
			if (check_parse_size(optarg, &opt.ram))
				return usage_error("check", "bad RAM size '%s' "
						   "(e.g. 16G)", optarg);
			opt.ram_given = 1;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "csv") &&
			    strcmp(optarg, "json"))
				return usage_error("check", "unknown format "
						   "'%s' (text, csv or json)",
						   optarg);
			format = optarg;
			break;
		case 's':
			if (!strcmp(optarg, "warning"))
				min = CHECK_WARNING;
			else if (!strcmp(optarg, "info"))
				min = CHECK_INFO;
			else
				return usage_error("check", "unknown severity "
						   "'%s' (info or warning)",
						   optarg);
			break;
		case 'h':
			print_usage(stdout, check_usage);
			return EXIT_OK;
		default:
			return usage_error("check", "bad option");
		}
	}
	if (optind >= argc)
		return usage_error("check", "no input files");
	rc = run_check(argv + optind, argc - optind, &opt, format, min);
	return rc;
}
