// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RCU section's writers: text, JSON and TSV of rcu_utilization windows, grace periods
 * and callbacks.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"

static void rcu_windows(FILE *f, const struct ts_rcu *m)
{
	const struct ts_rcu_totals *t = ts_rcu_totals(m);
	const struct ts_rcu_cpu *c;
	int i, x;

	rp_dist_head(f, "rcu_utilization window");
	for (x = 0; x < TS_RCU_NR_CTX; x++)
		if (t->window[x].count)
			rp_dist_row(f, ts_rcu_ctx_name(x), &t->window[x]);
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

	if (!rp_banner(f, a, TS_SEC_RCU))
		return;
	if (ts_analysis_kind_presence(a, TS_EV_RCU_UTIL) == TS_PRESENT)
		rcu_windows(f, m);
	if (ts_analysis_kind_presence(a, TS_EV_RCU_GP) != TS_PRESENT) {
		fprintf(f, "  grace periods: rcu_grace_period %s (needs CONFIG_RCU_TRACE)\n",
			rp_presence(ts_analysis_kind_presence(a, TS_EV_RCU_GP), 1));
	} else {
		rp_dist_head(f, "grace period");
		for (k = 0; k < t->nr_flavors; k++)
			rp_dist_row(f, t->flavors[k].name, &t->flavors[k].gp);
	}
	if (ts_analysis_kind_presence(a, TS_EV_RCU_CB) != TS_PRESENT &&
	    ts_analysis_kind_presence(a, TS_EV_RCU_INVOKE) != TS_PRESENT) {
		fprintf(f, "  callbacks: rcu_callback/rcu_invoke_callback %s\n",
			rp_presence(ts_analysis_kind_presence(a, TS_EV_RCU_CB), 1));
		return;
	}
	fprintf(f, "  callbacks: %" PRIu64 " queued, %" PRIu64 " invoked\n", t->nr_cb_queued,
		t->nr_cb_invoked);
	rp_dist_head(f, "callback queue->invoke");
	for (i = 0; i < ts_rcu_nr_cb_fns(m) && i < rp_top(o); i++) {
		cb = ts_rcu_cb_fn_at(m, i);
		rp_dist_row(f, rp_sym(o, cb->function, buf, sizeof(buf)), &cb->latency);
	}
}

/* rcu_utilization's windows: their durations by context, and each CPU's count and time. */
static void windows_json(struct rp_json *w, const struct ts_rcu *m, const struct ts_rcu_totals *t)
{
	const struct ts_rcu_cpu *c;
	int k, x;

	rp_jbegin(w, "windows", '[');
	for (x = 0; x < TS_RCU_NR_CTX; x++) {
		rp_jbegin(w, NULL, '{');
		rp_jstr(w, "context", ts_rcu_ctx_name(x));
		rp_jdist(w, "duration", &t->window[x]);
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
	rp_jbegin(w, "cpus", '[');
	for (k = 0; k < ts_rcu_nr_cpus(m); k++) {
		c = ts_rcu_cpu(m, k);
		if (!c || !c->seen)
			continue;
		rp_jbegin(w, NULL, '{');
		rp_ju64(w, "cpu", (uint64_t)k);
		for (x = 0; x < TS_RCU_NR_CTX; x++) {
			rp_jbegin(w, ts_rcu_ctx_name(x), '{');
			rp_ju64(w, "count", c->count[x]);
			rp_ju64(w, "time_ns", c->time[x]);
			rp_jend(w, '}');
		}
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
	rp_ju64(w, "unmatched_ends", t->unmatched_ends);
}

static void rcu_json(struct rp_json *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_rcu *m = ts_analysis_rcu(a);
	const struct ts_rcu_totals *t = ts_rcu_totals(m);
	size_t i;
	int k;

	if (rp_jsection(w, a, TS_SEC_RCU) &&
	    ts_analysis_kind_presence(a, TS_EV_RCU_UTIL) == TS_PRESENT) {
		windows_json(w, m, t);
	}
	if (ts_analysis_kind_presence(a, TS_EV_RCU_GP) == TS_PRESENT) {
		rp_jbegin(w, "grace_periods", '[');
		for (k = 0; k < t->nr_flavors; k++) {
			rp_jbegin(w, NULL, '{');
			rp_jstr(w, "flavor", t->flavors[k].name);
			rp_ju64(w, "events", t->flavors[k].nr_events);
			rp_jdist(w, "duration", &t->flavors[k].gp);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	if (t->nr_cb_queued || t->nr_cb_invoked) {
		rp_jbegin(w, "callbacks", '[');
		for (i = 0; i < ts_rcu_nr_cb_fns(m); i++) {
			const struct ts_rcu_cb_fn *cb = ts_rcu_cb_fn_at(m, i);

			rp_jbegin(w, NULL, '{');
			rp_jsym(w, "function", o, cb->function);
			rp_ju64(w, "queued", cb->nr_queued);
			rp_ju64(w, "invoked", cb->nr_invoked);
			rp_jdist(w, "latency", &cb->latency);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void rcu_tsv(struct rp_tsv *t)
{
	const struct ts_rcu *m = ts_analysis_rcu(t->a);
	static const char *const dists[] = { "duration", NULL };
	static const char *const lat[] = { "latency", NULL };
	FILE *f = rp_tsv_open(t, "rcu_windows", "cpu\tcontext\tcount\ttime_ns", NULL);
	FILE *g = rp_tsv_open(t, "rcu_gp", "flavor\tevents", dists);
	FILE *h = rp_tsv_open(t, "rcu_callbacks", "function\tqueued\tinvoked", lat);
	const struct ts_rcu_totals *k = ts_rcu_totals(m);
	const struct ts_rcu_cpu *c;
	const struct ts_rcu_cb_fn *cb;
	char buf[160];
	size_t i;
	int n, x;

	for (n = 0; f && rp_tsv_kind_present(t, TS_EV_RCU_UTIL) && n < ts_rcu_nr_cpus(m); n++) {
		c = ts_rcu_cpu(m, n);
		for (x = 0; c && c->seen && x < TS_RCU_NR_CTX; x++)
			fprintf(f, "%d\t%s\t%" PRIu64 "\t%" PRIu64 "\n", n, ts_rcu_ctx_name(x),
				c->count[x], c->time[x]);
	}
	for (n = 0; g && rp_tsv_kind_present(t, TS_EV_RCU_GP) && n < k->nr_flavors; n++) {
		fprintf(g, "%s\t%" PRIu64, k->flavors[n].name, k->flavors[n].nr_events);
		rp_tsv_dist(g, &k->flavors[n].gp);
		fputc('\n', g);
	}
	for (i = 0; h && i < ts_rcu_nr_cb_fns(m); i++) {
		cb = ts_rcu_cb_fn_at(m, i);
		fprintf(h, "%s\t%" PRIu64 "\t%" PRIu64,
			rp_tsv_fn(t, cb->function, buf, sizeof(buf)), cb->nr_queued,
			cb->nr_invoked);
		rp_tsv_dist(h, &cb->latency);
		fputc('\n', h);
	}
	rp_tsv_close(t, f);
	rp_tsv_close(t, g);
	rp_tsv_close(t, h);
}

const struct rp_writers rp_rcu_writers = {
	.text = rcu_text,
	.json = rcu_json,
	.tsv = rcu_tsv,
};
