// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope summary: each run's summary (perf.data.tsum, what compare caches and reads)
 * computed next to its trace, so that a board can send the summary instead of the trace;
 * --check says whether compare can use each run as it is.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "common/io.h"
#include "compare_charts.h"
#include "compare_load.h"
#include "tickscope/compare_report.h"
#include "tickscope/error.h"
#include "tickscope/escape.h"
#include "tickscope/reader.h"
#include "tickscope/version.h"


static const char summary_help[] =
	"usage: tickscope summary [options] RUN...\n\n"
	"Computes the summary of each run folder (RUN/perf.data or perf.data.xz, with kallsyms,\n"
	"meta.txt and the benchmark's output, as `make record` and the boards write them) and\n"
	"writes it next to the trace as RUN/perf.data.tsum: the metrics `tickscope compare`\n"
	"reads, keyed as its cache, with the trace's sha256 and size. compare takes a run\n"
	"folder that holds perf.data.tsum but no perf.data when its meta.txt records the same\n"
	"trace (perf_data_sha256=, perf_data_size=), so a board can send the summary instead\n"
	"of the trace (docs/compare.md, \"Summaries without traces\").\n\n"
	"  --comm NAME   the benchmark's tasks are NAME and NAME-* (default: from meta.txt's\n"
	"                workload_cmd, as compare takes them)\n"
	"  --charts      also write the run's chart data (perf.data.tplot), from which\n"
	"                compare --plots and --html draw a run whose trace is not there\n"
	"  --check       compute nothing: print one line per run, \"ok<TAB>RUN<TAB>WHAT\" or\n"
	"                \"bad<TAB>RUN<TAB>WHY\", whether compare can use the run (a trace whose\n"
	"                sha256 is the one meta.txt records, or a summary that names it);\n"
	"                exit 1 if any run is bad\n"
	"  --allow-mismatch  with --check: as compare --allow-mismatch, a run whose meta.txt\n"
	"                says variant_check=mismatch is usable\n"
	"  -h, --help    this text\n";

static int file_exists(const char *dir, const char *name)
{
	struct stat st;
	char *p;
	int ok;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return 0;
	ok = !stat(p, &st) && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

static int is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* What compare would take from a run that --check found usable. */
static const char *usable(const char *run)
{
	if (file_exists(run, "perf.data") || file_exists(run, "perf.data.xz"))
		return "trace";
	if (file_exists(run, "perf.data.tsum") || file_exists(run, "perf.data.xz.tsum") ||
	    file_exists(run, "perf.data.tsum.xz") || file_exists(run, "perf.data.xz.tsum.xz"))
		return "summary";
	return "benchmark only (no trace recorded)";
}

/* --check: one run, its verdict on stdout; Return: 0 ok, 1 bad. */
static int check_one(const char *run, const struct load_opts *lo)
{
	struct run_in in = { run, NULL, NULL };
	struct ts_run r = { 0 };
	char *msg = NULL, *m;
	size_t len = 0;
	FILE *f = open_memstream(&msg, &len);
	int bad;

	if (!f)
		return cli_error("out of memory");
	cli_set_err(f);
	bad = !is_dir(run) ? cli_error("%s: not a run folder", run) : load_run(&in, lo, &r);
	cli_set_err(NULL);
	fclose(f);
	ts_run_release(&r);
	m = msg ? msg : "";
	if (!strncmp(m, "tickscope: ", 11))
		m += 11;
	m[strcspn(m, "\n")] = '\0';
	/* one line of three fields whatever the folder's name holds (a tab, a newline) */
	fputs(bad ? "bad\t" : "ok\t", stdout);
	ts_escape_put(stdout, run);
	printf("\t%s\n", bad ? (*m ? m : "not usable") : usable(run));
	free(msg);
	return bad ? 1 : 0;
}

/*
 * RUN/<trace>.tsum, and with --charts <trace>.tplot, are summary's to replace: a file there
 * that is not a summary (chart data) of tickscope's is the user's, refused before any is
 * written. A link is replaced, not followed (the rename), and so is not refused.
 */
static int foreign_output(const char *run, int charts)
{
	static const struct {
		const char *suffix, *magic, *what;
	} out[] = {
		{ ".tsum", "tickscope-summary ", "summary" },
		{ ".tplot", "tickscope-plot-variant ", "chart data" },
	};
	const char *data = file_exists(run, "perf.data") ? "perf.data" : "perf.data.xz";
	int bad = 0;

	for (size_t i = 0; i < (charts ? 2u : 1u) && !bad; i++) {
		char head[32] = "", *path;
		struct stat st;
		FILE *f;

		if (asprintf(&path, "%s/%s%s", run, data, out[i].suffix) < 0)
			return cli_error("out of memory");
		/* a FIFO there: the run's summary was read from it, waiting for a writer for ever */
		if (!lstat(path, &st) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
			bad = cli_error("%s: %s, not a regular file: summary writes its %s there",
					path, cli_file_kind(st.st_mode), out[i].what);
		} else if (!lstat(path, &st) && S_ISREG(st.st_mode)) {
			f = fopen(path, "r");
			if (f) {
				head[fread(head, 1, sizeof(head) - 1, f)] = '\0';
				fclose(f);
			}
			if (strncmp(head, out[i].magic, strlen(out[i].magic)))
				bad = cli_error(
					"%s: not tickscope's %s (it does not start with \"%.*s\"): "
					"summary replaces only its own, not this file",
					path, out[i].what, (int)strlen(out[i].magic) - 1,
					out[i].magic);
		}
		free(path);
	}
	return bad;
}

/* One run summarised; says what it wrote. */
static int summarise_one(const char *run, const struct load_opts *lo, struct cmp_charts *cc)
{
	struct run_in in = { run, NULL, NULL };
	struct ts_summary_head h;
	struct ts_run r = { 0 };
	char *tsum = NULL;
	int err, line;

	if (!is_dir(run))
		return cli_error("%s: not a run folder", run);
	if (cc && cmp_charts_variant(cc, 0))
		return 1;
	err = load_run(&in, lo, &r);
	if (!err && asprintf(&tsum, "%s/%s.tsum", run,
			     file_exists(run, "perf.data") ? "perf.data" : "perf.data.xz") < 0)
		err = cli_error("out of memory");
	if (!err && !ts_summary_head(tsum, &h, &line)) {
		struct ts_run only = { 0 };

		ts_summary_read(tsum, h.key, &only, NULL);
		if (!cli_stdout_closed()) /* the summary is the product, not this note */
			printf("%s: %d metrics of a trace of %lld bytes, sha256 %s\n", tsum,
			       only.nr, h.trace_size, h.sha256);
		ts_run_release(&only);
		ts_summary_head_release(&h);
	} else if (!err) {
		err = cli_error("%s:%d: not written as expected", tsum, line);
	}
	free(tsum);
	ts_run_release(&r);
	return err;
}

int cmd_summary(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "comm", required_argument, NULL, 'C' },
		{ "charts", no_argument, NULL, 'p' },
		{ "check", no_argument, NULL, 'k' },
		{ "allow-mismatch", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct load_opts lo = { .version = TS_SUMMARY_VERSION, .summarise = 1 };
	struct cmp_charts cc = { 0 };
	int c, charts = 0, bad = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			lo.comm = optarg;
			if (cli_comm(optarg))
				return 2;
			break;
		case 'p':
			charts = 1;
			break;
		case 'k':
			lo.check = 1;
			lo.summarise = 0;
			break;
		case 'M':
			lo.allow_mismatch = 1;
			break;
		case 'h':
			fputs(summary_help, stdout);
			return 0;
		default:
			return cli_bad_option("summary", c, argv);
		}
	}
	if (optind == argc)
		return cli_error("summary: give at least one run folder (see --help)") + 1;
	if (charts && lo.check)
		return cli_error("--charts and --check exclude each other");
	/* every name checked before the first summary is written: a typo refuses them all */
	for (int i = optind; i < argc && !lo.check; i++)
		if (!is_dir(argv[i]))
			return cli_error("%s: not a run folder", argv[i]);
	for (int i = optind; i < argc && !lo.check; i++)
		if (foreign_output(argv[i], charts))
			return 1;
	if (charts) {
		cmp_charts_init(&cc, &lo);
		cc.beside = 1; /* the run folder is summary's output */
	}
	for (int i = optind; i < argc && (lo.check || !bad); i++)
		bad |= lo.check ? check_one(argv[i], &lo) :
				  summarise_one(argv[i], &lo, charts ? &cc : NULL);
	ts_reader_arena_release(); /* kept from run to run (ts_reader_opts.keep_arena) */
	if (fflush(stdout) && !bad) /* a closed stdout named, as the other commands do */
		bad = cli_error("writing to stdout: %s", ts_strerror(ts_stream_err(stdout)));
	cmp_charts_release(&cc);
	return bad ? 1 : 0;
}
