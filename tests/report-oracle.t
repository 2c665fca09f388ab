#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The sched oracle: for every task with at least 10 switch-ins, tickscope report agrees with
# perf sched timehist on the same file, within 1 us per event: switch-ins (exact), total run
# time, total and longest sched delay (timehist rule: sched_delay_perf_ns, _longest_ns). A
# task that exited and disagrees is left out (and named) when perf booked slices to its
# placeholder thread
# ":-1[-1]": perf loses track of a thread after its EXIT record; the tracepoint's prev_pid,
# which we use, does not. Lost events: the report's count against perf report's "Total Lost
# Samples" on every file-mode fixture.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq is not installed (make deps installs it)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP
"$TICKSCOPE" report --help >"$tmp/help" 2>&1
ok $? "tickscope report --help runs"

# The rule and perf's side are fixtures.sh's oracle_timehist_check (live-shapes.t applies it
# too); it works in ORACLE_TMP.
ORACLE_TMP=$tmp

# lost NAME FILE: the report's lost events, in the JSON and the text's LOST line, against perf
# report's "Total Lost Samples"; the text's split by record type against perf report -D's sums
# of PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES ("total LOST LOST_SAMPLES").
lost() {
	_p=$(perf report -i "$2" --stdio --sort comm 2>/dev/null |
		sed -n 's/^# Total Lost Samples: *\([0-9][0-9]*\).*/\1/p')
	"$TICKSCOPE" report --json -i "$2" >"$tmp/lost.json" 2>/dev/null
	_t=$(jq '.trace.lost_events' "$tmp/lost.json" 2>/dev/null)
	_x=$(sed -n 's/^  LOST \([0-9][0-9]*\) events.*/\1/p' "$tmp/text" 2>/dev/null)
	[ -n "$_p" ] && [ "$_t" = "$_p" ] && { [ "$_p" -eq 0 ] || [ "$_x" = "$_p" ]; }
	ok $? "$1: the report's lost events (JSON $_t, text ${_x:-none}) equal perf report's\
 Total Lost Samples (${_p:-none})"
	[ "${_p:-0}" -gt 0 ] || return 0
	_d=$(oracle_perf_lost "$2" | sed -n 's/^total \([0-9]*\) \([0-9]*\)$/\1 \2/p')
	_r='^  LOST [0-9]* events (\([0-9]*\) in [0-9]* LOST records; \([0-9]*\) in .*'
	_y=$(sed -n "s/$_r/\\1 \\2/p" "$tmp/text")
	is "$_y" "$_d" "$1: the text's lost events in LOST and LOST_SAMPLES records are perf report -D's"
}

# x86-tiny-twice: sched:sched_switch given twice, each hit written twice (counted once);
# x86-tiny-group: a leader-sampled group whose member, sched:sched_wakeup, is never sampled.
for n in x86-ramfs-callchain x86-ramfs-pipe x86-pingpong-cross x86-pingpong-none x86-lost \
	x86-tiny-twice x86-tiny-group; do
	if ! f=$(fixture_data "$n"); then
		ok 1 "$n: fixture decompresses"
		continue
	fi
	# x86-lost: below, on the tasks no gap of lost events touched (every one with 10 switch-ins
	# had a slice in a gap)
	[ "$n" = x86-lost ] || oracle_timehist_check "$n" "$f"
	oracle_is_pipe "$f" && continue # perf report cannot read pipe-mode files (perf 6.1)
	"$TICKSCOPE" report -i "$f" >"$tmp/text" 2>/dev/null
	lost "$n" "$f"
done
if f=$(fixture_data x86-tiny-group); then
	"$TICKSCOPE" report -i "$f" >"$tmp/group.txt" 2>"$tmp/group.err"
	grep -q 'sched_wakeup (not recorded)' "$tmp/group.txt" &&
		grep -q 'attr 1 (sched:sched_wakeup) is not sampled' "$tmp/group.err"
	ok $? "x86-tiny-group: the report has the unsampled member as not recorded, and says why"
fi
# x86-lost: -m 1, 198 LOST records; the tasks no gap touched, whatever their switch-ins
if f=$(fixture_data x86-lost); then
	oracle_timehist_lost_check x86-lost "$f"
else
	ok 1 "x86-lost: fixture decompresses"
fi
for n in a64-6.1-generic-stress-ramfs.data a64-6.1-generic-perf-bench-pipe.data; do
	if f=$(shared_fixture "$n"); then
		oracle_timehist_check "$n" "$f"
	else
		ok 1 "$n: fixture present in tests/fixtures/aarch64"
	fi
done
tap_done
