#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# perf's own sample filters reach the dlfilter plugin: `perf script --dlfilter tickscope.so`
# with --time, -C/--cpu, --pid, --tid or --comms gives the JSON of `tickscope report` with the
# equivalent filter (docs/plugin.md), on an x86 and an aarch64 fixture; the filtered window and
# tasks are checked against perf script's own output with the same option; options the plugin
# cannot honour are refused by name.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

PLUGIN=$TS_BUILD/tickscope.so
tap_sanitized_perf
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
[ -f "$PLUGIN" ] || { echo "Bail out! $PLUGIN not built"; exit 1; }
tap_tmpdir
T=$TAP_TMP

# A task's newest name may come only from a COMM record, which a dlfilter never sees; when a
# filter drops that task's later sched events the two reports can name it differently, and so
# class its wakes differently (woken_by, ended_by: by the waker's name). Unfiltered, the two
# agree on those too (tests/plugin.t).
NORM='del(.trace.lost_events, .trace.lost_records) |
	.sections |= with_entries(.value |= del(.lost_events, .lost_records)) |
	walk(if type == "object" then del(.comm, .woken_by, .ended_by) else . end)'

# same LABEL FILE KALLSYMS "PERF OPTIONS" "TICKSCOPE OPTIONS"
same() {
	# shellcheck disable=SC2086 # the option strings are word lists
	perf script -i "$2" --dlfilter "$PLUGIN" --dlarg json --dlarg "kallsyms=$3" $4 \
		>"$T/plugin.json" 2>"$T/plugin.err"
	_rc=$?
	# shellcheck disable=SC2086
	"$TICKSCOPE" report --json -i "$2" --kallsyms "$3" $5 >"$T/cli.json" 2>"$T/cli.err"
	_rc2=$?
	jq -S "$NORM" "$T/plugin.json" >"$T/p.n" 2>&1
	jq -S "$NORM" "$T/cli.json" >"$T/c.n" 2>&1
	if [ $_rc -eq 0 ] && [ $_rc2 -eq 0 ] && [ -s "$T/c.n" ] && cmp -s "$T/p.n" "$T/c.n"; then
		ok 0 "$1: perf script $4 --dlfilter equals tickscope report $5"
	else
		ok 1 "$1: perf script $4 --dlfilter equals tickscope report $5 (exits $_rc, $_rc2)"
		diff "$T/c.n" "$T/p.n" | head -10 | sed 's/^/#   /'
		head -3 "$T/plugin.err" | sed 's/^/#   /'
	fi
}

# perf_times FILE KALLSYMS OPTS: first and last sample time perf script prints, in ns
perf_times() {
	# shellcheck disable=SC2086
	perf script -i "$1" --kallsyms "$2" -F time --ns $3 2>/dev/null |
		tr -d ' :.' | sed -n '1p;$p' | sed 's/^0*//' | tr '\n' ' '
}

# refused WORD PERF-OPTION...: the plugin refuses them in start(), naming WORD
refused() {
	_w=$1
	shift
	perf script -i "$F" --dlfilter "$PLUGIN" "$@" >/dev/null 2>"$T/refused.err"
	_rc=$?
	[ $_rc -eq 2 ] && grep -qF -e "$_w" "$T/refused.err" &&
		grep -q '^tickscope.so: ' "$T/refused.err"
	ok $? "perf script $* is refused by tickscope.so, naming $_w (exit $_rc, a usage error: 2)"
	[ $_rc -ne 0 ] || head -3 "$T/refused.err" | sed 's/^/#   /'
}

filters() {
	_n=$1
	F=$2
	K=$3
	"$TICKSCOPE" report --json -i "$F" --kallsyms "$K" >"$T/all.json" 2>/dev/null
	_first=$(jq '.trace.first_ns' "$T/all.json")
	_last=$(jq '.trace.last_ns' "$T/all.json")
	# a window over the second quarter of the trace, in perf's seconds
	_a=$(echo "$_first $_last" | awk '{ printf "%.6f", ($1 + ($2 - $1) / 4) / 1e9 }')
	_b=$(echo "$_first $_last" | awk '{ printf "%.6f", ($1 + ($2 - $1) / 2) / 1e9 }')
	# the two busiest tasks but the idle task, and the busiest one's comm
	_t1=$(jq '[.sections.sched.tasks[] | select(.tid != 0)][0].tid' "$T/all.json")
	_t2=$(jq '[.sections.sched.tasks[] | select(.tid != 0)][1].tid' "$T/all.json")
	_comm=$(jq -r '[.sections.sched.tasks[] | select(.tid != 0)][0].comm' "$T/all.json")

	same "$_n" "$F" "$K" "--time $_a,$_b" "--time $_a,$_b"
	is "$(jq -r '"\(.trace.first_ns) \(.trace.last_ns) "' "$T/plugin.json")" \
		"$(perf_times "$F" "$K" "--time $_a,$_b")" \
		"$_n: with --time the plugin's first and last event are perf script's"
	same "$_n" "$F" "$K" "--time $_a," "--time $_a,"
	same "$_n" "$F" "$K" "--time=,$_b" "--time ,$_b"
	same "$_n" "$F" "$K" "-C 1" "--cpu 1"
	is "$(jq -c '[.sections.sched.cpus[].cpu]' "$T/plugin.json")" "[1]" \
		"$_n: with -C 1 the plugin's per-CPU table has CPU 1 only"
	same "$_n" "$F" "$K" "--cpu=0" "--cpu 0"
	same "$_n" "$F" "$K" "-fC1" "--cpu 1"
	same "$_n" "$F" "$K" "--tim=$_a,$_b" "--time $_a,$_b"
	same "$_n" "$F" "$K" "--tid $_t1,$_t2" "--pid $_t1,$_t2"
	is "$(jq -c '[.sections.sched.tasks[] | .tid] | sort' "$T/plugin.json")" \
		"$(echo "$_t1 $_t2" | jq -sc sort)" "$_n: with --tid the plugin lists those tasks only"
	same "$_n" "$F" "$K" "--pid $_t1" "--pid $_t1"
	same "$_n" "$F" "$K" "--comms $_comm" "--comm $_comm"
	same "$_n" "$F" "$K" "-c $_comm" "--comm $_comm"
	is "$(jq -r '[.sections.sched.tasks[].comm] | unique | join(",")' "$T/plugin.json")" \
		"$_comm" "$_n: with -c $_comm the plugin lists tasks named $_comm only"
	# every filter did filter: the unfiltered report is different
	jq -S "$NORM" "$T/all.json" >"$T/all.n"
	! cmp -s "$T/all.n" "$T/p.n"
	ok $? "$_n: the filtered report differs from the unfiltered one"
}

f=$(fixture_data x86-pingpong-cross) || { echo "Bail out! fixture x86-pingpong-cross"; exit 1; }
k=$(fixture_kallsyms x86-pingpong-cross) || { echo "Bail out! its kallsyms"; exit 1; }
filters x86-pingpong-cross "$f" "$k"

d=$TS_FIXTURES/boards/qemu-aarch64/generic/stress-ramfs/run-1
f=$(unxz_cached "$d/perf.data.xz" "$TS_FIXTURE_CACHE/board-a64-generic-stress-ramfs-1.data") &&
	k=$(unxz_cached "$d/kallsyms.xz" "$TS_FIXTURE_CACHE/board-a64-generic-stress-ramfs-1.kallsyms")
ok $? "board fixture qemu-aarch64/generic/stress-ramfs/run-1 decompresses"
filters a64-stress-ramfs "$f" "$k"

# perf's --pid names a process; the plugin takes it as a thread id, as tickscope report does,
# and says how many samples of the process's other threads the per-task figures leave out.
f=$(fixture_data x86-pingpong-cross)
k=$(fixture_kallsyms x86-pingpong-cross)
mt=$(perf script -i "$f" -F pid,tid 2>/dev/null | awk '{ split($1, a, "/") }
	a[1] != a[2] && a[2] > 0 { print a[1]; exit }')
if [ -n "$mt" ]; then
	same x86-pingpong-cross "$f" "$k" "--pid $mt" "--pid $mt"
	grep -q "^tickscope.so: --pid is taken as thread ids, .* samples of other threads" \
		"$T/plugin.err"
	ok $? "--pid $mt (a process with other threads): stderr says what the report leaves out"
	[ $? -eq 0 ] || sed 's/^/#   /' "$T/plugin.err"
else
	ok 1 "x86-pingpong-cross has a process with several threads (for --pid)"
fi

F=$(fixture_data x86-tiny)
refused "--time '10%/1'" --time 10%/1
refused "--time '0.1,0.2 0.3,0.4'" --time "0.1,0.2 0.3,0.4"
refused "--symbols" -S schedule
refused "--dsos" --dsos "[kernel.kallsyms]"
refused "--pid, --tid" --pid 1 --tid 1
refused "--comms 'a,b'" --comms a,b

tap_done
