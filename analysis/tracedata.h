/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to the decoder: parse perf's tracing data section into a tep handle. */
#ifndef TS_TRACEDATA_H
#define TS_TRACEDATA_H

#include <stddef.h>

struct tep_handle;

/*
 * ts_tracedata_parse() - feed every part of the section to @tep
 * Return: 0, or -TS_ETRACEDATA with @err naming the offset inside the section.
 */
int ts_tracedata_parse(struct tep_handle *tep, const void *data, size_t size, char *err,
		       size_t errlen);

#endif
