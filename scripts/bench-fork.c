// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench's fork-heavy workload (issue 33, goal 3): N short-lived tasks, one after another,
 * so that a trace of it has N + 1 distinct tasks whatever else the machine runs. Each child is
 * made with vfork() and exits at once, or execs PROGRAM: on this project's loaded 2-core VM a
 * fork and exec of /bin/true took 40-60 ms of wall time, vfork() and _exit() 0.15 ms.
 * The known answer: N sched_process_fork events from this process, N + 1 sched_process_exit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long n, i;
	char *end;
	pid_t pid;

	if (argc < 2 || !*argv[1]) {
		fprintf(stderr, "usage: %s N [PROGRAM [ARG...]]\n", argv[0]);
		return 2;
	}
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || *argv[1] == '-') {
		fprintf(stderr, "%s: %s: not a count\n", argv[0], argv[1]);
		return 2;
	}
	for (i = 0; i < n; i++) {
		pid = vfork();
		if (pid < 0) {
			fprintf(stderr, "%s: vfork: %s\n", argv[0], strerror(errno));
			return 1;
		}
		if (!pid) {
			if (argc > 2)
				execv(argv[2], argv + 2);
			_exit(argc > 2 ? 127 : 0);
		}
		if (waitpid(pid, NULL, 0) < 0) {
			fprintf(stderr, "%s: waitpid: %s\n", argv[0], strerror(errno));
			return 1;
		}
	}
	return 0;
}
