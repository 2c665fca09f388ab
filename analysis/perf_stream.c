// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record stream: read() the data (file or pipe) in large chunks, unpack COMPRESSED records
 * through one continuous zstd stream, and deliver records in perf's round-by-round time order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "reader_priv.h"

#define DEFAULT_CHUNK (256 * 1024)
#define MAX_RECORD (1u << 30) /* pipe-mode tracing data can be megabytes; nothing is a GB */

/* ---- input buffer ---------------------------------------------------------------------- */

static int inbuf_reserve(struct ts_inbuf *b, size_t need)
{
	unsigned char *n;
	size_t alloc;

	if (b->start && (b->end == b->start || b->alloc - b->start < need)) {
		/* keep the record's stream offset congruent mod 8 so that u64 fields stay aligned */
		size_t keep = b->end - b->start, shift = b->start & ~(size_t)7;

		memmove(b->buf + (b->start - shift), b->buf + b->start, keep);
		b->base += shift;
		b->start -= shift;
		b->end = b->start + keep;
	}
	if (b->alloc - b->start >= need)
		return 0;
	alloc = b->alloc ? b->alloc : DEFAULT_CHUNK;
	while (alloc - b->start < need)
		alloc *= 2;
	n = realloc(b->buf, alloc);
	if (!n)
		return -ENOMEM;
	b->buf = n;
	b->alloc = alloc;
	return 0;
}

/*
 * Make at least @need bytes available at in.start. Returns 0 when they are, 1 when the data
 * ends first (the caller decides whether that is the clean end or a truncation).
 */
static int fill(struct ts_reader *r, size_t need)
{
	struct ts_inbuf *b = &r->in;
	size_t chunk = r->opts.bufsize ? r->opts.bufsize : DEFAULT_CHUNK;
	int ret;

	while (b->end - b->start < need) {
		uint64_t at = b->base + b->end;
		size_t want;
		ssize_t n;

		if (r->eof || at >= r->data_end)
			return 1;
		ret = inbuf_reserve(b, need > chunk ? need : chunk);
		if (ret)
			return ret;
		want = b->alloc - b->end;
		if (r->data_end - at < want)
			want = r->data_end - at;
		n = read(r->fd, b->buf + b->end, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ts_reader_fail(r, at, -errno, "read: %s", strerror(errno));
		if (n == 0)
			r->eof = 1;
		b->end += n;
	}
	return 0;
}

/* ---- the ordered queue ----------------------------------------------------------------- */

static int deliver(struct ts_reader *r, const unsigned char *rec, uint64_t off);

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

static int queue_push(struct ts_reader *r, const unsigned char *rec, uint32_t size,
		      uint64_t time, uint64_t off)
{
	struct ts_queue *q = &r->q;
	size_t bytes = rec ? (size + 7) & ~7u : 0;
	struct ts_qent *e;
	int ret;

	ret = queue_grow(q, bytes);
	if (ret)
		return ret;
	if (time < q->last_flush)
		r->info.nr_out_of_order++;
	if (time > q->max_time)
		q->max_time = time;
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

static int queue_flush(struct ts_reader *r, uint64_t limit)
{
	struct ts_queue *q = &r->q;
	size_t i, j, used = 0;
	int ret;

	if (!q->nr)
		return 0;
	queue_sort(q);
	for (i = 0; i < q->nr && q->ents[i].time <= limit; i++) {
		if (q->ents[i].pos != UINT32_MAX) {
			ret = deliver(r, q->arena + q->ents[i].pos, q->ents[i].off);
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

/* ---- per-record handling --------------------------------------------------------------- */

static int count_lost(struct ts_reader *r, uint32_t cpu, uint64_t n, int samples)
{
	struct ts_file_info *i = &r->info;

	if (cpu == UINT32_MAX)
		cpu = 0;
	if (cpu > 65535)
		return -TS_ECORRUPT;
	if ((int)cpu >= i->nr_lost_cpus) {
		int nr = cpu + 1;
		uint64_t *a = realloc(i->lost_per_cpu, nr * sizeof(*a));
		uint64_t *b;

		if (!a)
			return -ENOMEM;
		i->lost_per_cpu = a;
		b = realloc(i->lost_samples_per_cpu, nr * sizeof(*b));
		if (!b)
			return -ENOMEM;
		i->lost_samples_per_cpu = b;
		memset(a + i->nr_lost_cpus, 0, (nr - i->nr_lost_cpus) * sizeof(*a));
		memset(b + i->nr_lost_cpus, 0, (nr - i->nr_lost_cpus) * sizeof(*b));
		i->nr_lost_cpus = nr;
	}
	if (samples) {
		i->lost_samples_per_cpu[cpu] += n;
		i->lost_samples_total += n;
	} else {
		i->lost_per_cpu[cpu] += n;
		i->lost_total += n;
	}
	return 0;
}

struct trailer {
	uint64_t time, id;
	uint32_t cpu, tid;
	int attr; /* index, -1 if unknown */
};

/* The sample_id_all trailer of a non-sample record, if its attr has one. */
static int get_trailer(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off,
		       struct trailer *t)
{
	const struct ts_attr_layout *l;
	const unsigned char *tr;
	int idx;

	t->time = t->id = 0;
	t->cpu = UINT32_MAX;
	t->tid = 0;
	t->attr = -1;
	idx = ts_reader_attr_of(r, rec, size, 0, off);
	if (idx == -TS_ENOATTR && r->id_from_end < 0)
		return 0;
	if (idx < 0)
		return idx;
	t->attr = idx;
	l = &r->layout[idx];
	if (!l->trailer_size)
		return 0;
	if (size < 8 + (uint32_t)l->trailer_size)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "%s record too short for its trailer",
				      ts_record_name(ts_get_u32(rec)));
	tr = rec + size - l->trailer_size;
	if (l->trailer_time >= 0)
		t->time = ts_get_u64(tr + l->trailer_time);
	if (l->trailer_cpu >= 0)
		t->cpu = ts_get_u32(tr + l->trailer_cpu);
	if (l->trailer_tid >= 0)
		t->tid = ts_get_u32(tr + l->trailer_tid + 4);
	if (r->id_from_end > 0)
		t->id = ts_get_u64(rec + size - r->id_from_end);
	return 0;
}

static int deliver_sample(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			  uint64_t off)
{
	const struct ts_reader_ops *ops = r->ops;
	struct ts_sample s;
	int ret;

	ret = ts_sample_parse(r, rec, size, off, &s);
	if (ret)
		return ret;
	r->attrs[s.attr->index].nr_samples++;
	if (!r->info.nr_samples++)
		r->info.first_time = s.time;
	if (s.time > r->info.last_time)
		r->info.last_time = s.time;
	if (!ops->sample)
		return 0;
	ret = ops->sample(r->ctx, &s);
	if (ret && !r->err[0])
		ts_reader_fail(r, off, ret, "%s", ts_strerror(ret));
	return ret;
}

static int deliver_comm(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			uint64_t off, const struct trailer *t)
{
	char comm[32];
	size_t max;
	uint16_t misc;

	if (size < 16 + 1)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "COMM record too short");
	max = size - 16 < sizeof(comm) - 1 ? size - 16 : sizeof(comm) - 1;
	memcpy(comm, rec + 16, max);
	comm[max] = 0;
	comm[strnlen(comm, max)] = 0;
	memcpy(&misc, rec + 4, 2);
	if (!r->ops->comm)
		return 0;
	return r->ops->comm(r->ctx, ts_get_u32(rec + 8), ts_get_u32(rec + 12), comm, t->time,
			    !!(misc & PERF_RECORD_MISC_COMM_EXEC));
}

static int deliver(struct ts_reader *r, const unsigned char *rec, uint64_t off)
{
	const struct ts_reader_ops *ops = r->ops;
	uint32_t type = ts_get_u32(rec);
	uint16_t size;
	struct trailer t;
	int ret;

	memcpy(&size, rec + 6, 2);
	if (type == PERF_RECORD_SAMPLE)
		return deliver_sample(r, rec, size, off);
	ret = get_trailer(r, rec, size, off, &t);
	if (ret)
		return ret;
	switch (type) {
	case PERF_RECORD_COMM:
		return deliver_comm(r, rec, size, off, &t);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (size < 8 + 24)
			return ts_reader_fail(r, off, -TS_ECORRUPT, "%s record too short",
					      ts_record_name(type));
		if (type == PERF_RECORD_FORK && ops->fork)
			return ops->fork(r->ctx, ts_get_u32(rec + 8), ts_get_u32(rec + 12),
					 ts_get_u32(rec + 16), ts_get_u32(rec + 20), t.time);
		if (type == PERF_RECORD_EXIT && ops->exit)
			return ops->exit(r->ctx, ts_get_u32(rec + 8), ts_get_u32(rec + 16), t.time);
		return 0;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES: {
		int samples = type == PERF_RECORD_LOST_SAMPLES;
		uint64_t id = samples ? 0 : ts_get_u64(rec + 8);
		uint64_t n;
		int cpu;

		if (size < 8 + (samples ? 8 : 16))
			return ts_reader_fail(r, off, -TS_ECORRUPT, "%s record too short",
					      ts_record_name(type));
		n = ts_get_u64(rec + (samples ? 8 : 16));
		/*
		 * perf synthesizes LOST_SAMPLES at the end with time and cpu 0 in the trailer;
		 * the id names the per-cpu event, and ID_INDEX says which cpu that is.
		 */
		cpu = ts_idmap_get(&r->id_cpu, samples ? t.id : id);
		if (cpu >= 0 && (samples || t.cpu == UINT32_MAX))
			t.cpu = cpu;
		if (samples && t.attr >= 0)
			r->attrs[t.attr].nr_lost_samples += n;
		ret = count_lost(r, t.cpu, n, samples);
		if (ret)
			return ts_reader_fail(r, off, ret, "LOST record for cpu %u", t.cpu);
		return ops->lost ? ops->lost(r->ctx, t.cpu, id, n, t.time) : 0;
	}
	default:
		return 0;
	}
}

/* Time of a kernel record, for the queue: the sample's TIME field or the trailer's. */
static int record_time(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off,
		       uint64_t *time)
{
	uint32_t type = ts_get_u32(rec);
	struct trailer t;
	int idx, ret;

	*time = 0;
	if (type == PERF_RECORD_SAMPLE) {
		idx = ts_reader_attr_of(r, rec, size, 1, off);
		if (idx < 0)
			return idx;
		if (r->layout[idx].time_pos >= 0) {
			if ((uint32_t)r->layout[idx].time_pos + 16 > size)
				return ts_reader_fail(r, off, -TS_ECORRUPT,
						      "SAMPLE too short for its time");
			*time = ts_get_u64(rec + 8 + r->layout[idx].time_pos);
		}
		return 0;
	}
	ret = get_trailer(r, rec, size, off, &t);
	*time = t.time;
	return ret;
}

/* Records after an unpadded COMPRESSED record can sit at any address; u64 fields need 8. */
static const unsigned char *aligned(struct ts_reader *r, const unsigned char *rec, uint32_t size)
{
	if (!((uintptr_t)rec & 7))
		return rec;
	if (size > r->scratch_alloc) {
		void *p = realloc(r->scratch, size);

		if (!p)
			return NULL;
		r->scratch = p;
		r->scratch_alloc = size;
	}
	memcpy(r->scratch, rec, size);
	return r->scratch;
}

static int kernel_record(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			 uint64_t off)
{
	static const uint32_t wanted = 1u << PERF_RECORD_SAMPLE | 1u << PERF_RECORD_COMM |
				       1u << PERF_RECORD_FORK | 1u << PERF_RECORD_EXIT |
				       1u << PERF_RECORD_LOST | 1u << PERF_RECORD_LOST_SAMPLES;
	uint32_t type = ts_get_u32(rec);
	int keep = type < 32 && (wanted & (1u << type));
	uint64_t time;
	int ret;

	if (type > PERF_RECORD_TEXT_POKE + 1)
		r->info.nr_unknown_records++;
	rec = aligned(r, rec, size);
	if (!rec)
		return -ENOMEM;
	if (r->opts.unordered)
		return keep ? deliver(r, rec, off) : 0;
	ret = record_time(r, rec, size, off, &time);
	if (ret && !keep) { /* a record we do not use and cannot place: skip it */
		r->err[0] = 0;
		return 0;
	}
	if (ret)
		return ret;
	if (time == 0 || time == UINT64_MAX) /* perf delivers these at once, unqueued */
		return keep ? deliver(r, rec, off) : 0;
	return queue_push(r, keep ? rec : NULL, size, time, off);
}

/* ---- COMPRESSED records: one zstd stream across all of them ----------------------------- */

static int process_record(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			  uint64_t off, int in_z);

static int unpack(struct ts_reader *r, const unsigned char *data, size_t len, uint64_t off)
{
	ZSTD_inBuffer in = { data, len, 0 };
	struct ts_inbuf *z = &r->z;
	int ret;

	if (!r->zstd) {
		r->zstd = ZSTD_createDStream();
		if (!r->zstd)
			return -ENOMEM;
		ZSTD_initDStream(r->zstd);
	}
	r->info.compressed = 1;
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t zr;

		ret = inbuf_reserve(z, (z->end - z->start) + DEFAULT_CHUNK);
		if (ret)
			return ret;
		out.dst = z->buf + z->end;
		out.size = z->alloc - z->end;
		out.pos = 0;
		zr = ZSTD_decompressStream(r->zstd, &out, &in);
		if (ZSTD_isError(zr))
			return ts_reader_fail(r, off, -TS_EZSTD, "COMPRESSED record: %s",
					      ZSTD_getErrorName(zr));
		z->end += out.pos;
		/* hand on every complete record; a partial one waits for the next COMPRESSED */
		while (z->end - z->start >= 8) {
			const unsigned char *rec = z->buf + z->start;
			uint16_t size;

			memcpy(&size, rec + 6, 2);
			if (size < 8)
				return ts_reader_fail(r, off, -TS_ERECSIZE,
						      "record of size %u at byte %llu of the "
						      "decompressed stream",
						      size, (unsigned long long)(z->base + z->start));
			if (z->end - z->start < size)
				break;
			z->start += size;
			ret = process_record(r, rec, size, off, 1);
			if (ret)
				return ret;
		}
		if (z->start == z->end) {
			z->base += z->end;
			z->start = z->end = 0;
		}
	}
	return 0;
}

/* ---- user (perf-written) records ------------------------------------------------------- */

static int header_attr(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off)
{
	uint32_t asize;

	if (size < 8 + PERF_ATTR_SIZE_VER0)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "HEADER_ATTR record too short");
	asize = ts_get_u32(rec + 8 + 4);
	if (asize < PERF_ATTR_SIZE_VER0 || asize > size - 8 || (size - 8 - asize) % 8)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "HEADER_ATTR with attr size %u",
				      asize);
	return ts_reader_add_attr(r, rec + 8, asize, rec + 8 + asize,
				  (size - 8 - asize) / 8, off);
}

/* Pipe-mode tracing data: header.size is 16, the payload (padded to 8) follows outside it. */
static int header_tracing_data(struct ts_reader *r, uint32_t size, uint64_t off, int in_z)
{
	uint32_t len;
	size_t padded;
	int ret;

	if (in_z || size != 16)
		return ts_reader_fail(r, off, -TS_ETRACEDATA,
				      "HEADER_TRACING_DATA of size %u (expected 16)", size);
	len = ts_get_u32(r->in.buf + r->in.start - 16 + 8);
	padded = ((size_t)len + 7) & ~(size_t)7;
	if (padded > MAX_RECORD)
		return ts_reader_fail(r, off, -TS_ETRACEDATA, "tracing data of %u bytes", len);
	ret = fill(r, padded);
	if (ret < 0)
		return ret;
	if (ret)
		return ts_reader_fail(r, off, -TS_ETRUNC, "tracing data (%u bytes) is cut short",
				      len);
	ret = ts_reader_set_tdata(r, r->in.buf + r->in.start, len);
	r->in.start += padded;
	return ret;
}

/* AUXTRACE carries its payload outside header.size too; we skip it. */
static int skip_auxtrace(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			 uint64_t off, int in_z)
{
	uint64_t len;
	int ret;

	if (in_z || size < 16)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "bad AUXTRACE record");
	len = ts_get_u64(rec + 8);
	if (len > MAX_RECORD)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "AUXTRACE of %llu bytes",
				      (unsigned long long)len);
	ret = fill(r, len);
	if (ret < 0)
		return ret;
	if (ret)
		return ts_reader_fail(r, off, -TS_ETRUNC, "AUXTRACE payload is cut short");
	r->in.start += len;
	return 0;
}

/* ID_INDEX: nr entries of { id, idx, cpu, tid }. */
static int id_index(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off)
{
	uint64_t nr, i;
	int ret;

	if (size < 16)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "ID_INDEX record too short");
	nr = ts_get_u64(rec + 8);
	if (nr > (size - 16) / 32)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "ID_INDEX claims %llu entries",
				      (unsigned long long)nr);
	for (i = 0; i < nr; i++) {
		const unsigned char *e = rec + 16 + 32 * i;

		ret = ts_idmap_put(&r->id_cpu, ts_get_u64(e), (int)ts_get_u64(e + 16));
		if (ret)
			return ret;
	}
	return 0;
}

static int process_record(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			  uint64_t off, int in_z)
{
	uint32_t type = ts_get_u32(rec);
	int ret;

	r->info.nr_records++;
	if (type < 64)
		return kernel_record(r, rec, size, off);
	switch (type) {
	case TS_REC_FINISHED_ROUND:
		if (r->opts.unordered)
			return 0;
		ret = queue_flush(r, r->q.next_flush);
		r->q.next_flush = r->q.max_time;
		return ret;
	case TS_REC_HEADER_ATTR:
		return header_attr(r, rec, size, off);
	case TS_REC_HEADER_TRACING_DATA:
		return header_tracing_data(r, size, off, in_z);
	case TS_REC_HEADER_FEATURE:
		if (size < 16)
			return ts_reader_fail(r, off, -TS_ECORRUPT, "HEADER_FEATURE too short");
		return ts_reader_feature(r, (int)ts_get_u64(rec + 8), rec + 16, size - 16, off);
	case TS_REC_COMPRESSED:
		if (in_z)
			return ts_reader_fail(r, off, -TS_ECORRUPT, "COMPRESSED inside COMPRESSED");
		r->z_rec_off = off;
		return unpack(r, rec + 8, size - 8, off);
	case TS_REC_AUXTRACE:
		return skip_auxtrace(r, rec, size, off, in_z);
	case TS_REC_ID_INDEX:
		return id_index(r, rec, size, off);
	default:
		if (type >= TS_REC_MAX)
			r->info.nr_unknown_records++;
		return 0;
	}
}

/*
 * The next record of the top-level stream, consumed. Returns 1 at a clean end, 0 with @rec
 * set, or a negative code (a truncated or zero-size record names its offset).
 */
static int next_record(struct ts_reader *r, const unsigned char **rec, uint32_t *size,
		       uint64_t *off)
{
	uint16_t sz;
	int ret;

	ret = fill(r, 8);
	if (ret < 0)
		return ret;
	*off = r->in.base + r->in.start;
	if (ret) {
		if (r->in.end == r->in.start)
			return 1;
		return ts_reader_fail(r, *off, -TS_ETRUNC, "record header cut short (%zu bytes)",
				      r->in.end - r->in.start);
	}
	memcpy(&sz, r->in.buf + r->in.start + 6, 2);
	if (sz < 8)
		return ts_reader_fail(r, *off, -TS_ERECSIZE, "%s record of size %u",
				      ts_record_name(ts_get_u32(r->in.buf + r->in.start)), sz);
	ret = fill(r, sz);
	if (ret < 0)
		return ret;
	if (ret)
		return ts_reader_fail(r, *off, -TS_ETRUNC, "%s record of %u bytes is cut short",
				      ts_record_name(ts_get_u32(r->in.buf + r->in.start)), sz);
	*rec = r->in.buf + r->in.start;
	*size = sz;
	r->in.start += sz;
	return 0;
}

static int is_header_record(uint32_t type)
{
	switch (type) {
	case TS_REC_HEADER_ATTR:
	case TS_REC_HEADER_EVENT_TYPE:
	case TS_REC_HEADER_TRACING_DATA:
	case TS_REC_HEADER_BUILD_ID:
	case TS_REC_ID_INDEX:
	case TS_REC_EVENT_UPDATE:
	case TS_REC_TIME_CONV:
	case TS_REC_THREAD_MAP:
	case TS_REC_CPU_MAP:
	case TS_REC_HEADER_FEATURE:
	case TS_REC_FINISHED_INIT:
	case TS_REC_STAT_CONFIG:
		return 1;
	default:
		return 0;
	}
}

/* Pipe mode: read the header records (attrs, tracing data, features) before run(). */
int ts_stream_headers(struct ts_reader *r)
{
	const unsigned char *rec;
	uint64_t off;
	uint32_t size;
	int ret;

	if (r->info.kind != TS_INPUT_PIPE)
		return 0;
	for (;;) {
		ret = fill(r, 8);
		if (ret < 0)
			return ret;
		if (ret || !is_header_record(ts_get_u32(r->in.buf + r->in.start)))
			break;
		ret = next_record(r, &rec, &size, &off);
		if (ret < 0)
			return ret;
		ret = process_record(r, rec, size, off, 0);
		if (ret)
			return ret;
	}
	return ts_reader_finish_attrs(r, r->in.base + r->in.start);
}

int ts_reader_run(struct ts_reader *r, const struct ts_reader_ops *ops, void *ctx)
{
	const unsigned char *rec;
	uint64_t off;
	uint32_t size;
	int ret;

	r->ops = ops;
	r->ctx = ctx;
	while (!(ret = next_record(r, &rec, &size, &off))) {
		ret = process_record(r, rec, size, off, 0);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return ret;
	if (r->z.end != r->z.start)
		return ts_reader_fail(r, r->z_rec_off, -TS_ETRUNC,
				      "compressed stream ends inside a record");
	return queue_flush(r, UINT64_MAX);
}

void ts_stream_free(struct ts_reader *r)
{
	free(r->in.buf);
	free(r->z.buf);
	free(r->scratch);
	ZSTD_freeDStream(r->zstd);
	free(r->q.ents);
	free(r->q.tmp);
	free(r->q.arena);
	free(r->q.arena2);
}
