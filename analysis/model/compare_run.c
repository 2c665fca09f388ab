// SPDX-License-Identifier: GPL-2.0-only
/*
 * One run of `tickscope compare` as named metrics: the table of metrics by name and the
 * recording facts for confounders, with what the trace tells of the kernel where no config
 * says. The metrics come from compare_run_analysis.c (one analysis) or a saved summary.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"
#include "tickscope/compare.h"

/* The run's copy of @s (NULL for NULL): its own, or the shared one of its intern table. */
static int dup_or_null(const struct ts_run *r, char **dst, const char *s)
{
	*dst = NULL;
	if (!s)
		return 0;
	*dst = r->intern ? (char *)r->intern(r->intern_ctx, s) : strdup(s);
	return *dst ? 0 : -ENOMEM;
}

static void free_own(const struct ts_run *r, char *s)
{
	if (!r->intern)
		free(s);
}

static const char *metric_name(const void *ctx, size_t i)
{
	return ((const struct ts_run_metric *)ctx)[i].name;
}

const struct ts_run_metric *ts_run_find(const struct ts_run *r, const char *name)
{
	long i = r->ix ? ts_strix_find(r->ix, name, metric_name, r->m) : -1;

	return i < 0 ? NULL : &r->m[i];
}

/* Whether the comma list @list names @ev. */
static int listed(const char *list, const char *ev)
{
	size_t n = strlen(ev);

	for (const char *l = list; l && *l; l += strcspn(l, ",") + (l[strcspn(l, ",")] == ','))
		if (strcspn(l, ",") == n && !strncmp(l, ev, n))
			return 1;
	return 0;
}

/*
 * The tick on idle CPUs, from timer:tick_stop (tick_nohz_stop_tick() traces success=1;
 * check_tick_dependency() traces success=0 with the dependency that kept the tick, and runs
 * only on nohz_full CPUs), into @buf; NULL when the trace cannot tell.
 */
static const char *infer_nohz(const struct ts_run *r, char *buf, size_t n)
{
	static const char pre[] = "idle.tick_stop.fail.", suf[] = ".count";
	const struct ts_run_metric *ok = ts_run_find(r, "idle.tick_stop.ok.per_s");

	for (int i = 0; i < r->nr; i++) {
		const char *name = r->m[i].name;
		size_t len = strlen(name), p = sizeof(pre) - 1, q = sizeof(suf) - 1;

		if (len <= p + q || strncmp(name, pre, p) || strcmp(name + len - q, suf) ||
		    !(r->m[i].value > 0) || (len - p - q == 4 && !strncmp(name + p, "NONE", 4)))
			continue;
		snprintf(buf, n,
			 "nohz_full (tick_stop failed with dependency=%.*s: only nohz_full CPUs "
			 "check dependencies)",
			 (int)(len - p - q), name + p);
		return buf;
	}
	if (ok && ok->value > 0)
		return "idle (tick_stop succeeded: idle CPUs stop the tick)";
	if (ok && ok->value == 0)
		return "off (timer:tick_stop recorded, the tick never stopped: nohz=off, or no CPU "
		       "went idle)";
	if (listed(r->fact[TS_FACT_EVENTS_MISSING], "timer:tick_stop"))
		return "periodic (the kernel has no timer:tick_stop: built without NO_HZ_COMMON)";
	return NULL;
}

/*
 * The preemption model where no config says: only PREEMPT_RT kernels make a softirq thread
 * for the timers (ktimers/N from 6.x, ktimersoftd/N in the earlier -rt patches), so their
 * threads tell RT. Nothing in a scheduler trace tells none, voluntary and full apart: NULL.
 */
static const char *infer_preempt(const struct ts_run *r)
{
	static const char *const rt_only[] = { "sched.threads.ktimers.count",
					       "sched.threads.ktimersoftd.count" };

	for (size_t i = 0; i < sizeof(rt_only) / sizeof(rt_only[0]); i++) {
		const struct ts_run_metric *m = ts_run_find(r, rt_only[i]);

		if (m && m->value > 0)
			return "PREEMPT_RT (inferred: the trace names ktimers threads, which only "
			       "PREEMPT_RT kernels make)";
	}
	return NULL;
}

int ts_run_infer(struct ts_run *r)
{
	char buf[160];
	int err = 0;

	if (!r->fact[TS_FACT_KERNEL] && r->fact[TS_FACT_RELEASE])
		err = ts_run_set_fact(r, TS_FACT_KERNEL, r->fact[TS_FACT_RELEASE]);
	/* the events recorded, from the perf.data's attrs when no meta.txt listed them */
	if (!err && !r->fact[TS_FACT_EVENTS] && r->fact[TS_FACT_TRACE_EVENTS])
		err = ts_run_set_fact(r, TS_FACT_EVENTS, r->fact[TS_FACT_TRACE_EVENTS]);
	if (!err && !r->fact[TS_FACT_NOHZ])
		err = ts_run_set_fact(r, TS_FACT_NOHZ, infer_nohz(r, buf, sizeof(buf)));
	if (!err && !r->fact[TS_FACT_PREEMPT])
		err = ts_run_set_fact(r, TS_FACT_PREEMPT, infer_preempt(r));
	return err;
}

int ts_run_add(struct ts_run *r, const char *name, const char *unit, enum ts_metric_dir dir,
	       enum ts_metric_kind kind, double value, const char *why_null)
{
	struct ts_run_metric *m = (struct ts_run_metric *)ts_run_find(r, name);

	if (m) {
		free_own(r, m->unit);
		free_own(r, m->why_null);
	} else {
		if (r->nr == r->cap) {
			int cap = r->cap ? 2 * r->cap : 64;
			struct ts_run_metric *n = realloc(r->m, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			r->m = n;
			r->cap = cap;
		}
		if (!r->ix && !(r->ix = calloc(1, sizeof(*r->ix))))
			return -ENOMEM;
		m = &r->m[r->nr];
		if (dup_or_null(r, &m->name, name) ||
		    ts_strix_add(r->ix, name, r->nr, metric_name, r->m)) {
			free_own(r, m->name);
			return -ENOMEM;
		}
		r->nr++;
		m->unit = m->why_null = NULL;
	}
	m->dir = dir;
	m->kind = kind;
	m->value = value;
	if (dup_or_null(r, &m->unit, unit) |
	    dup_or_null(r, &m->why_null, isnan(value) ? why_null : NULL))
		return -ENOMEM;
	return 0;
}

int ts_run_set_fact(struct ts_run *r, enum ts_run_fact f, const char *value)
{
	free(r->fact[f]);
	r->fact[f] = NULL;
	if (value && !(r->fact[f] = strdup(value)))
		return -ENOMEM;
	return 0;
}

int ts_run_set_filters_unknown(struct ts_run *r, const char *why)
{
	free(r->filters_unknown);
	r->filters_unknown = NULL;
	if (why && !(r->filters_unknown = strdup(why)))
		return -ENOMEM;
	return 0;
}

int ts_run_section(const struct ts_run *r, enum ts_section s)
{
	return s >= 0 && s < TS_SEC_NR && r->section[s] ? r->section[s] - 1 : -1;
}

const char *ts_run_section_name(enum ts_section s)
{
#define SEC_OPS(id, ident) [TS_SEC_##id] = &ts_##ident##_section,
	static const struct ts_section_ops *const ops[TS_SEC_NR] = { TS_SECTIONS(SEC_OPS) };
#undef SEC_OPS

	return s >= 0 && s < TS_SEC_NR ? ops[s]->name : "";
}

void ts_run_release(struct ts_run *r)
{
	const char *(*intern)(void *ctx, const char *s) = r->intern;
	void *ictx = r->intern_ctx;

	for (int i = 0; i < r->nr; i++) {
		free_own(r, r->m[i].name);
		free_own(r, r->m[i].unit);
		free_own(r, r->m[i].why_null);
	}
	for (int f = 0; f < TS_FACT_NR; f++)
		free(r->fact[f]);
	if (r->ix)
		ts_strix_release(r->ix);
	free(r->ix);
	free(r->m);
	free(r->label);
	free(r->refused_reason);
	free(r->filters_unknown);
	memset(r, 0, sizeof(*r));
	r->intern = intern; /* the run may be filled again: its names stay interned */
	r->intern_ctx = ictx;
}
