// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mend records that libperf 6.1's perf_mmap__read_event() cuts short, and release what its
 * perf_evsel__delete() leaves behind. The only file that reads libperf's internal structs
 * (perf_mmap, perf_evsel), built against the same tree as the library.
 */
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

union perf_event *rec_ring_mend(struct perf_mmap *map, union perf_event *ev, void *buf, size_t len)
{
	size_t size = ev->header.size, data_size = (size_t)map->mask + 1, off, n;
	const unsigned char *data;
	unsigned char *dst = buf;

	/*
	 * Inside the ring, or short enough to have been copied whole: nothing to do. Otherwise
	 * the record began @size bytes before map->start, which read_event has moved past it.
	 */
	if (size <= sizeof(union perf_event) || (void *)ev != (void *)map->event_copy ||
	    size > len || size > data_size)
		return ev;
	data = (const unsigned char *)map->base + sysconf(_SC_PAGESIZE);
	off = (size_t)((map->start - size) & (uint64_t)map->mask);
	n = data_size - off < size ? data_size - off : size;
	memcpy(dst, data + off, n);
	memcpy(dst + n, data, size - n);
	/* libperf 6.12 and later copy the whole record: then nothing was cut */
	return memcmp(buf, ev, size) ? buf : ev;
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
