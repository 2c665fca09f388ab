/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The source's private state, shared by source.c (reading, decoding, symbols) and worker.c
 * (the worker thread and the kallsyms thread).
 */
#ifndef TS_SOURCE_PRIV_H
#define TS_SOURCE_PRIV_H

#include <pthread.h>
#include <stdint.h>

#include "comm.h"
#include "pipe.h"
#include "tickscope/source.h"

#define MAX_IPS 512
#define MAX_TP_IDS 65536
#define KIND_UNKNOWN 0xff
#define WORKER_RING (4u << 20)

enum { WMSG_SAMPLE = 1, WMSG_EVENT };

/* A tracepoint sample on its way to the worker: its kernel stack, then its payload. */
struct wmsg_sample {
	uint32_t type;
	uint32_t tp_id;
	uint64_t time;
	uint64_t off;
	int32_t cpu, tid;
	uint32_t raw_size, nr_ips;
	uint64_t ips[];
};

/* A side-band event (COMM, LOST), already typed. */
struct wmsg_event {
	uint32_t type;
	uint32_t pad;
	struct ts_event ev;
};

struct ts_source {
	struct ts_source_opts opts;
	struct ts_reader *reader;
	struct ts_decoder *dec;
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
	uint64_t werr_off; /* the offset of the sample the worker failed on */
	char werr[400]; /* the worker's message; the producer writes err */
	const char *ksyms_path; /* the table a thread of its own loads meanwhile */
	char cache_path[4096]; /* perf's build-id cache copy, when the table comes from it */
	const char *print_path; /* the printer's kallsyms, set at the first sample */
	int64_t ksyms_shift; /* how far the table was moved to the recording boot */
	const char *table_path; /* the file the reports' table comes from */
	int ksyms_checked;
	char kwarn[400]; /* a kallsyms that does not fit the recording, "" if none */
	int ksyms_moved;
	pthread_t ksyms_thread;
	int ksyms_started, ksyms_ret;
	char ksyms_err[400];
	int inline_ret; /* without a worker thread: the first error of the samples fed inline */
	uint64_t nr_bad; /* samples that did not decode, with opts.keep_going */
	char bad_first[400];
};

int ts_source_fail(struct ts_source *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A kallsyms file into @kp; @err gets what went wrong. */
int ts_source_load_ksyms(struct ts_ksyms **kp, const char *path, char *err, size_t len);

/* Decode one tracepoint payload into @ev; @err gets what went wrong. */
int ts_source_decode(struct ts_source *s, int tp_id, const void *raw, uint32_t raw_size,
		     const uint64_t *ips, uint64_t nr_ips, struct ts_event *ev, char *err,
		     size_t errlen);

/* Wait for the kallsyms thread, if one runs; Return: its result. */
int ts_source_ksyms_join(struct ts_source *s);

#endif
