// SPDX-License-Identifier: GPL-2.0-only
/* The sched section in the JSON report: totals, tasks with their wakers, CPUs and off-CPU stacks. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"

/* "woken_by": per class, wakes, periods ended and their off-CPU time (and work functions). */
static void wakers_json(struct rp_json *w, const struct ts_sched *m,
			const struct ts_sched_wait *const *v, size_t n,
			const struct ts_report_opts *o)
{
	struct ts_sched_waker_sum s[RP_SCHED_WAKERS], bw[RP_SCHED_WAKERS];
	int nr, nb = 0, j, k;

	if (rp_sched_no_wakers(m)) {
		rp_jnull(w, "woken_by");
		return;
	}
	nr = ts_sched_wakers_of(m, v, n, 0, s, RP_SCHED_WAKERS);
	if (o)
		nb = ts_sched_wakers_of(m, v, n, 1, bw, RP_SCHED_WAKERS);
	rp_jbegin(w, "woken_by", '[');
	for (j = 0; j < nr; j++) {
		rp_jbegin(w, NULL, '{');
		rp_jstr(w, "class", s[j].cls);
		rp_ju64(w, "wakes", s[j].wakes);
		rp_ju64(w, "periods", s[j].periods);
		rp_ju64(w, "off_cpu_ns", s[j].ns);
		if (o) {
			rp_jbegin(w, "works", '[');
			for (k = 0; k < nb; k++) {
				if (!bw[k].work || strcmp(bw[k].cls, s[j].cls))
					continue;
				rp_jbegin(w, NULL, '{');
				rp_jsym(w, "function", o, bw[k].work);
				rp_ju64(w, "wakes", bw[k].wakes);
				rp_jend(w, '}');
			}
			rp_jend(w, ']');
		}
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
}

/* "run" and "sched_delay", null when not measured (rp_sched_run_measured()). */
static void run_json(struct rp_json *w, const struct ts_hist *run, const struct ts_hist *delay,
		     int measured)
{
	if (measured) {
		rp_jdist(w, "run", run);
		rp_jdist(w, "sched_delay", delay);
	} else {
		rp_jnull(w, "run");
		rp_jnull(w, "sched_delay");
	}
}

/* A count, null when @why says it is not measured. */
static void wake_count(struct rp_json *w, const char *key, uint64_t v, const char *why)
{
	if (why)
		rp_jnull(w, key);
	else
		rp_ju64(w, key, v);
}

/* A distribution, null when @why says it is not measured. */
static void dist_json(struct rp_json *w, const char *key, const struct ts_hist *h, const char *why)
{
	if (why)
		rp_jnull(w, key);
	else
		rp_jdist(w, key, h);
}

static void task_json(struct rp_json *w, const struct ts_sched *m, const struct ts_sched_task *t,
		      const struct ts_sched_wait **v, const struct ts_report_opts *o)
{
	int run = rp_sched_task_run_measured(m, t);
	const char *wk = ts_sched_wakes_why(m), *offw = ts_sched_off_why(m);
	static const char *const off[TS_OFF_NR] = { "off_cpu_R", "off_cpu_S", "off_cpu_D",
						    "off_cpu_other" };
	static const char *const cls[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };
	int i;

	rp_jbegin(w, NULL, '{');
	rp_ji64(w, "tid", t->pid);
	rp_jstr(w, "comm", t->comm);
	rp_ju64(w, "switches", t->nr_switches);
	rp_ju64(w, "voluntary", t->nr_voluntary);
	rp_ju64(w, "involuntary", t->nr_involuntary);
	rp_ju64(w, "migrations", t->nr_migrations);
	wake_count(w, "wakeups", t->nr_wakeups, wk);
	wake_count(w, "wakeup_new", t->nr_wakeup_new, wk);
	rp_ju64(w, "broken_slices", t->nr_broken);
	if (ts_sched_totals(m)->nr_gaps) { /* only when events were lost */
		rp_ju64(w, "lost_slices", t->nr_lost_slices);
		rp_ju64(w, "lost_off_cpu_periods", t->nr_lost_off);
	}
	if (run) {
		rp_ju64(w, "sched_delay_perf_ns", t->delay_perf);
		rp_ju64(w, "sched_delay_perf_longest_ns", t->delay_perf_max);
	} else {
		rp_jnull(w, "sched_delay_perf_ns");
		rp_jnull(w, "sched_delay_perf_longest_ns");
	}
	if (wk) {
		rp_jnull(w, "wake_classes");
	} else {
		rp_jbegin(w, "wake_classes", '{');
		for (i = 0; i < TS_WAKE_NR; i++)
			rp_ju64(w, cls[i], t->wake_class[i]);
		rp_ju64(w, "unclassified", t->nr_wake_unclassified);
		rp_ju64(w, "running", t->nr_wake_running);
		rp_jend(w, '}');
	}
	run_json(w, t->run, t->delay, run);
	if (run)
		rp_jnull(w, "run_null_reason");
	else
		rp_jstr(w, "run_null_reason", ts_sched_task_run_why(m, t));
	dist_json(w, "wake_delivery", t->delivery, wk);
	dist_json(w, "wakeup_latency", t->wakelat, wk);
	for (i = 0; i < TS_OFF_NR; i++)
		dist_json(w, off[i], t->off[i], offw);
	if (v) {
		size_t len, first = rp_sched_task_waits(v, ts_sched_nr_waits(m),
							ts_sched_task_waits_pid(t), &len);

		wakers_json(w, m, v + first, len, NULL);
	}
	rp_jend(w, '}');
}

static void sched_totals_json(struct rp_json *w, const struct ts_sched *m)
{
	const struct ts_sched_totals *t = ts_sched_totals(m);
	const char *wk = ts_sched_wakes_why(m), *offw = ts_sched_off_why(m);
	static const char *const cls[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };
	int i;

	rp_jbegin(w, "totals", '{');
	rp_ju64(w, "switches", t->nr_switches);
	wake_count(w, "wakeups", t->nr_wakeups, wk);
	wake_count(w, "wakeup_new", t->nr_wakeup_new, wk);
	rp_ju64(w, "migrations", t->nr_migrations);
	rp_ju64(w, "wakes_unclassified", t->nr_wake_unclassified);
	rp_ju64(w, "wakes_running", t->nr_wake_running);
	rp_ju64(w, "time_travel", t->nr_time_travel);
	rp_ju64(w, "broken_slices", t->nr_broken);
	if (t->nr_gaps) { /* only when events were lost */
		rp_ju64(w, "lost_gaps", t->nr_gaps);
		rp_ju64(w, "lost_slices", t->nr_lost_slices);
		rp_ju64(w, "lost_off_cpu_periods", t->nr_lost_off);
	}
	run_json(w, &t->run, &t->delay, rp_sched_run_measured(m, t->nr_broken));
	dist_json(w, "wake_delivery", &t->delivery, wk);
	dist_json(w, "wakeup_latency", &t->wakelat, wk);
	dist_json(w, "off_cpu_R", &t->off[TS_OFF_R], offw);
	dist_json(w, "off_cpu_S", &t->off[TS_OFF_S], offw);
	dist_json(w, "off_cpu_D", &t->off[TS_OFF_D], offw);
	dist_json(w, "off_cpu_other", &t->off[TS_OFF_OTHER], offw);
	rp_jend(w, '}');
	rp_jbegin(w, "wake_classes", '[');
	for (i = 0; i < TS_WAKE_NR; i++) {
		rp_jbegin(w, NULL, '{');
		rp_jstr(w, "class", cls[i]);
		rp_ju64(w, "count", t->wake_class[i]);
		rp_jdist(w, "wake_delivery", &t->class_delivery[i]);
		rp_jdist(w, "wakeup_latency", &t->class_wakelat[i]);
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
}

/* "ended_by": who ended the stack's off-CPU periods, by class, most periods first. */
static void stack_wakers_json(struct rp_json *w, const struct ts_sched *m,
			      const struct ts_sched_wait **v, size_t i)
{
	struct ts_sched_waker_sum s[RP_SCHED_WAKERS];
	uint64_t all;
	int n, k, j, done[RP_SCHED_WAKERS] = { 0 };

	if (!v) {
		rp_jnull(w, "ended_by");
		return;
	}
	n = rp_sched_stack_wakers(m, v, i, s, &all);
	rp_jbegin(w, "ended_by", '[');
	for (k = 0; k < n; k++) {
		int best = -1;

		for (j = 0; j < n; j++)
			if (!done[j] && s[j].periods &&
			    (best < 0 || s[j].periods > s[best].periods))
				best = j;
		if (best < 0)
			break;
		done[best] = 1;
		rp_jbegin(w, NULL, '{');
		rp_jstr(w, "class", s[best].cls);
		rp_ju64(w, "periods", s[best].periods);
		rp_ju64(w, "off_cpu_ns", s[best].ns);
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
}

static void stacks_json(struct rp_json *w, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_wait **v = rp_sched_no_wakers(m) ? NULL : rp_sched_waits_by_stack(m);
	const char *off = ts_sched_off_why(m); /* the counts stay, the times are null */
	const struct ts_sched_stack *s;
	char buf[160];
	size_t i;
	uint32_t j;

	rp_jbegin(w, "offcpu_stacks", '[');
	for (i = 0; i < ts_sched_nr_stacks(m); i++) {
		s = ts_sched_stack_at(m, i);
		if (!s->count) /* switch-outs that never ended: nothing measured */
			continue;
		rp_jbegin(w, NULL, '{');
		rp_ju64(w, "count", s->count);
		if (off) { /* the section's off_cpu_null_reason says why */
			rp_jnull(w, "total_ns");
			rp_jnull(w, "R_ns");
			rp_jnull(w, "S_ns");
			rp_jnull(w, "D_ns");
			rp_jnull(w, "other_ns");
		} else {
			rp_ju64(w, "total_ns", s->total);
			rp_ju64(w, "R_ns", s->by_state[TS_OFF_R]);
			rp_ju64(w, "S_ns", s->by_state[TS_OFF_S]);
			rp_ju64(w, "D_ns", s->by_state[TS_OFF_D]);
			rp_ju64(w, "other_ns", s->by_state[TS_OFF_OTHER]);
		}
		rp_jbegin(w, "tasks", '[');
		for (j = 0; j < TS_STACK_TASKS && s->tasks[j].pid; j++) {
			const char *comm = ts_sched_comm(m, s->tasks[j].pid);

			rp_jbegin(w, NULL, '{');
			rp_ji64(w, "tid", s->tasks[j].pid);
			rp_jstr(w, "comm", comm ? comm : "");
			if (off)
				rp_jnull(w, "ns");
			else
				rp_ju64(w, "ns", s->tasks[j].ns);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
		rp_jbegin(w, "frames", '[');
		for (j = 0; j < s->nr_ips; j++)
			rp_jstr(w, NULL, rp_sym(o, s->ips[j], buf, sizeof(buf)));
		rp_jend(w, ']');
		stack_wakers_json(w, m, v, i);
		rp_jend(w, '}');
	}
	free(v);
	rp_jend(w, ']');
}

/* "cpus", each CPU's row (null: a per-task recording measured no CPU's busy and idle time),
 * then "broken_chains", the CPUs' sum, which a per-task recording has too */
static void cpus_json(struct rp_json *w, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_cpu *c;
	uint64_t chains;
	int k;

	if (rp_cpus_measured(o))
		rp_jbegin(w, "cpus", '[');
	else
		rp_jnull(w, "cpus");
	for (k = 0; rp_cpus_measured(o) && k < ts_sched_nr_cpus(m); k++) {
		c = ts_sched_cpu(m, k);
		if (!c || !c->seen)
			continue;
		rp_jbegin(w, NULL, '{');
		rp_ju64(w, "cpu", (uint64_t)k);
		rp_ju64(w, "busy_ns", c->busy);
		rp_ju64(w, "idle_ns", c->idle);
		rp_ju64(w, "switches", c->nr_switches);
		rp_ju64(w, "wakeups_local", c->wakeups_local);
		rp_ju64(w, "wakeups_remote", c->wakeups_remote);
		rp_ju64(w, "broken_chains", c->broken_chains);
		rp_jend(w, '}');
	}
	if (rp_cpus_measured(o))
		rp_jend(w, ']');
	for (k = 0, chains = 0; k < ts_sched_nr_cpus(m); k++)
		chains += ts_sched_cpu(m, k) ? ts_sched_cpu(m, k)->broken_chains : 0;
	rp_ju64(w, "broken_chains", chains);
}

void rp_sched_json(struct rp_json *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	const struct ts_sched_wait **v = NULL;
	size_t i;

	if (rp_jsection(w, a, TS_SEC_SCHED)) {
		sched_totals_json(w, m);
		if (rp_sched_run_measured(m, ts_sched_totals(m)->nr_broken))
			rp_jnull(w, "run_null_reason");
		else
			rp_jstr(w, "run_null_reason", RP_SCHED_RUN_WHY);
		if (ts_sched_wakes_why(m))
			rp_jstr(w, "wakes_null_reason", ts_sched_wakes_why(m));
		else
			rp_jnull(w, "wakes_null_reason");
		if (ts_sched_off_why(m))
			rp_jstr(w, "off_cpu_null_reason", ts_sched_off_why(m));
		else
			rp_jnull(w, "off_cpu_null_reason");
		v = rp_sched_waits_by_task(m);
		if (v)
			wakers_json(w, m, v, ts_sched_nr_waits(m), o);
		rp_jbegin(w, "tasks", '[');
		for (i = 0; i < ts_sched_nr_tasks(m); i++)
			if (ts_sched_task_at(m, i)->selected)
				task_json(w, m, ts_sched_task_at(m, i), v, o);
		rp_jend(w, ']');
		free(v);
		cpus_json(w, m, o);
		stacks_json(w, m, o);
	}
	rp_jend(w, '}');
}
