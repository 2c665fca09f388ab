/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to `tickscope record`: the tracepoint list from tracefs, the ring reading, and the
 * recording's state.
 */
#ifndef TS_CLI_RECORD_H
#define TS_CLI_RECORD_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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
struct rec_queue;

/*
 * Copy every record the kernel has written to @map's ring since the last call into @q in one
 * piece (a record across the ring's end whole) and give the ring's space back at once, as
 * perf record does; the records between the last look at the ring's head and the next stay in
 * the ring for the next call. Add the records that crossed the ring's end to *@wrapped. Return
 * the bytes copied (0 for an empty or unmapped ring), -EIO when the record sizes do not tile
 * what the kernel wrote, or the writer's error.
 */
long rec_ring_drain(struct perf_mmap *map, struct rec_queue *q, uint64_t *wrapped);

/* The descriptor whose poll says @map's ring crossed its wakeup mark. */
int rec_ring_fd(const struct perf_mmap *map);

struct perf_evsel;

/**
 * rec_evsel_release() - free an event's ids and put its CPU and thread maps, which libperf
 * 6.1's perf_evsel__delete() leaves behind; call after perf_evlist__close(), before the delete
 * @evsel: the event
 */
void rec_evsel_release(struct perf_evsel *evsel);

/*
 * Whole perf records handed from the thread that drains the rings (the reader) to the one that
 * writes them (the writer), in order; the reader never waits for a write, only for room.
 */
struct rec_queue {
	pthread_mutex_t lock;
	pthread_cond_t more, room; /* the writer waits for records, the reader for room */
	unsigned char *buf;
	size_t cap; /* bytes, a multiple of 8 */
	size_t wake; /* the writer is woken once this many bytes are queued */
	uint64_t head, tail; /* bytes published by the reader, released by the writer (lock) */
	int done, err; /* the reader's end, the writer's failure (lock) */
	int writer_waits; /* (lock) */
	uint64_t whead, limit; /* the reader's own: bytes put, and how far it may put unasked */
	size_t wpad; /* the reader's own: the pad before the bytes reserved last */
};

/* A queue of @cap bytes (at least 128 KiB). 0 or -ENOMEM. */
int rec_queue_init(struct rec_queue *q, size_t cap);
void rec_queue_free(struct rec_queue *q);

/*
 * The reader's side. rec_queue_put() copies one record in (waiting for room when the queue is
 * full) and returns 0 or the writer's error; rec_queue_publish() makes what was put visible to
 * the writer (woken once a quarter of the queue waits) and returns the writer's error, if any;
 * rec_queue_close() publishes the rest and ends the queue.
 */
int rec_queue_put(struct rec_queue *q, const void *rec);

/*
 * rec_queue_reserve() returns @len contiguous bytes (a multiple of 8, at most half the queue)
 * for the reader to fill with whole records, waiting for room as rec_queue_put() does: NULL
 * with *@err the writer's error, or -EINVAL for a length it cannot take; rec_queue_commit()
 * adds the @len bytes filled to what was put.
 */
void *rec_queue_reserve(struct rec_queue *q, size_t len, int *err);
void rec_queue_commit(struct rec_queue *q, size_t len);
int rec_queue_publish(struct rec_queue *q);
void rec_queue_close(struct rec_queue *q);

/*
 * The writer's side. rec_queue_take() waits until a quarter of the queue is waiting, the
 * reader has closed it, or @ms have passed, and sets [@from, @to) to the published bytes: 0
 * once the queue is closed and empty, else 1 (the range may be empty). rec_queue_at() returns
 * the record at *@pos (moved over a pad); rec_queue_release() gives the bytes before @to back.
 * rec_queue_fail() tells the reader that writing failed with @err.
 */
int rec_queue_take(struct rec_queue *q, int ms, uint64_t *from, uint64_t *to);
const void *rec_queue_at(const struct rec_queue *q, uint64_t *pos);
void rec_queue_release(struct rec_queue *q, uint64_t to);
void rec_queue_fail(struct rec_queue *q, int err);

/*
 * Ask the scheduler (EEVDF, Linux 6.12 and later) for a slice of @ns for the calling thread, so
 * that it is run soon after it wakes; unprivileged, ignored by older kernels. Real-time and
 * idle policies are left alone. 0 or a negative errno.
 */
int rec_short_slice(uint64_t ns);

/*
 * The calling thread (the ring reader) at real-time priority @rtprio (SCHED_FIFO) when it is
 * above 0 and allowed (root, CAP_SYS_NICE or RLIMIT_RTPRIO): return 1; else with a short
 * slice of @slice_ns (rec_short_slice()): 0, or -1 when neither could be had.
 */
int rec_reader_priority(int rtprio, uint64_t slice_ns);

struct perf_evlist;
struct perf_cpu_map;
struct pollfd;
struct id_map;

/* One recording: its command line (record_options.c), then what it opened and counts. */
struct rec {
	struct rec_events ev;
	const char *cpus;
	const char *pids, *tids; /* -p, -t */
	int all; /* -a given */
	int per_task; /* follow tasks (CMD or -p/-t), not whole CPUs */
	int pages, callchain;
	int rtprio; /* -r: the ring reader's SCHED_FIFO priority, 0 for none */
	const char *out;
	int report;
	const char *interval; /* --interval, for the report */
	char **cmd;
	const char *tracefs;
	struct perf_evlist *evlist;
	struct perf_evsel **evsel; /* ev.nr of them, in ev.name order */
	struct perf_evsel *track; /* the task records' event, enabled from its open, or NULL */
	struct perf_cpu_map *cpu_map;
	struct perf_thread_map *threads;
	struct ts_writer *w;
	int fd, rfd; /* the output, the report's pipe */
	char *tmp; /* the output until its header is written, so a failed start leaves none */
	int out_set;
	uint64_t *samples; /* per event */
	uint64_t other, lost; /* the writer's */
	uint64_t wrapped; /* the reader's: records that crossed the end of their ring */
	size_t pass_max; /* the most bytes one ring gave in the last pass */
	struct rec_queue q; /* from the reader thread to the writer */
	int read_err;
	struct pollfd *pfd; /* one per ring, then the tick: the reader's sleep */
	int nr_pfd;
	int tick; /* the reader's periodic timerfd, or -1 */
	struct id_map *ids; /* sorted by id: which event a sample's IDENTIFIER names */
	size_t nr_ids;
	uint64_t comm_id; /* the first event's id on the first CPU */
	pid_t child, reporter;
	int go, errfd; /* CMD's start signal and its exec error (start_cmd) */
	int cmd_status; /* CMD's exit status once it ended (128 + N: signal N), as perf's */
};

/*
 * The command line into @r, checked (the events against tracefs, -o, the targets). Return 0
 * to record, -1 after --help, 1 or 2 (a command-line mistake) for an error already said.
 */
int rec_parse(struct rec *r, int argc, char **argv);

/* -o FILE: a regular file or none yet, writable; 0, else 1 with the error said. */
int rec_check_output(const char *out);

#endif
