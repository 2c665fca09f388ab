// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline model on hand-built events: state from before the window, clipping to it,
 * idle periods, marks, and wake arrows from sched_waking to sched_wakeup across CPUs.
 */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "tickscope/timeline.h"

#define US 1000ULL

static struct ts_event ev(int kind, uint64_t t, int cpu)
{
	struct ts_event e;

	memset(&e, 0, sizeof(e));
	e.kind = (uint16_t)kind;
	e.time = t;
	e.cpu = cpu;
	return e;
}

static void feed_switch(struct ts_timeline *t, uint64_t at, int cpu, int prev, int next,
			const char *next_comm)
{
	struct ts_event e = ev(TS_EV_SWITCH, at, cpu);

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	snprintf(e.sw.prev_comm, sizeof(e.sw.prev_comm), "%s", prev ? "before" : "swapper/0");
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", next_comm);
	ts_timeline_feed(t, &e);
}

static void feed_wake(struct ts_timeline *t, int kind, uint64_t at, int cpu, int pid, int target)
{
	struct ts_event e = ev(kind, at, cpu);

	e.wake.pid = pid;
	e.wake.target_cpu = target;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "echo");
	ts_timeline_feed(t, &e);
}

static void feed_idle(struct ts_timeline *t, uint64_t at, int cpu, uint32_t state)
{
	struct ts_event e = ev(TS_EV_CPU_IDLE, at, cpu);

	e.idle.state = state;
	ts_timeline_feed(t, &e);
}

/* The @n-th item of @kind (0-based), or NULL. */
static const struct ts_tl_item *nth(const struct ts_timeline *t, int kind, int n)
{
	size_t i;

	for (i = 0; i < ts_timeline_nr(t); i++)
		if (ts_timeline_at(t, i)->kind == kind && !n--)
			return ts_timeline_at(t, i);
	return NULL;
}

static int count(const struct ts_timeline *t, int kind)
{
	int n = 0;

	while (nth(t, kind, n))
		n++;
	return n;
}

int main(void)
{
	struct ts_timeline *t = NULL;
	const struct ts_tl_item *it;
	struct ts_event e;

	is_int(ts_timeline_new(&t, 100 * US, 100 * US), -EINVAL, "an empty window is refused");
	ok(!ts_timeline_new(&t, 100 * US, 200 * US), "window 100..200 us");

	/* Before the window: cpu0 runs pid 10, cpu1 goes idle in state 2. */
	feed_switch(t, 50 * US, 0, 0, 10, "ping");
	feed_idle(t, 60 * US, 1, 2);
	/* Inside: pid 10 wakes pid 11 on cpu1 and sleeps; cpu1 leaves idle and runs 11. */
	feed_wake(t, TS_EV_WAKING, 120 * US, 0, 11, 1);
	feed_switch(t, 125 * US, 0, 10, 0, "swapper/0");
	feed_idle(t, 130 * US, 1, TS_IDLE_EXIT);
	feed_wake(t, TS_EV_WAKEUP, 131 * US, 1, 11, 1);
	feed_switch(t, 135 * US, 1, 0, 11, "echo");
	/* A sched_waking with no sched_wakeup after it (the task still ran): no arrow. */
	feed_wake(t, TS_EV_WAKING, 140 * US, 1, 10, 0);
	e = ev(TS_EV_TICK_STOP, 150 * US, 1);
	e.tick_stop.success = 0;
	snprintf(e.tick_stop.dependency, sizeof(e.tick_stop.dependency), "SCHED");
	ts_timeline_feed(t, &e);
	e = ev(TS_EV_HRTIMER_EXPIRE_ENTRY, 160 * US, 0);
	e.timer.function = 0xffffffff81000000ULL;
	ts_timeline_feed(t, &e);
	/* After the window: ignored. */
	feed_switch(t, 250 * US, 1, 11, 0, "swapper/1");
	ok(!ts_timeline_finish(t), "finish");

	is_int(count(t, TS_TL_RUN), 2, "two runs: pid 10 on cpu0, pid 11 on cpu1");
	it = nth(t, TS_TL_RUN, 0);
	ok(it && it->tid == 10 && it->cpu == 0 && it->start == 100 * US && it->end == 125 * US &&
		   !strcmp(it->name, "ping"),
	   "pid 10 ran from before the window: clipped to its start, ends at its switch-out");
	it = nth(t, TS_TL_RUN, 1);
	ok(it && it->tid == 11 && it->cpu == 1 && it->start == 135 * US && it->end == 200 * US,
	   "pid 11 still runs at the window's end: clipped to it");
	it = nth(t, TS_TL_IDLE, 0);
	ok(it && it->cpu == 1 && it->state == 2 && it->start == 100 * US && it->end == 130 * US,
	   "cpu1 was idle in state 2 from before the window to its exit");
	is_int(count(t, TS_TL_IDLE), 1, "one idle period");
	is_int(count(t, TS_TL_WAKE), 1, "one wake arrow (the waking of a running task has none)");
	it = nth(t, TS_TL_WAKE, 0);
	ok(it && it->cpu == 0 && it->to_cpu == 1 && it->start == 120 * US && it->end == 131 * US &&
		   it->tid == 11,
	   "the arrow goes from the waker's cpu0 at sched_waking to cpu1 at sched_wakeup");
	it = nth(t, TS_TL_TICK_STOP_FAIL, 0);
	ok(it && it->cpu == 1 && !strcmp(it->name, "SCHED"), "a failed tick stop, with its reason");
	it = nth(t, TS_TL_HRTIMER, 0);
	ok(it && it->function == 0xffffffff81000000ULL, "an hrtimer expiry with its function");
	ts_timeline_free(t);
	return tap_done();
}
