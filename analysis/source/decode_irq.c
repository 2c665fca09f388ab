// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoders of the irq section's tracepoints: irq:irq_handler_entry/exit (irq, name, ret) and
 * irq:softirq_entry/exit (vec). The irq_vectors:* system vectors carry only the vector number,
 * which the model does not need: it names them by their tracepoint.
 */
#include "decode_priv.h"

enum { IRQ_IRQ, IRQ_NAME, IRQ_RET };

static void irq_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		     struct ts_event *ev)
{
	ev->irq.irq = (int32_t)num(pl, &c->f[IRQ_IRQ]);
	ev->irq.ret = (int32_t)num(pl, &c->f[IRQ_RET]);
	ev->irq.name[0] = 0;
	if (c->f[IRQ_NAME].size)
		ts_dec_str(pl, &c->f[IRQ_NAME], ev->irq.name, sizeof(ev->irq.name));
}

static const struct ts_field_def irq_entry_fields[] = {
	[IRQ_IRQ] = REQ("irq"),
	[IRQ_NAME] = REQ("name"),
};
static const struct ts_field_def irq_exit_fields[] = {
	[IRQ_IRQ] = REQ("irq"),
	[IRQ_RET] = OPT("ret"),
};
/* softirq_entry, _exit: the vector (HI = 0 ... RCU = 9) in the irq slot */
static const struct ts_field_def softirq_fields[] = { [IRQ_IRQ] = REQ("vec") };

TS_KIND_DECODER(irq_entry, irq_entry_fields, NULL, irq_fill);
TS_KIND_DECODER(irq_exit, irq_exit_fields, NULL, irq_fill);
TS_KIND_DECODER(softirq, softirq_fields, NULL, irq_fill);
