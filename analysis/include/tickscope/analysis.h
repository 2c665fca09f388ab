/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * All the models of one run together: ts_analysis_feed() applies the filters (--cpu, --pid,
 * --comm, --time) in one place and feeds the sections of the table (tickscope/section.h);
 * per-section bookkeeping: the events each section needs, which were recorded or seen, lost
 * events.
 */
#ifndef TICKSCOPE_ANALYSIS_H
#define TICKSCOPE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/idle.h"
#include "tickscope/metric.h"
#include "tickscope/rcu.h"
#include "tickscope/sched.h"
#include "tickscope/section.h"
#include "tickscope/shrinker.h"
#include "tickscope/timer.h"
#include "tickscope/wq.h"

#define TS_MAX_CPUS 4096

/* Whether a section (or an event kind) has data. */
enum ts_presence {
	TS_PRESENT = 0, /* events were seen */
	TS_RECORDED_EMPTY, /* recorded, but none happened */
	TS_NOT_RECORDED, /* not in the recording (or, with no attr list, never seen) */
};

struct ts_analysis_opts {
	uint64_t time_start, time_end; /* ns, perf clock; 0 leaves that side open */
	const char *cpus; /* "0-3,6", NULL for all */
	const int32_t *pids; /* tids to keep, with nr_pids; NULL for all */
	int nr_pids;
	const char *comm; /* keep tasks with exactly this comm; NULL for all */
	unsigned int max_stacks; /* 0 for the default */
	unsigned int top_tasks; /* ts_model_opts.top_tasks: 0 keeps every task */
	/*
	 * The front end cannot see LOST records (a perf dlfilter): lost events were not measured,
	 * and reports print them as null / "-", not 0
	 */
	int lost_unmeasured;
};

struct ts_section_info {
	const char *name; /* "sched", "idle", "timer", "workqueue", "rcu", "shrinker" */
	enum ts_presence presence;
	uint64_t nr_events;
	uint64_t first, last; /* time range of its events (0, 0 without any) */
	/*
	 * events lost in PERF_RECORD_LOST records inside [first, last], plus those without a time;
	 * LOST_SAMPLES records (time 0, written at the end) are in no section's range
	 */
	uint64_t lost;
	uint64_t lost_records;
};

struct ts_analysis;

/**
 * ts_analysis_new() - every model, with the filters
 * Return: 0, -TS_EUSAGE for a bad CPU list, or -ENOMEM.
 */
int ts_analysis_new(struct ts_analysis **ap, const struct ts_analysis_opts *opts);

/** ts_analysis_free() - free (NULL is fine) */
void ts_analysis_free(struct ts_analysis *a);

/**
 * ts_analysis_note_recorded() - the input recorded tracepoint @name ("sched:sched_switch")
 *
 * Call it for each attr before feeding. Once called, kinds never noted count as not recorded;
 * without any call (the dlfilter plugin), a kind with no events is "not seen".
 * Return: 1 if a model uses @name, 0 if not.
 */
int ts_analysis_note_recorded(struct ts_analysis *a, const char *name);

/** ts_analysis_feed() - filter and dispatch one event; Return: 0 or -ENOMEM */
int ts_analysis_feed(struct ts_analysis *a, const struct ts_event *ev);

/**
 * ts_analysis_set_per_task() - the input followed tasks, not whole CPUs (ts_file_info's
 * per_task, final once the input is read): the sched model then says which figures such a
 * recording cannot measure (ts_sched_set_per_task())
 */
void ts_analysis_set_per_task(struct ts_analysis *a, int per_task);

/**
 * ts_analysis_finish() - close open intervals at the last event time; call once
 * Return: 0 or -ENOMEM (the whole-trace sched distributions are then incomplete).
 */
int ts_analysis_finish(struct ts_analysis *a);

/** ts_analysis_range() - first and last time of the events fed (after filtering) */
void ts_analysis_range(const struct ts_analysis *a, uint64_t *first, uint64_t *last);

/** ts_analysis_section() - bookkeeping of a section (valid after finish) */
const struct ts_section_info *ts_analysis_section(const struct ts_analysis *a, enum ts_section s);

/**
 * ts_analysis_section_kinds() - the event kinds section @s uses
 * @kinds: out: TS_EV_* values; @required: out, may be NULL: 1 for each kind the section needs
 * Return: how many.
 */
int ts_analysis_section_kinds(enum ts_section s, const uint16_t **kinds, const uint8_t **required);

/** ts_analysis_kind_name() - "sched:sched_switch" for TS_EV_SWITCH, ... ("" if none) */
const char *ts_analysis_kind_name(int kind);

/**
 * ts_analysis_section_other() - the @i-th tracepoint of no event kind (a probe) that section
 * @s took, in first-seen order: its name and the events fed (after filtering); only for a
 * section with no kinds of its own that picks tracepoints by name (probes), else none
 * Return: 1, 0 past the last, -1 when they are not all known (more than 64 such tracepoints).
 */
int ts_analysis_section_other(const struct ts_analysis *a, enum ts_section s, int i,
			      const char **name, uint64_t *count);

/** ts_analysis_kind_count() - events of @kind fed (after filtering) */
uint64_t ts_analysis_kind_count(const struct ts_analysis *a, int kind);

/** ts_analysis_kind_presence() - present, recorded but empty, or not recorded */
enum ts_presence ts_analysis_kind_presence(const struct ts_analysis *a, int kind);

/**
 * ts_analysis_kind_why() - why the figures that need events of @kind are not measured, or NULL
 * when they are: @kind not recorded ("<event> not recorded"), or recorded without one sample
 * while the other half of its pair (an expiry's entry and exit, a handler's, a work item's,
 * a shrinker call's) has some: the events were lost or filtered, and 0 would be a false
 * count. The text is written into @buf of @len bytes.
 */
const char *ts_analysis_kind_why(const struct ts_analysis *a, int kind, char *buf, size_t len);

/**
 * ts_analysis_exit_traced() - whether idle exits of @cause (TS_EXIT_*) could be seen at all:
 * the events behind it were recorded (or, without the file's event list, seen). Untraced and
 * other exits always can. A cause that could not be seen has no count, not a count of 0.
 * Valid after ts_analysis_finish() (IPI exits: seen is the idle model's count at finish).
 */
int ts_analysis_exit_traced(const struct ts_analysis *a, int cause);

/**
 * ts_analysis_lost() - lost events counted once, as perf's "Total Lost Samples" does: the
 * LOST_SAMPLES records' sum when the file has any, else the LOST records' sum; @records gets
 * the number of LOST and LOST_SAMPLES records fed
 */
void ts_analysis_lost(const struct ts_analysis *a, uint64_t *lost, uint64_t *records);

/* Both kinds of lost record, apart: they count the same losses twice over. */
struct ts_lost_detail {
	uint64_t lost, lost_records; /* PERF_RECORD_LOST: per cpu buffer, with a time */
	uint64_t lost_samples, lost_samples_records; /* PERF_RECORD_LOST_SAMPLES: per event */
};

/** ts_analysis_lost_measured() - whether the front end could see lost events at all */
int ts_analysis_lost_measured(const struct ts_analysis *a);

/** ts_analysis_lost_detail() - the LOST and LOST_SAMPLES sums and record counts */
void ts_analysis_lost_detail(const struct ts_analysis *a, struct ts_lost_detail *d);

/** ts_analysis_filtered() - events dropped by the filters */
uint64_t ts_analysis_filtered(const struct ts_analysis *a);

/** ts_analysis_has_task_filter() - --pid or --comm given */
int ts_analysis_has_task_filter(const struct ts_analysis *a);

/**
 * ts_analysis_model() - the model of section @s, for its writers (report/<section>.c)
 * @a: the analysis
 * @s: the section
 * Return: the model (its section's type), or NULL for a section out of range.
 */
const void *ts_analysis_model(const struct ts_analysis *a, enum ts_section s);

const struct ts_sched *ts_analysis_sched(const struct ts_analysis *a);
const struct ts_idle *ts_analysis_idle(const struct ts_analysis *a);
const struct ts_timer *ts_analysis_timer(const struct ts_analysis *a);
const struct ts_wq *ts_analysis_wq(const struct ts_analysis *a);
const struct ts_rcu *ts_analysis_rcu(const struct ts_analysis *a);
const struct ts_shrinker *ts_analysis_shrinker(const struct ts_analysis *a);

/**
 * ts_analysis_parse_cpus() - parse "0-3,6" into a bitmap of TS_MAX_CPUS bits
 * Return: 0 or -TS_EUSAGE.
 */
int ts_analysis_parse_cpus(const char *s, uint64_t *bits);

/**
 * ts_analysis_parse_time() - parse perf's --time "START,END" (seconds, either side may be
 * empty) into ns; Return: 0 or -TS_EUSAGE.
 */
int ts_analysis_parse_time(const char *s, uint64_t *start, uint64_t *end);

#endif
