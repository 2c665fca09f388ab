// SPDX-License-Identifier: GPL-2.0-only
/*
 * `tickscope record`'s tasks to follow, in perf record's conventions: -p PID (every thread of
 * the process, from /proc/PID/task), -t TID, or the command it starts.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/threadmap.h>

#include "record.h"

/* /proc/TID exists for every thread, where kill(TID, 0) may find only thread group leaders */
static int exists(long id)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld", id);
	return !access(path, F_OK);
}

static int push(pid_t **v, int *nr, int *alloc, pid_t id)
{
	pid_t *n;
	int i;

	for (i = 0; i < *nr; i++)
		if ((*v)[i] == id)
			return 0; /* "-p 1,1" or a thread given twice */
	if (*nr == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 16;
		n = realloc(*v, sizeof(**v) * (size_t)*alloc);
		if (!n)
			return -ENOMEM;
		*v = n;
	}
	(*v)[(*nr)++] = id;
	return 0;
}

/* every thread of process @pid; -ESRCH when there is no such process */
static int add_process(pid_t **v, int *nr, int *alloc, long pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	long tid;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	dir = opendir(path);
	if (!dir)
		return -ESRCH;
	while (!err && (d = readdir(dir))) {
		tid = strtol(d->d_name, NULL, 10);
		if (tid > 0)
			err = push(v, nr, alloc, (pid_t)tid);
	}
	closedir(dir);
	return err;
}

struct perf_thread_map *rec_threads(const char *list, int process, const char **bad, int *err)
{
	struct perf_thread_map *map = NULL;
	pid_t *v = NULL;
	int nr = 0, alloc = 0;
	const char *s = list;
	char *end;
	long id;

	*err = 0;
	while (!*err && *s) {
		*bad = s;
		id = strtol(s, &end, 10);
		if (end == s || id <= 0 || id > INT_MAX || (*end && *end != ',')) {
			*err = -EINVAL;
			break;
		}
		if (process)
			*err = add_process(&v, &nr, &alloc, id);
		else if (!exists(id))
			*err = -ESRCH;
		else
			*err = push(&v, &nr, &alloc, (pid_t)id);
		s = *end ? end + 1 : end;
	}
	if (!*err && !nr)
		*err = -EINVAL;
	if (!*err) {
		map = perf_thread_map__new_array(nr, v);
		*err = map ? 0 : -ENOMEM;
	}
	free(v);
	return map;
}

int rec_threads_alive(struct perf_thread_map *map)
{
	int i;

	for (i = 0; i < perf_thread_map__nr(map); i++)
		if (exists(perf_thread_map__pid(map, i)))
			return 1;
	return 0;
}
