/* SPDX-License-Identifier: GPL-2.0-only */
/* The reader's private state, shared by the perf_*.c files of the perf.data reader. */
#ifndef TS_READER_PRIV_H
#define TS_READER_PRIV_H

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>

#include "perf_file.h"
#include "tickscope/error.h"

#define TS_KERNEL_REF_LEN 32 /* struct ts_file_info's kernel_ref */

struct ts_idmap {
	uint64_t *keys; /* id + 1, so that 0 marks a free slot */
	int *vals;
	size_t alloc, nr;
};

#define TS_ROUND_BUDGET_DEFAULT (8u << 20) /* see ts_reader_opts.round_budget */
/*
 * The default for an uncompressed file read in time order: its runs past the budget are read
 * again through pread() windows, which on this project's VM cost no CPU against a round kept
 * in memory (the bytes kept 50 MB earlier have left the cache by their merge), while each MiB
 * of the budget is a MiB of peak RSS (docs/scale.md, "Memory with many tasks"). Pipe and -z
 * input keep TS_ROUND_BUDGET_DEFAULT: past it they write their runs into a spill file.
 */
#define TS_ROUND_BUDGET_FILE (1u << 20)

#define TS_ERR_LEN 320 /* a reader message: path, offset and what */

/*
 * The scanner's counters and findings: they join the merger's info once the scanner is done
 * (ts_reader_run()), so that it never writes the info the merger hands out.
 */
struct ts_scan_count {
	uint64_t nr_records, nr_out_of_order, nr_unknown_records, spilled_bytes;
	uint64_t max_round_bytes; /* the largest round's queued records */
	uint64_t unknown_off; /* the first unknown record, warned of at the join */
	uint32_t unknown_type;
	int per_task; /* an ID_INDEX named tasks */
	int compressed; /* a COMPRESSED record was met */
	uint64_t cut_at; /* a pipe was cut inside the record here (warned of at the join) */
	char cut_what[160];
	/* the decompressed stream ended inside a record (perf record -z): warned of at the join */
	uint64_t z_tail_off, z_tail_bytes;
	char z_tail_what[80];
	char kernel_ref[TS_KERNEL_REF_LEN]; /* handed on: ts_queue_kernel_ref() */
	uint64_t kernel_ref_addr;
};

/*
 * The scanner's side: reading the input, finding runs and round limits. With opts.threaded in
 * a seekable file it runs on a thread of its own and touches only this struct; it sees the
 * rest of the reader through @r, read-only. What it finds goes on through @pipe (runs,
 * flushes, untimed records, the kernel map, its error); a record that changes the header state
 * (attrs, ids, tracing data) first waits for the merger to go idle: ts_scan_user().
 */
struct ts_scanner {
	const struct ts_reader *r;
	struct ts_reader *deliver; /* this thread also delivers (no scanning thread), else NULL */
	struct ts_pipe *pipe; /* to the merger, while a scanning thread runs */
	struct ts_inbuf in; /* the file or pipe */
	uint64_t data_end; /* stream offset where data stops (file mode), or UINT64_MAX */
	int eof;
	struct ts_scan_count cnt;
	void *zstd; /* ZSTD_DStream *, created on the first COMPRESSED record */
	struct ts_inbuf z; /* decompressed bytes not yet consumed */
	uint64_t z_rec_off; /* file offset of the COMPRESSED record being unpacked */
	struct ts_queue q; /* the scanner keeps q.last_flush as perf would: scan_flushed() */
	struct ts_runs runs; /* the runs being found; merged here, or handed to the merger */
	struct ts_chunk *blk; /* pipe and zstd input: the chunk tagged entries are copied into */
	size_t blk_used;
	int spill_fd; /* pipe and zstd input: runs past the budget, merged into a file; or -1 */
	uint64_t spill_end;
	int sent; /* a flush went to the merger since the scanner last waited for it */
	struct ts_chunks *chunks; /* the reader's */
	uint64_t limit; /* the limit of the previous flush */
	uint64_t round_bytes; /* queued since the last round marker */
	uint64_t flushes_sent; /* flushes sent to the merger */
	uint64_t big_until; /* a round past half the budget is merged once this many flushes are */
	uint64_t le_max; /* this round: the largest time <= q.next_flush, if le_any */
	uint64_t dropped; /* mapped input: in.buf's pages before this are let go */
	struct ts_chunk *map; /* scan_read: the mapped data section, which the runs point into */
	uint64_t checked; /* scan_read: the stream offset of the last ts_input_shrunk() */
	int le_any;
	unsigned char *scratch; /* records re-aligned for reading */
	size_t scratch_alloc;
	uint64_t sha_next; /* opts.sha256: the offset the next read() must start at to be hashed */
	char err[TS_ERR_LEN]; /* the scanner's message: sent on at its end, ts_queue_scan_end() */
};

/* The merger's side (or the only thread's): delivery, and the info it keeps. */
struct ts_merger {
	uint64_t cur_off; /* the record being delivered */
	struct ts_file_info info;
	struct ts_runs runs; /* the runs the scanner handed over */
	unsigned char *scratch;
	size_t scratch_alloc;
	char err[TS_ERR_LEN];
	uint64_t flushes_done; /* flushes merged: written here, read by the scanner (atomic) */
	int cut_warning; /* 1 + the index in info.warnings of the pipe's cut, else 0 */
};

/*
 * The header state (path, attrs, ids, tracing data, layout) is written while the headers are
 * read, and later only by the scanner at a user record with the merger idle; the scanning
 * thread and the merger each own their side, on cache lines of their own (the reader is
 * allocated 64-aligned): shared lines cost more than the second thread saves.
 */
struct ts_reader {
	const char *path;
	int fd, own_fd;
	struct ts_reader_opts opts;
	struct ts_file_header hdr;

	struct ts_attr *attrs;
	struct ts_attr_layout *layout;
	int nr_attrs, alloc_attrs;
	struct ts_idmap ids;
	struct ts_idmap id_cpu; /* from ID_INDEX: which cpu each id counts on */
	int16_t *id_dense; /* id - id_base -> attr index, -1 for none: perf's ids are a span */
	uint64_t id_base; /* the smallest id */
	uint32_t id_dense_nr;
	int id_pos; /* offset of the id in a sample, -1 when there is one attr and no id */
	int id_from_end; /* offset from the end of a non-sample record, -1 if none */
	int sample_time_pos; /* TIME's offset in every attr's samples, or -1 if they differ */

	unsigned char *tdata;
	size_t tdata_len;
	uint64_t tdata_off;
	uint64_t file_size; /* file mode: for checking section extents */
	int use_runs; /* merge runs in place: a seekable, uncompressed file */
	int map_input; /* a regular file's data section is mapped, not read (perf_runs.c) */
	int scan_read; /* mapped for the runs, but the scanner reads it (perf_runs.c) */
	int hashed; /* opts.sha256 took every byte of the file (reader_hash.c) */
	size_t page; /* the page size */
	size_t drop_step; /* mapped: a run lets go of its pages each time it passes this many */
	size_t budget; /* bytes of chunks a round may hold in memory (TS_ROUND_BUDGET) */
	int budget_given; /* by the option or TS_ROUND_BUDGET, else a default */
	size_t soft; /* file mode: the scanner waits for the merger beyond this */
	const struct ts_reader_ops *ops;
	void *ctx;
	pthread_t scan_thread;
	int scan_started; /* the scanning thread runs, not joined yet (ts_reader_start()) */
	int hash_begun; /* ts_hash_begin() was called: by ts_reader_start() or ts_reader_run() */

	struct ts_chunks chunks __attribute__((aligned(64))); /* both threads */
	struct ts_scanner s __attribute__((aligned(64)));
	struct ts_merger m __attribute__((aligned(64)));
} __attribute__((aligned(64)));

/* perf_attr.c: below every stage */
/**
 * ts_fail_into() - a reader message, "PATH: offset OFF: what", into either side's buffer
 * @r: the reader
 * @err: the scanner's or the merger's buffer, TS_ERR_LEN bytes
 * @off: the offset the message names
 * @code: the error code
 * @fmt: what went wrong
 *
 * Return: @code.
 */
int ts_fail_into(const struct ts_reader *r, char *err, uint64_t off, int code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The merger's (or the only thread's) error. */
#define ts_reader_fail(r, off, code, ...) ts_fail_into((r), (r)->m.err, (off), (code), __VA_ARGS__)
/* The scanner's error. */
#define ts_scan_fail(sc, off, code, ...) \
	ts_fail_into((sc)->r, (sc)->err, (off), (code), __VA_ARGS__)
/* The scanner met a record type it does not know: counted, the first one kept for a warning. */
static inline void ts_scan_unknown(struct ts_scanner *sc, uint32_t type, uint64_t off)
{
	if (!sc->cnt.nr_unknown_records++) {
		sc->cnt.unknown_type = type;
		sc->cnt.unknown_off = off;
	}
}

int ts_reader_warn(struct ts_reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ts_reader_add_attr(struct ts_reader *r, const void *attr, size_t size, const void *ids,
		       size_t nr_ids, uint64_t off);
int ts_idmap_get(const struct ts_idmap *m, uint64_t id);

/*
 * The attr index of @id, or -1: a direct table when the ids span fewer than 65,536 numbers
 * (perf's come from the kernel's one counter, consecutive but large), else the hash.
 */
static inline int ts_reader_attr_index(const struct ts_reader *r, uint64_t id)
{
	if (id - r->id_base < r->id_dense_nr && r->id_dense[id - r->id_base] >= 0)
		return r->id_dense[id - r->id_base];
	return ts_idmap_get(&r->ids, id);
}
int ts_idmap_put(struct ts_idmap *m, uint64_t id, int val);
int ts_reader_finish_attrs(struct ts_reader *r, uint64_t off);
int ts_id_index_tasks(const unsigned char *rec, uint32_t size);
/* A kernel MMAP record ("[kernel.kallsyms]_text"...) gives the kernel's reference symbol. */
void ts_kernel_map(const unsigned char *rec, uint32_t size, char ref[TS_KERNEL_REF_LEN],
		   uint64_t *addr);
const char *ts_record_name(uint32_t type);

/* perf_feat.c */
int ts_reader_feature(struct ts_reader *r, int feat, const unsigned char *p, size_t size,
		      uint64_t off);
int ts_reader_set_tdata(struct ts_reader *r, const void *p, size_t size);

/* perf_sample.c */
int ts_reader_attr_of(const struct ts_reader *r, char *err, const unsigned char *rec, uint32_t size,
		      int sample, uint64_t off);
int ts_sample_parse(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off,
		    struct ts_sample *s);

/* perf_check.c: a record the reader skips is still well formed for its type (0, or an error) */
int ts_record_check(const struct ts_reader *r, char *err, const unsigned char *rec, uint32_t size,
		    uint64_t off);

/* perf_deliver.c */
int ts_deliver(struct ts_reader *r, const unsigned char *rec, uint64_t off);
int ts_record_time(const struct ts_reader *r, char *err, const unsigned char *rec, uint32_t size,
		   uint64_t off, uint64_t *time);
const unsigned char *ts_aligned_into(unsigned char **buf, size_t *alloc, const unsigned char *rec,
				     uint32_t size);

/* perf_runs.c */
struct ts_chunk *ts_chunk_new(struct ts_chunks *home, size_t size, uint64_t base);
void ts_chunks_free(struct ts_chunks *home);
#define TS_WINDOW (256 * 1024) /* a pread() window: at least one record (64 KiB at most) */
unsigned char *ts_window_get(struct ts_chunks *home);
void ts_window_put(struct ts_chunks *home, unsigned char *w);
static inline size_t ts_chunks_held(const struct ts_chunks *home)
{
	return __atomic_load_n(&home->held, __ATOMIC_RELAXED);
}
struct ts_chunk *ts_chunk_resize(struct ts_chunk *c, size_t size);
int ts_input_map(struct ts_reader *r);
void ts_input_drop(const struct ts_reader *r, const struct ts_chunk *c, uint64_t from, uint64_t to);
int ts_input_shrunk(const struct ts_reader *r, char *err, uint64_t off);
void ts_chunk_get(struct ts_chunk *c);
void ts_chunk_put(struct ts_chunk *c);
static inline int ts_chunk_shared(const struct ts_chunk *c)
{
	return __atomic_load_n(&c->refs, __ATOMIC_ACQUIRE) > 1;
}
int ts_runs_reserve(struct ts_runs *rs, size_t n);
struct ts_run *ts_run_new(struct ts_runs *rs, uint64_t pos, uint64_t end, struct ts_chunk *c,
			  int fd);
int ts_runs_flush(struct ts_reader *r, struct ts_runs *rs, uint64_t limit, uint64_t *last_flush);
int ts_runs_spill(struct ts_scanner *sc, uint64_t off);
void ts_runs_free(struct ts_chunks *home, struct ts_runs *rs);

/* perf_queue.c */
int ts_queue_scan_start(struct ts_reader *r);
struct ts_reader *ts_scan_user(struct ts_scanner *sc);
/* The scanner's reader, without waiting: for what no other thread reads (id_cpu) */
struct ts_reader *ts_scan_reader(struct ts_scanner *sc);
int ts_queue_scan_merge(struct ts_reader *r);
void ts_queue_scan_discard(struct ts_reader *r);
void ts_queue_scan_end(struct ts_scanner *sc, int ret);
int ts_queue_record(struct ts_scanner *sc, const unsigned char *rec, uint32_t size, uint64_t off,
		    int in_z);
long ts_queue_samples(struct ts_scanner *sc, const unsigned char *buf, size_t len, uint64_t off);
int ts_queue_round(struct ts_scanner *sc, uint64_t off);
int ts_queue_kernel_ref(struct ts_scanner *sc);
void ts_reader_set_kernel_ref(struct ts_reader *r, const char *ref, uint64_t addr);
int ts_queue_final(struct ts_scanner *sc, uint64_t off);
/* The runs, the tagged chunk, the spill file and the chunks; safe to call again. */
void ts_queue_free(struct ts_reader *r);

/* perf_stream.c */
int ts_stream_headers(struct ts_reader *r);
/*
 * ts_stream_free() - free what the reading holds (the input's buffers and mapping, the
 * scratch, the zstd stream, ts_queue_free()'s); the headers' state stays. Safe to call again:
 * ts_reader_drop_rounds() calls it, then ts_reader_close().
 */
void ts_stream_free(struct ts_reader *r);

/* reader_hash.c: opts.sha256, around and inside the scanner's read()s */
void ts_hash_begin(struct ts_reader *r);
void ts_hash_read(struct ts_scanner *sc, uint64_t at, const void *p, size_t n);
void ts_hash_end(struct ts_reader *r, int ret);

/* The kernel record types the reader hands on: samples and the side-band it reports. */
static inline int ts_record_wanted(uint32_t type)
{
	return type == PERF_RECORD_SAMPLE || type == PERF_RECORD_COMM || type == PERF_RECORD_FORK ||
	       type == PERF_RECORD_EXIT || type == PERF_RECORD_LOST ||
	       type == PERF_RECORD_LOST_SAMPLES;
}

static inline uint64_t ts_get_u64(const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t ts_get_u32(const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

#endif
