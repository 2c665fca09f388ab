#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# report's memory is flat in the number of tasks (issue 33, goal 3): the text report lists the
# top tasks, so a task that exits is folded into the totals and let go. Two recordings of
# scripts/bench-fork.c (N short-lived tasks, vfork and _exit), system-wide with the sched
# events, of 2,000 and 20,000 tasks: report's peak RSS (scripts/bench-time.c) may grow by at
# most 8 MB between them, about 450 bytes a task. Before the folding it grew by about 750 bytes
# a task (13.6 and 13.7 MB in two runs here); with it 0.8 and 4.5 MB (the names kept of exited
# tasks, the process tree and the source's thread names still grow). No time limit: memory
# only.
# Needs root, tracefs, perf and a C compiler; without them it skips with the reason.
. "$(dirname "$0")/lib/tap.sh"

tap_need_tracing sched:sched_process_exit
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler for scripts/bench-fork.c"

tap_tmpdir
T=$TAP_TMP
"${CC:-cc}" -O2 -o "$T/bench-fork" "$TS_TOP/scripts/bench-fork.c" &&
	"${CC:-cc}" -O2 -o "$T/bench-time" "$TS_TOP/scripts/bench-time.c"
ok $? "bench-fork.c and bench-time.c built"

EVENTS=sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new
EVENTS=$EVENTS,sched:sched_process_fork,sched:sched_process_exit
for n in 2000 20000; do
	# a large ring: on a loaded machine the default one lost 3,000 of 20,000 forks
	perf record -q -a -m 64M -e "$EVENTS" -o "$T/fork-$n.data" -- "$T/bench-fork" $n \
		>"$T/record-$n.log" 2>&1
	ok $? "perf record -a around $n short-lived tasks"
	# the known answer: at least n forks and n exits (other tasks' come on top), the recorded
	# ones and those perf counted lost (info's "N samples lost of EVENT", from LOST_SAMPLES)
	"$TICKSCOPE" info -i "$T/fork-$n.data" >"$T/info-$n"
	forks=$(awk '$2 == "sched:sched_process_fork" { print $1 }' "$T/info-$n")
	exits=$(awk '$2 == "sched:sched_process_exit" { print $1 }' "$T/info-$n")
	lf=$(awk '$3 == "lost" && $5 == "sched:sched_process_fork" { print $1 }' "$T/info-$n")
	le=$(awk '$3 == "lost" && $5 == "sched:sched_process_exit" { print $1 }' "$T/info-$n")
	[ $((${forks:-0} + ${lf:-0})) -ge $n ] && [ $((${exits:-0} + ${le:-0})) -ge $n ]
	ok $? "fork-$n.data: $forks forks, $exits exits, ${lf:-0} and ${le:-0} lost (at least $n each)"
	"$T/bench-time" -o "$T/time-$n" "$TICKSCOPE" report -i "$T/fork-$n.data" \
		>"$T/report-$n" 2>"$T/report-$n.err"
	ok $? "report of fork-$n.data"
done
small=$(cut -d' ' -f1 "$T/time-2000")
big=$(cut -d' ' -f1 "$T/time-20000")
diag "report peak RSS: $small KB at 2,000 tasks, $big KB at 20,000"
[ $((big - small)) -le 8192 ]
ok $? "peak RSS grows by at most 8 MB from 2,000 to 20,000 tasks ($small -> $big KB)"

tap_done
