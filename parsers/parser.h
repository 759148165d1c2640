/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The parser interface.  Adding a parser:
 *
 *   1. write parsers/NAME.c, opening with the exact variants it accepts,
 *      quoted verbatim, each with a fixture under tests/parsers/NAME/;
 *   2. export one `const struct parser parser_NAME` from it;
 *   3. list it in parsers[] in parsers/registry.c (the order there is the
 *      order in which parsers see a file).
 *
 * Parsers are pure: no I/O, no globals, no exit().  A parser reads the clean
 * lines of an input (see core/input.h), emits measurements through the
 * parse_ctx helpers below, claims the lines it recognised as output, and
 * reports what it could not read with parse_error() (file:line).  Several
 * parsers may read the same file; each takes only its own tool's text.
 */
#ifndef STORAN_PARSER_H
#define STORAN_PARSER_H

#include "../core/diag.h"
#include "../core/input.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"
#include "shell.h"

#include <stdatomic.h>
#include <stdint.h>

struct keymap;
struct recent64;

/*
 * Values emitted by parse_emit_labelled() while a long log is read by
 * windows go, when their key is one a measurement of the window has
 * already, to that measurement: a loop of a million dd runs makes a few
 * measurements a window, not three a run, and the fold (ingest/fold.h)
 * takes their values one by one as it would have taken the measurements
 * -- each value's line and number say where it was read.  Only keys
 * with a command label and no section nor cache label are bundled, and
 * any other measurement emitted closes the bundles open: no value
 * reaches the fold out of its turn with another key its row could have
 * (the context pass adds a command, a section or a cache label only
 * where the parser's labels have none).
 */
struct value_place {
	size_t li;		/* the window's line index */
	size_t seq;		/* the value's number among its parser's */
};

struct value_places {		/* a measurement's values after its first */
	size_t n, alloc;
	struct value_place *v;
};

void value_places_free(struct value_places *vp);	/* NULL: none */

#define BUNDLES_OPEN 256	/* slots, by a hash of the key's text */
struct emit_bundles {
	/* per measurement k of the set (k = i - base): the number of its
	 * first value, and its further values' places (NULL: none) */
	size_t *seq;
	struct value_places **places;
	size_t alloc;
	size_t emitted;		/* values emitted so far */
	/* the measurements k taking values: a slot is open while its gen
	 * is the current one (closing all is a new generation); the key's
	 * strings as given, alike when they are the same */
	struct {
		size_t k, gen;
		const char *tool, *op, *metric, *unit;
	} open[BUNDLES_OPEN];
	size_t gen;
	/* the label set asked about last (held) and whether it may be */
	struct labels checked;
	int checked_ok;
};

struct parse_ctx {
	const struct input *in;
	struct result_set *rs;
	size_t source;		/* index of the input in rs->sources */
	struct diag_list *diags;
	unsigned char *claimed;	/* per input line: recognised as output */
	size_t claimed_alloc;
	size_t unclaimed;	/* non-empty lines not claimed yet */
	size_t *first_index;	/* per measurement: input line index */
	size_t first_alloc;
	/* parse_inner_lines(): spans [from, to) of lines not claimed yet
	 * part of one output, taken by the ingest with the measurements */
	struct line_span { size_t from, to; } *inner;
	size_t ninner, inner_alloc;
	size_t base;		/* rs->n when the input started */
	const char *tool_version;	/* set by a parser that saw one */
	int drop_histograms;	/* see struct ingest_options */
	int spill_values;	/* see struct ingest_options */
	/* see struct ingest_options */
	const char *fio_version, *fio_version_from;
	atomic_int *fio_assume_noted;
	struct recent64 *seen;	/* parse_seen(): created when first used */
	struct keymap *label_sets;	/* share_labels(): the same */
	struct labels *one_labels;	/* parse_label_one(): the same */
	unsigned one_labels_next;	/* the slot it fills next */
	unsigned one_labels_last;	/* the slot it gave last */
	/* A log read window by window keeps few measurements at once:
	 * their labels are not worth sharing (share_labels()). */
	int no_label_sharing;
	const struct label *last_shared;	/* the set it saw last */
	struct strbuf label_key;	/* its scratch */
	/* The command that ran line li's output as the context pass reads
	 * it (joined, its prompt gone), or NULL: set by whoever drives the
	 * parsers (ingest/), so that a parser calls nothing above it. */
	char *(*command_text)(const struct parse_ctx *ctx, size_t li);
	/* By windows: values bundled (struct emit_bundles), else NULL. */
	struct emit_bundles *bundles;
};

/*
 * How a parser reads a long log window by window (ingest/ingest.c), its
 * state kept between windows, so that a log of a million runs is read in
 * bounded memory.  Optional: a log that a parser without it reads is cut
 * whole.  Line indices are the window's.
 *
 *   begin   the state for a new input
 *   lines   reads from line *li up to `to` (not included), leaving *li
 *           at the line it reads next (past `to` when an output runs on):
 *           it looks at most PARSE_AHEAD lines past the line it reads,
 *           besides past blank lines to the next non-blank one, and
 *           claims or looks at most PARSE_BEHIND lines before it
 *   end     the input ended: what an output left open says, and the
 *           state is freed
 *   keep    the first line the state refers to, at most *li (the state
 *           and what it will look at from *li on)
 *   rebase  the window's first `gone` lines are gone (gone <= keep)
 *
 * parse() of such a parser is begin, lines over every line, and end
 * (parse_by_lines()).
 */
#define PARSE_AHEAD 64
#define PARSE_BEHIND 512
struct parse_stream {
	void *(*begin)(struct parse_ctx *ctx);
	void (*lines)(struct parse_ctx *ctx, void *state, size_t *li,
		      size_t to);
	void (*end)(struct parse_ctx *ctx, void *state);
	size_t (*keep)(const void *state, size_t li);
	void (*rebase)(void *state, size_t gone);
};

/* parse() of a parser that reads by windows: all its lines at once. */
int parse_by_lines(struct parse_ctx *ctx, const struct parse_stream *ops);

/*
 * A row of the parser table: adding a parser is its file and its row.
 * Everything the rest of storan knows about a tool's text is here: the
 * context pass, the input layer, storan check and `storan ingest --help`
 * ask the table, not lists of their own.
 */
struct parser {
	const char *name;
	/* The tool its measurements name (their 'tool'): "fio" for each of
	 * fio's formats; NULL for a format of no one tool (CSV). */
	const char *tool;
	/* What it reads, one line for `storan ingest --help` and docs. */
	const char *reads;
	/* Programs whose command runs it ("dd", "gdd"), NULL-terminated;
	 * NULL: none.  A line running one is a command, not prose. */
	const char *const *programs;
	/* A page that lost its line breaks runs its output into its command
	 * ("# hdparm -t /dev/sda /dev/sda: Timing ..."): the input layer
	 * cuts such a line after the command. */
	unsigned output_after_command : 1;
	/* Its buffered reads go through the page cache, so whether a cache
	 * drop ran before them matters (dd, iozone); hdparm -t and fio
	 * (invalidate=1) drop the file's cache themselves. */
	unsigned reads_through_cache : 1;
	/* How sure the parser is that its tool's text is in the input: 0
	 * means "not here", anything above means "let me parse". */
	int (*detect)(const struct input *in);
	/* Returns the number of measurements emitted. */
	int (*parse)(struct parse_ctx *ctx);
	/*
	 * Optional, for a format that can fill a big file alone (fio's
	 * JSON): does the raw text start like one output of the tool that
	 * is the whole input (a cheap look)?  And reading an uncut input
	 * (see input.h) whole: the number of measurements emitted, or -1,
	 * having emitted and said nothing, when the input is not wholly
	 * such output (its lines are then cut and every parser asked).
	 */
	int (*whole_start)(const struct input *in);
	int (*parse_whole)(struct parse_ctx *ctx);
	/* Optional: reading a long log window by window (above). */
	const struct parse_stream *stream;
};

/* NULL-terminated, in the order they run. */
extern const struct parser *const parsers[];

/* The first row whose measurements name tool, or NULL. */
const struct parser *parser_for_tool(const char *tool);
/* The programs some parser reads the output of, each once, in table
 * order, into out (at most max); returns how many. */
size_t parser_programs(const char **out, size_t max);
/* Does the line run a program whose output may follow its command on
 * the same line (output_after_command)?  struct input's
 * runs_output_tool. */
int parser_output_after_command(const char *head);
/* Every row's name and what it reads, a line each, as --help lists
 * them. */
void parsers_describe(struct strbuf *out);

/*
 * Emits a measurement with one value, read at input line index li, and
 * returns it so the caller can add labels.  The source name is the line's
 * grep prefix when it has one, else the input's name.
 */
struct measurement *parse_emit(struct parse_ctx *ctx, size_t li,
			       const char *tool, const char *op,
			       const char *metric, const char *unit,
			       double value);
/* Marks input line li as part of an output. */
void parse_claim(struct parse_ctx *ctx, size_t li);
/* Marks lines [from, to) (a JSON document's 170,000: one call). */
void parse_claim_range(struct parse_ctx *ctx, size_t from, size_t to);
/*
 * Reads the command on line *li with read(state, text): the line's text,
 * or, when it is continued with " \" (a long command in a transcript),
 * the line and the lines continuing it joined.  When read returns
 * non-zero, the lines are claimed and *li moves to the last of them.
 * Returns what read returned.
 */
int parse_command_lines(struct parse_ctx *ctx, size_t *li,
			int (*read)(void *state, const char *text,
				    size_t li),
			void *state);
void parse_error(struct parse_ctx *ctx, size_t li, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void parse_note(struct parse_ctx *ctx, size_t li, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Has an output with this key been taken before in this input?  The key
 * is the output's own text (its command and figures, prefixed by the
 * parser's name): the first time, li is remembered and 0 returned; a later
 * identical output is the same one quoted in a reply or pasted again, and
 * 1 is returned with the first one's line index in *orig.  Hashed, so a
 * log of a million runs costs a million lookups, not their square.
 */
int parse_seen(struct parse_ctx *ctx, const char *key, size_t li,
	       size_t *orig);
/*
 * parse_emit() of a measurement labelled l (a shared set), bundled with
 * an earlier one of the same key when values are (struct emit_bundles).
 * tool, op, metric and unit must not change while the input is read
 * (string literals): the same pointers are the same strings.
 */
void parse_emit_labelled(struct parse_ctx *ctx, size_t li, const char *tool,
			 const char *op, const char *metric, const char *unit,
			 double value, const struct labels *l);
/* Values are bundled from now on (a context that reads by windows). */
void parse_bundle_values(struct parse_ctx *ctx);
/* The set's n measurements, their numbers and places taken (the set
 * emptied): no bundle stays open, no place is the context's. */
void parse_bundles_taken(struct parse_ctx *ctx, size_t n);

/*
 * l (no labels yet) becomes the set {key=value}, one set for all who ask
 * for the same label lately (the last ONE_LABELS asked): a loop's runs
 * labelled with its command, in turn, share a handful of sets, each
 * hashed once by the fold and freed once, not one set a run.
 */
#define ONE_LABELS 8
void parse_label_one(struct parse_ctx *ctx, struct labels *l,
		     const char *key, const char *value);

/*
 * Lines [from, to), left unclaimed for other parsers, are part of one
 * output all the same: a timed program's own words between its "time
 * CMD" line and its timing ("done").  They are no prose between two
 * outputs: the runs of a loop around such a program fold into one row.
 */
void parse_inner_lines(struct parse_ctx *ctx, size_t from, size_t to);

/*
 * Is there prose strictly between lines a and b: a line no parser has
 * claimed (so far) that is not blank, a prompt, a run counter ("Run
 * 2:") or what an echo typed above it printed (line_echoed_above())?  An
 * output seen again after prose is quoted; without it, run again.
 */
int parse_prose_between(const struct parse_ctx *ctx, size_t a, size_t b);

/*
 * Does line li close a heading: the rule under a title line ("Desktop PC
 * / 7200 rpm disk:" over "---", as a one-cell Markdown table's header
 * comes from the input layer), or "## title"?  An output under it is
 * that heading's setup's: a command above the heading is not its
 * command (a how-to's "hdparm -Tt /dev/nvme0n1" over tables of three
 * machines).
 */
int parse_heading_line(const struct parse_ctx *ctx, size_t li);

/*
 * Runs emit(ctx, from, to, arg) over items [0, n) on two threads where
 * storan may use two CPUs: [n/2, n) with a context of its own (the same
 * input and settings; its own result set, messages and memo tables),
 * its measurements, messages, claimed-line count and tool version then
 * moved behind the first half's, so the result is that of emit(ctx, 0,
 * n, arg).  emit must be safe to run twice at once on disjoint ranges
 * (claiming disjoint lines); the second runs with a ctx that is not this
 * one, whose parse_seen() table is its own: a pasted copy across the two
 * halves is not seen (fio's JSON jobs need none).
 */
void parse_in_two(struct parse_ctx *ctx, size_t n,
		  void (*emit)(struct parse_ctx *c, size_t from, size_t to,
			       void *arg),
		  void *arg);

/*
 * The context of one input's parse (ingest/ingest.c's): a source added to
 * rs for it, no line claimed.  parse_ctx_recut() after the input's lines
 * were cut late; parse_ctx_finish() once every parser ran (the last
 * measurement shares its labels); parse_ctx_release() frees it.
 */
void parse_ctx_init(struct parse_ctx *ctx, const struct input *in,
		    struct result_set *rs, struct diag_list *diags);
void parse_ctx_recut(struct parse_ctx *ctx);
/*
 * A windowed input (core/input.h) got lines behind its window: their
 * claims start unset, and the non-empty ones count as unclaimed.
 * parse_ctx_forget(): its first n lines went (input_forget_lines());
 * the caller moves first_index[].
 */
void parse_ctx_window_grew(struct parse_ctx *ctx, size_t before);
/*
 * A context for one parser that runs beside others (its own thread): the
 * parent's input, claims and settings, its own result set rs (from rs->n
 * on), messages and memo tables (the pasted-copy one: each parser's keys
 * are its own).  The caller moves what it emitted, and its claims count
 * (unclaimed), to the parent.  parse_ctx_fork_release() frees its
 * tables, not rs nor diags.
 */
void parse_ctx_fork(struct parse_ctx *child, const struct parse_ctx *parent,
		    struct result_set *rs, struct diag_list *diags);
void parse_ctx_fork_release(struct parse_ctx *child);
void parse_ctx_forget(struct parse_ctx *ctx, size_t n);
void parse_ctx_finish(struct parse_ctx *ctx);
void parse_ctx_release(struct parse_ctx *ctx);

/* Is the file named like a fio log (JOB_bw.N.log, _clat...)? */
int fio_log_name_kind(const char *name);
/*
 * Why fio leaves a log of this name empty, when it does: a slat log
 * (JOB_slat.N.log) for a synchronous engine, a histogram log
 * (JOB_clat_hist.N.log) without log_hist_msec; NULL for other names.
 */
const char *fio_log_empty_why(const char *name);
/*
 * The fio version a fio output says (JSON "fio version", or the text
 * report's "fio-3.33" line) into out ("fio-3.33"); 0, or -1 when the
 * text (its first len bytes) says none.
 */
int fio_version_in_text(const char *text, size_t len, char *out,
			size_t outlen);

#endif
