/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Thread names as perf resolves them: from COMM records, inherited on FORK, "swapper" for
 * pid 0 and ":<tid>" for a thread never named. Fed in time order, it answers "as of now".
 */
#ifndef TICKSCOPE_COMM_H
#define TICKSCOPE_COMM_H

#include <stdint.h>

#include "common/map.h"

#define TS_COMM_MAX 32

struct ts_comms {
	struct ts_objtab tab; /* tid -> struct { char name[TS_COMM_MAX]; } */
	char unknown[16];
};

/** ts_comms_init() - an empty table */
void ts_comms_init(struct ts_comms *c);

/** ts_comms_release() - free it */
void ts_comms_release(struct ts_comms *c);

/** ts_comms_set() - @tid is now called @comm (COMM record); Return: 0 or -ENOMEM */
int ts_comms_set(struct ts_comms *c, uint32_t tid, const char *comm);

/**
 * ts_comms_fork() - @tid starts with its parent @ptid's name (FORK record); it is a kernel
 * thread when its process @pid is kthreadd (2) or its parent process @ppid is (perf's FORK
 * records, synthesized ones too, come before the thread's COMM)
 */
int ts_comms_fork(struct ts_comms *c, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);

/** ts_comms_kthread() - whether @tid is a kernel thread: an enum ts_kthread */
int ts_comms_kthread(const struct ts_comms *c, uint32_t tid);

/**
 * ts_comms_get() - the current name of @tid
 * Return: a string valid until the next set/fork on @c.
 */
const char *ts_comms_get(struct ts_comms *c, uint32_t tid);

#endif
