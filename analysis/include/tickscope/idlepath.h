/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The idle path model: what happens on a CPU between the switch to its idle task and the idle
 * state, and between the idle state and the switch away. Per CPU: idle-entry time (sched_switch
 * to the idle task -> power:cpu_idle entering a state) and idle-exit time (cpu_idle leaving a
 * state -> sched_switch away from the idle task). Whole trace: wakes of idle CPUs that needed
 * no IPI (sched:sched_wake_idle_without_ipi: the target was polling or still entering idle)
 * against IPIs arriving at a CPU in an idle state; hrtimer starts after an idle exit with the
 * tick stopped, by function (the tick's are its restarts); idle periods ended by a timer whose
 * callback queued a work item (a delayed work's timer), by work function (vmstat_update).
 */
#ifndef TICKSCOPE_IDLEPATH_H
#define TICKSCOPE_IDLEPATH_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

struct ts_idlepath_cpu {
	int32_t cpu;
	struct ts_hist entry; /* ns: switch to idle -> cpu_idle enter */
	struct ts_hist exit; /* ns: cpu_idle exit -> switch away from idle */
	uint64_t ipi_in_idle; /* IPIs waking the CPU from an idle state (in it, or first after) */
	uint64_t reenter; /* idle exits followed by another enter, no switch (nothing to run) */
	uint64_t unentered; /* switches to idle followed by a switch away, no idle state */
	uint64_t ipi_entering; /* IPIs arriving after the switch to idle, before an idle state */
};

/* A function and how often it did something on the idle path (per CPU too). */
struct ts_idlepath_fn {
	uint64_t function;
	uint64_t count;
	uint64_t *per_cpu;
	int nr_cpu;
};

struct ts_idlepath_totals {
	struct ts_hist entry, exit;
	uint64_t wake_no_ipi; /* sched:sched_wake_idle_without_ipi */
	uint64_t ipi_in_idle;
	uint64_t unentered, ipi_entering;
	uint64_t tick_stops; /* timer:tick_stop successes */
};

struct ts_idlepath;

/** ts_idlepath_new() - a new idle path model; Return: 0 or -ENOMEM */
int ts_idlepath_new(struct ts_idlepath **mp, const struct ts_model_opts *opts);

/** ts_idlepath_feed() - feed one event; Return: 0 or -ENOMEM */
int ts_idlepath_feed(struct ts_idlepath *m, const struct ts_event *ev);

/** ts_idlepath_finish() - nothing is left open that counts; kept for the section table */
void ts_idlepath_finish(struct ts_idlepath *m, uint64_t end);

/** ts_idlepath_free() - free (NULL is fine) */
void ts_idlepath_free(struct ts_idlepath *m);

/** ts_idlepath_nr_cpus() - one past the highest CPU seen */
int ts_idlepath_nr_cpus(const struct ts_idlepath *m);

/** ts_idlepath_cpu() - figures of @cpu, or NULL */
const struct ts_idlepath_cpu *ts_idlepath_cpu(const struct ts_idlepath *m, int cpu);

/** ts_idlepath_totals() - whole-trace figures */
const struct ts_idlepath_totals *ts_idlepath_totals(const struct ts_idlepath *m);

/*
 * The function tables: TS_IDLEPATH_RESTARTS, hrtimer functions started after an idle exit with
 * the tick stopped (before the switch away or the next enter); TS_IDLEPATH_DWORK, work
 * functions queued by the timer that ended an idle period.
 */
enum { TS_IDLEPATH_RESTARTS = 0, TS_IDLEPATH_DWORK, TS_IDLEPATH_NR_TABS };

/** ts_idlepath_nr_fns() - entries of table @tab */
size_t ts_idlepath_nr_fns(const struct ts_idlepath *m, int tab);

/** ts_idlepath_fn_at() - entry @i of table @tab, first-seen order */
const struct ts_idlepath_fn *ts_idlepath_fn_at(const struct ts_idlepath *m, int tab, size_t i);

#endif
