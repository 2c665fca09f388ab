// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TSV report: one file per table, each with a header row. The column names are the
 * contract with the gnuplot scripts in plots/ (docs/report-tsv.md); "-" marks a value that was not measured.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_priv.h"

struct tsv {
	const char *dir;
	const struct ts_analysis *a;
	const struct ts_report_opts *o;
	int err;
	double span;
};

static const char *const dist_cols[] = { "count",  "sum_ns", "min_ns",	"p50_ns",
					 "p90_ns", "p99_ns", "p999_ns", "max_ns" };

/* Open DIR/NAME and write the header: @cols, then 8 columns per distribution prefix. */
static FILE *open_table(struct tsv *t, const char *name, const char *cols, const char *const *dists)
{
	char path[4096];
	FILE *f;
	int i;

	if (t->err)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s.tsv", t->dir, name);
	f = fopen(path, "w");
	if (!f) {
		t->err = -errno;
		return NULL;
	}
	fputs(cols, f);
	for (; dists && *dists; dists++)
		for (i = 0; i < 8; i++)
			fprintf(f, "\t%s_%s", *dists, dist_cols[i]);
	fputc('\n', f);
	return f;
}

static void close_table(struct tsv *t, FILE *f)
{
	if (!f)
		return;
	if ((ferror(f) || fclose(f)) && !t->err)
		t->err = -EIO;
}

static void dcols(FILE *f, const struct ts_hist *h)
{
	struct rp_dist d;

	rp_dist(h, &d);
	if (!d.count) {
		fprintf(f, "\t0\t0\t-\t-\t-\t-\t-\t-");
		return;
	}
	fprintf(f,
		"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64,
		d.count, d.sum, d.min, d.p50, d.p90, d.p99, d.p999, d.max);
}

/* A symbol column: names have no tabs; raw addresses when there are no symbols. */
static const char *fn(struct tsv *t, uint64_t addr, char *buf, size_t len)
{
	return rp_sym(t->o, addr, buf, len);
}

static int present(struct tsv *t, enum ts_section s)
{
	return ts_analysis_section(t->a, s)->presence == TS_PRESENT;
}

static int kind_present(struct tsv *t, int kind)
{
	return ts_analysis_kind_presence(t->a, kind) == TS_PRESENT;
}

static void sections_tsv(struct tsv *t)
{
	FILE *f = open_table(t, "sections",
			     "section\tstatus\tevents\tfirst_ns\tlast_ns\tlost_events", NULL);
	FILE *g = open_table(t, "events", "section\tevent\trequired\tstatus\tcount", NULL);
	const struct ts_section_info *in;
	const uint16_t *kinds;
	const uint8_t *req;
	int s, i, n;

	for (s = 0; f && g && s < TS_SEC_NR; s++) {
		in = ts_analysis_section(t->a, s);
		fprintf(f, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", in->name,
			rp_presence(in->presence, 0), in->nr_events, in->first, in->last, in->lost);
		n = ts_analysis_section_kinds(s, &kinds, &req);
		for (i = 0; i < n; i++)
			fprintf(g, "%s\t%s\t%d\t%s\t%" PRIu64 "\n", in->name,
				ts_analysis_kind_name(kinds[i]), req[i],
				rp_presence(ts_analysis_kind_presence(t->a, kinds[i]), 0),
				ts_analysis_kind_count(t->a, kinds[i]));
	}
	close_table(t, f);
	close_table(t, g);
}

static void sched_tasks_tsv(struct tsv *t, const struct ts_sched *m)
{
	static const char *const dists[] = {
		"run",	     "sched_delay", "wake_delivery", "wakeup_latency",
		"off_cpu_R", "off_cpu_S",   "off_cpu_D",     "off_cpu_other",
		NULL
	};
	FILE *f = open_table(t, "sched_tasks",
			     "tid\tcomm\tswitches\tvoluntary\tinvoluntary\tmigrations\twakeups\t"
			     "wakeup_new\tsched_delay_perf_ns\twake_same_cpu_idle\t"
			     "wake_same_cpu_busy\twake_cross_cpu_idle\twake_cross_cpu_busy\t"
			     "wake_unclassified",
			     dists);
	const struct ts_sched_task *k;
	size_t i;
	int j;

	for (i = 0; f && present(t, TS_SEC_SCHED) && i < ts_sched_nr_tasks(m); i++) {
		k = ts_sched_task_at(m, i);
		if (!k->selected)
			continue;
		fprintf(f,
			"%d\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			"\t%" PRIu64 "\t%" PRIu64,
			k->pid, k->comm[0] ? k->comm : "-", k->nr_switches, k->nr_voluntary,
			k->nr_involuntary, k->nr_migrations, k->nr_wakeups, k->nr_wakeup_new,
			k->delay_perf);
		for (j = 0; j < TS_WAKE_NR; j++)
			fprintf(f, "\t%" PRIu64, k->wake_class[j]);
		fprintf(f, "\t%" PRIu64, k->nr_wake_unclassified);
		dcols(f, &k->run);
		dcols(f, &k->delay);
		dcols(f, &k->delivery);
		dcols(f, &k->wakelat);
		for (j = 0; j < TS_OFF_NR; j++)
			dcols(f, &k->off[j]);
		fputc('\n', f);
	}
	close_table(t, f);
}

static const char *const class_names[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };

static void sched_cpus_tsv(struct tsv *t, const struct ts_sched *m)
{
	FILE *f = open_table(t, "sched_cpus",
			     "cpu\tbusy_ns\tidle_ns\tswitches\twakeups_local\twakeups_remote\t"
			     "broken_chains",
			     NULL);
	const struct ts_sched_cpu *c;
	int i;

	/* a per-task recording measured no CPU's busy and idle time: no rows */
	for (i = 0; f && present(t, TS_SEC_SCHED) && rp_cpus_measured(t->o) &&
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
	close_table(t, f);
}

static void sched_classes_tsv(struct tsv *t, const struct ts_sched_totals *k)
{
	static const char *const dists[] = { "wake_delivery", "wakeup_latency", NULL };
	FILE *f = open_table(t, "sched_wake_classes", "class\tcount", dists);
	int c, ok = present(t, TS_SEC_SCHED) &&
		    (kind_present(t, TS_EV_WAKING) || kind_present(t, TS_EV_WAKEUP));

	for (c = 0; f && ok && c < TS_WAKE_NR; c++) {
		fprintf(f, "%s\t%" PRIu64, class_names[c], k->wake_class[c]);
		dcols(f, &k->class_delivery[c]);
		dcols(f, &k->class_wakelat[c]);
		fputc('\n', f);
	}
	close_table(t, f);
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

static void sched_hist_tsv(struct tsv *t, const struct ts_sched_totals *k)
{
	FILE *f = open_table(t, "sched_hist", "dist\tclass\tbucket\tlow_ns\twidth_ns\tcount", NULL);
	int c;

	if (!f || !present(t, TS_SEC_SCHED)) {
		close_table(t, f);
		return;
	}
	hist_rows(f, "run", "all", &k->run);
	hist_rows(f, "sched_delay", "all", &k->delay);
	hist_rows(f, "wake_delivery", "all", &k->delivery);
	hist_rows(f, "wakeup_latency", "all", &k->wakelat);
	for (c = 0; c < TS_WAKE_NR; c++) {
		hist_rows(f, "wake_delivery", class_names[c], &k->class_delivery[c]);
		hist_rows(f, "wakeup_latency", class_names[c], &k->class_wakelat[c]);
	}
	close_table(t, f);
}

static void sched_stacks_tsv(struct tsv *t, const struct ts_sched *m)
{
	FILE *f = open_table(
		t, "sched_offcpu_stacks",
		"stack_id\ttotal_ns\tcount\tR_ns\tS_ns\tD_ns\tother_ns\ttop_tasks\tframes", NULL);
	const struct ts_sched_stack *s;
	char buf[160];
	size_t i;
	uint32_t j;

	for (i = 0; f && present(t, TS_SEC_SCHED) && i < ts_sched_nr_stacks(m); i++) {
		s = ts_sched_stack_at(m, i);
		if (!s->count) /* switch-outs that never ended: nothing measured */
			continue;
		fprintf(f,
			"%zu\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			"\t%" PRIu64 "\t",
			i, s->total, s->count, s->by_state[0], s->by_state[1], s->by_state[2],
			s->by_state[3]);
		for (j = 0; j < TS_STACK_TASKS && s->tasks[j].pid; j++)
			fprintf(f, "%s%d:%" PRIu64, j ? ";" : "", s->tasks[j].pid, s->tasks[j].ns);
		fprintf(f, "%s\t", s->tasks[0].pid ? "" : "-");
		for (j = rp_stack_skip(t->o, s->ips, s->nr_ips); j < s->nr_ips; j++)
			fprintf(f, "%s%s", fn(t, s->ips[j], buf, sizeof(buf)),
				j + 1 < s->nr_ips ? ";" : "");
		fputc('\n', f);
	}
	close_table(t, f);
}

static void idle_tsv(struct tsv *t, const struct ts_idle *m)
{
	static const char *const dists[] = { "residency", NULL };
	FILE *f = open_table(t, "idle_states", "cpu\tstate\tentries_per_s", dists);
	FILE *g = open_table(t, "idle_exits",
			     "cpu\thrtimer\ttimer\twakeup\tresched\tipi\tuntraced\tother", NULL);
	const struct ts_idle_cpu *c;
	int i, s, e, ok = kind_present(t, TS_EV_CPU_IDLE);

	for (i = 0; f && g && ok && i < ts_idle_nr_cpus(m); i++) {
		c = ts_idle_cpu(m, i);
		if (!c || !c->seen)
			continue;
		for (s = 0; s < TS_IDLE_NR_STATES; s++) {
			if (!c->residency[s].count)
				continue;
			fprintf(f, "%d\t%d\t%.3f", i, s,
				t->span > 0 ? (double)c->residency[s].count / t->span : 0.0);
			dcols(f, &c->residency[s]);
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
	close_table(t, f);
	close_table(t, g);
}

static void idle_fns_tsv(struct tsv *t, const struct ts_idle *m)
{
	FILE *f = open_table(t, "idle_exit_functions", "type\tfunction\ttick\tcount", NULL);
	const struct ts_idle_totals *k = ts_idle_totals(m);
	const struct ts_idle_exit_fn *x;
	char buf[160];
	size_t i;
	int hr, tick;

	for (hr = 1; f && kind_present(t, TS_EV_CPU_IDLE) && hr >= 0; hr--) {
		for (i = 0; i < ts_idle_nr_exit_fns(m, hr); i++) {
			x = ts_idle_exit_fn_at(m, hr, i);
			tick = hr ? rp_is_tick(t->o, x->function) : 0;
			fprintf(f, "%s\t%s\t%s\t%" PRIu64 "\n", hr ? "hrtimer" : "timer",
				fn(t, x->function, buf, sizeof(buf)),
				tick < 0 ? "-" :
				tick	 ? "1" :
					   "0",
				x->count);
		}
	}
	close_table(t, f);
	f = open_table(t, "tick_stop", "result\tdependency\tcount", NULL);
	if (f && kind_present(t, TS_EV_TICK_STOP)) {
		fprintf(f, "ok\t-\t%" PRIu64 "\n", k->tick_stop_ok);
		for (i = 0; i < (size_t)k->nr_deps; i++)
			fprintf(f, "fail\t%s\t%" PRIu64 "\n", k->deps[i].name, k->deps[i].count);
		if (k->deps_other)
			fprintf(f, "fail\t(other)\t%" PRIu64 "\n", k->deps_other);
	}
	close_table(t, f);
}

static void timer_tsv(struct tsv *t, const struct ts_timer *m)
{
	static const char *const dists[] = { "handler", NULL };
	FILE *f = open_table(t, "timer_functions", "function\ttype\ttick\texpiries\tstarts\tper_s",
			     dists);
	FILE *g = open_table(t, "timer_cpus", "cpu\thrtimer_expiries\ttimer_expiries\tper_s", NULL);
	const struct ts_timer_totals *k = ts_timer_totals(m);
	const struct ts_timer_fn *x;
	uint64_t h, tm;
	char buf[160];
	size_t i;
	int c, tick, ok = present(t, TS_SEC_TIMER);

	for (i = 0; f && ok && i < ts_timer_nr_fns(m); i++) {
		x = ts_timer_fn_at(m, i);
		tick = x->hr ? rp_is_tick(t->o, x->function) : 0;
		fprintf(f, "%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%.3f",
			fn(t, x->function, buf, sizeof(buf)), x->hr ? "hrtimer" : "timer",
			tick < 0 ? "-" :
			tick	 ? "1" :
				   "0",
			x->nr_expire, x->nr_start,
			t->span > 0 ? (double)x->nr_expire / t->span : 0.0);
		dcols(f, &x->handler);
		fputc('\n', f);
	}
	for (c = 0; g && ok && (c < k->nr_cpu[0] || c < k->nr_cpu[1]); c++) {
		h = c < k->nr_cpu[1] ? k->per_cpu[1][c] : 0;
		tm = c < k->nr_cpu[0] ? k->per_cpu[0][c] : 0;
		if (h || tm)
			fprintf(g, "%d\t%" PRIu64 "\t%" PRIu64 "\t%.3f\n", c, h, tm,
				t->span > 0 ? (double)(h + tm) / t->span : 0.0);
	}
	close_table(t, f);
	close_table(t, g);
}

static void wq_tsv(struct tsv *t, const struct ts_wq *m)
{
	static const char *const dists[] = { "duration", "queue_latency", NULL };
	FILE *f = open_table(t, "wq_functions", "function\twatched\texecutions\tqueued", dists);
	FILE *g = open_table(t, "wq_cpus", "function\tcpu\texecutions", NULL);
	const struct ts_wq_fn *x;
	const char *name;
	char buf[160];
	size_t i;
	int c, ok = present(t, TS_SEC_WQ);

	for (i = 0; f && g && ok && i < ts_wq_nr_fns(m); i++) {
		x = ts_wq_fn_at(m, i);
		name = fn(t, x->function, buf, sizeof(buf));
		fprintf(f, "%s\t%d\t%" PRIu64 "\t%" PRIu64, name, rp_is_watched(t->o, x->function),
			x->nr_exec, x->nr_queued);
		dcols(f, &x->duration);
		if (kind_present(t, TS_EV_WQ_QUEUE))
			dcols(f, &x->queue_lat);
		else
			fprintf(f, "\t-\t-\t-\t-\t-\t-\t-\t-");
		fputc('\n', f);
		for (c = 0; c < x->nr_cpu; c++)
			if (x->per_cpu[c])
				fprintf(g, "%s\t%d\t%" PRIu64 "\n", name, c, x->per_cpu[c]);
	}
	close_table(t, f);
	close_table(t, g);
}

static void rcu_tsv(struct tsv *t, const struct ts_rcu *m)
{
	static const char *const dists[] = { "duration", NULL };
	static const char *const lat[] = { "latency", NULL };
	FILE *f = open_table(t, "rcu_windows", "cpu\tcontext\tcount\ttime_ns", NULL);
	FILE *g = open_table(t, "rcu_gp", "flavor\tevents", dists);
	FILE *h = open_table(t, "rcu_callbacks", "function\tqueued\tinvoked", lat);
	const struct ts_rcu_totals *k = ts_rcu_totals(m);
	const struct ts_rcu_cpu *c;
	const struct ts_rcu_cb_fn *cb;
	char buf[160];
	size_t i;
	int n, x;

	for (n = 0; f && kind_present(t, TS_EV_RCU_UTIL) && n < ts_rcu_nr_cpus(m); n++) {
		c = ts_rcu_cpu(m, n);
		for (x = 0; c && c->seen && x < TS_RCU_NR_CTX; x++)
			fprintf(f, "%d\t%s\t%" PRIu64 "\t%" PRIu64 "\n", n, ts_rcu_ctx_name(x),
				c->count[x], c->time[x]);
	}
	for (n = 0; g && kind_present(t, TS_EV_RCU_GP) && n < k->nr_flavors; n++) {
		fprintf(g, "%s\t%" PRIu64, k->flavors[n].name, k->flavors[n].nr_events);
		dcols(g, &k->flavors[n].gp);
		fputc('\n', g);
	}
	for (i = 0; h && i < ts_rcu_nr_cb_fns(m); i++) {
		cb = ts_rcu_cb_fn_at(m, i);
		fprintf(h, "%s\t%" PRIu64 "\t%" PRIu64, fn(t, cb->function, buf, sizeof(buf)),
			cb->nr_queued, cb->nr_invoked);
		dcols(h, &cb->latency);
		fputc('\n', h);
	}
	close_table(t, f);
	close_table(t, g);
	close_table(t, h);
}

static void shrinker_tsv(struct tsv *t, const struct ts_shrinker *m)
{
	static const char *const dists[] = { "duration", NULL };
	FILE *f = open_table(t, "shrinker_functions", "function\tcalls\tscanned\tfreed\tto_shrink",
			     dists);
	const struct ts_shrink_fn *x;
	char buf[160];
	size_t i;

	for (i = 0; f && present(t, TS_SEC_SHRINKER) && i < ts_shrinker_nr_fns(m); i++) {
		x = ts_shrinker_fn_at(m, i);
		fprintf(f, "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64,
			fn(t, x->function, buf, sizeof(buf)), x->nr, x->scanned, x->freed,
			x->to_shrink);
		dcols(f, &x->duration);
		fputc('\n', f);
	}
	close_table(t, f);
	f = open_table(t, "shrinker_tasks", "tid\tcomm\tcalls\ttime_ns\tfreed", NULL);
	for (i = 0; f && present(t, TS_SEC_SHRINKER) && i < ts_shrinker_nr_tasks(m); i++) {
		const struct ts_shrink_task *k = ts_shrinker_task_at(m, i);
		const char *comm = ts_sched_comm(ts_analysis_sched(t->a), k->pid);

		fprintf(f, "%d\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", k->pid,
			comm && comm[0] ? comm : "-", k->calls, k->time_ns, k->freed);
	}
	close_table(t, f);
}

int ts_report_tsv(const char *dir, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	static const struct ts_report_opts none;
	struct tsv t = { .dir = dir, .a = a, .o = o ? o : &none };
	const struct ts_sched *m = ts_analysis_sched(a);
	uint64_t first, last;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return -errno;
	ts_analysis_range(a, &first, &last);
	t.span = last > first ? (double)(last - first) / 1e9 : 0;
	sections_tsv(&t);
	sched_tasks_tsv(&t, m);
	sched_cpus_tsv(&t, m);
	sched_classes_tsv(&t, ts_sched_totals(m));
	sched_hist_tsv(&t, ts_sched_totals(m));
	sched_stacks_tsv(&t, m);
	idle_tsv(&t, ts_analysis_idle(a));
	idle_fns_tsv(&t, ts_analysis_idle(a));
	timer_tsv(&t, ts_analysis_timer(a));
	wq_tsv(&t, ts_analysis_wq(a));
	rcu_tsv(&t, ts_analysis_rcu(a));
	shrinker_tsv(&t, ts_analysis_shrinker(a));
	return t.err;
}
