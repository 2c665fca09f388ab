// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle section's writers: text, JSON and TSV of idle states, exit causes and tick_stop.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"

/*
 * A CPU the trace covers (sched events on it) that has no cpu_idle period: its idle time by
 * sched_switch, or -1 when it is not such a CPU.
 */
static int64_t idle_unseen(const struct ts_analysis *a, int cpu)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_sched *sm = ts_analysis_sched(a);
	const struct ts_idle_cpu *c = cpu < ts_idle_nr_cpus(m) ? ts_idle_cpu(m, cpu) : NULL;
	const struct ts_sched_cpu *s = cpu < ts_sched_nr_cpus(sm) ? ts_sched_cpu(sm, cpu) : NULL;
	int k;

	if (!s || !s->seen)
		return -1;
	for (k = 0; c && k < TS_IDLE_NR_STATES; k++)
		if (c->residency[k].count)
			return -1;
	return (int64_t)s->idle;
}

static int max_cpus(const struct ts_analysis *a)
{
	int n = ts_idle_nr_cpus(ts_analysis_idle(a)), k = ts_sched_nr_cpus(ts_analysis_sched(a));

	return n > k ? n : k;
}

/* Every CPU the trace covers has a line: those without cpu_idle periods say so. */
static void idle_missing(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	int i;
	int64_t idle;

	for (i = 0; i < max_cpus(a); i++) {
		idle = idle_unseen(a, i);
		if (idle < 0)
			continue;
		fprintf(f, "  %-5d %5s %8s %9s %11s  no cpu_idle period on this CPU", i, "-", "-",
			"-", "-");
		if (rp_cpus_measured(o))
			fprintf(f, " (idle task ran %.3f ms by sched_switch)", MS((uint64_t)idle));
		fputc('\n', f);
	}
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
			fprintf(f, "  %-5d %5d %8" PRIu64 " ", i, s, d.count);
			rp_rate(f, 9, 1, d.count, span);
			fprintf(f, " %11.3f %9.1f %9.1f %9.1f\n", MS(d.sum), US(d.p50), US(d.p99),
				US(d.max));
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
	for (e = 0; e < k->nr_irqs; e++)
		fprintf(f, "%s %s %" PRIu64,
			e ? "," : "    irq exits by interrupt:", k->irqs[e].name, k->irqs[e].count);
	if (k->irqs_other)
		fprintf(f, "%s (other) %" PRIu64,
			k->nr_irqs ? "," : "    irq exits by interrupt:", k->irqs_other);
	if (k->nr_irqs || k->irqs_other)
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
	int idle = ts_analysis_kind_presence(a, TS_EV_CPU_IDLE) == TS_PRESENT;
	int tick = ts_analysis_kind_presence(a, TS_EV_TICK_STOP) == TS_PRESENT;

	if (!rp_banner(f, a, TS_SEC_IDLE))
		return;
	if (!idle && !tick) /* the section has events, but not these two: say so, not nothing */
		fprintf(f, "  no cpu_idle or tick_stop event: no idle period to show\n");
	if (idle) {
		idle_states(f, m, rp_span_s(a));
		idle_missing(f, a, o);
		idle_exits(f, a, o);
		fprintf(f, "  unmatched exits %" PRIu64 ", still idle at the end %" PRIu64 "\n",
			t->unmatched_exits, t->open_at_end);
	}
	if (!tick)
		return;
	fprintf(f, "  tick_stop: %" PRIu64 " stopped, %" PRIu64 " refused", t->tick_stop_ok,
		t->tick_stop_fail);
	/* what kept the tick on: only when a refusal named a dependency */
	for (i = 0; i < t->nr_deps; i++)
		fprintf(f, "%s %s %" PRIu64, i ? "," : " (by dependency:", t->deps[i].name,
			t->deps[i].count);
	if (t->deps_other)
		fprintf(f, "%s other %" PRIu64,
			t->nr_deps ? "," : " (by dependency:", t->deps_other);
	fprintf(f, "%s\n", t->nr_deps || t->deps_other ? ")" : "");
}

/* An idle exit count, or null when the events that make it were not recorded. */
static void exit_count(struct rp_json *w, const struct ts_analysis *a, int e, uint64_t v)
{
	if (ts_analysis_exit_traced(a, e))
		rp_ju64(w, rp_exit_names[e], v);
	else
		rp_jnull(w, rp_exit_names[e]);
}

static void idle_cpus_json(struct rp_json *w, const struct ts_analysis *a, double span)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_cpu *c;
	int i, s, e;

	rp_jbegin(w, "cpus", '[');
	for (i = 0; i < ts_idle_nr_cpus(m); i++) {
		c = ts_idle_cpu(m, i);
		if (!c || !c->seen)
			continue;
		rp_jbegin(w, NULL, '{');
		rp_ju64(w, "cpu", (uint64_t)i);
		rp_jbegin(w, "states", '[');
		for (s = 0; s < TS_IDLE_NR_STATES; s++) {
			if (!c->residency[s].count)
				continue;
			rp_jbegin(w, NULL, '{');
			rp_ju64(w, "state", (uint64_t)s);
			rp_jrate(w, "entries_per_s", c->residency[s].count, span);
			rp_jdist(w, "residency", &c->residency[s]);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
		rp_jbegin(w, "exits", '{');
		for (e = 0; e < TS_EXIT_NR; e++)
			exit_count(w, a, e, c->exits[e]);
		rp_jend(w, '}');
		rp_ju64(w, "tick_stop_ok", c->tick_stop_ok);
		rp_ju64(w, "tick_stop_fail", c->tick_stop_fail);
		rp_jend(w, '}');
	}
	/* CPUs the trace covers without cpu_idle periods: nothing measured, and why */
	for (i = 0; i < max_cpus(a); i++) {
		if (idle_unseen(a, i) < 0)
			continue;
		rp_jbegin(w, NULL, '{');
		rp_ju64(w, "cpu", (uint64_t)i);
		rp_jnull(w, "states");
		rp_jnull(w, "exits");
		rp_jstr(w, "reason", "no cpu_idle period on this CPU");
		rp_ju64(w, "sched_idle_ns", (uint64_t)idle_unseen(a, i));
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
}

static void idle_exits_json(struct rp_json *w, const struct ts_analysis *a,
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
	rp_jbegin(w, "exits", '{');
	for (e = 0; e < TS_EXIT_NR; e++)
		exit_count(w, a, e, t->exits[e]);
	if (o->sym && ts_analysis_exit_traced(a, TS_EXIT_HRTIMER))
		rp_ju64(w, "hrtimer_tick", tick);
	else
		rp_jnull(w, "hrtimer_tick");
	rp_jend(w, '}');
	rp_jbegin(w, "other_events", '{');
	for (e = 0; e < t->nr_other; e++)
		rp_ju64(w, t->other[e].name, t->other[e].count);
	if (t->other_unnamed)
		rp_ju64(w, "(other)", t->other_unnamed);
	rp_jend(w, '}');
	rp_jbegin(w, "irq_exits", '{');
	for (e = 0; e < t->nr_irqs; e++)
		rp_ju64(w, t->irqs[e].name, t->irqs[e].count);
	if (t->irqs_other)
		rp_ju64(w, "(other)", t->irqs_other);
	rp_jend(w, '}');
	rp_jbegin(w, "exit_functions", '[');
	for (e = 1; e >= 0; e--) {
		for (i = 0; i < ts_idle_nr_exit_fns(m, e); i++) {
			x = ts_idle_exit_fn_at(m, e, i);
			rp_jbegin(w, NULL, '{');
			rp_jstr(w, "type", e ? "hrtimer" : "timer");
			rp_jsym(w, "function", o, x->function);
			rp_ju64(w, "count", x->count);
			rp_jend(w, '}');
		}
	}
	rp_jend(w, ']');
}

static void idle_json(struct rp_json *w, const struct ts_analysis *a,
		      const struct ts_report_opts *o)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_totals *t = ts_idle_totals(m);
	uint64_t first, last;
	int i;

	ts_analysis_range(a, &first, &last);
	if (rp_jsection(w, a, TS_SEC_IDLE) &&
	    ts_analysis_kind_presence(a, TS_EV_CPU_IDLE) == TS_PRESENT) {
		idle_cpus_json(w, a, last > first ? (double)(last - first) / 1e9 : 0);
		idle_exits_json(w, a, o);
		rp_ju64(w, "unmatched_exits", t->unmatched_exits);
		rp_ju64(w, "open_at_end", t->open_at_end);
	}
	if (ts_analysis_kind_presence(a, TS_EV_TICK_STOP) == TS_PRESENT) {
		rp_jbegin(w, "tick_stop", '{');
		rp_ju64(w, "ok", t->tick_stop_ok);
		rp_ju64(w, "fail", t->tick_stop_fail);
		rp_jbegin(w, "fail_by_dependency", '{');
		for (i = 0; i < t->nr_deps; i++)
			rp_ju64(w, t->deps[i].name, t->deps[i].count);
		if (t->deps_other)
			rp_ju64(w, "(other)", t->deps_other);
		rp_jend(w, '}');
		rp_jend(w, '}');
	}
	rp_jend(w, '}');
}

static void idle_tsv(struct rp_tsv *t, const struct ts_idle *m)
{
	static const char *const dists[] = { "residency", NULL };
	FILE *f = rp_tsv_open(t, "idle_states", "cpu\tstate\tentries_per_s", dists);
	FILE *g = rp_tsv_open(t, "idle_exits",
			      "cpu\thrtimer\ttimer\twakeup\tresched\tipi\tuntraced\tother\tirq",
			      NULL);
	const struct ts_idle_cpu *c;
	int i, s, e, ok = rp_tsv_kind_present(t, TS_EV_CPU_IDLE);

	for (i = 0; f && g && ok && i < ts_idle_nr_cpus(m); i++) {
		c = ts_idle_cpu(m, i);
		if (!c || !c->seen)
			continue;
		for (s = 0; s < TS_IDLE_NR_STATES; s++) {
			if (!c->residency[s].count)
				continue;
			fprintf(f, "%d\t%d\t", i, s);
			rp_tsv_rate(f, c->residency[s].count, t->span);
			rp_tsv_dist(f, &c->residency[s]);
			fputc('\n', f);
		}
		fprintf(g, "%d", i);
		for (e = 0; e < TS_EXIT_NR; e++) {
			if (ts_analysis_exit_traced(t->a, e))
				fprintf(g, "\t%" PRIu64, c->exits[e]);
			else
				fputs("\t-", g);
		}
		fputc('\n', g);
	}
	rp_tsv_close(t, f);
	rp_tsv_close(t, g);
}

static void idle_fns_tsv(struct rp_tsv *t, const struct ts_idle *m)
{
	FILE *f = rp_tsv_open(t, "idle_exit_functions", "type\tfunction\ttick\tcount", NULL);
	const struct ts_idle_totals *k = ts_idle_totals(m);
	const struct ts_idle_exit_fn *x;
	char buf[160];
	size_t i;
	int hr, tick;

	for (hr = 1; f && rp_tsv_kind_present(t, TS_EV_CPU_IDLE) && hr >= 0; hr--) {
		for (i = 0; i < ts_idle_nr_exit_fns(m, hr); i++) {
			x = ts_idle_exit_fn_at(m, hr, i);
			tick = hr ? rp_is_tick(t->o, x->function) : 0;
			fprintf(f, "%s\t%s\t%s\t%" PRIu64 "\n", hr ? "hrtimer" : "timer",
				rp_tsv_fn(t, x->function, buf, sizeof(buf)),
				tick < 0 ? "-" :
				tick	 ? "1" :
					   "0",
				x->count);
		}
	}
	rp_tsv_close(t, f);
	f = rp_tsv_open(t, "tick_stop", "result\tdependency\tcount", NULL);
	if (f && rp_tsv_kind_present(t, TS_EV_TICK_STOP)) {
		fprintf(f, "ok\t-\t%" PRIu64 "\n", k->tick_stop_ok);
		for (i = 0; i < (size_t)k->nr_deps; i++)
			fprintf(f, "fail\t%s\t%" PRIu64 "\n", k->deps[i].name, k->deps[i].count);
		if (k->deps_other)
			fprintf(f, "fail\t(other)\t%" PRIu64 "\n", k->deps_other);
	}
	rp_tsv_close(t, f);
}

static void idle_tables(struct rp_tsv *t)
{
	idle_tsv(t, ts_analysis_idle(t->a));
	idle_fns_tsv(t, ts_analysis_idle(t->a));
}

const struct rp_writers rp_idle_writers = {
	.text = idle_text,
	.json = idle_json,
	.tsv = idle_tables,
};
