// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope plot: the charts of one run (latency distributions, idle exits, timers, work,
 * off-CPU stacks, ...) or `plot timeline`, a few milliseconds of it CPU by CPU, drawn by
 * gnuplot into a folder with their data files and commands; --html adds a one-file report.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/io.h"
#include "jobs.h"
#include "tickscope/analysis.h"
#include "tickscope/chart.h"
#include "tickscope/error.h"
#include "tickscope/html.h"
#include "tickscope/report.h"
#include "tickscope/source.h"
#include "tickscope/timeline.h"

#define TIMELINE_DEFAULT_NS 2000000ULL /* 2 ms */
#define TIMELINE_MAX_NS 100000000ULL /* 100 ms */

static const char plot_help[] =
	"usage: tickscope plot [-i] FILE [-o DIR] [--html FILE] [--kallsyms FILE]\n"
	"                      [--cpu LIST] [--pid LIST] [--comm NAME] [--time START,END]\n"
	"       tickscope plot A.data B.data ... [-o DIR] [--html FILE] [--comm NAME] ...\n"
	"       tickscope plot timeline [-i] FILE --time START[,END] [-o DIR] [--kallsyms FILE]\n\n"
	"Charts of one run, drawn by gnuplot as PNG and SVG into DIR together with their data\n"
	"(TSV), the gnuplot scripts and plots.sh, the commands that redraw them by hand:\n"
	"latency distributions (wake delivery, wakeup latency, sched delay; all and by wake\n"
	"class), idle exits and residency per CPU, timer and work expiries by function, off-CPU\n"
	"time by stack, shrinker and grace-period durations. A chart whose events were not\n"
	"recorded is not drawn: charts.tsv and the HTML report say what to record.\n"
	"`plot timeline` draws a window of a few ms: per CPU, the task that ran, idle periods,\n"
	"tick stops, timer expiries and wakeups as arrows from CPU to CPU.\n"
	"With several files, each is one variant of one run, drawn side by side in every\n"
	"chart (A against B CDFs, ...); --comm then names the benchmark's tasks (NAME and\n"
	"NAME-*) whose latencies are drawn, and filters nothing.\n\n"
	"  -i, --input FILE     the perf.data file (default: perf.data), or - for a pipe-mode\n"
	"                       stream on stdin\n"
	"  -o, --out DIR        where the charts go (created if missing; default tickscope-plots,\n"
	"                       for plot timeline tickscope-timeline)\n"
	"      --html FILE      also write one self-contained HTML report: charts inlined as\n"
	"                       SVG, the recording's conditions and the text report (FILE:\n"
	"                       new, empty or such a page; no other file is replaced)\n"
	"      --kallsyms FILE  symbols of the recording kernel (as for tickscope report)\n"
	"      --cpu, --pid, --comm, --time   filters, as for tickscope report; for timeline,\n"
	"                       --time is the window (seconds, perf's clock; END defaults to\n"
	"                       START + 2 ms, at most 100 ms) and --cpu picks the lanes\n"
	"  -h, --help           this text\n";

struct plot_args {
	struct ts_source_opts src;
	struct ts_analysis_opts an;
	struct cli_filters flt;
	const char *dir, *html;
	int timeline;
	char **files; /* several inputs: one variant each */
	int nr_files;
	struct ts_out_keep keep; /* the inputs, which no chart replaces */
};

/* One of plot's own options; 0 to go on, or CLI_USAGE. */
static int option(void *ctx, int c)
{
	struct plot_args *p = ctx;

	switch (c) {
	case 'o':
		p->dir = optarg;
		return 0;
	case 'H':
		p->html = optarg;
		return 0;
	default:
		return CLI_USAGE;
	}
}

static int parse_args(struct plot_args *p, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "html", required_argument, NULL, 'H' },
		{ 0 },
	};
	struct cli_common cc = { .name = "plot",
				 .help = plot_help,
				 .common = CLI_KALLSYMS,
				 .filters = &p->flt,
				 .short_opts = "o:",
				 .keep = &p->keep };
	int ret;

	if (argc > 1 && !strcmp(argv[1], "timeline")) {
		p->timeline = 1;
		cc.name = "plot timeline";
		argc--;
		argv++;
	}
	p->flt.an = &p->an;
	p->flt.start_alone = p->timeline;
	ret = cli_parse(argc, argv, &cc, longopts, option, p);
	if (ret)
		return ret;
	if ((p->timeline && optind + 1 < argc) || (cc.in && optind < argc)) {
		fputs(plot_help, stderr);
		return 2;
	}
	p->files = argv + optind;
	p->nr_files = argc - optind;
	if (p->timeline && !p->an.time_start)
		return cli_error("plot timeline: --time START[,END] is needed (seconds, as "
				 "tickscope info shows the trace's span)") +
		       1;
	p->src.input = cc.input;
	p->src.kallsyms = cc.kallsyms;
	p->src.ksyms_cache = cli_ksyms_cache();
	p->src.formats_cache = cli_formats_cache();
	p->src.need_decoder = 1;
	p->src.symbols = TS_SYMS_TABLE;
	p->src.threaded = 1;
	/* apart: a timeline's plots.sh and charts.tsv would replace the run's in one folder */
	if (!p->dir)
		p->dir = p->timeline ? "tickscope-timeline" : "tickscope-plots";
	return 0;
}

static int make_dir(const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		return cli_error("cannot create %s: %s", dir, strerror(errno));
	return 0;
}

static int readable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return cli_error("%s: %s", path, strerror(errno));
	close(fd);
	return 0;
}

/*
 * Several files: each name and TS_JOBS checked before the folder is made, so that one
 * refused later leaves no new empty folder behind (the files are read by the workers).
 */
static int variant_args(struct plot_args *p)
{
	if (p->nr_files > TS_PLOT_MAX_VARIANTS)
		return cli_error("plot: at most %d files side by side", TS_PLOT_MAX_VARIANTS);
	for (int i = 0; i < p->nr_files; i++) {
		if (readable(p->files[i]))
			return 1;
		if (ts_out_keep_add(&p->keep, p->files[i])) /* no chart replaces one of them */
			return cli_error("plot: %s", strerror(E2BIG));
	}
	return cli_jobs_workers(0, p->nr_files) < 0;
}

/*
 * -o names a folder: anything else there is said now, not after the whole trace is read;
 * --kallsyms too, which a threaded source reads only once the folder is made.
 */
static int check_out(const struct plot_args *p)
{
	return cli_check_charts_dir("-o", p->dir, &p->keep) ||
	       (p->src.kallsyms && readable(p->src.kallsyms));
}

static int feed_analysis(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	return ts_analysis_feed(ctx, ev);
}

/* The timeline and the CPUs it shows (--cpu): events on other CPUs are not fed. */
struct tl_feed {
	struct ts_timeline *t;
	uint64_t cpus[TS_MAX_CPUS / 64];
};

static int feed_timeline(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct tl_feed *f = ctx;
	uint32_t cpu = (uint32_t)ev->cpu;

	if (cpu < TS_MAX_CPUS && !(f->cpus[cpu / 64] & (1ULL << (cpu % 64))))
		return 0;
	return ts_timeline_feed(f->t, ev);
}

struct run_fill {
	const struct ts_analysis *a;
	const struct ts_report_opts *o;
};

static int fill_run(struct ts_charts *cs, void *ctx)
{
	struct run_fill *f = ctx;

	return ts_plot_run(cs, f->a, f->o);
}

static int plot_run(struct plot_args *p, struct ts_source *src, struct ts_analysis *a)
{
	struct ts_charts cs = { .dir = p->dir, .keep = &p->keep };
	struct ts_report_opts o = { 0 };
	struct run_fill f = { a, &o };
	int ret;

	ts_source_report_opts(src, &o);
	ret = cli_charts_fill(&cs, fill_run, &f);
	if (ret) {
		if (ret < 0)
			cli_error("writing chart data into %s: %s", p->dir, ts_strerror(ret));
		goto release;
	}
	ret = cli_draw(&cs);
	if (!ret && p->html)
		ret = cli_plot_html(p->html, &cs, a, &o);
	if (!ret)
		cli_plot_summary(stdout, &cs);
release:
	ts_charts_release(&cs);
	return ret ? 1 : 0;
}

struct tl_fill {
	const struct plot_args *p;
	const struct ts_timeline *t;
	const struct ts_report_opts *o;
};

static int fill_timeline(struct ts_charts *cs, void *ctx)
{
	struct tl_fill *f = ctx;
	struct ts_chart *c = ts_charts_add(cs, "timeline", "timeline.gp");

	if (!c)
		return -ENOMEM;
	snprintf(c->title, sizeof(c->title), "%s: %.6f to %.6f s", f->p->src.input,
		 (double)f->p->an.time_start / 1e9, (double)f->p->an.time_end / 1e9);
	return ts_plot_timeline(cs, c, f->t, f->o);
}

static int plot_timeline(struct plot_args *p, struct ts_source *src, struct ts_timeline *t)
{
	struct ts_charts cs = { .dir = p->dir, .keep = &p->keep };
	struct ts_report_opts o = { 0 };
	struct tl_fill f = { p, t, &o };
	struct ts_chart *c;
	int ret;

	ts_source_report_opts(src, &o);
	ret = cli_charts_fill(&cs, fill_timeline, &f);
	c = cs.nr ? &cs.c[0] : NULL;
	if (ret < 0)
		ret = cli_error("writing the timeline into %s: %s", p->dir, ts_strerror(ret));
	else if (!ret && c->missing[0])
		ret = cli_error("%s: %s", p->src.input, c->missing);
	else
		ret = cli_draw(&cs);
	if (!ret)
		cli_plot_summary(stdout, &cs);
	ts_charts_release(&cs);
	return ret ? 1 : 0;
}

/* The timeline's options, checked before its folder is made. */
static int timeline_args(struct plot_args *p)
{
	if (p->an.nr_pids || p->an.comm)
		return cli_error("plot timeline: --pid and --comm do not apply (it shows every "
				 "task); --cpu picks the CPUs");
	if (!p->an.time_end)
		p->an.time_end = p->an.time_start + TIMELINE_DEFAULT_NS;
	/* a window of one instant has no lane to draw ("tickscope: no error" before) */
	if (p->an.time_end <= p->an.time_start)
		return cli_error("plot timeline: --time START,END is an empty window: give END "
				 "after START");
	if (p->an.time_end - p->an.time_start > TIMELINE_MAX_NS)
		return cli_error("plot timeline: the window is %.3f ms; at most %llu ms",
				 (double)(p->an.time_end - p->an.time_start) / 1e6,
				 TIMELINE_MAX_NS / 1000000ULL);
	return 0;
}

static int run_timeline(struct plot_args *p, struct ts_source *src)
{
	struct tl_feed f;
	struct ts_timeline *t = NULL;
	int ret;

	memset(f.cpus, 0xff, sizeof(f.cpus));
	if (p->an.cpus)
		ts_analysis_parse_cpus(p->an.cpus, f.cpus);
	ret = ts_timeline_new(&t, p->an.time_start, p->an.time_end);
	f.t = t;
	if (!ret)
		ret = ts_source_run(src, feed_timeline, &f);
	if (!ret)
		ret = ts_timeline_finish(t);
	if (ret)
		cli_error("%s", ret == -E2BIG ?
					"plot timeline: too much in the window: narrow --time" :
				ret == -ENOMEM ? ts_strerror(ret) :
						 ts_source_error(src));
	else
		ret = plot_timeline(p, src, t);
	ts_timeline_free(t);
	return ret ? 1 : 0;
}

static int run_analysis(struct plot_args *p, struct ts_source *src)
{
	struct ts_analysis *a = NULL;
	int ret = ts_analysis_new(&a, &p->an);

	if (ret)
		return cli_error("%s", ts_strerror(ret));
	ts_source_note_recorded(src, a);
	ret = ts_source_run(src, feed_analysis, a);
	if (ret)
		cli_error("%s", ts_source_error(src));
	else if ((ret = cli_finish(src, a)))
		cli_error("%s", ts_strerror(ret));
	else
		ret = plot_run(p, src, a);
	ts_analysis_free(a);
	return ret ? 1 : 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args p = { 0 };
	struct ts_source *src = NULL;
	int ret = parse_args(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (p.html && cli_check_page("--html", p.html))
		return 1;
	if (p.timeline && timeline_args(&p))
		return 1;
	/* the inputs kept first: -o's check leaves them to their own line */
	if ((p.nr_files > 1 && variant_args(&p)) || check_out(&p))
		return 1;
	if (p.nr_files > 1) {
		const char *comm = p.an.comm;

		if (make_dir(p.dir))
			return 1;
		p.an.comm = NULL; /* names the benchmark's tasks, filters nothing */
		return cli_plot_variants(p.files, p.nr_files, &p.src, &p.an, comm, p.dir, &p.keep,
					 p.html);
	}
	/* the input opened before the folder is made: a refused one leaves none */
	ret = ts_source_open(&src, &p.src);
	if (ret) {
		cli_error("%s", src ? ts_source_error(src) : ts_strerror(ret));
		ts_source_close(src);
		return 1;
	}
	ret = make_dir(p.dir);
	if (!ret)
		ret = p.timeline ? run_timeline(&p, src) : run_analysis(&p, src);
	ts_source_close(src);
	return ret;
}
