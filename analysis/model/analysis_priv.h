/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to one run's analysis: analysis.c (the filters and the section table that feeds the
 * models) and presence.c (what was recorded and seen, which the models ask when a figure is
 * missing) share the state. The models never include this: they take presence.c's answers.
 */
#ifndef TS_MODEL_ANALYSIS_PRIV_H
#define TS_MODEL_ANALYSIS_PRIV_H

#include "tickscope/analysis.h"

#define TS_OTHER_MEMO 64 /* distinct tracepoints of no kind whose dispatch is remembered */

struct lost_rec {
	uint64_t time, lost;
};

struct ts_analysis {
	void *model[TS_SEC_NR]; /* by enum ts_section, made by sections[s]->new */
	uint32_t feeds[TS_EV_NR_KINDS]; /* bit s: section s is fed this kind */
	uint32_t owned; /* the task-owned sections, with --pid/--comm; else 0 */
	/*
	 * The one dispatch: per kind, the sections fed that want it (ops->wants), as a list of
	 * their feeds, models, gates and sections, in table order; a tracepoint of no kind has its
	 * own list, by the decoder's name pointer. A feed is called where its gate's byte for the
	 * event's CPU is not 0 (ops->gate; @ones for a section with none).
	 */
	struct routes {
		struct route {
			int (*feed)(void *m, const struct ts_event *ev);
			void *m;
			const uint8_t *gate; /* TS_GATE_LEN bytes */
			int s;
		} r[TS_SEC_NR];
		uint8_t n;
		uint32_t kindless; /* of the sections in the list, those in @kindless below */
	} routes[TS_EV_NR_KINDS];
	struct other_memo {
		const char *name;
		struct routes routes;
		uint64_t count; /* events fed (after the filters) */
		char label[64]; /* the name, for the reports (the decoder's string may be gone) */
	} other[TS_OTHER_MEMO];
	int nr_other;
	int other_last; /* other[] index + 1 of the last tracepoint of no kind fed, 0 for none */
	int other_plain; /* no --time, --cpu, --pid or --comm: feed_other_again() may take it */
	int other_spilled; /* a tracepoint of no kind came past the memo: its count is not kept */
	uint32_t kindless; /* sections with no kinds of their own that pick by name (probes) */
	struct routes other_spill; /* a tracepoint's list past the memo, made at each event */
	const char *(*sym)(void *ctx, uint64_t addr, uint64_t *off); /* for metric names */
	void *sym_ctx;
	struct ts_analysis_opts opts;
	int32_t *pids;
	char comm[TS_COMM_LEN];
	int task_filter;
	int event_filter; /* --time or --cpu: kept() has work to do */
	uint64_t *cpus; /* bitmap, NULL for all */
	uint64_t fed[TS_EV_NR_KINDS];
	int8_t recorded[TS_EV_NR_KINDS]; /* valid when have_recorded */
	int have_recorded;
	int ipi_recorded; /* an IPI tracepoint (ts_idle_is_ipi()) is in the file */
	int ipi_seen; /* the idle model saw an IPI exit (set by ts_analysis_finish) */
	uint64_t filtered;
	/*
	 * The time range per kind (first UINT64_MAX while none), of the events since the last
	 * one at time 0: one update an event. The run's range and the sections' come from them
	 * (ts_analysis_range(), finish_section()); an event at time 0 restarts both firsts, as
	 * "the earliest time, 0 for none" would have it, and is rare (ranges_at_zero()).
	 */
	struct kind_range {
		uint64_t first, last;
	} kr[TS_EV_NR_KINDS];
	/*
	 * Per section: of kindless ones (note_kindless()) the range and count; of the others the
	 * first time folded in at each event at time 0, the rest being in kr[] and fed[].
	 */
	uint64_t sec_first[TS_SEC_NR], sec_last[TS_SEC_NR], sec_events[TS_SEC_NR];
	struct lost_rec *lost;
	size_t nr_lost, cap_lost;
	int8_t ksec[TS_EV_NR_KINDS]; /* section of each kind, -1 for none */
	/*
	 * ts_analysis_feed()'s short way, by kind: 1 for a kind of the table (not OTHER, COMM,
	 * FORK or LOST) when no --cpu, --time, --pid or --comm asks for checks; else 0
	 */
	uint8_t plain[TS_EV_NR_KINDS];
	uint64_t lost_total, lost_records, lost_unplaced;
	uint64_t lost_samples, lost_samples_records; /* LOST_SAMPLES: the same losses, per event */
	struct ts_section_info info[TS_SEC_NR];
	uint8_t ones[TS_GATE_LEN]; /* the gate of a section that has none: every CPU fed */
};

/* The section of event @kind (TS_SEC_*), -1 for none. */
int ts_analysis_kind_section(int kind);

#endif
