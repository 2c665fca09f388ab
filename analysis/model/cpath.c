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
#include "tickscope/wltree.h"

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

/*
 * One time line: the tasks it follows, how many are in each state, the time given to each
 * state, and the run time that interrupts took.
 */
struct line {
	struct task *t;
	int nr, cap;
	int32_t *no; /* the tree's line: tasks of the name found not the workload's */
	int nr_no, cap_no;
	int count[4]; /* tasks per tstate */
	int started; /* a task event was seen */
	int on; /* followed */
	uint64_t last; /* time of the previous event */
	uint64_t ns[TS_CP_NR], at_last[TS_CP_NR]; /* running, and at the last task event */
	struct irq_sums run_irq, run_irq_last; /* running, and at the last task event */
};

/*
 * Two time lines: the workload's own tasks of the benchmark's name (@tree's), and every task
 * of that name, followed until the first has a task (a recording with no workload command
 * has none: the second is then the answer, as before the tree).
 */
enum { L_TREE = 0, L_NAME, L_NR };

struct ts_cpath {
	char *match;
	size_t len;
	const struct ts_wltree *tree;
	struct line l[L_NR];
	struct ts_irqctx *irq; /* every CPU's interrupt contexts */
};

int ts_cpath_new(struct ts_cpath **pp, const char *match, const struct ts_wltree *tree)
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
	p->tree = tree;
	p->l[L_TREE].on = !!tree;
	p->l[L_NAME].on = 1;
	*pp = p;
	return 0;
}

static void line_release(struct line *l)
{
	free(l->t);
	free(l->no);
	free(l->run_irq.src);
	free(l->run_irq_last.src);
	memset(l, 0, sizeof(*l));
}

void ts_cpath_free(struct ts_cpath *p)
{
	if (!p)
		return;
	free(p->match);
	for (int i = 0; i < L_NR; i++)
		line_release(&p->l[i]);
	ts_irqctx_free(p->irq);
	free(p);
}

static int matches(const struct ts_cpath *p, const char *comm)
{
	return !strncmp(comm, p->match, p->len) && (!comm[p->len] || comm[p->len] == '-');
}

/* Remember @pid as not the workload's (the root is known: that does not change); -ENOMEM. */
static int not_ours(struct line *l, int32_t pid)
{
	if (l->nr_no == l->cap_no) {
		int cap = l->cap_no ? 2 * l->cap_no : 8;
		int32_t *n = realloc(l->no, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->no = n;
		l->cap_no = cap;
	}
	l->no[l->nr_no++] = pid;
	return 0;
}

/* A fork gives @pid to a new task, which may be the workload's: asked again. */
static void forked(struct line *l, int32_t pid)
{
	for (int i = 0; i < l->nr_no; i++)
		if (l->no[i] == pid)
			l->no[i] = l->no[--l->nr_no];
}

/*
 * The task @pid of line @li, added (asleep) when @comm names one of ours (and, on the tree's
 * line, the task is the workload's); NULL if not ours.
 */
static struct task *task(struct ts_cpath *p, int li, int32_t pid, const char *comm, int *err)
{
	struct line *l = &p->l[li];

	for (int i = 0; i < l->nr; i++)
		if (l->t[i].pid == pid)
			return &l->t[i];
	if (pid <= 0 || !comm || !matches(p, comm))
		return NULL;
	if (li == L_TREE) {
		/* a task of the name beside the workload (another user's): asked once */
		for (int i = 0; i < l->nr_no; i++)
			if (l->no[i] == pid)
				return NULL;
		if (!ts_wltree_member(p->tree, pid)) {
			if (ts_wltree_root(p->tree))
				*err = *err ?: not_ours(l, pid);
			return NULL;
		}
	}
	if (l->nr == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct task *n = realloc(l->t, cap * sizeof(*n));

		if (!n) {
			*err = -ENOMEM;
			return NULL;
		}
		l->t = n;
		l->cap = cap;
	}
	l->t[l->nr] = (struct task){ pid, -1, T_SLEEP };
	l->count[T_SLEEP]++;
	return &l->t[l->nr++];
}

static void set(struct line *l, struct task *t, enum tstate st)
{
	l->count[t->st]--;
	t->st = st;
	l->count[st]++;
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
static int run_irq(const struct ts_cpath *p, struct line *l, uint64_t dt)
{
	double share = (double)dt / l->count[T_RUN];
	struct irq_sums *r = &l->run_irq;
	int err = 0;

	for (int i = 0; i < l->nr && !err; i++) {
		struct ts_irq_top top;

		if (l->t[i].st != T_RUN || l->t[i].cpu < 0)
			continue;
		top = ts_irqctx_top(p->irq, l->t[i].cpu);
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
static int snapshot_irq(struct line *ln)
{
	struct irq_sums *l = &ln->run_irq_last, *r = &ln->run_irq;

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
static int advance(const struct ts_cpath *p, struct line *l, uint64_t now)
{
	enum ts_cpath_state s;

	if (!l->started || now <= l->last)
		return 0;
	/*
	 * A task waiting for its wakeup to arrive, or for a CPU, is what the operation waits on:
	 * whoever runs meanwhile (the waker finishing its system call) is off the critical path.
	 */
	s = l->count[T_DELIVERY] ? TS_CP_DELIVERY :
	    l->count[T_DELAY]	 ? TS_CP_DELAY :
	    l->count[T_RUN]	 ? TS_CP_RUN :
				   TS_CP_NONE;
	l->ns[s] += now - l->last;
	if (s == TS_CP_RUN && ts_irqctx_busy(p->irq) && run_irq(p, l, now - l->last))
		return -ENOMEM;
	l->last = now;
	return 0;
}

/* The event's change to line @l's tasks @a and @b (either may be NULL). */
static int update(struct line *l, const struct ts_event *ev, struct task *a, struct task *b)
{
	if (!a && !b)
		return 0;
	if (!l->started) {
		l->started = 1;
		l->last = ev->time;
	}
	if (ev->kind == TS_EV_SWITCH) {
		if (a)
			set(l, a, ev->sw.prev_state == TS_STATE_RUNNING ? T_DELAY : T_SLEEP);
		if (b) {
			set(l, b, T_RUN);
			b->cpu = ev->cpu;
		}
	} else if (ev->kind == TS_EV_WAKING) {
		if (a->st == T_SLEEP)
			set(l, a, T_DELIVERY);
	} else if (a->st == T_SLEEP || a->st == T_DELIVERY) {
		set(l, a, T_DELAY);
	}
	memcpy(l->at_last, l->ns, sizeof(l->ns));
	return snapshot_irq(l);
}

int ts_cpath_feed(struct ts_cpath *p, const struct ts_event *ev)
{
	struct task *a[L_NR] = { NULL }, *b[L_NR] = { NULL };
	int err = 0, i;

	if ((ev->kind == TS_EV_FORK || ev->kind == TS_EV_PROCESS_FORK) && p->l[L_TREE].nr_no)
		forked(&p->l[L_TREE], ev->fork.child);
	for (i = 0; i < L_NR; i++) {
		if (!p->l[i].on)
			continue;
		if (ev->kind == TS_EV_SWITCH) {
			a[i] = task(p, i, ev->sw.prev_pid, ev->sw.prev_comm, &err);
			b[i] = task(p, i, ev->sw.next_pid, ev->sw.next_comm, &err);
		} else if (ev->kind == TS_EV_WAKING || ev->kind == TS_EV_WAKEUP ||
			   ev->kind == TS_EV_WAKEUP_NEW) {
			a[i] = task(p, i, ev->wake.pid, ev->wake.comm, &err);
		}
		if (advance(p, &p->l[i], ev->time))
			return -ENOMEM;
	}
	/* after the time before it is counted: the event changes what comes next */
	if (ts_irqctx_is_event(ev)) {
		struct ts_irq_done done;

		if (ts_irqctx_feed(p->irq, ev, &done) < 0)
			return -ENOMEM;
	}
	for (i = 0; i < L_NR && !err; i++)
		if (p->l[i].on)
			err = update(&p->l[i], ev, a[i], b[i]);
	/* the workload's tasks are known: every task of the name is no longer the answer */
	if (p->l[L_TREE].nr && p->l[L_NAME].on)
		line_release(&p->l[L_NAME]);
	return err;
}

/* The line that answers: the workload's tasks when it has any, else every task of the name. */
static const struct line *answer(const struct ts_cpath *p)
{
	return p->l[L_TREE].nr ? &p->l[L_TREE] : &p->l[L_NAME];
}

void ts_cpath_run_irq(const struct ts_cpath *p, struct ts_cpath_irq *out)
{
	const struct irq_sums *l = &answer(p)->run_irq_last;

	memcpy(out->cls, l->cls, sizeof(l->cls));
	memcpy(out->untraced, l->untraced, sizeof(l->untraced));
	out->src_ns = l->src;
	out->nr_src = l->nr_src;
	out->ctx = p->irq;
}

int ts_cpath_totals(const struct ts_cpath *p, uint64_t ns[TS_CP_NR])
{
	const struct line *l = answer(p);

	memcpy(ns, l->at_last, sizeof(l->at_last));
	return l->nr;
}

int ts_cpath_by_tree(const struct ts_cpath *p)
{
	return p->l[L_TREE].nr > 0;
}
