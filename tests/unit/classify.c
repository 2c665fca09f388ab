// SPDX-License-Identifier: GPL-2.0-only
/*
 * The class rules (model/classify.c): names across kernel versions, the old names the analyses
 * call, and with --dump the tables as text for tests/classify-kernel.t to hold against the
 * kernel's own headers (softirq_to_name, TICK_DEP_BIT_*, sched_switch's state letters).
 */
#include <string.h>

#include "tap.h"
#include "tickscope/classify.h"
#include "tickscope/idle.h"

static int dump(void)
{
	const char *s;
	unsigned int i;

	for (i = 0; (s = ts_class_softirq(i)); i++)
		printf("softirq %u %s\n", i, s);
	for (i = 0; (s = ts_class_tick_dep(1ULL << i)); i++)
		printf("tick_dep %u %s\n", i, s);
	/* one bit at a time below TASK_REPORT_MAX (0x100), as the kernel's print flags test them */
	for (i = 0; i < 8; i++)
		printf("state 0x%x %s\n", 1U << i, ts_class_task_state(1ULL << i, 0x100));
	return 0;
}

static int streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

int main(int argc, char **argv)
{
	char buf[32];

	if (argc > 1 && !strcmp(argv[1], "--dump"))
		return dump();

	ok(streq(ts_class_hrtimer("tick_sched_timer"), "tick"), "6.1's tick_sched_timer is tick");
	ok(streq(ts_class_hrtimer("tick_nohz_handler"), "tick"),
	   "6.10's tick_nohz_handler is tick");
	ok(streq(ts_class_hrtimer("hrtimer_wakeup"), "sched") &&
		   streq(ts_class_hrtimer("dl_task_timer"), "sched"),
	   "a sleeper's wakeup and SCHED_DEADLINE's timer are sched");
	ok(streq(ts_class_hrtimer("watchdog_timer_fn"), "watchdog"), "the lockup watchdog");
	ok(streq(ts_class_hrtimer("it_real_fn"), "other") && streq(ts_class_hrtimer(NULL), "other"),
	   "anything else, and an unnamed function, is other");
	ok(ts_idle_is_tick("tick_sched_timer") && !ts_idle_is_tick("hrtimer_wakeup") &&
		   !ts_idle_is_tick(NULL),
	   "ts_idle_is_tick() keeps working and says what ts_class_is_tick() says");
	ok(ts_idle_is_ipi("ipi:ipi_entry") && ts_idle_is_ipi("irq_vectors:reschedule_entry") &&
		   !ts_idle_is_ipi("ipi:ipi_raise"),
	   "ts_idle_is_ipi(): arrivals, not the sender's raise");

	ok(streq(ts_class_work("vmstat_update"), "vmstat") &&
		   streq(ts_class_work("vmstat_shepherd"), "vmstat"),
	   "vmstat_update and vmstat_shepherd are vmstat");
	ok(streq(ts_class_work("process_srcu"), "rcu") &&
		   streq(ts_class_work("srcu_invoke_callbacks"), "rcu") &&
		   streq(ts_class_work("wait_rcu_exp_gp"), "rcu"),
	   "SRCU callbacks and RCU grace-period work are rcu");
	ok(streq(ts_class_work("deferred_split_shrinker_scan"), "shrinker"), "shrinker work");
	ok(streq(ts_class_work("percpu_balance_workfn"), "other") &&
		   streq(ts_class_work("psi_avgs_work"), "other"),
	   "percpu_* is not rcu; other work is other");

	ok(streq(ts_class_task_state(0, 0x100), "R"), "0 is R");
	ok(streq(ts_class_task_state(0x100, 0x100), "R+"), "TASK_REPORT_MAX is R+ (preempted)");
	ok(streq(ts_class_task_state(0x80, 0x100), "I"), "0x80 is I (an idle kthread)");
	ok(streq(ts_class_task_state(0x1, 0), "S") && streq(ts_class_task_state(0x2, 0), "D"),
	   "S and D without the preemption flag known");

	ok(streq(ts_class_tick_dep(0), "NONE"), "no dependency is NONE, as the format prints it");
	ok(ts_class_tick_dep(1ULL << 40) == NULL, "an unknown bit has no name");
	ok(ts_class_softirq(10) == NULL, "past RCU there is no softirq");

	ok(streq(ts_class_ipi_reason("Rescheduling interrupts", buf, sizeof(buf)), "reschedule"),
	   "arm64's reschedule IPI");
	ok(streq(ts_class_ipi_reason("Function call interrupts", buf, sizeof(buf)),
		 "call_function"),
	   "arm64's function call IPI");
	ok(streq(ts_class_ipi_reason("Some new kind", buf, sizeof(buf)), "Some_new_kind"),
	   "a reason the table does not know is its text, spaces as _");
	ok(streq(ts_class_ipi_reason("a reason far longer than the buffer it goes into", buf, 8),
		 "a_reaso"),
	   "cut to the buffer");
	ok(streq(ts_class_ipi_reason(NULL, buf, sizeof(buf)), "-"), "no reason is -");
	return tap_done();
}
