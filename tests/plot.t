#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tickscope plot on real fixtures: every chart is drawn by gnuplot with no warning, PNGs have
# the scripts' sizes, SVGs parse (xmllint), the data agree with the JSON report, charts whose
# events were not recorded say what to record, plots.sh and the scripts in plots/ redraw them
# by hand, and the timeline's rows agree with the trace (tickscope dump, held equal to perf
# script by dump-oracle.t).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"
. "$TS_TOP/tests/lib/plots.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v gnuplot >/dev/null || skip_all "gnuplot not installed (plots/packages: gnuplot-nox)"
command -v xmllint >/dev/null || skip_all "xmllint not installed (plots/packages: libxml2-utils)"
command -v jq >/dev/null || skip_all "jq not installed (tests/packages)"
tap_tmpdir
tmp=$TAP_TMP

# --- One run with sched, idle, IPIs and timers: the cross-CPU ping-pong ---------------------
n=x86-pingpong-cross
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
k=$(fixture_kallsyms $n)
"$TICKSCOPE" plot "$f" --kallsyms "$k" --comm pingpong -o "$tmp/p" >"$tmp/out" 2>"$tmp/err"
ok $? "$n: tickscope plot exits 0"
is "$(cat "$tmp/err")" "" "$n: nothing on stderr (gnuplot printed no warning)"
grep -q "charts (PNG and SVG) in $tmp/p/" "$tmp/out"
ok $? "$n: says where the charts are"
check_charts "$tmp/p" $n
for c in latency-cdf wake-delivery-by-class wakeup-latency-by-class idle-exits idle-residency \
	timers; do
	is "$(chart_status "$tmp/p" $c)" drawn "$n: $c drawn"
done
is "$(awk -F'\t' '$1 == "offcpu-stacks" { print $3 ": " $5 }' "$tmp/p/charts.tsv")" \
	"missing: record sched:sched_switch with callchains (perf record -g)" \
	"$n: no callchains: the off-CPU chart says to record with -g"
is "$(awk -F'\t' '$1 == "rcu-gp-cdf" { print $5 }' "$tmp/p/charts.tsv")" \
	"record rcu:rcu_grace_period (needs CONFIG_RCU_TRACE)" \
	"$n: no grace periods: says which event to record, and what the kernel needs for it"
ls "$tmp/p"/offcpu-stacks.* >/dev/null 2>&1
ok $((!$?)) "$n: a missing chart has no files, not an empty frame"

# The data against the JSON report of the same selection.
"$TICKSCOPE" report "$f" --kallsyms "$k" --comm pingpong --json >"$tmp/r.json" 2>/dev/null
for d in wake_delivery wakeup_latency sched_delay; do
	case $d in
	wake_delivery) s="wake delivery" ;;
	wakeup_latency) s="wakeup latency" ;;
	sched_delay) s="sched delay (run queue)" ;;
	esac
	is "$(awk -F'\t' -v s="$s" '$1 == s { print $2 " " $3 }' "$tmp/p/latency-cdf-marks.tsv")" \
		"$(jq -r ".sections.sched.totals.$d | \"\(.p50_ns) \(.p99_ns)\"" "$tmp/r.json")" \
		"$n: $s p50 and p99 as in the JSON"
done
is "$(head -1 "$tmp/p/latency-cdf.tsv" | cut -f2)" \
	"wake delivery (N=$(jq .sections.sched.totals.wake_delivery.count "$tmp/r.json"))" \
	"$n: the legend carries N"
# The CDF at every bucket's upper bound is the JSON buckets' running sum over the count.
jq -r '.sections.sched.totals.wake_delivery as $d | $d.buckets[] | "\(.[0]) \(.[1]) \($d.count)"' \
	"$tmp/r.json" >"$tmp/buckets"
bad=$(awk -F'\t' 'NR == FNR { split($0, b, " "); cnt[b[1]] = b[2]; total = b[3]; next }
	FNR > 1 { up[FNR] = $1; v[FNR] = $2; last = FNR }
	END {
		# bucket index -> upper bound, as hist.h lays buckets out
		for (i in cnt) { i += 0; if (i < 16) { lo = i; w = 1 } else { g = int(i / 16);
			w = 2 ^ (g - 1); lo = 2 ^ (g + 3) + (i % 16) * w }; ub[lo + w] = cnt[i] }
		run = 0; bad = 0
		for (r = 2; r <= last; r++) { run += ub[up[r]]; if ((run / total - v[r])^2 > 1e-10) bad++ }
		print bad + (v[last] != 1)
	}' "$tmp/buckets" "$tmp/p/latency-cdf.tsv")
is "$bad" 0 "$n: wake delivery CDF = running sum of the JSON buckets, ending at 1"
dur=$(jq '.trace.duration_ns / 1e9' "$tmp/r.json")
is "$(awk -F'\t' 'NR == 1 { for (i = 2; i <= NF; i++) col[$i] = i }
	$1 == "cpu0" { printf "%.0f %.0f", $col["hrtimer"], $col["ipi"] }' "$tmp/p/idle-exits.tsv")" \
	"$(jq -r --argjson d "$dur" '.sections.idle.cpus[] | select(.cpu == 0) | .exits |
		"\(.hrtimer / $d | round) \(.ipi / $d | round)"' "$tmp/r.json")" \
	"$n: idle exits per second on cpu0 (hrtimer, ipi) as in the JSON"
is "$(awk -F'\t' 'NR == 2 { printf "%s %.2f", $1, $2 }' "$tmp/p/timers.tsv")" \
	"$(jq -r --argjson d "$dur" '[.sections.timer.functions[]] | max_by(.expiries) |
		"\(.type): \(.function) \(.expiries / $d * 100 | round / 100)"' "$tmp/r.json" |
		awk '{ printf "%s %s %.2f", $1, $2, $3 }')" \
	"$n: the top timer and its expiries per second as in the JSON"

# Redrawn by hand: plots.sh, and the repository's scripts on the same data.
rm -f "$tmp/p"/*.png "$tmp/p"/*.svg
sh "$tmp/p/plots.sh" 2>"$tmp/err"
ok $? "$n: plots.sh redraws"
is "$(cat "$tmp/err")" "" "$n: plots.sh: no warning"
check_charts "$tmp/p" "$n (plots.sh)"
(cd "$tmp/p" && gnuplot -e "data='latency-cdf.tsv'; marks='latency-cdf-marks.tsv'; out='hand'" \
	"$TS_TOP/plots/latency-cdf.gp") 2>"$tmp/err"
ok $? "$n: plots/latency-cdf.gp by hand"
is "$(cat "$tmp/err")$(png_size "$tmp/p/hand.png")" "960x600" "$n: by hand: no warning, 960x600"
for s in "$TS_TOP"/plots/*.gp; do
	cmp -s "$s" "$tmp/p/$(basename "$s")" || diag "differs: $(basename "$s")"
done
ok "$(for s in "$TS_TOP"/plots/*.gp; do cmp -s "$s" "$tmp/p/$(basename "$s")" || echo x; done |
	wc -l)" "$n: the scripts written next to the charts are plots/*.gp"

# --- Callchains, work items and shrinkers: stress-ng ramfs on x86 ---------------------------
n=x86-ramfs-callchain
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
k=$(fixture_kallsyms $n)
"$TICKSCOPE" plot "$f" --kallsyms "$k" -o "$tmp/r" >/dev/null 2>"$tmp/err"
ok $? "$n: tickscope plot exits 0"
is "$(cat "$tmp/err")" "" "$n: no warning"
check_charts "$tmp/r" $n
is "$(chart_status "$tmp/r" offcpu-stacks)" drawn "$n: off-CPU stacks drawn"
"$TICKSCOPE" report "$f" --kallsyms "$k" --json >"$tmp/rr.json" 2>/dev/null
top_json=$(jq -r '[.sections.sched.offcpu_stacks[]] | max_by(.total_ns) | .total_ns' "$tmp/rr.json")
top_tsv=$(awk -F'\t' 'NR == 2 { s = 0; for (i = 2; i <= NF; i++) if ($i != "-") s += $i;
	printf "%.0f", s * 1e6 }' "$tmp/r/offcpu-stacks.tsv")
ok "$(awk -v a="$top_json" -v b="$top_tsv" 'BEGIN { d = a - b; if (d < 0) d = -d
	print (d > a * 1e-5 ? 1 : 0) }')" \
	"$n: the top stack's off-CPU time is the JSON's ($top_json ns)"

# --- The aarch64 board under qemu: no workqueue or shrinker events recorded -----------------
a=$TS_FIXTURES/boards/qemu-aarch64/generic/stress-ramfs/run-1
if [ -f "$a/perf.data.xz" ]; then
	af=$(unxz_cached "$a/perf.data.xz" "$TS_FIXTURE_CACHE/a64-stress-ramfs.data")
	ak=$(unxz_cached "$a/kallsyms.xz" "$TS_FIXTURE_CACHE/a64-stress-ramfs.kallsyms")
	"$TICKSCOPE" plot "$af" --kallsyms "$ak" -o "$tmp/a" >/dev/null 2>"$tmp/err"
	ok $? "aarch64 stress-ramfs: tickscope plot exits 0"
	is "$(cat "$tmp/err")" "" "aarch64: no warning"
	check_charts "$tmp/a" aarch64
	is "$(awk -F'\t' '$1 == "rcu-gp-cdf" { print $5 }' "$tmp/a/charts.tsv")" \
		"record rcu:rcu_grace_period (needs CONFIG_RCU_TRACE)" \
		"aarch64: no RCU_TRACE: the grace-period chart says so"
else
	diag "no aarch64 board fixture: its checks are not run"
fi

# --- The timeline of 600 µs of the ping-pong, against the trace -----------------------------
n=x86-pingpong-cross
f=$(fixture_data $n)
k=$(fixture_kallsyms $n)
s=533.703000000
e=533.703600000
"$TICKSCOPE" plot timeline "$f" --kallsyms "$k" --time $s,$e -o "$tmp/t" >/dev/null 2>"$tmp/err"
ok $? "$n: plot timeline exits 0"
is "$(cat "$tmp/err")" "" "$n: timeline: no warning"
check_charts "$tmp/t" "$n timeline"
# without -o, a run's charts and then a timeline of it: the timeline's plots.sh and charts.tsv
# replaced the run's in tickscope-plots/, which then redrew the timeline alone
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$TICKSCOPE" plot "$f" --kallsyms "$k" >/dev/null 2>&1 &&
	"$TICKSCOPE" plot timeline "$f" --kallsyms "$k" --time $s,$e >/dev/null 2>&1)
ok $? "$n: plot, then plot timeline, without -o"
is "$(cut -f1 "$tmp/cwd/tickscope-timeline/charts.tsv" | sed 1d | tr '\n' ' ')" "timeline " \
	"$n: the timeline has a folder of its own, tickscope-timeline/"
grep -q 'latency-cdf' "$tmp/cwd/tickscope-plots/plots.sh" &&
	! grep -q timeline "$tmp/cwd/tickscope-plots/plots.sh" "$tmp/cwd/tickscope-plots/charts.tsv"
ok $? "$n: and the run's plots.sh and charts.tsv in tickscope-plots/ are still the run's"
"$TICKSCOPE" dump --format=tsv "$f" 2>/dev/null |
	awk -F'\t' -v s=533703000000 -v e=533703600000 '$1 >= s && $1 <= e' >"$tmp/win"
is "$(awk -F'\t' '$1 == "run" && $3 > 0 { n++ } END { print n + 0 }' "$tmp/t/timeline.tsv")" \
	"$(awk -F'\t' '$5 == "sched:sched_switch" && $6 !~ /next_pid=0 / { n++ } END { print n + 0 }' \
		"$tmp/win")" "$n: a run bar starts at each switch to a task in the window"
is "$(awk -F'\t' '$1 == "idle" && $3 > 0 { n++ } END { print n + 0 }' "$tmp/t/timeline.tsv")" \
	"$(awk -F'\t' '$5 == "power:cpu_idle" && $6 !~ /state=4294967295/ { n++ } END { print n + 0 }' \
		"$tmp/win")" "$n: an idle bar starts at each cpu_idle enter in the window"
is "$(awk -F'\t' '$1 ~ /^tick_stop/ { n++ } END { print n + 0 }' "$tmp/t/timeline.tsv")" \
	"$(awk -F'\t' '$5 == "timer:tick_stop" { n++ } END { print n + 0 }' "$tmp/win")" \
	"$n: one mark per tick_stop in the window"
is "$(awk -F'\t' '$1 == "wake" && $2 != $5 { n++ } END { print n + 0 }' "$tmp/t/timeline.tsv")" \
	"$(awk -F'\t' '$5 == "sched:sched_waking" { split($6, f, "target_cpu=");
		if (f[2] + 0 != $2) n++ } END { print n + 0 }' "$tmp/win")" \
	"$n: one arrow per cross-CPU sched_waking in the window"
is "$(awk -F'\t' '$1 == "ipi" { n++ } END { print n + 0 }' "$tmp/t/timeline.tsv")" \
	"$(awk -F'\t' '$5 ~ /^irq_vectors:.*_entry$/ { n++ } END { print n + 0 }' "$tmp/win")" \
	"$n: one mark per IPI arriving in the window"

"$TICKSCOPE" plot timeline "$f" --time $s --cpu 1 -o "$tmp/t1" >/dev/null 2>"$tmp/err"
ok $? "$n: timeline of START alone (2 ms) on cpu1"
is "$(tail -n +2 "$tmp/t1/timeline.tsv" | awk -F'\t' '$2 != 1' | wc -l | tr -d ' ')" 0 \
	"$n: --cpu 1: only cpu1's lane"
is "$(awk -F'\t' 'NR > 1 { if ($4 > m) m = $4 } END { print m }' "$tmp/t1/timeline.tsv")" "2000.000" \
	"$n: the window runs 2 ms from START"

# --- Bad input: one line, non-zero exit ------------------------------------------------------
"$TICKSCOPE" plot timeline "$f" -o "$tmp/x" >/dev/null 2>"$tmp/err"
ok $((! $?)) "timeline without --time fails"
is "$(wc -l <"$tmp/err" | tr -d ' ')" 1 "one line: $(cat "$tmp/err")"
"$TICKSCOPE" plot timeline "$f" --time 533,534 -o "$tmp/x" >/dev/null 2>"$tmp/err"
ok $((! $?)) "a window of 1 s is refused"
grep -q 'at most 100 ms' "$tmp/err"
ok $? "it says the limit"
"$TICKSCOPE" plot "$tmp/nope.data" -o "$tmp/x" >/dev/null 2>"$tmp/err"
ok $((! $?)) "a missing input fails"
grep -q "nope.data" "$tmp/err"
ok $? "and names the file"
"$TICKSCOPE" plot timeline "$f" --time $s --comm pingpong -o "$tmp/x" >/dev/null 2>"$tmp/err"
ok $((! $?)) "timeline with --comm fails"
grep -q -- '--cpu picks the CPUs' "$tmp/err"
ok $? "and says what picks the lanes"
TS_GNUPLOT=/nonexistent/gnuplot "$TICKSCOPE" plot "$f" -o "$tmp/x" >/dev/null 2>"$tmp/err"
ok $((! $?)) "without gnuplot it fails"
grep -q 'install gnuplot' "$tmp/err"
ok $? "and says to install gnuplot"
# every name checked before -o's folder is made: a refused one leaves no folder behind
i=0
for args in "$tmp/nope.data" "$f --kallsyms $tmp/nope.kallsyms" "$f $tmp/nope.data" \
	"$f $f --kallsyms $tmp/nope.kallsyms" "$f $f $f $f $f $f $f $f $f" "TS_JOBS=abc $f $f"; do
	i=$((i + 1))
	case $args in
	TS_JOBS=*) j=${args%% *} args=${args#* } ;;
	*) j=TS_JOBS= ;;
	esac
	# shellcheck disable=SC2086 # the words of $args are the arguments
	env "$j" "$TICKSCOPE" plot $args -o "$tmp/new$i" >/dev/null 2>"$tmp/err"
	is "$?:$(wc -l <"$tmp/err" | tr -d ' '):$([ -e "$tmp/new$i" ]; echo $?)" 1:1:1 \
		"refused, no folder made: $(sed "s|$tmp/||g" "$tmp/err")"
done
echo "my notes" >"$tmp/notes"
"$TICKSCOPE" plot "$f" --kallsyms "$k" -o "$tmp/notes" >/dev/null 2>"$tmp/err"
is "$?:$(cat "$tmp/err"):$(cat "$tmp/notes")" \
	"1:tickscope: $tmp/notes: a file, not a folder: -o names the folder to write into:my notes" \
	"-o naming a file: refused before the trace is read, the file left as it was"

# --- A per-task recording (perf record --per-thread -p): the report prints wake delivery,
# wakeup latency and run-queue delay as `-` with their reasons; the charts of those figures
# were drawn all the same, from the partial events. Now they say why they are not drawn.
n=x86-pertask-loop
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
k=$(fixture_kallsyms $n)
"$TICKSCOPE" report "$f" --kallsyms "$k" >"$tmp/pt.txt" 2>/dev/null &&
	grep -q '^  wake delivery  *- (a per-task recording has a task.s wakes only when' "$tmp/pt.txt" &&
	grep -q '^  run-queue delay  *-$' "$tmp/pt.txt"
ok $? "$n: the report says wake delivery and run-queue delay are not measured"
"$TICKSCOPE" plot "$f" --kallsyms "$k" -o "$tmp/pt" >"$tmp/out" 2>"$tmp/err"
ok $? "$n: tickscope plot exits 0"
is "$(awk -F'\t' '$1 == "latency-cdf" { print $3 ": " $5 }' "$tmp/pt/charts.tsv")" \
	"missing: not measured: a per-task recording has a task's wakes only when a followed task"\
" is the waker, and no switch that put these tasks on their CPU" \
	"$n: latency-cdf is not drawn, with both reasons"
for c in wake-delivery-by-class wakeup-latency-by-class; do
	is "$(awk -F'\t' -v c=$c '$1 == c { print $3 ": " $5 }' "$tmp/pt/charts.tsv")" \
		"missing: not measured: a per-task recording has a task's wakes only when a"\
" followed task is the waker" "$n: $c is not drawn, with the report's reason"
	ls "$tmp/pt/$c".* >/dev/null 2>&1
	ok $((!$?)) "$n: $c has no files"
done
# The same per-task run side by side (plot A.data B.data, compare --plots): its wake and delay
# data were merged into the variants' CDFs all the same. Now those charts say why not, with the
# report's reasons, also when compare reads the runs' chart data from its .tplot cache.
ab=$TS_TOP/tests/fixtures/boards/x86-host/ab/pingpong-same
for v in A B; do
	for r in 1 2; do
		d=$tmp/ptv/$v/run-$r
		mkdir -p "$d"
		cp "$f" "$d/perf.data"
		cp "$k" "$d/kallsyms"
		cp "$ab/run-$r/workload.out" "$d/"
		sed '/^variant_/d; s/^kernel=.*/kernel=6.18.44-fc-v1252/' "$ab/run-$r/meta.txt" \
			>"$d/meta.txt"
	done
done
wk="not measured: a per-task recording has a task's wakes only when a followed task is the waker"
rq="not measured: a per-task recording has no switch that put these tasks on their CPU, so their"\
" slices start at another task's switch"
for pass in plot compare cached; do
	o=$tmp/ptv-$pass
	if [ $pass = plot ]; then
		"$TICKSCOPE" plot "$tmp/ptv/A/run-1/perf.data" "$tmp/ptv/B/run-1/perf.data" \
			-o "$o" >"$tmp/out" 2>"$tmp/err"
	else
		TS_SUMMARY_CACHE=$tmp/ptv-cache "$TICKSCOPE" compare "$tmp/ptv/A" "$tmp/ptv/B" \
			--plots "$o" >"$tmp/out" 2>"$tmp/err"
	fi
	ok $? "$n side by side ($pass): exits 0"
	for c in wake-delivery-cdf wakeup-latency-cdf; do
		is "$(chart_status "$o" $c): $(chart_missing "$o" $c)" "missing: $wk" \
			"$n side by side ($pass): $c is not drawn, with the report's reason"
	done
	is "$(chart_status "$o" sched-delay-cdf): $(chart_missing "$o" sched-delay-cdf)" \
		"missing: $rq" "$n side by side ($pass): sched-delay-cdf is not drawn, with why"
	is "$(awk -F'\t' '$1 ~ /^wake-delivery-(same|cross)/ { print $1 }' "$o/charts.tsv")" "" \
		"$n side by side ($pass): no wake-class chart"
done
[ "$(grep -l '^unmeasured	3$' "$tmp/ptv-cache"/*.tplot | wc -l)" -ge 1 ]
ok $? "the .tplot cache keeps the per-task runs' flag"

tap_done
