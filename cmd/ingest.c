/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan ingest: text that benchmarks printed -> a result set (JSON or the
 * CSV export).  Every input is tried; problems are reported as FILE:LINE.
 */
#include "cmd.h"
#include "options.h"
#include "../core/atomic.h"
#include "../core/cpus.h"
#include "../ingest/ingest.h"
#include "../ingest/load.h"
#include "../core/numscan.h"
#include "../core/rs-csv.h"
#include "../core/rs-json.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../parsers/parser.h"

#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char ingest_usage[] =
	"usage: storan ingest [--label K=V]... [--name-pattern PATTERN]\n"
	"                     [--format json|csv] [-o FILE] FILE...\n"
	"\n"
	"Reads what fio, iozone, hdparm, dd, blockdev-perftest and time\n"
	"printed, wherever it sits in FILE (logs, shell transcripts, quoted\n"
	"e-mail, grep output), and writes a storan result set.  '-' reads\n"
	"standard input.  A CSV in the export format (storan export) is read\n"
	"back, so figures typed by hand can join the rest.  Headings above an\n"
	"output become label 'section', a line naming it label 'command'.\n"
	"\n"
	"  -l, --label K=V         add label K=V to every measurement\n"
	"  -n, --name-pattern PAT  labels from file names: '{host}.{test}.txt'\n"
	"                          ({_} skips a part)\n"
	"      --fio-version V     the fio that wrote the fio logs read (2.17,\n"
	"                          3.33): their latency unit, usec before 3.0,\n"
	"                          nsec since (default: what a fio output\n"
	"                          beside the logs says, else 3.x, with a note)\n"
	"  -f, --format FMT        json (default) or csv\n"
	"  -o, --output FILE       write to FILE (whole or not at all)\n"
	"  -j, --jobs N            read N inputs at a time (default: one per\n"
	"                          CPU when there are 4 inputs or more)\n"
	"  -h, --help              show this help\n"
	"\n"
	"Exit status: 0 all inputs read, 1 some input gave no result or an\n"
	"error (FILE:LINE on stderr), 2 usage error or unreadable input.\n";

/* Parses "k=v" into labels; -1 when it is not of that form. */
int parse_label_arg(const char *arg, struct labels *labels)
{
	const char *eq = strchr(arg, '=');
	char *key;

	if (!eq || eq == arg || strchr(arg, ';'))
		return -1;
	key = xstrndup(arg, (size_t)(eq - arg));
	labels_set(labels, key, eq + 1);
	free(key);
	return 0;
}

enum output_format { FORMAT_JSON, FORMAT_CSV };

#define SINK_CHUNK (256 << 10)	/* bytes written at a time */
#define RENDER_SPLIT_MIN 4096	/* measurements worth a second thread */

/*
 * The output, written one input at a time so that memory stays bounded by
 * the largest input, not by all of them: each input's measurements are
 * written and freed before the next input is read.  Only the list of
 * sources (small) is kept to the end, where the JSON document lists it.
 */
struct ingest_sink {
	enum output_format fmt;
	struct atomic_file file;
	struct strbuf buf;
	struct result_set sources;	/* sources only, no measurements */
	size_t count;			/* measurements written */
	int failed;
};

static int sink_open(struct ingest_sink *s, enum output_format fmt,
		     const char *out)
{
	memset(s, 0, sizeof(*s));
	s->fmt = fmt;
	result_set_init(&s->sources);
	if (atomic_file_open(&s->file, out ? out : "-"))
		return -1;
	if (fmt == FORMAT_CSV)
		strbuf_adds(&s->buf, RS_CSV_HEADER "\n");
	else
		rs_json_begin(&s->buf);
	return 0;
}

/* Writes text (a failure is remembered, reported at close) and empties
 * it. */
static void sink_write(struct ingest_sink *s, struct strbuf *text)
{
	if (text->len && atomic_file_write(&s->file, text->buf, text->len))
		s->failed = 1;
	strbuf_reset(text);
}

static void sink_flush(struct ingest_sink *s)
{
	sink_write(s, &s->buf);
}

/* Measurements [from, to) as text, each freed once it is; flush says
 * when to pass the text on. */
struct render_range {
	enum output_format fmt;
	struct result_set *rs;
	size_t from, to;
	size_t source_offset;	/* JSON: sources written before rs's */
	size_t count;		/* JSON: measurements written before */
	struct strbuf out;
};

static void render_range(struct render_range *r, struct ingest_sink *flush)
{
	for (size_t i = r->from; i < r->to; i++) {
		if (r->fmt == FORMAT_CSV)
			rs_csv_write_row(r->rs, i, &r->out);
		else
			rs_json_add_measurement(r->rs, i, r->source_offset,
						&r->count, &r->out);
		/* here, while it is in the cache, and on both threads:
		 * freeing 14,000 measurements was a third of this */
		measurement_release(&r->rs->m[i]);
		if (flush && r->out.len >= SINK_CHUNK)
			sink_write(flush, &r->out);
	}
}

/*
 * A big set (a 4 MB fio JSON+ file gives 14,000 measurements and 170,000
 * histogram buckets) is rendered on two threads, in pieces of
 * RENDER_PIECE measurements: this thread renders one piece in three
 * straight into the sink and writes them all, the other renders the
 * rest into buffers it reuses once they are written.  (Rendering one
 * half into memory meant 4 MB of fresh pages for a JSON+ file's JSON,
 * and fresh pages are what both threads wait on.)  One in two left this
 * thread the longer: writing 11 MB of JSON took it 7.5 ms more.
 */
#define RENDER_PIECE 512	/* measurements */
#define OTHER_BUFS 3

/* Is piece k the other thread's? */
static int others_piece(size_t k)
{
	return k % 3 != 0;
}

struct pieces {
	struct render_range next;	/* the other thread's next piece */
	size_t total;			/* measurements */
	struct strbuf buf[OTHER_BUFS];
	size_t made, written;		/* its pieces rendered, written */
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

/* Measurements of piece k, from where ranges start. */
static void piece_bounds(struct render_range *r, const struct pieces *p,
			 size_t k, size_t count0)
{
	r->from = k * RENDER_PIECE;
	r->to = r->from + RENDER_PIECE < p->total ? r->from + RENDER_PIECE :
		p->total;
	r->count = count0 + r->from;
}

/* The other thread: its pieces (1, 2, 4, 5...) into buf[i % OTHER_BUFS]. */
static void *render_other_pieces(void *arg)
{
	struct pieces *p = arg;
	size_t count0 = p->next.count, i = 0;

	for (size_t k = 0; k * RENDER_PIECE < p->total; k++) {
		struct render_range r = p->next;

		if (!others_piece(k))
			continue;
		pthread_mutex_lock(&p->lock);
		while (p->written + OTHER_BUFS <= i)	/* buffer not free */
			pthread_cond_wait(&p->changed, &p->lock);
		pthread_mutex_unlock(&p->lock);
		piece_bounds(&r, p, k, count0);
		r.out = p->buf[i % OTHER_BUFS];
		strbuf_reset(&r.out);
		render_range(&r, NULL);
		pthread_mutex_lock(&p->lock);
		p->buf[i % OTHER_BUFS] = r.out;
		p->made = ++i;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* This thread: its pieces, and the other's as they are made. */
static void render_own_pieces(struct ingest_sink *s, struct pieces *p,
			      struct render_range *mine)
{
	size_t count0 = mine->count;

	for (size_t k = 0, i = 0; k * RENDER_PIECE < p->total; k++) {
		if (!others_piece(k)) {
			piece_bounds(mine, p, k, count0);
			render_range(mine, s);
			continue;
		}
		/* the sink's text first, then the other thread's piece */
		sink_write(s, &mine->out);
		pthread_mutex_lock(&p->lock);
		while (p->made <= i)
			pthread_cond_wait(&p->changed, &p->lock);
		pthread_mutex_unlock(&p->lock);
		sink_write(s, &p->buf[i % OTHER_BUFS]);
		pthread_mutex_lock(&p->lock);
		p->written = ++i;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
	mine->count = count0 + p->total;
}

/* Renders, writes and frees rs's measurements. */
static void sink_render(struct ingest_sink *s, struct result_set *rs)
{
	struct render_range first = {
		s->fmt, rs, 0, rs->n, s->sources.nsources, s->count, s->buf
	};
	struct pieces p;
	pthread_t tid;

	if (rs->n < RENDER_SPLIT_MIN || storan_cpus() < 2) {
		render_range(&first, s);
		s->buf = first.out;
		s->count = first.count;
		return;
	}
	/* label caches are shared by both threads: filled first */
	if (s->fmt == FORMAT_CSV)
		for (size_t i = 0; i < rs->n; i++)
			labels_joined(&rs->m[i].labels);
	else
		rs_json_prepare(rs, 0, rs->n);
	memset(&p, 0, sizeof(p));
	p.next = first;
	p.total = rs->n;
	for (int b = 0; b < OTHER_BUFS; b++)
		strbuf_init(&p.buf[b]);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	if (pthread_create(&tid, NULL, render_other_pieces, &p)) {
		render_range(&first, s);	/* no thread: all here */
	} else {
		render_own_pieces(s, &p, &first);
		pthread_join(tid, NULL);
	}
	s->buf = first.out;
	s->count = first.count;
	for (int b = 0; b < OTHER_BUFS; b++)
		strbuf_release(&p.buf[b]);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.changed);
}

/*
 * Writes one input's result set and keeps only its sources.  CSV rows may
 * have been formatted on a worker thread already (text); JSON needs the
 * running source count, known only here.
 */
static void sink_add(struct ingest_sink *s, struct result_set *rs,
		     const struct strbuf *text)
{
	if (s->fmt == FORMAT_CSV && text->len) {
		sink_flush(s);	/* the header, once */
		/* written as it is: a copy of a 4 MB text costs 1,000
		 * page faults */
		if (atomic_file_write(&s->file, text->buf, text->len))
			s->failed = 1;
		for (size_t i = 0; i < rs->n; i++)
			measurement_release(&rs->m[i]);
	} else {
		sink_render(s, rs);
	}
	rs->n = 0;
	result_set_append(&s->sources, rs);
	sink_flush(s);
}

/* On a worker thread: the CSV rows of one input. */
static void render_csv(const struct result_set *rs, struct strbuf *out,
		       void *arg)
{
	const struct ingest_sink *s = arg;

	if (s->fmt == FORMAT_CSV)
		rs_csv_write_rows(rs, out);
}

/* Each input, in order: its messages, then its measurements. */
static void deliver(struct result_set *rs, struct diag_list *diags,
		    const struct strbuf *text, void *arg)
{
	diag_print(diags, stderr);
	sink_add(arg, rs, text);
}

static int sink_close(struct ingest_sink *s)
{
	if (s->fmt == FORMAT_JSON)
		rs_json_end(s->sources.sources, s->sources.nsources, &s->buf);
	sink_flush(s);
	result_set_release(&s->sources);
	strbuf_release(&s->buf);
	if (s->failed) {
		atomic_file_abort(&s->file);
		return -1;
	}
	return atomic_file_commit(&s->file);
}

static int parse_jobs(const char *arg, unsigned *threads)
{
	const char *p = arg;
	uint64_t n;

	if (scan_u64(&p, &n) || *p || n < 1 || n > 64)
		return -1;
	*threads = (unsigned)n;
	return 0;
}

/* "3", "3.33", "2.17.1", "fio-3.33", "fio-3.35-115-g6795". */
static int check_fio_version(const char *arg)
{
	const char *p = arg + (strncmp(arg, "fio-", 4) ? 0 : 4);

	if (*p < '1' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p && *p != '.' && *p != '-' ? -1 : 0;
}

static int parse_format(const char *arg, enum output_format *fmt)
{
	if (!strcmp(arg, "json"))
		*fmt = FORMAT_JSON;
	else if (!strcmp(arg, "csv"))
		*fmt = FORMAT_CSV;
	else
		return -1;
	return 0;
}

int cmd_ingest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "name-pattern", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "fio-version", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ingest_options opt;
	enum output_format fmt = FORMAT_JSON;
	const char *out = NULL;
	struct ingest_sink sink;
	enum load_status st;
	unsigned threads = 0;
	int c, rc;

	memset(&opt, 0, sizeof(opt));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:n:f:o:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (parse_label_arg(optarg, &opt.labels))
				return usage_error("ingest", "--label wants "
						   "KEY=VALUE, not '%s'", optarg);
			break;
		case 'n':
			opt.name_pattern = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &fmt))
				return usage_error("ingest", "unknown format "
						   "'%s' (json or csv)", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'j':
			if (parse_jobs(optarg, &threads))
				return usage_error("ingest", "--jobs wants a "
						   "number from 1 to 64, not "
						   "'%s'", optarg);
			break;
		case 'F':
			if (check_fio_version(optarg))
				return usage_error("ingest", "--fio-version "
						   "wants a version like 3.33 "
						   "or fio-2.17, not '%s'",
						   optarg);
			opt.fio_version = optarg;
			opt.fio_version_from = "--fio-version";
			break;
		case 'h':
			print_usage(stdout, ingest_usage);
			return EXIT_OK;
		default:
			return option_error("ingest", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return usage_error("ingest", "no input files");
	/* the CSV export has no column for them: 2.6 MB of a 4 MB JSON+
	 * file's bins need not be kept */
	opt.drop_histograms = fmt == FORMAT_CSV;
	if (sink_open(&sink, fmt, out))
		return EXIT_TROUBLE;
	if (!threads)
		threads = load_default_threads((size_t)(argc - optind));
	/* worker threads render CSV rows, one thread streams them */
	st = load_inputs_ordered(argv + optind, (size_t)(argc - optind), &opt,
				 threads, threads > 1 ? render_csv : NULL,
				 deliver, &sink);
	/* whole or not at all: a missing input (a typo in a glob) must not
	 * replace the results already in OUT with fewer */
	if (st == LOAD_TROUBLE && out && strcmp(out, "-")) {
		sink.failed = 1;
		fprintf(stderr, "storan ingest: %s not written: an input could "
			"not be read\n", out);
	}
	rc = sink_close(&sink) ? EXIT_TROUBLE : (int)st;
	labels_release(&opt.labels);
	return rc;
}
