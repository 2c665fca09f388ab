// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's tasks' waits for `tickscope compare`: who woke them (sched_waking's waker
 * by class, and the work item a kworker ran), and where they waited off-CPU (switch-out stack
 * and state, per operation) with who ended those waits.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/analysis.h"
#include "tickscope/compare.h"
#include "tickscope/wltree.h"

#define NR_WAKERS 32 /* waker classes (and work functions) kept; the rest are "other" */
#define TASK_STACKS 64 /* the heaviest (stack, state) waits of the benchmark's tasks */
#define STACK_NAME 160

static const char *const state_names[TS_OFF_NR] = { "R", "S", "D", "other" };

struct keep_ctx {
	const struct ts_sched *s;
	const char *match;
	const struct ts_run_bench *bench;
	const int *group; /* per (stack, state): its group + 1, or NULL for every entry */
	int want; /* the group kept (with group) */
	int own; /* 0: every wake; WAKES_OWN: the benchmark's own wakes; WAKES_OTHER: the rest */
};

enum { WAKES_OWN = 1, WAKES_OTHER };

/*
 * Whether the wake of @w is the benchmark's own: by a task of its name, in task context, and
 * in the recorded workload's process tree when the run has one (ts_run_bench_is()). A task of
 * the name outside the tree (another user's ping-pong) is not the benchmark, whatever its name.
 */
static int own_wake(const struct keep_ctx *k, const struct ts_sched_wait *w)
{
	char cls[sizeof(((struct ts_sched_waker_sum *)0)->cls)];

	if (w->waker <= 0)
		return 0;
	ts_sched_waker_class(k->s, w, cls, sizeof(cls));
	return ts_run_bench_task(cls, k->match) &&
	       (!k->bench->tree || ts_wltree_member(k->bench->tree, w->waker));
}

static int keep_bench(void *ctx, const struct ts_sched_wait *w)
{
	const struct keep_ctx *k = ctx;

	if (!ts_run_bench_worker(k->bench, ts_sched_task_find(k->s, w->pid)))
		return 0;
	if (k->group && !(w->stack && w->state < TS_OFF_NR &&
			  k->group[w->stack * TS_OFF_NR + w->state] == k->want))
		return 0;
	return !k->own || (own_wake(k, w) == (k->own == WAKES_OWN));
}

/*
 * The wakes that @k keeps, summed by waker class, with the benchmark's own wakes as one class
 * named after it ("pingpong" for pingpong's and pingpong-echo's wakes of each other). Where the
 * run has a workload tree, a waker of the benchmark's name outside it is "other-<name>": its
 * wakes are not the benchmark's. @out has room for 2 * NR_WAKERS. Return: the sums, or
 * -ENOMEM.
 */
static int sum_wakers(struct keep_ctx *k, int by_work, struct ts_sched_waker_sum *out)
{
	int n, m, i, j, t;

	k->own = WAKES_OWN;
	n = ts_sched_wakers(k->s, keep_bench, k, by_work, out, NR_WAKERS);
	k->own = WAKES_OTHER;
	m = n < 0 ? n : ts_sched_wakers(k->s, keep_bench, k, by_work, out + n, NR_WAKERS);
	k->own = 0;
	if (m < 0)
		return m;
	for (i = 0; i < n; i++)
		snprintf(out[i].cls, sizeof(out[i].cls), "%.23s", k->match);
	for (i = n; i < n + m; i++)
		if (ts_run_bench_task(out[i].cls, k->match))
			snprintf(out[i].cls, sizeof(out[i].cls), "other-%.17s", k->match);
	/* one sum per (class, work function) */
	for (i = t = 0; i < n + m; i++) {
		for (j = 0; j < t && (strcmp(out[j].cls, out[i].cls) || out[j].work != out[i].work);
		     j++)
			;
		if (j < t) {
			out[j].wakes += out[i].wakes;
			out[j].periods += out[i].periods;
			out[j].ns += out[i].ns;
		} else {
			out[t++] = out[i];
		}
	}
	return t;
}

/* task.woken_by.wakes, task.woken_by.<class>.share and task.woken_by_work.<function>.share */
static int add_wakers(struct ts_run *r, const struct ts_analysis *a, const struct ts_run_bench *b)
{
	const struct ts_sched *s = ts_analysis_sched(a);
	const char *match = b->match;
	struct keep_ctx k = { s, match, b, NULL, 0, 0 };
	struct ts_sched_waker_sum w[2 * NR_WAKERS];
	char name[160], fn[96];
	double all = 0, cls;
	int n, i, j, err;

	if (!ts_sched_waits_recorded(s))
		return ts_run_add(r, "task.woken_by.wakes", "count", TS_DIR_NEUTRAL,
				  TS_METRIC_VALUE, NAN,
				  "sched:sched_waking not recorded (it names the waker)");
	n = sum_wakers(&k, 1, w);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		all += (double)w[i].wakes;
	err = ts_run_add(r, "task.woken_by.wakes", "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, all,
			 NULL);
	for (i = 0; i < n && all > 0 && !err; i++) {
		if (!w[i].wakes)
			continue; /* "none": preemptions, ended by no wake */
		for (j = 0, cls = 0; j < n; j++) /* a class's sum over its work functions */
			if (!strcmp(w[j].cls, w[i].cls))
				cls += (double)w[j].wakes;
		snprintf(name, sizeof(name), "task.woken_by.%.23s.share", w[i].cls);
		if (!ts_run_find(r, name))
			err = ts_run_add(r, name, "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
					 100 * cls / all, NULL);
		if (err || !w[i].work)
			continue;
		snprintf(name, sizeof(name), "task.woken_by_work.%.95s.share",
			 ts_analysis_fn_name(a, w[i].work, fn, sizeof(fn)));
		err = ts_run_add(r, name, "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
				 100 * (double)w[i].wakes / all, NULL);
	}
	return err;
}

struct group {
	char name[STACK_NAME];
	int state;
	uint64_t ns;
};

/*
 * The benchmark's tasks' off-CPU time by (stack name, state): @group[stack * TS_OFF_NR +
 * state] gets its group + 1. Return: the groups (in *@out, to free), or -ENOMEM.
 */
static int group_stacks(const struct ts_analysis *a, const struct keep_ctx *k, int *group,
			struct group **out)
{
	const struct ts_sched *s = k->s;
	struct group *g = NULL, *grown;
	char name[STACK_NAME];
	int nr = 0, cap = 0, j;

	for (size_t i = 0; i < ts_sched_nr_waits(s); i++) {
		const struct ts_sched_wait *w = ts_sched_wait_at(s, i);
		int *slot;

		if (!w->stack || w->state >= TS_OFF_NR || !keep_bench((void *)k, w))
			continue;
		slot = &group[w->stack * TS_OFF_NR + w->state];
		if (!*slot) {
			ts_analysis_stack_name(a, ts_sched_stack_at(s, w->stack - 1), name,
					       sizeof(name));
			for (j = 0; j < nr && (g[j].state != w->state || strcmp(g[j].name, name));
			     j++)
				;
			if (j == nr) {
				if (nr == cap) {
					cap = cap ? 2 * cap : 16;
					grown = realloc(g, cap * sizeof(*g));
					if (!grown) {
						free(g);
						return -ENOMEM;
					}
					g = grown;
				}
				snprintf(g[nr].name, sizeof(g[nr].name), "%s", name);
				g[nr].state = w->state;
				g[nr++].ns = 0;
			}
			*slot = j + 1;
		}
		g[*slot - 1].ns += w->ns;
	}
	*out = g;
	return nr;
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct group *a = *(const struct group *const *)pa;
	const struct group *b = *(const struct group *const *)pb;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return strcmp(a->name, b->name) ?: a->state - b->state;
}

/* Who ended the waits of group @want: task.offcpu_stack.<stack>.<state>.woken_by.<class>.share */
static int add_stack_wakers(struct ts_run *r, struct keep_ctx *k, const struct group *g, int want)
{
	struct ts_sched_waker_sum w[2 * NR_WAKERS];
	char name[STACK_NAME + 96];
	double all = 0;
	int n, i, err = 0;

	k->want = want;
	n = sum_wakers(k, 0, w);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		all += (double)w[i].periods;
	for (i = 0; i < n && all > 0 && !err; i++) {
		if (!w[i].periods)
			continue;
		snprintf(name, sizeof(name), "task.offcpu_stack.%.159s.%s.woken_by.%.23s.share",
			 g->name, state_names[g->state], w[i].cls);
		err = ts_run_add(r, name, "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
				 100 * (double)w[i].periods / all, NULL);
	}
	return err;
}

/*
 * The TASK_STACKS heaviest waits of the benchmark's tasks: off-CPU time per operation
 * (task.offcpu_stack.<stack>.<state>.per_op) and, for S and D, who ended them; then
 * task.offcpu_stacks.floor.per_op, the heaviest wait left out (0 when none was), so that a
 * stack absent from a run whose floor is 0 is known to be 0 there, not unmeasured.
 */
static int add_stacks(struct ts_run *r, const struct ts_analysis *a, const struct ts_run_bench *b,
		      double ops)
{
	const struct ts_sched *s = ts_analysis_sched(a);
	size_t nst = ts_sched_nr_stacks(s);
	int *group = nst ? calloc((nst + 1) * TS_OFF_NR, sizeof(int)) : NULL;
	struct keep_ctx k = { s, b->match, b, NULL, 0, 0 };
	struct group *g = NULL, **top = NULL;
	char name[STACK_NAME + 32];
	int n, i, err = 0;

	if (!nst) /* the stacks' family not measured: none of its figures is 0 */
		return ts_run_add(r, "task.offcpu_stacks.floor.per_op", "ns/op", TS_DIR_NEUTRAL,
				  TS_METRIC_VALUE, NAN,
				  "no switch-out callchains (record with perf record -g)");
	if (!group)
		return -ENOMEM;
	n = group_stacks(a, &k, group, &g);
	top = n > 0 ? malloc(n * sizeof(*top)) : NULL;
	if (n < 0 || (n > 0 && !top)) {
		err = n < 0 ? n : -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		top[i] = &g[i];
	if (n > 0) /* qsort() with NULL is undefined, even for 0 elements */
		qsort(top, n, sizeof(*top), cmp_group);
	k.group = group;
	for (i = 0; i < n && i < TASK_STACKS && !err; i++) {
		snprintf(name, sizeof(name), "task.offcpu_stack.%.159s.%s.per_op", top[i]->name,
			 state_names[top[i]->state]);
		err = ts_run_add(r, name, "ns/op", TS_DIR_LOWER, TS_METRIC_VALUE,
				 (double)top[i]->ns / ops,
				 "the benchmark's operation count is unknown");
		if (!err && (top[i]->state == TS_OFF_S || top[i]->state == TS_OFF_D))
			err = add_stack_wakers(r, &k, top[i], (int)(top[i] - g) + 1);
	}
	err = err   ?:
		      ts_run_add(r, "task.offcpu_stacks.floor.per_op", "ns/op", TS_DIR_NEUTRAL,
				 TS_METRIC_VALUE,
				 n > TASK_STACKS ? (double)top[TASK_STACKS]->ns / ops : 0,
				 "the benchmark's operation count is unknown");
out:
	free(top);
	free(g);
	free(group);
	return err;
}

int ts_run_add_wait_metrics(struct ts_run *r, const struct ts_analysis *a,
			    const struct ts_run_bench *b, double ops)
{
	return add_wakers(r, a, b) ?: add_stacks(r, a, b, ops);
}
