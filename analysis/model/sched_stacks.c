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

/*
 * The 1-based stack index for a switch-out callchain, or STACK_DROPPED. A stack with the same
 * addresses as @hint's has its hash, and only one stack is kept per hash: it is @hint.
 */
int sched_intern_stack(struct ts_sched *m, const struct ts_event *ev, uint32_t hint, uint32_t *out)
{
	uint32_t n = ev->nr_ips < TS_STACK_DEPTH ? ev->nr_ips : TS_STACK_DEPTH;
	const struct ts_sched_stack *s;
	unsigned int max;
	uint64_t h, *v;
	int ret;

	if (hint && hint <= m->nr_stacks) {
		s = &m->stacks[hint - 1];
		if (s->nr_ips == n && !memcmp(s->ips, ev->ips, n * sizeof(*ev->ips))) {
			*out = hint;
			return 0;
		}
	}
	h = stack_hash(ev->ips, n);
	max = m->opts.max_stacks ? m->opts.max_stacks : TS_MAX_STACKS_DEFAULT;
	*out = STACK_DROPPED;
	v = ts_map_find(&m->stack_map, h);
	if (v) {
		s = &m->stacks[*v - 1];
		if (s->nr_ips == n && !memcmp(s->ips, ev->ips, n * sizeof(*ev->ips)))
			*out = (uint32_t)*v;
		return 0;
	}
	if (m->nr_stacks >= max)
		return 0;
	ret = ts_map_insert(&m->stack_map, h, &v);
	if (ret < 0)
		return ret;
	ret = new_stack(m, ev->ips, n, v);
	if (ret < 0) {
		ts_map_remove(&m->stack_map, h);
		return ret;
	}
	*out = (uint32_t)*v;
	return 0;
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
