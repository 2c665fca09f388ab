// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched section's wait entries as its writers list them: by task, by off-CPU stack, and who
 * ended a stack's off-CPU periods.
 */
#include <stdlib.h>

#include "sched_priv.h"

static int cmp_wait_pid(const void *a, const void *b)
{
	const struct ts_sched_wait *x = *(const struct ts_sched_wait *const *)a;
	const struct ts_sched_wait *y = *(const struct ts_sched_wait *const *)b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The wait entries sorted by task, so that each task's are one run; NULL on no memory. */
const struct ts_sched_wait **rp_sched_waits_by_task(const struct ts_sched *m)
{
	size_t n = ts_sched_nr_waits(m), i;
	const struct ts_sched_wait **v = malloc((n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		v[i] = ts_sched_wait_at(m, i);
	qsort(v, n, sizeof(*v), cmp_wait_pid);
	return v;
}

/* The run of @v (sorted, @n entries) that is task @pid's: its first index, @len its length. */
size_t rp_sched_task_waits(const struct ts_sched_wait **v, size_t n, int32_t pid, size_t *len)
{
	size_t lo = 0, hi = n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && v[end]->pid == pid; end++)
		;
	*len = end - lo;
	return lo;
}

const char *rp_sched_no_wakers(const struct ts_sched *m)
{
	/* a per-task recording has the wakes of the followed tasks' contexts only */
	if (ts_sched_wakes_why(m))
		return ts_sched_wakes_why(m);
	return ts_sched_waits_recorded(m) ? NULL :
					    "sched:sched_waking not recorded (it names the waker)";
}

static int cmp_wait_stack(const void *a, const void *b)
{
	const struct ts_sched_wait *x = *(const struct ts_sched_wait *const *)a;
	const struct ts_sched_wait *y = *(const struct ts_sched_wait *const *)b;

	return (x->stack > y->stack) - (x->stack < y->stack);
}

/* The wait entries sorted by stack (each stack's are one run); NULL on no memory. */
const struct ts_sched_wait **rp_sched_waits_by_stack(const struct ts_sched *m)
{
	const struct ts_sched_wait **v = rp_sched_waits_by_task(m);

	if (v)
		qsort(v, ts_sched_nr_waits(m), sizeof(*v), cmp_wait_stack);
	return v;
}

/*
 * Who ended the off-CPU periods of stack @i (0-based), from @v sorted by stack: the classes,
 * the one that ended the most periods first; @all gets the periods. Return: how many.
 */
int rp_sched_stack_wakers(const struct ts_sched *m, const struct ts_sched_wait **v, size_t i,
			  struct ts_sched_waker_sum *w, uint64_t *all)
{
	size_t n = ts_sched_nr_waits(m), lo = 0, hi = n, end;
	uint32_t id = (uint32_t)i + 1;
	int nr, k, best = 0;

	*all = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid]->stack < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && v[end]->stack == id; end++)
		;
	nr = end > lo ? ts_sched_wakers_of(m, v + lo, end - lo, 0, w, RP_SCHED_WAKERS) : 0;
	for (k = 0; k < nr; k++) {
		*all += w[k].periods;
		if (w[k].periods > w[best].periods)
			best = k;
	}
	if (nr > 0 && best) { /* by periods, not wakes: the waits this stack ended */
		struct ts_sched_waker_sum t = w[0];

		w[0] = w[best];
		w[best] = t;
	}
	return nr;
}
