// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the perf.data writer carries besides records: feature blobs in perf's layout (strings,
 * CPU counts, command line, the kernel's build id) and the tracing data built from tracefs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tickscope/writer.h"

#define NAME_ALIGN 64 /* perf pads feature strings to this */

int ts_blob_add(struct ts_blob *b, const void *p, size_t len)
{
	unsigned char *n;
	size_t a;

	if (!len)
		return 0;
	if (b->len + len > b->alloc) {
		a = b->alloc ? b->alloc : 4096;
		while (a < b->len + len)
			a *= 2;
		n = realloc(b->p, a);
		if (!n)
			return -ENOMEM;
		b->p = n;
		b->alloc = a;
	}
	memcpy(b->p + b->len, p, len);
	b->len += len;
	return 0;
}

void ts_blob_free(struct ts_blob *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* perf's string: u32 length (with the NUL, padded to 64), then the padded text */
int ts_blob_string(struct ts_blob *b, const char *s)
{
	static const char zero[NAME_ALIGN];
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN);

	return ts_blob_add(b, &len, sizeof(len)) ?:
		       ts_blob_add(b, s, n)	 ?:
						   ts_blob_add(b, zero, len - n);
}

int ts_feat_uname(struct ts_blob *host, struct ts_blob *release, struct ts_blob *arch)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	return ts_blob_string(host, u.nodename)		  ?:
		       ts_blob_string(release, u.release) ?:
							    ts_blob_string(arch, u.machine);
}

/* u32 CPUs the kernel could have, u32 CPUs online */
int ts_feat_nrcpus(struct ts_blob *b)
{
	uint32_t n[2] = { (uint32_t)sysconf(_SC_NPROCESSORS_CONF),
			  (uint32_t)sysconf(_SC_NPROCESSORS_ONLN) };

	return ts_blob_add(b, n, sizeof(n));
}

/* u32 count, the executable's path, then each argument, as perf does */
int ts_feat_cmdline(struct ts_blob *b, int argc, char **argv)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint32_t nr = (uint32_t)argc + 1;
	int i, err;

	exe[n > 0 ? n : 0] = 0;
	err = ts_blob_add(b, &nr, sizeof(nr)) ?: ts_blob_string(b, exe);
	for (i = 0; !err && i < argc; i++)
		err = ts_blob_string(b, argv[i]);
	return err;
}

/* Read a whole file of unknown size (tracefs files stat as 0 bytes) onto @b. */
static int slurp(struct ts_blob *b, const char *path)
{
	char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	while (!err && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		err = n < 0 ? -errno : ts_blob_add(b, buf, (size_t)n);
	}
	close(fd);
	return err;
}

/*
 * The build-id feature for the running kernel: one perf_record_header_build_id (header, pid -1
 * for the host kernel, 20 bytes of id plus its size byte) and "[kernel.kallsyms]" padded to 64.
 */
int ts_feat_kernel_build_id(struct ts_blob *b, const char *notes)
{
	static const char name[NAME_ALIGN] = "[kernel.kallsyms]";
	struct ts_blob n = { 0 };
	size_t off = 0;
	int err = slurp(&n, notes);

	while (!err && off + 12 <= n.len) {
		uint32_t nsz, dsz, type;
		size_t d;

		memcpy(&nsz, n.p + off, 4);
		memcpy(&dsz, n.p + off + 4, 4);
		memcpy(&type, n.p + off + 8, 4);
		d = off + 12 + ((nsz + 3) & ~3U);
		if (d + dsz > n.len)
			break;
		if (type == 3 && nsz == 4 && !memcmp(n.p + off + 12, "GNU", 4) && dsz <= 20) {
			struct perf_event_header h = {
				.misc = PERF_RECORD_MISC_KERNEL | (1 << 15), /* BUILD_ID_SIZE */
				.size = 36 + NAME_ALIGN,
			};
			int32_t pid = -1;
			unsigned char id[24] = { 0 };

			memcpy(id, n.p + d, dsz);
			id[20] = (unsigned char)dsz;
			err = ts_blob_add(b, &h, sizeof(h))	     ?:
				      ts_blob_add(b, &pid, 4)	     ?:
				      ts_blob_add(b, id, sizeof(id)) ?:
				      ts_blob_add(b, name, sizeof(name));
			ts_blob_free(&n);
			return err;
		}
		off = d + ((dsz + 3) & ~3U);
	}
	ts_blob_free(&n);
	return err ?: -ENOENT;
}

/* a file's contents after a u64 (or u32 with @small) size */
static int sized_file(struct ts_blob *b, const char *path, int small)
{
	struct ts_blob f = { 0 };
	uint64_t len;
	uint32_t len32;
	int err = slurp(&f, path);

	if (err == -ENOENT && small)
		err = 0; /* no printk_formats: an empty section */
	len = f.len;
	len32 = (uint32_t)f.len;
	if (!err)
		err = (small ? ts_blob_add(b, &len32, 4) : ts_blob_add(b, &len, 8)) ?:
			      ts_blob_add(b, f.p, f.len);
	ts_blob_free(&f);
	return err;
}

/* u32 count of systems, each: its name, a u32 count, then each event's u64 size and format */
static int systems(struct ts_blob *b, const char *tracefs, const char *const *ev, int nr)
{
	char path[PATH_MAX];
	uint32_t nsys = 0, cnt;
	int i, j, err = 0;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < i && strncmp(ev[i], ev[j], strcspn(ev[i], ":") + 1); j++)
			;
		nsys += j == i;
	}
	err = ts_blob_add(b, &nsys, 4);
	for (i = 0; !err && i < nr; i++) {
		size_t sl = strcspn(ev[i], ":");

		for (j = 0; j < i && strncmp(ev[i], ev[j], sl + 1); j++)
			;
		if (j < i)
			continue; /* system already written */
		for (cnt = 0, j = i; j < nr; j++)
			cnt += !strncmp(ev[i], ev[j], sl + 1);
		err = ts_blob_add(b, ev[i], sl) ?: ts_blob_add(b, "", 1) ?: ts_blob_add(b, &cnt, 4);
		for (j = i; !err && j < nr; j++) {
			if (strncmp(ev[i], ev[j], sl + 1))
				continue;
			snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", tracefs, (int)sl,
				 ev[j], ev[j] + sl + 1);
			err = sized_file(b, path, 0);
		}
	}
	return err;
}

int ts_tracedata_build(struct ts_blob *b, const char *tracefs, const char *const *events, int nr)
{
	static const char magic[] = "\027\010\104tracing0.6";
	unsigned char flags[2] = { __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, sizeof(long) };
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), zero = 0;
	uint64_t zero64 = 0;
	char path[PATH_MAX];
	int i, err;

	for (i = 0; i < nr; i++)
		if (!strchr(events[i], ':'))
			return -EINVAL;
	err = ts_blob_add(b, magic, sizeof(magic)) ?:
		      ts_blob_add(b, flags, 2)	   ?:
		      ts_blob_add(b, &page, 4)	   ?:
						     ts_blob_add(b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	err = err ?: sized_file(b, path, 0) ?: ts_blob_add(b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	err = err ?: sized_file(b, path, 0);
	/* no ftrace-internal formats, the systems, kallsyms left empty as perf 6.1 does */
	err = err				      ?:
		      ts_blob_add(b, &zero, 4)	      ?:
		      systems(b, tracefs, events, nr) ?:
							ts_blob_add(b, &zero, 4);
	snprintf(path, sizeof(path), "%s/printk_formats", tracefs);
	/* printk formats, then version 0.6's saved cmdlines, empty as perf 6.1 writes them */
	return err ?: sized_file(b, path, 1) ?: ts_blob_add(b, &zero64, 8);
}
