// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler model's exited tasks, for a report that lists only the top tasks
 * (ts_model_opts.top_tasks): folded into the totals and let go, so that memory stays flat
 * however many short-lived tasks a trace has (issue 33, goal 3).
 *
 * A task retires at its switch-out as a zombie after its sched_process_exit: its distributions
 * go into the totals then. Its struct, histograms and wait entries go at the next compaction,
 * every RETIRE_BATCH retired tasks, before a new task takes a retired one's tid, and at the
 * end: the wait entries it was woken by are filed under pid 0 and those it woke under its
 * waker class, final at its exit, so that they merge; the heaviest retired tasks, those the
 * report can list (by both ranks ts_sched_task_rank() may use), are kept whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"

#define RETIRE_BATCH 4096

struct sched_retire {
	unsigned int top; /* the tasks the report lists */
	struct ts_map32 pending; /* tid -> 1 + index into pend of a retired task not compacted */
	uint32_t *pend; /* the pending tasks' indexes into the task blocks */
	size_t nr_pend, cap_pend;
	struct ts_hist **free_hists; /* released histograms of folded tasks */
	size_t nr_free, cap_free;
	uint64_t folded_delay_perf;
	uint32_t next_alias;
};

/* @v grown to hold @n + 1 elements of @size bytes. Return: 0 or -ENOMEM. */
int sched_grow(void *vp, size_t *cap, size_t n, size_t size)
{
	void **v = vp, *g;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 64;
	g = realloc(*v, c * size);
	if (!g)
		return -ENOMEM;
	*v = g;
	*cap = c;
	return 0;
}

struct sched_retire *sched_retire_new(unsigned int top)
{
	struct sched_retire *r = calloc(1, sizeof(*r));

	if (r)
		r->top = top;
	return r;
}

void sched_retire_free(struct ts_sched *m)
{
	struct sched_retire *r = m->retire;

	if (!r)
		return;
	ts_map32_release(&r->pending);
	ts_map32_release(&m->retired_ix);
	free(r->pend);
	free(m->retired_comms);
	free(m->waker_classes);
	free(r->free_hists); /* the histograms are the chunks' (release_hists()) */
	free(r);
	m->retire = NULL;
}

/* Index of the object @p in the blocks @b. */
static size_t blocks_index(const struct ts_blocks *b, const void *p)
{
	const char *c = p;
	unsigned int k;

	for (k = 0; k < TS_OBJTAB_BLOCKS; k++) {
		size_t n = (size_t)TS_OBJTAB_FIRST << k;
		const char *s = b->blk[k];

		if (s && c >= s && c < s + n * b->size)
			return TS_OBJTAB_FIRST * (((size_t)1 << k) - 1) + (size_t)(c - s) / b->size;
	}
	return SIZE_MAX;
}

int sched_retired_pending(const struct ts_sched *m, int32_t pid)
{
	return ts_map32_find(&m->retire->pending, (uint32_t)pid) != NULL;
}

uint64_t sched_folded_delay_perf(const struct ts_sched *m)
{
	return m->retire ? m->retire->folded_delay_perf : 0;
}

struct ts_hist *sched_reuse_hist(struct ts_sched *m)
{
	struct sched_retire *r = m->retire;

	return r->nr_free ? r->free_hists[--r->nr_free] : NULL;
}

int sched_retire(struct ts_sched *m, struct task *p)
{
	struct sched_retire *r = m->retire;
	size_t i = blocks_index(&m->tv, p);
	uint32_t *v;
	int err, c, ret;

	if (i == SIZE_MAX || p->retired)
		return 0;
	err = p->st.selected ? sched_merge_task(&m->tot, &p->st) : 0;
	if (!err)
		err = sched_grow(&r->pend, &r->cap_pend, r->nr_pend, sizeof(*r->pend));
	if (!err)
		err = ts_map32_insert(&r->pending, (uint32_t)p->st.pid, &v) < 0 ? -ENOMEM : 0;
	if (err)
		return err;
	*v = (uint32_t)r->nr_pend + 1;
	r->pend[r->nr_pend++] = (uint32_t)i;
	/* its name, for the stacks' top tasks and the other sections (ts_sched_comm()) */
	ret = ts_map32_insert(&m->retired_ix, (uint32_t)p->st.pid, &v);
	if (ret < 0)
		return -ENOMEM;
	if (ret > 0) {
		if (sched_grow(&m->retired_comms, &m->cap_retired_comms, m->nr_retired_comms,
			       sizeof(*m->retired_comms))) {
			ts_map32_remove(&m->retired_ix, (uint32_t)p->st.pid);
			return -ENOMEM;
		}
		*v = (uint32_t)++m->nr_retired_comms;
	}
	memcpy(m->retired_comms[*v - 1], p->st.comm, TS_COMM_LEN);
	p->retired = 1;
	p->wait = p->early = p->last_wait = p->last_none = NULL;
	ts_map32_remove(&m->tasks, (uint32_t)p->st.pid);
	if (*sched_recent(m, p->st.pid) == p)
		*sched_recent(m, p->st.pid) = NULL;
	for (c = 0; c < m->cpus.nr; c++) {
		struct cpu *cp = m->cpus.v[c];

		if (cp && cp->curr_task == p)
			cp->curr_task = NULL;
	}
	if (r->nr_pend >= RETIRE_BATCH)
		m->compact_due = 1;
	return 0;
}

int sched_merge_task(struct ts_sched_totals *t, const struct ts_sched_task *st)
{
	int err, k;

	err = ts_hist_merge(&t->run, st->run);
	if (!err)
		err = ts_hist_merge(&t->delay, st->delay);
	if (!err)
		err = ts_hist_merge(&t->delivery, st->delivery);
	if (!err)
		err = ts_hist_merge(&t->wakelat, st->wakelat);
	for (k = 0; k < TS_OFF_NR && !err; k++)
		err = ts_hist_merge(&t->off[k], st->off[k]);
	return err;
}

int sched_rekey_waits(struct ts_sched *m, void (*rekey)(void *ctx, struct ts_sched_wait *w),
		      void *ctx, uint32_t *fwd)
{
	size_t n = m->waits.nr, cap = 64, i, j = 0, s;
	struct ts_sched_wait *w, *d;
	uint32_t *ix;

	while ((n + 1) * 4 > cap * 3)
		cap *= 2;
	ix = calloc(cap, sizeof(*ix));
	if (!ix)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct wait_key k;

		w = ts_blocks_at(&m->waits, i);
		rekey(ctx, w);
		k = key_of(w);
		for (s = wait_hash(&k) & (cap - 1); ix[s]; s = (s + 1) & (cap - 1)) {
			d = ts_blocks_at(&m->waits, ix[s] - 1);
			if (same_wait(d, &k))
				break;
		}
		if (ix[s]) { /* the same key as an earlier entry now: one entry */
			d->wakes += w->wakes;
			d->periods += w->periods;
			d->ns += w->ns;
			fwd[i] = ix[s] - 1;
			continue;
		}
		d = ts_blocks_at(&m->waits, j);
		if (d != w)
			*d = *w;
		ix[s] = (uint32_t)++j;
		fwd[i] = (uint32_t)(j - 1);
	}
	for (i = j; i < n; i++) /* ts_blocks_add() gives zeroed entries */
		memset(ts_blocks_at(&m->waits, i), 0, sizeof(struct ts_sched_wait));
	m->waits.nr = j;
	free(m->wait_ix);
	m->wait_ix = ix;
	m->wait_cap = cap;
	return 0;
}

/* The compaction's view of the tasks: the retired ones kept, and the wait entries' new keys. */
struct compact {
	struct ts_sched *m;
	uint8_t *keep; /* by task index: a retired task kept whole */
	struct ts_map32 aliases; /* the kept tasks' aliases (as u32) -> 1 */
	int err;
};

/* The retired task the pending map has for @pid, or NULL. */
static struct task *pending_task(const struct ts_sched *m, int32_t pid, size_t *ix)
{
	uint32_t *v = pid > 0 ? ts_map32_find(&m->retire->pending, (uint32_t)pid) : NULL;

	if (!v)
		return NULL;
	*ix = m->retire->pend[*v - 1];
	return ts_blocks_at(&m->tv, *ix);
}

/* TS_WAKER_CLASS() of @cls, added when new; TS_WAKER_NONE on no memory (c->err set). */
static int32_t class_code(struct compact *c, const char *cls)
{
	struct ts_sched *m = c->m;
	size_t i;

	for (i = 0; i < m->nr_waker_classes && strcmp(m->waker_classes[i], cls); i++)
		;
	if (i == m->nr_waker_classes) {
		if (sched_grow(&m->waker_classes, &m->cap_waker_classes, m->nr_waker_classes,
			       sizeof(*m->waker_classes))) {
			c->err = -ENOMEM;
			return TS_WAKER_NONE;
		}
		memcpy(m->waker_classes[m->nr_waker_classes++], cls, sizeof(m->waker_classes[0]));
	}
	return TS_WAKER_CLASS(i);
}

/* A wait entry's key once its retired wakee and waker are folded. */
static void rekey(void *ctx, struct ts_sched_wait *w)
{
	struct compact *c = ctx;
	struct task *t;
	size_t ix;
	char cls[24];

	if (w->pid < 0 && !ts_map32_find(&c->aliases, (uint32_t)w->pid))
		w->pid = 0; /* a kept task no longer among the heaviest */
	else if ((t = pending_task(c->m, w->pid, &ix)))
		w->pid = c->keep[ix] ? t->alias : 0;
	if (w->waker >= 0 && (t = pending_task(c->m, w->waker, &ix))) {
		memset(cls, 0, sizeof(cls));
		sched_waker_class_of(t->st.comm, w->waker, w->ctx, cls, sizeof(cls));
		w->waker = class_code(c, cls);
	}
}

static int rank_cmp(const void *a, const void *b, void *ctx)
{
	const uint64_t *ka = a, *kb = b;

	(void)ctx;
	if (ka[0] != kb[0])
		return ka[0] > kb[0] ? -1 : 1;
	return ka[1] < kb[1] ? -1 : ka[1] > kb[1];
}

/*
 * Mark in @keep the retired tasks the report may list: the top ones by run time, and by the
 * rank a per-task recording gives (known only at the end: ts_sched_set_per_task()); equal
 * ranks by first-seen order, as the report breaks ties. Return: 0 or -ENOMEM.
 */
static int choose_kept(struct ts_sched *m, uint8_t *keep)
{
	size_t n, i, k;
	uint64_t *v = malloc(2 * m->tv.nr * sizeof(*v) + 1);
	int per;

	if (!v)
		return -ENOMEM;
	for (per = 0; per < 2; per++) {
		for (i = 0, n = 0; i < m->tv.nr; i++) {
			const struct task *p = ts_blocks_at(&m->tv, i);

			if (!p->retired || !p->st.selected)
				continue;
			v[2 * n] = per && p->st.nr_broken ? (1ull << 62) + p->st.nr_switches :
							    p->st.run->sum + 1;
			v[2 * n++ + 1] = i;
		}
		qsort_r(v, n, 2 * sizeof(*v), rank_cmp, NULL);
		for (k = 0; k < n && k < m->retire->top; k++)
			keep[v[2 * k + 1]] = 1;
	}
	free(v);
	return 0;
}

/* Let the histograms of @p go: released, to be used again by new tasks. */
static int drop_hists(struct sched_retire *r, struct task *p)
{
	const struct ts_hist **h[4 + TS_OFF_NR] = { &p->st.run, &p->st.delay, &p->st.delivery,
						    &p->st.wakelat };
	int i;

	for (i = 0; i < TS_OFF_NR; i++)
		h[4 + i] = &p->st.off[i];
	for (i = 0; i < 4 + TS_OFF_NR; i++) {
		if (*h[i] == &ts_hist_none)
			continue;
		if (sched_grow(&r->free_hists, &r->cap_free, r->nr_free, sizeof(*r->free_hists)))
			return -ENOMEM;
		ts_hist_release((struct ts_hist *)(uintptr_t)*h[i]);
		r->free_hists[r->nr_free++] = (struct ts_hist *)(uintptr_t)*h[i];
		*h[i] = &ts_hist_none;
	}
	return 0;
}

/* A live task's wait entry pointers, as indexes + 1 (0: none) while the entries move. */
#define TASK_WAIT_REFS 4

static struct ts_sched_wait **wait_ref(struct task *p, int k)
{
	switch (k) {
	case 0:
		return &p->wait;
	case 1:
		return &p->early;
	case 2:
		return &p->last_wait;
	default:
		return &p->last_none;
	}
}

/* The tasks packed in their order without the folded ones; the pid map made again. */
static int pack_tasks(struct ts_sched *m, const uint8_t *keep)
{
	struct sched_retire *r = m->retire;
	size_t n = m->tv.nr, i, j = 0;
	uint32_t *v;
	int c, err = 0;

	for (i = 0; i < n; i++) {
		struct task *p = ts_blocks_at(&m->tv, i), *d;

		if (p->retired && !keep[i]) {
			if (p->st.selected)
				r->folded_delay_perf += p->st.delay_perf;
			err = err ?: drop_hists(r, p);
			continue;
		}
		d = ts_blocks_at(&m->tv, j++);
		if (d != p)
			*d = *p;
	}
	for (i = j; i < n; i++)
		memset(ts_blocks_at(&m->tv, i), 0, sizeof(struct task));
	m->tv.nr = j;
	ts_map32_release(&m->tasks);
	for (i = 0; i < j && !err; i++) {
		struct task *p = ts_blocks_at(&m->tv, i);

		if (p->retired)
			continue;
		if (ts_map32_insert(&m->tasks, (uint32_t)p->st.pid, &v) < 0)
			return -ENOMEM;
		*v = (uint32_t)i + 1;
	}
	memset(m->recent, 0, sizeof(m->recent));
	for (c = 0; c < m->cpus.nr; c++)
		if (m->cpus.v[c])
			((struct cpu *)m->cpus.v[c])->curr_task = NULL;
	return err;
}

int sched_compact(struct ts_sched *m)
{
	struct sched_retire *r = m->retire;
	struct compact c = { .m = m };
	uint32_t *fwd = NULL, *v;
	size_t i;
	int k, err;

	m->compact_due = 0;
	if (!r || !r->nr_pend)
		return 0;
	c.keep = calloc(m->tv.nr + 1, 1);
	fwd = malloc((m->waits.nr + 1) * sizeof(*fwd));
	err = c.keep && fwd ? choose_kept(m, c.keep) : -ENOMEM;
	for (i = 0; i < m->tv.nr && !err; i++) {
		struct task *p = ts_blocks_at(&m->tv, i);

		/* a new task may take its tid: its entries go under an alias of its own */
		if (p->retired && c.keep[i] && !p->alias)
			p->alias = INT32_MIN + (int32_t)r->next_alias++;
		if (p->retired && c.keep[i] &&
		    ts_map32_insert(&c.aliases, (uint32_t)p->alias, &v) < 0)
			err = -ENOMEM;
		for (k = 0; k < TASK_WAIT_REFS && !p->retired; k++) {
			struct ts_sched_wait **w = wait_ref(p, k);

			*w = *w ? (struct ts_sched_wait *)(uintptr_t)(blocks_index(&m->waits, *w) +
								      1) :
				  NULL;
		}
	}
	if (!err)
		err = sched_rekey_waits(m, rekey, &c, fwd) ?: c.err;
	for (i = 0; i < m->tv.nr; i++) {
		struct task *p = ts_blocks_at(&m->tv, i);

		for (k = 0; k < TASK_WAIT_REFS && !p->retired; k++) {
			struct ts_sched_wait **w = wait_ref(p, k);
			size_t o = (size_t)(uintptr_t)*w;

			*w = o && !err ? ts_blocks_at(&m->waits, fwd[o - 1]) : NULL;
		}
	}
	if (!err)
		err = pack_tasks(m, c.keep);
	ts_map32_release(&c.aliases);
	ts_map32_release(&r->pending);
	r->nr_pend = 0;
	free(fwd);
	free(c.keep);
	return err;
}
