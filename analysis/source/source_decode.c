// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source's decoding of one sample into a typed event (the tracepoint's payload and the
 * kernel part of its callchain), on the reader's thread (inline) or the worker's (worker.c),
 * and the message of a failed run.
 */
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "source_priv.h"

int ts_source_fail(struct ts_source *s, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return code;
}

/*
 * The kernel part of a raw callchain: the entries after PERF_CONTEXT_KERNEL up to the next
 * context marker. It is used in place when aligned (it always is in practice), else copied.
 */
const uint64_t *ts_source_kernel_ips(struct ts_source *s, const uint64_t *ips, uint64_t nr_ips,
				     uint32_t *nr)
{
	uint64_t i, start = 0, end, ip;

	memcpy(&ip, &ips[0], 8);
	if (ip == (uint64_t)PERF_CONTEXT_KERNEL)
		start = 1;
	else if (ip >= (uint64_t)PERF_CONTEXT_MAX)
		start = nr_ips; /* user-only chain */
	for (end = start; end < nr_ips; end++) {
		memcpy(&ip, &ips[end], 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			break;
	}
	*nr = end - start;
	if (!((uintptr_t)ips & 7))
		return ips + start;
	if (*nr > MAX_IPS)
		*nr = MAX_IPS;
	for (i = 0; i < *nr; i++)
		memcpy(&s->ips[i], &ips[start + i], 8);
	return s->ips;
}

int ts_source_decode_failed(struct ts_source *s, int ret, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", ts_decoder_error(s->dec));
	return ret;
}

int ts_source_event(struct ts_source *s, int tp_id, const void *raw, uint32_t raw_size,
		    const uint64_t *ips, uint64_t nr_ips, struct ts_event *ev)
{
	return ts_source_decode(s, tp_id, raw, raw_size, ips, nr_ips, ev, s->err, sizeof(s->err));
}

/* TS_SRC_INLINE: decode here, and call back with the reader's sample. */
int ts_source_inline_sample(struct ts_source *s, const struct ts_sample *smp)
{
	struct ts_event ev;
	int ret;

	if (s->print_path) {
		ret = ts_source_set_print_kallsyms(s);
		if (ret)
			return ret;
	}
	memset(&ev, 0, offsetof(struct ts_event, sw));
	ev.time = smp->time;
	ev.cpu = smp->cpu;
	ev.pid = smp->tid;
	ret = ts_source_decode(s, (int)smp->attr->config, smp->raw, smp->raw_size, smp->ips,
			       smp->nr_ips, &ev, s->err, sizeof(s->err));
	if (ret)
		return ret;
	return s->fn(s->ctx, &ev, smp);
}
