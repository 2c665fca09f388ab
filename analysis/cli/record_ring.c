// SPDX-License-Identifier: GPL-2.0-only
/*
 * Drain a ring in one copy, and release what libperf 6.1's perf_evsel__delete() leaves behind.
 * The only file that reads libperf's internal structs (perf_mmap, perf_evsel), built against
 * the same tree as the library.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <perf/event.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
#include <internal/evsel.h>
#include <internal/mmap.h>

#include "record.h"

long rec_ring_drain(struct perf_mmap *map, struct rec_queue *q, uint64_t *wrapped)
{
	size_t ring = (size_t)map->mask + 1, len, off, n, pos;
	const struct perf_event_header *h;
	const unsigned char *data;
	unsigned char *dst;
	int err;

	/*
	 * From the tail we gave back to the head read now (an acquire); -ENOENT once the ring
	 * is unmapped.
	 */
	if (perf_mmap__read_init(map) < 0 || map->end == map->start)
		return 0;
	len = (size_t)(map->end - map->start);
	if (len > ring || len % 8)
		return -EIO;
	dst = rec_queue_reserve(q, len, &err);
	if (!dst)
		return err;
	data = (const unsigned char *)map->base + sysconf(_SC_PAGESIZE);
	off = (size_t)(map->start & (uint64_t)map->mask);
	n = ring - off < len ? ring - off : len;
	memcpy(dst, data + off, n);
	memcpy(dst + n, data, len - n);
	/* the writer walks these by their sizes: they must tile the range exactly */
	for (pos = 0; pos < len; pos += h->size) {
		h = (const void *)(dst + pos);
		if (h->size < sizeof(*h) || h->size % 8 || h->size > len - pos)
			return -EIO;
		*wrapped += pos < n && pos + h->size > n;
	}
	rec_queue_commit(q, len);
	/* the tail moves once, past all of it (a release: our reads are done) */
	map->prev = map->end;
	perf_mmap__consume(map);
	return (long)len;
}

int rec_ring_fd(const struct perf_mmap *map)
{
	return map->fd;
}

void rec_evsel_release(struct perf_evsel *evsel)
{
	/* 6.1's delete is a bare free(): the ids and the maps' references stay. Later trees put
	 * the maps themselves, so each pointer is cleared once it is put.
	 */
	perf_evsel__free_id(evsel);
	perf_cpu_map__put(evsel->cpus);
	perf_cpu_map__put(evsel->own_cpus);
	perf_thread_map__put(evsel->threads);
	evsel->cpus = NULL;
	evsel->own_cpus = NULL;
	evsel->threads = NULL;
}
