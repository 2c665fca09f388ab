/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the scheduler model (sched.c, its off-CPU stacks sched_stacks.c and its wait
 * entries sched_waits.c): the model's state and what the three share.
 */
#ifndef TS_MODEL_SCHED_PRIV_H
#define TS_MODEL_SCHED_PRIV_H

#include <errno.h>
#include <stdint.h>

#include "common/map.h"
#include "tickscope/sched.h"

#define STACK_DROPPED UINT32_MAX
#define SCHED_STACK_HINTS 2

struct task {
	struct ts_sched_task st;
	uint64_t last_out; /* last switch-out */
	uint64_t ready; /* sched_wakeup(_new) since switch-out, or its switch-out if R or R+ */
	uint64_t ready_perf; /* perf's ready_to_run: the first wake only, never a switch-out */
	uint64_t waking_t; /* the open wake's sched_waking time */
	uint64_t q_first, q_last; /* its first and last slice waiting in the queue (seqs), 0 none */
	uint64_t work; /* a kworker: the function of the work item it runs, 0 none */
	struct ts_sched_wait *wait; /* the wait entry of the wake that ended this off-CPU period */
	struct ts_sched_wait *early; /* a wake that came while the task was still on its CPU */
	struct ts_sched_wait *last_wait; /* the wait entry get_wait() last gave for a wake */
	struct ts_sched_wait *last_none; /* ... for an off-CPU period that no wake ended */
	int32_t waking_cpu, waking_target;
	uint32_t stack; /* 1-based stack of the last switch-out, 0 none, STACK_DROPPED */
	uint32_t last_stacks[SCHED_STACK_HINTS]; /* its last stacks, latest first: tried first */
	uint8_t have_out, last_state;
	int32_t alias; /* retired and kept: the pid its wait entries are filed under, else 0 */
	uint8_t exited; /* sched_process_exit seen: its switch-out as dead retires it */
	uint8_t retired; /* exited and folded into the totals (sched_retire.c) */
	uint8_t waking_open; /* a wake waits for its switch-in */
	uint8_t delivered; /* its sched_wakeup was seen */
	int8_t waking_idle; /* target_cpu idle at waking: 1, 0, -1 unknown */
	int8_t klass; /* enum ts_wake_class of the open wake, -1 undecided or unknown */
};

struct cpu {
	struct ts_sched_cpu st;
	uint64_t last_switch; /* perf's tprev: the previous sched_switch here */
	uint64_t since; /* start of the current busy or idle stretch (curr >= 0) */
	uint64_t known_since; /* first event that told this CPU's state */
	uint64_t seen; /* its latest cpu_idle, or wake once events were lost (not its switches) */
	uint64_t lost_at; /* its latest LOST record: the slice there has a gap when after it began */
	uint64_t idle_since, prev_idle_start, prev_idle_end;
	struct task *curr_task; /* NULL for idle or unknown */
	int32_t curr; /* running pid, -1 unknown */
	uint8_t in_cpuidle, idle, known;
};

/*
 * A slice waiting to be judged (sched.c): what switch_out() measures of it, by its task's pid
 * (tasks move when retired ones are packed away, sched_compact()).
 */
struct sched_pend {
	uint64_t tprev, end, ready, ready_perf, from;
	uint64_t next; /* its task's next waiting slice (seq), 0 none */
	int32_t pid; /* 0: judged already (its task retired) */
	uint8_t broken, cpu_lost;
};

/*
 * At most this many slices wait (56 bytes each: 3.5 MB); beyond it the oldest are judged at
 * once by the cautious rule (gap_open()). A 2-task ping-pong switches some 100k-300k times a
 * second: the queue covers 0.2-0.6 s of CPUs that record nothing.
 */
#define SCHED_PEND_MAX 65536

/* Events lost on a CPU between two it recorded: after @start, before @end (a LOST record). */
struct sched_gap {
	uint64_t start, end;
};

/* Tasks looked up lately, by pid modulo its size: a task is never freed or moved till the end. */
#define SCHED_RECENT 256

/*
 * The tasks' histograms, made on a task's first value of each kind: side by side in chunks
 * of doubling size (no allocation and no malloc header each), never moved or freed till the end.
 */
struct sched_hists {
	struct sched_hists *next;
	size_t nr, cap;
	struct ts_hist h[];
};

struct ts_sched {
	struct ts_model_opts opts;
	struct task *recent[SCHED_RECENT]; /* tried before tasks: a wrong pid there is a miss */
	struct ts_map32 tasks; /* pid -> index into tv, plus one */
	struct sched_hists *hists; /* the latest chunk first */
	struct ts_blocks tv; /* struct task, in first-seen order */
	struct ts_cputab cpus; /* cpu -> struct cpu */
	struct ts_sched_totals tot;
	struct ts_map stack_map; /* stack hash -> index into stacks, plus one */
	struct ts_sched_stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct ts_blocks waits; /* struct ts_sched_wait, in first-seen order */
	uint32_t *wait_ix; /* by the hash of an entry's key fields: its index plus one, 0 none */
	size_t wait_cap; /* wait_ix's slots: 0 or a power of two */
	struct ts_map named; /* tids COMM records named (perf synthesizes one per thread) */
	struct ts_sched_threads *classes; /* those threads by class, first name */
	size_t nr_classes, cap_classes;
	uint64_t nr_comm_records;
	struct ts_map32 parents; /* child tid -> the tid that forked it, plus one */
	uint64_t nr_forks;
	struct ts_wltree *tree; /* the recorded workload's process tree */
	struct sched_retire *retire; /* opts.top_tasks: exited tasks folded (sched_retire.c) */
	struct ts_map32 retired_ix; /* tid -> 1 + index into retired_comms: a retired task's name */
	char (*retired_comms)[TS_COMM_LEN];
	size_t nr_retired_comms, cap_retired_comms;
	char (*waker_classes)[24]; /* resolved waker classes, TS_WAKER_CLASS() (sched_retire.c) */
	size_t nr_waker_classes, cap_waker_classes;
	int compact_due; /* retired tasks to fold before the next event (sched_compact()) */
	int saw_waking;
	int per_task; /* the recording followed tasks, not CPUs (ts_sched_set_per_task()) */
	int waking_recorded, wakeup_recorded;
	struct sched_gap *gaps; /* in the order of their LOST records: by end */
	size_t nr_gaps, cap_gaps;
	int untimed_gap; /* a LOST record without a time: any window may hold it */
	int lossy; /* any LOST record was fed: the windows are checked */
	/*
	 * Once events were lost, slices wait here in the order of their switch-outs (a ring of
	 * q_cap, a power of two: seqs [q_head, q_tail) at seq & (q_cap - 1), seqs from 1), each
	 * judged once every CPU recorded an event after its switch-in (a gap on another CPU
	 * becomes known only at its LOST record, which comes before that CPU's next event), at
	 * its task's retirement, when the queue is full, or at the end.
	 */
	struct sched_pend *q;
	size_t q_cap;
	uint64_t q_head, q_tail;
};

static inline struct task **sched_recent(const struct ts_sched *m, int32_t pid)
{
	return (struct task **)&m->recent[(uint32_t)pid % SCHED_RECENT];
}

static inline struct task *sched_find_task(const struct ts_sched *m, int32_t pid)
{
	struct task *p = *sched_recent(m, pid);
	uint32_t *v;

	if (p && p->st.pid == pid)
		return p;
	v = pid > 0 ? ts_map32_find(&m->tasks, (uint32_t)pid) : NULL;
	return v ? ts_blocks_at(&m->tv, *v - 1) : NULL;
}

/* The name of the last retired task of tid @pid, NULL if none (sched_retire.c). */
static inline const char *sched_retired_comm(const struct ts_sched *m, int32_t pid)
{
	uint32_t *v = pid > 0 ? ts_map32_find(&m->retired_ix, (uint32_t)pid) : NULL;

	return v ? m->retired_comms[*v - 1] : NULL;
}

/* The class of a resolved waker (@waker <= TS_WAKER_CLASS(0)), NULL if none. */
static inline const char *sched_resolved_class(const struct ts_sched *m, int32_t waker)
{
	size_t i = (size_t)(TS_WAKER_CLASS(0) - waker);

	return i < m->nr_waker_classes ? m->waker_classes[i] : NULL;
}

/* A task's name, "swapper" for pid 0, NULL when no event named it. */
static inline const char *sched_comm(const struct ts_sched *m, int32_t pid)
{
	const struct task *p = sched_find_task(m, pid);

	if (pid == 0)
		return "swapper";
	if (!p && m->nr_retired_comms)
		return sched_retired_comm(m, pid);
	return p ? p->st.comm : NULL;
}

/* A task's histogram @*h for a new value: made on the first (sched.c). NULL: no memory. */
struct ts_hist *sched_new_hist(struct ts_sched *m, const struct ts_hist **h);

static inline struct ts_hist *sched_hist(struct ts_sched *m, const struct ts_hist **h)
{
	return *h != &ts_hist_none ? (struct ts_hist *)(uintptr_t)*h : sched_new_hist(m, h);
}

/* ts_hist_add() on a task's histogram @*h, made on its first value. Return: 0 or -ENOMEM. */
static inline int sched_hist_add(struct ts_sched *m, const struct ts_hist **h, uint64_t v)
{
	struct ts_hist *p = sched_hist(m, h);

	return p ? ts_hist_add(p, v) : -ENOMEM;
}

/* sched_stacks.c */

/*
 * The 1-based stack index for @ev's switch-out callchain, or STACK_DROPPED. The task's last
 * stacks, @hints[SCHED_STACK_HINTS] (1-based, 0 none, latest first, kept so), are compared
 * first: a task mostly blocks where it blocked lately.
 */
/* The section's feed_kind hook: a switch's and a wakeup's feed (sched.c). */
int (*ts_sched_feed_kind(int kind))(void *m, const struct ts_event *ev);
int sched_intern_stack(struct ts_sched *m, const struct ts_event *ev, uint32_t *hints,
		       uint32_t *out);

/* Credit @ns off the CPU to @pid on the stack's task list, kept heaviest first. */
void sched_stack_task(struct ts_sched_stack *s, int32_t pid, uint64_t ns);

/* sched_retire.c */

/*
 * Task @p switched out dead after its sched_process_exit: fold it into the totals and let its
 * state go at the next compaction (opts.top_tasks only). Return: 0 or -ENOMEM.
 */
int sched_retire(struct ts_sched *m, struct task *p);

/* Merge the selected task @st's distributions into the totals. Return: 0 or -ENOMEM. */
int sched_merge_task(struct ts_sched_totals *t, const struct ts_sched_task *st);

/* Retired tasks pending: fold them now (before the next event, and at the end). */
int sched_compact(struct ts_sched *m);

/* Whether @pid is a retired task's not yet compacted (its new task must wait for it). */
int sched_retired_pending(const struct ts_sched *m, int32_t pid);

/* The selected tasks' sched delay (perf's rule) of the tasks compaction removed, ns. */
uint64_t sched_folded_delay_perf(const struct ts_sched *m);

/* A released histogram of a folded task to use again, NULL if none. */
struct ts_hist *sched_reuse_hist(struct ts_sched *m);

/* @v (an array's pointer) grown to hold @n + 1 elements of @size bytes: 0 or -ENOMEM */
int sched_grow(void *vp, size_t *cap, size_t n, size_t size);
struct sched_retire *sched_retire_new(unsigned int top);
void sched_retire_free(struct ts_sched *m);

/* sched_waits.c */

/*
 * A wait entry's key fields (struct ts_sched_wait's first six), on their own: set field by
 * field, without zeroing a whole entry on every wake.
 */
struct wait_key {
	int32_t pid, waker;
	uint64_t work;
	uint32_t stack;
	uint8_t state, ctx;
};

/* A wait entry's key fields, mixed (splitmix64's finalizer): the slot of wait_ix. */
static inline uint64_t wait_hash(const struct wait_key *k)
{
	uint64_t h =
		((uint64_t)(uint32_t)k->pid << 32 | (uint32_t)k->waker) * 0x9e3779b97f4a7c15ull;

	h ^= k->work * 0xbf58476d1ce4e5b9ull;
	h ^= ((uint64_t)k->stack << 16 | (uint64_t)k->state << 8 | k->ctx) * 0x94d049bb133111ebull;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h;
}

static inline int same_wait(const struct ts_sched_wait *a, const struct wait_key *b)
{
	return a->pid == b->pid && a->waker == b->waker && a->work == b->work &&
	       a->stack == b->stack && a->state == b->state && a->ctx == b->ctx;
}

static inline struct wait_key key_of(const struct ts_sched_wait *w)
{
	struct wait_key k = { .pid = w->pid,
			      .waker = w->waker,
			      .work = w->work,
			      .stack = w->stack,
			      .state = w->state,
			      .ctx = w->ctx };

	return k;
}

/*
 * Give each wait entry the key @rekey sets (in place), merge entries whose keys became equal
 * into the first of them, and pack them in their order; @fwd[i] gets entry i's new index.
 * Return: 0 or -ENOMEM.
 */
int sched_rekey_waits(struct ts_sched *m, void (*rekey)(void *ctx, struct ts_sched_wait *w),
		      void *ctx, uint32_t *fwd);

/* The class a waker of @comm (NULL: never named) in context @ctx is counted as. */
void sched_waker_class_of(const char *comm, int32_t waker, uint8_t ctx, char *out, size_t n);

/* sched_waking of selected task @w by task @by (NULL: unknown): note the wake's entry. */
int sched_note_waker(struct ts_sched *m, struct task *w, const struct task *by,
		     const struct ts_event *ev);

/* The off-CPU period of selected task @n ended after @off ns: credit its wake, or none. */
int sched_end_wait(struct ts_sched *m, struct task *n, uint64_t off);

#endif
