/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Options shared by commands that mark findings; see findings-args.h. */
#include "findings-args.h"
#include "cmd.h"
#include "../analysis/footnotes.h"
#include "../analysis/links.h"

void findings_args_init(struct findings_args *fa)
{
	check_options_init(&fa->check);
	fa->level = CHECK_WARNING;
	fa->off = 0;
}

int findings_args_option(const char *cmd, int c, const char *arg,
			 struct findings_args *fa)
{
	struct link_info link;

	switch (c) {
	case OPT_FINDINGS_LINK:
		if (link_lookup(arg, &link))
			return usage_error(cmd, "unknown link '%s'; storan "
					   "knows %s", arg, link_names());
		fa->check.link = arg;
		return 0;
	case OPT_FINDINGS_RAM:
		if (check_parse_size(arg, &fa->check.ram))
			return usage_error(cmd, "bad RAM size '%s' (e.g. 16G)",
					   arg);
		fa->check.ram_given = 1;
		return 0;
	case OPT_FINDINGS_LEVEL:
		if (footnotes_parse_level(arg, &fa->level))
			return usage_error(cmd, "unknown --findings '%s' "
					   "(warnings or all)", arg);
		return 0;
	case OPT_FINDINGS_OFF:
		fa->off = 1;
		return 0;
	}
	return -1;
}
