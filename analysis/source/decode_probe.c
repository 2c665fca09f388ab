// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoder of perf probe's kprobe events, probe:F and probe:F__return: the address probed. F is
 * the name asked for; the kernel may only have a clone of it (F.constprop.0), which is what a
 * kprobe placed by its base name sits on, and the address names it.
 */
#include "decode_priv.h"

enum { PR_IP, PR_FUNC };

static const struct ts_field_def probe_fields[] = {
	[PR_IP] = OPT("__probe_ip"), /* a kprobe: where it fired */
	[PR_FUNC] = OPT("__probe_func"), /* a return probe: the function returned from */
};

static void probe_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		       struct ts_event *ev)
{
	(void)d;
	ev->probe.ip = c->f[PR_IP].size ? num(pl, &c->f[PR_IP]) : num(pl, &c->f[PR_FUNC]);
}

TS_KIND_DECODER(probe, probe_fields, NULL, probe_fill);
