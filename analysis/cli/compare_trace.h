/* SPDX-License-Identifier: GPL-2.0-only */
/* A run's trace metrics for `tickscope compare`, computed once and cached next to perf.data. */
#ifndef TS_COMPARE_TRACE_H
#define TS_COMPARE_TRACE_H

#include "compare_load.h"

/*
 * load_trace() - add the trace's metrics to @r: whole-trace ones (ts_analysis_metrics()) and
 * the benchmark's tasks' (@comm, per @ops operations). @path is a run folder (@folder) holding
 * perf.data or perf.data.xz and kallsyms[.xz], or a perf.data file; @ksyms, when not NULL,
 * is the kallsyms[.xz] to name functions by instead of the folder's (compare --kallsyms). A
 * folder without a trace takes its summary (perf.data.tsum) when it names @id's trace, and
 * adds nothing when it has neither and @id names none. Prints one line and returns non-zero
 * on failure.
 */
int load_trace(const char *path, int folder, const char *ksyms, const char *comm, double ops,
	       const struct trace_id *id, const struct load_opts *o, struct ts_run *r);

#endif
