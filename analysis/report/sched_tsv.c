// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched section's TSV tables: tasks, CPUs, wake classes, latency distributions, off-CPU
 * stacks and who woke whom (docs/report-tsv.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"
#include "tickscope/escape.h"

static const char *const class_names[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };

/* A distribution's 8 columns, all "-" when @why says it is not measured. */
static void dist_tsv(FILE *f, const struct ts_hist *h, const char *why)
{
	if (why)
		fputs("\t-\t-\t-\t-\t-\t-\t-\t-", f);
	else
		rp_tsv_dist(f, h);
}

/* A count, "-" when @why says it is not measured. */
static void count_tsv(FILE *f, uint64_t v, const char *why)
{
	if (why)
		fputs("\t-", f);
	else
		fprintf(f, "\t%" PRIu64, v);
}

#define TASKS_HEAD                                                                       \
	"tid\tcomm\tswitches\tvoluntary\tinvoluntary\tmigrations\twakeups\twakeup_new\t" \
	"sched_delay_perf_ns\tsched_delay_perf_longest_ns\twake_same_cpu_idle\t"         \
	"wake_same_cpu_busy\twake_cross_cpu_idle\twake_cross_cpu_busy\twake_unclassified"

static void sched_tasks_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	const char *wk = ts_sched_wakes_why(m), *off = ts_sched_off_why(m);
	char cb[80]; /* an escaped task name */
	static const char *const dists[] = {
		"run",	     "sched_delay", "wake_delivery", "wakeup_latency",
		"off_cpu_R", "off_cpu_S",   "off_cpu_D",     "off_cpu_other",
		NULL
	};
	/* the slices and periods left out for lost events, only when events were lost */
	int lost = ts_sched_totals(m)->nr_gaps != 0;
	FILE *f = rp_tsv_open(t, "sched_tasks",
			      lost ? TASKS_HEAD "\tlost_slices\tlost_off_periods" : TASKS_HEAD,
			      dists);
	const struct ts_sched_task *k;
	size_t i;
	int j;

	for (i = 0; f && rp_tsv_present(t, TS_SEC_SCHED) && i < ts_sched_nr_tasks(m); i++) {
		k = ts_sched_task_at(m, i);
		if (!k->selected)
			continue;
		fprintf(f, "%d\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, k->pid,
			k->comm[0] ? ts_escape(k->comm, cb, sizeof(cb)) : "-", k->nr_switches,
			k->nr_voluntary, k->nr_involuntary, k->nr_migrations);
		count_tsv(f, k->nr_wakeups, wk);
		count_tsv(f, k->nr_wakeup_new, wk);
		if (rp_sched_task_run_measured(m, k))
			fprintf(f, "\t%" PRIu64 "\t%" PRIu64, k->delay_perf, k->delay_perf_max);
		else
			fputs("\t-\t-", f);
		for (j = 0; j < TS_WAKE_NR; j++)
			count_tsv(f, k->wake_class[j], wk);
		count_tsv(f, k->nr_wake_unclassified, wk);
		if (lost)
			fprintf(f, "\t%" PRIu64 "\t%" PRIu64, k->nr_lost_slices, k->nr_lost_off);
		if (rp_sched_task_run_measured(m, k)) {
			rp_tsv_dist(f, k->run);
			rp_tsv_dist(f, k->delay);
		} else {
			fputs("\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-", f);
		}
		dist_tsv(f, k->delivery, wk);
		dist_tsv(f, k->wakelat, wk);
		for (j = 0; j < TS_OFF_NR; j++)
			dist_tsv(f, k->off[j], off);
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
}

static void sched_cpus_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	FILE *f = rp_tsv_open(t, "sched_cpus",
			      "cpu\tbusy_ns\tidle_ns\tswitches\twakeups_local\twakeups_remote\t"
			      "broken_chains",
			      NULL);
	const struct ts_sched_cpu *c;
	int i;

	/* a per-task recording measured no CPU's busy and idle time: no rows */
	for (i = 0; f && rp_tsv_present(t, TS_SEC_SCHED) && rp_cpus_measured(t->o) &&
		    i < ts_sched_nr_cpus(m);
	     i++) {
		c = ts_sched_cpu(m, i);
		if (c && c->seen)
			fprintf(f,
				"%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
				"\t%" PRIu64 "\n",
				i, c->busy, c->idle, c->nr_switches, c->wakeups_local,
				c->wakeups_remote, c->broken_chains);
	}
	rp_tsv_close(t, f);
}

static void sched_classes_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	static const char *const dists[] = { "wake_delivery", "wakeup_latency", NULL };
	const struct ts_sched_totals *k = ts_sched_totals(m);
	FILE *f = rp_tsv_open(t, "sched_wake_classes", "class\tcount", dists);
	/* no rows where wakes are not measured (a per-task recording), as without them */
	int c, ok = rp_tsv_present(t, TS_SEC_SCHED) && !ts_sched_wakes_why(m) &&
		    (rp_tsv_kind_present(t, TS_EV_WAKING) || rp_tsv_kind_present(t, TS_EV_WAKEUP));

	for (c = 0; f && ok && c < TS_WAKE_NR; c++) {
		fprintf(f, "%s\t%" PRIu64, class_names[c], k->wake_class[c]);
		rp_tsv_dist(f, &k->class_delivery[c]);
		rp_tsv_dist(f, &k->class_wakelat[c]);
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
}

static void hist_rows(FILE *f, const char *dist, const char *cls, const struct ts_hist *h)
{
	unsigned int i;

	for (i = ts_hist_first(h); i < ts_hist_end(h); i++)
		if (ts_hist_get(h, i))
			fprintf(f, "%s\t%s\t%u\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", dist, cls,
				i, ts_hist_bucket_low(i), ts_hist_bucket_width(i),
				ts_hist_get(h, i));
}

static void sched_hist_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	const struct ts_sched_totals *k = ts_sched_totals(m);
	FILE *f =
		rp_tsv_open(t, "sched_hist", "dist\tclass\tbucket\tlow_ns\twidth_ns\tcount", NULL);
	int c;

	if (!f || !rp_tsv_present(t, TS_SEC_SCHED)) {
		rp_tsv_close(t, f);
		return;
	}
	/* unmeasured (rp_sched_run_measured()): no rows */
	if (rp_sched_run_measured(m, k->nr_broken)) {
		hist_rows(f, "run", "all", &k->run);
		hist_rows(f, "sched_delay", "all", &k->delay);
	}
	if (ts_sched_wakes_why(m)) { /* nor for the wakes of a per-task recording */
		rp_tsv_close(t, f);
		return;
	}
	hist_rows(f, "wake_delivery", "all", &k->delivery);
	hist_rows(f, "wakeup_latency", "all", &k->wakelat);
	for (c = 0; c < TS_WAKE_NR; c++) {
		hist_rows(f, "wake_delivery", class_names[c], &k->class_delivery[c]);
		hist_rows(f, "wakeup_latency", class_names[c], &k->class_wakelat[c]);
	}
	rp_tsv_close(t, f);
}

static void sched_stacks_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	FILE *f = rp_tsv_open(
		t, "sched_offcpu_stacks",
		"stack_id\ttotal_ns\tcount\tR_ns\tS_ns\tD_ns\tother_ns\ttop_tasks\tframes", NULL);
	const char *off = ts_sched_off_why(m);
	const struct ts_sched_stack *s;
	char buf[160];
	size_t i;
	uint32_t j;

	for (i = 0; f && rp_tsv_present(t, TS_SEC_SCHED) && i < ts_sched_nr_stacks(m); i++) {
		s = ts_sched_stack_at(m, i);
		if (!s->count) /* switch-outs that never ended: nothing measured */
			continue;
		if (off) /* a per-task recording: the counts, no times */
			fprintf(f, "%zu\t-\t%" PRIu64 "\t-\t-\t-\t-\t", i, s->count);
		else
			fprintf(f,
				"%zu\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
				"\t%" PRIu64 "\t",
				i, s->total, s->count, s->by_state[0], s->by_state[1],
				s->by_state[2], s->by_state[3]);
		for (j = 0; j < TS_STACK_TASKS && s->tasks[j].pid; j++)
			if (off)
				fprintf(f, "%s%d:-", j ? ";" : "", s->tasks[j].pid);
			else
				fprintf(f, "%s%d:%" PRIu64, j ? ";" : "", s->tasks[j].pid,
					s->tasks[j].ns);
		fprintf(f, "%s\t", s->tasks[0].pid ? "" : "-");
		for (j = rp_stack_skip(t->o, s->ips, s->nr_ips); j < s->nr_ips; j++)
			fprintf(f, "%s%s", rp_tsv_fn(t, s->ips[j], buf, sizeof(buf)),
				j + 1 < s->nr_ips ? ";" : "");
		fputc('\n', f);
	}
	rp_tsv_close(t, f);
}

static void sched_woken_by_tsv(struct rp_tsv *t, const struct ts_sched *m)
{
	char cb[80]; /* an escaped task name */
	FILE *f = rp_tsv_open(t, "sched_woken_by",
			      "tid\tcomm\tclass\tfunction\twakes\tperiods\toff_cpu_ns", NULL);
	const struct ts_sched_wait **v = f && rp_tsv_present(t, TS_SEC_SCHED) &&
							 !rp_sched_no_wakers(m) ?
						 rp_sched_waits_by_task(m) :
						 NULL;
	struct ts_sched_waker_sum w[RP_SCHED_WAKERS];
	size_t n = ts_sched_nr_waits(m), i, len;
	char buf[160];
	int nr, j;

	for (i = 0; v && i < n; i += len) {
		const char *comm = ts_sched_comm(m, v[i]->pid);

		rp_sched_task_waits(v, n, v[i]->pid, &len);
		nr = ts_sched_wakers_of(m, v + i, len, 1, w, RP_SCHED_WAKERS);
		for (j = 0; j < nr; j++)
			fprintf(f, "%d\t%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
				v[i]->pid, comm && comm[0] ? ts_escape(comm, cb, sizeof(cb)) : "-",
				w[j].cls,
				w[j].work ? rp_tsv_fn(t, w[j].work, buf, sizeof(buf)) : "-",
				w[j].wakes, w[j].periods, w[j].ns);
	}
	free(v);
	rp_tsv_close(t, f);
}

void rp_sched_tables(struct rp_tsv *t)
{
	sched_tasks_tsv(t, ts_analysis_sched(t->a));
	sched_cpus_tsv(t, ts_analysis_sched(t->a));
	sched_classes_tsv(t, ts_analysis_sched(t->a));
	sched_hist_tsv(t, ts_analysis_sched(t->a));
	sched_stacks_tsv(t, ts_analysis_sched(t->a));
	sched_woken_by_tsv(t, ts_analysis_sched(t->a));
}
