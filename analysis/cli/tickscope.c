// SPDX-License-Identifier: GPL-2.0-only
/* tickscope: the command dispatcher (the helpers the commands share are in cli_common.c). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/io.h"
#include "tickscope/error.h"
#include "tickscope/version.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "info", cmd_info, "show what a perf.data file holds: machine, events, lost events" },
	{ "dump", cmd_dump, "print every tracepoint sample (perf script's form, TSV or JSON)" },
	{ "report", cmd_report, "per-task, per-CPU and whole-trace analyses: text, JSON or TSV" },
	{ "compare", cmd_compare,
	  "variants of N runs each: the benchmark change, its statistics and why" },
	{ "summary", cmd_summary,
	  "each run's compare summary, written next to its trace to travel alone" },
	{ "plot", cmd_plot, "charts of one run (gnuplot PNG, SVG) and a one-file HTML report" },
	{ "record", cmd_record, "record a command's or whole CPUs' tracepoints (no perf needed)" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: tickscope <command> [options] [-i] FILE\n\n"
		"tickscope explains why a benchmark got slower between two kernel variants,\n"
		"from sched, timer, RCU, idle, workqueue and shrinker tracepoints in perf.data.\n\n"
		"commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n`tickscope <command> --help` describes each command, `tickscope --version`\n"
		   "prints the version, and man tickscope has them all (after make install; in\n"
		   "the source tree, man -l docs/man/tickscope.1).\n");
}

/*
 * A mapped file that shrinks under us (the perf.data's data section, a cached kallsyms table)
 * raises SIGBUS at the first touch past its new end: the reader checks the size as it goes
 * (analysis/source/perf_runs.c), and a cut between a check and a touch ends here, with one
 * line and exit 1 rather than a core dump.
 */
static void on_sigbus(int sig)
{
	static const char msg[] = "tickscope: a file being read was cut short under us (SIGBUS "
				  "on a mapped input: perf.data or a cached kallsyms table)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

/*
 * What a command printed on stdout must have arrived: `tickscope info >/dev/full` (a full
 * disk) exited 0 with its output lost. A command that failed already said why.
 */
static int flushed(int rc)
{
	int err;

	fflush(stdout); /* a failure sets the stream's error and errno */
	err = ts_stream_err(stdout);
	if (!err || rc)
		return rc;
	cli_error("writing the output: %s", ts_strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	size_t i;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	if (ts_stdio_guard() < 0)
		return 1; /* not even /dev/null: there is nowhere to say it */

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return flushed(argc < 2 ? 2 : 0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tickscope %s\n", TS_VERSION);
		return flushed(0);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return flushed(commands[i].fn(argc - 1, argv + 1));
	cli_error("unknown command '%s' (tickscope --help lists them)", argv[1]);
	return 2;
}
