/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timer model: timer_* and hrtimer_* expiries by callback function, with counts, handler
 * durations (expire_entry -> expire_exit) and per-CPU counts. Functions stay raw addresses.
 */
#ifndef TICKSCOPE_TIMER_H
#define TICKSCOPE_TIMER_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

struct ts_timer_fn {
	uint64_t function;
	int hr; /* 1 for an hrtimer, 0 for a timer_list timer */
	uint64_t nr_expire, nr_start;
	struct ts_hist handler; /* ns, entry -> exit */
	uint64_t *per_cpu; /* expiries per CPU, nr_cpu entries */
	int nr_cpu;
};

struct ts_timer_totals {
	uint64_t nr_expire[2]; /* [0] timers, [1] hrtimers */
	uint64_t nr_start[2], nr_cancel[2];
	uint64_t unmatched_exits; /* exit without its entry (trace start, lost events) */
	uint64_t *per_cpu[2]; /* expiries per CPU */
	int nr_cpu[2];
};

struct ts_timer;

/** ts_timer_new() - a new timer model; Return: 0 or -ENOMEM */
int ts_timer_new(struct ts_timer **mp, const struct ts_model_opts *opts);

/** ts_timer_feed() - feed one event (TIMER_* and HRTIMER_*); Return: 0 or -ENOMEM */
int ts_timer_feed(struct ts_timer *m, const struct ts_event *ev);

/** ts_timer_finish() - nothing is open-ended here, kept for symmetry */
void ts_timer_finish(struct ts_timer *m, uint64_t end);

/** ts_timer_free() - free (NULL is fine) */
void ts_timer_free(struct ts_timer *m);

/** ts_timer_nr_fns() - distinct callback functions seen (timers and hrtimers) */
size_t ts_timer_nr_fns(const struct ts_timer *m);

/** ts_timer_fn_at() - function @i in first-seen order */
const struct ts_timer_fn *ts_timer_fn_at(const struct ts_timer *m, size_t i);

/** ts_timer_totals() - whole-trace figures */
const struct ts_timer_totals *ts_timer_totals(const struct ts_timer *m);

#endif
