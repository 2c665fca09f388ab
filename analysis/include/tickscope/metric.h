/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The metric interface that sections, compare and charts share: every section's figures as
 * named, unit-carrying, directed values (the contract in the architecture issue).
 */
#ifndef TICKSCOPE_METRIC_H
#define TICKSCOPE_METRIC_H

struct ts_analysis;

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

/**
 * ts_analysis_metrics() - every section's metrics of a finished analysis, section by section
 * Return: 0, or the first non-zero value @emit returned.
 */
int ts_analysis_metrics(const struct ts_analysis *a, ts_metric_fn emit, void *ctx);

#endif
