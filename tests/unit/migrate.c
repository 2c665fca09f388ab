// SPDX-License-Identifier: GPL-2.0-only
/*
 * The migrate section on hand-built events: each migration's origin from the task's state (asleep:
 * a wakeup's placement, affine when it lands on the waker's CPU; runnable: the balancer; never
 * seen: unknown), per CPU pair and task, the task filter, the reports and the metrics.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/migrate.h"
#include "tickscope/report.h"

#define S 1000000000ull

static void feed(struct ts_analysis *a, struct ts_event ev)
{
	ts_analysis_feed(a, &ev);
}

static void sw(struct ts_analysis *a, uint64_t t, int cpu, int prev, int state, int next)
{
	feed(a, tev_switch(t, cpu, prev, state, next));
}

static void mig(struct ts_analysis *a, uint64_t t, int cpu, int pid, int orig, int dest)
{
	struct ts_event ev = tev_migrate(t, cpu, pid, orig, dest);

	strcpy(ev.migrate.comm, pid == 10 ? "sleeper" : "other");
	feed(a, ev);
}

static struct ts_analysis *build(const struct ts_analysis_opts *o)
{
	struct ts_analysis *a;

	if (ts_analysis_new(&a, o))
		return NULL;
	ts_analysis_note_recorded(a, "sched:sched_switch");
	ts_analysis_note_recorded(a, "sched:sched_wakeup");
	ts_analysis_note_recorded(a, "sched:sched_migrate_task");
	sw(a, 1 * S, 0, 10, TS_STATE_SLEEPING, 11); /* 10 asleep, 11 runs */
	mig(a, 2 * S, 1, 10, 0, 1); /* asleep, to the waker's CPU: wake-affine */
	mig(a, 3 * S, 0, 10, 1, 2); /* asleep, elsewhere: a wakeup's other placement */
	feed(a, tev_wake(TS_EV_WAKEUP, 4 * S, 0, 10, 0));
	mig(a, 5 * S, 3, 10, 2, 3); /* woken, not yet running: the balancer */
	mig(a, 6 * S, 0, 12, 0, 1); /* never seen: unknown */
	sw(a, 7 * S, 0, 11, TS_STATE_RUNNING, 0); /* 11 preempted */
	mig(a, 8 * S, 1, 11, 0, 1); /* runnable: the balancer */
	ts_analysis_finish(a);
	return a;
}

static double metric;

static int grab(void *ctx, const struct ts_metric *m)
{
	if (!strcmp(m->name, ctx))
		metric = m->value;
	return 0;
}

static void origins(const struct ts_analysis *a)
{
	const struct ts_migrate *m = ts_analysis_model(a, TS_SEC_MIGRATE);
	const struct ts_migrate_totals *t = ts_migrate_totals(m);
	const struct ts_migrate_task *k = ts_migrate_task_at(m, 0);

	is_int(t->count, 5, "five migrations");
	is_int(t->by_origin[TS_MIG_WAKE_AFFINE], 1, "one wake-affine");
	is_int(t->by_origin[TS_MIG_WAKE_OTHER], 1, "one other wakeup placement");
	is_int(t->by_origin[TS_MIG_BALANCE], 2, "two by the balancer");
	is_int(t->by_origin[TS_MIG_UNKNOWN], 1, "one unknown");
	is_int(ts_migrate_nr_pairs(m), 3, "three CPU pairs");
	ok(ts_migrate_pair_at(m, 0)->orig_cpu == 0 && ts_migrate_pair_at(m, 0)->dest_cpu == 1 &&
		   ts_migrate_pair_at(m, 0)->count == 3,
	   "cpu0 -> cpu1 three times");
	ok(k && k->pid == 10 && k->count == 3 && !strcmp(k->comm, "sleeper"),
	   "task 10 moved three times");
	metric = -1;
	ts_analysis_metrics(a, grab, "migrate.balance.per_s");
	ok(fabs(metric - 2.0 / 7) < 1e-9, "migrate.balance.per_s is 2 over 7 s (%g)", metric);
}

static void reports(const struct ts_analysis *a)
{
	int v[5] = { 0 };
	char *buf = NULL, *row;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ok(f && !ts_report_json(f, a, NULL), "JSON report");
	if (f)
		fclose(f);
	ok(buf && strstr(buf, "\"migrate\":{\"status\":\"present\"") &&
		   strstr(buf, "\"origin\":{\"wake_affine\":1,\"wake_other\":1,\"balance\":2,"
			       "\"unknown\":1}"),
	   "the JSON section with its origins");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ok(f && !ts_report_text(f, a, NULL), "text report");
	if (f)
		fclose(f);
	row = buf ? strstr(buf, "  cpu0 -> cpu1 ") : NULL;
	ok(buf && strstr(buf, "== migrate ==\n  events: sched_migrate_task* 5\n") && row &&
		   sscanf(row, " cpu0 -> cpu1 %d %d %d %d %d", &v[0], &v[1], &v[2], &v[3], &v[4]) ==
			   5 &&
		   v[0] == 3 && v[1] == 1 && v[2] == 0 && v[3] == 1 && v[4] == 1,
	   "the text section: cpu0 -> cpu1 3 times, one affine, one balance, one unknown");
	free(buf);
}

/*
 * Task states kept for pids of every range: the first and last of a page of the table, past
 * the kernel's PID_MAX_LIMIT (4194304) and the largest, each told apart from its neighbour.
 */
static void pid_ranges(void)
{
	static const int32_t pids[] = { 4095, 4096, 4194303, 4194304, 2147483647 };
	const struct ts_migrate_totals *t;
	struct ts_analysis *a;
	size_t i;

	if (ts_analysis_new(&a, NULL)) {
		ok(0, "analysis built");
		return;
	}
	ts_analysis_note_recorded(a, "sched:sched_switch");
	ts_analysis_note_recorded(a, "sched:sched_wakeup");
	ts_analysis_note_recorded(a, "sched:sched_migrate_task");
	/* even ones asleep, odd ones woken: wake-affine and balance by turns */
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++)
		if (i % 2)
			feed(a, tev_wake(TS_EV_WAKEUP, S, 0, pids[i], 0));
		else
			sw(a, S, 0, pids[i], TS_STATE_SLEEPING, 0);
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++)
		mig(a, 2 * S, 1, pids[i], 0, 1);
	mig(a, 2 * S, 1, 4097, 0, 1); /* a page made, this pid never seen */
	mig(a, 2 * S, 1, 2147483646, 0, 1); /* the map in use, this pid not in it */
	ts_analysis_finish(a);
	t = ts_migrate_totals(ts_analysis_model(a, TS_SEC_MIGRATE));
	ok(t->by_origin[TS_MIG_WAKE_AFFINE] == 3 && t->by_origin[TS_MIG_BALANCE] == 2 &&
		   t->by_origin[TS_MIG_UNKNOWN] == 2 && t->count == 7,
	   "pids at a page's edges and past PID_MAX_LIMIT keep their states (%llu %llu %llu)",
	   (unsigned long long)t->by_origin[TS_MIG_WAKE_AFFINE],
	   (unsigned long long)t->by_origin[TS_MIG_BALANCE],
	   (unsigned long long)t->by_origin[TS_MIG_UNKNOWN]);
	ts_analysis_free(a);
}

int main(void)
{
	static const int32_t pid12[] = { 12 };
	struct ts_analysis_opts o = { .pids = pid12, .nr_pids = 1 };
	struct ts_analysis *a = build(NULL);

	ok(a, "analysis built");
	if (!a)
		return tap_done();
	origins(a);
	reports(a);
	ts_analysis_free(a);
	a = build(&o);
	ok(a && ts_migrate_totals(ts_analysis_model(a, TS_SEC_MIGRATE))->count == 1,
	   "--pid 12 counts task 12's migration only");
	ts_analysis_free(a);
	if (!ts_analysis_new(&a, NULL)) {
		ts_analysis_note_recorded(a, "sched:sched_switch");
		sw(a, S, 0, 0, 0, 5);
		ts_analysis_finish(a);
		is_int(ts_analysis_section(a, TS_SEC_MIGRATE)->presence, TS_NOT_RECORDED,
		       "without sched_migrate_task the section is not recorded");
		metric = 0;
		ts_analysis_metrics(a, grab, "migrate.per_s");
		ok(isnan(metric), "and its metrics are NAN");
		ts_analysis_free(a);
	}
	pid_ranges();
	return tap_done();
}
