/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The section table: one line per section in TS_SECTIONS, one struct ts_section_ops in the
 * section's model file, its writers in report/<section>.c. analysis.c loops over the table.
 */
#ifndef TICKSCOPE_SECTION_H
#define TICKSCOPE_SECTION_H

#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

/*
 * X(ID, ident): TS_SEC_<ID>, ts_<ident>_section (model/<ident>.c) and rp_<ident>_writers
 * (report/<ident>.c). The order is the order of the reports' sections.
 */
/* clang-format off: one line per entry, each ending in a backslash */
#define TS_SECTIONS(X)        \
	X(SCHED, sched)       \
	X(IDLE, idle)         \
	X(TIMER, timer)       \
	X(WQ, wq)             \
	X(RCU, rcu)           \
	X(SHRINKER, shrinker) \
	X(MIGRATE, migrate)   \
	X(IRQ, irq)           \
	X(IDLEPATH, idlepath) \
	X(PROBES, probes)     \
	/* end of the table */
/* clang-format on */

#define TS_SECTION_ENUM(id, ident) TS_SEC_##id,
enum ts_section { TS_SECTIONS(TS_SECTION_ENUM) TS_SEC_NR };
#undef TS_SECTION_ENUM
#define TS_SEC_NONE (-1) /* the event table's NONE: a kind no section counts */

struct ts_metric_sink;

/* Section flags. */
#define TS_SECF_ALL_EVENTS 0x1 /* fed every event that passes the filters (idle: exit causes) */
#define TS_SECF_TASK_OWNED 0x2 /* its events belong to the task that ran them: --pid/--comm */

/*
 * A section's gate (ops->gate): one byte per CPU below TS_GATE_CPUS, kept by the model as it
 * is fed, and a last byte for every other CPU (and -1), always 1. Where it is 0, the feed would
 * change nothing with an event of the kinds the gate was asked for on that CPU, so the dispatch
 * does not call it (idle and idlepath are fed every event for the few after an idle exit).
 */
#define TS_GATE_CPUS 4096
#define TS_GATE_LEN (TS_GATE_CPUS + 1)

/*
 * What one section is: the other kinds it is fed (its own events, and which of them it needs,
 * are the event table's lines naming it: TS_EVENTS in tickscope/event.h), and its model's life
 * cycle. Models are opaque here (void *); each model file wraps its typed functions
 * (TS_SECTION_GLUE in model/sink.h).
 */
struct ts_section_ops {
	const char *name; /* "sched", "idle", "timer", "workqueue", "rcu", "shrinker" */
	const uint16_t *also; /* other kinds it is fed (sched: cpu_idle, comm); may be NULL */
	int nr_also;
	unsigned int flags; /* TS_SECF_* */
	/*
	 * Whether its feed does anything with events of @kind, for TS_EV_OTHER with tracepoint
	 * @name (never NULL): asked once per kind and once per tracepoint, so that the dispatch
	 * skips what it would ignore. NULL: every event it is fed.
	 */
	int (*wants)(int kind, const char *name);
	/*
	 * The gate (TS_GATE_LEN bytes, above) that decides for events of @kind (for TS_EV_OTHER,
	 * tracepoint @name, NULL when the decoder names none) whether the feed is called; asked
	 * once per kind and tracepoint, after create. NULL (or no hook): always called.
	 */
	const uint8_t *(*gate)(const void *m, int kind, const char *name);
	int (*create)(void **m, const struct ts_model_opts *o); /* the model, or an error */
	int (*feed)(void *m, const struct ts_event *ev);
	/*
	 * The feed for events of @kind alone, called in their routes in place of @feed: it does
	 * what @feed does with them, without @feed's switch on the kind. Asked once per kind;
	 * NULL (or no hook): @feed.
	 */
	int (*(*feed_kind)(int kind))(void *m, const struct ts_event *ev);
	void (*recorded)(void *m, int kind); /* the file records @kind; may be NULL */
	int (*finish)(void *m, uint64_t end);
	void (*free)(void *m);
	/* Its metrics through the sink (model/sink.h); 0 or the sink's first error. */
	int (*metrics)(const void *m, struct ts_metric_sink *s);
};

#define TS_SECTION_DECL(id, ident) extern const struct ts_section_ops ts_##ident##_section;
TS_SECTIONS(TS_SECTION_DECL)
#undef TS_SECTION_DECL

#endif
