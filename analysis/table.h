/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pivot and ratio tables: one metric of a result set, with any keys (op,
 * tool, source or a label) on rows and columns, and one statistic per cell.
 *
 * A ratio table divides the cells of one group (kind=file) by the matching
 * cells of another (kind=block): both groups are pivoted over the same
 * rows and columns, so cells match on everything the rows and columns
 * name.  Each ratio cell also carries Welch's p-value for the difference
 * between the two groups' runs, so that a reader can tell a real drop from
 * one wild run.
 *
 * Measurements that land in one cell are pooled as repetitions.  When they
 * are two conditions of the experiment model (analysis/experiment.h: they
 * differ in a factor the rows and columns do not name -- another op,
 * host, section, input...) the cell mixes conditions: the pivot says so
 * (mix_key) instead of averaging in silence, unless --pool names the key.
 *
 * The pivot is independent of output format; pivot_to_fmt() turns it into a
 * display table (analysis/format.h) in chosen display units.  Building
 * takes linear time in the number of measurements (hashed grouping).
 */
#ifndef STORAN_TABLE_H
#define STORAN_TABLE_H

#include <stddef.h>

#include "format.h"
#include "stats.h"
#include "../core/filter.h"
#include "../core/human.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"

enum pivot_stat {
	PIVOT_MEAN,
	PIVOT_MEDIAN,
	PIVOT_MIN,
	PIVOT_MAX,
	PIVOT_CV,	/* coefficient of variation, percent */
	PIVOT_N,	/* number of runs */
};

/* Parses "mean", "median", "min", "max", "cv", "n"; 0 on success. */
int pivot_stat_parse(const char *name, enum pivot_stat *out);
const char *pivot_stat_name(enum pivot_stat stat);

/* Where op sorts: the order benchmarks run them (read, write, randread,
 * ..., hdparm's cachedread after its disk read); others 1000, after. */
int op_rank(const char *op);

struct pivot_options {
	const char *metric;
	char **row_keys;		/* at least one */
	size_t nrow_keys;
	char **col_keys;		/* may be empty: one value column */
	size_t ncol_keys;
	const struct filter *where;	/* NULL: every measurement */
	enum pivot_stat stat;
	/* Ratio tables: cells of ratio_key=ratio_num / ratio_key=ratio_den. */
	const char *ratio_key;		/* NULL: a plain pivot */
	const char *ratio_num, *ratio_den;
	/* A measurement that lacks a row or column key is kept, under the
	 * value "" shown as "no KEY" (the report, whose charts draw it so),
	 * instead of being left out. */
	int keep_lacking;
	/* Keys pooled on request (--pool): a cell whose measurements differ
	 * only in these is no mix (analysis/experiment.h). */
	char **pool;
	size_t npool;
	/* Steady state (analysis/steady.h): when set, pivot_to_fmt() adds,
	 * after the value columns, a column NAME_steady for each value
	 * column with a member that has samples over time the rule applies
	 * to: the mean of their steady parts, or why there is none. */
	const struct steady_rule *steady;
};

/*
 * Is key one that the experiment model derives from the inputs' names
 * ("test"), which --rows and --cols take as they take a label?
 */
int pivot_key_from_names(const struct result_set *rs, const char *key);

/*
 * Parses a --ratio spec "KEY=A/KEY=B" into its three parts (copies the
 * caller frees).  Values may contain '/' (device=/dev/sda/device=/dev/sdb).
 * Returns 0, or -1 when the spec is malformed or names two keys.
 */
int pivot_ratio_parse(const char *spec, char **key, char **num, char **den);

struct steady_rule;

struct pivot_cell {
	struct stats st[2];	/* [0] group/numerator, [1] denominator */
	double value;		/* statistic or ratio; NAN: empty */
	double p;		/* ratio: Welch p; NAN: untestable */
};

struct pivot {
	char *metric;
	char *unit;		/* the metric's base unit */
	enum pivot_stat stat;
	int is_ratio;
	char *ratio_key, *ratio_num, *ratio_den;
	size_t nrow_keys, ncol_keys;
	char **row_key_names, **col_key_names;
	size_t nrows, ncols;	/* sorted: numbers by value, ops */
	char **row_vals;	/* nrows * nrow_keys */
	char **col_vals;	/* ncols * ncol_keys */
	struct pivot_cell *cells;	/* nrows * ncols */
	size_t *members;	/* measurement indices, grouped by cell */
	size_t *member_at;	/* nrows * ncols + 1 offsets into members */
	size_t used;		/* measurements in the table */
	size_t lacking;		/* left out: a key missing */
	char *lacking_key;	/* the first key found missing */
	size_t mixed_cells;	/* cells pooling different conditions */
	char *mix_key, *mix_a, *mix_b;	/* first difference found */
	size_t half_cells;	/* ratio cells with only one group present */
	char *pooled;		/* what --pool pooled, or NULL */
	/* the options' steady rule, and the result set built from (valid
	 * while it is: pivot_to_fmt() reads the members' series) */
	const struct steady_rule *steady;
	const struct result_set *rs;
};

/*
 * Builds the pivot of opt->metric over rs.  Returns 0, or -1 with a
 * message in err (nothing selected, too many cells, mixed units).
 */
int pivot_build(struct pivot *pv, const struct result_set *rs,
		const struct pivot_options *opt, struct strbuf *err);
void pivot_release(struct pivot *pv);

static inline struct pivot_cell *pivot_cell(const struct pivot *pv,
					    size_t row, size_t col)
{
	return &pv->cells[row * pv->ncols + col];
}

/*
 * The measurements pooled in a cell (indices into the result set built
 * from; both sides of a ratio cell); *n receives their count.
 */
static inline const size_t *pivot_cell_members(const struct pivot *pv,
					       size_t row, size_t col,
					       size_t *n)
{
	size_t i = row * pv->ncols + col;

	*n = pv->member_at[i + 1] - pv->member_at[i];
	return pv->members + pv->member_at[i];
}

/*
 * The display table of a pivot.  unit NULL chooses a readable unit from
 * the cells (decimal prefixes) for people, while the raw figures (CSV,
 * JSON) stay in the base unit; a unit given is used for both.  alpha is
 * the level at which ratio cells are marked significant.  Notes explain
 * the marks and anything left out.
 */
void pivot_to_fmt(const struct pivot *pv, const struct display_unit *unit,
		  double alpha, struct fmt_table *out);

#endif
