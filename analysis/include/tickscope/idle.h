/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The idle and tick model: power:cpu_idle periods per CPU and state, what ended each period
 * (the next event on that CPU), and timer:tick_stop successes and failures by dependency.
 */
#ifndef TICKSCOPE_IDLE_H
#define TICKSCOPE_IDLE_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

#define TS_IDLE_NR_STATES 8 /* idle states 0..6 each, 7 for 7 and above */
#define TS_IDLE_MAX_DEPS 16 /* distinct tick_stop dependency names kept */
#define TS_IDLE_MAX_OTHER 16 /* distinct event names kept for TS_EXIT_OTHER and TS_EXIT_IPI */
#define TS_IDLE_MAX_IRQS 16 /* distinct interrupt names kept for TS_EXIT_IRQ */

/*
 * What ended an idle period: the first causal event on the CPU after the enter (timer starts
 * and cancels, rcu_utilization and tick_stop are skipped). The tick is an hrtimer: the report
 * tells it apart by the function.
 */
enum ts_idle_exit {
	TS_EXIT_HRTIMER = 0, /* hrtimer_expire_entry (the tick or another hrtimer) */
	TS_EXIT_TIMER, /* timer_expire_entry */
	TS_EXIT_WAKEUP, /* sched_wakeup / sched_waking on this CPU (IPI-queued or irq wakeup) */
	TS_EXIT_SWITCH, /* sched_switch with no wakeup seen here (a remote wakeup's resched IPI) */
	TS_EXIT_IPI, /* an IPI arriving: irq_vectors:*_entry (x86), ipi:ipi_entry (arm, arm64) */
	TS_EXIT_UNTRACED, /* back into idle with nothing causal traced, no interrupt either */
	TS_EXIT_OTHER, /* any other event: see ts_idle_totals.other */
	/*
	 * back into idle with no cause above traced, but an interrupt handled on the CPU since
	 * the enter (irq_handler_entry, or an x86 system vector's entry such as the local timer):
	 * the first one is the cause, by name (ts_idle_totals.irqs). The periodic tick
	 * (HZ_PERIODIC, highres=off, a clocksource not valid for high resolution) runs no
	 * hrtimer: arm64's arch_timer interrupt is all that shows it.
	 */
	TS_EXIT_IRQ,
	TS_EXIT_NR
};

struct ts_idle_cpu {
	int32_t cpu;
	int seen;
	struct ts_hist residency[TS_IDLE_NR_STATES]; /* complete periods, ns */
	uint64_t exits[TS_EXIT_NR];
	uint64_t tick_stop_ok, tick_stop_fail;
	uint64_t unmatched_exits; /* exit with no enter seen (trace start) */
	uint64_t open_at_end; /* still idle at the end: not counted */
};

struct ts_idle_dep {
	char name[24];
	uint64_t count;
};

/* Idle exits whose cause was an interrupt of this name ("arch_timer", "local_timer"). */
struct ts_idle_irq {
	char name[32];
	uint64_t count;
};

struct ts_idle_totals {
	struct ts_hist residency[TS_IDLE_NR_STATES];
	uint64_t exits[TS_EXIT_NR];
	uint64_t tick_stop_ok, tick_stop_fail;
	struct ts_idle_dep deps[TS_IDLE_MAX_DEPS]; /* failures by dependency */
	int nr_deps;
	uint64_t deps_other; /* failures whose dependency did not fit */
	uint64_t unmatched_exits, open_at_end;
	struct { /* TS_EXIT_OTHER and TS_EXIT_IPI by event name ("irq:irq_handler_entry") */
		const char *name; /* the decoder's string, valid for the run */
		uint64_t count;
	} other[TS_IDLE_MAX_OTHER];
	int nr_other;
	uint64_t other_unnamed; /* beyond the table, or events without a name */
	struct ts_idle_irq irqs[TS_IDLE_MAX_IRQS]; /* TS_EXIT_IRQ by the interrupt's name */
	int nr_irqs;
	uint64_t irqs_other; /* TS_EXIT_IRQ beyond the table */
};

/* Idle exits caused by one hrtimer or timer function (the report picks out the tick). */
struct ts_idle_exit_fn {
	uint64_t function;
	uint64_t count;
};

struct ts_idle;

/** ts_idle_new() - a new idle model; Return: 0 or -ENOMEM */
int ts_idle_new(struct ts_idle **mp, const struct ts_model_opts *opts);

/**
 * ts_idle_feed() - feed one event: CPU_IDLE and TICK_STOP, and every other event on a CPU
 * that just left idle (to find the exit's cause). Return: 0 or -ENOMEM.
 */
int ts_idle_feed(struct ts_idle *m, const struct ts_event *ev);

/** ts_idle_finish() - count the periods still open at @end (they get no residency) */
void ts_idle_finish(struct ts_idle *m, uint64_t end);

/** ts_idle_free() - free (NULL is fine) */
void ts_idle_free(struct ts_idle *m);

/** ts_idle_nr_cpus() - one past the highest CPU seen */
int ts_idle_nr_cpus(const struct ts_idle *m);

/** ts_idle_cpu() - figures of @cpu, or NULL */
const struct ts_idle_cpu *ts_idle_cpu(const struct ts_idle *m, int cpu);

/** ts_idle_totals() - whole-trace figures */
const struct ts_idle_totals *ts_idle_totals(const struct ts_idle *m);

/** ts_idle_nr_exit_fns() - functions behind TS_EXIT_HRTIMER (@hr = 1) or TS_EXIT_TIMER (0) */
size_t ts_idle_nr_exit_fns(const struct ts_idle *m, int hr);

/** ts_idle_exit_fn_at() - the @i-th of those */
const struct ts_idle_exit_fn *ts_idle_exit_fn_at(const struct ts_idle *m, int hr, size_t i);

/**
 * ts_idle_is_envelope() - whether tracepoint @name only wraps an idle exit's cause: the x86 local
 * timer vector's entry (the tick's hrtimer follows) and any system vector's exit
 */
int ts_idle_is_envelope(const char *name);

/** ts_idle_is_ipi() - ts_class_is_ipi() (classify.h), under the name the analyses call */
int ts_idle_is_ipi(const char *name);

/** ts_idle_exit_name() - "hrtimer", "timer", "wakeup", "resched", ... for TS_EXIT_* */
const char *ts_idle_exit_name(int cause);

/** ts_idle_is_tick() - ts_class_is_tick() (classify.h), under the name the analyses call */
int ts_idle_is_tick(const char *name);

#endif
