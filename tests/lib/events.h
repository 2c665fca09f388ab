/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event builders for the unit tests: one struct ts_event per call, by value, with the fields
 * its kind carries; tests set anything more (comms, stacks) on the result.
 */
#ifndef TS_TEST_EVENTS_H
#define TS_TEST_EVENTS_H

#include <stdio.h>
#include <string.h>

#include "tickscope/event.h"

/* sched_switch on @cpu from @prev (switched out in @state, enum ts_task_state) to @next. */
static inline struct ts_event tev_switch(uint64_t t, int cpu, int prev, int state, int next)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .pid = prev, .kind = TS_EV_SWITCH };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_state = (uint8_t)state;
	return ev;
}

/* sched_waking, sched_wakeup or sched_wakeup_new of @pid ("task<pid>") toward @target. */
static inline struct ts_event tev_wake(int kind, uint64_t t, int cpu, int pid, int target)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = (uint16_t)kind };

	ev.wake.pid = pid;
	ev.wake.target_cpu = target;
	snprintf(ev.wake.comm, TS_COMM_LEN, "task%d", pid);
	return ev;
}

/* sched_migrate_task of @pid from @orig to @dest, traced on @cpu. */
static inline struct ts_event tev_migrate(uint64_t t, int cpu, int pid, int orig, int dest)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = TS_EV_MIGRATE };

	ev.migrate.pid = pid;
	ev.migrate.orig_cpu = orig;
	ev.migrate.dest_cpu = dest;
	return ev;
}

/* power:cpu_idle entering @state, or leaving with TS_IDLE_EXIT. */
static inline struct ts_event tev_idle(uint64_t t, int cpu, uint32_t state)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = TS_EV_CPU_IDLE };

	ev.idle.state = state;
	return ev;
}

/* timer:tick_stop, refused (@ok 0) for dependency @dep. */
static inline struct ts_event tev_tick_stop(uint64_t t, int cpu, int ok, const char *dep)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = TS_EV_TICK_STOP };

	ev.tick_stop.success = ok;
	strncpy(ev.tick_stop.dependency, dep, sizeof(ev.tick_stop.dependency) - 1);
	return ev;
}

/* Any TS_EV_TIMER_* or TS_EV_HRTIMER_* event of @timer running @fn. */
static inline struct ts_event tev_timer(int kind, uint64_t t, int cpu, uint64_t timer, uint64_t fn)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = (uint16_t)kind };

	ev.timer.timer = timer;
	ev.timer.function = fn;
	return ev;
}

/* Any TS_EV_WQ_* event of @work running @fn, by task @pid. */
static inline struct ts_event tev_wq(int kind, uint64_t t, int cpu, int pid, uint64_t work,
				     uint64_t fn)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .pid = pid, .kind = (uint16_t)kind };

	ev.wq.work = work;
	ev.wq.function = fn;
	return ev;
}

/* mm_shrink_slab_start or _end of shrinker @shr (@fn its scan_objects), by task @pid. */
static inline struct ts_event tev_shrink(int kind, uint64_t t, int pid, uint64_t shr, uint64_t fn,
					 int64_t total_scan, int64_t retval)
{
	struct ts_event ev = { .time = t, .pid = pid, .kind = (uint16_t)kind };

	ev.shrink.shr = shr;
	ev.shrink.function = fn;
	ev.shrink.total_scan = total_scan;
	ev.shrink.retval = retval;
	return ev;
}

/* PERF_RECORD_COMM: thread @tid is named @comm (perf synthesizes one per thread at start). */
static inline struct ts_event tev_comm(int tid, const char *comm)
{
	struct ts_event ev = { .kind = TS_EV_COMM };

	ev.comm.tid = tid;
	snprintf(ev.comm.comm, TS_COMM_LEN, "%s", comm);
	return ev;
}

/* sched_process_fork (@kind TS_EV_PROCESS_FORK) or PERF_RECORD_FORK (TS_EV_FORK) at @t. */
static inline struct ts_event tev_fork(int kind, uint64_t t, int parent, int child)
{
	struct ts_event ev = { .time = t, .pid = parent, .kind = (uint16_t)kind };

	ev.fork.parent = parent;
	ev.fork.child = child;
	return ev;
}

/* PERF_RECORD_LOST of @n events at @t. */
static inline struct ts_event tev_lost(uint64_t t, uint64_t n)
{
	struct ts_event ev = { .time = t, .kind = TS_EV_LOST };

	ev.lost.lost = n;
	return ev;
}

#endif
