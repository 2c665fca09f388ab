/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interrupt time: per CPU a stack of the interrupt contexts that are open (a hard IRQ handler or
 * a system vector, a softirq, timer callbacks nested inside them), so that every instant of a CPU
 * is either its current task's own time or the innermost interrupt context's; and the irq
 * section's model over it: per handler, vector and timer function a count, durations, and the
 * time taken from each task.
 */
#ifndef TICKSCOPE_IRQ_H
#define TICKSCOPE_IRQ_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

/* What opened a context: where the time it holds is counted. */
enum ts_irq_type {
	TS_IRQT_HARD = 0, /* irq:irq_handler_entry: a hard IRQ's handler, by irq and name */
	TS_IRQT_VECTOR, /* irq_vectors:<name>_entry (x86 system vectors: local_timer, ...) */
	TS_IRQT_SOFT, /* irq:softirq_entry, by vector */
	TS_IRQT_HRTIMER, /* timer:hrtimer_expire_entry, by callback function */
	TS_IRQT_TIMER, /* timer:timer_expire_entry, by callback function */
	TS_IRQT_NR
};

/* The class of an instant: which of run time's parts it belongs to. */
enum ts_irq_class {
	TS_IRQC_NONE = 0, /* no interrupt context open: the task's own time */
	TS_IRQC_HARD, /* a hard IRQ handler or a system vector (and timer callbacks inside it) */
	TS_IRQC_SOFT, /* a softirq (and timer callbacks inside it) */
	TS_IRQC_NR
};

#define TS_IRQ_DEPTH 8 /* contexts open at once on one CPU; deeper ones are counted, not kept */
#define TS_IRQ_NAME_LEN 32

/* A source of interrupt contexts: a handler, a vector, a softirq or a timer callback. */
struct ts_irq_src {
	uint8_t type; /* enum ts_irq_type */
	int64_t num; /* the irq (HARD), the vector (SOFT), the function (timers); -1 (VECTOR) */
	char name[TS_IRQ_NAME_LEN]; /* the action, vector or softirq name; "" for timers */
};

/* The innermost context of one CPU, as its time is counted. */
struct ts_irq_top {
	uint8_t cls; /* enum ts_irq_class */
	int irq_src; /* the innermost hard, vector or soft context; -1: none traced */
	int timer_src; /* the timer callback that is the innermost context; -1: none */
	int32_t pid; /* the task current under the outermost context (0 on an idle CPU) */
};

/* Contexts that could not be paired: counted, their time never invented. */
struct ts_irq_unpaired {
	uint64_t exit_unmatched; /* an exit with no open entry of its source: trace start, loss */
	uint64_t closed_by_outer; /* open contexts closed by the exit of one that encloses them */
	uint64_t dropped_lost; /* contexts open on a CPU when events of it were lost */
	uint64_t too_deep; /* entries past TS_IRQ_DEPTH */
	/*
	 * contexts whose exit was never recorded (the trace's start, while perf enables its events
	 * one by one): dropped at the CPU's next context switch, which no interrupt context spans,
	 * or at a new entry of the same source, which never nests in itself; their time counts up
	 * to that evidence
	 */
	uint64_t dropped_switch, dropped_reentry;
	uint64_t open_at_end; /* entries whose exit is past the end of the trace */
};

/* A context that closed: its source, its interval and the task it interrupted. */
struct ts_irq_done {
	int src;
	int32_t pid; /* the task current when it opened (0 on an idle CPU) */
	uint64_t start, end;
};

struct ts_irqctx;

/**
 * ts_irqctx_new() - per-CPU interrupt context stacks
 * Return: 0 or -ENOMEM.
 */
int ts_irqctx_new(struct ts_irqctx **xp);

/** ts_irqctx_free() - free (NULL is fine) */
void ts_irqctx_free(struct ts_irqctx *x);

/**
 * ts_irqctx_is_event() - whether @ev opens or closes a context (or resets a CPU: lost events)
 */
int ts_irqctx_is_event(const struct ts_event *ev);

/** ts_irqctx_is_vector() - whether tracepoint @name is an x86 system vector's entry or exit */
int ts_irqctx_is_vector(const char *name);

/**
 * ts_irqctx_feed() - apply @ev, in time order
 * @done: out, when a context closed
 * Return: 1 when @done was filled, 0 when not, -ENOMEM.
 */
int ts_irqctx_feed(struct ts_irqctx *x, const struct ts_event *ev, struct ts_irq_done *done);

/** ts_irqctx_top() - the innermost context of @cpu now */
struct ts_irq_top ts_irqctx_top(const struct ts_irqctx *x, int cpu);

/** ts_irqctx_depth() - how many contexts are open on @cpu; -1 when no event was seen there */
int ts_irqctx_depth(const struct ts_irqctx *x, int cpu);

/** ts_irqctx_since() - when @cpu's innermost context last changed (0: never) */
uint64_t ts_irqctx_since(const struct ts_irqctx *x, int cpu);

/** ts_irqctx_nr_cpus() - one more than the highest CPU seen */
int ts_irqctx_nr_cpus(const struct ts_irqctx *x);

/** ts_irqctx_busy() - how many CPUs have a context open now */
int ts_irqctx_busy(const struct ts_irqctx *x);

/** ts_irqctx_finish() - count what is still open at the end */
void ts_irqctx_finish(struct ts_irqctx *x);

/** ts_irqctx_nr_srcs(), ts_irqctx_src() - the sources seen, in first-seen order */
int ts_irqctx_nr_srcs(const struct ts_irqctx *x);
const struct ts_irq_src *ts_irqctx_src(const struct ts_irqctx *x, int i);

/** ts_irqctx_unpaired() - what could not be paired */
const struct ts_irq_unpaired *ts_irqctx_unpaired(const struct ts_irqctx *x);

/** ts_irq_softirq_name() - "HI", "TIMER", ... "RCU" for softirq vector @vec; NULL past them */
const char *ts_irq_softirq_name(int64_t vec);

/** ts_irq_type_name() - "irq", "vector", "softirq", "hrtimer", "timer" */
const char *ts_irq_type_name(int type);

/** ts_irq_metric_part() - @s for a metric name: dots, spaces and slashes become '_' */
const char *ts_irq_metric_part(const char *s, char *buf, size_t len);

/** ts_irq_class_name() - "own", "hardirq", "softirq" */
const char *ts_irq_class_name(int cls);

/* The irq section's figures of one source. */
struct ts_irq_stat {
	int src; /* ts_irq_src(model, src) */
	uint64_t count; /* contexts that closed */
	struct ts_hist dur; /* entry to exit, ns, nested contexts included */
	uint64_t own_ns; /* the time it was the innermost context */
	uint64_t on_task_ns; /* entry to exit while a task (not the idle task) was current */
};

/* Time taken from one task (pid 0: the idle task, on all CPUs), by class, disjoint. */
struct ts_irq_task {
	int32_t pid;
	char comm[TS_COMM_LEN];
	uint64_t ns[TS_IRQC_NR]; /* TS_IRQC_NONE unused */
	uint64_t timers_ns; /* of which: a timer callback was the innermost context */
};

/* One task's share of one source: entry to exit, while the task was current. */
struct ts_irq_src_task {
	int src;
	int32_t pid;
	uint64_t ns;
};

struct ts_irq;

/** ts_irq_new() - an empty model; Return: 0 or -ENOMEM */
int ts_irq_new(struct ts_irq **mp, const struct ts_model_opts *opts);

/** ts_irq_feed() - irq and timer entry/exit, switches and names; Return: 0 or -ENOMEM */
int ts_irq_feed(struct ts_irq *m, const struct ts_event *ev);

/** ts_irq_finish() - count what is still open at @end */
void ts_irq_finish(struct ts_irq *m, uint64_t end);

/** ts_irq_free() - free (NULL is fine) */
void ts_irq_free(struct ts_irq *m);

/** ts_irq_ctx() - the model's context stacks: its sources and what could not be paired */
const struct ts_irqctx *ts_irq_ctx(const struct ts_irq *m);

/** ts_irq_nr_stats(), ts_irq_stat_at() - per source, in first-seen order */
size_t ts_irq_nr_stats(const struct ts_irq *m);
const struct ts_irq_stat *ts_irq_stat_at(const struct ts_irq *m, size_t i);

/** ts_irq_nr_tasks(), ts_irq_task_at() - the tasks interrupted, in first-seen order */
size_t ts_irq_nr_tasks(const struct ts_irq *m);
const struct ts_irq_task *ts_irq_task_at(const struct ts_irq *m, size_t i);

/** ts_irq_nr_src_tasks(), ts_irq_src_task_at() - (source, task) pairs, first-seen order */
size_t ts_irq_nr_src_tasks(const struct ts_irq *m);
const struct ts_irq_src_task *ts_irq_src_task_at(const struct ts_irq *m, size_t i);

/** ts_irq_totals() - all CPUs' time by class, disjoint (TS_IRQC_NONE unused) */
void ts_irq_totals(const struct ts_irq *m, uint64_t ns[TS_IRQC_NR]);

#endif
