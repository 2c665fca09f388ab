// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrinker section's writers: text, JSON and TSV of shrinker calls by function and task.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"

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

	if (!rp_banner(f, a, TS_SEC_SHRINKER) || !(idx = rp_rank(n, shrink_total, m)))
		return;
	fprintf(f, "  %-34s %8s %10s %9s %9s %9s %11s %11s\n", "shrinker (top by time)", "calls",
		"total ms", "p50 us", "p99 us", "max us", "scanned", "freed");
	for (i = 0; i < n && i < rp_top(o); i++) {
		fn = ts_shrinker_fn_at(m, idx[i]);
		rp_dist(&fn->duration, &d);
		fprintf(f, "  %-34s %8" PRIu64, rp_sym(o, fn->function, buf, sizeof(buf)), fn->nr);
		rp_cells(f, &d, 10, 1, 1, &d.sum);
		rp_cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
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

static void shrinker_json(struct rp_json *w, const struct ts_analysis *a,
			  const struct ts_report_opts *o)
{
	const struct ts_shrinker *m = ts_analysis_shrinker(a);
	const struct ts_shrink_totals *t = ts_shrinker_totals(m);
	const struct ts_shrink_fn *fn;
	size_t i;

	if (rp_jsection(w, a, TS_SEC_SHRINKER)) {
		rp_ju64(w, "calls", t->nr);
		rp_ju64(w, "scanned", t->scanned);
		rp_ju64(w, "freed", t->freed);
		rp_ju64(w, "unmatched_ends", t->unmatched_ends);
		rp_ju64(w, "open_at_end", t->open_at_end);
		rp_jdist(w, "duration", &t->duration);
		rp_jbegin(w, "functions", '[');
		for (i = 0; i < ts_shrinker_nr_fns(m); i++) {
			fn = ts_shrinker_fn_at(m, i);
			rp_jbegin(w, NULL, '{');
			rp_jsym(w, "function", o, fn->function);
			rp_ju64(w, "calls", fn->nr);
			rp_ju64(w, "scanned", fn->scanned);
			rp_ju64(w, "freed", fn->freed);
			rp_ju64(w, "to_shrink", fn->to_shrink);
			rp_jdist(w, "duration", &fn->duration);
			rp_jper_cpu(w, "per_cpu", fn->per_cpu, fn->nr_cpu);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
		rp_jbegin(w, "tasks", '[');
		for (i = 0; i < ts_shrinker_nr_tasks(m); i++) {
			const struct ts_shrink_task *k = ts_shrinker_task_at(m, i);
			const char *comm = ts_sched_comm(ts_analysis_sched(a), k->pid);

			rp_jbegin(w, NULL, '{');
			rp_ji64(w, "tid", k->pid);
			if (comm && comm[0])
				rp_jstr(w, "comm", comm);
			else
				rp_jnull(w, "comm");
			rp_ju64(w, "calls", k->calls);
			rp_ju64(w, "time_ns", k->time_ns);
			rp_ju64(w, "freed", k->freed);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void shrinker_tsv(struct rp_tsv *t)
{
	const struct ts_shrinker *m = ts_analysis_shrinker(t->a);
	static const char *const dists[] = { "duration", NULL };
	FILE *f = rp_tsv_open(t, "shrinker_functions", "function\tcalls\tscanned\tfreed\tto_shrink",
			      dists);
	const struct ts_shrink_fn *x;
	char buf[160];
	size_t i;

	for (i = 0; f && rp_tsv_present(t, TS_SEC_SHRINKER) && i < ts_shrinker_nr_fns(m); i++) {
		x = ts_shrinker_fn_at(m, i);
		fprintf(f, "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64,
			rp_tsv_fn(t, x->function, buf, sizeof(buf)), x->nr, x->scanned, x->freed,
			x->to_shrink);
		rp_tsv_dist(f, &x->duration);
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
	f = rp_tsv_open(t, "shrinker_tasks", "tid\tcomm\tcalls\ttime_ns\tfreed", NULL);
	for (i = 0; f && rp_tsv_present(t, TS_SEC_SHRINKER) && i < ts_shrinker_nr_tasks(m); i++) {
		const struct ts_shrink_task *k = ts_shrinker_task_at(m, i);
		const char *comm = ts_sched_comm(ts_analysis_sched(t->a), k->pid);

		fprintf(f, "%d\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", k->pid,
			comm && comm[0] ? comm : "-", k->calls, k->time_ns, k->freed);
	}
	rp_tsv_close(t, f);
}

const struct rp_writers rp_shrinker_writers = {
	.text = shrinker_text,
	.json = shrinker_json,
	.tsv = shrinker_tsv,
};
