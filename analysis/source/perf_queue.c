// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time order, as perf script delivers it. At each FINISHED_ROUND perf flushes everything up
 * to the largest time seen before the previous round marker, ties in file order. Two ways to
 * get there: in a seekable uncompressed file, remember each sorted run (a CPU buffer's worth of
 * records) by its file range and k-way merge the runs through small pread() windows, so
 * memory does not grow with the round (with opts.threaded, a second thread scans the file for
 * runs while the caller's thread merges the rounds already found); for pipes and zstd data,
 * copy the records into an arena.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader_priv.h"
#include "pipe.h"

#define RUN_WINDOW (256 * 1024) /* at least one record (64 KiB at most); fewer pread() calls */

/* ---- in memory (pipe and compressed input) ---------------------------------------------- */

static int queue_grow(struct ts_queue *q, size_t bytes)
{
	if (q->nr == q->alloc) {
		size_t n = q->alloc ? q->alloc * 2 : 4096;
		void *p = realloc(q->ents, n * sizeof(*q->ents));

		if (!p)
			return -ENOMEM;
		q->ents = p;
		p = realloc(q->tmp, n * sizeof(*q->tmp));
		if (!p)
			return -ENOMEM;
		q->tmp = p;
		q->alloc = n;
	}
	if (q->used + bytes > q->arena_alloc) {
		size_t n = q->arena_alloc ? q->arena_alloc : 1 << 20;
		void *p;

		while (q->used + bytes > n)
			n *= 2;
		p = realloc(q->arena, n);
		if (!p)
			return -ENOMEM;
		q->arena = p;
		q->arena_alloc = n;
	}
	return 0;
}

static int queue_push(struct ts_scanner *sc, const unsigned char *rec, uint32_t size, uint64_t time,
		      uint64_t off)
{
	struct ts_queue *q = &sc->q;
	size_t bytes = rec ? (size + 7) & ~7u : 0;
	struct ts_qent *e;
	int ret;

	ret = queue_grow(q, bytes);
	if (ret)
		return ret;
	e = &q->ents[q->nr++];
	e->time = time;
	e->seq = q->seq++;
	e->off = off;
	if (!rec) { /* a record we skip, queued only for its time as perf queues it */
		e->pos = UINT32_MAX;
		return 0;
	}
	e->pos = q->used;
	memcpy(q->arena + q->used, rec, size);
	q->used += bytes;
	return 0;
}

/* Stable bottom-up merge of the natural runs: records arrive sorted per CPU buffer. */
static void queue_sort(struct ts_queue *q)
{
	struct ts_qent *a = q->ents, *t = q->tmp, *swap;
	size_t n = q->nr;

	for (;;) {
		size_t i = 0, out = 0, runs = 0;

		while (i < n) {
			size_t m = i + 1, e;

			while (m < n && a[m].time >= a[m - 1].time)
				m++;
			if (m == n) { /* one run left: copy it over */
				memcpy(t + out, a + i, (n - i) * sizeof(*a));
				out = n;
				runs++;
				break;
			}
			e = m + 1;
			while (e < n && a[e].time >= a[e - 1].time)
				e++;
			{
				size_t x = i, y = m;

				while (x < m && y < e)
					t[out++] = a[y].time < a[x].time ? a[y++] : a[x++];
				while (x < m)
					t[out++] = a[x++];
				while (y < e)
					t[out++] = a[y++];
			}
			runs++;
			i = e;
		}
		swap = a;
		a = t;
		t = swap;
		if (runs <= 1)
			break;
	}
	q->ents = a;
	q->tmp = t;
}

/* Deliver (on @r, this thread) the records of @q with time <= @limit. */
static int queue_flush(struct ts_reader *r, struct ts_queue *q, uint64_t limit)
{
	size_t i, j, used = 0;
	int ret;

	if (!q->nr)
		return 0;
	queue_sort(q);
	for (i = 0; i < q->nr && q->ents[i].time <= limit; i++) {
		if (q->ents[i].pos != UINT32_MAX) {
			ret = ts_deliver(r, q->arena + q->ents[i].pos, q->ents[i].off);
			if (ret)
				return ret;
		}
		q->last_flush = q->ents[i].time;
	}
	if (i == q->nr) {
		q->nr = 0;
		q->used = 0;
		return 0;
	}
	if (i == 0)
		return 0;
	/* keep the rest, compacted into the second arena */
	if (q->arena2_alloc < q->arena_alloc) {
		void *p = realloc(q->arena2, q->arena_alloc);

		if (!p)
			return -ENOMEM;
		q->arena2 = p;
		q->arena2_alloc = q->arena_alloc;
	}
	for (j = 0; i < q->nr; i++, j++) {
		struct ts_qent *e = &q->ents[i];
		const unsigned char *rec = q->arena + e->pos;
		uint16_t size;

		if (e->pos == UINT32_MAX) {
			q->ents[j] = *e;
			continue;
		}
		memcpy(&size, rec + 6, 2);
		size = (size + 7) & ~7u;
		memcpy(q->arena2 + used, rec, size);
		e->pos = used;
		used += size;
		q->ents[j] = *e;
	}
	q->nr = j;
	q->used = used;
	{
		unsigned char *p = q->arena;
		size_t a = q->arena_alloc;

		q->arena = q->arena2;
		q->arena_alloc = q->arena2_alloc;
		q->arena2 = p;
		q->arena2_alloc = a;
	}
	return 0;
}

/* ---- runs in the file ------------------------------------------------------------------- */

static void run_free(struct ts_run *run)
{
	free(run->buf);
	memset(run, 0, sizeof(*run));
}

/* Make [pos, pos + need) readable in the run's window. */
static int run_window(struct ts_reader *r, struct ts_run *run, size_t need)
{
	ssize_t n;

	if (run->pos >= run->buf_off && run->pos + need <= run->buf_off + run->buf_len)
		return 0;
	if (!run->buf) {
		run->buf = malloc(RUN_WINDOW);
		if (!run->buf)
			return -ENOMEM;
	}
	do
		n = pread(r->fd, run->buf, RUN_WINDOW, run->pos);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return ts_reader_fail(r, run->pos, -errno, "read: %s", strerror(errno));
	run->buf_off = run->pos;
	run->buf_len = n;
	if ((size_t)n < need)
		return ts_reader_fail(r, run->pos, -TS_ETRUNC, "record cut short on re-read");
	return 0;
}

/*
 * Load the next record of @run that belongs to the queue: a kernel record with a time. Others
 * (perf's own records, and untimed ones delivered at once) are stepped over.
 * Return: 1 when loaded, 0 when the run is used up, or a negative code.
 */
static int run_peek(struct ts_reader *r, struct ts_run *run)
{
	const unsigned char *rec;
	uint64_t time;
	uint16_t size;
	uint32_t type;
	int ret;

	while (run->pos < run->end) {
		ret = run_window(r, run, 8);
		if (ret)
			return ret;
		rec = run->buf + (run->pos - run->buf_off);
		memcpy(&size, rec + 6, 2);
		type = ts_get_u32(rec);
		if (size < 8)
			return ts_reader_fail(r, run->pos, -TS_ERECSIZE, "record of size %u", size);
		if (run->pos + size > run->buf_off + run->buf_len) {
			ret = run_window(r, run, size);
			if (ret)
				return ret;
			rec = run->buf + (run->pos - run->buf_off);
		}
		if (type == TS_REC_AUXTRACE) { /* its payload follows, outside header.size */
			run->pos += size + ts_get_u64(rec + 8);
			continue;
		}
		if (type >= 64) {
			run->pos += size;
			continue;
		}
		ret = ts_record_time(r, r->m.err, rec, size, run->pos, &time);
		if (ret && !ts_record_wanted(type)) {
			r->m.err[0] = 0;
			time = 0;
		} else if (ret) {
			return ret;
		}
		if (time == 0 || time == UINT64_MAX) {
			run->pos += size;
			continue;
		}
		run->time = time;
		return 1;
	}
	return 0;
}

static int run_before(const struct ts_run *a, const struct ts_run *b)
{
	return a->time < b->time || (a->time == b->time && a->pos < b->pos);
}

static inline void heap_down(struct ts_run **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct ts_run *t;

		if (l < n && run_before(h[l], h[m]))
			m = l;
		if (l + 1 < n && run_before(h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Deliver every queued record of @rs with time <= @limit, merging its closed runs. */
static int runs_flush(struct ts_reader *r, struct ts_runs *rs, uint64_t limit, uint64_t *last_flush)
{
	size_t i, n = 0, kept = 0;
	int ret = 0;

	for (i = 0; i < rs->nr; i++) {
		ret = run_peek(r, &rs->v[i]);
		if (ret < 0)
			return ret;
		if (ret)
			rs->heap[n++] = &rs->v[i];
	}
	for (i = n / 2; i-- > 0;)
		heap_down(rs->heap, n, i);
	while (n && rs->heap[0]->time <= limit) {
		struct ts_run *run = rs->heap[0];
		const unsigned char *rec = run->buf + (run->pos - run->buf_off);
		uint16_t size;

		memcpy(&size, rec + 6, 2);
		rec = ts_aligned_into(&r->m.scratch, &r->m.scratch_alloc, rec, size);
		if (!rec)
			return -ENOMEM;
		ret = ts_deliver(r, rec, run->pos);
		if (ret)
			return ret;
		*last_flush = run->time;
		run->pos += size;
		ret = run_peek(r, run);
		if (ret < 0)
			return ret;
		if (!ret)
			rs->heap[0] = rs->heap[--n];
		heap_down(rs->heap, n, 0);
	}
	/* drop the used-up runs, keeping file order */
	for (i = 0; i < rs->nr; i++) {
		if (rs->v[i].pos >= rs->v[i].end) {
			run_free(&rs->v[i]);
			continue;
		}
		rs->v[kept++] = rs->v[i];
	}
	rs->nr = kept;
	return 0;
}

/* A new run at @off in @rs, or NULL without memory. */
static struct ts_run *run_new(struct ts_runs *rs, uint64_t off, uint64_t end)
{
	struct ts_run *run;

	if (rs->nr == rs->alloc) {
		size_t a = rs->alloc ? rs->alloc * 2 : 64;
		void *v = realloc(rs->v, a * sizeof(*rs->v));

		if (!v)
			return NULL;
		rs->v = v;
		v = realloc(rs->heap, a * sizeof(*rs->heap));
		if (!v)
			return NULL;
		rs->heap = v;
		rs->alloc = a;
	}
	run = &rs->v[rs->nr++];
	memset(run, 0, sizeof(*run));
	run->pos = off;
	run->end = end;
	return run;
}

static int runs_add(struct ts_scanner *sc, uint64_t time, uint64_t off, uint32_t size)
{
	struct ts_runs *rs = &sc->runs;
	struct ts_run *run = rs->open ? &rs->v[rs->nr - 1] : NULL;

	if (run && time < run->last) { /* a new CPU buffer: close this run at the record */
		run->end = off;
		rs->open = 0;
		run = NULL;
	}
	if (!run) {
		run = run_new(rs, off, UINT64_MAX);
		if (!run)
			return -ENOMEM;
		rs->open = 1;
	}
	run->last = time;
	return 0;
}

static void runs_close(struct ts_scanner *sc, uint64_t off)
{
	if (sc->runs.open) {
		sc->runs.v[sc->runs.nr - 1].end = off;
		sc->runs.open = 0;
	}
}

/* ---- a scanning thread ------------------------------------------------------------------ */

/*
 * With opts.threaded, a scanning thread reads the file and finds the runs and round markers;
 * it sends them here, where the caller's thread merges and delivers, so that the two passes
 * over the file overlap. What the scanner sends, in file order:
 */
enum { CMD_RUNS = 1, CMD_FLUSH, CMD_DELIVER, CMD_KERNEL_REF, CMD_ERROR };

#define SCAN_RING (1u << 20)
#define RUNS_PER_CMD 4096

struct scan_cmd {
	uint32_t type;
	uint32_t nr; /* CMD_RUNS: pairs in v[]; CMD_DELIVER: the record's size */
	uint64_t arg; /* CMD_FLUSH: the limit; CMD_DELIVER: the record's offset */
	uint64_t v[]; /* CMD_RUNS: (start, end) offsets; CMD_DELIVER: the record */
}; /* CMD_KERNEL_REF: the kernel map's address in arg, its name (TS_KERNEL_REF_LEN) in v;
    * CMD_ERROR, the scanner's last: its code in arg, its message in v */

static int merge_cmd(void *ctx, const void *msg, uint32_t len)
{
	struct ts_reader *r = ctx;
	const struct scan_cmd *c = msg;
	uint64_t last; /* the scanner keeps perf's last_flush: see scan_flushed() */
	uint32_t i;

	switch (c->type) {
	case CMD_RUNS:
		for (i = 0; i < c->nr; i++)
			if (!run_new(&r->m.runs, c->v[2 * i], c->v[2 * i + 1]))
				return -ENOMEM;
		return 0;
	case CMD_FLUSH:
		return runs_flush(r, &r->m.runs, c->arg, &last);
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
		c = scan_cmd(sc, CMD_RUNS, n, 0, n * 16);
		if (!c)
			return -ECANCELED;
		for (j = 0; j < n; j++, i++) {
			c->v[2 * j] = rs->v[i].pos;
			c->v[2 * j + 1] = rs->v[i].end;
		}
		ts_pipe_commit(sc->pipe);
	}
	rs->nr = 0;
	if (!scan_cmd(sc, CMD_FLUSH, 0, limit, 0))
		return -ECANCELED;
	ts_pipe_commit(sc->pipe);
	ts_pipe_push(sc->pipe); /* a round's worth of merging: start it now */
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
	if (type == PERF_RECORD_SAMPLE && sc->r->use_runs && sc->r->sample_time_pos >= 0 &&
	    !((uintptr_t)rec & 7) && size >= 16u + sc->r->sample_time_pos) {
		time = ts_get_u64(rec + 8 + sc->r->sample_time_pos);
		if (time && time != UINT64_MAX) {
			note_time(sc, time);
			return runs_add(sc, time, off, size);
		}
	}
	if (type > PERF_RECORD_TEXT_POKE + 1)
		ts_scan_unknown(sc, type, off);
	rec = ts_aligned_into(&sc->scratch, &sc->scratch_alloc, rec, size);
	if (!rec)
		return -ENOMEM;
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
	if (sc->r->use_runs)
		return runs_add(sc, time, off, size);
	return queue_push(sc, keep ? rec : NULL, size, time, off);
}

/*
 * Flush to @limit: the runs go to the merger when a scanning thread runs, else this thread
 * merges them (or sorts its queue) and delivers.
 */
static int scan_flush_to(struct ts_scanner *sc, uint64_t limit, uint64_t off)
{
	if (!sc->deliver) {
		runs_close(sc, off);
		return scan_flush(sc, limit);
	}
	if (sc->r->use_runs) {
		runs_close(sc, off);
		return runs_flush(sc->deliver, &sc->runs, limit, &sc->q.last_flush);
	}
	return queue_flush(sc->deliver, &sc->q, limit);
}

/* FINISHED_ROUND at @off: flush up to what the previous round had seen. */
int ts_queue_round(struct ts_scanner *sc, uint64_t off)
{
	int ret;

	if (sc->r->opts.unordered)
		return 0;
	ret = scan_flush_to(sc, sc->q.next_flush, off);
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
	return scan_flush_to(sc, UINT64_MAX, off);
}

static void runs_free(struct ts_runs *rs)
{
	size_t i;

	for (i = 0; i < rs->nr; i++)
		run_free(&rs->v[i]);
	free(rs->v);
	free(rs->heap);
}

void ts_queue_free(struct ts_reader *r)
{
	runs_free(&r->s.runs);
	runs_free(&r->m.runs);
	free(r->s.q.ents);
	free(r->s.q.tmp);
	free(r->s.q.arena);
	free(r->s.q.arena2);
}
