// SPDX-License-Identifier: GPL-2.0-only
/*
 * The headline of a comparison: the benchmark's change with its interval and p, the
 * components of the decomposition that carry it, and the kernel mechanisms that feed each
 * component (compare_chain.c's rules, written out in docs/compare.md), best first; where a
 * mechanism or the decomposition could not be looked at, one line says why and what to add.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_chain.h"

static void hl(struct ts_cmp_headline *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Add a line to the headline (the last ones are dropped when it is full). */
static void hl(struct ts_cmp_headline *h, const char *fmt, ...)
{
	va_list ap;

	if (h->nr_lines == TS_CMP_MAX_HEAD)
		return;
	va_start(ap, fmt);
	vsnprintf(h->line[h->nr_lines++], sizeof(h->line[0]), fmt, ap);
	va_end(ap);
}

/* No space before "/s" and "%", one before other units. */
static const char *gap(const char *unit)
{
	return *unit == '/' || *unit == '%' || !*unit ? "" : " ";
}

/*
 * A change in words, never a bare sign (as compare's text says it): "12.3% better",
 * "(4.0% higher)" for a neutral metric, "change not measured" without a figure.
 */
static const char *words(char *buf, size_t n, double pct, enum ts_metric_dir dir)
{
	if (!isfinite(pct))
		snprintf(buf, n, "change not measured");
	else if (fabs(pct) < 0.05)
		snprintf(buf, n, "0.0%%, no change");
	else if (dir == TS_DIR_NEUTRAL)
		snprintf(buf, n, "(%.1f%% %s)", fabs(pct), pct >= 0 ? "higher" : "lower");
	else
		snprintf(buf, n, "%.1f%% %s", fabs(pct), pct >= 0 ? "better" : "worse");
	return buf;
}

/* A figure with 4 significant digits, "-" when unmeasured. */
static const char *fig(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1e4)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
	return buf;
}

static const char *verdict(const struct ts_cmp *c, const struct ts_cmp_cell *x)
{
	if (isnan(x->p))
		return "not tested (a side has no value)";
	if (x->significant)
		return "significant";
	return x->t.min_p >= c->o.alpha ? "too few runs to test" : "not significant";
}

/* The benchmark's change: its medians, the change, its interval and p, and the verdict. */
static void result_line(struct ts_cmp *c, int v)
{
	const struct ts_cmp_row *r = c->result;
	const struct ts_cmp_cell *x;
	char a[32], b[32], ci[96], unit[16], lo[32], hi[32], chg[40], p[24], what[128];
	double f;

	if (!r) {
		hl(&c->head[v],
		   "%s vs %s: no benchmark result to compare (the runs hold no "
		   "workload.out or stress-ng.yaml that tickscope reads)",
		   c->var[v].name, c->var[0].name);
		return;
	}
	x = &r->cell[v];
	f = ts_cmp_show_unit(r->unit, unit, sizeof(unit));
	if (isnan(x->ci_lo))
		snprintf(ci, sizeof(ci), "no CI");
	else if (x->t.level <= 0)
		snprintf(ci, sizeof(ci), "no CI (too few runs for one)");
	else
		snprintf(ci, sizeof(ci), "%.0f%% CI [%s, %s]", 100 * fmin(x->t.level, 0.95),
			 words(lo, sizeof(lo), x->ci_lo, r->dir),
			 words(hi, sizeof(hi), x->ci_hi, r->dir));
	if (isfinite(x->p))
		ts_stats_p_text(p, sizeof(p), x->p);
	else
		snprintf(p, sizeof(p), "no p");
	hl(&c->head[v], "%s vs %s: %s %s -> %s%s%s, %s, %s, %s: %s", c->var[v].name, c->var[0].name,
	   ts_cmp_metric_words(r->name, what, sizeof(what)), fig(a, 32, r->cell[0].s.median * f),
	   fig(b, 32, x->s.median * f), gap(unit), unit, words(chg, sizeof(chg), x->change, r->dir),
	   ci, p, verdict(c, x));
}

/*
 * When a fact that defines the benchmark differs (compare_confound.c, c->bdef), one line
 * right after the benchmark's: what differs, in its shortest form, and whether the kernels
 * are the same; when they are, the A/B is not a kernel A/B, and the lines below are what the
 * benchmark's change did.
 */
static void bench_line(struct ts_cmp *c, int v)
{
	const struct ts_cmp_benchdef *d = &c->bdef[v];
	char what[360];
	size_t len = 0;

	if (!d->nr_diff)
		return;
	what[0] = '\0';
	for (int i = 0; i < d->nr_diff && len + 1 < sizeof(what); i++) {
		const struct ts_cmp_defdiff *x = &d->diff[i];
		const char *name = ts_cmp_fact_name(x->fact);

		if (!*x->a || !*x->b)
			len += snprintf(what + len, sizeof(what) - len, "%s%s %.120s in %s only",
					i ? "; " : "", name, *x->a ? x->a : x->b,
					c->var[*x->a ? 0 : v].name);
		else
			len += snprintf(what + len, sizeof(what) - len, "%s%s %.100s -> %.100s",
					i ? "; " : "", name, x->a, x->b);
	}
	if (d->kernels == TS_KERNELS_SAME)
		hl(&c->head[v],
		   "  not a kernel A/B: the benchmark differs (%s) and the kernel is the same "
		   "(%s, one command line); what follows is what the benchmark's change did",
		   what, d->kernel);
	else if (d->kernels == TS_KERNELS_DIFFER)
		hl(&c->head[v],
		   "  the benchmark differs too, not only the kernel (%s; the kernels differ in their "
		   "%s): what follows mixes both",
		   what, d->kernel);
	else
		hl(&c->head[v],
		   "  the benchmark differs (%s); whether the kernels do too is not known (%s)",
		   what, d->kernel);
}

/* A config difference "PREEMPT_RCU=n RCU_BOOST=n" -> "..." as "PREEMPT_RCU n -> y, ...". */
static size_t config_words(const struct ts_cmp_kdiff *x, char *out, size_t n)
{
	const char *a = x->a, *b = x->b;
	size_t len = 0;

	while (*a && *b && len + 1 < n) {
		int la = (int)strcspn(a, " "), lb = (int)strcspn(b, " ");
		int k = (int)strcspn(a, "=");

		len += snprintf(out + len, n - len, "%s%.*s %.*s -> %.*s", len ? ", " : "", k, a,
				la - k - 1, a + k + 1, lb - k - 1, b + k + 1);
		a += la + (a[la] == ' ');
		b += lb + (b[lb] == ' ');
	}
	return len;
}

/*
 * A difference "a -> b", "(none)" for an empty side; a parenthesis both sides end with is said
 * once: "preempt=none -> preempt=full (PREEMPT_DYNAMIC, built PREEMPT_VOLUNTARY)".
 */
static size_t pair_words(const struct ts_cmp_kdiff *x, char *out, size_t n)
{
	const char *pa = strstr(x->a, " ("), *pb = strstr(x->b, " (");

	if (pa && pb && !strcmp(pa, pb) && pa > x->a && pb > x->b)
		return snprintf(out, n, "%.*s -> %.*s%s", (int)(pa - x->a), x->a, (int)(pb - x->b),
				x->b, pa);
	return snprintf(out, n, "%s -> %s", *x->a ? x->a : "(none)", *x->b ? x->b : "(none)");
}

/*
 * When the kernels differ in a fact known on both sides (compare_confound.c, kernel_diffs()),
 * one line before the components: what they differ in, the preemption model first, so that
 * the kernel difference under test is named where an engineer looks first. It says what
 * differs, not what of it moved the benchmark (the mechanisms below do). One build booted
 * two ways says so.
 */
static void kernel_line(struct ts_cmp *c, int v)
{
	const struct ts_cmp_benchdef *d = &c->bdef[v];
	char text[400];
	size_t len = 0;

	if (!d->nr_kdiff)
		return;
	text[0] = '\0';
	for (int i = 0; i < d->nr_kdiff && len + 1 < sizeof(text); i++) {
		const struct ts_cmp_kdiff *x = &d->kdiff[i];

		len += snprintf(text + len, sizeof(text) - len, "%s%s ", i ? "; " : "", x->what);
		if (len + 1 >= sizeof(text))
			break;
		if (x->fact == TS_FACT_KCONFIG)
			len += config_words(x, text + len, sizeof(text) - len);
		else
			len += pair_words(x, text + len, sizeof(text) - len);
	}
	if (d->one_build)
		hl(&c->head[v], "  one kernel build (build id %.12s), booted two ways: %s",
		   c->var[0].runs[0].fact[TS_FACT_BUILD_ID], text);
	else
		hl(&c->head[v], "  the kernels differ in: %s", text);
}

/* A factor in words: "4.0x", "12x". */
static const char *times(char *buf, size_t n, double f)
{
	snprintf(buf, n, f >= 9.95 ? "%.0fx" : "%.1fx", f);
	return buf;
}

/* A factor B / A in words, two digits below 1: "0.29x", "1.4x". */
static const char *factor(char *buf, size_t n, double f)
{
	if (f < 0.995)
		snprintf(buf, n, "%.2fx", f);
	else
		times(buf, n, f);
	return buf;
}

/*
 * When the benchmark's result moved and the trace's window per operation did not move with it
 * (ts_cmp_timing()), one line before the components and every mechanism: the benchmark's own
 * timing disagrees with the trace, with both figures, their factors B / A and the per-run
 * ratio's change; what the trace shows below did not move the result.
 */
static void timing_line(struct ts_cmp *c, int v)
{
	const struct ts_cmp_timing *t = &c->head[v].timing;
	char ra[32], rb[32], wa[32], wb[32], xa[32], xb[32], fr[32], fw[32], fx[32], p[24];
	int slow = t->ratio_b < t->ratio_a;

	if (t->verdict != TS_TIMING_DISAGREE)
		return;
	ts_stats_p_text(p, sizeof(p), t->p);
	hl(&c->head[v],
	   "  the benchmark's own timing disagrees with the trace: its result %s -> %s µs/op "
	   "(%s) while the trace's window per operation went %s -> %s µs/op (%s, not beyond "
	   "the runs' spread); timed / traced, run by run, %s -> %s (%s, %s): %s; what the trace "
	   "shows below did not move the result",
	   fig(ra, 32, t->res_a), fig(rb, 32, t->res_b), factor(fr, 32, t->res_b / t->res_a),
	   fig(wa, 32, t->win_a), fig(wb, 32, t->win_b), factor(fw, 32, t->win_b / t->win_a),
	   fig(xa, 32, t->ratio_a), fig(xb, 32, t->ratio_b),
	   factor(fx, 32, t->ratio_b / t->ratio_a), p,
	   slow ? "the benchmark counted less time than its tasks spent in the trace (its clock "
		  "running slow or coarse, or time it counts outside the traced window that "
		  "shrank)" :
		  "the benchmark counted more time than its tasks spent in the trace (time it "
		  "counts outside the traced window: a task not named by --comm, before its "
		  "first event; or its clock running fast)");
}

/* A part's share in words: "46% of the change", or why it is not one. */
static const char *share_words(double share, char *buf, size_t n)
{
	if (isnan(share))
		snprintf(buf, n, "no share");
	else if (share < 0)
		snprintf(buf, n, "moved against the change");
	else if (share > 100)
		snprintf(buf, n, "more than the change: other parts moved against it");
	else
		snprintf(buf, n, "%.0f%% of the change", share);
	return buf;
}

/* Whether @v's and the baseline's runs are too few for the U test to reach alpha. */
static int too_few(const struct ts_cmp *c, int v)
{
	return ts_cmp_runs_min_p(c->var[0].nr_runs, c->var[v].nr_runs) >= c->o.alpha;
}

/* The components, the largest share first; without shares when the benchmark did not change. */
static void components_line(struct ts_cmp *c, int v)
{
	const struct ts_cmp_decomp *d = &c->dec[v];
	int sig = c->result && c->result->cell[v].significant, used[TS_CMP_MAX_PARTS] = { 0 };
	char text[360], a[32], b[32], s[64];
	size_t len = 0;

	text[0] = '\0';
	for (int k = 0; k < d->nr; k++) {
		int best = -1;

		for (int i = 0; i < d->nr; i++)
			if (!used[i] && d->part[i].metric &&
			    (best < 0 || ts_cmp_valid_share(d->part[i].share) >
						 ts_cmp_valid_share(d->part[best].share)))
				best = i;
		if (best < 0 || len + 1 >= sizeof(text))
			break;
		used[best] = 1;
		len += snprintf(text + len, sizeof(text) - len, "%s%s %s -> %s%s%s%s",
				len ? ", " : "", d->part[best].label, fig(a, 32, d->part[best].a),
				fig(b, 32, d->part[best].b), sig ? " (" : "",
				sig ? share_words(d->part[best].share, s, sizeof(s)) : "",
				sig ? ")" : "");
	}
	if (sig)
		hl(&c->head[v], "  carried by (µs/op): %s", text);
	else
		hl(&c->head[v], "  components (µs/op; no shares, %s): %s",
		   too_few(c, v) ? "too few runs to test the benchmark" :
				   "the benchmark did not change",
		   text);
}

/*
 * The run time's split, when the irq events were recorded: the benchmark's own time, the hard
 * IRQs' and the softirqs' (they add up to the run time), and of those the timer callbacks' and
 * the tick's, so that an interrupt's cost (nohz=off's tick) is in the first lines.
 */
static void run_split_line(struct ts_cmp *c, int v)
{
	static const char *const part[][2] = {
		{ "own", "own" },
		{ "hardirq", "hard IRQs" },
		{ "softirq", "softirqs" },
		{ "timers", "of which timer callbacks" },
		{ "tick", "the tick's handler" },
	};
	const struct ts_cmp_part *run = ts_cmp_comp_part(c, v, C_RUN);
	char text[360], name[64], a[32], b[32];
	size_t len = 0;
	int shown = 0, unseen = ts_cmp_tick_unseen(c, v) >= 0;

	if (!run || strcmp(run->metric, "task.path.run.per_op"))
		return;
	text[0] = '\0';
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]) && len < sizeof(text); i++) {
		const struct ts_cmp_row *r;

		/* the tick by its hrtimer, where a side ran it without one (missing_lines()) */
		if (unseen && !strcmp(part[i][0], "tick"))
			continue;
		snprintf(name, sizeof(name), "task.path.run.%s.per_op", part[i][0]);
		r = ts_cmp_find(c, name);
		if (!r || (isnan(r->cell[0].s.median) && isnan(r->cell[v].s.median)))
			continue;
		len += snprintf(text + len, sizeof(text) - len, "%s%s %s -> %s", len ? ", " : "",
				part[i][1], fig(a, 32, r->cell[0].s.median * 1e-3),
				fig(b, 32, r->cell[v].s.median * 1e-3));
		shown++;
	}
	if (shown)
		hl(&c->head[v], "  %s %s -> %s µs/op, taken by (µs/op): %s", run->label,
		   fig(a, 32, run->a), fig(b, 32, run->b), text);
}

/*
 * For a program's CPU share beside the benchmark (ts_cmp_program_row()): how long it ran per
 * operation and how much of its component's growth that leaves room for, the most it can
 * explain ("; it ran 41.83 µs/op, room for 70% of the sched delay's growth"); else "".
 */
static const char *program_words(const struct ts_cmp *c, int v, const struct ts_cmp_mech *m,
				 char *buf, size_t n)
{
	double run, grow, room = ts_cmp_program_room(c, m->row, v, &run, &grow);
	char r[32], pct[32];

	buf[0] = '\0';
	if (isnan(room))
		return buf;
	snprintf(pct, sizeof(pct), "%.0f%%", 100 * room);
	snprintf(buf, n, "; it ran %s µs/op, room for %s of the %s's growth",
		 fig(r, 32, run * 1e-3), room >= 1 ? "all" : pct, m->component);
	return buf;
}

/* One mechanism: "component <- label A -> B unit (share, p, separation)". */
static void mech_line(struct ts_cmp *c, int v, const struct ts_cmp_mech *m)
{
	const struct chain_rule *ru;
	char a[32], b[32], s[64], p[48], cls[200], prog[160];

	p[0] = s[0] = '\0';
	program_words(c, v, m, prog, sizeof(prog));
	ru = ts_cmp_rule_of(m->row, cls, sizeof(cls));
	if (m->by_count) {
		/* a rate switched on or off, unconfirmed by its counts a run: say them */
		int k = ts_cmp_all_pos(&m->row->cell[v], c->var[v].nr_runs) == 1 ? v : 0;
		char lo[32], hi[32], t[32], e[32];

		hl(&c->head[v],
		   "  %s%s%s %s -> %s%s%s (%s-%s events in every run of %s, none in %s's %d runs "
		   "over %s s, where %s's least rate expects %s; unconfirmed)",
		   m->component, *m->component ? " <- " : "", m->label, fig(a, 32, m->a),
		   fig(b, 32, m->b), gap(m->unit), m->unit, fig(lo, 32, round(m->count_lo)),
		   fig(hi, 32, round(m->count_hi)), c->var[k].name, c->var[k ? 0 : v].name,
		   c->var[k ? 0 : v].nr_runs, fig(t, 32, round(m->zero_s * 10) / 10),
		   c->var[k].name, fig(e, 32, round(m->expect)));
		return;
	}
	if (ru && (ru->how == H_ONLY ||
		   (!m->row->cell[v].significant &&
		    (ts_cmp_switched(c, m->row, v) || ts_cmp_program_row(c, m->row, v))))) {
		/*
		 * Qualified by existing in every run of one side and no run of the other (a thread
		 * class, or a path switched on or off: switched_p()), not by the U test: an
		 * adjusted p beside it (p=0.11 with 6 runs a side) would read as doubt
		 */
		int k = ts_cmp_all_pos(&m->row->cell[v], c->var[v].nr_runs) == 1 ? v : 0;

		hl(&c->head[v], "  %s%s%s %s -> %s%s%s (in every run of %s, none of %s%s)",
		   m->component, *m->component ? " <- " : "", m->label, fig(a, 32, m->a),
		   fig(b, 32, m->b), gap(m->unit), m->unit, c->var[k].name, c->var[k ? 0 : v].name,
		   prog);
		return;
	}
	if (isnan(m->b) || isnan(m->a)) {
		hl(&c->head[v], "  %s%s%s %s%s%s -> none: %s's kernel does not offer the event",
		   m->component, *m->component ? " <- " : "", m->label,
		   fig(a, 32, isnan(m->a) ? m->b : m->a), gap(m->unit), m->unit,
		   c->var[isnan(m->a) ? 0 : v].name);
		return;
	}
	if (!c->result || !c->result->cell[v].significant)
		; /* no shares when the benchmark did not change: they would split noise */
	else if (ts_cmp_valid_share(m->share) > 0)
		snprintf(s, sizeof(s), "%.0f%% of the change, ", m->share);
	else if (m->share > 100)
		snprintf(s, sizeof(s), "more than the change: others moved against it, ");
	if (m->tested) {
		ts_stats_p_text(p, sizeof(p) - 2, m->p);
		strcat(p, ", ");
	}
	if (m->by_part) {
		/* unconfirmed by its part of its component, run by run: say the parts */
		hl(&c->head[v],
		   "  %s%s%s %s -> %s%s%s (%s%.3g-%.3g%% of %s in the runs of %s, "
		   "%.3g-%.3g%% in those of %s; %s)",
		   m->component, *m->component ? " <- " : "", m->label, fig(a, 32, m->a),
		   fig(b, 32, m->b), gap(m->unit), m->unit, s, m->part_lo[0], m->part_hi[0],
		   m->component, c->var[0].name, m->part_lo[1], m->part_hi[1], c->var[v].name,
		   too_few(c, v) ? "too few runs to test" : "not significant after the adjustment");
		return;
	}
	hl(&c->head[v], "  %s%s%s %s -> %s%s%s (%s%s%s%s)", m->component,
	   *m->component ? " <- " : "", m->label, fig(a, 32, m->a), fig(b, 32, m->b), gap(m->unit),
	   m->unit, s, p,
	   !strcmp(m->separation, "complete") ?
		   (m->tested	  ? "every run apart" :
		    too_few(c, v) ? "every run apart, too few runs to test" :
				    "every run apart, not significant after the adjustment") :
		   "runs overlap",
	   prog);
}

/*
 * Whether the CPU runs the same work slower (faster), or the benchmark's own code moved alone
 * (ts_cmp_speed()): one line before the mechanisms, with the per-call costs that show it, so
 * that a uniform slowdown is not read as the mechanisms that it stretched, nor a benchmark's
 * own growth as a slower machine.
 */
static void speed_line(struct ts_cmp *c, int v)
{
	const struct ts_cmp_speed *sp = &c->head[v].speed;
	int up = sp->own_ratio > 1;
	double f = up ? sp->own_ratio : 1 / sp->own_ratio,
	       s = sp->ratio > 1 ? sp->ratio : 1 / sp->ratio;
	char list[300], a[32], b[32], x[32], y[32], o[32], irq_a[32], irq_b[32], ratio[32];
	size_t len = 0;

	if (!sp->verdict)
		return;
	list[0] = '\0';
	for (int i = 0; i < sp->nr_cost && len + 1 < sizeof(list); i++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s %s -> %s µs", i ? ", " : "",
				sp->cost[i].words, fig(a, 32, sp->cost[i].a * 1e-3),
				fig(b, 32, sp->cost[i].b * 1e-3));
	if (sp->verdict == TS_SPEED_RESPLIT) {
		hl(&c->head[v],
		   "    not shown to be its own code: the benchmark's own run time %s %s (%s -> %s "
		   "µs/op) but its run time did not %s with it (%s -> %s µs/op): the interrupts "
		   "inside it went %s -> %s µs/op, and the own part %s; the kernel's fixed "
		   "work per call stayed (%s; %s over %d per-call costs, median)",
		   up ? "grew" : "fell", times(x, 32, f), fig(a, 32, sp->own_a * 1e-3),
		   fig(b, 32, sp->own_b * 1e-3), up ? "grow" : "fall", fig(o, 32, sp->run_a * 1e-3),
		   fig(y, 32, sp->run_b * 1e-3), fig(irq_a, 32, (sp->run_a - sp->own_a) * 1e-3),
		   fig(irq_b, 32, (sp->run_b - sp->own_b) * 1e-3),
		   up ? "took their time" : "gave its time to them", list,
		   times(ratio, 32, sp->ratio), sp->nr);
		return;
	}
	if (sp->verdict == TS_SPEED_OWN) {
		hl(&c->head[v],
		   "    its own code, not a %s CPU: the benchmark's own run time %s %s (%s -> %s "
		   "µs/op) while the kernel's fixed work per call stayed (%s; %s over %d per-call "
		   "costs, median); what its tasks run outside interrupts, their code or system "
		   "calls, the recorded events cannot split: record raw_syscalls:sys_enter/sys_exit, "
		   "or perf record -g -e cycles",
		   up ? "slower" : "faster", up ? "grew" : "fell", times(x, 32, f),
		   fig(a, 32, sp->own_a * 1e-3), fig(b, 32, sp->own_b * 1e-3), list,
		   times(y, 32, sp->ratio), sp->nr);
		return;
	}
	hl(&c->head[v],
	   "  the CPU runs the same kernel work %s %s in %s: per call, %s (%s over %d per-call "
	   "costs, median; %d of them every run apart), as the benchmark's own run time %s %s "
	   "(%s -> %s µs/op): %s",
	   times(x, 32, s), sp->ratio > 1 ? "slower" : "faster", c->var[v].name, list,
	   times(y, 32, sp->ratio), sp->nr, sp->nr_apart, up ? "grew" : "fell", times(a, 32, f),
	   fig(b, 32, sp->own_a * 1e-3), fig(o, 32, sp->own_b * 1e-3),
	   f / s >= 1.5 ? "the rest is in its own code or system calls" :
	   f / s <= 1 / 1.5 ?
			  "less than the kernel's work per call did" :
			  "a CPU that runs everything alike (its clock, an emulator, a cost on "
			  "every kernel entry such as a mitigation), not a scheduling mechanism");
}

/*
 * When the CPU runs the same work slower (faster), mechanism @m's line (the last one) says so
 * when @m moved as the CPU did: a time by the per-call costs' factor, a rate per second by its
 * inverse (fewer a second as everything slows), within 1.5x of it. What a slower CPU
 * stretched is not what made it slower: under qemu -icount shift=2 against 0, the idle-exit
 * time and the IPIs waking idle CPUs moved 4x, as everything did.
 */
static void stretched_words(struct ts_cmp *c, int v, const struct ts_cmp_mech *m)
{
	struct ts_cmp_headline *h = &c->head[v];
	const struct ts_cmp_speed *sp = &h->speed;
	size_t n, us = strlen("µs");
	double r;
	char *l;

	if (sp->verdict != TS_SPEED_CPU || !h->nr_lines || !(m->a > 0) || !(m->b > 0))
		return;
	r = m->b / m->a;
	if (!strcmp(m->unit, "/s"))
		r = 1 / r;
	else if (strncmp(m->unit, "µs", us))
		return;
	if (fabs(log(r / sp->ratio)) >= log(1.5))
		return;
	l = h->line[h->nr_lines - 1];
	n = strlen(l);
	if (n && l[n - 1] == ')' && n + 48 < sizeof(h->line[0]))
		snprintf(l + n - 1, sizeof(h->line[0]) - (n - 1), "; %s as the CPU)",
			 !strcmp(m->unit, "/s") ? "fewer a second," : "stretched");
}

/* Whether any run gave a trace metric. */
static int has_trace(const struct ts_cmp *c)
{
	for (int i = 0; i < c->nr_rows; i++)
		if (c->rows[i].family == TS_FAM_TRACE)
			return 1;
	return 0;
}

/* Why @v has no decomposition, and what to add. */
static void no_decomposition(struct ts_cmp *c, int v)
{
	if (!c->result)
		return;
	if (!has_trace(c))
		hl(&c->head[v], "  no decomposition and no mechanism: the runs hold no trace "
				"(perf.data or its summary); record with tickscope record");
	else if (!strcmp(c->result->unit, "us") || !strcmp(c->result->unit, "us/op"))
		hl(&c->head[v], "  no decomposition: the benchmark's tasks are not known in the "
				"trace; give --comm NAME (or a meta.txt workload_cmd)");
	else
		hl(&c->head[v],
		   "  no decomposition: no time per operation (the benchmark's output "
		   "gives no operation count, or the trace has no benchmark task: --comm)");
}

/* What the mechanisms could not say: interrupt time not recorded, too few runs, nothing. */
static void missing_lines(struct ts_cmp *c, int v)
{
	const struct ts_cmp_part *run = ts_cmp_comp_part(c, v, C_RUN);
	const struct ts_cmp_headline *h = &c->head[v];
	int untested = 0, by_part = 0, by_count = 0;
	char also[200];

	for (int i = 0; i < h->nr_mech; i++) {
		untested |= !h->mech[i].tested;
		by_part |= h->mech[i].by_part;
		by_count |= h->mech[i].by_count;
	}
	if (ts_cmp_tick_unseen(c, v) >= 0) {
		int k = ts_cmp_tick_unseen(c, v);
		const struct ts_cmp_row *w = ts_cmp_find(c, "rcu.window.scheduler-tick.count");

		hl(&c->head[v],
		   "  the tick ran in every run of %s without its hrtimer: tick_sched_timer never "
		   "expired there, while RCU's scheduler-tick windows counted %.0f a run (median): "
		   "low-resolution mode (highres=off, or no one-shot clock event device); the tick's "
		   "figures by its hrtimer are no mechanism here",
		   c->var[k].name, w->cell[k].s.median);
	}
	snprintf(also, sizeof(also), "%s%s%s%s%s", by_part || by_count ? " (or" : "",
		 by_part ? ", for a time, its part of its component's time" : "",
		 by_part && by_count ? "; or" : "",
		 by_count ? ", for a rate switched on or off, many events in every run of one "
			    "side and none in the other's" :
			    "",
		 by_part || by_count ? ")" : "");
	if (!h->nr_mech && too_few(c, v))
		hl(&c->head[v],
		   "  not tested: %d and %d runs are too few for the U test to reach p < %.2g; "
		   "record more runs (4 a side are the least)%s",
		   c->var[0].nr_runs, c->var[v].nr_runs, c->o.alpha,
		   has_trace(c) ? "; no kernel mechanism's runs are apart by more than their "
				  "own spread" :
				  ", with a trace (tickscope record) for the mechanisms");
	else if (!h->nr_mech && c->result && c->result->cell[v].significant)
		hl(&c->head[v], "  cause not found: no kernel mechanism of the chain rules "
				"(docs/compare.md) changed significantly");
	else if (!h->nr_mech)
		hl(&c->head[v],
		   "  nothing changed: no change found beyond the runs' own spread (neither the "
		   "benchmark nor a kernel mechanism of the chain rules changed significantly)");
	if (untested && too_few(c, v))
		hl(&c->head[v],
		   "  unconfirmed: %d and %d runs are too few for the U test to reach "
		   "p < %.2g (4 a side are the least); the mechanisms shown are those whose runs are "
		   "apart by more than their own spread%s; record more runs",
		   c->var[0].nr_runs, c->var[v].nr_runs, c->o.alpha, also);
	else if (untested)
		hl(&c->head[v],
		   "  unconfirmed: with %d and %d runs, a mechanism whose runs are apart by more "
		   "than their own spread%s is not significant after the adjustment over the "
		   "metrics; record more runs",
		   c->var[0].nr_runs, c->var[v].nr_runs, also);
	if (run && has_trace(c) && !ts_cmp_find(c, "task.path.run.own.per_op"))
		hl(&c->head[v],
		   "  %s: the time interrupts took inside it is not recorded; record "
		   "irq:irq_handler_entry/exit and irq:softirq_entry/exit to split it",
		   run->label);
}

/*
 * The thread classes of one kernel only that took no part (inert_threads()), one line each:
 * what the kernel changed, said as not feeding the benchmark.
 */
static void inert_line(struct ts_cmp *c, int v, const struct ts_cmp_row *r)
{
	char cls[200], a[32], b[32];
	int k = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs) == 1 ? v : 0;

	if (!ts_cmp_rule_of(r, cls, sizeof(cls)))
		return;
	hl(&c->head[v],
	   "  kernel difference, no part in it: %s, %s -> %s threads (in every run of %s, "
	   "none of %s); they never ran nor woke a task while recorded",
	   ts_cmp_class_words(cls), fig(a, 32, r->cell[0].s.median),
	   fig(b, 32, r->cell[v].s.median), c->var[k].name, c->var[k ? 0 : v].name);
}

static void headline_of(struct ts_cmp *c, int v)
{
	struct ts_cmp_headline *h = &c->head[v];
	const struct ts_cmp_row *inert[MAX_INERT];
	int nr_inert = 0;

	ts_cmp_mechanisms(c, v, inert, &nr_inert);
	result_line(c, v);
	bench_line(c, v);
	kernel_line(c, v);
	ts_cmp_timing(c, v, &h->timing);
	timing_line(c, v);
	if (c->dec[v].kind) {
		components_line(c, v);
		run_split_line(c, v);
	} else
		no_decomposition(c, v);
	/*
	 * A slower CPU stretches every mechanism below: it leads them. The benchmark's own code
	 * is one mechanism among them: it is said right after that one's line
	 */
	ts_cmp_speed(c, v, &h->speed);
	if (h->speed.verdict == TS_SPEED_CPU)
		speed_line(c, v);
	for (int i = 0; i < h->nr_mech; i++) {
		mech_line(c, v, &h->mech[i]);
		stretched_words(c, v, &h->mech[i]);
		if ((h->speed.verdict == TS_SPEED_OWN || h->speed.verdict == TS_SPEED_RESPLIT) &&
		    !strcmp(h->mech[i].row->name, "task.path.run.own.per_op"))
			speed_line(c, v);
	}
	for (int i = 0; i < nr_inert; i++)
		inert_line(c, v, inert[i]);
	missing_lines(c, v);
}

void ts_cmp_headline(struct ts_cmp *c)
{
	for (int v = 1; v < c->nr_var; v++)
		headline_of(c, v);
}