// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched section's wait entries as its writers list them: by task, by off-CPU stack, and who
 * ended a stack's off-CPU periods.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sched_priv.h"

enum sort_key { BY_PID, BY_STACK };

static uint32_t key_of(const struct ts_sched_wait *w, enum sort_key by)
{
	/* the sign bit flipped: negative pids first, as a signed compare puts them */
	return by == BY_PID ? (uint32_t)w->pid ^ 0x80000000u : w->stack;
}

/*
 * Sort @v[0..@n) by @by, entries with equal keys in the order they had (as the merge sort that
 * glibc's qsort() is for arrays this size left them, so the lists print as before): a radix sort,
 * a pass for each of the key's bytes that is not the same in every entry. A busy machine's
 * trace has tens of thousands of entries, and qsort()'s call of a compare for each of its n log n
 * steps cost more than the sums printed from them. Return: 0 or -ENOMEM.
 */
static int sort_waits(const struct ts_sched_wait **v, size_t n, enum sort_key by)
{
	const struct ts_sched_wait **tmp, **src = v, **dst;
	size_t count[256], i, sum;
	uint32_t all_and = ~0u, all_or = 0;
	int shift;

	for (i = 0; i < n; i++) {
		uint32_t k = key_of(v[i], by);

		all_and &= k;
		all_or |= k;
	}
	if (n < 2 || all_and == all_or)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (shift = 0; shift < 32; shift += 8) {
		const struct ts_sched_wait **t;

		if (!(((all_and ^ all_or) >> shift) & 0xff)) /* the same byte in every key */
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(key_of(src[i], by) >> shift) & 0xff]++;
		for (i = 0, sum = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(key_of(src[i], by) >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	return 0;
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
	if (sort_waits(v, n, BY_PID)) {
		free(v);
		return NULL;
	}
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

/* The wait entries sorted by stack (each stack's are one run); NULL on no memory. */
const struct ts_sched_wait **rp_sched_waits_by_stack(const struct ts_sched *m)
{
	const struct ts_sched_wait **v = rp_sched_waits_by_task(m);

	if (v && sort_waits(v, ts_sched_nr_waits(m), BY_STACK)) {
		free(v);
		return NULL;
	}
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
