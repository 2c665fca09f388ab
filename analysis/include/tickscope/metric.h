/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every section's figures as one flat list of named metrics with units and directions: what
 * compare and charts consume. Names and meanings are listed in docs/metrics.md.
 */
#ifndef TICKSCOPE_METRIC_H
#define TICKSCOPE_METRIC_H

#include <stddef.h>
#include <stdint.h>

enum ts_metric_dir {
	TS_DIR_NEUTRAL = 0, /* a change is reported, neither better nor worse */
	TS_DIR_LOWER, /* lower is better (latencies, exits/s, lost events) */
	TS_DIR_HIGHER, /* higher is better (throughput) */
};

enum ts_metric_kind {
	TS_METRIC_VALUE = 0, /* a plain figure: count, sum, share, percentile */
	TS_METRIC_RATE, /* per second of trace (or per operation): averaged harmonically */
};

struct ts_metric {
	const char *section; /* "sched", "idle", "timer", "workqueue", "rcu", "shrinker", ... */
	const char *name; /* stable dotted name, unique in the run: "sched.wake_delivery.p50",
			   * "idle.exits.tick.per_s", "timer.expire.vmstat_update.per_s" */
	const char *unit; /* "ns", "1/s", "%", "count", "ns/op" */
	enum ts_metric_dir dir;
	enum ts_metric_kind kind;
	double value; /* NAN when not measured (events not recorded): never 0 for that */
	const char *why_null; /* with NAN: the reason, e.g. "power:cpu_idle not recorded" */
};

/* Return non-zero to stop the walk (that value is returned by ts_analysis_metrics()). */
typedef int (*ts_metric_fn)(void *ctx, const struct ts_metric *m);

struct ts_analysis;

/**
 * ts_analysis_metrics() - every section's metrics of a finished analysis, section by section
 * @a: the analysis, after ts_analysis_finish()
 * @emit: called once per metric; the strings it is given live only during the call
 * @ctx: passed to @emit
 *
 * Functions are named through the symbols given to ts_analysis_set_symbols(), else by their
 * address ("0xffffffff81234560"). Return: 0, or the first non-zero value @emit returned
 * (or -ENOMEM).
 */
int ts_analysis_metrics(const struct ts_analysis *a, ts_metric_fn emit, void *ctx);

/**
 * ts_analysis_set_symbols() - how metrics name kernel functions
 * @a: the analysis
 * @sym: the name containing @addr or NULL, with @off (may be NULL) set to the offset into it
 *	(the CLI passes ts_ksyms_lookup through ts_source_report_opts()); NULL for addresses
 * @ctx: passed to @sym
 */
void ts_analysis_set_symbols(struct ts_analysis *a,
			     const char *(*sym)(void *ctx, uint64_t addr, uint64_t *off),
			     void *ctx);

/**
 * ts_analysis_fn_name() - @addr's bare function name through the symbols given to
 * ts_analysis_set_symbols(), else "0x..." written into @buf (@len bytes)
 */
const char *ts_analysis_fn_name(const struct ts_analysis *a, uint64_t addr, char *buf, size_t len);

struct ts_sched_stack;

/** ts_analysis_has_symbols() - whether ts_analysis_set_symbols() gave symbols */
int ts_analysis_has_symbols(const struct ts_analysis *a);

/**
 * ts_analysis_stack_name() - a switch-out stack as the metrics name it (sched.offcpu_stack.*):
 * its first three frames past the scheduler's own and the sleeping primitives' (timeouts,
 * completions, bit waits, the locks' slow paths, a __helper under its caller): the wait site,
 * "frame;frame;frame", into @out
 * Return: @out.
 */
const char *ts_analysis_stack_name(const struct ts_analysis *a, const struct ts_sched_stack *st,
				   char *out, size_t len);

struct ts_hist;

/* A distribution for charts: the histogram behind a metric family ("sched.wake_delivery"). */
struct ts_dist_series {
	const char *section;
	const char *name; /* the metrics' prefix: <name>.p50, <name>.p99 are its metrics */
	const char *unit; /* "ns" */
	const struct ts_hist *hist; /* valid while the analysis lives (tickscope/hist.h) */
};

typedef int (*ts_dist_fn)(void *ctx, const struct ts_dist_series *d);

/**
 * ts_analysis_dists() - the chart-data hook: every measured distribution, section by section
 * @a: the analysis, after ts_analysis_finish()
 * @emit: called once per distribution (the same walk as the metrics: unmeasured ones are left
 *	out); the strings it is given live only during the call
 * @ctx: passed to @emit
 *
 * Return: 0, or the first non-zero value @emit returned (or -ENOMEM).
 */
int ts_analysis_dists(const struct ts_analysis *a, ts_dist_fn emit, void *ctx);

#endif
