// SPDX-License-Identifier: GPL-2.0-only
/*
 * What compare's explanation says of the kernels' task classes, and the lists of names, shared
 * by the explanation (compare_explain.c, compare_confound.c), the wakeup path (compare_wake.c)
 * and the headline (compare_headline.c, compare_chain.c): below them all, so that none takes
 * names from another.
 */
#include <string.h>

#include "compare_priv.h"

const char *ts_cmp_class_ps(const char *cls)
{
	static const char *const t[][2] = {
		{ "irq", "irq/N-*" },	      { "pr", "pr/<console>" },
		{ "irq_work", "irq_work/N" }, { "ktimers", "ktimers/N" },
		{ "rcuc", "rcuc/N" },	      { "rcub", "rcub/N" },
		{ "rcuog", "rcuog/N" },	      { "rcuop", "rcuop/N" },
		{ "rcuos", "rcuos/N" },	      { "ksoftirqd", "ksoftirqd/N" },
		{ "kworker", "kworker/*" },   { "migration", "migration/N" },
		{ "cpuhp", "cpuhp/N" },	      { "idle_inject", "idle_inject/N" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(cls, t[i][0]))
			return t[i][1];
	return cls;
}

const char *ts_cmp_class_hint(const char *cls)
{
	if (!strcmp(cls, "irq"))
		return "threaded interrupt handlers (irq/N-* threads: PREEMPT_RT or threadirqs); a "
		       "kernel without them runs hardirqs inline, and wakeups from interrupts go "
		       "through the thread";
	if (!strncmp(cls, "rcu_exp_gp_kthr", 15) || !strncmp(cls, "rcu_exp_par_gp_", 15))
		return "the expedited RCU grace-period kthread workers (6.9+); older kernels run "
		       "expedited grace periods from kworkers";
	if (!strcmp(cls, "ktimers"))
		return "PREEMPT_RT's per-CPU threads that run timers (the timer and hrtimer "
		       "softirqs)";
	if (!strcmp(cls, "rcuc"))
		return "per-CPU threads that run RCU's core processing and callbacks in place of "
		       "RCU_SOFTIRQ (rcutree.use_softirq=0; the PREEMPT_RT default, where ktimers "
		       "runs the timers)";
	if (!strcmp(cls, "rcuog"))
		return "RCU callback-offload grace-period threads (rcu_nocbs=, NO_HZ_FULL): they "
		       "wait for grace periods for the offloaded CPUs and wake rcuop/rcuos";
	if (!strcmp(cls, "rcuop") || !strcmp(cls, "rcuos"))
		return "per-CPU threads that invoke offloaded RCU callbacks (rcu_nocbs=, "
		       "NO_HZ_FULL; rcuop with PREEMPT_RCU, rcuos without): a kernel without "
		       "them runs the callbacks in the RCU softirq";
	if (!strcmp(cls, "rcub"))
		return "RCU priority-boost threads (RCU_BOOST, on by default with PREEMPT_RT)";
	if (!strcmp(cls, "irq_work"))
		return "PREEMPT_RT runs irq_work that may sleep in per-CPU irq_work/N threads";
	if (!strcmp(cls, "pr"))
		return "console printing threads (pr/<console>: PREEMPT_RT's printk)";
	if (!strcmp(cls, "rcu_preempt") || !strcmp(cls, "rcu_sched"))
		return "the RCU grace-period kthread: rcu_preempt with PREEMPT_RCU (PREEMPT, "
		       "PREEMPT_RT), rcu_sched without";
	if (!strcmp(cls, "ksoftirqd"))
		return "the per-CPU softirq threads";
	if (!strcmp(cls, "softirq"))
		return "wakes from softirqs run inline (at irq exit or bh enable); PREEMPT_RT runs "
		       "softirqs in threads (ksoftirqd, ktimers) instead";
	if (!strcmp(cls, "swapper"))
		return "the idle task's own context: the end of an interrupt on an idle CPU, "
		       "after its hardirq count dropped (where PREEMPT_RT wakes ksoftirqd rather "
		       "than run softirqs inline)";
	if (!strcmp(cls, "hardirq"))
		return "wakeups from hard interrupt handlers; under PREEMPT_RT most handlers and "
		       "timers run in threads instead";
	return "";
}

int ts_cmp_all_pos(const struct ts_cmp_cell *x, int n)
{
	int pos = 0, zero = 0;

	for (int r = 0; r < n; r++) {
		pos += x->values[r] > 0;
		zero += x->values[r] == 0;
	}
	return pos == n ? 1 : zero == n ? 0 : -1;
}

/*
 * A share that went to zero is not a path switched off: its part went to the other classes of
 * the same whole (wakes on the waker's CPU become wakes on another), and the share that grew
 * says that better.
 */
int ts_cmp_switched(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	int pa = ts_cmp_all_pos(&r->cell[0], c->var[0].nr_runs);
	int pb = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs);

	return strcmp(r->unit, "%") && pa >= 0 && pb >= 0 && pa != pb;
}

int ts_cmp_in_list(const char *list, const char *tok, size_t n)
{
	while (list && *list) {
		size_t l = strcspn(list, ",");

		if (l == n && !strncmp(list, tok, n))
			return 1;
		list += l + (list[l] == ',');
	}
	return 0;
}
