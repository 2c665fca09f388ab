// SPDX-License-Identifier: GPL-2.0-only
/*
 * The irq section's writers: text, JSON and TSV of hard IRQ handlers, system vectors, softirqs
 * and timer callbacks (count, durations, the tasks they interrupted), and of the time taken
 * from each task.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "report_priv.h"
#include "tickscope/irq.h"

static const struct ts_irq *model(const struct ts_analysis *a)
{
	return ts_analysis_model(a, TS_SEC_IRQ);
}

static const struct ts_irq_src *src_of(const struct ts_irq *m, const struct ts_irq_stat *st)
{
	return ts_irqctx_src(ts_irq_ctx(m), st->src);
}

/* "irq 11 virtio0", "vector local_timer", "softirq TIMER", "hrtimer tick_sched_timer" */
static const char *row_name(const struct ts_irq_src *s, const struct ts_report_opts *o, char *buf,
			    size_t len)
{
	char fn[96];

	if (s->type == TS_IRQT_HARD)
		snprintf(buf, len, "irq %" PRId64 " %s", s->num, s->name);
	else if (s->type == TS_IRQT_HRTIMER || s->type == TS_IRQT_TIMER)
		snprintf(buf, len, "%s %s", ts_irq_type_name(s->type),
			 rp_sym(o, (uint64_t)s->num, fn, sizeof(fn)));
	else
		snprintf(buf, len, "%s %s", ts_irq_type_name(s->type), s->name);
	return buf;
}

static uint64_t stat_sum(const void *ctx, size_t i)
{
	return ts_irq_stat_at(ctx, i)->dur.sum;
}

static uint64_t task_sum(const void *ctx, size_t i)
{
	const struct ts_irq_task *t = ts_irq_task_at(ctx, i);

	return t->ns[TS_IRQC_HARD] + t->ns[TS_IRQC_SOFT];
}

/* The tasks source @src took the most time from, "comm[pid] 1.234 ms", up to @max of them. */
static void src_tasks_text(FILE *f, const struct ts_irq *m, int src, unsigned int max)
{
	const struct ts_irq_src_task *best[3] = { 0 };
	unsigned int n = max < 3 ? max : 3, k;

	for (size_t i = 0; i < ts_irq_nr_src_tasks(m); i++) {
		const struct ts_irq_src_task *st = ts_irq_src_task_at(m, i);

		if (st->src != src)
			continue;
		for (k = 0; k < n && best[k] && best[k]->ns >= st->ns; k++)
			;
		if (k == n)
			continue;
		for (unsigned int j = n - 1; j > k; j--)
			best[j] = best[j - 1];
		best[k] = st;
	}
	fprintf(f, "  %-22s", "  from");
	for (k = 0; k < n && best[k]; k++) {
		const struct ts_irq_task *t = NULL;

		for (size_t i = 0; i < ts_irq_nr_tasks(m) && !t; i++)
			if (ts_irq_task_at(m, i)->pid == best[k]->pid)
				t = ts_irq_task_at(m, i);
		fprintf(f, "%s %s[%d] %.3f ms", k ? "," : "",
			best[k]->pid ? (t && t->comm[0] ? t->comm : "?") : "idle", best[k]->pid,
			MS(best[k]->ns));
	}
	fputc('\n', f);
}

static void unpaired_text(FILE *f, const struct ts_irq_unpaired *u)
{
	fprintf(f,
		"  not paired (not counted): %" PRIu64 " exits without an entry, %" PRIu64
		" closed by an outer exit, %" PRIu64 " dropped at lost events, %" PRIu64
		" too deep, %" PRIu64 " open at the end; exits not recorded: %" PRIu64
		" ended by a context switch, %" PRIu64 " by a new entry\n",
		u->exit_unmatched, u->closed_by_outer, u->dropped_lost, u->too_deep, u->open_at_end,
		u->dropped_switch, u->dropped_reentry);
}

static void irq_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_irq *m = model(a);
	size_t ns = ts_irq_nr_stats(m), nt = ts_irq_nr_tasks(m), i;
	size_t *rank, *trank;
	uint64_t tot[TS_IRQC_NR];
	unsigned int shown;
	char buf[128];

	if (!rp_banner(f, a, TS_SEC_IRQ))
		return;
	ts_irq_totals(m, tot);
	fprintf(f,
		"  time in interrupts (disjoint, innermost context): hardirq %.3f ms, softirq "
		"%.3f ms\n",
		MS(tot[TS_IRQC_HARD]), MS(tot[TS_IRQC_SOFT]));
	rank = rp_rank(ns, stat_sum, m);
	trank = rp_rank(nt, task_sum, m);
	if (rank && trank) {
		rp_dist_head(f, "entry -> exit");
		for (i = 0, shown = 0; i < ns && shown < 3 * rp_top(o); i++) {
			const struct ts_irq_stat *st = ts_irq_stat_at(m, rank[i]);

			if (!st->count)
				continue;
			rp_dist_row(f, row_name(src_of(m, st), o, buf, sizeof(buf)), &st->dur);
			src_tasks_text(f, m, st->src, 3);
			shown++;
		}
		fprintf(f, "  %-22s %12s %12s %12s\n", "taken from (top)", "hardirq ms",
			"softirq ms", "timers ms");
		for (i = 0; i < nt && i < rp_top(o); i++) {
			const struct ts_irq_task *t = ts_irq_task_at(m, trank[i]);

			snprintf(buf, sizeof(buf), "%.16s[%d]",
				 t->pid ? (t->comm[0] ? t->comm : "?") : "idle", t->pid);
			fprintf(f, "  %-22s %12.3f %12.3f %12.3f\n", buf, MS(t->ns[TS_IRQC_HARD]),
				MS(t->ns[TS_IRQC_SOFT]), MS(t->timers_ns));
		}
	}
	unpaired_text(f, ts_irqctx_unpaired(ts_irq_ctx(m)));
	free(rank);
	free(trank);
}

static void src_json(struct rp_json *w, const struct ts_irq *m, const struct ts_irq_stat *st,
		     const struct ts_report_opts *o)
{
	const struct ts_irq_src *s = src_of(m, st);

	rp_jbegin(w, NULL, '{');
	rp_jstr(w, "type", ts_irq_type_name(s->type));
	if (s->type == TS_IRQT_HRTIMER || s->type == TS_IRQT_TIMER) {
		rp_jsym(w, "function", o, (uint64_t)s->num);
	} else {
		if (s->type == TS_IRQT_VECTOR)
			rp_jnull(w, "num");
		else
			rp_ji64(w, "num", s->num);
		rp_jstr(w, "name", s->name);
	}
	rp_ju64(w, "count", st->count);
	rp_jdist(w, "duration", &st->dur);
	rp_ju64(w, "innermost_ns", st->own_ns);
	rp_ju64(w, "on_task_ns", st->on_task_ns);
	rp_jbegin(w, "tasks", '[');
	for (size_t i = 0; i < ts_irq_nr_src_tasks(m); i++) {
		const struct ts_irq_src_task *t = ts_irq_src_task_at(m, i);

		if (t->src != st->src)
			continue;
		rp_jbegin(w, NULL, '{');
		rp_ji64(w, "tid", t->pid);
		rp_ju64(w, "ns", t->ns);
		rp_jend(w, '}');
	}
	rp_jend(w, ']');
	rp_jend(w, '}');
}

static void irq_json(struct rp_json *w, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_irq *m = model(a);
	const struct ts_irq_unpaired *u = ts_irqctx_unpaired(ts_irq_ctx(m));
	uint64_t tot[TS_IRQC_NR];
	size_t i;

	if (rp_jsection(w, a, TS_SEC_IRQ)) {
		ts_irq_totals(m, tot);
		rp_jbegin(w, "time_ns", '{');
		rp_ju64(w, "hardirq", tot[TS_IRQC_HARD]);
		rp_ju64(w, "softirq", tot[TS_IRQC_SOFT]);
		rp_jend(w, '}');
		rp_jbegin(w, "unpaired", '{');
		rp_ju64(w, "exit_unmatched", u->exit_unmatched);
		rp_ju64(w, "closed_by_outer", u->closed_by_outer);
		rp_ju64(w, "dropped_lost", u->dropped_lost);
		rp_ju64(w, "too_deep", u->too_deep);
		rp_ju64(w, "open_at_end", u->open_at_end);
		rp_ju64(w, "dropped_switch", u->dropped_switch);
		rp_ju64(w, "dropped_reentry", u->dropped_reentry);
		rp_jend(w, '}');
		rp_jbegin(w, "sources", '[');
		for (i = 0; i < ts_irq_nr_stats(m); i++)
			if (ts_irq_stat_at(m, i)->count)
				src_json(w, m, ts_irq_stat_at(m, i), o);
		rp_jend(w, ']');
		rp_jbegin(w, "tasks", '[');
		for (i = 0; i < ts_irq_nr_tasks(m); i++) {
			const struct ts_irq_task *t = ts_irq_task_at(m, i);

			rp_jbegin(w, NULL, '{');
			rp_ji64(w, "tid", t->pid);
			rp_jstr(w, "comm", t->pid ? t->comm : "swapper");
			rp_ju64(w, "hardirq_ns", t->ns[TS_IRQC_HARD]);
			rp_ju64(w, "softirq_ns", t->ns[TS_IRQC_SOFT]);
			rp_ju64(w, "timers_ns", t->timers_ns);
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void irq_tsv(struct rp_tsv *t)
{
	static const char *const dists[] = { "duration", NULL };
	const struct ts_irq *m = model(t->a);
	FILE *f = rp_tsv_open(t, "irq_sources", "type\tnum\tname\tinnermost_ns\ton_task_ns", dists);
	FILE *g = rp_tsv_open(t, "irq_tasks", "tid\tcomm\thardirq_ns\tsoftirq_ns\ttimers_ns", NULL);
	int ok = rp_tsv_present(t, TS_SEC_IRQ);
	char buf[128];
	size_t i;

	for (i = 0; f && g && ok && i < ts_irq_nr_stats(m); i++) {
		const struct ts_irq_stat *st = ts_irq_stat_at(m, i);
		const struct ts_irq_src *s = src_of(m, st);
		int timer;

		if (!st->count || !s)
			continue;
		timer = s->type == TS_IRQT_HRTIMER || s->type == TS_IRQT_TIMER;
		fprintf(f, "%s\t", ts_irq_type_name(s->type));
		if (s->type == TS_IRQT_VECTOR)
			fputc('-', f);
		else if (timer)
			fprintf(f, "%#" PRIx64, (uint64_t)s->num);
		else
			fprintf(f, "%" PRId64, s->num);
		fprintf(f, "\t%s\t%" PRIu64 "\t%" PRIu64,
			timer ? rp_tsv_fn(t, (uint64_t)s->num, buf, sizeof(buf)) : s->name,
			st->own_ns, st->on_task_ns);
		rp_tsv_dist(f, &st->dur);
		fputc('\n', f);
	}
	for (i = 0; f && g && ok && i < ts_irq_nr_tasks(m); i++) {
		const struct ts_irq_task *k = ts_irq_task_at(m, i);

		fprintf(g, "%d\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", k->pid,
			k->pid ? (k->comm[0] ? k->comm : "-") : "swapper", k->ns[TS_IRQC_HARD],
			k->ns[TS_IRQC_SOFT], k->timers_ns);
	}
	rp_tsv_close(t, f);
	rp_tsv_close(t, g);
}

const struct rp_writers rp_irq_writers = {
	.text = irq_text,
	.json = irq_json,
	.tsv = irq_tsv,
};
