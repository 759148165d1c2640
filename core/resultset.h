/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The result set: the one data model every part of storan meets in.
 *
 * Parsers and the runner only produce result sets; analysis and plotting
 * only consume them.  A result set owns every string in it: nothing points
 * into an input buffer once parsing is done.
 *
 * A measurement is one metric of one operation under one set of conditions
 * (its labels), possibly repeated: values[] holds one number per
 * repetition, in the metric's SI base unit (B/s, 1/s, B, s, %).  Where a
 * source printed only a summary (a mean and a standard deviation, no
 * individual runs), values[] is empty and the summary says what was printed.
 */
#ifndef STORAN_RESULTSET_H
#define STORAN_RESULTSET_H

#include "pool.h"

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct series;
struct spilled_values;

struct label {
	char *key;
	char *value;
};

/*
 * A set of key=value pairs, kept sorted by key, keys unique, at most
 * LABELS_MAX of them.  Read v[] and n freely; change a set only through
 * labels_set(), labels_set_many() and labels_remove(): sets are shared
 * copy-on-write between measurements (labels_copy is cheap).
 *
 * LABELS_MAX: a fio job has 15 to 40 labels, a storan result set a few
 * more; thousands are no benchmark's (and every export row repeats
 * them).  Readers of result sets, CSV and fio's option lists refuse a
 * measurement with more than LABELS_INPUT_MAX, naming its line.
 */
#define LABELS_MAX 1024
#define LABELS_INPUT_MAX 512	/* from an input: room for storan's own */
struct labels {
	struct label *v;
	uint32_t n, alloc;	/* (a measurement's: 16 bytes, not 24) */
};

/* What a source printed in place of individual values. */
struct summary {
	int present;
	double n;		/* number of runs the summary covers */
	double mean;
	double stddev;		/* NAN when not printed */
	double min, max;	/* NAN when not printed */
	int stddev_population;	/* printed stddev divides by n, not n-1 */
};

/* An optional distribution: counts of values in buckets (fio JSON+ bins). */
struct histogram {
	size_t n;
	double *value;		/* bucket value, in the metric's unit */
	uint64_t *count;
};

struct measurement {
	char *tool;		/* tool..unit, source_name: one block (resultset.c) */
	char *op;
	char *metric;
	char *unit;
	double *values;
	/* 32 bits (check_value_count()): 128 bytes a measurement, two
	 * cache lines, where 144 touched three of them now and then */
	uint32_t n, alloc;
	/* What the source printed instead of values, or NULL (it printed
	 * them): read it through measurement_summary(), which never gives
	 * NULL.  (Inline, it was 56 of a loaded measurement's 192 bytes,
	 * and a million result-set measurements carry values.) */
	struct summary *summary;
	struct histogram hist;
	struct labels labels;
	char *source_name;	/* base name of the input, or its grep prefix */
	/* Index into result_set.sources (inputs: fewer than 2^30), beside
	 * the flag and the line in 8 bytes: a million loaded measurements
	 * are 8 MB less. */
	unsigned source : 30;
	/* Its histogram was not kept, the output having no room for it
	 * (ingest --format csv): repeated runs stay apart as with it. */
	unsigned hist_dropped : 1;
	/* Its strings (one block, shared with every measurement of the same
	 * tool..source_name) and its first values live in its result set's
	 * pool (result_set_add_pooled()): nothing of them is freed alone. */
	unsigned pooled : 1;
	unsigned line;		/* line the (first) value was read from */
	/* Samples over time (fio's logs), or NULL: owned (core/series.h). */
	struct series *series;
	/* Values before values[] moved to a temporary file, or NULL: only
	 * storan ingest's long logs (core/valspill.h). */
	struct spilled_values *spilled;
};

struct source {
	char *path;
	char *name;		/* base name */
	char *format;		/* detected formats, "dd,time" */
	char *tool_version;	/* NULL when the text doesn't say */
	char sha256[65];
	/* The labels the user gave at ingest (--label, and the keys of
	 * --name-pattern): the experiment model prefers them for naming
	 * sides and conditions over labels a parser derived. */
	struct labels labels;
};

/*
 * A line of an input's text that dropped the page cache ("echo 3 >
 * /proc/sys/vm/drop_caches", "umount /mnt": parsers/shell.h's
 * line_drops_cache()), recorded by the ingest's context pass for storan
 * check: a read after it did not come from the page cache.  storan/1
 * JSON carries them ("cache_drops", docs/result-format.md), so that
 * check reads a result set as it read the text; the CSV export does not
 * (a read right after a drop carries the label cache=dropped there).
 */
struct cache_drop {
	size_t source;		/* index into result_set.sources */
	char *name;		/* the line's grep prefix, or the input's name */
	unsigned line;
};

struct result_set {
	struct source *sources;
	size_t nsources, sources_alloc;
	struct measurement *m;
	size_t n, alloc;
	/* m is a slice of an array another set owns (load_inputs() gives
	 * each input its place in the array of all): never freed or
	 * reallocated here; result_set_grow() past alloc moves it to an
	 * array of its own. */
	int m_borrowed;
	/* In the order read; a measurement's when both source and name
	 * are its (two inputs may both be run.txt). */
	struct cache_drop *drops;
	size_t ndrops, drops_alloc;
	/* pooled measurements' strings and values (released with the set) */
	struct pool pool;
};

/* Room in rs->m for need measurements (see m_borrowed). */
void result_set_grow(struct result_set *rs, size_t need);
/* A borrowed rs->m copied to an array of rs's own, with room for room
 * measurements (at least rs->n); nothing when rs owns it. */
void result_set_own(struct result_set *rs, size_t room);

void labels_init(struct labels *l);
void labels_release(struct labels *l);
void labels_copy(struct labels *dst, const struct labels *src);
/* Sets key to value, replacing an existing value.  0, or -1 (nothing
 * changed) when key is new and the set holds LABELS_MAX labels. */
int labels_set(struct labels *l, const char *key, const char *value);
/*
 * Sets the n pairs at once (copied), a later pair winning over an
 * earlier one with the same key: sorted once, O(n log n), where n
 * labels_set() calls in an unlucky order shift the array n times.
 * 0, or -1 (nothing changed) when the set would exceed LABELS_MAX.
 */
struct label_ref {
	const char *key, *value;
};
int labels_set_many(struct labels *l, const struct label_ref *pairs,
		    size_t n);
void labels_setf(struct labels *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Value of key, or NULL. */
const char *labels_get(const struct labels *l, const char *key);
void labels_remove(struct labels *l, const char *key);
int labels_equal(const struct labels *a, const struct labels *b);
/* Appends every key and value as strbuf_add_keypart()s: a hash-map key
 * that two sets share only when they are equal. */
void labels_add_keyparts(const struct labels *l, struct strbuf *sb);
/* "k=v;k=v" sorted by key, as the CSV export writes it. */
char *labels_to_string(const struct labels *l);
/* The same, cached in the set: valid until the set changes or is freed. */
const char *labels_joined(const struct labels *l);
/*
 * The set as render() writes it, cached with the shared set like
 * labels_joined(): a fio job's 15 labels are rendered once, not once per
 * measurement.  One renderer only (the JSON writer): the cache does not
 * say whose text it holds.  NULL for a set that has no storage (empty).
 */
const char *labels_rendered(const struct labels *l,
			    void (*render)(const struct labels *,
					   struct strbuf *));
/* A hash of the set, cached like labels_joined() (equal sets, equal hash). */
uint64_t labels_hash(const struct labels *l);

void result_set_init(struct result_set *rs);
void result_set_release(struct result_set *rs);
/*
 * Forgets the measurements, sources and cache drops past the first n
 * and nsources (the drops of a source that goes).
 */
void result_set_truncate(struct result_set *rs, size_t n, size_t nsources);
/* Records a cache drop on line `line` of source `source`, under name (the
 * line's grep prefix or the input's name; copied). */
void result_set_add_cache_drop(struct result_set *rs, size_t source,
			       const char *name, unsigned line);

/* Adds a source and returns its index; strings are copied. */
size_t result_set_add_source(struct result_set *rs, const char *path,
			     const char *sha256);
/*
 * Appends an empty measurement (copies of the strings, no values) and
 * returns it.  The pointer is valid until the next append.
 */
struct measurement *result_set_add(struct result_set *rs, const char *tool,
				   const char *op, const char *metric,
				   const char *unit);
/* result_set_add() and measurement_set_source() at once (one allocation
 * for all the strings, as parsers emit). */
struct measurement *result_set_add_from(struct result_set *rs,
					const char *tool, const char *op,
					const char *metric, const char *unit,
					size_t source, const char *source_name,
					unsigned line);
/*
 * A measurement whose strings are `key` -- tool, op, metric, unit and
 * source_name one after the other, each with its NUL, made by the caller
 * in rs->pool and shared by as many as have them -- and whose n values
 * are copied into rs->pool: no allocation of its own.  (storan/1 read
 * back: a million measurements were a million blocks of the same five
 * strings.)  It changes as any other (its strings or values then move
 * to blocks of its own).
 */
struct measurement *result_set_add_pooled(struct result_set *rs,
					  const char *key, size_t source,
					  unsigned line, const double *values,
					  size_t n);
/* result_set_add_from() with its n values at once (kept in the block of
 * its strings: one allocation, where a result set is read back). */
struct measurement *result_set_add_values(struct result_set *rs,
					  const char *tool, const char *op,
					  const char *metric, const char *unit,
					  size_t source,
					  const char *source_name,
					  unsigned line, const double *values,
					  size_t n);
/*
 * Sets tool, op, metric and unit (copies, in one block that m->tool owns:
 * change them only through here).
 */
void measurement_set_key(struct measurement *m, const char *tool,
			 const char *op, const char *metric, const char *unit);
void measurement_add_value(struct measurement *m, double v);
/*
 * A long log's values out of memory (core/valspill.h, storan ingest
 * only): measurement_spill() appends m's values to the temporary file vf
 * and empties values[] (0; -1 when the write failed: m unchanged);
 * measurement_nvalues() counts the spilled ones and values[];
 * measurement_each_value() calls each(v, n, arg) on them all in order, a
 * piece at a time, and returns 0 or each()'s first non-zero.
 */
struct value_file;
int measurement_spill(struct measurement *m, struct value_file *vf);
size_t measurement_nvalues(const struct measurement *m);
int measurement_each_value(const struct measurement *m,
			   int (*each)(const double *v, size_t n, void *arg),
			   void *arg);
void measurement_set_source(struct measurement *m, size_t source,
			    const char *name, unsigned line);
void measurement_release(struct measurement *m);
/* *one: a measurement of the single value v, read from line `line`, with
 * m's key (strings, labels, source), as if emitted alone. */
void measurement_init_like(struct measurement *one,
			   const struct measurement *m, double v,
			   unsigned line);
/* Same tool, op, metric, unit, source name and labels. */
int measurement_same_key(const struct measurement *a,
			 const struct measurement *b);
/* A hash of that key: equal keys, equal hashes. */
uint64_t measurement_key_hash(const struct measurement *m);
/* Moves every measurement, source and cache drop of src into dst; src is
 * left empty. */
void result_set_append(struct result_set *dst, struct result_set *src);
/* Removes measurement i, keeping the order of the rest. */
void result_set_remove(struct result_set *rs, size_t i);

/* A summary that is not present: what measurement_summary() gives
 * for a measurement without one. */
extern const struct summary summary_none;

static inline const struct summary *
measurement_summary(const struct measurement *m)
{
	return m->summary ? m->summary : &summary_none;
}

/* m's summary to fill in: a new one (present, spread and extremes NAN,
 * n and mean 0) when it had none. */
struct summary *measurement_add_summary(struct measurement *m);
/* Forgets m's summary (its figure now comes from its values). */
void measurement_drop_summary(struct measurement *m);

/* The figures an export prints: from values[] (and those spilled, the
 * same sums in the same order) or from the summary. */
struct measurement_stats {
	size_t n;
	double mean, stddev, min, max;	/* stddev NAN when n < 2 */
};
void measurement_basic_stats(const struct measurement *m,
			     struct measurement_stats *st);

#endif
