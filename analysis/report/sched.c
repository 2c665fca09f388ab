// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched section's writers: text here (tasks, totals, wake classes, CPUs, wakers and
 * off-CPU stacks), JSON in sched_json.c, TSV in sched_tsv.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"
#include "tickscope/escape.h"

static uint64_t task_run(const void *ctx, size_t i)
{
	return ts_sched_task_rank(ctx, ts_sched_task_at(ctx, i));
}

/*
 * One task's row; @wk and @off say why wakes and off-CPU times are not measured (NULL: they
 * are). Return 1 when its run and sched delay are not measured either (printed -), else 0.
 */
static int task_row(FILE *f, const struct ts_sched *m, const struct ts_sched_task *t,
		    const char *wk, const char *off)
{
	char cb[80]; /* an escaped task name */
	struct rp_dist dl, wl;
	int unmeasured = 0;

	rp_dist(t->delay, &dl);
	rp_dist(t->wakelat, &wl);
	fprintf(f, "  %-16s %7d %7" PRIu64 " %6" PRIu64 " %5" PRIu64,
		t->comm[0] ? ts_escape(t->comm, cb, sizeof(cb)) : "?", t->pid, t->nr_switches,
		t->nr_involuntary, t->nr_migrations);
	if (rp_sched_task_run_measured(m, t)) {
		fprintf(f, " %10.3f %10.3f %8.1f %10.3f", MS(t->run->sum), MS(t->delay_perf),
			(double)t->delay_perf_max / 1e3, MS(t->delay->sum));
		rp_cells(f, &dl, 8, 0, 1, (const uint64_t[]){ dl.max });
	} else {
		fprintf(f, " %10s %10s %8s %10s %8s", "-", "-", "-", "-", "-");
		unmeasured = 1;
	}
	if (wk) {
		fprintf(f, " %6s %8s %8s", "-", "-", "-");
	} else {
		fprintf(f, " %6" PRIu64, t->nr_wakeups);
		rp_cells(f, &wl, 8, 0, 2, (const uint64_t[]){ wl.p50, wl.p99 });
	}
	if (off)
		fprintf(f, " %9s %9s\n", "-", "-");
	else
		fprintf(f, " %9.3f %9.3f\n", MS(t->off[TS_OFF_S]->sum), MS(t->off[TS_OFF_D]->sum));
	return unmeasured;
}

/* The tasks listed (@idx[0..@n)) that had slices or periods left out for lost events. */
static void lost_tasks(FILE *f, const struct ts_sched *m, const size_t *idx, size_t n)
{
	const struct ts_sched_task *t;
	size_t i, k = 0;

	if (!ts_sched_totals(m)->nr_gaps)
		return;
	for (i = 0; i < n; i++) {
		t = ts_sched_task_at(m, idx[i]);
		if (!t->nr_lost_slices && !t->nr_lost_off)
			continue;
		if (!k++)
			fprintf(f, "  LOST: run slices / off-CPU periods left out, by tid:");
		fprintf(f, " %d %" PRIu64 "/%" PRIu64, t->pid, t->nr_lost_slices, t->nr_lost_off);
	}
	if (k)
		fprintf(f, " (%zu of the %zu tasks listed; their figures cover the rest)\n", k, n);
}

static void sched_tasks(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	size_t n = ts_sched_nr_tasks(m), *idx = rp_rank(n, task_run, m), i;
	const struct ts_sched_task *t;
	/* the tasks listed whose run was not measured: broken chains end it, never switched out */
	uint64_t unmeasured[2] = { 0, 0 };
	const char *wk = ts_sched_wakes_why(m), *off = ts_sched_off_why(m);

	if (!idx)
		return;
	fprintf(f, "  tasks by run time (top %u):\n", rp_top(o));
	fprintf(f, "  %-16s %7s %7s %6s %5s %10s %10s %8s %10s %8s %6s %8s %8s %9s %9s\n", "comm",
		"tid", "sw-in", "invol", "migr", "run ms", "schdly ms", "schd max", "rqdly ms",
		"rqd max", "wakes", "wlat p50", "wlat p99", "off-S ms", "off-D ms");
	for (i = 0; i < n && i < rp_top(o); i++) {
		t = ts_sched_task_at(m, idx[i]);
		if (!t->selected)
			break;
		if (task_row(f, m, t, wk, off))
			unmeasured[t->nr_broken ? 0 : 1]++;
	}
	lost_tasks(f, m, idx, i);
	free(idx);
	if (wk && i)
		fprintf(f, "  wakes and wakeup latency: -: %s\n", wk);
	if (off && i)
		fprintf(f, "  off-CPU: -: %s\n", off);
	if (unmeasured[0])
		fprintf(f,
			"  run and sched delay: - for the %" PRIu64
			" task%s listed whose run slices "
			"broken chains end: %s\n",
			unmeasured[0], unmeasured[0] == 1 ? "" : "s", RP_SCHED_RUN_WHY);
	if (unmeasured[1])
		fprintf(f,
			"  run and sched delay: - for the %" PRIu64
			" task%s listed never switched out: %s\n",
			unmeasured[1], unmeasured[1] == 1 ? "" : "s", TS_SCHED_UNSWITCHED_WHY);
}

static void sched_classes(FILE *f, const struct ts_sched_totals *t)
{
	static const char *const names[TS_WAKE_NR] = { "same-CPU idle", "same-CPU busy",
						       "cross-CPU idle", "cross-CPU busy" };
	struct rp_dist d, l;
	uint64_t all = 0;
	int c;

	for (c = 0; c < TS_WAKE_NR; c++)
		all += t->wake_class[c];
	fprintf(f,
		"  wake classes: %" PRIu64 " wakes classified, %" PRIu64 " unclassified, %" PRIu64
		" found the task still running\n",
		all, t->nr_wake_unclassified, t->nr_wake_running);
	fprintf(f, "  %-15s %8s %6s | %-31s | %s\n", "class", "wakes", "share",
		"wake delivery p50/p90/p99/max us", "wakeup latency p50/p90/p99/max us");
	for (c = 0; c < TS_WAKE_NR; c++) {
		rp_dist(&t->class_delivery[c], &d);
		rp_dist(&t->class_wakelat[c], &l);
		fprintf(f, "  %-15s %8" PRIu64 " %5.1f%% |", names[c], t->wake_class[c],
			all ? 100.0 * (double)t->wake_class[c] / (double)all : 0.0);
		rp_cells(f, &d, 7, 0, 4, (const uint64_t[]){ d.p50, d.p90, d.p99, d.max });
		fprintf(f, " |");
		rp_cells(f, &l, 7, 0, 4, (const uint64_t[]){ l.p50, l.p90, l.p99, l.max });
		fprintf(f, "\n");
	}
}

static void sched_totals(FILE *f, const struct ts_sched *m)
{
	const struct ts_sched_totals *t = ts_sched_totals(m);
	const char *wk = ts_sched_wakes_why(m), *off = ts_sched_off_why(m);
	static const char *const names[TS_OFF_NR] = { "off-CPU R (preempted)", "off-CPU S",
						      "off-CPU D", "off-CPU other" };
	int i;

	fprintf(f, "  all tasks: %" PRIu64 " switches, ", t->nr_switches);
	if (wk)
		fprintf(f, "- wakes, - new");
	else
		fprintf(f, "%" PRIu64 " wakes, %" PRIu64 " new", t->nr_wakeups, t->nr_wakeup_new);
	fprintf(f, ", %" PRIu64 " migrations\n", t->nr_migrations);
	if (t->nr_gaps)
		fprintf(f,
			"  LOST: %" PRIu64 " run slices and %" PRIu64
			" off-CPU periods of these tasks held a gap of lost events (%" PRIu64
			" LOST records): left out of run, sched delay (both rules), off-CPU time "
			"and wakeup latency, which cover the rest\n",
			t->nr_lost_slices, t->nr_lost_off, t->nr_gaps);
	rp_dist_head(f, "");
	if (rp_sched_run_measured(m, t->nr_broken)) {
		rp_dist_row(f, "run slice", &t->run);
		rp_dist_row(f, "run-queue delay", &t->delay);
	} else {
		fprintf(f, "  %-22s %9s (%" PRIu64 " slices broken chains end: %s)\n", "run slice",
			"-", t->nr_broken, RP_SCHED_RUN_WHY);
		fprintf(f, "  %-22s %9s\n", "run-queue delay", "-");
	}
	if (wk) {
		fprintf(f, "  %-22s %9s (%s)\n", "wake delivery", "-", wk);
		fprintf(f, "  %-22s %9s\n", "wakeup latency", "-");
	} else {
		rp_dist_row(f, "wake delivery", &t->delivery);
		rp_dist_row(f, "wakeup latency", &t->wakelat);
	}
	for (i = 0; i < TS_OFF_NR; i++) {
		if (off)
			fprintf(f, "  %-22s %9s%s%s%s\n", names[i], "-", i ? "" : " (",
				i ? "" : off, i ? "" : ")");
		else
			rp_dist_row(f, names[i], &t->off[i]);
	}
}

/*
 * Switches whose prev_pid is not the task the CPU's previous switch put on it: in a -a
 * recording, switches missing from the data; in a per-task one, the switches of the tasks it
 * does not follow (a followed task's switch-in happens in another task's context), so that
 * the run slice and sched delay such a switch ends include time the task did not run.
 */
static void broken_chains(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_cpu *c;
	int i;

	for (i = 0; i < ts_sched_nr_cpus(m); i++) {
		c = ts_sched_cpu(m, i);
		if (!c || !c->broken_chains)
			continue;
		if (rp_cpus_measured(o))
			fprintf(f,
				"  DATA: cpu%d: %" PRIu64
				" sched_switch events switch out a task that "
				"no switch put on the CPU: the switches that did are missing "
				"from the data (perf script shows none either), so this CPU's "
				"busy/idle split and the run and wait times around them are "
				"uncertain\n",
				i, c->broken_chains);
		else
			fprintf(f,
				"  DATA: cpu%d: %" PRIu64
				" sched_switch events switch out a task that "
				"no recorded switch put on the CPU: a per-task recording has "
				"no switch of the tasks it does not follow, so the run slices and "
				"sched delays these switches end also hold other tasks' time\n",
				i, c->broken_chains);
	}
}

static void sched_cpus(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_cpu *c;
	int i;

	if (!rp_cpus_measured(o)) {
		fprintf(f,
			"  per-CPU busy and idle time: - (a per-task recording, without -a: what "
			"else ran on the CPUs was not recorded)\n");
		broken_chains(f, m, o);
		return;
	}
	fprintf(f, "  %-5s %11s %11s %6s %9s %9s %9s\n", "cpu", "busy ms", "idle ms", "busy%",
		"switches", "wake-loc", "wake-rem");
	for (i = 0; i < ts_sched_nr_cpus(m); i++) {
		c = ts_sched_cpu(m, i);
		if (!c || !c->seen)
			continue;
		fprintf(f, "  %-5d %11.3f %11.3f %6.1f %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n", i,
			MS(c->busy), MS(c->idle),
			(c->busy + c->idle) ?
				100.0 * (double)c->busy / (double)(c->busy + c->idle) :
				0.0,
			c->nr_switches, c->wakeups_local, c->wakeups_remote);
	}
	broken_chains(f, m, o);
}

/* A kworker class's work functions with their wakes: "wait_rcu_exp_gp 10, vmstat_update 2". */
static void work_list(FILE *f, const struct ts_sched_waker_sum *w, int n, const char *cls,
		      const struct ts_report_opts *o)
{
	char buf[160];
	int i, k = 0;

	for (i = 0; i < n && k < 3; i++)
		if (w[i].work && !strcmp(w[i].cls, cls))
			fprintf(f, "%s%s %" PRIu64, k++ ? ", " : "  ",
				rp_sym(o, w[i].work, buf, sizeof(buf)), w[i].wakes);
}

static void sched_wakers(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	char cb[80]; /* an escaped task name */
	struct ts_sched_waker_sum w[RP_SCHED_WAKERS], bw[RP_SCHED_WAKERS];
	size_t n = ts_sched_nr_tasks(m), *idx, i, nw = ts_sched_nr_waits(m), first, len;
	const struct ts_sched_wait **v;
	uint64_t all = 0;
	int nr, nb, j, k;

	if (rp_sched_no_wakers(m)) {
		fprintf(f, "  woken by: - (%s)\n", rp_sched_no_wakers(m));
		return;
	}
	nr = ts_sched_wakers(m, NULL, NULL, 0, w, RP_SCHED_WAKERS);
	nb = ts_sched_wakers(m, NULL, NULL, 1, bw, RP_SCHED_WAKERS);
	for (j = 0; j < nr; j++)
		all += w[j].wakes;
	fprintf(f,
		"  woken by (sched_waking's waker: a task, or a softirq or hard interrupt on top"
		" of one), %" PRIu64 " wakes:\n",
		all);
	fprintf(f, "  %-16s %9s %6s %9s %12s  %s\n", "class", "wakes", "share", "periods",
		"ended ms", "work functions (kworkers)");
	for (j = 0; j < nr; j++) {
		fprintf(f, "  %-16s %9" PRIu64 " %5.1f%% %9" PRIu64 " %12.3f", w[j].cls, w[j].wakes,
			all ? 100.0 * (double)w[j].wakes / (double)all : 0.0, w[j].periods,
			MS(w[j].ns));
		work_list(f, bw, nb, w[j].cls, o);
		fputc('\n', f);
	}
	idx = rp_rank(n, task_run, m);
	v = idx ? rp_sched_waits_by_task(m) : NULL;
	if (v)
		fprintf(f, "  woken by, per task (top %u by run time):\n", rp_top(o));
	for (i = 0; v && i < n && i < rp_top(o); i++) {
		const struct ts_sched_task *t = ts_sched_task_at(m, idx[i]);

		if (!t->selected)
			break;
		first = rp_sched_task_waits(v, nw, ts_sched_task_waits_pid(t), &len);
		nr = len ? ts_sched_wakers_of(m, v + first, len, 0, w, RP_SCHED_WAKERS) : 0;
		for (j = 0, all = 0; j < nr; j++)
			all += w[j].wakes;
		fprintf(f, "  %16.16s[%d]:", t->comm[0] ? ts_escape(t->comm, cb, sizeof(cb)) : "?",
			t->pid);
		for (j = 0, k = 0; j < nr && k < 4; j++)
			if (w[j].wakes)
				fprintf(f, "%s %s %.1f%%", k++ ? "," : "", w[j].cls,
					100.0 * (double)w[j].wakes / (double)all);
		fprintf(f, "%s\n", k ? "" : " no sched_waking");
	}
	free(v);
	free(idx);
}

static uint64_t stack_total(const void *ctx, size_t i)
{
	return ts_sched_stack_at(ctx, i)->total;
}

/* A per-task recording's stacks have counts, no times: they rank by count. */
static uint64_t stack_count(const void *ctx, size_t i)
{
	return ts_sched_stack_at(ctx, i)->count;
}

/* A time column: "%11.3f" ms, or "-" when @off says off-CPU time is not measured. */
static void stack_ms(FILE *f, uint64_t ns, const char *off)
{
	if (off)
		fprintf(f, " %11s", "-");
	else
		fprintf(f, " %11.3f", MS(ns));
}

/* Stack @si's row: its times, its top task, the class of wakers that ended it most, its frames. */
static void stack_row(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o,
		      const struct ts_sched_wait **v, size_t si)
{
	const struct ts_sched_stack *s = ts_sched_stack_at(m, si);
	const char *off = ts_sched_off_why(m), *comm = ts_sched_comm(m, s->tasks[0].pid);
	struct ts_sched_waker_sum w[RP_SCHED_WAKERS];
	char cb[80]; /* an escaped task name */
	char by[48], buf[160];
	uint64_t all;
	uint32_t j, k;

	if (off) /* a task's share is one of time */
		snprintf(buf, sizeof(buf), "%.16s[%d] -",
			 comm && comm[0] ? ts_escape(comm, cb, sizeof(cb)) : "?", s->tasks[0].pid);
	else
		snprintf(buf, sizeof(buf), "%.16s[%d] %.0f%%",
			 comm && comm[0] ? ts_escape(comm, cb, sizeof(cb)) : "?", s->tasks[0].pid,
			 s->total ? 100.0 * (double)s->tasks[0].ns / (double)s->total : 0.0);
	fprintf(f, " ");
	stack_ms(f, s->total, off);
	fprintf(f, " %8" PRIu64, s->count);
	stack_ms(f, s->by_state[TS_OFF_S], off);
	stack_ms(f, s->by_state[TS_OFF_D], off);
	fprintf(f, "  %-26s", buf);
	if (v && rp_sched_stack_wakers(m, v, si, w, &all) > 0 && all)
		snprintf(by, sizeof(by), "%.16s %.0f%%", w[0].cls,
			 100.0 * (double)w[0].periods / (double)all);
	else
		snprintf(by, sizeof(by), "-");
	fprintf(f, " %-22s", by);
	j = rp_stack_skip(o, s->ips, s->nr_ips);
	for (k = 0; j < s->nr_ips && k < 6; j++, k++)
		fprintf(f, "%s%s", k ? " <- " : " ", rp_sym(o, s->ips[j], buf, sizeof(buf)));
	fprintf(f, "\n");
}

static void sched_stacks(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_wait **v;
	size_t n = ts_sched_nr_stacks(m), *idx, i;
	const char *off = ts_sched_off_why(m);

	if (!n) {
		fprintf(f, "  off-CPU time by kernel stack: no switch-out callchains in this trace"
			   " (record with perf record -g)\n");
		return;
	}
	idx = rp_rank(n, off ? stack_count : stack_total, m);
	if (!idx)
		return;
	v = rp_sched_no_wakers(m) ? NULL : rp_sched_waits_by_stack(m);
	fprintf(f, "  off-CPU time by kernel stack (top %u):\n", rp_top(o));
	if (off)
		fprintf(f, "  (times -: %s; the stacks rank by count)\n", off);
	fprintf(f, "  %11s %8s %11s %11s  %-26s %-22s %s\n", "total ms", "count", "S ms", "D ms",
		"top task (share)", "ended by (share)", "stack");
	for (i = 0; i < n && i < rp_top(o); i++) {
		if (!ts_sched_stack_at(m, idx[i])->count)
			break; /* switch-outs that never ended rank last: nothing measured */
		stack_row(f, m, o, v, idx[i]);
	}
	free(v);
	free(idx);
}

static void sched_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	const struct ts_sched_totals *t = ts_sched_totals(m);

	if (!rp_banner(f, a, TS_SEC_SCHED))
		return;
	if (ts_analysis_has_task_filter(a))
		fprintf(f, "  (whole-trace figures cover the --pid/--comm tasks only)\n");
	sched_tasks(f, m, o);
	sched_totals(f, m);
	if ((ts_analysis_kind_presence(a, TS_EV_WAKING) == TS_PRESENT ||
	     ts_analysis_kind_presence(a, TS_EV_WAKEUP) == TS_PRESENT) &&
	    !ts_sched_wakes_why(m))
		sched_classes(f, t);
	sched_wakers(f, m, o);
	sched_cpus(f, m, o);
	sched_stacks(f, m, o);
	if (t->nr_time_travel)
		fprintf(f,
			"  %" PRIu64
			" sched_wakeup events came after the task was already switched in"
			" (no sched delay from them)\n",
			t->nr_time_travel);
}

const struct rp_writers rp_sched_writers = {
	.text = sched_text,
	.json = rp_sched_json,
	.tsv = rp_sched_tables,
};
