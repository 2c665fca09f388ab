// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dispatch's gates (ops->gate): idle and idlepath are fed every event, and the dispatch
 * calls their feed only on a CPU whose gate byte is set. The oracle is the same models fed
 * every event directly, with no gate: a random stream of idle, switch, timer, wakeup, irq and
 * named tracepoint events on CPUs inside and past the gate (4095, 4096, 5000, -1) must leave
 * both with the same figures. The per-kind feeds (ops->feed_kind: rcu's rcu_utilization, sched's
 * and migrate's switches and wakeups) likewise: rcu and migrate fed directly by their own feed
 * must match the analysis' models.
 */
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/analysis.h"
#include "tickscope/idle.h"
#include "tickscope/idlepath.h"
#include "tickscope/migrate.h"
#include "tickscope/rcu.h"

static uint64_t seed = 88172645463325252ull;

static unsigned int rnd(unsigned int n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned int)(seed % n);
}

static const int cpus[] = { 0, 1, 2, 3, 4095, 4096, 5000, -1 };

/* string literals: the decoder gives each tracepoint one name pointer for the run */
static const char *const names[] = {
	"ipi:ipi_entry",
	"sched:sched_wake_idle_without_ipi",
	"irq_vectors:local_timer_entry",
	"irq_vectors:reschedule_entry",
	"foo:bar",
	NULL,
};

static struct ts_event random_event(uint64_t t)
{
	int cpu = cpus[rnd(sizeof(cpus) / sizeof(cpus[0]))];
	uint64_t fn = 0x1000 + rnd(3);
	struct ts_event ev;
	unsigned int what = rnd(15);

	/* the models that keep per-CPU state refuse CPU -1: only a tracepoint of no kind has it */
	if (cpu < 0 && what != 11)
		cpu = 3;
	switch (what) {
	case 0:
	case 1:
		ev = tev_switch(t, cpu, rnd(3) ? (int)rnd(4) : 0, rnd(2), rnd(2) ? (int)rnd(4) : 0);
		break;
	case 2:
	case 3:
		ev = tev_idle(t, cpu, rnd(3) ? TS_IDLE_EXIT : 1 + rnd(2));
		break;
	case 4:
		ev = tev_tick_stop(t, cpu, (int)rnd(2), "SCHED");
		break;
	case 5:
		ev = tev_wake(TS_EV_WAKING, t, cpu, 1 + (int)rnd(3), (int)rnd(4));
		break;
	case 6:
		ev = tev_timer(TS_EV_HRTIMER_START + (int)rnd(4), t, cpu, 0x10, fn);
		break;
	case 7:
		ev = tev_timer(TS_EV_TIMER_EXPIRE_ENTRY, t, cpu, 0x20, fn);
		break;
	case 8:
		ev = tev_timer(TS_EV_TIMER_EXPIRE_EXIT, t, cpu, 0x20, 0);
		break;
	case 9:
		ev = tev_wq(TS_EV_WQ_QUEUE, t, cpu, 5, 0x30, fn);
		break;
	case 10:
		ev = (struct ts_event){ .time = t, .cpu = cpu, .kind = TS_EV_IRQ_ENTRY };
		break;
	case 12:
		ev = (struct ts_event){ .time = t, .cpu = cpu, .kind = TS_EV_RCU_UTIL };
		ev.rcu_util.start = rnd(2);
		ev.rcu_util.ctx = (uint8_t)rnd(TS_RCU_NR_CTX + 1); /* one past: counted as other */
		break;
	case 13:
		ev = tev_wake(rnd(2) ? TS_EV_WAKEUP : TS_EV_WAKEUP_NEW, t, cpu, 1 + (int)rnd(3),
			      (int)rnd(4));
		break;
	case 14:
		ev = tev_migrate(t, cpu, 1 + (int)rnd(3), (int)rnd(4), (int)rnd(4));
		break;
	default:
		ev = (struct ts_event){ .time = t, .cpu = cpu, .kind = TS_EV_OTHER };
		ev.name = names[rnd(sizeof(names) / sizeof(names[0]))];
		break;
	}
	return ev;
}

static int same_hist(const struct ts_hist *a, const struct ts_hist *b)
{
	return a->count == b->count && a->sum == b->sum && a->min == b->min && a->max == b->max;
}

static int same_idle(const struct ts_idle *a, const struct ts_idle *b)
{
	const struct ts_idle_totals *x = ts_idle_totals(a), *y = ts_idle_totals(b);
	int i, s, bad = 0;

	bad |= memcmp(x->exits, y->exits, sizeof(x->exits)) || x->nr_other != y->nr_other;
	bad |= x->unmatched_exits != y->unmatched_exits || x->other_unnamed != y->other_unnamed;
	bad |= x->tick_stop_ok != y->tick_stop_ok || x->tick_stop_fail != y->tick_stop_fail;
	for (s = 0; s < TS_IDLE_NR_STATES; s++)
		bad |= !same_hist(&x->residency[s], &y->residency[s]);
	for (i = 0; i < x->nr_other && i < y->nr_other; i++)
		bad |= x->other[i].count != y->other[i].count;
	bad |= ts_idle_nr_cpus(a) != ts_idle_nr_cpus(b);
	bad |= ts_idle_nr_exit_fns(a, 0) != ts_idle_nr_exit_fns(b, 0);
	bad |= ts_idle_nr_exit_fns(a, 1) != ts_idle_nr_exit_fns(b, 1);
	for (i = 0; i < ts_idle_nr_cpus(a); i++) {
		const struct ts_idle_cpu *c = ts_idle_cpu(a, i), *d = ts_idle_cpu(b, i);

		if (!c || !d) {
			bad |= !c != !d;
			continue;
		}
		bad |= memcmp(c->exits, d->exits, sizeof(c->exits)) ||
		       c->unmatched_exits != d->unmatched_exits;
	}
	return !bad;
}

static int same_idlepath(const struct ts_idlepath *a, const struct ts_idlepath *b)
{
	const struct ts_idlepath_totals *x = ts_idlepath_totals(a), *y = ts_idlepath_totals(b);
	int i, bad = 0;

	bad |= !same_hist(&x->entry, &y->entry) || !same_hist(&x->exit, &y->exit);
	bad |= x->wake_no_ipi != y->wake_no_ipi || x->ipi_in_idle != y->ipi_in_idle;
	bad |= x->unentered != y->unentered || x->ipi_entering != y->ipi_entering;
	bad |= x->tick_stops != y->tick_stops;
	for (i = 0; i < TS_IDLEPATH_NR_TABS; i++) {
		size_t j;

		bad |= ts_idlepath_nr_fns(a, i) != ts_idlepath_nr_fns(b, i);
		for (j = 0; j < ts_idlepath_nr_fns(a, i) && j < ts_idlepath_nr_fns(b, i); j++)
			bad |= ts_idlepath_fn_at(a, i, j)->count !=
			       ts_idlepath_fn_at(b, i, j)->count;
	}
	bad |= ts_idlepath_nr_cpus(a) != ts_idlepath_nr_cpus(b);
	for (i = 0; i < ts_idlepath_nr_cpus(a); i++) {
		const struct ts_idlepath_cpu *c = ts_idlepath_cpu(a, i), *d = ts_idlepath_cpu(b, i);

		if (!c || !d) {
			bad |= !c != !d;
			continue;
		}
		bad |= c->ipi_in_idle != d->ipi_in_idle || c->ipi_entering != d->ipi_entering ||
		       c->reenter != d->reenter || c->unentered != d->unentered ||
		       !same_hist(&c->entry, &d->entry) || !same_hist(&c->exit, &d->exit);
	}
	return !bad;
}

static int same_rcu(const struct ts_rcu *a, const struct ts_rcu *b)
{
	const struct ts_rcu_totals *x = ts_rcu_totals(a), *y = ts_rcu_totals(b);
	int i, bad = x->unmatched_ends != y->unmatched_ends;

	for (i = 0; i < TS_RCU_NR_CTX; i++)
		bad |= !same_hist(&x->window[i], &y->window[i]);
	bad |= ts_rcu_nr_cpus(a) != ts_rcu_nr_cpus(b);
	for (i = 0; i < ts_rcu_nr_cpus(a); i++) {
		const struct ts_rcu_cpu *c = ts_rcu_cpu(a, i), *d = ts_rcu_cpu(b, i);

		if (!c || !d) {
			bad |= !c != !d;
			continue;
		}
		bad |= memcmp(c->count, d->count, sizeof(c->count)) ||
		       memcmp(c->time, d->time, sizeof(c->time)) || c->seen != d->seen;
	}
	return !bad;
}

static int same_migrate(const struct ts_migrate *a, const struct ts_migrate *b)
{
	const struct ts_migrate_totals *x = ts_migrate_totals(a), *y = ts_migrate_totals(b);
	int bad = memcmp(x, y, sizeof(*x)) != 0;
	size_t i;

	bad |= ts_migrate_nr_tasks(a) != ts_migrate_nr_tasks(b);
	for (i = 0; i < ts_migrate_nr_tasks(a) && i < ts_migrate_nr_tasks(b); i++)
		bad |= memcmp(ts_migrate_task_at(a, i)->by_origin,
			      ts_migrate_task_at(b, i)->by_origin,
			      sizeof(ts_migrate_task_at(a, i)->by_origin)) != 0;
	return !bad;
}

int main(void)
{
	struct ts_analysis *a = NULL;
	struct ts_idle *idle = NULL;
	struct ts_idlepath *path = NULL;
	struct ts_rcu *rcu = NULL;
	struct ts_migrate *mig = NULL;
	struct ts_model_opts mo = { 0 };
	const struct ts_idle_totals *t;
	int i, err = 0, calls = 0;

	if (!ok(!ts_analysis_new(&a, NULL) && !ts_idle_new(&idle, NULL) &&
			!ts_idlepath_new(&path, NULL) && !ts_rcu_new(&rcu, &mo) &&
			!ts_migrate_new(&mig, &mo),
		"an analysis, and the four models alone"))
		return tap_done();
	for (i = 0; i < 200000 && !err; i++) {
		struct ts_event ev = random_event(1000 + 10 * (uint64_t)i);

		err = ts_analysis_feed(a, &ev);
		err = err ?: ts_idle_feed(idle, &ev);
		err = err ?: ts_idlepath_feed(path, &ev);
		err = err ?: ts_rcu_feed(rcu, &ev);
		err = err ?: ts_migrate_feed(mig, &ev);
		calls++;
	}
	is_int(err, 0, "200,000 random events fed, no error");
	ts_analysis_finish(a);
	ts_idle_finish(idle, 1000 + 10 * (uint64_t)calls);
	ts_idlepath_finish(path, 1000 + 10 * (uint64_t)calls);
	t = ts_idle_totals(ts_analysis_idle(a));
	ok(t->exits[TS_EXIT_WAKEUP] && t->exits[TS_EXIT_IPI] && t->exits[TS_EXIT_OTHER] &&
		   t->exits[TS_EXIT_TIMER] && t->exits[TS_EXIT_SWITCH],
	   "the stream exercises every exit cause");
	ok(ts_idlepath_totals(ts_analysis_model(a, TS_SEC_IDLEPATH))->ipi_in_idle &&
		   ts_idlepath_totals(ts_analysis_model(a, TS_SEC_IDLEPATH))->wake_no_ipi,
	   "and the idle path's IPI and no-IPI wake counts");
	ok(ts_idlepath_nr_fns(path, TS_IDLEPATH_RESTARTS) &&
		   ts_idlepath_nr_fns(path, TS_IDLEPATH_DWORK),
	   "and its tick restarts and delayed works");
	ok(same_idle(ts_analysis_idle(a), idle),
	   "idle through the gated dispatch == fed every event");
	ok(same_idlepath(ts_analysis_model(a, TS_SEC_IDLEPATH), path),
	   "idlepath through the gated dispatch == fed every event");
	ok(ts_rcu_totals(rcu)->window[TS_RCU_OTHER].count &&
		   ts_rcu_totals(rcu)->window[TS_RCU_CORE].count && ts_migrate_totals(mig)->count,
	   "the stream has rcu windows and migrations");
	ok(same_rcu(ts_analysis_rcu(a), rcu), "rcu through the per-kind feed == its own feed");
	ok(same_migrate(ts_analysis_model(a, TS_SEC_MIGRATE), mig),
	   "migrate through the per-kind feeds == its own feed");
	ts_analysis_free(a);
	ts_rcu_free(rcu);
	ts_migrate_free(mig);
	ts_idle_free(idle);
	ts_idlepath_free(path);
	return tap_done();
}
