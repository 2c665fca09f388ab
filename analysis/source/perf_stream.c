// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record stream: read() the data (file or pipe) in large chunks, unpack COMPRESSED records
 * through one continuous zstd stream, and deliver records in perf's round-by-round time order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "reader_priv.h"
#include "pipe.h"

/*
 * An eighth of the default soft limit (perf_data.c): a chunk is let go only when every round in
 * it has been merged, and with 1 MiB chunks the scanner passed the soft limit and waited for
 * the merger about once per chunk (133 futex calls against 18 on the 14 MB callchain fixture).
 */
#define DEFAULT_CHUNK (256 * 1024)
#define MAX_RECORD (1u << 30) /* pipe-mode tracing data can be megabytes; nothing is a GB */

/* ---- input buffer ---------------------------------------------------------------------- */

/* Whether the scanner may keep one more chunk of @size for runs to point into. */
static int chunk_fits(struct ts_scanner *sc, size_t size)
{
	size_t held = ts_chunks_held(sc->chunks);

	if (!sc->r->use_runs || sc->r->scan_read)
		return 0; /* runs are copies, or in the mapping: this buffer is only read through */
	if (held + size <= sc->r->soft)
		return 1;
	/*
	 * The merger may still be on rounds already sent: wait for it, so that the scanner
	 * does not read far ahead into memory. What is held after that, the rounds not flushed
	 * yet need; they may have up to the budget. But while the merger is still on a round
	 * larger than half the budget, it is busy for a while, and the rounds read meanwhile
	 * would not fit beside it (perf's order keeps two open): the scanner reads on, into a
	 * chunk that runs do not keep, so that the next big round is found before the merger
	 * runs dry. Where every round is small, the scanner always waits here, and what is
	 * read once does not depend on the threads' timing. A scanner started at the open
	 * (ts_reader_start()) waits here for the run to begin: reading on past the budget
	 * while the caller still sets up would read the rounds past it twice, more or fewer of
	 * them as the threads' timing falls.
	 */
	if (sc->pipe && sc->sent &&
	    __atomic_load_n(&sc->r->m.flushes_done, __ATOMIC_RELAXED) >= sc->big_until) {
		if (ts_pipe_drain(sc->pipe))
			return -ECANCELED;
		sc->sent = 0;
		held = ts_chunks_held(sc->chunks);
	}
	return held + size <= sc->r->budget;
}

/*
 * Room for @need bytes from b->start. The buffer's chunk moves its unread bytes to the front,
 * or grows, unless runs point into it (file mode merges records where they were read): then
 * those bytes go to a new chunk, and the runs keep the old one.
 */
static int inbuf_reserve(struct ts_scanner *sc, struct ts_inbuf *b, size_t need)
{
	size_t live = b->end - b->start, at = b->start & 7;
	size_t alloc = sc->r->opts.bufsize ? sc->r->opts.bufsize : DEFAULT_CHUNK;
	struct ts_chunk *c = b->chunk, *n;
	int fits = 0;

	if (c && b->alloc - b->start >= need && !(b->start && b->end == b->start))
		return 0;
	while (alloc - at < need)
		alloc *= 2;
	if (!c || ts_chunk_shared(c)) {
		fits = chunk_fits(sc, alloc); /* may wait for the merger, which may let go of c */
		if (fits < 0)
			return fits;
	}
	if (c && !ts_chunk_shared(c)) {
		/* keep the record's stream offset congruent mod 8 so that u64 fields stay aligned */
		memmove(b->buf + at, b->buf + b->start, live);
		b->base += b->start - at;
		b->start = at;
		b->end = at + live;
		if (b->alloc - b->start < need) {
			alloc = b->alloc;
			while (alloc - b->start < need)
				alloc *= 2;
			n = ts_chunk_resize(c, alloc);
			if (!n)
				return -ENOMEM;
			b->chunk = n;
			b->buf = n->data;
			b->alloc = alloc;
		}
		b->chunk->base = b->base;
		fits = chunk_fits(sc, 0);
		b->keep = fits > 0;
		return fits < 0 ? fits : 0;
	}
	n = ts_chunk_new(sc->chunks, alloc, b->base + b->start - at);
	if (!n)
		return -ENOMEM;
	if (live)
		memcpy(n->data + at, b->buf + b->start, live);
	ts_chunk_put(c);
	b->chunk = n;
	b->buf = n->data;
	b->alloc = alloc;
	b->base = n->base;
	b->start = at;
	b->end = at + live;
	b->keep = fits;
	return 0;
}

/*
 * Make at least @need bytes available at in.start. Returns 0 when they are, 1 when the data
 * ends first (the caller decides whether that is the clean end or a truncation).
 */
static int fill(struct ts_scanner *sc, size_t need)
{
	struct ts_inbuf *b = &sc->in;
	size_t chunk = sc->r->opts.bufsize ? sc->r->opts.bufsize : DEFAULT_CHUNK;
	int ret;

	if (sc->r->map_input && !sc->r->scan_read) /* the whole data section is at hand */
		return b->end - b->start < need;
	while (b->end - b->start < need) {
		uint64_t at = b->base + b->end;
		size_t want;
		ssize_t n;

		if (sc->eof || at >= sc->data_end)
			return 1;
		ret = inbuf_reserve(sc, b, need > chunk ? need : chunk);
		if (ret)
			return ret;
		want = b->alloc - b->end;
		if (sc->data_end - at < want)
			want = sc->data_end - at;
		n = read(sc->r->fd, b->buf + b->end, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ts_scan_fail(sc, at, -errno, "read: %s", strerror(errno));
		if (n == 0)
			sc->eof = 1;
		if (sc->r->opts.sha256)
			ts_hash_read(sc, at, b->buf + b->end, (size_t)n);
		b->end += n;
	}
	return 0;
}

/* ---- COMPRESSED records: one zstd stream across all of them ----------------------------- */

static int process_record(struct ts_scanner *sc, const unsigned char *rec, uint32_t size,
			  uint64_t off, int in_z);

static int unpack(struct ts_scanner *sc, const unsigned char *data, size_t len, uint64_t off)
{
	ZSTD_inBuffer in = { data, len, 0 };
	struct ts_inbuf *z = &sc->z;
	int ret;

	if (!sc->zstd) {
		sc->zstd = ZSTD_createDStream();
		if (!sc->zstd)
			return -ENOMEM;
		ZSTD_initDStream(sc->zstd);
	}
	sc->cnt.compressed = 1;
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t zr;

		ret = inbuf_reserve(sc, z, (z->end - z->start) + DEFAULT_CHUNK);
		if (ret)
			return ret;
		out.dst = z->buf + z->end;
		out.size = z->alloc - z->end;
		out.pos = 0;
		zr = ZSTD_decompressStream(sc->zstd, &out, &in);
		if (ZSTD_isError(zr))
			return ts_scan_fail(sc, off, -TS_EZSTD, "COMPRESSED record: %s",
					    ZSTD_getErrorName(zr));
		z->end += out.pos;
		/* hand on every complete record; a partial one waits for the next COMPRESSED */
		while (z->end - z->start >= 8) {
			const unsigned char *rec = z->buf + z->start;
			uint16_t size;

			memcpy(&size, rec + 6, 2);
			if (size < 8)
				return ts_scan_fail(sc, off, -TS_ERECSIZE,
						    "record of size %u at byte %llu of the "
						    "decompressed stream",
						    size, (unsigned long long)(z->base + z->start));
			if (z->end - z->start < size)
				break;
			z->start += size;
			ret = process_record(sc, rec, size, off, 1);
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

/*
 * COMPRESSED2 (perf 6.16 and later): the header, a u64 count of compressed bytes, the bytes,
 * then padding to 8 that header.size includes (tools/perf/Documentation/perf.data-file-format).
 */
static int compressed2(struct ts_scanner *sc, const unsigned char *rec, uint32_t size, uint64_t off,
		       int in_z)
{
	uint64_t len;

	if (in_z)
		return ts_scan_fail(sc, off, -TS_ECORRUPT,
				    "COMPRESSED2 inside a compressed record");
	if (size < 16)
		return ts_scan_fail(sc, off, -TS_ECORRUPT, "COMPRESSED2 record of %u bytes", size);
	len = ts_get_u64(rec + 8);
	if (len > size - 16)
		return ts_scan_fail(sc, off, -TS_ECORRUPT,
				    "COMPRESSED2 record of %u bytes claims %llu bytes of data",
				    size, (unsigned long long)len);
	sc->z_rec_off = off;
	return unpack(sc, rec + 16, len, off);
}

/* ---- user (perf-written) records ------------------------------------------------------- */

static int header_attr(struct ts_scanner *sc, struct ts_reader *u, const unsigned char *rec,
		       uint32_t size, uint64_t off)
{
	uint32_t asize;

	if (size < 8 + PERF_ATTR_SIZE_VER0)
		return ts_scan_fail(sc, off, -TS_ECORRUPT, "HEADER_ATTR record too short");
	asize = ts_get_u32(rec + 8 + 4);
	if (asize < PERF_ATTR_SIZE_VER0 || asize > size - 8 || (size - 8 - asize) % 8)
		return ts_scan_fail(sc, off, -TS_ECORRUPT, "HEADER_ATTR with attr size %u", asize);
	return ts_reader_add_attr(u, rec + 8, asize, rec + 8 + asize, (size - 8 - asize) / 8, off);
}

/*
 * Pipe-mode tracing data: header.size is 16 (perf before about 4.10 wrote 12: the header and
 * the u32 size, unpadded), the payload (padded to 8) follows outside it.
 */
static int header_tracing_data(struct ts_scanner *sc, struct ts_reader *u, uint32_t size,
			       uint64_t off, int in_z)
{
	uint32_t len;
	size_t padded;
	int ret;

	if (in_z || (size != 16 && size != 12))
		return ts_scan_fail(sc, off, -TS_ETRACEDATA,
				    "HEADER_TRACING_DATA of size %u (expected 12 or 16)", size);
	len = ts_get_u32(sc->in.buf + sc->in.start - size + 8);
	padded = ((size_t)len + 7) & ~(size_t)7;
	if (padded > MAX_RECORD)
		return ts_scan_fail(sc, off, -TS_ETRACEDATA, "tracing data of %u bytes", len);
	ret = fill(sc, padded);
	if (ret < 0)
		return ret;
	if (ret)
		return ts_scan_fail(sc, off, -TS_ETRUNC, "tracing data (%u bytes) is cut short",
				    len);
	if (!len)
		return ts_scan_fail(sc, off, -TS_ETRACEDATA, "HEADER_TRACING_DATA is empty");
	ret = ts_reader_set_tdata(u, sc->in.buf + sc->in.start, len);
	sc->in.start += padded;
	return ret;
}

/* AUXTRACE carries its payload outside header.size too; we skip it. */
static int skip_auxtrace(struct ts_scanner *sc, const unsigned char *rec, uint32_t size,
			 uint64_t off, int in_z)
{
	uint64_t len;
	int ret;

	if (in_z || size < 16)
		return ts_scan_fail(sc, off, -TS_ECORRUPT, "bad AUXTRACE record");
	len = ts_get_u64(rec + 8);
	if (len > MAX_RECORD)
		return ts_scan_fail(sc, off, -TS_ECORRUPT, "AUXTRACE of %llu bytes",
				    (unsigned long long)len);
	ret = fill(sc, len);
	if (ret < 0)
		return ret;
	if (ret)
		return ts_scan_fail(sc, off, -TS_ETRUNC, "AUXTRACE payload is cut short");
	sc->in.start += len;
	return 0;
}

/* ID_INDEX: nr entries of { id, idx, cpu, tid }. */
static int id_index(struct ts_scanner *sc, struct ts_reader *u, const unsigned char *rec,
		    uint32_t size, uint64_t off)
{
	uint64_t nr, i;
	int ret;

	if (size < 16)
		return ts_scan_fail(sc, off, -TS_ECORRUPT, "ID_INDEX record too short");
	nr = ts_get_u64(rec + 8);
	if (nr > (size - 16) / 32)
		return ts_scan_fail(sc, off, -TS_ECORRUPT, "ID_INDEX claims %llu entries",
				    (unsigned long long)nr);
	for (i = 0; i < nr; i++) {
		const unsigned char *e = rec + 16 + 32 * i;

		ret = ts_idmap_put(&u->id_cpu, ts_get_u64(e), (int)ts_get_u64(e + 16));
		if (ret)
			return ret;
	}
	/* in file mode found before the run too (find_kernel_map); joins info at the end */
	if (ts_id_index_tasks(rec, size))
		sc->cnt.per_task = 1;
	return 0;
}

/*
 * A record that changes the header state delivery reads (attrs, ids, tracing data, features):
 * with the merger idle (ts_scan_user()), the scanner writes it; a message the header code left
 * in the merger's buffer becomes the scanner's.
 */
static int user_record(struct ts_scanner *sc, uint32_t type, const unsigned char *rec,
		       uint32_t size, uint64_t off, int in_z)
{
	struct ts_reader *u;
	int ret;

	/*
	 * ID_INDEX (perf's first record of a file) only adds to id_cpu, which the merger reads
	 * when it delivers a LOST record: before the first flush it delivers nothing, so there is
	 * no need to wait for it, which ts_reader_start()'s scanner would do until the run begins.
	 * A later one (a crafted or concatenated file) waits for it like the other header records:
	 * id_cpu may grow under a LOST record's lookup.
	 */
	if (type != TS_REC_HEADER_ATTR && type != TS_REC_HEADER_TRACING_DATA &&
	    type != TS_REC_HEADER_FEATURE && (sc->deliver || !sc->flushes_sent))
		return id_index(sc, ts_scan_reader(sc), rec, size, off);
	u = ts_scan_user(sc);

	if (!u)
		return -ECANCELED;
	switch (type) {
	case TS_REC_HEADER_ATTR:
		ret = header_attr(sc, u, rec, size, off);
		break;
	case TS_REC_HEADER_TRACING_DATA:
		ret = header_tracing_data(sc, u, size, off, in_z);
		break;
	case TS_REC_HEADER_FEATURE:
		if (size < 16)
			return ts_scan_fail(sc, off, -TS_ECORRUPT, "HEADER_FEATURE too short");
		ret = ts_reader_feature(u, (int)ts_get_u64(rec + 8), rec + 16, size - 16, off);
		break;
	default:
		ret = id_index(sc, u, rec, size, off);
		break;
	}
	if (ret && u->m.err[0] && !sc->err[0]) {
		memcpy(sc->err, u->m.err, sizeof(sc->err));
		u->m.err[0] = 0;
	}
	return ret;
}

static int process_record(struct ts_scanner *sc, const unsigned char *rec, uint32_t size,
			  uint64_t off, int in_z)
{
	uint32_t type = ts_get_u32(rec);

	sc->cnt.nr_records++;
	if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) && !sc->cnt.kernel_ref[0]) {
		ts_kernel_map(rec, size, sc->cnt.kernel_ref, &sc->cnt.kernel_ref_addr);
		if (sc->cnt.kernel_ref[0] && ts_queue_kernel_ref(sc))
			return -ECANCELED;
	}
	if (type < 64)
		return ts_queue_record(sc, rec, size, off, in_z);
	switch (type) {
	case TS_REC_FINISHED_ROUND:
		return ts_queue_round(sc, off);
	case TS_REC_HEADER_ATTR:
	case TS_REC_HEADER_TRACING_DATA:
	case TS_REC_HEADER_FEATURE:
	case TS_REC_ID_INDEX: /* these change what delivery reads */
		return user_record(sc, type, rec, size, off, in_z);
	case TS_REC_COMPRESSED:
		if (in_z)
			return ts_scan_fail(sc, off, -TS_ECORRUPT, "COMPRESSED inside COMPRESSED");
		sc->z_rec_off = off;
		return unpack(sc, rec + 8, size - 8, off);
	case TS_REC_COMPRESSED2:
		return compressed2(sc, rec, size, off, in_z);
	case TS_REC_AUXTRACE:
		return skip_auxtrace(sc, rec, size, off, in_z);
	default:
		if (type >= TS_REC_MAX)
			ts_scan_unknown(sc, type, off);
		return 0;
	}
}

/*
 * The stream ends inside a record. A file is damaged: an error. A pipe was cut (a killed
 * perf, a full disk): unless opts.strict, what came before is good data, so say where the cut
 * is and end there as at a clean end (returns 1).
 */
static int __attribute__((format(printf, 3, 4)))
cut(struct ts_scanner *sc, uint64_t off, const char *fmt, ...)
{
	char what[sizeof(sc->cnt.cut_what)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (sc->data_end != UINT64_MAX || sc->r->opts.strict)
		return ts_scan_fail(sc, off, -TS_ETRUNC, "%s", what);
	/* warned of when the scanner's counts join the info: ts_reader_run() */
	sc->cnt.cut_at = off;
	memcpy(sc->cnt.cut_what, what, sizeof(what));
	sc->in.start = sc->in.end;
	return 1;
}

/*
 * The next record of the top-level stream, consumed. Returns 1 at a clean end, 0 with @rec
 * set, or a negative code (a truncated or zero-size record names its offset).
 */
static int next_record(struct ts_scanner *sc, const unsigned char **rec, uint32_t *size,
		       uint64_t *off)
{
	struct ts_inbuf *b = &sc->in;
	uint16_t sz;
	int ret;

	/* the common case: the whole record is already in the buffer */
	if (b->end - b->start >= 8) {
		memcpy(&sz, b->buf + b->start + 6, 2);
		if (sz >= 8 && b->end - b->start >= sz) {
			*off = b->base + b->start;
			*rec = b->buf + b->start;
			*size = sz;
			b->start += sz;
			return 0;
		}
	}
	ret = fill(sc, 8);
	if (ret < 0)
		return ret;
	*off = sc->in.base + sc->in.start;
	if (ret) {
		if (sc->in.end == sc->in.start && sc->data_end != UINT64_MAX && *off < sc->data_end)
			return ts_scan_fail(sc, *off, -TS_ETRUNC,
					    "file ends inside the data section (%llu bytes short)",
					    (unsigned long long)(sc->data_end - *off));
		if (sc->in.end == sc->in.start)
			return 1;
		return cut(sc, *off, "record header cut short (%zu bytes)",
			   sc->in.end - sc->in.start);
	}
	memcpy(&sz, sc->in.buf + sc->in.start + 6, 2);
	if (sz < 8)
		return ts_scan_fail(sc, *off, -TS_ERECSIZE, "%s record of size %u",
				    ts_record_name(ts_get_u32(sc->in.buf + sc->in.start)), sz);
	ret = fill(sc, sz);
	if (ret < 0)
		return ret;
	if (ret)
		return cut(sc, *off, "%s record of %u bytes is cut short (%zu bytes)",
			   ts_record_name(ts_get_u32(sc->in.buf + sc->in.start)), sz,
			   sc->in.end - sc->in.start);
	*rec = sc->in.buf + sc->in.start;
	*size = sz;
	sc->in.start += sz;
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

/*
 * What the scanner found that the info reports: whether ID_INDEX named tasks, compressed
 * data, and the cut a pipe ended in (warned of once). After the headers (a caller may read no further: the
 * plugin) and after the run.
 */
static void join_found(struct ts_reader *r)
{
	struct ts_scan_count *c = &r->s.cnt;

	r->m.info.per_task |= c->per_task;
	r->m.info.compressed |= c->compressed;
	if (c->z_tail_bytes) {
		r->m.info.z_tail_bytes = c->z_tail_bytes;
		ts_reader_warn(r, c->z_tail_off,
			       "the compressed stream ends %s: dropped, as perf does "
			       "(--strict: an error)",
			       c->z_tail_what);
		c->z_tail_bytes = 0;
	}
	if (!c->cut_at)
		return;
	r->m.info.cut_at = c->cut_at;
	if (r->m.info.nr_warnings < TS_READER_MAX_WARNINGS)
		r->m.cut_warning = r->m.info.nr_warnings + 1;
	ts_reader_warn(r, c->cut_at,
		       "the input was cut here: %s; the records before it are read "
		       "(--strict makes this an error)",
		       c->cut_what);
	c->cut_at = 0;
}

uint64_t ts_reader_cut_error(struct ts_reader *r, const char *why, char *err, size_t len)
{
	struct ts_file_info *i = &r->m.info;
	int k = r->m.cut_warning - 1;

	if (!i->cut_at)
		return 0;
	snprintf(err, len, "%s: offset %#llx: the input was cut here, %s: %s", r->path,
		 (unsigned long long)i->cut_at, why, r->s.cnt.cut_what);
	if (k >= 0 && k < i->nr_warnings && k < TS_READER_MAX_WARNINGS) {
		memmove(i->warnings + k, i->warnings + k + 1, /* k + 1 may be the end: no index */
			(size_t)(TS_READER_MAX_WARNINGS - k - 1) * sizeof(i->warnings[0]));
		i->nr_warnings--;
		r->m.cut_warning = 0;
	}
	return i->cut_at;
}

/* Pipe mode: read the header records (attrs, tracing data, features) before run(). */
int ts_stream_headers(struct ts_reader *r)
{
	struct ts_scanner *sc = &r->s;
	const unsigned char *rec;
	uint64_t off;
	uint32_t size;
	int ret;

	if (r->m.info.kind != TS_INPUT_PIPE)
		return 0;
	for (;;) {
		ret = fill(sc, 8);
		if (ret < 0)
			goto fail;
		/* a record header cut short: next_record() says where (a cut, or --strict's error) */
		if (ret && sc->in.end == sc->in.start)
			break;
		if (!ret && !is_header_record(ts_get_u32(sc->in.buf + sc->in.start)))
			break;
		ret = next_record(sc, &rec, &size, &off);
		if (ret < 0)
			goto fail;
		if (ret) /* cut inside a header record: warned of, the end */
			break;
		ret = process_record(sc, rec, size, off, 0);
		if (ret)
			goto fail;
	}
	join_found(r);
	/* cut before any attr: the cut is the one thing to say */
	if (!r->nr_attrs &&
	    ts_reader_cut_error(r, "before its event attrs", r->m.err, sizeof(r->m.err)))
		return -TS_ETRUNC;
	return ts_reader_finish_attrs(r, sc->in.base + sc->in.start);
fail:
	join_found(r);
	if (!r->m.err[0])
		memcpy(r->m.err, sc->err, sizeof(r->m.err));
	return ret;
}

/*
 * A mapped input: the scanner lets go of the pages it has read (the runs touch theirs again
 * when they are merged), and checks that the file still holds its data section.
 */
static int scan_drop(struct ts_scanner *sc, uint64_t off)
{
	uint64_t from = sc->in.base + sc->dropped, to = sc->in.base + sc->in.start;

	ts_input_drop(sc->r, sc->in.chunk, from, to);
	sc->dropped = sc->in.start & ~(uint64_t)(sc->r->page - 1);
	return ts_input_shrunk(sc->r, sc->err, off);
}

/*
 * A mapped input, past @off: every 2 MiB (4 drop steps) the file must still hold its data
 * section, and a scanner that walks the mapping lets go of the pages behind it.
 */
static int scan_check(struct ts_scanner *sc, uint64_t off)
{
	if (sc->r->scan_read) {
		if (off - sc->checked < 4 * sc->r->drop_step)
			return 0;
		sc->checked = off;
		return ts_input_shrunk(sc->r, sc->err, off);
	}
	if (sc->r->map_input && sc->in.start - sc->dropped >= 4 * sc->r->drop_step)
		return scan_drop(sc, off);
	return 0;
}

/*
 * The data section is read, but the decompressed stream ends inside a record. perf record -z
 * (6.1 at least) leaves such files: its compressor's flush may not fit the record it writes
 * (its return is not checked), the rest waits in the zstd stream for the next flush, and
 * the last one never comes. perf reads the records before and drops the bytes left; so does
 * this reader, with a warning naming the last COMPRESSED record (--strict: an error).
 */
static int z_tail(struct ts_scanner *sc)
{
	const unsigned char *rec = sc->z.buf + sc->z.start;
	uint64_t left = sc->z.end - sc->z.start;
	char *what = sc->cnt.z_tail_what;
	size_t len = sizeof(sc->cnt.z_tail_what);

	if (left >= 8)
		snprintf(what, len, "%llu bytes into a %s record of %u bytes",
			 (unsigned long long)left, ts_record_name(ts_get_u32(rec)),
			 (unsigned)rec[6] | (unsigned)rec[7] << 8);
	else
		snprintf(what, len, "%llu bytes into a record header", (unsigned long long)left);
	if (sc->r->opts.strict)
		return ts_scan_fail(sc, sc->z_rec_off, -TS_ETRUNC, "the compressed stream ends %s",
				    what);
	sc->cnt.z_tail_off = sc->z_rec_off;
	sc->cnt.z_tail_bytes = left;
	sc->z.start = sc->z.end;
	return 0;
}

/* Every record to the end, through the queue. Return: 0 or a negative code. */
static int read_records(struct ts_scanner *sc)
{
	const unsigned char *rec;
	uint64_t off;
	uint32_t size;
	int ret;

	/* mapped: the file may have shrunk since the open (then checked at each drop) */
	if (sc->r->map_input && (ret = ts_input_shrunk(sc->r, sc->err, sc->in.base + sc->in.start)))
		return ret;
	for (;;) {
		/* the common samples in the buffer, in one loop; then a record the usual way */
		if (sc->r->use_runs && sc->in.end > sc->in.start) {
			long n = ts_queue_samples(sc, sc->in.buf + sc->in.start,
						  sc->in.end - sc->in.start,
						  sc->in.base + sc->in.start);

			if (n < 0)
				return (int)n;
			sc->in.start += n;
			if (n && (ret = scan_check(sc, sc->in.base + sc->in.start)))
				return ret;
		}
		ret = next_record(sc, &rec, &size, &off);
		if (ret)
			break;
		ret = process_record(sc, rec, size, off, 0);
		if (!ret)
			ret = scan_check(sc, off);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return ret;
	if (sc->z.end != sc->z.start && (ret = z_tail(sc)))
		return ret;
	return ts_queue_final(sc, sc->in.base + sc->in.start);
}

static void *scan_main(void *arg)
{
	struct ts_scanner *sc = arg;

	ts_queue_scan_end(sc, read_records(sc));
	return NULL;
}

/*
 * Two threads over a seekable file: a scanning thread reads it for runs and round markers
 * while this one merges and delivers (perf_queue.c). Started by ts_reader_start(), or here.
 * Return: 0 with r->scan_started set, or 0 without it when no thread is to be had
 * (RLIMIT_NPROC: the caller reads it all itself), or a negative code.
 */
static int scan_start(struct ts_reader *r, int hold)
{
	int ret;

	ret = ts_queue_scan_start(r);
	if (ret)
		return ret;
	if (hold)
		ts_pipe_hold(r->s.pipe);
	r->s.deliver = NULL; /* from here the scanner only sends */
	if (pthread_create(&r->scan_thread, NULL, scan_main, &r->s)) {
		ts_pipe_free(r->s.pipe);
		r->s.pipe = NULL;
		r->s.deliver = r;
		return 0;
	}
	r->scan_started = 1;
	return 0;
}

/* Join the scanning thread, free the ring and what its untaken messages hold. */
static void scan_join(struct ts_reader *r)
{
	pthread_join(r->scan_thread, NULL);
	ts_queue_scan_discard(r);
	r->scan_started = 0;
	ts_pipe_free(r->s.pipe);
	r->s.pipe = NULL;
	r->s.deliver = r;
}

int ts_reader_start(struct ts_reader *r)
{
	if (r->scan_started || r->hash_begun || !r->use_runs || !r->opts.threaded)
		return 0;
	ts_hash_begin(r);
	r->hash_begun = 1;
	return scan_start(r, 1);
}

/*
 * The first error in file order wins: the merger's, since it is behind the scanner, else the
 * scanner's (sent as its last message). With no thread, *@alone says the caller reads it all.
 */
static int run_threaded(struct ts_reader *r, int *alone)
{
	int ret;

	if (!r->scan_started) {
		ret = scan_start(r, 0);
		if (ret)
			return ret;
	}
	*alone = !r->scan_started;
	if (*alone)
		return 0;
	ret = ts_queue_scan_merge(r);
	scan_join(r);
	return ret;
}

/* The scanner is done (joined, or it was this thread): its counts join the info. */
static void join_scanner(struct ts_reader *r)
{
	const struct ts_scan_count *c = &r->s.cnt;

	r->m.info.nr_records = c->nr_records;
	r->m.info.nr_out_of_order += c->nr_out_of_order;
	r->m.info.spilled_bytes = c->spilled_bytes;
	r->m.info.max_round_bytes = c->max_round_bytes;
	r->m.info.round_budget = r->budget;
	join_found(r);
	if (c->nr_unknown_records && !r->m.info.nr_unknown_records)
		ts_reader_warn(r, c->unknown_off,
			       "record type %u is unknown to this reader (a newer perf?): "
			       "skipped, with any samples it holds",
			       c->unknown_type);
	r->m.info.nr_unknown_records += c->nr_unknown_records;
	ts_reader_set_kernel_ref(r, c->kernel_ref, c->kernel_ref_addr);
}

int ts_reader_run(struct ts_reader *r, const struct ts_reader_ops *ops, void *ctx)
{
	int ret = 0, alone = 1;

	r->ops = ops;
	r->ctx = ctx;
	if (!r->hash_begun)
		ts_hash_begin(r);
	r->hash_begun = 1;
	if (r->use_runs && r->opts.threaded)
		ret = run_threaded(r, &alone);
	if (!ret && alone) /* this thread alone: the scanner delivers through r->s.deliver */
		ret = read_records(&r->s);
	join_scanner(r);
	ts_hash_end(r, ret);
	if (ret && !r->m.err[0]) /* a scanner's error on this thread, or sent as a message */
		memcpy(r->m.err, r->s.err, sizeof(r->m.err));
	return ret;
}

uint64_t ts_reader_last_offset(const struct ts_reader *r)
{
	return r->m.cur_off;
}

uint64_t ts_reader_offset(const struct ts_reader *r)
{
	if (r->m.info.kind == TS_INPUT_FILE)
		return r->tdata ? r->tdata_off : 72; /* the feature bits of the header */
	return r->s.in.base + r->s.in.start;
}

/* Let go of @b's chunk: nothing is buffered after it, and its stream offset stays. */
static void inbuf_free(struct ts_inbuf *b)
{
	ts_chunk_put(b->chunk);
	b->chunk = NULL;
	b->buf = NULL;
	b->alloc = 0;
	b->end = b->start;
	b->keep = 0;
}

/* Free what the reading holds; what it freed is NULL after it, so that a second call is safe. */
void ts_stream_free(struct ts_reader *r)
{
	if (r->scan_started) { /* started, and not run: stop it, and let go of what it sent */
		ts_pipe_stop(r->s.pipe);
		scan_join(r);
	}
	inbuf_free(&r->s.in);
	inbuf_free(&r->s.z);
	ts_chunk_put(r->s.map);
	r->s.map = NULL;
	free(r->s.scratch);
	r->s.scratch = NULL;
	r->s.scratch_alloc = 0;
	free(r->m.scratch);
	r->m.scratch = NULL;
	r->m.scratch_alloc = 0;
	ZSTD_freeDStream(r->s.zstd);
	r->s.zstd = NULL;
	ts_queue_free(r);
}

void ts_reader_drop_rounds(struct ts_reader *r)
{
	if (r)
		ts_stream_free(r); /* ts_reader_close() calls it again */
}
