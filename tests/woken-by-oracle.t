#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The "woken by" oracle: on every committed recording with sched_waking, tickscope report's
# wakes per task and waker class (sched_woken_by.tsv) equal perf's own count of sched_waking
# by wakee and waker (tests/oracle/woken_by.py, a perf script -s over the samples'
# common_pid, common_flags and comms); compare's task.woken_by.<class>.share of the
# benchmark's tasks equal the same counts, run by run, and its sched.threads.<class>.count
# kthreadd's children in perf's FORK and COMM records (tests/lib/kthreads.sh). On a real 6.1
# stress-ng ramfs recording with -g, where the workers wait and who ends it
# (task.offcpu_stack.*) and the work items that wake tasks equal perf's
# (tests/oracle/wait_ends.py).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"
. "$TS_TOP/tests/lib/kthreads.sh"

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
	# a per-task recording (no -a) has the wakes of the followed tasks' contexts only: the
	# wakers are not measured, and the table has no row (tests/report-pertask.t)
	if [ "$3" = per-task ]; then
		is "$(wc -l <"$tmp/ours") $(wc -l <"$tmp/tsv/sched_woken_by.tsv")" "0 1" \
			"$1: a per-task recording: no woken-by row (perf counts $(wc -l <"$tmp/perf") task-class pairs of the followed tasks' wakes)"
		return
	fi
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
	kind=all-cpus
	grep -q '^command: perf record .* -a ' "$TS_FIXTURES/$name.meta" || kind=per-task
	check "$name" "$(fixture_data "$name")" $kind
	n=$((n + 1))
done
a64=$(shared_fixture a64-6.1-generic-stress-ramfs.data) && check a64-6.1-generic-stress-ramfs "$a64"
a64g=$(shared_fixture a64-6.1-generic-stress-ramfs-g.data) &&
	check a64-6.1-generic-stress-ramfs-g "$a64g"

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
		# the benchmark's workers' wakes by class, theirs folded into "pingpong", in %: its
		# tasks but the supervisors, the parents of another that ran under a third of the
		# most run time (as compare; no callchains here). Parents from perf's FORK records,
		# "(pid:tid):(ppid:ptid)", those it synthesized for the tasks already there included
		perf script -i "$tmp/run.data" --show-task-events 2>/dev/null |
			sed -n 's/.*PERF_RECORD_FORK([0-9]*:\([0-9]*\)):([0-9]*:\([0-9]*\)).*/\1 \2/p' \
			>"$tmp/forks"
		# and of the recorded workload's tree alone (compare.md): the pid perf-cmd.txt's
		# sh -c 'exec pingpong ...' execs sh then pingpong with, and its descendants (run-1
		# of pingpong-same also holds another tickscope record's ping-pong, 10785 and 10805)
		root=$(perf script -i "$tmp/run.data" --show-task-events -F tid,event 2>/dev/null |
			awk '/PERF_RECORD_COMM exec: sh:/ { sub(/\/.*/, "", $1); sh[$1] = 1 }
			     /PERF_RECORD_COMM exec: pingpong:/ { sub(/\/.*/, "", $1)
				if ($1 in sh) { print $1; exit } }')
		want=$(awk -v root="$root" 'function ours(c) { return c == "pingpong" || c ~ /^pingpong-/ }
			function tree(t, i) { for (i = 0; i < 64 && t != ""; i++) {
				if (t == root) return 1; t = parent[t] } return 0 }
			FILENAME != ARGV[2] { parent[$1] = $2; next }
			ours($4) && tree($1) { if ($5 > mr) mr = $5; if ($1 in parent) par[parent[$1]] = 1 }
			{ l[++nl] = $0 }
			END { for (i = 1; i <= nl; i++) { split(l[i], f, " ")
				if (!ours(f[4]) || !tree(f[1]) || ((f[1] in par) && f[5] * 3 < mr))
					continue
				k = ours(f[2]) ? "pingpong" : f[2]
				n[k] += f[3]; all += f[3] }
			for (k in n) printf "%s %.6g\n", k, 100 * n[k] / all }' \
			"$tmp/forks" "$tmp/perf.raw" | sort)
		got=$(jq -r --arg v "$v" --argjson r $((r - 1)) '.metrics[]
			| select(.name | test("^task\\.woken_by\\.[^.]+\\.share$"))
			| [.name, (.variants[] | select(.variant == $v) | .values[$r])]
			| select(.[1] > 0) | "\(.[0] | sub("^task\\.woken_by\\."; "")
				| sub("\\.share$"; "")) \(.[1])"' "$tmp/cmp.json" |
			awk '{ printf "%s %.6g\n", $1, $2 }' | sort)
		is "$got" "$want" "$v run-$r: compare's task.woken_by shares are perf's counts"
		# the kernel threads: kthreadd's children by perf's FORK records, by class
		want=$(perf_kthreads "$tmp/run.data")
		got=$(jq -r --arg v "$v" --argjson r $((r - 1)) '.metrics[]
			| select(.name | test("^sched\\.threads\\..+\\.count$"))
			| [.name, (.variants[] | select(.variant == $v) | .values[$r])]
			| select(.[1] > 0) | "\(.[0] | sub("^sched\\.threads\\."; "")
				| sub("\\.count$"; "")) \(.[1])"' "$tmp/cmp.json" | sort)
		is "$got" "$want" "$v run-$r: sched.threads counts are perf's kthreadd children"
	done
done

# Where the workers wait and who ends it, on Debian 6.1's stress-ng ramfs with -g (830 bogo
# ops; tests/fixtures/aarch64/README.md): the 5 heaviest waits and their ends, and the work
# items that wake tasks.
ksym=$(shared_fixture a64-6.1-generic-ramfs-g.kallsyms)
if [ -n "$a64g" ] && [ -n "$ksym" ]; then
	perf script -i "$a64g" --kallsyms "$ksym" -s "$TS_TOP/tests/oracle/wait_ends.py" \
		stress-ng-ramfs "$ksym" >"$tmp/ends" 2>"$tmp/perf.err"
	ok $? "perf script -s wait_ends.py on the 6.1 ramfs recording"
	for v in a b; do # a run folder: compare names the stacks through its kallsyms
		mkdir -p "$tmp/g/$v/run-1"
		ln -s "$a64g" "$tmp/g/$v/run-1/perf.data"
		ln -s "$ksym" "$tmp/g/$v/run-1/kallsyms"
		cp "$TS_TOP/tests/fixtures/aarch64/a64-6.1-generic-stress-ramfs-g.log" \
			"$tmp/g/$v/run-1/workload.out"
	done
	TMPDIR=$tmp "$TICKSCOPE" compare --comm stress-ng-ramfs --no-cache --json "$tmp/g/a" \
		"$tmp/g/b" >"$tmp/g.json" 2>"$tmp/err"
	ok $? "compare of the 6.1 ramfs recording with itself"
	# the supervisors: stress-ng-ramfs tasks that forked another (perf's sched_process_fork)
	# and ran under a third of the busiest, or slept mostly in do_wait (perf's callchains)
	nsup=$(awk -F'\t' '$1 == "supervisors" { print $2 }' "$tmp/ends")
	is "$(jq -r '.metrics[] | select(.name == "task.supervisors.count") | .variants[0].values[0]' \
		"$tmp/g.json")" "$nsup" "the benchmark's supervisors are perf's ($nsup)"
	# perf's heaviest 5 waits in ns per op (830 bogo ops)
	awk -F'\t' '$1 == "wait" { print $4, $2 "." $3 }' "$tmp/ends" | sort -rn | head -5 |
		awk '{ printf "task.offcpu_stack.%s.per_op %.6g\n", $2, $1 / 830 }' |
		sort >"$tmp/top"
	got=$(jq -r '.metrics[] | select(.name | test("^task\\.offcpu_stack\\..*\\.per_op$"))
		| "\(.variants[0].values[0]) \(.name)"' "$tmp/g.json" | sort -rn | head -5 |
		awk '{ printf "%s %.6g\n", $2, $1 }' | sort)
	is "$got" "$(cat "$tmp/top")" "the workers' 5 heaviest waits (stack, state) per op are perf's"
	# every wait is listed here (floor 0), as many as perf sees
	is "$(jq -r '[.metrics[] | select(.name | test("^task\\.offcpu_stack\\..*\\.per_op$"))
		| select(.variants[0].values[0] != null)] | length' "$tmp/g.json") $(jq -r \
		'.metrics[] | select(.name == "task.offcpu_stacks.floor.per_op") | .variants[0].values[0]' \
		"$tmp/g.json")" "$(awk -F'\t' '$1 == "wait"' "$tmp/ends" | wc -l) 0" \
		"the workers' waits: all of perf's (stack, state) pairs listed, floor 0"
	# who ended the S and D ones, as shares of their periods
	want=$(awk -F'\t' 'NR == FNR { split($0, w, " "); top[w[1]] = 1; next }
		$1 == "end" && ($3 == "S" || $3 == "D") &&
		("task.offcpu_stack." $2 "." $3 ".per_op" in top) {
			n[$2 "." $3 " " $4] = $5; all[$2 "." $3] += $5 }
		END { for (k in n) { split(k, p, " ")
			printf "task.offcpu_stack.%s.woken_by.%s.share %.6g\n", p[1], p[2],
				100 * n[k] / all[p[1]] } }' "$tmp/top" "$tmp/ends" | sort)
	got=$(jq -r '.metrics[] | select(.name | test("^task\\.offcpu_stack\\..*\\.woken_by\\."))
		| "\(.name) \(.variants[0].values[0])"' "$tmp/g.json" |
		awk '{ printf "%s %.6g\n", $1, $2 }' | sort)
	is "$got" "$want" "who ended those waits (shares of the S and D periods) is perf's"
	printf '%s\n' "$got" | grep -q 'path_umount\.D\.woken_by\.kworker\.share 100$'
	ok $? "the workers' grace-period wait is ended by a kworker, every time (6.1)"
	# every wake from inside a work item, by work function: the report's against perf's
	want=$(awk -F'\t' '$1 == "work" { print $2, $3 }' "$tmp/ends" | sort)
	got=$("$TICKSCOPE" report -i "$a64g" --kallsyms "$ksym" --json 2>/dev/null |
		jq -r '.sections.sched.woken_by[].works[] | "\(.function) \(.wakes)"' |
		awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' | sort)
	is "$got" "$want" "wakes from inside work items, by work function, are perf's"
	w=$(printf '%s\n' "$got" | awk '$1 == "wait_rcu_exp_gp" { print $2 }')
	ok "$([ "${w:-0}" -gt 100 ] && echo 0 || echo 1)" \
		"6.1's expedited grace periods wake from the wait_rcu_exp_gp work item (${w:-0} wakes)"
else
	for i in 1 2 3 4 5 6 7 8; do skip "no aarch64 ramfs -g fixture"; done
fi
ok "$([ "$n" -ge 4 ] && echo 0 || echo 1)" "$n committed x86 fixtures checked"
tap_done
