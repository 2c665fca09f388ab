// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several inputs worked on in parallel (compare's runs, plot's files): one worker per core
 * takes the next job, in input order or the largest first; each job's messages are kept and
 * printed in input order, so the output is the serial one.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "jobs.h"

struct job {
	char *msg;
	size_t len;
	int err, done;
};

struct pool {
	struct job *jobs;
	int nr;
	int (*fn)(void *ctx, int i);
	void *ctx;
	const int *order; /* the jobs in the order they are taken */
	pthread_mutex_t lock; /* guards next and first_bad */
	int next; /* the next place in order to take */
	int first_bad; /* the first failed job so far; nr: none */
};

/* One job, its messages into its own stream. */
static void run_one(struct pool *p, int i)
{
	struct job *j = &p->jobs[i];
	FILE *f = open_memstream(&j->msg, &j->len);

	cli_set_err(f);
	j->err = p->fn(p->ctx, i);
	cli_set_err(NULL);
	if (f)
		fclose(f);
	j->done = 1;
}

/*
 * Jobs after a failed one (in input order) are not started: serial work would have stopped
 * there. Those before it still are, whatever the order they are taken in.
 */
static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		int i = -1;

		pthread_mutex_lock(&p->lock);
		while (i < 0 && p->next < p->nr) {
			i = p->order[p->next++];
			i = i < p->first_bad ? i : -1;
		}
		pthread_mutex_unlock(&p->lock);
		if (i < 0)
			return NULL;
		run_one(p, i);
		if (p->jobs[i].err) {
			pthread_mutex_lock(&p->lock);
			if (i < p->first_bad)
				p->first_bad = i;
			pthread_mutex_unlock(&p->lock);
		}
	}
}

/*
 * AddressSanitizer's allocator (GCC 12's) has no fork handler: a child forked while another
 * thread holds its lock (tracedata.c's format probe forks) waits forever. Sanitized builds
 * work on one input at a time; glibc's malloc is fork-safe.
 */
#if defined(__SANITIZE_ADDRESS__)
#define FORK_SAFE_MALLOC 0
#else
#define FORK_SAFE_MALLOC 1
#endif

int cli_jobs_workers(int asked, int nr)
{
	const char *env = getenv("TS_JOBS");
	char *end = NULL;
	long n;

	if (asked > 0) {
		n = asked;
	} else if (env && *env) {
		n = strtol(env, &end, 10);
		if (*end || n < 1 || n > INT_MAX)
			return -cli_error("TS_JOBS: bad number '%s' (%s)", env,
					  "how many inputs at once: 1 or more");
	} else {
		n = sysconf(_SC_NPROCESSORS_ONLN);
	}
	if (n < 1 || !FORK_SAFE_MALLOC)
		n = 1;
	return n < nr ? (int)n : (nr > 0 ? nr : 1);
}

/* The messages of every job up to the first failed one, in input order. */
static int report(const struct job *jobs, int nr)
{
	for (int i = 0; i < nr && jobs[i].done; i++) {
		if (jobs[i].len)
			fwrite(jobs[i].msg, 1, jobs[i].len, stderr);
		if (jobs[i].err)
			return 1;
	}
	return 0;
}

struct sized {
	long long size;
	int i;
};

static int larger_first(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->i - y->i;
}

/* The jobs' order: the largest first, ties in input order; input order without @size. */
static int *job_order(int nr, const long long *size)
{
	struct sized *v = size ? malloc(nr * sizeof(*v)) : NULL;
	int *o = malloc(nr * sizeof(*o));

	if (o && v) {
		for (int i = 0; i < nr; i++)
			v[i] = (struct sized){ size[i], i };
		qsort(v, nr, sizeof(*v), larger_first);
	}
	for (int i = 0; o && i < nr; i++)
		o[i] = v ? v[i].i : i;
	free(v);
	return o;
}

int cli_jobs(int nr, int workers, int (*fn)(void *ctx, int i), void *ctx)
{
	return cli_jobs_sized(nr, workers, fn, ctx, NULL);
}

int cli_jobs_sized(int nr, int workers, int (*fn)(void *ctx, int i), void *ctx,
		   const long long *size)
{
	struct pool p = { .nr = nr, .fn = fn, .ctx = ctx, .first_bad = nr };
	pthread_t tid[CLI_MAX_WORKERS];
	int started = 0, ret, *order = NULL;

	workers = workers > CLI_MAX_WORKERS ? CLI_MAX_WORKERS : workers;
	p.jobs = workers > 1 ? calloc(nr, sizeof(*p.jobs)) : NULL;
	order = p.jobs && nr > 0 ? job_order(nr, size) : NULL;
	if (!order) { /* one worker (or no memory for more): this thread, printing as it goes */
		free(p.jobs);
		for (int i = 0; i < nr; i++)
			if (fn(ctx, i))
				return 1;
		return 0;
	}
	p.order = order;
	pthread_mutex_init(&p.lock, NULL);
	for (; started < workers; started++)
		if (pthread_create(&tid[started], NULL, worker, &p))
			break;
	if (!started) /* no thread at all: this one does the work */
		worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&p.lock);
	ret = report(p.jobs, nr);
	for (int i = 0; i < nr; i++)
		free(p.jobs[i].msg);
	free(p.jobs);
	free(order);
	return ret;
}
