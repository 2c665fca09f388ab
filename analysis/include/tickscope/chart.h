/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Chart data for the plots/ scripts: writers of the TSV tables gnuplot reads (their columns
 * are documented in each script's header), and the list of charts a command draws.
 */
#ifndef TICKSCOPE_CHART_H
#define TICKSCOPE_CHART_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tickscope/hist.h"

/*
 * One chart: DIR/<name>.tsv (and DIR/<name>-marks.tsv for CDFs) drawn by plots/<script> into
 * DIR/<name>.png and DIR/<name>.svg. A chart whose data was not recorded is listed with
 * @missing set and no files: the HTML report says which events to record instead.
 */
struct ts_out_keep; /* common/io.h */

struct ts_chart {
	char name[64]; /* file name without extension: "latency-cdf" */
	const char *script; /* "latency-cdf.gp" */
	char title[200];
	const char *axis_var; /* "xlabel" or "ylabel": which axis @axis labels; NULL for none */
	char axis[64];
	int marks; /* a <name>-marks.tsv goes with the data */
	char missing[200]; /* "" when drawn; else why not: "record power:cpu_idle" */
	char caption[200]; /* one sentence under the chart in the HTML report; may be "" */
};

struct ts_charts {
	struct ts_chart *c;
	size_t nr, cap;
	const char *dir; /* where the tables go */
	const struct ts_out_keep *keep; /* files no table replaces (common/io.h); may be NULL */
	int dry; /* the list only (names, reasons): every table goes to /dev/null */
};

/** ts_charts_add() - a new chart in @cs (zeroed, script and name set); NULL on ENOMEM */
struct ts_chart *ts_charts_add(struct ts_charts *cs, const char *name, const char *script);

/** ts_charts_release() - free the list (its tables stay on disk) */
void ts_charts_release(struct ts_charts *cs);

/**
 * ts_charts_open() - open @cs->dir/@name@suffix.tsv for writing (ts_fopen_w()), or /dev/null
 * when @cs->dry; NULL with *@err a negative errno or TS_E* code
 */
FILE *ts_charts_open(const struct ts_charts *cs, const char *name, const char *suffix, int *err);

/**
 * ts_chart_cdf() - write latency-cdf.gp's tables for @c: one CDF column per histogram, from
 * the histograms' buckets (cumulative fraction at each bucket's upper bound), and the p50/p99
 * marks. Empty histograms are left out; with none left, @c->missing says so.
 * @labels: legend text per series (the writer adds the count: "wake delivery (N=5120)")
 * Return: 0 or a negative errno.
 */
int ts_chart_cdf(const struct ts_charts *cs, struct ts_chart *c, size_t nr,
		 const char *const *labels, const struct ts_hist *const *hists);

/**
 * ts_chart_box() - write bench-box.gp's table: column v holds variant v's @n[v] run results
 * (NAN for a run without a result). Variants without a result are left out.
 * Return: 0 or a negative errno.
 */
int ts_chart_box(const struct ts_charts *cs, struct ts_chart *c, size_t nr,
		 const char *const *labels, const double *const *runs, const size_t *n);

/*
 * A table of rows by columns (stacked-bars.gp, top-bars.gp): @v[row * nr_cols + col], NAN for
 * not measured. Columns with no value but zeros are left out (gnuplot warns on them, or draws
 * nothing); a table left with nothing is not drawn.
 */
struct ts_chart_table {
	const char *first; /* the first column's name: "group" or "label" */
	size_t nr_rows, nr_cols;
	const char *const *rows; /* row labels */
	const char *const *cols; /* column labels */
	const double *v;
	int keep_cols; /* every column, zeros too (variants side by side); else 0s are left out */
};

/** ts_chart_table() - write @t for @c; @c->missing is set when no value is left */
int ts_chart_table(const struct ts_charts *cs, struct ts_chart *c, const struct ts_chart_table *t);

/* One bar of explain.gp's waterfall. */
struct ts_chart_step {
	const char *label;
	double from, to; /* in the metric's unit */
	const char *kind; /* "total_a", "total_b", "component", "residual" */
	double share_pct; /* NAN for totals */
};

/** ts_chart_waterfall() - write explain.gp's table for @c */
int ts_chart_waterfall(const struct ts_charts *cs, struct ts_chart *c,
		       const struct ts_chart_step *steps, size_t nr);

/**
 * ts_chart_clean() - a label safe in a gnuplot string and a shell word in double quotes:
 * quotes, backslashes, dollars, backquotes and control characters become '_' (in place)
 */
char *ts_chart_clean(char *s);

struct ts_analysis;
struct ts_report_opts;

/**
 * ts_plot_run() - write the tables of one run's charts into @cs->dir and list the charts:
 * latency distributions (all, by wake class), idle exits and residency per CPU, timers, work
 * items, off-CPU stacks, shrinkers and grace periods; charts whose events were not recorded
 * are listed with their missing reason
 * Return: 0 or a negative errno.
 */
int ts_plot_run(struct ts_charts *cs, const struct ts_analysis *a, const struct ts_report_opts *o);

struct ts_timeline;

/**
 * ts_plot_timeline() - write timeline.gp's table for @c (@c->name.tsv in @cs->dir) from a
 * finished timeline; with nothing in the window, @c->missing says so
 * Return: 0 or a negative errno.
 */
int ts_plot_timeline(struct ts_charts *cs, struct ts_chart *c, const struct ts_timeline *t,
		     const struct ts_report_opts *o);

#define TS_PLOT_MAX_VARIANTS 8
#define TS_PLOT_TOP_ROWS 15 /* rows of a ranked chart */

/*
 * A kernel variant's runs, folded together for the charts that set variants side by side:
 * distributions merged, rates kept per run and drawn as the median over runs.
 */
struct ts_plot_variant;

/** ts_plot_variant_new() - an empty variant; @label names it in legends. Return: 0 or -ENOMEM */
int ts_plot_variant_new(struct ts_plot_variant **vp, const char *label);

/**
 * ts_plot_variant_add() - fold one run's finished analysis into @v
 * @comm: the benchmark's tasks (named @comm or "@comm-..."), whose wake delivery, wakeup
 * latency and sched delay are drawn; NULL for every selected task
 * Return: 0 or -ENOMEM.
 */
int ts_plot_variant_add(struct ts_plot_variant *v, const struct ts_analysis *a,
			const struct ts_report_opts *o, const char *comm);

/** ts_plot_variant_runs() - how many runs were folded into @v */
int ts_plot_variant_runs(const struct ts_plot_variant *v);

/** ts_plot_variant_label() - rename @v (its legend text) */
void ts_plot_variant_label(struct ts_plot_variant *v, const char *label);

/**
 * ts_plot_variant_merge() - add every run of @src to @dst (a run cached alone, say)
 * Return: 0 or -ENOMEM.
 */
int ts_plot_variant_merge(struct ts_plot_variant *dst, const struct ts_plot_variant *src);

/**
 * ts_plot_variant_save() - write @v as text, headed by @key (what the data came from: the
 * file's size and time, the tool's version...); Return: 0 or -EIO
 */
int ts_plot_variant_save(FILE *f, const char *key, const struct ts_plot_variant *v);

/**
 * ts_plot_variant_load() - read what ts_plot_variant_save() wrote into an empty @v
 * Return: 0, -ENOENT when the file was saved under another key, -EINVAL when it is
 * malformed, or -ENOMEM.
 */
int ts_plot_variant_load(FILE *f, const char *key, struct ts_plot_variant *v);

/** ts_plot_variant_free() - free (NULL is fine) */
void ts_plot_variant_free(struct ts_plot_variant *v);

/**
 * ts_plot_variants() - write the tables of the charts comparing @nr variants (at most
 * TS_PLOT_MAX_VARIANTS, the first is the baseline) and list them in @cs: CDFs of the
 * benchmark's latencies (and wake delivery by class), idle exits and residency, timers, work,
 * off-CPU stacks, shrinkers and grace periods; one series per variant, in order
 * Return: 0, -EINVAL for a bad @nr, or -ENOMEM.
 */
int ts_plot_variants(struct ts_charts *cs, struct ts_plot_variant *const *v, size_t nr);

#endif
