/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tickscope compare's model: runs as named metrics, variants as lists of runs, and the
 * comparison of every metric against the baseline with its statistics, the decomposition of
 * the benchmark's change, the ranked changes and the confounders. Pure: no I/O.
 */
#ifndef TICKSCOPE_COMPARE_H
#define TICKSCOPE_COMPARE_H

#include "tickscope/metric.h"
#include "tickscope/section.h"
#include "tickscope/stats.h"

#define TS_CMP_MAX_VAR 16
/*
 * of the JSON and TSV layout (docs/compare-json.md); 2: the headline; 5: each variant's cell
 * says whether it was measured and, when not, why ("measured", "why_null"); 6: "ci_pct" of a
 * quantity no run measured below 0 stops at -100% of the baseline's median (the runs' own
 * facts gain "selection"); 7: the headline says when a fact that defines the benchmark
 * differs ("benchmark_differs", "kernel_ab", "kernel"), in a line right after the first, so
 * that "lines"[1] is not always the components'; each run's facts gain "build_id"; 8: the
 * headline's "timing" (the benchmark's own timing against the trace's window per operation)
 * and its line before the components when they disagree
 */
#define TS_CMP_VERSION 8

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
	/* from the perf.data header (TS_FACT_TRACE_FIRST on: what the summary carries) */
	TS_FACT_ARCH, /* HEADER_ARCH: uname -m */
	TS_FACT_NR_CPUS, /* HEADER_NRCPUS: "8 online of 8" */
	TS_FACT_CPU, /* HEADER_CPUDESC and HEADER_CPUID: the CPU model */
	TS_FACT_RELEASE, /* HEADER_OSRELEASE: the kernel's release (uname -r) */
	TS_FACT_TRACE_EVENTS, /* the tracepoints the perf.data's attrs recorded, comma-separated */
	/*
	 * how the benchmark's tasks were selected (ts_run_add_task_metrics()): "tree" (the
	 * recorded workload's process tree), or "name: " and why the tree could not be used
	 */
	TS_FACT_SELECTION,
	/* HEADER_BUILD_ID: the build id of [kernel.kallsyms], the kernel's build */
	TS_FACT_BUILD_ID,
	/* inferred from the trace's metrics (ts_run_infer()) */
	TS_FACT_NOHZ, /* how the tick behaves on idle CPUs, from timer:tick_stop */
	/*
	 * from the run's kernel config (kconfig, else nohz.txt's CONFIG lines): the choices of the
	 * tick, RCU and interrupt threading, "HZ=250 NO_HZ_FULL=y RCU_BOOST=n ...", only those
	 * the file states (compare_load.c, kconfig_words())
	 */
	TS_FACT_KCONFIG,
	TS_FACT_NR
};

#define TS_FACT_TRACE_FIRST TS_FACT_ARCH
#define TS_FACT_TRACE_END TS_FACT_NOHZ /* the header's facts: [FIRST, END) */

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
	double ops; /* the benchmark's operations in the trace (NAN or 0: unknown) */
	/*
	 * Attempts refused as a damaged trace before this run was kept (meta.txt's
	 * refused_attempts=, ts-record.sh --retries; 0: none), and the first one's reason (NULL)
	 */
	int refused_attempts;
	char *refused_reason;
	/*
	 * Which families of events (the analysis's sections) the trace recorded: per section,
	 * 0 when unknown (no trace, a summary before format 14), else 1 + its enum ts_presence
	 * (ts_run_section()). A figure of a family not recorded is not measured, never 0.
	 */
	unsigned char section[TS_SEC_NR];
	/*
	 * Why the filters the trace was recorded with cannot be known (no HEADER_CMDLINE,
	 * ts_source_filters_unknown()), or NULL: the summary carries it (format 18), so that a
	 * run compared from its summary warns as one compared from its trace.
	 */
	char *filters_unknown;
};

/** ts_run_add() - add or replace metric @name; Return: 0 or -ENOMEM */
int ts_run_add(struct ts_run *r, const char *name, const char *unit, enum ts_metric_dir dir,
	       enum ts_metric_kind kind, double value, const char *why_null);

/** ts_run_find() - metric @name of run @r, or NULL */
const struct ts_run_metric *ts_run_find(const struct ts_run *r, const char *name);

/** ts_run_set_fact() - copy @value into fact @f; Return: 0 or -ENOMEM */
int ts_run_set_fact(struct ts_run *r, enum ts_run_fact f, const char *value);

/** ts_run_set_filters_unknown() - copy @why (NULL: none) into @r; Return: 0 or -ENOMEM */
int ts_run_set_filters_unknown(struct ts_run *r, const char *why);

/**
 * ts_run_infer() - the facts a run's trace metrics tell where nothing else said: TS_FACT_NOHZ
 * from timer:tick_stop (docs/compare.md, "Facts from the files"), TS_FACT_KERNEL from the
 * header's release and TS_FACT_EVENTS from the perf.data's attrs (TS_FACT_TRACE_EVENTS) when
 * meta.txt did not say. Return: 0 or -ENOMEM.
 */
int ts_run_infer(struct ts_run *r);

/**
 * ts_run_section() - whether run @r recorded the events of section @s: its enum ts_presence,
 * or -1 when not known
 */
int ts_run_section(const struct ts_run *r, enum ts_section s);

/** ts_run_section_name() - "sched", "idle", "timer", "workqueue", ... ("" out of range) */
const char *ts_run_section_name(enum ts_section s);

/** ts_run_release() - free what a run owns (not the struct) */
void ts_run_release(struct ts_run *r);

struct ts_analysis;

/*
 * The task classes a run keeps apart in "task.other_cpu.<class>.share": the first
 * TS_RUN_MAX_CLASSES - 1 classes a run meets, then one more, TS_RUN_CLASS_REST, that counts
 * every other class's tasks together (programs and kernel threads: not one program)
 */
#define TS_RUN_MAX_CLASSES 48
#define TS_RUN_CLASS_REST "other"

/**
 * ts_run_add_task_metrics() - the benchmark's own tasks' figures per operation ("task.*") and
 * other tasks' share of CPU time, from a finished analysis
 * @match: the benchmark's comm: tasks named @match or "@match-..." are its tasks
 * @ops: operations in the trace (NAN: per-operation figures are NAN)
 * Return: 0 or -ENOMEM.
 */
int ts_run_add_task_metrics(struct ts_run *r, const struct ts_analysis *a, const char *match,
			    double ops);

/*
 * ts_run_bench_task() - whether @comm is the benchmark's: @match or @match-... (pingpong-echo);
 * a @match of TS_COMM_LEN - 1 bytes or more by its first TS_COMM_LEN - 1, as the kernel keeps
 * a name ("stress-ng-switch" runs as "stress-ng-switc")
 */
int ts_run_bench_task(const char *comm, const char *match);

struct ts_sched_task;
struct ts_wltree;

/*
 * The benchmark's tasks in one run, told apart: its workers, and its supervisors, whose
 * off-CPU time belongs to no operation. The benchmark's tasks are those of its comm in the
 * recorded workload's process tree, or every task of its comm when the recording has no
 * workload command, or none of that name in it (ts_run_bench_is()). A supervisor is one of
 * the benchmark's tasks that
 * - spent most of its off-CPU time waiting for a child to exit (a switch-out stack through
 *   do_wait: wait4, waitid, waitpid), when callchains and symbols were recorded; or
 * - forked another of the benchmark's tasks (sched_process_fork, perf's FORK records) and ran
 *   under a third as long as the benchmark's busiest task: stress-ng's parent of each
 *   stressor instance; a parent that works as the others do (ping-pong's, which forks the
 *   echo and then pings) is a worker.
 */
struct ts_run_bench {
	const char *match; /* the benchmark's comm */
	const struct ts_wltree *tree; /* its tasks are this tree's (tickscope/wltree.h); NULL: all */
	int32_t *sup; /* the supervisors' tids, sorted */
	int nr_sup;
	int known; /* forks or switch-out stacks with symbols were seen: supervisors are known */
};

/**
 * ts_run_bench_init() - tell the benchmark's (@match) workers from its supervisors in a
 * finished analysis (its process tree, its tasks' switch-out stacks and run times)
 * Return: 0 or -ENOMEM; release with ts_run_bench_release() either way.
 */
int ts_run_bench_init(struct ts_run_bench *b, const struct ts_analysis *a, const char *match);

/**
 * ts_run_bench_is() - whether task @k is the benchmark's: named after it (ts_run_bench_task())
 * and, when the recording's workload has a task of that name, in the workload's process tree
 * (tickscope/wltree.h): another benchmark of the name beside it is another user's, not this
 */
int ts_run_bench_is(const struct ts_run_bench *b, const struct ts_sched_task *k);

/** ts_run_bench_release() - free what ts_run_bench_init() took */
void ts_run_bench_release(struct ts_run_bench *b);

/** ts_run_bench_worker() - whether task @k (may be NULL) is one of the benchmark's workers */
int ts_run_bench_worker(const struct ts_run_bench *b, const struct ts_sched_task *k);

/**
 * ts_run_add_wait_metrics() - who woke the benchmark's tasks and where they waited: waker
 * classes ("task.woken_by.<class>.share", "task.woken_by_work.<function>.share", with
 * "task.woken_by.wakes"), and their heaviest off-CPU waits by switch-out stack and state per
 * operation ("task.offcpu_stack.<stack>.<state>.per_op") with who ended them
 * ("...<state>.woken_by.<class>.share"); the benchmark's own wakes (by its tasks as @b takes
 * them, in task context) are one class, named after its comm, and a waker of its name that @b
 * does not take (outside the workload's tree) is "other-<comm>"; its supervisors are left out
 * Return: 0 or -ENOMEM.
 */
int ts_run_add_wait_metrics(struct ts_run *r, const struct ts_analysis *a,
			    const struct ts_run_bench *b, double ops);

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
 * 13: the benchmark's supervisors told by the process tree and waits for a child
 *     (ts_run_bench_init), not by a switch-out ratio; task.supervisors.count null when
 *     neither forks nor switch-out stacks were recorded. sched.threads.<class>.count counts
 *     kthreadd's children by their FORK records (before: threads named with a '/' only, a
 *     subset of them); "fact NAME VALUE" lines after "lost" carry the perf.data header's
 *     facts (TS_FACT_TRACE_FIRST to TS_FACT_TRACE_END).
 */
/*
 * 14: "section NAME STATE" lines after the facts say which families of events the trace
 *     recorded (STATE: present, empty, not-recorded), so that compare tells a figure of a
 *     family not recorded (null) from one that was 0; "fact trace_events LIST" carries the
 *     perf.data attrs' tracepoints.
 * 15: the benchmark's tasks are those of its name in the recorded workload's process tree
 *     (tickscope/wltree.h), not every task of the name: another benchmark of the name beside
 *     it no longer counts in task.*, and its time counts among the other tasks'.
 * 16: the benchmark's own class among who woke its tasks (task.woken_by.<name>.share and a
 *     wait's woken_by) is its tree's tasks' wakes, not every task of its name's: a waker of
 *     the name outside the tree is "other-<name>"; "fact selection" says whether the tasks
 *     were taken by the tree or by name, and why.
 * 17: "fact build_id HEX" carries the perf.data's build id of [kernel.kallsyms], so that
 *     compare tells two builds of one release apart (and one build from two).
 * 18: an idle exit with no traced cause but an interrupt handled since the enter is caused by
 *     that interrupt (idle.exits.irq.per_s, idle.exits.irq.<name>.per_s), no longer untraced;
 *     "filters WHY" after the facts says the trace lacks perf record's command line, so that
 *     compare from the summary warns as compare from the trace.
 */
#define TS_SUMMARY_MAGIC "tickscope-summary 18"
/*
 * The oldest format whose metrics still mean what they meant then: 11 and 12 only added
 * metrics and the key's kallsyms; 13 tells supervisors better (a summary of 10-12 may count
 * a parent's sleep in its task.off_cpu.S.per_op, as it did then), counts more kernel threads
 * in sched.threads.*, those without a '/' in their names too (a class only they make up is
 * absent before), and adds the header's facts. A run kept without its trace (a committed
 * fixture, a board's upload) can only be read as it is, so its summary is taken from this
 * format on; what was added since is absent there and reported as not recorded.
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
	int measured; /* runs with a value (the others: why_null) */
	const char *why_null; /* why a run has none (the first such run's reason), or NULL */
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
	/*
	 * What the round trip's residual is made of (NAN when unknown): the time with every task
	 * of the benchmark asleep, and the traced window per operation (the tasks' first to last
	 * event over the operations: the four states of the time line); residual = round trip -
	 * window + none, medians of the runs.
	 */
	double none_a, none_b, window_a, window_b;
};

struct ts_cmp_change {
	const struct ts_cmp_row *row;
	double share; /* of the benchmark's change, % (NAN when not a component) */
	double p_adj, change; /* the row's, for this variant */
	double effect; /* |median B - median A| / pooled sd; INFINITY when neither side varies */
	int minor; /* a share (%) that moved under 1 percentage point: ranked last */
	int switched; /* ts_cmp_switched(): a path that ran on one side only, ranked first */
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
#define TS_CMP_MAX_HEAD 20

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
	int by_part; /* unconfirmed by its part of its component's time, run by run (part_lo..hi) */
	double part_lo[2], part_hi[2]; /* that part in A's runs, in B's: lowest, highest (%) */
	int by_count; /* a rate switched on or off, unconfirmed by its counts a run */
	double count_lo, count_hi; /* its events a run where it ran: fewest, most */
	double zero_s, expect; /* the other side's seconds, and the events its least rate expects */
};

/* The kinds of fixed kernel work whose time per call compare_speed.c weighs. */
enum ts_cmp_speed_kind {
	TS_SPEED_IRQ, /* the tick's handler, hard IRQs (the timer interrupt holds the tick) */
	TS_SPEED_SOFTIRQ,
	TS_SPEED_TIMER, /* timer callbacks other than the tick's */
	TS_SPEED_WORK, /* work items */
	TS_SPEED_NR_KIND
};

enum ts_cmp_speed_verdict {
	TS_SPEED_NONE, /* neither below, or not measured */
	TS_SPEED_CPU, /* the kernel's fixed work per call and the benchmark's own time moved alike */
	TS_SPEED_OWN, /* the benchmark's own time moved, the fixed work per call stayed */
	/*
	 * the own time moved as OWN's, but its run time did not move with it: the interrupts
	 * inside the run time moved the other way, and the own part took (gave) their time
	 */
	TS_SPEED_RESPLIT,
};

#define TS_CMP_SPEED_MAX 3 /* per-call costs said */
#define TS_CMP_SPEED_MAX_ALL 256 /* per-call costs weighed */

/*
 * The time per call of the fixed kernel work both kernels do (the tick's handler, hard IRQs,
 * softirqs, timer callbacks, work items: their p50 a run, from MIN_CALLS calls a run or more)
 * against the benchmark's own run time per operation (compare_speed.c).
 */
struct ts_cmp_speed {
	enum ts_cmp_speed_verdict verdict;
	double ratio; /* the per-call costs' median ratio B / A (geometric); NAN: none measured */
	double own_a, own_b, own_ratio; /* the benchmark's own run time (ns/op, medians), B / A */
	double run_a, run_b; /* its run time, own and interrupts (ns/op, medians); NAN: unknown */
	int nr; /* per-call costs measured in every run of both sides */
	int nr_apart; /* of them, every run apart the way of @ratio, by 1.5x or more */
	int nr_kinds; /* the kinds (enum ts_cmp_speed_kind) of those */
	struct {
		const struct ts_cmp_row *row;
		char words[96]; /* "the tick's handler", "softirq SCHED" */
		double a, b; /* ns per call, medians */
	} cost[TS_CMP_SPEED_MAX]; /* those said, the verdict's evidence first */
	int nr_cost;
};

enum ts_cmp_timing_verdict {
	TS_TIMING_UNTESTED, /* not measured or too few runs: why */
	TS_TIMING_NONE, /* tested: no disagreement shown that moved the result (why: what was seen) */
	/*
	 * the result moved, the trace's window per operation did not move with it: the ratio of
	 * the two, run by run, changed beyond the runs' spread
	 */
	TS_TIMING_DISAGREE,
};

/*
 * The benchmark's own timing against the trace's (compare_timing.c): per run, the timed round
 * trip over the trace's window per operation (the benchmark's tasks' time line, its four
 * states); A's runs against B's by the U test. A benchmark whose clock runs slow, or ticks
 * coarser, moves its result and not the trace's window; start-up or warm-up outside the timed
 * loop moves the window and not the result.
 */
struct ts_cmp_timing {
	enum ts_cmp_timing_verdict verdict;
	const char *why; /* UNTESTED: why; AGREE: what decided it */
	double res_a, res_b; /* the result, µs per operation (medians) */
	double win_a, win_b; /* the traced window, µs per operation (medians) */
	double win_p; /* the U test's p of the windows, A against B */
	double ratio_a, ratio_b; /* timed / traced, per run (medians) */
	double p; /* the U test's p of the per-run ratios, A against B */
	double min_p; /* the smallest p those run counts allow */
	int nr_a, nr_b; /* runs with both figures */
};

/* What the comparison says first: the benchmark, the components, the mechanisms. */
struct ts_cmp_headline {
	struct ts_cmp_timing timing; /* the benchmark's own timing against the trace */
	struct ts_cmp_speed speed; /* the CPU's speed against the benchmark's own code */
	struct ts_cmp_mech mech[TS_CMP_MAX_MECH]; /* best first */
	int nr_mech;
	char line[TS_CMP_MAX_HEAD][640]; /* the text lines (the JSON's lines[] too) */
	int nr_lines;
};

#define TS_CMP_MAX_UNMEASURED 16

/*
 * Rows measured on one side only (every run of the other has no figure), by why the other
 * has none: untested, left out of the ranking, the reason said once.
 */
struct ts_cmp_unmeasured {
	int side; /* the variant without figures: 0 (the baseline) or v */
	const char *why; /* its first run's reason (a metric's why_null) */
	int nr_rows;
	const struct ts_cmp_row *first; /* the first such row */
};

/*
 * A fact that defines the benchmark (its workload command, its pinning: what ran and where)
 * and differs between the baseline and a variant. The words that differ, each side's ("" when
 * the other side's are all it adds): "--delay-us 50" against "".
 */
struct ts_cmp_defdiff {
	enum ts_run_fact fact; /* TS_FACT_WORKLOAD or TS_FACT_PINNING */
	char a[160], b[160];
};

#define TS_CMP_MAX_KDIFF 7

/*
 * A fact of the kernel that differs between the baseline and a variant, known on both sides:
 * the preemption model, the config's tick, RCU and threading choices (only the symbols that
 * differ: "RCU_BOOST=n" against "RCU_BOOST=y"), the release, the build, the declared boot
 * parameters, the rest of the command line, the tick on idle CPUs as the trace shows it.
 */
struct ts_cmp_kdiff {
	enum ts_run_fact fact;
	const char *what; /* "preemption model", "config", ... */
	char a[128], b[128]; /* "" for none (boot parameters) */
};

/* Whether two variants ran the same kernel (the same build, booted with the same line). */
enum ts_cmp_kernels {
	TS_KERNELS_UNKNOWN = 0, /* something needed is not known (why: in .kernel) */
	TS_KERNELS_SAME, /* release, build id of every run, command line and preemption equal */
	TS_KERNELS_DIFFER, /* release, build id, boot parameters, command line or preemption */
};

/*
 * What defines the benchmark, variant against the baseline (docs/compare.md, "The headline"):
 * the facts that differ, and whether the kernels are the same. With a benchmark that differs
 * and the same kernel, the A/B is not a kernel A/B.
 */
struct ts_cmp_benchdef {
	struct ts_cmp_defdiff diff[2];
	int nr_diff;
	enum ts_cmp_kernels kernels;
	/*
	 * SAME: "6.18.44-fc-v669, build id 4a5a9b0affb6"; DIFFER: in what ("build id"); UNKNOWN:
	 * why ("no kernel build id in the trace of a run")
	 */
	char kernel[160];
	/* what the kernels differ in, the headline's kernel line (kernel_diffs()) */
	struct ts_cmp_kdiff kdiff[TS_CMP_MAX_KDIFF];
	int nr_kdiff;
	int one_build; /* every run of both sides has one kernel build id */
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
	struct ts_cmp_benchdef bdef[TS_CMP_MAX_VAR]; /* what defines the benchmark, against [0] */
	/* the rows of one side only, by side and reason (the last: every other reason) */
	struct ts_cmp_unmeasured unmeasured[TS_CMP_MAX_VAR][TS_CMP_MAX_UNMEASURED];
	int nr_unmeasured[TS_CMP_MAX_VAR];
	char sec_why[TS_SEC_NR][96]; /* why a section's figures are null: "<event> not recorded" */
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

/**
 * ts_cmp_metric_words() - metric @name in kernel words ("idle exits by the tick, per second"),
 * into @out (its name when no family's words fit); what compare prints to a person, the raw
 * names being for the JSON, the TSV and --metric-names. Return: @out
 */
const char *ts_cmp_metric_words(const char *name, char *out, size_t n);

/**
 * ts_cmp_residual_words() - what variant @v's round-trip residual is made of, into @out,
 * when it is over 10% of the change or of the round trip
 * Return: 1 when said, 0 when the residual is small (or no round trip).
 */
int ts_cmp_residual_words(const struct ts_cmp *c, int v, char *out, size_t n);

/**
 * ts_cmp_stack_words() - a wait's stack and state, "a;b;c.D", as "a <- b <- c (D)" into @out
 * Return: @out
 */
const char *ts_cmp_stack_words(const char *cls, char *out, size_t n);

/** ts_cmp_fact_name() - "kernel", "cpus", "cmdline", ..., "boot_args" */
const char *ts_cmp_fact_name(enum ts_run_fact f);

#endif
