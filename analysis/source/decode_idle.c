// SPDX-License-Identifier: GPL-2.0-only
/* Decoders of the idle section's tracepoints: power:cpu_idle and timer:tick_stop. */
#include <stdio.h>

#include "decode_priv.h"

enum { I_STATE, I_CPU_ID };

static const struct ts_field_def cpu_idle_fields[] = {
	[I_STATE] = REQ("state"),
	[I_CPU_ID] = REQ("cpu_id"),
};

static void cpu_idle_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
			  struct ts_event *ev)
{
	ev->idle.state = num(pl, &c->f[I_STATE]);
	ev->idle.cpu_id = num(pl, &c->f[I_CPU_ID]);
}

TS_KIND_DECODER(cpu_idle, cpu_idle_fields, NULL, cpu_idle_fill);

enum { TS_SUCCESS, TS_DEPENDENCY };

static const struct ts_field_def tick_stop_fields[] = {
	[TS_SUCCESS] = REQ("success"),
	[TS_DEPENDENCY] = REQ("dependency"),
};

static void tick_stop_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
			   struct ts_event *ev)
{
	uint64_t v = num(pl, &c->f[TS_DEPENDENCY]);
	struct depcache *k;
	const char *dep;
	int i, ret;

	ev->tick_stop.success = num(pl, &c->f[TS_SUCCESS]);
	if (pl->bad)
		return;
	/*
	 * The dependency is a __print_symbolic() of TICK_DEP_MASK_*: use its names, printed by
	 * libtraceevent once per value of the field and size of the payload (the name depends
	 * on nothing else).
	 */
	for (i = 0; i < d->nr_deps; i++)
		if (d->deps[i].id == ev->tp_id && d->deps[i].value == v &&
		    d->deps[i].size == pl->size) {
			memcpy(ev->tick_stop.dependency, d->deps[i].name,
			       sizeof(ev->tick_stop.dependency));
			return;
		}
	ret = ts_dec_print_info(d, pl->p, pl->size, ev->cpu);
	dep = strstr(d->seq.buffer, "dependency=");
	snprintf(ev->tick_stop.dependency, sizeof(ev->tick_stop.dependency), "%.*s",
		 dep ? (int)strcspn(dep + 11, " \n") : 1, dep ? dep + 11 : "?");
	if (ret || d->nr_deps == NDEPS)
		return;
	k = &d->deps[d->nr_deps++];
	k->id = ev->tp_id;
	k->value = v;
	k->size = pl->size;
	memcpy(k->name, ev->tick_stop.dependency, sizeof(k->name));
}

TS_KIND_DECODER(tick_stop, tick_stop_fields, NULL, tick_stop_fill);
