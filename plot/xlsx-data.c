/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Data sheet's rows, printed by storan, spliced into the workbook.
 *
 * Why: the Data sheet has a row per measurement, and libxlsxwriter made
 * it the report's critical path.  At 100,000 measurements (bench/report)
 * the workbook thread took 3.5 of the report's 4.8 s: a calloc'ed cell in
 * a red-black tree per figure (two million), a shared-string lookup per
 * text cell, then every cell printed with fprintf("%.16G") into 67 MB of
 * XML and deflated at level 6, all after the plan was made.  Its
 * constant_memory mode saves the tree but not the printing or the
 * deflate, and takes the cached values out of every chart (categories
 * such as "4K" became numbers).
 *
 * So the rows are printed here as libxlsxwriter prints them, byte for
 * byte (cell references, spans per block of 16 rows, "%.16G" numbers,
 * shared strings, the same styles), with format_g() instead of printf,
 * and deflated at level 2 into one raw deflate segment, on a thread that
 * starts as soon as the result set is final, while the report is
 * planned.  libxlsxwriter writes the rest of the workbook as before, the
 * Data sheet with its header row, frozen pane, autofilter and column
 * widths; xlsx_data_splice() then puts the rows before that sheet's
 * </sheetData>.
 *
 * How the pieces meet:
 *   - string numbers: the rows' strings are numbered from 0 in order of
 *     first use, and the workbook registers them in its shared-string
 *     table before any other string is written, so that they keep those
 *     numbers;
 *   - style numbers: the Data sheet's number formats are the first the
 *     workbook numbers (xf 1 to XLSX_NFORMATS; 0 is the default).
 *   The workbook checks both and has the rows written again with the
 *   numbers it got where they differ (xlsx_data_renumber()).
 *   - the zip: a raw deflate stream ended by Z_SYNC_FLUSH ends on a byte
 *     boundary, and one started afresh refers to nothing before it, so
 *     the sheet's head, the rows and its tail, each compressed alone,
 *     are one valid stream (pigz does the same); their CRCs are joined
 *     with crc32_combine().  The zip is written again around the new
 *     entry: every other entry's bytes as they were, the central
 *     directory's offsets and the entry's sizes made new.
 *
 * Limits kept as libxlsxwriter kept them: XLSX_MAX_ROWS rows (the
 * header's among them) and XLSX_MAX_COLS columns, and the rows stop
 * before the zip entry would pass 4 GiB (a workbook without ZIP64);
 * nrows says how many were written.
 */
#include "xlsx-data.h"
#include "../core/cpus.h"
#include "../core/human.h"
#include "../core/numfmt.h"
#include "../core/resultset.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define CELL_TEXT_MAX 32767
/* The rows' XML stops before this: the entry's 4 GiB less room for the
 * sheet's head and tail. */
#define ROWS_MAX_BYTES 0xF0000000ull
/* zlib's level for the rows: 2 deflated bench/report's 67 MB of rows
 * as fast as 1 (0.103 against 0.110 s for 16 MB, best of 6) and 9%
 * smaller; 6, libxlsxwriter's, took twice as long. */
#define ROWS_LEVEL 2
/* Rows are deflated in pieces of about this size. */
#define DEFLATE_PIECE (256 * 1024)
/* libxlsxwriter gives a block of 16 rows one span. */
#define SPAN_ROWS 16

int xlsx_figure_format(double v, int column)
{
	int d = column;

	if (isfinite(v) && fabs(v) > 0) {
		int own = 2 - (int)floor(log10(fabs(v)));

		if (own > XLSX_MAX_DECIMALS)		/* p = 1.6e-07 */
			return XLSX_SCIENTIFIC;
		d = own > d ? own : d;
	}
	return d < 0 ? 0 : d > XLSX_MAX_DECIMALS ? XLSX_MAX_DECIMALS : d;
}

char *xlsx_cut_text(const char *text)
{
	size_t cut = CELL_TEXT_MAX - 3;

	if (strlen(text) <= CELL_TEXT_MAX)
		return NULL;
	while (cut && ((unsigned char)text[cut] & 0xc0) == 0x80)
		cut--;		/* not inside a UTF-8 sequence */
	return xstrfmt("%.*s\xe2\x80\xa6", (int)cut, text);
}

/* The Data sheet keeps SI base units: seconds to the microsecond (and
 * finer in their digits), the rest as whole units with separators. */
static int unit_decimals(const char *unit)
{
	return !strcmp(unit, "s") ? XLSX_MAX_DECIMALS :
	       !strcmp(unit, "%") ? 1 : 0;
}

/* ---- the columns --------------------------------------------------------- */

/* Label keys in order of first appearance, and the most runs. */
static void find_columns(struct xlsx_data *d)
{
	const struct result_set *rs = d->rs;
	const struct label *last = NULL;
	size_t alloc = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct measurement *m = &rs->m[i];

		d->runs = m->n > d->runs ? m->n : d->runs;
		if (m->labels.v == last)	/* a shared set: seen */
			continue;
		last = m->labels.v;
		for (size_t j = 0; j < m->labels.n; j++) {
			int created;

			keymap_put(&d->columns, m->labels.v[j].key, d->nkeys,
				   &created);
			if (!created)
				continue;
			ALLOC_GROW(d->keys, d->nkeys + 1, alloc);
			d->keys[d->nkeys++] = m->labels.v[j].key;
		}
	}
	d->ncols = XLSX_DATA_FIXED + d->nkeys + d->runs;
	if (d->ncols > XLSX_MAX_COLS)
		d->ncols = XLSX_MAX_COLS;
}

/* ---- the rows ------------------------------------------------------------ */

/* A label set's cells, worked out once for the rows that share it. */
struct label_cell {
	size_t col;
	double num;
	uint32_t string;	/* when not numeric */
	int numeric;
};

struct rows {
	struct xlsx_data *d;
	z_stream zs;
	struct strbuf out;	/* rows not yet deflated */
	struct strbuf block;	/* the cells of up to SPAN_ROWS rows */
	size_t row_end[SPAN_ROWS];
	size_t span_min, span_max;
	size_t nblock;
	size_t first_row;	/* the block's first row (0-based) */
	char (*colname)[4];	/* "A" ... "XFD" */
	char rowname[12];
	char style[XLSX_NFORMATS][16];	/* ` s="3"` */
	struct { const char *s; uint32_t n; } memo[XLSX_DATA_FIXED];
	const struct label *labels;	/* the set of `cells` */
	size_t nlabels;
	struct label_cell *cells;
	size_t ncells, cells_alloc;
};

void xlsx_column_name(size_t col, char *buf)
{
	char tmp[4];
	size_t n = 0, i = 0;

	col++;
	while (col) {
		tmp[n++] = (char)('A' + (col - 1) % 26);
		col = (col - 1) / 26;
	}
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
}


/* String s's number from 0 in order of first use (the text a cell can
 * hold), counting the cell. */
static uint32_t local_string(struct xlsx_data *d, const char *s)
{
	char *cut = xlsx_cut_text(s);
	int created;
	size_t *n = keymap_put(&d->sst, cut ? cut : s, d->nstrings, &created);

	if (created) {
		ALLOC_GROW(d->strings, d->nstrings + 1, d->strings_alloc);
		d->refs = xrealloc(d->refs, d->strings_alloc *
				   sizeof(*d->refs));
		d->strings[d->nstrings] = cut ? cut : xstrdup(s);
		d->refs[d->nstrings++] = 0;
		cut = NULL;
	}
	free(cut);
	d->refs[*n]++;
	return (uint32_t)*n;
}

static void cell_ref(struct rows *w, size_t col)
{
	if (col < w->span_min)
		w->span_min = col;
	if (col > w->span_max)
		w->span_max = col;
	strbuf_adds(&w->block, "<c r=\"");
	strbuf_adds(&w->block, w->colname[col]);
	strbuf_adds(&w->block, w->rowname);
	strbuf_addch(&w->block, '"');
}

/* A shared-string cell of local string number n. */
static void put_string(struct rows *w, size_t col, uint32_t n)
{
	const uint32_t *map = w->d->sst_index;
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", map ? map[n] : n);

	if (col >= w->d->ncols)
		return;
	cell_ref(w, col);
	strbuf_adds(&w->block, " t=\"s\"><v>");
	strbuf_add(&w->block, buf, (size_t)len);
	strbuf_adds(&w->block, "</v></c>");
}

/* A number cell as libxlsxwriter prints it ("%.16G"), with number
 * format `format` (-1: none); none at all for NaN and infinities. */
static void put_number(struct rows *w, size_t col, double v, int format)
{
	char buf[NUMFMT_MAX], *e;
	size_t len;

	if (!isfinite(v) || col >= w->d->ncols)
		return;
	len = format_g(buf, v, 16);
	e = memchr(buf, 'e', len);
	if (e)
		*e = 'E';
	cell_ref(w, col);
	if (format >= 0)
		strbuf_adds(&w->block, w->style[format]);
	strbuf_adds(&w->block, "><v>");
	strbuf_add(&w->block, buf, len);
	strbuf_adds(&w->block, "</v></c>");
}

/* One of source, tool, op, metric, unit (none when empty, as
 * libxlsxwriter writes no cell for ""): the last row's is likely. */
static void put_fixed_text(struct rows *w, size_t col, const char *s)
{
	if (!s || !*s)
		return;
	if (w->memo[col].s && !strcmp(w->memo[col].s, s)) {
		w->d->refs[w->memo[col].n]++;
	} else {
		w->memo[col].s = s;
		w->memo[col].n = local_string(w->d, s);
	}
	put_string(w, col, w->memo[col].n);
}

static int by_column(const void *a, const void *b)
{
	const struct label_cell *x = a, *y = b;

	return x->col < y->col ? -1 : x->col > y->col;
}

/* The cells of label set l, in column order: numeric values as numbers,
 * the rest as text, no cell for an empty value. */
static void label_cells(struct rows *w, const struct labels *l)
{
	if (l->v == w->labels && l->n == w->nlabels && l->v)
		return;
	w->labels = l->v;
	w->nlabels = l->n;
	w->ncells = 0;
	for (size_t j = 0; j < l->n; j++) {
		const struct label *lb = &l->v[j];
		struct label_cell *c;

		if (!*lb->value)
			continue;
		ALLOC_GROW(w->cells, w->ncells + 1, w->cells_alloc);
		c = &w->cells[w->ncells++];
		c->col = XLSX_DATA_FIXED + *keymap_get(&w->d->columns, lb->key);
		c->numeric = is_numeric_string(lb->value, &c->num) &&
			     isfinite(c->num);
		c->string = c->numeric ? 0 : local_string(w->d, lb->value);
		if (!c->numeric)	/* counted per row below */
			w->d->refs[c->string]--;
	}
	if (w->ncells > 1)	/* no label: no array to sort (UBSan) */
		qsort(w->cells, w->ncells, sizeof(*w->cells), by_column);
}

static void put_measurement(struct rows *w, const struct measurement *m)
{
	struct measurement_stats st;
	int unit = unit_decimals(m->unit);
	size_t col = XLSX_DATA_FIXED + w->d->nkeys;

	measurement_basic_stats(m, &st);
	put_fixed_text(w, 0, m->source_name);
	put_number(w, 1, m->line, -1);
	put_fixed_text(w, 2, m->tool);
	put_fixed_text(w, 3, m->op);
	put_fixed_text(w, 4, m->metric);
	put_fixed_text(w, 5, m->unit);
	put_number(w, 6, (double)st.n, -1);
	put_number(w, 7, st.mean, xlsx_figure_format(st.mean, unit));
	put_number(w, 8, st.stddev, xlsx_figure_format(st.stddev, unit));
	put_number(w, 9, st.min, xlsx_figure_format(st.min, unit));
	put_number(w, 10, st.max, xlsx_figure_format(st.max, unit));
	label_cells(w, &m->labels);
	for (size_t i = 0; i < w->ncells; i++) {
		const struct label_cell *c = &w->cells[i];

		if (c->numeric) {
			put_number(w, c->col, c->num, -1);
		} else {
			w->d->refs[c->string]++;
			put_string(w, c->col, c->string);
		}
	}
	for (size_t i = 0; i < m->n; i++)
		put_number(w, col + i, m->values[i],
			   xlsx_figure_format(m->values[i], unit));
}

/* Deflates what is in w->out (flush: Z_NO_FLUSH or Z_SYNC_FLUSH). */
static int deflate_out(struct rows *w, int flush)
{
	struct xlsx_data *d = w->d;

	d->crc = (uint32_t)crc32(d->crc, (const Bytef *)w->out.buf,
				 (uInt)w->out.len);
	d->len += w->out.len;
	w->zs.next_in = (Bytef *)w->out.buf;
	w->zs.avail_in = (uInt)w->out.len;
	do {
		int rc;

		strbuf_grow(&d->z, 64 * 1024);
		w->zs.next_out = (Bytef *)d->z.buf + d->z.len;
		w->zs.avail_out = (uInt)(d->z.alloc - d->z.len - 1);
		rc = deflate(&w->zs, flush);
		d->z.len = d->z.alloc - 1 - w->zs.avail_out;
		if (rc != Z_OK && rc != Z_BUF_ERROR)
			return error("cannot compress the Data sheet: %s",
				     w->zs.msg ? w->zs.msg : "zlib error");
	} while (w->zs.avail_in || !w->zs.avail_out);
	d->z.buf[d->z.len] = '\0';
	strbuf_reset(&w->out);
	return 0;
}

/* The block's rows, each opened with the block's span. */
static int flush_block(struct rows *w)
{
	char head[64];
	size_t from = 0;

	for (size_t i = 0; i < w->nblock; i++) {
		int len = snprintf(head, sizeof(head),
				   "<row r=\"%zu\" spans=\"%zu:%zu\">",
				   w->first_row + i + 1, w->span_min + 1,
				   w->span_max + 1);

		strbuf_add(&w->out, head, (size_t)len);
		strbuf_add(&w->out, w->block.buf + from, w->row_end[i] - from);
		strbuf_adds(&w->out, "</row>");
		from = w->row_end[i];
	}
	strbuf_reset(&w->block);
	w->nblock = 0;
	w->span_min = SIZE_MAX;
	w->span_max = 0;
	return w->out.len >= DEFLATE_PIECE ? deflate_out(w, Z_NO_FLUSH) : 0;
}

static void rows_init(struct rows *w, struct xlsx_data *d)
{
	memset(w, 0, sizeof(*w));
	w->d = d;
	strbuf_init(&w->out);
	strbuf_init(&w->block);
	w->colname = xmalloc((d->ncols + 1) * sizeof(*w->colname));
	for (size_t c = 0; c < d->ncols; c++)
		xlsx_column_name(c, w->colname[c]);
	for (int f = 0; f < XLSX_NFORMATS; f++)
		snprintf(w->style[f], sizeof(w->style[f]), " s=\"%d\"",
			 (int)d->xf[f]);
	/* the header row (row 0, libxlsxwriter's) opens block 0 */
	w->span_min = 0;
	w->span_max = d->ncols ? d->ncols - 1 : 0;
	w->first_row = 1;
}

static void rows_release(struct rows *w)
{
	deflateEnd(&w->zs);
	strbuf_release(&w->out);
	strbuf_release(&w->block);
	free(w->colname);
	free(w->cells);
}

/* Has the row just put taken the rows past the entry's limit? */
static int too_big(const struct rows *w)
{
	/* a row's own tag: at most 40 bytes */
	return w->d->len + w->out.len + w->block.len +
	       40 * (w->nblock + 1) > ROWS_MAX_BYTES;
}

static int write_rows(struct xlsx_data *d)
{
	const struct result_set *rs = d->rs;
	size_t max = rs->n < XLSX_MAX_ROWS - 1 ? rs->n : XLSX_MAX_ROWS - 1;
	struct rows w;
	int rc = 0;

	rows_init(&w, d);
	if (deflateInit2(&w.zs, ROWS_LEVEL, Z_DEFLATED, -MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		rows_release(&w);
		return error("cannot compress the Data sheet: zlib failed");
	}
	for (d->nrows = 0; d->nrows < max && !rc; d->nrows++) {
		size_t row = d->nrows + 1;

		if (row / SPAN_ROWS != w.first_row / SPAN_ROWS) {
			rc = flush_block(&w);
			w.first_row = row;
		}
		snprintf(w.rowname, sizeof(w.rowname), "%zu", row + 1);
		put_measurement(&w, &rs->m[d->nrows]);
		if (too_big(&w)) {
			w.block.len = w.nblock ? w.row_end[w.nblock - 1] : 0;
			w.block.buf[w.block.len] = '\0';
			break;
		}
		w.row_end[w.nblock++] = w.block.len;
	}
	if (!rc)
		rc = flush_block(&w);
	if (!rc)
		rc = deflate_out(&w, Z_SYNC_FLUSH);
	rows_release(&w);
	return rc;
}

/* ---- the thread ---------------------------------------------------------- */

static void build(struct xlsx_data *d)
{
	find_columns(d);
	d->crc = (uint32_t)crc32(0, NULL, 0);
	d->failed = write_rows(d) != 0;
}

static void *data_worker(void *arg)
{
	build(arg);
	return NULL;
}

void xlsx_data_start(struct xlsx_data *d, const struct result_set *rs)
{
	memset(d, 0, sizeof(*d));
	d->rs = rs;
	keymap_init(&d->columns);
	keymap_init(&d->sst);
	strbuf_init(&d->z);
	for (int f = 0; f < XLSX_NFORMATS; f++)
		d->xf[f] = 1 + f;
	d->threaded = storan_cpus() > 1 &&
		      !pthread_create(&d->tid, NULL, data_worker, d);
}

int xlsx_data_finish(struct xlsx_data *d)
{
	if (!d->finished) {
		if (d->threaded)
			pthread_join(d->tid, NULL);
		else
			build(d);
		d->finished = 1;
	}
	return d->failed ? -1 : 0;
}

/* Everything but the result set and the numbers to write with. */
static void forget_rows(struct xlsx_data *d)
{
	for (size_t i = 0; i < d->nstrings; i++)
		free(d->strings[i]);
	free(d->strings);
	free(d->refs);
	free(d->keys);
	keymap_release(&d->columns);
	keymap_release(&d->sst);
	strbuf_release(&d->z);
	d->strings = NULL;
	d->refs = NULL;
	d->keys = NULL;
	d->nstrings = d->strings_alloc = d->nkeys = d->runs = 0;
	d->ncols = d->nrows = 0;
	d->len = 0;
}

int xlsx_data_renumber(struct xlsx_data *d, const int32_t *xf,
		       const uint32_t *sst_index)
{
	int same = !memcmp(d->xf, xf, sizeof(d->xf));
	size_t n = d->nstrings;

	for (size_t i = 0; same && i < n; i++)
		same = sst_index[i] == (d->sst_index ? d->sst_index[i] :
					(uint32_t)i);
	if (same)
		return 0;
	memcpy(d->xf, xf, sizeof(d->xf));
	free(d->sst_index);
	d->sst_index = xmalloc((n ? n : 1) * sizeof(*d->sst_index));
	memcpy(d->sst_index, sst_index, n * sizeof(*d->sst_index));
	forget_rows(d);
	build(d);
	return d->failed ? -1 : 0;
}

void xlsx_data_release(struct xlsx_data *d)
{
	if (!d->rs)
		return;
	xlsx_data_finish(d);
	forget_rows(d);
	free(d->sst_index);
	memset(d, 0, sizeof(*d));
}

/* ---- the splice ---------------------------------------------------------- */

#define ZIP_LOCAL 0x04034b50u
#define ZIP_CENTRAL 0x02014b50u
#define ZIP_END 0x06054b50u
#define ZIP_LOCAL_SIZE 30
#define ZIP_CENTRAL_SIZE 46
#define ZIP_END_SIZE 22
#define ZIP_DESCRIPTOR_FLAG 0x0008u

static uint32_t get16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
	return get16(p) | get16(p + 2) << 16;
}

static void put16(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

/* A zip as libxlsxwriter writes it: entries in the order of the central
 * directory, no ZIP64, no archive split over disks. */
struct zip {
	unsigned char *buf;
	size_t len;
	size_t end;		/* the end record */
	size_t cd, cd_size;	/* the central directory */
	size_t n;		/* entries */
};

static int read_whole(const char *path, struct zip *z)
{
	FILE *fp = fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	size_t got;

	if (!fp)
		return error("cannot open '%s': %s", path, strerror(errno));
	do {
		strbuf_grow(&sb, 1 << 20);
		got = fread(sb.buf + sb.len, 1, sb.alloc - sb.len - 1, fp);
		sb.len += got;
	} while (got);
	if (ferror(fp)) {
		fclose(fp);
		strbuf_release(&sb);
		return error("cannot read '%s'", path);
	}
	fclose(fp);
	z->len = sb.len;
	z->buf = (unsigned char *)strbuf_detach(&sb);
	return 0;
}

static int zip_parse(struct zip *z)
{
	size_t at;

	if (z->len < ZIP_END_SIZE)
		return -1;
	for (at = z->len - ZIP_END_SIZE;; at--) {
		if (get32(z->buf + at) == ZIP_END &&
		    at + ZIP_END_SIZE + get16(z->buf + at + 20) == z->len)
			break;
		if (!at || z->len - at > 65535 + ZIP_END_SIZE)
			return -1;
	}
	z->end = at;
	z->n = get16(z->buf + at + 10);
	z->cd_size = get32(z->buf + at + 12);
	z->cd = get32(z->buf + at + 16);
	return z->cd + z->cd_size == at && get16(z->buf + at + 8) == z->n ?
	       0 : -1;
}

/* The central record at offset *at (moved past it); NULL at a bad one. */
static const unsigned char *central_next(const struct zip *z, size_t *at)
{
	const unsigned char *c = z->buf + *at;
	size_t size;

	if (*at + ZIP_CENTRAL_SIZE > z->end || get32(c) != ZIP_CENTRAL)
		return NULL;
	size = ZIP_CENTRAL_SIZE + get16(c + 28) + get16(c + 30) +
	       get16(c + 32);
	if (*at + size > z->end)
		return NULL;
	*at += size;
	return c;
}

/* Where an entry's compressed data starts and ends (its local header at
 * local, its compressed size csize); -1 when that is outside the zip. */
static int entry_data(const struct zip *z, size_t local, size_t csize,
		      size_t *from)
{
	const unsigned char *l = z->buf + local;

	if (local + ZIP_LOCAL_SIZE > z->cd || get32(l) != ZIP_LOCAL)
		return -1;
	*from = local + ZIP_LOCAL_SIZE + get16(l + 26) + get16(l + 28);
	return *from + csize <= z->cd ? 0 : -1;
}

static int inflate_raw(const unsigned char *in, size_t len, size_t out_len,
		       struct strbuf *out)
{
	z_stream zs;
	int rc;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
		return -1;
	strbuf_grow(out, out_len);
	zs.next_in = (Bytef *)(uintptr_t)in;
	zs.avail_in = (uInt)len;
	zs.next_out = (Bytef *)out->buf;
	zs.avail_out = (uInt)out_len;
	rc = inflate(&zs, Z_FINISH);
	out->len = zs.total_out;
	out->buf[out->len] = '\0';
	inflateEnd(&zs);
	return rc == Z_STREAM_END && out->len == out_len ? 0 : -1;
}

static int deflate_raw(const char *in, size_t len, int flush,
		       struct strbuf *out)
{
	z_stream zs;
	int rc;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS,
			 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	strbuf_grow(out, deflateBound(&zs, (uLong)len) + 16);
	zs.next_in = (Bytef *)(uintptr_t)in;
	zs.avail_in = (uInt)len;
	zs.next_out = (Bytef *)out->buf;
	zs.avail_out = (uInt)(out->alloc - 1);
	rc = deflate(&zs, flush);
	out->len = zs.total_out;
	deflateEnd(&zs);
	return (flush == Z_FINISH ? rc == Z_STREAM_END : rc == Z_OK) &&
	       !zs.avail_in && zs.avail_out ? 0 : -1;
}

/* The sheet's XML around the rows: its head with <dimension> covering
 * them (up to </sheetData>), its tail (from there), compressed. */
struct sheet_parts {
	struct strbuf head, tail;	/* compressed */
	uint32_t crc;
	uint64_t len;
};

static int dimension(const struct xlsx_data *d, struct strbuf *xml)
{
	const char *open = "<dimension ref=\"";
	char *at = strstr(xml->buf, open), *end, last[4];
	struct strbuf sb = STRBUF_INIT;

	if (!at || !(end = strchr(at + strlen(open), '"')))
		return -1;
	if (!d->nrows || !d->ncols)
		return 0;
	xlsx_column_name(d->ncols - 1, last);
	strbuf_add(&sb, xml->buf, (size_t)(at - xml->buf) + strlen(open));
	strbuf_addf(&sb, "A1:%s%zu", last, d->nrows + 1);
	strbuf_adds(&sb, end);
	strbuf_release(xml);
	*xml = sb;
	return 0;
}

static int sheet_parts(const struct xlsx_data *d, struct strbuf *xml,
		       struct sheet_parts *p)
{
	char *close;
	size_t split;
	uint32_t crc_tail;

	if (dimension(d, xml) || !(close = strstr(xml->buf, "</sheetData>")))
		return -1;
	split = (size_t)(close - xml->buf);
	if (deflate_raw(xml->buf, split, Z_SYNC_FLUSH, &p->head) ||
	    deflate_raw(xml->buf + split, xml->len - split, Z_FINISH,
			&p->tail))
		return -1;
	p->crc = (uint32_t)crc32(0, (const Bytef *)xml->buf, (uInt)split);
	p->crc = (uint32_t)crc32_combine(p->crc, d->crc, (z_off_t)d->len);
	crc_tail = (uint32_t)crc32(0, (const Bytef *)xml->buf + split,
				   (uInt)(xml->len - split));
	p->crc = (uint32_t)crc32_combine(p->crc, crc_tail,
					 (z_off_t)(xml->len - split));
	p->len = xml->len + d->len;
	return 0;
}

static int put_bytes(FILE *fp, const void *p, size_t n, uint64_t *at)
{
	*at += n;
	return !n || fwrite(p, 1, n, fp) == n ? 0 : -1;	/* p NULL: none */
}

/* An entry's new content: compressed segments that make one raw
 * deflate stream. */
struct new_entry {
	const void *seg[3];
	size_t len[3];
	uint32_t crc;
	uint64_t usize;
};

static uint64_t new_csize(const struct new_entry *e)
{
	return (uint64_t)e->len[0] + e->len[1] + e->len[2];
}

/* Entry i's local header and data, made new from e (its central record
 * c). */
static int put_new_entry(FILE *fp, const struct zip *z, size_t local,
			 const unsigned char *c, const struct new_entry *e,
			 uint64_t *at)
{
	unsigned char h[ZIP_LOCAL_SIZE];
	size_t nlen = get16(c + 28);
	int rc;

	memcpy(h, z->buf + local, ZIP_LOCAL_SIZE);
	put16(h + 6, get16(h + 6) & ~ZIP_DESCRIPTOR_FLAG);
	put16(h + 8, 8);	/* deflated */
	put32(h + 14, e->crc);
	put32(h + 18, (uint32_t)new_csize(e));
	put32(h + 22, (uint32_t)e->usize);
	put16(h + 26, (uint32_t)nlen);
	put16(h + 28, 0);
	rc = put_bytes(fp, h, sizeof(h), at) ||
	     put_bytes(fp, c + ZIP_CENTRAL_SIZE, nlen, at);
	for (int k = 0; k < 3 && !rc; k++)
		rc = put_bytes(fp, e->seg[k], e->len[k], at);
	return rc;
}

/* The new zip: the entries with a new_entry in repl[] (by their number)
 * made of it, everything else as it was. */
static int write_zip(FILE *fp, const struct zip *z,
		     const struct new_entry *const *repl)
{
	uint64_t at = 0;
	uint64_t *offset = xmalloc((z->n + 1) * sizeof(*offset));
	size_t cat = z->cd;
	int rc = 0;

	for (size_t i = 0; i < z->n && !rc; i++) {
		const unsigned char *c = central_next(z, &cat);
		size_t local = get32(c + 42), next;
		size_t from_cat = cat;
		const unsigned char *nc = i + 1 < z->n ?
					  central_next(z, &from_cat) : NULL;

		next = nc ? get32(nc + 42) : z->cd;
		offset[i] = at;
		rc = repl[i] ? put_new_entry(fp, z, local, c, repl[i], &at) :
		     put_bytes(fp, z->buf + local, next - local, &at);
	}
	cat = z->cd;
	for (size_t i = 0; i < z->n && !rc; i++) {
		size_t start = cat;
		const unsigned char *c = central_next(z, &cat);
		unsigned char *copy = xmalloc(cat - start);

		memcpy(copy, c, cat - start);
		put32(copy + 42, (uint32_t)offset[i]);
		if (repl[i]) {
			put16(copy + 8, get16(copy + 8) & ~ZIP_DESCRIPTOR_FLAG);
			put16(copy + 10, 8);
			put32(copy + 16, repl[i]->crc);
			put32(copy + 20, (uint32_t)new_csize(repl[i]));
			put32(copy + 24, (uint32_t)repl[i]->usize);
		}
		rc = put_bytes(fp, copy, cat - start, &at);
		free(copy);
	}
	if (!rc) {
		unsigned char *end = xmalloc(z->len - z->end);
		uint64_t cd = at - z->cd_size;

		memcpy(end, z->buf + z->end, z->len - z->end);
		put32(end + 16, (uint32_t)cd);
		rc = put_bytes(fp, end, z->len - z->end, &at);
		free(end);
	}
	free(offset);
	return rc;
}

/* The central record of entry `name`, its number in *which; checks that
 * every record is sound and the entries are in the records' order. */
static const unsigned char *find_entry(const struct zip *z, const char *name,
				       size_t *which)
{
	const unsigned char *found = NULL;
	size_t at = z->cd, last = 0;

	for (size_t i = 0; i < z->n; i++) {
		const unsigned char *c = central_next(z, &at);
		size_t local;

		if (!c)
			return NULL;
		local = get32(c + 42);
		if ((i && local <= last) || local >= z->cd ||
		    get32(c + 20) == UINT32_MAX || get32(c + 24) == UINT32_MAX)
			return NULL;	/* out of order, or ZIP64 */
		last = local;
		if (get16(c + 28) == strlen(name) &&
		    !memcmp(c + ZIP_CENTRAL_SIZE, name, strlen(name))) {
			found = c;
			*which = i;
		}
	}
	return at == z->end ? found : NULL;
}

/* The sheet's XML as libxlsxwriter wrote it. */
static int entry_text(const struct zip *z, const unsigned char *c,
		      struct strbuf *xml)
{
	size_t from, csize = get32(c + 20), len = get32(c + 24);

	if (entry_data(z, get32(c + 42), csize, &from))
		return -1;
	if (get16(c + 10) == 0) {		/* stored */
		if (csize != len)
			return -1;
		strbuf_add(xml, (const char *)z->buf + from, len);
		return 0;
	}
	return get16(c + 10) == 8 ?
	       inflate_raw(z->buf + from, csize, len, xml) : -1;
}

/* The size of the zip with the entries of repl[] made new. */
static uint64_t new_size(const struct zip *z,
			 const struct new_entry *const *repl)
{
	uint64_t size = z->len;
	size_t cat = z->cd;

	for (size_t i = 0; i < z->n; i++) {
		const unsigned char *c = central_next(z, &cat);
		size_t from;

		if (!repl[i])
			continue;
		entry_data(z, get32(c + 42), get32(c + 20), &from);
		size += ZIP_LOCAL_SIZE + get16(c + 28) + new_csize(repl[i]);
		size -= (from - get32(c + 42)) + get32(c + 20);
	}
	return size;
}

/* The workbook at path written again with the entries of repl[]. */
static int rewrite(const char *path, const struct zip *z,
		   const struct new_entry *const *repl)
{
	FILE *fp;
	int rc;

	if (new_size(z, repl) > UINT32_MAX)
		return error("cannot write '%s': too big for a workbook "
			     "without ZIP64", path);
	fp = fopen(path, "wb");
	if (!fp)
		return error("cannot write '%s': %s", path, strerror(errno));
	rc = write_zip(fp, z, repl);
	if (fclose(fp) || rc)
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

static int open_zip(const char *path, struct zip *z)
{
	if (read_whole(path, z))
		return -1;
	if (zip_parse(z))
		return error("'%s' is not the workbook libxlsxwriter wrote",
			     path);
	return 0;
}

int xlsx_data_splice(const struct xlsx_data *d, const char *path,
		     unsigned sheet_no)
{
	struct zip z = { 0 };
	struct sheet_parts p = { STRBUF_INIT, STRBUF_INIT, 0, 0 };
	struct strbuf xml = STRBUF_INIT;
	char *name = xstrfmt("xl/worksheets/sheet%u.xml", sheet_no);
	const unsigned char *c;
	const struct new_entry **repl = NULL;
	struct new_entry e;
	size_t which = 0;
	int rc = -1;

	if (open_zip(path, &z))
		goto out;
	if (!(c = find_entry(&z, name, &which)) ||
	    entry_text(&z, c, &xml) || sheet_parts(d, &xml, &p)) {
		error("cannot put the Data sheet into '%s': not the "
		      "workbook libxlsxwriter wrote", path);
		goto out;
	}
	e = (struct new_entry){ { p.head.buf, d->z.buf, p.tail.buf },
				{ p.head.len, d->z.len, p.tail.len },
				p.crc, p.len };
	repl = xcalloc(z.n + 1, sizeof(*repl));
	repl[which] = &e;
	rc = rewrite(path, &z, repl);
out:
	free(repl);
	free(z.buf);
	free(name);
	strbuf_release(&xml);
	strbuf_release(&p.head);
	strbuf_release(&p.tail);
	return rc;
}

int xlsx_zip_read(const char *path, const char *name, struct strbuf *text)
{
	struct zip z = { 0 };
	const unsigned char *c;
	size_t which;
	int rc = -1;

	if (!open_zip(path, &z)) {
		c = find_entry(&z, name, &which);
		rc = c && !entry_text(&z, c, text) ? 0 :
		     error("'%s' has no readable %s", path, name);
	}
	free(z.buf);
	return rc;
}

int xlsx_zip_replace(const char *path, size_t n, char *const *names,
		     const struct strbuf *texts)
{
	struct zip z = { 0 };
	const struct new_entry **repl = NULL;
	struct new_entry *e = xcalloc(n + 1, sizeof(*e));
	struct strbuf *z_out = xcalloc(n + 1, sizeof(*z_out));
	int rc = -1;

	if (open_zip(path, &z))
		goto out;
	repl = xcalloc(z.n + 1, sizeof(*repl));
	for (size_t i = 0; i < n; i++) {
		size_t which;

		if (!find_entry(&z, names[i], &which) ||
		    deflate_raw(texts[i].buf, texts[i].len, Z_FINISH,
				&z_out[i])) {
			error("cannot replace %s in '%s'", names[i], path);
			goto out;
		}
		e[i].seg[0] = z_out[i].buf;
		e[i].len[0] = z_out[i].len;
		e[i].crc = (uint32_t)crc32(0, (const Bytef *)texts[i].buf,
					   (uInt)texts[i].len);
		e[i].usize = texts[i].len;
		repl[which] = &e[i];
	}
	rc = rewrite(path, &z, repl);
out:
	for (size_t i = 0; i < n; i++)
		strbuf_release(&z_out[i]);
	free(z_out);
	free(e);
	free(repl);
	free(z.buf);
	return rc;
}
