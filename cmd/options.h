/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reading a command's options (cmd/options.c, with usage_error() and the
 * other helpers cmd.h declares).
 *
 * What getopt_long() refused, said the way every storan command says a
 * usage error, with a "did you mean" where a known option is close.
 *
 * A command that uses it sets opterr = 0 (getopt prints nothing), starts
 * its optstring with ':' (a missing value is told apart from an unknown
 * option) and, on '?' or ':', returns option_error(cmd, c, argv, longopts).
 * It must be called right away: it reads optind and optopt.
 */
#ifndef STORAN_CMD_OPTIONS_H
#define STORAN_CMD_OPTIONS_H

#include <getopt.h>

/* Prints "storan CMD: unknown option '--ramptime'; did you mean
 * '--ramp_time'?" (or a missing value, a value given to a flag, an
 * ambiguous abbreviation) and "Try ...", and returns 2. */
int option_error(const char *cmd, int c, char **argv,
		 const struct option *longopts);

#include <stddef.h>

/* Appends the comma-separated parts of s ("bw,iops") to *v, each a copy;
 * -1 for an empty part. */
int option_list_add(const char *s, char ***v, size_t *n);
/* Frees v[0..n) and v. */
void option_list_free(char **v, size_t n);

#endif
