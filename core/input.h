/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The input layer: one file's text, cut into clean lines that every parser
 * reads the same way.
 *
 * Real inputs are messy: outputs quoted in e-mail ("> > "), indented in
 * Markdown, prefixed by grep ("nvme.randread.txt: read: IOPS=..."), with
 * CRLF ends, shell prompts and carriage-return progress updates.  Cleaning
 * happens once, here:
 *
 *   raw line            "> > nvme.txt:  Timing cached reads: ...\r"
 *   origin              "nvme.txt"    (the grep prefix, else NULL)
 *   text                "Timing cached reads: ..."
 *
 * A lone '\r' (a progress line overwritten in a terminal) also ends a line;
 * both pieces keep the number of the file line they came from.  A mail
 * kept quoted-printable (any '=' written "=3D") is decoded first: "=XX"
 * escapes, and lines the client wrapped with a trailing '=' joined again,
 * under the number of their first line.  text has
 * no leading or trailing blanks and is NUL-terminated.  The input owns all
 * of its memory; parsers copy what they keep.
 */
#ifndef STORAN_INPUT_H
#define STORAN_INPUT_H

#include <stddef.h>

struct strbuf;

/*
 * 16 bytes: a 4 MB fio JSON+ file has 170,000 lines, and the table of
 * them was a fifth of the memory an ingest of it touched.  What most
 * lines lack (an origin, quote markers) or few parsers read (the indent)
 * is kept apart, per line, in arrays made when first needed; read it
 * with input_line_origin() and the like.
 */
struct input_line {
	char *text;
	unsigned len;		/* strlen(text) (a line is less than 4 GiB) */
	unsigned lineno;	/* 1-based line of the original file */
};

/*
 * Lines one input may hold.  A line costs about 30 bytes however short
 * it is (its record here, the ingest's per-line tables), so 80 MB of
 * bare newlines took 1.4 GB and 20 s before this cap; at it, the worst
 * text costs about 1 GB beside its own bytes.  A 1 GiB log of 32-byte
 * lines still fits.  Past it an input is refused whole
 * (input->too_many_lines), never cut short.
 */
#define INPUT_LINES_MAX (1u << 25)

struct input {
	char *path;		/* as given; "-" is standard input */
	char *name;		/* base name, "stdin" for "-" */
	char *data;		/* the raw bytes, NUL-terminated */
	size_t size;
	struct input_line *lines;
	size_t nlines, lines_alloc;
	char sha256[65];	/* "" when no_sha256 */
	/* Set before the input is finished: the output has no room for its
	 * hash (storan ingest --format csv), which is then not computed --
	 * on a 2-CPU machine the hash thread took 6% of the CPU a long
	 * log's two parsing threads wanted. */
	int no_sha256;
	int binary;		/* NUL bytes or mostly non-text */
	int too_many_lines;	/* more than INPUT_LINES_MAX: no lines kept */
	/*
	 * The texts, one after another in line order, each ended by its
	 * NUL: "text0\0text1\0..." (arena_len bytes).  A reader of a
	 * format that spans lines (JSON) can read it in place, a NUL where
	 * the '\n' was.  Grep prefixes live apart, in names.
	 */
	char *arena;
	size_t arena_len;
	char *names;		/* storage of the lines' origins */
	size_t names_len;
	/* Per line, NULL while every line has 0: 1 + the offset of its
	 * origin in names; leading blanks stripped (a tab counts 1, 65535
	 * stands for more). */
	unsigned *origin;
	unsigned short *indent;
	/*
	 * Per line, 1 + the length of the shell prompt its text opens with,
	 * found as the line is cut, by prompt_len (ingest gives the shell
	 * reader's: the input layer knows no shell): the parsers and the
	 * context pass asked it of each line several times, 6% of a dd log's
	 * ingest, and the lines are cut on both threads.  0: not known (no
	 * prompt_len, or a prompt of 65,535 bytes or more).  NULL without
	 * prompt_len.
	 */
	unsigned short *prompt;
	size_t (*prompt_len)(const char *text);
	/*
	 * An uncut input (input_finish_uncut) has no lines yet: one reader
	 * may take its raw text whole (a lone fio JSON document of 7 MB
	 * spared 8-11 ms of cutting), else input_cut_lines() cuts them.
	 * Until then nlines is counted, line index i is line number i + 1,
	 * nl_before[b] counts the newlines before block b of NL_BLOCK bytes,
	 * and the hash may still be in the making on another thread.
	 */
	int uncut;
	size_t *nl_before;
	struct input_hasher *hasher;	/* NULL, or the thread making it */
	/*
	 * Asked, before the lines are cut, when a run-together line holds
	 * one output opening: is the text before it a command of a tool
	 * that prints such output ("$ dd if=/dev/zero of=t bs=1M ...")?
	 * Then the line is cut there.  The input layer knows no shell:
	 * ingest gives the parser table's answer
	 * (parser_output_after_command()); NULL keeps such lines whole.
	 */
	int (*runs_output_tool)(const char *head);
	/* Cells of the Markdown table row cut last (input_add_table_row()), 0
	 * when the line before was none. */
	int table_cells;
	/*
	 * A long text read window by window (input_finish_windows()): lines
	 * holds a stretch of its lines, lines[0] being the text's line index
	 * window_base.  input_cut_window() cuts the next raw bytes behind
	 * them and input_forget_lines() lets the first ones go, so that the
	 * tables hold a window of the text, not all of it (a 1 GB log of dd
	 * runs has 45 million lines).  raw_next: the first byte not cut yet,
	 * on line number next_lineno; raw_from: the first of the last cut.
	 */
	int windowed;
	size_t window_base, raw_from, raw_next;
	unsigned next_lineno;
	size_t arena_alloc, names_alloc;
	/* The raw bytes cut last, then the next window's first line (a
	 * records out line there settles a count glued at the end of this
	 * window), NUL-terminated: a window's text is searched as a whole
	 * text is (strstr()), not with bounds, that line included. */
	char *raw_copy;
	size_t raw_copy_len, raw_copy_alloc;
	int stage_seed;		/* a stage's first line is in's last */
	/* A stage is a part of the next window (input_plan_window()):
	 * stage_part 0 for its first, 1 for a later one; it cuts the raw
	 * bytes up to stage_to. */
	int stage_part;
	size_t stage_to;
	/*
	 * A windowed input with no hash to make (no_sha256) is tested for
	 * binary data by its windows as they are cut, while their bytes are
	 * in the cache: a pass of its own over a 41 MB log, on a thread
	 * beside the two parsing ones, was 4% of the CPU.  The counts so
	 * far, of the bytes up to cut_tested_to; a read that stops short of
	 * the end tests the whole text (wait_for_hash()).
	 */
	int test_by_windows, tested;
	size_t control_cut, cut_tested_to;
	int nul_cut;
	/* data[size] is no NUL but one follows, none before it (a window's
	 * raw copy as detect() sees it): input_contains() searches it as a
	 * string all the same, a match past size not counted */
	int nul_after;
};

/*
 * Reads path ("-" for stdin).  On failure returns -1 with a message that
 * names the file in err ("x.txt: cannot open: No such file or directory").
 */
int input_read(struct input *in, const char *path, struct strbuf *err);
/*
 * input_read() in steps: the file's bytes (NUL-terminated, the caller's
 * until given to an input, which frees them: a big file's are mapped,
 * not allocated), an input of them with names but no hash nor
 * lines yet (input_init_bare takes data), then the hash, binary test and
 * lines (input_finish).  Between the last two a caller can look at the
 * raw text and decide it needs no lines at all (a storan result set).
 * input_init() is both of the last two.  input_read_bytes() fails as
 * input_read() does, or returns -2 when a stream is refused for what it
 * holds (more than INPUT_LINES_MAX lines): exit 1, not 2.
 */
/*
 * A file whose first 64 KiB are binary, or which has a hole (a sparse
 * file reads as NULs there), is not read further: its data is the bytes
 * up to there and a NUL, enough for the binary test to say so, in
 * milliseconds whatever the file's size.
 */
int input_read_bytes(const char *path, char **data, size_t *size,
		     struct strbuf *err);
void input_init_bare(struct input *in, const char *path, char *data,
		     size_t size);
void input_finish(struct input *in);
/*
 * input_finish() for a text that one reader may take whole: hashed
 * (beside, when big), its newlines counted, its lines not cut.  A quoted-
 * printable text is finished the usual way (its lines need decoding).
 */
void input_finish_uncut(struct input *in);
/* Cuts the lines of an uncut input (after waiting for its hash and
 * binary test); nothing for one already cut. */
void input_cut_lines(struct input *in);
/*
 * input_finish() for a text read window by window (see windowed above):
 * hashed beside, no line cut yet.  input_cut_window() cuts the lines of
 * about `bytes` more of it (to a line's end) behind the lines held and
 * returns how many it added, 0 at the end of the text; the raw bytes it
 * read are [raw_from, raw_next).  input_forget_lines() lets the first n
 * lines held go: line index n becomes 0.  input_cut_whole() gives up the
 * windows and cuts every line, as input_finish() does (a text that some
 * reader needs whole after all).
 */
void input_finish_windows(struct input *in);
size_t input_cut_window(struct input *in, size_t bytes);
void input_forget_lines(struct input *in, size_t n);
void input_cut_whole(struct input *in);
/*
 * The next window cut beside the readers of the lines held, in parts, on
 * whichever threads are free (they only read in): cutting was a fifth of
 * a dd log's ingest, all of it on one thread while the other waited.
 * input_plan_window() plans the window of about `bytes` as at most `max`
 * parts, each a stage (zeroed the first time, kept between windows for
 * its buffers) that goes on where in stopped -- the first holds in's
 * last line, which cutting a table row looks back at; a later one starts
 * below a line with no '|', so no table row spans two parts -- and
 * returns how many, 0 at the end of the text.  input_cut_part() cuts
 * one; input_stage_adopt() puts their lines behind in's, in order.
 * input_stage_release() frees a stage.
 */
size_t input_plan_window(const struct input *in, size_t bytes,
			 struct input *part, size_t max);
void input_cut_part(struct input *stage);
void input_stage_adopt(struct input *in, struct input *stage);
void input_stage_release(struct input *stage);
/*
 * The SHA-256 in hex, once it is made.  An uncut input's is made on
 * another thread from its raw text, until this is asked: a reader of
 * that text must not write to it (jscan's copy_strings).
 */
const char *input_sha256(struct input *in);
/*
 * The text readers that span lines read in place (a NUL for each '\n'
 * of a cut input, the raw bytes of an uncut one), and the line index of
 * its byte offset pos.
 */
char *input_text(const struct input *in, size_t *len);
size_t input_line_at(const struct input *in, size_t pos);
/*
 * A reader that went front to back through bytes [from, to) of an uncut
 * input and will not come back says so: for a big one (a fio log of
 * several GB) their pages leave memory (core/filemap.h).  A hint: the
 * text stays readable.  Only readers that never write the text call it.
 */
void input_drop_read(const struct input *in, size_t from, size_t to);
/*
 * input_drop_read() for a reader that goes front to back in steps: from
 * *done (the end of the last step, updated to `to`), the page that holds
 * it included -- its bytes before *done were read in the last step.
 * Each step's [from, to) alone keeps the pages its ends fall in: a 1 GB
 * log read by windows of four parts kept 16 MB of them.
 */
void input_drop_through(const struct input *in, size_t *done, size_t to);
/* Line index li's number in the file, and its source name (or NULL). */
unsigned input_lineno(const struct input *in, size_t li);
const char *input_origin_at(const struct input *in, size_t li);
void input_init(struct input *in, const char *path, char *data, size_t size);
/* Builds an input from memory (tests, fuzzers); data is copied. */
void input_from_buffer(struct input *in, const char *name, const char *data,
		       size_t size);

/*
 * A line [s, end) whose dd command lost its blanks on a web page
 * ("root@h:~# ddif=/dev/zeroof=/tmp/xbs=1M count=1024"): 1 with the line
 * in out, its blanks put back where dd's operand names make each one
 * certain ("root@h:~# dd if=/dev/zero of=/tmp/x bs=1M count=1024", and
 * "100+0 recordsin" after it "100+0 records in"); -1 when one is not
 * (why says which '=' and what it may follow); 0 for any other line.
 * The input layer rebuilds such lines as it cuts them (see
 * core/input-blanks.c); a parser asks again to say why one was not.
 */
int input_dd_blanks_lost(const char *s, const char *end, struct strbuf *out,
			 struct strbuf *why);
void input_release(struct input *in);
/*
 * Did the file shrink while it was read (core/filemap.h)?  Its lost part
 * then reads as NUL bytes: nothing read from it can be trusted.
 */
int input_changed(const struct input *in);

/*
 * The SHA-256 of size bytes read by input_read_bytes(), a window at a
 * time, each window's pages let go once hashed when the bytes are a
 * mapped file: a report of a 1 GB log hashed it again at the end and
 * held all of it (95 MB of a 150 MB log's pages at once).
 */
void input_sha256_bytes(const char *data, size_t size, char out[65]);

/*
 * Does the raw text contain needle anywhere?  A cheap test for detect()
 * functions: whatever a clean line contains, the raw text contains too,
 * so a parser whose marks are absent from the raw text can skip the file
 * without walking its lines.  in may be a window of a text: a copy of the
 * struct whose data and size are its bytes (not NUL-terminated there).
 */
int input_contains(const struct input *in, const char *needle);

/* The line's grep prefix or pdsh host (a source name), or NULL. */
static inline const char *input_line_origin(const struct input *in,
					    const struct input_line *l)
{
	size_t i = (size_t)(l - in->lines);

	return in->origin && in->origin[i] ? in->names + in->origin[i] - 1 :
	       NULL;
}

/* Blanks stripped before the line's text (after quotes and prefix). */
static inline unsigned input_line_indent(const struct input *in,
					 const struct input_line *l)
{
	return in->indent ? in->indent[l - in->lines] : 0;
}

#endif
