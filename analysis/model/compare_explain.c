// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explanation of a comparison: the benchmark's change split into its components (round
 * trip, or time per operation), the significant changes ranked, and the confounders.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"

/* Other tasks' CPU share above this (%) is a confounder. */
#define OTHER_CPU_MAX 10.0

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

/* a wait's change per operation, for ranking (a stack absent from one kernel: its whole time) */
static double wait_change(const struct ts_cmp_wait *w)
{
	return fabs((isnan(w->b) ? 0 : w->b) - (isnan(w->a) ? 0 : w->a));
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
			if (top[k] && wait_change(w) <= wait_change(top[k]))
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
		ch[n].minor = !strcmp(r->unit, "%") &&
			      fabs(r->cell[v].s.median - r->cell[0].s.median) < 1;
		ch[n].switched = ts_cmp_switched(c, r, v);
		n++;
	}
	qsort(ch, n, sizeof(*ch), cmp_change);
	c->changes[v] = ch;
	c->nr_changes[v] = n;
	return interleave(ch, n);
}

const char *ts_cmp_fact_name(enum ts_run_fact f)
{
	static const char *const names[TS_FACT_NR] = {
		"kernel",   "cpus",   "cmdline",   "pinning",        "workload",
		"events",   "boot_args", "events_missing", "preempt", "arch",
		"nr_cpus", "cpu",    "release",   "nohz",
	};

	return f < TS_FACT_NR ? names[f] : "";
}

static int vadd(struct ts_cmp_confounder **list, int *nr, int *cap, const char *fmt, va_list ap)
{
	if (*nr == *cap) {
		struct ts_cmp_confounder *n;

		*cap = *cap ? 2 * *cap : 8;
		n = realloc(*list, *cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		*list = n;
	}
	vsnprintf((*list)[(*nr)++].text, sizeof((*list)[0].text), fmt, ap);
	return 0;
}

static int say(struct ts_cmp *c, int *cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(struct ts_cmp *c, int *cap, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vadd(&c->conf, &c->nr_conf, cap, fmt, ap);
	va_end(ap);
	return err;
}

static int note(struct ts_cmp *c, int *cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int note(struct ts_cmp *c, int *cap, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vadd(&c->notes, &c->nr_notes, cap, fmt, ap);
	va_end(ap);
	return err;
}

static const char *fact0(const struct ts_cmp_variant *v, int f)
{
	return v->runs[0].fact[f] ? v->runs[0].fact[f] : "(unknown)";
}

/* Is @tok (@n bytes) one of the whitespace-separated words of @list? */
static int has_word(const char *list, const char *tok, size_t n)
{
	while (list && *list) {
		size_t l;

		list += strspn(list, " \t");
		l = strcspn(list, " \t");
		if (l && l == n && !strncmp(list, tok, n))
			return 1;
		list += l;
	}
	return 0;
}

/*
 * @cmdline without the words of @declared (the variant's own boot parameters), into @out.
 * Return: @out.
 */
static const char *cmdline_rest(const char *cmdline, const char *declared, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	while (*cmdline) {
		size_t l;

		cmdline += strspn(cmdline, " \t");
		l = strcspn(cmdline, " \t");
		if (l && !has_word(declared, cmdline, l) && len + l + 2 < n)
			len += snprintf(out + len, n - len, "%s%.*s", len ? " " : "", (int)l,
					cmdline);
		cmdline += l;
	}
	return out;
}

/* Does the cmdline of @var differ from the baseline's beyond both variants' boot parameters? */
static int cmdline_differs(const struct ts_cmp_variant *base, const struct ts_cmp_variant *var)
{
	const char *a = base->runs[0].fact[TS_FACT_CMDLINE],
		   *b = var->runs[0].fact[TS_FACT_CMDLINE];
	char ra[1024], rb[1024];

	if (!a || !b)
		return (a == NULL) != (b == NULL);
	cmdline_rest(a, base->runs[0].fact[TS_FACT_BOOT_ARGS], ra, sizeof(ra));
	cmdline_rest(b, var->runs[0].fact[TS_FACT_BOOT_ARGS], rb, sizeof(rb));
	return strcmp(ra, rb) != 0;
}

/* Does fact @f of variant @v differ from the baseline's (the cmdline beyond the variants'
 * declared boot parameters; the declared parameters themselves are the change under test)?
 * The events are compared as sets by events_differ(). */
static int var_differs(const struct ts_cmp *c, int v, int f)
{
	/* the preemption model is the kernel's own, like its version: a note (preempt_note) */
	if (f == TS_FACT_BOOT_ARGS || f == TS_FACT_EVENTS || f == TS_FACT_EVENTS_MISSING ||
	    f == TS_FACT_PREEMPT || f == TS_FACT_RELEASE || f == TS_FACT_NOHZ)
		return 0;
	if (f == TS_FACT_CMDLINE)
		return cmdline_differs(&c->var[0], &c->var[v]);
	return strcmp(fact0(&c->var[v], f), fact0(&c->var[0], f)) != 0;
}

/* Append @t bytes of @tok to the comma list @buf (@n bytes, @len used), if they fit. */
static void list_add(char *buf, size_t *len, size_t n, const char *tok, size_t t)
{
	if (*len + t + 3 < n)
		*len += snprintf(buf + *len, n - *len, "%s%.*s", *len ? ", " : "", (int)t, tok);
}

/*
 * The events of @in's first run that @out's first run lacks, into @rec (the recording asked
 * for them differently: a confounder) or @ker (@out's recorder asked for them and its kernel
 * does not offer them, its meta.txt's events_missing: a difference of the kernels).
 */
static void events_only(const struct ts_cmp_variant *in, const struct ts_cmp_variant *out,
			char *rec, char *ker, size_t n)
{
	const char *l = in->runs[0].fact[TS_FACT_EVENTS];
	const char *other = out->runs[0].fact[TS_FACT_EVENTS];
	const char *miss = out->runs[0].fact[TS_FACT_EVENTS_MISSING];
	size_t lr = 0, lk = 0;

	rec[0] = ker[0] = '\0';
	while (l && *l) {
		size_t t = strcspn(l, ",");

		if (t && !ts_cmp_in_list(other, l, t)) {
			if (ts_cmp_in_list(miss, l, t))
				list_add(ker, &lk, n, l, t);
			else
				list_add(rec, &lr, n, l, t);
		}
		l += t + (l[t] == ',');
	}
}

/* The events of variant @v against the baseline's, as sets: a name one side's kernel does not
 * offer is a note (its metrics are null there); one the recordings chose differently is a
 * confounder. */
static int events_differ(struct ts_cmp *c, int v, int *cap, int *ncap)
{
	const struct ts_cmp_variant *pair[2] = { &c->var[0], &c->var[v] };
	char rec[2][400], ker[2][400];
	int err = 0;

	if (!pair[0]->runs[0].fact[TS_FACT_EVENTS] || !pair[1]->runs[0].fact[TS_FACT_EVENTS])
		return 0;
	for (int i = 0; i < 2; i++)
		events_only(pair[i], pair[!i], rec[i], ker[i], sizeof(rec[i]));
	for (int i = 0; i < 2 && !err; i++)
		if (ker[i][0])
			err = note(
				c, ncap,
				"%s recorded in %s only: the kernel of %s does not offer it "
				"(events_missing in its meta.txt), so what it measures is null there",
				ker[i], pair[i]->name, pair[!i]->name);
	for (int i = 0; i < 2 && !err; i++)
		if (rec[i][0])
			err = say(c, cap, "events differ: %s recorded in %s only", rec[i],
				  pair[i]->name);
	return err;
}

/*
 * The facts that could not be compared, per variant: unknown in its first run (no meta.txt,
 * or a file that does not say; no trace, or a header without the feature; a trace that does
 * not show it). Listed as "not checked" with why, so that "none found" is never said of what
 * was not looked at.
 */
static int unchecked(struct ts_cmp *c, int *cap)
{
#define END TS_FACT_NR /* the end of a group's list */
	static const struct {
		enum ts_run_fact f[6];
		const char *why;
	} groups[] = {
		{ { TS_FACT_KERNEL, TS_FACT_CPUS, TS_FACT_CMDLINE, TS_FACT_PINNING,
		    TS_FACT_WORKLOAD, TS_FACT_EVENTS },
		  "its runs' meta.txt does not say" },
		{ { TS_FACT_ARCH, TS_FACT_NR_CPUS, TS_FACT_CPU, END },
		  "no trace, a summary older than format 13, or a perf.data header without it" },
		{ { TS_FACT_NOHZ, END },
		  "timer:tick_stop not recorded, and no meta.txt says its kernel lacks it" },
	};
#undef END
	int err = 0;

	for (int v = 0; v < c->nr_var && !err; v++) {
		for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]) && !err; g++) {
			char list[200];
			size_t len = 0;

			list[0] = '\0';
			for (size_t i = 0; i < 6 && groups[g].f[i] < TS_FACT_NR; i++)
				if (!c->var[v].runs[0].fact[groups[g].f[i]])
					list_add(list, &len, sizeof(list),
						 ts_cmp_fact_name(groups[g].f[i]),
						 strlen(ts_cmp_fact_name(groups[g].f[i])));
			if (len)
				err = say(c, cap, "not checked: %s unknown for %s (%s)", list,
					  c->var[v].name, groups[g].why);
		}
	}
	return err;
}

/* Facts that differ between variants, or between the runs of one variant. */
static int fact_confounders(struct ts_cmp *c, int *cap, int *ncap)
{
	int err = 0;

	for (int v = 1; v < c->nr_var && !err; v++)
		err = events_differ(c, v, cap, ncap);
	for (int f = TS_FACT_CPUS; f < TS_FACT_NR && !err; f++) {
		for (int v = 0; v < c->nr_var && !err; v++) {
			const struct ts_cmp_variant *var = &c->var[v];

			for (int r = 1; r < var->nr_runs && !err && f != TS_FACT_EVENTS_MISSING;
			     r++) {
				const char *x = var->runs[r].fact[f];

				if (x && var->runs[0].fact[f] && strcmp(x, var->runs[0].fact[f])) {
					err = say(c, cap, "%s: runs differ in %s: %.200s vs %.200s",
						  var->name, ts_cmp_fact_name(f), fact0(var, f), x);
					break;
				}
			}
			if (v && var_differs(c, v, f))
				err = err   ?:
					      say(c, cap, "%s differs%s: %s %.200s vs %s %.200s",
						  ts_cmp_fact_name(f),
						  f == TS_FACT_CMDLINE ?
							  " beyond the variants' boot "
							  "parameters" :
							  "",
						  c->var[0].name, fact0(&c->var[0], f), var->name,
						  fact0(var, f));
		}
	}
	return err;
}

/* The runs of @v whose other tasks' share is above twice the limit: "run-1 50.7%, ...". */
static void busy_runs(const struct ts_cmp_variant *var, const struct ts_cmp_cell *x, char *buf,
		      size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int r = 0; r < var->nr_runs && len + 1 < n; r++) {
		const char *l = strrchr(var->runs[r].label, '/');

		if (!(x->values[r] > 2 * OTHER_CPU_MAX))
			continue;
		l = l && l[1] ? l + 1 : var->runs[r].label;
		len += snprintf(buf + len, n - len, "%s%s %.0f%%", len ? ", " : "", l,
				x->values[r]);
	}
}

static int load_confounders(struct ts_cmp *c, int *cap)
{
	const struct ts_cmp_row *o = ts_cmp_find(c, "task.other_cpu.share");
	char runs[200];
	int err = 0;

	for (int v = 0; v < c->nr_var && !err; v++) {
		const struct ts_cmp_variant *var = &c->var[v];

		for (int r = 0; r < var->nr_runs && !err; r++)
			if (var->runs[r].lost > 0)
				err = say(c, cap, "%s: %s lost %.0f events", var->name,
					  var->runs[r].label, var->runs[r].lost);
		if (!o || err)
			continue;
		busy_runs(var, &o->cell[v], runs, sizeof(runs));
		if (o->cell[v].s.median > OTHER_CPU_MAX || runs[0])
			err = say(
				c, cap,
				"%s: other tasks used %.1f%% of the CPU time (median of its runs%s%s); "
				"something ran alongside the benchmark",
				var->name, o->cell[v].s.median, runs[0] ? "; " : "", runs);
	}
	return err;
}

/*
 * In which variant all runs of @r are above zero and all of the baseline's (or of @v's) are
 * zero: @v (1), the baseline (-1), neither (0).
 */
static int only_in(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	int a = ts_cmp_all_pos(&r->cell[0], c->var[0].nr_runs);
	int b = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs);

	return a < 0 || b < 0 || a == b ? 0 : b ? 1 : -1;
}

/* The class of "@pre<class>@suf", into @cls; Return: 0, or -1 for another name. */
static int class_in(const char *name, const char *pre, const char *suf, char *cls, size_t n)
{
	size_t len = strlen(name), p = strlen(pre), q = strlen(suf);

	if (strncmp(name, pre, p) || len <= p + q || strcmp(name + len - q, suf))
		return -1;
	snprintf(cls, n, "%.*s", (int)(len - p - q), name + p);
	return 0;
}

/* The hint of @cls after ": ", or "". */
static const char *hint_of(const char *cls, const char **sep)
{
	const char *h = ts_cmp_class_hint(cls);

	*sep = *h ? ": " : "";
	return h;
}

/* Kernel threads (from perf's COMM records, which name every one) in one variant only. */
static int thread_notes(struct ts_cmp *c, int *cap, int v)
{
	char cls[64], name[128], ran[96];
	const char *sep, *hint;
	int err = 0;

	for (int i = 0; i < c->nr_rows && !err; i++) {
		const struct ts_cmp_row *r = &c->rows[i], *cpu;
		int o = only_in(c, r, v), k = o > 0 ? v : 0;

		if (!o || class_in(r->name, "sched.threads.", ".count", cls, sizeof(cls)) ||
		    !strcmp(cls, "count"))
			continue;
		snprintf(name, sizeof(name), "task.other_cpu.%s.share", cls);
		cpu = ts_cmp_find(c, name);
		ran[0] = '\0';
		if (cpu && only_in(c, cpu, v) == o)
			snprintf(ran, sizeof(ran), " and ran (%.2f%% of the CPU time)",
				 cpu->cell[k].s.median);
		hint = hint_of(cls, &sep);
		err = note(c, cap,
			   "%s threads existed in every run of %s (%.0f, median)%s, in no "
			   "run of %s%s%s",
			   cls, c->var[k].name, r->cell[k].s.median, ran,
			   c->var[o > 0 ? 0 : v].name, sep, hint);
	}
	return err;
}

/*
 * Task classes that ran in one variant only (and that thread_notes() did not name): a class
 * of the kernel's threads ("sched.threads.<class>.count" in some run: kthreadd's children by
 * their FORK records; or a class the kernel names, for summaries older than that) is a
 * difference of the kernels, a note in @ncap; a user program that ran beside the benchmark
 * (dpkg-query, cc) says nothing of the kernel: a confounder in @cap, with its CPU share.
 */
static int ran_notes(struct ts_cmp *c, int *cap, int *ncap, int v)
{
	char cls[64], name[128];
	const char *sep, *hint;
	int err = 0;

	for (int i = 0; i < c->nr_rows && !err; i++) {
		const struct ts_cmp_row *r = &c->rows[i], *t;
		int o = only_in(c, r, v), k = o > 0 ? v : 0;

		if (!o || class_in(r->name, "task.other_cpu.", ".share", cls, sizeof(cls)))
			continue;
		snprintf(name, sizeof(name), "sched.threads.%s.count", cls);
		t = ts_cmp_find(c, name);
		if (t && only_in(c, t, v) == o) /* said there */
			continue;
		hint = hint_of(cls, &sep);
		if (!t && !*hint) {
			err = say(
				c, cap,
				"%s, a program and not a kernel thread, ran beside the benchmark "
				"in every run of %s (%.2f%% of the CPU time, median) and in no run "
				"of %s",
				cls, c->var[k].name, r->cell[k].s.median,
				c->var[o > 0 ? 0 : v].name);
			continue;
		}
		err = note(c, ncap,
			   "%s tasks ran in every run of %s (%.2f%% of the CPU time, "
			   "median) and in no run of %s%s%s",
			   cls, c->var[k].name, r->cell[k].s.median, c->var[o > 0 ? 0 : v].name,
			   sep, hint);
	}
	return err;
}

/*
 * Task classes that existed ("sched.threads.<class>.count") or ran
 * ("task.other_cpu.<class>.share") in every run of one variant and in no run of the other:
 * the kernels' own threads, from the data, whatever the benchmark did; user programs among
 * those that ran are confounders.
 */
static int class_notes(struct ts_cmp *c, int *cap, int *ncap)
{
	int err = 0;

	for (int v = 1; v < c->nr_var && !err; v++)
		err = thread_notes(c, ncap, v) ?: ran_notes(c, cap, ncap, v);
	return err;
}

/* Fact @f of every variant when they differ, as a note: "@what: A x, B y". */
static int kernel_fact_note(struct ts_cmp *c, int *cap, enum ts_run_fact f, const char *what)
{
	char text[800];
	size_t len = 0;
	int differ = 0;

	for (int v = 1; v < c->nr_var; v++)
		differ |= strcmp(fact0(&c->var[v], f), fact0(&c->var[0], f)) != 0;
	if (!differ)
		return 0;
	for (int v = 0; v < c->nr_var && len + 1 < sizeof(text); v++)
		len += snprintf(text + len, sizeof(text) - len, "%s%s %s", v ? ", " : "",
				c->var[v].name, fact0(&c->var[v], f));
	return note(c, cap, "%s: %s", what, text);
}

/* The preemption model and the tick of every variant, when they differ. */
static int preempt_note(struct ts_cmp *c, int *cap)
{
	return kernel_fact_note(c, cap, TS_FACT_PREEMPT,
				"preemption model (each run's kernel config, else its trace)") ?:
		       kernel_fact_note(c, cap, TS_FACT_NOHZ,
					"the tick on idle CPUs (inferred from each run's trace)");
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
	int cap = 0, ncap = 0, err = 0;

	ts_cmp_explain_waits(c);
	decompose_all(c);
	for (int v = 1; v < c->nr_var && !err; v++)
		err = rank_changes(c, v);
	err = err ?: fact_confounders(c, &cap, &ncap);
	err = err ?: load_confounders(c, &cap);
	err = err ?: unchecked(c, &cap);
	err = err ?: preempt_note(c, &ncap);
	err = err ?: class_notes(c, &cap, &ncap);
	if (!err)
		ts_cmp_headline(c);
	for (int v = 1; v < c->nr_var && !err; v++)
		withhold_noise_shares(c, v);
	return err;
}
