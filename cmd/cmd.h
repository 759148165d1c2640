/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Subcommands.  Adding one:
 *
 *   1. write cmd/NAME.c with `int cmd_NAME(int argc, char **argv)`; argv[0]
 *      is the command name; it handles -h/--help itself (usage on stdout,
 *      exit 0) and returns an exit code (0 fine, 1 findings, 2 trouble);
 *   2. declare it below and list it in commands[] in storan.c;
 *   3. write docs/storan-NAME.1 and add a CLI test under tests/cli/.
 *
 * Commands are thin: parse options, call modules in core/, parsers/,
 * analysis/, plot/, runner/, print.  die() is allowed here and only here.
 */
#ifndef STORAN_CMD_H
#define STORAN_CMD_H

#include <stdio.h>

int cmd_ingest(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_detect(int argc, char **argv);

/*
 * The series of store DB (analysis/history.h), for history, detect and
 * report DB: 0, or the exit code after saying what is wrong.  metric and
 * where may be NULL.
 */
struct store_data;
struct history;
int history_load(const char *db, const char *metric, const char *where,
		 struct store_data *d, struct history *h);

/* storan report DB -o DIR (cmd/report-db.c): is input a store?  Then
 * report_db() writes its trend page and returns the exit code. */
int report_db_wanted(const char *input);
int report_db(const char *db, const char *dir, const char *title);

/* Exit codes shared by every command (like diff(1)). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_FINDINGS = 1,
	EXIT_TROUBLE = 2,
};

/*
 * Shared by every command (cmd/options.c; options.h has the rest of what
 * reads options).
 */

/* "storan CMD: msg" on stderr, then "Try 'storan CMD --help'."; returns 2. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints a command's usage text to fp. */
void print_usage(FILE *fp, const char *text);

/* Parses "k=v" (for --label) into labels; -1 when malformed. */
struct labels;
int parse_label_arg(const char *arg, struct labels *labels);

/* The command line as typed, for provenance ("storan report a.json ...");
 * "storan" until main() calls cmd_set_command_line(). */
extern const char *storan_command_line;
void cmd_set_command_line(int argc, char **argv);

#endif
