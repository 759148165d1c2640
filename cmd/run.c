/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan run: measure a file or a block device (runner/), write a result
 * set.  Options are collected first and applied after the preset, so that
 * an explicit option always wins over what the preset says, whatever the
 * order on the command line.
 */
#include "cmd.h"
#include "options.h"
#include "../core/atomic.h"
#include "../core/human.h"
#include "../core/tmpfiles.h"
#include "../core/numscan.h"
#include "../core/rs-json.h"
#include "../core/strbuf.h"
#include "../core/suggest.h"
#include "../core/xalloc.h"
#include "../runner/job.h"

#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char run_usage[] =
	"usage: storan run [--filename PATH | --directory DIR] [--size SIZE]\n"
	"                  --rw LIST [--rwmixread PCT]\n"
	"                  --bs SIZE[,SIZE] | --bs-sweep LIST|RANGE\n"
	"                  [--iodepth LIST] [--numjobs N]\n"
	"                  [--ioengine io_uring|libaio|psync]\n"
	"                  [--direct[=0|1] | --buffered[=0|1]] [--runtime S]\n"
	"                  [--ramp_time S] [--repeat N]\n"
	"                  [--data random|zero|compress:PCT]\n"
	"                  [--verify] [--drop-caches]\n"
	"                  [--preset blockdev-perftest|fio-4k|quick]\n"
	"                  [--overwrite] [--destroy-data=DEVICE]\n"
	"                  [--label K=V]... [--quiet] [-o FILE]\n"
	"\n"
	"Measures every combination of --rw x --bs-sweep x --iodepth,\n"
	"--repeat times each, prints a line per combination and writes a\n"
	"storan result set to FILE, or to standard output when that is a\n"
	"pipe or a file (never to a terminal: -o FILE keeps it, | cat shows\n"
	"it).  Options named as fio's mean what fio's do (--direct=1,\n"
	"--ramp_time, --bs 4k,64k: reads 4k, writes 64k).\n"
	"Without --filename a new 1 GiB file in --directory (default .) is\n"
	"used and removed.  storan writes only to files it created, to an\n"
	"existing file with --overwrite, to a device with\n"
	"--destroy-data=DEVICE naming it (never when mounted or in use).\n"
	"\n"
	"      --filename PATH      file or block device to measure\n"
	"      --directory DIR      where the new test file goes\n"
	"      --size SIZE          bytes to use (1G; default: 1G or all)\n"
	"      --rw LIST            read write randread randwrite randrw rw\n"
	"      --rwmixread PCT      reads in randrw/rw (default 50)\n"
	"      --rwmixwrite PCT     writes in randrw/rw (100 - rwmixread)\n"
	"      --bs SIZE[,SIZE]     block size, or fio's READ,WRITE sizes\n"
	"      --bs-sweep LIST|RANGE  block sizes to sweep: 4k,64k or\n"
	"                           512-64M (doubling)\n"
	"      --iodepth LIST       I/Os in flight per job (default 1)\n"
	"      --numjobs N          parallel jobs (threads) (default 1)\n"
	"      --ioengine NAME      io_uring (default), libaio, psync\n"
	"      --direct[=0|1]       O_DIRECT (the default; =0: buffered)\n"
	"      --buffered[=0|1]     the page cache (=0: direct)\n"
	"      --runtime S          measured seconds per run (default 10)\n"
	"      --ramp_time, --ramp S  unmeasured seconds first (default 2)\n"
	"      --repeat N           runs per combination (default 3)\n"
	"      --log-interval S     samples over time of the first\n"
	"                           repetition: bw, IOPS, mean latency and\n"
	"                           the latency histogram every S seconds\n"
	"                           (default 1; 0: none; see storan export\n"
	"                           --series)\n"
	"      --data KIND          random (default), zero, compress:PCT\n"
	"      --verify             check that reads return what was written\n"
	"      --drop-caches        drop the page cache before each run\n"
	"      --preset NAME        blockdev-perftest, fio-4k, quick\n"
	"      --overwrite          allow writing to an existing --filename\n"
	"      --destroy-data=DEV   allow writing to block device DEV\n"
	"  -l, --label K=V          add label K=V to every measurement\n"
	"  -q, --quiet              no progress, no summary\n"
	"  -o, --output FILE        write the result set to FILE ('-':\n"
	"                           standard output, even a terminal)\n"
	"  -h, --help               show this help\n"
	"\n"
	"Exit status: 0 done, 1 interrupted (results so far are written,\n"
	"labelled interrupted=yes) or a --verify mismatch, 2 usage error,\n"
	"refusal or I/O error.\n";

enum run_opt {
	OPT_FILENAME = 256, OPT_DIRECTORY, OPT_SIZE, OPT_RW, OPT_RWMIX,
	OPT_RWMIXW, OPT_BS, OPT_BS_SWEEP, OPT_IODEPTH, OPT_NUMJOBS,
	OPT_IOENGINE, OPT_DIRECT, OPT_BUFFERED, OPT_RUNTIME, OPT_RAMP,
	OPT_REPEAT, OPT_DATA, OPT_VERIFY, OPT_DROP, OPT_PRESET,
	OPT_OVERWRITE, OPT_DESTROY, OPT_LOG_INTERVAL, OPT_END
};

/* fio's names, with fio's meaning, wherever the concept is fio's. */
static const struct option run_longopts[] = {
	{ "filename", required_argument, NULL, OPT_FILENAME },
	{ "directory", required_argument, NULL, OPT_DIRECTORY },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "rw", required_argument, NULL, OPT_RW },
	{ "rwmixread", required_argument, NULL, OPT_RWMIX },
	{ "rwmixwrite", required_argument, NULL, OPT_RWMIXW },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "bs-sweep", required_argument, NULL, OPT_BS_SWEEP },
	{ "iodepth", required_argument, NULL, OPT_IODEPTH },
	{ "numjobs", required_argument, NULL, OPT_NUMJOBS },
	{ "ioengine", required_argument, NULL, OPT_IOENGINE },
	{ "direct", optional_argument, NULL, OPT_DIRECT },
	{ "buffered", optional_argument, NULL, OPT_BUFFERED },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "ramp_time", required_argument, NULL, OPT_RAMP },
	{ "ramp", required_argument, NULL, OPT_RAMP },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "log-interval", required_argument, NULL, OPT_LOG_INTERVAL },
	{ "data", required_argument, NULL, OPT_DATA },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "drop-caches", no_argument, NULL, OPT_DROP },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "overwrite", no_argument, NULL, OPT_OVERWRITE },
	{ "destroy-data", required_argument, NULL, OPT_DESTROY },
	{ "label", required_argument, NULL, 'l' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* "; did you mean 'X'?" for an --ioengine that is almost a known one. */
static const char *suggest_engine(const char *name)
{
	static const char *const known[] = { "io_uring", "libaio", "psync" };
	static char buf[64];
	const char *s = suggest_closest(name, known, 3);

	if (!s)
		return "";
	snprintf(buf, sizeof(buf), "; did you mean '%s'?", s);
	return buf;
}

/* The last value given for each option (flags: "1"). */
struct raw_options {
	const char *v[OPT_END];
	const char *out;
	int direct, buffered;		/* -1: not given, else 0 or 1 */
};

static int parse_count(const char *arg, unsigned lo, unsigned hi,
		       unsigned *out)
{
	const char *p = arg;
	uint64_t v;

	if (scan_u64(&p, &v) || *p || v < lo || v > hi)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* --rwmixwrite is fio's other way to say 100 - rwmixread. */
static int apply_mix(const struct raw_options *r, struct job_options *o)
{
	unsigned w;

	if (r->v[OPT_RWMIX] && parse_count(r->v[OPT_RWMIX], 0, 100,
					   &o->rwmixread))
		return usage_error("run", "--rwmixread wants 0 to 100, not "
				   "'%s'", r->v[OPT_RWMIX]);
	if (!r->v[OPT_RWMIXW])
		return 0;
	if (parse_count(r->v[OPT_RWMIXW], 0, 100, &w))
		return usage_error("run", "--rwmixwrite wants 0 to 100, not "
				   "'%s'", r->v[OPT_RWMIXW]);
	if (r->v[OPT_RWMIX] && o->rwmixread + w != 100)
		return usage_error("run", "--rwmixread %s and --rwmixwrite %s "
				   "contradict each other: they must add up to "
				   "100",
				   r->v[OPT_RWMIX], r->v[OPT_RWMIXW]);
	o->rwmixread = 100 - w;
	return 0;
}

static int apply_counts(const struct raw_options *r, struct job_options *o)
{
	if (apply_mix(r, o))
		return EXIT_TROUBLE;
	if (r->v[OPT_NUMJOBS] && parse_count(r->v[OPT_NUMJOBS], 1, 256,
					     &o->numjobs))
		return usage_error("run", "--numjobs wants 1 to 256, not '%s'",
				   r->v[OPT_NUMJOBS]);
	if (r->v[OPT_REPEAT] && parse_count(r->v[OPT_REPEAT], 1, 1000,
					    &o->repeat))
		return usage_error("run", "--repeat wants 1 to 1000, not '%s'",
				   r->v[OPT_REPEAT]);
	return 0;
}

static int apply_values(const struct raw_options *r, struct job_options *o,
			struct strbuf *err)
{
	if (r->v[OPT_BS] && r->v[OPT_BS_SWEEP])
		return usage_error("run", "--bs and --bs-sweep exclude each "
				   "other (--bs-sweep %s runs each size)",
				   r->v[OPT_BS_SWEEP]);
	if ((r->v[OPT_SIZE] && job_parse_size(r->v[OPT_SIZE], &o->size,
					      err)) ||
	    (r->v[OPT_RW] && job_parse_rw(r->v[OPT_RW], o, err)) ||
	    (r->v[OPT_BS] && job_parse_bs(r->v[OPT_BS], o, err)) ||
	    (r->v[OPT_BS_SWEEP] && job_parse_bs_sweep(r->v[OPT_BS_SWEEP], o,
						      err)) ||
	    (r->v[OPT_IODEPTH] && job_parse_iodepth(r->v[OPT_IODEPTH], o,
						    err)) ||
	    (r->v[OPT_RUNTIME] && job_parse_seconds(r->v[OPT_RUNTIME],
						    &o->runtime, err)) ||
	    (r->v[OPT_RAMP] && job_parse_seconds(r->v[OPT_RAMP], &o->ramp,
						 err)) ||
	    (r->v[OPT_LOG_INTERVAL] &&
	     job_parse_seconds(r->v[OPT_LOG_INTERVAL], &o->log_interval,
			       err)) ||
	    (r->v[OPT_DATA] && job_parse_data(r->v[OPT_DATA], &o->data, err)))
		return usage_error("run", "%s", err->buf);
	if (!(o->runtime > 0))
		return usage_error("run", "--runtime must be more than 0");
	if (!(o->log_interval <= 0 && o->log_interval >= 0) &&
	    !(o->log_interval >= 0.01))
		return usage_error("run", "--log-interval wants 0.01 s or "
				   "more (0: none), not '%s'",
				   r->v[OPT_LOG_INTERVAL]);
	return apply_counts(r, o);
}

static int any_pattern(const struct job_options *o, enum rw_mode a,
		       enum rw_mode b)
{
	for (size_t i = 0; i < o->nrw; i++)
		if (o->rw[i] == a || o->rw[i] == b)
			return 1;
	return 0;
}

/*
 * fio's --bs READ,WRITE: a mixed pattern would need two sizes in one
 * stream, which the runner does not do; a size no pattern uses is most
 * likely a sweep typed in storan's old spelling, so it is named.
 */
static int check_bs_sides(const struct raw_options *r,
			  const struct job_options *o)
{
	char rd[32], wr[32];
	int reads, writes;

	if (!o->bs_write || o->bs_write == o->bs[0])
		return 0;
	if (any_pattern(o, RW_RANDRW, RW_RW))
		return usage_error("run", "--bs %s gives reads and writes "
				   "different sizes (as fio's bs does); a "
				   "randrw or rw pattern needs one size here "
				   "(block sizes to sweep: --bs-sweep %s)",
				   r->v[OPT_BS], r->v[OPT_BS]);
	reads = any_pattern(o, RW_READ, RW_RANDREAD);
	writes = any_pattern(o, RW_WRITE, RW_RANDWRITE);
	human_size((double)o->bs[0], rd, sizeof(rd));
	human_size((double)o->bs_write, wr, sizeof(wr));
	if (!reads || !writes)
		warning("--bs %s is fio's READ,WRITE sizes and no pattern %s: "
			"%s is not used (block sizes to sweep: --bs-sweep %s)",
			r->v[OPT_BS], reads ? "writes" : "reads",
			reads ? wr : rd, r->v[OPT_BS]);
	return 0;
}

static int check_combination(const struct raw_options *r,
			     const struct job_options *o)
{
	const char *e = r->v[OPT_IOENGINE];

	if (r->v[OPT_FILENAME] && r->v[OPT_DIRECTORY])
		return usage_error("run", "--filename and --directory exclude "
				   "each other");
	if (r->direct >= 0 && r->buffered >= 0 && r->direct == r->buffered)
		return usage_error("run", "--direct%s and --buffered%s "
				   "contradict each other: O_DIRECT is I/O "
				   "that bypasses the page cache",
				   r->direct ? "" : "=0",
				   r->buffered ? "" : "=0");
	if (!o->nrw || !o->nbs)
		return usage_error("run", "--rw and --bs are needed (or a "
				   "--preset)");
	if (e && !engine_find(e))
		return usage_error("run", "unknown --ioengine '%s' (io_uring, "
				   "libaio, psync)%s", e,
				   suggest_engine(e));
	if (o->verify && o->data.mode != DATA_RANDOM)
		return usage_error("run", "--verify writes its own random "
				   "pattern; it does not go with --data");
	return check_bs_sides(r, o);
}

static int build_job(const struct raw_options *r, struct job_options *o)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (r->v[OPT_PRESET] && job_apply_preset(r->v[OPT_PRESET], o, &err))
		rc = usage_error("run", "%s", err.buf);
	if (!rc)
		rc = apply_values(r, o, &err);
	strbuf_release(&err);
	if (rc)
		return rc;
	o->filename = r->v[OPT_FILENAME];
	o->directory = r->v[OPT_DIRECTORY];
	o->ioengine = r->v[OPT_IOENGINE];
	o->destroy_data = r->v[OPT_DESTROY];
	o->overwrite = !!r->v[OPT_OVERWRITE];
	o->verify = !!r->v[OPT_VERIFY];
	o->drop_caches = !!r->v[OPT_DROP];
	if (r->direct >= 0)
		o->direct = r->direct;
	else if (r->buffered >= 0)
		o->direct = !r->buffered;
	return check_combination(r, o);
}

/*
 * --direct and --buffered are flags here and 0/1 options in fio:
 * --direct, --direct=1 and fio's --direct 1 are all accepted (a bare 0
 * or 1 after them can be nothing else: run takes no arguments).
 */
static int parse_bool_option(int c, int argc, char **argv,
			     struct raw_options *r)
{
	const char *v = optarg;
	int *slot = c == OPT_DIRECT ? &r->direct : &r->buffered;

	if (!v && optind < argc && (!strcmp(argv[optind], "0") ||
				    !strcmp(argv[optind], "1")))
		v = argv[optind++];
	if (!v || !strcmp(v, "1"))
		*slot = 1;
	else if (!strcmp(v, "0"))
		*slot = 0;
	else
		return usage_error("run", "--%s wants 0 or 1, not '%s'",
				   c == OPT_DIRECT ? "direct" : "buffered", v);
	return 0;
}

static int parse_args(int argc, char **argv, struct raw_options *r,
		      struct job_options *o)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:qo:h", run_longopts,
				NULL)) != -1) {
		if (c == OPT_DIRECT || c == OPT_BUFFERED) {
			if (parse_bool_option(c, argc, argv, r))
				return EXIT_TROUBLE;
			continue;
		}
		if (c >= OPT_FILENAME && c < OPT_END) {
			r->v[c] = optarg ? optarg : "1";
			continue;
		}
		switch (c) {
		case 'l':
			if (parse_label_arg(optarg, &o->labels))
				return usage_error("run", "--label wants "
						   "KEY=VALUE, not '%s'",
						   optarg);
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'o':
			r->out = optarg;
			break;
		case 'h':
			print_usage(stdout, run_usage);
			return -1;
		default:
			return option_error("run", c, argv, run_longopts);
		}
	}
	if (optind < argc)
		return usage_error("run", "unexpected argument '%s'",
				   argv[optind]);
	return 0;
}

static void on_signal(int sig)
{
	/* A second Ctrl-C does not wait: the test file is unlinked already,
	 * a half-written -o file is removed here. */
	if (runner_stop_requested) {
		tmpfiles_remove_now();
		_exit(128 + sig);
	}
	runner_stop_requested = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int write_results(const struct result_set *rs, const char *out)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	rs_json_write(rs, &sb);
	rc = write_file_atomic(out, sb.buf, sb.len);
	strbuf_release(&sb);
	return rc;
}

/*
 * Where the result set goes: -o FILE (or '-': asked for, even on a
 * terminal), else standard output unless that is a terminal, where 155
 * KB of JSON would bury the summary (gzip refuses a terminal the same
 * way).  NULL: not written.
 */
static const char *result_destination(const char *out)
{
	if (out)
		return out;
	return isatty(STDOUT_FILENO) ? NULL : "-";
}

static const char not_written[] =
	"the result set is not written to a terminal: -o FILE keeps it, "
	"'| cat' shows it";

int cmd_run(int argc, char **argv)
{
	struct raw_options raw;
	struct job_options opt;
	struct result_set rs;
	const char *dest;
	FILE *summary;
	int rc;

	memset(&raw, 0, sizeof(raw));
	raw.direct = raw.buffered = -1;
	job_options_init(&opt);
	rc = parse_args(argc, argv, &raw, &opt);
	if (!rc)
		rc = build_job(&raw, &opt);
	dest = result_destination(raw.out);
	if (!rc && !dest && opt.quiet)
		rc = usage_error("run", "--quiet on a terminal would show "
				 "nothing and keep nothing: give -o FILE");
	if (!rc && dest && output_path_check(dest))
		rc = EXIT_TROUBLE;
	if (rc) {
		job_options_release(&opt);
		return rc < 0 ? EXIT_OK : rc;
	}
	/* the summary is the output when the result set is not on stdout */
	summary = opt.quiet ? NULL : !dest || strcmp(dest, "-") ? stdout :
		  stderr;
	if (!dest)
		fprintf(stderr, "storan run: note: %s\n", not_written);
	catch_signals();
	result_set_init(&rs);
	rc = job_run_sweep(&opt, &rs, summary);
	if (rs.nsources && dest && write_results(&rs, dest))
		rc = EXIT_TROUBLE;
	if (rs.nsources && !dest)
		fprintf(stderr, "storan run: %s\n", not_written);
	result_set_release(&rs);
	job_options_release(&opt);
	return rc;
}
