// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explanation of a comparison: the benchmark's change split into its components (round
 * trip, or time per operation) and the significant changes ranked; then the confounders and
 * notes (compare_confound.c) and the headline (compare_headline.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "tickscope/classify.h"

struct part_spec {
	const char *label, *metric;
	double scale; /* to µs per operation */
};

/*
 * One round trip: the benchmark's tasks' time line, each instant given to the most advanced
 * state any of them is in (tickscope/cpath.h), so that overlaps are not counted twice.
 */
static const struct part_spec latency_parts[] = {
	{ "wake delivery", "task.path.wake_delivery.per_op", 1e-3 },
	{ "sched delay", "task.path.sched_delay.per_op", 1e-3 },
	{ "run time", "task.path.run.per_op", 1e-3 },
};

/* One instance's time per operation, from the benchmark: CPU time and the rest. */
static const struct part_spec tput_parts[] = {
	{ "CPU (usr+sys)", "bench.cpu_per_op", 1 },
	{ "off-CPU (wall - usr - sys)", "bench.off_cpu_per_op", 1 },
};

/*
 * Off-CPU time of the benchmark's tasks by state, from the trace: shown under the split, not
 * in it, since the trace also counts tasks that wait for the workers (stress-ng's parents).
 */
static const struct part_spec tput_states[] = {
	{ "of which sleeping (S)", "task.off_cpu.S.per_op", 1e-3 },
	{ "of which blocked (D)", "task.off_cpu.D.per_op", 1e-3 },
	{ "of which preempted (R)", "task.off_cpu.R.per_op", 1e-3 },
};

static double med(const struct ts_cmp_row *r, int v)
{
	return r ? r->cell[v].s.median : NAN;
}

static void decompose(struct ts_cmp *c, int v, const char *total, const struct part_spec *ps,
		      int np, const char *kind)
{
	const struct ts_cmp_row *t = ts_cmp_find(c, total);
	struct ts_cmp_decomp *d = &c->dec[v];
	double sa = 0, sb = 0;

	d->kind = kind;
	d->total_metric = total;
	d->a = med(t, 0);
	d->b = med(t, v);
	d->delta = d->b - d->a;
	for (int i = 0; i < np; i++) {
		const struct ts_cmp_row *r = ts_cmp_find(c, ps[i].metric);
		struct ts_cmp_part *p = &d->part[d->nr++];

		p->label = ps[i].label;
		p->metric = ps[i].metric;
		p->a = med(r, 0) * ps[i].scale;
		p->b = med(r, v) * ps[i].scale;
		p->delta = p->b - p->a;
		p->share = d->delta != 0 ? 100 * p->delta / d->delta : NAN;
		sa += p->a;
		sb += p->b;
	}
	d->part[d->nr] = (struct ts_cmp_part){ "residual", NULL, d->a - sa, d->b - sb, NAN, NAN };
	d->part[d->nr].delta = d->part[d->nr].b - d->part[d->nr].a;
	d->part[d->nr].share = d->delta != 0 ? 100 * d->part[d->nr].delta / d->delta : NAN;
	d->nr++;
	d->none_a = d->none_b = d->window_a = d->window_b = NAN;
}

/*
 * The round trip's residual: the time line's fourth state (every task asleep) and the traced
 * window per operation, the sum of the four states in each run, medians of the runs.
 */
static void residual_parts(struct ts_cmp *c, int v)
{
	static const char *const path[] = { "task.path.wake_delivery.per_op",
					    "task.path.sched_delay.per_op", "task.path.run.per_op",
					    "task.path.none.per_op" };
	const struct ts_cmp_row *r[4];
	struct ts_cmp_decomp *d = &c->dec[v];
	const int k[2] = { 0, v };

	for (int i = 0; i < 4; i++)
		if (!(r[i] = ts_cmp_find(c, path[i])))
			return;
	d->none_a = r[3]->cell[0].s.median * 1e-3;
	d->none_b = r[3]->cell[v].s.median * 1e-3;
	for (int s = 0; s < 2; s++) {
		int n = 0, nr = c->var[k[s]].nr_runs;
		double *w = calloc(nr ? nr : 1, sizeof(*w));
		struct ts_summary sum = { .median = NAN };

		for (int run = 0; w && run < nr; run++) {
			double x = 0;

			for (int i = 0; i < 4; i++)
				x += r[i]->cell[k[s]].values[run];
			if (!isnan(x))
				w[n++] = x * 1e-3;
		}
		if (!w || !n || ts_stats_summary(w, n, 0, &sum))
			sum.median = NAN;
		*(s ? &d->window_b : &d->window_a) = sum.median;
		free(w);
	}
}

static int has_values(const struct ts_cmp *c, const char *name)
{
	const struct ts_cmp_row *r = ts_cmp_find(c, name);

	return r && !isnan(r->cell[0].s.median);
}

static void add_detail(struct ts_cmp_decomp *d, const struct ts_cmp_row *r, int v,
		       const char *label, double scale)
{
	struct ts_cmp_part *p;

	if (!r || d->nr_detail == TS_CMP_MAX_PARTS)
		return;
	p = &d->detail[d->nr_detail++];
	p->label = label;
	p->metric = r->name;
	p->a = med(r, 0) * scale;
	p->b = med(r, v) * scale;
	p->delta = p->b - p->a;
	p->share = d->delta != 0 ? 100 * p->delta / d->delta : NAN;
}

/*
 * Whether wait @w ranks before @x among the waits shown: a measured change per operation (a
 * stack absent from one kernel, 0 there, changed by its whole time) before one with a side
 * unmeasured (NAN: the runs had no stacks, or listed it under their floor), which is printed
 * "-" and whose change is not known; among measured changes the larger, among the others the
 * larger measured side.
 */
static int wait_before(const struct ts_cmp_wait *w, const struct ts_cmp_wait *x)
{
	int mw = !isnan(w->a) && !isnan(w->b), mx = !isnan(x->a) && !isnan(x->b);

	if (mw != mx)
		return mw;
	if (mw)
		return fabs(w->b - w->a) > fabs(x->b - x->a);
	return fmax(isnan(w->a) ? 0 : w->a, isnan(w->b) ? 0 : w->b) >
	       fmax(isnan(x->a) ? 0 : x->a, isnan(x->b) ? 0 : x->b);
}

/* Over this share of the change (either way), or of the round trip, the residual is said. */
#define RESIDUAL_MAX 10.0

int ts_cmp_residual_words(const struct ts_cmp *c, int v, char *out, size_t n)
{
	const struct ts_cmp_decomp *d = &c->dec[v];
	const struct ts_cmp_part *res = d->nr ? &d->part[d->nr - 1] : NULL;
	double ga, gb;
	size_t len;

	out[0] = '\0';
	if (!d->kind || !res || res->metric || strcmp(d->kind, "round trip"))
		return 0;
	/* its share from the parts, which withhold_noise_shares() may have cleared */
	if (!((d->delta != 0 && fabs(100 * res->delta / d->delta) > RESIDUAL_MAX) ||
	      fabs(res->a) > d->a * RESIDUAL_MAX / 100 || fabs(res->b) > d->b * RESIDUAL_MAX / 100))
		return 0;
	if (isnan(d->window_a) || isnan(d->window_b) || isnan(d->none_a) || isnan(d->none_b)) {
		snprintf(out, n,
			 "The residual, %.4g -> %.4g µs/op, is unexplained: the runs hold no time "
			 "line of the benchmark's tasks to split it by.",
			 res->a, res->b);
		return 1;
	}
	ga = d->a - d->window_a; /* timed round trip less the traced window, per op */
	gb = d->b - d->window_b;
	len = snprintf(out, n,
		       "The residual, %.4g -> %.4g µs/op, is the time with every task of the "
		       "benchmark asleep, %.4g -> %.4g, plus the timed round trip less the traced "
		       "window per operation (the tasks' first to last event over the operations: "
		       "%.4g -> %.4g µs/op), %.4g -> %.4g (medians of the runs: the two need not "
		       "add up exactly).",
		       res->a, res->b, d->none_a, d->none_b, d->window_a, d->window_b, ga, gb);
	if (c->head[v].timing.verdict == TS_TIMING_DISAGREE) {
		const struct ts_cmp_timing *t = &c->head[v].timing;
		char p[24];

		/* start-up and warm-up lie in the window, which did not move: not them */
		ts_stats_p_text(p, sizeof(p), t->p);
		if (len < n)
			snprintf(
				out + len, n - len,
				" Its change is not the tasks' start-up or warm-up, which lie in "
				"the traced window that did not move: the benchmark's own timing "
				"disagrees with the trace (timed / traced window, run by run, %.3g "
				"-> %.3g, %s), as the headline says.",
				t->ratio_a, t->ratio_b, p);
		return 1;
	}
	for (int s = 0; s < 2 && len < n; s++) {
		double g = s ? gb : ga, t = s ? d->b : d->a;
		const char *name = c->var[s ? v : 0].name;

		if (fabs(g) <= t * RESIDUAL_MAX / 100)
			continue;
		if (g < 0)
			len += snprintf(out + len, n - len,
					" In %s the trace holds %.4g µs/op of the tasks' time "
					"outside the timed loop (start-up and teardown, or warm-up "
					"round trips slower than the timed ones), so the "
					"components can add up to more than "
					"the round trip.",
					name, -g);
		else
			len += snprintf(out + len, n - len,
					" In %s the timed round trip holds %.4g µs/op that the "
					"trace does not see of the benchmark's tasks (a task not "
					"named by --comm, or time before its first event).",
					name, g);
	}
	return 1;
}

/*
 * Off-CPU by state, then the 3 of the benchmark's tasks' heaviest waits (stack and state)
 * whose time per operation changed most.
 */
static void tput_details(struct ts_cmp *c, int v)
{
	struct ts_cmp_decomp *d = &c->dec[v];
	const struct ts_cmp_wait *top[3] = { NULL };

	for (int i = 0; i < 3; i++)
		if (has_values(c, tput_states[i].metric))
			add_detail(d, ts_cmp_find(c, tput_states[i].metric), v,
				   tput_states[i].label, tput_states[i].scale);
	for (int i = 0; i < c->nr_waits[v]; i++) {
		const struct ts_cmp_wait *w = &c->waits[v][i];

		for (int k = 0; k < 3; k++) {
			if (top[k] && !wait_before(w, top[k]))
				continue;
			for (int j = 2; j > k; j--)
				top[j] = top[j - 1];
			top[k] = w;
			break;
		}
	}
	for (int k = 0; k < 3 && top[k]; k++)
		add_detail(d, top[k]->row, v, top[k]->label, 1e-3);
}

static void decompose_all(struct ts_cmp *c)
{
	for (int v = 1; v < c->nr_var; v++) {
		if (!c->result)
			return;
		if (!strcmp(c->result->unit, "us") || !strcmp(c->result->unit, "us/op")) {
			if (has_values(c, latency_parts[0].metric)) {
				decompose(c, v, c->result->name, latency_parts, 3, "round trip");
				residual_parts(c, v);
			}
		} else if (has_values(c, "bench.time_per_op")) {
			decompose(c, v, "bench.time_per_op", tput_parts, 2, "time per operation");
			tput_details(c, v);
		}
	}
}

/* The share of the change of a part, or of a line under the split (off-CPU by state, a wait) */
static double share_of(const struct ts_cmp_decomp *d, const char *name)
{
	for (int i = 0; d->kind && i < d->nr; i++)
		if (d->part[i].metric && !strcmp(d->part[i].metric, name))
			return d->part[i].share;
	for (int i = 0; d->kind && i < d->nr_detail; i++)
		if (d->detail[i].metric && !strcmp(d->detail[i].metric, name))
			return d->detail[i].share;
	return NAN;
}

/*
 * Components by their share of the benchmark's change first; shares (of the CPU time, of the
 * wakes) that moved under 1 percentage point last, as the headline asks of a share; then what the kernel switched on or off (as the headline ranks it:
 * the tick stopping, a work function's runs), the rest by standardized effect size, then size
 * of the change. Never by the adjusted p: at the U test's floor hundreds of metrics tie.
 */
static int cmp_change(const void *pa, const void *pb)
{
	const struct ts_cmp_change *a = pa, *b = pb;
	double sa = isnan(a->share) ? -1 : fabs(a->share);
	double sb = isnan(b->share) ? -1 : fabs(b->share);

	if (sa != sb)
		return sa < sb ? 1 : -1;
	if (a->minor != b->minor)
		return a->minor - b->minor;
	if (a->switched != b->switched)
		return b->switched - a->switched;
	if (a->effect != b->effect)
		return a->effect < b->effect ? 1 : -1;
	return (fabs(a->change) < fabs(b->change)) - (fabs(a->change) > fabs(b->change));
}

static double effect_of(const struct ts_cmp_row *r, int v)
{
	const struct ts_summary *a = &r->cell[0].s, *b = &r->cell[v].s;
	double sa = isnan(a->sd) ? 0 : a->sd, sb = isnan(b->sd) ? 0 : b->sd;
	double pooled = sqrt((sa * sa + sb * sb) / 2), d = fabs(b->median - a->median);

	return pooled > 0 ? d / pooled : d > 0 ? INFINITY : 0;
}

/* The kind of a metric, for the interleave: its section ("idle", "timer", "task.offcpu_stack") */
static size_t kind_len(const char *name)
{
	size_t n = strcspn(name, ".");

	if (!strncmp(name, "task.", 5) || !strncmp(name, "sched.", 6))
		n += 1 + strcspn(name + n + 1, ".");
	return n;
}

static int same_kind(const struct ts_cmp_change *a, const struct ts_cmp_change *b)
{
	size_t n = kind_len(a->row->name);

	return n == kind_len(b->row->name) && !strncmp(a->row->name, b->row->name, n);
}

/* At most this many changes of one kind before every change of the others has come. */
#define KIND_CAP 3

/*
 * Families adjusted: after the components, a kind of metric (its section: "idle", "timer",
 * "task.offcpu_stack") keeps its KIND_CAP best in their ranked place; its others come after
 * every other kind's, so that one kind cannot crowd the others out by count alone. @ch[0..n)
 * is sorted; Return: 0 or -ENOMEM.
 */
static int interleave(struct ts_cmp_change *ch, int n)
{
	struct ts_cmp_change *out = malloc((n + 1) * sizeof(*out));
	int *later = calloc(n + 1, sizeof(*later)), k = 0;

	if (!out || !later) {
		free(out);
		free(later);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		int before = 0;

		for (int j = 0; j < i; j++)
			before += isnan(ch[i].share) && same_kind(&ch[i], &ch[j]);
		later[i] = before >= KIND_CAP;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			if (later[i] == pass)
				out[k++] = ch[i];
	memcpy(ch, out, n * sizeof(*ch));
	free(out);
	free(later);
	return 0;
}

/*
 * Whole-trace counts and sums grow with the trace's length, not with the kernel: they stay in
 * the table but are not ranked (their rates and per-operation forms are).
 */
static int rankable(const struct ts_cmp_row *r)
{
	size_t n = strlen(r->name);

	if (r->family != TS_FAM_TRACE)
		return 1;
	return strcmp(r->unit, "count") && !(n > 4 && !strcmp(r->name + n - 4, ".sum"));
}

/*
 * Whether row @r names a function of the tick's class ("timer.expire.<fn>.", "irq.timer.<fn>.",
 * "task.path.run.timer.<fn>.") that ran on one side only while the tick's class
 * (timer.expire.tick.per_s) ran in every run of both: the function was renamed between the
 * kernels, the tick was not switched on or off. 6.10 renamed tick_sched_timer to
 * tick_nohz_handler: Debian's 6.1 against 6.12 ranked "expiries of timer tick_nohz_handler 0
 * -> 247.1/s" and "tick_sched_timer 180.1 -> 0/s" fourth and sixth, as paths switched.
 */
static int tick_renamed(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	static const char *const pre[] = { "timer.expire.", "irq.timer.", "task.path.run.timer." };
	const struct ts_cmp_row *t = ts_cmp_find(c, "timer.expire.tick.per_s");
	char fn[128];

	if (!t || ts_cmp_all_pos(&t->cell[0], c->var[0].nr_runs) != 1 ||
	    ts_cmp_all_pos(&t->cell[v], c->var[v].nr_runs) != 1 || !ts_cmp_switched(c, r, v))
		return 0;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		size_t p = strlen(pre[i]);

		if (strncmp(r->name, pre[i], p))
			continue;
		snprintf(fn, sizeof(fn), "%.*s", (int)strcspn(r->name + p, "."), r->name + p);
		return ts_class_is_tick(fn);
	}
	return 0;
}

static int rank_changes(struct ts_cmp *c, int v)
{
	struct ts_cmp_change *ch = calloc(c->nr_rows + 1, sizeof(*ch));
	int n = 0;

	if (!ch)
		return -ENOMEM;
	for (int i = 0; i < c->nr_rows; i++) {
		const struct ts_cmp_row *r = &c->rows[i];

		if (r->family == TS_FAM_RESULT || !r->cell[v].significant || !rankable(r))
			continue;
		ch[n].row = r;
		ch[n].share = share_of(&c->dec[v], r->name);
		ch[n].p_adj = r->cell[v].p_adj;
		ch[n].change = r->cell[v].change;
		ch[n].effect = effect_of(r, v);
		ch[n].minor = (!strcmp(r->unit, "%") &&
			       fabs(r->cell[v].s.median - r->cell[0].s.median) < 1) ||
			      tick_renamed(c, r, v);
		ch[n].switched = ts_cmp_switched(c, r, v);
		n++;
	}
	qsort(ch, n, sizeof(*ch), cmp_change);
	c->changes[v] = ch;
	c->nr_changes[v] = n;
	return interleave(ch, n);
}

/*
 * When @v's benchmark did not change significantly, no share of its change is given (NAN: "-"
 * in the text, null in the JSON), the decomposition's, the ranked changes' and the headline's
 * alike: they would split noise (threadirqs' table gave 10.9% / against / 37.4% / residual
 * 87.4% of a change of p 0.82 while the headline withheld them). They are withheld once every
 * ranking is made: what the noise's size ranked stays in its place.
 */
static void withhold_noise_shares(struct ts_cmp *c, int v)
{
	struct ts_cmp_decomp *d = &c->dec[v];

	if (!c->result || c->result->cell[v].significant)
		return;
	for (int i = 0; d->kind && i < d->nr; i++)
		d->part[i].share = NAN;
	for (int i = 0; d->kind && i < d->nr_detail; i++)
		d->detail[i].share = NAN;
	for (int i = 0; i < c->nr_changes[v]; i++)
		c->changes[v][i].share = NAN;
	for (int i = 0; i < c->head[v].nr_mech; i++)
		c->head[v].mech[i].share = NAN;
}

int ts_cmp_explain(struct ts_cmp *c)
{
	int err = 0;

	ts_cmp_explain_waits(c);
	decompose_all(c);
	for (int v = 1; v < c->nr_var && !err; v++)
		err = rank_changes(c, v);
	err = err ?: ts_cmp_confounders(c);
	if (!err)
		ts_cmp_headline(c);
	for (int v = 1; v < c->nr_var && !err; v++)
		withhold_noise_shares(c, v);
	return err;
}
