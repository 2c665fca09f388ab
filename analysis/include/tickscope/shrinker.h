/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shrinker model: mm_shrink_slab_start/end by shrinker function, with the duration
 * distribution, objects scanned and objects freed.
 */
#ifndef TICKSCOPE_SHRINKER_H
#define TICKSCOPE_SHRINKER_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

struct ts_shrink_fn {
	uint64_t function; /* shrinker->scan_objects */
	uint64_t nr; /* complete start/end pairs */
	uint64_t scanned; /* sum of start total_scan - end total_scan */
	uint64_t freed; /* sum of end retval */
	uint64_t to_shrink; /* sum of start nr_objects_to_shrink */
	struct ts_hist duration; /* ns */
	uint64_t *per_cpu; /* calls per CPU, nr_cpu entries */
	int nr_cpu;
};

/* Per task: who ran the shrinkers (direct reclaim, kswapd, unmount...). */
struct ts_shrink_task {
	int32_t pid;
	uint64_t calls, time_ns, freed;
};

struct ts_shrink_totals {
	uint64_t nr, scanned, freed;
	struct ts_hist duration;
	uint64_t unmatched_ends, open_at_end;
};

struct ts_shrinker;

/** ts_shrinker_new() - a new shrinker model; Return: 0 or -ENOMEM */
int ts_shrinker_new(struct ts_shrinker **mp, const struct ts_model_opts *opts);

/** ts_shrinker_feed() - feed one event (SHRINK_*); Return: 0 or -ENOMEM */
int ts_shrinker_feed(struct ts_shrinker *m, const struct ts_event *ev);

/** ts_shrinker_finish() - count calls still open at @end */
void ts_shrinker_finish(struct ts_shrinker *m, uint64_t end);

/** ts_shrinker_free() - free (NULL is fine) */
void ts_shrinker_free(struct ts_shrinker *m);

/** ts_shrinker_nr_fns() - distinct shrinker functions */
size_t ts_shrinker_nr_fns(const struct ts_shrinker *m);

/** ts_shrinker_fn_at() - function @i in first-seen order */
const struct ts_shrink_fn *ts_shrinker_fn_at(const struct ts_shrinker *m, size_t i);

/** ts_shrinker_nr_tasks() - tasks that ran a complete shrinker call */
size_t ts_shrinker_nr_tasks(const struct ts_shrinker *m);

/** ts_shrinker_task_at() - task @i in first-seen order */
const struct ts_shrink_task *ts_shrinker_task_at(const struct ts_shrinker *m, size_t i);

/** ts_shrinker_totals() - whole-trace figures */
const struct ts_shrink_totals *ts_shrinker_totals(const struct ts_shrinker *m);

#endif
