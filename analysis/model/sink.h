/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How a section's metrics hook emits its metrics: names built printf-style and kept unique,
 * rates over the analysed range, distributions as count/sum/p50/p99/max, NAN with a reason.
 */
#ifndef TS_MODEL_SINK_H
#define TS_MODEL_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/analysis.h"
#include "common/map.h"
#include "tickscope/metric.h"

struct ts_metric_sink {
	const struct ts_analysis *a;
	ts_metric_fn emit;
	ts_dist_fn dist_emit; /* set: the walk is for charts; only tm_dist() emits */
	void *ctx;
	const char *section; /* the section's name: the metric's section and the names' prefix */
	double span; /* seconds of the analysed range; 0 when empty */
	const char *(*sym)(void *ctx, uint64_t addr, uint64_t *off);
	void *sym_ctx;
	struct ts_map seen; /* hashes of the names emitted: a repeated name gets "#2", "#3", ... */
	char why[4][160]; /* reasons tm_why() and tm_section_why() give, reused round-robin */
	int why_next;
	int err; /* the first non-zero return of emit, or -ENOMEM: nothing more is emitted */
};

/* A figure; names are "<section>." followed by @fmt. Return: s->err. */
int tm_value(struct ts_metric_sink *s, const char *unit, enum ts_metric_dir dir, double v,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* @count per second of the range (NAN with @why when @why is not NULL). Return: s->err. */
int tm_rate(struct ts_metric_sink *s, enum ts_metric_dir dir, uint64_t count, const char *why,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* An unmeasured figure: NAN with @why. Return: s->err. */
int tm_null(struct ts_metric_sink *s, const char *unit, enum ts_metric_dir dir,
	    enum ts_metric_kind kind, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * A distribution of ns as <name>.count, .sum, .p50, .p99, .max; all NAN with @why when @why
 * is not NULL; the percentiles NAN ("no values") when it is empty. Return: s->err.
 */
int tm_dist(struct ts_metric_sink *s, enum ts_metric_dir dir, const struct ts_hist *h,
	    const char *why, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "<kind's tracepoint> not recorded" when @kind was not recorded, else NULL. */
const char *tm_why(struct ts_metric_sink *s, int kind);

/* "<section>: <its first required tracepoint> not recorded" when it has no data, else NULL. */
const char *tm_section_why(struct ts_metric_sink *s, enum ts_section sec);

/* The bare symbol name of @addr, or "0x..." in @buf without one. */
const char *tm_fn(struct ts_metric_sink *s, uint64_t addr, char *buf, size_t len);

struct ts_sched_stack;

/* "frame;frame;frame": @st's first three frames past the scheduler's own (sched_metrics.c). */
const char *tm_stack_name(struct ts_metric_sink *s, const struct ts_sched_stack *st, char *out,
			  size_t len);

/*
 * The section table's typed-to-opaque wrappers of a model's ts_<ident>_new/feed/finish/free:
 * TS_SECTION_GLUE for an int finish, TS_SECTION_GLUE_VOID for a void one. They define
 * <ident>_new, <ident>_feed, <ident>_finish and <ident>_free for the model's ops.
 */
#define TS_SECTION_GLUE_COMMON(ident, type)                             \
	static int ident##_new(void **m, const struct ts_model_opts *o) \
	{                                                               \
		type *p = NULL;                                         \
		int err = ts_##ident##_new(&p, o);                      \
		*m = err ? NULL : p;                                    \
		return err;                                             \
	}                                                               \
	static int ident##_feed(void *m, const struct ts_event *ev)     \
	{                                                               \
		return ts_##ident##_feed(m, ev);                        \
	}                                                               \
	static void ident##_free(void *m)                               \
	{                                                               \
		ts_##ident##_free(m);                                   \
	}
#define TS_SECTION_GLUE(ident, type)                     \
	TS_SECTION_GLUE_COMMON(ident, type)              \
	static int ident##_finish(void *m, uint64_t end) \
	{                                                \
		return ts_##ident##_finish(m, end);      \
	}
#define TS_SECTION_GLUE_VOID(ident, type)                \
	TS_SECTION_GLUE_COMMON(ident, type)              \
	static int ident##_finish(void *m, uint64_t end) \
	{                                                \
		ts_##ident##_finish(m, end);             \
		return 0;                                \
	}
#define TS_SECTION_OPS_GLUE(ident) \
	.create = ident##_new, .feed = ident##_feed, .finish = ident##_finish, .free = ident##_free

#endif
