/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The class rules, once: which hrtimer is the tick, which work or timer function is vmstat's,
 * a shrinker's or RCU's, prev_state letters, softirq vectors, tick_stop dependencies. The
 * analyses and the libtraceevent plugin (plugin/plugin_tickscope.c) both call these.
 */
#ifndef TICKSCOPE_CLASSIFY_H
#define TICKSCOPE_CLASSIFY_H

#include <stdint.h>

/** ts_class_is_tick() - whether @fn (may be NULL) is the tick's hrtimer callback */
int ts_class_is_tick(const char *fn);

/**
 * ts_class_hrtimer() - the class of an hrtimer callback
 * @fn: the function's name, NULL when it could not be resolved
 *
 * Return: "tick", "sched" (the scheduler's timers and a sleeping task's wakeup), "watchdog"
 * (the lockup detector's) or "other"; never NULL.
 */
const char *ts_class_hrtimer(const char *fn);

/**
 * ts_class_requeues_runnable() - whether hrtimer callback @fn (may be NULL) ends runnable waits
 *
 * The scheduler's timers that put runnable tasks back on a run queue or make the running task
 * give its CPU up: the CFS and RT bandwidth period timers and the CFS slack timer (they refill
 * a group's quota and unthrottle its run queues), SCHED_DEADLINE's replenishment timer and
 * hrtick (a slice's end). A task they let run waited runnable, not asleep.
 */
int ts_class_requeues_runnable(const char *fn);

/**
 * ts_class_work() - the class of a workqueue work or timer_list function
 * @fn: the function's name, NULL when it could not be resolved
 *
 * Return: "vmstat" (vmstat_update, vmstat_shepherd), "shrinker", "rcu" (RCU and SRCU
 * callbacks and grace-period work) or "other"; never NULL.
 */
const char *ts_class_work(const char *fn);

/**
 * ts_class_task_state() - sched_switch's prev_state as a letter, as ps and perf print it
 * @raw: the prev_state field as recorded
 * @report_max: the kernel's TASK_REPORT_MAX (the preemption flag), 0 if unknown
 *
 * The running/sleeping/disk split is ts_task_state_class()'s (event.h), so that "R+" and
 * "R" here are TS_STATE_RUNNING there, "S" TS_STATE_SLEEPING and "D" TS_STATE_DISK.
 *
 * Return: "R+" (preempted), "R", "S", "D", "T", "t", "X", "Z", "P", "I" or "?"; never NULL.
 */
const char *ts_class_task_state(uint64_t raw, uint64_t report_max);

/** ts_class_softirq() - a softirq vector's name ("TIMER", "RCU", ...), NULL if out of range */
const char *ts_class_softirq(uint64_t vec);

/**
 * ts_class_tick_dep() - the name of the first TICK_DEP_MASK_* bit set in @mask
 *
 * Return: "NONE" for 0, "POSIX_TIMER", "PERF_EVENTS", "SCHED", "CLOCK_UNSTABLE", "RCU",
 * "RCU_EXP" (the kernel's own names, as tick_stop's format prints them), or NULL for a bit
 * this table does not know.
 */
const char *ts_class_tick_dep(uint64_t mask);

/**
 * ts_class_is_ipi() - whether tracepoint @name ("system:event") is an IPI arriving on the
 * receiving CPU: irq_vectors:*_entry of the IPI vectors (x86), ipi:ipi_entry (arm, arm64)
 */
int ts_class_is_ipi(const char *name);

/**
 * ts_class_ipi_reason() - a short kind for an IPI's reason text (ipi:ipi_entry, ipi_raise)
 * @reason: the kernel's text, "Rescheduling interrupts", "Function call interrupts", ...
 * @buf: where a kind not in the table is written (the text, spaces as '_')
 * @len: size of @buf
 *
 * Return: "reschedule", "call_function", "cpu_stop", "timer_broadcast", "irq_work", "wakeup",
 * or @buf; "-" for a NULL @reason.
 */
const char *ts_class_ipi_reason(const char *reason, char *buf, unsigned int len);

#endif
