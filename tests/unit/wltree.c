// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorded workload's process tree (model/wltree.c): the command the recorder forked is
 * the root once it execs, whatever else runs beside it; its time line (model/cpath.c) follows
 * only its tasks of the benchmark's name, and every task of the name when there is no root.
 */
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/cpath.h"
#include "tickscope/wltree.h"

static struct ts_wltree *t;
static struct ts_cpath *p;

static void feed(struct ts_event ev)
{
	ts_wltree_feed(t, &ev);
	if (p)
		ts_cpath_feed(p, &ev);
}

/* A task there at the start: perf's FORK record (time 0), then its COMM record. */
static void there(int parent, int tid, const char *comm)
{
	if (parent >= 0)
		feed(tev_fork(TS_EV_FORK, 0, parent, tid));
	feed(tev_comm(tid, comm));
}

static void execs(uint64_t time, int tid, const char *comm)
{
	struct ts_event ev = tev_comm(tid, comm);

	ev.time = time;
	ev.comm.exec = 1;
	feed(ev);
}

static void sw(uint64_t time, int cpu, int prev, const char *pc, int next, const char *nc)
{
	struct ts_event ev = tev_switch(time, cpu, prev, TS_STATE_SLEEPING, next);

	snprintf(ev.sw.prev_comm, TS_COMM_LEN, "%s", pc);
	snprintf(ev.sw.next_comm, TS_COMM_LEN, "%s", nc);
	feed(ev);
}

/* perf record -a -- sh -c 'exec pingpong', another user's ping-pong running beside it. */
static void perf_workload(void)
{
	ts_wltree_new(&t);
	there(1, 50, "bash");
	there(50, 100, "perf");
	there(50, 300, "pingpong"); /* the other user's, started before */
	there(300, 301, "pingpong-echo");
	there(50, 400, "bash"); /* a subshell about to exec: named as its parent */
	there(100, 200, "perf-exec"); /* perf's workload child, held until the events are on */
	ok(!ts_wltree_root(t), "perf: no root before an exec");
	sw(10, 0, 0, "swapper/0", 300, "pingpong");
	execs(11, 400, "grep");
	ok(!ts_wltree_root(t),
	   "perf: a subshell's exec is not the workload's (perf-exec is there)");
	execs(12, 200, "sh");
	is_int(ts_wltree_root(t), 200, "perf: the perf-exec task's exec makes it the root");
	execs(13, 200, "pingpong");
	feed(tev_fork(TS_EV_FORK, 14, 200, 201));
	feed(tev_fork(TS_EV_PROCESS_FORK, 14, 200, 201));
	feed(tev_fork(TS_EV_FORK, 15, 301, 302)); /* the other's child, forked meanwhile */
	ok(ts_wltree_member(t, 200) && ts_wltree_member(t, 201), "perf: root and its child");
	ok(!ts_wltree_member(t, 300) && !ts_wltree_member(t, 301) && !ts_wltree_member(t, 302),
	   "perf: the other user's ping-pong and its children are not the workload's");
	ok(!ts_wltree_member(t, 100) && !ts_wltree_member(t, 400) && !ts_wltree_member(t, 0),
	   "perf: the recorder, the subshell, pid 0 are not");
	execs(16, 300, "pingpong");
	is_int(ts_wltree_root(t), 200, "perf: a later exec leaves the root");
	feed(tev_fork(TS_EV_FORK, 17, 301, 201)); /* 201 exited; its pid given to the other's */
	ok(!ts_wltree_member(t, 201), "perf: a pid reused by another fork belongs to that fork");
	ts_wltree_free(t);
}

/* tickscope record -- CMD: the child keeps the recorder's name until its exec. */
static void tickscope_workload(void)
{
	ts_wltree_new(&t);
	there(1, 50, "sh");
	there(50, 90, "bash");
	there(90, 91, "bash"); /* a subshell named as its parent that never execs */
	there(50, 100, "tickscope");
	there(100, 101, "tickscope"); /* the report's process: never execs */
	there(100, 102, "tickscope"); /* CMD */
	execs(20, 102, "stress-ng");
	feed(tev_fork(TS_EV_PROCESS_FORK, 21, 102, 103));
	is_int(ts_wltree_root(t), 102, "tickscope record: the child named as its parent execs");
	ok(ts_wltree_member(t, 103) && !ts_wltree_member(t, 101) && !ts_wltree_member(t, 91),
	   "tickscope record: the stressor is the workload's, the report's process not");
	ts_wltree_free(t);
}

/* perf record -a with no command: no root, and a task forked during it is no candidate. */
static void no_workload(void)
{
	ts_wltree_new(&t);
	there(1, 50, "bash");
	there(50, 100, "perf");
	sw(10, 0, 0, "swapper/0", 100, "perf");
	feed(tev_fork(TS_EV_FORK, 11, 50, 500));
	feed(tev_comm(500, "bash")); /* a real COMM record, at its fork's time */
	execs(12, 500, "ls");
	ok(!ts_wltree_root(t), "perf record -a alone: no root");
	ok(!ts_wltree_member(t, 500) && !ts_wltree_member(t, 50), "no root: no member");
	ok(!ts_wltree_member(NULL, 1), "no tree: no member");
	ts_wltree_free(t);
}

/* The time line: the workload's ping-pong alone; with no root, both (by name). */
static void time_line(int workload)
{
	uint64_t ns[TS_CP_NR];
	const char *w = workload ? "with the workload" : "no workload";

	ts_wltree_new(&t);
	ts_cpath_new(&p, "pingpong", t);
	there(1, 50, "bash");
	there(50, 300, "pingpong");
	there(50, 100, "perf");
	if (workload)
		there(100, 200, "perf-exec");
	/* the other's ping-pong runs 1000 ns on CPU 0 before and while ours runs */
	sw(1000, 0, 0, "swapper/0", 300, "pingpong");
	if (workload)
		execs(1500, 200, "pingpong");
	else
		feed(tev_fork(TS_EV_FORK, 1500, 50, 200));
	sw(2000, 0, 300, "pingpong", 0, "swapper/0");
	sw(3000, 1, 0, "swapper/1", 200, "pingpong");
	sw(3400, 1, 200, "pingpong", 0, "swapper/1");
	ok(ts_cpath_totals(p, ns) == (workload ? 1 : 2), "time line, %s: its tasks", w);
	ok(ts_cpath_by_tree(p) == workload, "time line, %s: by the tree", w);
	ok(ns[TS_CP_RUN] == (workload ? 400u : 1400u), "time line, %s: run %llu ns", w,
	   (unsigned long long)ns[TS_CP_RUN]);
	ok(ns[TS_CP_NONE] == (workload ? 0u : 1000u), "time line, %s: none %llu ns", w,
	   (unsigned long long)ns[TS_CP_NONE]);
	/* the other's pid, asked once and found not ours, given to a fork of the workload */
	sw(4000, 0, 0, "swapper/0", 300, "pingpong");
	sw(4100, 0, 300, "pingpong", 0, "swapper/0");
	feed(tev_fork(TS_EV_PROCESS_FORK, 4200, 200, 300));
	sw(4300, 0, 0, "swapper/0", 300, "pingpong-echo");
	sw(4400, 0, 300, "pingpong-echo", 0, "swapper/0");
	ok(ts_cpath_totals(p, ns) == 2, "time line, %s: a pid reused by the workload's fork", w);
	ok(ns[TS_CP_RUN] == (workload ? 500u : 1600u), "time line, %s: its run, %llu ns", w,
	   (unsigned long long)ns[TS_CP_RUN]);
	ts_cpath_free(p);
	p = NULL;
	ts_wltree_free(t);
}

int main(void)
{
	perf_workload();
	tickscope_workload();
	no_workload();
	time_line(1);
	time_line(0);
	return tap_done();
}
