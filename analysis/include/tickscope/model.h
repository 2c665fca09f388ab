/* SPDX-License-Identifier: GPL-2.0-only */
/* Options shared by every model (sched, idle, timer, wq, rcu, shrinker): set by analysis.c. */
#ifndef TICKSCOPE_MODEL_H
#define TICKSCOPE_MODEL_H

#include <stdint.h>

struct ts_model_opts {
	/*
	 * The task filter (--pid/--comm), asked when a task is first seen and when it is renamed.
	 * Non-zero selects the task. NULL selects every task.
	 */
	int (*task_filter)(void *ctx, int32_t pid, const char *comm);
	void *filter_ctx;
	unsigned int max_stacks; /* distinct off-CPU stacks kept; 0 for TS_MAX_STACKS_DEFAULT */
	/*
	 * The reader lists only this many tasks, the heaviest (the text report's top): a task that
	 * exits is folded into the totals and its state let go unless it is among them, so that
	 * memory stays flat however many tasks come and go. 0 keeps every task (JSON, TSV,
	 * compare: they list them all).
	 */
	unsigned int top_tasks;
};

#define TS_MAX_STACKS_DEFAULT 16384
#define TS_STACK_DEPTH 32 /* frames kept per off-CPU stack */

#endif
