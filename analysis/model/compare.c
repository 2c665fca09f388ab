// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope compare's statistics: every metric of every variant against the baseline (runs
 * are the unit), with the change signed so that + is better, its CI, the U test's p-value and
 * the multiple-comparison adjustment per family. The explanation is in compare_explain.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"
#include "compare_priv.h"
#include "tickscope/analysis.h"

/* The measured values of a cell, compacted (NANs left out); Return: how many. */
static int measured(const struct ts_cmp_cell *cell, int n, double *out)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(cell->values[i]))
			out[k++] = cell->values[i];
	return k;
}

/* Whether one of the @n values is below 0. */
static int negative(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i] < 0)
			return 1;
	return 0;
}

static double signed_pct(const struct ts_cmp_row *row, double d, double base)
{
	double pct = base != 0 ? 100 * d / fabs(base) : NAN;

	return row->dir == TS_DIR_LOWER ? -pct : pct;
}

/*
 * The metric that says whether a run measured the class family of @name (into @buf), or
 * NULL for a metric of no such family; *@positive: 1, the marker must be above 0, not only
 * measured (shares of no wakes are not 0%); -1, it must be 0 (every wait was listed); 2, an
 * absent metric is never 0, the marker only says why it has no figure.
 */
static const char *family_marker(const char *name, char *buf, size_t n, int *positive)
{
	const char *w = strstr(name, ".woken_by.");

	*positive = 1;
	if (ts_cmp_starts(name, "sched.threads.") && ts_cmp_ends(name, ".count") &&
	    strcmp(name, "sched.threads.count"))
		return "sched.threads.count";
	/*
	 * A work or timer function that did not run in a run that recorded its events ran 0
	 * times a second there, as the charts draw it: not a run without the measure.
	 */
	if (ts_cmp_starts(name, "workqueue.work.") && ts_cmp_ends(name, ".per_s")) {
		*positive = 0;
		return "workqueue.work.per_s";
	}
	if (ts_cmp_starts(name, "timer.expire.") && ts_cmp_ends(name, ".per_s")) {
		*positive = 0;
		return "timer.expire.per_s";
	}
	if (ts_cmp_starts(name, "sched.offcpu_stack.") ||
	    ts_cmp_starts(name, "offcpu_stack_per_op.")) {
		*positive = 2;
		return "sched.offcpu_stacks.count";
	}
	if (ts_cmp_starts(name, "task.offcpu_stack.") && ts_cmp_ends(name, ".per_op") &&
	    !strstr(name, ".woken_by.")) {
		*positive = -1;
		return "task.offcpu_stacks.floor.per_op";
	}
	if (!ts_cmp_ends(name, ".share"))
		return NULL;
	if (ts_cmp_starts(name, "task.other_cpu.") && strcmp(name, "task.other_cpu.share")) {
		*positive = 0;
		return "task.other_cpu.share";
	}
	if (ts_cmp_starts(name, "sched.woken_by."))
		return "sched.woken_by.wakes";
	if (ts_cmp_starts(name, "task.woken_by.") || ts_cmp_starts(name, "task.woken_by_work."))
		return "task.woken_by.wakes";
	if (ts_cmp_starts(name, "task.offcpu_stack.") && w) {
		snprintf(buf, n, "%.*s.per_op", (int)(w - name), name);
		return buf;
	}
	return NULL;
}

/*
 * The section whose events a metric of the whole family @name comes from (the benchmark's
 * tasks' figures from sched, who woke them by work function from workqueue too), or -1.
 */
static int family_section(const char *name, int second)
{
	static const struct {
		const char *pre;
		enum ts_section sec, also; /* also: the second one, or TS_SEC_NR */
	} fam[] = {
		{ "task.woken_by_work.", TS_SEC_SCHED, TS_SEC_WQ },
		{ "task.", TS_SEC_SCHED, TS_SEC_NR },
		{ "sched.", TS_SEC_SCHED, TS_SEC_NR },
		{ "idle.", TS_SEC_IDLE, TS_SEC_NR },
		{ "timer.", TS_SEC_TIMER, TS_SEC_NR },
		{ "workqueue.", TS_SEC_WQ, TS_SEC_NR },
		{ "rcu.", TS_SEC_RCU, TS_SEC_NR },
		{ "shrinker.", TS_SEC_SHRINKER, TS_SEC_NR },
	};

	for (size_t i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		if (!ts_cmp_starts(name, fam[i].pre))
			continue;
		if (second)
			return fam[i].also < TS_SEC_NR ? (int)fam[i].also : -1;
		return (int)fam[i].sec;
	}
	return -1;
}

/*
 * Why the figures of section @s are not measured: its events were not recorded, said as the
 * section's reports say it (its first required event "not recorded"), into c->sec_why.
 */
static const char *not_recorded(struct ts_cmp *c, enum ts_section s)
{
	const uint16_t *kinds;
	const uint8_t *req;
	int i, n;

	if (c->sec_why[s][0])
		return c->sec_why[s];
	n = ts_analysis_section_kinds(s, &kinds, &req);
	for (i = 0; i < n && !req[i]; i++)
		;
	snprintf(c->sec_why[s], sizeof(c->sec_why[s]), "%s not recorded",
		 i < n ? ts_analysis_kind_name(kinds[i]) : ts_run_section_name(s));
	return c->sec_why[s];
}

/*
 * A run's value of @name (*@why: why it has none, else NULL). A class absent from a run that
 * measured its family is 0: it did not run, exist or wake there ("task.other_cpu.irq.share"
 * and "sched.threads.irq.count" in a kernel without irq threads, "sched.woken_by.ktimers.share"
 * without ktimers, a waker that ended none of a stack's waits, a wait stack of the benchmark's
 * tasks that a run whose waits were all listed did not have); absent from a run whose trace
 * did not record the family's events (ts_run_section()), it was not measured.
 */
static double run_value(struct ts_cmp *c, const struct ts_run *r, const char *name,
			const char **why)
{
	const struct ts_run_metric *m = ts_run_find(r, name), *all;
	char buf[512];
	const char *marker;
	int positive;

	if (m) {
		*why = isnan(m->value) ? m->why_null ?: "not measured" : NULL;
		return m->value;
	}
	for (int k = 0; k < 2; k++) {
		int sec = family_section(name, k);

		if (sec >= 0 && ts_run_section(r, sec) == TS_NOT_RECORDED) {
			*why = not_recorded(c, sec);
			return NAN;
		}
	}
	*why = "not in the run's figures";
	marker = family_marker(name, buf, sizeof(buf), &positive);
	all = marker ? ts_run_find(r, marker) : NULL;
	if (!all || isnan(all->value)) {
		*why = all && all->why_null ? all->why_null : *why;
		return NAN;
	}
	if (positive == 2 || !(positive < 0 ? all->value == 0 : !positive || all->value > 0))
		return NAN;
	*why = NULL;
	return 0;
}

static int fill_cell(struct ts_cmp *c, struct ts_cmp_row *row, int v, double *scratch)
{
	struct ts_cmp_cell *cell = &row->cell[v];
	int n = c->var[v].nr_runs, k, k0, err;
	double *base = scratch + n;

	cell->values = malloc(n * sizeof(double));
	cell->outlier = calloc(n, sizeof(int));
	if (!cell->values || !cell->outlier)
		return -ENOMEM;
	cell->why_null = NULL;
	for (int r = 0; r < n; r++) {
		const char *why;

		cell->values[r] = run_value(c, &c->var[v].runs[r], row->name, &why);
		if (why && !cell->why_null)
			cell->why_null = why;
	}
	k = measured(cell, n, scratch);
	cell->measured = k;
	err = ts_stats_summary(scratch, k, row->kind == TS_METRIC_RATE, &cell->s);
	if (err)
		return err;
	cell->noisy = k > 1 && cell->s.cv > c->o.cv_max;
	cell->nr_outliers = k == n && k > 2 ? ts_stats_outliers(cell->values, n, cell->outlier) : 0;
	if (cell->nr_outliers < 0)
		return -ENOMEM;
	cell->change = cell->raw = cell->ci_lo = cell->ci_hi = NAN;
	cell->p = cell->p_adj = cell->welch_p = NAN;
	if (v == 0)
		return 0;
	k0 = measured(&row->cell[0], c->var[0].nr_runs, base);
	if (!k || !k0)
		return 0;
	err = ts_stats_mwu(base, k0, scratch, k, 0.95, &cell->t);
	if (err)
		return err;
	cell->raw = cell->s.median - row->cell[0].s.median;
	cell->change = signed_pct(row, cell->raw, row->cell[0].s.median);
	/*
	 * A quantity that no run of either side measured below 0 (a time, a rate, a count)
	 * cannot shift the baseline's median below 0: a pairwise difference past -median (an
	 * outlier run of the baseline less a run of the other) bounds nothing possible, and a
	 * latency "397.3% better" is none. The interval is cut at -median, 100% of it.
	 */
	if (row->cell[0].s.median > 0 && !negative(base, k0) && !negative(scratch, k)) {
		cell->t.lo = fmax(cell->t.lo, -row->cell[0].s.median);
		cell->t.hi = fmax(cell->t.hi, -row->cell[0].s.median);
	}
	cell->ci_lo = signed_pct(row, cell->t.lo, row->cell[0].s.median);
	cell->ci_hi = signed_pct(row, cell->t.hi, row->cell[0].s.median);
	if (cell->ci_lo > cell->ci_hi) {
		double t = cell->ci_lo;

		cell->ci_lo = cell->ci_hi;
		cell->ci_hi = t;
	}
	cell->p = cell->p_adj = cell->t.p;
	if (c->o.welch)
		cell->welch_p = ts_stats_welch(base, k0, scratch, k, NULL, NULL);
	return 0;
}

/* Adjust the p-values of one family of variant @v; the result row stays unadjusted. */
static int adjust_family(struct ts_cmp *c, int v, enum ts_cmp_family fam, double *p)
{
	int n = 0, err;

	for (int i = 0; i < c->nr_rows; i++)
		if (c->rows[i].family == fam)
			p[n++] = c->rows[i].cell[v].p;
	err = ts_stats_adjust(p, n, c->o.adjust);
	if (err)
		return err;
	for (int i = 0, k = 0; i < c->nr_rows; i++)
		if (c->rows[i].family == fam)
			c->rows[i].cell[v].p_adj = p[k++];
	return 0;
}

/* Row @r, measured by one side of @v's comparison only, into its group by side and reason. */
static void add_unmeasured(struct ts_cmp *c, int v, const struct ts_cmp_row *r, int side)
{
	const char *why = r->cell[side].why_null ? r->cell[side].why_null : "not measured";
	struct ts_cmp_unmeasured *u = c->unmeasured[v];
	int k;

	for (k = 0; k < c->nr_unmeasured[v]; k++)
		if (u[k].side == side && !strcmp(u[k].why, why))
			break;
	if (k == TS_CMP_MAX_UNMEASURED) {
		k = TS_CMP_MAX_UNMEASURED - 1; /* the last group takes every reason left */
		u[k].why = "no figure, for other reasons";
	} else if (k == c->nr_unmeasured[v]) {
		u[k] = (struct ts_cmp_unmeasured){ side, why, 0, r };
		c->nr_unmeasured[v]++;
	}
	u[k].nr_rows++;
}

/* The rows each comparison could not test because one side has no figure at all. */
static void find_unmeasured(struct ts_cmp *c)
{
	for (int v = 1; v < c->nr_var; v++)
		for (int i = 0; i < c->nr_rows; i++) {
			const struct ts_cmp_row *r = &c->rows[i];

			if (!r->cell[0].measured != !r->cell[v].measured)
				add_unmeasured(c, v, r, r->cell[0].measured ? v : 0);
		}
}

static int compute(struct ts_cmp *c)
{
	int maxn = 0, err = 0;
	double *scratch;

	for (int v = 0; v < c->nr_var; v++)
		maxn = c->var[v].nr_runs > maxn ? c->var[v].nr_runs : maxn;
	maxn = maxn > c->nr_rows ? maxn : c->nr_rows;
	scratch = malloc(2 * (maxn + 1) * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	for (int i = 0; i < c->nr_rows && !err; i++)
		for (int v = 0; v < c->nr_var && !err; v++)
			err = fill_cell(c, &c->rows[i], v, scratch);
	for (int v = 1; v < c->nr_var && !err; v++)
		for (int f = TS_FAM_BENCH; f <= TS_FAM_TRACE && !err; f++)
			err = adjust_family(c, v, f, scratch);
	for (int i = 0; i < c->nr_rows; i++)
		for (int v = 1; v < c->nr_var; v++) {
			struct ts_cmp_cell *cell = &c->rows[i].cell[v];

			cell->significant = !isnan(cell->p_adj) && cell->p_adj < c->o.alpha;
		}
	find_unmeasured(c);
	free(scratch);
	return err;
}

int ts_cmp_build(const struct ts_cmp_variant *v, int nr, const struct ts_cmp_opts *o,
		 struct ts_cmp **out)
{
	struct ts_cmp *c;
	int err;

	*out = NULL;
	if (nr < 2 || nr > TS_CMP_MAX_VAR)
		return -EINVAL;
	for (int i = 0; i < nr; i++)
		if (v[i].nr_runs < 1)
			return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->row_ix = calloc(1, sizeof(*c->row_ix));
	if (!c->row_ix) {
		free(c);
		return -ENOMEM;
	}
	c->o = *o;
	c->var = v;
	c->nr_var = nr;
	err = ts_cmp_collect_rows(c);
	err = err ?: compute(c);
	for (int i = 0; i < c->nr_rows && !c->result; i++)
		if (c->rows[i].family == TS_FAM_RESULT)
			c->result = &c->rows[i];
	err = err ?: ts_cmp_explain(c);
	if (err) {
		ts_cmp_free(c);
		return err;
	}
	*out = c;
	return 0;
}

void ts_cmp_free(struct ts_cmp *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nr_rows; i++) {
		for (int v = 0; v < c->nr_var; v++) {
			free(c->rows[i].cell[v].values);
			free(c->rows[i].cell[v].outlier);
		}
		free(c->rows[i].name);
		free(c->rows[i].unit);
	}
	for (int v = 0; v < c->nr_var; v++)
		free(c->changes[v]);
	free(c->rows);
	if (c->row_ix)
		ts_strix_release(c->row_ix);
	free(c->row_ix);
	free(c->conf);
	free(c->notes);
	free(c);
}
