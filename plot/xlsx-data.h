/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The workbook's Data sheet rows (a row per measurement), printed and
 * compressed by storan on a thread of its own, then spliced into the
 * report.xlsx that libxlsxwriter wrote with the sheet's header row only.
 * Why, and how the pieces fit, in xlsx-data.c.
 *
 * Lifetime: xlsx_data_start() as soon as the result set will not change
 * again (it is read, not copied, until xlsx_data_finish() returns);
 * xlsx_data_finish() before the workbook takes the strings and rows;
 * xlsx_data_release() frees everything (and waits for the thread).
 */
#ifndef STORAN_PLOT_XLSX_DATA_H
#define STORAN_PLOT_XLSX_DATA_H

#include "../core/keymap.h"
#include "../core/strbuf.h"

#include <pthread.h>
#include <stdint.h>

struct result_set;

/* A sheet's rows and columns (Excel's and libxlsxwriter's limits). */
#define XLSX_MAX_ROWS 1048576u
#define XLSX_MAX_COLS 16384u
/* The columns before the labels: source ... max (in unit). */
#define XLSX_DATA_FIXED 11

/*
 * A figure's number format: 0 to XLSX_MAX_DECIMALS decimals, or
 * XLSX_SCIENTIFIC.  The Data sheet's cells carry the workbook's style
 * (xf) number of each.
 */
#define XLSX_MAX_DECIMALS 6
#define XLSX_SCIENTIFIC (XLSX_MAX_DECIMALS + 1)
#define XLSX_NFORMATS (XLSX_SCIENTIFIC + 1)

/* The number format of figure v in a column of `column` decimals: three
 * significant digits of its own, never fewer decimals than the column's,
 * scientific when that would be more than XLSX_MAX_DECIMALS. */
int xlsx_figure_format(double v, int column);

/* Column col's letters ("A", "AB", "XFD"): buf holds 4 bytes. */
void xlsx_column_name(size_t col, char *buf);

/* Text cut to a cell's 32,767 bytes with an ellipsis (libxlsxwriter
 * leaves a longer string out without a word); NULL when it fits. */
char *xlsx_cut_text(const char *text);

struct xlsx_data {
	const struct result_set *rs;
	/* the label columns, in order of first appearance (keys owned by
	 * keymap `columns`), and the most runs of any measurement */
	const char **keys;
	size_t nkeys, runs;
	struct keymap columns;
	size_t ncols;		/* header width, at most XLSX_MAX_COLS */
	size_t nrows;		/* measurements written (all, unless the
				 * sheet's limit or the zip's cut them) */
	/* shared strings, numbered in order of first use from 0; refs[i]
	 * counts the cells of strings[i] (owned by keymap `strings`) */
	char **strings;
	uint32_t *refs;
	size_t nstrings, strings_alloc;
	struct keymap sst;
	/* the styles and string numbers the rows were written with */
	int32_t xf[XLSX_NFORMATS];
	uint32_t *sst_index;	/* NULL: string i is number i */
	/* the rows: one raw deflate segment ended by a sync flush */
	struct strbuf z;
	uint32_t crc;
	uint64_t len;		/* uncompressed */
	int failed;
	pthread_t tid;
	int threaded, finished;
};

/* Starts writing rs's rows on a thread (in this one when there is one
 * CPU), with the formats at the workbook's first styles (xf 1 to
 * XLSX_NFORMATS: what xlsx.c asks libxlsxwriter for first) and the
 * strings first in the shared-string table. */
void xlsx_data_start(struct xlsx_data *d, const struct result_set *rs);
/* Waits for the rows; 0, or -1 after saying what failed. */
int xlsx_data_finish(struct xlsx_data *d);
/*
 * The rows again, with these style numbers and string numbers
 * (sst_index[i] for string i, copied), if they differ from those the
 * rows were written with: what another libxlsxwriter numbered otherwise.
 * 0, or -1 after saying what failed.
 */
int xlsx_data_renumber(struct xlsx_data *d, const int32_t *xf,
		       const uint32_t *sst_index);
/*
 * Puts the rows into the workbook at path: into the worksheet
 * xl/worksheets/sheet<sheet_no>.xml (written with its header row only),
 * before its </sheetData>, its <dimension> made to cover them.  0, or -1
 * after saying what failed.
 */
int xlsx_data_splice(const struct xlsx_data *d, const char *path,
		     unsigned sheet_no);
void xlsx_data_release(struct xlsx_data *d);

/* The text of entry `name` of the workbook at path (as libxlsxwriter
 * wrote it: no ZIP64); 0, or -1 after saying what failed. */
int xlsx_zip_read(const char *path, const char *name, struct strbuf *text);
/* The workbook at path written again with entries names[0..n) holding
 * texts[0..n), every other entry as it was; 0, or -1 after saying what
 * failed. */
int xlsx_zip_replace(const char *path, size_t n, char *const *names,
		     const struct strbuf *texts);

#endif
