// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a source's samples reach the callback: ts_source_start() picks the mode once (inline on
 * the reader's thread, a worker thread fed through a ring, or the plugin's pushes decoded as
 * they come when no CPU is spare or no thread is to be had), the feed functions dispatch on
 * it, and ts_source_stop() ends it, joining the worker and the thread that loads the reports'
 * kallsyms.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source_priv.h"
#include "tickscope/error.h"

/*
 * Decode one sample and call back: on the worker, or as pushed when there is none. Inlined
 * into both: its call and frame cost the worker about 20 instructions a sample.
 */
static inline __attribute__((always_inline)) int
feed_sample(struct ts_source *s, int tp_id, uint64_t time, int32_t cpu, int32_t tid,
	    const void *raw, uint32_t raw_size, const uint64_t *ips, uint64_t nr_ips, uint64_t off)
{
	struct ts_event ev;
	int ret;

	memset(&ev, 0, offsetof(struct ts_event, sw));
	ev.time = time;
	ev.cpu = cpu;
	ev.pid = tid;
	ret = ts_source_decode(s, tp_id, raw, raw_size, ips, nr_ips, &ev, s->werr, sizeof(s->werr));
	if (ret && s->opts.keep_going) { /* counted, and the first one kept */
		if (!s->nr_bad++)
			snprintf(s->bad_first, sizeof(s->bad_first), "%s", s->werr);
		s->werr[0] = 0;
		return 0;
	}
	if (!ret)
		ret = s->fn(s->ctx, &ev, NULL);
	if (ret)
		s->werr_off = off;
	return ret;
}

static int worker_msg(void *ctx, const void *msg, uint32_t len)
{
	struct ts_source *s = ctx;
	const struct wmsg_sample *m = msg;

	if (m->type == WMSG_EVENT)
		return s->fn(s->ctx, &((const struct wmsg_event *)msg)->ev, NULL);
	return feed_sample(s, (int)m->tp_id, m->time, m->cpu, m->tid, m->ips + m->nr_ips,
			   m->raw_size, m->ips, m->nr_ips, m->off);
}

/* What each tracepoint decodes to, looked up before the worker owns the decoder. */
static int prepare_kinds(struct ts_source *s)
{
	const struct ts_attr *attrs;
	int nr, i;

	if (!s->kinds) {
		s->kinds = malloc(MAX_TP_IDS);
		if (!s->kinds)
			return -ENOMEM;
	}
	memset(s->kinds, KIND_UNKNOWN, MAX_TP_IDS);
	attrs = ts_reader_attrs(s->reader, &nr);
	for (i = 0; i < nr; i++) {
		int kind;

		if (attrs[i].type != PERF_TYPE_TRACEPOINT || attrs[i].config >= MAX_TP_IDS)
			continue;
		kind = ts_decoder_kind(s->dec, (int)attrs[i].config);
		if (kind >= 0 && kind < KIND_UNKNOWN)
			s->kinds[attrs[i].config] = (uint8_t)kind;
	}
	return 0;
}

static void *ksyms_main(void *arg)
{
	struct ts_source *s = arg;

	s->ksyms_ret = ts_source_load_ksyms(&s->ksyms, s->ksyms_path, s->opts.ksyms_cache,
					    s->ksyms_err, sizeof(s->ksyms_err));
	return NULL;
}

/* The reports' kallsyms: on a thread of their own while the input is read, else here. */
static int ksyms_start(struct ts_source *s)
{
	if (!s->ksyms_path || s->ksyms || s->ksyms_started)
		return 0;
	/* its own thread: on the worker, it would hold the reader up for 36 ms */
	if (!pthread_create(&s->ksyms_thread, NULL, ksyms_main, s)) {
		s->ksyms_started = 1;
		return 0;
	}
	return ts_source_load_ksyms(&s->ksyms, s->ksyms_path, s->opts.ksyms_cache, s->err,
				    sizeof(s->err));
}

int ts_source_start(struct ts_source *s, enum ts_source_mode mode, int pushed, ts_source_fn fn,
		    void *ctx)
{
	int ret;

	s->fn = fn;
	s->ctx = ctx;
	s->werr[0] = 0;
	s->pushed_ret = 0;
	s->mode = mode;
	if (mode == TS_SRC_INLINE)
		return ksyms_start(s);
	if (mode != TS_SRC_WORKER)
		return 0;
	s->mode = TS_SRC_IDLE;
	if (!s->dec)
		return ts_source_fail(s, -TS_ENOTRACEDATA, "%s: %s", ts_src_name(s),
				      ts_strerror(-TS_ENOTRACEDATA));
	ret = prepare_kinds(s);
	if (ret)
		return ts_source_fail(s, ret, "%s", ts_strerror(ret));
	ret = ksyms_start(s);
	if (ret)
		return ret;
	/*
	 * the plugin: its worker only when asked (TS_THREADS=1). With no CPU to spare it would
	 * only share perf's CPU time; with one spare it bought 7% of wall time for 15% more CPU
	 * (the copy into the ring and each message crossing caches, not the waiting: issue 33,
	 * docs/plugin.md), and perf's own thread stays the bottleneck
	 */
	if (pushed && !s->opts.threaded) {
		s->mode = TS_SRC_PUSHED;
		return 0;
	}
	ret = ts_pipe_start(&s->pipe, WORKER_RING, worker_msg, s);
	if (!ret) {
		s->mode = TS_SRC_WORKER;
		return 0;
	}
	if (ret == -EAGAIN) /* no thread to be had (RLIMIT_NPROC): decode on this one */
		s->mode = pushed ? TS_SRC_PUSHED : TS_SRC_INLINE;
	if (ret == -EAGAIN && !pushed)
		return 0;
	return ts_source_fail(s, ret, "starting the worker thread: %s", ts_strerror(ret));
}

int ts_source_worker_start(struct ts_source *s, ts_source_fn fn, void *ctx)
{
	return ts_source_start(s, TS_SRC_WORKER, 1, fn, ctx);
}

/*
 * A sample on its way to the worker thread. Inlined into both producers (the plugin's pushes
 * and the reader's samples, ts_source_push_sample()), so that the fields go from where they
 * are straight into the ring.
 */
static inline __attribute__((always_inline)) int
push_sample(struct ts_source *s, int tp_id, uint64_t time, uint64_t tid_cpu, const void *raw,
	    uint32_t raw_size, const uint64_t *ips, uint64_t nr_ips, uint64_t off)
{
	struct wmsg_sample *m = ts_pipe_reserve(s->pipe, sizeof(*m) + nr_ips * 8 + raw_size);

	if (!m)
		return -ECANCELED;
	m->type = WMSG_SAMPLE;
	m->tp_id = tp_id;
	m->time = time;
	m->off = off;
	memcpy(&m->tid, &tid_cpu, sizeof(tid_cpu)); /* tid then cpu, as struct ts_sample */
	m->raw_size = raw_size;
	m->nr_ips = nr_ips;
	if (nr_ips) /* ips may be NULL without a callchain */
		memcpy(m->ips, ips, nr_ips * 8);
	memcpy(m->ips + nr_ips, raw, raw_size);
	ts_pipe_commit(s->pipe);
	return 0;
}

/* tid and cpu as the one 8-byte word they are in struct ts_sample and struct wmsg_sample */
static inline uint64_t tid_cpu_word(int32_t tid, int32_t cpu)
{
	int32_t v[2] = { tid, cpu };
	uint64_t w;

	memcpy(&w, v, sizeof(w));
	return w;
}

_Static_assert(offsetof(struct wmsg_sample, cpu) == offsetof(struct wmsg_sample, tid) + 4,
	       "tid and cpu are neighbours in struct wmsg_sample");
_Static_assert(offsetof(struct ts_sample, cpu) == offsetof(struct ts_sample, tid) + 4,
	       "tid and cpu are neighbours in struct ts_sample");

int ts_source_push_sample(struct ts_source *s, const struct ts_sample *smp, uint64_t nr_ips,
			  uint64_t off)
{
	uint64_t tid_cpu;

	memcpy(&tid_cpu, &smp->tid, sizeof(tid_cpu));
	return push_sample(s, (int)smp->attr->config, smp->time, tid_cpu, smp->raw, smp->raw_size,
			   smp->ips, nr_ips, off);
}

int ts_source_feed(struct ts_source *s, int tp_id, uint64_t time, int32_t cpu, int32_t tid,
		   const void *raw, uint32_t raw_size, const uint64_t *ips, uint64_t nr_ips,
		   uint64_t off)
{
	if (!ts_source_keeps_stack(s->kinds, (uint32_t)tp_id))
		nr_ips = 0;
	if (nr_ips > MAX_IPS)
		nr_ips = MAX_IPS;
	switch (s->mode) {
	case TS_SRC_WORKER:
		return push_sample(s, tp_id, time, tid_cpu_word(tid, cpu), raw, raw_size, ips,
				   nr_ips, off);
	case TS_SRC_PUSHED: /* no worker to be had: here and now */
		if (!s->pushed_ret)
			s->pushed_ret = feed_sample(s, tp_id, time, cpu, tid, raw, raw_size, ips,
						    nr_ips, off);
		return s->pushed_ret ? -ECANCELED : 0;
	default:
		return -EINVAL; /* not started */
	}
}

int ts_source_worker_sample(struct ts_source *s, int tp_id, uint64_t time, int32_t cpu, int32_t tid,
			    const void *raw, uint32_t raw_size, const uint64_t *ips,
			    uint64_t nr_ips, uint64_t off)
{
	return ts_source_feed(s, tp_id, time, cpu, tid, raw, raw_size, ips, nr_ips, off);
}

int ts_source_feed_event(struct ts_source *s, const struct ts_event *ev)
{
	struct wmsg_event *m;

	switch (s->mode) {
	case TS_SRC_INLINE:
		return s->fn(s->ctx, ev, NULL);
	case TS_SRC_PUSHED:
		if (!s->pushed_ret)
			s->pushed_ret = s->fn(s->ctx, ev, NULL);
		return s->pushed_ret ? -ECANCELED : 0;
	case TS_SRC_WORKER:
		m = ts_pipe_reserve(s->pipe, sizeof(*m));
		if (!m)
			return -ECANCELED;
		m->type = WMSG_EVENT;
		m->ev = *ev;
		ts_pipe_commit(s->pipe);
		return 0;
	default:
		return -EINVAL;
	}
}

int ts_source_worker_event(struct ts_source *s, const struct ts_event *ev)
{
	return ts_source_feed_event(s, ev);
}

int ts_source_stop(struct ts_source *s)
{
	int ret = 0;

	if (s->mode == TS_SRC_WORKER)
		ret = ts_pipe_finish(s->pipe);
	else if (s->mode == TS_SRC_PUSHED)
		ret = s->pushed_ret;
	s->pipe = NULL;
	s->mode = TS_SRC_IDLE;
	if (s->ksyms_started) {
		pthread_join(s->ksyms_thread, NULL);
		s->ksyms_started = 0;
	}
	return ret;
}

int ts_source_worker_finish(struct ts_source *s)
{
	int ret = ts_source_stop(s);

	if (!ret && s->ksyms_ret)
		return ts_source_fail(s, s->ksyms_ret, "%s", s->ksyms_err);
	if (!ret)
		return 0;
	if (!s->werr[0])
		snprintf(s->werr, sizeof(s->werr), "%s", ts_strerror(ret));
	if (s->werr_off == UINT64_MAX)
		return ts_source_fail(s, ret, "%s", s->werr);
	return ts_source_fail(s, ret, "%s: offset %#llx: %s", ts_src_name(s),
			      (unsigned long long)s->werr_off, s->werr);
}

uint64_t ts_source_nr_bad(const struct ts_source *s, const char **first)
{
	*first = s->bad_first;
	return s->nr_bad;
}
