/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoints recorded through perf record's --filter or --exclude-perf (perf_filter.c). */
#ifndef TS_SOURCE_PERF_FILTER_H
#define TS_SOURCE_PERF_FILTER_H

#include <stdint.h>

#include "tickscope/reader.h"

/**
 * ts_filter_mark() - which attrs perf record's command line filtered
 * @args: its words (HEADER_CMDLINE), each NUL-terminated, one after the other
 * @nr_args: how many words
 * @a: the attrs, in the file's order
 * @names: their events ("sched:sched_switch"), "" if unknown
 * @nr: how many attrs
 * @out: 1 for each attr recorded through a filter, else 0
 *
 * Return: 0, or -ENOMEM.
 */
int ts_filter_mark(const char *args, uint32_t nr_args, const struct ts_attr *a,
		   const char *const *names, int nr, uint8_t *out);

#endif
