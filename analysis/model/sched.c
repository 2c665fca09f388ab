// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler model. Run time and sched delay follow perf sched timehist exactly (see
 * docs/report-json.md, "sched"); wake classes are decided with the target CPU's state at waking.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"
#include "tickscope/wltree.h"

static void select_task(struct ts_sched *m, struct task *p)
{
	p->st.selected = !m->opts.task_filter ||
			 m->opts.task_filter(m->opts.filter_ctx, p->st.pid, p->st.comm);
}

/*
 * A task first seen: made, in slot @v of the map (@ret: what ts_map32_insert() returned). The
 * tasks lie side by side in blocks (a busy machine's trace has tens of thousands of them): no
 * allocation and no pointer each.
 */
static __attribute__((noinline)) struct task *new_task(struct ts_sched *m, int32_t pid, int ret,
						       uint32_t *v)
{
	struct task *p;
	int i;

	if (ret < 0)
		return NULL;
	p = m->tv.nr < UINT32_MAX - 1 ? ts_blocks_add(&m->tv) : NULL;
	if (!p) {
		ts_map32_remove(&m->tasks, (uint32_t)pid);
		return NULL;
	}
	p->st.pid = pid;
	p->st.run = p->st.delay = p->st.delivery = p->st.wakelat = &ts_hist_none;
	for (i = 0; i < TS_OFF_NR; i++)
		p->st.off[i] = &ts_hist_none;
	p->klass = -1;
	select_task(m, p);
	*v = (uint32_t)m->tv.nr;
	/* a pid used again: the exited task's wait entries go to it first, before the next event */
	if (m->retire && sched_retired_pending(m, pid))
		m->compact_due = 1;
	return p;
}

/* The task of @pid (> 0) from the map, made when new; it becomes the recent one of its slot. */
static __attribute__((noinline)) struct task *get_task_slow(struct ts_sched *m, int32_t pid)
{
	struct task *p;
	uint32_t *v;
	int ret = ts_map32_insert(&m->tasks, (uint32_t)pid, &v);

	p = ret == 0 ? ts_blocks_at(&m->tv, *v - 1) : new_task(m, pid, ret, v);
	if (p)
		*sched_recent(m, pid) = p;
	return p;
}

/* The task of @pid (> 0), made when new: one seen lately inline (nearly every event). */
static inline struct task *get_task(struct ts_sched *m, int32_t pid)
{
	struct task *p = *sched_recent(m, pid);

	return p && p->st.pid == pid ? p : get_task_slow(m, pid);
}

static __attribute__((noinline)) void set_comm_slow(struct ts_sched *m, struct task *p,
						    const char *comm)
{
	if (!strncmp(p->st.comm, comm, TS_COMM_LEN - 1))
		return;
	strncpy(p->st.comm, comm, TS_COMM_LEN - 1);
	p->st.comm[TS_COMM_LEN - 1] = 0;
	if (m->opts.task_filter)
		select_task(m, p);
}

/* Nearly always the same name: the kernel pads comm with NULs, so equal names are equal bytes. */
static inline void set_comm(struct ts_sched *m, struct task *p, const char *comm)
{
	if (comm[0] && memcmp(p->st.comm, comm, TS_COMM_LEN))
		set_comm_slow(m, p, comm);
}

static inline __attribute__((always_inline)) struct cpu *get_cpu(struct ts_sched *m, int32_t cpu)
{
	int isnew;
	struct cpu *c = ts_cputab_get(&m->cpus, cpu, &isnew);

	if (isnew) {
		c->st.cpu = cpu;
		c->curr = -1;
	}
	return c;
}

static void set_idle(struct cpu *c, uint64_t t, int idle)
{
	if (!c->known) {
		c->known = 1;
		c->known_since = t;
		c->idle = (uint8_t)idle;
		c->idle_since = t;
		return;
	}
	if (idle == c->idle)
		return;
	if (idle) {
		c->idle_since = t;
	} else {
		c->prev_idle_start = c->idle_since;
		c->prev_idle_end = t;
	}
	c->idle = (uint8_t)idle;
}

/* Whether @cpu was idle at @t (not after the current time): 1, 0, or -1 when unknown. */
static int was_idle(const struct ts_sched *m, int32_t cpu, uint64_t t)
{
	const struct cpu *c = ts_cputab_find(&m->cpus, cpu);

	if (!c || !c->known || t < c->known_since)
		return -1;
	if (c->idle && c->idle_since <= t)
		return 1;
	return c->prev_idle_start <= t && t < c->prev_idle_end;
}

/*
 * Whether events may have been lost between @from and @to (exclusive): a gap, between two
 * events a CPU recorded, that its LOST record (fed so far) gave. The gaps come by their end,
 * the time of the LOST record: the newest first, back to the first that ended by @from.
 */
static int gap_between(const struct ts_sched *m, uint64_t from, uint64_t to)
{
	size_t i;

	if (m->untimed_gap)
		return 1;
	for (i = m->nr_gaps; i-- > 0 && m->gaps[i].end > from;)
		if (m->gaps[i].start < to)
			return 1;
	return 0;
}

/*
 * Whether a CPU may be inside a gap not yet known that began before @to (the trace lost
 * events): none of its events since (its LOST record comes before its next event). @cpu,
 * the slice's own, had one since: its gaps are known (-1: none left out).
 */
static int gap_open(const struct ts_sched *m, int32_t cpu, uint64_t to)
{
	const struct cpu *x;
	int i;

	for (i = 0; i < m->cpus.nr; i++) {
		x = m->cpus.v[i];
		if (!x || x->st.cpu == cpu)
			continue;
		/* a CPU that lost nothing yet may begin now: its first gap too */
		if ((x->seen > x->last_switch ? x->seen : x->last_switch) < to &&
		    (x->lost_at == UINT64_MAX || x->lost_at < to))
			return 1;
	}
	return 0;
}

/* Measure a slice of @p, [@tprev, @end]: run, sched delay (both rules), or its loss (@lost). */
static inline __attribute__((always_inline)) int commit_slice(struct ts_sched *m, struct task *p,
							      uint64_t tprev, uint64_t end,
							      uint64_t ready, uint64_t ready_perf,
							      int broken, int lost)
{
	struct ts_sched_totals *tot = &m->tot;
	int err = 0;

	if (lost) {
		p->st.nr_lost_slices++;
		tot->nr_lost_slices += p->st.selected;
		return 0;
	}
	if (broken) {
		p->st.nr_broken++;
		tot->nr_broken += p->st.selected;
	}
	err = sched_hist_add(m, &p->st.run, end - tprev);
	if (!err && ready && ready > tprev)
		tot->nr_time_travel++;
	else if (!err && ready)
		err = sched_hist_add(m, &p->st.delay, tprev - ready);
	if (ready_perf && ready_perf <= tprev) {
		p->st.delay_perf += tprev - ready_perf;
		if (tprev - ready_perf > p->st.delay_perf_max)
			p->st.delay_perf_max = tprev - ready_perf;
	}
	return err;
}

/* How a waiting slice is judged: with every gap that may touch it known, or not (cautious). */
enum { JUDGE_KNOWN, JUDGE_CAUTIOUS };

/*
 * Judge the waiting slice @s of @p and let it go. A slice holds a lost event when a LOST
 * record on its CPU came inside it (a switch may be missing there), or a gap on any CPU lies
 * between the wake its sched delay starts at and its switch-in, where a run of its task, and
 * the wake that really made it runnable, may have been lost (with no wake seen since its
 * switch-out the window starts there, as the wake itself may be the lost event). perf sched
 * timehist guesses in both cases. @how JUDGE_CAUTIOUS: a gap may still be open on a CPU that
 * recorded nothing since before the switch-in, and counts as one.
 */
static int judge_slice(struct ts_sched *m, struct task *p, struct sched_pend *s, int how)
{
	int lost;

	lost = s->cpu_lost || (s->from && s->from < s->tprev &&
			       (gap_between(m, s->from, s->tprev) ||
				(how == JUDGE_CAUTIOUS && gap_open(m, -1, s->tprev))));
	s->pid = 0;
	return commit_slice(m, p, s->tprev, s->end, s->ready, s->ready_perf, s->broken, lost);
}

static inline struct sched_pend *pend_at(const struct ts_sched *m, uint64_t seq)
{
	return &m->q[seq & (m->q_cap - 1)];
}

/* Judge the oldest waiting slice (one its task's retirement judged is skipped). */
static int judge_head(struct ts_sched *m, int how)
{
	struct sched_pend *s = pend_at(m, m->q_head);
	uint64_t seq = m->q_head++;
	struct task *p;

	if (!s->pid)
		return 0;
	p = sched_find_task(m, s->pid);
	if (!p)
		return 0; /* not reached: a task retires after its slices were judged */
	if (p->q_first == seq)
		p->q_first = s->next;
	if (p->q_last == seq)
		p->q_last = 0;
	return judge_slice(m, p, s, how);
}

/* Judge the oldest slices whose every gap is known: every CPU recorded an event since. */
static __attribute__((noinline)) int judge_known(struct ts_sched *m)
{
	int err = 0;

	while (!err && m->q_head < m->q_tail &&
	       (!pend_at(m, m->q_head)->pid || !gap_open(m, -1, pend_at(m, m->q_head)->tprev)))
		err = judge_head(m, JUDGE_KNOWN);
	return err;
}

/* @p retires: its waiting slices are judged now, by the cautious rule. */
static int judge_task(struct ts_sched *m, struct task *p)
{
	struct sched_pend *s;
	uint64_t seq;
	int err = 0;

	for (seq = p->q_first; seq && seq >= m->q_head && !err; seq = s->next) {
		s = pend_at(m, seq);
		if (s->pid != p->st.pid)
			break;
		err = judge_slice(m, p, s, JUDGE_CAUTIOUS);
	}
	p->q_first = p->q_last = 0;
	return err;
}

/* The ring twice as large (or first made), its waiting slices at their new places. */
static int grow_queue(struct ts_sched *m)
{
	size_t cap = m->q_cap ? 2 * m->q_cap : 1024;
	struct sched_pend *q = malloc(cap * sizeof(*q));
	uint64_t seq;

	if (!q)
		return -ENOMEM;
	for (seq = m->q_head; seq < m->q_tail; seq++)
		q[seq & (cap - 1)] = *pend_at(m, seq);
	free(m->q);
	m->q = q;
	m->q_cap = cap;
	if (!m->q_head)
		m->q_head = m->q_tail = 1;
	return 0;
}

/*
 * The slice of @p that ends now on @c, which put it there at @tprev, once the trace lost
 * events: measured at once when every gap that may touch it is known, else it waits in the
 * queue (the oldest judged by the cautious rule when the queue is full).
 */
static __attribute__((noinline)) int lossy_slice(struct ts_sched *m, struct task *p,
						 const struct cpu *c, uint64_t tprev, uint64_t end,
						 int broken)
{
	struct sched_pend *s, one;
	uint64_t seq;
	int err;

	one.tprev = tprev;
	one.end = end;
	one.ready = p->ready;
	one.ready_perf = p->ready_perf;
	one.from = p->last_out ? p->last_out : p->ready ? p->ready : p->ready_perf;
	if (p->ready && p->ready_perf)
		one.from = p->ready < p->ready_perf ? p->ready : p->ready_perf;
	one.broken = (uint8_t)broken;
	one.cpu_lost = c->lost_at > tprev;
	one.pid = p->st.pid;
	one.next = 0;
	if (one.pid <= 0 || one.cpu_lost || !one.from || one.from >= tprev ||
	    !gap_open(m, c->st.cpu, tprev))
		return judge_slice(m, p, &one, JUDGE_KNOWN);
	if (m->q_tail - m->q_head >= SCHED_PEND_MAX && (err = judge_head(m, JUDGE_CAUTIOUS)))
		return err;
	if (m->q_tail - m->q_head >= m->q_cap && (err = grow_queue(m)))
		return err;
	seq = m->q_tail++;
	s = pend_at(m, seq);
	*s = one;
	if (p->q_last)
		pend_at(m, p->q_last)->next = seq;
	else
		p->q_first = seq;
	p->q_last = seq;
	return 0;
}

static int switch_out(struct ts_sched *m, struct task *p, const struct ts_event *ev,
		      const struct cpu *c, uint64_t tprev, int broken)
{
	uint8_t state = ev->sw.prev_state < TS_OFF_NR ? ev->sw.prev_state : TS_OFF_OTHER;
	struct ts_sched_totals *tot = &m->tot;
	int err = 0;

	p->st.nr_switches++;
	p->st.nr_rt_out += ev->sw.prev_prio < 100; /* SCHED_FIFO, _RR (0-99), _DEADLINE (-1) */
	if (state == TS_STATE_RUNNING)
		p->st.nr_involuntary++;
	else
		p->st.nr_voluntary++;
	if (p->st.selected)
		tot->nr_switches++;
	/* perf timehist: nothing is measured for the first switch seen on a CPU. */
	if (tprev && ev->time >= tprev && m->lossy) {
		err = lossy_slice(m, p, c, tprev, ev->time, broken);
	} else if (tprev && ev->time >= tprev) {
		err = commit_slice(m, p, tprev, ev->time, p->ready, p->ready_perf, broken, 0);
	}
	/* A wake that got no sched_wakeup before the switch-out found the task running. */
	if (p->waking_open && !p->delivered) {
		p->st.nr_wake_running++;
		tot->nr_wake_running += p->st.selected;
	}
	p->last_out = ev->time;
	p->have_out = 1;
	p->last_state = state;
	p->ready = state == TS_STATE_RUNNING ? ev->time : 0;
	p->ready_perf = 0; /* perf: even a preempted task is not ready until woken */
	p->waking_open = 0;
	p->stack = 0;
	p->wait = NULL;
	if (!err && ev->nr_ips && ev->ips && p->st.selected) {
		tot->nr_stack_switches++;
		err = sched_intern_stack(m, ev, p->last_stacks, &p->stack);
	}
	/*
	 * A dead task's last switch-out (EXIT_ZOMBIE, EXIT_DEAD: 0x20, 0x10): it never runs again,
	 * so no off-CPU time follows it. A task that takes its tid later (pid_max wrapped) starts
	 * afresh, as perf's thread of a new fork does: its first switch-in closed the dead task's
	 * last switch-out before, as hundreds of seconds off-CPU in a minute's trace.
	 */
	if (ev->sw.prev_state == TS_STATE_OTHER && (ev->sw.prev_state_raw & 0x30))
		p->have_out = 0;
	return err;
}

static int switch_in(struct ts_sched *m, struct task *n, uint64_t t)
{
	struct ts_sched_totals *tot = &m->tot;
	struct ts_sched_stack *s;
	uint64_t off;
	int err = 0;

	if (m->lossy && n->have_out && t >= n->last_out &&
	    gap_between(m, n->waking_open && n->waking_t < n->last_out ? n->waking_t : n->last_out,
			t)) {
		/* a run of it, its wake, may be lost in there: neither off-CPU nor latency known */
		n->st.nr_lost_off++;
		m->tot.nr_lost_off += n->st.selected;
		n->waking_open = 0;
	} else if (n->have_out && t >= n->last_out) {
		off = t - n->last_out;
		err = sched_hist_add(m, &n->st.off[n->last_state], off);
		if (n->stack == STACK_DROPPED) {
			tot->stacks_dropped_ns += off;
		} else if (n->stack) {
			s = &m->stacks[n->stack - 1];
			s->count++;
			s->total += off;
			s->by_state[n->last_state] += off;
			sched_stack_task(s, n->st.pid, off);
		}
		if (n->st.selected)
			err = err ?: sched_end_wait(m, n, off);
	}
	n->have_out = 0;
	n->wait = NULL;
	n->early = NULL;
	n->stack = 0;
	if (!err && n->waking_open && t >= n->waking_t) {
		err = sched_hist_add(m, &n->st.wakelat, t - n->waking_t);
		if (!err && n->klass >= 0 && n->st.selected)
			err = ts_hist_add(&tot->class_wakelat[n->klass], t - n->waking_t);
	}
	n->waking_open = 0;
	return err;
}

static int on_switch(struct ts_sched *m, const struct ts_event *ev)
{
	struct cpu *c = get_cpu(m, ev->cpu);
	struct task *p = NULL, *n = NULL;
	uint64_t tprev;
	int err = 0, broken;

	if (!c)
		return -ENOMEM;
	tprev = c->last_switch;
	broken = c->curr >= 0 && c->curr != ev->sw.prev_pid;
	c->st.broken_chains += broken;
	if (ev->sw.prev_pid > 0) {
		p = c->curr == ev->sw.prev_pid && c->curr_task ? c->curr_task :
								 get_task(m, ev->sw.prev_pid);
		if (!p)
			return -ENOMEM;
		set_comm(m, p, ev->sw.prev_comm);
		err = switch_out(m, p, ev, c, tprev, broken);
	}
	if (!err && ev->sw.next_pid > 0) {
		n = get_task(m, ev->sw.next_pid);
		if (!n)
			return -ENOMEM;
		set_comm(m, n, ev->sw.next_comm);
		err = switch_in(m, n, ev->time);
	}
	if (c->curr >= 0 && ev->time >= c->since) {
		if (c->curr == 0)
			c->st.idle += ev->time - c->since;
		else
			c->st.busy += ev->time - c->since;
	}
	c->since = ev->time;
	c->curr = ev->sw.next_pid;
	c->curr_task = n;
	c->last_switch = ev->time;
	c->st.nr_switches++;
	c->st.seen = 1;
	set_idle(c, ev->time, c->curr == 0 || c->in_cpuidle);
	/*
	 * An exited task's last switch-out, as a zombie or dead (EXIT_ZOMBIE and EXIT_DEAD, 0x20
	 * and 0x10 in prev_state, before and since v4.14): it never runs again. One that exited
	 * and sleeps in the rest of do_exit() (S, D) is not done yet.
	 */
	if (p && p->exited && !err && ev->sw.prev_state == TS_STATE_OTHER &&
	    (ev->sw.prev_state_raw & 0x30))
		err = (p->q_first ? judge_task(m, p) : 0) ?: sched_retire(m, p);
	if (m->lossy && m->q_head != m->q_tail && !err)
		err = judge_known(m);
	return err;
}

/* Decide the open wake's class once its target CPU is final (at sched_wakeup). */
static void classify(struct ts_sched *m, struct task *w, int32_t target)
{
	int idle = target == w->waking_target ? w->waking_idle : was_idle(m, target, w->waking_t);
	int same = w->waking_cpu == target;
	struct cpu *c = ts_cputab_find(&m->cpus, target);

	if (c) {
		if (same)
			c->st.wakeups_local++;
		else
			c->st.wakeups_remote++;
	}
	if (idle < 0) {
		w->klass = -1;
		w->st.nr_wake_unclassified++;
		m->tot.nr_wake_unclassified += w->st.selected;
		return;
	}
	w->klass = (int8_t)(same ? (idle ? TS_WAKE_SAME_IDLE : TS_WAKE_SAME_BUSY) :
				   (idle ? TS_WAKE_CROSS_IDLE : TS_WAKE_CROSS_BUSY));
	w->st.wake_class[w->klass]++;
	m->tot.wake_class[w->klass] += w->st.selected;
}

static void open_wake(struct ts_sched *m, struct task *w, const struct ts_event *ev)
{
	w->waking_t = ev->time;
	w->waking_open = 1;
	w->delivered = 0;
	w->klass = -1;
	w->waking_cpu = ev->cpu;
	w->waking_target = ev->wake.target_cpu;
	w->waking_idle = (int8_t)was_idle(m, ev->wake.target_cpu, ev->time);
	w->st.nr_wakeups++;
	m->tot.nr_wakeups += w->st.selected;
}

/*
 * A wake's CPU recorded it, once events were lost: a gap there begins after it (on_lost();
 * before, its last switch or cpu_idle stands for it, earlier: a longer gap). Only a CPU a
 * switch or cpu_idle made (a new one would count wakes to it from now on).
 */
static inline void note_seen(struct ts_sched *m, const struct ts_event *ev)
{
	struct cpu *c = ts_cputab_find(&m->cpus, ev->cpu);

	if (c && ev->time > c->seen)
		c->seen = ev->time;
}

/*
 * A PERF_RECORD_LOST on a CPU: events of it were lost after the last one it recorded, before
 * the record's time (the kernel gives it the time of the event it writes next). The slice
 * running there holds the gap; windows of other tasks are checked against it.
 */
static int on_lost(struct ts_sched *m, const struct ts_event *ev)
{
	struct cpu *c;
	uint64_t start;

	if (ev->lost.samples)
		return 0;
	c = get_cpu(m, ev->cpu);
	if (!c)
		return -ENOMEM;
	/* the gap begins after its latest event the model knows: the previous LOST's is one */
	start = c->seen > c->last_switch ? c->seen : c->last_switch;
	if (c->lost_at != UINT64_MAX && c->lost_at > start)
		start = c->lost_at;
	c->lost_at = ev->time ? ev->time : UINT64_MAX;
	m->lossy = 1;
	m->tot.nr_gaps++;
	if (!ev->time) {
		m->untimed_gap = 1;
		return 0;
	}
	if (sched_grow(&m->gaps, &m->cap_gaps, m->nr_gaps, sizeof(*m->gaps)))
		return -ENOMEM;
	m->gaps[m->nr_gaps].start = start;
	m->gaps[m->nr_gaps++].end = ev->time;
	return m->q_head != m->q_tail ? judge_known(m) : 0;
}

static int on_wake(struct ts_sched *m, const struct ts_event *ev)
{
	struct task *w;
	int err = 0;

	if (ev->wake.pid <= 0)
		return 0;
	w = get_task(m, ev->wake.pid);
	if (!w)
		return -ENOMEM;
	set_comm(m, w, ev->wake.comm);
	if (m->lossy) {
		note_seen(m, ev);
		if (m->q_head != m->q_tail && (err = judge_known(m)))
			return err;
	}
	/*
	 * Ours: runnable from sched_wakeup, so that waking -> wakeup is wake delivery and
	 * wakeup -> switch-in is sched delay; from sched_waking only without sched_wakeup.
	 */
	if (!w->ready && (ev->kind != TS_EV_WAKING || !m->wakeup_recorded))
		w->ready = ev->time;
	/* perf timehist ignores sched_wakeup when the file has sched_waking. */
	if (!w->ready_perf && (ev->kind != TS_EV_WAKEUP || !m->waking_recorded))
		w->ready_perf = ev->time;
	if (ev->kind == TS_EV_WAKEUP)
		m->wakeup_recorded = 1;
	if (ev->kind == TS_EV_WAKEUP_NEW) {
		w->st.nr_wakeup_new++;
		m->tot.nr_wakeup_new += w->st.selected;
		return 0;
	}
	if (ev->kind == TS_EV_WAKING) {
		m->saw_waking = 1;
		m->waking_recorded = 1;
		open_wake(m, w, ev);
		return w->st.selected ? sched_note_waker(m, w, sched_find_task(m, ev->pid), ev) : 0;
	}
	if (!w->waking_open && !m->saw_waking)
		open_wake(m, w, ev); /* no sched_waking recorded: the wakeup is the wake */
	else if (!w->waking_open || w->delivered || ev->time < w->waking_t)
		return 0;
	w->delivered = 1;
	classify(m, w, ev->wake.target_cpu);
	err = sched_hist_add(m, &w->st.delivery, ev->time - w->waking_t);
	if (!err && w->klass >= 0 && w->st.selected)
		err = ts_hist_add(&m->tot.class_delivery[w->klass], ev->time - w->waking_t);
	return err;
}

/* A thread a COMM record names, counted once under its first name's class. */
static int count_thread(struct ts_sched *m, const struct ts_event *ev)
{
	struct ts_sched_threads *c;
	char cls[sizeof(c->cls)];
	uint64_t *v;
	size_t i;
	int ret;

	m->nr_comm_records++;
	/*
	 * Kernel threads only: kthreadd and its children, by the FORK record perf gives every
	 * thread before its COMM (synthesized for those that existed), whatever their names
	 * (rcu_preempt, kswapd0, irq/23-virtio0). Without a FORK record, those named with a '/'
	 * (ktimers/0, kworker/u16:2): a user task's comm is its program's basename. Which user
	 * programs happen to exist says nothing about the kernel.
	 */
	if (ev->comm.tid <= 0 || ev->comm.kthread == TS_KTHREAD_NO ||
	    (ev->comm.kthread == TS_KTHREAD_UNKNOWN &&
	     !memchr(ev->comm.comm, '/', strnlen(ev->comm.comm, TS_COMM_LEN))))
		return 0;
	ret = ts_map_insert(&m->named, (uint64_t)ev->comm.tid, &v);
	if (ret <= 0)
		return ret;
	ts_sched_task_class(ev->comm.comm, cls, sizeof(cls));
	for (i = 0; i < m->nr_classes && strcmp(m->classes[i].cls, cls); i++)
		;
	if (i == m->nr_classes) {
		if (m->nr_classes == m->cap_classes) {
			size_t cap = m->cap_classes ? 2 * m->cap_classes : 32;

			c = realloc(m->classes, cap * sizeof(*c));
			if (!c)
				return -ENOMEM;
			m->classes = c;
			m->cap_classes = cap;
		}
		c = &m->classes[m->nr_classes++];
		memset(c, 0, sizeof(*c));
		snprintf(c->cls, sizeof(c->cls), "%s", cls);
	}
	m->classes[i].threads++;
	return 0;
}

static int on_cpu_idle(struct ts_sched *m, const struct ts_event *ev)
{
	struct cpu *c = get_cpu(m, ev->cpu);

	if (!c)
		return -ENOMEM;
	c->in_cpuidle = ev->idle.state != TS_IDLE_EXIT;
	c->seen = ev->time;
	set_idle(c, ev->time, c->curr == 0 || c->in_cpuidle);
	return m->q_head != m->q_tail ? judge_known(m) : 0;
}

/* Both the tracepoint and perf's record may tell of one fork: the same edge, kept once. */
static int on_fork(struct ts_sched *m, const struct ts_event *ev)
{
	uint32_t *v;
	int ret;

	if (ev->fork.child <= 0 || ev->fork.parent < 0)
		return 0;
	ret = ts_map32_insert(&m->parents, (uint32_t)ev->fork.child, &v);
	if (ret < 0)
		return ret;
	*v = (uint32_t)ev->fork.parent + 1;
	m->nr_forks++;
	return 0;
}

int32_t ts_sched_task_parent(const struct ts_sched *m, int32_t pid)
{
	uint32_t *v = pid > 0 ? ts_map32_find(&m->parents, (uint32_t)pid) : NULL;

	return v ? (int32_t)(*v - 1) : -1;
}

uint64_t ts_sched_forks(const struct ts_sched *m)
{
	return m->nr_forks;
}

const struct ts_wltree *ts_sched_wltree(const struct ts_sched *m)
{
	return m->tree;
}

int ts_sched_feed(struct ts_sched *m, const struct ts_event *ev)
{
	struct task *p;
	int err;

	if (m->compact_due && (err = sched_compact(m)))
		return err;
	switch (ev->kind) {
	case TS_EV_SWITCH:
		return on_switch(m, ev);
	case TS_EV_WAKING:
	case TS_EV_WAKEUP:
	case TS_EV_WAKEUP_NEW:
		return on_wake(m, ev);
	case TS_EV_MIGRATE:
		if (ev->migrate.pid <= 0)
			return 0;
		p = get_task(m, ev->migrate.pid);
		if (!p)
			return -ENOMEM;
		set_comm(m, p, ev->migrate.comm);
		p->st.nr_migrations++;
		m->tot.nr_migrations += p->st.selected;
		return 0;
	case TS_EV_COMM:
		/* Only tasks already seen: perf synthesizes COMM for every task on the system. */
		p = ev->comm.tid > 0 ? sched_find_task(m, ev->comm.tid) : NULL;
		if (p)
			set_comm(m, p, ev->comm.comm);
		return ts_wltree_feed(m->tree, ev) ?: count_thread(m, ev);
	case TS_EV_FORK:
	case TS_EV_PROCESS_FORK:
		return ts_wltree_feed(m->tree, ev) ?: on_fork(m, ev);
	case TS_EV_CPU_IDLE:
		return on_cpu_idle(m, ev);
	case TS_EV_LOST:
		return on_lost(m, ev);
	case TS_EV_PROCESS_EXIT:
		/* a report of the top tasks: the task is folded at its last switch-out */
		p = m->retire && ev->exit.pid > 0 ? sched_find_task(m, ev->exit.pid) : NULL;
		if (p)
			p->exited = 1;
		return 0;
	case TS_EV_WQ_START:
	case TS_EV_WQ_END:
		/* a kworker seen already (not made here: that would list tasks no switch showed) */
		p = sched_find_task(m, ev->pid);
		if (p)
			p->work = ev->kind == TS_EV_WQ_START ? ev->wq.function : 0;
		return 0;
	default:
		return 0;
	}
}

/* The dispatch's feeds for a switch and a wakeup: what ts_sched_feed() does, with no switch. */
static int feed_switch(void *mv, const struct ts_event *ev)
{
	struct ts_sched *m = mv;
	int err;

	if (m->compact_due && (err = sched_compact(m)))
		return err;
	return on_switch(m, ev);
}

static int feed_wake(void *mv, const struct ts_event *ev)
{
	struct ts_sched *m = mv;
	int err;

	if (m->compact_due && (err = sched_compact(m)))
		return err;
	return on_wake(m, ev);
}

int (*ts_sched_feed_kind(int kind))(void *m, const struct ts_event *ev)
{
	if (kind == TS_EV_SWITCH)
		return feed_switch;
	if (kind == TS_EV_WAKING || kind == TS_EV_WAKEUP || kind == TS_EV_WAKEUP_NEW)
		return feed_wake;
	return NULL;
}

/*
 * Whole-trace distributions: the selected tasks' merged (cheaper than two adds per value);
 * a retired task's were merged when it retired (bucket counts add up: the order is free).
 */
static int merge_tasks(struct ts_sched *m)
{
	const struct task *p;
	size_t i;
	int err = 0;

	for (i = 0; i < m->tv.nr && !err; i++) {
		p = ts_blocks_at(&m->tv, i);
		if (p->st.selected && !p->retired)
			err = sched_merge_task(&m->tot, &p->st);
	}
	return err;
}

int ts_sched_finish(struct ts_sched *m, uint64_t end)
{
	struct cpu *c;
	int i, err = 0;

	while (m->q_head < m->q_tail && !err)
		err = judge_head(m, JUDGE_KNOWN);
	err = err ?: m->retire ? sched_compact(m) : 0;
	if (err)
		return err;
	for (i = 0; i < m->cpus.nr; i++) {
		c = m->cpus.v[i];
		if (!c || c->curr < 0 || end < c->since)
			continue;
		if (c->curr == 0)
			c->st.idle += end - c->since;
		else
			c->st.busy += end - c->since;
		c->since = end;
	}
	return merge_tasks(m);
}

int ts_sched_new(struct ts_sched **mp, const struct ts_model_opts *opts)
{
	struct ts_sched *m = calloc(1, sizeof(*m));

	if (!m || ts_wltree_new(&m->tree)) {
		free(m);
		return -ENOMEM;
	}
	m->cpus.size = sizeof(struct cpu);
	m->tv.size = sizeof(struct task);
	m->waits.size = sizeof(struct ts_sched_wait);
	if (opts)
		m->opts = *opts;
	if (m->opts.top_tasks && !(m->retire = sched_retire_new(m->opts.top_tasks))) {
		ts_sched_free(m);
		return -ENOMEM;
	}
	*mp = m;
	return 0;
}

/* The chunk sizes: 64 histograms (3 KiB) first, doubling up to 4,096 (192 KiB). */
#define HISTS_FIRST 64
#define HISTS_MAX 4096

struct ts_hist *sched_new_hist(struct ts_sched *m, const struct ts_hist **h)
{
	struct sched_hists *c = m->hists;
	struct ts_hist *f = m->retire ? sched_reuse_hist(m) : NULL;
	size_t cap;

	if (f) { /* a folded task's, emptied */
		*h = f;
		return f;
	}
	if (!c || c->nr == c->cap) {
		cap = !c ? HISTS_FIRST : c->cap < HISTS_MAX ? c->cap * 2 : HISTS_MAX;
		c = calloc(1, sizeof(*c) + cap * sizeof(c->h[0]));
		if (!c)
			return NULL;
		c->cap = cap;
		c->next = m->hists;
		m->hists = c;
	}
	*h = &c->h[c->nr];
	return &c->h[c->nr++];
}

static void release_hists(struct ts_sched *m)
{
	struct sched_hists *c, *next;
	size_t i;

	for (c = m->hists; c; c = next) {
		next = c->next;
		for (i = 0; i < c->nr; i++)
			ts_hist_release(&c->h[i]);
		free(c);
	}
	m->hists = NULL;
}

static void release_totals(struct ts_sched_totals *t)
{
	int i;

	for (i = 0; i < TS_WAKE_NR; i++) {
		ts_hist_release(&t->class_delivery[i]);
		ts_hist_release(&t->class_wakelat[i]);
	}
	ts_hist_release(&t->run);
	ts_hist_release(&t->delay);
	ts_hist_release(&t->delivery);
	ts_hist_release(&t->wakelat);
	for (i = 0; i < TS_OFF_NR; i++)
		ts_hist_release(&t->off[i]);
}

void ts_sched_free(struct ts_sched *m)
{
	size_t i;

	if (!m)
		return;
	ts_blocks_release(&m->tv);
	release_hists(m);
	sched_retire_free(m);
	ts_cputab_release(&m->cpus, NULL);
	for (i = 0; i < m->nr_stacks; i++)
		free((void *)m->stacks[i].ips);
	free(m->stacks);
	ts_map_release(&m->stack_map);
	ts_blocks_release(&m->waits);
	free(m->wait_ix);
	ts_map_release(&m->named);
	ts_map32_release(&m->parents);
	ts_wltree_free(m->tree);
	free(m->classes);
	free(m->gaps);
	free(m->q);
	ts_map32_release(&m->tasks);
	release_totals(&m->tot);
	free(m);
}

void ts_sched_waking_recorded(struct ts_sched *m)
{
	m->waking_recorded = 1;
}

void ts_sched_wakeup_recorded(struct ts_sched *m)
{
	m->wakeup_recorded = 1;
}

void ts_sched_set_per_task(struct ts_sched *m, int per_task)
{
	m->per_task = per_task != 0;
}

const char *ts_sched_run_why(const struct ts_sched *m, uint64_t nr_broken)
{
	return m->per_task && nr_broken ? TS_SCHED_RUN_WHY : NULL;
}

const char *ts_sched_task_run_why(const struct ts_sched *m, const struct ts_sched_task *t)
{
	if (m->per_task && !t->nr_switches)
		return TS_SCHED_UNSWITCHED_WHY;
	return ts_sched_run_why(m, t->nr_broken);
}

const char *ts_sched_wakes_why(const struct ts_sched *m)
{
	return m->per_task ? TS_SCHED_WAKES_WHY : NULL;
}

const char *ts_sched_off_why(const struct ts_sched *m)
{
	return m->per_task ? TS_SCHED_OFF_WHY : NULL;
}

const char *ts_sched_others_why(const struct ts_sched *m)
{
	return m->per_task ? TS_SCHED_OTHERS_WHY : NULL;
}

uint64_t ts_sched_task_rank(const struct ts_sched *m, const struct ts_sched_task *t)
{
	/* run sums stay below 2^62 ns (146 years): the unmeasured rank above every one */
	if (!t->selected)
		return 0;
	if (ts_sched_run_why(m, t->nr_broken))
		return (1ull << 62) + t->nr_switches;
	return t->run->sum + 1;
}

size_t ts_sched_nr_tasks(const struct ts_sched *m)
{
	return m->tv.nr;
}

const struct ts_sched_task *ts_sched_task_at(const struct ts_sched *m, size_t i)
{
	return i < m->tv.nr ? &((const struct task *)ts_blocks_at(&m->tv, i))->st : NULL;
}

int32_t ts_sched_task_waits_pid(const struct ts_sched_task *t)
{
	const struct task *p = (const struct task *)t; /* st is struct task's first member */

	return p->alias ? p->alias : t->pid;
}

const struct ts_sched_task *ts_sched_task_find(const struct ts_sched *m, int32_t pid)
{
	const struct task *p = sched_find_task(m, pid);

	return p ? &p->st : NULL;
}

TS_CPUTAB_GETTERS(sched, struct ts_sched_cpu)

const struct ts_sched_totals *ts_sched_totals(const struct ts_sched *m)
{
	return &m->tot;
}

size_t ts_sched_nr_stacks(const struct ts_sched *m)
{
	return m->nr_stacks;
}

const struct ts_sched_stack *ts_sched_stack_at(const struct ts_sched *m, size_t i)
{
	return i < m->nr_stacks ? &m->stacks[i] : NULL;
}

size_t ts_sched_nr_waits(const struct ts_sched *m)
{
	return m->waits.nr;
}

const struct ts_sched_wait *ts_sched_wait_at(const struct ts_sched *m, size_t i)
{
	return i < m->waits.nr ? ts_blocks_at(&m->waits, i) : NULL;
}

size_t ts_sched_nr_thread_classes(const struct ts_sched *m)
{
	return m->nr_classes;
}

const struct ts_sched_threads *ts_sched_thread_class_at(const struct ts_sched *m, size_t i)
{
	return i < m->nr_classes ? &m->classes[i] : NULL;
}

uint64_t ts_sched_comm_records(const struct ts_sched *m)
{
	return m->nr_comm_records;
}

int ts_sched_waits_recorded(const struct ts_sched *m)
{
	return m->waking_recorded || m->saw_waking;
}

const char *ts_sched_comm(const struct ts_sched *m, int32_t pid)
{
	return sched_comm(m, pid);
}

int ts_sched_selected(const struct ts_sched *m, int32_t pid)
{
	const struct ts_sched_task *st = ts_sched_task_find(m, pid);

	if (st)
		return st->selected;
	return !m->opts.task_filter || m->opts.task_filter(m->opts.filter_ctx, pid, "");
}
