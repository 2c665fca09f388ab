// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time order, as perf script delivers it. At each FINISHED_ROUND perf flushes everything up
 * to the largest time seen before the previous round marker, ties in file order. The scanner
 * cuts the records into sorted runs (a CPU buffer's worth each) and a k-way merge delivers
 * them (perf_runs.c). A round is read once while it fits the memory budget (r->budget): in a
 * seekable uncompressed file the runs point into the chunks the input was read into; past the
 * budget they are file ranges, re-read through small pread() windows. Pipe and zstd records,
 * which cannot be re-read, are copied as tagged entries, and past the budget the runs in
 * memory are merged into a spill file. With opts.threaded, in a file, a second thread scans
 * for runs while the caller's thread merges the rounds already found.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader_priv.h"
#include "pipe.h"

/* Tagged entries are copied into chunks of an eighth of the budget, within these bounds. */
#define BLOCK_MIN (4u << 10)
#define BLOCK_MAX (1u << 20)

/* ---- pipe and zstd input: tagged copies ------------------------------------------------- */

/*
 * A chunk with room for @bytes of entries. One that no run points into any more is used again;
 * a new one that would pass the budget first sends the runs in memory to the spill file.
 */
static int block_next(struct ts_scanner *sc, size_t bytes, uint64_t off)
{
	size_t size = sc->r->budget / 8;
	int ret;

	size = size < BLOCK_MIN ? BLOCK_MIN : size > BLOCK_MAX ? BLOCK_MAX : size;
	size = bytes > size ? bytes : size;
	if (sc->blk && !ts_chunk_shared(sc->blk) && sc->blk->alloc >= bytes) {
		sc->blk_used = 0;
		return 0;
	}
	if (ts_chunks_held(sc->chunks) + size > sc->r->budget) {
		ret = ts_runs_spill(sc, off);
		if (ret)
			return ret;
		if (sc->blk && !ts_chunk_shared(sc->blk) && sc->blk->alloc >= bytes) {
			sc->blk_used = 0;
			return 0;
		}
	}
	ts_chunk_put(sc->blk);
	sc->blk = ts_chunk_new(sc->chunks, size, 0);
	sc->blk_used = 0;
	return sc->blk ? 0 : -ENOMEM;
}

/* Queue a copy of @rec, with its time and offset, in the open run or a new one. */
static int tagged_add(struct ts_scanner *sc, const unsigned char *rec, uint32_t size, uint64_t time,
		      uint64_t off)
{
	size_t bytes = TS_TAG_SIZE + ((size + 7u) & ~7u);
	struct ts_runs *rs = &sc->runs;
	struct ts_run *run;
	unsigned char *p;
	int ret;

	if (!sc->blk || sc->blk_used + bytes > sc->blk->alloc) {
		ret = block_next(sc, bytes, off);
		if (ret)
			return ret;
	}
	run = rs->open ? &rs->v[rs->nr - 1] : NULL;
	if (run && (time < run->last || run->chunk != sc->blk)) { /* a new CPU buffer, or chunk */
		rs->open = 0;
		run = NULL;
	}
	if (!run) {
		run = ts_run_new(rs, sc->blk_used, sc->blk_used, sc->blk, -1);
		if (!run)
			return -ENOMEM;
		ts_chunk_get(sc->blk);
		run->tagged = 1;
		rs->open = 1;
	}
	p = sc->blk->data + sc->blk_used;
	memcpy(p, &time, 8);
	memcpy(p + 8, &off, 8);
	memcpy(p + TS_TAG_SIZE, rec, size);
	memset(p + TS_TAG_SIZE + size, 0, bytes - TS_TAG_SIZE - size);
	sc->blk_used += bytes;
	run->end = sc->blk_used;
	run->last = time;
	return 0;
}

/* ---- runs in the file ------------------------------------------------------------------- */

/* A new run at @off (in the chunk @c, or in the file), the open run closed. */
static int run_open(struct ts_scanner *sc, struct ts_chunk *c, uint64_t time, uint64_t off,
		    uint32_t size)
{
	struct ts_run *run = ts_run_new(&sc->runs, off, off + size, c, sc->r->fd);

	if (!run)
		return -ENOMEM;
	if (c)
		ts_chunk_get(c);
	sc->runs.open = 1;
	run->last = time;
	return 0;
}

/*
 * A record of the input at @off: in the open run, or a new one. The run points into the chunk
 * it was read into while that chunk is kept (in.keep), else it is a range of the file.
 */
static inline int runs_add(struct ts_scanner *sc, uint64_t time, uint64_t off, uint32_t size)
{
	struct ts_runs *rs = &sc->runs;
	struct ts_run *run = rs->open ? &rs->v[rs->nr - 1] : NULL;
	struct ts_chunk *c = sc->in.keep ? sc->in.chunk : sc->map;

	if (run && time >= run->last && run->chunk == c) { /* else a new CPU buffer, or chunk */
		run->last = time;
		run->end = off + size;
		return 0;
	}
	return run_open(sc, c, time, off, size);
}

/* ---- a scanning thread ------------------------------------------------------------------ */

/*
 * With opts.threaded, a scanning thread reads the file and finds the runs and round markers;
 * it sends them here, where the caller's thread merges and delivers, so that reading and
 * merging overlap. What the scanner sends, in file order:
 */
enum { CMD_RUNS = 1, CMD_FLUSH, CMD_DELIVER, CMD_KERNEL_REF, CMD_ERROR };

#define SCAN_RING (1u << 20)
#define RUNS_PER_CMD 4096

/* A run handed over: its range, and the chunk whose reference goes with it (or NULL). */
struct scan_run {
	uint64_t pos, end;
	struct ts_chunk *chunk;
};

struct scan_cmd {
	uint32_t type;
	uint32_t nr; /* CMD_RUNS: struct scan_run in v[]; CMD_DELIVER: the record's size */
	uint64_t arg; /* CMD_FLUSH: the limit; CMD_DELIVER: the record's offset */
	uint64_t v[]; /* CMD_RUNS: the runs; CMD_DELIVER: the record */
}; /* CMD_KERNEL_REF: the kernel map's address in arg, its name (TS_KERNEL_REF_LEN) in v;
    * CMD_ERROR, the scanner's last: its code in arg, its message in v */

static int merge_cmd(void *ctx, const void *msg, uint32_t len)
{
	struct ts_reader *r = ctx;
	const struct scan_cmd *c = msg;
	uint64_t last; /* the scanner keeps perf's last_flush: see scan_flushed() */
	uint32_t i;

	switch (c->type) {
	case CMD_RUNS: /* room first: the chunks are taken all or none (drop_cmd()) */
		if (ts_runs_reserve(&r->m.runs, c->nr))
			return -ENOMEM;
		for (i = 0; i < c->nr; i++) {
			const struct scan_run *sr = (const struct scan_run *)c->v + i;

			ts_run_new(&r->m.runs, sr->pos, sr->end, sr->chunk, r->fd);
		}
		return 0;
	case CMD_FLUSH: {
		int ret = ts_runs_flush(r, &r->m.runs, c->arg, &last);

		__atomic_store_n(&r->m.flushes_done, r->m.flushes_done + 1, __ATOMIC_RELAXED);
		return ret;
	}
	case CMD_DELIVER:
		return ts_deliver(r, (const unsigned char *)c->v, c->arg);
	case CMD_KERNEL_REF:
		ts_reader_set_kernel_ref(r, (const char *)c->v, c->arg);
		return 0;
	case CMD_ERROR: /* the merger got this far without one: the scanner's is the first */
		memcpy(r->m.err, c->v, sizeof(r->m.err));
		return (int)(int64_t)c->arg;
	default:
		return -EINVAL;
	}
}

/* A message the merger did not take, having stopped on an error: the chunks it holds go. */
static int drop_cmd(void *ctx, const void *msg, uint32_t len)
{
	const struct scan_cmd *c = msg;
	uint32_t i;

	if (c->type == CMD_RUNS)
		for (i = 0; i < c->nr; i++)
			ts_chunk_put(((const struct scan_run *)c->v)[i].chunk);
	return 0;
}

void ts_queue_scan_discard(struct ts_reader *r)
{
	ts_pipe_discard(r->s.pipe, drop_cmd, r);
}

int ts_queue_scan_start(struct ts_reader *r)
{
	return ts_pipe_new(&r->s.pipe, SCAN_RING, merge_cmd, r);
}

int ts_queue_scan_merge(struct ts_reader *r)
{
	return ts_pipe_run(r->s.pipe);
}

static struct scan_cmd *scan_cmd(struct ts_scanner *sc, uint32_t type, uint32_t nr, uint64_t arg,
				 size_t extra);

/* The scanner is through: its error, if any, goes on as its last message. */
void ts_queue_scan_end(struct ts_scanner *sc, int ret)
{
	struct scan_cmd *c =
		ret ? scan_cmd(sc, CMD_ERROR, 0, (uint64_t)(int64_t)ret, sizeof(sc->err)) : NULL;

	if (c) { /* else the merger stopped on an error of its own, which comes first */
		memcpy(c->v, sc->err, sizeof(sc->err));
		ts_pipe_commit(sc->pipe);
	}
	ts_pipe_done(sc->pipe);
}

/**
 * ts_scan_user() - the header state, for a record that changes what the merger reads
 * @sc: the scanner
 *
 * A scanning thread first lets the merger catch up: it waits on the ring for the next message
 * and reads nothing until the scanner commits one, so the scanner may write the header state
 * (attrs, ids, tracing data) in between.
 * Return: the reader, or NULL when the merger has stopped (on an error of its own).
 */
struct ts_reader *ts_scan_user(struct ts_scanner *sc)
{
	if (sc->pipe && ts_pipe_drain(sc->pipe))
		return NULL;
	return ts_scan_reader(sc);
}

struct ts_reader *ts_scan_reader(struct ts_scanner *sc)
{
	return (struct ts_reader *)((char *)sc - offsetof(struct ts_reader, s));
}

static struct scan_cmd *scan_cmd(struct ts_scanner *sc, uint32_t type, uint32_t nr, uint64_t arg,
				 size_t extra)
{
	struct scan_cmd *c = ts_pipe_reserve(sc->pipe, sizeof(*c) + extra);

	if (!c)
		return NULL;
	c->type = type;
	c->nr = nr;
	c->arg = arg;
	return c;
}

/* Hand the closed runs over, then a flush to @limit. */
static int scan_flush(struct ts_scanner *sc, uint64_t limit)
{
	struct ts_runs *rs = &sc->runs;
	size_t i = 0, j, n;
	struct scan_cmd *c;

	while (i < rs->nr) {
		n = rs->nr - i < RUNS_PER_CMD ? rs->nr - i : RUNS_PER_CMD;
		c = scan_cmd(sc, CMD_RUNS, n, 0, n * sizeof(struct scan_run));
		if (!c)
			return -ECANCELED;
		for (j = 0; j < n; j++, i++) {
			struct scan_run *sr = (struct scan_run *)c->v + j;

			sr->pos = rs->v[i].pos;
			sr->end = rs->v[i].end;
			sr->chunk = rs->v[i].chunk;
			rs->v[i].chunk = NULL; /* the reference went with it */
		}
		ts_pipe_commit(sc->pipe);
	}
	rs->nr = 0;
	if (!scan_cmd(sc, CMD_FLUSH, 0, limit, 0))
		return -ECANCELED;
	ts_pipe_commit(sc->pipe);
	ts_pipe_push(sc->pipe); /* a round's worth of merging: start it now */
	sc->sent = 1;
	sc->flushes_sent++;
	return 0;
}

/*
 * perf's last_flush after a flush to @limit, which the scanner needs before the merger gets
 * there: the time of the last record delivered. Everything queued before the previous round
 * marker is <= @limit (the largest time then) and goes, so if @limit grew past the previous
 * limit, a record at exactly @limit goes last. Else only this round's records <= @limit go,
 * the largest last.
 */
static void scan_flushed(struct ts_scanner *sc, uint64_t limit)
{
	if (limit > sc->limit)
		sc->q.last_flush = limit;
	else if (sc->le_any)
		sc->q.last_flush = sc->le_max;
	sc->limit = limit;
	sc->le_any = 0;
	sc->le_max = 0;
}

/* A record delivered at once: here when this thread delivers, else sent to the merger. */
static int scan_deliver(struct ts_scanner *sc, const unsigned char *rec, uint32_t size,
			uint64_t off)
{
	struct scan_cmd *c;

	if (sc->deliver)
		return ts_deliver(sc->deliver, rec, off);
	c = scan_cmd(sc, CMD_DELIVER, size, off, size);
	if (!c)
		return -ECANCELED;
	memcpy(c->v, rec, size);
	ts_pipe_commit(sc->pipe);
	return 0;
}

/* The merger's info takes the first kernel map; the scanner's copy is its own. */
_Static_assert(sizeof(((struct ts_file_info *)0)->kernel_ref) == TS_KERNEL_REF_LEN,
	       "the scanner's kernel_ref and info's differ");

void ts_reader_set_kernel_ref(struct ts_reader *r, const char *ref, uint64_t addr)
{
	if (r->m.info.kernel_ref[0] || !ref[0])
		return;
	memcpy(r->m.info.kernel_ref, ref, sizeof(r->m.info.kernel_ref));
	r->m.info.kernel_ref_addr = addr;
}

/*
 * The scanner found the kernel map (in sc->cnt): hand it on, in order with the records, to
 * whoever delivers (the first sample's symbols need it); with no scanning thread, that is here.
 */
int ts_queue_kernel_ref(struct ts_scanner *sc)
{
	struct scan_cmd *c;

	if (sc->deliver) {
		ts_reader_set_kernel_ref(sc->deliver, sc->cnt.kernel_ref, sc->cnt.kernel_ref_addr);
		return 0;
	}
	c = scan_cmd(sc, CMD_KERNEL_REF, 0, sc->cnt.kernel_ref_addr, TS_KERNEL_REF_LEN);
	if (!c)
		return -ECANCELED;
	memcpy(c->v, sc->cnt.kernel_ref, TS_KERNEL_REF_LEN);
	ts_pipe_commit(sc->pipe);
	return 0;
}

/* ---- the interface to the stream -------------------------------------------------------- */

/* A queued record's time: perf's out-of-order count, and what the scanner's flushes need. */
static inline void note_time(struct ts_scanner *sc, uint64_t time)
{
	if (time < sc->q.last_flush)
		sc->cnt.nr_out_of_order++;
	if (time > sc->q.max_time)
		sc->q.max_time = time;
	if (time <= sc->q.next_flush) {
		sc->le_any = 1;
		if (time > sc->le_max)
			sc->le_max = time;
	}
}

/* A kernel record from the stream (@in_z: out of a COMPRESSED record; @off its offset). */
int ts_queue_record(struct ts_scanner *sc, const unsigned char *rec, uint32_t size, uint64_t off,
		    int in_z)
{
	uint32_t type = ts_get_u32(rec);
	int keep = ts_record_wanted(type);
	uint64_t time;
	int ret;

	/* the common case, kept short: an aligned sample whose TIME sits where all attrs put it */
	if (type == PERF_RECORD_SAMPLE && sc->r->use_runs && !in_z && sc->r->sample_time_pos >= 0 &&
	    !((uintptr_t)rec & 7) && size >= 16u + sc->r->sample_time_pos) {
		time = ts_get_u64(rec + 8 + sc->r->sample_time_pos);
		if (time && time != UINT64_MAX) {
			note_time(sc, time);
			sc->round_bytes += size;
			return runs_add(sc, time, off, size);
		}
	}
	if (type > PERF_RECORD_TEXT_POKE + 1)
		ts_scan_unknown(sc, type, off);
	rec = ts_aligned_into(&sc->scratch, &sc->scratch_alloc, rec, size);
	if (!rec)
		return -ENOMEM;
	if (!keep && (ret = ts_record_check(sc->r, sc->err, rec, size, off)))
		return ret;
	if (sc->r->opts.unordered)
		return keep ? scan_deliver(sc, rec, size, off) : 0;
	ret = ts_record_time(sc->r, sc->err, rec, size, off, &time);
	if (ret && !keep) { /* a record we do not use and cannot place: skip it */
		sc->err[0] = 0;
		return 0;
	}
	if (ret)
		return ret;
	if (time == 0 || time == UINT64_MAX) /* perf delivers these at once, unqueued */
		return keep ? scan_deliver(sc, rec, size, off) : 0;
	if (sc->r->use_runs && in_z)
		return ts_scan_fail(sc, off, -TS_ECORRUPT,
				    "COMPRESSED data in a file without the compressed feature");
	note_time(sc, time);
	sc->round_bytes += size;
	if (sc->r->use_runs)
		return runs_add(sc, time, off, size);
	return tagged_add(sc, rec, size, time, off);
}

/**
 * ts_queue_samples() - queue the common records at the start of @buf in one loop
 * @sc: the scanner, of a seekable uncompressed file (r->use_runs)
 * @buf: the unread bytes of the input buffer, 8-aligned
 * @len: how many there are
 * @off: the stream offset of @buf
 *
 * What process_record() and ts_queue_record() do for a whole sample whose TIME sits where every
 * attr puts it, with a time: counted, its time noted, added to the open run or a new one. The
 * loop keeps the queue's state in registers and stops at the first record that is anything
 * else (or is not whole in @buf), which the caller reads the usual way; nearly every record of
 * a trace is such a sample, and the general path's calls and checks were half the scanner's
 * instructions.
 * Return: the bytes queued (whole records), or a negative code.
 */
long ts_queue_samples(struct ts_scanner *sc, const unsigned char *buf, size_t len, uint64_t off)
{
	const int stp = sc->r->sample_time_pos;
	struct ts_chunk *c = sc->in.keep ? sc->in.chunk : sc->map;
	struct ts_runs *rs = &sc->runs;
	struct ts_run *run = rs->open ? &rs->v[rs->nr - 1] : NULL;
	uint64_t last_flush = sc->q.last_flush, next_flush = sc->q.next_flush;
	uint64_t max_time = sc->q.max_time, le_max = sc->le_max, ooo = 0, nr = 0;
	uint64_t bytes = 0, last = run ? run->last : 0, run_end = run ? run->end : 0;
	int le_any = sc->le_any, ret = 0;
	size_t pos = 0;

	if (stp < 0 || ((uintptr_t)buf & 7))
		return 0;
	if (run && run->chunk != c)
		run = NULL;
	while (len - pos >= 8) {
		const unsigned char *rec = buf + pos;
		uint16_t size;
		uint64_t time;

		memcpy(&size, rec + 6, 2);
		if (ts_get_u32(rec) != PERF_RECORD_SAMPLE || size > len - pos || size < 16u + stp ||
		    (size & 7))
			break;
		time = ts_get_u64(rec + 8 + stp);
		if (!time || time == UINT64_MAX)
			break;
		ooo += time < last_flush;
		if (time > max_time)
			max_time = time;
		if (time <= next_flush) {
			le_any = 1;
			if (time > le_max)
				le_max = time;
		}
		if (!run || time < last) { /* a new CPU buffer */
			if (run) {
				run->last = last;
				run->end = run_end;
			}
			ret = run_open(sc, c, time, off + pos, size);
			if (ret)
				break;
			run = &rs->v[rs->nr - 1];
		}
		last = time;
		run_end = off + pos + size;
		bytes += size;
		pos += size;
		nr++;
	}
	if (run) {
		run->last = last;
		run->end = run_end;
	}
	sc->cnt.nr_records += nr;
	sc->cnt.nr_out_of_order += ooo;
	sc->q.max_time = max_time;
	sc->le_max = le_max;
	sc->le_any = le_any;
	sc->round_bytes += bytes;
	return ret ? ret : (long)pos;
}

/*
 * Flush to @limit: the runs go to the merger when a scanning thread runs, else this thread
 * merges them and delivers. The open run closes: a round's records all come before the next's.
 */
static int scan_flush_to(struct ts_scanner *sc, uint64_t limit)
{
	sc->runs.open = 0;
	if (!sc->deliver)
		return scan_flush(sc, limit);
	return ts_runs_flush(sc->deliver, &sc->runs, limit, &sc->q.last_flush);
}

/* FINISHED_ROUND at @off: flush up to what the previous round had seen. */
int ts_queue_round(struct ts_scanner *sc, uint64_t off)
{
	int ret;

	if (sc->r->opts.unordered)
		return 0;
	if (sc->round_bytes > sc->cnt.max_round_bytes)
		sc->cnt.max_round_bytes = sc->round_bytes;
	if (sc->round_bytes > sc->r->budget / 2) /* the flush after this one delivers it */
		sc->big_until = sc->flushes_sent + 2;
	sc->round_bytes = 0;
	ret = scan_flush_to(sc, sc->q.next_flush);
	if (!sc->deliver)
		scan_flushed(sc, sc->q.next_flush);
	sc->q.next_flush = sc->q.max_time;
	return ret;
}

/* The end of the data at @off: flush everything. */
int ts_queue_final(struct ts_scanner *sc, uint64_t off)
{
	if (sc->r->opts.unordered)
		return 0;
	if (sc->round_bytes > sc->cnt.max_round_bytes)
		sc->cnt.max_round_bytes = sc->round_bytes;
	return scan_flush_to(sc, UINT64_MAX);
}

void ts_queue_free(struct ts_reader *r)
{
	ts_runs_free(&r->chunks, &r->s.runs);
	ts_runs_free(&r->chunks, &r->m.runs);
	ts_chunk_put(r->s.blk);
	r->s.blk = NULL;
	if (r->s.spill_fd >= 0)
		close(r->s.spill_fd);
	r->s.spill_fd = -1;
	ts_chunks_free(&r->chunks);
}
