// SPDX-License-Identifier: GPL-2.0-only
/*
 * PERF_RECORD_SAMPLE parsing: find the attr by its id, then walk every sample_type field in
 * the kernel's order, bounds-checked against the record size.
 */
#include <stddef.h>
#include <string.h>

#include "reader_priv.h"

/* The sample_type bits this parser understands; anything else is named in an error. */
#define KNOWN_SAMPLE_BITS                                                                       \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |         \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |          \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |      \
	 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |            \
	 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |                  \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX | PERF_SAMPLE_CGROUP | \
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * The attr index of a record. Samples carry the id at id_pos from the start; other records
 * carry it as the last u64 of their sample_id_all trailer (IDENTIFIER).
 */
int ts_reader_attr_of(const struct ts_reader *r, char *err, const unsigned char *rec, uint32_t size,
		      int sample, uint64_t off)
{
	uint64_t id;
	int idx;

	if (r->nr_attrs == 1)
		return 0;
	if (sample) {
		if (r->id_pos < 0 || (uint32_t)r->id_pos + 16 > size)
			return ts_fail_into(r, err, off, -TS_ECORRUPT,
					    "sample too short for its id");
		id = ts_get_u64(rec + 8 + r->id_pos);
	} else {
		if (r->id_from_end < 0)
			return -TS_ENOATTR;
		if (size < 16)
			return ts_fail_into(r, err, off, -TS_ECORRUPT,
					    "record too short for its id");
		id = ts_get_u64(rec + size - r->id_from_end);
	}
	if (!id) /* perf-synthesized records carry id 0: they belong to the first attr */
		return 0;
	idx = ts_reader_attr_index(r, id);
	if (idx < 0)
		return ts_fail_into(r, err, off, -TS_ENOATTR,
				    "sample id %llu matches no event attr", (unsigned long long)id);
	return idx;
}

/* ts_reader_attr_of() of a sample, inline for the common case: an id in the direct table. */
static inline int sample_attr(struct ts_reader *r, const unsigned char *rec, uint32_t size,
			      uint64_t off)
{
	uint64_t id;

	if (r->nr_attrs > 1 && r->id_pos >= 0 && (uint32_t)r->id_pos + 16 <= size) {
		id = ts_get_u64(rec + 8 + r->id_pos) - r->id_base;
		if (id < r->id_dense_nr && r->id_dense[id] >= 0 && id + r->id_base)
			return r->id_dense[id];
	}
	return ts_reader_attr_of(r, r->m.err, rec, size, 1, off);
}

struct cursor {
	const unsigned char *p, *end;
};

static inline int take(struct cursor *c, size_t n, const unsigned char **out)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	*out = c->p;
	c->p += n;
	return 0;
}

static inline int take_u64(struct cursor *c, uint64_t *v)
{
	const unsigned char *p;

	if (take(c, 8, &p))
		return -1;
	*v = ts_get_u64(p);
	return 0;
}

static int skip_read(struct cursor *c, uint64_t rf)
{
	uint64_t nr = 1, per, v;
	const unsigned char *p;

	per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	if (rf & PERF_FORMAT_GROUP) {
		if (take_u64(c, &nr))
			return -1;
	}
	/* time_enabled and time_running come after nr (group) or value (single) */
	v = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (nr > (1u << 16))
		return -1;
	return take(c, 8 * (v + nr * per), &p);
}

/* The fields after RAW: parsed only to be skipped, and to validate the size. */
static int skip_tail(struct cursor *c, const struct ts_attr *a)
{
	uint64_t st = a->sample_type, v;
	const unsigned char *p;

	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (take_u64(c, &v) || v > (1u << 16))
			return -1;
		if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && take(c, 8, &p))
			return -1;
		if (take(c, v * 24, &p))
			return -1;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		if (take_u64(c, &v) || (v && take(c, 8 * a->sample_regs_user_nr, &p)))
			return -1;
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		if (take_u64(c, &v) || v > (1u << 24))
			return -1;
		if (v && (take(c, v, &p) || take(c, 8, &p)))
			return -1;
	}
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && take(c, 8, &p))
		return -1;
	if ((st & PERF_SAMPLE_DATA_SRC) && take(c, 8, &p))
		return -1;
	if ((st & PERF_SAMPLE_TRANSACTION) && take(c, 8, &p))
		return -1;
	if (st & PERF_SAMPLE_REGS_INTR) {
		if (take_u64(c, &v) || (v && take(c, 8 * a->sample_regs_intr_nr, &p)))
			return -1;
	}
	if ((st & PERF_SAMPLE_PHYS_ADDR) && take(c, 8, &p))
		return -1;
	if ((st & PERF_SAMPLE_CGROUP) && take(c, 8, &p))
		return -1;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && take(c, 8, &p))
		return -1;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && take(c, 8, &p))
		return -1;
	if (st & PERF_SAMPLE_AUX) {
		if (take_u64(c, &v) || v > (1u << 30) || take(c, v, &p))
			return -1;
	}
	return 0;
}

_Static_assert(offsetof(struct ts_sample, cpu) == offsetof(struct ts_sample, tid) + 4,
	       "tid and cpu are neighbours in struct ts_sample");

/*
 * A TS_LAYOUT_PLAIN* sample (struct ts_attr_layout), every field at its known place: what the
 * walk below gives it, with two checks. Return: 0, or -1 when the record is short or its
 * callchain too long, for the walk to say so.
 */
static inline int parse_plain(const struct ts_attr_layout *l, const unsigned char *rec,
			      uint32_t size, struct ts_sample *s)
{
	/* IDENTIFIER 0, IP 8, PID and TID 16, TIME 24, CPU and its pad 32, PERIOD 40 */
	const unsigned char *body = rec + 8, *p = body + 48, *end = rec + size;
	uint32_t tid_cpu[2];
	uint64_t nr = 0;
	uint32_t raw;

	if (size < 8 + 48 + 4 + (l->plain == TS_LAYOUT_PLAIN_CHAIN ? 8 : 0))
		return -1;
	if (l->plain == TS_LAYOUT_PLAIN_CHAIN) {
		nr = ts_get_u64(p);
		/* room for the chain and the RAW size after it; the walk's limit of 1 << 16 */
		if (nr > (1u << 16) || nr * 8 > (size_t)(end - p) - 12)
			return -1;
		s->ips = (const uint64_t *)(p + 8);
		p += 8 + nr * 8;
	} else {
		s->ips = NULL;
	}
	raw = ts_get_u32(p);
	if (raw > (size_t)(end - p) - 4)
		return -1;
	s->nr_ips = nr;
	s->raw_size = raw;
	s->raw = p + 4;
	s->id = ts_get_u64(body);
	s->ip = ts_get_u64(body + 8);
	s->pid = ts_get_u32(body + 16);
	tid_cpu[0] = ts_get_u32(body + 20);
	s->time = ts_get_u64(body + 24);
	tid_cpu[1] = ts_get_u32(body + 32);
	memcpy(&s->tid, tid_cpu, sizeof(tid_cpu)); /* in one store: see ts_sample_parse() */
	s->period = ts_get_u64(body + 40);
	s->addr = 0;
	s->stream_id = 0;
	return 0;
}

int ts_sample_parse(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off,
		    struct ts_sample *s)
{
	const struct ts_attr_layout *l;
	const struct ts_attr *a;
	const unsigned char *p, *body = rec + 8;
	uint32_t tid_cpu[2];
	struct cursor c;
	uint64_t st, v;
	int idx;

	idx = sample_attr(r, rec, size, off);
	if (idx < 0)
		return idx;
	a = &r->attrs[idx];
	l = &r->layout[idx];
	s->attr = a;
	if (l->plain && !parse_plain(l, rec, size, s))
		return 0;
	st = a->sample_type;
	if (st & ~KNOWN_SAMPLE_BITS)
		return ts_reader_fail(r, off, -TS_ESAMPLETYPE,
				      "unsupported sample_type bit %#llx in event %s",
				      (unsigned long long)(st & ~KNOWN_SAMPLE_BITS),
				      a->name[0] ? a->name : "?");
	if (size < 8u + l->fixed_len)
		goto short_record;
	/* the fixed u64 fields sit at offsets computed once per attr */
	s->ip = l->ip >= 0 ? ts_get_u64(body + l->ip) : 0;
	s->pid = l->tid >= 0 ? ts_get_u32(body + l->tid) : 0;
	tid_cpu[0] = l->tid >= 0 ? ts_get_u32(body + l->tid + 4) : 0;
	s->time = l->time >= 0 ? ts_get_u64(body + l->time) : 0;
	s->addr = l->addr >= 0 ? ts_get_u64(body + l->addr) : 0;
	s->id = l->id >= 0 ? ts_get_u64(body + l->id) :
			     (st & PERF_SAMPLE_IDENTIFIER ? ts_get_u64(body) : 0);
	s->stream_id = l->stream_id >= 0 ? ts_get_u64(body + l->stream_id) : 0;
	tid_cpu[1] = l->cpu >= 0 ? ts_get_u32(body + l->cpu) : UINT32_MAX;
	/*
	 * tid and cpu in one store: the sample callback's compiler reads the two neighbours
	 * with one 8-byte load, which cannot be forwarded from two 4-byte stores and waited
	 * for them to reach the cache (the largest stall on the merger's thread, perf annotate)
	 */
	memcpy(&s->tid, tid_cpu, sizeof(tid_cpu));
	s->period = l->period >= 0 ? ts_get_u64(body + l->period) : 0;
	s->nr_ips = 0;
	s->ips = NULL;
	s->raw_size = 0;
	s->raw = NULL;
	c.p = body + l->fixed_len;
	c.end = rec + size;
	if ((st & PERF_SAMPLE_READ) && skip_read(&c, a->read_format))
		goto short_record;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (take_u64(&c, &v) || v > (1u << 16) || take(&c, v * 8, &p))
			goto short_record;
		s->nr_ips = v;
		s->ips = (const uint64_t *)p;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (take(&c, 4, &p))
			goto short_record;
		v = ts_get_u32(p);
		if (take(&c, v, &p))
			goto short_record;
		s->raw_size = v;
		s->raw = p;
	}
	if (l->has_tail && skip_tail(&c, a))
		goto short_record;
	return 0;

short_record:
	return ts_reader_fail(r, off, -TS_ECORRUPT,
			      "SAMPLE of %u bytes is too short for its sample_type %#llx", size,
			      (unsigned long long)st);
}
