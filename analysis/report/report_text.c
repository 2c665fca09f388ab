// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report: one block per section, each naming the events it needed and lost events in
 * its range. Times are ms for totals and us for latencies, like perf sched latency but tighter.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"

#define MS(ns) ((double)(ns) / 1e6)
#define US(ns) ((double)(ns) / 1e3)

/*
 * @n figures of distribution @d, in us (ms with @ms), each @w wide; "-" when @d holds nothing,
 * because an empty distribution (exits not recorded, no wakeups) is not a zero.
 */
static void cells(FILE *f, const struct rp_dist *d, int w, int ms, int n, const uint64_t *v)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!d->count)
			fprintf(f, " %*s", w, "-");
		else if (ms)
			fprintf(f, " %*.3f", w, MS(v[i]));
		else
			fprintf(f, " %*.1f", w, US(v[i]));
	}
}

static double span_s(const struct ts_analysis *a)
{
	uint64_t first, last;

	ts_analysis_range(a, &first, &last);
	return last > first ? (double)(last - first) / 1e9 : 0;
}

/* Lost events once, as perf counts them, with where the figure comes from. */
static void lost_line(FILE *f, const struct ts_analysis *a, uint64_t lost)
{
	struct ts_lost_detail d;

	ts_analysis_lost_detail(a, &d);
	fprintf(f, "  LOST %" PRIu64 " events (%" PRIu64 " in %" PRIu64 " LOST records", lost,
		d.lost, d.lost_records);
	if (d.lost_samples_records)
		fprintf(f, "; %" PRIu64 " in %" PRIu64 " LOST_SAMPLES records, the same events",
			d.lost_samples, d.lost_samples_records);
	fprintf(f, ")\n");
}

static void header(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_file_info *in = o->info;
	uint64_t first, last, lost, recs;

	ts_analysis_range(a, &first, &last);
	ts_analysis_lost(a, &lost, &recs);
	fprintf(f, "tickscope report: %s\n", o->input ? o->input : "-");
	if (in && in->osrelease[0])
		fprintf(f, "  host %s, kernel %s, %s, %u CPUs online, perf %s\n", in->hostname,
			in->osrelease, in->arch, in->nr_cpus_online, in->version);
	fprintf(f, "  trace %.6f .. %.6f s (%.3f s), symbols: %s", (double)first / 1e9,
		(double)last / 1e9, span_s(a), o->kallsyms ? o->kallsyms : "none (raw addresses)");
	if (o->kallsyms && o->kallsyms_shift)
		fprintf(f, " (another boot: kernel moved %s%#llx, modules unnamed)",
			o->kallsyms_shift < 0 ? "-" : "+",
			(unsigned long long)(o->kallsyms_shift < 0 ? -(uint64_t)o->kallsyms_shift :
								     (uint64_t)o->kallsyms_shift));
	fputc('\n', f);
	if (in && in->cut_at)
		fprintf(f, "  INPUT CUT at offset %#llx, inside a record: the figures cover what came "
			"before\n", (unsigned long long)in->cut_at);
	if (lost)
		lost_line(f, a, lost);
	if (ts_analysis_filtered(a))
		fprintf(f, "  %" PRIu64 " events outside --time/--cpu filters\n",
			ts_analysis_filtered(a));
}

/* The section banner; returns whether the section has data to show. */
static int banner(FILE *f, const struct ts_analysis *a, enum ts_section s)
{
	const struct ts_section_info *in = ts_analysis_section(a, s);
	const uint16_t *kinds;
	const uint8_t *req;
	int i, n = ts_analysis_section_kinds(s, &kinds, &req);
	enum ts_presence p;

	fprintf(f, "\n== %s ==", in->name);
	if (in->presence != TS_PRESENT)
		fprintf(f, " %s", rp_presence(in->presence, 1));
	fprintf(f, "\n  events:");
	for (i = 0; i < n; i++) {
		p = ts_analysis_kind_presence(a, kinds[i]);
		fprintf(f, "%s %s%s", i ? "," : "",
			strchr(ts_analysis_kind_name(kinds[i]), ':') + 1, req[i] ? "*" : "");
		if (p == TS_PRESENT)
			fprintf(f, " %" PRIu64, ts_analysis_kind_count(a, kinds[i]));
		else
			fprintf(f, " (%s)", rp_presence(p, 1));
	}
	fprintf(f, "\n");
	if (in->presence == TS_PRESENT && in->lost)
		fprintf(f, "  WARNING: %" PRIu64 " events lost inside this section's time range\n",
			in->lost);
	return in->presence == TS_PRESENT;
}

static void dist_row(FILE *f, const char *name, const struct ts_hist *h)
{
	struct rp_dist d;

	rp_dist(h, &d);
	if (!d.count) {
		fprintf(f, "  %-22s %9s\n", name, "0");
		return;
	}
	fprintf(f, "  %-22s %9" PRIu64 " %11.3f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", name,
		d.count, MS(d.sum), US(d.min), US(d.p50), US(d.p90), US(d.p99), US(d.p999),
		US(d.max));
}

static void dist_head(FILE *f, const char *what)
{
	fprintf(f, "  %-22s %9s %11s %9s %9s %9s %9s %9s %9s\n", what, "count", "total ms",
		"min us", "p50 us", "p90 us", "p99 us", "p99.9 us", "max us");
}

static uint64_t task_run(const void *ctx, size_t i)
{
	const struct ts_sched_task *t = ts_sched_task_at(ctx, i);

	return t->selected ? t->run.sum + 1 : 0;
}

static void sched_tasks(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	size_t n = ts_sched_nr_tasks(m), *idx = rp_rank(n, task_run, m), i;
	const struct ts_sched_task *t;
	struct rp_dist dl, wl;

	if (!idx)
		return;
	fprintf(f, "  tasks by run time (top %u):\n", rp_top(o));
	fprintf(f, "  %-16s %7s %7s %6s %5s %10s %10s %8s %8s %6s %8s %8s %9s %9s\n", "comm", "tid",
		"sw-in", "invol", "migr", "run ms", "delay ms", "dly p99", "dly max", "wakes",
		"wlat p50", "wlat p99", "off-S ms", "off-D ms");
	for (i = 0; i < n && i < rp_top(o); i++) {
		t = ts_sched_task_at(m, idx[i]);
		if (!t->selected)
			break;
		rp_dist(&t->delay, &dl);
		rp_dist(&t->wakelat, &wl);
		fprintf(f, "  %-16s %7d %7" PRIu64 " %6" PRIu64 " %5" PRIu64 " %10.3f %10.3f",
			t->comm[0] ? t->comm : "?", t->pid, t->nr_switches, t->nr_involuntary,
			t->nr_migrations, MS(t->run.sum), MS(t->delay.sum));
		cells(f, &dl, 8, 0, 2, (const uint64_t[]){ dl.p99, dl.max });
		fprintf(f, " %6" PRIu64, t->nr_wakeups);
		cells(f, &wl, 8, 0, 2, (const uint64_t[]){ wl.p50, wl.p99 });
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
		cells(f, &d, 7, 0, 4, (const uint64_t[]){ d.p50, d.p90, d.p99, d.max });
		fprintf(f, " |");
		cells(f, &l, 7, 0, 4, (const uint64_t[]){ l.p50, l.p90, l.p99, l.max });
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
	dist_head(f, "");
	dist_row(f, "run slice", &t->run);
	dist_row(f, "sched delay", &t->delay);
	dist_row(f, "wake delivery", &t->delivery);
	dist_row(f, "wakeup latency", &t->wakelat);
	for (i = 0; i < TS_OFF_NR; i++)
		dist_row(f, off[i], &t->off[i]);
}

static void sched_cpus(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_cpu *c;
	int i;

	if (!rp_cpus_measured(o)) {
		fprintf(f, "  per-CPU busy and idle time: - (a per-task recording, without -a: what "
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
				"  DATA: cpu%d: %" PRIu64 " sched_switch events switch out a task that "
				"no switch put on the CPU (broken chains in the data)\n",
				i, c->broken_chains);
	}
}

static uint64_t stack_total(const void *ctx, size_t i)
{
	return ts_sched_stack_at(ctx, i)->total;
}

static void sched_stacks(FILE *f, const struct ts_sched *m, const struct ts_report_opts *o)
{
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
	fprintf(f, "  off-CPU time by kernel stack (top %u):\n", rp_top(o));
	fprintf(f, "  %11s %8s %11s %11s  %-26s %s\n", "total ms", "count", "S ms", "D ms",
		"top task (share)", "stack");
	for (i = 0; i < n && i < rp_top(o); i++) {
		const char *comm;

		s = ts_sched_stack_at(m, idx[i]);
		if (!s->count) /* switch-outs that never ended rank last: nothing measured */
			break;
		comm = ts_sched_comm(m, s->tasks[0].pid);
		snprintf(buf, sizeof(buf), "%.16s[%d] %.0f%%", comm && comm[0] ? comm : "?",
			 s->tasks[0].pid,
			 s->total ? 100.0 * (double)s->tasks[0].ns / (double)s->total : 0.0);
		fprintf(f, "  %11.3f %8" PRIu64 " %11.3f %11.3f  %-26s", MS(s->total), s->count,
			MS(s->by_state[TS_OFF_S]), MS(s->by_state[TS_OFF_D]), buf);
		j = rp_stack_skip(o, s->ips, s->nr_ips);
		for (k = 0; j < s->nr_ips && k < 6; j++, k++)
			fprintf(f, "%s%s", k ? " <- " : " ",
				rp_sym(o, s->ips[j], buf, sizeof(buf)));
		fprintf(f, "\n");
	}
	free(idx);
}

static void sched_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	const struct ts_sched_totals *t = ts_sched_totals(m);

	if (!banner(f, a, TS_SEC_SCHED))
		return;
	if (ts_analysis_has_task_filter(a))
		fprintf(f, "  (whole-trace figures cover the --pid/--comm tasks only)\n");
	sched_tasks(f, m, o);
	sched_totals(f, t);
	if (ts_analysis_kind_presence(a, TS_EV_WAKING) == TS_PRESENT ||
	    ts_analysis_kind_presence(a, TS_EV_WAKEUP) == TS_PRESENT)
		sched_classes(f, t);
	sched_cpus(f, m, o);
	sched_stacks(f, m, o);
	if (t->nr_time_travel)
		fprintf(f,
			"  %" PRIu64
			" sched_wakeup events came after the task was already switched in"
			" (no sched delay from them)\n",
			t->nr_time_travel);
}

static void idle_states(FILE *f, const struct ts_idle *m, double span)
{
	const struct ts_idle_cpu *c;
	struct rp_dist d;
	int i, s;

	fprintf(f, "  %-5s %5s %8s %9s %11s %9s %9s %9s\n", "cpu", "state", "periods", "per s",
		"idle ms", "p50 us", "p99 us", "max us");
	for (i = 0; i < ts_idle_nr_cpus(m); i++) {
		c = ts_idle_cpu(m, i);
		for (s = 0; c && s < TS_IDLE_NR_STATES; s++) {
			rp_dist(&c->residency[s], &d);
			if (!d.count)
				continue;
			fprintf(f, "  %-5d %5d %8" PRIu64 " %9.1f %11.3f %9.1f %9.1f %9.1f\n", i, s,
				d.count, span > 0 ? (double)d.count / span : 0.0, MS(d.sum),
				US(d.p50), US(d.p99), US(d.max));
		}
	}
}

/* A count, or "-" when the events that make it were not recorded. */
static const char *count_or_dash(char *buf, size_t len, int traced, uint64_t v)
{
	if (!traced)
		return "-";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static void idle_exits(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const char *const *names = rp_exit_names;
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_totals *t = ts_idle_totals(m), *k = t;
	const struct ts_idle_exit_fn *x;
	int e, known = o->sym != NULL, traced[TS_EXIT_NR];
	char b1[24], b2[24];
	uint64_t tick = 0;
	size_t i;

	for (e = 0; e < TS_EXIT_NR; e++)
		traced[e] = ts_analysis_exit_traced(a, e);
	for (i = 0; i < ts_idle_nr_exit_fns(m, 1); i++) {
		x = ts_idle_exit_fn_at(m, 1, i);
		if (rp_is_tick(o, x->function) == 1)
			tick += x->count;
	}
	fprintf(f, "  idle exits by cause:");
	if (known)
		fprintf(f, " tick %s, other hrtimer %s,",
			count_or_dash(b1, sizeof(b1), traced[TS_EXIT_HRTIMER], tick),
			count_or_dash(b2, sizeof(b2), traced[TS_EXIT_HRTIMER],
				      t->exits[TS_EXIT_HRTIMER] - tick));
	for (e = known ? 1 : 0; e < TS_EXIT_NR; e++)
		fprintf(f, " %s %s%s", names[e],
			count_or_dash(b1, sizeof(b1), traced[e], t->exits[e]),
			e + 1 < TS_EXIT_NR ? "," : "");
	fprintf(f, "\n");
	if (!known)
		fprintf(f, "  (no symbols: the tick cannot be told from other hrtimers)\n");
	if (!traced[TS_EXIT_IPI])
		fprintf(f,
			"  (ipi -: no IPI arrival traced, so IPI exits count as resched or untraced; record\n"
			"   irq_vectors:*_entry on x86 or ipi:ipi_entry on arm64, not the sender's ipi_raise)\n");
	for (e = 0; e < k->nr_other; e++)
		fprintf(f, "%s %s %" PRIu64, e ? "," : "    other/ipi events:", k->other[e].name,
			k->other[e].count);
	if (k->nr_other)
		fprintf(f, "\n");
	fprintf(f, "  per CPU exits (%s", names[0]);
	for (e = 1; e < TS_EXIT_NR; e++)
		fprintf(f, " %s", names[e]);
	fprintf(f, "):");
	for (i = 0; i < (size_t)ts_idle_nr_cpus(m); i++) {
		const struct ts_idle_cpu *c = ts_idle_cpu(m, (int)i);

		if (!c || !c->seen)
			continue;
		fprintf(f, "%s cpu%zu", i % 4 ? "" : "\n   ", i);
		for (e = 0; e < TS_EXIT_NR; e++)
			fprintf(f, " %s", count_or_dash(b1, sizeof(b1), traced[e], c->exits[e]));
	}
	fprintf(f, "\n");
}

static void idle_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_totals *t = ts_idle_totals(m);
	int i;

	if (!banner(f, a, TS_SEC_IDLE))
		return;
	if (ts_analysis_kind_presence(a, TS_EV_CPU_IDLE) == TS_PRESENT) {
		idle_states(f, m, span_s(a));
		idle_exits(f, a, o);
		fprintf(f, "  unmatched exits %" PRIu64 ", still idle at the end %" PRIu64 "\n",
			t->unmatched_exits, t->open_at_end);
	}
	if (ts_analysis_kind_presence(a, TS_EV_TICK_STOP) != TS_PRESENT)
		return;
	fprintf(f, "  tick_stop: %" PRIu64 " stopped, %" PRIu64 " refused:", t->tick_stop_ok,
		t->tick_stop_fail);
	for (i = 0; i < t->nr_deps; i++)
		fprintf(f, "%s %s %" PRIu64, i ? "," : "", t->deps[i].name, t->deps[i].count);
	if (t->deps_other)
		fprintf(f, ", other %" PRIu64, t->deps_other);
	fprintf(f, "\n");
}

static uint64_t timer_count(const void *ctx, size_t i)
{
	return ts_timer_fn_at(ctx, i)->nr_expire;
}

static void timer_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_timer *m = ts_analysis_timer(a);
	const struct ts_timer_totals *t = ts_timer_totals(m);
	size_t n = ts_timer_nr_fns(m), *idx, i;
	const struct ts_timer_fn *fn;
	double span = span_s(a);
	struct rp_dist d;
	char buf[160];
	int c, tick;

	if (!banner(f, a, TS_SEC_TIMER) || !(idx = rp_rank(n, timer_count, m)))
		return;
	fprintf(f,
		"  expiries: %" PRIu64 " hrtimer, %" PRIu64 " timer; unmatched exits %" PRIu64 "\n",
		t->nr_expire[1], t->nr_expire[0], t->unmatched_exits);
	fprintf(f, "  %-36s %7s %9s %8s %9s %9s %9s\n", "callback (top by expiries)", "type",
		"expiries", "per s", "p50 us", "p99 us", "max us");
	for (i = 0; i < n; i++) {
		fn = ts_timer_fn_at(m, idx[i]);
		tick = fn->hr && rp_is_tick(o, fn->function) == 1;
		if (i >= rp_top(o) && !tick && !rp_is_watched(o, fn->function))
			continue;
		if (!fn->nr_expire)
			continue;
		rp_dist(&fn->handler, &d);
		fprintf(f, "  %-36s %7s %9" PRIu64 " %8.1f",
			rp_sym(o, fn->function, buf, sizeof(buf)),
			tick   ? "TICK" :
			fn->hr ? "hrtimer" :
				 "timer",
			fn->nr_expire, span > 0 ? (double)fn->nr_expire / span : 0.0);
		cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
		fprintf(f, "\n");
	}
	for (c = 0; c < 2; c++) {
		const char *type = c ? "hrtimer" : "timer";
		enum ts_presence p;

		p = ts_analysis_kind_presence(a, c ? TS_EV_HRTIMER_EXPIRE_EXIT :
						     TS_EV_TIMER_EXPIRE_EXIT);
		if (t->nr_expire[c] && p != TS_PRESENT)
			fprintf(f, "  %s handler times: %s_expire_exit %s\n", type, type,
				rp_presence(p, 1));
	}
	fprintf(f, "  per CPU expiries/s (hrtimer+timer):");
	for (c = 0; c < t->nr_cpu[0] || c < t->nr_cpu[1]; c++)
		fprintf(f, "%s cpu%d %.1f", c % 8 ? "" : "\n   ", c,
			span > 0 ? (double)((c < t->nr_cpu[0] ? t->per_cpu[0][c] : 0) +
					    (c < t->nr_cpu[1] ? t->per_cpu[1][c] : 0)) /
					   span :
				   0.0);
	fprintf(f, "\n");
	free(idx);
}

static uint64_t wq_total(const void *ctx, size_t i)
{
	return ts_wq_fn_at(ctx, i)->duration.sum + 1;
}

static void wq_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_wq *m = ts_analysis_wq(a);
	size_t n = ts_wq_nr_fns(m), *idx, i;
	const struct ts_wq_fn *fn;
	struct rp_dist d, q;
	char buf[160];
	int c, watched, lat = ts_analysis_kind_presence(a, TS_EV_WQ_QUEUE) == TS_PRESENT;

	if (!banner(f, a, TS_SEC_WQ) || !(idx = rp_rank(n, wq_total, m)))
		return;
	fprintf(f, "  %-34s %8s %10s %9s %9s %9s %9s %9s  %s\n", "work function (top by time)",
		"count", "total ms", "p50 us", "p99 us", "max us", "q-p50 us", "q-p99 us",
		"per CPU");
	for (i = 0; i < n; i++) {
		fn = ts_wq_fn_at(m, idx[i]);
		watched = rp_is_watched(o, fn->function);
		if ((i >= rp_top(o) && !watched) || !fn->nr_exec)
			continue;
		rp_dist(&fn->duration, &d);
		rp_dist(&fn->queue_lat, &q);
		fprintf(f, "%s %-34s %8" PRIu64, watched ? ">" : " ",
			rp_sym(o, fn->function, buf, sizeof(buf)), fn->nr_exec);
		cells(f, &d, 10, 1, 1, &d.sum);
		cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
		cells(f, &q, 9, 0, 2, (const uint64_t[]){ q.p50, q.p99 });
		fprintf(f, " ");
		for (c = 0; c < fn->nr_cpu; c++)
			if (fn->per_cpu[c])
				fprintf(f, " %d:%" PRIu64, c, fn->per_cpu[c]);
		fprintf(f, "\n");
	}
	if (!lat)
		fprintf(f, "  queue latency: workqueue_queue_work not recorded\n");
	fprintf(f, "  ('>' marks watched functions; unmatched ends %" PRIu64 ")\n",
		ts_wq_totals(m)->unmatched_ends);
	free(idx);
}

static void rcu_windows(FILE *f, const struct ts_rcu *m)
{
	const struct ts_rcu_totals *t = ts_rcu_totals(m);
	const struct ts_rcu_cpu *c;
	int i, x;

	dist_head(f, "rcu_utilization window");
	for (x = 0; x < TS_RCU_NR_CTX; x++)
		if (t->window[x].count)
			dist_row(f, ts_rcu_ctx_name(x), &t->window[x]);
	fprintf(f, "  per CPU (count / ms): %s\n", "ctxsw, tick, core, kthread, other");
	for (i = 0; i < ts_rcu_nr_cpus(m); i++) {
		c = ts_rcu_cpu(m, i);
		if (!c || !c->seen)
			continue;
		fprintf(f, "   cpu%-3d", i);
		for (x = 1; x <= TS_RCU_NR_CTX; x++)
			fprintf(f, " %7" PRIu64 " / %8.3f", c->count[x % TS_RCU_NR_CTX],
				MS(c->time[x % TS_RCU_NR_CTX]));
		fprintf(f, "\n");
	}
}

static void rcu_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_rcu *m = ts_analysis_rcu(a);
	const struct ts_rcu_totals *t = ts_rcu_totals(m);
	const struct ts_rcu_cb_fn *cb;
	char buf[160];
	size_t i;
	int k;

	if (!banner(f, a, TS_SEC_RCU))
		return;
	if (ts_analysis_kind_presence(a, TS_EV_RCU_UTIL) == TS_PRESENT)
		rcu_windows(f, m);
	if (ts_analysis_kind_presence(a, TS_EV_RCU_GP) != TS_PRESENT) {
		fprintf(f, "  grace periods: rcu_grace_period %s (needs CONFIG_RCU_TRACE)\n",
			rp_presence(ts_analysis_kind_presence(a, TS_EV_RCU_GP), 1));
	} else {
		dist_head(f, "grace period");
		for (k = 0; k < t->nr_flavors; k++)
			dist_row(f, t->flavors[k].name, &t->flavors[k].gp);
	}
	if (ts_analysis_kind_presence(a, TS_EV_RCU_CB) != TS_PRESENT &&
	    ts_analysis_kind_presence(a, TS_EV_RCU_INVOKE) != TS_PRESENT) {
		fprintf(f, "  callbacks: rcu_callback/rcu_invoke_callback %s\n",
			rp_presence(ts_analysis_kind_presence(a, TS_EV_RCU_CB), 1));
		return;
	}
	fprintf(f, "  callbacks: %" PRIu64 " queued, %" PRIu64 " invoked\n", t->nr_cb_queued,
		t->nr_cb_invoked);
	dist_head(f, "callback queue->invoke");
	for (i = 0; i < ts_rcu_nr_cb_fns(m) && i < rp_top(o); i++) {
		cb = ts_rcu_cb_fn_at(m, i);
		dist_row(f, rp_sym(o, cb->function, buf, sizeof(buf)), &cb->latency);
	}
}

static uint64_t shrink_total(const void *ctx, size_t i)
{
	return ts_shrinker_fn_at(ctx, i)->duration.sum + 1;
}

static void shrinker_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_shrinker *m = ts_analysis_shrinker(a);
	const struct ts_shrink_totals *t = ts_shrinker_totals(m);
	size_t n = ts_shrinker_nr_fns(m), *idx, i;
	const struct ts_shrink_fn *fn;
	struct rp_dist d;
	char buf[160];

	if (!banner(f, a, TS_SEC_SHRINKER) || !(idx = rp_rank(n, shrink_total, m)))
		return;
	fprintf(f, "  %-34s %8s %10s %9s %9s %9s %11s %11s\n", "shrinker (top by time)", "calls",
		"total ms", "p50 us", "p99 us", "max us", "scanned", "freed");
	for (i = 0; i < n && i < rp_top(o); i++) {
		fn = ts_shrinker_fn_at(m, idx[i]);
		rp_dist(&fn->duration, &d);
		fprintf(f, "  %-34s %8" PRIu64, rp_sym(o, fn->function, buf, sizeof(buf)), fn->nr);
		cells(f, &d, 10, 1, 1, &d.sum);
		cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
		fprintf(f, " %11" PRIu64 " %11" PRIu64 "\n", fn->scanned, fn->freed);
	}
	for (i = 0; i < ts_shrinker_nr_tasks(m) && i < rp_top(o); i++) {
		const struct ts_shrink_task *k = ts_shrinker_task_at(m, i);
		const char *comm = ts_sched_comm(ts_analysis_sched(a), k->pid);

		fprintf(f, "%s %s[%d] %" PRIu64 " calls %.3f ms",
			i ? "," : "  by task:", comm && comm[0] ? comm : "?", k->pid, k->calls,
			MS(k->time_ns));
	}
	if (ts_shrinker_nr_tasks(m))
		fprintf(f, "\n");
	fprintf(f,
		"  all: %" PRIu64 " calls, %" PRIu64 " scanned, %" PRIu64
		" freed; unmatched ends %" PRIu64 ", open at end %" PRIu64 "\n",
		t->nr, t->scanned, t->freed, t->unmatched_ends, t->open_at_end);
	free(idx);
}

int ts_report_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	static const struct ts_report_opts none;

	if (!o)
		o = &none;
	header(f, a, o);
	sched_text(f, a, o);
	idle_text(f, a, o);
	timer_text(f, a, o);
	wq_text(f, a, o);
	rcu_text(f, a, o);
	shrinker_text(f, a, o);
	fprintf(f,
		"\n(* marks the events a section needs, - a figure with nothing measured; times: ms"
		" totals, us latencies)\n");
	return ferror(f) ? -EIO : 0;
}
