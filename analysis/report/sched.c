// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched section's writers: text, JSON and TSV of tasks, totals, wake classes, CPUs and
 * off-CPU stacks.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"
#include "tickscope/escape.h"

static uint64_t task_run(const void *ctx, size_t i)
{
	const struct ts_sched_task *t = ts_sched_task_at(ctx, i);

	return t->selected ? t->run.sum + 1 : 0;
}

static void sched_tasks(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	char cb[80]; /* an escaped task name */
	size_t n = ts_sched_nr_tasks(m), *idx = rp_rank(n, task_run, m), i;
	const struct ts_sched_task *t;
	struct rp_dist dl, wl;

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
		rp_dist(&t->delay, &dl);
		rp_dist(&t->wakelat, &wl);
		fprintf(f, "  %-16s %7d %7" PRIu64 " %6" PRIu64 " %5" PRIu64 " %10.3f %10.3f %8.1f",
			t->comm[0] ? ts_escape(t->comm, cb, sizeof(cb)) : "?", t->pid, t->nr_switches, t->nr_involuntary,
			t->nr_migrations, MS(t->run.sum), MS(t->delay_perf),
			(double)t->delay_perf_max / 1e3);
		fprintf(f, " %10.3f", MS(t->delay.sum));
		rp_cells(f, &dl, 8, 0, 1, (const uint64_t[]){ dl.max });
		fprintf(f, " %6" PRIu64, t->nr_wakeups);
		rp_cells(f, &wl, 8, 0, 2, (const uint64_t[]){ wl.p50, wl.p99 });
		fprintf(f, " %9.3f %9.3f\n", MS(t->off[TS_OFF_S].sum), MS(t->off[TS_OFF_D].sum));
	}
	free(idx);
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

static void sched_totals(FILE *f, const struct ts_sched_totals *t)
{
	static const char *const off[TS_OFF_NR] = { "off-CPU R (preempted)", "off-CPU S",
						    "off-CPU D", "off-CPU other" };
	int i;

	fprintf(f,
		"  all tasks: %" PRIu64 " switches, %" PRIu64 " wakes, %" PRIu64 " new, %" PRIu64
		" migrations\n",
		t->nr_switches, t->nr_wakeups, t->nr_wakeup_new, t->nr_migrations);
	rp_dist_head(f, "");
	rp_dist_row(f, "run slice", &t->run);
	rp_dist_row(f, "run-queue delay", &t->delay);
	rp_dist_row(f, "wake delivery", &t->delivery);
	rp_dist_row(f, "wakeup latency", &t->wakelat);
	for (i = 0; i < TS_OFF_NR; i++)
		rp_dist_row(f, off[i], &t->off[i]);
}

static void sched_cpus(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_cpu *c;
	int i;

	if (!rp_cpus_measured(o)) {
		fprintf(f,
			"  per-CPU busy and idle time: - (a per-task recording, without -a: what "
			"else ran on the CPUs was not recorded)\n");
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
	for (i = 0; i < ts_sched_nr_cpus(m); i++) {
		c = ts_sched_cpu(m, i);
		if (c && c->broken_chains)
			fprintf(f,
				"  DATA: cpu%d: %" PRIu64
				" sched_switch events switch out a task that "
				"no switch put on the CPU: the switches that did are missing "
				"from the data (perf script shows none either), so this CPU's "
				"busy/idle split and the run and wait times around them are "
				"uncertain\n",
				i, c->broken_chains);
	}
}

#define WAKERS 16 /* classes listed; the rest are "other" */

static int cmp_wait_pid(const void *a, const void *b)
{
	const struct ts_sched_wait *x = *(const struct ts_sched_wait *const *)a;
	const struct ts_sched_wait *y = *(const struct ts_sched_wait *const *)b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The wait entries sorted by task, so that each task's are one run; NULL on no memory. */
static const struct ts_sched_wait **waits_by_task(const struct ts_sched *m)
{
	size_t n = ts_sched_nr_waits(m), i;
	const struct ts_sched_wait **v = malloc((n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		v[i] = ts_sched_wait_at(m, i);
	qsort(v, n, sizeof(*v), cmp_wait_pid);
	return v;
}

/* The run of @v (sorted, @n entries) that is task @pid's: its first index, @len its length. */
static size_t task_waits(const struct ts_sched_wait **v, size_t n, int32_t pid, size_t *len)
{
	size_t lo = 0, hi = n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && v[end]->pid == pid; end++)
		;
	*len = end - lo;
	return lo;
}

static const char *no_wakers(const struct ts_sched *m)
{
	return ts_sched_waits_recorded(m) ? NULL :
					    "sched:sched_waking not recorded (it names the waker)";
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
	struct ts_sched_waker_sum w[WAKERS], bw[WAKERS];
	size_t n = ts_sched_nr_tasks(m), *idx, i, nw = ts_sched_nr_waits(m), first, len;
	const struct ts_sched_wait **v;
	uint64_t all = 0;
	int nr, nb, j, k;

	if (no_wakers(m)) {
		fprintf(f, "  woken by: - (%s)\n", no_wakers(m));
		return;
	}
	nr = ts_sched_wakers(m, NULL, NULL, 0, w, WAKERS);
	nb = ts_sched_wakers(m, NULL, NULL, 1, bw, WAKERS);
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
	v = idx ? waits_by_task(m) : NULL;
	if (v)
		fprintf(f, "  woken by, per task (top %u by run time):\n", rp_top(o));
	for (i = 0; v && i < n && i < rp_top(o); i++) {
		const struct ts_sched_task *t = ts_sched_task_at(m, idx[i]);

		if (!t->selected)
			break;
		first = task_waits(v, nw, t->pid, &len);
		nr = len ? ts_sched_wakers_of(m, v + first, len, 0, w, WAKERS) : 0;
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

static int cmp_wait_stack(const void *a, const void *b)
{
	const struct ts_sched_wait *x = *(const struct ts_sched_wait *const *)a;
	const struct ts_sched_wait *y = *(const struct ts_sched_wait *const *)b;

	return (x->stack > y->stack) - (x->stack < y->stack);
}

/* The wait entries sorted by stack (each stack's are one run); NULL on no memory. */
static const struct ts_sched_wait **waits_by_stack(const struct ts_sched *m)
{
	const struct ts_sched_wait **v = waits_by_task(m);

	if (v)
		qsort(v, ts_sched_nr_waits(m), sizeof(*v), cmp_wait_stack);
	return v;
}

/*
 * Who ended the off-CPU periods of stack @i (0-based), from @v sorted by stack: the classes,
 * the one that ended the most periods first; @all gets the periods. Return: how many.
 */
static int stack_wakers(const struct ts_sched *m, const struct ts_sched_wait **v, size_t i,
			struct ts_sched_waker_sum *w, uint64_t *all)
{
	size_t n = ts_sched_nr_waits(m), lo = 0, hi = n, end;
	uint32_t id = (uint32_t)i + 1;
	int nr, k, best = 0;

	*all = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid]->stack < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && v[end]->stack == id; end++)
		;
	nr = end > lo ? ts_sched_wakers_of(m, v + lo, end - lo, 0, w, WAKERS) : 0;
	for (k = 0; k < nr; k++) {
		*all += w[k].periods;
		if (w[k].periods > w[best].periods)
			best = k;
	}
	if (nr > 0 && best) { /* by periods, not wakes: the waits this stack ended */
		struct ts_sched_waker_sum t = w[0];

		w[0] = w[best];
		w[best] = t;
	}
	return nr;
}

static void sched_stacks(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	char cb[80]; /* an escaped task name */
	struct ts_sched_waker_sum w[WAKERS];
	const struct ts_sched_wait **v;
	uint64_t all;
	char by[48];
	size_t n = ts_sched_nr_stacks(m), *idx, i;
	const struct ts_sched_stack *s;
	uint32_t j, k;
	char buf[160];

	if (!n) {
		fprintf(f, "  off-CPU time by kernel stack: no switch-out callchains in this trace"
			   " (record with perf record -g)\n");
		return;
	}
	idx = rp_rank(n, stack_total, m);
	if (!idx)
		return;
	v = no_wakers(m) ? NULL : waits_by_stack(m);
	fprintf(f, "  off-CPU time by kernel stack (top %u):\n", rp_top(o));
	fprintf(f, "  %11s %8s %11s %11s  %-26s %-22s %s\n", "total ms", "count", "S ms", "D ms",
		"top task (share)", "ended by (share)", "stack");
	for (i = 0; i < n && i < rp_top(o); i++) {
		const char *comm;

		s = ts_sched_stack_at(m, idx[i]);
		if (!s->count) /* switch-outs that never ended rank last: nothing measured */
			break;
		comm = ts_sched_comm(m, s->tasks[0].pid);
		snprintf(buf, sizeof(buf), "%.16s[%d] %.0f%%",
			 comm && comm[0] ? ts_escape(comm, cb, sizeof(cb)) : "?",
			 s->tasks[0].pid,
			 s->total ? 100.0 * (double)s->tasks[0].ns / (double)s->total : 0.0);
		fprintf(f, "  %11.3f %8" PRIu64 " %11.3f %11.3f  %-26s", MS(s->total), s->count,
			MS(s->by_state[TS_OFF_S]), MS(s->by_state[TS_OFF_D]), buf);
		if (v && stack_wakers(m, v, idx[i], w, &all) > 0 && all)
			snprintf(by, sizeof(by), "%.16s %.0f%%", w[0].cls,
				 100.0 * (double)w[0].periods / (double)all);
		else
			snprintf(by, sizeof(by), "-");
		fprintf(f, " %-22s", by);
		j = rp_stack_skip(o, s->ips, s->nr_ips);
		for (k = 0; j < s->nr_ips && k < 6; j++, k++)
			fprintf(f, "%s%s", k ? " <- " : " ",
				rp_sym(o, s->ips[j], buf, sizeof(buf)));
		fprintf(f, "\n");
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
	sched_totals(f, t);
	if (ts_analysis_kind_presence(a, TS_EV_WAKING) == TS_PRESENT ||
	    ts_analysis_kind_presence(a, TS_EV_WAKEUP) == TS_PRESENT)
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

/* "woken_by": per class, wakes, periods ended and their off-CPU time (and work functions). */
static void wakers_json(struct rp_json *w, const struct ts_sched *m,
			const struct ts_sched_wait *const *v, size_t n,
			const struct ts_report_opts *o)
{
	struct ts_sched_waker_sum s[WAKERS], bw[WAKERS];
	int nr, nb = 0, j, k;

	if (no_wakers(m)) {
		rp_jnull(w, "woken_by");
		return;
	}
	nr = ts_sched_wakers_of(m, v, n, 0, s, WAKERS);
	if (o)
		nb = ts_sched_wakers_of(m, v, n, 1, bw, WAKERS);
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

static void task_json(struct rp_json *w, const struct ts_sched *m, const struct ts_sched_task *t,
		      const struct ts_sched_wait **v)
{
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
	rp_ju64(w, "wakeups", t->nr_wakeups);
	rp_ju64(w, "wakeup_new", t->nr_wakeup_new);
	rp_ju64(w, "sched_delay_perf_ns", t->delay_perf);
	rp_ju64(w, "sched_delay_perf_longest_ns", t->delay_perf_max);
	rp_jbegin(w, "wake_classes", '{');
	for (i = 0; i < TS_WAKE_NR; i++)
		rp_ju64(w, cls[i], t->wake_class[i]);
	rp_ju64(w, "unclassified", t->nr_wake_unclassified);
	rp_ju64(w, "running", t->nr_wake_running);
	rp_jend(w, '}');
	rp_jdist(w, "run", &t->run);
	rp_jdist(w, "sched_delay", &t->delay);
	rp_jdist(w, "wake_delivery", &t->delivery);
	rp_jdist(w, "wakeup_latency", &t->wakelat);
	for (i = 0; i < TS_OFF_NR; i++)
		rp_jdist(w, off[i], &t->off[i]);
	if (v) {
		size_t len, first = task_waits(v, ts_sched_nr_waits(m), t->pid, &len);

		wakers_json(w, m, v + first, len, NULL);
	}
	rp_jend(w, '}');
}

static void sched_totals_json(struct rp_json *w, const struct ts_sched_totals *t)
{
	static const char *const cls[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };
	int i;

	rp_jbegin(w, "totals", '{');
	rp_ju64(w, "switches", t->nr_switches);
	rp_ju64(w, "wakeups", t->nr_wakeups);
	rp_ju64(w, "wakeup_new", t->nr_wakeup_new);
	rp_ju64(w, "migrations", t->nr_migrations);
	rp_ju64(w, "wakes_unclassified", t->nr_wake_unclassified);
	rp_ju64(w, "wakes_running", t->nr_wake_running);
	rp_ju64(w, "time_travel", t->nr_time_travel);
	rp_jdist(w, "run", &t->run);
	rp_jdist(w, "sched_delay", &t->delay);
	rp_jdist(w, "wake_delivery", &t->delivery);
	rp_jdist(w, "wakeup_latency", &t->wakelat);
	rp_jdist(w, "off_cpu_R", &t->off[TS_OFF_R]);
	rp_jdist(w, "off_cpu_S", &t->off[TS_OFF_S]);
	rp_jdist(w, "off_cpu_D", &t->off[TS_OFF_D]);
	rp_jdist(w, "off_cpu_other", &t->off[TS_OFF_OTHER]);
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
	struct ts_sched_waker_sum s[WAKERS];
	uint64_t all;
	int n, k, j, done[WAKERS] = { 0 };

	if (!v) {
		rp_jnull(w, "ended_by");
		return;
	}
	n = stack_wakers(m, v, i, s, &all);
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
	const struct ts_sched_wait **v = no_wakers(m) ? NULL : waits_by_stack(m);
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
		rp_ju64(w, "total_ns", s->total);
		rp_ju64(w, "R_ns", s->by_state[TS_OFF_R]);
		rp_ju64(w, "S_ns", s->by_state[TS_OFF_S]);
		rp_ju64(w, "D_ns", s->by_state[TS_OFF_D]);
		rp_ju64(w, "other_ns", s->by_state[TS_OFF_OTHER]);
		rp_jbegin(w, "tasks", '[');
		for (j = 0; j < TS_STACK_TASKS && s->tasks[j].pid; j++) {
			const char *comm = ts_sched_comm(m, s->tasks[j].pid);

			rp_jbegin(w, NULL, '{');
			rp_ji64(w, "tid", s->tasks[j].pid);
			rp_jstr(w, "comm", comm ? comm : "");
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

static void sched_json(struct rp_json *w, const struct ts_analysis *a,
		       const struct ts_report_opts *o)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	const struct ts_sched_wait **v = NULL;
	const struct ts_sched_cpu *c;
	size_t i;
	int k;

	if (rp_jsection(w, a, TS_SEC_SCHED)) {
		sched_totals_json(w, ts_sched_totals(m));
		v = waits_by_task(m);
		if (v)
			wakers_json(w, m, v, ts_sched_nr_waits(m), o);
		rp_jbegin(w, "tasks", '[');
		for (i = 0; i < ts_sched_nr_tasks(m); i++)
			if (ts_sched_task_at(m, i)->selected)
				task_json(w, m, ts_sched_task_at(m, i), v);
		rp_jend(w, ']');
		free(v);
		/* a per-task recording measured no CPU's busy and idle time: null */
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
		stacks_json(w, m, o);
	}
	rp_jend(w, '}');
}

static void sched_tasks_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	char cb[80]; /* an escaped task name */
	static const char *const dists[] = {
		"run",	     "sched_delay", "wake_delivery", "wakeup_latency",
		"off_cpu_R", "off_cpu_S",   "off_cpu_D",     "off_cpu_other",
		NULL
	};
	FILE *f = rp_tsv_open(t, "sched_tasks",
			      "tid\tcomm\tswitches\tvoluntary\tinvoluntary\tmigrations\twakeups\t"
			      "wakeup_new\tsched_delay_perf_ns\tsched_delay_perf_longest_ns\t"
			      "wake_same_cpu_idle\t"
			      "wake_same_cpu_busy\twake_cross_cpu_idle\twake_cross_cpu_busy\t"
			      "wake_unclassified",
			      dists);
	const struct ts_sched_task *k;
	size_t i;
	int j;

	for (i = 0; f && rp_tsv_present(t, TS_SEC_SCHED) && i < ts_sched_nr_tasks(m); i++) {
		k = ts_sched_task_at(m, i);
		if (!k->selected)
			continue;
		fprintf(f,
			"%d\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64,
			k->pid, k->comm[0] ? ts_escape(k->comm, cb, sizeof(cb)) : "-",
			k->nr_switches, k->nr_voluntary, k->nr_involuntary, k->nr_migrations,
			k->nr_wakeups, k->nr_wakeup_new, k->delay_perf, k->delay_perf_max);
		for (j = 0; j < TS_WAKE_NR; j++)
			fprintf(f, "\t%" PRIu64, k->wake_class[j]);
		fprintf(f, "\t%" PRIu64, k->nr_wake_unclassified);
		rp_tsv_dist(f, &k->run);
		rp_tsv_dist(f, &k->delay);
		rp_tsv_dist(f, &k->delivery);
		rp_tsv_dist(f, &k->wakelat);
		for (j = 0; j < TS_OFF_NR; j++)
			rp_tsv_dist(f, &k->off[j]);
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
}

static const char *const class_names[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };

static void sched_cpus_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	FILE *f = rp_tsv_open(t, "sched_cpus",
			      "cpu\tbusy_ns\tidle_ns\tswitches\twakeups_local\twakeups_remote\t"
			      "broken_chains",
			      NULL);
	const struct ts_sched_cpu *c;
	int i;

	/* a per-task recording measured no CPU's busy and idle time: no rows */
	for (i = 0; f && rp_tsv_present(t, TS_SEC_SCHED) && rp_cpus_measured(t->o) &&
		    i < ts_sched_nr_cpus(m);
	     i++) {
		c = ts_sched_cpu(m, i);
		if (c && c->seen)
			fprintf(f,
				"%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
				"\t%" PRIu64 "\n",
				i, c->busy, c->idle, c->nr_switches, c->wakeups_local,
				c->wakeups_remote, c->broken_chains);
	}
	rp_tsv_close(t, f);
}

static void sched_classes_tsv(struct rp_tsv *t, const struct ts_sched_totals *k)
{
	static const char *const dists[] = { "wake_delivery", "wakeup_latency", NULL };
	FILE *f = rp_tsv_open(t, "sched_wake_classes", "class\tcount", dists);
	int c, ok = rp_tsv_present(t, TS_SEC_SCHED) &&
		    (rp_tsv_kind_present(t, TS_EV_WAKING) || rp_tsv_kind_present(t, TS_EV_WAKEUP));

	for (c = 0; f && ok && c < TS_WAKE_NR; c++) {
		fprintf(f, "%s\t%" PRIu64, class_names[c], k->wake_class[c]);
		rp_tsv_dist(f, &k->class_delivery[c]);
		rp_tsv_dist(f, &k->class_wakelat[c]);
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
}

static void hist_rows(FILE *f, const char *dist, const char *cls, const struct ts_hist *h)
{
	unsigned int i;

	for (i = ts_hist_first(h); i < ts_hist_end(h); i++)
		if (ts_hist_get(h, i))
			fprintf(f, "%s\t%s\t%u\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", dist, cls,
				i, ts_hist_bucket_low(i), ts_hist_bucket_width(i),
				ts_hist_get(h, i));
}

static void sched_hist_tsv(struct rp_tsv *t, const struct ts_sched_totals *k)
{
	FILE *f =
		rp_tsv_open(t, "sched_hist", "dist\tclass\tbucket\tlow_ns\twidth_ns\tcount", NULL);
	int c;

	if (!f || !rp_tsv_present(t, TS_SEC_SCHED)) {
		rp_tsv_close(t, f);
		return;
	}
	hist_rows(f, "run", "all", &k->run);
	hist_rows(f, "sched_delay", "all", &k->delay);
	hist_rows(f, "wake_delivery", "all", &k->delivery);
	hist_rows(f, "wakeup_latency", "all", &k->wakelat);
	for (c = 0; c < TS_WAKE_NR; c++) {
		hist_rows(f, "wake_delivery", class_names[c], &k->class_delivery[c]);
		hist_rows(f, "wakeup_latency", class_names[c], &k->class_wakelat[c]);
	}
	rp_tsv_close(t, f);
}

static void sched_stacks_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	FILE *f = rp_tsv_open(
		t, "sched_offcpu_stacks",
		"stack_id\ttotal_ns\tcount\tR_ns\tS_ns\tD_ns\tother_ns\ttop_tasks\tframes", NULL);
	const struct ts_sched_stack *s;
	char buf[160];
	size_t i;
	uint32_t j;

	for (i = 0; f && rp_tsv_present(t, TS_SEC_SCHED) && i < ts_sched_nr_stacks(m); i++) {
		s = ts_sched_stack_at(m, i);
		if (!s->count) /* switch-outs that never ended: nothing measured */
			continue;
		fprintf(f,
			"%zu\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			"\t%" PRIu64 "\t",
			i, s->total, s->count, s->by_state[0], s->by_state[1], s->by_state[2],
			s->by_state[3]);
		for (j = 0; j < TS_STACK_TASKS && s->tasks[j].pid; j++)
			fprintf(f, "%s%d:%" PRIu64, j ? ";" : "", s->tasks[j].pid, s->tasks[j].ns);
		fprintf(f, "%s\t", s->tasks[0].pid ? "" : "-");
		for (j = rp_stack_skip(t->o, s->ips, s->nr_ips); j < s->nr_ips; j++)
			fprintf(f, "%s%s", rp_tsv_fn(t, s->ips[j], buf, sizeof(buf)),
				j + 1 < s->nr_ips ? ";" : "");
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
}

static void sched_woken_by_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	char cb[80]; /* an escaped task name */
	FILE *f = rp_tsv_open(t, "sched_woken_by",
			      "tid\tcomm\tclass\tfunction\twakes\tperiods\toff_cpu_ns", NULL);
	const struct ts_sched_wait **v =
		f && rp_tsv_present(t, TS_SEC_SCHED) && !no_wakers(m) ? waits_by_task(m) : NULL;
	struct ts_sched_waker_sum w[WAKERS];
	size_t n = ts_sched_nr_waits(m), i, len;
	char buf[160];
	int nr, j;

	for (i = 0; v && i < n; i += len) {
		const char *comm = ts_sched_comm(m, v[i]->pid);

		task_waits(v, n, v[i]->pid, &len);
		nr = ts_sched_wakers_of(m, v + i, len, 1, w, WAKERS);
		for (j = 0; j < nr; j++)
			fprintf(f, "%d\t%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
				v[i]->pid, comm && comm[0] ? ts_escape(comm, cb, sizeof(cb)) : "-",
				w[j].cls,
				w[j].work ? rp_tsv_fn(t, w[j].work, buf, sizeof(buf)) : "-",
				w[j].wakes, w[j].periods, w[j].ns);
	}
	free(v);
	rp_tsv_close(t, f);
}

static void sched_tables(struct rp_tsv *t)
{
	sched_tasks_tsv(t, ts_analysis_sched(t->a));
	sched_cpus_tsv(t, ts_analysis_sched(t->a));
	sched_classes_tsv(t, ts_sched_totals(ts_analysis_sched(t->a)));
	sched_hist_tsv(t, ts_sched_totals(ts_analysis_sched(t->a)));
	sched_stacks_tsv(t, ts_analysis_sched(t->a));
	sched_woken_by_tsv(t, ts_analysis_sched(t->a));
}

const struct rp_writers rp_sched_writers = {
	.text = sched_text,
	.json = sched_json,
	.tsv = sched_tables,
};
