/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the perf.data reader: the on-disk layout that perf writes around the kernel's
 * record ABI (user record types, file header, feature ids), and the reader's internal parts.
 */
#ifndef TS_PERF_FILE_H
#define TS_PERF_FILE_H

#include <linux/perf_event.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "tickscope/reader.h"

/* "PERFILE2" read as a little-endian u64, and the same bytes written by a big-endian host. */
#define TS_PERF_MAGIC 0x32454c4946524550ULL
#define TS_PERF_MAGIC_SWAPPED 0x50455246494c4532ULL
/* "PERFFILE": the first format, read by perf for compatibility, not by us */
#define TS_PERF_MAGIC_V1 0x454c494646524550ULL

/* Record types perf itself writes (PERF_RECORD_USER_TYPE_START = 64 and up). */
enum {
	TS_REC_HEADER_ATTR = 64,
	TS_REC_HEADER_EVENT_TYPE = 65,
	TS_REC_HEADER_TRACING_DATA = 66,
	TS_REC_HEADER_BUILD_ID = 67,
	TS_REC_FINISHED_ROUND = 68,
	TS_REC_ID_INDEX = 69,
	TS_REC_AUXTRACE_INFO = 70,
	TS_REC_AUXTRACE = 71,
	TS_REC_AUXTRACE_ERROR = 72,
	TS_REC_THREAD_MAP = 73,
	TS_REC_CPU_MAP = 74,
	TS_REC_STAT_CONFIG = 75,
	TS_REC_STAT = 76,
	TS_REC_STAT_ROUND = 77,
	TS_REC_EVENT_UPDATE = 78,
	TS_REC_TIME_CONV = 79,
	TS_REC_HEADER_FEATURE = 80,
	TS_REC_COMPRESSED = 81,
	TS_REC_FINISHED_INIT = 82,
	TS_REC_COMPRESSED2 = 83, /* perf 6.16: COMPRESSED with a data size, padded to 8 */
	TS_REC_MAX = 84,
};

/* Feature bits of the file header (and ids of HEADER_FEATURE records in pipe mode). */
enum {
	TS_FEAT_TRACING_DATA = 1,
	TS_FEAT_BUILD_ID = 2,
	TS_FEAT_HOSTNAME = 3,
	TS_FEAT_OSRELEASE = 4,
	TS_FEAT_VERSION = 5,
	TS_FEAT_ARCH = 6,
	TS_FEAT_NRCPUS = 7,
	TS_FEAT_CPUDESC = 8,
	TS_FEAT_CPUID = 9,
	TS_FEAT_CMDLINE = 11,
	TS_FEAT_EVENT_DESC = 12,
	TS_FEAT_COMPRESSED = 27,
	TS_FEAT_MAX = 256,
};

/* The file header: 104 bytes. */
struct ts_file_section {
	uint64_t offset, size;
};

struct ts_file_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct ts_file_section attrs, data, event_types;
	uint64_t features[TS_FEAT_MAX / 64];
};

/* Where the sample fields that ordering and dispatch need sit, precomputed per attr. */
#define TS_LAYOUT_PLAIN_BITS                                                            \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)
enum { TS_LAYOUT_PLAIN = 1, TS_LAYOUT_PLAIN_CHAIN };

struct ts_attr_layout {
	/* byte offsets in a sample's body of the fixed u64 fields, -1 if absent */
	int16_t ip, tid, time, addr, id, stream_id, cpu, period;
	int16_t fixed_len; /* bytes of the fixed fields before READ/CALLCHAIN/RAW */
	uint8_t has_tail; /* anything after RAW (branch stack, regs, ...) */
	/*
	 * perf record's tracepoint samples with -a: IDENTIFIER, IP, TID, TIME, CPU, PERIOD,
	 * then RAW (TS_LAYOUT_PLAIN) or CALLCHAIN and RAW (TS_LAYOUT_PLAIN_CHAIN), each field
	 * at a known place; else 0
	 */
	uint8_t plain;
	int trailer_size; /* sample_id_all trailer of non-sample records, 0 if none */
	int trailer_time; /* offset of TIME from the trailer's start, -1 if absent */
	int trailer_cpu; /* offset of CPU from the trailer's start, -1 if absent */
	int trailer_tid;
};

/*
 * perf's round order. perf flushes, at each FINISHED_ROUND, everything up to the largest
 * timestamp seen before the *previous* round marker; we do the same, so the output order (and
 * what counts as out of order) matches perf script exactly. The scanner keeps the times.
 */
struct ts_queue {
	uint64_t max_time; /* over everything queued so far */
	uint64_t next_flush; /* limit of the next round flush */
	uint64_t last_flush; /* time of the last delivered queued event */
};

/*
 * Memory that runs of records point into: the input as it was read (file mode), or records
 * copied as tagged entries (pipe and zstd input). Freed with its last reference, from either
 * thread; the reader counts the bytes of its live chunks against the round budget.
 */
struct ts_chunk {
	int refs; /* the runs that point here, and the buffer that fills it (atomic) */
	int mapped; /* data maps the input's data section: not counted in held, never spare */
	int arena; /* in the home's arena: never freed, always kept spare */
	size_t alloc; /* bytes at data */
	uint64_t base; /* stream offset of data[0] for input; 0 for tagged entries */
	struct ts_chunks *home;
	struct ts_chunk *next; /* while spare */
	unsigned char *data; /* 8-aligned: just past the struct, or the mapping's first page */
};

/*
 * The reader's chunks: the bytes of the live ones (what the budget measures), and freed ones
 * kept, up to the budget, for the next chunks of their size: a new chunk costs a page fault
 * every 4 KiB (malloc() gives chunks this large back to the kernel), more than the second
 * read that one pass saves. New chunks and the runs' pread() windows are cut from one arena
 * of about the budget, mapped at the first and asked for in huge pages (perf_runs.c).
 */
struct ts_chunks {
	size_t held; /* atomic */
	pthread_mutex_t lock; /* the spares, the arena, the windows */
	struct ts_chunk *spare;
	size_t spare_bytes, keep;
	unsigned char *arena; /* NULL until the first chunk, or when none could be mapped */
	size_t arena_len, arena_used;
	size_t arena_windows; /* windows taken from the arena's end (ts_window_get()) */
	int arena_tried;
	int keep_arena; /* kept by the closing thread for its next reader (ts_reader_opts) */
	void *windows; /* spare pread() windows, a list through their first word */
};

/*
 * A tagged entry, in memory or in the spill file: the record's time and the offset errors
 * name (the COMPRESSED record it came from, in zstd data), then the record, padded to 8.
 */
#define TS_TAG_SIZE 16

/*
 * A sorted run of records: a CPU buffer's worth as perf wrote it (or a part of one). Its
 * records sit in a chunk, or in a file (the input, re-read through a pread() window; or the
 * spill file). Runs are numbered as they arrive: equal times go to the earlier run, which is
 * the file order perf's queue keeps.
 */
struct ts_run {
	uint64_t pos; /* the next record: stream offset, byte of a tagged chunk, or spill offset */
	uint64_t end; /* just past the last record added */
	uint64_t start; /* where a spilled run began: freed from the spill file when used up */
	uint64_t seq;
	uint64_t last; /* while growing: time of the last record added */
	/* the record at pos, once run_peek() loaded it */
	uint64_t time, off;
	const unsigned char *rec;
	uint32_t step; /* bytes from pos to the next entry */
	int tagged; /* entries are tagged (TS_TAG_SIZE): copied records, spilled runs */
	int fd; /* a run in a file (chunk NULL): the input, or the spill file */
	struct ts_chunk *chunk; /* a run in memory: holds a reference */
	unsigned char *buf; /* a file run's window */
	uint64_t buf_off;
	size_t buf_len;
	uint64_t dropped; /* in a mapped input: the pages before this are let go (ts_run_drop()) */
};

struct ts_runs {
	struct ts_run *v;
	struct ts_run **heap;
	size_t nr, alloc;
	int open; /* the last run is still growing */
	uint64_t seq; /* the next run's number */
};

/* A read() buffer over the input, or over the zstd output: a chunk of its own. */
struct ts_inbuf {
	unsigned char *buf; /* chunk->data */
	size_t alloc, start, end;
	uint64_t base; /* stream offset of buf[0] */
	struct ts_chunk *chunk;
	int keep; /* runs may point into this chunk: it was allocated within the budget */
};

#endif
