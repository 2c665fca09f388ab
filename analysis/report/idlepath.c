// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle path section's writers: idle-entry and idle-exit times per CPU, wakes of idle CPUs
 * with and without an IPI, tick restarts after idle, and idle exits by a delayed work's timer.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "report_priv.h"
#include "tickscope/idlepath.h"

static const struct ts_idlepath *model(const struct ts_analysis *a)
{
	return ts_analysis_model(a, TS_SEC_IDLEPATH);
}

static uint64_t tick_restarts(const struct ts_idlepath *m, const struct ts_report_opts *o,
			      int *known)
{
	const struct ts_idlepath_fn *f;
	uint64_t n = 0;
	size_t i;
	int t;

	*known = 1;
	for (i = 0; i < ts_idlepath_nr_fns(m, TS_IDLEPATH_RESTARTS); i++) {
		f = ts_idlepath_fn_at(m, TS_IDLEPATH_RESTARTS, i);
		t = rp_is_tick(o, f->function);
		if (t < 0)
			*known = 0;
		n += t > 0 ? f->count : 0;
	}
	return n;
}

static void idlepath_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_idlepath *m = model(a);
	const struct ts_idlepath_totals *t = ts_idlepath_totals(m);
	const struct ts_idlepath_cpu *c;
	const struct ts_idlepath_fn *x;
	struct rp_dist e, d;
	uint64_t restarts;
	char buf[160];
	size_t i;
	int known;

	if (!rp_banner(f, a, TS_SEC_IDLEPATH))
		return;
	rp_dist_head(f, "idle path (us)");
	rp_dist_row(f, "entry: switch->state", &t->entry);
	rp_dist_row(f, "exit: state->switch", &t->exit);
	if (rp_cpus_measured(o)) {
		fprintf(f, "  %-5s %8s %9s %9s %9s %8s %9s %9s %9s %8s\n", "cpu", "entries",
			"p50 us", "p99 us", "max us", "exits", "p50 us", "p99 us", "max us",
			"ipi idle");
		for (int k = 0; k < ts_idlepath_nr_cpus(m); k++) {
			c = ts_idlepath_cpu(m, k);
			if (!c || (!c->entry.count && !c->exit.count))
				continue;
			rp_dist(&c->entry, &e);
			rp_dist(&c->exit, &d);
			fprintf(f, "  %-5d %8" PRIu64, k, e.count);
			rp_cells(f, &e, 9, 0, 3, (const uint64_t[]){ e.p50, e.p99, e.max });
			fprintf(f, " %8" PRIu64, d.count);
			rp_cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
			fprintf(f, " %8" PRIu64 "\n", c->ipi_in_idle);
		}
	}
	restarts = tick_restarts(m, o, &known);
	fprintf(f,
		"  wakes of idle CPUs: %" PRIu64 " without IPI (sched_wake_idle_without_ipi),"
		" %" PRIu64 " IPIs into an idle state, %" PRIu64 " IPIs still entering idle\n",
		t->wake_no_ipi, t->ipi_in_idle, t->ipi_entering);
	fprintf(f, "  switches to idle left again before any idle state: %" PRIu64 "\n",
		t->unentered);
	if (known)
		fprintf(f,
			"  tick: %" PRIu64 " stopped (tick_stop), %" PRIu64
			" restarted after an idle exit\n",
			t->tick_stops, restarts);
	else
		fprintf(f, "  tick: %" PRIu64 " stopped (tick_stop), restarts - (no symbols)\n",
			t->tick_stops);
	for (i = 0; i < ts_idlepath_nr_fns(m, TS_IDLEPATH_DWORK); i++) {
		x = ts_idlepath_fn_at(m, TS_IDLEPATH_DWORK, i);
		fprintf(f, "%s %s %" PRIu64, i ? "," : "  idle exits by a delayed work's timer:",
			rp_sym(o, x->function, buf, sizeof(buf)), x->count);
	}
	if (ts_idlepath_nr_fns(m, TS_IDLEPATH_DWORK))
		fputc('\n', f);
}

static void fn_rows(struct rp_json *w, const char *k, const struct ts_idlepath *m, int tab,
		    const struct ts_report_opts *o)
{
	const struct ts_idlepath_fn *x;
	size_t i;

	rp_jbegin(w, k, '[');
	for (i = 0; i < ts_idlepath_nr_fns(m, tab); i++) {
		x = ts_idlepath_fn_at(m, tab, i);
		rp_jbegin(w, NULL, '{');
		rp_jsym(w, "function", o, x->function);
		rp_ju64(w, "count", x->count);
		rp_jper_cpu(w, "per_cpu", x->per_cpu, x->nr_cpu);
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
}

static void idlepath_json(struct rp_json *w, const struct ts_analysis *a,
			  const struct ts_report_opts *o)
{
	const struct ts_idlepath *m = model(a);
	const struct ts_idlepath_totals *t = ts_idlepath_totals(m);
	const struct ts_idlepath_cpu *c;
	uint64_t restarts;
	int i, known;

	if (rp_jsection(w, a, TS_SEC_IDLEPATH)) {
		rp_jdist(w, "entry", &t->entry);
		rp_jdist(w, "exit", &t->exit);
		rp_ju64(w, "wake_no_ipi", t->wake_no_ipi);
		rp_ju64(w, "ipi_in_idle", t->ipi_in_idle);
		rp_ju64(w, "ipi_entering", t->ipi_entering);
		rp_ju64(w, "unentered", t->unentered);
		rp_ju64(w, "tick_stops", t->tick_stops);
		restarts = tick_restarts(m, o, &known);
		if (known)
			rp_ju64(w, "tick_restarts", restarts);
		else
			rp_jnull(w, "tick_restarts");
		fn_rows(w, "restart_hrtimers", m, TS_IDLEPATH_RESTARTS, o);
		fn_rows(w, "dwork_exits", m, TS_IDLEPATH_DWORK, o);
		rp_jbegin(w, "cpus", '[');
		for (i = 0; rp_cpus_measured(o) && i < ts_idlepath_nr_cpus(m); i++) {
			c = ts_idlepath_cpu(m, i);
			if (!c)
				continue;
			rp_jbegin(w, NULL, '{');
			rp_ji64(w, "cpu", i);
			rp_jdist(w, "entry", &c->entry);
			rp_jdist(w, "exit", &c->exit);
			rp_ju64(w, "ipi_in_idle", c->ipi_in_idle);
			rp_ju64(w, "reenter", c->reenter);
			rp_ju64(w, "unentered", c->unentered);
			rp_ju64(w, "ipi_entering", c->ipi_entering);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void idlepath_tsv(struct rp_tsv *t)
{
	const struct ts_idlepath *m = model(t->a);
	static const char *const dists[] = { "entry", "exit", NULL };
	FILE *f = rp_tsv_open(t, "idlepath_cpus",
			      "cpu\tipi_in_idle\treenter\tunentered\tipi_entering", dists);
	const struct ts_idlepath_cpu *c;

	for (int i = 0; f && rp_tsv_present(t, TS_SEC_IDLEPATH) && rp_cpus_measured(t->o) &&
			i < ts_idlepath_nr_cpus(m);
	     i++) {
		c = ts_idlepath_cpu(m, i);
		if (!c)
			continue;
		fprintf(f, "%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, i, c->ipi_in_idle,
			c->reenter, c->unentered, c->ipi_entering);
		rp_tsv_dist(f, &c->entry);
		rp_tsv_dist(f, &c->exit);
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
}

const struct rp_writers rp_idlepath_writers = {
	.text = idlepath_text,
	.json = idlepath_json,
	.tsv = idlepath_tsv,
};
