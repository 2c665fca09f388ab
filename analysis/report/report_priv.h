/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers the three report writers share: symbols, the tick, ranking, distribution figures. */
#ifndef TS_REPORT_PRIV_H
#define TS_REPORT_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/report.h"

struct rp_dist {
	uint64_t count, sum, min, p50, p90, p99, p999, max;
};

/* The seven figures of a distribution (all zero when empty). */
void rp_dist(const struct ts_hist *h, struct rp_dist *d);

/* "name", "name+0x1c" or "0xffff..." into @buf; "-" for address 0 (field not recorded). */
const char *rp_sym(const struct ts_report_opts *o, uint64_t addr, char *buf, size_t len);

/* The bare symbol name of @addr, or NULL without symbols. */
const char *rp_sym_name(const struct ts_report_opts *o, uint64_t addr);

/* Whether @fn is the tick's hrtimer callback: 1, 0, or -1 without symbols. */
int rp_is_tick(const struct ts_report_opts *o, uint64_t fn);

/* Whether @fn is one of the watched functions (--watch, default vmstat_update). */
int rp_is_watched(const struct ts_report_opts *o, uint64_t fn);

/* Frames of a switch-out stack worth showing: skips the scheduler's own leading frames. */
uint32_t rp_stack_skip(const struct ts_report_opts *o, const uint64_t *ips, uint32_t nr);

/* Ranked row order: indices 0..n-1 sorted by @key descending (ties by index). NULL on ENOMEM. */
size_t *rp_rank(size_t n, uint64_t (*key)(const void *ctx, size_t i), const void *ctx);

/*
 * Whether per-CPU figures were measured: not when the recording followed tasks (no -a), so
 * that whatever else ran on a CPU is missing from it.
 */
int rp_cpus_measured(const struct ts_report_opts *o);

/* Rows of ranked tables: o->top, or the default. */
unsigned int rp_top(const struct ts_report_opts *o);

/* The idle exit causes by TS_EXIT_*, as the reports name them. */
extern const char *const rp_exit_names[TS_EXIT_NR];

/* "present", "recorded_empty", "not_recorded" (JSON/TSV) or a phrase (text). */
const char *rp_presence(enum ts_presence p, int phrase);

#endif
