#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The headline's known answers (docs/compare.md, "The headline") on the kernel A/Bs committed
# under tests/fixtures/ (kernel-variants/, experiment/, debian-variants/): each names its
# mechanism within its first three lines, no printed
# share is over 100%, and a variant's runs split in halves name nothing. The built-kernel
# fixtures hold each run's summary (perf.data.tsum.xz, computed from its trace when it was
# recorded) but their meta.txt predate perf_data_sha256: scripts/unpack-summaries.sh gives the
# copy the trace's sha256 and size from the summary's own second line, which is what ties a
# summary to its trace.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
fx=$TS_TOP/tests/fixtures

# unpack FIXTURE: a copy under $TAP_TMP with the summaries decompressed and tied to the trace
unpack() { "$TS_TOP/scripts/unpack-summaries.sh" "$fx/$1" "$TAP_TMP/$(basename "$1")"; }

# compare_ab DIR A B: compare DIR/A and DIR/B into DIR/c.txt and DIR/c.json, and show the headline
compare_ab() {
	"$TICKSCOPE" compare "$1/$2" "$1/$3" >"$1/c.txt" &&
		"$TICKSCOPE" compare --json "$1/$2" "$1/$3" >"$1/c.json"
	ok $? "$3: compare from the runs' summaries"
	diag "$(sed '/^tickscope compare/q' "$1/c.txt")"
}

# first3 TXT ERE: the headline's first three lines match ERE, not counting the line that says
# what the kernels differ in (it names the difference, not what moved the benchmark)
first3() {
	grep -Ev '^  (the kernels differ in|one kernel build .*, booted two ways): ' "$1" | head -3 |
		grep -Eq "$2"
}

# no_share_over_100 TXT: no share of the change above 100% before the report proper
no_share_over_100() {
	! sed '/^tickscope compare/q' "$1" |
		grep -Eq '([1-9][0-9][0-9]|[0-9]{4,})(\.[0-9]+)?% of the change'
}

# --- hz-periodic against nohz-idle built kernels, ping-pong, 8 runs a side: the tick ---
kv=kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic
unpack $kv
d=$TAP_TMP/$(basename $kv)
compare_ab "$d" nohz-idle hz-periodic
first3 "$d/c.txt" '<- (CPUs stopping the tick \(tick_stop|idle exits by the tick)'
ok $? "hz-periodic: the first three lines name the tick (tick_stop gone, idle exits by the tick)"
grep -q '^  wake delivery <- CPUs stopping the tick (tick_stop: .* -> none: hz-periodic' \
	"$d/c.txt"
ok $? "hz-periodic: tick_stop is gone, its event not offered by the periodic kernel"
case $(jq -r '.headline.mechanisms[0].metric' "$d/c.json") in
idle.tick_stop.ok.per_s | idle.exits.tick.per_s | timer.expire.tick.per_s | \
timer.expire.tick_sched_timer.per_s) true ;;
*) false ;;
esac
ok $? "hz-periodic: headline.mechanisms[0] is a tick metric"
grep -q '^  run time: the time interrupts took inside it is not recorded; record irq:' "$d/c.txt"
ok $? "hz-periodic: recorded without irq events, the interrupt time is said not recorded"
no_share_over_100 "$d/c.txt"
ok $? "hz-periodic: no printed share over 100%"

# The ranked changes: by effect size after the components, not by ties at the p floor.
r=$(jq -r '[.explanations[0].changes[].metric] | index("idle.exits.tick.per_s")' "$d/c.json")
[ "$r" -ge 0 ] 2>/dev/null && [ "$r" -lt 3 ]
ok $? "hz-periodic: idle exits by the tick rank among the top 3 changes (index $r)"

# halves DIR V LABEL: V's 8 runs in DIR, odd against even, name no mechanism and say so
halves() {
	"$TICKSCOPE" compare --json "$1/$2/run-1" "$1/$2/run-3" "$1/$2/run-5" "$1/$2/run-7" -- \
		"$1/$2/run-2" "$1/$2/run-4" "$1/$2/run-6" "$1/$2/run-8" >"$1/h.json"
	is "$(jq -r '.headline.mechanisms | length' "$1/h.json")" 0 "$3 halves: no mechanism"
	jq -r '.headline.lines[]' "$1/h.json" | head -3 | grep -q '^  nothing changed: '
	ok $? "$3 halves: the headline says nothing changed"
}

# --- the same runs of one kernel in halves: nothing ---
for v in nohz-idle hz-periodic; do
	halves "$d" $v $v
done

# --- the shrinker SRCU patch against its baseline, stress-ng ramfs -g, 20 runs a side ---
kv=kernel-variants/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu
unpack $kv
d=$TAP_TMP/$(basename $kv)
compare_ab "$d" nohz-idle shrinker-srcu
first3 "$d/c.txt" '<- waits in synchronize_srcu <- unregister_shrinker .*ended by kworkers'
ok $? "shrinker-srcu: the first three lines name synchronize_srcu <- unregister_shrinker, ended by kworkers"
is "$(jq -r '.headline.mechanisms[0].metric' "$d/c.json")" \
	'task.offcpu_stack.synchronize_srcu;unregister_shrinker;deactivate_locked_super.D.per_op' \
	"shrinker-srcu: headline.mechanisms[0] is the SRCU wait"
# (who woke the benchmark's tasks, or the runs of the work function itself: both name it)
jq -r '.headline.mechanisms[].metric' "$d/c.json" |
	grep -Eqx 'task.woken_by_work.srcu_invoke_callbacks.share|workqueue.work.srcu_invoke_callbacks.per_s'
ok $? "shrinker-srcu: the kworker running SRCU callbacks is a mechanism"
grep -Eq '^  off-CPU .* <- (work items|runs of work) srcu_invoke_callbacks \(a kworker running SRCU callbacks' \
	"$d/c.txt"
ok $? "shrinker-srcu: ... and the text says so in kernel words"
no_share_over_100 "$d/c.txt"
ok $? "shrinker-srcu: no printed share over 100%"
r=$(jq -r '[.explanations[0].changes[].metric] |
	index("task.offcpu_stack.synchronize_srcu;unregister_shrinker;deactivate_locked_super.D.per_op")' \
	"$d/c.json")
[ "$r" -ge 0 ] 2>/dev/null && [ "$r" -lt 5 ]
ok $? "shrinker-srcu: the SRCU wait ranks among the top 5 changes by its share (index $r)"

# --- nohz=off against Debian's default boot, ping-pong, 2 runs a side (perf.data.xz) ---
ex=experiment/qemu-aarch64-pingpong-default-vs-nohz-off
cp -a "$fx/$ex" "$TAP_TMP/ex"
# the runs' configs miss one option of the board's fragment (variant-check.txt): compared anyway
"$TICKSCOPE" compare --allow-mismatch "$TAP_TMP/ex/default" "$TAP_TMP/ex/nohz-off" \
	>"$TAP_TMP/ex.txt" 2>/dev/null
ok $? "nohz=off: compare from the traces"
diag "$(sed '/^tickscope compare/q' "$TAP_TMP/ex.txt")"
first3 "$TAP_TMP/ex.txt" '<- (idle exits by the tick|the tick: its handler|CPUs stopping the tick)'
ok $? "nohz=off: the first three lines name the tick"
grep -q '^  unconfirmed: 2 and 2 runs are too few' "$TAP_TMP/ex.txt"
ok $? "nohz=off: 2 runs a side cannot be tested, and the headline says so"
no_share_over_100 "$TAP_TMP/ex.txt"
ok $? "nohz=off: no printed share over 100%"

# --- Debian -rt against generic, stress-ng ramfs (2 instances) -g, 8 runs a side: the wait for a
# grace period ended by rcuc, threaded interrupt handlers; stress-ng's parents are supervisors ---
dv=debian-variants/qemu-aarch64-stress-ramfs-default-vs-rt
unpack $dv
d=$TAP_TMP/$(basename $dv)
compare_ab "$d" default rt
first3 "$d/c.txt" '<- waits in .*ended by rcuc, the threads that run RCU callbacks'
ok $? "rt: the first three lines name the benchmark's waits ended by rcuc (RCU callbacks)"
# The irq/N-* threads exist in every rt run; whether they took part is in the runs' summaries
# (written from each trace): a CPU share or a share of the wakes in some run.
ran=$(for t in "$d"/rt/run-*/perf.data.tsum; do
	awk -F'\t' '$1 == "m" && ($2 == "task.other_cpu.irq.share" ||
		$2 == "sched.woken_by.irq.share") && $6 > 0 { n++ } END { print n + 0 }' "$t"
done | awk '{ s += $1 } END { print s + 0 }')
if [ "$ran" = 0 ]; then
	want='^  kernel difference, no part in it: threaded interrupt handlers \(irq/N-\*\), 0 -> 3 threads'
else
	want='<- threaded interrupt handlers \(irq/N-\*\)'
fi
sed '/^tickscope compare/q' "$d/c.txt" | grep -Eq "$want"
ok $? "rt: the headline names the threaded interrupt handlers (ran or woke in $ran run(s))"
! sed '/^tickscope compare/q' "$d/c.txt" | grep -Eiq 'rcuc[^;]*run[^;]*timers|sleeping \(S\)'
ok $? "rt: rcuc is never said to run timers, and no sleep (S) is in the headline"
# stress-ng --ramfs 2: two instance processes, each forks the worker it waits for in wait4
# (sched_process_fork and perf's FORK records): two supervisors in every run of both kernels
is "$(jq -r '.metrics[] | select(.name == "task.supervisors.count")
	| [.variants[].values[]] | unique | map(tostring) | join(" ")' "$d/c.json")" 2 \
	"rt: stress-ng's 2 instance parents are the supervisors in all 16 runs"
# their 5 s in wait4 each are not the workers': the workers sleep (S) under 1 ms per bogo op
is "$(jq -r '[.metrics[] | select(.name == "task.off_cpu.S.per_op") | .variants[].values[]
	| select(. >= 1000000)] | length' "$d/c.json")" 0 \
	"rt: no run counts a parent's sleep (S) as the workers' (all under 1 ms/op)"
no_share_over_100 "$d/c.txt"
ok $? "rt: no printed share over 100%"
sed -n '/^Explanation/,/^$/p' "$d/c.txt" | awk '{ x = $NF } sub(/%$/, "", x) &&
	x ~ /^-?[0-9.]+$/ && (x + 0 > 100 || x + 0 < -100) { bad = 1 } END { exit bad }'
ok $? "rt: no share over 100% in the decomposition either"
# the same kernel's runs in halves: nothing
for v in default rt; do
	halves "$d" $v "rt fixture, $v"
done
tap_done
