// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of the benchmark's supervisors (model/compare_bench.c, ts_run_bench_init): told by
 * the process tree (fork events) and by waits for a child (do_wait in the switch-out stack),
 * never by how often a task switched out; their sleep is not the workers'.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tickscope/analysis.h"
#include "tickscope/compare.h"
#include "events.h"
#include "tap.h"

#define F_SCHED 0xffffffff81000010ull /* schedule */
#define F_WAIT 0xffffffff81000020ull /* do_wait */
#define F_WAIT4 0xffffffff81000030ull /* kernel_wait4 */
#define F_READ 0xffffffff81000040ull /* pipe_read */

static const char *syms(void *ctx, uint64_t addr, uint64_t *off)
{
	static const char *const n[] = { "schedule", "do_wait", "kernel_wait4", "pipe_read" };

	(void)ctx;
	if (off)
		*off = 0;
	return addr >= F_SCHED && addr <= F_READ ? n[(addr - F_SCHED) / 0x10] : NULL;
}

static void feed(struct ts_analysis *an, struct ts_event ev)
{
	ts_analysis_feed(an, &ev);
}

static struct ts_event named_switch(uint64_t t, int cpu, int prev, const char *pc, int state,
				    int next, const char *nc)
{
	struct ts_event e = tev_switch(t, cpu, prev, state, next);

	snprintf(e.sw.prev_comm, TS_COMM_LEN, "%s", pc);
	snprintf(e.sw.next_comm, TS_COMM_LEN, "%s", nc);
	return e;
}

enum how { BY_TRACEPOINT, BY_RECORD, BY_STACK, BY_NOTHING };

/*
 * A stress-ng like run on CPU 0: instance 30 ("w") forks worker 31 ("w") and sleeps (S)
 * 5100 ns twice (1000 ns of run time in all), while 31 runs 9800 ns, sleeps (S) 200 ns in
 * pipe_read twice and is preempted by 30 twice. With @how the parent is told by a fork event,
 * its wait4 stack, or nothing (no fork and no stack at all). Both tasks switched out twice: a
 * switch-out ratio cannot tell them apart.
 */
static struct ts_analysis *instance_run(enum how how)
{
	static const uint64_t wait_ips[] = { F_SCHED, F_WAIT, F_WAIT4 };
	static const uint64_t read_ips[] = { F_SCHED, F_READ };
	struct ts_analysis *an = NULL;
	struct ts_event e;

	if (ts_analysis_new(&an, NULL))
		return NULL;
	ts_analysis_note_recorded(an, "sched:sched_switch");
	ts_analysis_note_recorded(an, "sched:sched_waking");
	ts_analysis_set_symbols(an, syms, NULL);
	feed(an, named_switch(100, 0, 0, "swapper/0", 0, 30, "w"));
	if (how == BY_TRACEPOINT || how == BY_RECORD)
		feed(an, tev_fork(how == BY_RECORD ? TS_EV_FORK : TS_EV_PROCESS_FORK, 150, 30, 31));
	for (int k = 0; k < 2; k++) {
		uint64_t t = 200 + 6000 * k;

		e = named_switch(t, 0, 30, "w", TS_STATE_SLEEPING, 31, "w");
		if (how == BY_STACK) {
			e.ips = wait_ips;
			e.nr_ips = 3;
		}
		feed(an, e);
		e = named_switch(t + 1000, 0, 31, "w", TS_STATE_SLEEPING, 0, "swapper/0");
		if (how != BY_NOTHING) {
			e.ips = read_ips;
			e.nr_ips = 2;
		}
		feed(an, e);
		feed(an, named_switch(t + 1200, 0, 0, "swapper/0", 0, 31, "w"));
		feed(an, named_switch(t + 5100, 0, 31, "w", TS_STATE_RUNNING, 30, "w"));
	}
	ts_analysis_finish(an);
	return an;
}

static void check(enum how how, const char *what)
{
	struct ts_analysis *an = instance_run(how);
	struct ts_run r = { .lost = NAN };
	struct ts_run_bench b;
	const struct ts_run_metric *m;

	if (!ok(an != NULL, "%s: an analysis", what))
		return;
	ok(!ts_run_bench_init(&b, an, "w"), "%s: the benchmark's tasks told apart", what);
	if (how == BY_NOTHING) {
		ok(!b.known && b.nr_sup == 0, "%s: no supervisor can be told", what);
	} else {
		ok(b.known && b.nr_sup == 1 && b.sup[0] == 30,
		   "%s: the parent 30 is the supervisor", what);
		ok(ts_run_bench_worker(&b, ts_sched_task_find(ts_analysis_sched(an), 31)) &&
			   !ts_run_bench_worker(&b, ts_sched_task_find(ts_analysis_sched(an), 30)),
		   "%s: 31 is a worker, 30 is not", what);
	}
	ts_run_bench_release(&b);
	ok(!ts_run_add_task_metrics(&r, an, "w", 2), "%s: task metrics", what);
	m = ts_run_find(&r, "task.supervisors.count");
	if (how == BY_NOTHING)
		ok(m && isnan(m->value) && m->why_null, "%s: the count is unknown, saying why: %s",
		   what, m && m->why_null ? m->why_null : "(none)");
	else
		ok(m && m->value == 1, "%s: one supervisor", what);
	m = ts_run_find(&r, "task.off_cpu.S.per_op");
	/* the worker's two 200 ns sleeps over 2 ops; with the parent's two 5100 ns: 5300 */
	ok(m && m->value == (how == BY_NOTHING ? 5300 : 200),
	   "%s: sleeping per op %.0f ns (the parent's wait4 %s)", what, m ? m->value : NAN,
	   how == BY_NOTHING ? "in, not known" : "left out");
	ts_run_release(&r);
	ts_analysis_free(an);
}

/*
 * A ping-pong like run on CPUs 0 and 1: "pp" (40) forks "pp-echo" (41), and both run 1000 ns
 * and sleep 1000 ns in turn: a parent that works is a worker.
 */
static void test_working_parent(void)
{
	struct ts_analysis *an = NULL;
	struct ts_run_bench b;

	if (!ok(!ts_analysis_new(&an, NULL), "ping-pong: an analysis"))
		return;
	ts_analysis_set_symbols(an, syms, NULL);
	feed(an, tev_fork(TS_EV_FORK, 50, 40, 41));
	feed(an, named_switch(100, 0, 0, "swapper/0", 0, 40, "pp"));
	feed(an, named_switch(100, 1, 0, "swapper/1", 0, 41, "pp-echo"));
	for (int k = 0; k < 4; k++) {
		uint64_t t = 1100 + 2000 * k;

		feed(an, named_switch(t, k & 1, k & 1 ? 41 : 40, k & 1 ? "pp-echo" : "pp",
				      TS_STATE_SLEEPING, 0, "swapper"));
		feed(an, named_switch(t + 1000, k & 1, 0, "swapper", 0, k & 1 ? 41 : 40,
				      k & 1 ? "pp-echo" : "pp"));
	}
	ts_analysis_finish(an);
	ok(!ts_run_bench_init(&b, an, "pp"), "ping-pong: the benchmark's tasks told apart");
	ok(b.known && b.nr_sup == 0,
	   "ping-pong: the parent that pings is a worker (%d supervisors)", b.nr_sup);
	ts_run_bench_release(&b);
	ts_analysis_free(an);
}

int main(void)
{
	check(BY_TRACEPOINT, "sched_process_fork");
	check(BY_RECORD, "perf's FORK record");
	check(BY_STACK, "do_wait in the switch-out stack");
	check(BY_NOTHING, "no fork, no stack");
	test_working_parent();
	return tap_done();
}
