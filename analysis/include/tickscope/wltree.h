/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The recorded workload's process tree: the command `perf record ... -- CMD` (or `tickscope
 * record -- CMD`) started, and every task it forked, by the FORK records and
 * sched:sched_process_fork. compare's benchmark is that tree's tasks with the benchmark's
 * name, not every task of that name on the machine (another user's ping-pong beside it).
 *
 * The recorder forks CMD before it writes the records of the tasks that exist (time 0): CMD is
 * there already, a child of the recorder, named "perf-exec" (perf names it so) or, with no
 * such task, after its parent (tickscope record's child keeps "tickscope" until its exec).
 * Its exec during the recording (a COMM record with the exec flag) makes it the root. A
 * recording with no workload command (`perf record -a` alone, a dlfilter's samples) has none:
 * the benchmark's tasks are then every task of its name, as before.
 */
#ifndef TICKSCOPE_WLTREE_H
#define TICKSCOPE_WLTREE_H

#include <stdint.h>

#include "tickscope/event.h"

struct ts_wltree;

/** ts_wltree_new() - an empty tree; Return: 0 or -ENOMEM */
int ts_wltree_new(struct ts_wltree **tp);

/** ts_wltree_feed() - feed one event, in time order (COMM, FORK, PROCESS_FORK); 0 or -ENOMEM */
int ts_wltree_feed(struct ts_wltree *t, const struct ts_event *ev);

/** ts_wltree_root() - the workload's first task (its pid), or 0 while none is known */
int32_t ts_wltree_root(const struct ts_wltree *t);

/**
 * ts_wltree_member() - whether task @pid is the root or descends from it, by the forks fed so
 * far (a pid seen again after its task exited belongs to its last fork)
 * Return: 1 yes, 0 no or no root known (NULL @t: 0).
 */
int ts_wltree_member(const struct ts_wltree *t, int32_t pid);

/** ts_wltree_free() - free (NULL is fine) */
void ts_wltree_free(struct ts_wltree *t);

#endif
