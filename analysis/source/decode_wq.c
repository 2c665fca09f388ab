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
TS_KIND_DECODER(wq_start, start_fields, NULL, wq_fill);
TS_KIND_DECODER(wq_work, work_fields, NULL, wq_fill);
