/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the sched section's writers: text (sched.c), JSON (sched_json.c), TSV
 * (sched_tsv.c), and the wait entries in the orders they list them (sched_waits.c).
 */
#ifndef TS_REPORT_SCHED_PRIV_H
#define TS_REPORT_SCHED_PRIV_H

#include "report_priv.h"

#define RP_SCHED_WAKERS 16 /* waker classes listed; the rest are "other" */

/* The wait entries sorted by task, so that each task's are one run; NULL on no memory. */
const struct ts_sched_wait **rp_sched_waits_by_task(const struct ts_sched *m);

/* The run of @v (sorted, @n entries) that is task @pid's: its first index, @len its length. */
size_t rp_sched_task_waits(const struct ts_sched_wait **v, size_t n, int32_t pid, size_t *len);

/*
 * Why the wakers cannot be listed (sched_waking not recorded, or a per-task recording, which
 * has the followed tasks' wakes only), NULL when they can.
 */
const char *rp_sched_no_wakers(const struct ts_sched *m);

/* The wait entries sorted by stack (each stack's are one run); NULL on no memory. */
const struct ts_sched_wait **rp_sched_waits_by_stack(const struct ts_sched *m);

/*
 * Who ended the off-CPU periods of stack @i (0-based), from @v sorted by stack: the classes,
 * the one that ended the most periods first; @all gets the periods. Return: how many.
 */
int rp_sched_stack_wakers(const struct ts_sched *m, const struct ts_sched_wait **v, size_t i,
			  struct ts_sched_waker_sum *w, uint64_t *all);

/*
 * Whether run slices and sched delays that @nr_broken of them (ts_sched_task.nr_broken or the
 * totals') leave are measured: the model's rule (ts_sched_run_why()), which the metrics use.
 */
static inline int rp_sched_run_measured(const struct ts_sched *m, uint64_t nr_broken)
{
	return !ts_sched_run_why(m, nr_broken);
}

/* Whether the task @t's run slices and sched delays are measured (ts_sched_task_run_why()). */
static inline int rp_sched_task_run_measured(const struct ts_sched *m,
					     const struct ts_sched_task *t)
{
	return !ts_sched_task_run_why(m, t);
}

/* The reason said once where run slices and sched delays are `-` / null. */
#define RP_SCHED_RUN_WHY TS_SCHED_RUN_WHY

/* The section's JSON object (sched_json.c) and its TSV tables (sched_tsv.c). */
void rp_sched_json(struct rp_json *w, const struct ts_analysis *a, const struct ts_report_opts *o);
void rp_sched_tables(struct rp_tsv *t);

#endif
