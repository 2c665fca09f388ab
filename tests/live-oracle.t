#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Records a short workload on this machine with perf record, then applies the dump oracle of
# dump-oracle.t to it: once in file mode with callchains, once in pipe mode. Needs root,
# tracefs and perf; without them it skips with the reason.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

tap_need_tracing sched:sched_switch
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }

tap_tmpdir
ORACLE_TMP=$TAP_TMP
# Events: the ones the kernel has among those the models use.
events=""
for e in sched:sched_switch sched:sched_waking sched:sched_wakeup sched:sched_wakeup_new \
	sched:sched_migrate_task sched:sched_process_exit timer:hrtimer_start \
	timer:hrtimer_expire_entry timer:hrtimer_expire_exit timer:timer_start \
	timer:timer_expire_entry timer:tick_stop rcu:rcu_utilization power:cpu_idle \
	workqueue:workqueue_execute_start workqueue:workqueue_execute_end; do
	grep -qx "$e" "$TRACEFS/available_events" && events="$events,$e"
done
events=${events#,}
diag "events: $events"
# Same boot, so the running kernel's symbols are the right ones.
cp /proc/kallsyms "$ORACLE_TMP/kallsyms"
k=$ORACLE_TMP/kallsyms

pingpong=$TS_BUILD/workloads/pingpong
if [ -x "$pingpong" ]; then
	work="$pingpong --pin cross --iterations 2000 --warmup 100"
else
	work="perf bench sched pipe -l 2000"
fi
diag "workload: $work"

f=$ORACLE_TMP/live.data
# shellcheck disable=SC2086
perf record -q -e "$events" -a -g -o "$f" -- $work >"$ORACLE_TMP/work.log" 2>&1
ok $? "perf record (file mode, -g) of: $work"
if [ -s "$f" ]; then
	oracle_check "live file" "$f" "$k"
	# Without --kallsyms both take the running kernel's: dump loads them on a thread of its
	# own and waits for it at the first %ps, which must print a name, not an address.
	oracle_check "live file, the running kernel's symbols" "$f"
	grep -q 'function=[A-Za-z_]' "$ORACLE_TMP/ts.txt"
	ok $? "live file, the running kernel's symbols: a %ps printed a function's name"
fi

p=$ORACLE_TMP/live-pipe.data
# shellcheck disable=SC2086
perf record -q -e "$events" -a -o - -- sh -c "exec $work >'$ORACLE_TMP/work-pipe.log' 2>&1" \
	>"$p" 2>"$ORACLE_TMP/record-pipe.err"
ok $? "perf record (pipe mode) of: $work"
if [ -s "$p" ]; then
	oracle_check "live pipe" "$p" "$k"
fi
rm -f "$f" "$p"

tap_done
