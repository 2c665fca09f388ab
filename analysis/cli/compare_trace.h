/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's trace metrics for `tickscope compare`, computed once and cached next to perf.data
 * (compare_trace.c), which takes the kallsyms from compare_ksyms.c and the summary of a folder
 * without its trace from compare_summary.c.
 */
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

/*
 * from_summary() - a run folder @dir without perf.data[.xz]: its summary's metrics into @r when
 * it names @id's trace and this tickscope reads it; nothing (said) for a run without a trace.
 * Prints one line and returns non-zero on failure. (compare_summary.c)
 */
int from_summary(const char *dir, const char *comm, double ops, const struct trace_id *id,
		 const struct load_opts *o, struct ts_run *r);

/*
 * usable_ksyms() - the kallsyms *@ksyms and its content's sha256 into @ksha; one whose every
 * address is 0 is dropped (*@ksyms NULL), said; an .xz may be unpacked into *@uksyms.
 * Return: 0, 1 (said). (compare_ksyms.c, as the two below)
 */
int usable_ksyms(char **ksyms, char **uksyms, char *ksha);

/*
 * trace_ksyms() - the kallsyms to read the trace with: the kallsyms cache folder's copy of
 * content @ksha into *@shared (its folder into *@kdir), held open in *@sfd (close it when the
 * trace is read; -1 without a copy), else @ksyms, an .xz unpacked into *@uksyms.
 * Return: 0, 1 (said).
 */
int trace_ksyms(const char *ksyms, const char *ksha, char **uksyms, char **shared, int *sfd,
		const char **kdir);

/* share_ksyms() - copy @from (of content @ksha) into the cache folder @dir, for later runs. */
void share_ksyms(const char *dir, const char *from, const char *ksha);

#endif
