// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data feature sections (file mode) and HEADER_FEATURE records (pipe mode): the few
 * the reports use (arch, release, CPUs, cmdline, event names, build ids), and tracing data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_priv.h"

/* A perf string: u32 length, then the bytes (NUL padded). */
static int get_string(const unsigned char **p, const unsigned char *end, char *out, size_t out_len)
{
	uint32_t len;

	if (end - *p < 4)
		return -1;
	len = ts_get_u32(*p);
	*p += 4;
	if ((size_t)(end - *p) < len)
		return -1;
	if (out) {
		size_t n = strnlen((const char *)*p, len);

		if (n >= out_len)
			n = out_len - 1;
		memcpy(out, *p, n);
		out[n] = 0;
	}
	*p += len;
	return 0;
}

/*
 * HEADER_CMDLINE: perf's argv. Kept twice: joined with spaces (info prints it) and word by
 * word, since a word may hold spaces (--filter 'prev_pid != 0') and perf_filter.c needs them
 * apart.
 */
static int feat_cmdline(struct ts_reader *r, const unsigned char *p, const unsigned char *end)
{
	struct ts_file_info *info = &r->m.info;
	uint32_t nr, i;
	size_t len = 0;

	if (end - p < 4)
		return -1;
	nr = ts_get_u32(p);
	p += 4;
	if (nr > (size_t)(end - p) / 4) /* each string takes at least its u32 length */
		return -1;
	free(info->cmdline);
	free(info->args);
	info->cmdline = NULL;
	info->nr_args = 0;
	info->args = calloc(1, end - p + nr + 1);
	if (!info->args)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		char *dst = info->args + len;

		if (get_string(&p, end, dst, end - p + 1))
			return -1;
		len += strlen(dst) + 1; /* its NUL kept */
	}
	info->cmdline = malloc(len + 1);
	if (!info->cmdline)
		return -ENOMEM;
	memcpy(info->cmdline, info->args, len + 1);
	for (i = 0; len && i < len - 1; i++)
		if (!info->cmdline[i])
			info->cmdline[i] = ' ';
	info->nr_args = nr;
	return 0;
}

static int feat_event_desc(struct ts_reader *r, const unsigned char *p, const unsigned char *end)
{
	uint32_t nr, sz, i, nr_ids;
	char name[64];
	int idx;

	if (end - p < 8)
		return -1;
	nr = ts_get_u32(p);
	sz = ts_get_u32(p + 4);
	p += 8;
	for (i = 0; i < nr; i++) {
		if ((uint64_t)(end - p) < (uint64_t)sz + 4)
			return -1;
		p += sz;
		nr_ids = ts_get_u32(p);
		p += 4;
		if (get_string(&p, end, name, sizeof(name)))
			return -1;
		if ((size_t)(end - p) / 8 < nr_ids)
			return -1;
		idx = nr_ids ? ts_reader_attr_index(r, ts_get_u64(p)) : -1;
		if (idx < 0 && i < (uint32_t)r->nr_attrs)
			idx = i;
		if (idx >= 0)
			snprintf(r->attrs[idx].name, sizeof(r->attrs[idx].name), "%s", name);
		p += 8 * (size_t)nr_ids;
	}
	return 0;
}

/* BUILD_ID: perf_event_header, pid, build id (20 bytes + size byte + pad), filename. */
static int feat_build_id(struct ts_reader *r, const unsigned char *p, const unsigned char *end)
{
	while (end - p >= 8) {
		uint16_t size, misc;
		const unsigned char *bid;
		const char *name;
		int len, i;

		memcpy(&misc, p + 4, 2);
		memcpy(&size, p + 6, 2);
		if (size < 8 + 4 + 24 || size > end - p)
			return -1;
		bid = p + 12;
		len = bid[20] && bid[20] <= 20 ? bid[20] : 20;
		name = (const char *)p + 36;
		if ((misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
		    !strncmp(name, "[kernel.kallsyms]", size - 36)) {
			for (i = 0; i < len; i++)
				sprintf(r->m.info.kernel_build_id + 2 * i, "%02x", bid[i]);
		}
		p += size;
	}
	return 0;
}

static const char *feat_name(int feat)
{
	static const char *const names[] = {
		[TS_FEAT_TRACING_DATA] = "TRACING_DATA",
		[TS_FEAT_BUILD_ID] = "BUILD_ID",
		[TS_FEAT_HOSTNAME] = "HOSTNAME",
		[TS_FEAT_OSRELEASE] = "OSRELEASE",
		[TS_FEAT_VERSION] = "VERSION",
		[TS_FEAT_ARCH] = "ARCH",
		[TS_FEAT_NRCPUS] = "NRCPUS",
		[TS_FEAT_CPUDESC] = "CPUDESC",
		[TS_FEAT_CPUID] = "CPUID",
		[TS_FEAT_CMDLINE] = "CMDLINE",
		[TS_FEAT_EVENT_DESC] = "EVENT_DESC",
	};

	if (feat >= 0 && feat < (int)(sizeof(names) / sizeof(names[0])) && names[feat])
		return names[feat];
	return "unknown";
}

int ts_reader_feature(struct ts_reader *r, int feat, const unsigned char *p, size_t size,
		      uint64_t off)
{
	const unsigned char *end = p + size;
	struct ts_file_info *i = &r->m.info;
	int ret = 0;

	switch (feat) {
	case TS_FEAT_TRACING_DATA:
		return ts_reader_set_tdata(r, p, size);
	case TS_FEAT_HOSTNAME:
		ret = get_string(&p, end, i->hostname, sizeof(i->hostname));
		break;
	case TS_FEAT_OSRELEASE:
		ret = get_string(&p, end, i->osrelease, sizeof(i->osrelease));
		break;
	case TS_FEAT_VERSION:
		ret = get_string(&p, end, i->version, sizeof(i->version));
		break;
	case TS_FEAT_ARCH:
		ret = get_string(&p, end, i->arch, sizeof(i->arch));
		break;
	case TS_FEAT_CPUDESC:
		ret = get_string(&p, end, i->cpudesc, sizeof(i->cpudesc));
		break;
	case TS_FEAT_CPUID:
		ret = get_string(&p, end, i->cpuid, sizeof(i->cpuid));
		break;
	case TS_FEAT_NRCPUS:
		if (size < 8)
			ret = -1;
		else {
			i->nr_cpus_avail = ts_get_u32(p);
			i->nr_cpus_online = ts_get_u32(p + 4);
		}
		break;
	case TS_FEAT_CMDLINE:
		ret = feat_cmdline(r, p, end);
		break;
	case TS_FEAT_EVENT_DESC:
		ret = feat_event_desc(r, p, end);
		break;
	case TS_FEAT_BUILD_ID:
		ret = feat_build_id(r, p, end);
		break;
	default:
		break;
	}
	if (ret == -ENOMEM)
		return ret;
	/*
	 * Decoding needs only the tracing data (handled above) and the attrs; these features
	 * describe the machine. perf prints "(null)" for a damaged one and reads on: so do we.
	 */
	if (ret) {
		if (feat == TS_FEAT_CMDLINE) {
			free(i->cmdline);
			free(i->args);
			i->cmdline = NULL;
			i->args = NULL;
			i->nr_args = 0;
		}
		return ts_reader_warn(r, off, "feature section %s (%d) is malformed: ignored",
				      feat_name(feat), feat);
	}
	return 0;
}

int ts_reader_set_tdata(struct ts_reader *r, const void *p, size_t size)
{
	free(r->tdata);
	r->tdata = malloc(size ? size : 1);
	if (!r->tdata)
		return -ENOMEM;
	memcpy(r->tdata, p, size);
	r->tdata_len = size;
	return 0;
}
