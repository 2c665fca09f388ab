// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report of a comparison: the benchmark's result first (better/worse, ~ when not
 * significant), then the explanation, the confounders, and the metric table with footnotes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tickscope/compare_report.h"
#include "common/io.h"

const char *ts_compare_adjust_name(enum ts_adjust a)
{
	return a == TS_ADJ_BH ? "Benjamini-Hochberg" : a == TS_ADJ_HOLM ? "Holm" : "none";
}

static const char *dir_text(enum ts_metric_dir d)
{
	return d == TS_DIR_LOWER  ? "lower is better" :
	       d == TS_DIR_HIGHER ? "higher is better" :
				    "neither better nor worse";
}

/* A number with 4 significant digits, "-" when unmeasured. */
static const char *num(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1e12 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, n, "%.3e", v);
	else if (fabs(v) >= 1e4)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
	return buf;
}

/* A p-value or a share with @fmt, "-" when it was not measured: never "nan". */
static const char *fig(char *buf, size_t n, const char *fmt, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fmt, v);
	return buf;
}

/*
 * The change in words, never a bare sign: "12.3% better", "148.9% worse"; "(4.0% higher)"
 * for a metric neither better nor worse, "61.0 pp higher" for shares (percentage points).
 * A sign read two ways (+ is better, + is up) is what the text never prints: the JSON's
 * change_pct keeps the + is better rule, and raw the direction.
 */
const char *ts_compare_change_words(char *buf, size_t n, const struct ts_cmp_row *r, int v)
{
	const struct ts_cmp_cell *c = &r->cell[v];

	if (!strcmp(r->unit, "%") && !isnan(c->raw))
		snprintf(buf, n, "%.1f pp %s", fabs(c->raw), c->raw >= 0 ? "higher" : "lower");
	else if (!isfinite(c->change))
		snprintf(buf, n, "-");
	else if (fabs(c->change) < 0.05) /* not "-0.0% better" */
		snprintf(buf, n, "0.0%%, no change");
	else if (r->dir == TS_DIR_NEUTRAL)
		snprintf(buf, n, "(%.1f%% %s)", fabs(c->change),
			 c->change >= 0 ? "higher" : "lower");
	else
		snprintf(buf, n, "%.1f%% %s", fabs(c->change), c->change >= 0 ? "better" : "worse");
	return buf;
}

/* The change, or "~ (p=0.31)" when it is not significant, "-" without a test. */
static const char *change_text(char *buf, size_t n, const struct ts_cmp_row *r, int v)
{
	const struct ts_cmp_cell *c = &r->cell[v];

	if (!isfinite(c->p) || !isfinite(c->p_adj))
		snprintf(buf, n, "-");
	else if (!c->significant)
		snprintf(buf, n, "~ (%s)", ts_stats_p_text((char[32]){ 0 }, 32, c->p_adj));
	else
		ts_compare_change_words(buf, n, r, v);
	return buf;
}

/* The run's folder name (run-3), or the file's name. */
static const char *short_label(const char *label)
{
	const char *s = strrchr(label, '/');

	return s && s[1] ? s + 1 : label;
}

/*
 * The runs whose benchmark was taken by name, not by the recorded workload's process tree, and
 * why (TS_FACT_SELECTION): one line, "variant run, run (why); ...", or nothing when every run
 * with a trace had its tree.
 */
static void by_name_line(FILE *f, const struct ts_cmp *c)
{
	int any = 0;

	for (int v = 0; v < c->nr_var; v++) {
		const struct ts_cmp_variant *var = &c->var[v];

		for (int r = 0; r < var->nr_runs; r++) {
			const char *why = var->runs[r].fact[TS_FACT_SELECTION];
			int seen = 0;

			if (!why || strncmp(why, "name: ", 6))
				continue;
			/* its reason said with its first run */
			for (int q = 0; q < r && !seen; q++)
				seen = var->runs[q].fact[TS_FACT_SELECTION] &&
				       !strcmp(var->runs[q].fact[TS_FACT_SELECTION], why);
			if (seen)
				continue;
			fprintf(f, "%s%s",
				any++ ? "; " :
					"  benchmark's tasks taken by name, not by the "
					"workload's process tree: ",
				var->name);
			for (int q = r, n = 0; q < var->nr_runs; q++)
				if (var->runs[q].fact[TS_FACT_SELECTION] &&
				    !strcmp(var->runs[q].fact[TS_FACT_SELECTION], why))
					fprintf(f, "%s%s", n++ ? ", " : " ",
						short_label(var->runs[q].label));
			fprintf(f, " (%s)", why + 6);
		}
	}
	if (any)
		fputc('\n', f);
}

/* stress-ng's two rates side by side, so that the usr+sys one cannot be taken for throughput. */
static void stress_ng_note(FILE *f, const struct ts_cmp *c, int v)
{
	char name[96], a[32], b[32], e[32], g[32];
	const struct ts_cmp_row *u, *t, *cpu;
	size_t n = strlen(c->result->name);

	if (n < 20 || strcmp(c->result->name + n - 20, ".bogo_ops_per_s_real"))
		return;
	snprintf(name, sizeof(name), "%.*s.bogo_ops_per_s_usr_sys", (int)(n - 20), c->result->name);
	u = ts_cmp_find(c, name);
	t = ts_cmp_find(c, "bench.time_per_op");
	cpu = ts_cmp_find(c, "bench.cpu_per_op");
	if (!u || !t || !cpu)
		return;
	fprintf(f,
		"  Note: bogo ops/s (usr+sys time) went %s -> %s, but it counts CPU time only.\n"
		"  The throughput is the real-time rate: per operation, one instance's time went\n"
		"  %s -> %s us, of which CPU (usr+sys) %s -> %s us; the rest is off-CPU time.\n",
		num(a, 32, u->cell[0].s.median), num(b, 32, u->cell[v].s.median),
		num(e, 32, t->cell[0].s.median), num(g, 32, t->cell[v].s.median),
		num(name, 32, cpu->cell[0].s.median), num(name + 32, 32, cpu->cell[v].s.median));
}

/* A bound of the change's interval in words, as delta_text: "186.6% worse", "3.0% better". */
static const char *bound_text(char *buf, size_t n, double pct)
{
	snprintf(buf, n, "%.1f%% %s", fabs(pct), pct >= 0 ? "better" : "worse");
	return buf;
}

static void ci_text(FILE *f, const struct ts_cmp_cell *x)
{
	char lo[32], hi[32];

	if (isnan(x->ci_lo) || x->t.level < 0.5)
		fprintf(f, ", no CI (too few runs)");
	else if (x->t.level < 0.9499)
		fprintf(f, ", CI of the change [%s, %s] (only %.0f%% coverage)",
			bound_text(lo, sizeof(lo), x->ci_lo), bound_text(hi, sizeof(hi), x->ci_hi),
			100 * x->t.level);
	else
		fprintf(f, ", 95%% CI of the change [%s, %s]", bound_text(lo, sizeof(lo), x->ci_lo),
			bound_text(hi, sizeof(hi), x->ci_hi));
}

static void result_block(FILE *f, const struct ts_cmp *c, int *small_n)
{
	const struct ts_cmp_row *r = c->result;
	char a[32], b[32], d[32], e[32], w[128];

	fprintf(f, "Benchmark: %s (%s, %s)\n", ts_cmp_metric_words(r->name, w, sizeof(w)), r->unit,
		dir_text(r->dir));
	fprintf(f, "  %-24s %4s %10s %10s %10s %7s\n", "variant", "N", "median",
		r->kind == TS_METRIC_RATE ? "hmean" : "mean", "sd", "CV");
	for (int v = 0; v < c->nr_var; v++) {
		const struct ts_cmp_cell *x = &r->cell[v];

		fprintf(f, "  %-24.24s %4d %10s %10s %10s %6s%s", c->var[v].name, x->s.n,
			num(a, 32, x->s.median), num(b, 32, x->s.mean), num(d, 32, x->s.sd),
			isnan(x->s.cv) ? "-" : (snprintf(e, 32, "%.1f%%", 100 * x->s.cv), e),
			x->noisy ? "  noisy" : "");
		for (int k = 0; k < c->var[v].nr_runs; k++)
			if (x->outlier[k])
				fprintf(f, "  outlier: %s", short_label(c->var[v].runs[k].label));
		fputc('\n', f);
	}
	for (int v = 1; v < c->nr_var; v++) {
		const struct ts_cmp_cell *x = &r->cell[v];

		fprintf(f, "  %s vs %s: %s, raw %s%s %s", c->var[v].name, c->var[0].name,
			ts_compare_change_words(a, 32, r, v), x->raw >= 0 ? "+" : "",
			num(b, 32, x->raw), r->unit);
		ci_text(f, x);
		fprintf(f, "\n  %s, %s (Mann-Whitney U, %s)%s\n",
			x->significant ? "significant" : "~ not significant",
			isfinite(x->p) ? ts_stats_p_text(e, sizeof(e), x->p) : "p=-",
			x->t.exact ? "exact" : "normal approx.",
			x->t.min_p >= c->o.alpha ? " [1]" : "");
		if (!isnan(x->welch_p))
			fprintf(f, "  Welch's t-test: %s\n",
				ts_stats_p_text(e, sizeof(e), x->welch_p));
		*small_n |= x->t.min_p >= c->o.alpha;
		stress_ng_note(f, c, v);
	}
}

/* @s as lines of at most @width columns, each indented by @indent, broken at spaces. */
static void wrap(FILE *f, const char *s, int indent, int width)
{
	while (*s) {
		int n = (int)strlen(s), cut = n;

		if (n > width - indent)
			for (cut = width - indent; cut > 0 && s[cut] != ' '; cut--)
				;
		if (cut <= 0)
			cut = n;
		fprintf(f, "%*s%.*s\n", indent, "", cut, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
}

const char *ts_compare_share_words(char *buf, size_t n, double share, int *odd)
{
	if (!isfinite(share))
		snprintf(buf, n, "-");
	else if (share < -0.05 || share > 100.05)
		snprintf(buf, n, "%s", (*odd = 1, share < 0 ? "against" : "more"));
	else
		snprintf(buf, n, "%.1f%%", fabs(share));
	return buf;
}

/* How much of the change @d's components (@expl percent of it, their shares' sum) explain. */
static void explained(FILE *f, const struct ts_cmp_decomp *d, double expl)
{
	char a[32], b[32], res[256];

	if (!isfinite(expl))
		return;
	if (expl >= -0.05 && expl <= 100.05) {
		fprintf(f,
			"  The components explain %.1f%% of the change; the residual is the rest.\n",
			fabs(expl));
		return;
	}
	snprintf(res, sizeof(res),
		 "The components moved %s the change (%s µs/op against %s): the residual moved the "
		 "other way.",
		 expl > 0 ? "more than" : "against", num(a, 32, expl * d->delta / 100),
		 num(b, 32, d->delta));
	wrap(f, res, 2, 98);
}

static void decomp_block(FILE *f, const struct ts_cmp *c, int v)
{
	int odd = 0;
	const struct ts_cmp_decomp *d = &c->dec[v];
	char a[32], b[32], e[32], s[32], res[1024];
	double expl = 0;
	int noise = c->result && !c->result->cell[v].significant; /* no shares: the model's */

	if (!d->kind)
		return;
	fprintf(f, "\nExplanation: %s, µs per operation (medians of the runs), %s vs %s\n", d->kind,
		c->var[v].name, c->var[0].name);
	fprintf(f, "  %-28s %12s %12s %12s %8s\n", "component", c->var[0].name, c->var[v].name,
		"change", "share");
	for (int i = 0; i < d->nr; i++) {
		const struct ts_cmp_part *p = &d->part[i];

		fprintf(f, "  %-28s %12s %12s %12s %8s\n", p->label, num(a, 32, p->a),
			num(b, 32, p->b), num(e, 32, p->delta),
			ts_compare_share_words(s, sizeof(s), p->share, &odd));
		if (p->metric)
			expl += p->share;
	}
	fprintf(f, "  %-28s %12s %12s %12s %8s\n", "total", num(a, 32, d->a), num(b, 32, d->b),
		num(e, 32, d->delta),
		fig(s, sizeof(s), "%.1f%%",
		    isnan(d->delta) || d->delta == 0 || noise ? NAN : 100.0));
	explained(f, d, expl);
	if (odd)
		wrap(f,
		     "(share: \"against\" moved the other way from the change; \"more\" moved "
		     "more than the whole change, other parts moving against it)",
		     2, 98);
	if (ts_cmp_residual_words(c, v, res, sizeof(res)))
		wrap(f, res, 2, 98);
	if (d->nr_detail)
		fprintf(f, "  off-CPU time of the benchmark's tasks in the trace, by state and by "
			   "switch-out stack (state), not in the sum:\n");
	for (int i = 0; i < d->nr_detail; i++) {
		const struct ts_cmp_part *p = &d->detail[i];

		if (strlen(p->label) > 28) /* a stack: its own line */
			fprintf(f, "  %s\n", p->label);
		fprintf(f, "  %-28s %12s %12s %12s %8s\n", strlen(p->label) > 28 ? "" : p->label,
			num(a, 32, p->a), num(b, 32, p->b), num(e, 32, p->delta),
			ts_compare_share_words(s, sizeof(s), p->share, &odd));
	}
	if (noise)
		fprintf(f,
			"  share -: the benchmark did not change significantly, and shares of no "
			"change would split noise.\n");
}

const char *ts_compare_value_words(char *buf, size_t n, double v, const char *unit,
				   double scale_ref)
{
	char x[32];

	if (!strncmp(unit, "ns", 2) && fabs(scale_ref) >= 1e4)
		snprintf(buf, n, "%s us%s", num(x, 32, v / 1e3), unit + 2);
	else if (!strcmp(unit, "%"))
		snprintf(buf, n, "%s%%", num(x, 32, v));
	else
		snprintf(buf, n, "%s %s", num(x, 32, v), unit);
	return buf;
}

/* Whether variant @v has a figure from a trace (a metric not of the benchmark's output). */
static int traced(const struct ts_cmp *c, int v)
{
	for (int i = 0; i < c->nr_rows; i++)
		if (strncmp(c->rows[i].name, "bench.", 6) && c->rows[i].cell[v].s.n > 0)
			return 1;
	return 0;
}

static void changes_block(FILE *f, const struct ts_cmp *c, int v,
			  const struct ts_compare_report_opts *o)
{
	unsigned int top = o->top ? o->top : 10;
	char a[48], b[48], e[32], p[32], w[400];

	fprintf(f, "\nWhat changed, %s vs %s (significant after %s, alpha %.2g), ranked:\n",
		c->var[v].name, c->var[0].name, ts_compare_adjust_name(c->o.adjust), c->o.alpha);
	if (!c->nr_changes[v] && !traced(c, 0))
		fprintf(f, "  no trace to compare: no run of %s has a usable trace\n",
			c->var[0].name);
	else if (!c->nr_changes[v] && !traced(c, v))
		fprintf(f, "  no trace to compare: no run of %s has a usable trace\n",
			c->var[v].name);
	else if (!c->nr_changes[v])
		fprintf(f, "  nothing in the trace changed significantly\n");
	for (int i = 0; i < c->nr_changes[v] && (unsigned int)i < top; i++) {
		const struct ts_cmp_change *ch = &c->changes[v][i];
		const struct ts_cmp_row *r = ch->row;
		double ref = fmax(fabs(r->cell[0].s.median), fabs(r->cell[v].s.median));

		fprintf(f, "  %2d. %s: %s -> %s, %s (%s)", i + 1,
			ts_cmp_metric_words(r->name, w, sizeof(w)),
			ts_compare_value_words(a, 48, r->cell[0].s.median, r->unit, ref),
			ts_compare_value_words(b, 48, r->cell[v].s.median, r->unit, ref),
			ts_compare_change_words(e, 32, r, v),
			isfinite(r->cell[v].p_adj) ?
				ts_stats_p_text(p, sizeof(p), r->cell[v].p_adj) :
				"p=-");
		if (!isnan(ch->share) && fabs(ch->share) <= 100)
			fprintf(f, "; %.0f%% of the benchmark's change", ch->share);
		else if (!isnan(ch->share))
			fprintf(f, "; more than the benchmark's change (others moved against it)");
		if (o->metric_names)
			fprintf(f, " [%s]", r->name);
		fputc('\n', f);
	}
}

static const char *pct(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3g%%", v);
	return buf;
}

static void waits_block(FILE *f, const struct ts_cmp *c, int v)
{
	char a[32], b[32];

	if (!c->nr_waits[v])
		return;
	fprintf(f,
		"\nWhere the benchmark's tasks wait (off-CPU µs per operation by switch-out stack"
		" and state, medians), %s vs %s:\n",
		c->var[v].name, c->var[0].name);
	fprintf(f, "  %-64s %12s %12s\n", "stack (state)", c->var[0].name, c->var[v].name);
	for (int i = 0; i < c->nr_waits[v]; i++) {
		const struct ts_cmp_wait *w = &c->waits[v][i];

		if (strlen(w->label) > 64)
			fprintf(f, "  %s\n", w->label);
		fprintf(f, "  %-64s %12s %12s\n", strlen(w->label) > 64 ? "" : w->label,
			num(a, 32, w->a), num(b, 32, w->b));
		for (int k = 0; k < w->nr_by; k++)
			fprintf(f, "%s%s %s -> %s",
				k ? ", " : "    ended by (share of the waits): ", w->by[k].cls,
				pct(a, 32, w->by[k].a), pct(b, 32, w->by[k].b));
		if (w->nr_by)
			fputc('\n', f);
	}
}

static void wakes_block(FILE *f, const struct ts_cmp *c, int v)
{
	char a[32], b[32], e[64];

	if (!c->nr_wakes[v])
		return;
	fprintf(f,
		"\nWho woke them (sched_waking's waker by class: %% of the wakes, medians), %s vs "
		"%s:\n",
		c->var[v].name, c->var[0].name);
	for (int i = 0; i < c->nr_wakes[v]; i++) {
		const struct ts_cmp_wake *w = &c->wakes[v][i];

		if (!i ||
		    strcmp(w->scope, c->wakes[v][i - 1].scope)) /* the families come in turn */
			fprintf(f, "  %s:\n", w->scope);
		if (w->only)
			snprintf(e, sizeof(e), "in every run of %s, none of %s",
				 c->var[w->only > 0 ? v : 0].name,
				 c->var[w->only > 0 ? 0 : v].name);
		else
			change_text(e, sizeof(e), w->w.row, v);
		fprintf(f, "    %-24s %8s -> %-8s %s", w->w.cls, pct(a, 32, w->w.a),
			pct(b, 32, w->w.b), e);
		if (w->only && *w->hint)
			fprintf(f, ": %s", w->hint);
		fputc('\n', f);
	}
}

/* The rows of @v's comparison with no figure on one side, the reason said once per group. */
static void unmeasured_block(FILE *f, const struct ts_cmp *c, int v,
			     const struct ts_compare_report_opts *o)
{
	char w[400];

	if (!c->nr_unmeasured[v])
		return;
	fprintf(f,
		"\nNot compared, %s vs %s (no figure in any run of one side: - in the tables, "
		"null in --json, not tested nor ranked):\n",
		c->var[v].name, c->var[0].name);
	for (int i = 0; i < c->nr_unmeasured[v]; i++) {
		const struct ts_cmp_unmeasured *u = &c->unmeasured[v][i];

		fprintf(f, "  %s: %s: %d metric%s, %s%s\n", c->var[u->side].name, u->why,
			u->nr_rows, u->nr_rows == 1 ? "" : "s", u->nr_rows > 1 ? "e.g. " : "",
			o->metric_names ? u->first->name :
					  ts_cmp_metric_words(u->first->name, w, sizeof(w)));
	}
}

static void metrics_block(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o)
{
	char a[32], b[32], e[32], g[32], w[400];
	int shown = 0;

	fprintf(f,
		"\nMetrics (medians; change: better or worse than the first, ~ not significant; "
		"p adjusted by %s "
		"within each family)%s:\n",
		ts_compare_adjust_name(c->o.adjust),
		o->all ? "" : ", significant ones (--all for every one)");
	for (int i = 0; i < c->nr_rows; i++) {
		const struct ts_cmp_row *r = &c->rows[i];
		int any = 0;

		for (int v = 1; v < c->nr_var; v++)
			any |= r->cell[v].significant;
		if (!o->all && !any)
			continue;
		shown++;
		if (!o->metric_names)
			ts_cmp_metric_words(r->name, w, sizeof(w));
		if (!o->metric_names && strlen(w) > 40) /* long words: a line of their own */
			fprintf(f, "  %s\n", w);
		fprintf(f, "  %-40s %-6s %10s",
			o->metric_names ? r->name :
			strlen(w) > 40	? "" :
					  w,
			r->unit, num(a, 32, r->cell[0].s.median));
		for (int v = 1; v < c->nr_var; v++)
			fprintf(f, " %10s %-16s raw %s", num(b, 32, r->cell[v].s.median),
				change_text(e, 32, r, v), num(g, 32, r->cell[v].raw));
		for (int v = 0; v < c->nr_var; v++)
			if (r->cell[v].noisy)
				fprintf(f, "  noisy:%s", c->var[v].name);
		fputc('\n', f);
	}
	if (!shown)
		fprintf(f, "  (none)\n");
}

int ts_compare_text(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o)
{
	int small_n = 0;

	for (int v = 1; v < c->nr_var; v++) {
		for (int i = 0; i < c->head[v].nr_lines; i++)
			fprintf(f, "%s\n", c->head[v].line[i]);
		fputc('\n', f);
	}
	fprintf(f, "tickscope compare: %s (baseline, %d run%s)", c->var[0].name, c->var[0].nr_runs,
		c->var[0].nr_runs == 1 ? "" : "s");
	for (int v = 1; v < c->nr_var; v++)
		fprintf(f, " vs %s (%d run%s)", c->var[v].name, c->var[v].nr_runs,
			c->var[v].nr_runs == 1 ? "" : "s");
	fputc('\n', f);
	for (int v = 0; v < c->nr_var; v++) {
		const char *k = c->var[v].runs[0].fact[TS_FACT_KERNEL];
		const char *b = c->var[v].runs[0].fact[TS_FACT_BOOT_ARGS];
		const char *p = c->var[v].runs[0].fact[TS_FACT_PREEMPT];

		if (k)
			fprintf(f, "  %s: kernel %s%s%s\n", c->var[v].name, k, p ? ", " : "",
				p ? p : "");
		if (b && b[strspn(b, " \t")])
			fprintf(f, "  %s: boot parameters %s (the variant's own)\n", c->var[v].name,
				b);
	}
	by_name_line(f, c);
	fputc('\n', f);
	if (c->result)
		result_block(f, c, &small_n);
	else
		fprintf(f, "Benchmark: no result was parsed\n");
	for (int v = 1; v < c->nr_var; v++) {
		decomp_block(f, c, v);
		changes_block(f, c, v, o);
		waits_block(f, c, v);
		wakes_block(f, c, v);
		unmeasured_block(f, c, v, o);
	}
	if (c->nr_notes)
		fprintf(f, "\nKernel differences (the runs' kernel configs and events; classes of"
			   " kernel threads, kthreadd's children by perf's FORK and COMM records,"
			   " that existed or ran in one variant only):\n");
	for (int i = 0; i < c->nr_notes; i++)
		fprintf(f, "  * %s\n", c->notes[i].text);
	fprintf(f, "\nConfounders (differences other than the kernel under test):\n");
	if (!c->nr_conf)
		fprintf(f, "  none found\n");
	for (int i = 0; i < c->nr_conf; i++)
		fprintf(f, "  ! %s\n", c->conf[i].text);
	metrics_block(f, c, o);
	if (small_n)
		fprintf(f,
			"\n[1] Too few runs: with these counts the U test cannot reach p < %.2g "
			"(it needs at least 4 runs a side); record more runs.\n",
			c->o.alpha);
	return ts_stream_err(f);
}
