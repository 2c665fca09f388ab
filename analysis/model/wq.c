// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workqueue model. A worker runs one work item at a time, so execute_start/end pair by the
 * worker's pid; queue latency pairs queue_work and execute_start by the work's address.
 */
#include <errno.h>
#include <stdlib.h>

#include "sink.h"
#include "common/map.h"
#include "tickscope/wq.h"

/* Queued works kept for latency; beyond this, latencies of new ones are not measured. */
#define MAX_QUEUED (1u << 20)

struct running {
	uint64_t work, time;
	struct ts_wq_fn *fn;
	int open;
};

struct ts_wq {
	struct ts_objtab fns; /* function -> struct ts_wq_fn */
	struct ts_objtab workers; /* pid -> struct running */
	struct ts_map queued; /* work -> queue time */
	struct ts_wq_totals tot;
};

static int on_queue(struct ts_wq *m, const struct ts_event *ev)
{
	struct ts_wq_fn *f = ts_objtab_get(&m->fns, ev->wq.function, NULL);
	uint64_t *v;
	int ret;

	if (!f)
		return -ENOMEM;
	f->function = ev->wq.function;
	f->nr_queued++;
	m->tot.nr_queued++;
	if (m->queued.nr >= MAX_QUEUED)
		return 0;
	ret = ts_map_insert(&m->queued, ev->wq.work, &v);
	if (ret < 0)
		return ret;
	*v = ev->time;
	return 0;
}

static int on_start(struct ts_wq *m, const struct ts_event *ev)
{
	struct ts_wq_fn *f = ts_objtab_get(&m->fns, ev->wq.function, NULL);
	struct running *r = ts_objtab_get(&m->workers, (uint64_t)(uint32_t)ev->pid, NULL);
	uint64_t *q;
	int err;

	if (!f || !r)
		return -ENOMEM;
	f->function = ev->wq.function;
	f->nr_exec++;
	m->tot.nr_exec++;
	err = ts_count_cpu(&f->per_cpu, &f->nr_cpu, ev->cpu);
	q = ts_map_find(&m->queued, ev->wq.work);
	if (q) {
		if (!err && ev->time >= *q)
			err = ts_hist_add(&f->queue_lat, ev->time - *q);
		ts_map_remove(&m->queued, ev->wq.work);
	}
	r->work = ev->wq.work;
	r->time = ev->time;
	r->fn = f;
	r->open = 1;
	return err;
}

static int on_end(struct ts_wq *m, const struct ts_event *ev)
{
	struct running *r = ts_objtab_find(&m->workers, (uint64_t)(uint32_t)ev->pid);

	if (!r || !r->open || r->work != ev->wq.work) {
		m->tot.unmatched_ends++;
		return 0;
	}
	r->open = 0;
	if (ev->time < r->time)
		return 0;
	return ts_hist_add(&r->fn->duration, ev->time - r->time);
}

int ts_wq_feed(struct ts_wq *m, const struct ts_event *ev)
{
	struct ts_wq_fn *f;

	switch (ev->kind) {
	case TS_EV_WQ_QUEUE:
		return on_queue(m, ev);
	case TS_EV_WQ_ACTIVATE:
		/* A delayed or max_active-limited work became runnable: still queued. */
		m->tot.nr_activated++;
		f = ev->wq.function ? ts_objtab_find(&m->fns, ev->wq.function) : NULL;
		if (f)
			f->nr_activated++;
		return 0;
	case TS_EV_WQ_START:
		return on_start(m, ev);
	case TS_EV_WQ_END:
		return on_end(m, ev);
	default:
		return 0;
	}
}

void ts_wq_finish(struct ts_wq *m, uint64_t end)
{
	m->tot.open_at_end += ts_objtab_count_set(&m->workers, offsetof(struct running, open));
}

static const struct ts_tab_spec tabs[] = {
	TS_TAB(struct ts_wq, fns, struct ts_wq_fn),
	TS_TAB(struct ts_wq, workers, struct running),
};

int ts_wq_new(struct ts_wq **mp, const struct ts_model_opts *opts)
{
	*mp = ts_tables_new(sizeof(**mp), tabs, sizeof(tabs) / sizeof(tabs[0]));
	return *mp ? 0 : -ENOMEM;
}

static void fini_fn(void *obj)
{
	struct ts_wq_fn *f = obj;

	ts_hist_release(&f->duration);
	ts_hist_release(&f->queue_lat);
	free(f->per_cpu);
}

void ts_wq_free(struct ts_wq *m)
{
	if (!m)
		return;
	ts_objtab_release(&m->fns, fini_fn);
	ts_objtab_release(&m->workers, NULL);
	ts_map_release(&m->queued);
	free(m);
}

size_t ts_wq_nr_fns(const struct ts_wq *m)
{
	return m->fns.nr;
}

const struct ts_wq_fn *ts_wq_fn_at(const struct ts_wq *m, size_t i)
{
	return i < m->fns.nr ? ts_objtab_at(&m->fns, i) : NULL;
}

const struct ts_wq_totals *ts_wq_totals(const struct ts_wq *m)
{
	return &m->tot;
}

static int wq_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_wq *m = mv;
	const char *why = tm_section_why(s, TS_SEC_WQ), *q = tm_why(s, TS_EV_WQ_QUEUE), *name;
	const struct ts_wq_fn *fn;
	char buf[24];
	size_t i;

	tm_rate(s, TS_DIR_LOWER, m->tot.nr_exec, why, "work.per_s");
	for (i = 0; !why && i < ts_wq_nr_fns(m); i++) {
		fn = ts_wq_fn_at(m, i);
		if (!fn->nr_exec)
			continue;
		name = tm_fn(s, fn->function, buf, sizeof(buf));
		tm_rate(s, TS_DIR_LOWER, fn->nr_exec, NULL, "work.%s.per_s", name);
		tm_dist(s, TS_DIR_LOWER, &fn->duration, NULL, "work.%s.duration", name);
		tm_dist(s, TS_DIR_LOWER, &fn->queue_lat, q, "work.%s.queue_latency", name);
	}
	return s->err;
}

TS_SECTION_GLUE_VOID(wq, struct ts_wq)


const struct ts_section_ops ts_wq_section = {
	.name = "workqueue",
	.flags = TS_SECF_TASK_OWNED,
	TS_SECTION_OPS_GLUE(wq),
	.metrics = wq_metrics,
};
