// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline model: the intervals and marks of a short window, per CPU (tickscope plot
 * timeline). Events before the window only set the state each CPU is in when it opens.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/idle.h"
#include "common/map.h"
#include "tickscope/timeline.h"

struct tl_cpu {
	int known; /* a sched_switch was seen: @pid is who runs */
	int32_t pid;
	char comm[TS_COMM_LEN];
	uint64_t since; /* ns; 0 while unknown (from before the trace) */
	int idle; /* inside a cpu_idle period (or unknown: from the first exit on) */
	uint32_t state;
	uint64_t idle_since;
};

struct ts_timeline {
	uint64_t start, end;
	struct tl_cpu *cpu;
	int nr_cpu;
	struct ts_tl_item *items;
	size_t nr, cap;
	struct ts_map waking; /* tid -> index of its open TS_TL_WAKE item, plus one */
	int finished;
};

int ts_timeline_new(struct ts_timeline **tp, uint64_t start, uint64_t end)
{
	struct ts_timeline *t;

	*tp = NULL;
	if (end <= start)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->start = start;
	t->end = end;
	*tp = t;
	return 0;
}

void ts_timeline_free(struct ts_timeline *t)
{
	if (!t)
		return;
	free(t->cpu);
	free(t->items);
	ts_map_release(&t->waking);
	free(t);
}

static struct tl_cpu *cpu_of(struct ts_timeline *t, int32_t cpu)
{
	struct tl_cpu *c;

	if (cpu < 0 || cpu >= 4096)
		return NULL;
	if (cpu >= t->nr_cpu) {
		c = ts_grow_zeroed(t->cpu, &t->nr_cpu, cpu, sizeof(*c));
		if (!c)
			return NULL;
		t->cpu = c;
	}
	return &t->cpu[cpu];
}

/* A new item over [s, e] clipped to the window; NULL when outside it (or on -ENOMEM/-E2BIG). */
static struct ts_tl_item *item(struct ts_timeline *t, int kind, int32_t cpu, uint64_t s, uint64_t e,
			       int *err)
{
	struct ts_tl_item *it;

	if (e < t->start || s > t->end)
		return NULL;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;

		if (t->nr >= TS_TL_MAX_ITEMS) {
			*err = -E2BIG;
			return NULL;
		}
		it = realloc(t->items, cap * sizeof(*it));
		if (!it) {
			*err = -ENOMEM;
			return NULL;
		}
		t->items = it;
		t->cap = cap;
	}
	it = &t->items[t->nr++];
	memset(it, 0, sizeof(*it));
	it->kind = (uint8_t)kind;
	it->cpu = cpu;
	it->to_cpu = cpu;
	it->start = s < t->start ? t->start : s;
	it->end = e > t->end ? t->end : e;
	return it;
}

static int close_run(struct ts_timeline *t, struct tl_cpu *c, int32_t cpu, uint64_t now)
{
	struct ts_tl_item *it;
	int err = 0;

	if (!c->pid)
		return 0;
	it = item(t, TS_TL_RUN, cpu, c->since, now, &err);
	if (it) {
		it->tid = c->pid;
		memcpy(it->name, c->comm, sizeof(c->comm));
	}
	return err;
}

static int on_switch(struct ts_timeline *t, struct tl_cpu *c, const struct ts_event *ev)
{
	int err;

	if (!c->known) {
		c->pid = ev->sw.prev_pid;
		memcpy(c->comm, ev->sw.prev_comm, sizeof(c->comm));
		c->since = 0;
	}
	err = close_run(t, c, ev->cpu, ev->time);
	c->known = 1;
	c->pid = ev->sw.next_pid;
	memcpy(c->comm, ev->sw.next_comm, sizeof(c->comm));
	c->since = ev->time;
	return err;
}

static int on_idle(struct ts_timeline *t, struct tl_cpu *c, const struct ts_event *ev)
{
	struct ts_tl_item *it;
	int err = 0;

	if (ev->idle.state != TS_IDLE_EXIT) {
		c->idle = 1;
		c->state = ev->idle.state;
		c->idle_since = ev->time;
		return 0;
	}
	if (c->idle || !c->idle_since) {
		it = item(t, TS_TL_IDLE, ev->cpu, c->idle ? c->idle_since : 0, ev->time, &err);
		if (it)
			it->state = c->state;
	}
	c->idle = 0;
	c->idle_since = ev->time; /* from here on the CPU's idle state is known */
	return err;
}

static int on_waking(struct ts_timeline *t, const struct ts_event *ev)
{
	struct ts_tl_item *it;
	uint64_t *slot;
	int err = 0, ret;

	it = item(t, TS_TL_WAKE, ev->cpu, ev->time, ev->time, &err);
	if (!it)
		return err;
	it->tid = ev->wake.pid;
	it->end = 0; /* open until its sched_wakeup */
	memcpy(it->name, ev->wake.comm, sizeof(ev->wake.comm));
	ret = ts_map_insert(&t->waking, (uint64_t)(uint32_t)ev->wake.pid, &slot);
	if (ret < 0)
		return ret;
	*slot = t->nr; /* a sched_waking without its wakeup (task still running) stays open */
	return 0;
}

static void on_wakeup(struct ts_timeline *t, const struct ts_event *ev)
{
	uint64_t key = (uint64_t)(uint32_t)ev->wake.pid, *slot = ts_map_find(&t->waking, key);
	struct ts_tl_item *it;

	if (!slot)
		return;
	it = &t->items[*slot - 1];
	it->end = ev->time > t->end ? t->end : ev->time;
	it->to_cpu = ev->wake.target_cpu;
	ts_map_remove(&t->waking, key);
}

static int on_mark(struct ts_timeline *t, int kind, const struct ts_event *ev, uint64_t fn)
{
	struct ts_tl_item *it;
	int err = 0;

	if (ev->time < t->start)
		return 0;
	it = item(t, kind, ev->cpu, ev->time, ev->time, &err);
	if (it) {
		it->function = fn;
		if (kind == TS_TL_TICK_STOP_FAIL)
			memcpy(it->name, ev->tick_stop.dependency,
			       sizeof(ev->tick_stop.dependency));
		else if (kind == TS_TL_IPI) /* "call_function_single_entry" of "irq_vectors:..." */
			strncpy(it->name,
				strchr(ev->name, ':') ? strchr(ev->name, ':') + 1 : ev->name,
				sizeof(it->name) - 1);
	}
	return err;
}

int ts_timeline_feed(struct ts_timeline *t, const struct ts_event *ev)
{
	struct tl_cpu *c;

	if (ev->time > t->end || t->finished)
		return 0;
	switch (ev->kind) {
	case TS_EV_SWITCH:
		c = cpu_of(t, ev->cpu);
		return c ? on_switch(t, c, ev) : 0;
	case TS_EV_CPU_IDLE:
		c = cpu_of(t, ev->cpu);
		return c ? on_idle(t, c, ev) : 0;
	case TS_EV_WAKING:
		return ev->time >= t->start ? on_waking(t, ev) : 0;
	case TS_EV_WAKEUP:
	case TS_EV_WAKEUP_NEW:
		on_wakeup(t, ev);
		return 0;
	case TS_EV_TICK_STOP:
		return on_mark(t, ev->tick_stop.success ? TS_TL_TICK_STOP : TS_TL_TICK_STOP_FAIL,
			       ev, 0);
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
		return on_mark(t, TS_TL_HRTIMER, ev, ev->timer.function);
	case TS_EV_TIMER_EXPIRE_ENTRY:
		return on_mark(t, TS_TL_TIMER, ev, ev->timer.function);
	case TS_EV_WQ_START:
		return on_mark(t, TS_TL_WORK, ev, ev->wq.function);
	case TS_EV_OTHER:
		return ev->name && ts_idle_is_ipi(ev->name) ? on_mark(t, TS_TL_IPI, ev, 0) : 0;
	default:
		return 0;
	}
}

int ts_timeline_finish(struct ts_timeline *t)
{
	struct ts_tl_item *it;
	size_t i, n = 0;
	int cpu, err = 0;

	if (t->finished)
		return 0;
	for (cpu = 0; cpu < t->nr_cpu && !err; cpu++) {
		struct tl_cpu *c = &t->cpu[cpu];

		if (c->known)
			err = close_run(t, c, cpu, t->end);
		if (c->idle && !err) {
			it = item(t, TS_TL_IDLE, cpu, c->idle_since, t->end, &err);
			if (it)
				it->state = c->state;
		}
	}
	/* Wakes that never got their sched_wakeup (the task was still running) go. */
	for (i = 0; i < t->nr; i++)
		if (t->items[i].kind != TS_TL_WAKE || t->items[i].end)
			t->items[n++] = t->items[i];
	t->nr = n;
	t->finished = 1;
	return err;
}

size_t ts_timeline_nr(const struct ts_timeline *t)
{
	return t->nr;
}

const struct ts_tl_item *ts_timeline_at(const struct ts_timeline *t, size_t i)
{
	return &t->items[i];
}

void ts_timeline_window(const struct ts_timeline *t, uint64_t *start, uint64_t *end)
{
	*start = t->start;
	*end = t->end;
}
