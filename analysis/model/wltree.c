// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorded workload's process tree (see tickscope/wltree.h): who forked whom, the names of
 * the tasks that existed when the recording began, and the first exec of a task the recorder
 * had forked for its command.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"
#include "tickscope/wltree.h"

#define MAX_DEPTH 4096 /* a walk up the tree stops there (a loop of reused pids) */

struct ts_wltree {
	struct ts_map32 parent; /* tid -> the tid that forked it, plus one */
	struct ts_map name; /* tid -> its name's hash, for the tasks there at the start */
	int started; /* an event with a time was seen: records at time 0 are over */
	int perf_exec; /* a task named "perf-exec" was there at the start */
	int32_t root;
};

static const char perf_exec[] = "perf-exec";

/* FNV-1a of a task's name: two tasks' names are compared by it (0 is never returned). */
static uint64_t name_hash(const char *comm)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < TS_COMM_LEN && comm[i]; i++)
		h = (h ^ (unsigned char)comm[i]) * 0x100000001b3ull;
	return h ?: 1;
}

int ts_wltree_new(struct ts_wltree **tp)
{
	*tp = calloc(1, sizeof(**tp));
	return *tp ? 0 : -ENOMEM;
}

void ts_wltree_free(struct ts_wltree *t)
{
	if (!t)
		return;
	ts_map32_release(&t->parent);
	ts_map_release(&t->name);
	free(t);
}

/*
 * Whether @tid, there at the start, is a command the recorder forked: named "perf-exec", or,
 * when no task was, named as the task that forked it (a fork that has not exec'd yet).
 */
static int forked_command(const struct ts_wltree *t, int32_t tid)
{
	const uint64_t *n = ts_map_find(&t->name, (uint64_t)tid), *pn;
	const uint32_t *p;

	if (!n)
		return 0;
	if (t->perf_exec)
		return *n == name_hash(perf_exec);
	p = ts_map32_find(&t->parent, (uint32_t)tid);
	pn = p && *p - 1 != (uint32_t)tid ? ts_map_find(&t->name, *p - 1) : NULL;
	return pn && *pn == *n;
}

static int on_comm(struct ts_wltree *t, const struct ts_event *ev)
{
	uint64_t *v;
	int ret;

	if (ev->comm.tid <= 0)
		return 0;
	if (!t->started && !ev->comm.exec) {
		ret = ts_map_insert(&t->name, (uint64_t)ev->comm.tid, &v);
		if (ret < 0)
			return ret;
		*v = name_hash(ev->comm.comm);
		t->perf_exec |= !strncmp(ev->comm.comm, perf_exec, sizeof(perf_exec));
		return 0;
	}
	if (ev->comm.exec && !t->root && forked_command(t, ev->comm.tid))
		t->root = ev->comm.tid;
	return 0;
}

int ts_wltree_feed(struct ts_wltree *t, const struct ts_event *ev)
{
	uint32_t *v;
	int ret;

	if (ev->time && ev->kind != TS_EV_LOST)
		t->started = 1;
	switch (ev->kind) {
	case TS_EV_COMM:
		if (ev->comm.exec)
			t->started = 1; /* only a recording's own COMM records say exec */
		return on_comm(t, ev);
	case TS_EV_FORK:
	case TS_EV_PROCESS_FORK:
		if (ev->fork.child <= 0 || ev->fork.parent < 0 || ev->fork.child == ev->fork.parent)
			return 0;
		ret = ts_map32_insert(&t->parent, (uint32_t)ev->fork.child, &v);
		if (ret < 0)
			return ret;
		*v = (uint32_t)ev->fork.parent + 1;
		return 0;
	default:
		return 0;
	}
}

int32_t ts_wltree_root(const struct ts_wltree *t)
{
	return t ? t->root : 0;
}

int ts_wltree_member(const struct ts_wltree *t, int32_t pid)
{
	const uint32_t *p;

	if (!t || !t->root || pid <= 0)
		return 0;
	for (int i = 0; i < MAX_DEPTH; i++) {
		if (pid == t->root)
			return 1;
		p = ts_map32_find(&t->parent, (uint32_t)pid);
		if (!p || !*p)
			return 0;
		pid = (int32_t)(*p - 1);
	}
	return 0;
}
