// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workqueue section's writers: text, JSON and TSV of work items by function.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"

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

	if (!rp_banner(f, a, TS_SEC_WQ) || !(idx = rp_rank(n, wq_total, m)))
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
		rp_cells(f, &d, 10, 1, 1, &d.sum);
		rp_cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
		rp_cells(f, &q, 9, 0, 2, (const uint64_t[]){ q.p50, q.p99 });
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

static void wq_json(struct rp_json *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_wq *m = ts_analysis_wq(a);
	const struct ts_wq_totals *t = ts_wq_totals(m);
	const struct ts_wq_fn *fn;
	int lat = ts_analysis_kind_presence(a, TS_EV_WQ_QUEUE) == TS_PRESENT;
	size_t i;

	if (rp_jsection(w, a, TS_SEC_WQ)) {
		rp_ju64(w, "executions", t->nr_exec);
		rp_ju64(w, "unmatched_ends", t->unmatched_ends);
		rp_ju64(w, "open_at_end", t->open_at_end);
		rp_jbegin(w, "functions", '[');
		for (i = 0; i < ts_wq_nr_fns(m); i++) {
			fn = ts_wq_fn_at(m, i);
			rp_jbegin(w, NULL, '{');
			rp_jsym(w, "function", o, fn->function);
			rp_ju64(w, "watched", (uint64_t)rp_is_watched(o, fn->function));
			rp_ju64(w, "executions", fn->nr_exec);
			rp_ju64(w, "queued", fn->nr_queued);
			rp_jdist(w, "duration", &fn->duration);
			if (lat)
				rp_jdist(w, "queue_latency", &fn->queue_lat);
			else
				rp_jnull(w, "queue_latency");
			rp_jper_cpu(w, "per_cpu", fn->per_cpu, fn->nr_cpu);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void wq_tsv(struct rp_tsv *t)
{
	const struct ts_wq *m = ts_analysis_wq(t->a);
	static const char *const dists[] = { "duration", "queue_latency", NULL };
	FILE *f = rp_tsv_open(t, "wq_functions", "function\twatched\texecutions\tqueued", dists);
	FILE *g = rp_tsv_open(t, "wq_cpus", "function\tcpu\texecutions", NULL);
	const struct ts_wq_fn *x;
	const char *name;
	char buf[160];
	size_t i;
	int c, ok = rp_tsv_present(t, TS_SEC_WQ);

	for (i = 0; f && g && ok && i < ts_wq_nr_fns(m); i++) {
		x = ts_wq_fn_at(m, i);
		name = rp_tsv_fn(t, x->function, buf, sizeof(buf));
		fprintf(f, "%s\t%d\t%" PRIu64 "\t%" PRIu64, name, rp_is_watched(t->o, x->function),
			x->nr_exec, x->nr_queued);
		rp_tsv_dist(f, &x->duration);
		if (rp_tsv_kind_present(t, TS_EV_WQ_QUEUE))
			rp_tsv_dist(f, &x->queue_lat);
		else
			fprintf(f, "\t-\t-\t-\t-\t-\t-\t-\t-");
		fputc('\n', f);
		for (c = 0; c < x->nr_cpu; c++)
			if (x->per_cpu[c])
				fprintf(g, "%s\t%d\t%" PRIu64 "\n", name, c, x->per_cpu[c]);
	}
	rp_tsv_close(t, f);
	rp_tsv_close(t, g);
}

const struct rp_writers rp_wq_writers = {
	.text = wq_text,
	.json = wq_json,
	.tsv = wq_tsv,
};
