// SPDX-License-Identifier: GPL-2.0-only
/*
 * The irq model and its line of the section table: per hard IRQ handler, system vector,
 * softirq and timer callback a count, entry-to-exit durations and the tasks they interrupted;
 * per task the time interrupts took from it, split disjointly by the innermost context.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "common/map.h"
#include "tickscope/idle.h"
#include "tickscope/irq.h"

struct ts_irq {
	struct ts_irqctx *ctx;
	struct ts_irq_stat *stat; /* by source index */
	int nr_stat;
	struct ts_objtab tasks; /* pid -> struct ts_irq_task */
	struct ts_objtab src_tasks; /* src << 32 | pid -> struct ts_irq_src_task */
	struct ts_objtab comms; /* pid -> char[TS_COMM_LEN], the last name seen */
	struct last_in *last_in; /* by CPU */
	int nr_last_in;
	uint64_t tot[TS_IRQC_NR];
};

/* A CPU's last task switched in and its name slot in comms: its next switch's prev, mostly. */
struct last_in {
	int32_t pid;
	char *comm;
};

int ts_irq_new(struct ts_irq **mp, const struct ts_model_opts *opts)
{
	struct ts_irq *m = calloc(1, sizeof(*m));

	(void)opts; /* interrupts belong to no task: --pid/--comm do not filter them */
	*mp = NULL;
	if (!m || ts_irqctx_new(&m->ctx)) {
		free(m);
		return -ENOMEM;
	}
	m->tasks.size = sizeof(struct ts_irq_task);
	m->src_tasks.size = sizeof(struct ts_irq_src_task);
	m->comms.size = TS_COMM_LEN;
	*mp = m;
	return 0;
}

static void stat_fini(struct ts_irq *m)
{
	for (int i = 0; i < m->nr_stat; i++)
		ts_hist_release(&m->stat[i].dur);
}

void ts_irq_free(struct ts_irq *m)
{
	if (!m)
		return;
	stat_fini(m);
	free(m->stat);
	free(m->last_in);
	ts_irqctx_free(m->ctx);
	ts_objtab_release(&m->tasks, NULL);
	ts_objtab_release(&m->src_tasks, NULL);
	ts_objtab_release(&m->comms, NULL);
	free(m);
}

/* Keep @comm as @pid's name, in @c (its slot) when known; Return: the slot, NULL for none */
static char *set_comm_in(struct ts_irq *m, int32_t pid, const char *comm, char *c)
{
	if (!c)
		c = ts_objtab_get(&m->comms, (uint32_t)pid, NULL);
	if (c) {
		memcpy(c, comm, TS_COMM_LEN);
		c[TS_COMM_LEN - 1] = 0;
	}
	return c;
}

static int set_comm(struct ts_irq *m, int32_t pid, const char *comm)
{
	return pid <= 0 || set_comm_in(m, pid, comm, NULL) ? 0 : -ENOMEM;
}

/*
 * Both tasks' names at a switch (next first), the task switched out found by the CPU's last
 * switch-in when it is that one (slots are never moved) rather than by its pid's hash.
 */
static int switch_comms(struct ts_irq *m, const struct ts_event *ev)
{
	int32_t prev = ev->sw.prev_pid, next = ev->sw.next_pid;
	struct last_in *l = NULL;
	char *c = NULL;

	if ((unsigned int)ev->cpu < (unsigned int)m->nr_last_in) {
		l = &m->last_in[ev->cpu];
	} else if (ev->cpu >= 0 && ev->cpu <= 65535) {
		l = ts_grow_zeroed(m->last_in, &m->nr_last_in, ev->cpu, sizeof(*l));
		if (!l)
			return -ENOMEM;
		m->last_in = l;
		l += ev->cpu;
	}
	if (next > 0 && !(c = set_comm_in(m, next, ev->sw.next_comm, NULL)))
		return -ENOMEM;
	if (prev > 0 && !set_comm_in(m, prev, ev->sw.prev_comm,
				     l && l->comm && l->pid == prev ? l->comm : NULL))
		return -ENOMEM;
	if (l) {
		l->pid = next;
		l->comm = c;
	}
	return 0;
}

static struct ts_irq_task *task(struct ts_irq *m, int32_t pid)
{
	struct ts_irq_task *t;
	int isnew;

	t = ts_objtab_get(&m->tasks, (uint32_t)pid, &isnew);
	if (t && isnew)
		t->pid = pid;
	return t;
}

static struct ts_irq_stat *stat(struct ts_irq *m, int src)
{
	int nr = m->nr_stat;
	struct ts_irq_stat *s = ts_grow_zeroed(m->stat, &nr, src, sizeof(*s));

	if (!s)
		return NULL;
	for (int i = m->nr_stat; i < nr; i++)
		s[i].src = i;
	m->stat = s;
	m->nr_stat = nr;
	return &s[src];
}

/* The time since @cpu's innermost context last changed goes to it and to the current task. */
static int account(struct ts_irq *m, int cpu, uint64_t now)
{
	struct ts_irq_top top = ts_irqctx_top(m->ctx, cpu);
	uint64_t since = ts_irqctx_since(m->ctx, cpu), ns;
	struct ts_irq_task *t;
	struct ts_irq_stat *s;

	if (top.cls == TS_IRQC_NONE || now <= since)
		return 0;
	ns = now - since;
	t = task(m, top.pid);
	s = stat(m, top.timer_src >= 0 ? top.timer_src : top.irq_src);
	if (!t || !s)
		return -ENOMEM;
	t->ns[top.cls] += ns;
	t->timers_ns += top.timer_src >= 0 ? ns : 0;
	s->own_ns += ns;
	m->tot[top.cls] += ns;
	return 0;
}

static int closed(struct ts_irq *m, const struct ts_irq_done *d)
{
	struct ts_irq_stat *s = stat(m, d->src);
	struct ts_irq_src_task *st;
	uint64_t ns = d->end - d->start;

	if (!s || ts_hist_add(&s->dur, ns))
		return -ENOMEM;
	s->count++;
	s->on_task_ns += d->pid ? ns : 0;
	st = ts_objtab_get(&m->src_tasks, (uint64_t)d->src << 32 | (uint32_t)d->pid, NULL);
	if (!st || !task(m, d->pid))
		return -ENOMEM;
	st->src = d->src;
	st->pid = d->pid;
	st->ns += ns;
	return 0;
}

int ts_irq_feed(struct ts_irq *m, const struct ts_event *ev)
{
	struct ts_irq_done d;
	int ret, cpu;

	if (ev->kind == TS_EV_SWITCH) {
		if (switch_comms(m, ev))
			return -ENOMEM;
		/* nearly always nothing open on a CPU seen before: no time to give, none to close */
		if (!ts_irqctx_depth(m->ctx, ev->cpu))
			return 0;
	}
	if (ev->kind == TS_EV_COMM)
		return set_comm(m, ev->comm.tid, ev->comm.comm);
	if (!ts_irqctx_is_event(ev))
		return 0;
	if (ev->kind == TS_EV_LOST) { /* every CPU it resets: their time so far is known */
		for (cpu = 0; cpu < ts_irqctx_nr_cpus(m->ctx); cpu++)
			if ((ev->cpu < 0 || ev->cpu == cpu) && (ret = account(m, cpu, ev->time)))
				return ret;
	} else if ((ret = account(m, ev->cpu, ev->time))) {
		return ret;
	}
	ret = ts_irqctx_feed(m->ctx, ev, &d);
	return ret > 0 ? closed(m, &d) : ret;
}

void ts_irq_finish(struct ts_irq *m, uint64_t end)
{
	(void)end; /* an open context's time past its last event is not known: not counted */
	ts_irqctx_finish(m->ctx);
	/*
	 * The last name seen, as the sched model's: a task interrupted before its exec's COMM
	 * record would otherwise keep its parent's name where the source has no COMM records.
	 */
	for (size_t i = 0; i < m->tasks.nr; i++) {
		struct ts_irq_task *t = ts_objtab_at(&m->tasks, i);
		const char *c = t->pid ? ts_objtab_find(&m->comms, (uint32_t)t->pid) : "swapper";

		snprintf(t->comm, sizeof(t->comm), "%s", c ? c : "");
	}
}

const struct ts_irqctx *ts_irq_ctx(const struct ts_irq *m)
{
	return m->ctx;
}

size_t ts_irq_nr_stats(const struct ts_irq *m)
{
	return (size_t)m->nr_stat;
}

const struct ts_irq_stat *ts_irq_stat_at(const struct ts_irq *m, size_t i)
{
	return i < (size_t)m->nr_stat ? &m->stat[i] : NULL;
}

size_t ts_irq_nr_tasks(const struct ts_irq *m)
{
	return m->tasks.nr;
}

const struct ts_irq_task *ts_irq_task_at(const struct ts_irq *m, size_t i)
{
	return i < m->tasks.nr ? ts_objtab_at(&m->tasks, i) : NULL;
}

size_t ts_irq_nr_src_tasks(const struct ts_irq *m)
{
	return m->src_tasks.nr;
}

const struct ts_irq_src_task *ts_irq_src_task_at(const struct ts_irq *m, size_t i)
{
	return i < m->src_tasks.nr ? ts_objtab_at(&m->src_tasks, i) : NULL;
}

void ts_irq_totals(const struct ts_irq *m, uint64_t ns[TS_IRQC_NR])
{
	memcpy(ns, m->tot, sizeof(m->tot));
}

/* The metric name's part for source @src: the handler, vector, softirq or function. */
static const char *src_part(struct ts_metric_sink *s, const struct ts_irq_src *src, char *buf,
			    size_t len)
{
	char fn[64];

	if (src->type == TS_IRQT_HRTIMER || src->type == TS_IRQT_TIMER)
		return ts_irq_metric_part(tm_fn(s, (uint64_t)src->num, fn, sizeof(fn)), buf, len);
	return ts_irq_metric_part(src->name, buf, len);
}

static const char *const prefix[TS_IRQT_NR] = { "hardirq", "hardirq", "softirq", "timer", "timer" };

static int irq_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_irq *m = mv;
	const char *why = tm_why(s, TS_EV_IRQ_ENTRY), *why_type[TS_IRQT_NR], *name;
	const char *hr = tm_why(s, TS_EV_HRTIMER_EXPIRE_ENTRY);
	const struct ts_irq_src *src;
	struct ts_hist tick = { 0 };
	uint64_t nr_tick = 0;
	char buf[64], fn[64];

	why_type[TS_IRQT_HARD] = why;
	why_type[TS_IRQT_VECTOR] = why;
	why_type[TS_IRQT_SOFT] = tm_why(s, TS_EV_SOFTIRQ_ENTRY);
	why_type[TS_IRQT_HRTIMER] = hr;
	why_type[TS_IRQT_TIMER] = tm_why(s, TS_EV_TIMER_EXPIRE_ENTRY);
	for (int c = TS_IRQC_HARD; c < TS_IRQC_NR; c++) {
		const char *w = why_type[c == TS_IRQC_HARD ? TS_IRQT_HARD : TS_IRQT_SOFT];
		/* the timer callbacks run inside: their entries lost, their exits unmatched, the
		 * class's time is wrong (hard IRQ time rose 23% with the hrtimer entries dropped) */
		int t = c == TS_IRQC_HARD ? TS_EV_HRTIMER_EXPIRE_ENTRY : TS_EV_TIMER_EXPIRE_ENTRY;

		if (!w && ts_analysis_kind_presence(s->a, t) == TS_RECORDED_EMPTY)
			w = why_type[c == TS_IRQC_HARD ? TS_IRQT_HRTIMER : TS_IRQT_TIMER];
		if (w || s->span <= 0)
			tm_null(s, "ns/s", TS_DIR_LOWER, TS_METRIC_VALUE, w ? w : "empty trace",
				"%s.ns_per_s", ts_irq_class_name(c));
		else
			tm_value(s, "ns/s", TS_DIR_LOWER, m->tot[c] / s->span, "%s.ns_per_s",
				 ts_irq_class_name(c));
	}
	for (int i = 0; i < m->nr_stat && !s->err; i++) {
		const struct ts_irq_stat *st = &m->stat[i];

		src = ts_irqctx_src(m->ctx, st->src);
		if (!st->count || !src)
			continue;
		if (src->type == TS_IRQT_HRTIMER &&
		    ts_idle_is_tick(tm_fn(s, (uint64_t)src->num, fn, sizeof(fn)))) {
			nr_tick += st->count;
			if (ts_hist_merge(&tick, &st->dur))
				s->err = -ENOMEM;
		}
		name = src_part(s, src, buf, sizeof(buf));
		tm_rate(s, TS_DIR_LOWER, st->count, why_type[src->type], "%s.%s.per_s",
			prefix[src->type], name);
		tm_dist(s, TS_DIR_LOWER, &st->dur, why_type[src->type], "%s.%s", prefix[src->type],
			name);
	}
	why = hr ? hr : s->sym ? NULL : "no symbols: the tick cannot be told from other hrtimers";
	tm_rate(s, TS_DIR_LOWER, nr_tick, why, "tick.per_s");
	tm_dist(s, TS_DIR_LOWER, &tick, why, "tick");
	ts_hist_release(&tick);
	return s->err;
}

TS_SECTION_GLUE_VOID(irq, struct ts_irq)

/*
 * Timer callbacks nest in the contexts; switches and COMM records name the tasks; the x86
 * system vectors (irq_vectors:*_entry/_exit) are tracepoints of no kind of their own.
 */
static const uint16_t also[] = { TS_EV_HRTIMER_EXPIRE_ENTRY,
				 TS_EV_HRTIMER_EXPIRE_EXIT,
				 TS_EV_TIMER_EXPIRE_ENTRY,
				 TS_EV_TIMER_EXPIRE_EXIT,
				 TS_EV_SWITCH,
				 TS_EV_COMM,
				 TS_EV_LOST,
				 TS_EV_OTHER };

/* Of the tracepoints of no kind, the vectors only: the others would be looked at and dropped. */
static int irq_wants(int kind, const char *name)
{
	return kind != TS_EV_OTHER || ts_irqctx_is_vector(name);
}

const struct ts_section_ops ts_irq_section = {
	.name = "irq",
	.also = also,
	.nr_also = (int)(sizeof(also) / sizeof(also[0])),
	.wants = irq_wants,
	TS_SECTION_OPS_GLUE(irq),
	.metrics = irq_metrics,
};
