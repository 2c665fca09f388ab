// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU interrupt context stacks (tickscope/irq.h): entries push, exits pop the context of
 * their source, and every instant of a CPU belongs to its innermost open context or, with none,
 * to its current task. Shared by the irq section and compare's critical path (cpath.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"
#include "tickscope/irq.h"

struct frame {
	int src;
	uint8_t type; /* enum ts_irq_type */
	uint64_t match; /* what the exit names: irq, vector, timer address, vector name hash */
	int32_t pid;
	uint64_t start;
};

struct cpu {
	int depth;
	uint64_t since;
	struct frame f[TS_IRQ_DEPTH];
};

struct ts_irqctx {
	struct ts_cputab cpus;
	struct ts_map by_key; /* hash of (type, num, name) -> source index + 1 */
	struct ts_irq_src *src;
	int nr_src, cap_src;
	int busy; /* CPUs with a context open */
	struct ts_irq_unpaired un;
};

const char *ts_irq_softirq_name(int64_t vec)
{
	/* include/linux/interrupt.h's order, stable since 2.6.36 (IRQ_POLL renamed BLOCK_IOPOLL) */
	static const char *const names[] = { "HI",	 "TIMER",   "NET_TX", "NET_RX",	 "BLOCK",
					     "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU" };

	return vec >= 0 && vec < (int64_t)(sizeof(names) / sizeof(names[0])) ? names[vec] : NULL;
}

const char *ts_irq_type_name(int type)
{
	static const char *const names[TS_IRQT_NR] = { "irq", "vector", "softirq", "hrtimer",
						       "timer" };

	return type >= 0 && type < TS_IRQT_NR ? names[type] : "";
}

const char *ts_irq_class_name(int cls)
{
	static const char *const names[TS_IRQC_NR] = { "own", "hardirq", "softirq" };

	return cls >= 0 && cls < TS_IRQC_NR ? names[cls] : "";
}

const char *ts_irq_metric_part(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (s[i] == '.' || s[i] == ' ' || s[i] == '\t' || s[i] == '/') ? '_' : s[i];
	buf[i] = 0;
	return buf;
}

int ts_irqctx_new(struct ts_irqctx **xp)
{
	struct ts_irqctx *x = calloc(1, sizeof(*x));

	*xp = x;
	if (!x)
		return -ENOMEM;
	x->cpus.size = sizeof(struct cpu);
	return 0;
}

void ts_irqctx_free(struct ts_irqctx *x)
{
	if (!x)
		return;
	ts_cputab_release(&x->cpus, NULL);
	ts_map_release(&x->by_key);
	free(x->src);
	free(x);
}

static uint64_t hash(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* The index of the source (@type, @num, @name), added when new; -ENOMEM. */
static int intern(struct ts_irqctx *x, int type, int64_t num, const char *name)
{
	uint64_t key = hash(name, ((uint64_t)type * 0x9e3779b97f4a7c15ull) ^ (uint64_t)num), *v;
	struct ts_irq_src *s;
	int ret;

	for (;; key++) { /* a collision moves to the next key */
		if (key == TS_MAP_EMPTY)
			continue;
		v = ts_map_find(&x->by_key, key);
		if (!v)
			break;
		s = &x->src[*v - 1];
		if (s->type == type && s->num == num &&
		    !strncmp(s->name, name, TS_IRQ_NAME_LEN - 1))
			return (int)(*v - 1);
	}
	if (x->nr_src == x->cap_src) {
		int cap = x->cap_src ? 2 * x->cap_src : 16;

		s = realloc(x->src, (size_t)cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		x->src = s;
		x->cap_src = cap;
	}
	ret = ts_map_insert(&x->by_key, key, &v);
	if (ret < 0)
		return ret;
	s = &x->src[x->nr_src];
	memset(s, 0, sizeof(*s));
	s->type = (uint8_t)type;
	s->num = num;
	strncpy(s->name, name, TS_IRQ_NAME_LEN - 1);
	*v = (uint64_t)++x->nr_src;
	return x->nr_src - 1;
}

/*
 * "irq_vectors:local_timer_entry": an x86 system vector (local_timer, reschedule,
 * call_function_single, ...); its name is between the system and "_entry"/"_exit". The
 * irq_vectors:vector_* events (allocation) are neither.
 */
static int vector_name(const char *ev_name, int *entry, const char **name, size_t *len)
{
	static const char pre[] = "irq_vectors:";
	size_t n;

	if (!ev_name || strncmp(ev_name, pre, sizeof(pre) - 1))
		return 0;
	*name = ev_name + sizeof(pre) - 1;
	n = strlen(*name);
	if (n > 6 && !strcmp(*name + n - 6, "_entry"))
		*len = n - 6, *entry = 1;
	else if (n > 5 && !strcmp(*name + n - 5, "_exit"))
		*len = n - 5, *entry = 0;
	else
		return 0;
	return 1;
}

static int vector_event(const struct ts_event *ev, int *entry, const char **name, size_t *len)
{
	return ev->kind == TS_EV_OTHER && vector_name(ev->name, entry, name, len);
}

int ts_irqctx_is_vector(const char *ev_name)
{
	const char *name;
	size_t len;
	int entry;

	return vector_name(ev_name, &entry, &name, &len);
}

int ts_irqctx_is_event(const struct ts_event *ev)
{
	const char *name;
	size_t len;
	int entry;

	switch (ev->kind) {
	case TS_EV_IRQ_ENTRY:
	case TS_EV_IRQ_EXIT:
	case TS_EV_SOFTIRQ_ENTRY:
	case TS_EV_SOFTIRQ_EXIT:
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
	case TS_EV_HRTIMER_EXPIRE_EXIT:
	case TS_EV_TIMER_EXPIRE_ENTRY:
	case TS_EV_TIMER_EXPIRE_EXIT:
		return 1;
	case TS_EV_LOST:
		return !ev->lost.samples;
	case TS_EV_SWITCH: /* no interrupt context spans a context switch */
		return 1;
	default:
		return vector_event(ev, &entry, &name, &len);
	}
}

static void changed(struct ts_irqctx *x, struct cpu *c, int depth, uint64_t now)
{
	x->busy += (depth > 0) - (c->depth > 0);
	c->depth = depth;
	c->since = now;
}

static void reset(struct ts_irqctx *x, struct cpu *c, uint64_t now)
{
	x->un.dropped_lost += (uint64_t)c->depth;
	changed(x, c, 0, now);
}

static int push(struct ts_irqctx *x, struct cpu *c, const struct ts_event *ev, int type,
		int64_t num, const char *name, uint64_t match)
{
	int src;

	if (c->depth == TS_IRQ_DEPTH) {
		x->un.too_deep++;
		return 0;
	}
	src = intern(x, type, num, name);
	if (src < 0)
		return src;
	/* a source never nests in itself: an open one missed its exit, with all inside it */
	for (int i = 0; i < c->depth; i++)
		if (c->f[i].type == type && c->f[i].match == match) {
			x->un.dropped_reentry += (uint64_t)(c->depth - i);
			changed(x, c, i, ev->time);
			break;
		}
	c->f[c->depth] = (struct frame){ src, (uint8_t)type, match, ev->pid, ev->time };
	changed(x, c, c->depth + 1, ev->time);
	return 0;
}

static int pop(struct ts_irqctx *x, struct cpu *c, const struct ts_event *ev, int type,
	       uint64_t match, struct ts_irq_done *done)
{
	int i;

	for (i = c->depth - 1; i >= 0; i--)
		if (c->f[i].type == type && c->f[i].match == match)
			break;
	if (i < 0) {
		x->un.exit_unmatched++;
		return 0;
	}
	x->un.closed_by_outer += (uint64_t)(c->depth - 1 - i);
	*done = (struct ts_irq_done){ c->f[i].src, c->f[i].pid, c->f[i].start, ev->time };
	changed(x, c, i, ev->time);
	return 1;
}

int ts_irqctx_feed(struct ts_irqctx *x, const struct ts_event *ev, struct ts_irq_done *done)
{
	char name[TS_IRQ_NAME_LEN];
	const char *vn;
	struct cpu *c;
	int entry, i;
	size_t len;

	if (ev->kind == TS_EV_LOST) {
		if (ev->lost.samples)
			return 0;
		/* what was open on the CPU may have closed unseen: drop it, do not guess */
		for (i = 0; i < ts_cputab_nr(&x->cpus); i++)
			if ((c = ts_cputab_find(&x->cpus, i)) && (ev->cpu < 0 || ev->cpu == i))
				reset(x, c, ev->time);
		return 0;
	}
	if (!ts_irqctx_is_event(ev))
		return 0;
	c = ts_cputab_get(&x->cpus, ev->cpu, NULL);
	if (!c)
		return ev->cpu < 0 || ev->cpu > 65535 ? 0 : -ENOMEM;
	switch (ev->kind) {
	case TS_EV_SWITCH:
		if (c->depth) {
			x->un.dropped_switch += (uint64_t)c->depth;
			changed(x, c, 0, ev->time);
		}
		return 0;
	case TS_EV_IRQ_ENTRY:
		return push(x, c, ev, TS_IRQT_HARD, ev->irq.irq, ev->irq.name,
			    (uint32_t)ev->irq.irq);
	case TS_EV_IRQ_EXIT:
		return pop(x, c, ev, TS_IRQT_HARD, (uint32_t)ev->irq.irq, done);
	case TS_EV_SOFTIRQ_ENTRY:
		vn = ts_irq_softirq_name(ev->irq.irq);
		return push(x, c, ev, TS_IRQT_SOFT, ev->irq.irq, vn ? vn : "?",
			    (uint32_t)ev->irq.irq);
	case TS_EV_SOFTIRQ_EXIT:
		return pop(x, c, ev, TS_IRQT_SOFT, (uint32_t)ev->irq.irq, done);
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
		return push(x, c, ev, TS_IRQT_HRTIMER, (int64_t)ev->timer.function, "",
			    ev->timer.timer);
	case TS_EV_HRTIMER_EXPIRE_EXIT:
		return pop(x, c, ev, TS_IRQT_HRTIMER, ev->timer.timer, done);
	case TS_EV_TIMER_EXPIRE_ENTRY:
		return push(x, c, ev, TS_IRQT_TIMER, (int64_t)ev->timer.function, "",
			    ev->timer.timer);
	case TS_EV_TIMER_EXPIRE_EXIT:
		return pop(x, c, ev, TS_IRQT_TIMER, ev->timer.timer, done);
	default:
		vector_event(ev, &entry, &vn, &len);
		snprintf(name, sizeof(name), "%.*s", (int)len, vn);
		if (entry)
			return push(x, c, ev, TS_IRQT_VECTOR, -1, name, hash(name, 0));
		return pop(x, c, ev, TS_IRQT_VECTOR, hash(name, 0), done);
	}
}

struct ts_irq_top ts_irqctx_top(const struct ts_irqctx *x, int cpu)
{
	const struct cpu *c = ts_cputab_find(&x->cpus, cpu);
	struct ts_irq_top t = { TS_IRQC_NONE, -1, -1, 0 };
	int i;

	if (!c || !c->depth)
		return t;
	t.pid = c->f[0].pid;
	i = c->depth - 1;
	if (c->f[i].type == TS_IRQT_HRTIMER || c->f[i].type == TS_IRQT_TIMER) {
		t.timer_src = c->f[i].src;
		/*
		 * Without an enclosing context traced (x86's apic timer without irq_vectors, or no
		 * irq events): hrtimers expire in hard interrupt context, timer_list callbacks in
		 * the TIMER softirq; soft hrtimers are inside an HRTIMER softirq when it is traced.
		 */
		t.cls = c->f[i].type == TS_IRQT_HRTIMER ? TS_IRQC_HARD : TS_IRQC_SOFT;
	}
	for (; i >= 0; i--)
		if (c->f[i].type == TS_IRQT_HARD || c->f[i].type == TS_IRQT_VECTOR ||
		    c->f[i].type == TS_IRQT_SOFT) {
			t.irq_src = c->f[i].src;
			t.cls = c->f[i].type == TS_IRQT_SOFT ? TS_IRQC_SOFT : TS_IRQC_HARD;
			break;
		}
	return t;
}

int ts_irqctx_depth(const struct ts_irqctx *x, int cpu)
{
	const struct cpu *c = ts_cputab_find(&x->cpus, cpu);

	return c ? c->depth : -1;
}

uint64_t ts_irqctx_since(const struct ts_irqctx *x, int cpu)
{
	const struct cpu *c = ts_cputab_find(&x->cpus, cpu);

	return c ? c->since : 0;
}

int ts_irqctx_nr_cpus(const struct ts_irqctx *x)
{
	return ts_cputab_nr(&x->cpus);
}

int ts_irqctx_busy(const struct ts_irqctx *x)
{
	return x->busy;
}

void ts_irqctx_finish(struct ts_irqctx *x)
{
	const struct cpu *c;

	for (int i = 0; i < ts_cputab_nr(&x->cpus); i++)
		if ((c = ts_cputab_find(&x->cpus, i)))
			x->un.open_at_end += (uint64_t)c->depth;
}

int ts_irqctx_nr_srcs(const struct ts_irqctx *x)
{
	return x->nr_src;
}

const struct ts_irq_src *ts_irqctx_src(const struct ts_irqctx *x, int i)
{
	return i >= 0 && i < x->nr_src ? &x->src[i] : NULL;
}

const struct ts_irq_unpaired *ts_irqctx_unpaired(const struct ts_irqctx *x)
{
	return &x->un;
}
