// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel records the reader does not use (MMAP, KSYMBOL, SWITCH, ...) are still checked for
 * being well formed for their type: a damaged type byte must not turn a sample into a
 * plausible record that is skipped without a word.
 */
#include <string.h>

#include "reader_priv.h"

/* Types 21 and below that the kernel writes; 21 is AUX_OUTPUT_HW_ID. */
#define REC_AUX_OUTPUT_HW_ID 21

/*
 * The fixed part of a record body (after the 8-byte header) and the offset of the
 * NUL-terminated string that follows it, -1 for none. READ's values depend on read_format:
 * only pid, tid and one value are required. Sizes are those of include/uapi/linux/perf_event.h.
 */
static int fixed_part(uint32_t type, int *str)
{
	*str = -1;
	switch (type) {
	case PERF_RECORD_MMAP:
		*str = 32; /* pid, tid, addr, len, pgoff, filename */
		return 32;
	case PERF_RECORD_MMAP2:
		*str = 64; /* ... pgoff, maj/min/ino/ino_generation or build id, prot, flags */
		return 64;
	case PERF_RECORD_KSYMBOL:
		*str = 16; /* addr, len, ksym_type, flags, name */
		return 16;
	case PERF_RECORD_CGROUP:
		*str = 8; /* id, path */
		return 8;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE: /* time, id, stream_id */
	case PERF_RECORD_AUX: /* aux_offset, aux_size, flags */
		return 24;
	case PERF_RECORD_READ: /* pid, tid, a value */
	case PERF_RECORD_NAMESPACES: /* pid, tid, nr_namespaces */
	case PERF_RECORD_BPF_EVENT: /* type, flags, id, tag[8] */
		return 16;
	case PERF_RECORD_TEXT_POKE: /* addr, old_len, new_len */
		return 12;
	case PERF_RECORD_ITRACE_START: /* pid, tid */
	case PERF_RECORD_SWITCH_CPU_WIDE: /* next_prev_pid, next_prev_tid */
	case REC_AUX_OUTPUT_HW_ID: /* hw_id */
		return 8;
	default: /* SWITCH (and type 0, which no kernel writes): the trailer only */
		return 0;
	}
}

int ts_record_check(const struct ts_reader *r, char *err, const unsigned char *rec, uint32_t size,
		    uint64_t off)
{
	uint32_t type = ts_get_u32(rec), body, need, trailer = 0;
	const char *name = ts_record_name(type);
	int idx, str;

	/* a type newer than this reader: its layout is not known; warned of, and skipped */
	if (type > REC_AUX_OUTPUT_HW_ID)
		return 0;
	idx = ts_reader_attr_of(r, err, rec, size, 0, off);
	if (idx == -TS_ENOATTR && r->id_from_end < 0)
		idx = 0; /* no id to tell the attrs apart: the first attr's trailer */
	else if (idx == -TS_ENOATTR) /* perf stops here too: no event to parse the trailer by */
		return ts_fail_into(r, err, off, -TS_ECORRUPT,
				    "%s record (type %u): the id of its sample_id trailer, %llu, "
				    "matches no event attr",
				    name, type,
				    (unsigned long long)ts_get_u64(rec + size - r->id_from_end));
	else if (idx < 0)
		return ts_fail_into(r, err, off, -TS_ECORRUPT,
				    "%s record (type %u) of %u bytes: too short for its id", name,
				    type, size);
	if (idx < r->nr_attrs)
		trailer = (uint32_t)r->layout[idx].trailer_size;
	need = (uint32_t)fixed_part(type, &str);
	if (size < 8 + trailer + need)
		return ts_fail_into(r, err, off, -TS_ECORRUPT,
				    "%s record (type %u) of %u bytes: too short for its %u-byte "
				    "fixed part and %u-byte sample_id trailer",
				    name, type, size, need, trailer);
	body = size - 8 - trailer;
	if (trailer && r->layout[idx].trailer_cpu >= 0) {
		/* the kernel writes cpu and a zero "res"; perf's synthesized records zeros */
		const unsigned char *c = rec + size - trailer + r->layout[idx].trailer_cpu;
		uint32_t cpu = ts_get_u32(c), max = r->m.info.nr_cpus_avail;

		if (ts_get_u32(c + 4) || (max && cpu >= max))
			return ts_fail_into(
				r, err, off, -TS_ECORRUPT,
				"%s record (type %u): its sample_id trailer names cpu %u "
				"(reserved word %#x), but the recording machine has %u CPUs",
				name, type, cpu, ts_get_u32(c + 4), max);
	}
	if (type == PERF_RECORD_NAMESPACES && ts_get_u64(rec + 16) > (body - need) / 16)
		return ts_fail_into(r, err, off, -TS_ECORRUPT,
				    "%s record (type %u): %llu namespaces do not fit its %u bytes",
				    name, type, (unsigned long long)ts_get_u64(rec + 16), size);
	if (type == PERF_RECORD_TEXT_POKE) {
		uint16_t old_len, new_len;

		memcpy(&old_len, rec + 16, 2);
		memcpy(&new_len, rec + 18, 2);
		if ((uint32_t)old_len + new_len > body - need)
			return ts_fail_into(r, err, off, -TS_ECORRUPT,
					    "%s record (type %u): %u + %u bytes of text do not fit "
					    "its %u bytes",
					    name, type, old_len, new_len, size);
	}
	if (str >= 0 && !memchr(rec + 8 + str, 0, body - (uint32_t)str))
		return ts_fail_into(r, err, off, -TS_ECORRUPT,
				    "%s record (type %u): its name has no NUL inside the record "
				    "(before its %u-byte sample_id trailer)",
				    name, type, trailer);
	return 0;
}
