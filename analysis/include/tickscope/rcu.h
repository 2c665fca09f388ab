/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RCU model: rcu_utilization Start/End windows by context per CPU; grace-period durations
 * from rcu_grace_period (RCU_TRACE kernels); callback queue-to-invoke latency by function.
 */
#ifndef TICKSCOPE_RCU_H
#define TICKSCOPE_RCU_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

#define TS_RCU_NR_CTX 5 /* enum ts_rcu_ctx */
#define TS_RCU_MAX_FLAVORS 4 /* rcu_sched, rcu_preempt, rcu_tasks, ... */

struct ts_rcu_cpu {
	int32_t cpu;
	int seen;
	uint64_t count[TS_RCU_NR_CTX]; /* complete Start/End windows */
	uint64_t time[TS_RCU_NR_CTX]; /* ns inside them */
};

struct ts_rcu_flavor {
	char name[24];
	uint64_t nr_events; /* rcu_grace_period events of this flavour */
	struct ts_hist gp; /* ns, "start" -> "end" */
};

struct ts_rcu_cb_fn {
	uint64_t function;
	uint64_t nr_queued, nr_invoked;
	struct ts_hist latency; /* ns, rcu_callback -> rcu_invoke_callback of the same rhp */
};

struct ts_rcu_totals {
	struct ts_hist window[TS_RCU_NR_CTX];
	uint64_t unmatched_ends; /* End with no Start (trace start, lost events) */
	struct ts_rcu_flavor flavors[TS_RCU_MAX_FLAVORS];
	int nr_flavors;
	uint64_t nr_gp_events, gp_unmatched_ends;
	uint64_t nr_cb_queued, nr_cb_invoked;
};

struct ts_rcu;

/** ts_rcu_new() - a new RCU model; Return: 0 or -ENOMEM */
int ts_rcu_new(struct ts_rcu **mp, const struct ts_model_opts *opts);

/** ts_rcu_feed() - feed one event (RCU_*); Return: 0 or -ENOMEM */
int ts_rcu_feed(struct ts_rcu *m, const struct ts_event *ev);

/** ts_rcu_finish() - nothing is open-ended in the figures, kept for symmetry */
void ts_rcu_finish(struct ts_rcu *m, uint64_t end);

/** ts_rcu_free() - free (NULL is fine) */
void ts_rcu_free(struct ts_rcu *m);

/** ts_rcu_nr_cpus() - one past the highest CPU seen */
int ts_rcu_nr_cpus(const struct ts_rcu *m);

/** ts_rcu_cpu() - figures of @cpu, or NULL */
const struct ts_rcu_cpu *ts_rcu_cpu(const struct ts_rcu *m, int cpu);

/** ts_rcu_totals() - whole-trace figures */
const struct ts_rcu_totals *ts_rcu_totals(const struct ts_rcu *m);

/** ts_rcu_nr_cb_fns() - distinct callback functions */
size_t ts_rcu_nr_cb_fns(const struct ts_rcu *m);

/** ts_rcu_cb_fn_at() - callback function @i in first-seen order */
const struct ts_rcu_cb_fn *ts_rcu_cb_fn_at(const struct ts_rcu *m, size_t i);

/** ts_rcu_ctx_name() - "context switch", "scheduler-tick", "RCU core", "kthread", "other" */
const char *ts_rcu_ctx_name(int ctx);

#endif
