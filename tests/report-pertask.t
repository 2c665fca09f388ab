#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Broken slices against perf script's own view of them: per CPU, a sched_switch ends a slice
# whose start the recording saw when the CPU's previous sched_switch put that task on it, and
# a broken one when it put another task there. Per task, the report's broken_slices equal that
# count; in a per-task recording (x86-pertask-loop: perf record --per-thread -p PID of a shell
# loop; x86-tiny: perf record -- CMD) a task with broken slices has run and sched delay null
# in the JSON and "-" in the text and TSV, the reason said once, and a task without keeps its
# numbers (its run count is perf script's count of whole slices). A -a recording keeps perf
# timehist's figures (x86-pingpong-none: counts checked, run measured).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP

# perf script's view: "tid switches broken whole" per task that switched out.
perf_slices() {
	perf script -i "$1" -F cpu,event,trace 2>/dev/null | awk '
		/sched:sched_switch:/ {
			cpu = $1; gsub(/[^0-9]/, "", cpu)
			p = $0; sub(/.* prev_pid=/, "", p); sub(/ .*/, "", p)
			n = $0; sub(/.* next_pid=/, "", n); sub(/ .*/, "", n)
			if (p > 0) {
				sw[p]++
				if (cpu in curr) {
					if (curr[cpu] == p)
						whole[p]++
					else
						broken[p]++
				}
			}
			curr[cpu] = n
		}
		END { for (t in sw) printf "%s %d %d %d\n", t, sw[t], broken[t], whole[t] }' |
		sort
}

# check NAME PER_TASK(1/0)
check() {
	n=$1
	f=$(fixture_data "$n") || { ok 1 "$n: fixture decompresses"; return; }
	perf_slices "$f" >"$tmp/perf"
	[ -s "$tmp/perf" ]
	ok $? "$n: perf script shows sched_switch events ($(wc -l <"$tmp/perf") tasks switched out)"
	"$TICKSCOPE" report -i "$f" --json >"$tmp/r.json" 2>"$tmp/err"
	ok $? "$n: report --json"
	jq -r '.sections.sched.tasks[] | select(.switches > 0) |
		"\(.tid) \(.switches) \(.broken_slices) \(.run.count // "null")"' "$tmp/r.json" |
		sort >"$tmp/ours"
	# the same tasks, switch-outs and broken slices
	cut -d' ' -f1-3 "$tmp/perf" >"$tmp/perf.3"
	cut -d' ' -f1-3 "$tmp/ours" >"$tmp/ours.3"
	cmp -s "$tmp/perf.3" "$tmp/ours.3"
	rc=$?
	ok $rc "$n: broken slices per task equal perf script's ($(awk '{ s += $3 } END { print s + 0 }' \
"$tmp/perf.3") of $(awk '{ s += $2 } END { print s + 0 }' "$tmp/perf.3") switch-outs)"
	[ $rc -eq 0 ] || diff "$tmp/perf.3" "$tmp/ours.3" | sed 's/^/# /' | head -20
	is "$(jq '.sections.sched.totals.broken_slices' "$tmp/r.json")" \
		"$(awk '{ s += $3 } END { print s + 0 }' "$tmp/perf")" "$n: totals' broken_slices"
	# run: null exactly for tasks with broken slices (per-task), else every slice counted
	join "$tmp/perf" "$tmp/ours" | awk -v pt="$2" '
		{
			want = (pt && $3 > 0) ? "null" : $3 + $4
			if ($7 != want) { bad++; printf "# tid %s: run count %s, want %s\n", $1, $7, want }
		}
		END { exit bad > 0 }'
	ok $? "$n: run is null for the tasks with broken slices only$([ "$2" = 1 ] || echo ' (none: -a)')"
	[ "$2" = 1 ] || return 0
	nb=$(awk '$3 > 0' "$tmp/perf" | wc -l)
	is "$(jq '[.sections.sched.tasks[] | select(.broken_slices > 0) |
		select(.sched_delay == null and .sched_delay_perf_ns == null)] | length' "$tmp/r.json")" \
		"$nb" "$n: sched delay null for those $nb tasks too"
	is "$(jq '.sections.sched.totals.run == null and (.sections.sched.run_null_reason | type)
		== "string"' "$tmp/r.json")" true "$n: whole-trace run null, with the reason"
	"$TICKSCOPE" report -i "$f" --top 1000 >"$tmp/text" 2>>"$tmp/err"
	awk '/tasks by run time/ { t = 1; next } t && /^  all tasks:/ { exit }
		t && $2 ~ /^[0-9]+$/ && $6 == "-" && $7 == "-" { print $2 }' "$tmp/text" |
		sort >"$tmp/text.dash"
	awk '$3 > 0 { print $1 }' "$tmp/perf" | sort >"$tmp/perf.broken"
	cmp -s "$tmp/text.dash" "$tmp/perf.broken"
	ok $? "$n: the text's run ms and schdly ms are - for exactly those tasks"
	is "$(grep -c 'a per-task recording has no switch that put these tasks' "$tmp/text")" 2 \
		"$n: the text gives the reason for the tasks and for the whole-trace rows"
	rm -rf "$tmp/tsv"
	"$TICKSCOPE" report -i "$f" --tsv "$tmp/tsv" 2>>"$tmp/err"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["run_sum_ns"] == "-" && $c["sched_delay_perf_ns"] == "-" { print $c["tid"] }' \
		"$tmp/tsv/sched_tasks.tsv" | sort >"$tmp/tsv.dash"
	cmp -s "$tmp/tsv.dash" "$tmp/perf.broken"
	ok $? "$n: sched_tasks.tsv has - in run and sched delay for exactly those tasks"
	is "$(grep -c '^run	' "$tmp/tsv/sched_hist.tsv")" 0 "$n: no run rows in sched_hist.tsv"
}

check x86-pertask-loop 1
check x86-tiny 1
check x86-pingpong-none 0
tap_done
