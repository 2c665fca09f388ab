// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler model. Run time and sched delay follow perf sched timehist exactly (see
 * docs/report-json.md, "sched"); wake classes are decided with the target CPU's state at waking.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"
#include "tickscope/sched.h"

#define STACK_DROPPED UINT32_MAX
#define CLASS_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+.:@"

struct task {
	struct ts_sched_task st;
	uint64_t last_out; /* last switch-out */
	uint64_t ready; /* sched_wakeup(_new) since switch-out, or its switch-out if R or R+ */
	uint64_t ready_perf; /* perf's ready_to_run: the first wake only, never a switch-out */
	uint64_t waking_t; /* the open wake's sched_waking time */
	uint64_t work; /* a kworker: the function of the work item it runs, 0 none */
	struct ts_sched_wait *wait; /* the wait entry of the wake that ended this off-CPU period */
	struct ts_sched_wait *early; /* a wake that came while the task was still on its CPU */
	int32_t waking_cpu, waking_target;
	uint32_t stack; /* 1-based stack of the last switch-out, 0 none, STACK_DROPPED */
	uint8_t have_out, last_state;
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
	uint64_t idle_since, prev_idle_start, prev_idle_end;
	struct task *curr_task; /* NULL for idle or unknown */
	int32_t curr; /* running pid, -1 unknown */
	uint8_t in_cpuidle, idle, known;
};

struct ts_sched {
	struct ts_model_opts opts;
	struct ts_map tasks; /* pid -> index into tv, plus one */
	struct task **tv;
	size_t nr_tv, cap_tv;
	struct ts_cputab cpus; /* cpu -> struct cpu */
	struct ts_sched_totals tot;
	struct ts_map stack_map; /* stack hash -> index into stacks, plus one */
	struct ts_sched_stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct ts_objtab waits; /* hash of a struct ts_sched_wait's key fields -> the entry */
	struct ts_map named; /* tids COMM records named (perf synthesizes one per thread) */
	struct ts_sched_threads *classes; /* those threads by class, first name */
	size_t nr_classes, cap_classes;
	uint64_t nr_comm_records;
	struct ts_map parents; /* child tid -> the tid that forked it, plus one */
	uint64_t nr_forks;
	int saw_waking;
	int waking_recorded, wakeup_recorded;
};

static struct task *find_task(const struct ts_sched *m, int32_t pid)
{
	uint64_t *v = pid > 0 ? ts_map_find(&m->tasks, (uint64_t)pid) : NULL;

	return v ? m->tv[*v - 1] : NULL;
}

static const struct ts_sched_task *find(const struct ts_sched *m, int32_t pid)
{
	struct task *p = find_task(m, pid);

	return p ? &p->st : NULL;
}

static void select_task(struct ts_sched *m, struct task *p)
{
	p->st.selected = !m->opts.task_filter ||
			 m->opts.task_filter(m->opts.filter_ctx, p->st.pid, p->st.comm);
}

static struct task *get_task(struct ts_sched *m, int32_t pid)
{
	struct task *p, **tv;
	uint64_t *v;
	int ret = ts_map_insert(&m->tasks, (uint64_t)pid, &v);

	if (ret == 0)
		return m->tv[*v - 1];
	if (ret < 0)
		return NULL;
	if (m->nr_tv == m->cap_tv) {
		size_t cap = m->cap_tv ? m->cap_tv * 2 : 256;

		tv = realloc(m->tv, cap * sizeof(*tv));
		if (!tv)
			goto fail_map;
		m->tv = tv;
		m->cap_tv = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		goto fail_map;
	p->st.pid = pid;
	p->klass = -1;
	select_task(m, p);
	m->tv[m->nr_tv++] = p;
	*v = m->nr_tv;
	return p;
fail_map:
	ts_map_remove(&m->tasks, (uint64_t)pid);
	return NULL;
}

static void set_comm(struct ts_sched *m, struct task *p, const char *comm)
{
	/* Fast path: the kernel pads comm with NULs, so equal names are equal bytes. */
	if (!comm[0] || !memcmp(p->st.comm, comm, TS_COMM_LEN) ||
	    !strncmp(p->st.comm, comm, TS_COMM_LEN - 1))
		return;
	strncpy(p->st.comm, comm, TS_COMM_LEN - 1);
	p->st.comm[TS_COMM_LEN - 1] = 0;
	if (m->opts.task_filter)
		select_task(m, p);
}

static struct cpu *get_cpu(struct ts_sched *m, int32_t cpu)
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

static uint64_t stack_hash(const uint64_t *ips, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = (h ^ ips[i]) * 0x100000001b3ull;
	return h == TS_MAP_EMPTY ? 0 : h;
}

static int new_stack(struct ts_sched *m, const uint64_t *ips, uint32_t n, uint64_t *slot)
{
	struct ts_sched_stack *s;
	uint64_t *copy;

	if (m->nr_stacks == m->cap_stacks) {
		size_t cap = m->cap_stacks ? m->cap_stacks * 2 : 64;

		s = realloc(m->stacks, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		m->stacks = s;
		m->cap_stacks = cap;
	}
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ips, n * sizeof(*copy));
	s = &m->stacks[m->nr_stacks++];
	memset(s, 0, sizeof(*s));
	s->nr_ips = n;
	s->ips = copy;
	*slot = m->nr_stacks;
	return 0;
}

/* The 1-based stack index for a switch-out callchain, or STACK_DROPPED. */
static int intern_stack(struct ts_sched *m, const struct ts_event *ev, uint32_t *out)
{
	uint32_t n = ev->nr_ips < TS_STACK_DEPTH ? ev->nr_ips : TS_STACK_DEPTH;
	uint64_t h = stack_hash(ev->ips, n), *v;
	const struct ts_sched_stack *s;
	unsigned int max = m->opts.max_stacks ? m->opts.max_stacks : TS_MAX_STACKS_DEFAULT;
	int ret;

	*out = STACK_DROPPED;
	v = ts_map_find(&m->stack_map, h);
	if (v) {
		s = &m->stacks[*v - 1];
		if (s->nr_ips == n && !memcmp(s->ips, ev->ips, n * sizeof(*ev->ips)))
			*out = (uint32_t)*v;
		return 0;
	}
	if (m->nr_stacks >= max)
		return 0;
	ret = ts_map_insert(&m->stack_map, h, &v);
	if (ret < 0)
		return ret;
	ret = new_stack(m, ev->ips, n, v);
	if (ret < 0) {
		ts_map_remove(&m->stack_map, h);
		return ret;
	}
	*out = (uint32_t)*v;
	return 0;
}

#define WAIT_PROBES 4

/* A wait entry's key fields, mixed (splitmix64's finalizer) so that clashes are rare. */
static uint64_t wait_hash(const struct ts_sched_wait *k, int probe)
{
	uint64_t h =
		((uint64_t)(uint32_t)k->pid << 32 | (uint32_t)k->waker) * 0x9e3779b97f4a7c15ull;

	h ^= k->work * 0xbf58476d1ce4e5b9ull;
	h ^= ((uint64_t)k->stack << 16 | (uint64_t)k->state << 8 | k->ctx) * 0x94d049bb133111ebull;
	h += (uint64_t)probe * 0x9e3779b97f4a7c15ull;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h == TS_MAP_EMPTY ? 0 : h;
}

static int same_wait(const struct ts_sched_wait *a, const struct ts_sched_wait *b)
{
	return a->pid == b->pid && a->waker == b->waker && a->work == b->work &&
	       a->stack == b->stack && a->state == b->state && a->ctx == b->ctx;
}

/*
 * The wait entry with @k's key fields, made when new; *@out is NULL when a few probes all met
 * other keys (counted in waits_dropped). Return: 0 or -ENOMEM.
 */
static int get_wait(struct ts_sched *m, const struct ts_sched_wait *k, struct ts_sched_wait **out)
{
	struct ts_sched_wait *w;
	int isnew, i;

	*out = NULL;
	for (i = 0; i < WAIT_PROBES; i++) {
		w = ts_objtab_get(&m->waits, wait_hash(k, i), &isnew);
		if (!w)
			return -ENOMEM;
		if (isnew) {
			*w = *k;
			w->wakes = w->periods = w->ns = 0;
		}
		if (isnew || same_wait(w, k)) {
			*out = w;
			return 0;
		}
	}
	m->tot.waits_dropped++;
	return 0;
}

/* The switch-out stack of @p's open off-CPU period, 0 for none (or dropped). */
static uint32_t period_stack(const struct task *p)
{
	return p->have_out && p->stack != STACK_DROPPED ? p->stack : 0;
}

/* sched_waking of a selected task @w: who woke it, from where, ending which wait. */
static int note_waker(struct ts_sched *m, struct task *w, const struct ts_event *ev)
{
	struct task *by = find_task(m, ev->pid);
	struct ts_sched_wait k = { .pid = w->st.pid,
				   .waker = ev->pid < 0 ? TS_WAKER_NONE : ev->pid,
				   .work = by && ev->wake.ctx == TS_CTX_TASK ? by->work : 0,
				   .stack = period_stack(w),
				   .state = w->have_out ? w->last_state : TS_OFF_NR,
				   .ctx = ev->wake.ctx };
	struct ts_sched_wait *e;
	int err = get_wait(m, &k, &e);

	if (e)
		e->wakes++;
	w->wait = w->have_out ? e : NULL;
	w->early = w->have_out ? NULL : e;
	return err;
}

/*
 * A wake that came while the task was still on its CPU, and no wake since its switch-out: the
 * waker saw it asleep (state set, inside schedule()) before its sched_switch was traced, as
 * try_to_wake_up() does for a task still on_cpu. That wake ends this period: move it there.
 */
static int take_early(struct ts_sched *m, struct task *n, struct ts_sched_wait **out)
{
	struct ts_sched_wait k = *n->early, *e;
	int err;

	k.stack = period_stack(n);
	k.state = n->last_state;
	err = get_wait(m, &k, &e);
	if (e) {
		n->early->wakes--;
		e->wakes++;
	}
	*out = e;
	return err;
}

/* The off-CPU period of selected task @n ended after @off ns: credit its wake, or none. */
static int end_wait(struct ts_sched *m, struct task *n, uint64_t off)
{
	struct ts_sched_wait k = { .pid = n->st.pid,
				   .waker = TS_WAKER_NONE,
				   .stack = period_stack(n),
				   .state = n->last_state };
	struct ts_sched_wait *e = n->wait;
	int err = 0;

	if (!e && n->early && n->last_state != TS_OFF_R) /* a preemption ends with no wake */
		err = take_early(m, n, &e);
	if (!e && !err)
		err = get_wait(m, &k, &e);

	if (e) {
		e->periods++;
		e->ns += off;
	}
	n->wait = NULL;
	n->early = NULL;
	return err;
}

static int switch_out(struct ts_sched *m, struct task *p, const struct ts_event *ev, uint64_t tprev)
{
	uint8_t state = ev->sw.prev_state < TS_OFF_NR ? ev->sw.prev_state : TS_OFF_OTHER;
	struct ts_sched_totals *tot = &m->tot;
	int err = 0;

	p->st.nr_switches++;
	if (state == TS_STATE_RUNNING)
		p->st.nr_involuntary++;
	else
		p->st.nr_voluntary++;
	if (p->st.selected)
		tot->nr_switches++;
	/* perf timehist: nothing is measured for the first switch seen on a CPU. */
	if (tprev && ev->time >= tprev) {
		err = ts_hist_add(&p->st.run, ev->time - tprev);
		if (!err && p->ready && p->ready > tprev)
			tot->nr_time_travel++;
		else if (!err && p->ready)
			err = ts_hist_add(&p->st.delay, tprev - p->ready);
		if (p->ready_perf && p->ready_perf <= tprev) {
			p->st.delay_perf += tprev - p->ready_perf;
			if (tprev - p->ready_perf > p->st.delay_perf_max)
				p->st.delay_perf_max = tprev - p->ready_perf;
		}
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
		err = intern_stack(m, ev, &p->stack);
	}
	return err;
}

/* Credit @ns to @pid on the stack's task list, kept heaviest first. */
static void stack_task(struct ts_sched_stack *s, int32_t pid, uint64_t ns)
{
	int i, last = TS_STACK_TASKS - 1;

	for (i = 0; i < TS_STACK_TASKS; i++)
		if (s->tasks[i].pid == pid || !s->tasks[i].pid)
			break;
	if (i == TS_STACK_TASKS) {
		if (ns <= s->tasks[last].ns)
			return;
		i = last;
		s->tasks[i].ns = 0;
	}
	s->tasks[i].pid = pid;
	s->tasks[i].ns += ns;
	for (; i > 0 && s->tasks[i].ns > s->tasks[i - 1].ns; i--) {
		int32_t p = s->tasks[i].pid;
		uint64_t v = s->tasks[i].ns;

		s->tasks[i] = s->tasks[i - 1];
		s->tasks[i - 1].pid = p;
		s->tasks[i - 1].ns = v;
	}
}

static int switch_in(struct ts_sched *m, struct task *n, uint64_t t)
{
	struct ts_sched_totals *tot = &m->tot;
	struct ts_sched_stack *s;
	uint64_t off;
	int err = 0;

	if (n->have_out && t >= n->last_out) {
		off = t - n->last_out;
		err = ts_hist_add(&n->st.off[n->last_state], off);
		if (n->stack == STACK_DROPPED) {
			tot->stacks_dropped_ns += off;
		} else if (n->stack) {
			s = &m->stacks[n->stack - 1];
			s->count++;
			s->total += off;
			s->by_state[n->last_state] += off;
			stack_task(s, n->st.pid, off);
		}
		if (n->st.selected)
			err = err ?: end_wait(m, n, off);
	}
	n->have_out = 0;
	n->wait = NULL;
	n->early = NULL;
	n->stack = 0;
	if (!err && n->waking_open && t >= n->waking_t) {
		err = ts_hist_add(&n->st.wakelat, t - n->waking_t);
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
	int err = 0;

	if (!c)
		return -ENOMEM;
	tprev = c->last_switch;
	if (c->curr >= 0 && c->curr != ev->sw.prev_pid)
		c->st.broken_chains++;
	if (ev->sw.prev_pid > 0) {
		p = c->curr == ev->sw.prev_pid && c->curr_task ? c->curr_task :
								 get_task(m, ev->sw.prev_pid);
		if (!p)
			return -ENOMEM;
		set_comm(m, p, ev->sw.prev_comm);
		err = switch_out(m, p, ev, tprev);
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
		return w->st.selected ? note_waker(m, w, ev) : 0;
	}
	if (!w->waking_open && !m->saw_waking)
		open_wake(m, w, ev); /* no sched_waking recorded: the wakeup is the wake */
	else if (!w->waking_open || w->delivered || ev->time < w->waking_t)
		return 0;
	w->delivered = 1;
	classify(m, w, ev->wake.target_cpu);
	err = ts_hist_add(&w->st.delivery, ev->time - w->waking_t);
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
	set_idle(c, ev->time, c->curr == 0 || c->in_cpuidle);
	return 0;
}

/* Both the tracepoint and perf's record may tell of one fork: the same edge, kept once. */
static int on_fork(struct ts_sched *m, const struct ts_event *ev)
{
	uint64_t *v;
	int ret;

	if (ev->fork.child <= 0 || ev->fork.parent < 0)
		return 0;
	ret = ts_map_insert(&m->parents, (uint64_t)ev->fork.child, &v);
	if (ret < 0)
		return ret;
	*v = (uint64_t)ev->fork.parent + 1;
	m->nr_forks++;
	return 0;
}

int32_t ts_sched_task_parent(const struct ts_sched *m, int32_t pid)
{
	uint64_t *v = pid > 0 ? ts_map_find(&m->parents, (uint64_t)pid) : NULL;

	return v ? (int32_t)(*v - 1) : -1;
}

uint64_t ts_sched_forks(const struct ts_sched *m)
{
	return m->nr_forks;
}

int ts_sched_feed(struct ts_sched *m, const struct ts_event *ev)
{
	struct task *p;
	uint64_t *v;

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
		v = ev->comm.tid > 0 ? ts_map_find(&m->tasks, (uint64_t)ev->comm.tid) : NULL;
		if (v)
			set_comm(m, m->tv[*v - 1], ev->comm.comm);
		return count_thread(m, ev);
	case TS_EV_FORK:
	case TS_EV_PROCESS_FORK:
		return on_fork(m, ev);
	case TS_EV_CPU_IDLE:
		return on_cpu_idle(m, ev);
	case TS_EV_WQ_START:
	case TS_EV_WQ_END:
		/* a kworker seen already (not made here: that would list tasks no switch showed) */
		p = find_task(m, ev->pid);
		if (p)
			p->work = ev->kind == TS_EV_WQ_START ? ev->wq.function : 0;
		return 0;
	default:
		return 0;
	}
}

/* Whole-trace distributions: the selected tasks' merged (cheaper than two adds per value). */
static int merge_tasks(struct ts_sched *m)
{
	struct ts_sched_totals *t = &m->tot;
	struct ts_sched_task *st;
	size_t i;
	int err = 0, k;

	for (i = 0; i < m->nr_tv && !err; i++) {
		st = &m->tv[i]->st;
		if (!st->selected)
			continue;
		err = ts_hist_merge(&t->run, &st->run);
		if (!err)
			err = ts_hist_merge(&t->delay, &st->delay);
		if (!err)
			err = ts_hist_merge(&t->delivery, &st->delivery);
		if (!err)
			err = ts_hist_merge(&t->wakelat, &st->wakelat);
		for (k = 0; k < TS_OFF_NR && !err; k++)
			err = ts_hist_merge(&t->off[k], &st->off[k]);
	}
	return err;
}

int ts_sched_finish(struct ts_sched *m, uint64_t end)
{
	struct cpu *c;
	int i;

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

	if (!m)
		return -ENOMEM;
	m->cpus.size = sizeof(struct cpu);
	m->waits.size = sizeof(struct ts_sched_wait);
	if (opts)
		m->opts = *opts;
	*mp = m;
	return 0;
}

static void release_task_hists(struct ts_sched_task *st)
{
	int i;

	ts_hist_release(&st->run);
	ts_hist_release(&st->delay);
	ts_hist_release(&st->delivery);
	ts_hist_release(&st->wakelat);
	for (i = 0; i < TS_OFF_NR; i++)
		ts_hist_release(&st->off[i]);
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
	for (i = 0; i < m->nr_tv; i++) {
		release_task_hists(&m->tv[i]->st);
		free(m->tv[i]);
	}
	free(m->tv);
	ts_cputab_release(&m->cpus, NULL);
	for (i = 0; i < m->nr_stacks; i++)
		free((void *)m->stacks[i].ips);
	free(m->stacks);
	ts_map_release(&m->stack_map);
	ts_objtab_release(&m->waits, NULL);
	ts_map_release(&m->named);
	ts_map_release(&m->parents);
	free(m->classes);
	ts_map_release(&m->tasks);
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

size_t ts_sched_nr_tasks(const struct ts_sched *m)
{
	return m->nr_tv;
}

const struct ts_sched_task *ts_sched_task_at(const struct ts_sched *m, size_t i)
{
	return i < m->nr_tv ? &m->tv[i]->st : NULL;
}

const struct ts_sched_task *ts_sched_task_find(const struct ts_sched *m, int32_t pid)
{
	return find(m, pid);
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
	return i < m->waits.nr ? m->waits.v[i] : NULL;
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

void ts_sched_task_class(const char *comm, char *out, size_t n)
{
	size_t l = strcspn(comm, "/");

	if (l >= n)
		l = n - 1;
	while (l > 1 && comm[l - 1] >= '0' && comm[l - 1] <= '9')
		l--;
	/* a part of metric names: a user task may name itself anything, tabs and spaces too */
	for (size_t i = 0; i < l; i++)
		out[i] = (char)(strchr(CLASS_CHARS, comm[i]) && comm[i] ? comm[i] : '_');
	out[l] = '\0';
}

const char *ts_sched_waker_class(const struct ts_sched *m, const struct ts_sched_wait *w, char *out,
				 size_t n)
{
	const char *comm = w->waker >= 0 ? ts_sched_comm(m, w->waker) : NULL;

	if (w->waker == TS_WAKER_NONE || w->ctx == TS_CTX_HARDIRQ) {
		snprintf(out, n, "%s", w->waker == TS_WAKER_NONE ? "none" : "hardirq");
		return out;
	}
	if (comm && comm[0])
		ts_sched_task_class(comm, out, n);
	else
		snprintf(out, n, "unknown");
	/* ksoftirqd (and PREEMPT_RT's ktimers) exist to run softirqs: their wakes are theirs */
	if (w->ctx == TS_CTX_SOFTIRQ && strcmp(out, "ksoftirqd") && strcmp(out, "ktimers"))
		snprintf(out, n, "softirq");
	return out;
}

static int cmp_waker_sum(const void *pa, const void *pb)
{
	const struct ts_sched_waker_sum *a = pa, *b = pb;

	if (a->wakes != b->wakes)
		return a->wakes < b->wakes ? 1 : -1;
	if (a->periods != b->periods)
		return a->periods < b->periods ? 1 : -1;
	return strcmp(a->cls, b->cls);
}

/* Sum the entries @v[0..@n) (or every entry, @v NULL) that @keep accepts, by waker class. */
static int sum_wakers(const struct ts_sched *m, const struct ts_sched_wait *const *v, size_t n,
		      int (*keep)(void *ctx, const struct ts_sched_wait *w), void *ctx, int by_work,
		      struct ts_sched_waker_sum *out, int max)
{
	struct ts_sched_waker_sum *all = NULL, *o, *grown;
	char cls[sizeof(out->cls)];
	size_t i, nr = 0, cap = 0, j;

	if (max < 2)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const struct ts_sched_wait *w = v ? v[i] : m->waits.v[i];
		uint64_t work = by_work ? w->work : 0;

		if (keep && !keep(ctx, w))
			continue;
		ts_sched_waker_class(m, w, cls, sizeof(cls));
		for (j = 0; j < nr && (strcmp(all[j].cls, cls) || all[j].work != work); j++)
			;
		if (j == nr && nr == cap) {
			cap = cap ? 2 * cap : 16;
			grown = realloc(all, cap * sizeof(*all));
			if (!grown) {
				free(all);
				return -ENOMEM;
			}
			all = grown;
		}
		o = &all[j];
		if (j == nr) {
			memset(o, 0, sizeof(*o));
			snprintf(o->cls, sizeof(o->cls), "%s", cls);
			o->work = work;
			nr++;
		}
		o->wakes += w->wakes;
		o->periods += w->periods;
		o->ns += w->ns;
	}
	if (nr)
		qsort(all, nr, sizeof(*all), cmp_waker_sum);
	/* the heaviest max - 1 as they are, the rest in one "other" */
	for (i = 0; i < nr && i < (size_t)max; i++)
		out[i] = all[i];
	if (nr > (size_t)max) {
		o = &out[max - 1];
		snprintf(o->cls, sizeof(o->cls), "other");
		o->work = 0;
		for (i = max; i < nr; i++) {
			o->wakes += all[i].wakes;
			o->periods += all[i].periods;
			o->ns += all[i].ns;
		}
	}
	free(all);
	return nr < (size_t)max ? (int)nr : max;
}

int ts_sched_wakers(const struct ts_sched *m, int (*keep)(void *ctx, const struct ts_sched_wait *w),
		    void *ctx, int by_work, struct ts_sched_waker_sum *out, int max)
{
	return sum_wakers(m, NULL, m->waits.nr, keep, ctx, by_work, out, max);
}

int ts_sched_wakers_of(const struct ts_sched *m, const struct ts_sched_wait *const *v, size_t n,
		       int by_work, struct ts_sched_waker_sum *out, int max)
{
	return sum_wakers(m, v, n, NULL, NULL, by_work, out, max);
}

const char *ts_sched_comm(const struct ts_sched *m, int32_t pid)
{
	const struct ts_sched_task *st = find(m, pid);

	if (pid == 0)
		return "swapper";
	return st ? st->comm : NULL;
}

int ts_sched_selected(const struct ts_sched *m, int32_t pid)
{
	const struct ts_sched_task *st = find(m, pid);

	if (st)
		return st->selected;
	return !m->opts.task_filter || m->opts.task_filter(m->opts.filter_ctx, pid, "");
}
