// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope report: run every model over a perf.data file and print text sections (default),
 * one JSON document (--json) or one TSV per table (--tsv DIR).
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "report_interval.h"
#include "tickscope/analysis.h"
#include "common/io.h"
#include "tickscope/error.h"
#include "tickscope/reader.h"
#include "tickscope/report.h"
#include "tickscope/source.h"

int cmd_report(int argc, char **argv);

#define MAX_WATCH 32

static const char report_help[] =
	"usage: tickscope report [-i] FILE [--kallsyms FILE] [--json | --tsv DIR]\n"
	"                        [--cpu LIST] [--pid LIST] [--comm NAME] [--time START,END]\n"
	"                        [--top N] [--watch FUNC]... [--interval N]\n\n"
	"Per-task, per-CPU and whole-trace figures from sched, idle/tick, timer, workqueue,\n"
	"RCU and shrinker tracepoints. Each section says which events it needed, which were\n"
	"recorded, and how many lost events touch its time range.\n\n"
	"  -i, --input FILE     the perf.data file (default: perf.data), or - for a pipe-mode\n"
	"                       stream on stdin\n"
	"      --kallsyms FILE  symbols of the recording kernel for function names (moved to\n"
	"                       the recording boot's addresses, as perf does); by default perf's\n"
	"                       build-id cache copy, else the running kernel's if the build id\n"
	"                       matches\n"
	"      --json           one JSON document on stdout (docs/report-json.md)\n"
	"      --tsv DIR        one TSV file per table into DIR (docs/report-tsv.md)\n"
	"      --cpu LIST       only events on these CPUs (\"0-3,6\"; wakeups also by target)\n"
	"      --pid LIST       only these tasks (tids, comma-separated) in per-task and\n"
	"                       whole-trace sched figures, workqueue and shrinker tables\n"
	"      --comm NAME      only tasks with exactly this comm (combines with --pid)\n"
	"      --time START,END only events in this window (seconds, perf's clock; either\n"
	"                       side may be empty)\n"
	"      --top N          rows of ranked text tables (default 20)\n"
	"      --watch FUNC     always list this work/timer function (default vmstat_update)\n"
	"      --interval N     also a text report of each N seconds of the recording (from\n"
	"                       its first event; each interval's events only, printed when\n"
	"                       the first event past it arrives: live with `tickscope record\n"
	"                       --report`), before the report of the whole; a last partial\n"
	"                       interval is only in the whole\n"
	"      --file-order     skip time ordering (faster; sched figures need time order)\n"
	"      --strict         a pipe-mode stream cut inside a record is an error (exit 1);\n"
	"                       by default the records before the cut are used and a warning\n"
	"                       says where the input was cut\n"
	"  -h, --help           this text\n";

enum out { OUT_TEXT, OUT_JSON, OUT_TSV };

struct report_args {
	struct ts_source_opts src;
	struct ts_analysis_opts an;
	enum out out;
	const char *tsv_dir;
	unsigned int top;
	struct cli_filters flt;
	const char *watch[MAX_WATCH + 1];
	int nr_watch;
	uint64_t interval; /* ns; 0 without --interval */
	struct ts_out_keep keep; /* the input and --kallsyms, which --tsv never replaces */
};

/* One of report's own options; returns 0 to go on, or the exit code. */
static int option(void *ctx, int c)
{
	struct report_args *r = ctx;
	switch (c) {
	case 'j':
	case 'T':
		if (r->out != OUT_TEXT && r->out != (c == 'j' ? OUT_JSON : OUT_TSV))
			return cli_error("report: --json and --tsv DIR cannot be combined: choose "
					 "one output") +
			       1;
		r->out = c == 'j' ? OUT_JSON : OUT_TSV;
		if (c == 'T')
			r->tsv_dir = optarg;
		return 0;
	case 'n':
		r->top = cli_count(optarg);
		return !r->top ? cli_error("--top: bad number '%s'", optarg) + 1 : 0;
	case 'I':
		return cli_interval(optarg, &r->interval);
	case 'w':
		if (r->nr_watch == MAX_WATCH)
			return cli_error("--watch: at most %d functions", MAX_WATCH) + 1;
		r->watch[r->nr_watch++] = optarg;
		return 0;
	default:
		return CLI_USAGE;
	}
}

static int parse_args(struct report_args *r, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "tsv", required_argument, NULL, 'T' },
		{ "top", required_argument, NULL, 'n' },
		{ "watch", required_argument, NULL, 'w' },
		{ "interval", required_argument, NULL, 'I' },
		{ 0 },
	};
	struct cli_common cc = { .name = "report",
				 .help = report_help,
				 .common = CLI_KALLSYMS | CLI_FILE_ORDER | CLI_STRICT |
					   CLI_ONE_INPUT,
				 .filters = &r->flt,
				 .keep = &r->keep };
	int ret;

	r->flt.an = &r->an;
	ret = cli_parse(argc, argv, &cc, longopts, option, r);

	if (ret)
		return ret;
	if (r->interval && r->out != OUT_TEXT)
		return cli_error("report: --interval prints text reports; it cannot be combined "
				 "with --json or --tsv") +
		       1;
	r->src.input = cc.input;
	r->src.kallsyms = cc.kallsyms;
	r->src.ksyms_cache = cli_ksyms_cache();
	r->src.formats_cache = cli_formats_cache();
	r->src.unordered = cc.file_order;
	r->src.strict = cc.strict;
	r->src.need_decoder = 1;
	r->src.symbols = TS_SYMS_TABLE;
	/*
	 * The threaded source hands events over a quarter of its ring at a time: a slow live
	 * stream would sit there past its interval's end. --interval decodes on one thread.
	 */
	r->src.threaded = !r->interval;
	r->src.scan_thread = !r->interval; /* whatever the load: docs/scale.md */
	/* the folder too, before the trace is read: not after minutes of work, as compare's */
	return r->tsv_dir && cli_check_dir("--tsv", r->tsv_dir) ? 1 : 0;
}

static int feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	return ts_analysis_feed(ctx, ev);
}

static int write_report(struct report_args *r, struct ts_source *src, struct ts_analysis *a)
{
	struct ts_report_opts o = { 0 };
	struct ts_run_meta run;
	char bad[4096] = "";
	int ret;

	ts_source_report_opts(src, &o);
	ret = cli_run_meta(r->src.input, &run);
	if (ret < 0)
		return 1;
	if (ret)
		o.run = &run;
	o.top = r->top;
	o.keep = &r->keep;
	if (r->nr_watch)
		o.watch = r->watch;
	if (r->out == OUT_JSON)
		ret = ts_report_json(stdout, a, &o);
	else if (r->out == OUT_TSV)
		ret = ts_report_tsv(r->tsv_dir, a, &o, bad, sizeof(bad));
	else
		ret = ts_report_text(stdout, a, &o);
	if (fflush(stdout) && !ret)
		ret = ts_stream_err(stdout);
	if (ret)
		return cli_error("writing the report%s%s: %s", r->tsv_dir ? " to " : "",
				 bad[0] ? bad : (r->tsv_dir ?: ""), ts_strerror(ret));
	return 0;
}

struct interval_ctx {
	struct report_args *r;
	struct ts_source *src;
};

static int print_interval(void *ctx, const char *head, struct ts_analysis *a)
{
	struct interval_ctx *c = ctx;

	printf("%s\n", head);
	return write_report(c->r, c->src, a) ?: (printf("\n"), 0);
}

/* every event into @a; with --interval, into each interval's models too */
static int run(struct report_args *r, struct ts_source *src, struct ts_analysis *a)
{
	struct interval_ctx c = { r, src };
	struct report_interval ri;
	int ret;

	if (!r->interval)
		return ts_source_run(src, feed, a);
	ret = report_interval_init(&ri, r->interval, a, &r->an, src, print_interval, &c);
	if (!ret)
		ret = ts_source_run(src, report_interval_feed, &ri);
	if (!ret && ri.k)
		printf("== the whole recording: %d intervals of %.3f s and the rest ==\n", ri.k,
		       r->interval / 1e9);
	report_interval_free(&ri);
	return ret;
}

/*
 * --cpu against the recording machine's CPUs (when the file says how many): none of them is
 * an error, some of them a warning; an empty report must not look like a measurement.
 */
static int check_cpus(const struct report_args *r, struct ts_source *src)
{
	const struct ts_file_info *i = ts_reader_info(ts_source_reader(src));
	uint64_t bits[TS_MAX_CPUS / 64];
	int c, in = 0, out = 0;

	if (!r->an.cpus || !i->nr_cpus_avail || ts_analysis_parse_cpus(r->an.cpus, bits))
		return 0;
	for (c = 0; c < TS_MAX_CPUS; c++) {
		if (!(bits[c / 64] >> (c % 64) & 1))
			continue;
		if ((uint32_t)c < i->nr_cpus_avail)
			in++;
		else
			out++;
	}
	if (!in)
		return cli_error("report: --cpu %s: the recording machine has CPUs 0-%u only",
				 r->an.cpus, i->nr_cpus_avail - 1) +
		       1;
	if (out)
		fprintf(stderr,
			"tickscope: warning: --cpu %s: %d of these CPUs are not in the recording "
			"machine (CPUs 0-%u)\n",
			r->an.cpus, out, i->nr_cpus_avail - 1);
	return 0;
}

#define HEAP_HUGE_PAGE (2u << 20)
#define HEAP_HUGE (16u << 20)

/*
 * The models grow their tables on the merging thread (this one), the critical path of a run with
 * two threads, and on this project's VM each 4 KiB page's first touch is a fault of 10-20 us: on
 * the bench trace about 600 of them (docs/scale.md, "Page faults on the merging thread"). So the
 * next HEAP_HUGE bytes of this thread's malloc() heap are asked for in huge pages, which fault
 * 2 MiB at a time: large blocks come from the heap, not from mappings of their own, it is grown
 * once now and not given back. Best effort, where brk() and huge pages are to be had; memory
 * is still touched only as it is used.
 */
static void heap_huge(void)
{
#if defined(MADV_HUGEPAGE) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	uintptr_t lo, hi;
	void *p, *brk;

	if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) || !mallopt(M_TRIM_THRESHOLD, 64 << 20))
		return;
	p = malloc(HEAP_HUGE);
	if (!p)
		return;
	lo = (uintptr_t)p;
	free(p);
	brk = sbrk(0);
	if (brk == (void *)-1 || lo + HEAP_HUGE > (uintptr_t)brk)
		return; /* not from the brk() heap */
	lo = (lo + HEAP_HUGE_PAGE - 1) & ~(uintptr_t)(HEAP_HUGE_PAGE - 1);
	hi = (uintptr_t)brk & ~(uintptr_t)(HEAP_HUGE_PAGE - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
}

int cmd_report(int argc, char **argv)
{
	struct report_args r = { .out = OUT_TEXT };
	struct ts_source *src = NULL;
	struct ts_analysis *a = NULL;
	int ret = parse_args(&r, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	/*
	 * The text lists the top tasks: exited ones beyond them fold (JSON and TSV list all). Not
	 * in file order, where a task's last switch-out may come before its other events.
	 */
	if (r.out == OUT_TEXT && !r.src.unordered)
		r.an.top_tasks = r.top ? r.top : TS_REPORT_TOP_DEFAULT;
	heap_huge();
	ret = ts_analysis_new(&a, &r.an);
	if (ret)
		return cli_error("%s", ts_strerror(ret));
	ret = ts_source_open(&src, &r.src);
	if (!ret && check_cpus(&r, src)) {
		ts_source_close(src);
		ts_analysis_free(a);
		return 2;
	}
	if (!ret) {
		ts_source_note_recorded(src, a);
		ret = run(&r, src, a);
		/* the records are all read: their memory is not to add to the report's */
		ts_reader_drop_rounds(ts_source_reader(src));
	}
	cli_warnings(src);
	if (ret) {
		cli_error("%s", src ? ts_source_error(src) : ts_strerror(ret));
		goto close_source;
	}
	ret = cli_finish(src, a);
	if (ret) {
		cli_error("%s", ts_strerror(ret));
		goto close_source;
	}
	ret = write_report(&r, src, a);
close_source:
	ts_source_close(src);
	ts_analysis_free(a);
	return ret ? 1 : 0;
}
