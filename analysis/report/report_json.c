// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON report: one document, "schema": "tickscope-report", "version": 1, described in
 * docs/report-json.md. A section without its events carries its status and no figures.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "report_priv.h"

/* A tiny writer: it tracks whether a comma is due at each nesting level. */
struct jw {
	FILE *f;
	int depth;
	unsigned char more[64];
};

static void jstr(struct jw *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', w->f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(w->f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(w->f, "\\u%04x", *p);
		else
			fputc(*p, w->f);
	}
	fputc('"', w->f);
}

/* Start a value: its key when in an object, else the comma an array needs. */
static void value(struct jw *w, const char *k)
{
	if (w->more[w->depth])
		fputc(',', w->f);
	w->more[w->depth] = 1;
	if (k) {
		jstr(w, k);
		fputc(':', w->f);
	}
}

static void begin(struct jw *w, const char *k, char open)
{
	value(w, k);
	fputc(open, w->f);
	if (w->depth < 63)
		w->depth++;
	w->more[w->depth] = 0;
}

static void end(struct jw *w, char close)
{
	fputc(close, w->f);
	w->depth--;
}

static void u64v(struct jw *w, const char *k, uint64_t v)
{
	value(w, k);
	fprintf(w->f, "%" PRIu64, v);
}

static void i64v(struct jw *w, const char *k, int64_t v)
{
	value(w, k);
	fprintf(w->f, "%" PRId64, v);
}

static void dblv(struct jw *w, const char *k, double v)
{
	value(w, k);
	fprintf(w->f, "%.6g", v);
}

static void strv(struct jw *w, const char *k, const char *s)
{
	value(w, k);
	jstr(w, s);
}

static void nullv(struct jw *w, const char *k)
{
	value(w, k);
	fputs("null", w->f);
}

static void dist(struct jw *w, const char *k, const struct ts_hist *h)
{
	static const char *const names[] = { "min_ns", "p50_ns",  "p90_ns",
					     "p99_ns", "p999_ns", "max_ns" };
	struct rp_dist d;
	uint64_t v[6];
	unsigned int i;

	rp_dist(h, &d);
	v[0] = d.min;
	v[1] = d.p50;
	v[2] = d.p90;
	v[3] = d.p99;
	v[4] = d.p999;
	v[5] = d.max;
	begin(w, k, '{');
	u64v(w, "count", d.count);
	u64v(w, "sum_ns", d.sum);
	for (i = 0; i < 6; i++) {
		if (d.count)
			u64v(w, names[i], v[i]);
		else
			nullv(w, names[i]);
	}
	begin(w, "buckets", '[');
	for (i = ts_hist_first(h); i < ts_hist_end(h); i++) {
		if (!ts_hist_get(h, i))
			continue;
		begin(w, NULL, '[');
		u64v(w, NULL, i);
		u64v(w, NULL, ts_hist_get(h, i));
		end(w, ']');
	}
	end(w, ']');
	end(w, '}');
}

static void sym(struct jw *w, const char *k, const struct ts_report_opts *o, uint64_t addr)
{
	char buf[160];
	const char *name = rp_sym_name(o, addr);

	u64v(w, "function_addr", addr);
	if (name)
		strv(w, k, rp_sym(o, addr, buf, sizeof(buf)));
	else
		nullv(w, k);
}

/* The section's status and bookkeeping; returns whether it has figures. */
static int section(struct jw *w, const struct ts_analysis *a, enum ts_section s)
{
	const struct ts_section_info *in = ts_analysis_section(a, s);
	const uint16_t *kinds;
	const uint8_t *req;
	int i, n = ts_analysis_section_kinds(s, &kinds, &req);
	enum ts_presence p;

	begin(w, in->name, '{');
	strv(w, "status", rp_presence(in->presence, 0));
	begin(w, "events", '[');
	for (i = 0; i < n; i++) {
		p = ts_analysis_kind_presence(a, kinds[i]);
		begin(w, NULL, '{');
		strv(w, "name", ts_analysis_kind_name(kinds[i]));
		u64v(w, "required", req[i]);
		strv(w, "status", rp_presence(p, 0));
		u64v(w, "count", ts_analysis_kind_count(a, kinds[i]));
		end(w, '}');
	}
	end(w, ']');
	if (in->presence != TS_PRESENT)
		return 0;
	u64v(w, "first_ns", in->first);
	u64v(w, "last_ns", in->last);
	u64v(w, "lost_events", in->lost);
	u64v(w, "lost_records", in->lost_records);
	return 1;
}

static void task_json(struct jw *w, const struct ts_sched_task *t)
{
	static const char *const off[TS_OFF_NR] = { "off_cpu_R", "off_cpu_S", "off_cpu_D",
						    "off_cpu_other" };
	static const char *const cls[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };
	int i;

	begin(w, NULL, '{');
	i64v(w, "tid", t->pid);
	strv(w, "comm", t->comm);
	u64v(w, "switches", t->nr_switches);
	u64v(w, "voluntary", t->nr_voluntary);
	u64v(w, "involuntary", t->nr_involuntary);
	u64v(w, "migrations", t->nr_migrations);
	u64v(w, "wakeups", t->nr_wakeups);
	u64v(w, "wakeup_new", t->nr_wakeup_new);
	u64v(w, "sched_delay_perf_ns", t->delay_perf);
	begin(w, "wake_classes", '{');
	for (i = 0; i < TS_WAKE_NR; i++)
		u64v(w, cls[i], t->wake_class[i]);
	u64v(w, "unclassified", t->nr_wake_unclassified);
	u64v(w, "running", t->nr_wake_running);
	end(w, '}');
	dist(w, "run", &t->run);
	dist(w, "sched_delay", &t->delay);
	dist(w, "wake_delivery", &t->delivery);
	dist(w, "wakeup_latency", &t->wakelat);
	for (i = 0; i < TS_OFF_NR; i++)
		dist(w, off[i], &t->off[i]);
	end(w, '}');
}

static void sched_totals_json(struct jw *w, const struct ts_sched_totals *t)
{
	static const char *const cls[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };
	int i;

	begin(w, "totals", '{');
	u64v(w, "switches", t->nr_switches);
	u64v(w, "wakeups", t->nr_wakeups);
	u64v(w, "wakeup_new", t->nr_wakeup_new);
	u64v(w, "migrations", t->nr_migrations);
	u64v(w, "wakes_unclassified", t->nr_wake_unclassified);
	u64v(w, "wakes_running", t->nr_wake_running);
	u64v(w, "time_travel", t->nr_time_travel);
	dist(w, "run", &t->run);
	dist(w, "sched_delay", &t->delay);
	dist(w, "wake_delivery", &t->delivery);
	dist(w, "wakeup_latency", &t->wakelat);
	dist(w, "off_cpu_R", &t->off[TS_OFF_R]);
	dist(w, "off_cpu_S", &t->off[TS_OFF_S]);
	dist(w, "off_cpu_D", &t->off[TS_OFF_D]);
	dist(w, "off_cpu_other", &t->off[TS_OFF_OTHER]);
	end(w, '}');
	begin(w, "wake_classes", '[');
	for (i = 0; i < TS_WAKE_NR; i++) {
		begin(w, NULL, '{');
		strv(w, "class", cls[i]);
		u64v(w, "count", t->wake_class[i]);
		dist(w, "wake_delivery", &t->class_delivery[i]);
		dist(w, "wakeup_latency", &t->class_wakelat[i]);
		end(w, '}');
	}
	end(w, ']');
}

static void stacks_json(struct jw *w, const struct ts_sched *m, const struct ts_report_opts *o)
{
	const struct ts_sched_stack *s;
	char buf[160];
	size_t i;
	uint32_t j;

	begin(w, "offcpu_stacks", '[');
	for (i = 0; i < ts_sched_nr_stacks(m); i++) {
		s = ts_sched_stack_at(m, i);
		if (!s->count) /* switch-outs that never ended: nothing measured */
			continue;
		begin(w, NULL, '{');
		u64v(w, "count", s->count);
		u64v(w, "total_ns", s->total);
		u64v(w, "R_ns", s->by_state[TS_OFF_R]);
		u64v(w, "S_ns", s->by_state[TS_OFF_S]);
		u64v(w, "D_ns", s->by_state[TS_OFF_D]);
		u64v(w, "other_ns", s->by_state[TS_OFF_OTHER]);
		begin(w, "tasks", '[');
		for (j = 0; j < TS_STACK_TASKS && s->tasks[j].pid; j++) {
			const char *comm = ts_sched_comm(m, s->tasks[j].pid);

			begin(w, NULL, '{');
			i64v(w, "tid", s->tasks[j].pid);
			strv(w, "comm", comm ? comm : "");
			u64v(w, "ns", s->tasks[j].ns);
			end(w, '}');
		}
		end(w, ']');
		begin(w, "frames", '[');
		for (j = 0; j < s->nr_ips; j++)
			strv(w, NULL, rp_sym(o, s->ips[j], buf, sizeof(buf)));
		end(w, ']');
		end(w, '}');
	}
	end(w, ']');
}

static void sched_json(struct jw *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	const struct ts_sched_cpu *c;
	size_t i;
	int k;

	if (section(w, a, TS_SEC_SCHED)) {
		sched_totals_json(w, ts_sched_totals(m));
		begin(w, "tasks", '[');
		for (i = 0; i < ts_sched_nr_tasks(m); i++)
			if (ts_sched_task_at(m, i)->selected)
				task_json(w, ts_sched_task_at(m, i));
		end(w, ']');
		/* a per-task recording measured no CPU's busy and idle time: null */
		if (rp_cpus_measured(o))
			begin(w, "cpus", '[');
		else
			nullv(w, "cpus");
		for (k = 0; rp_cpus_measured(o) && k < ts_sched_nr_cpus(m); k++) {
			c = ts_sched_cpu(m, k);
			if (!c || !c->seen)
				continue;
			begin(w, NULL, '{');
			u64v(w, "cpu", (uint64_t)k);
			u64v(w, "busy_ns", c->busy);
			u64v(w, "idle_ns", c->idle);
			u64v(w, "switches", c->nr_switches);
			u64v(w, "wakeups_local", c->wakeups_local);
			u64v(w, "wakeups_remote", c->wakeups_remote);
			u64v(w, "broken_chains", c->broken_chains);
			end(w, '}');
		}
		if (rp_cpus_measured(o))
			end(w, ']');
		stacks_json(w, m, o);
	}
	end(w, '}');
}

/* An idle exit count, or null when the events that make it were not recorded. */
static void exit_count(struct jw *w, const struct ts_analysis *a, int e, uint64_t v)
{
	if (ts_analysis_exit_traced(a, e))
		u64v(w, rp_exit_names[e], v);
	else
		nullv(w, rp_exit_names[e]);
}

static void idle_cpus_json(struct jw *w, const struct ts_analysis *a, double span)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_cpu *c;
	int i, s, e;

	begin(w, "cpus", '[');
	for (i = 0; i < ts_idle_nr_cpus(m); i++) {
		c = ts_idle_cpu(m, i);
		if (!c || !c->seen)
			continue;
		begin(w, NULL, '{');
		u64v(w, "cpu", (uint64_t)i);
		begin(w, "states", '[');
		for (s = 0; s < TS_IDLE_NR_STATES; s++) {
			if (!c->residency[s].count)
				continue;
			begin(w, NULL, '{');
			u64v(w, "state", (uint64_t)s);
			dblv(w, "entries_per_s",
			     span > 0 ? (double)c->residency[s].count / span : 0.0);
			dist(w, "residency", &c->residency[s]);
			end(w, '}');
		}
		end(w, ']');
		begin(w, "exits", '{');
		for (e = 0; e < TS_EXIT_NR; e++)
			exit_count(w, a, e, c->exits[e]);
		end(w, '}');
		u64v(w, "tick_stop_ok", c->tick_stop_ok);
		u64v(w, "tick_stop_fail", c->tick_stop_fail);
		end(w, '}');
	}
	end(w, ']');
}

static void idle_exits_json(struct jw *w, const struct ts_analysis *a,
			    const struct ts_report_opts *o)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_totals *t = ts_idle_totals(m);
	const struct ts_idle_exit_fn *x;
	uint64_t tick = 0;
	size_t i;
	int e;

	for (i = 0; i < ts_idle_nr_exit_fns(m, 1); i++) {
		x = ts_idle_exit_fn_at(m, 1, i);
		tick += rp_is_tick(o, x->function) == 1 ? x->count : 0;
	}
	begin(w, "exits", '{');
	for (e = 0; e < TS_EXIT_NR; e++)
		exit_count(w, a, e, t->exits[e]);
	if (o->sym && ts_analysis_exit_traced(a, TS_EXIT_HRTIMER))
		u64v(w, "hrtimer_tick", tick);
	else
		nullv(w, "hrtimer_tick");
	end(w, '}');
	begin(w, "other_events", '{');
	for (e = 0; e < t->nr_other; e++)
		u64v(w, t->other[e].name, t->other[e].count);
	if (t->other_unnamed)
		u64v(w, "(other)", t->other_unnamed);
	end(w, '}');
	begin(w, "exit_functions", '[');
	for (e = 1; e >= 0; e--) {
		for (i = 0; i < ts_idle_nr_exit_fns(m, e); i++) {
			x = ts_idle_exit_fn_at(m, e, i);
			begin(w, NULL, '{');
			strv(w, "type", e ? "hrtimer" : "timer");
			sym(w, "function", o, x->function);
			u64v(w, "count", x->count);
			end(w, '}');
		}
	}
	end(w, ']');
}

static void idle_json(struct jw *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_totals *t = ts_idle_totals(m);
	uint64_t first, last;
	int i;

	ts_analysis_range(a, &first, &last);
	if (section(w, a, TS_SEC_IDLE) &&
	    ts_analysis_kind_presence(a, TS_EV_CPU_IDLE) == TS_PRESENT) {
		idle_cpus_json(w, a, last > first ? (double)(last - first) / 1e9 : 0);
		idle_exits_json(w, a, o);
		u64v(w, "unmatched_exits", t->unmatched_exits);
		u64v(w, "open_at_end", t->open_at_end);
	}
	if (ts_analysis_kind_presence(a, TS_EV_TICK_STOP) == TS_PRESENT) {
		begin(w, "tick_stop", '{');
		u64v(w, "ok", t->tick_stop_ok);
		u64v(w, "fail", t->tick_stop_fail);
		begin(w, "fail_by_dependency", '{');
		for (i = 0; i < t->nr_deps; i++)
			u64v(w, t->deps[i].name, t->deps[i].count);
		if (t->deps_other)
			u64v(w, "(other)", t->deps_other);
		end(w, '}');
		end(w, '}');
	}
	end(w, '}');
}

static void per_cpu(struct jw *w, const char *k, const uint64_t *v, int n)
{
	int i;

	begin(w, k, '{');
	for (i = 0; i < n; i++) {
		char c[16];

		if (!v[i])
			continue;
		snprintf(c, sizeof(c), "%d", i);
		u64v(w, c, v[i]);
	}
	end(w, '}');
}

static void timer_json(struct jw *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_timer *m = ts_analysis_timer(a);
	const struct ts_timer_totals *t = ts_timer_totals(m);
	const struct ts_timer_fn *fn;
	size_t i;
	int tick;

	if (section(w, a, TS_SEC_TIMER)) {
		u64v(w, "hrtimer_expiries", t->nr_expire[1]);
		u64v(w, "timer_expiries", t->nr_expire[0]);
		u64v(w, "unmatched_exits", t->unmatched_exits);
		per_cpu(w, "hrtimer_per_cpu", t->per_cpu[1], t->nr_cpu[1]);
		per_cpu(w, "timer_per_cpu", t->per_cpu[0], t->nr_cpu[0]);
		begin(w, "functions", '[');
		for (i = 0; i < ts_timer_nr_fns(m); i++) {
			fn = ts_timer_fn_at(m, i);
			tick = fn->hr ? rp_is_tick(o, fn->function) : 0;
			begin(w, NULL, '{');
			sym(w, "function", o, fn->function);
			strv(w, "type", fn->hr ? "hrtimer" : "timer");
			if (tick < 0)
				nullv(w, "tick");
			else
				u64v(w, "tick", (uint64_t)tick);
			u64v(w, "expiries", fn->nr_expire);
			u64v(w, "starts", fn->nr_start);
			dist(w, "handler", &fn->handler);
			per_cpu(w, "per_cpu", fn->per_cpu, fn->nr_cpu);
			end(w, '}');
		}
		end(w, ']');
	}
	end(w, '}');
}

static void wq_json(struct jw *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_wq *m = ts_analysis_wq(a);
	const struct ts_wq_totals *t = ts_wq_totals(m);
	const struct ts_wq_fn *fn;
	int lat = ts_analysis_kind_presence(a, TS_EV_WQ_QUEUE) == TS_PRESENT;
	size_t i;

	if (section(w, a, TS_SEC_WQ)) {
		u64v(w, "executions", t->nr_exec);
		u64v(w, "unmatched_ends", t->unmatched_ends);
		u64v(w, "open_at_end", t->open_at_end);
		begin(w, "functions", '[');
		for (i = 0; i < ts_wq_nr_fns(m); i++) {
			fn = ts_wq_fn_at(m, i);
			begin(w, NULL, '{');
			sym(w, "function", o, fn->function);
			u64v(w, "watched", (uint64_t)rp_is_watched(o, fn->function));
			u64v(w, "executions", fn->nr_exec);
			u64v(w, "queued", fn->nr_queued);
			dist(w, "duration", &fn->duration);
			if (lat)
				dist(w, "queue_latency", &fn->queue_lat);
			else
				nullv(w, "queue_latency");
			per_cpu(w, "per_cpu", fn->per_cpu, fn->nr_cpu);
			end(w, '}');
		}
		end(w, ']');
	}
	end(w, '}');
}

static void rcu_json(struct jw *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_rcu *m = ts_analysis_rcu(a);
	const struct ts_rcu_totals *t = ts_rcu_totals(m);
	const struct ts_rcu_cpu *c;
	size_t i;
	int k, x;

	if (section(w, a, TS_SEC_RCU) &&
	    ts_analysis_kind_presence(a, TS_EV_RCU_UTIL) == TS_PRESENT) {
		begin(w, "windows", '[');
		for (x = 0; x < TS_RCU_NR_CTX; x++) {
			begin(w, NULL, '{');
			strv(w, "context", ts_rcu_ctx_name(x));
			dist(w, "duration", &t->window[x]);
			end(w, '}');
		}
		end(w, ']');
		begin(w, "cpus", '[');
		for (k = 0; k < ts_rcu_nr_cpus(m); k++) {
			c = ts_rcu_cpu(m, k);
			if (!c || !c->seen)
				continue;
			begin(w, NULL, '{');
			u64v(w, "cpu", (uint64_t)k);
			for (x = 0; x < TS_RCU_NR_CTX; x++) {
				begin(w, ts_rcu_ctx_name(x), '{');
				u64v(w, "count", c->count[x]);
				u64v(w, "time_ns", c->time[x]);
				end(w, '}');
			}
			end(w, '}');
		}
		end(w, ']');
		u64v(w, "unmatched_ends", t->unmatched_ends);
	}
	if (ts_analysis_kind_presence(a, TS_EV_RCU_GP) == TS_PRESENT) {
		begin(w, "grace_periods", '[');
		for (k = 0; k < t->nr_flavors; k++) {
			begin(w, NULL, '{');
			strv(w, "flavor", t->flavors[k].name);
			u64v(w, "events", t->flavors[k].nr_events);
			dist(w, "duration", &t->flavors[k].gp);
			end(w, '}');
		}
		end(w, ']');
	}
	if (t->nr_cb_queued || t->nr_cb_invoked) {
		begin(w, "callbacks", '[');
		for (i = 0; i < ts_rcu_nr_cb_fns(m); i++) {
			const struct ts_rcu_cb_fn *cb = ts_rcu_cb_fn_at(m, i);

			begin(w, NULL, '{');
			sym(w, "function", o, cb->function);
			u64v(w, "queued", cb->nr_queued);
			u64v(w, "invoked", cb->nr_invoked);
			dist(w, "latency", &cb->latency);
			end(w, '}');
		}
		end(w, ']');
	}
	end(w, '}');
}

static void shrinker_json(struct jw *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_shrinker *m = ts_analysis_shrinker(a);
	const struct ts_shrink_totals *t = ts_shrinker_totals(m);
	const struct ts_shrink_fn *fn;
	size_t i;

	if (section(w, a, TS_SEC_SHRINKER)) {
		u64v(w, "calls", t->nr);
		u64v(w, "scanned", t->scanned);
		u64v(w, "freed", t->freed);
		u64v(w, "unmatched_ends", t->unmatched_ends);
		u64v(w, "open_at_end", t->open_at_end);
		dist(w, "duration", &t->duration);
		begin(w, "functions", '[');
		for (i = 0; i < ts_shrinker_nr_fns(m); i++) {
			fn = ts_shrinker_fn_at(m, i);
			begin(w, NULL, '{');
			sym(w, "function", o, fn->function);
			u64v(w, "calls", fn->nr);
			u64v(w, "scanned", fn->scanned);
			u64v(w, "freed", fn->freed);
			u64v(w, "to_shrink", fn->to_shrink);
			dist(w, "duration", &fn->duration);
			per_cpu(w, "per_cpu", fn->per_cpu, fn->nr_cpu);
			end(w, '}');
		}
		end(w, ']');
		begin(w, "tasks", '[');
		for (i = 0; i < ts_shrinker_nr_tasks(m); i++) {
			const struct ts_shrink_task *k = ts_shrinker_task_at(m, i);
			const char *comm = ts_sched_comm(ts_analysis_sched(a), k->pid);

			begin(w, NULL, '{');
			i64v(w, "tid", k->pid);
			if (comm && comm[0])
				strv(w, "comm", comm);
			else
				nullv(w, "comm");
			u64v(w, "calls", k->calls);
			u64v(w, "time_ns", k->time_ns);
			u64v(w, "freed", k->freed);
			end(w, '}');
		}
		end(w, ']');
	}
	end(w, '}');
}

static void input_json(struct jw *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_file_info *in = o->info;
	uint64_t first, last, lost, recs;

	begin(w, "input", '{');
	strv(w, "path", o->input ? o->input : "");
	if (in) {
		strv(w, "hostname", in->hostname);
		strv(w, "osrelease", in->osrelease);
		strv(w, "arch", in->arch);
		strv(w, "perf_version", in->version);
		u64v(w, "nr_cpus_online", in->nr_cpus_online);
		u64v(w, "samples", in->nr_samples);
		strv(w, "pipe", in->kind == TS_INPUT_PIPE ? "yes" : "no");
		if (in->cut_at)
			u64v(w, "cut_at_offset", in->cut_at);
		else
			nullv(w, "cut_at_offset");
	}
	if (o->kallsyms) {
		strv(w, "kallsyms", o->kallsyms);
		i64v(w, "kallsyms_shift", o->kallsyms_shift);
	} else {
		nullv(w, "kallsyms");
	}
	end(w, '}');
	ts_analysis_range(a, &first, &last);
	ts_analysis_lost(a, &lost, &recs);
	begin(w, "trace", '{');
	u64v(w, "first_ns", first);
	u64v(w, "last_ns", last);
	u64v(w, "duration_ns", last - first);
	u64v(w, "lost_events", lost);
	u64v(w, "lost_records", recs);
	u64v(w, "filtered_events", ts_analysis_filtered(a));
	u64v(w, "task_filter", (uint64_t)ts_analysis_has_task_filter(a));
	end(w, '}');
	begin(w, "histogram", '{');
	u64v(w, "sub_bucket_bits", TS_HIST_SUB_BITS);
	strv(w, "unit", "ns");
	end(w, '}');
}

int ts_report_json(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	static const struct ts_report_opts none;
	struct jw w = { .f = f };

	if (!o)
		o = &none;
	begin(&w, NULL, '{');
	strv(&w, "schema", "tickscope-report");
	u64v(&w, "version", TS_REPORT_JSON_VERSION);
	input_json(&w, a, o);
	begin(&w, "sections", '{');
	sched_json(&w, a, o);
	idle_json(&w, a, o);
	timer_json(&w, a, o);
	wq_json(&w, a, o);
	rcu_json(&w, a, o);
	shrinker_json(&w, a, o);
	end(&w, '}');
	end(&w, '}');
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
