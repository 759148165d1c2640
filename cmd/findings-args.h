/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The options of every command that marks storan check's findings on the
 * figures it shows (table, compare, report): --link, --ram, --findings,
 * --no-check.  One parser, so that they mean the same everywhere.
 */
#ifndef STORAN_FINDINGS_ARGS_H
#define STORAN_FINDINGS_ARGS_H

#include <getopt.h>

#include "../analysis/check.h"

enum findings_opt {
	OPT_FINDINGS_LINK = 0x1000,
	OPT_FINDINGS_RAM,
	OPT_FINDINGS_LEVEL,
	OPT_FINDINGS_OFF,
};

/* Entries for a command's struct option table. */
#define FINDINGS_LONGOPTS \
	{ "link", required_argument, NULL, OPT_FINDINGS_LINK }, \
	{ "ram", required_argument, NULL, OPT_FINDINGS_RAM }, \
	{ "findings", required_argument, NULL, OPT_FINDINGS_LEVEL }, \
	{ "no-check", no_argument, NULL, OPT_FINDINGS_OFF }

struct findings_args {
	struct check_options check;	/* --link, --ram */
	enum check_severity level;	/* --findings: lowest one marked */
	int off;			/* --no-check */
};

/* The defaults (nothing to release). */
void findings_args_init(struct findings_args *fa);

/*
 * Handles getopt's c when it is one of FINDINGS_LONGOPTS.  Returns -1
 * when c is not, 0 when it was handled, 2 after a usage error naming cmd.
 */
int findings_args_option(const char *cmd, int c, const char *arg,
			 struct findings_args *fa);

#endif
