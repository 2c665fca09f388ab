/* SPDX-License-Identifier: GPL-2.0-only */
/* A variant of the side-by-side charts, for plot_variant.c and its cache (plot_variant_io.c). */
#ifndef TS_PLOT_VARIANT_H
#define TS_PLOT_VARIANT_H

#include <stdint.h>

#include "tickscope/analysis.h"
#include "tickscope/chart.h"

#define VAR_LABEL 96

enum vdist { VD_DELIVERY = 0, VD_WAKELAT, VD_DELAY, VD_SHRINK, VD_GP, VD_NR };

enum vrate { VR_TIMER = 0, VR_WORK, VR_STACK, VR_NR };

/* A ranked row (a timer callback, a work function, a stack): its value in every run. */
struct vrow {
	char label[VAR_LABEL];
	double *v; /* per run; NAN where the run did not record its events */
};

#define VX_TICK TS_EXIT_NR /* the tick's column of exits[] */
#define VX_NR (TS_EXIT_NR + 1)

struct ts_plot_variant {
	char label[VAR_LABEL];
	int nr_runs;
	struct ts_hist dist[VD_NR];
	struct ts_hist cls[TS_WAKE_NR]; /* wake delivery by class, all selected tasks */
	/*
	 * per run, per second; NAN: not traced. [TS_EXIT_HRTIMER] holds the hrtimers other than
	 * the tick and [VX_TICK] the tick's, when symbols tell them apart (else the tick is NAN
	 * and the hrtimers hold it).
	 */
	double *exits[VX_NR];
	double *resid[TS_IDLE_NR_STATES]; /* per run, % of CPU time */
	struct vrow *rows[VR_NR];
	int nr_rows[VR_NR];
	uint8_t seen[VD_NR + 1]; /* the events behind a distribution were recorded in a run */
	uint8_t rec[VR_NR]; /* some run recorded the events behind rows of this kind */
	uint8_t unmeasured; /* VU_* of the runs whose figures were not merged (per-task runs) */
};

/*
 * A run's figures that the report prints as `-` (a per-task recording, ts_sched_*_why()): they
 * are not merged into the variant, and a chart left without values says why.
 */
enum vunmeasured { VU_WAKES = 1, VU_RUN = 2, VU_OFF = 4 };

/* A loaded row: @label of kind @k has @val in run @run (every run's slot exists). */
int plot_variant_row(struct ts_plot_variant *v, int k, int run, const char *label, double val);

#endif
