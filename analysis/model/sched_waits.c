// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler model's wait entries: each off-CPU period of a selected task credited to the
 * wake that ended it (waker, its work item, the switch-out stack, state and context), and
 * their sums by waker class.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"

/*
 * wait_ix twice as large: each entry's index into the slot its fields hash to (4 bytes a slot,
 * the entries' own fields the keys: a busy machine's trace has a hundred thousand of them).
 */
static int grow_wait_ix(struct ts_sched *m)
{
	size_t cap = m->wait_cap ? m->wait_cap * 2 : 64, i, j;
	uint32_t *ix;

	if (cap > (size_t)UINT32_MAX)
		return -ENOMEM;
	ix = calloc(cap, sizeof(*ix));
	if (!ix)
		return -ENOMEM;
	free(m->wait_ix); /* the entries say where they go: the old slots are not read */
	for (i = 0; i < m->waits.nr; i++) {
		struct wait_key k = key_of(ts_blocks_at(&m->waits, i));

		for (j = wait_hash(&k) & (cap - 1); ix[j]; j = (j + 1) & (cap - 1))
			;
		ix[j] = (uint32_t)i + 1;
	}
	m->wait_ix = ix;
	m->wait_cap = cap;
	return 0;
}

/* get_wait() when the task's last entry of the kind is not @k's: the index. */
static __attribute__((noinline)) int get_wait_slow(struct ts_sched *m, struct ts_sched_wait **last,
						   const struct wait_key *k,
						   struct ts_sched_wait **out)
{
	struct ts_sched_wait *w;
	size_t i;

	*out = NULL;
	if ((m->waits.nr + 1) * 4 > m->wait_cap * 3 && grow_wait_ix(m))
		return -ENOMEM;
	for (i = wait_hash(k) & (m->wait_cap - 1); m->wait_ix[i]; i = (i + 1) & (m->wait_cap - 1)) {
		w = ts_blocks_at(&m->waits, m->wait_ix[i] - 1);
		if (same_wait(w, k)) {
			*out = w;
			*last = w;
			return 0;
		}
	}
	w = ts_blocks_add(&m->waits); /* zeroed */
	if (!w)
		return -ENOMEM;
	w->pid = k->pid;
	w->waker = k->waker;
	w->work = k->work;
	w->stack = k->stack;
	w->state = k->state;
	w->ctx = k->ctx;
	m->wait_ix[i] = (uint32_t)m->waits.nr;
	*out = w;
	*last = w;
	return 0;
}

/*
 * The wait entry with @k's key fields (@k->pid is the task's), made when new. The entry in
 * *@last (the task's last one of this kind: woken, or ended with no wake) is tried first: a task
 * is mostly woken the same way again, and entries are never removed or moved, so an entry with
 * @k's fields is the one the index would find. Return: 0 or -ENOMEM.
 */
static inline int get_wait(struct ts_sched *m, struct ts_sched_wait **last,
			   const struct wait_key *k, struct ts_sched_wait **out)
{
	struct ts_sched_wait *w = *last;

	if (w && same_wait(w, k)) {
		*out = w;
		return 0;
	}
	return get_wait_slow(m, last, k, out);
}

/* The switch-out stack of @p's open off-CPU period, 0 for none (or dropped). */
static uint32_t period_stack(const struct task *p)
{
	return p->have_out && p->stack != STACK_DROPPED ? p->stack : 0;
}

/* sched_waking of a selected task @w by @by: who woke it, from where, ending which wait. */
int sched_note_waker(struct ts_sched *m, struct task *w, const struct task *by,
		     const struct ts_event *ev)
{
	struct wait_key k = { .pid = w->st.pid,
			      .waker = ev->pid < 0 ? TS_WAKER_NONE : ev->pid,
			      .work = by && ev->wake.ctx == TS_CTX_TASK ? by->work : 0,
			      .stack = period_stack(w),
			      .state = w->have_out ? w->last_state : TS_OFF_NR,
			      .ctx = ev->wake.ctx };
	struct ts_sched_wait *e;
	int err = get_wait(m, &w->last_wait, &k, &e);

	if (e)
		e->wakes++;
	w->wait = w->have_out ? e : NULL;
	w->early = w->have_out ? NULL : e;
	return err;
}

/*
 * A wake that came while the task was still on its CPU, and no wake since its switch-out: the
 * waker saw it asleep (state set, inside schedule()) before its sched_switch was traced, as
 * try_to_wake_up() does for a task still on_cpu. That wake ends this period: move it there.
 */
static int take_early(struct ts_sched *m, struct task *n, struct ts_sched_wait **out)
{
	struct wait_key k = { .pid = n->early->pid,
			      .waker = n->early->waker,
			      .work = n->early->work,
			      .stack = period_stack(n),
			      .state = n->last_state,
			      .ctx = n->early->ctx };
	struct ts_sched_wait *e;
	int err;

	err = get_wait(m, &n->last_wait, &k, &e);
	if (e) {
		n->early->wakes--;
		e->wakes++;
	}
	*out = e;
	return err;
}

/* The off-CPU period of selected task @n ended after @off ns: credit its wake, or none. */
int sched_end_wait(struct ts_sched *m, struct task *n, uint64_t off)
{
	struct ts_sched_wait *e = n->wait;
	int err = 0;

	if (!e && n->early && n->last_state != TS_OFF_R) /* a preemption ends with no wake */
		err = take_early(m, n, &e);
	if (!e && !err) {
		struct wait_key k = { .pid = n->st.pid,
				      .waker = TS_WAKER_NONE,
				      .stack = period_stack(n),
				      .state = n->last_state };

		err = get_wait(m, &n->last_none, &k, &e);
	}

	if (e) {
		e->periods++;
		e->ns += off;
	}
	n->wait = NULL;
	n->early = NULL;
	return err;
}

/*
 * May @c stand in a class as it is (a-z, A-Z, 0-9 and "_-+.:@")? Asked for each wait entry the
 * report sums: a test, not a strchr() over the list.
 */
static inline int class_char(char c)
{
	unsigned char u = (unsigned char)c;

	return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
	       u == '_' || u == '-' || u == '+' || u == '.' || u == ':' || u == '@';
}

void ts_sched_task_class(const char *comm, char *out, size_t n)
{
	size_t l = strcspn(comm, "/");

	if (l >= n)
		l = n - 1;
	while (l > 1 && comm[l - 1] >= '0' && comm[l - 1] <= '9')
		l--;
	/* a part of metric names: a user task may name itself anything, tabs and spaces too */
	for (size_t i = 0; i < l; i++)
		out[i] = class_char(comm[i]) ? comm[i] : '_';
	out[l] = '\0';
}

/*
 * @s into @out (@n bytes, at least 1), cut to fit, the rest of @out zeroed (it may replace a
 * longer class, and sum_wakers() compares whole arrays): snprintf()'s "%s" without its cost.
 */
static void set_class(char *out, size_t n, const char *s)
{
	size_t l = strlen(s);

	if (l >= n)
		l = n - 1;
	memcpy(out, s, l);
	memset(out + l, 0, n - l);
}

void sched_waker_class_of(const char *comm, int32_t waker, uint8_t ctx, char *out, size_t n)
{
	if (!n)
		return;
	if (waker == TS_WAKER_NONE || ctx == TS_CTX_HARDIRQ) {
		set_class(out, n, waker == TS_WAKER_NONE ? "none" : "hardirq");
		return;
	}
	if (comm && comm[0])
		ts_sched_task_class(comm, out, n);
	else
		set_class(out, n, "unknown");
	/* ksoftirqd (and PREEMPT_RT's ktimers) exist to run softirqs: their wakes are theirs */
	if (ctx == TS_CTX_SOFTIRQ && strcmp(out, "ksoftirqd") && strcmp(out, "ktimers"))
		set_class(out, n, "softirq");
}

const char *ts_sched_waker_class(const struct ts_sched *m, const struct ts_sched_wait *w, char *out,
				 size_t n)
{
	const char *cls = w->waker <= TS_WAKER_CLASS(0) ? sched_resolved_class(m, w->waker) : NULL;

	if (cls && n) /* a waker that exited: its class was final then */
		set_class(out, n, cls);
	else
		sched_waker_class_of(w->waker >= 0 ? sched_comm(m, w->waker) : NULL, w->waker,
				     w->ctx, out, n);
	return out;
}

static int cmp_waker_sum(const void *pa, const void *pb)
{
	const struct ts_sched_waker_sum *a = pa, *b = pb;

	if (a->wakes != b->wakes)
		return a->wakes < b->wakes ? 1 : -1;
	if (a->periods != b->periods)
		return a->periods < b->periods ? 1 : -1;
	return strcmp(a->cls, b->cls);
}

/* Sum the entries @v[0..@n) (or every entry, @v NULL) that @keep accepts, by waker class. */
static int sum_wakers(const struct ts_sched *m, const struct ts_sched_wait *const *v, size_t n,
		      int (*keep)(void *ctx, const struct ts_sched_wait *w), void *ctx, int by_work,
		      struct ts_sched_waker_sum *out, int max)
{
	struct ts_sched_waker_sum *all = NULL, *o, *grown;
	char cls[sizeof(out->cls)];
	size_t i, nr = 0, cap = 0, j;

	if (max < 2)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const struct ts_sched_wait *w = v ? v[i] : ts_blocks_at(&m->waits, i);
		uint64_t work = by_work ? w->work : 0;

		if (keep && !keep(ctx, w))
			continue;
		/* zero past the name, as in all[]: the whole arrays compare, a few word loads */
		memset(cls, 0, sizeof(cls));
		ts_sched_waker_class(m, w, cls, sizeof(cls));
		for (j = 0; j < nr && (memcmp(all[j].cls, cls, sizeof(cls)) || all[j].work != work);
		     j++)
			;
		if (j == nr && nr == cap) {
			cap = cap ? 2 * cap : 16;
			grown = realloc(all, cap * sizeof(*all));
			if (!grown) {
				free(all);
				return -ENOMEM;
			}
			all = grown;
		}
		o = &all[j];
		if (j == nr) {
			memset(o, 0, sizeof(*o));
			memcpy(o->cls, cls, sizeof(o->cls));
			o->work = work;
			nr++;
		}
		o->wakes += w->wakes;
		o->periods += w->periods;
		o->ns += w->ns;
	}
	if (nr)
		qsort(all, nr, sizeof(*all), cmp_waker_sum);
	/* the heaviest max - 1 as they are, the rest in one "other" */
	for (i = 0; i < nr && i < (size_t)max; i++)
		out[i] = all[i];
	if (nr > (size_t)max) {
		o = &out[max - 1];
		snprintf(o->cls, sizeof(o->cls), "other");
		o->work = 0;
		for (i = max; i < nr; i++) {
			o->wakes += all[i].wakes;
			o->periods += all[i].periods;
			o->ns += all[i].ns;
		}
	}
	free(all);
	return nr < (size_t)max ? (int)nr : max;
}

int ts_sched_wakers(const struct ts_sched *m, int (*keep)(void *ctx, const struct ts_sched_wait *w),
		    void *ctx, int by_work, struct ts_sched_waker_sum *out, int max)
{
	return sum_wakers(m, NULL, m->waits.nr, keep, ctx, by_work, out, max);
}

int ts_sched_wakers_of(const struct ts_sched *m, const struct ts_sched_wait *const *v, size_t n,
		       int by_work, struct ts_sched_waker_sum *out, int max)
{
	return sum_wakers(m, v, n, NULL, NULL, by_work, out, max);
}
