/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio's normal (human) output, fio 2.x and 3.x, local and client/server.
 *
 * Accepted, verbatim (each has a fixture under tests/parsers/fio/):
 *
 *   test: (g=0): rw=randrw, bs=4K-4K/4K-4K, ioengine=libaio, iodepth=64
 *   myjob: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) ...
 *   fio-3.33                                  (the version -> source)
 *   Starting 8 processes  /  ...  /  NAME: Laying out IO file(s) (...)
 *   Jobs: 1 (f=1): [r(1)][100.0%][r=239MiB/s][r=61.2k IOPS][eta 00m:00s]
 *   fio: terminating on signal 2              (the run is partial)
 *   myjob: (groupid=0, jobs=1): err= 0: pid=16914: Sun Oct  8 09:01:12 2017
 *   3.x   read: IOPS=13.4k, BW=52.3MiB/s (54.9MB/s)(1639MiB/31300msec)
 *   2.x   read : io=32708KB, bw=557417B/s, iops=136, runt= 60086msec
 *         write: io=39955KB, bw=135719 B/s, iops=18 , runt=301456msec
 *   slat (nsec): min=500, max=145500, avg=8318.00, stdev=4781.50
 *   clat (usec): min=3 , max=28301K, avg=3815334.86, stdev=4531880.45
 *   clat percentiles (usec):   |  1.00th=[  302],  5.00th=[  326], ...
 *   lat percentiles / sync percentiles (msec) / fsync/fdatasync/...:
 *   bw (  KiB/s): min=  532, max=  686, per=0.10%, avg=622.87, ...
 *   bw (KB  /s): ...   bw (KB/s)  : ...      iops        : min=   76, ...
 *   cpu          : usr=0.27%, sys=0.18%, ctx=12072, majf=0, minf=21
 *   Run status group 0 (all jobs):
 *      READ: bw=20.9MiB/s (21.9MB/s), 10.4MiB/s-10.8MiB/s (...), io=...
 *      READ: io=145824KB, aggrb=485KB/s, minb=485KB/s, maxb=485KB/s, ...
 *   Disk stats (read/write):
 *     sda: ios=16398/16511, merge=30/162, ..., util=100.00%
 *   <hlg201> Starting 2 processes          (client/server host prefix)
 *   All clients: (groupid=0, jobs=2): err= 0: pid=0: ...
 *   20:22:23 DEBUG| [stdout]   write: IOPS=19, ...   (a harness's log
 *                                          prefix, learnt and stripped)
 *   read: **IOPS=4737k**, ...   write: ..., *iops=463*, ...   (Markdown)
 *   write: io=5118.7M B, ..., runt=262833 msec   (reflowed by a web page)
 *   write: io=103145MB, bw=586,774 KB/s, ...   (grouped by a poster)
 *   >    READ: io=7133.2GB, aggrb=12174MB/s, ..., maxb=12174MB/s,
 *   > mint=600001msec, maxt=600001msec     (wrapped by a mail client, a
 *   bw (  KiB/s): ..., avg=41176.64, \ (+ "stdev=...")   blog or a
 *   terminal: read as one line, see wrapped_rest())
 *
 * Units, as fio meant them: a 3.x rate is 1024-based when its prefix has
 * an 'i' (KiB, MiB) and 1000-based otherwise (kB, MB: the figure in
 * parentheses); IOPS and latency k/M suffixes are powers of 1000; every
 * 2.x KB/MB is 1024-based (kb_base=1024 was the default).  Latencies
 * carry their unit per block (nsec, usec, msec).
 *
 * Measurements: per direction of a job report, bw iops bytes runtime,
 * slat/clat/lat .min .max .mean .stddev, clat.pNN (or lat.pNN) as
 * written, bw.* and iops.* of the sample lines, cpu.usr cpu.sys; per
 * group status line bw and bytes (job=all); per disk disk.util (label
 * device).  Labels: job group numjobs rw bs ioengine iodepth, options of
 * an echoed fio command line, partial=1 after a signal, host=all for the
 * all-clients aggregate, clone=K (client=K in client/server mode) when one
 * output has several reports of the same job (numjobs without
 * group_reporting).  A report with err != 0 gives no result and an error.
 * A report quoted without its "(g=0): rw=" header or its report line
 * takes rw bs ioengine iodepth from the output's sole job header, else
 * from the fio command line above it (never across prose after an
 * output's status or disk lines: see prose_line()); direction lines
 * alone (grep output) pair up in fio's order, read before write before
 * trim.  A group status line may be quoted alone too.  A result line
 * standing alone that repeats an earlier one, with prose between, is
 * that line quoted again ("the lines that matter are these:"): noted,
 * not counted.
 */
#include "fio-text.h"
#include "../core/keymap.h"
#include "../core/numscan.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int fio_text_detect(const struct input *in)
{
	for (size_t i = 0; i < in->nlines; i++) {
		const char *t = in->lines[i].text, *p = t;

		if (*t == '"' || (!memchr(t, ':', in->lines[i].len) &&
				  !starts_with(t, "fio-")))
			continue;	/* JSON keys; no fio line lacks ':' */
		if (strstr(t, ": (groupid=") || strstr(t, ": (g=") ||
		    strstr(t, "read: IOPS=") || strstr(t, "write: IOPS=") ||
		    strstr(t, "trim: IOPS=") ||
		    strstr(t, "Run status group ") ||
		    (strstr(t, "iops=") && strstr(t, ", runt=")) ||
		    (starts_with(t, "fio-") && t[4] >= '0' && t[4] <= '9') ||
		    (fio_skip_direction(&p, 1) >= 0 &&	/* a status line alone */
		     (starts_with(p, " bw=") || starts_with(p, " io="))))
			return 70;
	}
	return 0;
}

static void emit(struct text_state *st, size_t li, const char *op,
		 const char *metric, const char *unit, double v,
		 const struct labels *l)
{
	fio_emit(st->ctx, li, op, metric, unit, v, l);
	if (st->rep)
		st->rep->m_end = st->ctx->rs->n;
}

static void report_release(struct fio_report *r)
{
	free(r->name);
	for (int d = 0; d < FIO_NDIRS; d++)
		labels_release(&r->dl[d]);
}

/*
 * The end of one fio output: reports of the same job in it are clones
 * (numjobs without group_reporting) or clients, not repeated runs, so
 * they get a label telling them apart before fold_repeats sees them.
 */
/* The key of a report's job: its group and name (none: an excerpt). */
static const char *job_key(const struct fio_report *r, struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%ld%c%s", r->group, r->name ? '\x1f' : '\x1e',
		    r->name ? r->name : "");
	return sb->buf;
}

/*
 * Reports of one job in one output are clones (or clients): each gets
 * its number among them, counted over the reports that are not a later
 * report's --status-interval snapshot.  One pass to count, one to number,
 * a hash map between (it compared every report with every other: 5 MB of
 * repeated result lines took 87 s).
 */
static void number_clones(struct text_state *st)
{
	const char *label = st->client_mode ? "client" : "clone";
	struct keymap jobs;
	struct strbuf sb = STRBUF_INIT;
	size_t *total = xcalloc(st->nreps + 1, sizeof(*total));
	size_t *seen = xcalloc(st->nreps + 1, sizeof(*seen));
	size_t *job = xmalloc((st->nreps + 1) * sizeof(*job));

	int created;

	keymap_init(&jobs);
	for (size_t i = 0; i < st->nreps; i++) {
		job[i] = *keymap_put(&jobs, job_key(&st->reps[i], &sb), i,
				     &created);
		if (!st->reps[i].snapshot)
			total[job[i]]++;
	}
	for (size_t i = 0; i < st->nreps; i++) {
		struct fio_report *a = &st->reps[i];
		size_t k = seen[job[i]];

		if (!a->snapshot)
			seen[job[i]]++;
		if (total[job[i]] < 2)
			continue;
		for (size_t m = a->m_first; m < a->m_end; m++)
			labels_setf(&st->ctx->rs->m[m].labels, label, "%zu",
				    k);
	}
	keymap_release(&jobs);
	strbuf_release(&sb);
	free(total);
	free(seen);
	free(job);
}

static void end_output(struct text_state *st)
{
	number_clones(st);
	for (size_t i = 0; i < st->nreps; i++)
		report_release(&st->reps[i]);
	st->nreps = 0;
	st->rep = NULL;
	if (st->json_block)
		fio_json_block_release(&st->json);
	st->json_block = 0;
	st->partial = 0;
	st->skip = 0;
	st->have_dir = 0;
	if (st->nreps || st->summary_seen)
		st->out_hdr_first = st->nhdrs;
	st->summary_seen = 0;
	st->prose_after_bare = 0;
}

/*
 * Is the header's name the job's, maybe with something glued before it
 * ("1 1=====test: (g=0): rw=..." under a script's separator)?  Only
 * after a character no job name is made of there: "rand-seq" is not
 * "seq" glued.
 */
static int header_names(const struct fio_header *h, const char *name,
			int glued)
{
	size_t len = strlen(name);
	const char *at;
	unsigned char before;

	if (h->name_len == len)
		return !strncmp(h->name, name, len);
	if (!glued || h->name_len < len)
		return 0;
	at = h->name + h->name_len - len;
	before = (unsigned char)at[-1];
	return !strncmp(at, name, len) && !isalnum(before) &&
	       !strchr("-_./ ", before);
}

static const struct fio_header *find_header(const struct text_state *st,
					    const char *name, long group)
{
	for (int glued = 0; glued < 2; glued++)
		for (size_t i = st->nhdrs; i-- > 0;) {
			const struct fio_header *h = &st->hdrs[i];

			if (h->group == group && header_names(h, name, glued) &&
			    same_origin(st->hdr_origin[i], st->lines.origin))
				return h;
		}
	return NULL;
}

static struct fio_report *new_report(struct text_state *st, const char *name,
				     size_t len, long group)
{
	struct fio_report *r;

	ALLOC_GROW(st->reps, st->nreps + 1, st->reps_alloc);
	r = &st->reps[st->nreps++];
	memset(r, 0, sizeof(*r));
	r->name = name ? xstrndup(name, len) : NULL;
	r->group = group;
	r->origin = st->lines.origin;
	r->m_first = r->m_end = st->ctx->rs->n;
	st->rep = r;
	st->skip = 0;
	st->have_dir = 0;
	return r;
}

/* The labels every direction of the report starts from. */
static void base_labels(struct text_state *st, struct fio_report *r,
			uint64_t jobs, struct labels *l)
{
	labels_copy(l, &st->cmd);
	if (r->name && !strcmp(r->name, "All clients"))
		labels_set(l, "host", "all");
	else if (r->name)
		labels_set(l, "job", r->name);
	if (r->group >= 0)
		labels_setf(l, "group", "%ld", r->group);
	if (jobs)
		labels_setf(l, "numjobs", "%llu", (unsigned long long)jobs);
	if (st->partial)
		labels_set(l, "partial", "1");
}

/*
 * "NAME: (groupid=G, jobs=J): err= 0: pid=N" of report line li, with
 * its source, into key; 0 when it names no process (or pid 0).
 */
static int report_key(const struct input *in, size_t li, struct strbuf *key)
{
	const char *t = in->lines[li].text, *origin, *pid, *p;
	uint64_t n;

	/* (": pid=": "groupid=" holds "pid=" too) */
	pid = strstr(t, ": (groupid=") ? strstr(t, ": pid=") : NULL;
	p = pid ? pid + 6 : NULL;
	if (!p || scan_u64(&p, &n) || !n)
		return 0;
	origin = input_line_origin(in, &in->lines[li]);
	strbuf_reset(key);
	strbuf_adds(key, origin ? origin : "");
	strbuf_addch(key, '\x1f');
	strbuf_add(key, t, (size_t)(p - t));
	return 1;
}

/* Does t hold a direction line's start ("write: IOPS=", 2.x "write :
 * io="), after whatever prefix a log gave it? */
static int has_direction_line(const char *t)
{
	for (const char *s = t; *s; s++) {
		const char *p = s;

		if (s > t && s[-1] != ' ' && s[-1] != '\t')
			continue;	/* a word's start only */
		if (fio_skip_direction(&p, 0) < 0)
			continue;
		while (*p == ' ')
			p++;
		if (*p == ':')
			return 1;
	}
	return 0;
}

/*
 * Does report line li begin a report: is its next line (blank lines and
 * the job's "Description  : [...]" aside) a direction line?  A document
 * that explains fio's output quotes the report line again alone, after
 * the whole output: that is no later report, and the output above it
 * no snapshot.
 */
static int report_follows(const struct input *in, size_t li)
{
	for (size_t i = li + 1; i < in->nlines; i++) {
		const char *t = in->lines[i].text;

		if (!in->lines[i].len || starts_with(t, "Description  : ["))
			continue;
		return has_direction_line(t);
	}
	return 0;
}

/*
 * fio --status-interval=N prints the whole report every N seconds, the
 * same process's (pid) each time: cumulative snapshots, of which the
 * last is the result.  Finds, per report, the last line of its kind
 * that begins a report.
 */
static void find_last_reports(struct text_state *st)
{
	const struct input *in = st->ctx->in;
	int created;

	if (!input_contains(in, ": (groupid="))
		return;
	for (size_t i = 0; i < in->nlines; i++) {
		if (!report_key(in, i, &st->report_key) ||
		    !report_follows(in, i))
			continue;
		if (!st->last_report) {
			st->last_report = xmalloc(sizeof(*st->last_report));
			keymap_init(st->last_report);
		}
		*keymap_put(st->last_report, st->report_key.buf, i,
			    &created) = i;
	}
}

/* Is report line li a --status-interval snapshot (see above)? */
static int is_snapshot(struct text_state *st, size_t li)
{
	const size_t *last;

	if (!st->last_report || !report_key(st->ctx->in, li, &st->report_key))
		return 0;
	last = keymap_get(st->last_report, st->report_key.buf);
	return last && *last > li;
}

/* The date after "pid=N: " ("Tue Dec  1 03:49:58 2026"), or NULL. */
static const char *report_date(const char *p)
{
	const char *pid = strstr(p, "pid="), *colon;

	colon = pid ? strstr(pid, ": ") : NULL;
	return colon ? skip_spaces(colon + 1) : NULL;
}

/*
 * Is report r (line li) the normal copy of a job of the fio JSON
 * document printed right above its output (--output-format=normal,json,
 * see fio-common.h)?  Then that job's results are the JSON's.
 */
static int json_copy(struct text_state *st, size_t li, struct fio_report *r,
		     const char *date)
{
	if (st->nreps == 1)	/* the output's first report: found once */
		st->json_block = fio_json_block_above(st->ctx, li, &st->json);
	r->json_copy = r->name && st->json_block &&
		       fio_json_block_has_job(&st->json, r->name,
					      strlen(r->name), r->group, date);
	return r->json_copy;
}

/* "NAME: (groupid=G, jobs=J): err= E: pid=..." */
static int report_line(struct text_state *st, size_t li, const char *t)
{
	const char *at = strstr(t, ": (groupid="), *p, *end;
	uint64_t g, jobs = 0, err = 0;
	struct fio_report *r;
	struct labels base;

	if (!at)
		return 0;
	p = at + 11;
	if (scan_u64(&p, &g))
		return 0;
	if (skip_prefix(&p, ", jobs=") && scan_u64(&p, &jobs))
		return 0;
	if (skip_prefix(&p, "): err=")) {
		p = skip_spaces(p);
		if (scan_u64(&p, &err))
			return 0;
	}
	end = at;
	while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
		end--;	/* "mixed : (groupid=0" as quoted in a README */
	r = new_report(st, t, (size_t)(end - t), (long)g);
	base_labels(st, r, jobs, &base);
	for (int d = 0; d < FIO_NDIRS; d++)
		labels_copy(&r->dl[d], &base);
	labels_release(&base);
	/* a copy first: the JSON has said any error of it already */
	if (json_copy(st, li, r, report_date(p))) {
		st->skip = 1;	/* claimed: the JSON's results stand */
		r->failed = err != 0;
	} else if (err) {
		parse_error(st->ctx, li,
			    "fio job '%s' failed with error %llu: no result "
			    "taken from its report", r->name,
			    (unsigned long long)err);
		st->skip = 1;
		r->failed = 1;
	} else if (is_snapshot(st, li)) {
		st->skip = 1;	/* claimed: the last report is the result */
		r->snapshot = 1;
	}
	return 1;
}

/*
 * The job header of the current output when it has exactly one: an
 * excerpt without its report line ("write: IOPS=..." alone, a status
 * line alone) is that job's.
 */
const struct fio_header *fio_text_sole_header(const struct text_state *st)
{
	const struct fio_header *h = NULL;

	for (size_t i = st->out_hdr_first; i < st->nhdrs; i++) {
		if (!same_origin(st->hdr_origin[i], st->lines.origin))
			continue;
		if (h && (h->group != st->hdrs[i].group ||
			  h->name_len != st->hdrs[i].name_len ||
			  strncmp(h->name, st->hdrs[i].name, h->name_len)))
			return NULL;
		h = &st->hdrs[i];
	}
	return h;
}

/* Starts direction d of the current report (or of an anonymous one). */
void fio_text_begin_dir(struct text_state *st, enum fio_dir d)
{
	struct fio_report *r = st->rep;
	const struct fio_header *h;

	if (!r) {
		struct labels base;

		r = new_report(st, NULL, 0, -1);
		base_labels(st, r, 0, &base);
		for (int k = 0; k < FIO_NDIRS; k++)
			labels_copy(&r->dl[k], &base);
		labels_release(&base);
	}
	h = r->name ? find_header(st, r->name, r->group) : fio_text_sole_header(st);
	if (h && !r->op[d])
		fio_header_labels(h, d, &r->dl[d]);
	else if (!h && !r->op[d])
		for (size_t i = 0; i < st->cmd_job.n; i++)
			labels_set(&r->dl[d], st->cmd_job.v[i].key,
				   st->cmd_job.v[i].value);
	r->op[d] = fio_op(h ? h->rw : labels_get(&st->cmd_job, "rw"), d);
	st->dir = d;
	st->have_dir = 1;
}

static void emit_main(struct text_state *st, size_t li, double bw,
		      double iops, int with_io, double bytes,
		      double runtime_ms)
{
	const struct labels *l = &st->rep->dl[st->dir];
	const char *op = st->rep->op[st->dir];

	emit(st, li, op, "bw", UNIT_BW, bw, l);
	emit(st, li, op, "iops", UNIT_IOPS, iops, l);
	if (!with_io)
		return;
	emit(st, li, op, "bytes", UNIT_BYTES, bytes, l);
	emit(st, li, op, "runtime", UNIT_SECONDS, runtime_ms / 1000, l);
}

/* " (54.9MB/s)(1639MiB/31300msec)" of a 3.x line: the io and runtime. */
static int scan_io_3x(const char *p, double *bytes, double *ms)
{
	double alt;

	p = skip_spaces(p);
	if (skip_prefix(&p, "(") && (fio_text_scan_bytes(&p, 0, &alt) ||
				     !skip_prefix(&p, ")")))
		return -1;
	if (!skip_prefix(&p, "(") || fio_text_scan_bytes(&p, 0, bytes) ||
	    !skip_prefix(&p, "/") || fio_text_scan_plain(&p, ms) ||
	    !skip_prefix(&p, "msec)"))
		return -1;
	return 0;
}

/*
 * 3.x "IOPS=13.4k, BW=52.3MiB/s (54.9MB/s)(1639MiB/31300msec)".  A
 * poster may shorten it after the rate ("read: IOPS=549k, BW=2146MiB/s"):
 * IOPS and BW are complete there (the count ends at fio's ", ", the
 * rate at its "/s") and are taken; a line cut inside a figure gives
 * the complete figures before it and an error.
 */
static int main_line_3x(struct text_state *st, size_t li, const char *p)
{
	double iops, bw, bytes, ms;

	if (!skip_prefix(&p, "IOPS=") || fio_text_scan_count(&p, &iops) ||
	    !skip_prefix(&p, ", BW=") || fio_text_scan_bytes(&p, 0, &bw))
		return -1;
	if (!*skip_spaces(p) && !strncmp(p - 2, "/s", 2)) {
		emit_main(st, li, bw, iops, 0, 0, 0);	/* shortened */
		return 0;
	}
	if (scan_io_3x(p, &bytes, &ms)) {
		if (*skip_spaces(p) == '(')	/* the rate ended: complete */
			emit_main(st, li, bw, iops, 0, 0, 0);
		else
			emit(st, li, st->rep->op[st->dir], "iops", UNIT_IOPS,
			     iops, &st->rep->dl[st->dir]);
		return -1;
	}
	emit_main(st, li, bw, iops, 1, bytes, ms);
	return 0;
}

/* The number after "key=" (spaces allowed), from p on. */
int fio_text_find_value(const char *p, const char *key, const char **at)
{
	const char *k = strstr(p, key);

	if (!k)
		return -1;
	*at = skip_spaces(k + strlen(key));
	return 0;
}

/* 2.x "io=32708KB, bw=557417B/s, iops=136, runt= 60086msec". */
static int main_line_2x(struct text_state *st, size_t li, const char *p)
{
	const char *v;
	double bytes, bw, iops, ms;

	if (fio_text_find_value(p, "io=", &v) || fio_text_scan_bytes(&v, 1, &bytes) ||
	    fio_text_find_value(p, "bw=", &v) || fio_text_scan_bytes(&v, 1, &bw) ||
	    fio_text_find_value(p, "iops=", &v) || fio_text_scan_count(&v, &iops) ||
	    fio_text_find_value(p, "runt=", &v) || fio_text_scan_plain(&v, &ms) ||
	    !starts_with(skip_spaces(v), "msec"))
		return -1;
	emit_main(st, li, bw, iops, 1, bytes, ms);
	return 0;
}

/*
 * Is result line li (text t), standing alone, one seen before with prose
 * in between ("The important figure is the IOPS:" over the "read:" line
 * again)?  Then it is that line quoted, not a run: noted, claimed, not
 * read.  Every result line is remembered; a line inside a report (under
 * its "(groupid=" line) is never a quote.
 */
int fio_text_quoted_again(struct text_state *st, size_t li, const char *t,
			int alone)
{
	char *key = xstrfmt("%s\037%s", st->lines.origin ? st->lines.origin : "", t);
	size_t *last, orig;
	int created;

	if (!st->result_lines) {
		st->result_lines = xmalloc(sizeof(*st->result_lines));
		keymap_init(st->result_lines);
	}
	last = keymap_put(st->result_lines, key, li, &created);
	free(key);
	orig = *last;
	*last = li;	/* from the last one on: grep output of 100,000
			   equal lines is not walked 100,000 times over */
	if (created || !alone || !parse_prose_between(st->ctx, orig, li))
		return 0;
	parse_claim(st->ctx, li);
	parse_note(st->ctx, li, "the same fio line as line %u (quoted or "
		   "pasted again): not counted twice",
		   st->ctx->in->lines[orig].lineno);
	return 1;
}

/* "read: ...", "write : ...", "trim: ...", "mixed: ..." */
static int dir_line(struct text_state *st, size_t li, const char *t)
{
	const char *p = t;
	int d = fio_skip_direction(&p, 0);

	if (d < 0)
		return 0;
	p = skip_spaces(p);
	if (!skip_prefix(&p, ":"))
		return 0;
	p = skip_spaces(p);
	if (!starts_with(p, "IOPS=") && !starts_with(p, "io="))
		return 0;
	parse_claim(st->ctx, li);
	if (st->skip)
		return 1;
	/*
	 * The same direction again, or one fio prints before the last
	 * (read, write, trim: "read" after "write" in grep output): the
	 * next report.
	 */
	if (st->rep && (st->rep->op[d] ||
			(st->have_dir && st->dir < FIO_SYNC &&
			 (enum fio_dir)d < st->dir)))
		st->rep = NULL;
	if (!st->rep && st->prose_after_bare)
		end_output(st);	/* another excerpt, not a clone */
	if (fio_text_quoted_again(st, li, t, !st->rep))
		return 1;
	fio_text_begin_dir(st, (enum fio_dir)d);
	if ((starts_with(p, "IOPS=") ? main_line_3x(st, li, p) :
	     main_line_2x(st, li, p)))
		parse_error(st->ctx, li, "cannot read this fio %s line (cut "
			    "short, or a form storan does not know)",
			    fio_dir_name((enum fio_dir)d));
	return 1;
}

/* "(usec)" at p -> seconds per unit; p advanced past ")". */
static double paren_unit(const char **p)
{
	const char *s = skip_spaces(*p), *close;
	double f;

	if (*s != '(' || !(close = strchr(s, ')')))
		return 0;
	f = fio_lat_unit(s + 1, (size_t)(close - s - 1));
	*p = close + 1;
	return f;
}

/* "min=3 , max=28301K, avg=3815334.86, stdev=4531880.45": the four
 * figures times scale, as prefix.min .max .mean .stddev. */
static int emit_stats(struct text_state *st, size_t li, const char *p,
		      const char *prefix, double scale, const char *unit,
		      enum fio_dir d)
{
	static const char *const keys[] = { "min=", "max=", "avg=", "stdev=" };
	static const char *const names[] = { "min", "max", "mean", "stddev" };
	double v[4];

	for (int k = 0; k < 4; k++) {
		const char *at;

		if (fio_text_find_value(p, keys[k], &at) || fio_text_scan_count(&at, &v[k]))
			return -1;
	}
	for (int k = 0; k < 4; k++) {
		strbuf_reset(&st->metric);
		strbuf_addf(&st->metric, "%s.%s", prefix, names[k]);
		emit(st, li, st->rep->op[d], st->metric.buf, unit,
		     strcmp(unit, UNIT_SECONDS) ? v[k] * scale :
		     fio_seconds(v[k], scale), &st->rep->dl[d]);
	}
	return 0;
}

/*
 * Where another fio stats line starts inside t, after other text, or
 * NULL.  A mail client that reflowed a report runs fio's lines together
 * ("...; 0 zone" / "resets slat (usec): min=6, ...", "stdev=4975.82,
 * samples=450 iops        : min=   39, ..."): what follows such a start
 * belongs to another line and is not read as this one's.
 */
static const char *stats_inside(const char *t)
{
	static const char *const starts[] = {
		"slat (", "clat (", "lat (", "bw (", "iops ", NULL
	};

	for (size_t i = 0; starts[i]; i++) {
		size_t n = strlen(starts[i]);

		for (const char *at = strstr(t + 1, starts[i]); at;
		     at = strstr(at + 1, starts[i])) {
			const char *p = at + n;

			if (at[-1] != ' ' ||
			    (starts[i][n - 1] == '(' && !(p = strchr(p, ')'))))
				continue;
			p = skip_spaces(p + (starts[i][n - 1] == '('));
			if (*p == ':' && starts_with(skip_spaces(p + 1), "min="))
				return at;
		}
	}
	return NULL;
}

/* An error for the stats line run into line li (see stats_inside()). */
static void run_together(struct text_state *st, size_t li, const char *at)
{
	parse_error(st->ctx, li, "fio lines run together (reflowed?): its "
		    "%.*s line not read", (int)strcspn(at, " ("), at);
}

/* slat/clat/lat/sync "(unit): min=..." or the "lat (usec)   : 250=" map. */
static int latency_line(struct text_state *st, size_t li, const char *t)
{
	static const char *const words[] = { "slat", "clat", "lat", "sync" };
	const char *p = t, *prefix = NULL;
	double unit;
	int pct = 0;

	for (size_t i = 0; i < 4 && !prefix; i++) {
		p = t;
		if (skip_prefix(&p, words[i]) && (*p == ' ' || *p == '('))
			prefix = words[i];
	}
	if (!prefix)
		return 0;
	p = skip_spaces(p);
	if (skip_prefix(&p, "percentiles"))
		pct = 1;
	unit = paren_unit(&p);
	if (!(unit > 0))
		return 0;
	p = skip_spaces(p);
	if (!skip_prefix(&p, ":"))
		return 0;
	parse_claim(st->ctx, li);
	p = skip_spaces(p);
	if (!strcmp(prefix, "sync")) {
		if (!st->skip && st->rep)
			fio_text_begin_dir(st, FIO_SYNC);
		prefix = "lat";
	}
	if (pct && st->skip) {	/* its rows are claimed, not read */
		st->pct_prefix = prefix;
		return 1;
	}
	if (st->skip || !st->rep || !st->have_dir)
		return 1;
	if (pct) {
		st->pct_prefix = prefix;
		st->pct_unit = unit;
		st->pct_dir = st->dir;
		return 1;
	}
	if (!starts_with(p, "min="))
		return 1;	/* the latency distribution: not a result */
	if (emit_stats(st, li, p, prefix, unit, UNIT_SECONDS, st->dir))
		parse_error(st->ctx, li, "unreadable fio %s line", prefix);
	else if ((p = stats_inside(t)))
		run_together(st, li, p);
	return 1;
}

/* "|  1.00th=[  302],  5.00th=[  326], ..." */
static void percentile_line(struct text_state *st, size_t li, const char *p)
{
	const struct labels *l = &st->rep->dl[st->pct_dir];
	const char *op = st->rep->op[st->pct_dir];

	p = skip_spaces(p + 1);
	while (*p) {
		const char *num = p, *th = strstr(p, "th=[");
		double v;

		if (!th || fio_pct_metric(&st->metric, st->pct_prefix, num,
					  (size_t)(th - num))) {
			parse_error(st->ctx, li, "unreadable fio percentile");
			return;
		}
		p = skip_spaces(th + 4);
		if (fio_text_scan_count(&p, &v) || !skip_prefix(&p, "]")) {
			parse_error(st->ctx, li, "unreadable fio percentile");
			return;
		}
		emit(st, li, op, st->metric.buf, UNIT_SECONDS,
		     fio_seconds(v, st->pct_unit), l);
		skip_prefix(&p, ",");
		p = skip_spaces(p);
	}
}

/* "bw (  KiB/s): min=..." and "iops        : min=..." */
static int sample_line(struct text_state *st, size_t li, const char *t)
{
	const char *p = t, *prefix, *unit = UNIT_IOPS;
	double f = 1;

	if (skip_prefix(&p, "bw") && (*p == ' ' || *p == '(')) {
		char u[16];
		size_t n = 0;

		prefix = "bw";
		unit = UNIT_BW;
		p = skip_spaces(p);
		if (!skip_prefix(&p, "("))
			return 0;
		for (; *p && *p != ')'; p++)
			if (*p != ' ' && n < sizeof(u) - 1)
				u[n++] = *p;
		u[n] = '\0';
		if (*p++ != ')')
			return 0;
		if (strchr("KMGT", u[0]) || (u[0] == 'k' && u[1] == 'i'))
			f = prefix_factor(u[0], 1);
		else if (u[0] == 'k')
			f = 1000;	/* 3.x with kb_base=1000 */
	} else if (skip_prefix(&p, "iops") && (*p == ' ' || *p == ':')) {
		prefix = "iops";
	} else {
		return 0;
	}
	p = skip_spaces(p);
	if (!skip_prefix(&p, ":") || !starts_with(skip_spaces(p), "min="))
		return 0;	/* "iops : samples ..." explained in prose */
	parse_claim(st->ctx, li);
	if (st->skip || !st->rep || !st->have_dir)
		return 1;
	if (emit_stats(st, li, p, prefix, f, unit, st->dir))
		parse_error(st->ctx, li, "unreadable fio %s line", prefix);
	else if ((p = stats_inside(t)))
		run_together(st, li, p);
	return 1;
}

/* The op of a whole report: its direction's, or "run" when mixed. */
static const char *report_op(const struct fio_report *r, struct labels *l)
{
	const char *op = NULL;
	int first = 1;

	for (int d = 0; d < FIO_NDIRS; d++) {
		if (!r->op[d] || d == FIO_SYNC)	/* fsync is part of a write */
			continue;
		if (first)
			labels_copy(l, &r->dl[d]);
		else
			fio_labels_intersect(l, &r->dl[d]);
		op = first || !strcmp(op, r->op[d]) ? r->op[d] : "run";
		first = 0;
	}
	if (first)
		labels_copy(l, &r->dl[FIO_READ]);
	return op ? op : "run";
}

/* "cpu          : usr=0.27%, sys=0.18%, ctx=12072, majf=0, minf=21" */
static void cpu_line(struct text_state *st, size_t li, const char *p)
{
	const char *u, *s;
	double usr, sys;
	struct labels l;
	const char *op;

	if (st->skip || !st->rep)
		return;
	if (fio_text_find_value(p, "usr=", &u) || fio_text_scan_plain(&u, &usr) ||
	    fio_text_find_value(p, "sys=", &s) || fio_text_scan_plain(&s, &sys)) {
		parse_error(st->ctx, li, "unreadable fio cpu line");
		return;
	}
	op = report_op(st->rep, &l);
	emit(st, li, op, "cpu.usr", UNIT_PERCENT, usr, &l);
	emit(st, li, op, "cpu.sys", UNIT_PERCENT, sys, &l);
	labels_release(&l);
}

static const char *const job_keys[] = {
	"rw", "bs", "ioengine", "iodepth", NULL
};

static void forget_command(struct text_state *st)
{
	labels_release(&st->cmd);
	labels_release(&st->cmd_job);
	labels_init(&st->cmd);
	labels_init(&st->cmd_job);
	st->cmd_used = 0;
}

/* Options of an echoed "fio --direct=1 --rw=randrw ..." command. */
static int command_line(struct text_state *st, const char *t)
{
	/*
	 * Commands listed one after another, none with fio's output below
	 * it: the text does not say which one ran the output that follows.
	 */
	int listed = st->cmd.n || st->cmd_job.n;
	struct labels l;

	labels_init(&l);
	if (fio_command_labels(t, &l)) {
		labels_release(&l);
		return 0;
	}
	/*
	 * The job header says these better (and per direction); a report
	 * quoted without its header takes them from the command line.
	 */
	labels_release(&st->cmd_job);
	labels_init(&st->cmd_job);
	for (size_t i = 0; job_keys[i]; i++) {
		const char *v = labels_get(&l, job_keys[i]);

		if (v)
			labels_set(&st->cmd_job, job_keys[i], v);
		labels_remove(&l, job_keys[i]);
	}
	labels_remove(&l, "numjobs");
	labels_release(&st->cmd);
	st->cmd = l;
	/* commands listed one after another: which one printed the
	 * output after them cannot be told, the last no more than others */
	if ((listed && !st->cmd_used) || st->cmds_listed) {
		forget_command(st);
		st->cmds_listed = 1;
	}
	st->cmd_used = 0;
	return 1;
}

/* Is the output's last report the "All clients" sum, its lines read? */
static int last_is_all_clients(const struct text_state *st)
{
	const struct fio_report *r = st->nreps ? &st->reps[st->nreps - 1] :
					       NULL;

	return r && r->name && !strcmp(r->name, "All clients") &&
	       r->m_end > r->m_first;
}

/*
 * A line of prose (neither fio's nor a command).  After an output's
 * status or disk lines fio's output is over: what follows is another
 * run (or the same one quoted again), not a clone of it, and the echoed
 * command is not that run's.  Between direction lines quoted alone it
 * may still be one report split by comments (bw and cpu lines follow):
 * only a new direction line after it starts another output.
 */
static void prose_line(struct text_state *st, const char *t)
{
	if (fio_terse_start(t))
		return;		/* a terse line: fio's, fio-terse reads it */
	if (st->summary_seen || last_is_all_clients(st)) {
		/* fio prints one "All clients" sum per group and run: prose
		 * after it starts another run, not another client */
		end_output(st);
		forget_command(st);
	} else if (st->nreps && !st->reps[st->nreps - 1].name) {
		st->prose_after_bare = 1;	/* see dir_line() */
	}
}

static int is_version_line(const char *t)
{
	return starts_with(t, "fio-") && t[4] >= '0' && t[4] <= '9' &&
	       !strchr(t, ' ') && !strchr(t, ';');
}

static void header_line(struct text_state *st, const char *t)
{
	struct fio_header h;

	if (fio_header_parse(t, &h))
		return;
	if (st->nreps)
		end_output(st);
	ALLOC_GROW(st->hdrs, st->nhdrs + 1, st->hdrs_alloc);
	st->hdr_origin = xrealloc(st->hdr_origin,
				  st->hdrs_alloc * sizeof(*st->hdr_origin));
	st->hdr_origin[st->nhdrs] = st->lines.origin;
	st->hdrs[st->nhdrs++] = h;
}

/* Lines that are fio's but hold no result: claimed, nothing else. */
static int noise_line(struct text_state *st, size_t li, const char *t)
{
	if (starts_with(t, "fio: pid=") && strstr(t, ", err=")) {
		parse_error(st->ctx, li, "fio reports a failed job: %s", t + 5);
		return 1;
	}
	if (starts_with(t, "fio: terminating on signal")) {
		st->partial = 1;
		return 1;
	}
	if (starts_with(t, "hostname=") && strstr(t, ", fio=")) {
		st->client_mode = 1;
		return 1;
	}
	return starts_with(t, "fio: ") || starts_with(t, "Starting ") ||
	       !strcmp(t, "...") || strstr(t, ": Laying out IO file") ||
	       starts_with(t, "IO depths") || starts_with(t, "submit") ||
	       starts_with(t, "complete") || starts_with(t, "issued") ||
	       starts_with(t, "latency") ||
	       /* steady state (ss=): whether it was reached, not a run's
		* result (the run's own lines give bw and iops) */
	       (starts_with(t, "steadystate") && strstr(t, "attained=")) ||
	       starts_with(t, "fsync/fdatasync/sync_file_range:");
}

static void text_line(struct text_state *st, size_t li, const char *t);

/* Status lines ("Jobs: ... [eta 00m:00s]"), maybe with text glued on. */
static int status_noise(struct text_state *st, size_t li, const char *t)
{
	const char *eta = strstr(t, "[eta ");
	const char *close;

	if (!eta && !starts_with(t, "Jobs:"))
		return 0;
	parse_claim(st->ctx, li);
	while (eta) {	/* the last "[eta" of glued updates */
		const char *next = strstr(eta + 1, "[eta ");

		if (!next)
			break;
		eta = next;
	}
	if (eta && (close = strchr(eta, ']')) && close[1] &&
	    !starts_with(close + 1, "Jobs:"))
		text_line(st, li, skip_spaces(close + 1));
	return 1;
}

/*
 * A whole report on one line: its job line, a direction line and its
 * latencies run together (a Windows console copy that lost its line
 * breaks).  Which figure belongs to what cannot be told: an error, not
 * the first figures picked out of its middle.
 */
static int flattened_report(struct text_state *st, size_t li)
{
	/* the raw line: the reader's prefix stripping may start t at its
	 * direction line */
	const char *t = st->ctx->in->lines[li].text;
	const char *job = strstr(t, ": (groupid="), *dir;

	if (!job || !((dir = strstr(job, "read: IOPS=")) ||
		      (dir = strstr(job, "write: IOPS="))) ||
	    !strstr(dir, "lat ("))
		return 0;
	parse_claim(st->ctx, li);
	parse_error(st->ctx, li, "a whole fio report on one line (its line "
		    "breaks lost?): not read");
	return 1;
}

static void text_line(struct text_state *st, size_t li, const char *t)
{
	const char *p = t;

	if (flattened_report(st, li))
		return;
	if (st->pct_prefix) {
		if (*t == '|') {
			parse_claim(st->ctx, li);
			if (!st->skip)
				percentile_line(st, li, t);
			return;
		}
		st->pct_prefix = NULL;
	} else if (*t == '|' && strstr(t, "th=[")) {
		/* its "clat percentiles (usec):" line is not right above:
		 * without it neither the latency nor the unit is known */
		parse_claim(st->ctx, li);
		if (!st->orphan_pct)
			parse_error(st->ctx, li, "fio percentiles without "
				    "their 'percentiles (unit):' line just "
				    "above: not taken");
		st->orphan_pct = 1;
		return;
	}
	st->orphan_pct = 0;
	if (st->in_status && fio_text_status_line(st, li, t))
		return;
	st->in_status = 0;
	if (st->in_disk && fio_text_disk_line(st, li, t))
		return;
	st->in_disk = 0;
	if (status_noise(st, li, t) || fio_text_lone_status_line(st, li, t))
		return;
	if (is_version_line(t)) {
		parse_claim(st->ctx, li);
		end_output(st);
		fio_set_version(st->ctx, t, strlen(t));
		return;
	}
	if (strstr(t, ": (g=") && strstr(t, "): rw=")) {
		parse_claim(st->ctx, li);
		header_line(st, t);
		return;
	}
	if (report_line(st, li, t) || dir_line(st, li, t) ||
	    latency_line(st, li, t) || sample_line(st, li, t)) {
		parse_claim(st->ctx, li);
		return;
	}
	if (skip_prefix(&p, "cpu")) {
		p = skip_spaces(p);
		if (*p == ':') {
			parse_claim(st->ctx, li);
			cpu_line(st, li, p);
			return;
		}
	}
	if (skip_prefix(&p, "Run status group ")) {
		uint64_t g;

		if (!scan_u64(&p, &g)) {
			parse_claim(st->ctx, li);
			st->in_status = st->summary_seen = 1;
			st->status_group = (long)g;
			st->rep = NULL;
			return;
		}
	}
	if (starts_with(t, "Disk stats (read/write):")) {
		parse_claim(st->ctx, li);
		st->in_disk = st->summary_seen = 1;
		st->rep = NULL;
		return;
	}
	if (noise_line(st, li, t)) {
		parse_claim(st->ctx, li);
		return;
	}
	if (st->rep && !st->skip && (p = stats_inside(t))) {
		parse_claim(st->ctx, li);
		run_together(st, li, p);
	} else if (!command_line(st, t)) {
		prose_line(st, t);
	} else if (st->nreps) {
		end_output(st);
	}
}

static int fio_text_parse(struct parse_ctx *ctx)
{
	struct text_state st;
	size_t before = ctx->rs->n;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	labels_init(&st.cmd);
	labels_init(&st.cmd_job);
	strbuf_init(&st.metric);
	fio_text_lines_init(&st.lines, ctx);
	strbuf_init(&st.report_key);
	find_last_reports(&st);
	for (size_t i = 0; i < ctx->in->nlines; i++)
		if (starts_with(ctx->in->lines[i].text, "All clients: (") ||
		    (starts_with(ctx->in->lines[i].text, "hostname=") &&
		     strstr(ctx->in->lines[i].text, ", fio=")))
			st.client_mode = 1;
	for (size_t i = 0; i < ctx->in->nlines; i++) {
		const struct input_line *l = &ctx->in->lines[i];
		const char *t;
		size_t last;

		if (!same_origin(input_line_origin(ctx->in, l), st.lines.origin)) {
			end_output(&st);
			st.lines.origin = input_line_origin(ctx->in, l);
		}
		if (ctx->claimed[i])
			continue;	/* another fio parser's (JSON) */
		t = fio_text_lines_join(&st.lines, i, &last);
		if (*t)
			text_line(&st, i, t);
		if (ctx->claimed[i] && (st.cmd.n || st.cmd_job.n))
			st.cmd_used = 1;
		if (ctx->claimed[i])
			st.cmds_listed = 0;	/* an output ends the list */
		for (; i < last; i++)
			if (ctx->claimed[i])
				parse_claim(ctx, i + 1);
	}
	end_output(&st);
	for (size_t i = 0; i < st.nhdrs; i++)
		fio_header_release(&st.hdrs[i]);
	free(st.hdrs);
	free(st.hdr_origin);
	free(st.reps);
	labels_release(&st.cmd);
	labels_release(&st.cmd_job);
	strbuf_release(&st.metric);
	fio_text_lines_release(&st.lines);
	strbuf_release(&st.report_key);
	if (st.last_report) {
		keymap_release(st.last_report);
		free(st.last_report);
	}
	if (st.result_lines) {
		keymap_release(st.result_lines);
		free(st.result_lines);
	}
	return (int)(ctx->rs->n - before);
}

static const char *const fio_text_programs[] = { "fio", NULL };

const struct parser parser_fio_text = {
	.name = "fio",
	.tool = "fio",
	.reads = "fio's normal (human) output, 2.x and 3.x",
	.programs = fio_text_programs,
	.detect = fio_text_detect,
	.parse = fio_text_parse,
};
