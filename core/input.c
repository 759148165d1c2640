/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
/*
 * The input layer; see input.h for what a clean line is, and
 * input-private.h for the files it is made of.  This one holds the
 * struct input: its making and release, the hash (on a thread of its own
 * for a big file), the table of lines, and uncut inputs.
 *
 * Lines are cut and cleaned once when the file is read; the cleaned texts
 * live in one arena so that a 100 MB log costs two allocations, not a
 * million.
 */
#include "input.h"
#include "input-private.h"
#include "cpus.h"
#include "filemap.h"
#include "sha256.h"
#include "strbuf.h"
#include "xalloc.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define HASH_THREAD_MIN (1 << 20)	/* bytes */

/* The per-line extras grow with the lines (zeros for the new room). */
#define GROW_EXTRA(in, field, old) \
	do { \
		if ((in)->field) { \
			(in)->field = xrealloc((in)->field, (in)->lines_alloc * \
					       sizeof(*(in)->field)); \
			memset((in)->field + (old), 0, ((in)->lines_alloc - \
				(old)) * sizeof(*(in)->field)); \
		} \
	} while (0)

/* A stage's extras of its lines [from, from + n) to in's from line at. */
#define ADOPT_EXTRA(in, stage, field, at, from, n) \
	do { \
		if ((stage)->field) { \
			if (!(in)->field) \
				(in)->field = xcalloc((in)->lines_alloc, \
						      sizeof(*(in)->field)); \
			memcpy((in)->field + (at), (stage)->field + (from), \
			       (n) * sizeof(*(in)->field)); \
		} \
	} while (0)

/* The extras of the first n lines let go of, keep lines left. */
#define FORGET_EXTRA(in, field, n, keep) \
	do { \
		if ((in)->field) { \
			memmove((in)->field, (in)->field + (n), \
				(keep) * sizeof(*(in)->field)); \
			memset((in)->field + (keep), 0, \
			       (n) * sizeof(*(in)->field)); \
		} \
	} while (0)

/* Room for need lines. */
void input_grow_lines(struct input *in, size_t need)
{
	size_t old = in->lines_alloc;

	if (need <= old)
		return;
	ALLOC_GROW(in->lines, need, in->lines_alloc);
	GROW_EXTRA(in, origin, old);
	GROW_EXTRA(in, indent, old);
	GROW_EXTRA(in, prompt, old);
}

/*
 * strstr(text, needle), quicker where the needle's first byte is rare:
 * strchr leaps from one candidate to the next at memchr's speed, several
 * times glibc's strstr (a 7 MB JSON+ file has no 'T' and 512 '=', and
 * searching it for "Timing " and "=3D" took 1.8 ms).  Where that byte
 * turns out common (more than one in 256 bytes so far: '=' in a fio text
 * report), strstr takes the rest.
 */
const char *input_find_text(const char *text, const char *needle)
{
	size_t n = strlen(needle), tries = 0;
	const char *p = text;

	for (;;) {
		p = strchr(p, needle[0]);
		if (!p || !strncmp(p, needle, n))
			return p;
		if (++tries >= 16 && (size_t)(p - text) < tries * 256)
			return strstr(p + 1, needle);
		p++;
	}
}

/*
 * Mail archives keep messages as they were sent, often quoted-printable:
 * "seconds =3D 58.91 MB/sec", long lines wrapped with a trailing "=".
 * Any '=' of such a text is written "=3D", so that is the sign.
 */
static int looks_quoted_printable(const char *data)
{
	return input_find_text(data, "=3D") != NULL;
}

static void drop_lines(struct input *in);

/*
 * Every clean line is no longer than its raw line (decoding only
 * shortens) and a NUL takes the place of its '\n' or CR: the texts fit
 * in the raw size and one more byte.  A dd output glued to what was
 * before it (input-reflow.c, check_glued()) is cut where no blank was: a
 * NUL more for each such cut, at most REFLOW_MAX of them in a line of at
 * least 40 bytes (add_reflowed()), 0.4 bytes a byte.  A dd command whose
 * blanks were lost gets them back (input-blanks.c), at most a quarter of
 * its line and 2 bytes more (add_reflowed() refuses a longer one), and
 * may then be cut: 1.4 x (1.25 L + 2) < 2 L + 2 for any line of L bytes
 * that can reach 40 (pages never touched cost nothing).
 */
static size_t arena_room(size_t raw)
{
	return 2 * raw + 2;
}

/*
 * Cuts the raw lines [s, end) (no quoted-printable in them) into clean
 * lines behind those held, the first under number lineno, their texts
 * behind the arena's (which has room for them); has_cr and plain as
 * input_add_text() takes them.  Returns the number of the line after.
 */
static unsigned cut_plain_lines(struct input *in, const char *s,
				const char *end, const char *tail,
				unsigned lineno, int has_cr,
				struct strbuf *plain)
{
	char *arena = in->arena + in->arena_len;

	while (s < end && !in->too_many_lines) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		/* (the next line, up to tail: a records in count glued to
		 * its command is cut by the records out count it opens) */
		input_add_text(in, &arena, s, nl ? nl : end, lineno, has_cr,
			       plain, nl && nl + 1 < tail ? nl + 1 : NULL);
		if (!nl)
			break;
		s = nl + 1;
		lineno++;
	}
	in->arena_len = (size_t)(arena - in->arena);
	*arena = '\0';	/* readers of the arena stop here */
	return lineno;
}

/*
 * A quoted-printable text's lines, decoded: a line the mail client
 * wrapped (a trailing '=') is joined to the next under its first number.
 */
static void cut_qp_lines(struct input *in, int cr, struct strbuf *plain)
{
	const char *s = in->data, *end = in->data + in->size;
	unsigned lineno = 1, first = 1;
	struct strbuf sb = STRBUF_INIT;
	char *arena = in->arena;
	int joining = 0;

	while (s < end && !in->too_many_lines) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		if (!joining) {
			strbuf_reset(&sb);
			first = lineno;
		}
		joining = input_qp_append(&sb, s, nl ? nl : end) && nl;
		if (!joining)	/* a wrapped line keeps its first number */
			input_add_text(in, &arena, strbuf_str(&sb),
				       strbuf_str(&sb) + sb.len, first, cr,
				       plain, nl ? nl + 1 : NULL);
		if (!nl)
			break;
		s = nl + 1;
		lineno++;
	}
	if (joining)
		input_add_text(in, &arena, strbuf_str(&sb),
			       strbuf_str(&sb) + sb.len, first, cr, plain,
			       NULL);
	in->arena_len = (size_t)(arena - in->arena);
	*arena = '\0';	/* readers of the arena stop here */
	strbuf_release(&sb);
}

static void split_lines(struct input *in)
{
	int qp = looks_quoted_printable(in->data);
	/* one search of the whole text spares one per line in most files */
	int cr = qp || memchr(in->data, '\r', in->size) != NULL;
	struct strbuf wide = STRBUF_INIT;
	struct strbuf *plain = input_has_wide_blanks(in->data, qp) ? &wide :
			       NULL;

	in->arena_alloc = arena_room(in->size);
	in->arena = xmalloc(in->arena_alloc);
	/* a first guess of 64 bytes a line; a big array grows by mremap()
	 * without a copy, and pages never touched cost nothing */
	input_grow_lines(in, in->size / 64 < INPUT_LINES_MAX ?
			 in->size / 64 + 16 : INPUT_LINES_MAX);
	if (qp)
		cut_qp_lines(in, cr, plain);
	else
		cut_plain_lines(in, in->data, in->data + in->size,
				in->data + in->size, 1, cr,
				plain);
	strbuf_release(&wide);
	if (in->too_many_lines)
		drop_lines(in);
}

/* Hashing and the binary test: what needs the raw bytes only. */
/*
 * An uncut input this big is read front to back in windows, each one's
 * pages let go once read (filemap_drop): hashing, counting its lines and
 * the one reader that takes it whole (a fio log of several GB) then hold
 * a few windows in memory, not the file.  Smaller ones are left mapped:
 * pages read twice cost a fault again.  (From 256 MB down to 64 MB: a
 * 113 MB hist log then peaked at 35 MB, not 135, and read in 0.4 s, not
 * 0.7 -- the faults again cost less than holding the pages.)
 */
#define STREAM_MIN ((size_t)64 << 20)
#define STREAM_WINDOW ((size_t)8 << 20)

static int streamed(const struct input *in)
{
	return (in->uncut && in->size >= STREAM_MIN) || in->windowed;
}

/* hash_and_test() of a streamed input: the same hash and verdict. */
static void hash_and_test_windows(struct input *in)
{
	struct sha256_stream st;
	size_t control = 0;
	int nul = 0;

	if (!in->no_sha256)	/* (a context is allocated: ended below) */
		sha256_begin(&st);
	for (size_t at = 0; at < in->size; at += STREAM_WINDOW) {
		size_t n = in->size - at < STREAM_WINDOW ? in->size - at :
			   STREAM_WINDOW;

		if (!in->no_sha256)
			sha256_update(&st, in->data + at, n);
		nul = nul || memchr(in->data + at, '\0', n);
		control += input_count_bytes((const unsigned char *)in->data +
					     at, n, CONTROL_BYTES);
		filemap_drop(in->data, at, at + n);
	}
	if (!in->no_sha256)
		sha256_end_hex(&st, in->sha256);
	in->binary = nul || control * 20 > in->size;
}

static void *hash_and_test(void *arg)
{
	struct input *in = arg;

	if (streamed(in)) {
		hash_and_test_windows(in);
		return NULL;
	}
	if (!in->no_sha256)
		sha256_hex(in->data, in->size, in->sha256);
	in->binary = input_looks_binary(in->data, in->size);
	return NULL;
}

void input_sha256_bytes(const char *data, size_t size, char out[65])
{
	struct sha256_stream st;

	sha256_begin(&st);
	for (size_t at = 0; at < size; at += STREAM_WINDOW) {
		size_t n = size - at < STREAM_WINDOW ? size - at :
			   STREAM_WINDOW;

		sha256_update(&st, data + at, n);
		filemap_drop(data, at, at + n);	/* (no-op unless mapped) */
	}
	sha256_end_hex(&st, out);
}

void input_drop_read(const struct input *in, size_t from, size_t to)
{
	if (streamed(in))
		filemap_drop(in->data, from, to);
}

void input_drop_through(const struct input *in, size_t *done, size_t to)
{
	input_drop_read(in, filemap_page_floor(*done), to);
	*done = to;
}

static void drop_lines(struct input *in)
{
	free(in->lines);
	free(in->arena);
	free(in->names);
	free(in->origin);
	free(in->indent);
	free(in->prompt);
	in->lines = NULL;
	in->arena = in->names = NULL;
	in->origin = NULL;
	in->indent = NULL;
	in->prompt = NULL;
	in->nlines = in->lines_alloc = in->arena_len = in->names_len = 0;
	in->arena_alloc = in->names_alloc = 0;
}

/*
 * More than INPUT_LINES_MAX newlines?  Then the input is refused in
 * milliseconds, before a line is cut (cutting the 32 Mi lines up to the
 * cap took 8 s and 600 MB).  A smaller input cannot have that many
 * newlines; its '\r' pieces meet the cap in input_add_line().
 */
static int too_many_newlines(const struct input *in)
{
	return in->size >= INPUT_LINES_MAX &&
	       input_count_bytes((const unsigned char *)in->data, in->size,
				 NEWLINES) > INPUT_LINES_MAX;
}

/*
 * Hashing a big input and testing it for binary data take as long as
 * cutting its lines: with a CPU to spare they run side by side (the
 * lines of a binary input are then thrown away).  Small inputs (most of
 * them, read many at a time on worker threads) do one after the other.
 */
static void hash_and_split(struct input *in)
{
	pthread_t tid;
	int threaded;

	if (too_many_newlines(in)) {
		in->binary = input_looks_binary(in->data, in->size);
		in->too_many_lines = 1;
		return;
	}
	threaded = in->size >= HASH_THREAD_MIN && storan_cpus() > 1 &&
		   !pthread_create(&tid, NULL, hash_and_test, in);

	if (!threaded) {
		hash_and_test(in);
		if (!in->binary)
			split_lines(in);
		return;
	}
	split_lines(in);	/* touches lines and arena, not sha256/binary */
	pthread_join(tid, NULL);
	if (in->binary)
		drop_lines(in);
}

#define NL_BLOCK 4096	/* bytes a newline count stands for */

/* nl_before[] and nlines, as split_lines() would count the lines: one
 * a '\n', and one for a last line without it. */
static void count_lines(struct input *in)
{
	size_t blocks = in->size / NL_BLOCK + 1, total = 0;
	const unsigned char *p = (const unsigned char *)in->data;

	in->nl_before = xmalloc(blocks * sizeof(*in->nl_before));
	for (size_t b = 0; b < blocks; b++) {
		size_t from = b * NL_BLOCK, n = in->size - from;

		in->nl_before[b] = total;
		total += input_count_bytes(p + from,
					   n < NL_BLOCK ? n : NL_BLOCK,
					   NEWLINES);
		if ((from + NL_BLOCK) % STREAM_WINDOW == 0)
			input_drop_read(in, from + NL_BLOCK - STREAM_WINDOW,
					from + NL_BLOCK);
	}
	in->nlines = total + (in->size && in->data[in->size - 1] != '\n');
}

/* The hash of an uncut input in the making (a separate object: readers
 * that hold the input const wait for it too). */
struct input_hasher {
	pthread_t thread;
	int running;
};

/* The hash and binary test of an input read late (uncut or in windows):
 * on a thread of their own when the input is big and a CPU is spare. */
static void hash_beside(struct input *in)
{
	if (in->size >= HASH_THREAD_MIN && storan_cpus() > 1) {
		in->hasher = xcalloc(1, sizeof(*in->hasher));
		in->hasher->running = !pthread_create(&in->hasher->thread,
						       NULL, hash_and_test, in);
	}
	if (!in->hasher || !in->hasher->running)
		hash_and_test(in);
}

/* looks_quoted_printable() of a big text, window by window, each let go
 * once searched (see STREAM_MIN). */
static int quoted_printable_windows(const struct input *in)
{
	for (size_t at = 0; at < in->size; at += STREAM_WINDOW) {
		size_t n = in->size - at < STREAM_WINDOW + 2 ? in->size - at :
			   STREAM_WINDOW + 2;	/* "=3D" across windows */

		const char *p = in->data + at, *end = p + n;

		/* memchr leaps: glibc's memmem took 1.6 s of a 1 GB log */
		while ((p = memchr(p, '=', (size_t)(end - p)))) {
			if (end - p >= 3 && p[1] == '3' && p[2] == 'D')
				return 1;
			p++;
		}
		filemap_drop(in->data, at, at + STREAM_WINDOW);
	}
	return 0;
}

void input_finish_uncut(struct input *in)
{
	int qp = in->size >= STREAM_MIN ? quoted_printable_windows(in) :
		 looks_quoted_printable(in->data);

	if (qp) {
		input_finish(in);	/* its lines need decoding */
		return;
	}
	in->uncut = 1;
	hash_beside(in);
	count_lines(in);
	/* any size: a fio log of 5 GB (185 million lines) is read so (it
	 * was cut, and refused, past 4 GiB).  Messages number lines in 32
	 * bits: past 4 G lines (60 GB of the shortest fio log) they wrap. */
	in->too_many_lines = in->nlines > INPUT_LINES_MAX;
}

static void wait_for_hash(struct input *in)
{
	if (in->hasher && in->hasher->running)
		pthread_join(in->hasher->thread, NULL);
	free(in->hasher);
	in->hasher = NULL;
	if (in->test_by_windows && !in->tested) {
		/* (windows cut short of the end: the whole text is) */
		in->binary = in->cut_tested_to >= in->size ?
			     in->nul_cut || in->control_cut * 20 > in->size :
			     input_looks_binary(in->data, in->size);
		in->tested = 1;
	}
}

void input_cut_lines(struct input *in)
{
	if (!in->uncut)
		return;
	wait_for_hash(in);
	free(in->nl_before);
	in->nl_before = NULL;
	in->nlines = 0;
	in->uncut = 0;
	if (!in->binary)
		split_lines(in);
}

void input_finish_windows(struct input *in)
{
	in->windowed = 1;
	in->next_lineno = 1;
	if (in->no_sha256)
		in->test_by_windows = 1;	/* input_cut_window() */
	else
		hash_beside(in);
}

/* The binary test of the raw bytes [s, s + len) just cut, which follow
 * those tested (else counting stops: the whole text is tested). */
static void test_window(struct input *in, const char *s, size_t len)
{
	if (in->cut_tested_to != in->raw_from)
		return;
	in->nul_cut = in->nul_cut || memchr(s, '\0', len);
	in->control_cut += input_count_bytes((const unsigned char *)s, len,
					     CONTROL_BYTES);
	in->cut_tested_to = in->raw_next;
}

/* Room in the arena for `more` bytes behind its texts: a moved arena
 * takes the lines' texts with it. */
static void arena_reserve(struct input *in, size_t more)
{
	char *old = in->arena;

	if (in->arena_len + more <= in->arena_alloc)
		return;
	in->arena_alloc = in->arena_len + more;
	in->arena = xrealloc(in->arena, in->arena_alloc);
	for (size_t i = 0; old && in->arena != old && i < in->nlines; i++)
		in->lines[i].text = in->arena + (in->lines[i].text - old);
}

/* The end of a window of about `bytes` from raw_next: a line's end. */
static size_t window_end(const struct input *in, size_t bytes)
{
	const char *s = in->data + in->raw_next, *end, *nl;

	end = in->size - in->raw_next > bytes ? s + bytes :
	      in->data + in->size;
	nl = memchr(end, '\n', (size_t)(in->data + in->size - end));
	return nl ? (size_t)(nl + 1 - in->data) : in->size;
}

/* Cuts the raw bytes [raw_next, to) (to a line's end) behind the lines
 * held; see input_cut_window(). */
static size_t cut_window_to(struct input *in, size_t to)
{
	const char *s = in->data + in->raw_next, *end = in->data + to, *tail;
	struct strbuf wide = STRBUF_INIT;
	size_t before = in->nlines, len = (size_t)(end - s), copy;
	int wide_blanks;

	/* the copy holds the next window's first line too, which the
	 * window's last line may be read with (input_add_text()'s next) */
	tail = end < in->data + in->size ?
	       memchr(end, '\n', (size_t)(in->data + in->size - end)) : NULL;
	copy = tail ? (size_t)(tail + 1 - s) : (size_t)(in->data + in->size - s);
	ALLOC_GROW(in->raw_copy, copy + 1, in->raw_copy_alloc);
	memcpy(in->raw_copy, s, copy);
	in->raw_copy[copy] = '\0';
	in->raw_copy_len = copy;
	in->raw_from = in->raw_next;
	in->raw_next = to;
	if (in->test_by_windows)
		test_window(in, in->raw_copy, len);
	/* a window holds no quoted-printable (the driver cuts such a text
	 * whole), and its no-break spaces are its own */
	wide_blanks = input_has_wide_blanks(in->raw_copy, 0);
	arena_reserve(in, arena_room(len));
	in->next_lineno = cut_plain_lines(in, in->raw_copy,
					  in->raw_copy + len,
					  in->raw_copy + copy, in->next_lineno,
					  memchr(in->raw_copy, '\r', len) != NULL,
					  wide_blanks ? &wide : NULL);
	strbuf_release(&wide);
	return in->nlines - before;
}

size_t input_cut_window(struct input *in, size_t bytes)
{
	if (in->raw_next >= in->size)
		return 0;
	return cut_window_to(in, window_end(in, bytes));
}

/* stage, emptied, goes on from raw byte `at` of in's text on line
 * number `lineno`, the table state at its start being table_cells. */
static void stage_reset(struct input *stage, const struct input *in,
			size_t at, unsigned lineno, int table_cells)
{
	stage->path = in->path;
	stage->name = in->name;
	stage->data = in->data;
	stage->size = in->size;
	stage->windowed = 1;
	stage->raw_next = at;
	stage->test_by_windows = in->test_by_windows;
	stage->control_cut = 0;
	stage->nul_cut = 0;
	stage->cut_tested_to = at;
	stage->next_lineno = lineno;
	stage->table_cells = table_cells;
	stage->runs_output_tool = in->runs_output_tool;
	stage->prompt_len = in->prompt_len;
	stage->too_many_lines = 0;
	if (stage->origin)
		memset(stage->origin, 0, stage->nlines * sizeof(*stage->origin));
	if (stage->indent)
		memset(stage->indent, 0, stage->nlines * sizeof(*stage->indent));
	if (stage->prompt)
		memset(stage->prompt, 0, stage->nlines * sizeof(*stage->prompt));
	stage->nlines = stage->arena_len = stage->names_len = 0;
	stage->stage_seed = 0;
	stage->stage_part = 0;
	stage->stage_to = in->size;
}

/* stage goes on where in stopped, in's last line in it. */
static void stage_begin(struct input *stage, const struct input *in)
{
	const struct input_line *last = in->nlines ?
					&in->lines[in->nlines - 1] : NULL;

	stage_reset(stage, in, in->raw_next, in->next_lineno,
		    in->table_cells);
	if (!last)
		return;
	/* the line before, which cutting a table row looks back at */
	stage->stage_seed = 1;
	arena_reserve(stage, last->len + 1);
	input_grow_lines(stage, 1);
	stage->lines[0] = *last;
	stage->lines[0].text = memcpy(stage->arena, last->text, last->len + 1);
	stage->arena_len = last->len + 1;
	stage->nlines = 1;
}

/*
 * Where a later part of the window [from, to) may start, at byte `guess`
 * or after: at a line below one that holds no '|' -- no Markdown table
 * row, so the table state there is known (none) and its cut looks at
 * no line above it.  Looked for over a few lines; else `to` (no part).
 */
#define PART_START_TRIES 16
static size_t part_start(const struct input *in, size_t from, size_t guess,
			 size_t to)
{
	const char *d = in->data, *nl = memrchr(d + from, '\n', guess - from);
	size_t line = nl ? (size_t)(nl + 1 - d) : from;
	for (int k = 0; k < PART_START_TRIES; k++) {
		nl = memchr(d + line, '\n', to - line);
		if (!nl || (size_t)(nl + 1 - d) >= to)
			return to;
		if (!memchr(d + line, '|', (size_t)(nl - (d + line))))
			return (size_t)(nl + 1 - d);
		line = (size_t)(nl + 1 - d);
	}
	return to;
}

size_t input_plan_window(const struct input *in, size_t bytes,
			 struct input *part, size_t max)
{
	size_t from = in->raw_next, to, n = 1;

	if (from >= in->size || !max)
		return 0;
	to = window_end(in, bytes);
	stage_begin(&part[0], in);
	for (size_t k = 1; k < max; k++) {
		size_t at = part_start(in, from, from + (to - from) / max * k,
				       to);

		if (at >= to || at <= part[n - 1].raw_next)
			continue;
		part[n - 1].stage_to = at;
		/* (numbered from 1: input_stage_adopt() adds the lines
		 * of the parts before) */
		stage_reset(&part[n], in, at, 1, 0);
		part[n++].stage_part = 1;
	}
	part[n - 1].stage_to = to;
	return n;
}

void input_cut_part(struct input *stage)
{
	cut_window_to(stage, stage->stage_to);
}

/* The origins of the staged lines from `from` on, after in's. */
static void adopt_origins(struct input *in, const struct input *stage,
			  size_t from, size_t at)
{
	size_t name_from = stage->names_len;

	for (size_t i = from; i < stage->nlines; i++)
		if (stage->origin[i]) {
			name_from = stage->origin[i] - 1;
			break;
		}
	if (name_from == stage->names_len)
		return;
	ALLOC_GROW(in->names, in->names_len + stage->names_len - name_from,
		   in->names_alloc);
	memcpy(in->names + in->names_len, stage->names + name_from,
	       stage->names_len - name_from);
	if (!in->origin)
		in->origin = xcalloc(in->lines_alloc, sizeof(*in->origin));
	for (size_t i = from; i < stage->nlines; i++)
		if (stage->origin[i])
			in->origin[at + i - from] = stage->origin[i] -
						    (unsigned)name_from +
						    (unsigned)in->names_len;
	in->names_len += stage->names_len - name_from;
}

/*
 * The raw copy of a window's later part behind that of the parts before
 * (whose copy ends with this part's first line: cut there), as one cut
 * of the whole window would have made it.
 */
static void append_raw_copy(struct input *in, const struct input *stage)
{
	size_t held = in->raw_next - in->raw_from;

	ALLOC_GROW(in->raw_copy, held + stage->raw_copy_len + 1,
		   in->raw_copy_alloc);
	memcpy(in->raw_copy + held, stage->raw_copy, stage->raw_copy_len + 1);
	in->raw_copy_len = held + stage->raw_copy_len;
}

/* The raw copies change places: each keeps its buffer for reuse. */
static void swap_raw_copy(struct input *in, struct input *stage)
{
	char *copy = in->raw_copy;
	size_t alloc = in->raw_copy_alloc, len = in->raw_copy_len;

	in->raw_copy = stage->raw_copy;
	in->raw_copy_alloc = stage->raw_copy_alloc;
	in->raw_copy_len = stage->raw_copy_len;
	stage->raw_copy = copy;
	stage->raw_copy_alloc = alloc;
	stage->raw_copy_len = len;
}

void input_stage_adopt(struct input *in, struct input *stage)
{
	size_t from = stage->stage_seed, n = stage->nlines - from, at;
	size_t text_from = n ? (size_t)(stage->lines[from].text -
					stage->arena) : stage->arena_len;
	size_t text_len = stage->arena_len - text_from;
	/* a later part was numbered from 1 */
	unsigned shift = stage->stage_part ? in->next_lineno - 1 : 0;
	char *dst;

	arena_reserve(in, text_len + 1);
	input_grow_lines(in, in->nlines + n);
	at = in->nlines;
	dst = in->arena + in->arena_len;
	memcpy(dst, stage->arena + text_from, text_len);
	for (size_t i = 0; i < n; i++) {
		in->lines[at + i] = stage->lines[from + i];
		in->lines[at + i].text = dst + (stage->lines[from + i].text -
						(stage->arena + text_from));
		in->lines[at + i].lineno += shift;
	}
	if (stage->origin)
		adopt_origins(in, stage, from, at);
	ADOPT_EXTRA(in, stage, indent, at, from, n);
	ADOPT_EXTRA(in, stage, prompt, at, from, n);
	in->nlines += n;
	in->arena_len += text_len;
	in->arena[in->arena_len] = '\0';
	if (stage->stage_part) {
		append_raw_copy(in, stage);	/* (before raw_next moves) */
	} else {
		swap_raw_copy(in, stage);
		in->raw_from = stage->raw_from;
	}
	in->raw_next = stage->raw_next;
	in->next_lineno = stage->next_lineno + shift;
	in->table_cells = stage->table_cells;
	in->too_many_lines |= stage->too_many_lines;
	if (in->cut_tested_to == stage->raw_from &&
	    stage->cut_tested_to == stage->raw_next) {	/* tested in turn */
		in->nul_cut = in->nul_cut || stage->nul_cut;
		in->control_cut += stage->control_cut;
		in->cut_tested_to = stage->cut_tested_to;
	}
}

void input_stage_release(struct input *stage)
{
	drop_lines(stage);
	free(stage->raw_copy);
	memset(stage, 0, sizeof(*stage));
}

void input_forget_lines(struct input *in, size_t n)
{
	size_t keep = in->nlines - n, text_from, name_from = in->names_len;

	if (!n)
		return;
	text_from = keep ? (size_t)(in->lines[n].text - in->arena) :
		    in->arena_len;
	/* texts and origins were appended in line order: the first kept
	 * line's are the first kept bytes */
	for (size_t i = n; in->origin && i < in->nlines; i++)
		if (in->origin[i]) {
			name_from = in->origin[i] - 1;
			break;
		}
	memmove(in->arena, in->arena + text_from, in->arena_len - text_from);
	in->arena_len -= text_from;
	in->arena[in->arena_len] = '\0';
	memmove(in->lines, in->lines + n, keep * sizeof(*in->lines));
	for (size_t i = 0; i < keep; i++)
		in->lines[i].text -= text_from;
	if (in->origin) {
		memmove(in->origin, in->origin + n, keep * sizeof(*in->origin));
		memset(in->origin + keep, 0, n * sizeof(*in->origin));
		for (size_t i = 0; i < keep; i++)
			if (in->origin[i])
				in->origin[i] -= (unsigned)name_from;
		memmove(in->names, in->names + name_from,
			in->names_len - name_from);
		in->names_len -= name_from;
	}
	FORGET_EXTRA(in, indent, n, keep);
	FORGET_EXTRA(in, prompt, n, keep);
	in->nlines = keep;
	in->window_base += n;
}

void input_cut_whole(struct input *in)
{
	if (!in->windowed)
		return;
	wait_for_hash(in);	/* (its thread reads windowed) */
	drop_lines(in);
	in->windowed = 0;
	in->window_base = in->raw_from = in->raw_next = 0;
	in->table_cells = 0;
	in->too_many_lines = 0;
	if (in->binary)
		return;
	if (too_many_newlines(in))
		in->too_many_lines = 1;
	else
		split_lines(in);
}

const char *input_sha256(struct input *in)
{
	wait_for_hash(in);
	return in->sha256;
}

char *input_text(const struct input *in, size_t *len)
{
	*len = in->uncut ? in->size : in->arena_len;
	return in->uncut ? in->data : in->arena;
}

size_t input_line_at(const struct input *in, size_t pos)
{
	size_t lo = 0, hi = in->nlines;	/* last line starting <= pos */

	if (in->uncut) {
		size_t b = pos / NL_BLOCK;

		return in->nl_before[b] +
		       input_count_bytes((const unsigned char *)in->data +
					 b * NL_BLOCK, pos - b * NL_BLOCK,
					 NEWLINES);
	}
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if ((size_t)(in->lines[mid].text - in->arena) <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

unsigned input_lineno(const struct input *in, size_t li)
{
	return in->uncut ? (unsigned)li + 1 : in->lines[li].lineno;
}

const char *input_origin_at(const struct input *in, size_t li)
{
	return in->uncut ? NULL : input_line_origin(in, &in->lines[li]);
}

void input_init_bare(struct input *in, const char *path, char *data,
		     size_t size)
{
	const char *slash = strrchr(path, '/');

	memset(in, 0, sizeof(*in));
	in->path = xstrdup(path);
	if (!strcmp(path, "-"))
		in->name = xstrdup("stdin");
	else
		in->name = xstrdup(slash && slash[1] ? slash + 1 : path);
	in->data = data;
	in->size = size;
}

void input_finish(struct input *in)
{
	hash_and_split(in);
}

void input_init(struct input *in, const char *path, char *data, size_t size)
{
	input_init_bare(in, path, data, size);
	input_finish(in);
}

void input_from_buffer(struct input *in, const char *name, const char *data,
		       size_t size)
{
	char *copy = xmalloc(size + 1);

	memcpy(copy, data, size);
	copy[size] = '\0';
	input_init(in, name, copy, size);
}


int input_changed(const struct input *in)
{
	return filemap_truncated(in->data);
}

void input_release(struct input *in)
{
	wait_for_hash(in);	/* it reads data */
	free(in->nl_before);
	free(in->raw_copy);
	free(in->path);
	free(in->name);
	if (!filemap_close(in->data))
		free(in->data);
	drop_lines(in);
	memset(in, 0, sizeof(*in));
}

int input_contains(const struct input *in, const char *needle)
{
	/* Text inputs hold no NUL (those are binary), and glibc's strstr
	 * is several times faster than its memmem.  A window of a long
	 * text (ingest/ingest.c looks at each) ends where the next begins,
	 * with no NUL: searched with memmem, unless its copy has one after
	 * (nul_after). */
	size_t len = strlen(needle);
	const char *at;

	if (in->binary || (in->data[in->size] && !in->nul_after))
		return memmem(in->data, in->size, needle, len) != NULL;
	/* (the first match ending past size: every later one does too) */
	at = input_find_text(in->data, needle);
	return at && (size_t)(at - in->data) + len <= in->size;
}
