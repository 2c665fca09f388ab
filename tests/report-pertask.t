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
	# and the tasks perf script never shows switched out: their slices were not recorded (a
	# per-task recording has a task's switch-out only when it follows it), not 0.000 ms
	awk '/tasks by run time/ { t = 1; next } t && /^  all tasks:/ { exit }
		t && $2 ~ /^[0-9]+$/ { print $2 }' "$tmp/text" | sort >"$tmp/text.all"
	cut -d' ' -f1 "$tmp/perf" | sort >"$tmp/perf.out"
	comm -23 "$tmp/text.all" "$tmp/perf.out" >"$tmp/perf.never"
	jq -s . "$tmp/perf.never" >"$tmp/perf.never.json"
	sort -u "$tmp/perf.broken" "$tmp/perf.never" >"$tmp/perf.dash"
	cmp -s "$tmp/text.dash" "$tmp/perf.dash"
	ok $? "$n: the text's run ms and schdly ms are - for exactly those tasks and the $(wc -l \
<"$tmp/perf.never") never switched out"
	[ -s "$tmp/perf.never" ]
	ok $? "$n: ... some tasks were never switched out (sleep, kworkers, ...)"
	is "$(grep -c 'run and sched delay: - for the [0-9]* tasks\{0,1\} listed never switched out: a per-task' \
		"$tmp/text")" 1 "$n: ... with the reason, once"
	is "$(jq --slurpfile never "$tmp/perf.never.json" '[.sections.sched.tasks[] |
		select(.tid as $t | $never[0] | index($t)) |
		select(.run != null or .sched_delay_perf_ns != null or (.run_null_reason | type) !=
		"string")] | length' "$tmp/r.json" 2>&1)" 0 \
		"$n: JSON: run and sched delay null with run_null_reason for the never switched out"
	# the wakers: the recording has the wakes of the followed tasks' contexts only
	is "$(grep -c '^  woken by: - (a per-task recording has a task.s wakes only' "$tmp/text") \
$(grep -c 'woken by, per task' "$tmp/text")" "1 0" "$n: text: woken by -, with the reason, no per-task list"
	is "$(jq '[.sections.sched.woken_by, .sections.sched.tasks[].woken_by] | unique' \
		-c "$tmp/r.json")" '[null]' "$n: JSON: woken_by null, the section's and every task's"
	is "$(grep -c 'a per-task recording has no switch that put these tasks' "$tmp/text")" 2 \
		"$n: the text gives the reason for the tasks and for the whole-trace rows"
	rm -rf "$tmp/tsv"
	"$TICKSCOPE" report -i "$f" --tsv "$tmp/tsv" 2>>"$tmp/err"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["run_sum_ns"] == "-" && $c["sched_delay_perf_ns"] == "-" { print $c["tid"] }' \
		"$tmp/tsv/sched_tasks.tsv" | sort >"$tmp/tsv.dash"
	awk -F'\t' 'NR > 1 { print $1 }' "$tmp/tsv/sched_tasks.tsv" | sort |
		comm -23 - "$tmp/perf.out" | sort -u - "$tmp/perf.broken" >"$tmp/tsv.want"
	cmp -s "$tmp/tsv.dash" "$tmp/tsv.want"
	ok $? "$n: sched_tasks.tsv has - in run and sched delay for exactly those tasks and those" \
		"never switched out"
	is "$(grep -c '^run	' "$tmp/tsv/sched_hist.tsv")" 0 "$n: no run rows in sched_hist.tsv"
	is "$(wc -l <"$tmp/tsv/sched_woken_by.tsv")" 1 "$n: sched_woken_by.tsv: the header only"
}

# metrics NAME PER_TASK(1/0): the summary (what compare reads) agrees with the report: in a
# per-task recording run and sched delay are null when broken slices are (the report's rule),
# and wakes and off-CPU times are null for every task, with the reasons; per perf script, the
# followed tasks (those switched out) are switched in fewer times than they are switched out
# (their switch-in is in another task's context): the periods off the CPU are not all seen.
metrics() {
	n=$1
	f=$(fixture_data "$n") || { ok 1 "$n: fixture decompresses"; return; }
	rm -rf "$tmp/run"
	mkdir -p "$tmp/run"
	ln -s "$f" "$tmp/run/perf.data"
	echo 'AF_UNIX sock stream latency: 17.5 microseconds' >"$tmp/run/workload.out"
	"$TICKSCOPE" summary "$tmp/run" >/dev/null 2>>"$tmp/err"
	ok $? "$n: tickscope summary"
	awk -F'\t' '$1 == "m" { print $2 "\t" $6 "\t" $7 }' "$tmp/run/perf.data.tsum" >"$tmp/m"
	"$TICKSCOPE" report -i "$f" --json >"$tmp/r.json" 2>>"$tmp/err"
	broken=$(jq '.sections.sched.totals.broken_slices' "$tmp/r.json")
	perf script -i "$f" -F event,trace 2>/dev/null | awk '
		/sched_switch:/ {
			p = $0; sub(/.* prev_pid=/, "", p); sub(/ .*/, "", p)
			n = $0; sub(/.* next_pid=/, "", n); sub(/ .*/, "", n)
			out[p]++; into[n]++
		}
		END { for (t in out) if (t > 0) { o += out[t]; i += into[t] }; print o + 0, i + 0 }' \
		>"$tmp/inout"
	read -r outs ins <"$tmp/inout"
	if [ "$2" = 1 ]; then
		[ "$ins" -lt "$outs" ]
		ok $? "$n: perf script: the switched-out tasks are switched in $ins times, out $outs"
		want_run=$([ "$broken" -gt 0 ] && echo nan || echo num)
		want=nan
	else
		want_run=num
		want=num
	fi
	# with no callchain (none of these has -g), or off-CPU not measured: null with its reason
	# (it said only "not measured")
	why=$([ "$2" = 1 ] && echo "a per-task recording has a task's switch-in only" ||
		echo "no switch-out callchains (record with perf record -g)")
	awk -F'\t' -v w="$why" '$1 == "sched.offcpu_stacks.count" { found = 1
			bad = $2 != "nan" || index($3, w) != 1 }
		END { exit !found || bad }' "$tmp/m"
	ok $? "$n: summary sched.offcpu_stacks.count is null, with its reason ($why)"
	for k in sched.run.count:$want_run sched.delay.sum:$want_run \
		sched.delay_perf.sum:$want_run sched.off_cpu.S.sum:$want sched.wakeups.per_s:$want \
		sched.wake_delivery.count:$want sched.wakeup_latency.p50:$want; do
		name=${k%:*}
		awk -F'\t' -v k="$name" -v w="${k#*:}" '
			$1 == k { found = 1
				bad = (w == "nan" && ($2 != "nan" || $3 == "")) || (w == "num" && $2 == "nan") }
			END { exit !found || bad }' "$tmp/m"
		ok $? "$n: summary $name is $([ "${k#*:}" = nan ] && echo 'null, with a reason' ||
			echo 'a number')"
	done
	[ "$2" = 1 ] || return 0
	is "$(jq '[.sections.sched.tasks[] | select(.wakeups != null or .off_cpu_S != null or
		.wake_delivery != null)] | length' "$tmp/r.json")" 0 \
		"$n: JSON: no task has wakes or off-CPU figures"
	is "$(jq '(.sections.sched.wakes_null_reason | type) + " " +
		(.sections.sched.off_cpu_null_reason | type) + " " +
		(.sections.sched.totals.off_cpu_S | type)' "$tmp/r.json")" '"string string null"' \
		"$n: JSON: the section says why, the totals are null"
	rm -rf "$tmp/tsv"
	"$TICKSCOPE" report -i "$f" --tsv "$tmp/tsv" 2>>"$tmp/err"
	is "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["wakeups"] != "-" || $c["wake_delivery_count"] != "-" || $c["off_cpu_S_sum_ns"] != "-"' \
		"$tmp/tsv/sched_tasks.tsv" | wc -l)" 0 "$n: TSV: wakes and off-CPU are - for every task"
	# the tasks whose run is not measured come first, by switch-outs (perf script's count)
	first=$(perf_slices "$f" | awk '$3 > 0' | sort -k2,2nr -k1,1n | head -1 | cut -d' ' -f1)
	"$TICKSCOPE" report -i "$f" >"$tmp/text" 2>>"$tmp/err"
	is "$(awk '/tasks by run time/ { getline; getline; print $2; exit }' "$tmp/text")" \
		"$first" "$n: the text lists first the task with most switch-outs among the unmeasured"
	is "$(grep -c -e '^  off-CPU: -: a per-task recording' \
		-e '^  wakes and wakeup latency: -: a per-task' "$tmp/text")" 2 \
		"$n: the text says why wakes and off-CPU are -"
}

check x86-pertask-loop 1
check x86-tiny 1
check x86-pingpong-none 0
metrics x86-pertask-loop 1
metrics x86-tiny 1
metrics x86-pingpong-none 0
# compare's figures of the benchmark's own tasks in a per-task recording: stress-ng-ramfs
# (1461) is seen only in the followed shell's events, never switched out (perf script has no
# prev_pid=1461): task.run.per_op summed its run as 0. It and the sched delays are null with
# the reason, and so are the wakes and off-CPU times the recording does not hold.
if f=$(fixture_data x86-pertask-loop); then
	rm -rf "$tmp/ng"
	mkdir -p "$tmp/ng"
	ln -s "$f" "$tmp/ng/perf.data"
	cp "$TS_TOP/tests/fixtures/bench/stress-ng-0.15-ramfs.out" "$tmp/ng/workload.out"
	"$TICKSCOPE" summary "$tmp/ng" >/dev/null 2>>"$tmp/err"
	awk -F'\t' '$1 == "m" { print $2 "\t" $6 "\t" $7 }' "$tmp/ng/perf.data.tsum" >"$tmp/ngm"
	is "$(perf script -i "$f" -F event,trace 2>/dev/null | grep -c 'prev_pid=1461 ')" 0 \
		"perf script: stress-ng-ramfs (1461) is never switched out"
	for k in "task.run.per_op:a per-task recording has a task's switch-out only when it is" \
		"task.sched_delay_rq.per_op:a per-task recording has a task's switch-out only" \
		"task.off_cpu.S.per_op:a per-task recording has a task's switch-in only" \
		"task.wakeups.per_op:a per-task recording has a task's wakes only" \
		"task.other_cpu.share:a per-task recording has the other tasks' run time only"; do
		awk -F'\t' -v k="${k%%:*}" -v w="${k#*:}" '$1 == k { found = 1
				bad = $2 != "nan" || index($3, w) != 1 }
			END { exit !found || bad }' "$tmp/ngm"
		ok $? "compare's ${k%%:*} is null with its reason, not a sum of 0"
	done
	# it was 87.7% for sh: the others' run time is only what the followed tasks' switches show
	is "$(grep -c '^task\.other_cpu\..*\.share' "$tmp/ngm")" 0 \
		"compare: no task.other_cpu.<class>.share in a per-task recording"
else
	ok 1 "x86-pertask-loop decompresses"
fi
tap_done
