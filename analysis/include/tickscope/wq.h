/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workqueue model: workqueue_execute_start/end by work function (count, duration, per CPU),
 * and queue-to-execute latency when workqueue_queue_work was recorded.
 */
#ifndef TICKSCOPE_WQ_H
#define TICKSCOPE_WQ_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

struct ts_wq_fn {
	uint64_t function; /* 0 when the kernel's events lack it */
	uint64_t nr_exec; /* execute_start */
	uint64_t nr_queued, nr_activated;
	struct ts_hist duration; /* ns, execute_start -> execute_end by the same worker */
	struct ts_hist queue_lat; /* ns, queue_work -> execute_start of the same work */
	uint64_t *per_cpu; /* executions per CPU */
	int nr_cpu;
};

struct ts_wq_totals {
	uint64_t nr_exec, nr_queued, nr_activated;
	uint64_t unmatched_ends; /* execute_end with no start (trace start, lost events) */
	uint64_t open_at_end; /* still executing at the end */
};

struct ts_wq;

/** ts_wq_new() - a new workqueue model; Return: 0 or -ENOMEM */
int ts_wq_new(struct ts_wq **mp, const struct ts_model_opts *opts);

/** ts_wq_feed() - feed one event (WQ_*); Return: 0 or -ENOMEM */
int ts_wq_feed(struct ts_wq *m, const struct ts_event *ev);

/** ts_wq_finish() - count executions still open at @end */
void ts_wq_finish(struct ts_wq *m, uint64_t end);

/** ts_wq_free() - free (NULL is fine) */
void ts_wq_free(struct ts_wq *m);

/** ts_wq_nr_fns() - distinct work functions */
size_t ts_wq_nr_fns(const struct ts_wq *m);

/** ts_wq_fn_at() - function @i in first-seen order */
const struct ts_wq_fn *ts_wq_fn_at(const struct ts_wq *m, size_t i);

/** ts_wq_totals() - whole-trace figures */
const struct ts_wq_totals *ts_wq_totals(const struct ts_wq *m);

#endif
