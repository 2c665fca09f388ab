#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The "woken by" oracle: on every committed recording with sched_waking, tickscope report's
# wakes per task and waker class (sched_woken_by.tsv) equal perf's own count of sched_waking
# by wakee and waker (tests/oracle/woken_by.py, a perf script -s over the samples'
# common_pid, common_flags and comms); compare's task.woken_by.<class>.share of the
# benchmark's tasks equal the same counts, run by run.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq is not installed (make deps installs it)"
perf version --build-options 2>/dev/null | grep -q 'libpython: \[ on' ||
	skip_all "this perf has no Python scripting (perf script -s)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP
py=$TS_TOP/tests/oracle/woken_by.py

# perf's side: "tid class wakes" sorted, and the wakee's comm in $tmp/perf.comm
perf_wakers() {
	perf script -i "$1" -s "$py" 2>"$tmp/perf.err" >"$tmp/perf.raw" || return 1
	awk '{ print $1, $2, $3 }' "$tmp/perf.raw" | sort
}

# ours: the same from sched_woken_by.tsv, work functions summed into their class
our_wakers() {
	rm -rf "$tmp/tsv"
	"$TICKSCOPE" report -i "$1" --tsv "$tmp/tsv" >/dev/null 2>"$tmp/err" || return 1
	awk -F'\t' 'NR > 1 && $5 > 0 { n[$1 " " $3] += $5 }
		END { for (k in n) print k, n[k] }' "$tmp/tsv/sched_woken_by.tsv" | sort
}

check() { # NAME FILE
	if ! perf_wakers "$2" >"$tmp/perf"; then
		ok 1 "$1: perf script -s woken_by.py"
		sed 's/^/# /' "$tmp/perf.err" | head -5
		return
	fi
	if [ ! -s "$tmp/perf" ]; then
		skip "$1: wakers agree" "perf 6.1 reads no sample of a pipe-mode file here"
		return
	fi
	our_wakers "$2" >"$tmp/ours" || { ok 1 "$1: tickscope report --tsv" && return; }
	diff "$tmp/perf" "$tmp/ours" >"$tmp/diff"
	ok $? "$1: wakes by task and waker class equal perf's ($(wc -l <"$tmp/perf") task-class pairs, $(awk '{ s += $3 } END { print s }' "$tmp/perf") wakes)"
	sed 's/^/# /' "$tmp/diff" | head -10
}

n=0
for name in $(fixture_names); do
	case $name in
	*-pipe) continue ;; # perf script -s reads nothing from these (perf 6.1)
	esac
	grep -q 'sched:sched_waking' "$TS_FIXTURES/$name.meta" || continue
	check "$name" "$(fixture_data "$name")"
	n=$((n + 1))
done
a64=$(shared_fixture a64-6.1-generic-stress-ramfs.data) && check a64-6.1-generic-stress-ramfs "$a64"

# The contexts are read: wakes from hard interrupts and softirqs exist, and go to those classes
# rather than to the task they landed on.
data=$(fixture_data x86-ramfs-callchain)
perf_wakers "$data" >"$tmp/perf"
ok "$(awk '$2 == "hardirq" { h += $3 } $2 == "softirq" { s += $3 }
	END { print !(h > 100 && s > 10) }' "$tmp/perf")" \
	"x86-ramfs-callchain: perf counts wakes from hardirq and softirq contexts too"
our_wakers "$data" >"$tmp/ours"
ok "$(awk '$2 == "hardirq" { h += $3 } END { print !(h > 100) }' "$tmp/ours")" \
	"x86-ramfs-callchain: so do we"

# compare: the benchmark's tasks (pingpong, pingpong-echo) as one class, per run.
ab=$TS_TOP/tests/fixtures/boards/x86-host/ab
for v in pingpong-same pingpong-cross; do
	for r in 1 2; do
		mkdir -p "$tmp/cmp/$v/run-$r"
		cp "$ab/$v/run-$r"/* "$tmp/cmp/$v/run-$r/"
		rm -f "$tmp/cmp/$v/run-$r"/*.tsum "$tmp/cmp/$v/run-$r"/*.tplot
	done
done
"$TICKSCOPE" compare "$tmp/cmp/pingpong-same" "$tmp/cmp/pingpong-cross" --json \
	>"$tmp/cmp.json" 2>"$tmp/err"
ok $? "compare pingpong-same pingpong-cross (2 runs each)"
for v in pingpong-same pingpong-cross; do
	for r in 1 2; do
		xz -dc "$tmp/cmp/$v/run-$r/perf.data.xz" >"$tmp/run.data"
		perf_wakers "$tmp/run.data" >/dev/null
		# the benchmark's tasks' wakes by class, theirs folded into "pingpong", in %
		want=$(awk '$4 == "pingpong" || $4 ~ /^pingpong-/ {
			k = ($2 == "pingpong" || $2 ~ /^pingpong-/) ? "pingpong" : $2
			n[k] += $3; all += $3 }
			END { for (k in n) printf "%s %.6g\n", k, 100 * n[k] / all }' \
			"$tmp/perf.raw" | sort)
		got=$(jq -r --arg v "$v" --argjson r $((r - 1)) '.metrics[]
			| select(.name | test("^task\\.woken_by\\.[^.]+\\.share$"))
			| [.name, (.variants[] | select(.variant == $v) | .values[$r])]
			| select(.[1] > 0) | "\(.[0] | sub("^task\\.woken_by\\."; "")
				| sub("\\.share$"; "")) \(.[1])"' "$tmp/cmp.json" |
			awk '{ printf "%s %.6g\n", $1, $2 }' | sort)
		is "$got" "$want" "$v run-$r: compare's task.woken_by shares are perf's counts"
	done
done
ok "$([ "$n" -ge 4 ] && echo 0 || echo 1)" "$n committed x86 fixtures checked"
tap_done
