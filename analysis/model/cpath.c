// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's tasks' time line (see tickscope/cpath.h): a small state machine per task,
 * counts of tasks per state, and the time between events given to the most advanced state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/cpath.h"
#include "tickscope/irq.h"

enum tstate { T_SLEEP = 0, T_RUN, T_DELIVERY, T_DELAY };

struct task {
	int32_t pid;
	int32_t cpu; /* where it last switched in */
	enum tstate st;
};

/* Run time taken by interrupts: by class, and by source (untraced: with no source). */
struct irq_sums {
	double cls[TS_IRQC_NR];
	double untraced[TS_IRQC_NR];
	double *src; /* by source index: an irq's class time, a timer callback's time */
	int nr_src;
};

struct ts_cpath {
	char *match;
	size_t len;
	struct task *t;
	int nr, cap;
	int count[4]; /* tasks per tstate */
	int started; /* a task event was seen */
	uint64_t last; /* time of the previous event */
	uint64_t ns[TS_CP_NR], at_last[TS_CP_NR]; /* running, and at the last task event */
	struct ts_irqctx *irq; /* every CPU's interrupt contexts */
	struct irq_sums run_irq, run_irq_last; /* running, and at the last task event */
};

int ts_cpath_new(struct ts_cpath **pp, const char *match)
{
	struct ts_cpath *p = calloc(1, sizeof(*p));

	*pp = NULL;
	if (!p || !(p->match = strdup(match)) || ts_irqctx_new(&p->irq)) {
		if (p)
			free(p->match);
		free(p);
		return -ENOMEM;
	}
	p->len = strlen(match);
	*pp = p;
	return 0;
}

void ts_cpath_free(struct ts_cpath *p)
{
	if (!p)
		return;
	free(p->match);
	free(p->t);
	ts_irqctx_free(p->irq);
	free(p->run_irq.src);
	free(p->run_irq_last.src);
	free(p);
}

static int matches(const struct ts_cpath *p, const char *comm)
{
	return !strncmp(comm, p->match, p->len) && (!comm[p->len] || comm[p->len] == '-');
}

/* The task @pid, added (asleep) when @comm names one of ours; NULL if not ours. */
static struct task *task(struct ts_cpath *p, int32_t pid, const char *comm, int *err)
{
	for (int i = 0; i < p->nr; i++)
		if (p->t[i].pid == pid)
			return &p->t[i];
	if (pid <= 0 || !comm || !matches(p, comm))
		return NULL;
	if (p->nr == p->cap) {
		int cap = p->cap ? 2 * p->cap : 16;
		struct task *n = realloc(p->t, cap * sizeof(*n));

		if (!n) {
			*err = -ENOMEM;
			return NULL;
		}
		p->t = n;
		p->cap = cap;
	}
	p->t[p->nr] = (struct task){ pid, -1, T_SLEEP };
	p->count[T_SLEEP]++;
	return &p->t[p->nr++];
}

static void set(struct ts_cpath *p, struct task *t, enum tstate st)
{
	p->count[t->st]--;
	t->st = st;
	p->count[st]++;
}

/* Add @ns to source @src's sum, growing the array; -ENOMEM. */
static int add_src(struct irq_sums *r, int src, double ns)
{
	if (src >= r->nr_src) {
		int nr = src + 16;
		double *n = realloc(r->src, (size_t)nr * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + r->nr_src, 0, (size_t)(nr - r->nr_src) * sizeof(*n));
		r->src = n;
		r->nr_src = nr;
	}
	r->src[src] += ns;
	return 0;
}

/*
 * Run time on the path that interrupts took: each running task's CPU, in its innermost context,
 * for an equal share of @dt (two tasks running at once share the instant), so that the parts
 * never exceed the run time.
 */
static int run_irq(struct ts_cpath *p, uint64_t dt)
{
	double share = (double)dt / p->count[T_RUN];
	struct irq_sums *r = &p->run_irq;
	int err = 0;

	for (int i = 0; i < p->nr && !err; i++) {
		struct ts_irq_top top;

		if (p->t[i].st != T_RUN || p->t[i].cpu < 0)
			continue;
		top = ts_irqctx_top(p->irq, p->t[i].cpu);
		if (top.cls == TS_IRQC_NONE)
			continue;
		r->cls[top.cls] += share;
		if (top.irq_src >= 0)
			err = add_src(r, top.irq_src, share);
		else
			r->untraced[top.cls] += share;
		if (!err && top.timer_src >= 0)
			err = add_src(r, top.timer_src, share);
	}
	return err;
}

/* Copy the running sums to the last task event's. */
static int snapshot_irq(struct ts_cpath *p)
{
	struct irq_sums *l = &p->run_irq_last, *r = &p->run_irq;

	if (l->nr_src < r->nr_src) {
		double *n = realloc(l->src, (size_t)r->nr_src * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->src = n;
		l->nr_src = r->nr_src;
	}
	memcpy(l->cls, r->cls, sizeof(r->cls));
	memcpy(l->untraced, r->untraced, sizeof(r->untraced));
	if (r->nr_src)
		memcpy(l->src, r->src, (size_t)r->nr_src * sizeof(*r->src));
	return 0;
}

/* Give the time since the previous event to the state that the tasks wait on. */
static int advance(struct ts_cpath *p, uint64_t now)
{
	enum ts_cpath_state s;

	if (!p->started || now <= p->last)
		return 0;
	/*
	 * A task waiting for its wakeup to arrive, or for a CPU, is what the operation waits on:
	 * whoever runs meanwhile (the waker finishing its system call) is off the critical path.
	 */
	s = p->count[T_DELIVERY] ? TS_CP_DELIVERY :
	    p->count[T_DELAY]	 ? TS_CP_DELAY :
	    p->count[T_RUN]	 ? TS_CP_RUN :
				   TS_CP_NONE;
	p->ns[s] += now - p->last;
	if (s == TS_CP_RUN && ts_irqctx_busy(p->irq) && run_irq(p, now - p->last))
		return -ENOMEM;
	p->last = now;
	return 0;
}

int ts_cpath_feed(struct ts_cpath *p, const struct ts_event *ev)
{
	struct task *a = NULL, *b = NULL;
	int err = 0;

	if (ev->kind == TS_EV_SWITCH) {
		a = task(p, ev->sw.prev_pid, ev->sw.prev_comm, &err);
		b = task(p, ev->sw.next_pid, ev->sw.next_comm, &err);
	} else if (ev->kind == TS_EV_WAKING || ev->kind == TS_EV_WAKEUP ||
		   ev->kind == TS_EV_WAKEUP_NEW) {
		a = task(p, ev->wake.pid, ev->wake.comm, &err);
	}
	if (advance(p, ev->time))
		return -ENOMEM;
	/* after the time before it is counted: the event changes what comes next */
	if (ts_irqctx_is_event(ev)) {
		struct ts_irq_done done;

		if (ts_irqctx_feed(p->irq, ev, &done) < 0)
			return -ENOMEM;
	}
	if (!a && !b)
		return err;
	if (!p->started) {
		p->started = 1;
		p->last = ev->time;
	}
	if (ev->kind == TS_EV_SWITCH) {
		if (a)
			set(p, a, ev->sw.prev_state == TS_STATE_RUNNING ? T_DELAY : T_SLEEP);
		if (b) {
			set(p, b, T_RUN);
			b->cpu = ev->cpu;
		}
	} else if (ev->kind == TS_EV_WAKING) {
		if (a->st == T_SLEEP)
			set(p, a, T_DELIVERY);
	} else if (a->st == T_SLEEP || a->st == T_DELIVERY) {
		set(p, a, T_DELAY);
	}
	memcpy(p->at_last, p->ns, sizeof(p->ns));
	return err ?: snapshot_irq(p);
}

void ts_cpath_run_irq(const struct ts_cpath *p, struct ts_cpath_irq *out)
{
	const struct irq_sums *l = &p->run_irq_last;

	memcpy(out->cls, l->cls, sizeof(l->cls));
	memcpy(out->untraced, l->untraced, sizeof(l->untraced));
	out->src_ns = l->src;
	out->nr_src = l->nr_src;
	out->ctx = p->irq;
}

int ts_cpath_totals(const struct ts_cpath *p, uint64_t ns[TS_CP_NR])
{
	memcpy(ns, p->at_last, sizeof(p->at_last));
	return p->nr;
}
