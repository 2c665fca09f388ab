/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the report drivers (report_{text,json,tsv}.c) and the sections' writers
 * (report/<section>.c) share: symbols, ranking, distributions, the three formats' helpers.
 */
#ifndef TS_REPORT_PRIV_H
#define TS_REPORT_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Text: ms for totals, us for latencies. */
#define MS(ns) ((double)(ns) / 1e6)
#define US(ns) ((double)(ns) / 1e3)

/*
 * @n figures of distribution @d, in us (ms with @ms), each @w wide; "-" when @d holds nothing,
 * because an empty distribution (exits not recorded, no wakeups) is not a zero.
 */
void rp_cells(FILE *f, const struct rp_dist *d, int w, int ms, int n, const uint64_t *v);

/* Seconds from the first to the last event fed (0 when empty). */
double rp_span_s(const struct ts_analysis *a);

/*
 * @n per second over @span, @w wide with @prec decimals; "-" when the trace spans no time (no
 * event, or one: a rate over 0 s is not measured, and is not 0).
 */
void rp_rate(FILE *f, int w, int prec, uint64_t n, double span);

/* The text banner of section @s; returns whether the section has data to show. */
int rp_banner(FILE *f, const struct ts_analysis *a, enum ts_section s);

/* A text row of a distribution's figures, and the heading of such rows. */
void rp_dist_row(FILE *f, const char *name, const struct ts_hist *h);
void rp_dist_head(FILE *f, const char *what);

/* A tiny JSON writer: it tracks whether a comma is due at each nesting level. */
struct rp_json {
	FILE *f;
	int depth;
	unsigned char more[64];
};

/* Open an object or array (@k its key inside an object, NULL inside an array), and close it. */
void rp_jbegin(struct rp_json *w, const char *k, char open);
void rp_jend(struct rp_json *w, char close);
/* One member (@k NULL inside an array). */
void rp_ju64(struct rp_json *w, const char *k, uint64_t v);
void rp_ji64(struct rp_json *w, const char *k, int64_t v);
void rp_jdbl(struct rp_json *w, const char *k, double v);
void rp_jstr(struct rp_json *w, const char *k, const char *s);
void rp_jnull(struct rp_json *w, const char *k);
/* @n per second over @span, null when the trace spans no time (rp_rate()). */
void rp_jrate(struct rp_json *w, const char *k, uint64_t n, double span);
/* A distribution object: count, sum, percentiles (null when empty), buckets. */
void rp_jdist(struct rp_json *w, const char *k, const struct ts_hist *h);
/* "function_addr" and @k: the symbol, or null without one. */
void rp_jsym(struct rp_json *w, const char *k, const struct ts_report_opts *o, uint64_t addr);
/* An object of the non-zero per-CPU counts, keyed by CPU number. */
void rp_jper_cpu(struct rp_json *w, const char *k, const uint64_t *v, int n);
/* Open section @s's object with its status and bookkeeping; returns whether it has figures. */
int rp_jsection(struct rp_json *w, const struct ts_analysis *a, enum ts_section s);

/* One TSV report being written: the tables go to @dir; the first error stops the rest. */
struct rp_tsv {
	const char *dir;
	const struct ts_analysis *a;
	const struct ts_report_opts *o;
	int err;
	double span; /* seconds */
	int check; /* every table's file checked (ts_out_check()), none opened: NULL for each */
	char *bad; /* the file @err is about, if one (may be NULL) */
	size_t bad_len;
};

/* Open DIR/NAME.tsv and write the header: @cols, then 8 columns per distribution prefix. */
FILE *rp_tsv_open(struct rp_tsv *t, const char *name, const char *cols, const char *const *dists);
/* Close a table (NULL is fine), keeping the first error. */
void rp_tsv_close(struct rp_tsv *t, FILE *f);
/* The 8 columns of a distribution, "-" for figures of an empty one. */
void rp_tsv_dist(FILE *f, const struct ts_hist *h);
/* A rate column, rp_rate()'s: "%.3f", or "-" over a span of 0. */
void rp_tsv_rate(FILE *f, uint64_t n, double span);
/* A symbol column: names have no tabs; raw addresses when there are no symbols. */
const char *rp_tsv_fn(struct rp_tsv *t, uint64_t addr, char *buf, size_t len);
/* Whether section @s, or events of @kind, are present. */
int rp_tsv_present(struct rp_tsv *t, enum ts_section s);
int rp_tsv_kind_present(struct rp_tsv *t, int kind);

/* A section's writers; rp_writers[] holds them in the order of TS_SECTIONS. */
struct rp_writers {
	void (*text)(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o);
	void (*json)(struct rp_json *w, const struct ts_analysis *a,
		     const struct ts_report_opts *o);
	void (*tsv)(struct rp_tsv *t); /* its tables, written even when empty (header only) */
};

#define RP_WRITERS_DECL(id, ident) extern const struct rp_writers rp_##ident##_writers;
TS_SECTIONS(RP_WRITERS_DECL)
#undef RP_WRITERS_DECL

extern const struct rp_writers *const rp_writers[TS_SEC_NR];

#endif
