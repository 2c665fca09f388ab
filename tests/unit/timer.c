// SPDX-License-Identifier: GPL-2.0-only
/* The timer model: expiries by function, nesting of hard hrtimers, unmatched exits. */
#include "events.h"
#include "tap.h"
#include "tickscope/timer.h"

static struct ts_timer *m;

static void ev(uint64_t t, int cpu, int kind, uint64_t timer, uint64_t fn)
{
	struct ts_event e = tev_timer(kind, t, cpu, timer, fn);

	ts_timer_feed(m, &e);
}

static const struct ts_timer_fn *find(uint64_t fn, int hr)
{
	size_t i;

	for (i = 0; i < ts_timer_nr_fns(m); i++)
		if (ts_timer_fn_at(m, i)->function == fn && ts_timer_fn_at(m, i)->hr == hr)
			return ts_timer_fn_at(m, i);
	return NULL;
}

int main(void)
{
	const struct ts_timer_fn *tick, *tm, *soft;
	const struct ts_timer_totals *t;

	ok(ts_timer_new(&m, NULL) == 0, "new");
	ev(5, 0, TS_EV_HRTIMER_EXPIRE_EXIT, 0xa, 0); /* its entry came before the trace */
	ev(10, 0, TS_EV_HRTIMER_START, 0xa, 0x1000);
	ev(100, 0, TS_EV_HRTIMER_EXPIRE_ENTRY, 0xa, 0x1000);
	ev(120, 0, TS_EV_HRTIMER_EXPIRE_EXIT, 0xa, 0);
	/* a timer callback interrupted by the tick */
	ev(200, 1, TS_EV_TIMER_EXPIRE_ENTRY, 0xb, 0x2000);
	ev(210, 1, TS_EV_HRTIMER_EXPIRE_ENTRY, 0xa1, 0x1000);
	ev(215, 1, TS_EV_HRTIMER_EXPIRE_EXIT, 0xa1, 0);
	ev(260, 1, TS_EV_TIMER_EXPIRE_EXIT, 0xb, 0);
	/* a soft hrtimer interrupted by a hard one */
	ev(300, 1, TS_EV_HRTIMER_EXPIRE_ENTRY, 0xc, 0x3000);
	ev(310, 1, TS_EV_HRTIMER_EXPIRE_ENTRY, 0xa1, 0x1000);
	ev(312, 1, TS_EV_HRTIMER_EXPIRE_EXIT, 0xa1, 0);
	ev(400, 1, TS_EV_HRTIMER_EXPIRE_EXIT, 0xc, 0);
	ev(410, 1, TS_EV_TIMER_CANCEL, 0xb, 0);
	ts_timer_finish(m, 500);
	t = ts_timer_totals(m);
	tick = find(0x1000, 1);
	tm = find(0x2000, 0);
	soft = find(0x3000, 1);
	ok(tick && tm && soft, "three functions");
	if (!tick || !tm || !soft)
		return tap_done();
	is_int(tick->nr_expire, 3, "tick-like hrtimer: 3 expiries");
	is_int(tick->nr_start, 1, "1 start");
	is_int(tick->handler.sum, 20 + 5 + 2, "handler durations, nesting respected");
	is_int(tm->handler.sum, 60, "timer callback 60 (interrupt included)");
	is_int(soft->handler.sum, 100, "soft hrtimer 100");
	is_int(t->unmatched_exits, 1, "exit at trace start: unmatched");
	is_int(t->nr_expire[1], 4, "4 hrtimer expiries");
	is_int(t->nr_expire[0], 1, "1 timer expiry");
	is_int(t->nr_cancel[0], 1, "1 timer cancel");
	ok(tick->nr_cpu >= 2 && tick->per_cpu[0] == 1 && tick->per_cpu[1] == 2, "per-CPU counts");
	ts_timer_free(m);
	return tap_done();
}
