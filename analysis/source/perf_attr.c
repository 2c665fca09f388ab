// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every stage of the perf.data reader uses, below them all: the record types' names,
 * errors and warnings with their file offset, the id -> attr map, the attrs with the layout of
 * their samples, and the kernel map's and ID_INDEX's readers. perf_data.c reads the headers
 * and drives the stages (perf_stream.c, perf_queue.c, perf_runs.c, perf_deliver.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_priv.h"

static const char *const record_names[TS_REC_MAX] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID",
	[TS_REC_HEADER_ATTR] = "HEADER_ATTR",
	[TS_REC_HEADER_EVENT_TYPE] = "HEADER_EVENT_TYPE",
	[TS_REC_HEADER_TRACING_DATA] = "HEADER_TRACING_DATA",
	[TS_REC_HEADER_BUILD_ID] = "HEADER_BUILD_ID",
	[TS_REC_FINISHED_ROUND] = "FINISHED_ROUND",
	[TS_REC_ID_INDEX] = "ID_INDEX",
	[TS_REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[TS_REC_AUXTRACE] = "AUXTRACE",
	[TS_REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[TS_REC_THREAD_MAP] = "THREAD_MAP",
	[TS_REC_CPU_MAP] = "CPU_MAP",
	[TS_REC_STAT_CONFIG] = "STAT_CONFIG",
	[TS_REC_STAT] = "STAT",
	[TS_REC_STAT_ROUND] = "STAT_ROUND",
	[TS_REC_EVENT_UPDATE] = "EVENT_UPDATE",
	[TS_REC_TIME_CONV] = "TIME_CONV",
	[TS_REC_HEADER_FEATURE] = "HEADER_FEATURE",
	[TS_REC_COMPRESSED] = "COMPRESSED",
	[TS_REC_FINISHED_INIT] = "FINISHED_INIT",
	[TS_REC_COMPRESSED2] = "COMPRESSED2",
};

const char *ts_record_name(uint32_t type)
{
	if (type < TS_REC_MAX && record_names[type])
		return record_names[type];
	return "unknown";
}

int ts_fail_into(const struct ts_reader *r, char *err, uint64_t off, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, TS_ERR_LEN, "%s: offset %#llx: ", r->path, (unsigned long long)off);
	if (n < 0 || (size_t)n >= TS_ERR_LEN)
		return code;
	va_start(ap, fmt);
	vsnprintf(err + n, TS_ERR_LEN - n, fmt, ap);
	va_end(ap);
	return code;
}

/* A warning: kept in info.warnings for the caller to print; returns 0 to go on. */
int ts_reader_warn(struct ts_reader *r, uint64_t off, const char *fmt, ...)
{
	struct ts_file_info *i = &r->m.info;
	char *w;
	va_list ap;
	int n;

	if (i->nr_warnings++ >= TS_READER_MAX_WARNINGS)
		return 0;
	w = i->warnings[i->nr_warnings - 1];
	n = snprintf(w, sizeof(i->warnings[0]), "%s: offset %#llx: ", r->path,
		     (unsigned long long)off);
	if (n < 0 || (size_t)n >= sizeof(i->warnings[0]))
		return 0;
	va_start(ap, fmt);
	vsnprintf(w + n, sizeof(i->warnings[0]) - n, fmt, ap);
	va_end(ap);
	return 0;
}

/* Map @id to @val (an attr index) in the open-addressing table @m, grown as needed. */
int ts_idmap_put(struct ts_idmap *m, uint64_t id, int val)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->alloc) {
		struct ts_idmap n = { .alloc = m->alloc ? m->alloc * 2 : 64 };

		n.keys = calloc(n.alloc, sizeof(*n.keys));
		n.vals = calloc(n.alloc, sizeof(*n.vals));
		if (!n.keys || !n.vals) {
			free(n.keys);
			free(n.vals);
			return -ENOMEM;
		}
		for (i = 0; i < m->alloc; i++)
			if (m->keys[i])
				ts_idmap_put(&n, m->keys[i] - 1, m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = n;
	}
	for (i = (id * 0x9e3779b97f4a7c15ULL) & (m->alloc - 1);; i = (i + 1) & (m->alloc - 1)) {
		if (!m->keys[i]) {
			m->keys[i] = id + 1;
			m->vals[i] = val;
			m->nr++;
			return 0;
		}
		if (m->keys[i] == id + 1) {
			m->vals[i] = val;
			return 0;
		}
	}
}

int ts_idmap_get(const struct ts_idmap *m, uint64_t id)
{
	size_t i;

	if (!m->alloc)
		return -1;
	for (i = (id * 0x9e3779b97f4a7c15ULL) & (m->alloc - 1); m->keys[i];
	     i = (i + 1) & (m->alloc - 1))
		if (m->keys[i] == id + 1)
			return m->vals[i];
	return -1;
}

/* Trailer layout of non-sample records: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static void layout_attr(const struct ts_attr *a, struct ts_attr_layout *l)
{
	uint64_t st = a->sample_type;
	int pos = 0;

#define FIXED(bit, field)                         \
	do {                                      \
		l->field = st & (bit) ? pos : -1; \
		pos += st & (bit) ? 8 : 0;        \
	} while (0)
	pos += st & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	FIXED(PERF_SAMPLE_IP, ip);
	FIXED(PERF_SAMPLE_TID, tid);
	FIXED(PERF_SAMPLE_TIME, time);
	FIXED(PERF_SAMPLE_ADDR, addr);
	FIXED(PERF_SAMPLE_ID, id);
	FIXED(PERF_SAMPLE_STREAM_ID, stream_id);
	FIXED(PERF_SAMPLE_CPU, cpu);
	FIXED(PERF_SAMPLE_PERIOD, period);
#undef FIXED
	l->fixed_len = pos;
	l->plain = 0;
	if (st == TS_LAYOUT_PLAIN_BITS)
		l->plain = TS_LAYOUT_PLAIN;
	else if (st == (TS_LAYOUT_PLAIN_BITS | PERF_SAMPLE_CALLCHAIN))
		l->plain = TS_LAYOUT_PLAIN_CHAIN;
	l->has_tail =
		!!(st & ~(uint64_t)(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
				    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
				    PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW));

	pos = 0;
	l->trailer_tid = l->trailer_time = l->trailer_cpu = -1;
	if (!a->sample_id_all) {
		l->trailer_size = 0;
		return;
	}
	if (st & PERF_SAMPLE_TID) {
		l->trailer_tid = pos;
		pos += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		l->trailer_time = pos;
		pos += 8;
	}
	pos += st & PERF_SAMPLE_ID ? 8 : 0;
	pos += st & PERF_SAMPLE_STREAM_ID ? 8 : 0;
	if (st & PERF_SAMPLE_CPU) {
		l->trailer_cpu = pos;
		pos += 8;
	}
	pos += st & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	l->trailer_size = pos;
}

int ts_reader_add_attr(struct ts_reader *r, const void *attr, size_t size, const void *ids,
		       size_t nr_ids, uint64_t off)
{
	struct perf_event_attr pa;
	struct ts_attr *a;
	size_t i;
	int ret;

	if (size < PERF_ATTR_SIZE_VER0)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "event attr of %zu bytes is too small",
				      size);
	if (r->nr_attrs == r->alloc_attrs) {
		int n = r->alloc_attrs ? r->alloc_attrs * 2 : 16;
		void *p = realloc(r->attrs, n * sizeof(*r->attrs));

		if (!p)
			return -ENOMEM;
		r->attrs = p;
		p = realloc(r->layout, n * sizeof(*r->layout));
		if (!p)
			return -ENOMEM;
		r->layout = p;
		r->alloc_attrs = n;
	}
	memset(&pa, 0, sizeof(pa));
	memcpy(&pa, attr, size < sizeof(pa) ? size : sizeof(pa));
	a = &r->attrs[r->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->type = pa.type;
	a->config = pa.config;
	a->sample_type = pa.sample_type;
	a->read_format = pa.read_format;
	a->branch_sample_type = pa.branch_sample_type;
	a->sample_regs_user_nr = __builtin_popcountll(pa.sample_regs_user);
	a->sample_regs_intr_nr = __builtin_popcountll(pa.sample_regs_intr);
	a->sample_id_all = pa.sample_id_all;
	a->index = r->nr_attrs;
	a->not_sampled = !pa.freq && !pa.sample_period;
	a->exclude_kernel = pa.exclude_kernel;
	a->exclude_user = pa.exclude_user;
	a->hits = pa.sample_period | (uint64_t)pa.freq << 63; /* a union with sample_freq */
	/* -e X:u -e X, or -e X -c 2 -e X: the same tracepoint, other hits */
	for (i = 0; a->type == PERF_TYPE_TRACEPOINT && i < (size_t)r->nr_attrs && !a->same_as; i++)
		if (r->attrs[i].type == PERF_TYPE_TRACEPOINT && r->attrs[i].config == a->config &&
		    r->attrs[i].hits == a->hits &&
		    r->attrs[i].exclude_kernel == a->exclude_kernel &&
		    r->attrs[i].exclude_user == a->exclude_user)
			a->same_as = (int)i + 1;
	layout_attr(a, &r->layout[r->nr_attrs]);
	for (i = 0; i < nr_ids; i++) {
		uint64_t id = ts_get_u64((const char *)ids + 8 * i);
		int had = ts_idmap_get(&r->ids, id);

		/* input check: one id, two events; each sample of it would go to the last one */
		if (had >= 0 && had != r->nr_attrs)
			return ts_reader_fail(r, off, -TS_ECORRUPT,
					      "id %llu is in two event attrs (%d and %d): their "
					      "samples cannot be told apart",
					      (unsigned long long)id, had + 1, r->nr_attrs + 1);
		ret = ts_idmap_put(&r->ids, id, r->nr_attrs);
		if (ret)
			return ret;
		if (id - r->id_base < r->id_dense_nr) /* an attr after the headers (pipe mode) */
			r->id_dense[id - r->id_base] = r->nr_attrs;
	}
	r->nr_attrs++;
	return 0;
}

/*
 * perf's ids come from one counter of the kernel's, so a recording's ids are a span of close
 * numbers (67,585 to 67,620 on a machine up for a day): index them directly, from the smallest,
 * when the span is under 65,536.
 */
static int build_dense_ids(struct ts_reader *r)
{
	const struct ts_idmap *m = &r->ids;
	uint64_t min = UINT64_MAX, max = 0;
	size_t i;

	for (i = 0; i < m->alloc; i++) {
		if (m->keys[i] && m->keys[i] - 1 > max)
			max = m->keys[i] - 1;
		if (m->keys[i] && m->keys[i] - 1 < min)
			min = m->keys[i] - 1;
	}
	if (!m->nr || max - min >= 65536)
		return 0;
	free(r->id_dense);
	r->id_dense = malloc((max - min + 1) * sizeof(*r->id_dense));
	if (!r->id_dense)
		return -ENOMEM;
	memset(r->id_dense, 0xff, (max - min + 1) * sizeof(*r->id_dense));
	for (i = 0; i < m->alloc; i++)
		if (m->keys[i])
			r->id_dense[m->keys[i] - 1 - min] = m->vals[i];
	r->id_base = min;
	r->id_dense_nr = max - min + 1;
	return 0;
}

/*
 * With several attrs, a sample names its attr by id. perf puts PERF_SAMPLE_IDENTIFIER first
 * when it records more than one event; otherwise the id must sit at the same place in all.
 */
int ts_reader_finish_attrs(struct ts_reader *r, uint64_t off)
{
	uint64_t st0;
	int i, ret, all_ident = 1, same_id = 1;

	if (r->nr_attrs == 0)
		return ts_reader_fail(r, off, -TS_ECORRUPT, "no event attrs");
	st0 = r->attrs[0].sample_type;
	for (i = 0; i < r->nr_attrs; i++) {
		uint64_t st = r->attrs[i].sample_type;
		uint64_t before = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_ADDR;

		if (!(st & PERF_SAMPLE_IDENTIFIER))
			all_ident = 0;
		before |= PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU;
		if (!(st & PERF_SAMPLE_ID) || (st & before) != (st0 & before))
			same_id = 0;
	}
	ret = build_dense_ids(r);
	if (ret)
		return ret;
	r->sample_time_pos = r->layout[0].time;
	for (i = 1; i < r->nr_attrs; i++)
		if (r->layout[i].time != r->sample_time_pos)
			r->sample_time_pos = -1;
	r->id_pos = -1;
	r->id_from_end = -1;
	if (all_ident) {
		r->id_pos = 0;
		r->id_from_end = 8;
	} else if (same_id) {
		int pos = 0;

		pos += st0 & PERF_SAMPLE_IP ? 8 : 0;
		pos += st0 & PERF_SAMPLE_TID ? 8 : 0;
		pos += st0 & PERF_SAMPLE_TIME ? 8 : 0;
		pos += st0 & PERF_SAMPLE_ADDR ? 8 : 0;
		r->id_pos = pos;
		/* in a trailer, ID is followed by STREAM_ID and CPU */
		r->id_from_end =
			8 + (st0 & PERF_SAMPLE_STREAM_ID ? 8 : 0) + (st0 & PERF_SAMPLE_CPU ? 8 : 0);
	} else if (r->nr_attrs > 1) {
		return ts_reader_fail(r, off, -TS_ENOATTR,
				      "%d event attrs but no common sample id position",
				      r->nr_attrs);
	}
	return 0;
}

/*
 * perf's kernel map: an MMAP (or MMAP2) record of pid -1 named "[kernel.kallsyms]" plus the
 * reference symbol, whose address it carries as pgoff.
 */
void ts_kernel_map(const unsigned char *rec, uint32_t size, char ref[TS_KERNEL_REF_LEN],
		   uint64_t *addr)
{
	static const char prefix[] = "[kernel.kallsyms]";
	uint32_t type = ts_get_u32(rec), at = type == PERF_RECORD_MMAP ? 40 : 72;
	const char *name;
	size_t len;

	if ((type != PERF_RECORD_MMAP && type != PERF_RECORD_MMAP2) || size <= at ||
	    ts_get_u32(rec + 8) != UINT32_MAX)
		return;
	name = (const char *)rec + at;
	len = strnlen(name, size - at);
	if (len == size - at || len < sizeof(prefix) || memcmp(name, prefix, sizeof(prefix) - 1) ||
	    len - (sizeof(prefix) - 1) >= TS_KERNEL_REF_LEN)
		return;
	memcpy(ref, name + sizeof(prefix) - 1, len - (sizeof(prefix) - 1) + 1);
	*addr = ts_get_u64(rec + 32);
}

/* Whether an ID_INDEX record names tasks (perf record without -a) rather than tid -1. */
int ts_id_index_tasks(const unsigned char *rec, uint32_t size)
{
	uint64_t nr, i;

	if (size < 16)
		return 0;
	nr = ts_get_u64(rec + 8);
	for (i = 0; i < nr && i < (size - 16) / 32; i++)
		if (ts_get_u64(rec + 16 + 32 * i + 24) != UINT64_MAX)
			return 1;
	return 0;
}

const struct ts_attr *ts_reader_attr_of_id(const struct ts_reader *r, uint64_t id)
{
	int k = r->nr_attrs ? ts_reader_attr_index(r, id) : -1;

	return k >= 0 && k < r->nr_attrs ? &r->attrs[k] : NULL;
}
