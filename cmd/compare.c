/*
 * storan compare: not built yet.  This placeholder keeps the command in the
 * table so that users hear "not built yet" rather than "unknown command";
 * the issue that builds it replaces this file.
 */
#include "cmd.h"

#include <string.h>

int cmd_compare(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: storan compare ...  (not built yet in this version)");
		return EXIT_OK;
	}
	fputs("storan compare: not built yet in this version\n", stderr);
	return EXIT_TROUBLE;
}
