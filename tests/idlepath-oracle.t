#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The idle path section against perf script on real recordings (docs/metrics.md, "idlepath"):
# per CPU, idle-entry times (sched_switch to pid 0 -> the next power:cpu_idle enter) and
# idle-exit times (cpu_idle exit -> sched_switch away from pid 0, unless another enter comes
# first), counted and summed in ns by an awk reading of `perf script --ns`, exactly; the
# switches to pid 0 followed by the switch away with no cpu_idle enter between (unentered) and
# the IPIs (ipi:ipi_entry, irq_vectors:*_entry of reschedule and call_function*) arriving in
# that window; and the tick_stop successes. The aarch64 recording is an emulated board's 6.1 (qemu, TCG), the x86
# one this project's live ping-pong.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq is not installed (make deps installs it)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP

# perf's side: "cpu entries entry_ns exits exit_ns unentered ipi_entering" per CPU, then
# "tick_stop N".
perf_side() {
	perf script -i "$1" --ns -F cpu,time,event,trace 2>/dev/null | awk '
	function ns(t) { split(t, p, "."); return p[1] * 1000000000 + p[2] }
	{
		cpu = $1; gsub(/[][]/, "", cpu); cpu += 0; t = ns($2); sub(/:$/, "", t)
		ev = $3; sub(/:$/, "", ev)
	}
	ev == "sched:sched_switch" {
		prev = ""; next_ = ""
		for (i = 4; i <= NF; i++) {
			if ($i ~ /^prev_pid=/) prev = substr($i, 10)
			if ($i ~ /^next_pid=/) next_ = substr($i, 10)
		}
		if (prev == 0 && wx[cpu]) { nx[cpu]++; sx[cpu] += t - tx[cpu] }
		if (prev == 0 && we[cpu]) un[cpu]++
		if (prev == 0) wx[cpu] = 0
		we[cpu] = (next_ == 0); te[cpu] = t; seen[cpu] = 1
	}
	ev == "power:cpu_idle" {
		st = $4; sub(/^state=/, "", st); seen[cpu] = 1
		if (st == 4294967295) { wx[cpu] = 1; tx[cpu] = t; next }
		if (we[cpu]) { ne[cpu]++; se[cpu] += t - te[cpu] }
		we[cpu] = 0; wx[cpu] = 0
	}
	ev == "timer:tick_stop" && $4 == "success=1" { ts++ }
	ev == "ipi:ipi_entry" || ev ~ /:(reschedule|call_function|call_function_single)_entry$/ {
		if (we[cpu]) ie[cpu]++
	}
	END {
		for (c in seen)
			if (ne[c] || nx[c])
				printf "%d %d %d %d %d %d %d\n", c, ne[c], se[c], nx[c], sx[c],
					un[c], ie[c]
		printf "tick_stop %d\n", ts
	}' | sort -n
}

ours() {
	"$TICKSCOPE" report "$1" --json 2>/dev/null | jq -r '.sections.idlepath |
		(.cpus[] | select(.entry.count > 0 or .exit.count > 0) |
			"\(.cpu) \(.entry.count) \(.entry.sum_ns // 0)" +
			" \(.exit.count) \(.exit.sum_ns // 0) \(.unentered) \(.ipi_entering)"),
		"tick_stop \(.tick_stops)"' | sort -n
}

check() {
	perf_side "$2" >"$tmp/perf.$1"
	ours "$2" >"$tmp/ours.$1"
	cmp -s "$tmp/perf.$1" "$tmp/ours.$1"
	r=$?
	what="idle-entry and idle-exit counts and ns sums, unentered switches, IPIs while entering"
	ok $r "$1: $what, per CPU, tick_stop, as perf script"
	[ $r = 0 ] || diff "$tmp/perf.$1" "$tmp/ours.$1" | sed 's/^/# /'
	n=$(awk '$1 != "tick_stop" { n += $2 } END { print n + 0 }' "$tmp/perf.$1")
	u=$(awk '$1 != "tick_stop" { n += $6 } END { print n + 0 }' "$tmp/perf.$1")
	[ "$n" -gt 100 ] && [ "$u" -gt 0 ]
	ok $? "$1: the oracle saw idle entries ($n) and unentered switches ($u) to compare"
}

a64=$(shared_fixture a64-6.1-generic-stress-ramfs.data) || skip_all "no aarch64 fixture"
check aarch64-ramfs "$a64"
check x86-pingpong-cross "$(fixture_data x86-pingpong-cross)"
tap_done
