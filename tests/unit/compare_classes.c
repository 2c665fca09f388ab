// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of the other tasks' CPU shares by class (model/compare_run_analysis.c): a trace
 * with more task classes than the table holds (a system-wide recording on a busy host has
 * them) folds the rest into "other", within the table, and the shares still add up.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tickscope/analysis.h"
#include "tickscope/compare.h"
#include "tap.h"

static struct ts_event sw(uint64_t t, int prev, const char *pc, int next, const char *nc)
{
	struct ts_event e = { .time = t, .cpu = 0, .pid = prev, .kind = TS_EV_SWITCH };

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	e.sw.prev_state = TS_STATE_SLEEPING;
	snprintf(e.sw.prev_comm, TS_COMM_LEN, "%s", pc);
	snprintf(e.sw.next_comm, TS_COMM_LEN, "%s", nc);
	return e;
}

/* 100 tasks of 100 classes ("cls-aa", "cls-ab", ...), each running 1 ms in turn on CPU 0. */
static void test_many_classes(void)
{
	struct ts_analysis_opts o = { 0 };
	struct ts_analysis *a = NULL;
	struct ts_run r = { .lost = NAN };
	char prev[16] = "swapper", name[16];
	int prev_pid = 0, err, classes = 0, other = 0;
	double sum = 0;

	if (!ok(!ts_analysis_new(&a, &o), "an analysis"))
		return;
	for (int i = 0; i < 100; i++) {
		struct ts_event e;

		snprintf(name, sizeof(name), "cls-%c%c", 'a' + i / 26, 'a' + i % 26);
		e = sw(1000000ULL * i, prev_pid, prev, 100 + i, name);
		ts_analysis_feed(a, &e);
		prev_pid = 100 + i;
		snprintf(prev, sizeof(prev), "%s", name);
	}
	{
		struct ts_event e = sw(100000000ULL, prev_pid, prev, 0, "swapper");

		ts_analysis_feed(a, &e);
	}
	ts_analysis_finish(a);
	err = ts_run_add_task_metrics(&r, a, "bench", 10);
	ok(!err, "the task metrics of a trace with 100 task classes");
	for (int i = 0; i < r.nr; i++) {
		if (strncmp(r.m[i].name, "task.other_cpu.", 15) ||
		    !strcmp(r.m[i].name, "task.other_cpu.share"))
			continue;
		classes++;
		other += !strcmp(r.m[i].name, "task.other_cpu.other.share");
		sum += r.m[i].value;
	}
	ok(classes > 1 && classes <= 48 && other == 1,
	   "the classes beyond the table fold into 'other': %d classes, 'other' among them",
	   classes);
	ok(fabs(sum - ts_run_find(&r, "task.other_cpu.share")->value) < 1e-9,
	   "the classes' shares add up to the other tasks' share (%.3f%%)", sum);
	ts_run_release(&r);
	ts_analysis_free(a);
}

int main(void)
{
	test_many_classes();
	return tap_done();
}
