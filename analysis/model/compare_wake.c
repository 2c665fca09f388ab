// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explanation's wait and wake parts: where the benchmark's tasks wait off-CPU (stack and
 * state per operation, A against B) and who ended those waits, and the wakeup path (who
 * woke the tasks, by waker class) where it differs between the kernels.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_priv.h"

#define STACK_PRE "task.offcpu_stack."
#define PER_OP ".per_op"
#define BY ".woken_by."
#define SHARE ".share"
/* A significant change of a waker's share smaller than this (percentage points) is not shown:
 * the metrics table has it. */
#define MIN_PP 0.1

static double med0(const struct ts_cmp_row *r, int v)
{
	double m = r->cell[v].s.median;

	return isnan(m) ? 0 : m;
}

/* the larger of the two medians: how much a row weighs in either kernel */
static double weight(const struct ts_cmp_row *r, int v)
{
	return fmax(med0(r, 0), med0(r, v));
}

/* Insert @r into @top (@n used, room for @max) by weight, heaviest first; Return: new count. */
static int rank_in(const struct ts_cmp_row **top, int n, int max, const struct ts_cmp_row *r, int v)
{
	int k = n < max ? n : max - 1;

	if (n == max && weight(r, v) <= weight(top[max - 1], v))
		return n;
	while (k > 0 && weight(top[k - 1], v) < weight(r, v)) {
		top[k] = top[k - 1];
		k--;
	}
	top[k] = r;
	return n < max ? n + 1 : n;
}

/* Who ended the waits of @w: its woken_by rows, largest share first. */
static void wait_wakers(const struct ts_cmp *c, int v, struct ts_cmp_wait *w, size_t pre_len)
{
	const struct ts_cmp_row *top[TS_CMP_MAX_WAKERS];
	int n = 0;

	for (int i = 0; i < c->nr_rows; i++) {
		const struct ts_cmp_row *r = &c->rows[i];

		/* "<stack>.<state>.woken_by.<class>.share" with @w's stack and state */
		if (strncmp(r->name, w->row->name, pre_len) || strncmp(r->name + pre_len, BY, 10) ||
		    !ts_cmp_ends(r->name, SHARE))
			continue;
		n = rank_in(top, n, TS_CMP_MAX_WAKERS, r, v);
	}
	for (int k = 0; k < n; k++) {
		struct ts_cmp_waker *b = &w->by[w->nr_by++];
		const char *cls = top[k]->name + pre_len + strlen(BY);

		b->row = top[k];
		snprintf(b->cls, sizeof(b->cls), "%.*s", (int)(strlen(cls) - strlen(SHARE)), cls);
		b->a = top[k]->cell[0].s.median;
		b->b = top[k]->cell[v].s.median;
	}
}

/* The benchmark's tasks' heaviest waits, A or B, and who ended them. */
static void find_waits(struct ts_cmp *c, int v)
{
	const struct ts_cmp_row *top[TS_CMP_MAX_WAITS];
	int n = 0;

	for (int i = 0; i < c->nr_rows; i++) {
		const struct ts_cmp_row *r = &c->rows[i];

		if (!strncmp(r->name, STACK_PRE, strlen(STACK_PRE)) && !strstr(r->name, BY) &&
		    ts_cmp_ends(r->name, PER_OP) && weight(r, v) > 0)
			n = rank_in(top, n, TS_CMP_MAX_WAITS, r, v);
	}
	for (int k = 0; k < n; k++) {
		struct ts_cmp_wait *w = &c->waits[v][c->nr_waits[v]++];
		const char *s = top[k]->name + strlen(STACK_PRE);
		size_t len = strlen(s) - strlen(PER_OP), dot = len;

		while (dot > 0 && s[dot - 1] != '.')
			dot--;
		memset(w, 0, sizeof(*w));
		w->row = top[k];
		snprintf(w->stack, sizeof(w->stack), "%.*s", (int)(dot ? dot - 1 : 0), s);
		snprintf(w->state, sizeof(w->state), "%.*s", (int)(len - dot), s + dot);
		snprintf(w->label, sizeof(w->label), "%.*s (%.*s)", (int)(dot ? dot - 1 : 0), s,
			 (int)(len - dot), s + dot);
		w->a = top[k]->cell[0].s.median * 1e-3;
		w->b = top[k]->cell[v].s.median * 1e-3;
		wait_wakers(c, v, w, strlen(top[k]->name) - strlen(PER_OP));
	}
}

static const struct {
	const char *prefix, *scope;
	int always; /* the top ones shown even unchanged: what wakes the benchmark */
} wake_families[] = {
	{ "task.woken_by.", "the benchmark's tasks", 2 },
	{ "task.woken_by_work.", "the benchmark's tasks, by work function", 0 },
	{ "sched.woken_by.", "all tasks", 0 },
};

/*
 * Add @r of family @f to @v's wakeup path if it woke in one kernel only, changed significantly
 * by MIN_PP or more, or is shown always (@always).
 */
static void add_wake(struct ts_cmp *c, int v, const struct ts_cmp_row *r, int f, int always)
{
	int a = ts_cmp_all_pos(&r->cell[0], c->var[0].nr_runs);
	int b = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs);
	const char *cls = r->name + strlen(wake_families[f].prefix);
	struct ts_cmp_wake *w;

	if (c->nr_wakes[v] == TS_CMP_MAX_WAKES)
		return;
	if (!always && !(a >= 0 && b >= 0 && a != b) &&
	    (!r->cell[v].significant || fabs(med0(r, v) - med0(r, 0)) < MIN_PP))
		return;
	w = &c->wakes[v][c->nr_wakes[v]++];
	memset(w, 0, sizeof(*w));
	w->w.row = r;
	snprintf(w->w.cls, sizeof(w->w.cls), "%.*s", (int)(strlen(cls) - strlen(SHARE)), cls);
	w->w.a = r->cell[0].s.median;
	w->w.b = r->cell[v].s.median;
	w->scope = wake_families[f].scope;
	w->only = a >= 0 && b >= 0 && a != b ? (b ? 1 : -1) : 0;
	w->significant = r->cell[v].significant;
	w->p_adj = r->cell[v].p_adj;
	w->hint = ts_cmp_class_hint(w->w.cls);
}

static int is_family(const struct ts_cmp_row *r, int f)
{
	const char *p = wake_families[f].prefix;

	return !strncmp(r->name, p, strlen(p)) && ts_cmp_ends(r->name, SHARE);
}

/* Who woke whom, A against B, family by family, the largest first within each. */
static void find_wakes(struct ts_cmp *c, int v)
{
	for (size_t f = 0; f < sizeof(wake_families) / sizeof(wake_families[0]); f++) {
		const struct ts_cmp_row *top[TS_CMP_MAX_WAKES];
		int n = 0;

		for (int i = 0; i < c->nr_rows; i++)
			if (is_family(&c->rows[i], (int)f) && weight(&c->rows[i], v) > 0)
				n = rank_in(top, n, TS_CMP_MAX_WAKES, &c->rows[i], v);
		for (int k = 0; k < n; k++)
			add_wake(c, v, top[k], (int)f, k < wake_families[f].always);
	}
}

void ts_cmp_explain_waits(struct ts_cmp *c)
{
	for (int v = 1; v < c->nr_var; v++) {
		c->nr_waits[v] = c->nr_wakes[v] = 0;
		find_waits(c, v);
		find_wakes(c, v);
	}
}
