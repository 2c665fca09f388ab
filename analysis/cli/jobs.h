/* SPDX-License-Identifier: GPL-2.0-only */
/* Work on several inputs by one worker per core, with the serial output (jobs.c). */
#ifndef TS_CLI_JOBS_H
#define TS_CLI_JOBS_H

#define CLI_MAX_WORKERS 256

/*
 * cli_jobs_workers() - how many workers for @nr jobs: @asked (--jobs), else $TS_JOBS, else one
 * per online core; at most @nr. A TS_JOBS that is not a whole number of 1 or more is said
 * (cli_error) and gives a negative return.
 */
int cli_jobs_workers(int asked, int nr);

/*
 * cli_jobs() - @fn(@ctx, i) for every i below @nr, by @workers threads taking the jobs in
 * order; each job's messages (cli_error(), cli_err()) are kept and printed in input order up
 * to the first failed job, whose successors are not started: the output is the serial one.
 * With one worker the jobs run on this thread and print as they go.
 * Return: 0, or 1 when a job failed (returned non-zero)
 */
int cli_jobs(int nr, int workers, int (*fn)(void *ctx, int i), void *ctx);

/*
 * cli_jobs_sized() - cli_jobs(), the workers taking the largest job first (@size[i]: how much
 * work job i is, e.g. its input's bytes; NULL: input order): the last job to finish is then a
 * small one, not a large one that one worker does alone while the others wait. The messages,
 * and which jobs a failure stops, are as cli_jobs()'s.
 */
int cli_jobs_sized(int nr, int workers, int (*fn)(void *ctx, int i), void *ctx,
		   const long long *size);

#endif
