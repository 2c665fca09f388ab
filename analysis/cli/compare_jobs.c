// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare's runs loaded in parallel: one worker per core takes the next run in input order;
 * each run's messages are kept and printed in input order, so the output is the serial one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "compare_jobs.h"

struct pool {
	struct cmp_job *jobs;
	int nr;
	const struct load_opts *lo;
	pthread_mutex_t lock; /* guards next and first_bad */
	int next; /* the next job to take */
	int first_bad; /* the first failed job so far; nr: none */
};

/* One job with its messages into its own stream (none with one worker: straight to stderr). */
static void run_one(struct cmp_job *j, const struct load_opts *lo, int capture)
{
	FILE *f = capture ? open_memstream(&j->msg, &j->len) : NULL;

	cli_set_err(f);
	j->err = load_run(j->in, lo, j->r);
	cli_set_err(NULL);
	if (f)
		fclose(f);
	j->done = 1;
}

/* Jobs after a failed one are not started: serial loading would have stopped there. */
static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		int i;

		pthread_mutex_lock(&p->lock);
		i = p->next < p->first_bad ? p->next++ : -1;
		pthread_mutex_unlock(&p->lock);
		if (i < 0)
			return NULL;
		run_one(&p->jobs[i], p->lo, 1);
		if (p->jobs[i].err) {
			pthread_mutex_lock(&p->lock);
			if (i < p->first_bad)
				p->first_bad = i;
			pthread_mutex_unlock(&p->lock);
		}
	}
}

int cmp_jobs_workers(int asked, int nr)
{
	long n = asked > 0 ? asked : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	return n < nr ? (int)n : (nr > 0 ? nr : 1);
}

/* The messages of every job up to the first failed one, in input order. */
static int report(struct cmp_job *jobs, int nr)
{
	for (int i = 0; i < nr && jobs[i].done; i++) {
		if (jobs[i].len)
			fwrite(jobs[i].msg, 1, jobs[i].len, stderr);
		if (jobs[i].err)
			return 1;
	}
	return 0;
}

int cmp_jobs_run(struct cmp_job *jobs, int nr, const struct load_opts *lo, int workers)
{
	struct pool p = { .jobs = jobs, .nr = nr, .lo = lo, .first_bad = nr };
	pthread_t tid[CMP_MAX_WORKERS];
	int started = 0, ret;

	workers = workers > CMP_MAX_WORKERS ? CMP_MAX_WORKERS : workers;
	if (workers <= 1) {
		for (int i = 0; i < nr; i++) {
			run_one(&jobs[i], lo, 0);
			if (jobs[i].err)
				return 1;
		}
		return 0;
	}
	pthread_mutex_init(&p.lock, NULL);
	for (; started < workers; started++)
		if (pthread_create(&tid[started], NULL, worker, &p))
			break;
	if (!started) /* no thread at all: this one does the work */
		worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&p.lock);
	ret = report(jobs, nr);
	for (int i = 0; i < nr; i++)
		free(jobs[i].msg);
	return ret;
}
