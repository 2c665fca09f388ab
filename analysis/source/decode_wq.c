// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoders of the workqueue tracepoints. Older kernels lack the function in some of them and
 * the queue's details in workqueue_queue_work: those fields are optional.
 */
#include "decode_priv.h"

enum { W_WORK, W_FUNCTION, W_WORKQUEUE, W_REQ_CPU, W_CPU };

static void wq_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		    struct ts_event *ev)
{
	ev->wq.work = num(pl, &c->f[W_WORK]);
	ev->wq.function = num(pl, &c->f[W_FUNCTION]);
	if (ev->kind == TS_EV_WQ_QUEUE) {
		ts_dec_str(pl, &c->f[W_WORKQUEUE], ev->wq.wq_name, sizeof(ev->wq.wq_name));
		ev->wq.req_cpu = num(pl, &c->f[W_REQ_CPU]);
		ev->wq.cpu = num(pl, &c->f[W_CPU]);
	}
}

/* A 64-bit kernel's work and function slots, 8-byte numbers: wq_fast() reads them. */
static void wq_setup(struct evcache *c)
{
	c->fixed = fld_is_num(&c->f[W_WORK], 8) && fld_is_num(&c->f[W_FUNCTION], 8);
}

/* wq_fill() of a payload that holds both (the execute events: 8% of a busy trace's samples). */
static int wq_fast(struct ts_decoder *d, const struct evcache *c, const unsigned char *p,
		   uint32_t size, struct ts_event *ev)
{
	if (size < c->need)
		return ts_dec_full(d, ev->tp_id, p, size, ev);
	ev->wq.work = num_at(p, &c->f[W_WORK], 8);
	ev->wq.function = num_at(p, &c->f[W_FUNCTION], 8);
	return 0;
}

static const struct ts_field_def queue_fields[] = {
	[W_WORK] = REQ("work"),
	[W_FUNCTION] = OPT("function"),
	[W_WORKQUEUE] = OPT("workqueue"),
	[W_REQ_CPU] = OPT("req_cpu"),
	[W_CPU] = OPT("cpu"),
};
static const struct ts_field_def start_fields[] = {
	[W_WORK] = REQ("work"),
	[W_FUNCTION] = REQ("function"),
};
static const struct ts_field_def work_fields[] = {
	[W_WORK] = REQ("work"),
	[W_FUNCTION] = OPT("function"),
};

TS_KIND_DECODER(wq_queue, queue_fields, NULL, wq_fill);
TS_KIND_DECODER_FAST(wq_start, start_fields, wq_setup, wq_fill, wq_fast);
TS_KIND_DECODER_FAST(wq_work, work_fields, wq_setup, wq_fill, wq_fast);
