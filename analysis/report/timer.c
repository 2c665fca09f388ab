// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timer section's writers: text, JSON and TSV of expiries by callback and CPU.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"

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
	double span = rp_span_s(a);
	struct rp_dist d;
	char buf[160];
	int c, tick;

	if (!rp_banner(f, a, TS_SEC_TIMER) || !(idx = rp_rank(n, timer_count, m)))
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
		fprintf(f, "  %-36s %7s %9" PRIu64 " ", rp_sym(o, fn->function, buf, sizeof(buf)),
			tick   ? "TICK" :
			fn->hr ? "hrtimer" :
				 "timer",
			fn->nr_expire);
		rp_rate(f, 8, 1, fn->nr_expire, span);
		rp_cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
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
	for (c = 0; c < t->nr_cpu[0] || c < t->nr_cpu[1]; c++) {
		fprintf(f, "%s cpu%d ", c % 8 ? "" : "\n   ", c);
		rp_rate(f, 0, 1,
			(c < t->nr_cpu[0] ? t->per_cpu[0][c] : 0) +
				(c < t->nr_cpu[1] ? t->per_cpu[1][c] : 0),
			span);
	}
	fprintf(f, "\n");
	free(idx);
}

static void timer_json(struct rp_json *w, const struct ts_analysis *a,
		       const struct ts_report_opts *o)
{
	const struct ts_timer *m = ts_analysis_timer(a);
	const struct ts_timer_totals *t = ts_timer_totals(m);
	const struct ts_timer_fn *fn;
	size_t i;
	int tick;

	if (rp_jsection(w, a, TS_SEC_TIMER)) {
		rp_ju64(w, "hrtimer_expiries", t->nr_expire[1]);
		rp_ju64(w, "timer_expiries", t->nr_expire[0]);
		rp_ju64(w, "unmatched_exits", t->unmatched_exits);
		rp_jper_cpu(w, "hrtimer_per_cpu", t->per_cpu[1], t->nr_cpu[1]);
		rp_jper_cpu(w, "timer_per_cpu", t->per_cpu[0], t->nr_cpu[0]);
		rp_jbegin(w, "functions", '[');
		for (i = 0; i < ts_timer_nr_fns(m); i++) {
			fn = ts_timer_fn_at(m, i);
			tick = fn->hr ? rp_is_tick(o, fn->function) : 0;
			rp_jbegin(w, NULL, '{');
			rp_jsym(w, "function", o, fn->function);
			rp_jstr(w, "type", fn->hr ? "hrtimer" : "timer");
			if (tick < 0)
				rp_jnull(w, "tick");
			else
				rp_ju64(w, "tick", (uint64_t)tick);
			rp_ju64(w, "expiries", fn->nr_expire);
			rp_ju64(w, "starts", fn->nr_start);
			rp_jdist(w, "handler", &fn->handler);
			rp_jper_cpu(w, "per_cpu", fn->per_cpu, fn->nr_cpu);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void timer_tsv(struct rp_tsv *t)
{
	const struct ts_timer *m = ts_analysis_timer(t->a);
	static const char *const dists[] = { "handler", NULL };
	FILE *f = rp_tsv_open(t, "timer_functions", "function\ttype\ttick\texpiries\tstarts\tper_s",
			      dists);
	FILE *g =
		rp_tsv_open(t, "timer_cpus", "cpu\thrtimer_expiries\ttimer_expiries\tper_s", NULL);
	const struct ts_timer_totals *k = ts_timer_totals(m);
	const struct ts_timer_fn *x;
	uint64_t h, tm;
	char buf[160];
	size_t i;
	int c, tick, ok = rp_tsv_present(t, TS_SEC_TIMER);

	for (i = 0; f && ok && i < ts_timer_nr_fns(m); i++) {
		x = ts_timer_fn_at(m, i);
		tick = x->hr ? rp_is_tick(t->o, x->function) : 0;
		fprintf(f, "%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t",
			rp_tsv_fn(t, x->function, buf, sizeof(buf)), x->hr ? "hrtimer" : "timer",
			tick < 0 ? "-" :
			tick	 ? "1" :
				   "0",
			x->nr_expire, x->nr_start);
		rp_tsv_rate(f, x->nr_expire, t->span);
		rp_tsv_dist(f, &x->handler);
		fputc('\n', f);
	}
	for (c = 0; g && ok && (c < k->nr_cpu[0] || c < k->nr_cpu[1]); c++) {
		h = c < k->nr_cpu[1] ? k->per_cpu[1][c] : 0;
		tm = c < k->nr_cpu[0] ? k->per_cpu[0][c] : 0;
		if (h || tm) {
			fprintf(g, "%d\t%" PRIu64 "\t%" PRIu64 "\t", c, h, tm);
			rp_tsv_rate(g, h + tm, t->span);
			fputc('\n', g);
		}
	}
	rp_tsv_close(t, f);
	rp_tsv_close(t, g);
}

const struct rp_writers rp_timer_writers = {
	.text = timer_text,
	.json = timer_json,
	.tsv = timer_tsv,
};
