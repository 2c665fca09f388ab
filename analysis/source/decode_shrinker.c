// SPDX-License-Identifier: GPL-2.0-only
/* Decoders of vmscan's mm_shrink_slab_start and mm_shrink_slab_end. */
#include "decode_priv.h"

enum { SS_SHR, SS_SHRINK, SS_NID, SS_TO_SHRINK, SS_CACHE_ITEMS, SS_TOTAL_SCAN, SS_PRIORITY };

static const struct ts_field_def start_fields[] = {
	[SS_SHR] = REQ("shr"),
	[SS_SHRINK] = REQ("shrink"),
	[SS_NID] = REQ("nid"),
	[SS_TO_SHRINK] = REQ("nr_objects_to_shrink"),
	[SS_CACHE_ITEMS] = REQ("cache_items"),
	[SS_TOTAL_SCAN] = REQ("total_scan"),
	[SS_PRIORITY] = REQ("priority"),
};

static void start_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		       struct ts_event *ev)
{
	ev->shrink.shr = num(pl, &c->f[SS_SHR]);
	ev->shrink.function = num(pl, &c->f[SS_SHRINK]);
	ev->shrink.nid = num(pl, &c->f[SS_NID]);
	ev->shrink.nr_objects_to_shrink = num(pl, &c->f[SS_TO_SHRINK]);
	ev->shrink.cache_items = num(pl, &c->f[SS_CACHE_ITEMS]);
	ev->shrink.total_scan = num(pl, &c->f[SS_TOTAL_SCAN]);
	ev->shrink.priority = num(pl, &c->f[SS_PRIORITY]);
}

TS_KIND_DECODER(shrink_start, start_fields, NULL, start_fill);

enum { SE_SHR, SE_SHRINK, SE_NID, SE_UNUSED_SCAN, SE_NEW_SCAN, SE_RETVAL, SE_TOTAL_SCAN };

static const struct ts_field_def end_fields[] = {
	[SE_SHR] = REQ("shr"),
	[SE_SHRINK] = REQ("shrink"),
	[SE_NID] = REQ("nid"),
	[SE_UNUSED_SCAN] = REQ("unused_scan"),
	[SE_NEW_SCAN] = REQ("new_scan"),
	[SE_RETVAL] = REQ("retval"),
	[SE_TOTAL_SCAN] = REQ("total_scan"),
};

static void end_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		     struct ts_event *ev)
{
	ev->shrink.shr = num(pl, &c->f[SE_SHR]);
	ev->shrink.function = num(pl, &c->f[SE_SHRINK]);
	ev->shrink.nid = num(pl, &c->f[SE_NID]);
	ev->shrink.unused_scan = num(pl, &c->f[SE_UNUSED_SCAN]);
	ev->shrink.new_scan = num(pl, &c->f[SE_NEW_SCAN]);
	ev->shrink.retval = num(pl, &c->f[SE_RETVAL]);
	ev->shrink.total_scan = num(pl, &c->f[SE_TOTAL_SCAN]);
}

TS_KIND_DECODER(shrink_end, end_fields, NULL, end_fill);
