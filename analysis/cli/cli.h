/* SPDX-License-Identifier: GPL-2.0-only */
/* The CLI's subcommands and the few helpers they share; only main() and cmd_*() print. */
#ifndef TS_CLI_H
#define TS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct ts_reader;
struct ts_decoder;
struct option;
struct ts_analysis_opts;

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_summary(int argc, char **argv);

/* Print "tickscope: <message>" on stderr; returns 1 for `return cli_error(...)` in cmd_*. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * cli_err() - where this thread's messages go: stderr, or the stream cli_set_err() gave it
 * (a worker's, so that messages of parallel work come out in input order)
 */
FILE *cli_err(void);
void cli_set_err(FILE *f);

struct ts_analysis;
struct ts_source;
struct ts_run_meta;

/*
 * meta.txt beside @input (boards/record.sh's "format=tickscope-run-1"): 1 and @m filled, 0
 * without one, -1 after saying which line of it is malformed (a run number that is not one)
 */
int cli_run_meta(const char *input, struct ts_run_meta *m);

/*
 * ts_analysis_finish() of @a, fed from @src (NULL: not from an input), after telling it what
 * only the whole input says (a per-task recording). Return: 0 or a negative code.
 */
int cli_finish(struct ts_source *src, struct ts_analysis *a);
/* Print the reader's warnings ("tickscope: warning: ..."); @src may be NULL. */
void cli_warnings(struct ts_source *src);
/* The one warning that @src's recording filters cannot be known (no command line), naming
 * @name, on @out; nothing when they can be (ts_source_filters_unknown()). */
void cli_warn_filters(FILE *out, const char *name, struct ts_source *src);

/*
 * getopt_long()'s '?' or ':' (optstring starting with ':', opterr 0) as one line: the option
 * that is unknown or lacks its value, and where the help is. Returns 2 (usage error).
 */
int cli_bad_option(const char *cmd, int c, char **argv);

/* A row count such as --top's: decimal digits only, 1 to 1000000; Return: it, or 0 when bad. */
/* --comm NAME: 0, or 2 (usage) after one line when NAME is empty */
int cli_comm(const char *name);
unsigned int cli_count(const char *s);

/*
 * --interval N (report, and record --report): N seconds, 0.001 or more, into @ns. Return: 0, or
 * 2 (a usage error) after one line saying what N must be.
 */
int cli_interval(const char *s, uint64_t *ns);

/* More than one input (operands, or -i and an operand): one line; returns 2, else 0. */
int cli_check_operands(const char *cmd, const char *opt_i, int argc, char **argv, int optind_);

/*
 * The folder of parsed kallsyms tables (ts_ksyms_load_cached()): $TS_KSYMS_CACHE when set ("" or
 * "off": none), else $XDG_CACHE_HOME/tickscope/kallsyms, else ~/.cache/tickscope/kallsyms; NULL
 * for none. The string lives until the next call.
 */
const char *cli_ksyms_cache(void);

/*
 * The folder of markers of tracing data found clean by a probe child (ts_decoder_new_cached()):
 * $TS_FORMATS_CACHE, else $XDG_CACHE_HOME/tickscope/formats, else ~/.cache/tickscope/formats,
 * as cli_ksyms_cache(); NULL for none.
 */
const char *cli_formats_cache(void);

/*
 * The user's folder of run summaries and chart data that compare computed (it writes nothing
 * into the run folders it reads): $TS_SUMMARY_CACHE when set ("" or "off": none), else
 * $XDG_CACHE_HOME/tickscope/summaries, else ~/.cache/tickscope/summaries. Its files are kept
 * within CLI_SUMMARY_CACHE_MB MiB ($TS_SUMMARY_CACHE_MB), the ones used longest ago removed.
 */
#define CLI_SUMMARY_CACHE_MB 256

/*
 * The file of trace @data in that folder: the sha256 of its absolute path (realpath()) and
 * @suffix (".tsum", ".tplot"). NULL: no folder, or no such file as @data.
 */
char *cli_cache_file(const char *data, const char *suffix);

/*
 * Make that folder (with its parents) and take its lock into *@lock (ts_cache_lock(): -1 for
 * none), which a writer holds from placing its file to cli_cache_used(), then lets go of
 * (ts_cache_unlock()). Return: 0, or non-zero for no folder (and no lock).
 */
int cli_cache_mkdir(int *lock);

/* Cache file @path was just written: prune its folder, keeping @path (under the lock). */
void cli_cache_used(const char *path);

/* "@dir/@name" in a new string; NULL: out of memory. */
char *cli_join(const char *dir, const char *name);

/* Does @s end with @suf? */
int cli_ends_with(const char *s, const char *suf);

/* What a file that is not a regular one is: "a directory", "a FIFO", ... */
const char *cli_file_kind(mode_t m);

/*
 * @opt's FILE (--html), checked before anything is computed or written: it is replaced whole
 * (cli_page_open()), so it must be nothing yet (in a folder that takes new files), or a regular
 * file that is empty or a page as we write them (it starts "<!DOCTYPE html>"). Any other file,
 * a perf.data or a run's meta.txt given by mistake, is refused rather than overwritten.
 * Return: 0, or 1 once the line is printed.
 */
int cli_check_page(const char *opt, const char *path);

/*
 * The page @path (checked by cli_check_page()) is written to a new file beside it (beside the
 * file a link names), renamed over it only once whole: a write that fails (a full disk) or a
 * command stopped by a signal leaves the earlier page as it was, and no half page.
 * cli_page_open() Return: the stream, or NULL after one line saying why.
 * cli_page_close() - @err: 0, or the error that stopped the writing; Return: 0 or -errno.
 */
struct cli_page {
	char *tmp, *target;
};
FILE *cli_page_open(const char *path, struct cli_page *pg);
int cli_page_close(FILE *f, struct cli_page *pg, int err);

/*
 * Removed if the command is stopped (SIGINT, SIGTERM, SIGHUP) while they exist: the file
 * @path, the folder @path and the files in it (compare --html's charts); NULL: none any more.
 */
void cli_cleanup_file(const char *path);
void cli_cleanup_dir(const char *path);

/* Whether the regular file @path (of @size bytes) is empty or starts with @magic. */
int cli_file_starts(const char *path, off_t size, const char *magic);
/*
 * cli_check_dir() - can @dir (named by option @opt) take the output, before any work: a folder,
 * or nothing yet in a folder that takes a new one. Return: 0, or 1 after one line saying why.
 */
int cli_check_dir(const char *opt, const char *dir);

/* The first line of charts.tsv (plot_draw.c): it marks a folder tickscope drew charts into. */
#define CLI_CHARTS_HEADER "name\tscript\tstatus\ttitle\tmissing\n"

struct ts_out_keep;

/*
 * cli_check_charts_dir() - may charts go into @dir (named by option @opt), before any work:
 * a folder that is not there yet, or holds no regular file named as charts are (*.png, *.svg,
 * *.tsv, *.gp, plots.sh) but the inputs @keep names (their own check says those), or one whose
 * charts.tsv tickscope wrote. A folder of the user's (-o ~/Pictures) had its files of a
 * chart's name replaced, and those of a chart not drawn removed, without a word.
 * Return: 0, or 1 after one line naming the first such file.
 */
int cli_check_charts_dir(const char *opt, const char *dir, const struct ts_out_keep *keep);

/* The input: `-i FILE`, or the one positional argument; "perf.data" when neither. */
const char *cli_input(const char *opt_i, int argc, char **argv, int optind_);

/* Common options a command takes besides -i/--input and -h/--help (struct cli_common.common). */
#define CLI_KALLSYMS 0x1 /* --kallsyms FILE */
#define CLI_FILE_ORDER 0x2 /* --file-order */
#define CLI_ONE_INPUT 0x4 /* a second input (positional, or with -i) is a usage error */
#define CLI_STRICT 0x8 /* --strict: a pipe-mode stream cut inside a record is an error */

#define CLI_MAX_PIDS 256

/*
 * --cpu LIST, --pid LIST, --comm NAME and --time START,END, the filters report and plot share,
 * into @an (whose pids point at @pids). With @start_alone, --time may be START alone.
 */
struct cli_filters {
	struct ts_analysis_opts *an;
	int32_t pids[CLI_MAX_PIDS];
	int start_alone;
};

struct ts_out_keep;

/* What the shared options say; set @help and @common before cli_parse(). */
struct cli_common {
	const char *name; /* the command, for the one-line usage errors */
	const char *help; /* the command's usage text */
	unsigned int common; /* CLI_* */
	const char *in; /* -i */
	const char *kallsyms;
	int file_order;
	int strict;
	const char *input; /* the input: -i, the positional argument, or "perf.data" */
	struct cli_filters *filters; /* when set, the filter options too */
	const char *short_opts; /* the command's own short options ("o:"), besides -i and -h */
	struct ts_out_keep *keep; /* when set, the input and --kallsyms go there (common/io.h) */
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

/* The gnuplot scripts of plots/, embedded at build time (plots/embed.sh). */
struct cli_gp {
	const char *name; /* "latency-cdf.gp" */
	const char *text;
};
extern const struct cli_gp cli_gp_scripts[];
extern const size_t cli_gp_nr;

struct ts_charts;

/*
 * Draw every chart of @cs that has data: write the scripts and plots.sh (the gnuplot commands,
 * to redraw by hand) into cs->dir, then run gnuplot, two at a time. gnuplot's messages go to
 * stderr. Returns 0, or 1 after printing why (gnuplot missing or failing).
 */
int cli_draw(const struct ts_charts *cs);

/*
 * cli_charts_fill() - @fill(@cs, @ctx) lists the charts and writes their tables: run first
 * with @cs->dry (nothing written), every file the tables and the drawing would write or remove
 * is checked, and only then @fill runs again for the tables. A refusal (said, 1) leaves the
 * folder as it was. Return: 0, 1 after saying why, or @fill's negative code (not said).
 */
int cli_charts_fill(struct ts_charts *cs, int (*fill)(struct ts_charts *cs, void *ctx), void *ctx);

/*
 * Whether stdout was closed (`>&-`; ts_stdio_guard() put a read-only /dev/null in its place).
 * Commands whose product is files (plot -o, summary, report --tsv DIR) then leave out their
 * note of what they wrote, and exit 0; the others fail with TS_ESTDOUT.
 */
int cli_stdout_closed(void);

/*
 * Say where the charts of @cs are, and which were not drawn and why, on @f; nothing on a
 * closed stdout (cli_stdout_closed()): the charts and charts.tsv say it.
 */
void cli_plot_summary(FILE *f, const struct ts_charts *cs);

struct ts_analysis;
struct ts_report_opts;

/* tickscope plot --html: the one-run page at @path. Returns 0, or 1 after printing why. */
int cli_plot_html(const char *path, const struct ts_charts *cs, const struct ts_analysis *a,
		  const struct ts_report_opts *o);

struct ts_source_opts;
struct ts_analysis_opts;

/*
 * tickscope plot A.data B.data ...: each file one variant (one run), charts side by side;
 * @comm names the benchmark's tasks. Returns 0, or 1 after printing why.
 */
int cli_plot_variants(char **files, int n, const struct ts_source_opts *so,
		      const struct ts_analysis_opts *ao, const char *comm, const char *dir,
		      const struct ts_out_keep *keep, const char *html);

#endif
