/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan: main(), the global options and the table of subcommands.
 *
 * The table is an explicit list (no constructor self-registration): the set
 * of commands is visible here and links the same into tests and fuzzers.
 */
#include "analysis/stats.h"
#include "cmd/cmd.h"
#include "core/suggest.h"
#include "core/version.h"
#include "core/xalloc.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* glibc's largest mmap threshold on 64 bits (a heap's 64 MB / 2) */
#define HEAP_BLOCK_MAX (32 << 20)

struct cmd_entry {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	/*
	 * Blocks of up to 32 MB from malloc's heaps, not each a mapping of
	 * its own: compare and table free and allocate again many such
	 * blocks (a model of the sets for each check, each side, the
	 * tables), and then reuse memory already faulted in, not fresh
	 * pages the kernel must map and clear.  At a million measurements
	 * a side: compare 2.93 -> 2.68 s, table --ratio 1.75 -> 1.65 s;
	 * check and export gain nothing, ingest keeps its memory bounded.
	 */
	int heap_blocks;
};

static const struct cmd_entry commands[] = {
	{ "check", cmd_check, "explain implausible figures", 0 },
	{ "compare", cmd_compare, "compare result sets, with verdicts", 1 },
	{ "detect", cmd_detect,
	  "change points in a store's history (CI gate)", 0 },
	{ "export", cmd_export,
	  "write a result set (or a stored run) as CSV", 0 },
	{ "history", cmd_history, "time series of a store's runs", 0 },
	{ "ingest", cmd_ingest,
	  "read fio, iozone, hdparm, dd, time output", 0 },
	{ "plot", cmd_plot, "draw one chart (PNG, SVG, PDF)", 0 },
	{ "report", cmd_report,
	  "write charts, workbook, HTML and Markdown", 0 },
	{ "run", cmd_run, "measure a file or device", 0 },
	{ "store", cmd_store, "add, list, remove runs of a history store", 0 },
	{ "table", cmd_table, "pivot and ratio tables", 1 },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char usage_text[] =
	"usage: storan [-V | --version] [-h | --help] COMMAND [ARGS]\n"
	"\n"
	"storan reads what storage benchmarks printed, measures disks itself,\n"
	"and turns both into tables, verdicts, charts and reports.\n"
	"\n"
	"Commands:\n";

static void print_main_usage(FILE *fp)
{
	fputs(usage_text, fp);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-9s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n'storan help COMMAND' or 'storan COMMAND --help' tells more;\n"
	      "'man storan' has the whole story.\n"
	      "Exit status: 0 fine, 1 findings (a failed input, a regression,\n"
	      "a warning), 2 trouble (usage, missing or unreadable input).\n"
	      "\n"
	      "  -V, --version  print storan's version\n"
	      "  -h, --help     show this help\n",
	      fp);
}

static const struct cmd_entry *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* "storan: 'ingset' is not a storan command; did you mean 'ingest'?" */
static int unknown_command(const char *word)
{
	static const char *const globals[] = { "--version", "--help" };
	const char *names[NCOMMANDS];
	const char *best;

	if (word[0] == '-') {
		best = suggest_closest(word, globals, 2);
		fprintf(stderr, "storan: unknown option '%s'", word);
	} else {
		for (size_t i = 0; i < NCOMMANDS; i++)
			names[i] = commands[i].name;
		best = suggest_closest(word, names, NCOMMANDS);
		fprintf(stderr, "storan: '%s' is not a storan command", word);
	}
	if (best)
		fprintf(stderr, "; did you mean '%s'?", best);
	fputs("\nSee 'storan --help'.\n", stderr);
	return EXIT_TROUBLE;
}

static int run_help(int argc, char **argv)
{
	const struct cmd_entry *c;
	static char help_flag[] = "--help";
	char *args[] = { NULL, help_flag, NULL };

	if (argc < 2) {
		print_main_usage(stdout);
		return EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	args[0] = argv[1];
	return c->fn(2, args);
}

int main(int argc, char **argv)
{
	const struct cmd_entry *c;

	/*
	 * Free memory is given back to the system past 2 MB at the top of
	 * a heap, not 128 KB: ingesting 10,000 fio files on two threads
	 * spent a fifth of its time in madvise() and the TLB flushes it
	 * sends to the other CPU, each file's memory handed back and taken
	 * again (bench/ingest-fio-many: 0.86 s -> 0.75 s, medians); a 1 GB
	 * log's peak grows by 2 MB.
	 */
	mallopt(M_TRIM_THRESHOLD, 2 << 20);
	cmd_set_command_line(argc, argv);
	if (argc < 2) {
		print_main_usage(stderr);
		return EXIT_TROUBLE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return run_help(1, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("storan %s\n", STORAN_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help"))
		return run_help(argc - 1, argv + 1);
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	optind = 1;
	if (c->heap_blocks)
		mallopt(M_MMAP_THRESHOLD, HEAP_BLOCK_MAX);
	return c->fn(argc - 1, argv + 1);
}
