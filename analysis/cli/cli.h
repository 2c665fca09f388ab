/* SPDX-License-Identifier: GPL-2.0-only */
/* The CLI's subcommands and the few helpers they share; only main() and cmd_*() print. */
#ifndef TS_CLI_H
#define TS_CLI_H

#include <stdint.h>
#include <stdio.h>

struct ts_reader;
struct ts_decoder;

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Print "tickscope: <message>" on stderr; returns 1 for `return cli_error(...)` in cmd_*. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct ts_source;
struct ts_run_meta;

/* meta.txt beside @input (boards/record.sh's "format=tickscope-run-1"): 1 and @m filled */
int cli_run_meta(const char *input, struct ts_run_meta *m);

/* Print the reader's warnings ("tickscope: warning: ..."); @src may be NULL. */
void cli_warnings(struct ts_source *src);

/*
 * getopt_long()'s '?' or ':' (optstring starting with ':', opterr 0) as one line: the option
 * that is unknown or lacks its value, and where the help is. Returns 2 (usage error).
 */
int cli_bad_option(const char *cmd, int c, char **argv);

/* More than one input (operands, or -i and an operand): one line; returns 2, else 0. */
int cli_check_operands(const char *cmd, const char *opt_i, int argc, char **argv, int optind_);

/* The input: `-i FILE`, or the one positional argument; "perf.data" when neither. */
const char *cli_input(const char *opt_i, int argc, char **argv, int optind_);

/* "system:name" of an attr, from the file or the tracing data, into @buf. */
const char *cli_event_name(const struct ts_reader *r, struct ts_decoder *d, int idx, char *buf,
			   size_t len);

/* seconds.nanoseconds as perf prints it */
void cli_print_time(FILE *f, uint64_t ns);

#endif
