// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data writer. File mode puts the feature contents before the data, so that only the
 * small feature table follows the data: rewriting it and the header after every round keeps the
 * file valid on disk up to the last complete round, even when the disk fills up mid-round.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tickscope/error.h"
#include "tickscope/writer.h"

#define MAGIC 0x32454c4946524550ULL /* "PERFILE2" */
#define NR_FEAT_WORDS 4 /* 256 feature bits */
#define BUF_SIZE (1 << 20)

/* perf's user record types */
#define REC_HEADER_ATTR 64
#define REC_TRACING_DATA 66
#define REC_FINISHED_ROUND 68
#define REC_HEADER_FEATURE 80
#define REC_FINISHED_INIT 82

struct section {
	uint64_t offset, size;
};

struct file_header {
	uint64_t magic, size, attr_size;
	struct section attrs, data, event_types;
	uint64_t features[NR_FEAT_WORDS];
};

struct feat {
	int id;
	struct ts_blob blob;
	struct section sec; /* where it lies in the file (file mode) */
};

struct ts_writer {
	int fd;
	int pipe;
	int err; /* sticky: the first failure */
	struct feat feats[16];
	int nr_feats;
	struct file_header hdr;
	uint64_t pos; /* file offset of buf[0] (file mode) */
	uint64_t round_end; /* end of the data of the last complete round */
	unsigned char *buf;
	size_t used;
	struct ts_writer *next; /* gets every call too (ts_writer_chain) */
};

static int align8(size_t n)
{
	return (int)((n + 7) & ~(size_t)7);
}

int ts_writer_open(struct ts_writer **wp, int fd, int pipe)
{
	struct ts_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->buf = malloc(BUF_SIZE);
	if (!w->buf) {
		free(w);
		return -ENOMEM;
	}
	w->fd = fd;
	w->pipe = pipe;
	*wp = w;
	return 0;
}

void ts_writer_chain(struct ts_writer *w, struct ts_writer *next)
{
	w->next = next;
}

static int add_feature(struct ts_writer *w, int feat, const void *data, size_t len)
{
	struct feat *f;
	int i;

	if (feat <= 0 || feat >= 64 * NR_FEAT_WORDS)
		return -TS_EUSAGE;
	/* perf reads features in bit order; keep the array sorted */
	if (w->nr_feats == (int)(sizeof(w->feats) / sizeof(w->feats[0])))
		return -ENOSPC;
	for (i = w->nr_feats; i > 0 && w->feats[i - 1].id > feat; i--)
		w->feats[i] = w->feats[i - 1];
	f = &w->feats[i];
	memset(f, 0, sizeof(*f));
	f->id = feat;
	w->nr_feats++;
	return ts_blob_add(&f->blob, data, len);
}

int ts_writer_feature(struct ts_writer *w, int feat, const void *data, size_t len)
{
	return add_feature(w, feat, data, len) ?:
		       (w->next ? ts_writer_feature(w->next, feat, data, len) : 0);
}

/* write all of @len at file offset @off, or append in pipe mode */
static int put(struct ts_writer *w, const void *p, size_t len, uint64_t off)
{
	const char *c = p;
	ssize_t n;

	while (len) {
		n = w->pipe ? write(w->fd, c, len) : pwrite(w->fd, c, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		c += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int flush(struct ts_writer *w)
{
	int err;

	if (!w->used)
		return 0;
	err = put(w, w->buf, w->used, w->pos);
	if (err)
		return err;
	w->pos += w->used;
	w->used = 0;
	return 0;
}

static int append(struct ts_writer *w, const void *p, size_t len)
{
	int err;

	if (w->used + len > BUF_SIZE) {
		err = flush(w);
		if (err)
			return err;
	}
	if (len > BUF_SIZE) {
		err = put(w, p, len, w->pos);
		if (!err)
			w->pos += len;
		return err;
	}
	memcpy(w->buf + w->used, p, len);
	w->used += len;
	return 0;
}

/* EVENT_DESC: u32 nr, u32 attr size, then per event the attr, u32 nr_ids, a string, the ids */
static int event_desc(struct ts_blob *b, const struct ts_wattr *a, int nr)
{
	uint32_t u[2] = { (uint32_t)nr, sizeof(a->attr) };
	int i, err;

	err = ts_blob_add(b, u, sizeof(u));
	for (i = 0; !err && i < nr; i++) {
		u[0] = (uint32_t)a[i].nr_ids;
		err = ts_blob_add(b, &a[i].attr, sizeof(a[i].attr))	    ?:
			      ts_blob_add(b, u, sizeof(u[0]))		    ?:
			      ts_blob_string(b, a[i].name ? a[i].name : "") ?:
			      ts_blob_add(b, a[i].ids, sizeof(uint64_t) * (size_t)a[i].nr_ids);
	}
	return err;
}

static int start_pipe(struct ts_writer *w, const struct ts_wattr *a, int nr)
{
	struct perf_event_header h = { 0 };
	uint64_t head[2] = { MAGIC, 16 }, id;
	int i, err;

	err = append(w, head, sizeof(head));
	for (i = 0; !err && i < nr; i++) {
		h.type = REC_HEADER_ATTR;
		h.size = (uint16_t)(sizeof(h) + sizeof(a[i].attr) + 8 * (size_t)a[i].nr_ids);
		err = append(w, &h, sizeof(h))			       ?:
			      append(w, &a[i].attr, sizeof(a[i].attr)) ?:
			      append(w, a[i].ids, 8 * (size_t)a[i].nr_ids);
	}
	for (i = 0; !err && i < w->nr_feats; i++) {
		struct ts_blob *b = &w->feats[i].blob;
		static const uint64_t zero;
		size_t pad = (size_t)align8(b->len) - b->len;

		/*
		 * Tracing data is a record of its own whose payload, padded to 8 bytes, follows
		 * outside header.size (16: the header and a u32 size, padded).
		 */
		if (w->feats[i].id == TS_WFEAT_TRACING_DATA) {
			uint32_t sz[2] = { (uint32_t)align8(b->len), 0 };

			h.type = REC_TRACING_DATA;
			h.size = 16;
			err = append(w, &h, sizeof(h)) ?: append(w, sz, sizeof(sz));
		} else {
			id = (uint64_t)w->feats[i].id;
			h.type = REC_HEADER_FEATURE;
			h.size = (uint16_t)(sizeof(h) + 8 + b->len + pad);
			if (b->len + pad + 16 > 0xffff)
				continue; /* too big for one record; perf does not need it */
			err = append(w, &h, sizeof(h)) ?: append(w, &id, 8);
		}
		err = err ?: append(w, b->p, b->len) ?: append(w, &zero, pad);
	}
	h.type = REC_FINISHED_INIT;
	h.size = sizeof(h);
	return err ?: append(w, &h, sizeof(h)) ?: flush(w);
}

/* file mode: header | ids | attrs | feature contents | data | feature table */
static int start_file(struct ts_writer *w, const struct ts_wattr *a, int nr)
{
	struct section ids;
	uint64_t off = sizeof(struct file_header);
	int i, err = 0;

	w->pos = off;
	for (i = 0; !err && i < nr; i++)
		err = append(w, a[i].ids, 8 * (size_t)a[i].nr_ids);
	w->hdr.attrs.offset = w->pos + w->used;
	w->hdr.attrs.size = (uint64_t)nr * (sizeof(a->attr) + sizeof(ids));
	for (i = 0; !err && i < nr; i++) {
		ids.offset = off;
		ids.size = 8 * (uint64_t)a[i].nr_ids;
		off += ids.size;
		err = append(w, &a[i].attr, sizeof(a[i].attr)) ?: append(w, &ids, sizeof(ids));
	}
	for (i = 0; !err && i < w->nr_feats; i++) {
		static const uint64_t zero;
		struct feat *f = &w->feats[i];

		f->sec.offset = w->pos + w->used;
		f->sec.size = f->blob.len;
		w->hdr.features[f->id / 64] |= 1ULL << (f->id % 64);
		err = append(w, f->blob.p, f->blob.len) ?:
			      append(w, &zero, (size_t)align8(f->blob.len) - f->blob.len);
	}
	w->hdr.magic = MAGIC;
	w->hdr.size = sizeof(w->hdr);
	w->hdr.attr_size = sizeof(a->attr) + sizeof(ids);
	w->hdr.data.offset = w->pos + w->used;
	w->round_end = w->hdr.data.offset;
	return err ?: flush(w);
}

/* the feature table at @end, then the header with the data up to @end */
static int commit(struct ts_writer *w, uint64_t end)
{
	struct section tab[16];
	int i;

	for (i = 0; i < w->nr_feats; i++)
		tab[i] = w->feats[i].sec;
	w->hdr.data.size = end - w->hdr.data.offset;
	return put(w, tab, sizeof(tab[0]) * (size_t)w->nr_feats, end) ?:
		       put(w, &w->hdr, sizeof(w->hdr), 0);
}

int ts_writer_start(struct ts_writer *w, const struct ts_wattr *attrs, int nr)
{
	struct ts_blob desc = { 0 };
	int err;

	err = event_desc(&desc, attrs, nr) ?: add_feature(w, TS_WFEAT_EVENT_DESC, desc.p, desc.len);
	ts_blob_free(&desc);
	if (!err)
		err = w->pipe ? start_pipe(w, attrs, nr) : start_file(w, attrs, nr);
	if (!err && w->pipe)
		w->round_end = w->pos;
	if (!err && !w->pipe)
		err = commit(w, w->round_end);
	if (err)
		w->err = err;
	return err ?: (w->next ? ts_writer_start(w->next, attrs, nr) : 0);
}

/*
 * A failed write: cut the file back to the last committed round. Its table was written there,
 * so those blocks are still allocated and rewriting the table needs no new space.
 */
static int rollback(struct ts_writer *w, int err)
{
	w->used = 0;
	w->err = err;
	if (!w->pipe && ftruncate(w->fd, (off_t)(w->round_end + 16 * (uint64_t)w->nr_feats)) == 0)
		commit(w, w->round_end);
	return err;
}

int ts_writer_record(struct ts_writer *w, const void *rec)
{
	const struct perf_event_header *h = rec;

	if (w->err)
		return w->err;
	if (h->size < sizeof(*h) || h->size % 8)
		return -TS_ERECSIZE;
	/* a full buffer is flushed here: a failure then cuts the file back as a round's does */
	w->err = append(w, rec, h->size);
	if (w->err)
		return rollback(w, w->err);
	return w->next ? ts_writer_record(w->next, rec) : 0;
}

int ts_writer_round(struct ts_writer *w)
{
	struct perf_event_header h = { .type = REC_FINISHED_ROUND, .size = sizeof(h) };
	int err;

	if (w->err)
		return w->err;
	if (w->next && (err = ts_writer_round(w->next)))
		return err;
	if (w->pos + w->used == w->round_end)
		return 0; /* an empty round: no marker */
	/* the round counts only once its table is on disk too */
	err = append(w, &h, sizeof(h)) ?: flush(w) ?: (w->pipe ? 0 : commit(w, w->pos));
	if (err)
		return rollback(w, err);
	w->round_end = w->pos;
	return 0;
}

int ts_writer_finish(struct ts_writer *w)
{
	int err = ts_writer_round(w) ?: (w->next ? ts_writer_finish(w->next) : 0);

	if (!err && !w->pipe &&
	    ftruncate(w->fd, (off_t)(w->round_end + 16 * (uint64_t)w->nr_feats)))
		err = -errno;
	return err;
}

uint64_t ts_writer_data_size(const struct ts_writer *w)
{
	return w->pipe ? w->round_end : w->round_end - w->hdr.data.offset;
}

void ts_writer_free(struct ts_writer *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->nr_feats; i++)
		ts_blob_free(&w->feats[i].blob);
	ts_writer_free(w->next);
	free(w->buf);
	free(w);
}
