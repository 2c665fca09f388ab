/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The migration model: sched_migrate_task per task and per CPU pair, each migration classed by
 * what the trace tells of its origin: a wakeup's placement or the load balancer.
 */
#ifndef TICKSCOPE_MIGRATE_H
#define TICKSCOPE_MIGRATE_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/model.h"

/*
 * A sleeping task moves only when a wakeup places it (select_task_rq() in try_to_wake_up(),
 * traced on the waker's CPU); a runnable or running one only when the balancer, the NUMA code
 * or an affinity change moves it. sched_switch and sched_wakeup tell which it was.
 */
enum ts_migrate_origin {
	TS_MIG_WAKE_AFFINE = 0, /* a wakeup pulled the task to the waker's CPU */
	TS_MIG_WAKE_OTHER, /* a wakeup placed it elsewhere (an idle sibling, its cache domain) */
	TS_MIG_BALANCE, /* moved while runnable: load balance, NUMA, affinity */
	TS_MIG_UNKNOWN, /* the task's state was not known yet (no sched_switch of it seen) */
	TS_MIG_NR
};

struct ts_migrate_task {
	int32_t pid;
	char comm[TS_COMM_LEN];
	uint64_t count;
	uint64_t by_origin[TS_MIG_NR];
};

struct ts_migrate_pair {
	int32_t orig_cpu, dest_cpu;
	uint64_t count;
	uint64_t by_origin[TS_MIG_NR];
};

struct ts_migrate_totals {
	uint64_t count;
	uint64_t by_origin[TS_MIG_NR];
};

struct ts_migrate;

/**
 * ts_migrate_new() - an empty model
 * @mp: out
 * @opts: the task filter (migrated tasks it rejects are not counted)
 * Return: 0 or -ENOMEM.
 */
int ts_migrate_new(struct ts_migrate **mp, const struct ts_model_opts *opts);

/**
 * ts_migrate_feed() - sched_migrate_task, and the switches and wakeups that tell task states
 * @m: the model
 * @ev: the event (others are ignored)
 * Return: 0 or -ENOMEM.
 */
int ts_migrate_feed(struct ts_migrate *m, const struct ts_event *ev);

/** ts_migrate_finish() - nothing is open at the end; for the section table's symmetry */
void ts_migrate_finish(struct ts_migrate *m, uint64_t end);

/** ts_migrate_free() - free (NULL is fine) */
void ts_migrate_free(struct ts_migrate *m);

/** ts_migrate_totals() - all migrations counted */
const struct ts_migrate_totals *ts_migrate_totals(const struct ts_migrate *m);

/** ts_migrate_nr_tasks(), ts_migrate_task_at() - the migrated tasks, in first-seen order */
size_t ts_migrate_nr_tasks(const struct ts_migrate *m);
const struct ts_migrate_task *ts_migrate_task_at(const struct ts_migrate *m, size_t i);

/** ts_migrate_nr_pairs(), ts_migrate_pair_at() - the CPU pairs, in first-seen order */
size_t ts_migrate_nr_pairs(const struct ts_migrate *m);
const struct ts_migrate_pair *ts_migrate_pair_at(const struct ts_migrate *m, size_t i);

/** ts_migrate_origin_name() - "wake_affine", "wake_other", "balance", "unknown" */
const char *ts_migrate_origin_name(int origin);

#endif
