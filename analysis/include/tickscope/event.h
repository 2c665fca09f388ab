/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct ts_event: the small typed event that every source (perf.data reader, dlfilter plugin)
 * produces and every model consumes. Models see only this header, never libtraceevent.
 */
#ifndef TICKSCOPE_EVENT_H
#define TICKSCOPE_EVENT_H

#include <stdint.h>

#define TS_COMM_LEN 16

/* power:cpu_idle uses (u32)-1 as the "exit" state (PWR_EVENT_EXIT). */
#define TS_IDLE_EXIT 0xffffffffu

/*
 * The event table: one line per tracepoint kind, X(KIND, "system:event", SECTION, required,
 * decoder). TS_EV_<KIND> is the kind; SECTION the section (TS_SEC_<SECTION>, tickscope/section.h)
 * whose bookkeeping and presence it counts in, NONE for none; required: the section has no data
 * without it; decoder: source/decode_<subsystem>.c's ts_dec_<decoder>, which names the fields it
 * reads. Lines are grouped by section in the order the reports list the events.
 */
/* clang-format off: one line per entry, each ending in a backslash */
#define TS_EVENTS(X)                                                                   \
	X(SWITCH, "sched:sched_switch", SCHED, 1, sched_switch)                        \
	X(WAKING, "sched:sched_waking", SCHED, 0, sched_wakeup)                        \
	X(WAKEUP, "sched:sched_wakeup", SCHED, 0, sched_wakeup)                        \
	X(WAKEUP_NEW, "sched:sched_wakeup_new", SCHED, 0, sched_wakeup)                \
	X(CPU_IDLE, "power:cpu_idle", IDLE, 1, cpu_idle)                               \
	X(TICK_STOP, "timer:tick_stop", IDLE, 0, tick_stop)                            \
	X(HRTIMER_EXPIRE_ENTRY, "timer:hrtimer_expire_entry", TIMER, 1, hrtimer_entry) \
	X(HRTIMER_EXPIRE_EXIT, "timer:hrtimer_expire_exit", TIMER, 1, hrtimer)         \
	X(TIMER_EXPIRE_ENTRY, "timer:timer_expire_entry", TIMER, 1, timer_entry)       \
	X(TIMER_EXPIRE_EXIT, "timer:timer_expire_exit", TIMER, 1, timer)               \
	X(HRTIMER_START, "timer:hrtimer_start", TIMER, 0, hrtimer_start)               \
	X(TIMER_START, "timer:timer_start", TIMER, 0, timer_start)                     \
	X(HRTIMER_CANCEL, "timer:hrtimer_cancel", TIMER, 0, hrtimer)                   \
	X(TIMER_CANCEL, "timer:timer_cancel", TIMER, 0, timer)                         \
	X(WQ_START, "workqueue:workqueue_execute_start", WQ, 1, wq_start)              \
	X(WQ_END, "workqueue:workqueue_execute_end", WQ, 1, wq_work)                   \
	X(WQ_QUEUE, "workqueue:workqueue_queue_work", WQ, 0, wq_queue)                 \
	X(WQ_ACTIVATE, "workqueue:workqueue_activate_work", WQ, 0, wq_work)            \
	X(RCU_UTIL, "rcu:rcu_utilization", RCU, 1, rcu_util)                           \
	X(RCU_GP, "rcu:rcu_grace_period", RCU, 0, rcu_gp)                              \
	X(RCU_CB, "rcu:rcu_callback", RCU, 0, rcu_cb)                                  \
	X(RCU_INVOKE, "rcu:rcu_invoke_callback", RCU, 0, rcu_cb)                       \
	X(SHRINK_START, "vmscan:mm_shrink_slab_start", SHRINKER, 1, shrink_start)      \
	X(SHRINK_END, "vmscan:mm_shrink_slab_end", SHRINKER, 1, shrink_end)            \
	X(MIGRATE, "sched:sched_migrate_task", MIGRATE, 1, sched_migrate)              \
	X(IRQ_ENTRY, "irq:irq_handler_entry", IRQ, 1, irq_entry)                       \
	X(IRQ_EXIT, "irq:irq_handler_exit", IRQ, 1, irq_exit)                          \
	X(SOFTIRQ_ENTRY, "irq:softirq_entry", IRQ, 1, softirq)                         \
	X(SOFTIRQ_EXIT, "irq:softirq_exit", IRQ, 1, softirq)                           \
	X(PROCESS_EXIT, "sched:sched_process_exit", NONE, 0, sched_exit)               \
	X(PROCESS_FORK, "sched:sched_process_fork", NONE, 0, sched_fork)               \
	/* end of the table */
/* clang-format on */

/* Other tracepoints that decode to a kind of the table: X(KIND, "system:event", decoder). */
/* clang-format off: one line per entry, each ending in a backslash */
#define TS_EVENT_ALIASES(X)                                         \
	X(RCU_CB, "rcu:rcu_kvfree_callback", rcu_cb)                \
	X(RCU_INVOKE, "rcu:rcu_invoke_kvfree_callback", rcu_cb)     \
	X(RCU_INVOKE, "rcu:rcu_invoke_kfree_bulk_callback", rcu_cb) \
	/* end of the table */
/* clang-format on */

/* Whether a thread is the kernel's: kthreadd (pid 2) or a child of it, by its FORK record. */
enum ts_kthread {
	TS_KTHREAD_UNKNOWN = 0, /* no FORK record named its parent */
	TS_KTHREAD_YES,
	TS_KTHREAD_NO, /* forked by another task */
};

#define TS_EVENT_ENUM(kind, name, sec, req, dec) TS_EV_##kind,
enum ts_event_kind {
	TS_EV_OTHER = 0, /* a tracepoint the models do not interpret */
	TS_EVENTS(TS_EVENT_ENUM)
	/* side-band, from non-sample records (the dlfilter source never sees these) */
	TS_EV_COMM, /* PERF_RECORD_COMM: pid took the name in comm.comm */
	TS_EV_FORK, /* PERF_RECORD_FORK: fork.parent forked fork.child (tids), as PROCESS_FORK */
	TS_EV_LOST, /* PERF_RECORD_LOST / LOST_SAMPLES on cpu */
	TS_EV_NR_KINDS
};
#undef TS_EVENT_ENUM

/** ts_event_name() - "sched:sched_switch" for TS_EV_SWITCH, ... ("" for none) */
const char *ts_event_name(int kind);

/**
 * ts_event_kind() - the kind tracepoint @name ("sched:sched_switch") decodes to
 * Return: a TS_EV_* of the table or its aliases, or TS_EV_OTHER.
 */
int ts_event_kind(const char *name);

/** ts_event_required() - whether the section of @kind needs it (0 for none) */
int ts_event_required(int kind);

/*
 * Task state classes of sched_switch's prev_state. The raw value's encoding changed across
 * kernels (TASK_REPORT_MAX marks preemption since v4.14), so the decoder classifies it once.
 */
enum ts_task_state {
	TS_STATE_RUNNING = 0, /* R or R+ : preempted, still runnable */
	TS_STATE_SLEEPING, /* S: TASK_INTERRUPTIBLE */
	TS_STATE_DISK, /* D: TASK_UNINTERRUPTIBLE (I, TASK_IDLE, counts as other) */
	TS_STATE_OTHER, /* T, t, X, Z, P, I */
};

/*
 * The context a tracepoint fired in, from its common_flags: on sched_waking, the waker's. A
 * hard interrupt's common_pid is whatever task it interrupted (0 on an idle CPU), so the task
 * alone would credit that task with the interrupt's wakeups.
 */
enum ts_wake_ctx {
	TS_CTX_TASK = 0, /* task context (or common_flags not in the format) */
	TS_CTX_SOFTIRQ, /* serving a softirq: on irq exit, in ksoftirqd, or (PREEMPT_RT) a thread */
	TS_CTX_HARDIRQ, /* a hard interrupt or an NMI handler */
	TS_CTX_NR
};

/*
 * common_flags bits that have meant the same since 2.6 (kernel/trace/trace.h's
 * TRACE_FLAG_HARDIRQ, _SOFTIRQ, _NMI); the others were renumbered across versions.
 */
#define TS_TRACE_FLAG_HARDIRQ 0x08
#define TS_TRACE_FLAG_SOFTIRQ 0x10
#define TS_TRACE_FLAG_NMI 0x40

/** ts_wake_ctx_of() - the context of a raw common_flags value */
static inline uint8_t ts_wake_ctx_of(uint64_t flags)
{
	if (flags & (TS_TRACE_FLAG_HARDIRQ | TS_TRACE_FLAG_NMI))
		return TS_CTX_HARDIRQ;
	return flags & TS_TRACE_FLAG_SOFTIRQ ? TS_CTX_SOFTIRQ : TS_CTX_TASK;
}

/* rcu_utilization's string, decided once per distinct string by the decoder. */
enum ts_rcu_ctx {
	TS_RCU_OTHER = 0,
	TS_RCU_CTXSW, /* "Start/End context switch" */
	TS_RCU_TICK, /* "Start/End scheduler-tick" */
	TS_RCU_CORE, /* "Start/End RCU core" */
	TS_RCU_CPU_STALL, /* anything else recognised as a stall / kthread window */
};

struct ts_event {
	uint64_t time; /* ns, perf clock */
	int32_t cpu;
	int32_t pid; /* tid that was running when the sample was taken */
	uint16_t kind; /* enum ts_event_kind */
	uint16_t tp_id; /* tracepoint id (perf attr config), 0 for side-band events */
	/*
	 * The kernel part of the callchain (context markers stripped), on TS_EV_SWITCH only:
	 * models use switch-out stacks, and scanning every chain costs more than decoding.
	 * Valid only while the event is being fed.
	 */
	uint32_t nr_ips;
	const uint64_t *ips;
	const char *name; /* "sched:sched_switch": the decoder's copy, valid for the run */
	union {
		struct {
			int32_t prev_pid, prev_prio;
			int32_t next_pid, next_prio;
			uint64_t prev_state_raw;
			uint8_t prev_state; /* enum ts_task_state */
			char prev_comm[TS_COMM_LEN];
			char next_comm[TS_COMM_LEN];
		} sw;
		struct { /* WAKING, WAKEUP, WAKEUP_NEW */
			int32_t pid, prio, target_cpu;
			uint8_t ctx; /* enum ts_wake_ctx: the context the event fired in */
			char comm[TS_COMM_LEN];
		} wake;
		struct {
			int32_t pid, prio, orig_cpu, dest_cpu;
			char comm[TS_COMM_LEN];
		} migrate;
		struct { /* PROCESS_EXIT */
			int32_t pid;
			char comm[TS_COMM_LEN];
		} exit;
		struct { /* PROCESS_FORK, FORK: the forking thread and the new one (tids) */
			int32_t parent, child;
		} fork;
		struct {
			uint32_t state; /* TS_IDLE_EXIT on exit */
			uint32_t cpu_id;
		} idle;
		struct { /* IRQ_ENTRY, IRQ_EXIT, SOFTIRQ_ENTRY, SOFTIRQ_EXIT */
			int32_t irq; /* the irq number; the vector number for softirqs */
			int32_t ret; /* IRQ_EXIT: the handler's irqreturn_t */
			char name[32]; /* IRQ_ENTRY: the action's name ("virtio0-input.0") */
		} irq;
		struct {
			int32_t success;
			char dependency[24]; /* "NONE", "POSIX_TIMER", "SCHED", ... */
		} tick_stop;
		struct { /* TIMER_* and HRTIMER_* */
			uint64_t timer; /* struct timer_list / hrtimer address */
			uint64_t function; /* 0 when the event does not carry it (exit/cancel) */
			uint64_t expires; /* jiffies for timers, ns for hrtimers (start) */
			uint64_t now; /* expire_entry */
		} timer;
		struct { /* WQ_* */
			uint64_t work;
			uint64_t function; /* 0 on kernels whose event lacks it */
			int32_t req_cpu, cpu; /* WQ_QUEUE only */
			char wq_name[24]; /* WQ_QUEUE only */
		} wq;
		struct {
			uint8_t start; /* 1 for "Start ...", 0 for "End ..." */
			uint8_t ctx; /* enum ts_rcu_ctx */
			const char *str; /* the whole string, decoder-owned */
		} rcu_util;
		struct {
			uint64_t gp_seq;
			const char *rcuname;
			const char *gpevent; /* "start", "end", "newreq", "cpuend", ... */
		} rcu_gp;
		struct { /* RCU_CB, RCU_INVOKE */
			uint64_t rhp;
			uint64_t func;
		} rcu_cb;
		struct { /* OTHER, when ts_probe_split() takes the name: probe:F, probe:F__return */
			/*
			 * the address probed: the kprobe's __probe_ip, the return probe's
			 * __probe_func; 0 when the format has neither. It names the symbol probed,
			 * a clone (F.constprop.0) where the kernel has no F.
			 */
			uint64_t ip;
		} probe;
		struct { /* SHRINK_START, SHRINK_END */
			uint64_t shr; /* struct shrinker address: pairs start and end */
			uint64_t function; /* shrinker->scan_objects */
			int32_t nid;
			int64_t nr_objects_to_shrink; /* start */
			int64_t cache_items; /* start */
			int64_t total_scan; /* start and end */
			int64_t retval; /* end: objects freed */
			int64_t unused_scan, new_scan; /* end */
			int32_t priority; /* start */
		} shrink;
		struct {
			char comm[TS_COMM_LEN];
			int32_t tid;
			uint8_t exec;
			uint8_t kthread; /* enum ts_kthread, by the FORK record before it */
		} comm;
		struct {
			uint64_t lost; /* events lost */
			uint64_t id; /* the attr id, 0 when unknown */
			/*
			 * 1 for PERF_RECORD_LOST_SAMPLES: perf synthesizes those at the end of a
			 * recording with time 0, and they count the same losses again per event
			 */
			uint8_t samples;
		} lost;
	};
};

/**
 * ts_task_state_class() - classify a raw sched_switch prev_state
 * @raw: the prev_state field as recorded
 * @report_max: the kernel's TASK_REPORT_MAX bit (the "+" preemption flag), 0 if unknown
 *
 * Return: an enum ts_task_state.
 */
static inline uint8_t ts_task_state_class(uint64_t raw, uint64_t report_max)
{
	if (raw == 0 || (report_max && (raw & report_max)))
		return TS_STATE_RUNNING;
	if (raw & 0x1)
		return TS_STATE_SLEEPING;
	if (raw & 0x2)
		return TS_STATE_DISK;
	return TS_STATE_OTHER;
}

#endif
