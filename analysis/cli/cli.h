/* SPDX-License-Identifier: GPL-2.0-only */
/* The CLI's subcommands and the few helpers they share; only main() and cmd_*() print. */
#ifndef TS_CLI_H
#define TS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ts_reader;
struct ts_decoder;

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_record(int argc, char **argv);

/* Print "tickscope: <message>" on stderr; returns 1 for `return cli_error(...)` in cmd_*. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct ts_source;

/* Print the reader's warnings ("tickscope: warning: ..."); @src may be NULL. */
void cli_warnings(struct ts_source *src);

/* The input: `-i FILE`, or the one positional argument; "perf.data" when neither. */
const char *cli_input(const char *opt_i, int argc, char **argv, int optind_);

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

/* Say where the charts of @cs are, and which were not drawn and why, on @f. */
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
		      const char *html);

#endif
