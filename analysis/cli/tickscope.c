// SPDX-License-Identifier: GPL-2.0-only
/* tickscope: the command dispatcher (the helpers the commands share are in cli_common.c). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef TS_VERSION
#define TS_VERSION "0.1"
#endif

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
	{ "record", cmd_record, "record tracepoints on every CPU into perf.data (no perf needed)" },
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
		   "prints the version, and man tickscope has them all.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tickscope %s\n", TS_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	cli_error("unknown command '%s' (tickscope --help lists them)", argv[1]);
	return 2;
}
