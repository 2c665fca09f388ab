/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The perf.data writer: file mode (valid on disk after every complete round) and pipe mode,
 * plus the feature blobs and the tracing data section that perf 6.1 and tickscope read.
 */
#ifndef TICKSCOPE_WRITER_H
#define TICKSCOPE_WRITER_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct ts_writer;

/* Feature ids of the file header (perf's HEADER_* bits) that the writer knows how to carry. */
enum {
	TS_WFEAT_TRACING_DATA = 1,
	TS_WFEAT_BUILD_ID = 2,
	TS_WFEAT_HOSTNAME = 3,
	TS_WFEAT_OSRELEASE = 4,
	TS_WFEAT_VERSION = 5,
	TS_WFEAT_ARCH = 6,
	TS_WFEAT_NRCPUS = 7,
	TS_WFEAT_CMDLINE = 11,
	TS_WFEAT_EVENT_DESC = 12,
};

/* One event of the file: its attr, its name ("sched:sched_switch") and its kernel ids. */
struct ts_wattr {
	struct perf_event_attr attr;
	const char *name;
	const uint64_t *ids;
	int nr_ids;
};

/* A growing byte buffer, for feature blobs and the tracing data. */
struct ts_blob {
	unsigned char *p;
	size_t len, alloc;
};

/**
 * ts_writer_open() - start a perf.data on @fd
 * @wp: the new writer
 * @fd: a regular file (file mode, written with pwrite) or a pipe (@pipe set)
 * @pipe: write perf's pipe-mode stream (as `perf record -o -`)
 *
 * Return: 0 or a negative error code.
 */
int ts_writer_open(struct ts_writer **wp, int fd, int pipe);

/*
 * Make every later call on @w also go to @next (a file and a live report from one capture);
 * ts_writer_free(@w) frees @next.
 */
void ts_writer_chain(struct ts_writer *w, struct ts_writer *next);

/**
 * ts_writer_feature() - add a feature (before ts_writer_start()); the data is copied
 * @feat: a TS_WFEAT_* id; TS_WFEAT_TRACING_DATA becomes a TRACING_DATA record in pipe mode
 */
int ts_writer_feature(struct ts_writer *w, int feat, const void *data, size_t len);

/**
 * ts_writer_start() - write the header, the attrs with their ids and the features
 *
 * Also adds the EVENT_DESC feature from @attrs. Records follow with ts_writer_record().
 */
int ts_writer_start(struct ts_writer *w, const struct ts_wattr *attrs, int nr);

/* Append one record (its header.size bytes, 8-byte aligned) to the data. */
int ts_writer_record(struct ts_writer *w, const void *rec);

/**
 * ts_writer_round() - close a round: a FINISHED_ROUND record, then (file mode) the header and
 * the feature table are rewritten so that the file on disk is complete up to here.
 *
 * On a failed write (a full disk) the file is cut back to the last complete round, left valid,
 * and the error returned; later calls return it again.
 */
int ts_writer_round(struct ts_writer *w);

/* Flush and finish the file (a last round if records are pending). Does not close the fd. */
int ts_writer_finish(struct ts_writer *w);

/* Bytes of records in the file up to the last complete round. */
uint64_t ts_writer_data_size(const struct ts_writer *w);

void ts_writer_free(struct ts_writer *w);

/* Feature blobs, in perf's on-disk layout. Each appends to @b; 0 or -ENOMEM. */
int ts_blob_add(struct ts_blob *b, const void *p, size_t len);
int ts_blob_string(struct ts_blob *b, const char *s);
int ts_feat_uname(struct ts_blob *host, struct ts_blob *release, struct ts_blob *arch);
int ts_feat_nrcpus(struct ts_blob *b);
int ts_feat_cmdline(struct ts_blob *b, int argc, char **argv);
/* The running kernel's build id from @notes (/sys/kernel/notes); -ENOENT when it has none. */
int ts_feat_kernel_build_id(struct ts_blob *b, const char *notes);
void ts_blob_free(struct ts_blob *b);

/**
 * ts_tracedata_build() - the tracing data section (perf's version 0.6) from tracefs
 * @b: output
 * @tracefs: the tracefs mount ("/sys/kernel/tracing")
 * @events: "system:name" of each recorded tracepoint, @nr of them
 *
 * Return: 0, or a negative error code (-ENOENT when a format file is missing).
 */
int ts_tracedata_build(struct ts_blob *b, const char *tracefs, const char *const *events, int nr);

#endif
