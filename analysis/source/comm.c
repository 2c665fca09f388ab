// SPDX-License-Identifier: GPL-2.0-only
/* Thread names by tid, kept as perf keeps them (see comm.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "comm.h"
#include "tickscope/event.h"

struct name {
	char s[TS_COMM_MAX];
	unsigned char kthread; /* enum ts_kthread */
};

void ts_comms_init(struct ts_comms *c)
{
	memset(c, 0, sizeof(*c));
	c->tab.size = sizeof(struct name);
}

void ts_comms_release(struct ts_comms *c)
{
	ts_objtab_release(&c->tab, NULL);
}

int ts_comms_set(struct ts_comms *c, uint32_t tid, const char *comm)
{
	struct name *n = ts_objtab_get(&c->tab, tid, NULL);

	if (!n)
		return -ENOMEM;
	snprintf(n->s, sizeof(n->s), "%s", comm);
	return 0;
}

/*
 * perf gives a forked thread its parent's name only when the parent was named by a COMM
 * record; otherwise the child starts over as ":<tid>" (an empty name here).
 */
int ts_comms_fork(struct ts_comms *c, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	const struct name *p = ts_objtab_find(&c->tab, ptid);
	char parent[TS_COMM_MAX] = "";
	struct name *n;

	if (p)
		memcpy(parent, p->s, sizeof(parent));
	if (ts_comms_set(c, tid, parent))
		return -ENOMEM;
	n = ts_objtab_find(&c->tab, tid);
	n->kthread = pid == 2 || ppid == 2 ? TS_KTHREAD_YES : TS_KTHREAD_NO;
	return 0;
}

int ts_comms_kthread(const struct ts_comms *c, uint32_t tid)
{
	const struct name *n = ts_objtab_find(&c->tab, tid);

	return n ? n->kthread : TS_KTHREAD_UNKNOWN;
}

const char *ts_comms_get(struct ts_comms *c, uint32_t tid)
{
	const struct name *n;

	if (tid == 0)
		return "swapper";
	n = ts_objtab_find(&c->tab, tid);
	if (n && n->s[0])
		return n->s;
	snprintf(c->unknown, sizeof(c->unknown), ":%d", (int)tid);
	return c->unknown;
}
