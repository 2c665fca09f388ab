// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-stall [-o FILE] [-n COUNT] STOP_US PERIOD_US PID CMD [ARG]...: run CMD and, while it
 * runs, stop process PID (SIGSTOP) for STOP_US microseconds at the start of every PERIOD_US,
 * then let it go on (SIGCONT), at most COUNT times (no limit without -n); PID is let go when CMD
 * ends. FILE gets one line, "STALLS MEDIAN_US MAX_US": the stops made and how long PID was
 * held, from the return of kill(SIGSTOP) to that of kill(SIGCONT). The exit status is CMD's,
 * or 127 when it cannot be run.
 *
 * scripts/bench-record.sh gives both recorders the same stalls with it. A shell loop of
 * `pkill -STOP; sleep 0.005; pkill -CONT` held the recorder far longer than asked on a loaded
 * machine (two pkill scans of /proc and three fork+execs per stall: 113-290 ms, median 192 ms,
 * for "5 ms" at load 25), so that the events lost measured the load, not the recorder. The
 * times here are absolute (clock_nanosleep, TIMER_ABSTIME) and this process asks for
 * SCHED_FIFO where allowed, so that its wakeups are on time whatever else runs; it sleeps
 * between them. -n gives both recorders the same number of stops: without it a recorder that
 * slows CMD (a run 10% longer on a calm machine) was stopped more often, and lost more events
 * in all while losing fewer in each stop.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_STALLS 100000

static void add_us(struct timespec *t, long us)
{
	t->tv_nsec += (us % 1000000) * 1000;
	t->tv_sec += us / 1000000 + t->tv_nsec / 1000000000;
	t->tv_nsec %= 1000000000;
}

static long us_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000 + (b->tv_nsec - a->tv_nsec) / 1000;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench-stall [-o FILE] [-n COUNT] STOP_US PERIOD_US PID CMD [ARG]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct timespec next, t0, t1;
	const char *out = NULL;
	long stop_us, period_us, *held, count = MAX_STALLS;
	int st = 0, n = 0, i = 1;
	pid_t pid, child;
	FILE *f;

	for (; argc - i > 1 && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-o"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "-n") && atol(argv[i + 1]) > 0)
			count = atol(argv[i + 1]) < MAX_STALLS ? atol(argv[i + 1]) : MAX_STALLS;
		else
			usage();
	}
	if (argc - i < 4)
		usage();
	stop_us = atol(argv[i]);
	period_us = atol(argv[i + 1]);
	pid = (pid_t)atol(argv[i + 2]);
	if (stop_us <= 0 || period_us <= stop_us || pid <= 0)
		usage();
	held = calloc(MAX_STALLS, sizeof(*held));
	if (!held)
		return 127;
	/* on time under load; the child (CMD) goes back to the default policy */
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		sp.sched_priority = 0;
	child = fork();
	if (child < 0)
		return 127;
	if (!child) {
		sp.sched_priority = 0;
		sched_setscheduler(0, SCHED_OTHER, &sp);
		execvp(argv[i + 3], argv + i + 3);
		_exit(127);
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (waitpid(child, &st, WNOHANG) == child)
			break;
		if (n >= count) {
			/* the stops asked for are made: wait for CMD */
			if (waitpid(child, &st, 0) == child)
				break;
			if (errno != EINTR)
				return 127;
			continue;
		}
		if (kill(pid, SIGSTOP))
			break; /* the recorder is gone */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		add_us(&next, stop_us);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		kill(pid, SIGCONT);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (n < MAX_STALLS)
			held[n++] = us_between(&t0, &t1);
		add_us(&next, period_us - stop_us);
		/* a late wakeup starts the next period from now, not in a burst of stops */
		if (us_between(&next, &t1) > 0)
			next = t1;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	kill(pid, SIGCONT);
	if (waitpid(child, &st, 0) < 0 && errno != ECHILD)
		return 127;
	qsort(held, (size_t)n, sizeof(*held), cmp_long);
	f = out ? fopen(out, "w") : stderr;
	if (f) {
		fprintf(f, "%d %ld %ld\n", n, n ? held[n / 2] : 0, n ? held[n - 1] : 0);
		if (out)
			fclose(f);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}
