/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of iozone's parser share (iozone.c: banner, command,
 * auto-mode tables; iozone-modes.c: the throughput mode's summaries and
 * the -R report).  Private to them; parser.h is the parsers' interface.
 */
#ifndef STORAN_IOZONE_H
#define STORAN_IOZONE_H

#include "parser.h"

#include <stdint.h>

#define IOZ_NCOLS 13
#define IOZ_MAX_TOKS 512
#define IOZ_MAX_RECS 32

struct ioz_col {
	const char *word;	/* in the second header line */
	const char *op;
	int test;		/* the -i number that runs it */
};

struct ioz_name {
	const char *name;
	const char *op;
};




enum ioz_mode { IOZ_KBPS, IOZ_OPS, IOZ_USEC };

/* What one run's banner and command line said. */
struct ioz_run {
	enum ioz_mode mode;
	int mode_known;
	int direct;		/* -1: nothing says */
	unsigned tests;		/* bit per -i test 0..7 */
	int have_tests;		/* a command line listed -i tests */
	int odd_tests;		/* -i 9 and up: no known table column */
	int auto_mode;		/* -a / -A / -z */
	double filesize, bs;	/* bytes per process; 0 unknown */
	int threads;		/* -t N; 0 unknown */
	int read_table;		/* table values read: -R repeats them */
	int read_tput;		/* "Children see" read: report repeats */
	int banner;		/* inside the banner */
	int have_cmd;		/* cmd_li: the command line read */
	size_t cmd_li;
	size_t rows_tail;	/* bytes of figures run together after it */
};

struct ioz_tok {
	const char *s;
	size_t len;
	unsigned end;		/* column just after the token */
};

struct ioz_state {
	struct parse_ctx *ctx;
	struct ioz_run run;
	/* the table in force: header columns, or columns of a command */
	int in_table, table_from_header, have_header1;
	size_t ncols;
	int cols[IOZ_NCOLS];
	unsigned ends[IOZ_NCOLS];
	int cmd_rows;		/* a command line was just read */
	/* throughput: the test of the last "Children see" line */
	const char *tp_op;
	int tp_threads;
	/* -R: the section in force */
	const char *rep_op;
	int in_report, rep_tput;
	double recs[IOZ_MAX_RECS];
	size_t nrecs;
	int in_contrib;
	int unit_unknown_said;	/* the error of emit_cell(), once a table */
	char *cmd_text;		/* the command label of line cmd_text_li */
	size_t cmd_text_li;
	int have_cmd_text;
	struct ioz_tok toks[IOZ_MAX_TOKS];
};

void iozone_emit_cell(struct ioz_state *st, size_t li, const char *op,
		      double value, double kb, double reclen);
const char *iozone_find_name(const struct ioz_name *names, const char *s,
			     size_t len);
void iozone_label_command(struct ioz_state *st, struct measurement *m);
int iozone_tok_number(const struct ioz_tok *t, double *v);
int iozone_is_blank(char c);
int iozone_read_throughput(struct ioz_state *st, size_t li);
int iozone_read_report(struct ioz_state *st, size_t li, size_t n);

#endif
