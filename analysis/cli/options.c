// SPDX-License-Identifier: GPL-2.0-only
/*
 * The commands' one option parser, after rtla's common_parse_options(): the options every
 * command shares (-i/--input, --kallsyms, --file-order, --strict, -h/--help) here, each command's own
 * through its callback, and one place that decides help, usage errors and the input.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define MAX_OPTS 32

static const struct option common_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "kallsyms", required_argument, NULL, 'k' },
	{ "file-order", no_argument, NULL, 'u' },
	{ "strict", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
};

/* The long options: the common ones the command takes, then its own. */
static int build(struct option *all, unsigned int common, const struct option *extra)
{
	int n = 0;
	size_t i;

	for (i = 0; i < sizeof(common_opts) / sizeof(common_opts[0]); i++)
		if ((common_opts[i].val == 'k' && !(common & CLI_KALLSYMS)) ||
		    (common_opts[i].val == 'u' && !(common & CLI_FILE_ORDER)) ||
		    (common_opts[i].val == 's' && !(common & CLI_STRICT)))
			continue;
		else
			all[n++] = common_opts[i];
	for (; extra && extra->name && n < MAX_OPTS - 1; extra++)
		all[n++] = *extra;
	memset(&all[n], 0, sizeof(all[n]));
	return n;
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
	int opt, ret;

	build(all, c->common, extra);
	opterr = 0; /* the messages are ours: one line naming the option */
	while ((opt = getopt_long(argc, argv, ":i:h", all, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			return cli_bad_option(c->name, opt, argv);
		ret = common_option(c, opt);
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
	return 0;
}
