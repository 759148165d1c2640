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

/* Room for need lines. */
void input_grow_lines(struct input *in, size_t need)
{
	size_t old = in->lines_alloc;

	if (need <= old)
		return;
	ALLOC_GROW(in->lines, need, in->lines_alloc);
	GROW_EXTRA(in, origin, old);
	GROW_EXTRA(in, indent, old);
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

static void split_lines(struct input *in)
{
	const char *s = in->data, *end = in->data + in->size;
	unsigned lineno = 1, first = 1;
	int qp = looks_quoted_printable(in->data), joining = 0;
	/* one search of the whole text spares one per line in most files */
	int cr = qp || memchr(in->data, '\r', in->size) != NULL;
	struct strbuf sb = STRBUF_INIT, wide = STRBUF_INIT;
	struct strbuf *plain = input_has_wide_blanks(in->data, qp) ? &wide :
			       NULL;
	char *arena;

	/* Every clean line is no longer than its raw line (decoding only
	 * shortens) and a NUL takes the place of its '\n' or CR: the texts
	 * fit in the raw size and one more byte.  A dd output glued to
	 * what was before it (input-reflow.c, check_glued()) is cut where
	 * no blank was: a NUL more for each such cut, at most REFLOW_MAX of
	 * them in a line of at least 40 bytes (add_reflowed()), 0.4 bytes
	 * a byte.  A dd command whose blanks were lost gets them back
	 * (input-blanks.c), at most a quarter of its line and 2 bytes more
	 * (add_reflowed() refuses a longer one), and may then be cut:
	 * 1.4 x (1.25 L + 2) < 2 L + 2 for any line of L bytes that can
	 * reach 40 (pages never touched cost nothing). */
	in->arena = xmalloc(2 * in->size + 2);
	arena = in->arena;
	/* a first guess of 64 bytes a line; a big array grows by mremap()
	 * without a copy, and pages never touched cost nothing */
	input_grow_lines(in, in->size / 64 < INPUT_LINES_MAX ?
			 in->size / 64 + 16 : INPUT_LINES_MAX);
	while (s < end && !in->too_many_lines) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *stop = nl ? nl : end, *next = nl ? nl + 1 : NULL;

		if (!qp) {
			input_add_text(in, &arena, s, stop, lineno, cr, plain,
				       next);
		} else {
			if (!joining) {
				strbuf_reset(&sb);
				first = lineno;
			}
			joining = input_qp_append(&sb, s, stop) && nl;
			if (!joining)	/* a wrapped line keeps its first number */
				input_add_text(in, &arena, strbuf_str(&sb),
					       strbuf_str(&sb) + sb.len, first,
					       cr, plain, next);
		}
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
	return in->uncut && in->size >= STREAM_MIN;
}

/* hash_and_test() of a streamed input: the same hash and verdict. */
static void hash_and_test_windows(struct input *in)
{
	struct sha256_stream st;
	size_t control = 0;
	int nul = 0;

	sha256_begin(&st);
	for (size_t at = 0; at < in->size; at += STREAM_WINDOW) {
		size_t n = in->size - at < STREAM_WINDOW ? in->size - at :
			   STREAM_WINDOW;

		sha256_update(&st, in->data + at, n);
		nul = nul || memchr(in->data + at, '\0', n);
		control += input_count_bytes((const unsigned char *)in->data +
					     at, n, CONTROL_BYTES);
		filemap_drop(in->data, at, at + n);
	}
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
	sha256_hex(in->data, in->size, in->sha256);
	in->binary = input_looks_binary(in->data, in->size);
	return NULL;
}

void input_drop_read(const struct input *in, size_t from, size_t to)
{
	if (streamed(in))
		filemap_drop(in->data, from, to);
}

static void drop_lines(struct input *in)
{
	free(in->lines);
	free(in->arena);
	free(in->names);
	free(in->origin);
	free(in->indent);
	in->lines = NULL;
	in->arena = in->names = NULL;
	in->origin = NULL;
	in->indent = NULL;
	in->nlines = in->lines_alloc = in->arena_len = in->names_len = 0;
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

	/* Refused in milliseconds, before a line is cut (cutting the 32 Mi
	 * lines up to the cap took 8 s and 600 MB).  A smaller input cannot
	 * have that many newlines; its '\r' pieces meet the cap in
	 * input_add_line(). */
	if (in->size >= INPUT_LINES_MAX &&
	    input_count_bytes((const unsigned char *)in->data, in->size,
			      NEWLINES) > INPUT_LINES_MAX) {
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

		in->nl_before[b] = (unsigned)total;
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

	if (in->size > UINT_MAX || qp) {
		input_finish(in);	/* its lines need decoding */
		return;
	}
	in->uncut = 1;
	if (in->size >= HASH_THREAD_MIN && storan_cpus() > 1) {
		in->hasher = xcalloc(1, sizeof(*in->hasher));
		in->hasher->running = !pthread_create(&in->hasher->thread,
						       NULL, hash_and_test, in);
	}
	if (!in->hasher || !in->hasher->running)
		hash_and_test(in);
	count_lines(in);
	in->too_many_lines = in->nlines > INPUT_LINES_MAX;
}

void input_wait_hash(const struct input *in)
{
	if (in->hasher && in->hasher->running) {
		pthread_join(in->hasher->thread, NULL);
		in->hasher->running = 0;
	}
}

static void wait_for_hash(struct input *in)
{
	input_wait_hash(in);
	free(in->hasher);
	in->hasher = NULL;
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
	 * is several times faster than its memmem. */
	if (in->binary)
		return memmem(in->data, in->size, needle, strlen(needle)) != NULL;
	return input_find_text(in->data, needle) != NULL;
}
