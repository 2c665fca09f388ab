// SPDX-License-Identifier: GPL-2.0-only
/* The RCU model: nested utilization windows, grace periods, callback latency. */
#include "tap.h"
#include "tickscope/rcu.h"

static struct ts_rcu *m;

static void util(uint64_t t, int cpu, int start, int ctx)
{
	struct ts_event e = { .time = t, .cpu = cpu, .kind = TS_EV_RCU_UTIL };

	e.rcu_util.start = (uint8_t)start;
	e.rcu_util.ctx = (uint8_t)ctx;
	ts_rcu_feed(m, &e);
}

static void gp(uint64_t t, const char *what, uint64_t seq)
{
	struct ts_event e = { .time = t, .kind = TS_EV_RCU_GP };

	e.rcu_gp.rcuname = "rcu_preempt";
	e.rcu_gp.gpevent = what;
	e.rcu_gp.gp_seq = seq;
	ts_rcu_feed(m, &e);
}

static void cb(uint64_t t, int kind, uint64_t rhp, uint64_t fn)
{
	struct ts_event e = { .time = t, .kind = (uint16_t)kind };

	e.rcu_cb.rhp = rhp;
	e.rcu_cb.func = fn;
	ts_rcu_feed(m, &e);
}

int main(void)
{
	const struct ts_rcu_totals *t;
	const struct ts_rcu_cpu *c;
	const struct ts_rcu_cb_fn *f;

	ok(ts_rcu_new(&m, NULL) == 0, "new");
	util(5, 0, 0, TS_RCU_CTXSW); /* End at trace start */
	util(10, 0, 1, TS_RCU_CORE);
	util(12, 0, 1, TS_RCU_TICK); /* the tick interrupts RCU core */
	util(15, 0, 0, TS_RCU_TICK);
	util(30, 0, 0, TS_RCU_CORE);
	gp(100, "end", 4); /* the GP started before the trace */
	gp(200, "start", 5);
	gp(250, "cpuqs", 5);
	gp(1200, "end", 8); /* gp_seq moves on at the end */
	cb(300, TS_EV_RCU_CB, 0xaa, 0x77);
	cb(900, TS_EV_RCU_INVOKE, 0xaa, 0x77);
	cb(950, TS_EV_RCU_INVOKE, 0xbb, 0x77); /* queued before the trace */
	ts_rcu_finish(m, 2000);
	t = ts_rcu_totals(m);
	c = ts_rcu_cpu(m, 0);
	ok(c != NULL, "cpu 0");
	is_int(c ? c->count[TS_RCU_CORE] : 0, 1, "one RCU core window");
	is_int(c ? c->time[TS_RCU_CORE] : 0, 20, "RCU core 20 ns, tick nested inside");
	is_int(c ? c->time[TS_RCU_TICK] : 0, 3, "tick window 3 ns");
	is_int(t->unmatched_ends, 1, "End at trace start: unmatched");
	is_int(t->nr_flavors, 1, "one flavour");
	is_int(t->flavors[0].gp.count, 1, "one complete grace period");
	is_int(t->flavors[0].gp.sum, 1000, "GP 1000 ns");
	is_int(t->gp_unmatched_ends, 1, "GP end at trace start: unmatched");
	f = ts_rcu_cb_fn_at(m, 0);
	ok(f && f->nr_queued == 1 && f->nr_invoked == 2, "callbacks counted");
	is_int(f ? f->latency.sum : 0, 600, "queue -> invoke 600");
	is_int(f ? f->latency.count : 0, 1, "no latency for a callback queued before the trace");
	ts_rcu_free(m);
	return tap_done();
}
