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

#define DEFAULT_CHUNK (1024 * 1024)
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
						      size,
						      (unsigned long long)(z->base + z->start));
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

/*
 * COMPRESSED2 (perf 6.16 and later): the header, a u64 count of compressed bytes, the bytes,
 * then padding to 8 that header.size includes (tools/perf/Documentation/perf.data-file-format).
 */
static int compressed2(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off,
		       int in_z)
{
	uint64_t len;

	if (in_z)
		return ts_reader_fail(r, off, -TS_ECORRUPT,
				      "COMPRESSED2 inside a compressed record");
	if (size < 16)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "COMPRESSED2 record of %u bytes", size);
	len = ts_get_u64(rec + 8);
	if (len > size - 16)
		return ts_reader_fail(r, off, -TS_ECORRUPT,
				      "COMPRESSED2 record of %u bytes claims %llu bytes of data",
				      size, (unsigned long long)len);
	r->z_rec_off = off;
	return unpack(r, rec + 16, len, off);
}

/* ---- user (perf-written) records ------------------------------------------------------- */

static int header_attr(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off)
{
	uint32_t asize;

	if (size < 8 + PERF_ATTR_SIZE_VER0)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "HEADER_ATTR record too short");
	asize = ts_get_u32(rec + 8 + 4);
	if (asize < PERF_ATTR_SIZE_VER0 || asize > size - 8 || (size - 8 - asize) % 8)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "HEADER_ATTR with attr size %u", asize);
	return ts_reader_add_attr(r, rec + 8, asize, rec + 8 + asize, (size - 8 - asize) / 8, off);
}

/*
 * Pipe-mode tracing data: header.size is 16 (perf before about 4.10 wrote 12: the header and
 * the u32 size, unpadded), the payload (padded to 8) follows outside it.
 */
static int header_tracing_data(struct ts_reader *r, uint32_t size, uint64_t off, int in_z)
{
	uint32_t len;
	size_t padded;
	int ret;

	if (in_z || (size != 16 && size != 12))
		return ts_reader_fail(r, off, -TS_ETRACEDATA,
				      "HEADER_TRACING_DATA of size %u (expected 12 or 16)", size);
	len = ts_get_u32(r->in.buf + r->in.start - size + 8);
	padded = ((size_t)len + 7) & ~(size_t)7;
	if (padded > MAX_RECORD)
		return ts_reader_fail(r, off, -TS_ETRACEDATA, "tracing data of %u bytes", len);
	ret = fill(r, padded);
	if (ret < 0)
		return ret;
	if (ret)
		return ts_reader_fail(r, off, -TS_ETRUNC, "tracing data (%u bytes) is cut short",
				      len);
	if (!len)
		return ts_reader_fail(r, off, -TS_ETRACEDATA, "HEADER_TRACING_DATA is empty");
	ret = ts_reader_set_tdata(r, r->in.buf + r->in.start, len);
	r->in.start += padded;
	return ret;
}

/* AUXTRACE carries its payload outside header.size too; we skip it. */
static int skip_auxtrace(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off,
			 int in_z)
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
	/* in file mode found before the run (find_kernel_map); written once, never cleared */
	if (!r->info.per_task)
		ts_reader_id_index_tasks(r, rec, size);
	return 0;
}

static int process_record(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			  uint64_t off, int in_z)
{
	uint32_t type = ts_get_u32(rec);

	r->scount.nr_records++;
	if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) && !r->scount.kernel_ref[0]) {
		ts_kernel_map(rec, size, r->scount.kernel_ref, &r->scount.kernel_ref_addr);
		if (r->scount.kernel_ref[0] && ts_queue_kernel_ref(r))
			return -ECANCELED;
	}
	if (type < 64)
		return ts_queue_record(r, rec, size, off, in_z);
	/* these change what delivery reads: a scanning thread waits for the merger */
	if ((type == TS_REC_HEADER_ATTR || type == TS_REC_HEADER_TRACING_DATA ||
	     type == TS_REC_HEADER_FEATURE || type == TS_REC_ID_INDEX) &&
	    ts_queue_scan_user(r))
		return -ECANCELED;
	switch (type) {
	case TS_REC_FINISHED_ROUND:
		return ts_queue_round(r, off);
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
	case TS_REC_COMPRESSED2:
		return compressed2(r, rec, size, off, in_z);
	case TS_REC_AUXTRACE:
		return skip_auxtrace(r, rec, size, off, in_z);
	case TS_REC_ID_INDEX:
		return id_index(r, rec, size, off);
	default:
		if (type >= TS_REC_MAX)
			ts_scan_unknown(r, type, off);
		return 0;
	}
}

/*
 * The stream ends inside a record. A file is damaged: an error. A pipe was cut (a killed
 * perf, a full disk): unless opts.strict, what came before is good data, so say where the cut
 * is and end there as at a clean end (returns 1).
 */
static int __attribute__((format(printf, 3, 4)))
cut(struct ts_reader *r, uint64_t off, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->data_end != UINT64_MAX || r->opts.strict)
		return ts_reader_fail(r, off, -TS_ETRUNC, "%s", what);
	r->info.cut_at = off;
	ts_reader_warn(r, off,
		       "the input was cut here: %s; the records before it are read "
		       "(--strict makes this an error)",
		       what);
	r->in.start = r->in.end;
	return 1;
}

/*
 * The next record of the top-level stream, consumed. Returns 1 at a clean end, 0 with @rec
 * set, or a negative code (a truncated or zero-size record names its offset).
 */
static int next_record(struct ts_reader *r, const unsigned char **rec, uint32_t *size,
		       uint64_t *off)
{
	struct ts_inbuf *b = &r->in;
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
	ret = fill(r, 8);
	if (ret < 0)
		return ret;
	*off = r->in.base + r->in.start;
	if (ret) {
		if (r->in.end == r->in.start && r->data_end != UINT64_MAX && *off < r->data_end)
			return ts_reader_fail(
				r, *off, -TS_ETRUNC,
				"file ends inside the data section (%llu bytes short)",
				(unsigned long long)(r->data_end - *off));
		if (r->in.end == r->in.start)
			return 1;
		return cut(r, *off, "record header cut short (%zu bytes)", r->in.end - r->in.start);
	}
	memcpy(&sz, r->in.buf + r->in.start + 6, 2);
	if (sz < 8)
		return ts_reader_fail(r, *off, -TS_ERECSIZE, "%s record of size %u",
				      ts_record_name(ts_get_u32(r->in.buf + r->in.start)), sz);
	ret = fill(r, sz);
	if (ret < 0)
		return ret;
	if (ret)
		return cut(r, *off, "%s record of %u bytes is cut short (%zu bytes)",
			   ts_record_name(ts_get_u32(r->in.buf + r->in.start)), sz,
			   r->in.end - r->in.start);
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

/* Every record to the end, through the queue. Return: 0 or a negative code. */
static int read_records(struct ts_reader *r)
{
	const unsigned char *rec;
	uint64_t off;
	uint32_t size;
	int ret;

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
	return ts_queue_final(r, r->in.base + r->in.start);
}

static int read_all(struct ts_reader *r)
{
	return read_records(r);
}

static void *scan_main(void *arg)
{
	struct ts_reader *r = arg;

	ts_queue_scan_end(r, read_all(r));
	return NULL;
}

/*
 * Two threads over a seekable file: a scanning thread reads it for runs and round markers
 * while this one merges and delivers (perf_queue.c). The first error in file order wins: the
 * merger's, since it is behind the scanner, else the scanner's.
 */
static int run_threaded(struct ts_reader *r)
{
	int ret, mret;

	ret = ts_queue_scan_start(r);
	if (ret)
		return ret;
	r->merge_thread = pthread_self();
	r->scanning = 1;
	ret = pthread_create(&r->scan_thread, NULL, scan_main, r);
	if (ret) { /* no thread to be had (RLIMIT_NPROC): one thread reads it all the same */
		r->scanning = 0;
		ts_pipe_free(r->scan);
		r->scan = NULL;
		return read_all(r);
	}
	mret = ts_queue_scan_merge(r);
	pthread_join(r->scan_thread, NULL);
	r->scanning = 0;
	ts_pipe_free(r->scan);
	r->scan = NULL;
	return mret; /* the merger's error, or the scanner's (its last message) */
}

int ts_reader_run(struct ts_reader *r, const struct ts_reader_ops *ops, void *ctx)
{
	int ret;

	r->ops = ops;
	r->ctx = ctx;
	ret = r->use_runs && r->opts.threaded ? run_threaded(r) : read_all(r);
	/* the scanner is done (joined, or it was this thread): its counts join the info */
	r->info.nr_records = r->scount.nr_records;
	r->info.nr_out_of_order += r->scount.nr_out_of_order;
	if (r->scount.nr_unknown_records && !r->info.nr_unknown_records)
		ts_reader_warn(r, r->scount.unknown_off,
			       "record type %u is unknown to this reader (a newer perf?): "
			       "skipped, with any samples it holds",
			       r->scount.unknown_type);
	r->info.nr_unknown_records += r->scount.nr_unknown_records;
	ts_reader_set_kernel_ref(r, r->scount.kernel_ref, r->scount.kernel_ref_addr);
	return ret;
}

uint64_t ts_reader_last_offset(const struct ts_reader *r)
{
	return r->cur_off;
}

uint64_t ts_reader_offset(const struct ts_reader *r)
{
	if (r->info.kind == TS_INPUT_FILE)
		return r->tdata ? r->tdata_off : 72; /* the feature bits of the header */
	return r->in.base + r->in.start;
}

void ts_stream_free(struct ts_reader *r)
{
	free(r->in.buf);
	free(r->z.buf);
	free(r->scratch);
	ZSTD_freeDStream(r->zstd);
	ts_queue_free(r);
}
