#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tickscope compare's known answers on real recordings (tests/fixtures/boards/x86-host/ab:
# 10 same-CPU, 10 cross-CPU and 6 injected-delay ping-pong runs) and on the shrinker seed's
# stress-ng outputs, plus its cache, its TSV tables and its errors.
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
# a copy, so that the summaries written next to perf.data (the plugin's below) stay out of the
# tree
cp -a "$TS_TOP/tests/fixtures/boards/x86-host/ab" "$TAP_TMP/ab"
ab=$TAP_TMP/ab
bench=$TS_TOP/tests/fixtures/bench

jqn() { jq -r "$1" "$2"; }
true_() { [ "$1" = true ] && echo 0 || echo 1; }

# --- pinned same-CPU (baseline) against pinned cross-CPU ---
"$TICKSCOPE" compare "$ab/pingpong-same" "$ab/pingpong-cross" --json >"$TAP_TMP/ab.json" \
	2>"$TAP_TMP/err"
ok $? "compare same cross --json"
r='.metrics[] | select(.family == "result") | .variants[1]'
is "$(jqn "$r.significant" "$TAP_TMP/ab.json")" true "the round-trip change is significant"
p=$(jqn "$r.p" "$TAP_TMP/ab.json")
ok "$(awk -v p="$p" 'BEGIN { print !(p < 0.001) }')" "p = $p < 0.001 (10 vs 10 runs, exact)"
ch=$(jqn "$r.change_pct" "$TAP_TMP/ab.json")
ok "$(awk -v c="$ch" 'BEGIN { print !(c < -50) }')" "cross-CPU is worse: change $ch% (+ is better)"
# noisy is CV above --cv-max (0.10 here), for every metric of every variant (the baseline's
# 10.3% is just past it)
bad=$(jq -r '.cv_max as $m | .metrics[] | .name as $n | .variants[] |
	select(.cv != null and .n > 1 and ((.cv > $m) != .noisy)) | "\($n):\(.variant) cv \(.cv)"' \
	"$TAP_TMP/ab.json" | head -5)
is "$bad" "" "noisy exactly when the CV is above cv_max ($(jqn .cv_max "$TAP_TMP/ab.json"))"
is "$(jqn "[.metrics[] | select(.family == \"result\") | .variants[].noisy] | join(\" \")" \
	"$TAP_TMP/ab.json")" "true true" "both variants' round trips are noisy (CV 10.3% and 16.1%)"
d='.explanations[0].decomposition'
top=$(jqn "[$d.parts[] | select(.metric != null)] | max_by(.share_pct) | .label" "$TAP_TMP/ab.json")
is "$top" "wake delivery" "the top component of the change is wake delivery"
res=$(jqn "$d.parts[] | select(.label == \"residual\") | .share_pct" "$TAP_TMP/ab.json")
ok "$(awk -v r="$res" 'BEGIN { print !(r <= 20 && r >= -20) }')" \
	"the decomposition explains >= 80% (residual $res%)"
sum=$(jqn "[$d.parts[].share_pct] | add" "$TAP_TMP/ab.json")
ok "$(awk -v s="$sum" 'BEGIN { print !(s > 99.999 && s < 100.001) }')" "shares add up to 100% ($sum)"
is "$(jqn '.explanations[0].changes[0].metric' "$TAP_TMP/ab.json")" \
	task.path.wake_delivery.per_op "ranked first: wake delivery per round trip"
ok "$(jqn '[.confounders[] | select(startswith("pinning differs"))] | length' \
	"$TAP_TMP/ab.json" | grep -qx 1; echo $?)" "confounder: the pinning differs"
is "$(jqn '.schema + " " + (.version | tostring)' "$TAP_TMP/ab.json")" "tickscope-compare 8" \
	"schema and version"
is "$(jqn '[.metrics[].name | select(test("0x[0-9a-f]{8}"))] | length' "$TAP_TMP/ab.json")" 0 \
	"functions in metric names come from the runs' kallsyms, not raw addresses"

# --- the injected delay: the echo burns 50 us on CPU per message, one message per round trip ---
"$TICKSCOPE" compare "$ab/pingpong-cross" "$ab/pingpong-delay" --json >"$TAP_TMP/delay.json"
ok $? "compare cross delay --json"
d='.explanations[0].decomposition'
top=$(jqn "[$d.parts[] | select(.metric != null)] | max_by(.share_pct) | .label" \
	"$TAP_TMP/delay.json")
is "$top" "run time" "the injected delay's component (on-CPU) is the top one"
run=$(jqn "$d.parts[] | select(.label == \"run time\") | .delta" "$TAP_TMP/delay.json")
ok "$(awk -v r="$run" 'BEGIN { print !(r >= 40) }')" \
	"run time grew $run us per round trip: >= 80% of the 50 us injected"

# --- the cache: in the user's cache (not next to perf.data), the same answer, --no-cache too ---
n=$(find "$TS_SUMMARY_CACHE" -name '*.tsum' | wc -l)
is "$n $(find "$ab" -name '*.tsum' -o -name '*.tplot' | wc -l)" "26 0" \
	"a summary of each perf.data cached in TS_SUMMARY_CACHE, none in the run folders"
c3=$(summary_cache_file "$ab/pingpong-cross/run-3/perf.data.xz" .tsum)
"$TICKSCOPE" compare "$ab/pingpong-same" "$ab/pingpong-cross" --json >"$TAP_TMP/ab2.json"
cmp -s "$TAP_TMP/ab.json" "$TAP_TMP/ab2.json"
ok $? "from the cache: the same document"
sed -i '1s/^/x/' "$c3"
"$TICKSCOPE" compare "$ab/pingpong-same" "$ab/pingpong-cross" --json --no-cache \
	>"$TAP_TMP/ab3.json"
cmp -s "$TAP_TMP/ab.json" "$TAP_TMP/ab3.json"
ok $? "--no-cache: the same document"
head -c 19 "$c3" | grep -q '^tickscope-summary'
ok $? "a stale summary is rewritten"
# one written by other analysis code of the same release (another models id in its version,
# and so other numbers: here every switch rate made 1), beside the run as `tickscope summary`
# writes it, is computed again, never read; the user's cache then holds this code's
s3=$ab/pingpong-cross/run-3/perf.data.xz.tsum
sed -e '1s/\t0\.1+[0-9a-f]*\t/\t0.1+000000000000\t/' \
	-e 's/^\(m\tsched\.switches\.per_s\t[^\t]*\t[^\t]*\t[^\t]*\t\)[^\t]*/\11/' "$c3" >"$s3"
rm -f "$c3"
head -1 "$s3" | grep -q '	0\.1+000000000000	' && grep -q '^m	sched\.switches\.per_s	.*	1$' "$s3"
ok $? "a summary of other code made beside run-3 ($(head -1 "$s3" | cut -f2))"
"$TICKSCOPE" compare "$ab/pingpong-same" "$ab/pingpong-cross" --json >"$TAP_TMP/ab4.json"
cmp -s "$TAP_TMP/ab.json" "$TAP_TMP/ab4.json" && [ -f "$c3" ] && ! head -1 "$c3" | grep -q '+000000000000'
ok $? "a summary of other code is computed again: the same document, this code's in the cache"
rm -f "$s3"

# --- the plugin writes the same summary, and compare takes it (uncompressed runs) ---
PLUGIN=$TS_BUILD/tickscope.so
tap_sanitized_perf
if command -v perf >/dev/null && [ -f "$PLUGIN" ]; then
	for v in pingpong-same pingpong-cross; do
		for r in 1 2 3 4; do
			d=$TAP_TMP/pl/$v/run-$r s=$ab/$v/run-$r
			mkdir -p "$d"
			cp "$s/meta.txt" "$s/workload.out" "$s/cmdline.txt" "$d/"
			xz -dc "$s/perf.data.xz" >"$d/perf.data"
			xz -dc "$s/kallsyms.xz" >"$d/kallsyms"
		done
	done
	d=$TAP_TMP/pl/pingpong-cross/run-2
	# pingpong's operations in the trace: 1000 timed + 200 warm-up round trips
	perf script -i "$d/perf.data" --dlfilter "$PLUGIN" --dlarg kallsyms="$d/kallsyms" \
		--dlarg summary="$TAP_TMP/plugin.tsum" --dlarg comm=pingpong --dlarg ops=1200 \
		>/dev/null 2>"$TAP_TMP/err"
	ok $? "perf script --dlfilter tickscope.so --dlarg summary=FILE"
	"$TICKSCOPE" compare --json "$TAP_TMP/pl/pingpong-same" "$TAP_TMP/pl/pingpong-cross" \
		>"$TAP_TMP/pl1.json"
	ok $? "compare of the uncompressed runs"
	# but sched.threads.*: COMM records name the threads, and perf delivers none to a plugin
	# (and so the end line, which counts the metrics, counts fewer); the header's facts and
	# the attrs' tracepoints (fact lines) the plugin reads from the file itself. Without COMM
	# records the plugin has no workload tree: it takes the benchmark by name, and its
	# selection fact says so (this run has no other task of the name: the figures agree)
	grep -v -e 'sched\.threads\.' -e '^end	' -e '^fact	selection	' "$TAP_TMP/plugin.tsum" |
		sort >"$TAP_TMP/a" &&
		grep -v -e 'sched\.threads\.' -e '^end	' -e '^fact	selection	' \
			"$(summary_cache_file "$d/perf.data" .tsum)" |
		sort >"$TAP_TMP/b"
	cmp -s "$TAP_TMP/a" "$TAP_TMP/b"
	ok $? "the plugin's summary holds the same metrics as compare's own (but the threads')"
	grep '^fact	' "$TAP_TMP/plugin.tsum" >"$TAP_TMP/facts"
	grep -q '^fact	trace_events	.*sched:sched_switch' "$TAP_TMP/facts" &&
		grep -q '^fact	arch	x86_64$' "$TAP_TMP/facts"
	ok $? "the plugin's summary has the header's facts and the recorded tracepoints"
	grep -q '^fact	selection	name: the recording has no workload command' "$TAP_TMP/facts" &&
		grep -q '^fact	selection	tree$' "$(summary_cache_file "$d/perf.data" .tsum)"
	ok $? "the plugin (no COMM records) takes the benchmark by name and says so; compare, by the tree"
	tab=$(printf '\t')
	grep -q "^m${tab}sched\.threads\.count${tab}count${tab}0${tab}0${tab}nan${tab}no COMM" \
		"$TAP_TMP/plugin.tsum"
	ok $? "the plugin's summary says the threads were not measured, and why"
	cp "$TAP_TMP/plugin.tsum" "$d/perf.data.tsum"
	"$TICKSCOPE" compare --json "$TAP_TMP/pl/pingpong-same" "$TAP_TMP/pl/pingpong-cross" \
		>"$TAP_TMP/pl2.json"
	# but the threads, and the plugin's run saying it was taken by name (the same tasks here)
	nothreads='del(.metrics[] | select(.name | startswith("sched.threads.")))
		| del(.variants[].runs[].facts.selection)'
	jq -c "$nothreads" "$TAP_TMP/pl1.json" >"$TAP_TMP/pl1.c"
	jq -c "$nothreads" "$TAP_TMP/pl2.json" >"$TAP_TMP/pl2.c"
	cmp -s "$TAP_TMP/plugin.tsum" "$d/perf.data.tsum" &&
		cmp -s "$TAP_TMP/pl1.c" "$TAP_TMP/pl2.c"
	ok $? "compare takes the plugin's summary as it is, with the same answer"
else
	for i in 1 2 3 4 5 6; do skip "perf or $PLUGIN missing"; done
fi

# --- text: the benchmark first, then the explanation ---
"$TICKSCOPE" compare "$ab/pingpong-same" "$ab/pingpong-cross" >"$TAP_TMP/ab.txt"
grep -q '^tickscope compare: pingpong-same (baseline, 10 runs) vs pingpong-cross (10 runs)' \
	"$TAP_TMP/ab.txt"
ok $? "text: the variants and their runs"

# --- the headline: same against cross is wake delivery to a busy CPU on the other side ---
head -1 "$TAP_TMP/ab.txt" | grep -q '^pingpong-cross vs pingpong-same: latency .* worse, .*: significant$'
ok $? "headline, line 1: the benchmark's change, its interval, p and verdict"
# one kernel, two pinnings: the second line says so (tests/compare-benchdef.t checks it)
sed -n 2p "$TAP_TMP/ab.txt" | grep -q '^  not a kernel A/B: the benchmark differs (pinning '
ok $? "headline, line 2: the pinning differs on one kernel, not a kernel A/B"
head -4 "$TAP_TMP/ab.txt" | grep -q '^  wake delivery <- wakes .* sent to a busy CPU on the other side'
ok $? "headline: its first four lines name wake delivery to a busy CPU on the other side"
is "$(jqn '.headline.mechanisms[0].metric + " " + .headline.mechanisms[0].separation' \
	"$TAP_TMP/ab.json")" "task.wake_class.cross_busy.share complete" \
	"headline JSON: mechanisms[0] is the cross-CPU busy wakes, every run apart"
is "$(jqn '.headline.lines[0]' "$TAP_TMP/ab.json")" "$(head -1 "$TAP_TMP/ab.txt")" \
	"headline JSON: lines[] are the text's lines"
# No printed share above 100% (a share over 100% is a defect, never printed).
! sed '/^tickscope compare/q' "$TAP_TMP/ab.txt" | grep -Eq '([1-9][0-9][0-9]|[0-9]{4,})(\.[0-9]+)?% of the change'
ok $? "headline: no share over 100%"
# A CPU share that moved under 1 percentage point never outranks a component.
is "$(jq -r '[.explanations[0].changes[] | select(.share_pct != null) | .metric] as $c |
	[.explanations[0].changes[].metric] | . as $all |
	[range(length) | select($all[.] | startswith("task.other_cpu."))] as $o |
	[range(length) | select(. as $i | $c | index($all[$i]))] | max as $last |
	[$o[] | select(. < $last)] | length' "$TAP_TMP/ab.json")" 0 \
	"ranked changes: no other task's CPU share above a component"
grep -q '^Benchmark: latency (us, lower is better)' "$TAP_TMP/ab.txt" &&
	grep -q 'worse, raw +' "$TAP_TMP/ab.txt" && grep -q '^Explanation: round trip' "$TAP_TMP/ab.txt"
ok $? "text: benchmark change, then its explanation"

# --- one variant against itself, in two halves: nothing significant ---
for set in pingpong-same pingpong-cross; do
	d=$ab/$set
	"$TICKSCOPE" compare --json "$d/run-1" "$d/run-2" "$d/run-3" "$d/run-4" "$d/run-5" -- \
		"$d/run-6" "$d/run-7" "$d/run-8" "$d/run-9" "$d/run-10" >"$TAP_TMP/h.json"
	ok $? "$set halves: compare"
	is "$(jqn '[.metrics[] | select(.variants[1].significant)] | length' "$TAP_TMP/h.json")" 0 \
		"$set halves: no benchmark change and no trace metric significant"
	is "$(jqn '.metrics[0].variants[1].min_p < 0.05' "$TAP_TMP/h.json")" true \
		"$set halves: 5 vs 5 runs could have reached p < 0.05"
	is "$(jqn '.headline.mechanisms | length' "$TAP_TMP/h.json")" 0 \
		"$set halves: the headline names no mechanism"
	jqn '.headline.lines[]' "$TAP_TMP/h.json" | head -3 | grep -q '^  nothing changed: '
	ok $? "$set halves: the headline says nothing changed in its first three lines"
done

# --- the shrinker seed's two stress-ng outputs (one run each) ---
"$TICKSCOPE" compare --json "$bench/shrinker-seed-before.txt" -- \
	"$bench/shrinker-seed-after.txt" >"$TAP_TMP/seed.json"
ok $? "seed 2: compare the two outputs"
# one run a side: no interval of 0% confidence, and not "nothing changed" but "not tested"
jqn '.headline.lines[]' "$TAP_TMP/seed.json" >"$TAP_TMP/seed.head"
grep -q 'worse, no CI (too few runs for one), p=1: too few runs to test$' "$TAP_TMP/seed.head" &&
	grep -q '^  not tested: 1 and 1 runs are too few for the U test' "$TAP_TMP/seed.head" &&
	! grep -Eq '0% CI|nothing changed|did not change|interrupts took' "$TAP_TMP/seed.head"
ok $? "seed 2: the headline says one run a side cannot be tested, and gives no 0% interval" ||
	sed 's/^/# /' "$TAP_TMP/seed.head"
is "$(jqn '.result' "$TAP_TMP/seed.json")" bench.ramfs.bogo_ops_per_s_real \
	"the result is bogo ops/s (real time)"
is "$(jqn '.metrics[0].variants[1].change_pct * 10 | round / 10' "$TAP_TMP/seed.json")" -78.2 \
	"the change is -78.2% (worse)"
# per bogo op of one of the 9 instances: 9 x 60 s / 774966 = 696.8 us, of which usr+sys
# 179.63 s / 774966 = 231.8 us; after: 3201.5 us, CPU 244.7 us. Off-CPU: 465.0 -> 2956.8 us,
# 2491.8 of the 2504.7 us change: 99.5%. One run a side cannot test the change, so no share of
# it is given (null, as the headline gives none): the parts' deltas say it.
off=$(jqn '.explanations[0].decomposition | .delta as $t | .parts[] |
	select(.label | startswith("off-CPU")) | [.share_pct, (1000 * .delta / $t | round / 10)]' \
	"$TAP_TMP/seed.json" | tr -d ' \n')
is "$off" '[null,99.5]' "99.5% of the change is off-CPU time (the usr+sys rate gap), no share given"
"$TICKSCOPE" compare "$bench/shrinker-seed-before.txt" -- "$bench/shrinker-seed-after.txt" \
	>"$TAP_TMP/seed.txt"
grep -q 'counts CPU time only' "$TAP_TMP/seed.txt" && grep -q -- ' 78.2% worse' "$TAP_TMP/seed.txt"
ok $? "text: 78.2% worse, and the usr+sys rate is said to count CPU time only"
# One rule for a change in text: words, never a sign that could read as up or as better
signed=$(grep -hoE '[-+][0-9.]+ ?(%|pp) ?\(?(better|worse|higher|lower)' "$TAP_TMP/seed.txt" \
	"$TAP_TMP/ab.txt")
is "$signed" "" "text: no change printed with a sign before its word (better, worse, higher, lower)"
grep -q '^\[1\] Too few runs' "$TAP_TMP/seed.txt"
ok $? "one run a side: the footnote says the test cannot reach significance"
grep -q '^  ! not checked: kernel, cpus, cmdline, pinning, workload, events unknown for A' \
	"$TAP_TMP/seed.txt" && ! grep -q 'none found' "$TAP_TMP/seed.txt"
ok $? "benchmark outputs without meta.txt: the facts are said not checked, never none found"

# --- TSV ---
"$TICKSCOPE" compare "$ab/pingpong-same" "$ab/pingpong-cross" --tsv "$TAP_TMP/tsv"
ok $? "--tsv DIR"
for t in runs metrics decomposition changes confounders; do
	[ -s "$TAP_TMP/tsv/$t.tsv" ]
	ok $? "$t.tsv written"
done
is "$(head -1 "$TAP_TMP/tsv/decomposition.tsv")" \
	"$(printf 'variant\tkind\tcomponent\tmetric\ta_us\tb_us\tdelta_us\tshare_pct')" \
	"decomposition.tsv header"
is "$(awk -F'\t' 'NR > 1 && NF != 19' "$TAP_TMP/tsv/metrics.tsv" | wc -l)" 0 \
	"metrics.tsv: 19 columns on every row"

# --- errors ---
printf 'AF_UNIX sock stream latency: fast microseconds\n' >"$TAP_TMP/bad.out"
"$TICKSCOPE" compare "$bench/lat-unix-seed-before.txt" -- "$TAP_TMP/bad.out" 2>"$TAP_TMP/err"
ok $([ $? -eq 1 ] && grep -q "bad.out:1: unrecognised or malformed benchmark output" \
	"$TAP_TMP/err" && echo 0 || echo 1) "a malformed output names the file and line"
printf '# pingpong: pin=same cpus=0,0 iterations=3000 warmup=200 size=1 delay_us=0\n%s\n' \
	'AF_UNIX sock stream latency: 0.0000 microseconds' >"$TAP_TMP/zero.out"
"$TICKSCOPE" compare "$bench/lat-unix-seed-before.txt" -- "$TAP_TMP/zero.out" 2>"$TAP_TMP/err"
ok $([ $? -eq 1 ] && [ "$(wc -l <"$TAP_TMP/err")" -eq 1 ] &&
	grep -q "zero.out:2: the benchmark measured nothing" "$TAP_TMP/err" && echo 0 || echo 1) \
	"a pingpong latency of 0: refused in one line naming the file and line"
"$TICKSCOPE" compare "$ab/pingpong-same" 2>"$TAP_TMP/err"
ok $([ $? -eq 2 ] && grep -q "at least two variants" "$TAP_TMP/err" && echo 0 || echo 1) \
	"one variant is an error"
"$TICKSCOPE" compare "$ab/pingpong-same" "$TAP_TMP/nothing" 2>"$TAP_TMP/err"
ok $([ $? -eq 1 ] && grep -q "nothing: no run-N folders" "$TAP_TMP/err" && echo 0 || echo 1) \
	"a folder without runs is an error"
# A run recorded on a kernel that is not its variant's (boards/lib/variant-check.sh wrote
# variant_check=mismatch) is refused, unless --allow-mismatch.
for v in pingpong-same pingpong-cross; do
	for r in 1 2; do
		mkdir -p "$TAP_TMP/mm/$v/run-$r"
		cp "$ab/$v/run-$r/"* "$TAP_TMP/mm/$v/run-$r/"
	done
done
rm -f "$TAP_TMP"/mm/*/run-*/*.tsum "$TAP_TMP"/mm/*/run-*/*.tplot
sed -i 's/^status=complete$/variant_check=mismatch\nvariant_mismatch=CONFIG_PREEMPT_NONE=y wanted, running n\nstatus=complete/' \
	"$TAP_TMP/mm/pingpong-cross/run-2/meta.txt"
"$TICKSCOPE" compare --no-trace "$TAP_TMP/mm/pingpong-same" "$TAP_TMP/mm/pingpong-cross" \
	>/dev/null 2>"$TAP_TMP/err"
rc=$?
is "$rc $(wc -l <"$TAP_TMP/err")" "1 1" "a mislabelled run is refused: exit 1, one line"
grep -q 'pingpong-cross/run-2/meta.txt: the recorded kernel does not match its variant (CONFIG_PREEMPT_NONE=y wanted, running n)' \
	"$TAP_TMP/err"
ok $? "the refusal names the run's meta.txt and the mismatch"
"$TICKSCOPE" compare --no-trace --allow-mismatch "$TAP_TMP/mm/pingpong-same" \
	"$TAP_TMP/mm/pingpong-cross" >/dev/null 2>"$TAP_TMP/err"
ok $? "--allow-mismatch compares it"
grep -q 'compared anyway (--allow-mismatch)' "$TAP_TMP/err"
ok $? "and says so"
"$TICKSCOPE" compare --help | grep -q '^usage: tickscope compare'
ok $? "--help"
tap_done
