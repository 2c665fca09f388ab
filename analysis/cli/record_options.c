// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope record's command line: perf record's options that it takes, checked before
 * anything starts (the events against tracefs, -o's file, the targets that go together).
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"
#include "tickscope/analysis.h"
#include "tickscope/error.h"

static const char record_help[] =
	"usage: tickscope record -e EVENTS [-a | -C CPUS | -p PIDS | -t TIDS] [-m PAGES] [-r PRIO]\n"
	"                        [-g] [-o FILE] [--report [--interval N]] [-- CMD [ARG]...]\n\n"
	"Record tracepoints through libperf into a perf.data file that perf 6.1 and tickscope\n"
	"read, for boards whose perf is missing or does not match the kernel. As perf record:\n"
	"with CMD and neither -a nor -C, only CMD and its children (from CMD's exec on) until\n"
	"CMD exits; with -a or -C, whole CPUs while CMD runs; without CMD, every CPU (or the\n"
	"-p/-t tasks) until Ctrl-C. Needs tracefs, and for whole CPUs the right to open\n"
	"system-wide events (root, or perf_event_paranoid <= -1).\n\n"
	"  -e, --event LIST     tracepoints, system:name, comma-separated, repeatable; '*' matches\n"
	"                       (\"sched:*,timer:hrtimer_*\"). Names this kernel lacks are listed\n"
	"                       and the rest recorded\n"
	"  -a, --all-cpus       every online CPU, system-wide (the default without CMD)\n"
	"  -C, --cpu LIST       only these CPUs, system-wide (\"0-3,6\")\n"
	"  -p, --pid LIST       the threads of these processes (and their new children)\n"
	"  -t, --tid LIST       these threads (and their new children)\n"
	"  -m, --mmap-pages N   ring size per CPU in pages, a power of two (default 128), or\n"
	"                       a size with K, M or G as perf takes it (\"8M\")\n"
	"  -r, --realtime N     the thread that drains the rings runs at this SCHED_FIFO\n"
	"                       priority (1-99; default 0, none) when allowed (root, CAP_SYS_NICE or\n"
	"                       RLIMIT_RTPRIO); 0, or not allowed: as other tasks, with a short\n"
	"                       slice. Never CMD nor the thread that writes the file\n"
	"  -g, --call-graph     record callchains (kernel and user, frame pointers)\n"
	"  -o, --output FILE    the perf.data to write (default perf.data); - writes perf's\n"
	"                       pipe-mode stream on stdout\n"
	"      --report         feed the capture straight into `tickscope report` (its text\n"
	"                       report, printed when the recording ends); no file unless -o\n"
	"                       is given too. CMD's stdout then goes to stderr\n"
	"      --interval N     with --report: also the report of each N seconds of the\n"
	"                       recording, printed as each ends (tickscope report --interval)\n"
	"  -h, --help           this text\n\n"
	"On a full disk the file is left valid up to the last complete round, and the error\n"
	"says how much it holds. A summary goes to stderr at the end.\n";

/* -m: pages, or a size as perf takes it ("8M"); a power of two pages, or -1 */
static int parse_pages(const char *s)
{
	long long n, page = sysconf(_SC_PAGESIZE);
	char *end;

	n = strtoll(s, &end, 10);
	if (end[0] && !end[1] && strchr("kKmMgG", end[0]))
		n = (n << (strchr("kK", end[0]) ? 10 : strchr("mM", end[0]) ? 20 : 30)) / page;
	else if (*end)
		return -1;
	if (n < 1 || n > 65536 || (n & (n - 1)))
		return -1;
	return (int)n;
}

/* -m: 0, or 2 (a command-line mistake) with the error said */
static int set_pages(struct rec *r, const char *arg)
{
	r->pages = parse_pages(arg);
	if (r->pages < 0) {
		cli_error("-m %s: pages, or a size with K, M or G, must be a power of two pages",
			  arg);
		return 2;
	}
	return 0;
}

/*
 * -C: 0, or 2 with the error said. The list is checked as report's --cpu is: libperf took
 * "0,,1" as 0-1 and "" as every possible CPU, whose open failed as "Invalid argument".
 */
static int set_cpus(const char *arg)
{
	uint64_t bits[TS_MAX_CPUS / 64];

	if (!arg[0] || ts_analysis_parse_cpus(arg, bits)) {
		cli_error("-C %s: not a CPU list (\"0-3,6\", CPUs below %d)", arg, TS_MAX_CPUS);
		return 2;
	}
	return 0;
}

/* -r: 0, or 2 with the error said */
static int set_rtprio(struct rec *r, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10); /* before the int: 4294967297 was priority 1 */

	r->rtprio = (int)v;
	if (*end || end == arg || v < 0 || v > 99) {
		cli_error("-r %s: a SCHED_FIFO priority, 1-99, or 0 for none", arg);
		return 2;
	}
	return 0;
}

/* -e: tracefs first (its absence is an error of its own), then the names against it */
static int add_events(struct rec *r, const char *arg)
{
	const char *bad = NULL;
	int err = 0;

	if (!r->tracefs)
		r->tracefs = rec_tracefs(&err);
	if (!r->tracefs && err == -EACCES)
		return cli_error("/sys/kernel/tracing: no permission to read the tracepoint "
				 "formats: run as root");
	if (!r->tracefs)
		return cli_error("tracefs is not mounted on /sys/kernel/tracing (as root: mount -t "
				 "tracefs nodev /sys/kernel/tracing)");
	err = rec_events_add(&r->ev, r->tracefs, arg, &bad);
	if (err == -EINVAL)
		return cli_error("-e %.*s: not a tracepoint (system:name); tickscope record "
				 "records tracepoints only",
				 (int)strcspn(bad, ","), bad);
	if (err)
		return cli_error("-e %s: %s", arg, ts_strerror(err));
	return 0;
}

/*
 * -o FILE is written beside it (FILE.XXXXXX) and renamed over it once the recording starts:
 * FILE must be a regular file or nothing yet, in a folder that takes new files. A device
 * (-o /dev/null as root) would be replaced by a regular file; and a file that is not a
 * perf.data (-o meta.txt, -o run.sh -- ./run.sh, a perf.data.xz) was replaced by the
 * recording, lost: only an empty file or a perf.data ("PERFILE2", either byte order) is.
 */
int rec_check_output(const char *out)
{
	struct stat st;

	if (!strcmp(out, "-") || (stat(out, &st) && errno == ENOENT))
		return 0;
	if (!S_ISREG(st.st_mode))
		return cli_error("%s: %s, not a regular file: -o names the perf.data to write in "
				 "its place (-o - writes the stream on stdout)",
				 out, cli_file_kind(st.st_mode));
	if (access(out, W_OK))
		return cli_error("%s: not writable: %s", out, strerror(errno));
	if (!cli_file_starts(out, st.st_size, "PERFILE2") &&
	    !cli_file_starts(out, st.st_size, "2ELIFREP"))
		return cli_error("%s: not a perf.data (it does not start with PERFILE2): -o "
				 "replaces only a perf.data, not this file",
				 out);
	return 0;
}

/*
 * perf record's targets: -a or -C, whole CPUs; -p or -t, those tasks; else CMD alone (and its
 * children), or every CPU when there is no CMD.
 */
static int targets(struct rec *r)
{
	if ((r->pids || r->tids) && r->all)
		return cli_error("-a and -p/-t cannot be combined: record CPUs or tasks");
	if ((r->pids || r->tids) && r->cmd)
		return cli_error("-p/-t and a command cannot be combined: follow one or the other");
	if (r->pids && r->tids)
		return cli_error("-p and -t cannot be combined: give the threads with -t");
	if (r->interval && !r->report)
		return cli_error("--interval %s: only with --report", r->interval);
	r->per_task = r->pids || r->tids || (r->cmd && !r->all && !r->cpus);
	return 0;
}

/* One option of perf record's that we take: 0 to go on, else parse()'s return. */
static int option(struct rec *r, int c)
{
	uint64_t ns;

	switch (c) {
	case 'e':
		return add_events(r, optarg) ? 1 : 0;
	case 'a':
		r->all = 1;
		return 0;
	case 'p':
		r->pids = optarg;
		return 0;
	case 't':
		r->tids = optarg;
		return 0;
	case 'C':
		r->cpus = optarg;
		return set_cpus(optarg);
	case 'm':
		return set_pages(r, optarg);
	case 'g':
		r->callchain = 1;
		return 0;
	case 'r':
		return set_rtprio(r, optarg);
	case 'o':
		/* before -e's look-ups: what is wrong with it, said whatever the kernel */
		if (rec_check_output(optarg))
			return 1;
		r->out = optarg;
		r->out_set = 1;
		return 0;
	case 'R':
		r->report = 1;
		return 0;
	case 'I':
		/* checked here: the report's own check would end it before the first byte */
		if (cli_interval(optarg, &ns))
			return 2;
		r->interval = optarg;
		return 0;
	case 'h':
		fputs(record_help, stdout);
		return -1;
	default:
		fputs(record_help, stderr);
		return 2;
	}
}

int rec_parse(struct rec *r, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "realtime", required_argument, NULL, 'r' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", no_argument, NULL, 'R' },
		{ "interval", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	opterr = 0; /* the messages are ours: one line naming the option */
	while ((c = getopt_long(argc, argv, "+:e:aC:m:gp:t:o:r:h", opts, NULL)) != -1) {
		if (c == '?' || c == ':')
			return cli_bad_option("record", c, argv);
		ret = option(r, c);
		if (ret)
			return ret;
	}
	r->cmd = optind < argc ? argv + optind : NULL;
	if (targets(r))
		return 2;
	if (!r->ev.nr && !r->ev.nr_missing) {
		cli_error("no events: give -e system:name");
		return 2;
	}
	/* none left: one line names them all (a line each and then this one said it twice) */
	if (!r->ev.nr && r->ev.nr_missing == 1)
		return cli_error("%s: no such tracepoint on this kernel (%s/events): nothing to "
				 "record",
				 r->ev.missing[0], r->tracefs);
	if (!r->ev.nr) {
		fprintf(cli_err(),
			"tickscope: none of the events exists on this kernel (%s/events):",
			r->tracefs);
		for (c = 0; c < r->ev.nr_missing; c++)
			fprintf(cli_err(), "%s %s", c ? "," : "", r->ev.missing[c]);
		fputs(": nothing to record\n", cli_err());
		return 1;
	}
	for (c = 0; c < r->ev.nr_missing; c++)
		cli_error("%s: no such tracepoint on this kernel (%s/events), not recorded",
			  r->ev.missing[c], r->tracefs);
	return 0;
}
