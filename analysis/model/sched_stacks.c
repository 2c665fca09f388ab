// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler model's off-CPU stacks: switch-out callchains interned once each (up to
 * max_stacks), and the time off the CPU each one stands for, per state and per task.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"

static uint64_t stack_hash(const uint64_t *ips, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = (h ^ ips[i]) * 0x100000001b3ull;
	return h == TS_MAP_EMPTY ? 0 : h;
}

static int new_stack(struct ts_sched *m, const uint64_t *ips, uint32_t n, uint64_t *slot)
{
	struct ts_sched_stack *s;
	uint64_t *copy;

	if (m->nr_stacks == m->cap_stacks) {
		size_t cap = m->cap_stacks ? m->cap_stacks * 2 : 64;

		s = realloc(m->stacks, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		m->stacks = s;
		m->cap_stacks = cap;
	}
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ips, n * sizeof(*copy));
	s = &m->stacks[m->nr_stacks++];
	memset(s, 0, sizeof(*s));
	s->nr_ips = n;
	s->ips = copy;
	*slot = m->nr_stacks;
	return 0;
}

static int same_stack(const struct ts_sched_stack *s, const uint64_t *ips, uint32_t n)
{
	return s->nr_ips == n && !memcmp(s->ips, ips, n * sizeof(*ips));
}

/* The 1-based stack index for a callchain of @n addresses, or STACK_DROPPED. */
static int intern_slow(struct ts_sched *m, const uint64_t *ips, uint32_t n, uint32_t *out)
{
	uint64_t h = stack_hash(ips, n), *v;
	unsigned int max = m->opts.max_stacks ? m->opts.max_stacks : TS_MAX_STACKS_DEFAULT;
	int ret;

	*out = STACK_DROPPED;
	v = ts_map_find(&m->stack_map, h);
	if (v) {
		if (same_stack(&m->stacks[*v - 1], ips, n))
			*out = (uint32_t)*v;
		return 0;
	}
	if (m->nr_stacks >= max)
		return 0;
	ret = ts_map_insert(&m->stack_map, h, &v);
	if (ret < 0)
		return ret;
	ret = new_stack(m, ips, n, v);
	if (ret < 0) {
		ts_map_remove(&m->stack_map, h);
		return ret;
	}
	*out = (uint32_t)*v;
	return 0;
}

/*
 * The 1-based stack index for a switch-out callchain, or STACK_DROPPED. A stack with the same
 * addresses as a hint's has its hash, and only one stack is kept per hash: it is the hint.
 */
int sched_intern_stack(struct ts_sched *m, const struct ts_event *ev, uint32_t *hints,
		       uint32_t *out)
{
	uint32_t n = ev->nr_ips < TS_STACK_DEPTH ? ev->nr_ips : TS_STACK_DEPTH, hint;
	int i, err = 0;

	for (i = 0; i < SCHED_STACK_HINTS; i++) {
		hint = hints[i];
		if (hint && hint <= m->nr_stacks && same_stack(&m->stacks[hint - 1], ev->ips, n)) {
			*out = hint;
			if (i)
				goto used;
			return 0;
		}
	}
	err = intern_slow(m, ev->ips, n, out);
	if (*out == STACK_DROPPED)
		return err;
	i = SCHED_STACK_HINTS - 1;
used: /* the most recent first */
	for (; i > 0; i--)
		hints[i] = hints[i - 1];
	hints[0] = *out;
	return err;
}

/* Credit @ns to @pid on the stack's task list, kept heaviest first. */
void sched_stack_task(struct ts_sched_stack *s, int32_t pid, uint64_t ns)
{
	int i, last = TS_STACK_TASKS - 1;

	for (i = 0; i < TS_STACK_TASKS; i++)
		if (s->tasks[i].pid == pid || !s->tasks[i].pid)
			break;
	if (i == TS_STACK_TASKS) {
		if (ns <= s->tasks[last].ns)
			return;
		i = last;
		s->tasks[i].ns = 0;
	}
	s->tasks[i].pid = pid;
	s->tasks[i].ns += ns;
	for (; i > 0 && s->tasks[i].ns > s->tasks[i - 1].ns; i--) {
		int32_t p = s->tasks[i].pid;
		uint64_t v = s->tasks[i].ns;

		s->tasks[i] = s->tasks[i - 1];
		s->tasks[i - 1].pid = p;
		s->tasks[i - 1].ns = v;
	}
}
