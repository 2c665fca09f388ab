/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tickscope compare's model: runs as named metrics, variants as lists of runs, and the
 * comparison of every metric against the baseline with its statistics, the decomposition of
 * the benchmark's change, the ranked changes and the confounders. Pure: no I/O.
 */
#ifndef TICKSCOPE_COMPARE_H
#define TICKSCOPE_COMPARE_H

#include "tickscope/metric.h"
#include "tickscope/stats.h"

#define TS_CMP_MAX_VAR 16
/* of the JSON and TSV layout (docs/compare-json.md); 2: the headline */
#define TS_CMP_VERSION 2

/*
 * What each run states about how it was recorded, compared for confounders. A variant's
 * declared boot parameters (boot_args) are its intended change: the cmdline's difference
 * between variants is a confounder only beyond them.
 */
enum ts_run_fact {
	TS_FACT_KERNEL = 0,
	TS_FACT_CPUS,
	TS_FACT_CMDLINE,
	TS_FACT_PINNING,
	TS_FACT_WORKLOAD,
	TS_FACT_EVENTS,
	TS_FACT_BOOT_ARGS, /* the variant's declared boot parameters: its intended change */
	TS_FACT_EVENTS_MISSING, /* asked for, but not offered by the recorded kernel */
	TS_FACT_PREEMPT, /* the kernel's preemption model, from its config: part of the kernel */
	TS_FACT_NR
};

struct ts_run_metric {
	char *name, *unit, *why_null;
	enum ts_metric_dir dir;
	enum ts_metric_kind kind;
	double value;
};

struct ts_strix;

struct ts_run {
	char *label; /* the run folder or file */
	struct ts_run_metric *m;
	int nr, cap;
	struct ts_strix *ix; /* name -> index into m (ts_run_add keeps it; NULL when empty) */
	/*
	 * When set, ts_run_add takes each name, unit and reason from @intern (a stable copy the
	 * caller keeps, shared by its runs, not freed with them; NULL: no memory) instead of its
	 * own copy: a compare of thousands of runs keeps one copy of each metric's name.
	 */
	const char *(*intern)(void *ctx, const char *s);
	void *intern_ctx;
	char *fact[TS_FACT_NR]; /* NULL when unknown */
	double lost; /* lost events (perf's LOST records and meta.txt), NAN if unknown */
};

/** ts_run_add() - add or replace metric @name; Return: 0 or -ENOMEM */
int ts_run_add(struct ts_run *r, const char *name, const char *unit, enum ts_metric_dir dir,
	       enum ts_metric_kind kind, double value, const char *why_null);

/** ts_run_find() - metric @name of run @r, or NULL */
const struct ts_run_metric *ts_run_find(const struct ts_run *r, const char *name);

/** ts_run_set_fact() - copy @value into fact @f; Return: 0 or -ENOMEM */
int ts_run_set_fact(struct ts_run *r, enum ts_run_fact f, const char *value);

/** ts_run_release() - free what a run owns (not the struct) */
void ts_run_release(struct ts_run *r);

struct ts_analysis;

/**
 * ts_run_add_task_metrics() - the benchmark's own tasks' figures per operation ("task.*") and
 * other tasks' share of CPU time, from a finished analysis
 * @match: the benchmark's comm: tasks named @match or "@match-..." are its tasks
 * @ops: operations in the trace (NAN: per-operation figures are NAN)
 * Return: 0 or -ENOMEM.
 */
int ts_run_add_task_metrics(struct ts_run *r, const struct ts_analysis *a, const char *match,
			    double ops);

/** ts_run_bench_task() - whether @comm is the benchmark's: @match or @match-... (pingpong-echo) */
int ts_run_bench_task(const char *comm, const char *match);

struct ts_sched;
struct ts_sched_task;

/* The most run time and the most switch-outs of any of the benchmark's tasks. */
struct ts_run_busiest {
	uint64_t run, switches;
};

/** ts_run_bench_busiest() - the most run time and switches of the benchmark's tasks in @s */
void ts_run_bench_busiest(const struct ts_sched *s, const char *match, struct ts_run_busiest *b);

/**
 * ts_run_bench_worker() - whether task @k is one of the benchmark's workers: its comm is the
 * benchmark's (ts_run_bench_task), and it is not a supervisor, a task that both ran under a
 * third of the most run time and switched out under 1/100 as often as the most (@b, from
 * ts_run_bench_busiest): stress-ng's parent of each stressor instance, asleep in wait4 for
 * the worker it forked (on the ramfs runs: 3-5 switches and up to 16% of the run time, against
 * workers within 20% of each other in both), or the process that started a ping-pong. Its
 * off-CPU time belongs to no operation: the per-operation figures and the waits leave it out.
 */
int ts_run_bench_worker(const struct ts_sched_task *k, const char *match,
			const struct ts_run_busiest *b);

/**
 * ts_run_add_wait_metrics() - who woke the benchmark's tasks and where they waited: waker
 * classes ("task.woken_by.<class>.share", "task.woken_by_work.<function>.share", with
 * "task.woken_by.wakes"), and their heaviest off-CPU waits by switch-out stack and state per
 * operation ("task.offcpu_stack.<stack>.<state>.per_op") with who ended them
 * ("...<state>.woken_by.<class>.share"); the benchmark's own tasks are one class, @match
 * Return: 0 or -ENOMEM.
 */
int ts_run_add_wait_metrics(struct ts_run *r, const struct ts_analysis *a, const char *match,
			    double ops);

struct ts_cpath;

/**
 * ts_run_add_path_metrics() - the benchmark's tasks' time line per operation
 * ("task.path.run.per_op", ".wake_delivery", ".sched_delay", ".none"): the decomposition's
 * components, which add up to the time line's window; and the run time's split by interrupts
 * ("task.path.run.own.per_op" + ".hardirq" + ".softirq" = run, ".timers" and ".tick" of which,
 * ".hardirq.<name>", ".softirq.<VEC>", ".timer.<function>" for the largest sources)
 * @a: the analysis fed the same events: what was recorded, and symbols for timer functions
 * Return: 0 or -ENOMEM.
 */
int ts_run_add_path_metrics(struct ts_run *r, const struct ts_cpath *p, const struct ts_analysis *a,
			    double ops);

/**
 * ts_run_add_analysis() - everything compare takes from a finished analysis: every section's
 * metrics (ts_analysis_metrics()), off-CPU stacks per operation ("offcpu_stack_per_op.*"),
 * lost events, and with @comm the benchmark's tasks' metrics and @path's time line
 * @path: fed the same events, or NULL
 * Return: 0 or -ENOMEM.
 */
int ts_run_add_analysis(struct ts_run *r, const struct ts_analysis *a, const struct ts_cpath *path,
			const char *comm, double ops);

/*
 * The per-run summary file (<perf.data>.tsum): bump when the metrics or the layout change.
 * 8: the second line names the trace it was computed from (sha256 and size), the last one
 * ("end N") counts the metrics, so that a file cut short is not taken for a whole one.
 * 9: who woke the benchmark's tasks, where they wait, the kernels' thread classes.
 * 10: the benchmark's supervisors (task.supervisors.count) left out of its per-op figures;
 *     up to 64 of its waits, and the floor below which none was left out.
 * 11: the run time's split by interrupts (task.path.run.{own,hardirq,softirq,timers,tick}.per_op
 *     and the largest sources), the irq section's metrics (irq.*).
 * 12: the key names the kallsyms the symbols came from (its sha256), so that another
 *     kallsyms put in later is not answered from the cache.
 */
#define TS_SUMMARY_MAGIC "tickscope-summary 12"
/*
 * The oldest format whose metrics still mean what they meant then: 11 and 12 only added
 * metrics and the key's kallsyms. A run kept without its trace (a committed fixture, a board's
 * upload) can only be read as it is, so its summary is taken from this format on; what was
 * added since is absent there and reported as not recorded.
 */
#define TS_SUMMARY_OLDEST 10

struct ts_cmp_variant {
	const char *name;
	struct ts_run *runs;
	int nr_runs;
};

enum ts_cmp_family {
	TS_FAM_RESULT = 0, /* the benchmark's result (first bench metric): not adjusted */
	TS_FAM_BENCH, /* other benchmark figures */
	TS_FAM_TASK, /* the benchmark's tasks in the trace */
	TS_FAM_TRACE, /* whole-trace section metrics */
};

/* One metric against the baseline, for variant v (index 0 is the baseline itself). */
struct ts_cmp_cell {
	struct ts_summary s;
	double *values; /* the runs' values (NAN: not measured), nr_runs of the variant */
	int *outlier; /* per run */
	int nr_outliers;
	int noisy; /* CV above the threshold */
	struct ts_test t; /* vs the baseline (v > 0) */
	double change; /* relative change of the medians, signed so that + is better (%); for
			* a neutral metric, the plain relative change */
	double raw; /* median B - median A, in the metric's unit */
	double ci_lo, ci_hi; /* the CI of the change, in the same signed % */
	double p, p_adj; /* p-value, and adjusted within its family (result: = p) */
	double welch_p;
	int significant;
};

struct ts_cmp_row {
	char *name, *unit;
	enum ts_metric_dir dir;
	enum ts_metric_kind kind;
	enum ts_cmp_family family;
	struct ts_cmp_cell cell[TS_CMP_MAX_VAR];
};

#define TS_CMP_MAX_PARTS 8

struct ts_cmp_part {
	const char *label; /* "wake delivery", "residual" */
	const char *metric; /* the metric it comes from, NULL for the residual */
	double a, b, delta, share; /* µs per operation; share of the change, % */
};

struct ts_cmp_decomp {
	const char *kind; /* "round trip" or "time per operation"; NULL: none */
	const char *total_metric;
	double a, b, delta; /* µs per operation (medians) */
	struct ts_cmp_part part[TS_CMP_MAX_PARTS]; /* the last one is the residual */
	int nr;
	/* "of which" lines, not in the sum: off-CPU time by state and by stack from the trace */
	struct ts_cmp_part detail[TS_CMP_MAX_PARTS];
	int nr_detail;
};

struct ts_cmp_change {
	const struct ts_cmp_row *row;
	double share; /* of the benchmark's change, % (NAN when not a component) */
	double p_adj, change; /* the row's, for this variant */
	double effect; /* |median B - median A| / pooled sd; INFINITY when neither side varies */
	int minor; /* a CPU share that moved under 1 percentage point: ranked last */
};

struct ts_cmp_confounder {
	char text[512];
};

#define TS_CMP_MAX_WAITS 5
#define TS_CMP_MAX_WAKERS 4

/* A waker class's share of some wakes: the baseline's and the variant's medians (%). */
struct ts_cmp_waker {
	const struct ts_cmp_row *row;
	char cls[64]; /* the class ("kworker"), or a work function for woken_by_work rows */
	double a, b;
};

/*
 * Where the benchmark's tasks wait: one of their heaviest off-CPU stacks and states
 * (task.offcpu_stack.<stack>.<state>.per_op), A against B, and who ended those waits.
 */
struct ts_cmp_wait {
	const struct ts_cmp_row *row;
	char stack[160], state[8];
	char label[176]; /* "stack (state)" */
	double a, b; /* µs per operation, medians */
	struct ts_cmp_waker by[TS_CMP_MAX_WAKERS]; /* by share of the periods, largest first */
	int nr_by;
};

#define TS_CMP_MAX_WAKES 16

/* Who woke whom, A against B: a waker class whose share changed, or that woke in one only. */
struct ts_cmp_wake {
	struct ts_cmp_waker w;
	const char *scope; /* "all tasks", "the benchmark's tasks", "work items" */
	int only; /* 1: it woke in every run of the variant and in no run of the baseline; -1 the
		   * reverse; 0 neither */
	int significant;
	double p_adj;
	const char *hint; /* what the class is known for, "" for nothing */
};

#define TS_CMP_MAX_MECH 8
#define TS_CMP_MAX_HEAD 16

/*
 * A kernel mechanism of the headline: a metric of the chain rules (docs/compare.md) that
 * feeds a component of the decomposition and changed, A against B.
 */
struct ts_cmp_mech {
	const struct ts_cmp_row *row;
	char label[200]; /* in kernel words */
	const char *component; /* the decomposition part's label it feeds, "" for none */
	double a, b; /* medians, in unit (b NAN: its event is missing from B's kernel) */
	char unit[16]; /* "µs/op", "/s", "%" ... (ns scaled to µs) */
	double p; /* adjusted p-value; NAN when not testable */
	double share; /* of the benchmark's change, % (time per operation only), else NAN */
	double effect; /* |difference of the medians| / pooled sd; INFINITY without spread */
	const char *separation; /* "complete", "partial", "one side only" */
	int tested; /* 1: significant after the adjustment; 0: too few runs, shown as unconfirmed */
};

/* What the comparison says first: the benchmark, the components, the mechanisms. */
struct ts_cmp_headline {
	struct ts_cmp_mech mech[TS_CMP_MAX_MECH]; /* best first */
	int nr_mech;
	char line[TS_CMP_MAX_HEAD][400]; /* the text lines (the JSON's lines[] too) */
	int nr_lines;
};

struct ts_cmp_opts {
	double alpha; /* 0.05 */
	double cv_max; /* noisy above this CV (0.10) */
	enum ts_adjust adjust; /* TS_ADJ_BH by default */
	int welch; /* also compute Welch's p */
};

struct ts_cmp {
	struct ts_cmp_opts o;
	const struct ts_cmp_variant *var;
	int nr_var;
	struct ts_cmp_row *rows;
	int nr_rows;
	struct ts_strix *row_ix; /* name -> index into rows */
	const struct ts_cmp_row *result; /* the benchmark's result row, or NULL */
	struct ts_cmp_decomp dec[TS_CMP_MAX_VAR];
	struct ts_cmp_change *changes[TS_CMP_MAX_VAR]; /* ranked, significant only */
	int nr_changes[TS_CMP_MAX_VAR];
	struct ts_cmp_confounder *conf;
	int nr_conf;
	/*
	 * kernel differences seen in the configs and the data: the preemption model, task
	 * classes that ran in one variant only
	 */
	struct ts_cmp_confounder *notes;
	int nr_notes;
	struct ts_cmp_wait waits[TS_CMP_MAX_VAR][TS_CMP_MAX_WAITS]; /* ranked, heaviest first */
	int nr_waits[TS_CMP_MAX_VAR];
	struct ts_cmp_wake wakes[TS_CMP_MAX_VAR][TS_CMP_MAX_WAKES]; /* the wakeup path */
	int nr_wakes[TS_CMP_MAX_VAR];
	struct ts_cmp_headline head[TS_CMP_MAX_VAR];
};

/**
 * ts_cmp_build() - compare every variant against the first
 * Return: 0, -EINVAL (fewer than 2 or more than TS_CMP_MAX_VAR variants, a variant without
 * runs), or -ENOMEM.
 */
int ts_cmp_build(const struct ts_cmp_variant *v, int nr, const struct ts_cmp_opts *o,
		 struct ts_cmp **out);

/** ts_cmp_free() - free (NULL is fine) */
void ts_cmp_free(struct ts_cmp *c);

/** ts_cmp_find() - the row of metric @name, or NULL */
const struct ts_cmp_row *ts_cmp_find(const struct ts_cmp *c, const char *name);

/** ts_cmp_fact_name() - "kernel", "cpus", "cmdline", ..., "boot_args" */
const char *ts_cmp_fact_name(enum ts_run_fact f);

#endif
