// SPDX-License-Identifier: GPL-2.0-only
/*
 * Handing records on: samples are parsed and given to the sample callback, COMM/FORK/EXIT and
 * LOST records to theirs; the sample_id_all trailer gives every other record its time and cpu.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader_priv.h"

static int count_lost(struct ts_reader *r, uint32_t cpu, uint64_t n, int samples)
{
	struct ts_file_info *i = &r->m.info;

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
static int get_trailer(const struct ts_reader *r, char *err, const unsigned char *rec,
		       uint32_t size, uint64_t off, struct trailer *t)
{
	const struct ts_attr_layout *l;
	const unsigned char *tr;
	int idx;

	t->time = t->id = 0;
	t->cpu = UINT32_MAX;
	t->tid = 0;
	t->attr = -1;
	idx = ts_reader_attr_of(r, err, rec, size, 0, off);
	if (idx == -TS_ENOATTR && r->id_from_end < 0)
		return 0;
	if (idx < 0)
		return idx;
	t->attr = idx;
	l = &r->layout[idx];
	if (!l->trailer_size)
		return 0;
	if (size < 8 + (uint32_t)l->trailer_size)
		return ts_fail_into(r, err, off, -TS_ECORRUPT,
				    "%s record too short for its trailer",
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

/* CPUs a sample may name: the file's nr_cpus_avail, else the kernel's largest NR_CPUS. */
static uint32_t max_cpus(const struct ts_reader *r)
{
	return r->m.info.nr_cpus_avail ? r->m.info.nr_cpus_avail : 8192;
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
	/*
	 * per-CPU tables are sized by the CPUs seen: a damaged cpu must not size them (none,
	 * UINT32_MAX, wraps to 0 and passes)
	 */
	if (s.cpu + 1u > max_cpus(r))
		return ts_reader_fail(r, off, -TS_ECORRUPT,
				      "SAMPLE on cpu %u, but the recording machine has %u CPUs%s",
				      s.cpu, max_cpus(r),
				      r->m.info.nr_cpus_avail ? " (NRCPUS feature)" : " at most");
	/* s.attr is &r->attrs[its index] (ts_sample_parse()): counted through it, one step */
	((struct ts_attr *)s.attr)->nr_samples++;
	if (!r->m.info.nr_samples++)
		r->m.info.first_time = s.time;
	if (s.time > r->m.info.last_time)
		r->m.info.last_time = s.time;
	if (!ops->sample)
		return 0;
	ret = ops->sample(r->ctx, &s);
	if (ret && !r->m.err[0])
		ts_reader_fail(r, off, ret, "%s", ts_strerror(ret));
	return ret;
}

static int deliver_comm(struct ts_reader *r, const unsigned char *rec, uint32_t size, uint64_t off,
			const struct trailer *t)
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

/*
 * Every record but a sample: out of ts_deliver()'s line, whose frame (the registers saved and
 * restored around each sample) is then only the sample's.
 */
static __attribute__((noinline)) int deliver_other(struct ts_reader *r, const unsigned char *rec,
						   uint32_t type, uint16_t size, uint64_t off)
{
	const struct ts_reader_ops *ops = r->ops;
	struct trailer t;
	int ret;

	ret = get_trailer(r, r->m.err, rec, size, off, &t);
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
		return ops->lost ? ops->lost(r->ctx, t.cpu, id, n, t.time, samples) : 0;
	}
	default:
		return 0;
	}
}

int ts_deliver(struct ts_reader *r, const unsigned char *rec, uint64_t off)
{
	uint32_t type = ts_get_u32(rec);
	uint16_t size;

	r->m.cur_off = off;
	memcpy(&size, rec + 6, 2);
	if (type == PERF_RECORD_SAMPLE)
		return deliver_sample(r, rec, size, off);
	return deliver_other(r, rec, type, size, off);
}

/* Time of a kernel record, for the queue: the sample's TIME field or the trailer's; @err is
 * the calling side's message buffer. */
int ts_record_time(const struct ts_reader *r, char *err, const unsigned char *rec, uint32_t size,
		   uint64_t off, uint64_t *time)
{
	uint32_t type = ts_get_u32(rec);
	struct trailer t;
	int idx, ret;

	*time = 0;
	if (type == PERF_RECORD_SAMPLE && r->sample_time_pos >= 0) {
		/* the common case: every attr has TIME at the same place, no lookup needed */
		if ((uint32_t)r->sample_time_pos + 16 > size)
			return ts_fail_into(r, err, off, -TS_ECORRUPT,
					    "SAMPLE too short for its time");
		*time = ts_get_u64(rec + 8 + r->sample_time_pos);
		return 0;
	}
	if (type == PERF_RECORD_SAMPLE) {
		idx = ts_reader_attr_of(r, err, rec, size, 1, off);
		if (idx < 0)
			return idx;
		if (r->layout[idx].time >= 0) {
			if ((uint32_t)r->layout[idx].time + 16 > size)
				return ts_fail_into(r, err, off, -TS_ECORRUPT,
						    "SAMPLE too short for its time");
			*time = ts_get_u64(rec + 8 + r->layout[idx].time);
		}
		return 0;
	}
	ret = get_trailer(r, err, rec, size, off, &t);
	*time = t.time;
	return ret;
}

/* Records after an unpadded COMPRESSED record can sit at any address; u64 fields need 8. */
const unsigned char *ts_aligned_into(unsigned char **buf, size_t *alloc, const unsigned char *rec,
				     uint32_t size)
{
	if (!((uintptr_t)rec & 7))
		return rec;
	if (size > *alloc) {
		void *p = realloc(*buf, size);

		if (!p)
			return NULL;
		*buf = p;
		*alloc = size;
	}
	memcpy(*buf, rec, size);
	return *buf;
}
