// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event table (TS_EVENTS): names and kinds map both ways, aliases decode to their kind, and
 * each section's lines stand together, so that every kind but sched_process_exit,
 * sched_process_fork (which the scheduler section asks for) and the side-band ones belongs to
 * exactly one section (idlepath and probes own none).
 */
#include <string.h>

#include "tap.h"
#include "tickscope/analysis.h"

int main(void)
{
	int seen[TS_EV_NR_KINDS] = { 0 }, k, s, i, n, bad = 0, total = 0;
	const uint16_t *kinds;
	const uint8_t *req;

	for (k = 1; k < TS_EV_COMM; k++)
		bad += ts_event_kind(ts_event_name(k)) != k;
	is_int(bad, 0, "every kind's name maps back to it");
	is_int(ts_event_kind("rcu:rcu_kvfree_callback"), TS_EV_RCU_CB,
	       "an alias: rcu_kvfree_callback");
	is_int(ts_event_kind("rcu:rcu_invoke_kfree_bulk_callback"), TS_EV_RCU_INVOKE,
	       "an alias: rcu_invoke_kfree_bulk_callback");
	is_int(ts_event_kind("irq:softirq_raise"), TS_EV_OTHER, "other tracepoints are other");
	ok(!strcmp(ts_event_name(TS_EV_COMM), "") && !strcmp(ts_event_name(TS_EV_NR_KINDS), ""),
	   "side-band and out-of-range kinds have no name");
	for (s = 0; s < TS_SEC_NR; s++) {
		n = ts_analysis_section_kinds(s, &kinds, &req);
		/* idlepath and probes read other sections' events and have no lines of their own */
		if (s == TS_SEC_IDLEPATH || s == TS_SEC_PROBES)
			ok(n == 0, "section %d: no events of its own", s);
		else
			ok(n > 0 && req[0], "section %d: %d events, the first required", s, n);
		for (i = 0; i < n; i++) {
			seen[kinds[i]]++;
			bad += ts_event_required(kinds[i]) != req[i];
		}
		total += n;
	}
	for (k = 1; k < TS_EV_COMM; k++)
		bad += seen[k] != (k != TS_EV_PROCESS_EXIT && k != TS_EV_PROCESS_FORK);
	is_int(bad, 0, "each kind in one section (its lines together), with the table's required");
	is_int(total, TS_EV_COMM - 3,
	       "all kinds but other, sched_process_exit, sched_process_fork and side-band");
	return tap_done();
}
