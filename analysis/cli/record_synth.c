// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records `tickscope record` writes before the kernel's own, as perf record -a synthesizes
 * them: the kernel's text map and the comm of every thread that already runs. Each carries the
 * sample_id_all trailer of our sample type (TID, TIME, CPU, IDENTIFIER) at time 0.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "record.h"
#include "tickscope/writer.h"

/*
 * The kernel's text as perf places it: from _text, or _stext where kallsyms has no _text (arm64
 * 6.1), to _etext. @ref gets the symbol's name; *start is 0 when addresses are hidden.
 */
static void kernel_text(uint64_t *start, uint64_t *end, const char **ref)
{
	char line[512], name[256];
	unsigned long long a;
	uint64_t stext = 0;
	char type;
	FILE *f = fopen("/proc/kallsyms", "r");

	*start = *end = 0;
	while (f && fgets(line, sizeof(line), f) && (!*start || !*end)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*start = a;
		else if (!strcmp(name, "_stext"))
			stext = a;
		else if (!strcmp(name, "_etext"))
			*end = a;
	}
	if (f)
		fclose(f);
	*ref = *start ? "_text" : "_stext";
	if (!*start)
		*start = stext;
}

int rec_synth_kernel(struct ts_writer *w, uint64_t id)
{
	uint64_t buf[16] = { 0 }, start, end;
	struct perf_event_header *h = (void *)buf;
	const char *ref;

	kernel_text(&start, &end, &ref);
	if (!start)
		return 0; /* addresses hidden: perf prints addresses, as with perf record */
	h->type = PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_KERNEL;
	((uint32_t *)buf)[2] = (uint32_t)-1; /* the host kernel's pid */
	buf[2] = start;
	buf[3] = end > start ? end - start : ~0ULL - start;
	buf[4] = start;
	/* "[kernel.kallsyms]_stext" and its NUL fit the 24 bytes of buf[5..7] */
	snprintf((char *)&buf[5], 24, "[kernel.kallsyms]%s", ref);
	buf[5 + 3 + 3] = id; /* trailer: tid, time, cpu, then the identifier */
	h->size = (5 + 3 + 4) * 8;
	return ts_writer_record(w, buf);
}

/*
 * A COMM record for every thread that runs already, as perf record -a synthesizes them: the
 * kernel reports only comms set while recording.
 */
static int synth_one(struct ts_writer *w, uint64_t id, int pid, int tid, const char *comm)
{
	uint64_t buf[16] = { 0 }, *t;
	struct perf_event_header *h = (void *)buf;
	/* TASK_COMM_LEN with its NUL, as perf's: /proc gives kernel threads longer names */
	size_t n = strnlen(comm, 15);

	h->type = PERF_RECORD_COMM;
	((uint32_t *)buf)[2] = (uint32_t)pid;
	((uint32_t *)buf)[3] = (uint32_t)tid;
	memcpy(&buf[2], comm, n);
	t = &buf[2 + (n + 8) / 8];
	((uint32_t *)t)[0] = (uint32_t)pid;
	((uint32_t *)t)[1] = (uint32_t)tid;
	t[3] = id;
	h->size = (uint16_t)((char *)(t + 4) - (char *)buf);
	return ts_writer_record(w, buf);
}

/*
 * A FORK record before it, as perf synthesizes one: the parent is PPid of /proc/PID/status
 * for a process's main thread (kthreadd, 2, for a kernel thread), the process for its other
 * threads. It tells a kernel thread from a user program (docs/compare.md).
 */
static int synth_fork(struct ts_writer *w, uint64_t id, int pid, int tid, const char *dir)
{
	uint64_t buf[8] = { 0 };
	struct perf_event_header *h = (void *)buf;
	char path[640], line[128];
	int ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/status", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "PPid:", 5))
			ppid = atoi(line + 5);
	if (f)
		fclose(f);
	if (ppid < 0)
		return 0; /* gone, or no status: the COMM alone */
	if (tid != pid)
		ppid = pid;
	h->type = PERF_RECORD_FORK;
	h->size = sizeof(buf);
	((uint32_t *)buf)[2] = (uint32_t)pid;
	((uint32_t *)buf)[3] = (uint32_t)ppid;
	((uint32_t *)buf)[4] = (uint32_t)tid;
	((uint32_t *)buf)[5] = (uint32_t)ppid;
	((uint32_t *)buf)[8] = (uint32_t)pid; /* trailer: tid, time, cpu, identifier */
	((uint32_t *)buf)[9] = (uint32_t)tid;
	buf[7] = id;
	return ts_writer_record(w, buf);
}

int rec_synth_comms(struct ts_writer *w, uint64_t id)
{
	char path[600], comm[32];
	struct dirent *p, *t;
	DIR *proc, *task;
	FILE *f;
	int err = 0, pid, tid;

	proc = opendir("/proc");
	if (!proc)
		return 0; /* no names: perf prints :pid */
	while (!err && (p = readdir(proc))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		while (!err && task && (t = readdir(task))) {
			if (t->d_name[0] < '1' || t->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", p->d_name, t->d_name);
			f = fopen(path, "r");
			if (!f)
				continue; /* the thread is gone */
			if (fgets(comm, sizeof(comm), f)) {
				comm[strcspn(comm, "\n")] = 0;
				*strrchr(path, '/') = '\0'; /* the thread's folder */
				pid = atoi(p->d_name);
				tid = atoi(t->d_name);
				err = synth_fork(w, id, pid, tid, path) ?:
					      synth_one(w, id, pid, tid, comm);
			}
			fclose(f);
		}
		if (task)
			closedir(task);
	}
	closedir(proc);
	return err;
}
