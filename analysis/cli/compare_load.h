/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading one run for `tickscope compare`: its files, meta.txt, benchmark output and trace. */
#ifndef TS_COMPARE_LOAD_H
#define TS_COMPARE_LOAD_H

#include "tickscope/compare.h"

struct ts_analysis;
struct ts_report_opts;

/*
 * Who else reads the runs (the charts): @cached takes the run from its own cache of @data
 * under @key (1 when it could, else the trace is read again); @analysis gets every run
 * whose trace was read; @untraced is told of a run that has only its summary (@label) and
 * no chart data under @key.
 */
struct load_hook {
	int (*cached)(void *ctx, const char *data, const char *key);
	int (*analysis)(void *ctx, const struct ts_analysis *a, const struct ts_report_opts *o,
			const char *comm, const char *data, const char *key);
	void (*untraced)(void *ctx, const char *label);
	void *ctx;
};

struct load_opts {
	const char *comm; /* --comm: the benchmark's tasks; NULL: from meta.txt */
	int no_cache, no_trace;
	int allow_mismatch; /* --allow-mismatch: compare runs whose kernel is not their variant's */
	const char *version; /* the tool's, part of the cache key */
	int one_thread; /* each run's source on its loader's thread (parallel loaders) */
	/*
	 * tickscope summary: @summarise decodes every trace and fails when its summary cannot be
	 * written (the variant check is compare's business, not the summary's); @check decodes
	 * nothing and only says whether compare could use the run
	 */
	int summarise, check;
	const struct load_hook *hook; /* NULL: none */
	/* NULL, or the runs' shared names (struct ts_run's intern) */
	const char *(*intern)(void *ctx, const char *s);
	void *intern_ctx;
};

/* The trace a run recorded, as its meta.txt names it (perf_data_sha256=, perf_data_size=). */
struct trace_id {
	char *sha256; /* NULL: not recorded */
	long long size; /* -1: not recorded */
};

/* A run given on the command line: a run folder, or a perf.data file with its --bench. */
struct run_in {
	const char *path;
	const char *bench; /* NULL: the folder's workload.out or stress-ng.yaml */
	const char *ksyms; /* --kallsyms: its variant's; NULL: the folder's kallsyms[.xz] */
};

/*
 * load_run() - fill @r from @in; on failure prints one line naming the file (and line or
 * offset) and returns non-zero.
 */
int load_run(const struct run_in *in, const struct load_opts *o, struct ts_run *r);

/*
 * run_size() - how much work loading @in is, for the workers to take the largest first: its
 * trace's bytes (a perf.data.xz counts 20 times its size, about what ours unpack to); 0 when
 * there is none
 */
long long run_size(const struct run_in *in);

/* is_variant_dir() - @path holds run-N/ folders */
int is_variant_dir(const char *path);

/* variant_runs() - the run-N/ folders of @path (complete ones, by N); Return: count or -1 */
int variant_runs(const char *path, char ***out);

#endif
