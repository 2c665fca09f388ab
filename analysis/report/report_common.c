// SPDX-License-Identifier: GPL-2.0-only
/* Helpers the report writers share: symbols, picking out the tick, ranking, distributions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"

void rp_dist(const struct ts_hist *h, struct rp_dist *d)
{
	memset(d, 0, sizeof(*d));
	if (!h->count)
		return;
	d->count = h->count;
	d->sum = h->sum;
	d->min = h->min;
	d->max = h->max;
	d->p50 = ts_hist_quantile(h, 0.5);
	d->p90 = ts_hist_quantile(h, 0.9);
	d->p99 = ts_hist_quantile(h, 0.99);
	d->p999 = ts_hist_quantile(h, 0.999);
}

const char *rp_sym_name(const struct ts_report_opts *o, uint64_t addr)
{
	if (!o->sym || !addr)
		return NULL;
	return o->sym(o->sym_ctx, addr, NULL);
}

const char *rp_sym(const struct ts_report_opts *o, uint64_t addr, char *buf, size_t len)
{
	const char *name;
	uint64_t off = 0;

	if (!addr)
		return "-";
	name = o->sym ? o->sym(o->sym_ctx, addr, &off) : NULL;
	if (name && !off)
		return name;
	if (name)
		snprintf(buf, len, "%s+%#llx", name, (unsigned long long)off);
	else
		snprintf(buf, len, "%#llx", (unsigned long long)addr);
	return buf;
}

int rp_is_tick(const struct ts_report_opts *o, uint64_t fn)
{
	if (!o->sym)
		return -1;
	return ts_idle_is_tick(rp_sym_name(o, fn));
}

int rp_is_watched(const struct ts_report_opts *o, uint64_t fn)
{
	static const char *const def[] = { "vmstat_update", NULL };
	const char *const *w = o->watch ? o->watch : def;
	const char *name = rp_sym_name(o, fn);
	int i;

	for (i = 0; name && w[i]; i++)
		if (!strcmp(name, w[i]))
			return 1;
	return 0;
}

uint32_t rp_stack_skip(const struct ts_report_opts *o, const uint64_t *ips, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i + 1 < nr; i++)
		if (!ts_sched_is_sched_frame(rp_sym_name(o, ips[i])))
			break;
	return i;
}

struct rank_ctx {
	uint64_t (*key)(const void *ctx, size_t i);
	const void *ctx;
};

static int cmp_rank(const void *a, const void *b, void *arg)
{
	const struct rank_ctx *r = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t kx = r->key(r->ctx, x), ky = r->key(r->ctx, y);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return x < y ? -1 : x > y;
}

size_t *rp_rank(size_t n, uint64_t (*key)(const void *ctx, size_t i), const void *ctx)
{
	struct rank_ctx r = { key, ctx };
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx)), i;

	if (!idx)
		return NULL;
	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_rank, &r);
	return idx;
}

int rp_cpus_measured(const struct ts_report_opts *o)
{
	return !o->info || !o->info->per_task;
}

unsigned int rp_top(const struct ts_report_opts *o)
{
	return o->top ? o->top : TS_REPORT_TOP_DEFAULT;
}

const char *rp_presence(enum ts_presence p, int phrase)
{
	switch (p) {
	case TS_PRESENT:
		return "present";
	case TS_RECORDED_EMPTY:
		return phrase ? "recorded, no events" : "recorded_empty";
	default:
		return phrase ? "not recorded" : "not_recorded";
	}
}

const char *const rp_exit_names[TS_EXIT_NR] = {
	[TS_EXIT_HRTIMER] = "hrtimer", [TS_EXIT_TIMER] = "timer", [TS_EXIT_WAKEUP] = "wakeup",
	[TS_EXIT_SWITCH] = "resched",  [TS_EXIT_IPI] = "ipi",	  [TS_EXIT_UNTRACED] = "untraced",
	[TS_EXIT_OTHER] = "other",     [TS_EXIT_IRQ] = "irq",
};
