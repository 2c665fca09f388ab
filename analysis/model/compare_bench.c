// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's tasks in one run of `tickscope compare`: the tasks named after it in the
 * recorded workload's process tree (every task of the name when the recording has no workload
 * command), less its supervisors (the tasks that spend their time waiting for a child of the
 * benchmark to exit).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "tickscope/analysis.h"
#include "tickscope/wltree.h"

int ts_run_bench_task(const char *comm, const char *match)
{
	size_t n = strlen(match);

	/*
	 * The kernel keeps the first TS_COMM_LEN - 1 bytes of a task's name: stress-ng's switch
	 * workers, "stress-ng-switch", run as "stress-ng-switc", and a NAME that long leaves no
	 * room for NAME-*'s suffix. Compared in full, such a name matched no task at all.
	 */
	if (n >= TS_COMM_LEN - 1)
		return !strncmp(comm, match, TS_COMM_LEN - 1) && !comm[TS_COMM_LEN - 1];
	return !strncmp(comm, match, n) && (!comm[n] || comm[n] == '-');
}

/*
 * The tree to select by: the workload's, when one of its tasks has the benchmark's name; else
 * NULL, every task of the name (a recording with no workload command).
 */
static const struct ts_wltree *bench_tree(const struct ts_sched *s, const char *match)
{
	const struct ts_wltree *tree = ts_sched_wltree(s);
	size_t nt = ts_sched_nr_tasks(s);

	if (!ts_wltree_root(tree))
		return NULL;
	for (size_t i = 0; i < nt; i++) {
		const struct ts_sched_task *k = ts_sched_task_at(s, i);

		if (k->pid && ts_run_bench_task(k->comm, match) && ts_wltree_member(tree, k->pid))
			return tree;
	}
	return NULL;
}

int ts_run_bench_is(const struct ts_run_bench *b, const struct ts_sched_task *k)
{
	return ts_run_bench_task(k->comm, b->match) &&
	       (!b->tree || ts_wltree_member(b->tree, k->pid));
}

/* The functions of a wait for a child to exit: wait4(), waitid() and waitpid() meet in do_wait. */
static int child_wait_fn(const char *fn)
{
	static const char *const names[] = { "do_wait", "kernel_wait4", "kernel_waitid",
					     "kernel_wait" };
	const char *sys = strstr(fn, "sys_wait");
	size_t n;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = strlen(names[i]);
		if (!strncmp(fn, names[i], n) && (!fn[n] || fn[n] == '.'))
			return 1;
	}
	return sys && (!strcmp(sys + 8, "4") || !strcmp(sys + 8, "id") || !strcmp(sys + 8, "pid"));
}

/* Whether switch-out stack @st passes through a wait for a child. */
static int child_wait_stack(const struct ts_analysis *a, const struct ts_sched_stack *st)
{
	char fn[96];

	for (uint32_t i = 0; i < st->nr_ips; i++)
		if (child_wait_fn(ts_analysis_fn_name(a, st->ips[i], fn, sizeof(fn))))
			return 1;
	return 0;
}

struct bench_task {
	int32_t pid;
	uint64_t run, off, child_wait; /* ns: run, off-CPU, off-CPU in a wait for a child */
	int parent; /* forked another of the benchmark's tasks */
};

static int cmp_bench_pid(const void *pa, const void *pb)
{
	const struct bench_task *a = pa, *b = pb;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

static struct bench_task *bench_find(struct bench_task *t, int n, int32_t pid)
{
	struct bench_task key = { .pid = pid };

	return n ? bsearch(&key, t, n, sizeof(*t), cmp_bench_pid) : NULL;
}

/* Each of the benchmark's switch-out stacks that waits for a child adds its time to its task. */
static int add_child_waits(const struct ts_analysis *a, struct bench_task *t, int n)
{
	const struct ts_sched *s = ts_analysis_sched(a);
	size_t nst = ts_sched_nr_stacks(s);
	int8_t *waits = nst ? calloc(nst, 1) : NULL; /* per stack: 0 unknown, 1 no, 2 yes */
	struct bench_task *k;

	if (nst && !waits)
		return -ENOMEM;
	for (size_t i = 0; i < ts_sched_nr_waits(s); i++) {
		const struct ts_sched_wait *w = ts_sched_wait_at(s, i);

		if (!w->stack || w->stack > nst || !(k = bench_find(t, n, w->pid)))
			continue;
		if (!waits[w->stack - 1])
			waits[w->stack - 1] =
				1 + child_wait_stack(a, ts_sched_stack_at(s, w->stack - 1));
		if (waits[w->stack - 1] == 2)
			k->child_wait += w->ns;
	}
	free(waits);
	return 0;
}

int ts_run_bench_init(struct ts_run_bench *b, const struct ts_analysis *a, const char *match)
{
	const struct ts_sched *s = ts_analysis_sched(a);
	size_t nt = ts_sched_nr_tasks(s);
	struct bench_task *t = nt ? calloc(nt, sizeof(*t)) : NULL, *p;
	uint64_t busiest = 0;
	int n = 0, err;

	memset(b, 0, sizeof(*b));
	b->match = match;
	if (nt && !t)
		return -ENOMEM;
	b->tree = bench_tree(s, match);
	for (size_t i = 0; i < nt; i++) {
		const struct ts_sched_task *k = ts_sched_task_at(s, i);

		if (!k->pid || !ts_run_bench_is(b, k))
			continue;
		t[n].pid = k->pid;
		t[n].run = k->run->sum;
		for (int o = 0; o < TS_OFF_NR; o++)
			t[n].off += k->off[o]->sum;
		busiest = t[n].run > busiest ? t[n].run : busiest;
		n++;
	}
	if (n)
		qsort(t, n, sizeof(*t), cmp_bench_pid);
	for (int i = 0; i < n; i++) {
		p = bench_find(t, n, ts_sched_task_parent(s, t[i].pid));
		if (p && p != &t[i])
			p->parent = 1;
	}
	err = ts_analysis_has_symbols(a) ? add_child_waits(a, t, n) : 0;
	b->known = ts_sched_forks(s) > 0 ||
		   (ts_analysis_has_symbols(a) && ts_sched_totals(s)->nr_stack_switches > 0);
	for (int i = 0; i < n && !err; i++) {
		/* asleep in wait4 most of its off-CPU time, or a parent that ran little */
		if (t[i].child_wait * 2 > t[i].off || (t[i].parent && t[i].run * 3 < busiest))
			t[b->nr_sup++].pid = t[i].pid; /* i >= nr_sup: still sorted */
	}
	if (err || !b->nr_sup) {
		free(t);
		return err;
	}
	b->sup = malloc(b->nr_sup * sizeof(*b->sup));
	for (int i = 0; b->sup && i < b->nr_sup; i++)
		b->sup[i] = t[i].pid;
	free(t);
	return b->sup ? 0 : -ENOMEM;
}

void ts_run_bench_release(struct ts_run_bench *b)
{
	free(b->sup);
	memset(b, 0, sizeof(*b));
}

int ts_run_bench_supervisor(const struct ts_run_bench *b, int32_t pid)
{
	int lo = 0, hi = b->nr_sup;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (b->sup[mid] == pid)
			return 1;
		if (b->sup[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int ts_run_bench_worker(const struct ts_run_bench *b, const struct ts_sched_task *k)
{
	return k && k->pid && ts_run_bench_is(b, k) && !ts_run_bench_supervisor(b, k->pid);
}
