// SPDX-License-Identifier: GPL-2.0-only
/*
 * The migrate section's writers: text, JSON and TSV of migrations by origin, by CPU pair and
 * by task.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "report_priv.h"
#include "tickscope/escape.h"
#include "tickscope/migrate.h"

static const struct ts_migrate *model(const struct ts_analysis *a)
{
	return ts_analysis_model(a, TS_SEC_MIGRATE);
}

static uint64_t pair_count(const void *ctx, size_t i)
{
	return ts_migrate_pair_at(ctx, i)->count;
}

static uint64_t task_count(const void *ctx, size_t i)
{
	return ts_migrate_task_at(ctx, i)->count;
}

static void origins_text(FILE *f, const uint64_t *by)
{
	int o;

	for (o = 0; o < TS_MIG_NR; o++)
		fprintf(f, " %9" PRIu64, by[o]);
	fputc('\n', f);
}

static void migrate_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_migrate *m = model(a);
	size_t np = ts_migrate_nr_pairs(m), nt = ts_migrate_nr_tasks(m), i;
	size_t *pairs, *tasks;
	char buf[40];

	if (!rp_banner(f, a, TS_SEC_MIGRATE))
		return;
	pairs = rp_rank(np, pair_count, m);
	tasks = rp_rank(nt, task_count, m);
	if (pairs && tasks) {
		fprintf(f, "  %-22s %9s %11s %10s %9s %9s\n", "", "count", "wake_affine",
			"wake_other", "balance", "unknown");
		fprintf(f, "  %-22s %9" PRIu64 "  ", "all", ts_migrate_totals(m)->count);
		origins_text(f, ts_migrate_totals(m)->by_origin);
		fprintf(f, "  by CPU pair (top %u):\n", rp_top(o));
		for (i = 0; i < np && i < rp_top(o); i++) {
			const struct ts_migrate_pair *p = ts_migrate_pair_at(m, pairs[i]);

			snprintf(buf, sizeof(buf), "cpu%d -> cpu%d", p->orig_cpu, p->dest_cpu);
			fprintf(f, "  %-22s %9" PRIu64 "  ", buf, p->count);
			origins_text(f, p->by_origin);
		}
		fprintf(f, "  by task (top %u):\n", rp_top(o));
		for (i = 0; i < nt && i < rp_top(o); i++) {
			const struct ts_migrate_task *t = ts_migrate_task_at(m, tasks[i]);
			char cb[80];

			snprintf(buf, sizeof(buf), "%.16s[%d]",
				 t->comm[0] ? ts_escape(t->comm, cb, sizeof(cb)) : "?", t->pid);
			fprintf(f, "  %-22s %9" PRIu64 "  ", buf, t->count);
			origins_text(f, t->by_origin);
		}
	}
	free(pairs);
	free(tasks);
}

static void origins_json(struct rp_json *w, const uint64_t *by)
{
	int o;

	rp_jbegin(w, "origin", '{');
	for (o = 0; o < TS_MIG_NR; o++)
		rp_ju64(w, ts_migrate_origin_name(o), by[o]);
	rp_jend(w, '}');
}

static void migrate_json(struct rp_json *w, const struct ts_analysis *a,
			 const struct ts_report_opts *o)
{
	const struct ts_migrate *m = model(a);
	size_t i;

	if (rp_jsection(w, a, TS_SEC_MIGRATE)) {
		rp_ju64(w, "migrations", ts_migrate_totals(m)->count);
		origins_json(w, ts_migrate_totals(m)->by_origin);
		rp_jbegin(w, "pairs", '[');
		for (i = 0; i < ts_migrate_nr_pairs(m); i++) {
			const struct ts_migrate_pair *p = ts_migrate_pair_at(m, i);

			rp_jbegin(w, NULL, '{');
			rp_ji64(w, "orig_cpu", p->orig_cpu);
			rp_ji64(w, "dest_cpu", p->dest_cpu);
			rp_ju64(w, "count", p->count);
			origins_json(w, p->by_origin);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
		rp_jbegin(w, "tasks", '[');
		for (i = 0; i < ts_migrate_nr_tasks(m); i++) {
			const struct ts_migrate_task *t = ts_migrate_task_at(m, i);

			rp_jbegin(w, NULL, '{');
			rp_ji64(w, "tid", t->pid);
			rp_jstr(w, "comm", t->comm);
			rp_ju64(w, "count", t->count);
			origins_json(w, t->by_origin);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void origins_tsv(FILE *f, const uint64_t *by)
{
	int o;

	for (o = 0; o < TS_MIG_NR; o++)
		fprintf(f, "\t%" PRIu64, by[o]);
	fputc('\n', f);
}

static void migrate_tsv(struct rp_tsv *t)
{
	const struct ts_migrate *m = model(t->a);
	FILE *f = rp_tsv_open(t, "migrate_pairs",
			      "orig_cpu\tdest_cpu\tcount\twake_affine\t"
			      "wake_other\tbalance\tunknown",
			      NULL);
	FILE *g = rp_tsv_open(t, "migrate_tasks",
			      "tid\tcomm\tcount\twake_affine\twake_other\t"
			      "balance\tunknown",
			      NULL);
	int ok = rp_tsv_present(t, TS_SEC_MIGRATE);
	char cb[80]; /* an escaped task name */
	size_t i;

	for (i = 0; f && g && ok && i < ts_migrate_nr_pairs(m); i++) {
		const struct ts_migrate_pair *p = ts_migrate_pair_at(m, i);

		fprintf(f, "%d\t%d\t%" PRIu64, p->orig_cpu, p->dest_cpu, p->count);
		origins_tsv(f, p->by_origin);
	}
	for (i = 0; f && g && ok && i < ts_migrate_nr_tasks(m); i++) {
		const struct ts_migrate_task *k = ts_migrate_task_at(m, i);

		fprintf(g, "%d\t%s\t%" PRIu64, k->pid,
			k->comm[0] ? ts_escape(k->comm, cb, sizeof(cb)) : "-", k->count);
		origins_tsv(g, k->by_origin);
	}
	rp_tsv_close(t, f);
	rp_tsv_close(t, g);
}

const struct rp_writers rp_migrate_writers = {
	.text = migrate_text,
	.json = migrate_json,
	.tsv = migrate_tsv,
};
