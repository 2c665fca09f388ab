/* SPDX-License-Identifier: GPL-2.0-only */
/* The CLI's subcommands and the few helpers they share; only main() and cmd_*() print. */
#ifndef TS_CLI_H
#define TS_CLI_H

#include <stdint.h>
#include <stdio.h>

struct ts_reader;
struct ts_decoder;
struct option;

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Print "tickscope: <message>" on stderr; returns 1 for `return cli_error(...)` in cmd_*. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The input: `-i FILE`, or the one positional argument; "perf.data" when neither. */
const char *cli_input(const char *opt_i, int argc, char **argv, int optind_);

/* Common options a command takes besides -i/--input and -h/--help (struct cli_common.common). */
#define CLI_KALLSYMS 0x1 /* --kallsyms FILE */
#define CLI_FILE_ORDER 0x2 /* --file-order */
#define CLI_ONE_INPUT 0x4 /* a second input (positional, or with -i) is a usage error */

/* What the shared options say; set @help and @common before cli_parse(). */
struct cli_common {
	const char *help; /* the command's usage text */
	unsigned int common; /* CLI_* */
	const char *in; /* -i */
	const char *kallsyms;
	int file_order;
	const char *input; /* the input: -i, the positional argument, or "perf.data" */
};

#define CLI_USAGE (-2) /* an option callback's "not mine": the usage on stderr, exit code 2 */

/*
 * A command's own option @opt (getopt's value): 0 to go on, -1 to exit 0, CLI_USAGE, or the
 * exit code after saying what was wrong.
 */
typedef int (*cli_option_fn)(void *ctx, int opt);

/**
 * cli_parse() - parse the common options and, through @fn, the command's own (@extra)
 * @argc: as main's
 * @argv: as main's
 * @c: in: help and common; out: the common options
 * @extra: the command's long options, NULL-terminated; may be NULL
 * @fn: called for each of them; may be NULL
 * @ctx: passed to @fn
 *
 * Help goes to stdout (-1); an unknown option prints the usage on stderr (2).
 * Return: 0 to go on, -1 to exit 0, or the exit code.
 */
int cli_parse(int argc, char **argv, struct cli_common *c, const struct option *extra,
	      cli_option_fn fn, void *ctx);

/* "system:name" of an attr, from the file or the tracing data, into @buf. */
const char *cli_event_name(const struct ts_reader *r, struct ts_decoder *d, int idx, char *buf,
			   size_t len);

/* seconds.nanoseconds as perf prints it */
void cli_print_time(FILE *f, uint64_t ns);

#endif
