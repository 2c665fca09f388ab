/* SPDX-License-Identifier: GPL-2.0-only */
/* compare's runs loaded by one worker per core, with the serial output (compare_jobs.c). */
#ifndef TS_COMPARE_JOBS_H
#define TS_COMPARE_JOBS_H

#include <stddef.h>

#include "compare_load.h"

#define CMP_MAX_WORKERS 256

/* One run to load into @r; @msg holds what it printed (a worker's), @err load_run()'s. */
struct cmp_job {
	const struct run_in *in;
	struct ts_run *r;
	char *msg;
	size_t len;
	int err, done;
};

/* cmp_jobs_workers() - @asked (--jobs), or one per online core when 0; at most @nr */
int cmp_jobs_workers(int asked, int nr);

/*
 * cmp_jobs_run() - load_run() every job with @workers threads, each run's memory its own
 * worker's; prints the messages of the jobs up to the first failed one, in input order.
 * Return: 0, or 1 when a run failed (jobs after it are not loaded)
 */
int cmp_jobs_run(struct cmp_job *jobs, int nr, const struct load_opts *lo, int workers);

#endif
