/*
 * storan run: measure a file or a block device (runner/), write a result
 * set.  Options are collected first and applied after the preset, so that
 * an explicit option always wins over what the preset says, whatever the
 * order on the command line.
 */
#include "cmd.h"
#include "../core/atomic.h"
#include "../core/tmpfiles.h"
#include "../core/numscan.h"
#include "../core/rs-json.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../runner/job.h"

#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char run_usage[] =
	"usage: storan run [--filename PATH | --directory DIR] [--size SIZE]\n"
	"                  --rw LIST [--rwmixread PCT] --bs LIST|RANGE\n"
	"                  [--iodepth LIST] [--numjobs N]\n"
	"                  [--ioengine io_uring|libaio|psync]\n"
	"                  [--direct | --buffered] [--runtime S] [--ramp S]\n"
	"                  [--repeat N] [--data random|zero|compress:PCT]\n"
	"                  [--verify] [--drop-caches] [--preset NAME]\n"
	"                  [--overwrite] [--destroy-data=DEVICE]\n"
	"                  [--label K=V]... [--quiet] [-o FILE]\n"
	"\n"
	"Measures every combination of --rw x --bs x --iodepth, --repeat\n"
	"times each, and writes a storan result set (stdout, or FILE).\n"
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
	"      --bs LIST|RANGE      4k,64k or 512-64M (doubling)\n"
	"      --iodepth LIST       I/Os in flight per job (default 1)\n"
	"      --numjobs N          parallel jobs (threads) (default 1)\n"
	"      --ioengine NAME      io_uring (default), libaio, psync\n"
	"      --direct, --buffered O_DIRECT (default) or the page cache\n"
	"      --runtime S          measured seconds per run (default 10)\n"
	"      --ramp S             unmeasured seconds first (default 2)\n"
	"      --repeat N           runs per combination (default 3)\n"
	"      --data KIND          random (default), zero, compress:PCT\n"
	"      --verify             check that reads return what was written\n"
	"      --drop-caches        drop the page cache before each run\n"
	"      --preset NAME        blockdev-perftest, fio-4k, quick\n"
	"      --overwrite          allow writing to an existing --filename\n"
	"      --destroy-data=DEV   allow writing to block device DEV\n"
	"  -l, --label K=V          add label K=V to every measurement\n"
	"  -q, --quiet              no progress, no summary\n"
	"  -o, --output FILE        write the result set to FILE\n"
	"  -h, --help               show this help\n"
	"\n"
	"Exit status: 0 done, 1 interrupted (results so far are written,\n"
	"labelled interrupted=yes) or a --verify mismatch, 2 usage error,\n"
	"refusal or I/O error.\n";

enum run_opt {
	OPT_FILENAME = 256, OPT_DIRECTORY, OPT_SIZE, OPT_RW, OPT_RWMIX,
	OPT_BS, OPT_IODEPTH, OPT_NUMJOBS, OPT_IOENGINE, OPT_DIRECT,
	OPT_BUFFERED, OPT_RUNTIME, OPT_RAMP, OPT_REPEAT, OPT_DATA,
	OPT_VERIFY, OPT_DROP, OPT_PRESET, OPT_OVERWRITE, OPT_DESTROY,
	OPT_END
};

static const struct option run_longopts[] = {
	{ "filename", required_argument, NULL, OPT_FILENAME },
	{ "directory", required_argument, NULL, OPT_DIRECTORY },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "rw", required_argument, NULL, OPT_RW },
	{ "rwmixread", required_argument, NULL, OPT_RWMIX },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "iodepth", required_argument, NULL, OPT_IODEPTH },
	{ "numjobs", required_argument, NULL, OPT_NUMJOBS },
	{ "ioengine", required_argument, NULL, OPT_IOENGINE },
	{ "direct", no_argument, NULL, OPT_DIRECT },
	{ "buffered", no_argument, NULL, OPT_BUFFERED },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "ramp", required_argument, NULL, OPT_RAMP },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
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

/* The last value given for each option (flags: "1"). */
struct raw_options {
	const char *v[OPT_END];
	const char *out;
	int direct_given;
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

static int apply_counts(const struct raw_options *r, struct job_options *o)
{
	if (r->v[OPT_RWMIX] && parse_count(r->v[OPT_RWMIX], 0, 100,
					   &o->rwmixread))
		return usage_error("run", "--rwmixread wants 0 to 100, not "
				   "'%s'", r->v[OPT_RWMIX]);
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
	if ((r->v[OPT_SIZE] && job_parse_size(r->v[OPT_SIZE], &o->size,
					      err)) ||
	    (r->v[OPT_RW] && job_parse_rw(r->v[OPT_RW], o, err)) ||
	    (r->v[OPT_BS] && job_parse_bs(r->v[OPT_BS], o, err)) ||
	    (r->v[OPT_IODEPTH] && job_parse_iodepth(r->v[OPT_IODEPTH], o,
						    err)) ||
	    (r->v[OPT_RUNTIME] && job_parse_seconds(r->v[OPT_RUNTIME],
						    &o->runtime, err)) ||
	    (r->v[OPT_RAMP] && job_parse_seconds(r->v[OPT_RAMP], &o->ramp,
						 err)) ||
	    (r->v[OPT_DATA] && job_parse_data(r->v[OPT_DATA], &o->data, err)))
		return usage_error("run", "%s", err->buf);
	if (!(o->runtime > 0))
		return usage_error("run", "--runtime must be more than 0");
	return apply_counts(r, o);
}

static int check_combination(const struct raw_options *r,
			     const struct job_options *o)
{
	const char *e = r->v[OPT_IOENGINE];

	if (r->v[OPT_FILENAME] && r->v[OPT_DIRECTORY])
		return usage_error("run", "--filename and --directory exclude "
				   "each other");
	if (!o->nrw || !o->nbs)
		return usage_error("run", "--rw and --bs are needed (or a "
				   "--preset)");
	if (e && !engine_find(e))
		return usage_error("run", "unknown --ioengine '%s' (io_uring, "
				   "libaio, psync)", e);
	if (o->verify && o->data.mode != DATA_RANDOM)
		return usage_error("run", "--verify writes its own random "
				   "pattern; it does not go with --data");
	return 0;
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
	if (r->direct_given)
		o->direct = !r->v[OPT_BUFFERED];
	return check_combination(r, o);
}

static int parse_args(int argc, char **argv, struct raw_options *r,
		      struct job_options *o)
{
	int c;

	while ((c = getopt_long(argc, argv, "l:qo:h", run_longopts,
				NULL)) != -1) {
		if (c >= OPT_FILENAME && c < OPT_END) {
			r->v[c] = optarg ? optarg : "1";
			if (c == OPT_DIRECT || c == OPT_BUFFERED) {
				r->direct_given = 1;
				r->v[OPT_DIRECT + OPT_BUFFERED - c] = NULL;
			}
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
			return usage_error("run", "bad option");
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
	rc = write_file_atomic(out ? out : "-", sb.buf, sb.len);
	strbuf_release(&sb);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct raw_options raw;
	struct job_options opt;
	struct result_set rs;
	FILE *summary;
	int rc;

	memset(&raw, 0, sizeof(raw));
	job_options_init(&opt);
	rc = parse_args(argc, argv, &raw, &opt);
	if (!rc)
		rc = build_job(&raw, &opt);
	if (rc) {
		job_options_release(&opt);
		return rc < 0 ? EXIT_OK : rc;
	}
	if (output_path_check(raw.out ? raw.out : "-")) {
		job_options_release(&opt);
		return EXIT_TROUBLE;
	}
	summary = opt.quiet ? NULL : raw.out && strcmp(raw.out, "-") ?
		  stdout : stderr;
	catch_signals();
	result_set_init(&rs);
	rc = job_run_sweep(&opt, &rs, summary);
	if (rs.nsources && write_results(&rs, raw.out))
		rc = EXIT_TROUBLE;
	result_set_release(&rs);
	job_options_release(&opt);
	return rc;
}
