#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kernel differences name kernel threads only: two variants recorded here with perf, the same
# ping-pong, and in the second a user program ("tsbusyprog", a copy of yes) running beside it.
# The program is a confounder with its CPU share, never a kernel difference; every class the
# kernel differences name and every sched.threads.<class>.count is made of kthreadd's children
# as `perf script --show-task-events` shows them (FORK records with parent 2): the oracle.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/kthreads.sh"
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || skip_all "no perf"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
[ "$(id -u)" = 0 ] || skip_all "needs root (system-wide recording)"
[ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ] ||
	skip_all "no tracefs"
pp=$TS_BUILD/workloads/pingpong
[ -x "$pp" ] && [ -x "$TICKSCOPE" ] ||
	{ echo "Bail out! $pp or $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
cp "$(command -v yes)" "$T/tsbusyprog"
ev=sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new

# rec VARIANT N BUSY: run N of VARIANT, system-wide, with tsbusyprog beside it when BUSY=1
rec() {
	mkdir -p "$T/$1"
	if [ "$3" = 1 ]; then
		set -- "$1" "$2" "\"$T/tsbusyprog\" >/dev/null & b=\$!; sleep 0.2;"
		set -- "$1" "$2" "$3" "; kill \$b"
	else
		set -- "$1" "$2" "sleep 0.2;" ""
	fi
	"$PERF" record -q -a -e "$ev" -o "$T/$1/r$2.data" -- sh -c \
		"$3 \"$pp\" --iterations 20000 --warmup 500 --pin none >\"$T/$1/r$2.out\"$4" \
		>/dev/null 2>"$T/$1/r$2.err"
}
fail=0
for n in 1 2 3; do
	rec alone $n 0 || fail=1
	rec busy $n 1 || fail=1
done
# root with tracefs, checked above: a recording that fails is a failure, not a skip (on CI a
# skip would hide it)
if [ $fail != 0 ]; then
	sed 's/^/# /' "$T"/*/r*.err
	ok 1 "recorded 3 runs a side with perf (perf record failed)"
	tap_done
	exit 1
fi
ok 0 "recorded 3 runs a side with perf"

args() { for n in 1 2 3; do printf -- '--bench %s %s ' "$T/$1/r$n.out" "$T/$1/r$n.data"; done; }
# shellcheck disable=SC2046
"$TICKSCOPE" compare --comm pingpong --names alone,busy $(args alone) -- $(args busy) \
	>"$T/c.txt" 2>"$T/err"
ok $? "compare the two"
# shellcheck disable=SC2046
"$TICKSCOPE" compare --json --comm pingpong --names alone,busy $(args alone) -- $(args busy) \
	>"$T/c.json" 2>/dev/null
ok $? "compare --json"
sed -n '/^Kernel differences/,/^$/p' "$T/c.txt" >"$T/kd"
sed -n '/^Confounders/,/^$/p' "$T/c.txt" >"$T/conf"
diag "$(cat "$T/kd" "$T/conf")"

! grep -q tsbusyprog "$T/kd"
ok $? "the user program is not a kernel difference"
want='! tsbusyprog, a program and not a kernel thread, ran beside the benchmark in every run'
grep -q "$want of busy ([0-9.]*% of the CPU time" "$T/conf"
ok $? "it is a confounder, with its CPU share"

# The oracle: per run, the kernel threads by class from perf script's FORK and COMM records.
for v in alone busy; do
	want=$(perf_kthreads "$T/$v/r1.data")
	got=$(jq -r --arg v "$v" '.metrics[] |
		select(.name | test("^sched\\.threads\\..+\\.count$")) |
		[.name, (.variants[] | select(.variant == $v) | .values[0])] |
		select(.[1] != null and .[1] > 0) |
		"\(.[0] | sub("^sched\\.threads\\."; "") | sub("\\.count$"; "")) \(.[1])"' \
		"$T/c.json" | sort)
	is "$got" "$want" "$v run 1: kernel threads by class are perf script's children of kthreadd"
done
is "$(jq '[.metrics[] | select(.name | startswith("sched.threads.tsbusyprog"))] | length' \
	"$T/c.json")" 0 "no sched.threads class for the user program"

# Every class the kernel differences name is a kernel thread class by the oracle.
bad=
for cls in $(sed -n 's/^  \* \([^ ]*\) \(threads existed\|tasks ran\) .*/\1/p' "$T/kd"); do
	found=0
	for f in "$T"/*/r*.data; do
		perf_kthreads "$f" | grep -q "^$cls " && found=1 && break
	done
	[ $found = 1 ] || bad="$bad $cls"
done
is "$bad" "" "every class among the kernel differences is kthreadd's children in perf script"

# tickscope record synthesizes a FORK record before each thread's COMM, as perf does: the same
# kernel threads.
"$TICKSCOPE" record -a -e sched:sched_switch -o "$T/ts.data" -- sleep 0.2 >/dev/null 2>&1
ok $? "tickscope record -a"
"$PERF" script -i "$T/ts.data" --show-task-events 2>/dev/null |
	grep -q 'PERF_RECORD_FORK(2:2):(0:0)'
ok $? "  its FORK records: perf script shows kthreadd's, parent 0"
"$TICKSCOPE" compare --json --comm sleep --bench "$T/alone/r1.out" "$T/ts.data" -- \
	--bench "$T/alone/r1.out" "$T/ts.data" >"$T/ts.json" 2>/dev/null
got=$(jq -r '.metrics[] | select(.name | test("^sched\\.threads\\..+\\.count$")) |
	[.name, .variants[0].values[0]] | select(.[1] != null and .[1] > 0) |
	"\(.[0] | sub("^sched\\.threads\\."; "") | sub("\\.count$"; "")) \(.[1])"' "$T/ts.json" |
	sort)
want=$(perf_kthreads "$T/ts.data")
[ -n "$want" ]
ok $? "  perf script finds kernel threads in it ($(printf '%s\n' "$want" | wc -l) classes)"
is "$got" "$want" "  compare's kernel threads by class are perf script's kthreadd children"
tap_done
