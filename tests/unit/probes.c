// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probes model (kprobe pairs as durations) and the idle path model's counts that perf
 * script cannot give directly: pairing by CPU for the idle tasks and by task otherwise, returns
 * without entries, calls open at the end, time per idle entry; delayed-work idle exits and tick
 * restarts once per idle exit.
 */
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/idlepath.h"
#include "tickscope/probes.h"

/* The decoder's name strings: the models compare them by pointer after the first. */
static const char qv[] = "probe:quiet_vmstat", qv_ret[] = "probe:quiet_vmstat__return";
static const char ss[] = "probe:synchronize_srcu", ss_ret[] = "probe:synchronize_srcu__return";

static struct ts_event probe(uint64_t t, int cpu, int pid, const char *name)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .pid = pid, .kind = TS_EV_OTHER };

	ev.name = name;
	return ev;
}

static void feed_probes(struct ts_probes *m, struct ts_event ev)
{
	ts_probes_feed(m, &ev);
}

static void names(void)
{
	char fn[16];
	int ret = -1;

	ok(ts_probe_split("probe:quiet_vmstat", fn, sizeof(fn), &ret) &&
		   !strcmp(fn, "quiet_vmstat") && ret == 0,
	   "probe:F is F's entry");
	ok(ts_probe_split("probe:quiet_vmstat__return", fn, sizeof(fn), &ret) &&
		   !strcmp(fn, "quiet_vmstat") && ret == 1,
	   "probe:F__return is F's return");
	ok(!ts_probe_split("sched:sched_switch", fn, sizeof(fn), &ret) &&
		   !ts_probe_split("probe:", fn, sizeof(fn), &ret) &&
		   !ts_probe_split(NULL, fn, sizeof(fn), &ret),
	   "other events, an empty function name and NULL are not probes");
	{
		char ufn[32];

		ok(ts_probe_split("probe_libc:malloc", ufn, sizeof(ufn), &ret) &&
			   !strcmp(ufn, "probe_libc:malloc") && ret == 0 &&
			   ts_probe_split("probe_libc:malloc__return", ufn, sizeof(ufn), &ret) &&
			   !strcmp(ufn, "probe_libc:malloc") && ret == 1,
		   "a uprobe group (perf probe -x libc): probe_libc:F and its __return pair");
		ok(!ts_probe_split("probes:f", ufn, sizeof(ufn), &ret) &&
			   !ts_probe_split("probe_:f", ufn, sizeof(ufn), &ret) &&
			   !ts_probe_split("probe_libc:", ufn, sizeof(ufn), &ret) &&
			   !ts_probe_split("probe_libc:__return", ufn, sizeof(ufn), &ret),
		   "probes:, probe_: and a group without a function are not probes");
	}
}

static void probes(void)
{
	struct ts_probes *m;
	const struct ts_probe *p;
	struct ts_event ev;

	ok(ts_probes_new(&m, NULL) == 0, "probes: new");
	/* the input recorded both probes: each is listed before its events come */
	ok(ts_probes_note(m, "quiet_vmstat") == 0 && ts_probes_note(m, "never_fired") == 0 &&
		   ts_probes_note(m, "quiet_vmstat") == 0 && ts_probes_nr(m) == 2,
	   "recorded probes are listed once each, before any event");
	/* two idle tasks (pid 0) interleaved on CPUs 0 and 1: pairs by CPU */
	feed_probes(m, tev_switch(90, 0, 5, TS_STATE_SLEEPING, 0));
	feed_probes(m, probe(100, 0, 0, qv)); /* its format without __probe_ip: address 0 */
	ev = probe(105, 1, 0, qv);
	ev.probe.ip = 0x1000; /* the first address given names the symbol probed */
	feed_probes(m, ev);
	feed_probes(m, probe(130, 0, 0, qv_ret)); /* 30 */
	ev = probe(115, 1, 0, qv_ret); /* 10 */
	ev.probe.ip = 0x2000; /* a later one does not change it */
	feed_probes(m, ev);
	feed_probes(m, tev_switch(140, 1, 6, TS_STATE_SLEEPING, 0));
	feed_probes(m, tev_switch(150, 1, 0, TS_STATE_RUNNING, 6)); /* switches away: no */
	feed_probes(m, tev_idle(151, 1, 1)); /* cpu_idle enters are not idle entries here */
	feed_probes(m, probe(160, 2, 0, qv_ret)); /* no entry on CPU 2 */
	/* a task that sleeps in the call and returns on another CPU: pairs by task */
	feed_probes(m, probe(200, 1, 42, ss));
	feed_probes(m, probe(1200, 3, 42, ss_ret)); /* 1000 */
	feed_probes(m, probe(1300, 2, 43, ss)); /* open at the end */
	ts_probes_finish(m, 2000);
	is_int(ts_probes_nr(m), 3, "three probed functions: two noted, one more seen");
	p = ts_probes_at(m, 0);
	ok(p && !strcmp(p->name, "quiet_vmstat"), "the first seen is quiet_vmstat");
	is_int(p->duration.count, 2, "quiet_vmstat: two complete calls");
	is_int(p->duration.sum, 40, "quiet_vmstat: 30 + 10 ns, paired by CPU for pid 0");
	is_int(p->unmatched_returns, 1, "quiet_vmstat: a return without its entry");
	is_int(p->from_idle, 2, "quiet_vmstat: both from the idle task");
	is_int(p->ip, 0x1000, "quiet_vmstat: probed at the first address its events gave");
	is_int(p->nr_cpu, 2, "quiet_vmstat: per CPU up to CPU 1");
	is_int(p->per_cpu[0].sum + 1000 * p->per_cpu[1].sum, 30 + 10000, "per CPU: 30 and 10 ns");
	is_int(ts_probes_idle_entries(m), 2, "two idle entries (switches to pid 0, not cpu_idle)");
	p = ts_probes_at(m, 1);
	ok(p && !strcmp(p->name, "never_fired") && p->entries == 0 && p->duration.count == 0,
	   "a recorded probe that never fired: listed, 0 calls");
	p = ts_probes_at(m, 2);
	is_int(p->duration.sum, 1000, "synchronize_srcu: 1000 ns, paired by task across CPUs");
	is_int(p->ip, 0, "synchronize_srcu: no address in its events, none kept");
	is_int(p->open_at_end, 1, "synchronize_srcu: one call open at the end");
	is_int(p->per_cpu[3].count, 1, "a call is counted on the CPU it returned on");
	ts_probes_free(m);
}

static void feed_path(struct ts_idlepath *m, struct ts_event ev)
{
	ts_idlepath_feed(m, &ev);
}

/* an interrupt's entry on @cpu (arm64 takes its IPIs through one) */
static struct ts_event tev_irq(uint64_t t, int cpu)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = TS_EV_IRQ_ENTRY };

	return ev;
}

/* x86's function-call IPI arriving on @cpu (a tracepoint the models do not decode) */
static struct ts_event ipi(uint64_t t, int cpu)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = TS_EV_OTHER };

	ev.name = "irq_vectors:call_function_single_entry";
	return ev;
}

static void idlepath(void)
{
	struct ts_idlepath *m;
	const struct ts_idlepath_fn *f;
	const struct ts_idlepath_cpu *c;

	ok(ts_idlepath_new(&m, NULL) == 0, "idlepath: new");
	feed_path(m, tev_switch(1000, 0, 7, TS_STATE_SLEEPING, 0));
	feed_path(m, tev_tick_stop(1010, 0, 1, "NONE"));
	feed_path(m, tev_idle(1050, 0, 1)); /* entry 50 */
	/* a delayed work's timer ends the period and queues vmstat_update (0xa0) */
	feed_path(m, tev_timer(TS_EV_TIMER_EXPIRE_ENTRY, 2000, 0, 0x77, 0xd0));
	feed_path(m, tev_wq(TS_EV_WQ_QUEUE, 2001, 0, 0, 0x99, 0xa0));
	feed_path(m, tev_timer(TS_EV_TIMER_EXPIRE_EXIT, 2002, 0, 0x77, 0));
	feed_path(m, tev_idle(2010, 0, TS_IDLE_EXIT));
	/* the tick restarts (0xf0), twice in the same window: counted once */
	feed_path(m, tev_timer(TS_EV_HRTIMER_START, 2020, 0, 0x55, 0xf0));
	feed_path(m, tev_timer(TS_EV_HRTIMER_START, 2025, 0, 0x55, 0xf0));
	feed_path(m, tev_switch(2110, 0, 0, TS_STATE_RUNNING, 8)); /* exit 100 */
	/* a timer whose callback queues nothing: not a delayed work's exit */
	feed_path(m, tev_switch(3000, 0, 8, TS_STATE_SLEEPING, 0));
	feed_path(m, tev_idle(3020, 0, 1)); /* entry 20 */
	feed_path(m, tev_timer(TS_EV_TIMER_EXPIRE_ENTRY, 4000, 0, 0x78, 0xd1));
	feed_path(m, tev_timer(TS_EV_TIMER_EXPIRE_EXIT, 4001, 0, 0x78, 0));
	feed_path(m, tev_wq(TS_EV_WQ_QUEUE, 4002, 0, 0, 0x98, 0xa1));
	feed_path(m, tev_idle(4010, 0, TS_IDLE_EXIT));
	feed_path(m, tev_idle(4100, 0, 1)); /* back in: no switch, no exit time */
	/*
	 * CPU 1 switches to idle and a wake IPI lands before any state: the switch away follows
	 * with no cpu_idle (schedule_idle() looping); an IPI later, in a state, is not "entering".
	 */
	feed_path(m, tev_switch(6000, 1, 9, TS_STATE_SLEEPING, 0));
	feed_path(m, ipi(6006, 1));
	feed_path(m, tev_switch(6020, 1, 0, TS_STATE_RUNNING, 9));
	feed_path(m, tev_switch(7000, 1, 9, TS_STATE_SLEEPING, 0));
	feed_path(m, tev_idle(7010, 1, 1));
	feed_path(m, ipi(7500, 1));
	feed_path(m, tev_idle(7510, 1, TS_IDLE_EXIT));
	feed_path(m, tev_switch(7520, 1, 0, TS_STATE_RUNNING, 9));
	/*
	 * CPU 2, a kernel from 6.2 on: the state's exit comes first, then the interrupt's entry and
	 * the IPI that woke it; a state ended by a timer, then an IPI after the exit, is not one;
	 * an IPI in a state opens no second count after the exit.
	 */
	feed_path(m, tev_switch(8000, 2, 9, TS_STATE_SLEEPING, 0));
	feed_path(m, tev_idle(8010, 2, 1));
	feed_path(m, tev_idle(8500, 2, TS_IDLE_EXIT));
	feed_path(m, tev_irq(8501, 2));
	feed_path(m, ipi(8502, 2));
	feed_path(m, tev_idle(8600, 2, 1));
	feed_path(m, tev_timer(TS_EV_HRTIMER_EXPIRE_ENTRY, 8700, 2, 0x55, 0xf0));
	feed_path(m, tev_idle(8710, 2, TS_IDLE_EXIT));
	feed_path(m, ipi(8720, 2));
	feed_path(m, tev_idle(8800, 2, 1));
	feed_path(m, ipi(8900, 2));
	feed_path(m, tev_idle(8910, 2, TS_IDLE_EXIT));
	feed_path(m, ipi(8920, 2));
	feed_path(m, tev_switch(9000, 2, 0, TS_STATE_RUNNING, 9));
	ts_idlepath_finish(m, 10000);
	c = ts_idlepath_cpu(m, 1);
	ok(c && c->unentered == 1 && c->ipi_entering == 1 && c->ipi_in_idle == 1,
	   "a switch to idle left with no state, its IPI while entering; the other IPI in a state");
	is_int(ts_idlepath_totals(m)->unentered, 1, "one unentered switch in all");
	c = ts_idlepath_cpu(m, 2);
	is_int(c ? (long long)c->ipi_in_idle : -1, 2,
	       "IPIs that woke a state: one just after its exit (6.2's order), one in it");
	c = ts_idlepath_cpu(m, 0);
	is_int(c->entry.count, 2, "two idle entries after a switch to idle");
	is_int(c->entry.sum, 70, "entry times 50 + 20 ns");
	is_int(c->exit.count, 1, "one exit followed by a switch away");
	is_int(c->exit.sum, 100, "exit time 100 ns");
	is_int(c->reenter, 1, "one exit followed by another enter");
	is_int(ts_idlepath_nr_fns(m, TS_IDLEPATH_DWORK), 1, "one delayed-work function woke it");
	f = ts_idlepath_fn_at(m, TS_IDLEPATH_DWORK, 0);
	ok(f && f->function == 0xa0 && f->count == 1, "vmstat_update's timer: one idle exit");
	f = ts_idlepath_fn_at(m, TS_IDLEPATH_RESTARTS, 0);
	ok(f && f->function == 0xf0 && f->count == 1, "the tick restarted once after the exit");
	is_int(ts_idlepath_totals(m)->tick_stops, 1, "one tick_stop success");
	ts_idlepath_free(m);
}

int main(void)
{
	names();
	probes();
	idlepath();
	return tap_done();
}
