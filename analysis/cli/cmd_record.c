// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope record: tracepoints on every CPU through libperf into a perf.data that perf 6.1
 * reads (file or pipe mode), for boards without a working perf; --report feeds the models live.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>

#include "cli.h"
#include "record.h"
#include "tickscope/error.h"
#include "tickscope/writer.h"
#include "tickscope/version.h"

int cmd_record(int argc, char **argv);

#define PERF_RECORD_FINISHED_ROUND 68 /* perf's user record type */
#define QUEUE_MIN (4 << 20)
#define ROUND_BYTES (256 << 10) /* the writer closes a round at least this often */
#define WRITER_WAIT_MS 50 /* the writer writes at least this often while records come */
#define READER_SLICE_NS 100000 /* the shortest slice EEVDF grants */
#define READER_TICK_NS 100000000 /* the reader looks at every ring at least this often */

struct id_map {
	uint64_t id;
	int event;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int libperf_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	return 0; /* errors come back as return values; we say them once, in our words */
}

/*
 * A ring's wakeup mark, bytes: an eighth of it (perf record keeps the kernel's default, half).
 * A wakeup of the reader costs about 30 us of CPU on this project's VM (two context switches,
 * the poll, and its own sched_waking, sched_wakeup and switches in the rings it drains): a
 * sixteenth, the mark before, woke it 7-8 times as often as perf record wakes at -m 8, for as
 * much CPU as perf record or more. A higher mark leaves more of the ring already taken when the
 * reader is stopped (a loaded machine's stall): stopped as make bench's -m 8s stops it, a
 * quarter lost more than a sixteenth, an eighth no more (docs/record.md, "The wakeup mark").
 */
static size_t wake_mark(const struct rec *r)
{
	return (size_t)r->pages * (size_t)sysconf(_SC_PAGESIZE) / 8;
}

static int has_track(const struct rec *r);

static void fill_attr(const struct rec *r, int i, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = r->ev.id[i];
	a->sample_period = 1;
	/* perf record -a's layout for tracepoints; IDENTIFIER first finds the attr */
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW |
			 (r->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	a->read_format = PERF_FORMAT_ID;
	a->disabled = 1;
	a->sample_id_all = 1;
	/* wake at an eighth of the ring, not the kernel's default half (wake_mark()) */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)wake_mark(r);
	/*
	 * The task records that give perf its comm names: from the first event when it is
	 * enabled by CMD's exec, else from the tracking event (track_attr()).
	 */
	a->comm = a->task = a->comm_exec = i == 0 && !has_track(r);
	/* following tasks, as perf record -- CMD: their children too, CMD from its exec on */
	a->inherit = r->per_task;
	a->enable_on_exec = r->per_task && !r->pids && !r->tids;
}

/*
 * Whether the task records come from an event of their own, enabled from its open: always but
 * with CMD followed alone, whose events its exec enables (CMD is held until they are open, so
 * nothing forks before).
 */
static int has_track(const struct rec *r)
{
	return !r->per_task || r->pids || r->tids;
}

/*
 * The tracking event, as perf record -a's dummy: a software event that counts nothing and
 * samples nothing, opened enabled on the same CPUs and tasks as the tracepoints, before the
 * running tasks are read from /proc, and only it asks for COMM, FORK and EXIT records. The
 * tracepoints are enabled after that reading: a task forked in between (a child of -p PID,
 * inheriting the disabled tracepoints, or any task with -a) had samples but no FORK nor COMM
 * record, and no name ("sh" forking "sleep"s under -p: 2 attaches in 9). perf record -p has
 * the same gap; its -a has the dummy. Same sample type as the tracepoints: the file lists its
 * ids with the first event's, whose attr it describes (comm and task set).
 */
static void track_attr(const struct rec *r, struct perf_event_attr *a)
{
	fill_attr(r, 0, a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->disabled = 0;
	a->enable_on_exec = 0;
	a->comm = a->task = a->comm_exec = 1;
}

static int open_error(const struct rec *r, int err)
{
	const char *where = r->per_task ? "on the tasks followed" : "on every CPU";
	FILE *f;
	int level = 99;

	if (err == -ESRCH)
		return cli_error("the task to follow is gone: %s", ts_strerror(err));
	if (err != -EACCES && err != -EPERM)
		return cli_error("cannot open the events %s: %s", where, ts_strerror(err));
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 99;
		fclose(f);
	}
	/* raw tracepoint data needs -1 even for one's own tasks */
	return cli_error("no permission to open tracepoints %s (%s): run as root, or set "
			 "/proc/sys/kernel/perf_event_paranoid to -1 (it is %d)",
			 where, ts_strerror(err), level);
}

/* -C: every CPU listed must be online, or the open fails with a bare EINVAL */
static int check_cpus(struct rec *r)
{
	struct perf_cpu_map *online = perf_cpu_map__new(NULL);
	struct perf_cpu cpu;
	int i, bad = -1;

	for (i = 0; online && i < perf_cpu_map__nr(r->cpu_map); i++) {
		cpu = perf_cpu_map__cpu(r->cpu_map, i);
		if (!perf_cpu_map__has(online, cpu) && bad < 0)
			bad = cpu.cpu;
	}
	perf_cpu_map__put(online);
	return bad < 0 ? 0 : cli_error("-C %s: CPU %d is not online", r->cpus, bad);
}

/* -p/-t's threads, CMD's process, or none (whole CPUs: a dummy map of pid -1) */
static int open_threads(struct rec *r)
{
	const char *bad = NULL;
	int err = 0;

	if (r->pids || r->tids) {
		r->threads = rec_threads(r->pids ?: r->tids, !!r->pids, &bad, &err);
		if (err == -EINVAL)
			return cli_error("-%c %s: not a list of %s ids", r->pids ? 'p' : 't',
					 r->pids ?: r->tids, r->pids ? "process" : "thread");
		if (err == -ESRCH)
			return cli_error("-%c %.*s: no such %s", r->pids ? 'p' : 't',
					 (int)strcspn(bad, ","), bad,
					 r->pids ? "process" : "thread");
	} else if (r->per_task) {
		r->threads = perf_thread_map__new_array(1, &r->child);
	} else {
		r->threads = perf_thread_map__new_dummy();
	}
	return r->threads ? 0 : cli_error("%s", ts_strerror(err ?: -ENOMEM));
}

static int open_events(struct rec *r)
{
	struct perf_event_attr attr;
	int i, err;

	libperf_init(libperf_print);
	r->cpu_map = perf_cpu_map__new(r->cpus);
	if (open_threads(r))
		return 1;
	r->evlist = perf_evlist__new();
	r->evsel = calloc((size_t)r->ev.nr, sizeof(*r->evsel));
	r->samples = calloc((size_t)r->ev.nr, sizeof(*r->samples));
	if (!r->cpu_map || !r->threads || !r->evlist || !r->evsel || !r->samples)
		return r->cpu_map || !r->cpus ? cli_error("%s", ts_strerror(-ENOMEM)) :
						cli_error("-C %s: not a CPU list", r->cpus);
	if (check_cpus(r))
		return 1;
	/* the tracking event first: a task forked once the tracepoints are open has its FORK */
	if (has_track(r)) {
		track_attr(r, &attr);
		r->track = perf_evsel__new(&attr);
		if (!r->track)
			return cli_error("%s", ts_strerror(-ENOMEM));
		perf_evlist__add(r->evlist, r->track);
	}
	for (i = 0; i < r->ev.nr; i++) {
		fill_attr(r, i, &attr);
		r->evsel[i] = perf_evsel__new(&attr);
		if (!r->evsel[i])
			return cli_error("%s", ts_strerror(-ENOMEM));
		perf_evlist__add(r->evlist, r->evsel[i]);
	}
	perf_evlist__set_maps(r->evlist, r->cpu_map, r->threads);
	err = perf_evlist__open(r->evlist);
	if (err)
		return open_error(r, err < 0 ? err : -errno);
	err = perf_evlist__mmap(r->evlist, r->pages);
	if (err)
		return cli_error("cannot map %d pages per CPU: %s (try a smaller -m, or raise "
				 "/proc/sys/kernel/perf_event_mlock_kb)",
				 r->pages, ts_strerror(err < 0 ? err : -errno));
	return 0;
}

/* @evsel's kernel ids, one per (CPU, thread), into @ids */
static int read_ids(struct perf_evsel *evsel, int ncpu, int nthr, uint64_t *ids)
{
	struct perf_counts_values c;
	int j, t;

	for (j = 0; j < ncpu; j++) {
		for (t = 0; t < nthr; t++) {
			if (perf_evsel__read(evsel, j, t, &c))
				return -EIO;
			ids[j * nthr + t] = c.id;
		}
	}
	return 0;
}

/*
 * The kernel's id of every (event, CPU), read back through PERF_FORMAT_ID; the tracking
 * event's ids after the first event's, whose attr then asks for the task records.
 */
static int event_ids(struct rec *r, struct ts_wattr *wa)
{
	int i, ncpu = perf_cpu_map__nr(r->cpu_map), nthr = perf_thread_map__nr(r->threads);
	int n = ncpu * nthr, err;
	uint64_t *ids;

	for (i = 0; i < r->ev.nr; i++) {
		ids = calloc((size_t)n * (i == 0 && r->track ? 2 : 1), sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		wa[i].ids = ids;
		wa[i].nr_ids = n;
		wa[i].name = r->ev.name[i];
		wa[i].attr = *perf_evsel__attr(r->evsel[i]);
		err = read_ids(r->evsel[i], ncpu, nthr, ids);
		if (!err && i == 0 && r->track) {
			err = read_ids(r->track, ncpu, nthr, ids + n);
			wa[i].nr_ids += n;
			wa[i].attr.comm = wa[i].attr.task = wa[i].attr.comm_exec = 1;
		}
		if (err)
			return err;
	}
	return 0;
}

static int features(struct rec *r, int argc, char **argv)
{
	struct ts_blob b[7] = { { 0 } };
	static const int id[7] = { TS_WFEAT_TRACING_DATA, TS_WFEAT_HOSTNAME, TS_WFEAT_OSRELEASE,
				   TS_WFEAT_ARCH,	  TS_WFEAT_NRCPUS,   TS_WFEAT_CMDLINE,
				   TS_WFEAT_VERSION };
	struct ts_blob bid = { 0 };
	int i, err;

	err = ts_tracedata_build(&b[0], r->tracefs, (const char *const *)r->ev.name, r->ev.nr);
	if (err)
		return cli_error("%s: cannot read the event formats: %s", r->tracefs,
				 ts_strerror(err));
	err = ts_feat_uname(&b[1], &b[2], &b[3])	 ?:
		      ts_feat_nrcpus(&b[4])		 ?:
		      ts_feat_cmdline(&b[5], argc, argv) ?:
		      ts_blob_string(&b[6], "tickscope " TS_VERSION);
	for (i = 0; !err && i < 7; i++)
		err = ts_writer_feature(r->w, id[i], b[i].p, b[i].len);
	/* the kernel's build id lets perf find its symbols; some kernels have none */
	if (!err && !ts_feat_kernel_build_id(&bid, "/sys/kernel/notes"))
		err = ts_writer_feature(r->w, TS_WFEAT_BUILD_ID, bid.p, bid.len);
	for (i = 0; i < 7; i++)
		ts_blob_free(&b[i]);
	ts_blob_free(&bid);
	return err ? cli_error("%s", ts_strerror(err)) : 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int id_table(struct rec *r, const struct ts_wattr *wa)
{
	size_t n = 0;
	int i, j;

	for (i = 0; i < r->ev.nr; i++)
		n += (size_t)wa[i].nr_ids;
	r->ids = calloc(n ? n : 1, sizeof(*r->ids));
	if (!r->ids)
		return -ENOMEM;
	for (i = 0; i < r->ev.nr; i++)
		for (j = 0; j < wa[i].nr_ids; j++)
			r->ids[r->nr_ids++] = (struct id_map){ wa[i].ids[j], i };
	r->comm_id = wa[0].ids[0];
	qsort(r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
	return 0;
}

/*
 * Fork CMD held on a pipe until the events are enabled; an exec failure comes back as errno
 * on a close-on-exec pipe. In pipe mode CMD's stdout goes to stderr, off the stream.
 */
static int start_cmd(struct rec *r, int *go)
{
	int g[2], e[2], err;
	char c;

	if (pipe2(g, O_CLOEXEC) || pipe2(e, O_CLOEXEC))
		return -errno;
	r->child = fork();
	if (r->child < 0)
		return -errno;
	if (!r->child) {
		close(g[1]);
		close(e[0]);
		if (read(g[0], &c, 1) != 1)
			_exit(127);
		if (r->fd == STDOUT_FILENO || r->report)
			dup2(STDERR_FILENO, STDOUT_FILENO); /* off the stream and the report */
		signal(SIGPIPE, SIG_DFL);
		execvp(r->cmd[0], r->cmd);
		err = errno;
		if (write(e[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(g[0]);
	close(e[1]);
	*go = g[1];
	return e[0];
}

static int go_cmd(struct rec *r, int go, int errfd)
{
	int err = 0;

	if (write(go, "g", 1) != 1)
		err = errno;
	close(go);
	if (!err && read(errfd, &err, sizeof(err)) != sizeof(err))
		err = 0; /* closed by a successful exec */
	close(errfd);
	r->go = r->errfd = -1;
	if (err)
		return cli_error("cannot run %s: %s", r->cmd[0], strerror(err));
	return 0;
}

static void count(struct rec *r, const union perf_event *ev)
{
	struct id_map key = { 0 }, *m;

	if (ev->header.type == PERF_RECORD_LOST) {
		r->lost += ev->lost.lost;
	} else if (ev->header.type == PERF_RECORD_SAMPLE && ev->header.size >= 16) {
		key.id = *(const uint64_t *)((const char *)ev + 8);
		m = bsearch(&key, r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
		if (m)
			r->samples[m->event]++;
		else
			r->other++;
	}
}

/*
 * One pass over every CPU's ring into the queue, closed by a FINISHED_ROUND when it found
 * records. Return the bytes taken, or the writer's error.
 */
static long drain(struct rec *r)
{
	static const struct perf_event_header round = { .type = PERF_RECORD_FINISHED_ROUND,
							.size = sizeof(round) };
	struct perf_mmap *map;
	long n, bytes = 0;
	int err;

	r->pass_max = 0;
	perf_evlist__for_each_mmap(r->evlist, map, false)
	{
		n = rec_ring_drain(map, &r->q, &r->wrapped);
		if (n < 0)
			return n;
		bytes += n;
		if ((size_t)n > r->pass_max)
			r->pass_max = (size_t)n;
	}
	err = bytes ? rec_queue_put(&r->q, &round) : 0;
	return err ?: rec_queue_publish(&r->q) ?: bytes;
}

static int child_done(struct rec *r)
{
	int st;

	if (r->child <= 0)
		return 0;
	if (waitpid(r->child, &st, WNOHANG) != r->child)
		return 0;
	r->child = 0;
	r->cmd_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 1;
}

/* -p/-t: every task followed has exited */
static int tasks_gone(const struct rec *r)
{
	return (r->pids || r->tids) && !rec_threads_alive(r->threads);
}

static void tick_read(int fd)
{
	uint64_t n;

	if (read(fd, &n, sizeof(n)) < 0)
		return; /* nothing to take: it fires again */
}

/*
 * The reader's 0.1 s tick, the last descriptor it polls: a periodic timer armed once. A poll
 * timeout arms a timer at every sleep, and the timer's hrtimer_start is a record in the ring
 * (when timer:hrtimer_start is recorded) at each of the reader's sleeps, about a thousand a
 * second on make bench's recorder workload: a third of the records its sleeps add to the
 * recording. -1 when there is none (poll's timeout is used instead).
 */
static int tick_open(void)
{
	struct itimerspec it = { .it_interval = { 0, READER_TICK_NS },
				 .it_value = { 0, READER_TICK_NS } };
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	if (fd >= 0 && timerfd_settime(fd, 0, &it, NULL)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The reader thread's loop: drain every ring, then sleep until one crosses its mark. */
static int read_rings(struct rec *r)
{
	size_t mark = wake_mark(r);
	long n;
	int last = 0;

	for (;;) {
		n = drain(r);
		if (n < 0)
			return (int)n;
		if (last)
			return 0;
		if (stop || child_done(r) || tasks_gone(r)) {
			child_done(r); /* CMD's end sets stop too: its status, for our exit */
			perf_evlist__disable(r->evlist);
			last = 1;
		} else if (r->pass_max < mark) {
			/*
			 * Sleep until a ring crosses its wakeup mark: the kernel flags a crossing
			 * that happened while we drained, so nothing waits longer than the 0.1 s
			 * tick, and we do not spin on the trickle that idle CPUs make. A pass
			 * that took a mark's worth or more from a ring means records flow fast:
			 * drain again at once, as perf record does. One descriptor a ring: the
			 * kernel wakes every event that shares a ring, each polled one a wait.
			 */
			poll(r->pfd, (nfds_t)r->nr_pfd, r->tick >= 0 ? -1 : 100);
			if (r->tick >= 0 && r->pfd[r->nr_pfd - 1].revents)
				tick_read(r->tick);
		}
	}
}

/* SIGINT, SIGTERM (the user's stop) and SIGCHLD (CMD's end) */
static void ending_signals(sigset_t *sigs)
{
	sigemptyset(sigs);
	sigaddset(sigs, SIGINT);
	sigaddset(sigs, SIGTERM);
	sigaddset(sigs, SIGCHLD);
}

static void *reader(void *arg)
{
	struct rec *r = arg;
	sigset_t sigs;

	/* the signals that end the recording interrupt this thread's poll, not the writer */
	ending_signals(&sigs);
	pthread_sigmask(SIG_UNBLOCK, &sigs, NULL);
	/* run soon after a wakeup, before the rings fill: -r's real-time priority, else a slice */
	rec_reader_priority(r->rtprio, READER_SLICE_NS);
	r->read_err = read_rings(r);
	rec_queue_close(&r->q);
	return NULL;
}

/* The records the reader queued, into the file, counted. */
static int write_batch(struct rec *r, uint64_t pos, uint64_t to)
{
	const union perf_event *ev;
	uint64_t start = pos;
	int err = 0;

	while (!err && pos < to) {
		ev = rec_queue_at(&r->q, &pos);
		pos += ev->header.size;
		/*
		 * A round is closed (written, and the file made valid up to it) at the batch's
		 * end or once ROUND_BYTES are pending; the other markers are copied as they are.
		 */
		if (ev->header.type == PERF_RECORD_FINISHED_ROUND &&
		    (pos == to || pos - start >= ROUND_BYTES)) {
			err = ts_writer_round(r->w);
			start = pos;
		} else {
			count(r, ev);
			err = ts_writer_record(r->w, ev);
		}
	}
	return err;
}

/*
 * The rings are drained on a thread of their own into a queue (the reader), and this thread
 * writes what it queued: a write that blocks delays the file, not the draining.
 */
static int capture(struct rec *r)
{
	size_t ring_bytes = (size_t)r->pages * (size_t)sysconf(_SC_PAGESIZE), qsize;
	int nmaps = 0, err = 0;
	sigset_t sigs, old;
	uint64_t from, to;
	struct perf_mmap *map;
	pthread_t t;

	perf_evlist__for_each_mmap(r->evlist, map, false)
	{
		nmaps++;
	}
	r->pfd = calloc((size_t)nmaps + 1, sizeof(*r->pfd));
	if (!r->pfd)
		return -ENOMEM;
	perf_evlist__for_each_mmap(r->evlist, map, false)
	{
		r->pfd[r->nr_pfd].fd = rec_ring_fd(map);
		r->pfd[r->nr_pfd++].events = POLLIN;
	}
	r->tick = tick_open();
	if (r->tick >= 0) {
		r->pfd[r->nr_pfd].fd = r->tick;
		r->pfd[r->nr_pfd++].events = POLLIN;
	}
	/* room for two full passes (a ring's copy takes at most half the queue), at least 4 MiB */
	qsize = ring_bytes * (size_t)nmaps * 2;
	err = rec_queue_init(&r->q, qsize > QUEUE_MIN ? qsize : QUEUE_MIN);
	if (err)
		return err;
	ending_signals(&sigs);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	err = -pthread_create(&t, NULL, reader, r);
	if (err) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return err;
	}
	while (rec_queue_take(&r->q, WRITER_WAIT_MS, &from, &to)) {
		if (!err && from != to) {
			err = write_batch(r, from, to);
			if (err)
				rec_queue_fail(&r->q, err);
		}
		rec_queue_release(&r->q, to);
	}
	pthread_join(t, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err ?: r->read_err;
}

/* --report: `tickscope report -i -` in a child process, reading the pipe-mode stream */
static int start_reporter(struct rec *r)
{
	char *av[] = { "report", "-i", "-", "--interval", (char *)r->interval, NULL };
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	r->reporter = fork();
	if (r->reporter < 0)
		return -errno;
	if (!r->reporter) {
		signal(SIGINT, SIG_IGN); /* it ends when the stream does */
		signal(SIGPIPE, SIG_DFL);
		dup2(p[0], STDIN_FILENO);
		close(p[1]);
		optind = 0;
		_exit(cmd_report(r->interval ? 5 : 3, av));
	}
	close(p[0]);
	return p[1];
}

/* mkostemp(FILE.XXXXXX) failed with @e: what is wrong with FILE's folder */
static int cannot_create(const char *out, int e)
{
	const char *slash = strrchr(out, '/');
	char *dir = !slash ? strdup(".") : strndup(out, slash == out ? 1 : (size_t)(slash - out));
	struct stat st;
	int ret;

	if (!dir)
		return cli_error("%s", ts_strerror(-ENOMEM));
	if (e == ENOENT && !stat(dir, &st) && S_ISDIR(st.st_mode))
		ret = cli_error("%s: cannot create a file in %s: that folder takes no new files "
				"(a kernel's pseudo file system?)",
				out, dir);
	else
		ret = cli_error("%s: cannot create a file in %s: %s", out, dir, strerror(e));
	free(dir);
	return ret;
}

/* --report alone: the stream goes to the report; with -o FILE as well, to both */
static int open_output(struct rec *r)
{
	struct ts_writer *rw = NULL;
	int rfd;

	if (!r->out_set && !r->report && rec_check_output(r->out))
		return 1;
	if (r->report) {
		rfd = start_reporter(r);
		if (rfd < 0 || ts_writer_open(&rw, rfd, 1))
			return cli_error("cannot start the report: %s", strerror(errno));
		r->rfd = rfd;
		if (!r->out_set) {
			r->w = rw;
			r->out = "the report";
			return 0;
		}
	}
	if (!strcmp(r->out, "-"))
		r->fd = STDOUT_FILENO;
	else if (asprintf(&r->tmp, "%s.XXXXXX", r->out) < 0)
		return cli_error("%s", ts_strerror(-ENOMEM));
	else
		r->fd = mkostemp(r->tmp, O_CLOEXEC);
	if (r->fd < 0) {
		int e = errno;

		free(r->tmp);
		r->tmp = NULL;
		return cannot_create(r->out, e);
	}
	if (r->tmp) {
		mode_t mask = umask(0);

		umask(mask);
		fchmod(r->fd, 0644 & ~mask);
	}
	if (ts_writer_open(&r->w, r->fd, !strcmp(r->out, "-")))
		return cli_error("%s", ts_strerror(-ENOMEM));
	if (rw)
		ts_writer_chain(r->w, rw);
	return 0;
}

static int setup(struct rec *r, int argc, char **argv)
{
	struct ts_wattr *wa = calloc((size_t)r->ev.nr, sizeof(*wa));
	int i, err;

	if (!wa)
		return cli_error("%s", ts_strerror(-ENOMEM));
	/*
	 * The report's process first, so that it holds none of the events nor CMD's pipes; CMD
	 * before the events, which may follow it (held until go_cmd(), enabled by its exec).
	 */
	err = open_output(r);
	if (!err && r->cmd) {
		r->errfd = start_cmd(r, &r->go);
		if (r->errfd < 0)
			err = cli_error("cannot start %s: %s", r->cmd[0], ts_strerror(r->errfd));
	}
	err = err ?: open_events(r) ?: features(r, argc, argv);
	if (!err && (event_ids(r, wa) || id_table(r, wa)))
		err = cli_error("cannot read the events' ids back from the kernel");
	if (!err && (ts_writer_start(r->w, wa, r->ev.nr) || rec_synth_kernel(r->w, r->comm_id) ||
		     rec_synth_comms(r->w, r->comm_id) || ts_writer_round(r->w)))
		err = cli_error("%s: cannot write the header: %s", r->out, strerror(errno));
	for (i = 0; i < r->ev.nr; i++)
		free((void *)wa[i].ids);
	free(wa);
	return err;
}

/*
 * Only a started recording replaces FILE: with CMD, once CMD runs (its exec may fail, and then
 * the user's file stays as it was and the temporary one goes, cleanup()).
 */
static int put_in_place(struct rec *r)
{
	if (!r->tmp)
		return 0;
	if (rename(r->tmp, r->out))
		return cli_error("%s: %s", r->out, strerror(errno));
	free(r->tmp);
	r->tmp = NULL;
	return 0;
}

static void summary(const struct rec *r, int err)
{
	uint64_t n = r->other;
	int i;

	for (i = 0; i < r->ev.nr; i++)
		n += r->samples[i];
	if (err)
		cli_error("%s: %s: the file is valid up to the last complete round "
			  "(%llu bytes of records)",
			  r->out, ts_strerror(err), (unsigned long long)ts_writer_data_size(r->w));
	fprintf(stderr,
		"[ tickscope record: captured %llu samples, %llu lost, %llu records across the "
		"ring's end; %.3f MB of records in %s ]\n",
		(unsigned long long)n, (unsigned long long)r->lost, (unsigned long long)r->wrapped,
		ts_writer_data_size(r->w) / 1e6, r->out);
}

/* Return the report's exit status, 0 without a report. */
static int cleanup(struct rec *r)
{
	int st = 0, i;

	if (r->go >= 0 && r->child > 0)
		close(r->go); /* never started: it exits on the closed pipe */
	if (r->errfd >= 0 && r->child > 0)
		close(r->errfd);
	if (r->child > 0) {
		kill(r->child, SIGTERM);
		waitpid(r->child, NULL, 0);
	}
	if (r->w)
		ts_writer_free(r->w);
	if (r->fd > STDERR_FILENO)
		close(r->fd);
	if (r->tmp)
		unlink(r->tmp);
	free(r->tmp);
	if (r->rfd > STDERR_FILENO)
		close(r->rfd);
	if (r->reporter > 0 && waitpid(r->reporter, &st, 0) == r->reporter)
		st = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	if (r->evlist) {
		perf_evlist__munmap(r->evlist);
		perf_evlist__close(r->evlist);
		for (i = 0; r->evsel && i < r->ev.nr; i++)
			if (r->evsel[i])
				rec_evsel_release(r->evsel[i]);
		if (r->track)
			rec_evsel_release(r->track);
		perf_evlist__delete(r->evlist); /* deletes the evsels too */
	}
	perf_cpu_map__put(r->cpu_map);
	perf_thread_map__put(r->threads);
	rec_events_free(&r->ev);
	free(r->evsel);
	free(r->samples);
	free(r->ids);
	free(r->pfd);
	if (r->tick >= 0)
		close(r->tick);
	rec_queue_free(&r->q);
	return st;
}

int cmd_record(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct rec r = {
		.pages = 128,
		.rtprio = 0,
		.out = "perf.data",
		.fd = -1,
		.rfd = -1,
		.go = -1,
		.errfd = -1,
		.tick = -1,
	};
	int ret, err;

	ret = rec_parse(&r, argc, argv);
	/* a report that ends early is an error return of write(), never a death by signal */
	signal(SIGPIPE, SIG_IGN);
	if (!ret)
		ret = setup(&r, argc, argv);
	if (!ret) {
		/* no SA_RESTART: a signal or a child's exit ends the poll at once */
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGCHLD, &sa, NULL);
		if (!r.per_task || !r.cmd)
			perf_evlist__enable(r.evlist); /* else CMD's exec enables them */
		if (r.cmd)
			ret = go_cmd(&r, r.go, r.errfd);
		if (ret && r.reporter > 0)
			kill(r.reporter, SIGKILL); /* no report of a command that never ran */
		ret = ret ?: put_in_place(&r);
		err = ret ? 0 : capture(&r);
		err = err ?: ts_writer_finish(r.w);
		if (!r.tmp && !ret) /* else no file was written, CMD never ran: nothing to sum up */
			summary(&r, err);
		ret = err ? 1 : ret;
	}
	err = cleanup(&r);
	/*
	 * perf record returns CMD's status: a board's recipe takes a run whose workload failed
	 * as failed by it (workload_status in meta.txt, which compare refuses when not 0)
	 */
	return ret < 0 ? 0 : ret ?: err ?: r.cmd_status;
}
