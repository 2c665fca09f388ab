/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The chain rules of the headline (compare_chain.c): which metric of a run feeds which
 * component of the decomposition, and how it must have changed to be a mechanism of it.
 * compare_headline.c writes the lines; this file finds and ranks what they say.
 */
#ifndef TS_COMPARE_CHAIN_H
#define TS_COMPARE_CHAIN_H

#include "compare_priv.h"

/* The components of the decomposition that a mechanism feeds. */
enum comp { C_RUN, C_WAKE, C_DELAY, C_OFFCPU, C_NR };

/* How a rule's metric must have changed to be a mechanism. */
enum how {
	H_CHANGED, /* significant, or (too few runs) apart beyond their spread and over 2x */
	H_ONLY, /* above zero in every run of one side, zero in every run of the other */
	H_TESTED, /* significant only: kinds with many members (work functions) and rare ones */
};

struct chain_rule {
	enum comp comp;
	const char *pre, *suf; /* the metric: @pre alone (@suf NULL), or @pre<class>@suf */
	const char *label; /* kernel words; "%s" is the class */
	const char *event; /* the event it needs */
	enum how how;
};

/* At most this many thread classes of one kernel only that took no part, a variant. */
#define MAX_INERT 4

/*
 * ts_cmp_mechanisms() - @v's mechanisms into c->head[v] (emptied first), best first, without a
 * container that says again what one of its parts says and within the caps of one component
 * and one rule; up to MAX_INERT thread classes that qualified but took no part into @inert
 * (@nr_inert of them).
 */
void ts_cmp_mechanisms(struct ts_cmp *c, int v, const struct ts_cmp_row **inert, int *nr_inert);

/*
 * ts_cmp_tick_unseen() - the side (0, or @v) where the tick ran in every run without its
 * hrtimer: the tick's hrtimer never expired there (timer.expire.tick.per_s 0 in every run)
 * while RCU's scheduler-tick windows, which update_process_times() opens at every tick
 * whatever its mode (rcu:rcu_utilization), counted in every run. A kernel in low-resolution
 * mode (highres=off, no one-shot clock event device) runs the tick straight from the timer
 * interrupt (6.1's tick_nohz_handler, 6.10's tick_nohz_lowres_handler), with no hrtimer: what
 * compare sees of the tick by its hrtimer falls to 0 there while the tick goes on; those
 * figures are no mechanism then. Return: the side, or -1.
 */
int ts_cmp_tick_unseen(const struct ts_cmp *c, int v);

/* The rule row @r matches, with its class in @cls; NULL for none. */
const struct chain_rule *ts_cmp_rule_of(const struct ts_cmp_row *r, char *cls, size_t n);

/* The part of @v's decomposition that component @k stands for, or NULL. */
const struct ts_cmp_part *ts_cmp_comp_part(const struct ts_cmp *c, int v, enum comp k);

/* The unit shown (into @out) and the factor to it: ns become µs. */
double ts_cmp_show_unit(const char *unit, char *out, size_t n);

/* The smallest two-sided p of the exact U test with @na and @nb runs. */
double ts_cmp_runs_min_p(int na, int nb);

/* A share that can be printed: in (0, 100]; else -1. */
double ts_cmp_valid_share(double s);

/*
 * Whether @r is a user program's CPU share beside the benchmark in every run of one side and
 * in no run of the other (a confounder that feeds the sched delay rule).
 */
int ts_cmp_program_row(const struct ts_cmp *c, const struct ts_cmp_row *r, int v);

/*
 * The most of its component's growth that program row @r (ts_cmp_program_row()) can hold, as
 * a fraction (1: all of it; above 1: more room than growth), NAN when not known: its run time
 * per operation of the benchmark on the side where it ran, into *@run (ns/op), over how much
 * that component grew per operation there, into *@grow (ns/op).
 */
double ts_cmp_program_room(const struct ts_cmp *c, const struct ts_cmp_row *r, int v, double *run,
			   double *grow);

/*
 * ts_cmp_speed() - whether @v's CPU runs the same work slower or faster (the fixed kernel
 * work's time per call moved as the benchmark's own run time did), or the benchmark's own code
 * moved alone (its own time moved, that work per call stayed), into @sp; after
 * ts_cmp_mechanisms(): the benchmark's own time must be one of them (compare_speed.c).
 */
void ts_cmp_speed(const struct ts_cmp *c, int v, struct ts_cmp_speed *sp);

/* A few task classes in kernel words, for the headline's labels. */
const char *ts_cmp_class_words(const char *cls);

#endif
