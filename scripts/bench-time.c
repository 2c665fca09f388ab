// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-time -o FILE CMD [ARG]...: run CMD and write one line to FILE, "KB USER SYS WALL": its
 * peak RSS in KB and its user, system and wall seconds. The wall time runs from the fork to
 * the wait that reaps CMD, so that it is CMD's own (its exec and exit included), not the
 * shell's `date` and /usr/bin/time processes around it: on a loaded 2-core VM those cost 15 ms
 * (calm) to 90 ms (load 25), the same for both sides of a ratio, which pulls every ratio of
 * short commands toward 1 (issue 33). The exit status is CMD's, or 127 when it cannot be run.
 * Built by the bench scripts (bench-lib.sh) with the C compiler; /usr/bin/time stands in when
 * there is none.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	const char *out;
	double wall;
	int status, bad;
	FILE *f;
	pid_t pid;

	if (argc < 4 || strcmp(argv[1], "-o")) {
		fprintf(stderr, "usage: bench-time -o FILE CMD [ARG]...\n");
		return 2;
	}
	out = argv[2];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "bench-time: fork: %s\n", strerror(errno));
		return 127;
	}
	if (!pid) {
		execvp(argv[3], argv + 3);
		fprintf(stderr, "bench-time: %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "bench-time: wait4: %s\n", strerror(errno));
			return 127;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	f = fopen(out, "w");
	bad = !f || fprintf(f, "%ld %.6f %.6f %.6f\n", ru.ru_maxrss, seconds(&ru.ru_utime),
			    seconds(&ru.ru_stime), wall) < 0;
	if ((f && fclose(f)) || bad) {
		fprintf(stderr, "bench-time: %s: %s\n", out, strerror(errno));
		return 127;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
