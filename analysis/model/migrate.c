// SPDX-License-Identifier: GPL-2.0-only
/*
 * The migration model and its line of the section table. Each sched_migrate_task is counted
 * per task and per CPU pair, with its origin told from the task's state when it moved.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "common/map.h"
#include "tickscope/migrate.h"

enum { ST_UNKNOWN = 0, ST_SLEEPING, ST_RUNNABLE };

/*
 * Each task's state, set on every switch and wakeup (a hash insert cost about 40 instructions
 * each): a byte per pid in pages of STATE_PAGE pids, made when a pid of theirs is first seen,
 * for the pids a kernel gives (below its PID_MAX_LIMIT); the map for any other.
 */
#define STATE_SHIFT 12
#define STATE_PAGE (1u << STATE_SHIFT)
#define STATE_PIDS (1u << 22) /* the kernel's PID_MAX_LIMIT on 64 bits */

struct ts_migrate {
	struct ts_model_opts opts;
	uint8_t *pages[STATE_PIDS / STATE_PAGE]; /* pid -> ST_*, below STATE_PIDS */
	struct ts_map state; /* pid -> ST_*, from STATE_PIDS on */
	struct ts_objtab tasks; /* pid -> struct ts_migrate_task */
	struct ts_objtab pairs; /* orig << 32 | dest -> struct ts_migrate_pair */
	struct ts_migrate_totals tot;
};

const char *ts_migrate_origin_name(int origin)
{
	static const char *const names[TS_MIG_NR] = { "wake_affine", "wake_other", "balance",
						      "unknown" };

	return origin >= 0 && origin < TS_MIG_NR ? names[origin] : "";
}

static __attribute__((noinline)) int set_state_slow(struct ts_migrate *m, int32_t pid, int st)
{
	uint8_t **page;
	uint64_t *v;
	int ret;

	if ((uint32_t)pid < STATE_PIDS) { /* the first pid of its page */
		page = &m->pages[(uint32_t)pid >> STATE_SHIFT];
		*page = calloc(STATE_PAGE, 1);
		if (!*page)
			return -ENOMEM;
		(*page)[pid & (STATE_PAGE - 1)] = (uint8_t)st;
		return 0;
	}
	ret = ts_map_insert(&m->state, (uint64_t)pid, &v);
	if (ret < 0)
		return ret;
	*v = (uint64_t)st;
	return 0;
}

static inline int set_state(struct ts_migrate *m, int32_t pid, int st)
{
	uint8_t *page;

	if (pid <= 0) /* the idle task never migrates */
		return 0;
	page = (uint32_t)pid < STATE_PIDS ? m->pages[(uint32_t)pid >> STATE_SHIFT] : NULL;
	if (!page)
		return set_state_slow(m, pid, st);
	page[pid & (STATE_PAGE - 1)] = (uint8_t)st;
	return 0;
}

static int get_state(const struct ts_migrate *m, int32_t pid)
{
	const uint64_t *v;
	const uint8_t *page;

	if ((uint32_t)pid < STATE_PIDS) {
		page = m->pages[(uint32_t)pid >> STATE_SHIFT];
		return page ? page[pid & (STATE_PAGE - 1)] : ST_UNKNOWN;
	}
	v = ts_map_find(&m->state, (uint64_t)pid);
	return v ? (int)*v : ST_UNKNOWN;
}

static int origin(const struct ts_migrate *m, const struct ts_event *ev)
{
	int st = get_state(m, ev->migrate.pid);

	if (st == ST_UNKNOWN)
		return TS_MIG_UNKNOWN;
	if (st == ST_RUNNABLE)
		return TS_MIG_BALANCE;
	/* asleep: a wakeup is placing it; the placement is traced on the waker's CPU */
	return ev->migrate.dest_cpu == ev->cpu ? TS_MIG_WAKE_AFFINE : TS_MIG_WAKE_OTHER;
}

static int on_migrate(struct ts_migrate *m, const struct ts_event *ev)
{
	uint64_t key = (uint64_t)(uint32_t)ev->migrate.orig_cpu << 32 |
		       (uint32_t)ev->migrate.dest_cpu;
	struct ts_migrate_task *t;
	struct ts_migrate_pair *p;
	int o = origin(m, ev), isnew;

	if (m->opts.task_filter &&
	    !m->opts.task_filter(m->opts.filter_ctx, ev->migrate.pid, ev->migrate.comm))
		return 0;
	t = ts_objtab_get(&m->tasks, (uint64_t)(uint32_t)ev->migrate.pid, &isnew);
	p = ts_objtab_get(&m->pairs, key, NULL);
	if (!t || !p)
		return -ENOMEM;
	t->pid = ev->migrate.pid;
	memcpy(t->comm, ev->migrate.comm, TS_COMM_LEN);
	t->comm[TS_COMM_LEN - 1] = 0;
	t->count++;
	t->by_origin[o]++;
	p->orig_cpu = ev->migrate.orig_cpu;
	p->dest_cpu = ev->migrate.dest_cpu;
	p->count++;
	p->by_origin[o]++;
	m->tot.count++;
	m->tot.by_origin[o]++;
	return 0;
}

int ts_migrate_feed(struct ts_migrate *m, const struct ts_event *ev)
{
	int err;

	switch (ev->kind) {
	case TS_EV_MIGRATE:
		return on_migrate(m, ev);
	case TS_EV_SWITCH:
		err = set_state(m, ev->sw.prev_pid,
				ev->sw.prev_state == TS_STATE_RUNNING ? ST_RUNNABLE : ST_SLEEPING);
		return err ? err : set_state(m, ev->sw.next_pid, ST_RUNNABLE);
	case TS_EV_WAKEUP:
	case TS_EV_WAKEUP_NEW:
		return set_state(m, ev->wake.pid, ST_RUNNABLE);
	default:
		return 0;
	}
}

/* The dispatch's feed for a switch, two tasks' states: ts_migrate_feed()'s with no switch. */
static int migrate_feed_switch(void *mv, const struct ts_event *ev)
{
	struct ts_migrate *m = mv;
	int err = set_state(m, ev->sw.prev_pid,
			    ev->sw.prev_state == TS_STATE_RUNNING ? ST_RUNNABLE : ST_SLEEPING);

	return err ? err : set_state(m, ev->sw.next_pid, ST_RUNNABLE);
}

static int migrate_feed_wakeup(void *m, const struct ts_event *ev)
{
	return set_state(m, ev->wake.pid, ST_RUNNABLE);
}

static int (*migrate_feed_kind(int kind))(void *m, const struct ts_event *ev)
{
	if (kind == TS_EV_SWITCH)
		return migrate_feed_switch;
	return kind == TS_EV_WAKEUP || kind == TS_EV_WAKEUP_NEW ? migrate_feed_wakeup : NULL;
}

void ts_migrate_finish(struct ts_migrate *m, uint64_t end)
{
}

int ts_migrate_new(struct ts_migrate **mp, const struct ts_model_opts *opts)
{
	struct ts_migrate *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->opts = *opts;
	m->tasks.size = sizeof(struct ts_migrate_task);
	m->pairs.size = sizeof(struct ts_migrate_pair);
	*mp = m;
	return 0;
}

void ts_migrate_free(struct ts_migrate *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < STATE_PIDS / STATE_PAGE; i++)
		free(m->pages[i]);
	ts_map_release(&m->state);
	ts_objtab_release(&m->tasks, NULL);
	ts_objtab_release(&m->pairs, NULL);
	free(m);
}

const struct ts_migrate_totals *ts_migrate_totals(const struct ts_migrate *m)
{
	return &m->tot;
}

size_t ts_migrate_nr_tasks(const struct ts_migrate *m)
{
	return m->tasks.nr;
}

const struct ts_migrate_task *ts_migrate_task_at(const struct ts_migrate *m, size_t i)
{
	return i < m->tasks.nr ? ts_objtab_at(&m->tasks, i) : NULL;
}

size_t ts_migrate_nr_pairs(const struct ts_migrate *m)
{
	return m->pairs.nr;
}

const struct ts_migrate_pair *ts_migrate_pair_at(const struct ts_migrate *m, size_t i)
{
	return i < m->pairs.nr ? ts_objtab_at(&m->pairs, i) : NULL;
}

static int migrate_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_migrate *m = mv;
	const char *why = tm_why(s, TS_EV_MIGRATE);
	int o;

	tm_rate(s, TS_DIR_LOWER, m->tot.count, why, "per_s");
	for (o = 0; o < TS_MIG_NR; o++)
		tm_rate(s, TS_DIR_LOWER, m->tot.by_origin[o], why, "%s.per_s",
			ts_migrate_origin_name(o));
	return s->err;
}

TS_SECTION_GLUE_VOID(migrate, struct ts_migrate)

/* switches and wakeups tell whether a task was asleep or runnable when it moved */
static const uint16_t also[] = { TS_EV_SWITCH, TS_EV_WAKEUP, TS_EV_WAKEUP_NEW };

const struct ts_section_ops ts_migrate_section = {
	.name = "migrate",
	.also = also,
	.nr_also = 3,
	TS_SECTION_OPS_GLUE(migrate),
	.feed_kind = migrate_feed_kind,
	.metrics = migrate_metrics,
};
