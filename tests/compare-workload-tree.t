#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# compare's benchmark is the recorded workload's process tree, not every task of its name:
# another ping-pong that ran beside it (another user's, on a shared machine) is not counted.
# The oracle is perf script on the same file: the sched_waking of the pids the recorder's
# command and its forks had (its FORK records) against task.wakeups.per_op times the
# operations in the summary. First on the committed x86-host run that holds such a foreign
# ping-pong, then recorded live here with one started before the recording and stopped
# after it (needs root, tracefs and perf; without them those tests skip with the reason).
. "$(dirname "$0")/lib/tap.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf): it is the oracle"
command -v jq >/dev/null || skip_all "jq not installed: it reads compare's JSON"
PINGPONG=$TS_BUILD/workloads/pingpong
tap_tmpdir

# tree_pids DATA ROOT: the pids of ROOT's process tree (ROOT and every task descended from it
# by the FORK records perf script shows), one a line, into $TAP_TMP/tree.
tree_pids() {
	perf script -i "$1" --show-task-events -F tid,event 2>/dev/null |
		sed -n 's/.*PERF_RECORD_FORK(\([0-9]*\):\([0-9]*\)):(\([0-9]*\):\([0-9]*\)).*/\2 \4/p' |
		awk -v root="$2" '
		{ kid[n] = $1; par[n++] = $2 }
		END {
			tree[root] = 1
			do { grown = 0
				for (i = 0; i < n; i++)
					if ((par[i] in tree) && !(kid[i] in tree)) { tree[kid[i]] = 1; grown = 1 }
			} while (grown)
			for (p in tree) print p
		}' >"$TAP_TMP/tree"
}

# tree_wakes DATA ROOT: "TREE OTHER", the sched_waking of the tasks named pingpong or
# pingpong-* (in any of their wakes: the workload's first is still perf-exec's) that are in
# ROOT's tree (tree_pids), and of the others.
tree_wakes() {
	tree_pids "$1" "$2"
	perf script -i "$1" -F event,trace 2>/dev/null |
		sed -n 's/.*sched_waking: comm=\(.*\) pid=\([0-9]*\) prio=.*/\1 \2/p' >"$TAP_TMP/wakes"
	awk 'FNR == NR { tree[$1] = 1; next }
		{ w[$2]++; if ($1 == "pingpong" || $1 ~ /^pingpong-/) pp[$2] = 1 }
		END {
			for (p in pp) if (p in tree) t += w[p]; else o += w[p]
			printf "%d %d\n", t, o
		}' "$TAP_TMP/tree" "$TAP_TMP/wakes"
}

# own_wakes DATA ROOT: "OWN FOREIGN", the sched_waking of the tree's tasks named pingpong or
# pingpong-* (as tree_wakes) by a task of that name in the tree, and by one outside it (the
# waker is the event's tid and comm: sched_waking fires in its context).
own_wakes() {
	tree_pids "$1" "$2"
	perf script -i "$1" -F comm,tid,event,trace 2>/dev/null |
		sed -n 's/^ *\(.*[^ ]\) \{1,\}\([0-9]\{1,\}\) \{1,\}sched:sched_waking: comm=\(.*\) pid=\([0-9]*\) prio=.*/\2 \4 \1 \3/p' \
		>"$TAP_TMP/wakes"
	awk 'function bench(c) { return c == "pingpong" || c ~ /^pingpong-/ }
		FNR == NR { tree[$1] = 1; next }
		!($2 in tree) || !bench($4) || !bench($3) { next }
		{ if ($1 in tree) own++; else foreign++ }
		END { printf "%d %d\n", own, foreign }' "$TAP_TMP/tree" "$TAP_TMP/wakes"
}

# summary_wakers RUN CLASS: the wakes of the benchmark's tasks by waker class CLASS
# (task.woken_by.CLASS.share of task.woken_by.wakes), 0 when the class has none.
summary_wakers() {
	awk -F '\t' -v cls="$2" '
		$2 == "task.woken_by.wakes" { all = $6 }
		$2 == "task.woken_by." cls ".share" { share = $6 }
		END { printf "%.0f\n", all * share / 100 }' "$1"/perf.data*.tsum
}

# summary_wakes RUN: task.wakeups.per_op times the operations, from RUN's summary.
summary_wakes() {
	awk -F '\t' 'NR == 1 { ops = $6 } $2 == "task.wakeups.per_op" { printf "%.0f\n", $6 * ops }' \
		"$1"/perf.data*.tsum
}

# The committed run: perf-cmd.txt's sh -c 'exec pingpong ...' is the pid that execs sh, then
# pingpong; pids 10785 and 10805 are another tickscope record's ping-pong, there before.
run=$TAP_TMP/fixture
cp -r "$TS_TOP/tests/fixtures/boards/x86-host/ab/pingpong-same/run-1" "$run"
xz -dc "$run/perf.data.xz" >"$TAP_TMP/fixture.data"
root=$(perf script -i "$TAP_TMP/fixture.data" --show-task-events -F tid,event 2>/dev/null |
	awk '/PERF_RECORD_COMM exec: sh:/ { sub(/\/.*/, "", $1); sh[$1] = 1 }
	     /PERF_RECORD_COMM exec: pingpong:/ { sub(/\/.*/, "", $1); if ($1 in sh) { print $1; exit } }')
set -- $(tree_wakes "$TAP_TMP/fixture.data" "$root")
ok $([ "${2:-0}" -gt 0 ] && echo 0 || echo 1) \
	"fixture: perf script shows the workload (pid $root) woken $1 times, another ping-pong $2"
"$TICKSCOPE" summary "$run" >/dev/null 2>"$TAP_TMP/err"
ok $? "fixture: tickscope summary" || diag "$(cat "$TAP_TMP/err")"
got=$(summary_wakes "$run")
ok $([ "$got" = "$1" ] && echo 0 || echo 1) \
	"fixture: the benchmark's wakeups are the workload tree's ($got, perf script $1; with the other's: $(($1 + $2)))"
set -- $(own_wakes "$TAP_TMP/fixture.data" "$root")
got=$(summary_wakers "$run" pingpong)
ok $([ "${1:-0}" -gt 0 ] && [ "$got" = "$1" ] && echo 0 || echo 1) \
	"fixture: woken by the benchmark itself: the tree's own wakes ($got, perf script $1)"

live() {
	[ "$(id -u)" = 0 ] || { echo "needs root to record tracepoints system-wide"; return; }
	[ -r /sys/kernel/tracing/available_events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		{ echo "tracefs is not mounted and cannot be mounted"; return; }
	[ -x "$PINGPONG" ] || echo "$PINGPONG not built (make workloads)"
}
why=$(live)
if [ -n "$why" ]; then
	for t in "live: another ping-pong runs before the recording" "live: recorded" \
		"live: it still ran after" "live: perf script sees both" "live: tickscope summary" \
		"live: the benchmark's wakeups are the workload tree's" \
		"live: woken by the benchmark itself: the tree's own wakes" \
		"feeder: recorded" "feeder: perf script sees the feeder wake the benchmark" \
		"feeder: tickscope summary" "feeder: woken by the benchmark itself: its tree's own wakes only" \
		"feeder: the feeder's wakes are other-pingpong's" \
		"feeder: compare says the tasks were taken by the tree" \
		"feeder: with --comm pingpong-feed, compare says it took the tasks by name, and why"; do
		skip "$t" "$why"
	done
	tap_done
	exit
fi

# Another ping-pong, started before the recording and running until after it: its echo
# forked (its pid in /proc's children of it) is the sign it runs.
# It would run for hours: stopped on the way out, whatever happens.
"$PINGPONG" --iterations 1000000000 --warmup 0 >"$TAP_TMP/foreign.out" 2>&1 &
fpid=$!
echo_pid=
trap 'kill -KILL $echo_pid $fpid 2>/dev/null; rm -rf "$TAP_TMP"' EXIT
while [ -z "$echo_pid" ] && kill -0 "$fpid" 2>/dev/null; do
	echo_pid=$(cat "/proc/$fpid/task/$fpid/children" 2>/dev/null | tr -d " ")
	[ -n "$echo_pid" ] && [ "$(cat "/proc/$echo_pid/comm" 2>/dev/null)" = pingpong-echo ] ||
		{ echo_pid=; sleep 0.05; }
done
ok $([ -n "$echo_pid" ] && echo 0 || echo 1) "live: another ping-pong runs before the recording ($fpid, $echo_pid)"

mkdir "$TAP_TMP/run"
events=sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_process_fork
perf record -q -e "$events" -a -o "$TAP_TMP/run/perf.data" -- \
	"$PINGPONG" --iterations 2000 --warmup 200 >"$TAP_TMP/run/workload.out" 2>&1 &
ppid=$!
wait $ppid
rc=$?
ok $([ $rc -eq 0 ] && grep -q 'latency: [0-9.]* microseconds$' "$TAP_TMP/run/workload.out" &&
	echo 0 || echo 1) "live: recorded (perf pid $ppid)" || diag "$(cat "$TAP_TMP/run/workload.out")"
kill -0 "$fpid" 2>/dev/null
ok $? "live: it still ran after"
kill -KILL "$echo_pid" "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
fpid= echo_pid=

# perf's own pid is the oracle's root: its command is its child, forked before the recording
set -- $(tree_wakes "$TAP_TMP/run/perf.data" "$ppid")
ok $([ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && echo 0 || echo 1) \
	"live: perf script sees both: the workload woken $1 times, the other ping-pong $2"
"$TICKSCOPE" summary --comm pingpong "$TAP_TMP/run" >/dev/null 2>"$TAP_TMP/err"
ok $? "live: tickscope summary" || diag "$(cat "$TAP_TMP/err")"
got=$(summary_wakes "$TAP_TMP/run")
ok $([ "$got" = "$1" ] && echo 0 || echo 1) \
	"live: the benchmark's wakeups are the workload tree's ($got, perf script $1; with the other's: $(($1 + $2)))"
set -- $(own_wakes "$TAP_TMP/run/perf.data" "$ppid")
got=$(summary_wakers "$TAP_TMP/run" pingpong)
ok $([ "${1:-0}" -gt 0 ] && [ "$got" = "$1" ] && echo 0 || echo 1) \
	"live: woken by the benchmark itself: the tree's own wakes ($got, perf script $1)"

# A task of the benchmark's name outside its tree that wakes it: pingpong-feed, started before
# the recording, answers each line the recorded pingpong writes into one FIFO on another (two
# sh scripts; a script's task is named after its file). Each answer wakes pingpong when it
# waits in read, 300 times at most; it prints its round trip as the ping-pong does.
mkfifo "$TAP_TMP/ask" "$TAP_TMP/answer"
cat >"$TAP_TMP/pingpong" <<'SH'
#!/bin/sh
exec 3>"$1" 4<"$2"
i=0
t0=$(date +%s%N)
while [ $i -lt 300 ]; do
	echo x >&3
	read -r r <&4
	i=$((i + 1))
done
t=$((($(date +%s%N) - t0) / 30))
echo "AF_UNIX sock stream latency: $((t / 10000)).$(printf %04d $((t % 10000))) microseconds"
SH
cat >"$TAP_TMP/pingpong-feed" <<'SH'
#!/bin/sh
exec 3<"$1" 4>"$2"
while read -r r <&3; do
	echo y >&4
done
SH
chmod +x "$TAP_TMP/pingpong" "$TAP_TMP/pingpong-feed"
"$TAP_TMP/pingpong-feed" "$TAP_TMP/ask" "$TAP_TMP/answer" &
fpid=$!
mkdir "$TAP_TMP/feed"
perf record -q -e "$events" -a -o "$TAP_TMP/feed/perf.data" -- \
	"$TAP_TMP/pingpong" "$TAP_TMP/ask" "$TAP_TMP/answer" >"$TAP_TMP/feed/workload.out" 2>&1 &
ppid=$!
wait $ppid
rc=$?
# the feeder ends at the FIFO's end of file; a recording that never opened it leaves it waiting
[ $rc -eq 0 ] || kill -KILL "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
fpid=
ok $rc "feeder: recorded (perf pid $ppid)" || diag "$(cat "$TAP_TMP/feed/workload.out")"
set -- $(own_wakes "$TAP_TMP/feed/perf.data" "$ppid")
ok $([ "${2:-0}" -gt 0 ] && echo 0 || echo 1) \
	"feeder: perf script sees the feeder wake the benchmark ($2 times; by itself $1)"
"$TICKSCOPE" summary --comm pingpong "$TAP_TMP/feed" >/dev/null 2>"$TAP_TMP/err"
ok $? "feeder: tickscope summary" || diag "$(cat "$TAP_TMP/err")"
got=$(summary_wakers "$TAP_TMP/feed" pingpong)
ok $([ "$got" = "$1" ] && echo 0 || echo 1) \
	"feeder: woken by the benchmark itself: its tree's own wakes only ($got, perf script $1)"
got=$(summary_wakers "$TAP_TMP/feed" other-pingpong)
ok $([ "$got" = "$2" ] && echo 0 || echo 1) \
	"feeder: the feeder's wakes are other-pingpong's ($got, perf script $2)"
# compare says which runs it took by name: none with --comm pingpong (the tree's), this one
# with --comm pingpong-feed (the feeder is outside the tree), in the text and the JSON
sel() {
	"$TICKSCOPE" compare --comm "$1" --json "$TAP_TMP/feed" -- "$TAP_TMP/feed" 2>/dev/null |
		jq -r '.variants[0].runs[0].facts.selection'
}
"$TICKSCOPE" compare --comm pingpong "$TAP_TMP/feed" -- "$TAP_TMP/feed" >"$TAP_TMP/cmp" 2>&1
ok $([ "$(sel pingpong)" = tree ] && ! grep -q "taken by name" "$TAP_TMP/cmp" && echo 0 ||
	echo 1) "feeder: compare says the tasks were taken by the tree" ||
	diag "$(sel pingpong)"
"$TICKSCOPE" compare --comm pingpong-feed "$TAP_TMP/feed" -- "$TAP_TMP/feed" >"$TAP_TMP/cmp" 2>&1
root=$(perf script -i "$TAP_TMP/feed/perf.data" --show-task-events -F tid,event 2>/dev/null |
	awk '/PERF_RECORD_COMM exec: pingpong:/ { sub(/\/.*/, "", $1); print $1; exit }')
why="the workload's process tree (pid $root) has no task named pingpong-feed"
ok $([ "$(sel pingpong-feed)" = "name: $why" ] &&
	grep -q "^  benchmark's tasks taken by name, not by the workload's process tree: A feed ($why); B feed ($why)\$" \
		"$TAP_TMP/cmp" && echo 0 || echo 1) \
	"feeder: with --comm pingpong-feed, compare says it took the tasks by name, and why" ||
	diag "$(sel pingpong-feed); $(grep "taken by name" "$TAP_TMP/cmp")"
tap_done
