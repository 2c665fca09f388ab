// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report of a comparison: the benchmark's result first (+ is better, ~ when not
 * significant), then the explanation, the confounders, and the metric table with footnotes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tickscope/compare_report.h"

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
	else if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, n, "%.3e", v);
	else
		snprintf(buf, n, "%.4g", v);
	return buf;
}

/* "+12.3%", "~ p=0.31" when not significant, "-" without a test. */
static const char *change_text(char *buf, size_t n, const struct ts_cmp_row *r, int v)
{
	const struct ts_cmp_cell *c = &r->cell[v];

	if (isnan(c->p) || isnan(c->change))
		snprintf(buf, n, "-");
	else if (!c->significant)
		snprintf(buf, n, "~ (p=%.2g)", c->p_adj);
	else if (r->dir == TS_DIR_NEUTRAL)
		snprintf(buf, n, "(%+.1f%%)", c->change);
	else
		snprintf(buf, n, "%+.1f%% %s", c->change, c->change >= 0 ? "better" : "worse");
	return buf;
}

static void result_block(FILE *f, const struct ts_cmp *c, int *small_n)
{
	const struct ts_cmp_row *r = c->result;
	char a[32], b[32], d[32];

	fprintf(f, "Benchmark: %s (%s, %s)\n", r->name + 6, r->unit, dir_text(r->dir));
	fprintf(f, "  %-24s %4s %10s %10s %10s %7s\n", "variant", "N", "median",
		r->kind == TS_METRIC_RATE ? "hmean" : "mean", "sd", "CV");
	for (int v = 0; v < c->nr_var; v++) {
		const struct ts_cmp_cell *x = &r->cell[v];

		fprintf(f, "  %-24.24s %4d %10s %10s %10s %6.1f%%%s", c->var[v].name, x->s.n,
			num(a, 32, x->s.median), num(b, 32, x->s.mean), num(d, 32, x->s.sd),
			100 * x->s.cv, x->noisy ? "  noisy" : "");
		for (int k = 0; k < c->var[v].nr_runs; k++)
			if (x->outlier[k])
				fprintf(f, "  outlier: %s", c->var[v].runs[k].label);
		fputc('\n', f);
	}
	for (int v = 1; v < c->nr_var; v++) {
		const struct ts_cmp_cell *x = &r->cell[v];

		fprintf(f, "  %s vs %s: %s, raw %s%s %s, 95%% CI of the change [%+.1f%%, %+.1f%%]",
			c->var[v].name, c->var[0].name, change_text(a, 32, r, v),
			x->raw >= 0 ? "+" : "", num(b, 32, x->raw), r->unit, x->ci_lo, x->ci_hi);
		fprintf(f, ", p=%.2g (Mann-Whitney U, %s)%s\n", x->p,
			x->t.exact ? "exact" : "normal approx.",
			x->t.min_p >= c->o.alpha ? " [1]" : "");
		if (!isnan(x->welch_p))
			fprintf(f, "  Welch's t-test: p=%.2g\n", x->welch_p);
		*small_n |= x->t.min_p >= c->o.alpha;
	}
}

static void decomp_block(FILE *f, const struct ts_cmp *c, int v)
{
	const struct ts_cmp_decomp *d = &c->dec[v];
	char a[32], b[32], e[32];
	double expl = 0;

	if (!d->kind)
		return;
	fprintf(f, "\nExplanation: %s, µs per operation (medians of the runs), %s vs %s\n", d->kind,
		c->var[v].name, c->var[0].name);
	fprintf(f, "  %-28s %12s %12s %12s %8s\n", "component", c->var[0].name, c->var[v].name,
		"change", "share");
	for (int i = 0; i < d->nr; i++) {
		const struct ts_cmp_part *p = &d->part[i];

		fprintf(f, "  %-28s %12s %12s %12s %7.1f%%\n", p->label, num(a, 32, p->a),
			num(b, 32, p->b), num(e, 32, p->delta), p->share);
		if (p->metric)
			expl += p->share;
	}
	fprintf(f, "  %-28s %12s %12s %12s %7.1f%%\n", "total", num(a, 32, d->a), num(b, 32, d->b),
		num(e, 32, d->delta), isnan(d->delta) || d->delta == 0 ? NAN : 100.0);
	fprintf(f, "  The components explain %.1f%% of the change; the residual is the rest.\n",
		expl);
}

static void changes_block(FILE *f, const struct ts_cmp *c, int v, unsigned int top)
{
	char a[32], b[32], e[32];

	fprintf(f, "\nWhat changed, %s vs %s (significant after %s, alpha %.2g), ranked:\n",
		c->var[v].name, c->var[0].name, ts_compare_adjust_name(c->o.adjust), c->o.alpha);
	if (!c->nr_changes[v])
		fprintf(f, "  nothing in the trace changed significantly\n");
	for (int i = 0; i < c->nr_changes[v] && (unsigned int)i < top; i++) {
		const struct ts_cmp_change *ch = &c->changes[v][i];
		const struct ts_cmp_row *r = ch->row;

		fprintf(f, "  %2d. %s %s -> %s %s: %s, p=%.2g", i + 1, r->name,
			num(a, 32, r->cell[0].s.median), num(b, 32, r->cell[v].s.median), r->unit,
			change_text(e, 32, r, v), r->cell[v].p_adj);
		if (!isnan(ch->share))
			fprintf(f, "; %.0f%% of the benchmark's change", ch->share);
		fputc('\n', f);
	}
}

static void metrics_block(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o)
{
	char a[32], b[32], e[32], g[32];
	int shown = 0;

	fprintf(f,
		"\nMetrics (medians; change: + is better, ~ not significant; p adjusted by %s "
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
		fprintf(f, "  %-40s %-6s %10s", r->name, r->unit, num(a, 32, r->cell[0].s.median));
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
	unsigned int top = o->top ? o->top : 10;
	int small_n = 0;

	fprintf(f, "tickscope compare: %s (baseline, %d runs)", c->var[0].name, c->var[0].nr_runs);
	for (int v = 1; v < c->nr_var; v++)
		fprintf(f, " vs %s (%d runs)", c->var[v].name, c->var[v].nr_runs);
	fputs("\n\n", f);
	if (c->result)
		result_block(f, c, &small_n);
	else
		fprintf(f, "Benchmark: no result was parsed\n");
	for (int v = 1; v < c->nr_var; v++) {
		decomp_block(f, c, v);
		changes_block(f, c, v, top);
	}
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
	return ferror(f) ? -EIO : 0;
}
