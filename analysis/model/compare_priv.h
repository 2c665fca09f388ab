/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared between the compare model's files, layered: compare.c (statistics) calls
 * compare_explain.c (the explanation), which calls compare_wake.c/compare_wait.c (waits and
 * the wakeup path), compare_confound.c (the confounders and notes) and compare_headline.c (the
 * headline's lines), which calls compare_chain.c (the chain rules: the mechanisms, ranked) and
 * compare_timing.c (the benchmark's timing against the trace's);
 * all of them use compare_class.c and find rows through compare_rows.c. A run's metrics:
 * compare_run_analysis.c (from one analysis) calls compare_wait.c (the waits), and both fill
 * the run through compare_run.c (the metrics by name) and compare_bench.c (the benchmark's
 * tasks). No file calls one above it.
 */
#ifndef TS_COMPARE_PRIV_H
#define TS_COMPARE_PRIV_H

#include "tickscope/compare.h"

/* The union of the runs' metric names into c->rows, in first-seen order (the bench result
 * first), with their direction and family (compare_rows.c). */
int ts_cmp_collect_rows(struct ts_cmp *c);

/* Does @s start with @pre, end with @suf (and have more than @suf)? (compare_rows.c) */
int ts_cmp_starts(const char *s, const char *pre);
int ts_cmp_ends(const char *s, const char *suf);

/* Is @pid one of the benchmark's supervisors in @b? (compare_bench.c) */
int ts_run_bench_supervisor(const struct ts_run_bench *b, int32_t pid);

/*
 * The benchmark's own timing against the trace's window per operation, @v against the
 * baseline (compare_timing.c), once the decomposition is made.
 */
void ts_cmp_timing(const struct ts_cmp *c, int v, struct ts_cmp_timing *t);

/* Decomposition, ranked changes and confounders, once every row is computed. */
int ts_cmp_explain(struct ts_cmp *c);

/* The waits of the benchmark's tasks and the wakeup path (compare_wake.c), into c->waits and
 * c->wakes. */
void ts_cmp_explain_waits(struct ts_cmp *c);

/* The confounders (c->conf) and notes (c->notes) of the comparison (compare_confound.c), once
 * the changes are ranked. Return: 0 or -ENOMEM. */
int ts_cmp_confounders(struct ts_cmp *c);

/* The headline of every variant against the baseline (compare_headline.c), into c->head, once
 * the decomposition, the waits and the notes are made. */
void ts_cmp_headline(struct ts_cmp *c);

/* All @n values of @x above zero (1), all zero (0), or neither (-1) (compare_class.c). */
int ts_cmp_all_pos(const struct ts_cmp_cell *x, int n);

/*
 * Whether row @r, a rate or a time, is zero in every run of one side (the baseline or @v) and
 * above zero in every run of the other: a path the kernel switched on or off.
 */
int ts_cmp_switched(const struct ts_cmp *c, const struct ts_cmp_row *r, int v);

/* Is @tok (@n bytes) one of the comma-separated names of @list (NULL: none)? */
int ts_cmp_in_list(const char *list, const char *tok, size_t n);

/* What a task class is known for ("" for nothing), when the data shows it in one variant. */
const char *ts_cmp_class_hint(const char *cls);

/*
 * ts_cmp_class_ps() - a task class as ps names its threads, "pr/<console>", "ktimers/N",
 * "irq/N-*" (the class is the name cut at its '/': "pr" alone says nothing), else @cls
 */
const char *ts_cmp_class_ps(const char *cls);

#endif
