// SPDX-License-Identifier: GPL-2.0-only
/*
 * The commands' one option parser, after rtla's common_parse_options(): the options every
 * command shares (-i/--input, --kallsyms, --file-order, --strict, -h/--help) here, each command's own
 * through its callback, and one place that decides help, usage errors and the input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/io.h"
#include "tickscope/analysis.h"

#define MAX_OPTS 32

static const struct option common_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "kallsyms", required_argument, NULL, 'k' },
	{ "file-order", no_argument, NULL, 'u' },
	{ "strict", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
};

static const struct option filter_opts[] = {
	{ "cpu", required_argument, NULL, 'c' },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, 'C' },
	{ "time", required_argument, NULL, 't' },
	{ 0 },
};

/* The long options: the common ones the command takes, then its own. */
static int build(struct option *all, const struct cli_common *c, const struct option *extra)
{
	unsigned int common = c->common;
	const struct option *f;
	int n = 0;
	size_t i;

	for (i = 0; i < sizeof(common_opts) / sizeof(common_opts[0]); i++)
		if ((common_opts[i].val == 'k' && !(common & CLI_KALLSYMS)) ||
		    (common_opts[i].val == 'u' && !(common & CLI_FILE_ORDER)) ||
		    (common_opts[i].val == 's' && !(common & CLI_STRICT)))
			continue;
		else
			all[n++] = common_opts[i];
	for (f = filter_opts; c->filters && f->name; f++)
		all[n++] = *f;
	for (; extra && extra->name && n < MAX_OPTS - 1; extra++)
		all[n++] = *extra;
	memset(&all[n], 0, sizeof(all[n]));
	return n;
}

static int parse_pids(struct cli_filters *f, const char *s)
{
	struct ts_analysis_opts *an = f->an;
	char *end;
	long v;

	if (!*s) /* --pid "$PID" with PID unset: no list, not "every task" */
		return -1;
	while (*s) {
		v = strtol(s, &end, 10);
		if (end == s || v < 0 || v > INT32_MAX || an->nr_pids == CLI_MAX_PIDS)
			return -1;
		f->pids[an->nr_pids++] = (int32_t)v;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

/* --time START,END; START alone where the command allows it (a timeline's window). */
static int parse_time(struct cli_filters *f, const char *arg)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%s", arg, f->start_alone && !strchr(arg, ',') ? "," : "");
	if (ts_analysis_parse_time(buf, &f->an->time_start, &f->an->time_end))
		return cli_error("--time: expected START,END in seconds, got '%s'", arg) + 1;
	return 0;
}

/* One filter option; 1 when @opt is not one. */
static int filter_option(struct cli_filters *f, int opt)
{
	uint64_t bits[TS_MAX_CPUS / 64];

	switch (opt) {
	case 'c':
		f->an->cpus = optarg;
		return ts_analysis_parse_cpus(optarg, bits) ?
			       cli_error("--cpu: bad list '%s'", optarg) + 1 :
			       0;
	case 'p':
		f->an->pids = f->pids;
		return parse_pids(f, optarg) ? cli_error("--pid: bad list '%s'", optarg) + 1 : 0;
	case 'C':
		f->an->comm = optarg;
		return cli_comm(optarg);
	case 't':
		return parse_time(f, optarg);
	default:
		return 1;
	}
}

static int common_option(struct cli_common *c, int opt)
{
	switch (opt) {
	case 'i':
		c->in = optarg;
		return 0;
	case 'k':
		c->kallsyms = optarg;
		return 0;
	case 'u':
		c->file_order = 1;
		return 0;
	case 's':
		c->strict = 1;
		return 0;
	case 'h':
		fputs(c->help, stdout);
		return -1;
	default:
		return 1; /* not a common option */
	}
}

int cli_parse(int argc, char **argv, struct cli_common *c, const struct option *extra,
	      cli_option_fn fn, void *ctx)
{
	struct option all[MAX_OPTS];
	char shorts[32];
	int opt, ret;

	build(all, c, extra);
	snprintf(shorts, sizeof(shorts), ":i:h%s", c->short_opts ? c->short_opts : "");
	opterr = 0; /* the messages are ours: one line naming the option */
	while ((opt = getopt_long(argc, argv, shorts, all, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			return cli_bad_option(c->name, opt, argv);
		ret = common_option(c, opt);
		if (ret == 1 && c->filters)
			ret = filter_option(c->filters, opt);
		if (ret == 1)
			ret = fn ? fn(ctx, opt) : CLI_USAGE;
		if (ret == CLI_USAGE) {
			fputs(c->help, stderr);
			return 2;
		}
		if (ret)
			return ret;
	}
	if ((c->common & CLI_ONE_INPUT) && cli_check_operands(c->name, c->in, argc, argv, optind))
		return 2;
	c->input = cli_input(c->in, argc, argv, optind);
	/* no output replaces an input (report -i d/events.tsv --tsv d) */
	if (c->keep &&
	    (ts_out_keep_add(c->keep, c->input) || ts_out_keep_add(c->keep, c->kallsyms)))
		return cli_error("%s: %s", c->name, strerror(E2BIG));
	/*
	 * perf.data is only the default (of info, dump, report and plot, the commands parsed
	 * here): a new user without one is told so, not just ENOENT
	 */
	if (!c->in && optind >= argc && access(c->input, F_OK) && errno == ENOENT)
		return cli_error("%s: no FILE given, and no perf.data in this folder "
				 "(tickscope %s [-i] FILE)",
				 c->name, c->name);
	return 0;
}

int cli_comm(const char *name)
{
	/* "" filtered nothing: --comm "$NAME" with NAME unset gave every task's figures */
	return *name ? 0 :
		       cli_error("--comm: an empty name (a task's name, as in perf's comm)") + 1;
}

unsigned int cli_count(const char *s)
{
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 7)
		return 0;
	v = strtoul(s, NULL, 10);
	return v <= 1000000 ? (unsigned int)v : 0;
}

int cli_interval(const char *s, uint64_t *ns)
{
	char *end;
	double secs = strtod(s, &end);

	if (*end || end == s || !(secs >= 0.001 && secs < 1e9))
		return cli_error("--interval: N seconds >= 0.001, got '%s'", s) + 1;
	*ns = (uint64_t)(secs * 1e9);
	return 0;
}
