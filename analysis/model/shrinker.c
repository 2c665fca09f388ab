// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrinker model. do_shrink_slab() runs start to end in one task, so the two events pair
 * by pid (and the shrinker address). Scanned = start total_scan - end total_scan.
 */
#include <errno.h>
#include <stdlib.h>

#include "sink.h"
#include "common/map.h"
#include "tickscope/shrinker.h"

struct running {
	uint64_t shr, time, function;
	int64_t total_scan, to_shrink;
	int open;
};

struct ts_shrinker {
	struct ts_objtab fns; /* function -> struct ts_shrink_fn */
	struct ts_objtab tasks; /* pid -> struct running */
	struct ts_objtab stats; /* pid -> struct ts_shrink_task */
	struct ts_shrink_totals tot;
};

static int on_start(struct ts_shrinker *m, const struct ts_event *ev)
{
	struct running *r = ts_objtab_get(&m->tasks, (uint64_t)(uint32_t)ev->pid, NULL);

	if (!r)
		return -ENOMEM;
	r->shr = ev->shrink.shr;
	r->function = ev->shrink.function;
	r->time = ev->time;
	r->total_scan = ev->shrink.total_scan;
	r->to_shrink = ev->shrink.nr_objects_to_shrink;
	r->open = 1;
	return 0;
}

static int on_end(struct ts_shrinker *m, const struct ts_event *ev)
{
	struct running *r = ts_objtab_find(&m->tasks, (uint64_t)(uint32_t)ev->pid);
	struct ts_shrink_task *st;
	struct ts_shrink_fn *f;
	uint64_t d, scanned;
	int err;

	if (!r || !r->open || r->shr != ev->shrink.shr || ev->time < r->time) {
		m->tot.unmatched_ends++;
		return 0;
	}
	r->open = 0;
	f = ts_objtab_get(&m->fns, r->function, NULL);
	st = ts_objtab_get(&m->stats, (uint64_t)(uint32_t)ev->pid, NULL);
	if (!f || !st)
		return -ENOMEM;
	f->function = r->function;
	d = ev->time - r->time;
	scanned = r->total_scan > ev->shrink.total_scan ?
			  (uint64_t)(r->total_scan - ev->shrink.total_scan) :
			  0;
	f->nr++;
	f->scanned += scanned;
	f->freed += ev->shrink.retval > 0 ? (uint64_t)ev->shrink.retval : 0;
	f->to_shrink += r->to_shrink > 0 ? (uint64_t)r->to_shrink : 0;
	m->tot.nr++;
	m->tot.scanned += scanned;
	m->tot.freed += ev->shrink.retval > 0 ? (uint64_t)ev->shrink.retval : 0;
	st->pid = ev->pid;
	st->calls++;
	st->time_ns += d;
	st->freed += ev->shrink.retval > 0 ? (uint64_t)ev->shrink.retval : 0;
	err = ts_hist_add(&f->duration, d);
	if (!err)
		err = ts_hist_add(&m->tot.duration, d);
	if (!err)
		err = ts_count_cpu(&f->per_cpu, &f->nr_cpu, ev->cpu);
	return err;
}

int ts_shrinker_feed(struct ts_shrinker *m, const struct ts_event *ev)
{
	if (ev->kind == TS_EV_SHRINK_START)
		return on_start(m, ev);
	if (ev->kind == TS_EV_SHRINK_END)
		return on_end(m, ev);
	return 0;
}

void ts_shrinker_finish(struct ts_shrinker *m, uint64_t end)
{
	m->tot.open_at_end += ts_objtab_count_set(&m->tasks, offsetof(struct running, open));
}

static const struct ts_tab_spec tabs[] = {
	TS_TAB(struct ts_shrinker, fns, struct ts_shrink_fn),
	TS_TAB(struct ts_shrinker, tasks, struct running),
	TS_TAB(struct ts_shrinker, stats, struct ts_shrink_task),
};

int ts_shrinker_new(struct ts_shrinker **mp, const struct ts_model_opts *opts)
{
	*mp = ts_tables_new(sizeof(**mp), tabs, sizeof(tabs) / sizeof(tabs[0]));
	return *mp ? 0 : -ENOMEM;
}

static void fini_fn(void *obj)
{
	ts_hist_release(&((struct ts_shrink_fn *)obj)->duration);
	free(((struct ts_shrink_fn *)obj)->per_cpu);
}

void ts_shrinker_free(struct ts_shrinker *m)
{
	if (!m)
		return;
	ts_objtab_release(&m->fns, fini_fn);
	ts_objtab_release(&m->tasks, NULL);
	ts_objtab_release(&m->stats, NULL);
	ts_hist_release(&m->tot.duration);
	free(m);
}

size_t ts_shrinker_nr_fns(const struct ts_shrinker *m)
{
	return m->fns.nr;
}

const struct ts_shrink_fn *ts_shrinker_fn_at(const struct ts_shrinker *m, size_t i)
{
	return i < m->fns.nr ? ts_objtab_at(&m->fns, i) : NULL;
}

size_t ts_shrinker_nr_tasks(const struct ts_shrinker *m)
{
	return m->stats.nr;
}

const struct ts_shrink_task *ts_shrinker_task_at(const struct ts_shrinker *m, size_t i)
{
	return i < m->stats.nr ? ts_objtab_at(&m->stats, i) : NULL;
}

const struct ts_shrink_totals *ts_shrinker_totals(const struct ts_shrinker *m)
{
	return &m->tot;
}

static int shrinker_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_shrinker *m = mv;
	const struct ts_shrink_totals *t = &m->tot;
	const char *why = tm_section_why(s, TS_SEC_SHRINKER), *name;
	const struct ts_shrink_fn *fn;
	char buf[24];
	size_t i;

	tm_rate(s, TS_DIR_LOWER, t->nr, why, "calls.per_s");
	tm_dist(s, TS_DIR_LOWER, &t->duration, why, "duration");
	if (why) {
		tm_null(s, "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, why, "scanned.count");
		tm_null(s, "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, why, "freed.count");
		return s->err;
	}
	tm_value(s, "count", TS_DIR_NEUTRAL, (double)t->scanned, "scanned.count");
	tm_value(s, "count", TS_DIR_NEUTRAL, (double)t->freed, "freed.count");
	for (i = 0; i < ts_shrinker_nr_fns(m); i++) {
		fn = ts_shrinker_fn_at(m, i);
		name = tm_fn(s, fn->function, buf, sizeof(buf));
		tm_rate(s, TS_DIR_LOWER, fn->nr, NULL, "%s.calls.per_s", name);
		tm_dist(s, TS_DIR_LOWER, &fn->duration, NULL, "%s.duration", name);
	}
	return s->err;
}

TS_SECTION_GLUE_VOID(shrinker, struct ts_shrinker)


const struct ts_section_ops ts_shrinker_section = {
	.name = "shrinker",
	.flags = TS_SECF_TASK_OWNED,
	TS_SECTION_OPS_GLUE(shrinker),
	.metrics = shrinker_metrics,
};
