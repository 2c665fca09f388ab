/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark's tasks' time line, for compare's decomposition: every instant between the
 * tasks' first and last event goes to exactly one state, the one the operation waits on: a
 * task in wake delivery (sched_waking -> sched_wakeup), else a task waiting runnable (sched
 * delay), else a task running, else none (all asleep). The four add up to the window.
 */
#ifndef TICKSCOPE_CPATH_H
#define TICKSCOPE_CPATH_H

#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/irq.h"

enum ts_cpath_state { TS_CP_RUN = 0, TS_CP_DELIVERY, TS_CP_DELAY, TS_CP_NONE, TS_CP_NR };

struct ts_cpath;
struct ts_wltree;

/**
 * ts_cpath_new() - a time line of the tasks named @match or "@match-..." (copied)
 * @tree: the recorded workload's process tree, fed each event before this time line is, or
 *	NULL: when it has a root, the time line is of its tasks of that name alone (another
 *	benchmark of the same name beside it is not the benchmark); with no root, or none of
 *	the name in it, of every task of the name
 * Return: 0 or -ENOMEM.
 */
int ts_cpath_new(struct ts_cpath **pp, const char *match, const struct ts_wltree *tree);

/** ts_cpath_feed() - feed one event, in time order; Return: 0 or -ENOMEM */
int ts_cpath_feed(struct ts_cpath *p, const struct ts_event *ev);

/**
 * ts_cpath_totals() - ns in each state from the first to the last event of the tasks
 * Return: how many tasks matched.
 */
int ts_cpath_totals(const struct ts_cpath *p, uint64_t ns[TS_CP_NR]);

/*
 * The run state's time that interrupts took (tickscope/irq.h): while a task of the benchmark
 * ran, the time its CPU spent in an interrupt context, by the innermost context; two tasks
 * running at once each count for half the instant. Up to the last task event, as the totals.
 */
struct ts_cpath_irq {
	double cls[TS_IRQC_NR]; /* ns by class (TS_IRQC_NONE unused) */
	double untraced[TS_IRQC_NR]; /* of which: a timer callback with no enclosing irq traced */
	const double *src_ns; /* by source of @ctx: an irq's class time, a timer callback's */
	int nr_src; /* entries of src_ns (sources past it: 0) */
	const struct ts_irqctx *ctx;
};

/** ts_cpath_run_irq() - the run state's interrupt time; valid until the next feed or free */
void ts_cpath_run_irq(const struct ts_cpath *p, struct ts_cpath_irq *out);

/** ts_cpath_by_tree() - whether the time line is of the workload's tree's tasks (else by name) */
int ts_cpath_by_tree(const struct ts_cpath *p);

/** ts_cpath_free() - free (NULL is fine) */
void ts_cpath_free(struct ts_cpath *p);

#endif
