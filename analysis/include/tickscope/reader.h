/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The perf.data reader: file mode (PERFILE2) and pipe mode, zstd-compressed records, attrs and
 * ids, tracing data, feature sections, comm/lost side-band, and time ordering per round.
 */
#ifndef TICKSCOPE_READER_H
#define TICKSCOPE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/info.h"

struct ts_reader;
struct ts_sha256;

/* One event attr as recorded, with the ids the kernel gave it. */
struct ts_attr {
	uint32_t type; /* PERF_TYPE_* */
	uint64_t config; /* tracepoint id for PERF_TYPE_TRACEPOINT */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint32_t sample_regs_user_nr, sample_regs_intr_nr;
	int sample_id_all;
	char name[64]; /* "sched:sched_switch"; from the event_desc feature, or the format */
	uint64_t nr_samples; /* counted while reading */
	uint64_t nr_lost_samples; /* from LOST_SAMPLES records naming this attr */
	int index;
	/*
	 * 1 + the index of an earlier tracepoint attr of the same tracepoint and the same hits, or
	 * 0: the same sample period (or frequency) and the same exclude_user and exclude_kernel
	 * (the :u and :k modifiers), so that the kernel samples each hit in both.
	 */
	int same_as;
	uint64_t hits; /* sample_period or sample_freq, freq at bit 63: same_as compares it */
	/*
	 * No sample period nor frequency: the kernel writes no samples for it. A member of a
	 * leader-sampled group ({a,b}:S) is only counted in its leader's PERF_SAMPLE_READ values.
	 */
	int not_sampled;
	/*
	 * exclude_kernel (the :u modifier): a tracepoint of the kernel fires in kernel mode, which
	 * the kernel then never samples; only a uprobe's fires in user mode.
	 */
	int exclude_kernel;
	int exclude_user;
};

/* A sample, parsed against its attr's sample_type. Pointers are valid in the callback only. */
struct ts_sample {
	const struct ts_attr *attr;
	uint64_t ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	uint32_t raw_size;
	const void *raw;
	uint64_t nr_ips;
	const uint64_t *ips; /* the raw callchain, context markers included */
};

/* Callbacks for ts_reader_run(); each returns 0 to go on or a negative code to stop. */
struct ts_reader_ops {
	int (*sample)(void *ctx, const struct ts_sample *s);
	/* COMM/FORK/EXIT side-band, in time order with the samples (may be NULL) */
	int (*comm)(void *ctx, uint32_t pid, uint32_t tid, const char *comm, uint64_t time,
		    int exec);
	int (*fork)(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
		    uint64_t time);
	int (*exit)(void *ctx, uint32_t pid, uint32_t tid, uint64_t time);
	/* @samples: a LOST_SAMPLES record (per event, time 0), else a LOST record */
	int (*lost)(void *ctx, uint32_t cpu, uint64_t id, uint64_t lost, uint64_t time,
		    int samples);
};

struct ts_reader_opts {
	int unordered; /* deliver in file order (fastest); default is time order */
	size_t bufsize; /* read() size, 0 for the default */
	int threaded; /* time order in a file: scan for runs on a second thread (same result) */
	/*
	 * A pipe-mode stream that ends inside a record is an error. Without it, the records
	 * before the cut are delivered, a warning says where the cut is, and info.cut_at is set.
	 * So is a decompressed (perf record -z) stream that ends inside a record; without it the
	 * bytes are dropped as perf does, a warning names them, and info.z_tail_bytes is set.
	 */
	int strict;
	/*
	 * Bytes of records a round may hold in memory, read once; 0 for TS_ROUND_BUDGET from
	 * the environment, else 1 MiB for an uncompressed file that is read and 8 MiB for the
	 * rest. Past it a file's runs are re-read from the file, and a pipe's or zstd data's
	 * are merged into a temporary file in $TMPDIR.
	 */
	size_t round_budget;
	/*
	 * Read a regular file with read() rather than mapping its data section (as does
	 * TS_MMAP=0 in the environment): the re-read path past the budget, for the tests.
	 */
	int no_mmap;
	/*
	 * An uncompressed file merged in time order is read() rather than mapped, unless
	 * TS_MMAP=1 is in the environment (what tickscope's commands ask: the mapping's page
	 * faults and cache misses cost more than the read's copy, docs/scale.md); -z files and
	 * file order are still mapped.
	 */
	int read_runs;
	/*
	 * A regular file's bytes are hashed into it, in order, as the run reads them: the data
	 * section as the scanner read()s it, the bytes before and after it by pread() (the
	 * header and feature sections, small), so that a caller checks the file's sha256 without
	 * a second read of it (compare). ts_reader_hashed() says whether every byte went in.
	 * NULL: nothing is hashed.
	 */
	struct ts_sha256 *sha256;
	/*
	 * The reader's memory (the round budget's arena, faulted in huge pages) is kept by the
	 * calling thread when the reader closes, for its next reader of the same budget, instead
	 * of unmapped: a caller that opens one run after another (compare's workers) does not
	 * fault and zero it again for each (issue 33). A thread's is unmapped when it exits, or
	 * by ts_reader_arena_release().
	 */
	int keep_arena;
};

/**
 * ts_reader_open() - open a perf.data file and read its headers
 * @rp: out: the reader
 * @path: the file, or "-" for stdin (pipe mode is detected from the magic either way)
 * @opts: may be NULL
 *
 * In file mode this reads the header, attrs and feature sections; in pipe mode it reads up
 * to the first non-header record, so that attrs and tracing data are known before run().
 * Return: 0 or a negative code; ts_reader_error() then says where. *@rp is set even on
 * failure (unless allocation failed), so that the message can be read; close it either way.
 */
int ts_reader_open(struct ts_reader **rp, const char *path, const struct ts_reader_opts *opts);

/** ts_reader_close() - free the reader (NULL is fine) */
void ts_reader_close(struct ts_reader *r);

/** ts_reader_arena_release() - unmap the memory this thread kept (ts_reader_opts.keep_arena) */
void ts_reader_arena_release(void);

/**
 * ts_reader_start() - with opts.threaded, in a file: start the scanning thread now, so that it
 * reads the file while the caller still sets up (its decoder, kallsyms); ts_reader_run() then
 * merges what it found. The scanner does not wait for the merge before it begins (its drains
 * wait for ts_reader_run()); closing the reader without a run stops it. Optional.
 * Return: 0 (started, or left to ts_reader_run()), or a negative code.
 */
int ts_reader_start(struct ts_reader *r);

/**
 * ts_reader_run() - read every record, calling @ops
 * Return: 0 at the end of data, or the first negative code from the data or a callback.
 */
int ts_reader_run(struct ts_reader *r, const struct ts_reader_ops *ops, void *ctx);

/**
 * ts_reader_drop_rounds() - after ts_reader_run(): give back the memory that held the records
 * (the rounds' chunks and runs, the arena, the input's buffers and mapping), so that what comes
 * after the reading (a report) does not add to it; the file's info, attrs and errors stay.
 * ts_reader_run() must not be called again.
 */
void ts_reader_drop_rounds(struct ts_reader *r);

/** ts_reader_attrs() - the attrs; *nr gets their count */
const struct ts_attr *ts_reader_attrs(const struct ts_reader *r, int *nr);
/* The attr whose sample id (PERF_SAMPLE_ID or IDENTIFIER) is @id, or NULL. */
const struct ts_attr *ts_reader_attr_of_id(const struct ts_reader *r, uint64_t id);

/** ts_reader_tracing_data() - the raw tracing data section, or NULL with *len 0 */
const void *ts_reader_tracing_data(const struct ts_reader *r, size_t *len);

/**
 * ts_reader_cut_error() - a pipe-mode stream was cut before what the caller needs (@why,
 * "before its tracing data"): the cut becomes that error. @err gets one line, "PATH: offset
 * OFF: the input was cut here, WHY: WHAT", and the cut's warning is taken back so that it is
 * not said twice.
 * Return: the offset of the cut, or 0 (nothing written) when the stream was not cut.
 */
uint64_t ts_reader_cut_error(struct ts_reader *r, const char *why, char *err, size_t len);

/** ts_reader_info() - header facts and counters (counters are final after run()) */
const struct ts_file_info *ts_reader_info(const struct ts_reader *r);

/**
 * ts_reader_offset() - where the tracing data was found, or (without one) where the reader
 * stopped looking for it: the header's feature bits in file mode, the stream in pipe mode
 */
uint64_t ts_reader_offset(const struct ts_reader *r);

/** ts_reader_last_offset() - the offset of the record delivered last (or being delivered) */
uint64_t ts_reader_last_offset(const struct ts_reader *r);

/**
 * ts_reader_hashed() - after ts_reader_run() with opts.sha256: whether every byte of the file,
 * *@size of them, went into it in order (not for a pipe, a -z file or a run that stopped on
 * an error: the caller hashes the file itself then)
 * Return: 1 or 0
 */
int ts_reader_hashed(const struct ts_reader *r, long long *size);

/**
 * ts_reader_error() - a message for the last error: the file, the byte offset and what was
 * wrong there, e.g. "perf.data: offset 0x1a2b0: record size 0 at PERF_RECORD_SAMPLE".
 */
const char *ts_reader_error(const struct ts_reader *r);

#endif
