/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Benchmark outputs as metrics: lmbench lat_unix, the ping-pong workload, stress-ng
 * --metrics-brief (old and `metrc:` forms) and --yaml, perf bench sched pipe and messaging.
 */
#ifndef TICKSCOPE_BENCH_H
#define TICKSCOPE_BENCH_H

#include <stddef.h>

#include "tickscope/metric.h"

#define TS_BENCH_MAX 32

struct ts_bench_metric {
	char name[64]; /* "latency", "ramfs.bogo_ops_per_s_real", "usecs_per_op", ... */
	const char *unit; /* "us", "ops/s", "s", "count", "us/op" */
	enum ts_metric_dir dir;
	enum ts_metric_kind kind;
	double value;
};

struct ts_bench {
	const char *kind; /* "lat_unix", "pingpong", "stress-ng", "stress-ng-yaml",
			   * "perf-bench-pipe", "perf-bench-messaging" */
	int nr;
	struct ts_bench_metric m[TS_BENCH_MAX]; /* m[0] is the benchmark's result */
	/* For the time-per-operation split; NAN when the output does not say. */
	double ops; /* operations in the run: bogo ops, pipe operations, round trips (ping-pong:
		     * timed and warm-up, all of which the trace holds) */
	double wall_s; /* wall-clock seconds of the run */
	double cpu_s; /* usr + sys seconds of all instances */
	double instances; /* workers (stress-ng), 1 otherwise */
};

/**
 * ts_bench_parse() - recognise and parse one benchmark output
 * @text, @len: the output (stdout and stderr together; mail quoting before `stress-ng:` and
 *	lat_unix's line is skipped)
 * @line: out: the 1-based line of the error (the last line when nothing was recognised)
 * Return: 0, -TS_EBENCH for an unknown or malformed output, -TS_EBENCHCUT when a figure it
 * would take is on a last line that no newline ends (an output cut short: "12295.59" may be
 * "1229"), -TS_EBENCHNONE for one that measured nothing (a zero latency, time, rate or count:
 * no round trip, no bogo op), -TS_EBENCHTWICE for a second run's result in the same output
 * (outputs appended with >>: one of them was taken silently).
 */
int ts_bench_parse(const char *text, size_t len, struct ts_bench *b, int *line);

/**
 * ts_bench_read() - ts_bench_parse() of a file
 * Return: 0, -errno when it cannot be read (@line 0), or -TS_EBENCH, -TS_EBENCHCUT,
 * -TS_EBENCHNONE or -TS_EBENCHTWICE with @line set.
 */
int ts_bench_read(const char *path, struct ts_bench *b, int *line);

/**
 * ts_bench_result() - a run's own record of its result, checked against its output
 * @value: meta.txt's result= ("" when the run recorded none), as boards/target/ts-record.sh
 *	copies it from the output: a plain decimal >= 0
 * @unit: meta.txt's result_unit=: "us_per_round_trip" (lat_unix, ping-pong) or
 *	"bogo_ops_per_s_real_time" (stress-ng), or "" with no result
 * @b: the run's benchmark output as parsed, or NULL to check the form alone
 *
 * Return: 0, -TS_ERESULT for a value that is no plain decimal >= 0 ("nan", "-3", "1e309",
 * "1.2.3"), -TS_ERESULTUNIT for another unit (or a value with none), -TS_ERESULTDIFF for a
 * result that is not @b's m[0] as its output printed it (another benchmark's unit, or another
 * figure than the output's: stress-ng --metrics-brief rounds the YAML's figure to 2 decimals,
 * every other output prints the very text copied).
 */
int ts_bench_result(const char *value, const char *unit, const struct ts_bench *b);

/** ts_bench_find() - the metric called @name, or NULL */
const struct ts_bench_metric *ts_bench_find(const struct ts_bench *b, const char *name);

#endif
