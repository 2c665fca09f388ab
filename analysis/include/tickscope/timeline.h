/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timeline model: over a short window of one run, what each CPU did: which task ran, idle
 * periods by state, tick stops, timer and work expiries, and wakeups from CPU to CPU.
 */
#ifndef TICKSCOPE_TIMELINE_H
#define TICKSCOPE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"

enum ts_tl_kind {
	TS_TL_RUN = 0, /* a task (never the idle task) on @cpu over [start, end] */
	TS_TL_IDLE, /* a power:cpu_idle period in @state */
	TS_TL_TICK_STOP, /* timer:tick_stop succeeded (at start = end) */
	TS_TL_TICK_STOP_FAIL, /* it failed; @name is the dependency */
	TS_TL_HRTIMER, /* hrtimer_expire_entry of @function */
	TS_TL_TIMER, /* timer_expire_entry of @function */
	TS_TL_WORK, /* workqueue_execute_start of @function */
	TS_TL_WAKE, /* sched_waking on @cpu (start) to sched_wakeup of @tid on @to_cpu (end) */
	TS_TL_IPI, /* an IPI arriving on @cpu (irq_vectors:*_entry, ipi:ipi_entry); @name: which */
	TS_TL_NR
};

struct ts_tl_item {
	uint64_t start, end; /* ns, perf clock, clipped to the window */
	uint64_t function;
	int32_t cpu, to_cpu, tid;
	uint32_t state;
	uint8_t kind; /* enum ts_tl_kind */
	char name[32]; /* run, wake: the comm; tick_stop_fail: the dependency; ipi: the event */
};

/* At most this many items in a window: a window is meant to be a few milliseconds. */
#define TS_TL_MAX_ITEMS 200000

struct ts_timeline;

/**
 * ts_timeline_new() - a timeline of the window [@start, @end] (ns)
 * Return: 0, -EINVAL for an empty window, or -ENOMEM.
 */
int ts_timeline_new(struct ts_timeline **tp, uint64_t start, uint64_t end);

/**
 * ts_timeline_feed() - feed one event, in time order. Events before the window set each CPU's
 * state (who runs, whether idle); events after it are ignored.
 * Return: 0, -ENOMEM, or -E2BIG past TS_TL_MAX_ITEMS items.
 */
int ts_timeline_feed(struct ts_timeline *t, const struct ts_event *ev);

/** ts_timeline_finish() - close what is still running or idle at the window's end */
int ts_timeline_finish(struct ts_timeline *t);

/** ts_timeline_free() - free (NULL is fine) */
void ts_timeline_free(struct ts_timeline *t);

/** ts_timeline_nr() - items kept; ts_timeline_at() - item @i, in the order they closed */
size_t ts_timeline_nr(const struct ts_timeline *t);
const struct ts_tl_item *ts_timeline_at(const struct ts_timeline *t, size_t i);

/** ts_timeline_window() - the window's start and end */
void ts_timeline_window(const struct ts_timeline *t, uint64_t *start, uint64_t *end);

#endif
