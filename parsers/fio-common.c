/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE	/* strptime, timegm */
/*
 * Helpers shared by the fio parsers; see fio-common.h.  The histogram
 * mapping and the percentile rule follow fio's stat.c (plat_idx_to_val,
 * calc_clat_percentiles), read in fio's source, not copied.
 */
#include "fio-common.h"
#include "../core/numscan.h"
#include "../core/quantile.h"
#include "../core/units.h"
#include "../core/xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *fio_dir_name(enum fio_dir d)
{
	static const char *const names[FIO_NDIRS] = {
		"read", "write", "trim", "sync", "mixed"
	};

	return d < FIO_NDIRS ? names[d] : "read";
}

int fio_skip_direction(const char **p, int upper)
{
	static const enum fio_dir dirs[] = {
		FIO_READ, FIO_WRITE, FIO_TRIM, FIO_MIXED
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		const char *w = fio_dir_name(dirs[i]), *s = *p;

		for (; *w; w++, s++)
			if (*s != (upper ? toupper((unsigned char)*w) : *w))
				break;
		if (*w || (upper && *s++ != ':'))
			continue;
		*p = s;
		return (int)dirs[i];
	}
	return -1;
}

/* Does rw= pattern (without "rand") include direction d? */
static int pattern_has(const char *pat, size_t len, enum fio_dir d)
{
#define IS(s) (len == strlen(s) && !strncmp(pat, s, len))
	switch (d) {
	case FIO_READ:
		return IS("read") || IS("rw") || IS("readwrite");
	case FIO_WRITE:
		return IS("write") || IS("rw") || IS("readwrite") ||
		       IS("trimwrite");
	case FIO_TRIM:
		return IS("trim") || IS("trimwrite");
	default:
		return 0;
	}
#undef IS
}

const char *fio_op(const char *rw, enum fio_dir d)
{
	static const char *const rand_ops[] = {
		"randread", "randwrite", "randtrim"
	};
	size_t len;
	int rnd = 0;

	if (d == FIO_SYNC || d == FIO_MIXED || !rw)
		return fio_dir_name(d);
	if (starts_with(rw, "rand")) {
		rw += 4;
		rnd = 1;
	}
	len = strcspn(rw, ":");
	if (rnd && pattern_has(rw, len, d))
		return rand_ops[d];
	return fio_dir_name(d);
}

int fio_pct_metric(struct strbuf *out, const char *prefix, const char *s,
		   size_t len)
{
	size_t intd = 0, end;
	const char *dot;

	while (intd < len && s[intd] >= '0' && s[intd] <= '9')
		intd++;
	if (!intd)
		return -1;
	end = len;
	dot = intd < len && s[intd] == '.' ? s + intd : NULL;
	if (!dot && intd != len)
		return -1;
	for (size_t i = intd + 1; dot && i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	if (dot) {
		while (end > intd + 1 && s[end - 1] == '0')
			end--;
		if (end == intd + 1)
			end = intd;	/* "50." -> "50" */
	}
	strbuf_reset(out);	/* "clat.p99.9", without printf */
	strbuf_adds(out, prefix);
	strbuf_adds(out, ".p");
	strbuf_add(out, s, end);
	return 0;
}

int fio_parse_size(const char *s, size_t len, double *bytes)
{
	char buf[64];
	const char *p = buf;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return scan_size(&p, SIZE_PETA | SIZE_LONE_I | SIZE_CAP_I |
			 SIZE_LOWER_B, bytes) || *p ? -1 : 0;
}

int fio_scan_count(const char **p, double *out)
{
	double v;
	const char *s = *p;

	if (scan_double(&s, SCAN_NO_EXPONENT, &v))
		return -1;
	if (*s && strchr("kKMGTP", *s)) {
		v *= prefix_factor(*s, 0);
		s++;
	}
	*out = v;
	*p = s;
	return 0;
}

double fio_seconds(double v, double unit)
{
	if (unit < 1)
		return v / nearbyint(1 / unit);
	return v * unit;
}

double fio_lat_unit(const char *s, size_t len)
{
	if (len == 4 && !strncmp(s, "nsec", 4))
		return 1e-9;
	if (len == 4 && !strncmp(s, "usec", 4))
		return 1e-6;
	if (len == 4 && !strncmp(s, "msec", 4))
		return 1e-3;
	if (len == 3 && !strncmp(s, "sec", 3))
		return 1;
	return 0;
}

const char *fio_terse_start(const char *t)
{
	const char *p;

	if (t[0] >= '2' && t[0] <= '5' && t[1] == ';')
		return t;
	p = strstr(t, ";fio-");
	if (p && p > t && p[-1] >= '3' && p[-1] <= '5')
		return p - 1;
	return NULL;
}

void fio_note_no_runtime(struct parse_ctx *ctx, size_t li, const char *op,
			 const struct labels *l)
{
	const char *job = labels_get(l, "job");

	parse_note(ctx, li, "fio measured no runtime for the %s of job '%s' "
		   "(under 1 ms): it wrote 0 for runtime, bandwidth and IOPS, "
		   "which are not results", op, job ? job : "?");
}

/*
 * ctx->tool_version must outlive the parser, so the version is stored
 * straight into the source (owned by the result set) instead.
 */
void fio_set_version(struct parse_ctx *ctx, const char *v, size_t len)
{
	struct source *src = &ctx->rs->sources[ctx->source];

	if (ctx->tool_version || src->tool_version || !len)
		return;
	src->tool_version = xstrndup(v, len);
}

struct measurement *fio_emit(struct parse_ctx *ctx, size_t li,
			     const char *op, const char *metric,
			     const char *unit, double value,
			     const struct labels *labels)
{
	struct measurement *m = parse_emit(ctx, li, "fio", op, metric, unit,
					   value);

	if (labels && labels->n) {
		labels_release(&m->labels);
		labels_copy(&m->labels, labels);
	}
	return m;
}

uint64_t fio_plat_idx_to_val(unsigned idx, unsigned bits)
{
	unsigned error_bits;
	uint64_t base, k;

	if (idx < (2u << bits))
		return idx;
	error_bits = (idx >> bits) - 1;
	base = (uint64_t)1 << (error_bits + bits);
	k = idx % (1u << bits);
	/* The middle of the bucket: base + (k + 0.5) * 2^error_bits. */
	return base + (k << error_bits) + ((uint64_t)1 << error_bits) / 2;
}

double fio_hist_percentile_cum(const double *value, const uint64_t *cum,
			       size_t n, double pct)
{
	size_t lo = 0, hi;
	uint64_t need;

	if (!n || !cum[n - 1])
		return 0;
	need = quantile_rank_fio(cum[n - 1], pct);
	hi = n - 1;	/* cum[hi] >= need: the total always passes */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cum[mid] >= need)
			hi = mid;
		else
			lo = mid + 1;
	}
	return value[lo];
}

/* Does line t start "NAME: (groupid=G,"? */
static int is_report_of(const char *t, const char *name, size_t len,
			long group)
{
	const char *p = t;
	uint64_t g;

	if (strncmp(p, name, len))
		return 0;
	p += len;
	if (!skip_prefix(&p, ": (groupid=") || scan_u64(&p, &g))
		return 0;
	return *p == ',' && (long)g == group;
}

void fio_lines_find(const struct input *in, struct fio_lines *fl)
{
	size_t ra = 0, ha = 0;

	memset(fl, 0, sizeof(*fl));
	if (!input_contains(in, ": (g"))
		return;		/* terse only: nothing to index */
	for (size_t i = 0; i < in->nlines; i++) {
		const char *t = in->lines[i].text;

		if (strstr(t, ": (groupid=")) {
			ALLOC_GROW(fl->reports, fl->nreports + 1, ra);
			fl->reports[fl->nreports++] = i;
		}
		if (strstr(t, ": (g=")) {
			ALLOC_GROW(fl->headers, fl->nheaders + 1, ha);
			fl->headers[fl->nheaders++] = i;
		}
	}
}

void fio_lines_release(struct fio_lines *fl)
{
	free(fl->reports);
	free(fl->headers);
	memset(fl, 0, sizeof(*fl));
}

int fio_has_normal_report(const struct input *in, const struct fio_lines *fl,
			  const char *name, size_t len, long group)
{
	for (size_t k = 0; k < fl->nreports; k++)
		if (is_report_of(in->lines[fl->reports[k]].text, name, len,
				 group))
			return 1;
	return 0;
}

/* "4096B-4096B" or "512-1K" (len bytes) -> "4096" or "512-1024". */
static char *bs_range(const char *s, size_t len)
{
	const char *dash = memchr(s, '-', len);
	double a, b;

	if (!dash)
		return fio_parse_size(s, len, &a) ? NULL : xstrfmt("%.0f", a);
	if (fio_parse_size(s, (size_t)(dash - s), &a) ||
	    fio_parse_size(dash + 1, len - (size_t)(dash + 1 - s), &b))
		return NULL;
	if (!(a < b) && !(a > b))
		return xstrfmt("%.0f", a);
	return xstrfmt("%.0f-%.0f", a, b);
}

/* "(R) 4096B-4096B, (W) 4096B-4096B, (T) ..." or "4K-4K/4K-4K/4K-4K". */
static void header_bs(const char *p, struct fio_header *h)
{
	if (*p == '(') {
		for (int d = 0; d < 3; d++) {
			size_t len;

			if (p[0] != '(' || !p[1] || p[2] != ')' || p[3] != ' ')
				break;
			p += 4;
			len = strcspn(p, ",");
			h->bs[d] = bs_range(p, len);
			p += len;
			if (!skip_prefix(&p, ", "))
				break;
		}
		return;
	}
	for (int d = 0; d < 3; d++) {
		size_t len = strcspn(p, "/,");

		h->bs[d] = bs_range(p, len);
		p += len;
		if (*p != '/')
			break;
		p++;
	}
	/* 2.x printed only read,write: the trim size is the write one. */
}

/* The value of "key=" in t, up to a comma (a fresh string), or NULL. */
static char *header_value(const char *t, const char *key)
{
	const char *p = strstr(t, key);

	if (!p)
		return NULL;
	p += strlen(key);
	return xstrndup(p, strcspn(p, ","));
}

int fio_header_parse(const char *t, struct fio_header *h)
{
	const char *at = strstr(t, ": (g="), *p, *bs;
	char *v;
	uint64_t g;

	memset(h, 0, sizeof(*h));
	if (!at || at == t)
		return -1;
	p = at + 5;
	if (scan_u64(&p, &g) || !skip_prefix(&p, "): rw="))
		return -1;
	h->name_len = (size_t)(at - t);
	h->name = xstrndup(t, h->name_len);
	h->group = (long)g;
	h->rw = xstrndup(p, strcspn(p, ","));
	bs = strstr(p, ", bs=");
	if (bs)
		header_bs(bs + 5, h);
	if ((v = header_value(p, ", ioengine="))) {
		labels_set(&h->labels, "ioengine", v);
		free(v);
	}
	if ((v = header_value(p, ", iodepth="))) {
		labels_set(&h->labels, "iodepth", v);
		free(v);
	}
	return 0;
}

void fio_header_release(struct fio_header *h)
{
	free(h->name);
	free(h->rw);
	for (int d = 0; d < 3; d++)
		free(h->bs[d]);
	labels_release(&h->labels);
	memset(h, 0, sizeof(*h));
}

void fio_header_labels(const struct fio_header *h, enum fio_dir d,
		       struct labels *l)
{
	const char *bs = NULL;

	if (h->rw)
		labels_set(l, "rw", h->rw);
	if (d <= FIO_TRIM)
		bs = h->bs[d] ? h->bs[d] : h->bs[FIO_READ];
	else if (h->bs[FIO_READ])
		bs = h->bs[FIO_READ];
	if (bs)
		labels_set(l, "bs", bs);
	for (size_t i = 0; i < h->labels.n; i++)
		labels_set(l, h->labels.v[i].key, h->labels.v[i].value);
}

int fio_find_header(const struct input *in, const struct fio_lines *fl,
		    const char *name, size_t len, long group,
		    struct fio_header *h)
{
	int found = 0;

	memset(h, 0, sizeof(*h));
	for (size_t k = 0; k < fl->nheaders; k++) {
		const char *t = in->lines[fl->headers[k]].text;
		struct fio_header one;

		if (fio_header_parse(t, &one))
			continue;
		if (one.name_len == len && !strncmp(one.name, name, len) &&
		    one.group == group) {
			fio_header_release(h);
			*h = one;
			found = 1;
		} else {
			fio_header_release(&one);
		}
	}
	return found ? 0 : -1;
}

void fio_labels_intersect(struct labels *dst, const struct labels *src)
{
	for (size_t i = dst->n; i-- > 0;) {
		const char *v = labels_get(src, dst->v[i].key);

		if (!v || strcmp(v, dst->v[i].value))
			labels_remove(dst, dst->v[i].key);
	}
}

void fio_option_label(struct labels *l, const char *key, size_t keylen,
		      const char *value)
{
	static const char *const skip[] = {
		"name", "output", "output-format", "minimal", "append-terse",
		"terse-version", "eta", "eta-newline", "status-interval",
		"client", NULL
	};
	char *k = xstrndup(key, keylen), *bs = NULL;
	double bytes;

	for (size_t i = 0; skip[i]; i++)
		if (!strcmp(k, skip[i]))
			goto out;
	if (!strcmp(k, "readwrite")) {
		free(k);
		k = xstrdup("rw");
	} else if (!strcmp(k, "blocksize")) {
		free(k);
		k = xstrdup("bs");
	}
	if (!value || !*value)
		value = "1";
	if (!strcmp(k, "bs") && !fio_parse_size(value, strlen(value), &bytes))
		value = bs = xstrfmt("%.0f", bytes);
	labels_set(l, k, value);
out:
	free(bs);
	free(k);
}

/*
 * Options that take no separate argument: "--time_based 5" makes fio
 * open a job file "5".  The job options of type FIO_OPT_STR_SET
 * (`fio --cmdhelp=OPT`: "empty or boolean value", 3.33), their aliases
 * and the engines' ones, and fio's own flags (init.c's no_argument and
 * optional_argument options).  Every other option takes the next word
 * as its value ("--rwmixread 95", "--direct 1"), as getopt_long does.
 */
static int takes_no_separate_value(const char *opt, size_t len)
{
	static const char *const flags[] = {
		"bs_unaligned", "exitall", "exitall_on_error",
		"group_reporting", "new_group", "norandommap",
		"refill_buffers", "stonewall", "wait_for_previous", "thread",
		"time_based", "verify_only", "zero_buffers",
		"hipri", "fixedbufs", "registerfiles", "sqthread_poll",
		"userspace_reap", "no_completion_thread", "listen", "pingpong",
		"minimal", "append-terse", "bandwidth-log", "readonly",
		"showcmd", "parse-only", "warnings-fatal", "version", "help",
		"cmdhelp", "enghelp", "server", "crctest",
		"merge-blktrace-only", NULL
	};

	for (size_t i = 0; flags[i]; i++)
		if (strlen(flags[i]) == len && !strncmp(flags[i], opt, len))
			return 1;
	return 0;
}

/* Does the word after "--opt" look like its value, not the next option
 * or a job file? */
static int is_value_word(const char *p, const char *end)
{
	const char *q = p;
	char *w = shell_next_word(&q, end);
	int value = w && w[0] != '-' && !ends_with(w, ".fio") &&
		    !ends_with(w, ".job") && !ends_with(w, ".ini");

	free(w);
	return value;
}

/*
 * The labels of a command defining several jobs ("--name=a --rw=write
 * --name=b --rw=read"): what every job runs with.  fio puts the options
 * before the first --name in the global section and each later one in
 * the job it follows, so a job's options are the global ones with its
 * own over them; an option that differs between jobs labels none
 * (the last --rw=randrw is not the first job's).
 */
static void common_job_options(struct labels *sec, size_t nsec,
			       struct labels *l)
{
	for (size_t j = 1; j < nsec; j++) {
		struct labels eff;

		labels_init(&eff);
		labels_copy(&eff, &sec[0]);
		for (size_t i = 0; i < sec[j].n; i++)
			labels_set(&eff, sec[j].v[i].key, sec[j].v[i].value);
		if (j == 1)
			labels_copy(l, &eff);
		else
			fio_labels_intersect(l, &eff);
		labels_release(&eff);
	}
}

/* Sections of a command line: the global one and one per --name. */
#define CMD_SECTIONS_MAX 64

/*
 * The section the options after "--name=NAME" go to: "global" is fio's
 * global section again, any other name a new job (past the last slot,
 * the last job).
 */
static size_t start_section(struct labels *sec, size_t *nsec,
			    const char *name)
{
	if (name && !strcmp(name, "global"))
		return 0;
	if (*nsec < CMD_SECTIONS_MAX)
		labels_init(&sec[(*nsec)++]);
	return *nsec - 1;
}

int fio_command_labels(const char *line, struct labels *l)
{
	struct shell_cmd cmd;
	struct labels sec[CMD_SECTIONS_MAX];
	size_t nsec = 1, cur = 0, nwords = 0;
	const char *p, *end;
	char *w;

	if (!strstr(line, "fio"))
		return -1;
	if (shell_find(line, "fio", &cmd, 1) != 1) {
		/* "kubectl exec -it pod -- fio ...", "ssh host -- fio ..." */
		const char *dash = strstr(line, " -- ");

		if (!dash || shell_find(dash + 4, "fio", &cmd, 1) != 1)
			return -1;
	}
	labels_init(&sec[0]);
	p = cmd.args;
	end = cmd.prog + cmd.len;
	while ((w = shell_next_word(&p, end))) {
		const char *k = w, *eq;
		char *value = NULL;
		size_t keylen;

		if (k[0] == '-' && k[1] == '-')
			k += 2;
		else if (k[0] == '-' && isalpha((unsigned char)k[1]) && k[2] &&
			 (strchr(k, '=') ||
			  takes_no_separate_value(k + 1, strlen(k + 1)) ||
			  is_value_word(p, end)))
			k += 1;	/* "-bs=4k", "-iodepth 32", "-thread": fio
				 * reads them with getopt_long_only(); a lone
				 * "-rwfio" (a paste gone wrong) is no flag */
		else {
			free(w);	/* a job file, "-f FILE", a value */
			continue;
		}
		eq = strchr(k, '=');
		keylen = eq ? (size_t)(eq - k) : strlen(k);
		if (!keylen || k[keylen - 1] == '-') {
			/* a bare "--", or "--eta-" cut by a wrap: no fio
			 * option ends with '-' */
			free(w);
			continue;
		}
		if (++nwords > LABELS_INPUT_MAX) {
			free(w);	/* no fio command has so many options */
			break;
		}
		if (!eq && !takes_no_separate_value(k, strlen(k)) &&
		    is_value_word(p, end))
			value = shell_next_word(&p, end);
		if (keylen == 4 && !strncmp(k, "name", 4))
			cur = start_section(sec, &nsec, eq ? eq + 1 : value);
		fio_option_label(&sec[cur], k, keylen, eq ? eq + 1 : value);
		free(value);
		free(w);
	}
	if (nwords > LABELS_INPUT_MAX) {
		/* not a command: no labels from it */
	} else if (nsec <= 2) {	/* one job: its options over the global ones */
		for (size_t j = 0; j < nsec; j++)
			for (size_t i = 0; i < sec[j].n; i++)
				labels_set(l, sec[j].v[i].key,
					   sec[j].v[i].value);
	} else {
		struct labels common;

		labels_init(&common);
		common_job_options(sec, nsec, &common);
		for (size_t i = 0; i < common.n; i++)
			labels_set(l, common.v[i].key, common.v[i].value);
		labels_release(&common);
	}
	for (size_t j = 0; j < nsec; j++)
		labels_release(&sec[j]);
	return nwords > LABELS_INPUT_MAX ? -1 : 0;
}

static int claimed_text(const struct parse_ctx *ctx, size_t k)
{
	return k < ctx->in->nlines && ctx->claimed[k];
}

/* Line k is claimed and at the document's level (not indented) and
 * starts with c? */
static int doc_edge(const struct parse_ctx *ctx, size_t k, char c)
{
	const struct input_line *l = &ctx->in->lines[k];

	return claimed_text(ctx, k) && l->text[0] == c &&
	       !input_line_indent(ctx->in, l);
}

/* Line k opens a fio JSON document: "{" alone, then "fio version". */
static int doc_start(const struct parse_ctx *ctx, size_t k)
{
	return doc_edge(ctx, k, '{') && !ctx->in->lines[k].text[1] &&
	       claimed_text(ctx, k + 1) &&
	       starts_with(ctx->in->lines[k + 1].text, "\"fio version\"");
}

/* The document whose closing line is `last`: its first line. */
static int doc_from_end(const struct parse_ctx *ctx, size_t last,
			size_t *first, size_t *out_last)
{
	if (!doc_edge(ctx, last, '}'))
		return 0;
	for (size_t k = last; k-- > 0 && claimed_text(ctx, k);)
		if (doc_start(ctx, k)) {
			*first = k;
			*out_last = last;
			return 1;
		}
	return 0;
}

/* The document whose first line is `first`: its closing line. */
static int doc_from_start(const struct parse_ctx *ctx, size_t first,
			  size_t *out_first, size_t *last)
{
	if (!doc_start(ctx, first))
		return 0;
	for (size_t k = first + 1; claimed_text(ctx, k); k++)
		if (doc_edge(ctx, k, '}')) {
			*out_first = first;
			*last = k;
			return 1;
		}
	return 0;
}

/* "Tue Dec  1 03:49:58 2026" (ctime's form, no zone) -> seconds, or -1. */
static double ctime_seconds(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	s = strptime(s, "%a %b %e %H:%M:%S %Y", &tm);
	return s ? (double)timegm(&tm) : -1;
}

/* The value of a line '"key" : "value",' of the block, or NULL. */
static const char *json_line_value(const char *t, const char *key)
{
	size_t n = strlen(key);

	if (t[0] != '"' || strncmp(t + 1, key, n) || t[n + 1] != '"')
		return NULL;
	t = skip_spaces(t + n + 2);
	if (*t != ':')
		return NULL;
	return skip_spaces(t + 1);
}

/* "NAME\x1fGROUP", a job's key in the block's index. */
static void job_key(struct strbuf *key, const char *name, size_t len,
		    long group)
{
	strbuf_reset(key);
	strbuf_add(key, name, len);
	strbuf_addf(key, "\x1f%ld", group);
}

/*
 * Indexes the block's jobs, disks and time in one walk.  fio-json has
 * read the names by then: decoded in place, a NUL took the place of
 * each one's closing quote (a name with an escape is not found: its
 * report stays a result of its own).
 */
static void index_block(const struct input *in, struct fio_json_block *b)
{
	struct strbuf key = STRBUF_INIT;
	int created;

	b->jobs = xmalloc(sizeof(*b->jobs));
	keymap_init(b->jobs);
	b->has_disks = 0;
	b->time = -1;
	for (size_t k = b->first; k <= b->last; k++) {
		const char *t = in->lines[k].text, *v, *g;
		uint64_t id;
		size_t len;

		if ((v = json_line_value(t, "time")) && *v == '"' &&
		    b->time < 0)
			b->time = ctime_seconds(v + 1);
		b->has_disks |= json_line_value(t, "disk_util") != NULL;
		if (!(v = json_line_value(t, "jobname")) || *v != '"')
			continue;
		len = strcspn(v + 1, "\"");
		g = k < b->last ? json_line_value(in->lines[k + 1].text,
						  "groupid") : NULL;
		if (!g || scan_u64(&g, &id))
			continue;
		job_key(&key, v + 1, len, (long)id);
		keymap_put(b->jobs, key.buf, 1, &created);
	}
	strbuf_release(&key);
}

int fio_json_block_above(const struct parse_ctx *ctx, size_t li,
			 struct fio_json_block *b)
{
	while (li > 0 && !ctx->in->lines[li - 1].len)
		li--;
	if (!li || !doc_from_end(ctx, li - 1, &b->first, &b->last))
		return 0;
	index_block(ctx->in, b);
	return 1;
}

int fio_json_block_below(const struct parse_ctx *ctx, size_t li,
			 struct fio_json_block *b, size_t *stop)
{
	const struct input *in = ctx->in;

	while (++li < in->nlines && !ctx->claimed[li] &&
	       (!in->lines[li].len || fio_terse_start(in->lines[li].text)))
		;
	*stop = li;
	if (li >= in->nlines || !doc_from_start(ctx, li, &b->first, &b->last))
		return 0;
	index_block(in, b);
	return 1;
}

void fio_json_block_release(struct fio_json_block *b)
{
	if (b->jobs) {
		keymap_release(b->jobs);
		free(b->jobs);
	}
	b->jobs = NULL;
}

int fio_json_block_has_job(const struct fio_json_block *b, const char *name,
			   size_t len, long group, const char *date)
{
	struct strbuf key = STRBUF_INIT;
	double t = date ? ctime_seconds(date) : -1;
	int found;

	/* a report timed apart is another run; without a time on either
	 * side (fio 2.x JSON has none) the place alone says it */
	if (t >= 0 && b->time >= 0 && fabs(t - b->time) > 1)
		return 0;
	job_key(&key, name, len, group);
	found = keymap_get(b->jobs, key.buf) != NULL;
	strbuf_release(&key);
	return found;
}
