// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoders of the timer and hrtimer tracepoints: start, expire entry and exit, cancel. They
 * share one fill; each names only the fields its tracepoint has (the timer is "timer" or
 * "hrtimer"), the others read as 0.
 */
#include "decode_priv.h"

enum { TM_TIMER, TM_FUNCTION, TM_EXPIRES, TM_NOW };

static void timer_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		       struct ts_event *ev)
{
	ev->timer.timer = num(pl, &c->f[TM_TIMER]);
	ev->timer.function = num(pl, &c->f[TM_FUNCTION]);
	ev->timer.expires = num(pl, &c->f[TM_EXPIRES]);
	ev->timer.now = num(pl, &c->f[TM_NOW]);
}

static const struct ts_field_def timer_start_fields[] = {
	[TM_TIMER] = REQ("timer"),
	[TM_FUNCTION] = REQ("function"),
	[TM_EXPIRES] = REQ("expires"),
};
static const struct ts_field_def timer_entry_fields[] = {
	[TM_TIMER] = REQ("timer"),
	[TM_FUNCTION] = REQ("function"),
	[TM_NOW] = REQ("now"),
};
static const struct ts_field_def timer_fields[] = { [TM_TIMER] = REQ("timer") };
static const struct ts_field_def hrtimer_start_fields[] = {
	[TM_TIMER] = REQ("hrtimer"),
	[TM_FUNCTION] = REQ("function"),
	[TM_EXPIRES] = REQ("expires"),
};
static const struct ts_field_def hrtimer_entry_fields[] = {
	[TM_TIMER] = REQ("hrtimer"),
	[TM_FUNCTION] = REQ("function"),
	[TM_NOW] = REQ("now"),
};
static const struct ts_field_def hrtimer_fields[] = { [TM_TIMER] = REQ("hrtimer") };

TS_KIND_DECODER(timer_start, timer_start_fields, NULL, timer_fill);
TS_KIND_DECODER(timer_entry, timer_entry_fields, NULL, timer_fill);
TS_KIND_DECODER(timer, timer_fields, NULL, timer_fill);
TS_KIND_DECODER(hrtimer_start, hrtimer_start_fields, NULL, timer_fill);
TS_KIND_DECODER(hrtimer_entry, hrtimer_entry_fields, NULL, timer_fill);
TS_KIND_DECODER(hrtimer, hrtimer_fields, NULL, timer_fill);
