// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's tasks' time line (see tickscope/cpath.h): a small state machine per task,
 * counts of tasks per state, and the time between events given to the most advanced state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/cpath.h"

enum tstate { T_SLEEP = 0, T_RUN, T_DELIVERY, T_DELAY };

struct task {
	int32_t pid;
	enum tstate st;
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
};

int ts_cpath_new(struct ts_cpath **pp, const char *match)
{
	struct ts_cpath *p = calloc(1, sizeof(*p));

	*pp = NULL;
	if (!p || !(p->match = strdup(match))) {
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
	p->t[p->nr] = (struct task){ pid, T_SLEEP };
	p->count[T_SLEEP]++;
	return &p->t[p->nr++];
}

static void set(struct ts_cpath *p, struct task *t, enum tstate st)
{
	p->count[t->st]--;
	t->st = st;
	p->count[st]++;
}

/* Give the time since the previous event to the state that the tasks wait on. */
static void advance(struct ts_cpath *p, uint64_t now)
{
	enum ts_cpath_state s;

	if (!p->started || now <= p->last)
		return;
	/*
	 * A task waiting for its wakeup to arrive, or for a CPU, is what the operation waits on:
	 * whoever runs meanwhile (the waker finishing its system call) is off the critical path.
	 */
	s = p->count[T_DELIVERY] ? TS_CP_DELIVERY :
	    p->count[T_DELAY]	 ? TS_CP_DELAY :
	    p->count[T_RUN]	 ? TS_CP_RUN :
				   TS_CP_NONE;
	p->ns[s] += now - p->last;
	p->last = now;
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
	advance(p, ev->time);
	if (!a && !b)
		return err;
	if (!p->started) {
		p->started = 1;
		p->last = ev->time;
	}
	if (ev->kind == TS_EV_SWITCH) {
		if (a)
			set(p, a, ev->sw.prev_state == TS_STATE_RUNNING ? T_DELAY : T_SLEEP);
		if (b)
			set(p, b, T_RUN);
	} else if (ev->kind == TS_EV_WAKING) {
		if (a->st == T_SLEEP)
			set(p, a, T_DELIVERY);
	} else if (a->st == T_SLEEP || a->st == T_DELIVERY) {
		set(p, a, T_DELAY);
	}
	memcpy(p->at_last, p->ns, sizeof(p->ns));
	return err;
}

int ts_cpath_totals(const struct ts_cpath *p, uint64_t ns[TS_CP_NR])
{
	memcpy(ns, p->at_last, sizeof(p->at_last));
	return p->nr;
}
