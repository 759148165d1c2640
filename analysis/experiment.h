/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The experiment model: which measurements are the same condition, which
 * labels are the conditions, which inputs are the sides of a comparison,
 * and how each condition is summarised.  One place decides it; `storan
 * table`, `compare`, `check`, `plot` and `report` all ask it, so that a
 * chart, a table and a verdict never disagree about what was pooled.
 *
 * Keys.  Every label key of the measurements taken is a key, and so are
 * keys derived from the inputs' names (below).  Each key has one role:
 *
 *   FACTOR    it takes two or more values (a label absent is a value of
 *             its own) within one side: it distinguishes conditions,
 *             and measurements that differ in it are never pooled;
 *   IDENTITY  constant within each side, different between sides: it
 *             names the side (host=alpha vs host=beta), not a condition;
 *   COUNTER   a run number (run1, run2 in input names): its measurements
 *             are repetitions;
 *   POOLED    the user said so (--pool KEY, --ignore KEY), or --match
 *             left it out (what --match names is a factor, whatever
 *             its values);
 *   CONSTANT  one value everywhere.
 *
 * Input names.  The names of the inputs (file names without extension,
 * or grep prefixes) are cut into tokens at '.', '-', '_', '+', ' ' and
 * ','.  A token position that varies within a side names the test: the
 * derived key "test" (hosta.randread.txt and hosta.randrw.txt are two
 * tests, not two runs of one); one constant within each side but
 * different between sides names the side; one whose values are run
 * numbers (run1 run2, rep-3, or 1 2 3 counted from 0 or 1) is a counter.
 *
 * Groups.  Measurements equal in tool, op, metric, side and every
 * factor form a group: the repetitions of one condition, pooled into
 * one struct stats (analysis/stats.h).  Nothing else is ever pooled.
 *
 * Sides.  With several result sets (compare A B, report A B) each is a
 * side; with --compare KEY or --ratio KEY=A/KEY=B the values of KEY are
 * (KEY becomes the identity).  Side 0 is the baseline.  A side's name is
 * what tells it apart: its identity labels, the user's own first (keys
 * given to `storan ingest --label`, recorded in the result set), else
 * its name tokens, else the input's name.
 *
 * Matching (compare): groups of two sides meet on tool, op, metric and
 * the factors, except identity keys and provenance keys (command,
 * section, file), which are where a figure came from: two hosts' tests
 * come from different command lines.  Where one side holds the same test
 * under two values of a provenance key (BEFORE: and AFTER:, "## ext4"
 * and "## btrfs", two dd commands to two devices), that test is matched
 * by those keys too, on both sides, so that ext4 meets ext4.
 *
 * Summaries, by the number of runs n behind a group:
 *   n = 1   a single value: a point or bar, no whisker;
 *   n = 2   both values: the range min..max, never a t-interval (t is
 *           12.7 there and the whisker tells nothing);
 *   n >= 3  the mean with its 95% confidence interval, n shown.
 *
 * Speed: label values are interned once as integer codes, the distinct
 * label sets of the measurements (most share one per fio job) are coded
 * once each, and grouping is one hash pass over integer tuples: linear
 * in the number of measurements.
 */
#ifndef STORAN_EXPERIMENT_H
#define STORAN_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "../core/filter.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"

enum ex_role {
	EX_CONSTANT,
	EX_FACTOR,
	EX_IDENTITY,
	EX_COUNTER,
	EX_POOLED,
};

const char *ex_role_name(enum ex_role role);

enum ex_origin {
	EX_FROM_LABEL,		/* a label of the measurements */
	EX_FROM_USER,		/* a label given to storan ingest --label */
	EX_FROM_NAMES,		/* derived from the inputs' names */
};

#define EX_ABSENT 0		/* the code of "no such label" */
#define EX_NONE SIZE_MAX

struct ex_key {
	char *name;
	enum ex_role role;
	enum ex_origin origin;
	int provenance;		/* command, section, file */
	int size;		/* its values are byte sizes (bs, filesize) */
	int numeric;		/* every value present is a number */
	size_t nvalues;		/* distinct values present: codes 1..n */
	char **values;		/* [code]; [0] NULL (absent) */
	double *num;		/* [code]: the value as a number, or NAN */
	size_t *rank;		/* [code]: display order (numbers by value,
				 * ops in fio's order, the rest as found) */
	size_t pref;		/* where it ranks among keys for display */
};

/* (32-bit numbers: an entry is 32 bytes, not 48, and a million
 * measurements' entries are faulted in once per experiment) */
struct ex_measurement {
	const struct measurement *m;
	uint32_t set;		/* which result set */
	uint32_t index;		/* into that set's m[] */
	uint32_t side;
	uint32_t profile;	/* its label set and input, coded */
	uint32_t group;
};

enum ex_summary {
	EX_SINGLE,		/* n = 1 */
	EX_BOTH,		/* n = 2: min and max are the two runs */
	EX_INTERVAL,		/* n >= 3: mean and 95% CI */
	EX_EMPTY,		/* no figure at all */
};

struct ex_group {
	size_t *members;	/* indices into m[] */
	/* pooled, as analysis/stats.h computes; NULL with groups_only
	 * (one array for all groups: a group is 32 bytes, not 120) */
	const struct stats *st;
	uint32_t side;
	uint32_t first;		/* its first measurement (index into m[]) */
	uint32_t nmembers;
	enum ex_summary summary;	/* EX_EMPTY with groups_only */
};

struct ex_side {
	char *name;		/* "host=alpha", "alpha", "old.json" */
	struct labels identity;	/* the labels that tell it apart */
	size_t nmeasurements;
	int named_by_tokens;	/* name: its input names' tokens */
};

struct experiment_options {
	const struct filter *where;	/* NULL: every measurement */
	/* more selection (a metric list, compare's defaults); NULL: all */
	int (*take)(const struct measurement *m, const void *arg);
	const void *take_arg;
	char **pool;			/* --pool: keys pooled on request */
	size_t npool;
	char **ignore;			/* --ignore: the same, for compare */
	size_t nignore;
	char **match;			/* --match: only these are factors */
	size_t nmatch;
	/* Sides: each result set (default), or the values of side_key
	 * (--compare KEY), or two of them (--ratio KEY=A/KEY=B: A is the
	 * candidate, B the baseline). */
	const char *side_key;
	const char *side_a, *side_b;
	int no_name_keys;		/* don't derive keys from input names */
	/* the groups and their members only, no statistics (storan
	 * check's repetitions: a million groups' are 80 MB and a tenth
	 * of its time) */
	int groups_only;
	/* the files the sets were read from (report A B), or NULL: what
	 * names sides whose sources and directories are all alike (two
	 * storan runs are both "storan-run") */
	char *const *set_names;
};

struct experiment {
	struct ex_key *keys;
	size_t nkeys, keys_alloc;
	struct ex_measurement *m;
	size_t n, m_alloc;
	struct ex_group *groups;
	size_t ngroups, groups_alloc;
	struct ex_side *sides;
	size_t nsides, sides_alloc;
	/* profiles: distinct (label set, input name); codes[p * nkeys + k] */
	uint32_t *codes;
	size_t nprofiles, profiles_alloc;
	size_t *profile_input;	/* [p]: its input (index into inputs) */
	char **inputs;		/* the inputs' names, as shown */
	size_t ninputs, inputs_alloc;
	char **notes;		/* what was pooled on request, said once */
	size_t nnotes, notes_alloc;
	struct ex_private *priv;
};

/*
 * Builds the model of the measurements of sets[0..nsets) that opt takes.
 * Returns 0, or -1 with a message in err (a --compare key that has one
 * value, a --ratio value no measurement has).
 */
int experiment_build(struct experiment *ex, const struct result_set *sets,
		     size_t nsets, const struct experiment_options *opt,
		     struct strbuf *err);
void experiment_release(struct experiment *ex);
/*
 * Group g's statistics, as experiment_build() gives them (acc: scratch,
 * initialised): for a model built groups_only, whose user needs them
 * one group at a time (compare: a million groups' were 160 MB).
 */
void experiment_group_stats(const struct experiment *ex, size_t g,
			    struct stats_acc *acc, struct stats *st);

/*
 * Names for the sources of set whose base name another source of a
 * different path has too (x/run.txt and y/run.txt, both "run.txt"): the
 * shortest tail of each path that tells them apart, "x/run.txt"; NULL
 * for the rest.  An array of set->nsources, or NULL when no name
 * clashes; experiment_free_shown() frees it.
 */
char **experiment_shown_sources(const struct result_set *set);
void experiment_free_shown(char **shown, size_t n);

/* The key named name, or EX_NONE. */
size_t experiment_key(const struct experiment *ex, const char *name);

/* Is key k among keys[0, n)? */
static inline int ex_keys_have(const size_t *keys, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i] == k)
			return 1;
	return 0;
}

/* The code of key k for measurement i (an index into ex->m). */
static inline uint32_t experiment_code(const struct experiment *ex, size_t i,
				       size_t k)
{
	return ex->codes[ex->m[i].profile * ex->nkeys + k];
}

/* Its value, or NULL when the measurement has no such label. */
const char *experiment_value(const struct experiment *ex, size_t i, size_t k);

/*
 * The factors that still tell members[0..n) apart once the keys in
 * chosen[0..nchosen) are known, in display order (the user's keys, the
 * usual conditions bs iodepth numjobs rw..., sections, tests, the
 * rest), each only if it says something the keys before it do not (a
 * device that restates the command is left out).  Returns how many were
 * written to out (at most max).  The ops and the tools are keys here:
 * EX_OP and EX_TOOL.
 */
#define EX_OP (SIZE_MAX - 1)
#define EX_TOOL (SIZE_MAX - 2)	/* the tool, a key like the op */
size_t experiment_distinguishing(const struct experiment *ex,
				 const size_t *members, size_t n,
				 const size_t *chosen, size_t nchosen,
				 size_t *out, size_t max);

/* The code of key k, or of the op for EX_OP (any key of the model). */
uint64_t experiment_code_of(const struct experiment *ex, size_t i, size_t k);

/*
 * The factor (or EX_OP) measurements a and b differ in first, in display
 * order; EX_NONE when they differ in none (one condition, or only in
 * tool, metric or side).
 */
size_t experiment_first_difference(const struct experiment *ex, size_t a,
				   size_t b);

/*
 * The key a chart of members puts on x: the first numeric factor with
 * three values or more (a block size, a depth, a job count: a scale);
 * else the first distinguishing key but the op (which reads best as the
 * series); else the op.  Returns a key index, EX_OP or EX_TOOL.
 */
size_t experiment_pick_x(const struct experiment *ex, const size_t *members,
			 size_t n);

/* Does key k (or EX_OP) take two or more values over members? */
int experiment_varies(const struct experiment *ex, const size_t *members,
		      size_t n, size_t k);

/* The summary rule above, for n runs. */
enum ex_summary ex_summary_for(size_t n);

/*
 * Appends value text (as experiment_value_text() gives it) of key in
 * words: "4K blocks", "64M files", "iodepth 32", "8 jobs", "direct I/O";
 * keys whose values say what they are (op, host, device, test, section)
 * give the value alone.
 */
void experiment_value_words(struct strbuf *sb, const char *key,
			    const char *text);

/*
 * A value of key k as a reader wants it: sizes as "4K", "1M"; a long
 * value (a command line) as the part that differs from the key's other
 * values; "no KEY" when absent.  Writes to buf, returns it.
 */
const char *experiment_value_text(const struct experiment *ex, size_t k,
				  uint32_t code, char *buf, size_t size);

/*
 * What experiment_value_text() leaves out of key k's long values, as a
 * pattern: "Samsung SSD 870 EVO 1TB #…" (the shared head and tail, "…"
 * for the part each value shows).  Appends it to sb and returns 1, or
 * returns 0 when no value of k is cut.
 */
int experiment_value_shared(const struct experiment *ex, size_t k,
			    struct strbuf *sb);

/*
 * Which of the inputs sets[0..n) (named names[i]: the files given) are
 * one side of a comparison: storan report A B C.  The names are cut into
 * tokens as above; a position whose values are run numbers makes
 * repetitions, a position where two inputs that differ only there share
 * a test names sides (hosta, hostb), any other position names tests
 * (randread-4k-qd32-run1.json ... are one side).  Writes each input's
 * side (0 .. n-1, first seen first) to side_of[] and returns the number
 * of sides: n when every input is one, 1 when they are one data set.
 */
size_t experiment_input_sides(const struct result_set *sets,
			      const char *const *names, size_t n,
			      const struct filter *where, size_t *side_of);

/*
 * Does some measurement of b have the tool, op, metric and every label of
 * one of a, both taken by opt (its where and take; the rest unused)?
 * Such two are one test in any model of the pair (no factor can tell
 * them apart), so the sets share a test: one hash pass, where building
 * the pair's model took 0.4 s at 50,000 measurements a side.  0 says
 * nothing: ask the model.
 */
int experiment_sets_share_a_measurement(const struct result_set *a,
					const struct result_set *b,
					const struct experiment_options *opt);

/*
 * Compare: the match class of every group of sides a and b, as the
 * matching rules above say, into match[g] (EX_NONE for groups of other
 * sides) and split[g] (matched by provenance keys too; may be NULL).
 * Returns the number of classes; *nsplit (may be NULL) how many tests
 * one side splits by a provenance key.
 */
size_t experiment_match(const struct experiment *ex, size_t a, size_t b,
			size_t *match, int *split, size_t *nsplit);

/*
 * Labels that say where a number came from rather than under which
 * conditions it was measured: command, section, file.  Tables pool across
 * them; compare leaves them out of the match.
 */
int label_is_provenance(const char *key);

/* Is KEY a size, printed "4K" rather than "4096" (bs, filesize...)? */
int key_is_size(const char *key);

#endif
