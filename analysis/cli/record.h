/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to `tickscope record`: the tracepoint list from tracefs and the ring reading. */
#ifndef TS_CLI_RECORD_H
#define TS_CLI_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* The tracepoints to record, expanded from -e lists ("sched:*,timer:hrtimer_start"). */
struct rec_events {
	char **name; /* "system:event" */
	uint64_t *id; /* tracefs ids */
	int nr, alloc;
	char **missing; /* valid names the running kernel lacks: listed, not recorded */
	int nr_missing, missing_alloc;
};

/*
 * The tracefs mount in use: /sys/kernel/tracing, or the old debugfs place. NULL when tracefs is
 * not mounted (@err -ENOENT) or not readable (@err -EACCES).
 */
const char *rec_tracefs(int *err);

/*
 * Add the tracepoints of one -e argument (a comma list; a '*' or '?' matches within a system or
 * an event name). Return 0; -EINVAL for a name that is not system:event (@bad is set to it).
 */
int rec_events_add(struct rec_events *e, const char *tracefs, const char *arg, const char **bad);
void rec_events_free(struct rec_events *e);

struct ts_writer;

/* The kernel's text MMAP and a COMM for every running thread; trailers name event @id. */
int rec_synth_kernel(struct ts_writer *w, uint64_t id);
int rec_synth_comms(struct ts_writer *w, uint64_t id);

struct perf_thread_map;

/*
 * The threads of -p LIST (@process: every thread of each process) or -t LIST. NULL with @err
 * -EINVAL (not a list of ids) or -ESRCH (no such task), @bad pointing at the id; -ENOMEM.
 */
struct perf_thread_map *rec_threads(const char *list, int process, const char **bad, int *err);

/* Whether any thread of @map still runs. */
int rec_threads_alive(struct perf_thread_map *map);

struct perf_mmap;
union perf_event;

/*
 * The record perf_mmap__read_event() just returned, whole. libperf 6.1 copies a record that
 * wraps the end of the ring into a buffer but copies only sizeof(union perf_event) (4,168)
 * bytes of it; such a record is copied again from the ring into @buf (@len bytes).
 */
union perf_event *rec_ring_mend(struct perf_mmap *map, union perf_event *ev, void *buf, size_t len);

struct perf_evsel;

/**
 * rec_evsel_release() - free an event's ids and put its CPU and thread maps, which libperf
 * 6.1's perf_evsel__delete() leaves behind; call after perf_evlist__close(), before the delete
 * @evsel: the event
 */
void rec_evsel_release(struct perf_evsel *evsel);

#endif
