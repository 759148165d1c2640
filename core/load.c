/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loading result sets and raw text alike; see load.h. */
#include "load.h"
#include "cpus.h"
#include "input.h"
#include "rs-json.h"
#include "strbuf.h"
#include "xalloc.h"
#include "../parsers/parser.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum load_status load_input(const char *path, const struct ingest_options *opt,
			    struct result_set *rs, struct diag_list *diags)
{
	return load_input_hooked(path, opt, rs, diags, NULL, NULL);
}

enum load_status load_input_hooked(const char *path,
				   const struct ingest_options *opt,
				   struct result_set *rs,
				   struct diag_list *diags,
				   load_text_hook text_hook, void *arg)
{
	struct strbuf err = STRBUF_INIT;
	struct input in;
	enum load_status st = LOAD_OK;
	char *data;
	size_t size, before_m = rs->n, before_s = rs->nsources;
	size_t before_d = diags->n;
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
	if (rs_json_sniff(in.data, in.size)) {
		struct result_set one;

		result_set_init(&one);
		if (rs_json_read_in_place(in.name, in.data, in.size, &one,
					  &err)) {
			diag_add(diags, DIAG_ERROR, NULL, 0, "%s",
				 strbuf_str(&err));
			st = LOAD_FAILED;
		} else {
			for (size_t i = 0; opt && i < one.n; i++)
				for (size_t j = 0; j < opt->labels.n; j++)
					labels_set(&one.m[i].labels,
						   opt->labels.v[j].key,
						   opt->labels.v[j].value);
			/* the user's, as ingest records them */
			for (size_t i = 0; opt && i < one.nsources; i++)
				for (size_t j = 0; j < opt->labels.n; j++)
					labels_set(&one.sources[i].labels,
						   opt->labels.v[j].key,
						   opt->labels.v[j].value);
			result_set_append(rs, &one);
		}
		result_set_release(&one);
	} else {
		/* (a hook looks at the lines: cut them) */
		if (!text_hook && ingest_may_read_whole(&in))
			input_finish_uncut(&in);
		else
			input_finish(&in);
		/* (a file that shrank under its mapping has NULs for text:
		 * below; a binary one is refused as such by ingest) */
		if (in.too_many_lines && !in.binary && !input_changed(&in)) {
			diag_add(diags, DIAG_ERROR, in.name, 0, "more than %u "
				 "lines; storan takes no more from one input: "
				 "split it", INPUT_LINES_MAX);
			st = LOAD_FAILED;
		} else if (!input_changed(&in)) {
			if (text_hook)
				text_hook(&in, arg);
			if (ingest_input(&in, opt, rs, diags))
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

enum load_status load_inputs(char *const *paths, int n,
			     const struct ingest_options *opt,
			     struct result_set *rs, struct diag_list *diags)
{
	enum load_status worst = LOAD_OK;

	for (int i = 0; i < n; i++) {
		enum load_status st = load_input(paths[i], opt, rs, diags);

		if (st > worst)
			worst = st;
	}
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
	diag_list_init(&j->diags);
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

unsigned load_default_threads(size_t n)
{
	long cpus = storan_cpus();

	if (n < 4 || cpus < 2)
		return 1;	/* not worth a thread */
	return cpus > 8 ? 8 : (unsigned)cpus;
}

enum load_status load_inputs_ordered(char *const *paths, size_t n,
				     const struct ingest_options *opt,
				     unsigned threads, load_render_fn render,
				     load_deliver_fn deliver, void *arg)
{
	struct load_pool p;
	pthread_t *tid;
	enum load_status worst = LOAD_OK;
	unsigned started = 0;

	memset(&p, 0, sizeof(p));
	p.paths = paths;
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
