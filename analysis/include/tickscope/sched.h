/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler model: per task run time, sched delay (perf timehist's "sch delay"), wake
 * delivery, wakeup latency, off-CPU time by state and stack, wake classes; per CPU busy/idle.
 */
#ifndef TICKSCOPE_SCHED_H
#define TICKSCOPE_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

/* Wake classes: the waker's CPU against the target CPU, and the target's state at waking. */
enum ts_wake_class {
	TS_WAKE_SAME_IDLE = 0,
	TS_WAKE_SAME_BUSY,
	TS_WAKE_CROSS_IDLE,
	TS_WAKE_CROSS_BUSY,
	TS_WAKE_NR
};

/* Off-CPU states: the same order as enum ts_task_state (R is preempted, still runnable). */
enum ts_off_state { TS_OFF_R = 0, TS_OFF_S, TS_OFF_D, TS_OFF_OTHER, TS_OFF_NR };

/* Per task figures. Times in ns. */
struct ts_sched_task {
	int32_t pid; /* the tid */
	char comm[TS_COMM_LEN];
	int selected; /* passes the task filter; whole-trace figures count selected tasks only */
	uint64_t nr_switches; /* switch-outs: perf timehist's "sched-in" count */
	uint64_t nr_voluntary, nr_involuntary; /* switched out sleeping / preempted (R, R+) */
	uint64_t nr_rt_out; /* switch-outs at a real-time or deadline priority (prev_prio < 100) */
	uint64_t nr_migrations; /* sched_migrate_task */
	uint64_t nr_wakeups; /* sched_waking, or sched_wakeup when waking was not recorded */
	uint64_t nr_wakeup_new;
	uint64_t wake_class[TS_WAKE_NR];
	uint64_t nr_wake_unclassified; /* target CPU state unknown (before its first event) */
	uint64_t nr_wake_running; /* sched_waking found it still running: no sched_wakeup, no class */
	/*
	 * run slices a broken chain ends (ts_sched_cpu.broken_chains): the switch that put the
	 * task on its CPU is not in the data, so the slice and its sched delay start at an
	 * earlier switch and have no true length (kept in run and delay, as perf timehist does)
	 */
	uint64_t nr_broken;
	/*
	 * Lost events (PERF_RECORD_LOST, lost_slices() in sched.c): run slices left out of run
	 * and sched delay (both rules), as a LOST gap on their CPU fell inside the slice or one on
	 * any CPU fell between the task's wake (its switch-out, with no wake seen) and its
	 * switch-in, where its wake or a run of it may have been; off-CPU periods left out of the
	 * off-CPU times, the stacks, the wakers and the wakeup latency, as a gap fell inside them
	 */
	uint64_t nr_lost_slices, nr_lost_off;
	uint64_t delay_perf; /* ns, total sched delay by perf timehist's rule (docs/report-json.md) */
	uint64_t delay_perf_max; /* ns, the longest single one by that rule */
	/*
	 * The distributions, never NULL: &ts_hist_none (empty) until the task's first value of
	 * that kind, then the model's own (most short-lived tasks fill 3 of the 8: a busy machine's
	 * thousands of them cost 64 bytes of pointers and their few histograms each, not 8 * 48)
	 */
	const struct ts_hist *run; /* run slices: previous switch on that CPU -> switch-out (perf) */
	const struct ts_hist *delay; /* sched delay per slice: from sched_wakeup or R/R+ switch-out */
	const struct ts_hist *delivery; /* sched_waking -> sched_wakeup */
	const struct ts_hist *wakelat; /* sched_waking -> switch-in */
	const struct ts_hist *off[TS_OFF_NR]; /* switch-out -> next switch-in, by prev_state */
};

/* Per CPU figures; busy and idle count from the CPU's first sched_switch to the end. */
struct ts_sched_cpu {
	int32_t cpu;
	int seen; /* any sched event touched this CPU */
	uint64_t busy, idle; /* ns: a task / the idle task (pid 0) running */
	uint64_t nr_switches;
	uint64_t wakeups_local, wakeups_remote; /* received: waker on this CPU / on another */
	/*
	 * sched_switch events whose prev_pid is not the task the previous switch on this CPU
	 * switched in: a switch is missing from the data (perf script shows the same gap), so
	 * run and wait times around it are uncertain
	 */
	uint64_t broken_chains;
};

/* Whole-trace figures over the selected tasks (distributions complete after finish). */
struct ts_sched_totals {
	uint64_t nr_switches, nr_wakeups, nr_wakeup_new, nr_migrations;
	uint64_t wake_class[TS_WAKE_NR];
	uint64_t nr_wake_unclassified, nr_wake_running;
	struct ts_hist class_delivery[TS_WAKE_NR];
	struct ts_hist class_wakelat[TS_WAKE_NR];
	struct ts_hist run, delay, delivery, wakelat, off[TS_OFF_NR];
	uint64_t nr_broken; /* the selected tasks' ts_sched_task.nr_broken */
	uint64_t nr_lost_slices, nr_lost_off; /* the selected tasks' */
	uint64_t nr_gaps; /* LOST records fed: gaps in some CPU's events */
	uint64_t nr_time_travel; /* wakes that came while the task still ran: no delay from them */
	uint64_t nr_stack_switches; /* switch-outs with a callchain */
	/* wakes not kept in the wait table (none: it compares whole keys) */
	uint64_t waits_dropped;
	uint64_t stacks_dropped_ns; /* off-CPU time of stacks beyond the table's limit */
};

#define TS_STACK_TASKS 4

/* The waker of an off-CPU period that no sched_waking ended (preempted: R; or unseen). */
#define TS_WAKER_NONE (-1)

/*
 * A waker that exited in a report of the top tasks (ts_model_opts.top_tasks): its class, final
 * at its exit, stands in for its tid (ts_sched_waker_class() names it), so that the wait
 * entries of the tasks it woke merge. TS_WAKER_CLASS(i) for the model's class i.
 */
#define TS_WAKER_CLASS(i) (-2 - (int32_t)(i))

/*
 * Who ended a task's waits. sched_waking fires in the waker's context, so its common_pid and
 * common_flags say who woke the task: a task, a softirq or a hard interrupt on top of one.
 * One entry per task woken (selected tasks only), waker, context, the work function the
 * waker ran (a kworker between workqueue_execute_start and _end), and the switch-out stack
 * and state of the off-CPU period the wake ended.
 */
struct ts_sched_wait {
	/*
	 * the task woken; with ts_model_opts.top_tasks, 0 for a task that exited and was folded,
	 * ts_sched_task_waits_pid() for one that exited and is kept
	 */
	int32_t pid;
	/* sched_waking's common_pid (0: the idle task); TS_WAKER_NONE: no wake; TS_WAKER_CLASS() */
	int32_t waker;
	uint64_t work; /* the waker's work function, 0 for none */
	uint32_t stack; /* 1 + index of the period's switch-out stack (ts_sched_stack_at), 0 none */
	uint8_t state; /* enum ts_off_state of the period; TS_OFF_NR: no off-CPU period was open */
	uint8_t ctx; /* enum ts_wake_ctx of the wake */
	uint64_t wakes; /* sched_waking events */
	uint64_t periods; /* off-CPU periods that ended (switch-in) after such a wake, or none */
	uint64_t ns; /* their off-CPU time */
};

/* An off-CPU kernel stack (raw addresses; reports symbolize), all selected tasks together. */
struct ts_sched_stack {
	uint32_t nr_ips;
	const uint64_t *ips;
	uint64_t count; /* off-CPU periods that ended */
	uint64_t total; /* ns */
	uint64_t by_state[TS_OFF_NR];
	/*
	 * The tasks with the most time here, heaviest first: exact while at most
	 * TS_STACK_TASKS tasks used the stack; beyond that a newcomer replaces the lightest
	 * entry when its period is longer than that entry's total, so heavy tasks stay.
	 */
	struct {
		int32_t pid; /* 0: unused */
		uint64_t ns;
	} tasks[TS_STACK_TASKS];
};

struct ts_sched;

/**
 * ts_sched_new() - a new scheduler model
 * @mp: out
 * @opts: may be NULL
 * Return: 0 or -ENOMEM.
 */
int ts_sched_new(struct ts_sched **mp, const struct ts_model_opts *opts);

/**
 * ts_sched_feed() - feed one event (events of other kinds are ignored)
 *
 * Uses SWITCH, WAKING, WAKEUP, WAKEUP_NEW, MIGRATE, COMM, FORK and PROCESS_FORK (the process
 * tree), CPU_IDLE (for idle targets) and
 * WQ_START/WQ_END (the work a kworker runs when it wakes a task).
 * Return: 0 or -ENOMEM.
 */
int ts_sched_feed(struct ts_sched *m, const struct ts_event *ev);

/**
 * ts_sched_finish() - close per-CPU busy/idle time at @end (ns) and build the whole-trace
 * distributions from the selected tasks'; call once, after feeding
 * Return: 0 or -ENOMEM.
 */
int ts_sched_finish(struct ts_sched *m, uint64_t end);

/** ts_sched_free() - free the model (NULL is fine) */
void ts_sched_free(struct ts_sched *m);

/**
 * ts_sched_waking_recorded() - the input recorded sched:sched_waking (even if none fired yet)
 *
 * perf timehist then ignores sched_wakeup for "sch delay"; delay_perf does the same. Without
 * this call the model decides at the first sched_waking it sees.
 */
void ts_sched_waking_recorded(struct ts_sched *m);

/**
 * ts_sched_wakeup_recorded() - the input recorded sched:sched_wakeup
 *
 * Sched delay then starts at sched_wakeup even for a task whose sched_waking came first.
 * Without this call the model decides at the first sched_wakeup it sees.
 */
void ts_sched_wakeup_recorded(struct ts_sched *m);

/**
 * ts_sched_set_per_task() - the recording followed tasks (perf record -p, -t or a command
 * without -a), not whole CPUs; call before the figures are read (after feeding is fine)
 *
 * Such a recording has the events of the followed tasks' contexts only: a task's switch-in
 * happens in the context of the task it replaces and a wake in the waker's, so that the
 * figures below are not measured there (ts_sched_run_why(), ts_sched_wakes_why(),
 * ts_sched_off_why()).
 */
void ts_sched_set_per_task(struct ts_sched *m, int per_task);

/* The reasons the functions below give. */
#define TS_SCHED_RUN_WHY                                                                  \
	"a per-task recording has no switch that put these tasks on their CPU, so their " \
	"slices start at another task's switch"
#define TS_SCHED_WAKES_WHY \
	"a per-task recording has a task's wakes only when a followed task is the waker"
#define TS_SCHED_UNSWITCHED_WHY                                                                    \
	"a per-task recording has a task's switch-out only when it is followed: these tasks were " \
	"seen only in the followed tasks' events"
#define TS_SCHED_OFF_WHY                                                                  \
	"a per-task recording has a task's switch-in only when a followed task switched " \
	"to it"
#define TS_SCHED_OTHERS_WHY                                                                    \
	"a per-task recording has the other tasks' run time only next to the followed tasks' " \
	"switches, not all CPU time"

/**
 * ts_sched_run_why() - why run slices and sched delays (both rules) of a task, or of the
 * whole trace, are not measured; NULL when they are
 * @nr_broken: the task's ts_sched_task.nr_broken, or the totals'
 *
 * In a per-task recording a slice a broken chain ends starts at another task's switch; in a
 * -a one the chain broke where data is missing, and perf timehist's rule is kept.
 */
const char *ts_sched_run_why(const struct ts_sched *m, uint64_t nr_broken);

/**
 * ts_sched_task_run_why() - why the run slices and sched delays of the task @t are not
 * measured (ts_sched_run_why() of its broken slices, or, in a per-task recording, a task never
 * switched out: one the recording did not follow, whose slices it has none of); NULL when they
 * are
 */
const char *ts_sched_task_run_why(const struct ts_sched *m, const struct ts_sched_task *t);

/**
 * ts_sched_wakes_why() - why wake counts, wake classes, wake delivery, wakeup latency and the
 * wakers are not measured (every task, and the whole trace); NULL when they are
 */
const char *ts_sched_wakes_why(const struct ts_sched *m);

/**
 * ts_sched_off_why() - why off-CPU times (every task, the whole trace, the stacks) are not
 * measured; NULL when they are
 */
const char *ts_sched_off_why(const struct ts_sched *m);

/**
 * ts_sched_others_why() - why the run time of the tasks the recording did not follow, and so
 * their share of all CPU time, is not measured; NULL when it is
 */
const char *ts_sched_others_why(const struct ts_sched *m);

/**
 * ts_sched_task_rank() - the key tasks are listed by, largest first: the selected tasks
 * whose run is not measured (ts_sched_run_why()) first, by switch-outs, then the others by
 * run time; 0 for a task the filter left out
 */
uint64_t ts_sched_task_rank(const struct ts_sched *m, const struct ts_sched_task *t);

/**
 * ts_sched_nr_tasks() - tasks seen (pid 0, the idle task, is not one); with
 * ts_model_opts.top_tasks, without the tasks that exited and were folded into the totals
 * (those kept, the heaviest, are listed with the others, still in first-seen order)
 */
size_t ts_sched_nr_tasks(const struct ts_sched *m);

/** ts_sched_task_at() - task @i (0 <= i < ts_sched_nr_tasks), in first-seen order */
const struct ts_sched_task *ts_sched_task_at(const struct ts_sched *m, size_t i);

/**
 * ts_sched_task_waits_pid() - the pid @t's wait entries (struct ts_sched_wait.pid) are filed
 * under: its tid, or for a task that exited and is kept (ts_model_opts.top_tasks) a negative
 * alias, since a new task may have its tid
 */
int32_t ts_sched_task_waits_pid(const struct ts_sched_task *t);

/** ts_sched_task_find() - the task with tid @pid (not one that exited and was folded), or NULL */
const struct ts_sched_task *ts_sched_task_find(const struct ts_sched *m, int32_t pid);

/** ts_sched_nr_cpus() - one past the highest CPU seen */
int ts_sched_nr_cpus(const struct ts_sched *m);

/** ts_sched_cpu() - figures of CPU @cpu, or NULL if never seen */
const struct ts_sched_cpu *ts_sched_cpu(const struct ts_sched *m, int cpu);

/** ts_sched_totals() - whole-trace figures */
const struct ts_sched_totals *ts_sched_totals(const struct ts_sched *m);

/** ts_sched_nr_stacks() - distinct off-CPU stacks kept */
size_t ts_sched_nr_stacks(const struct ts_sched *m);

/** ts_sched_stack_at() - stack @i, in first-seen order */
const struct ts_sched_stack *ts_sched_stack_at(const struct ts_sched *m, size_t i);

/** ts_sched_nr_waits() - entries of the wait table (who ended the selected tasks' waits) */
size_t ts_sched_nr_waits(const struct ts_sched *m);

/** ts_sched_wait_at() - wait entry @i, in first-seen order */
const struct ts_sched_wait *ts_sched_wait_at(const struct ts_sched *m, size_t i);

/**
 * ts_sched_waits_recorded() - whether wakers were measured: sched_waking was recorded (the
 * waker's context; sched_wakeup may fire on the wakee's CPU instead)
 */
int ts_sched_waits_recorded(const struct ts_sched *m);

/**
 * ts_sched_task_class() - a task's class: its comm up to a '/' without trailing digits
 * ("irq/23-virtio0" -> "irq", "kworker/1:2" -> "kworker", "ksoftirqd/3" -> "ksoftirqd"), with
 * characters other than letters, digits and "_-+.:@" as '_' (it goes into metric names)
 * @out: at least 2 bytes; @n: its size
 */
void ts_sched_task_class(const char *comm, char *out, size_t n);

/**
 * ts_sched_waker_class() - who woke, as a class
 * @m: the model (for the waker's comm)
 * @w: a wait entry
 * @out, @n: the class (of the waker's latest comm, as the front ends agree on it: the
 *	perf plugin sees no COMM records): "hardirq" (an interrupt handler, whatever task it
 *	interrupted),
 *	"softirq" (a softirq run on irq exit or inside another task), the waker's task class
 *	(ts_sched_task_class(); a softirq run by ksoftirqd or ktimers, whose job it is, counts as
 *	theirs), "swapper" (the idle task), "unknown" (a waker never named), or "none" (no wake
 *	ended the period: preempted)
 * Return: @out.
 */
const char *ts_sched_waker_class(const struct ts_sched *m, const struct ts_sched_wait *w, char *out,
				 size_t n);

/* Wait entries summed by waker class (ts_sched_wakers()). */
struct ts_sched_waker_sum {
	char cls[24]; /* ts_sched_waker_class(), or "other" for classes beyond the caller's room */
	uint64_t work; /* with by_work: the work function (0 none), else 0 */
	uint64_t wakes, periods, ns; /* the entries' sums */
};

/**
 * ts_sched_wakers() - the wait entries that @keep accepts, summed by waker class
 * @m: the model
 * @keep: NULL for every entry
 * @ctx: passed to @keep
 * @by_work: also split by the waker's work function (kworkers: the work item that woke)
 * @out: room for @max sums (@max >= 2): the heaviest @max - 1, and the rest summed into a
 *	last "other" when they do not fit
 * Return: how many sums, most wakes first (then most periods, then class name), -EINVAL
 * (@max < 2) or -ENOMEM.
 */
int ts_sched_wakers(const struct ts_sched *m, int (*keep)(void *ctx, const struct ts_sched_wait *w),
		    void *ctx, int by_work, struct ts_sched_waker_sum *out, int max);

/**
 * ts_sched_wakers_of() - ts_sched_wakers() over the entries @v[0..@n) (the report sums
 * each task's from one list sorted by task)
 */
int ts_sched_wakers_of(const struct ts_sched *m, const struct ts_sched_wait *const *v, size_t n,
		       int by_work, struct ts_sched_waker_sum *out, int max);

/*
 * Kernel threads by class, as COMM records named them (perf synthesizes one per existing
 * thread): kthreadd (pid 2) and its children by the FORK record before the COMM (perf
 * synthesizes those too, with the parent from /proc); for a thread without one, those whose
 * comm has a '/' (the per-CPU and per-device threads: irq/N-name, ktimers/N, rcuc/N,
 * ksoftirqd/N, kworker/...; a user task's comm is its program's basename).
 */
struct ts_sched_threads {
	char cls[24]; /* ts_sched_task_class() of the thread's first name */
	uint64_t threads;
};

/**
 * ts_sched_comm_records() - COMM records fed (0: the threads were not measured, as in the
 * perf plugin, which sees none)
 */
uint64_t ts_sched_comm_records(const struct ts_sched *m);

/**
 * ts_sched_task_parent() - the tid that forked task @pid, by sched_process_fork or perf's FORK
 * records (perf synthesizes those of the threads that existed when it started, with the
 * process's parent): the process tree
 * Return: the parent's tid, or -1 when no fork of @pid was seen.
 */
int32_t ts_sched_task_parent(const struct ts_sched *m, int32_t pid);

/** ts_sched_forks() - fork events fed (0: the process tree is not known) */
uint64_t ts_sched_forks(const struct ts_sched *m);

struct ts_wltree;

/**
 * ts_sched_wltree() - the recorded workload's process tree (tickscope/wltree.h), from the COMM
 * and fork events fed; valid until ts_sched_free()
 */
const struct ts_wltree *ts_sched_wltree(const struct ts_sched *m);

/** ts_sched_nr_thread_classes() - classes of the threads COMM records named */
size_t ts_sched_nr_thread_classes(const struct ts_sched *m);

/** ts_sched_thread_class_at() - class @i, in first-seen order */
const struct ts_sched_threads *ts_sched_thread_class_at(const struct ts_sched *m, size_t i);

/**
 * ts_sched_comm() - the latest comm of @pid ("swapper" for 0), or NULL if never seen
 * (from sched_switch, sched_wak*, migrate and COMM events)
 */
const char *ts_sched_comm(const struct ts_sched *m, int32_t pid);

/**
 * ts_sched_selected() - whether @pid passes the task filter (1 for unknown tasks
 * when there is no filter, else 0)
 */
int ts_sched_selected(const struct ts_sched *m, int32_t pid);

/** ts_sched_is_sched_frame() - whether @name (may be NULL) is one of the scheduler's own frames */
int ts_sched_is_sched_frame(const char *name);

#endif
