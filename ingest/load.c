/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loading result sets and raw text alike; see load.h. */
#include "load.h"
#include "ingest.h"
#include "../parsers/shell.h"
#include "../core/cpus.h"
#include "../core/input.h"
#include "../core/rs-bin.h"
#include "../core/rs-json.h"
#include "../core/strbuf.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"
#include "../parsers/parser.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * fio's logs do not say which fio wrote them, and their latency unit
 * changed with fio 3.0 (usec -> nsec).  The fio output of the same run
 * (rw.json, rw.txt) usually lies beside them and says: the files of the
 * log's directory are looked at (the first 64 KiB of at most 256 of them,
 * logs and big files skipped).  Two that name a fio 2 and a fio 3 say
 * nothing.  One answer per directory is kept: a run's dozen logs ask once.
 */
#define BESIDE_FILES_MAX 256
#define BESIDE_HEAD (64 * 1024)

struct fio_beside {
	char dir[4096];
	char version[64];
	char from[256];
};

static pthread_mutex_t beside_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fio_beside beside_last;
/* the note that fio 3.x was taken: once per command */
static atomic_int fio_assume_noted;

/* What file name in dir says (0), or -1. */
static int version_of_file(int dfd, const char *name, char *ver,
			   size_t vlen)
{
	struct stat st;
	char *buf;
	ssize_t got;
	int fd, rc;

	/* a log (fio names them PREFIX_KIND.N.log), not an output; an output
	 * may still be called fio-3.33-iops.json */
	if (ends_with(name, ".log") && fio_log_name_kind(name))
		return -1;
	fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	buf = xmalloc(BESIDE_HEAD);
	got = read(fd, buf, BESIDE_HEAD);
	close(fd);
	rc = got > 0 ? fio_version_in_text(buf, (size_t)got, ver, vlen) : -1;
	free(buf);
	return rc;
}

static void probe_dir(struct fio_beside *b)
{
	DIR *d = opendir(b->dir);
	struct dirent *e;
	unsigned looked = 0;
	char ver[64];

	b->version[0] = b->from[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) && looked < BESIDE_FILES_MAX) {
		if (e->d_name[0] == '.')
			continue;
		looked++;
		if (version_of_file(dirfd(d), e->d_name, ver, sizeof(ver)))
			continue;
		if (!b->version[0]) {
			snprintf(b->version, sizeof(b->version), "%s", ver);
			snprintf(b->from, sizeof(b->from), "%s", e->d_name);
		} else if (ver[4] != b->version[4]) {
			b->version[0] = b->from[0] = '\0';	/* 2.x and 3.x */
			break;
		}
	}
	closedir(d);
}

/* Fills the fio version of a log's run into *local, if one is beside. */
static void fio_version_beside(const char *path, struct fio_beside *out)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 1;

	if (len >= sizeof(out->dir))
		len = 0;
	pthread_mutex_lock(&beside_lock);
	if (len && (strlen(beside_last.dir) != len ||
		    strncmp(beside_last.dir, slash ? path : ".", len))) {
		memcpy(beside_last.dir, slash ? path : ".", len);
		beside_last.dir[len] = '\0';
		probe_dir(&beside_last);
	}
	*out = beside_last;
	pthread_mutex_unlock(&beside_lock);
}

/* opt for one input, with what a fio log needs to know of its run. */
static const struct ingest_options *log_options(
	const char *path, const struct input *in,
	const struct ingest_options *opt, struct ingest_options *local,
	struct fio_beside *b)
{
	if (opt)
		*local = *opt;
	else
		memset(local, 0, sizeof(*local));
	if (!local->fio_assume_noted)
		local->fio_assume_noted = &fio_assume_noted;
	if (local->fio_version || !fio_log_name_kind(in->name) ||
	    !strcmp(path, "-"))
		return local;
	fio_version_beside(path, b);
	if (b->version[0]) {
		local->fio_version = b->version;
		local->fio_version_from = b->from;
	}
	return local;
}

enum load_status load_input(const char *path, const struct ingest_options *opt,
			    struct result_set *rs, struct diag_list *diags)
{
	return load_input_between(path, opt, rs, diags, NULL);
}

/*
 * A result set, JSON or binary, read where it is mapped, appended to rs
 * with the user's --label on its measurements and sources (as ingest
 * records them).  0, or -1 after saying why.
 */
static int load_result_set(struct input *in, const struct ingest_options *opt,
			   struct result_set *rs, struct diag_list *diags)
{
	struct strbuf err = STRBUF_INIT;
	struct result_set one;
	int rc;

	result_set_init(&one);
	if (rs->m_borrowed && !rs->n) {	/* its place in the array of all */
		one.m = rs->m;
		one.alloc = rs->alloc;
		one.m_borrowed = 1;
		rs->m = NULL;
		rs->alloc = 0;
		rs->m_borrowed = 0;
	}
	rc = rs_bin_sniff(in->data, in->size) ?
	     rs_bin_read(in->name, in->data, in->size, &one, &err) :
	     rs_json_read_in_place(in->name, in->data, in->size, &one, &err);
	if (rc)
		diag_add(diags, DIAG_ERROR, NULL, 0, "%s", strbuf_str(&err));
	for (size_t i = 0; !rc && opt && i < one.n; i++)
		for (size_t j = 0; j < opt->labels.n; j++)
			labels_set(&one.m[i].labels, opt->labels.v[j].key,
				   opt->labels.v[j].value);
	for (size_t i = 0; !rc && opt && i < one.nsources; i++)
		for (size_t j = 0; j < opt->labels.n; j++)
			labels_set(&one.sources[i].labels,
				   opt->labels.v[j].key,
				   opt->labels.v[j].value);
	if (!rc)
		result_set_append(rs, &one);
	result_set_release(&one);
	strbuf_release(&err);
	return rc;
}

enum load_status load_input_between(const char *path,
				    const struct ingest_options *opt,
				    struct result_set *rs,
				    struct diag_list *diags,
				    void (*between)(const struct input *in))
{
	struct strbuf err = STRBUF_INIT;
	struct input in;
	enum load_status st = LOAD_OK;
	char *data;
	size_t size, before_m = rs->n, before_s = rs->nsources;
	size_t before_d = diag_total(diags);
	int rc;

	/* storan dies when memory runs out: it says on which input */
	xalloc_subject(path);
	rc = input_read_bytes(path, &data, &size, &err);
	if (rc) {
		diag_add(diags, DIAG_ERROR, NULL, 0, "%s", strbuf_str(&err));
		strbuf_release(&err);
		xalloc_subject(NULL);
		return rc == -2 ? LOAD_FAILED : LOAD_TROUBLE;
	}
	/* a result set is read as it is: no hash, no lines (a 28 MB one
	 * is one line, and cutting it cost as much as reading it) */
	input_init_bare(&in, path, data, size);
	in.runs_output_tool = parser_output_after_command;
	in.prompt_len = shell_prompt_len;
	in.no_sha256 = opt && opt->no_sha256;
	if (rs_bin_sniff(in.data, in.size) ||
	    rs_json_sniff(in.data, in.size)) {
		if (load_result_set(&in, opt, rs, diags))
			st = LOAD_FAILED;
	} else {
		if (ingest_may_read_whole(&in))
			input_finish_uncut(&in);
		else if (ingest_read_by_windows(in.size))
			input_finish_windows(&in);	/* a long log */
		else
			input_finish(&in);
		/* (a file that shrank under its mapping has NULs for text:
		 * below; a binary one is refused as such by ingest) */
		/* (an uncut one may be read whole, with no line table: a
		 * fio log of several GB; else ingest says it, once cut) */
		if (in.too_many_lines && !in.uncut && !in.binary &&
		    !input_changed(&in)) {
			diag_add(diags, DIAG_ERROR, in.name, 0, "more than %u "
				 "lines; storan takes no more from one input: "
				 "split it", INPUT_LINES_MAX);
			st = LOAD_FAILED;
		} else if (!input_changed(&in)) {
			struct ingest_options local;
			struct fio_beside b;

			if (between)
				between(&in);
			if (ingest_input(&in, log_options(path, &in, opt,
							  &local, &b),
					 rs, diags))
				st = LOAD_FAILED;
		}
	}
	if (input_changed(&in)) {	/* what was read from it is void */
		result_set_truncate(rs, before_m, before_s);
		diag_list_truncate(diags, before_d);
		diag_add(diags, DIAG_ERROR, in.name, 0, "the file shrank, or a "
			 "part of it could not be read, while it was read "
			 "(truncated by another program? an I/O error?): no "
			 "result taken from it");
		st = LOAD_FAILED;
	}
	strbuf_release(&err);
	input_release(&in);
	xalloc_subject(NULL);
	return st;
}

static enum load_status load_each(char *const *paths, size_t n,
				  const struct ingest_options *opt,
				  struct result_set *sets,
				  struct diag_list *diags,
				  const struct result_set *start);

/* The measurements a binary result set at path holds, as its table of
 * sections says; 0 for anything else. */
static size_t binary_count(const char *path)
{
	char head[RS_BIN_HEAD_MAX];
	struct stat st;
	ssize_t got;
	int fd;

	/* (a pipe's bytes would be gone; "-" is standard input) */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	got = pread(fd, head, sizeof(head), 0);
	close(fd);
	return got > 0 ? rs_bin_count(head, (size_t)got,
				      (uint64_t)st.st_size) : 0;
}

/*
 * Binary result sets are loaded into their places in one array, made
 * here for all: rs owns it, start[i] is input i's slice.  Appending them
 * then copies no measurement (two million were 290 MB copied into fresh
 * pages, a tenth of table --ratio).  NULL when an input is not binary.
 */
static struct result_set *slices(char *const *paths, size_t n,
				 struct result_set *rs)
{
	struct result_set *start;
	size_t total = 0, *count = xcalloc(n, sizeof(*count));

	for (size_t i = 0; i < n; i++) {
		count[i] = binary_count(paths[i]);
		if (!count[i] || count[i] > SIZE_MAX / sizeof(*rs->m) -
				  total) {
			free(count);
			return NULL;
		}
		total += count[i];
	}
	start = xcalloc(n, sizeof(*start));
	rs->m = xmalloc(total * sizeof(*rs->m));
	rs->alloc = total;
	for (size_t i = 0, at = 0; i < n; at += count[i++]) {
		result_set_init(&start[i]);
		start[i].m = rs->m + at;
		start[i].alloc = count[i];
		start[i].m_borrowed = 1;
	}
	free(count);
	return start;
}

/*
 * Did an input's measurements leave its slice (more than the slice holds:
 * a file that grew, or one no longer binary)?  Then the others' slices
 * are copied out first: appended behind the ones before them, they would
 * be written over before they are read.
 */
static int left_slice(const struct result_set *sets, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (sets[i].n && !sets[i].m_borrowed)
			return 1;
	return 0;
}

enum load_status load_inputs(char *const *paths, int n,
			     const struct ingest_options *opt,
			     struct result_set *rs, struct diag_list *diags)
{
	struct result_set *sets, *start = NULL;
	enum load_status worst;

	if (n < 2)
		return n ? load_input(paths[0], opt, rs, diags) : LOAD_OK;
	sets = xcalloc((size_t)n, sizeof(*sets));
	if (!rs->n && !rs->alloc && !rs->nsources)
		start = slices(paths, (size_t)n, rs);
	worst = load_each(paths, (size_t)n, opt, sets, diags, start);
	if (start && left_slice(sets, (size_t)n))
		for (int i = 0; i < n; i++)
			result_set_own(&sets[i], sets[i].n);
	for (int i = 0; i < n; i++) {
		result_set_append(rs, &sets[i]);
		result_set_release(&sets[i]);
	}
	free(start);
	free(sets);
	return worst;
}

/* ---- parallel loading, delivered in order ---- */

struct load_job {
	struct result_set rs;
	struct diag_list diags;
	struct strbuf text;	/* rendered by the worker, if asked */
	enum load_status st;
	int done;
};

struct load_pool {
	char *const *paths;
	const struct ingest_options *opt;
	load_render_fn render;
	void *arg;
	struct load_job *jobs;
	const struct result_set *start;	/* each job's set at first, or NULL */
	size_t n, next, delivered, window;
	/* who sleeps, so that nobody is woken for nothing (10,000 small
	 * inputs were 40,000 wake-ups, a tenth of the time) */
	size_t awaited;			/* job the deliverer waits for */
	int deliverer_waits;
	unsigned workers_wait;		/* workers waiting for room */
	pthread_mutex_t lock;
	pthread_cond_t job_done;	/* a worker finished a job */
	pthread_cond_t room;		/* the deliverer freed a slot */
};

static void run_job(struct load_pool *p, size_t i)
{
	struct load_job *j = &p->jobs[i];

	result_set_init(&j->rs);
	if (p->start)
		j->rs = p->start[i];
	diag_list_init(&j->diags);
	/* deliver() prints them: past a few thousand, they wait in a file
	 * (a long log's notes, one for each run pasted again) */
	diag_list_spill_after(&j->diags, 4096);
	strbuf_init(&j->text);
	j->st = load_input(p->paths[i], p->opt, &j->rs, &j->diags);
	if (p->render)
		p->render(&j->rs, &j->text, p->arg);
}

static void *load_worker(void *arg)
{
	struct load_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	while (p->next < p->n) {
		size_t i;

		if (p->next - p->delivered >= p->window) {
			p->workers_wait++;
			pthread_cond_wait(&p->room, &p->lock);
			p->workers_wait--;
			continue;
		}
		i = p->next++;
		pthread_mutex_unlock(&p->lock);
		run_job(p, i);
		pthread_mutex_lock(&p->lock);
		p->jobs[i].done = 1;
		if (p->deliverer_waits && p->awaited == i)
			pthread_cond_signal(&p->job_done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static enum load_status deliver_job(struct load_job *j, load_deliver_fn fn,
				    void *arg)
{
	enum load_status st = j->st;

	fn(&j->rs, &j->diags, &j->text, arg);
	result_set_release(&j->rs);
	diag_list_release(&j->diags);
	strbuf_release(&j->text);
	return st;
}

/* load_inputs_each(): each input's set moved to its place. */
struct each_input {
	struct result_set *sets;
	struct diag_list *diags;
	size_t next;
};

static void keep_input(struct result_set *rs, struct diag_list *diags,
		       const struct strbuf *text, void *arg)
{
	struct each_input *e = arg;

	(void)text;
	result_set_append(&e->sets[e->next++], rs);
	diag_list_take(e->diags, diags);
}

static enum load_status run_pool(char *const *paths, size_t n,
				 const struct ingest_options *opt,
				 unsigned threads, load_render_fn render,
				 load_deliver_fn deliver, void *arg,
				 const struct result_set *start);

static enum load_status load_each(char *const *paths, size_t n,
				  const struct ingest_options *opt,
				  struct result_set *sets,
				  struct diag_list *diags,
				  const struct result_set *start)
{
	struct each_input e = { sets, diags, 0 };

	for (size_t i = 0; i < n; i++)
		result_set_init(&sets[i]);
	return run_pool(paths, n, opt, cpus_pool_threads(n), NULL,
			keep_input, &e, start);
}

enum load_status load_inputs_each(char *const *paths, size_t n,
				  const struct ingest_options *opt,
				  struct result_set *sets,
				  struct diag_list *diags)
{
	return load_each(paths, n, opt, sets, diags, NULL);
}

enum load_status load_inputs_ordered(char *const *paths, size_t n,
				     const struct ingest_options *opt,
				     unsigned threads, load_render_fn render,
				     load_deliver_fn deliver, void *arg)
{
	return run_pool(paths, n, opt, threads, render, deliver, arg, NULL);
}

static enum load_status run_pool(char *const *paths, size_t n,
				 const struct ingest_options *opt,
				 unsigned threads, load_render_fn render,
				 load_deliver_fn deliver, void *arg,
				 const struct result_set *start)
{
	struct load_pool p;
	pthread_t *tid;
	enum load_status worst = LOAD_OK;
	unsigned started = 0;

	memset(&p, 0, sizeof(p));
	p.paths = paths;
	p.start = start;
	p.opt = opt;
	p.render = render;
	p.arg = arg;
	p.n = n;
	p.jobs = xcalloc(n, sizeof(*p.jobs));
	p.window = threads > 1 ? 4 * (size_t)threads : 1;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.job_done, NULL);
	pthread_cond_init(&p.room, NULL);
	rs_json_init_threads();
	tid = xcalloc(threads, sizeof(*tid));
	for (unsigned t = 0; threads > 1 && t < threads; t++)
		if (!pthread_create(&tid[t], NULL, load_worker, &p))
			started++;
	for (size_t i = 0; i < n; i++) {
		enum load_status st;

		if (!started) {		/* no threads: load it here */
			run_job(&p, i);
		} else {
			pthread_mutex_lock(&p.lock);
			p.awaited = i;
			while (!p.jobs[i].done) {
				p.deliverer_waits = 1;
				pthread_cond_wait(&p.job_done, &p.lock);
				p.deliverer_waits = 0;
			}
			pthread_mutex_unlock(&p.lock);
		}
		st = deliver_job(&p.jobs[i], deliver, arg);
		if (st > worst)
			worst = st;
		pthread_mutex_lock(&p.lock);
		p.delivered = i + 1;
		if (p.workers_wait)
			pthread_cond_broadcast(&p.room);
		pthread_mutex_unlock(&p.lock);
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.job_done);
	pthread_cond_destroy(&p.room);
	free(tid);
	free(p.jobs);
	return worst;
}
