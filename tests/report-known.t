#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Known answers from the AF_UNIX ping-pong fixtures: pinned to two CPUs, cross-CPU wake
# classes hold >= 90% of the ping-pong tasks' wakeups; both pinned to one CPU, and free to
# move (it stays on one CPU here), same-CPU classes do; and cross-CPU wake delivery p50 is
# above same-CPU's. report-known-live.t records the two pinned runs live and holds their classes
# to perf script on each file (no p50 of one live run against another's: they move with the load).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP

for n in x86-pingpong-cross x86-pingpong-same x86-pingpong-none; do
	f=$(fixture_data "$n") || { ok 1 "$n: decompress"; continue; }
	"$TICKSCOPE" report -i "$f" --json >"$tmp/$n.json" 2>"$tmp/err"
	ok $? "$n: tickscope report --json"
done
c=$(share cross_cpu_idle,cross_cpu_busy "$tmp/x86-pingpong-cross.json")
ok $([ "$c" -ge 90 ] && echo 0 || echo 1) "pinned to two CPUs: cross-CPU classes hold $c% (>= 90%)"
s=$(share same_cpu_idle,same_cpu_busy "$tmp/x86-pingpong-same.json")
ok $([ "$s" -ge 90 ] && echo 0 || echo 1) "pinned to one CPU: same-CPU classes hold $s% (>= 90%)"
s=$(share same_cpu_idle,same_cpu_busy "$tmp/x86-pingpong-none.json")
ok $([ "$s" -ge 90 ] && echo 0 || echo 1) "free to move: same-CPU classes hold $s% (>= 90%)"
x=$(p50 cross_cpu_idle "$tmp/x86-pingpong-cross.json")
y=$(p50 same_cpu_busy "$tmp/x86-pingpong-same.json")
ok $([ "$x" -gt "$y" ] && echo 0 || echo 1) \
	"cross-CPU wake delivery p50 ($x ns) > same-CPU's ($y ns)"
tap_done
