/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The source's private state, shared by source.c (reading, decoding, symbols) and worker.c
 * (the worker thread and the kallsyms thread).
 */
#ifndef TS_SOURCE_PRIV_H
#define TS_SOURCE_PRIV_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "comm.h"
#include "pipe.h"
#include "tickscope/source.h"

#define MAX_IPS 512
#define MAX_TP_IDS 65536
#define KIND_UNKNOWN 0xff
#define WORKER_RING (4u << 20)

enum { WMSG_SAMPLE = 1, WMSG_EVENT };

/*
 * What the reader's samples of one attr become, worked out at the attr's first sample: not
 * decoded (not a tracepoint with a payload, or the same hits as an earlier attr), decoded
 * without their stack (only switch stacks are used: see ts_source_decode()), or with it.
 */
enum { SRC_ROUTE_UNSET, SRC_ROUTE_DROP, SRC_ROUTE_RAW, SRC_ROUTE_IPS };

/*
 * Whether samples of tracepoint @tp_id keep their kernel stack: only switch stacks are used
 * (see ts_source_decode()), and an id of unknown kind keeps it.
 */
static inline int ts_source_keeps_stack(const uint8_t *kinds, uint64_t tp_id)
{
	int kind = kinds && tp_id < MAX_TP_IDS ? kinds[tp_id] : KIND_UNKNOWN;

	return kind == TS_EV_SWITCH || kind == KIND_UNKNOWN;
}

/* A tracepoint sample on its way to the worker: its kernel stack, then its payload. */
struct wmsg_sample {
	uint32_t type;
	uint32_t tp_id;
	uint64_t time;
	uint64_t off;
	int32_t tid, cpu; /* in struct ts_sample's order: one 8-byte copy */
	uint32_t raw_size, nr_ips;
	uint64_t ips[];
};

/* A side-band event (COMM, LOST), already typed. */
struct wmsg_event {
	uint32_t type;
	uint32_t pad;
	struct ts_event ev;
};

/*
 * How samples are decoded and handed to the callback, set once when a run starts
 * (ts_source_start()) and read by every sample's dispatch (ts_source_feed*()).
 */
enum ts_source_mode {
	TS_SRC_IDLE, /* not started, or finished */
	TS_SRC_INLINE, /* ts_source_run() on the reader's thread: the callback gets the sample */
	TS_SRC_WORKER, /* a worker thread decodes and calls back: ts_source_run() or the plugin */
	TS_SRC_PUSHED, /* the plugin's pushes with no thread to be had: decoded as pushed */
};

struct ts_source {
	struct ts_source_opts opts;
	enum ts_source_mode mode;
	struct ts_reader *reader;
	struct ts_decoder *dec;
	struct ts_decoder *pdec; /* opts.own_printer: the printing thread's, else NULL */
	struct ts_ksyms *ksyms;
	enum ts_kallsyms_from kfrom;
	struct ts_comms comms;
	ts_source_fn fn;
	void *ctx;
	uint64_t ips[MAX_IPS];
	char err[400];

	/* the worker: decoding and @fn on a second thread */
	struct ts_pipe *pipe;
	uint8_t *kinds; /* tracepoint id -> event kind, KIND_UNKNOWN when not known */
	/* the reader's attr index -> what on_sample() does with its samples (SRC_ROUTE_*) */
	uint8_t *routes;
	unsigned int nr_routes;
	/* the reader's attr index -> recorded through a filter (perf_filter.c) */
	uint8_t *filtered;
	int nr_filtered;
	uint64_t werr_off; /* the offset of the sample the worker failed on */
	char werr[400]; /* the worker's message; the producer writes err */
	const char *ksyms_path; /* the table a thread of its own loads meanwhile */
	char cache_path[4096]; /* perf's build-id cache copy, when the table comes from it */
	const char *print_path; /* the printer's kallsyms, set at the first sample */
	int64_t ksyms_shift; /* how far the table was moved to the recording boot */
	const char *table_path; /* the file the reports' table comes from */
	int ksyms_checked;
	char kwarn[400]; /* a kallsyms that does not fit the recording, "" if none */
	/* the own printer's kallsyms: loaded on a thread of its own, pk_state 1 until joined */
	pthread_t pk_thread;
	int pk_state, pk_ret;
	char perr[400]; /* what went wrong there */
	int perr_said; /* ts_decoder_print() returned that error */
	int ksyms_moved;
	pthread_t ksyms_thread;
	int ksyms_started, ksyms_ret;
	/* threads asked, a CPU spare: the plugin's symbol table loads on the kallsyms thread */
	int spare_ok;
	char ksyms_err[400];
	int pushed_ret; /* TS_SRC_PUSHED: the first error of the samples pushed */
	uint64_t nr_bad; /* samples that did not decode, with opts.keep_going */
	char bad_first[400];
};

/*
 * The input as messages name it (ts_source_name()): inline, so that the worker takes no name
 * from source.c (tests/layers.t)
 */
static inline const char *ts_src_name(const struct ts_source *s)
{
	return strcmp(s->opts.input, "-") ? s->opts.input : "<stdin>";
}

int ts_source_fail(struct ts_source *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A kallsyms file into @kp, through @cache when not NULL; @err gets what went wrong
 * (source_ksyms.c, as the four below).
 */
int ts_source_load_ksyms(struct ts_ksyms **kp, const char *path, const char *cache, char *err,
			 size_t len);

/* Choose and load the source's kallsyms once the reader knows the file (ts_source_open). */
int ts_source_load_kallsyms(struct ts_source *s);

/* The printer's symbols, once the kernel's map is known (a thread for the running kernel's). */
int ts_source_set_print_kallsyms(struct ts_source *s);

/* Wait for the printer's kallsyms thread, once; Return: what it loaded with. */
int ts_source_join_printer(struct ts_source *s);

/*
 * Which attrs perf record's command line filtered (--filter, --exclude-perf: perf_filter.c),
 * worked out for the attrs the reader knows so far; Return: 0 or -ENOMEM.
 */
int ts_source_find_filters(struct ts_source *s);

/* Once per source: does kallsyms @k (from @path) fit the recording? A warning if not. */
void ts_source_check_ksyms(struct ts_source *s, const struct ts_ksyms *k, const char *path);

/* The kernel part of a raw callchain, in place or copied into s->ips (source_decode.c). */
const uint64_t *ts_source_kernel_ips(struct ts_source *s, const uint64_t *ips, uint64_t nr_ips,
				     uint32_t *nr);

/* A payload that did not decode: the decoder's message into @err; Return: @ret. */
int ts_source_decode_failed(struct ts_source *s, int ret, char *err, size_t errlen);

/*
 * Decode one tracepoint payload into @ev; @err gets what went wrong. Inline: the worker calls
 * it for every sample, and its own frame cost as much as its work.
 */
static inline int ts_source_decode(struct ts_source *s, int tp_id, const void *raw,
				   uint32_t raw_size, const uint64_t *ips, uint64_t nr_ips,
				   struct ts_event *ev, char *err, size_t errlen)
{
	int ret;

	ev->nr_ips = 0;
	ev->ips = NULL;
	if (s->opts.names_only)
		ret = ts_decoder_name(s->dec, tp_id, raw, raw_size, ev);
	else
		ret = ts_decoder_decode(s->dec, tp_id, raw, raw_size, ev);
	if (ret)
		return ts_source_decode_failed(s, ret, err, errlen);
	/*
	 * only switch-out stacks are used (off-CPU time by stack): skip the scan elsewhere, and
	 * for names alone (dump prints no stack)
	 */
	if (nr_ips && ev->kind == TS_EV_SWITCH && !s->opts.names_only)
		ev->ips = ts_source_kernel_ips(s, ips, nr_ips, &ev->nr_ips);
	return 0;
}

/**
 * ts_source_start() - start a run: the one place that picks the mode
 * @s: the source
 * @mode: TS_SRC_INLINE or TS_SRC_WORKER
 * @pushed: 1 for the plugin's pushes, 0 for ts_source_run()
 * @fn: the callback for each event
 * @ctx: its context
 *
 * A worker that cannot be had (RLIMIT_NPROC) gives TS_SRC_INLINE for ts_source_run(), and
 * TS_SRC_PUSHED for the plugin, which gets -EAGAIN. The plugin's pushes without
 * s->opts.threaded (TS_THREADS=1 not given) are TS_SRC_PUSHED too, without a worker tried.
 * Return: 0 or a negative code, with s->err set.
 */
int ts_source_start(struct ts_source *s, enum ts_source_mode mode, int pushed, ts_source_fn fn,
		    void *ctx);

/**
 * ts_source_feed() - one of the plugin's tracepoint samples, by the run's mode
 * @s: the source
 * @tp_id: the tracepoint's id
 * @time: the sample's time
 * @cpu: its cpu
 * @tid: its task
 * @raw: its payload
 * @raw_size: the payload's size
 * @ips: its callchain, or NULL
 * @nr_ips: the callchain's length
 * @off: its file offset, for messages (UINT64_MAX: unknown)
 *
 * Return: 0, -ECANCELED once the worker has stopped, or the first error of the samples pushed.
 */
int ts_source_feed(struct ts_source *s, int tp_id, uint64_t time, int32_t cpu, int32_t tid,
		   const void *raw, uint32_t raw_size, const uint64_t *ips, uint64_t nr_ips,
		   uint64_t off);

/**
 * ts_source_push_sample() - TS_SRC_WORKER: one of the reader's samples on its way to the worker
 * @s: the source
 * @smp: the reader's sample
 * @nr_ips: how much of its callchain goes with it (at most MAX_IPS)
 * @off: its file offset, for messages
 *
 * Return: 0, or -ECANCELED once the worker has stopped.
 */
int ts_source_push_sample(struct ts_source *s, const struct ts_sample *smp, uint64_t nr_ips,
			  uint64_t off);

/**
 * ts_source_feed_event() - one side-band event (COMM, LOST), by the run's mode
 * @s: the source
 * @ev: the event
 *
 * Return: as ts_source_feed().
 */
int ts_source_feed_event(struct ts_source *s, const struct ts_event *ev);

/**
 * ts_source_stop() - end the run: the worker and the kallsyms thread joined (the only place)
 * @s: the source
 *
 * Return: the worker's (or the pushed samples') first error, or 0.
 */
int ts_source_stop(struct ts_source *s);

/**
 * ts_source_inline_sample() - TS_SRC_INLINE's decoding, on the reader's thread
 * (source_decode.c)
 * @s: the source
 * @smp: the reader's sample
 *
 * Return: 0 or the decoder's or the callback's error.
 */
int ts_source_inline_sample(struct ts_source *s, const struct ts_sample *smp);

#endif
