/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Plausibility checks: the findings engine behind `storan check`, shared
 * with table, compare and report, which put a footnote marker on every
 * figure a finding touches.
 *
 * Use:
 *
 *	struct check_options opt;
 *	struct check_list findings;
 *
 *	check_options_init(&opt);	// this machine's RAM, no link
 *	opt.link = "pcie2x4";		// optional: --link
 *	check_list_init(&findings);
 *	if (check_run(rs, &opt, &findings, &err))	// unknown link
 *		...
 *	for (size_t i = 0; i < findings.n; i++)
 *		if (check_touches(&findings.v[i], mi))	// cell's mi
 *			...	// footnote: findings.v[i].message
 *	check_list_release(&findings);
 *
 * A finding names the input position a reader can look at (source name
 * and line, as in the result set), a severity, a stable code (the codes
 * and their reasoning are in docs/storan-check.1), one sentence that
 * quotes the figure and the limit or reason, and the measurements it
 * touches as indices into the result set that was checked: first the one
 * whose figure the message quotes, then others of the same test line that
 * the same reason makes doubtful (a small iozone file spoils every column
 * of its row).  The list is sorted by source, line, severity (warnings
 * first) and code; it owns all of its strings and never points into the
 * result set.
 *
 * check_run() reads the result set only.  What happened between two
 * measurements is there as the ingest of the text recorded it: its cache
 * drops (struct cache_drop, core/resultset.h; a "drop_caches" line
 * between a write and a read means the read was not served from the page
 * cache), and the label cache=dropped on a read right after one, which
 * is all a result set read back from JSON or CSV still has.
 */
#ifndef STORAN_CHECK_H
#define STORAN_CHECK_H

#include <stddef.h>

#include "../core/resultset.h"
#include "../core/strbuf.h"

enum check_severity {
	CHECK_INFO,		/* worth knowing; exit status stays 0 */
	CHECK_WARNING,		/* the figure is likely wrong: exit 1 */
};

struct check_finding {
	enum check_severity severity;
	const char *code;	/* static: "over-link", "small-file", ... */
	char *message;		/* one sentence, no trailing newline */
	char *source;		/* source name of the measurement */
	unsigned line;
	size_t *measurements;	/* indices into the checked result set */
	size_t nmeasurements;	/* >= 1; [0]: the one the message quotes */
	double value;		/* the quoted figure (its unit is the */
				/* measurement's), NAN when none */
	double limit;		/* the limit it was held against, or NAN */
};

struct check_list {
	struct check_finding *v;
	size_t n, alloc;
};

struct check_options {
	const char *link;	/* default link name (--link), or NULL */
	double ram;		/* bytes; 0 skips the RAM-based checks */
	/* ram came from --ram: the tests' machine, not this one (no-sync
	 * judges a post written elsewhere by its own figures without) */
	int ram_given;
	/* Run on the caller's thread only: it runs the check beside work
	 * of its own on every CPU (compare's two checks), where another
	 * thread for the repetitions would slow the whole down. */
	int one_thread;
};

/* The thresholds, stable and documented in storan-check(1). */
#define CHECK_MIN_RUNTIME 5.0		/* seconds */
#define CHECK_MIN_SAMPLES 5		/* fio bandwidth samples */
#define CHECK_MAX_CV 0.10		/* coefficient of variation */
#define CHECK_CACHED_RATIO 4.0		/* read / write */
/* A buffered write slower than this over CHECK_MIN_RUNTIME or more went
 * at the disk's pace: the page cache takes data at memory speed. */
#define CHECK_CACHE_MIN_RATE 100e6	/* bytes/s */

/* Sets the defaults: no link, ram = this machine's RAM.  Nothing to
 * release. */
void check_options_init(struct check_options *opt);

/*
 * A size as labels and --ram give it: "4194304", "4m", "1g", "16GiB",
 * "512KB" (K M G T P are 1024-based, any case).  0, or -1 when it is not
 * a positive size.
 */
int check_parse_size(const char *s, double *out);

/* This machine's RAM in bytes (sysconf, else /proc/meminfo), or 0. */
double check_system_ram(void);

void check_list_init(struct check_list *l);
void check_list_release(struct check_list *l);

/*
 * Runs every check over rs and appends the findings to out, sorted.
 * Returns 0, or -1 when opt->link is not a link storan knows (err says
 * so and lists the names; nothing is checked).
 */
int check_run(const struct result_set *rs, const struct check_options *opt,
	      struct check_list *out, struct strbuf *err);

/* Does the finding touch measurement index mi? */
int check_touches(const struct check_finding *f, size_t mi);

/*
 * The worst severity among the findings that touch measurement mi, or -1
 * when none does: what a table needs to mark a cell.
 */
int check_worst_for(const struct check_list *l, size_t mi);

size_t check_count(const struct check_list *l, enum check_severity sev);
/* Drops the findings below min (--severity warning hides the infos). */
void check_list_keep(struct check_list *l, enum check_severity min);
const char *check_severity_name(enum check_severity sev);

/*
 * Where the findings of one code are, input by input, in the order of
 * the list: "dd.txt lines 4, 8; hdparm.txt line 22".  Returns how many
 * findings have that code.
 */
struct strbuf;
size_t check_code_places(const struct check_list *l, const char *code,
			 struct strbuf *out);

/* "SOURCE:LINE: warning: CODE: message" per finding. */
void check_write_text(const struct check_list *l, struct strbuf *out);
/* CSV: source,line,severity,code,message,tool,op,metric,unit,value,limit */
void check_write_csv(const struct check_list *l, const struct result_set *rs,
		     struct strbuf *out);
/* JSON: {"schema": "storan-check/1", "findings": [...]} */
void check_write_json(const struct check_list *l,
		      const struct result_set *rs, struct strbuf *out);

#define CHECK_CSV_HEADER \
	"source,line,severity,code,message,tool,op,metric,unit,value,limit"

#endif
