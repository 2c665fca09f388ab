#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What compare says to a person (docs/compare.md, "Directions", "Output", "Explanation"), on the
# kernel A/Bs under tests/fixtures/: no raw metric name in any line of the text (they are in the
# JSON, and in the text with --metric-names); directions by family (a rate that moves with the
# benchmark's pace, a handler's time per call are neutral; the tick's rates are not); the
# round trip's residual split into its parts, checked against the runs' own time-line figures;
# the headline's run-time split, checked against the JSON's metrics.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
fx=$TS_TOP/tests/fixtures

# A metric's raw name: a section's or compare's prefix, a dot, a word (docs/metrics.md).
raw='(^|[^a-z_])(task|sched|idle|idlepath|timer|workqueue|rcu|irq|migrate|shrinker|bench|offcpu_stack_per_op)\.[a-z_]'

# no_raw NAME TXT: no line of TXT holds a raw metric name
no_raw() {
	if grep -En "$raw" "$2" >"$TAP_TMP/raw.txt"; then
		ok 1 "$1: no raw metric name in the text"
		diag "$(head -5 "$TAP_TMP/raw.txt")"
	else
		ok 0 "$1: no raw metric name in the text ($(wc -l <"$2") lines, --all)"
	fi
}

# --- hz-periodic against nohz-idle built kernels, ping-pong, 8 runs a side ---
kv=kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic
"$TS_TOP/scripts/unpack-summaries.sh" "$fx/$kv" "$TAP_TMP/hz" >/dev/null
d=$TAP_TMP/hz
"$TICKSCOPE" compare --all "$d/nohz-idle" "$d/hz-periodic" >"$d/c.txt" &&
	"$TICKSCOPE" compare --json "$d/nohz-idle" "$d/hz-periodic" >"$d/c.json" &&
	"$TICKSCOPE" compare --all --metric-names "$d/nohz-idle" "$d/hz-periodic" >"$d/n.txt"
ok $? "hz-periodic: compare, text, JSON and --metric-names"
no_raw hz-periodic "$d/c.txt"
grep -q '^  [ 0-9][0-9]\. idle exits by the tick, per second: .* \[idle.exits.tick.per_s\]$' "$d/n.txt" &&
	grep -q '^  idle.exits.tick.per_s  ' "$d/n.txt"
ok $? "hz-periodic: --metric-names puts the raw names in the ranked list and the table"

# Directions, every metric of the JSON against its family's rule
bad=$(jq -r '.metrics[] | select(.name | test("^(task|bench)\\.") | not) |
	select(((.unit == "1/s" or .unit == "ns/s") and (.name | test("tick") | not)) or
	       .unit == "count" or (.unit == "ns" and (.name | test("\\.sum$"))) or
	       (.name | test("^timer\\.expire\\..*\\.handler\\.|^workqueue\\.work\\..*\\.duration\\.|^rcu\\.window\\.")))
	| select(.direction != "neutral") | .name' "$d/c.json")
is "$bad" "" "hz-periodic: rates of the trace, handlers' times per call, counts and sums are neutral"
is "$(jq -r '[.metrics[] | select(.name == "idle.exits.tick.per_s" or
	.name == "timer.expire.tick_sched_timer.per_s" or .name == "task.path.run.per_op") |
	.direction] | join(" ")' "$d/c.json")" "lower lower lower" \
	"hz-periodic: the tick's rates and the tasks' time per operation keep lower is better"
grep -q '^  timer callback tick_sched_timer, time per call, median$' "$d/c.txt" &&
	grep -A1 '^  timer callback tick_sched_timer, time per call, median$' "$d/c.txt" |
	grep -q ' (50.0% lower) '
ok $? "hz-periodic: the tick handler's p50, halved as it runs 3.6x as often, is lower, not better"

# --- the shrinker SRCU patch, stress-ng ramfs -g, 20 runs a side: waits, stacks, work items ---
kv=kernel-variants/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu
"$TS_TOP/scripts/unpack-summaries.sh" "$fx/$kv" "$TAP_TMP/srcu" >/dev/null
d=$TAP_TMP/srcu
"$TICKSCOPE" compare --all "$d/nohz-idle" "$d/shrinker-srcu" >"$d/c.txt"
ok $? "shrinker-srcu: compare --all"
no_raw shrinker-srcu "$d/c.txt"
grep -q "the benchmark's waits in synchronize_srcu <- unregister_shrinker <- deactivate_locked_super (D), per operation" "$d/c.txt"
ok $? "shrinker-srcu: the SRCU wait is named by its stack and state"
# A significant change keeps its shares: they add up to 100% of it.
sed -n '/^Explanation/,/^  total/p' "$d/c.txt" >"$d/expl.txt"
grep -Eq '^  off-CPU \(wall - usr - sys\) +1543 +3469 +1925 +78\.7%$' "$d/expl.txt" &&
	grep -Eq '^  total +3032 +5478 +2446 +100\.0%$' "$d/expl.txt" && ! grep -q 'share -' "$d/c.txt"
ok $? "shrinker-srcu: the significant change's table gives its shares" ||
	sed 's/^/# /' "$d/expl.txt"

# --- nohz=off against the default boot, ping-pong, 2 runs a side, from the traces ---
cp -a "$fx/experiment/qemu-aarch64-pingpong-default-vs-nohz-off" "$TAP_TMP/ex"
d=$TAP_TMP/ex
"$TICKSCOPE" compare --all --allow-mismatch "$d/default" "$d/nohz-off" >"$d/c.txt" 2>/dev/null &&
	"$TICKSCOPE" compare --json --allow-mismatch "$d/default" "$d/nohz-off" >"$d/c.json" 2>/dev/null
ok $? "nohz=off: compare from the traces"
no_raw nohz=off "$d/c.txt"
grep -q '^  The residual, -1462 -> -151 µs/op, is the time with every task of the benchmark asleep' \
	"$d/c.txt" && grep -q 'In default the trace holds 1465 µs/op of the tasks' "$d/c.txt"
ok $? "nohz=off: the residual (-380% of the change) is said, with the time outside the timed loop"
diag "$(sed -n '/^  The residual/,/^  The benchmark/p' "$d/c.txt")"
# No share over 100% or below 0 anywhere in the text (run time moved 435% of the change here,
# the residual -380%), and with 2 runs a side the change cannot be tested: no share at all,
# "-" and why, as the headline gives none.
sed -n '/^Explanation/,/^What changed/p' "$d/c.txt" >"$d/expl.txt"
! grep -Eq '(-[0-9.]+%|(10[1-9]|1[1-9][0-9]|[2-9][0-9][0-9]|[0-9]{4,})(\.[0-9]+)?%)' "$d/expl.txt" &&
	grep -Eq '^  run time +3006 +1504 +-1502 +-$' "$d/expl.txt" &&
	grep -Eq '^  residual +-1462 +-151 +1311 +-$' "$d/expl.txt" &&
	grep -q '^  share -: the benchmark did not change significantly' "$d/expl.txt" &&
	! grep -Eq ' (more|against)$|The components (moved|explain)' "$d/expl.txt"
ok $? "nohz=off: no share of a change that 2 runs a side cannot test, '-' and why"
# The traced window per operation: each run's four time-line states added up (2 runs: the
# median is their mean), against what compare says.
w=$(jq -r '[.metrics[] | select(.name | test("^task\\.path\\.(run|wake_delivery|sched_delay|none)\\.per_op$"))
	| .variants[0].values] | transpose | map(add / 1000) | add / length' "$d/c.json")
is "$(jq -r --argjson w "$w" '.explanations[0].decomposition.residual.window_a - $w |
	fabs < 0.001' "$d/c.json")" true "nohz=off: the traced window per op is the runs' four states added up ($w µs/op)"
# residual = round trip - window + none; with 2 runs medians are means, so it adds up exactly
is "$(jq -r '.explanations[0].decomposition | (.parts[-1].a - (.a - .residual.window_a +
	.residual.none_a)) | fabs < 0.001' "$d/c.json")" true \
	"nohz=off: residual = round trip - traced window + time asleep"

# --- the run time's interrupt split in the headline: a ping-pong recorded with irq events ---
for s in a b; do
	mkdir -p "$TAP_TMP/irq/$s/run-1"
	cp "$fx/aarch64/a64-6.1-generic-pingpong-irq.data.xz" "$TAP_TMP/irq/$s/run-1/perf.data.xz"
	cp "$fx/aarch64/a64-6.1-generic-pingpong-irq.kallsyms.xz" "$TAP_TMP/irq/$s/run-1/kallsyms.xz"
	cp "$fx/aarch64/a64-6.1-generic-pingpong-irq.log" "$TAP_TMP/irq/$s/run-1/workload.out"
done
d=$TAP_TMP/irq
"$TICKSCOPE" compare --all --comm pingpong "$d/a" "$d/b" >"$d/c.txt" &&
	"$TICKSCOPE" compare --json --comm pingpong "$d/a" "$d/b" >"$d/c.json"
ok $? "irq: compare a run recorded with irq events against itself"
no_raw irq "$d/c.txt"
line=$(sed -n 3p "$d/c.txt")
diag "$line"
# the figures the JSON gives, in µs with 4 significant digits as the headline prints them
want=$(jq -r '[.metrics[] | select(.name | test("^task\\.path\\.run\\.(per_op|own\\.per_op|hardirq\\.per_op|softirq\\.per_op|timers\\.per_op|tick\\.per_op)$"))
	| {(.name): .variants[0].median}] | add' "$d/c.json")
exp=$(printf '%s' "$want" | jq -r '[."task.path.run.per_op", ."task.path.run.own.per_op",
	."task.path.run.hardirq.per_op", ."task.path.run.softirq.per_op",
	."task.path.run.timers.per_op", ."task.path.run.tick.per_op"] | map(. / 1000) | @tsv' |
	awk -F'\t' '{ printf "  run time %.4g -> %.4g µs/op, taken by (µs/op): own %.4g -> %.4g, hard IRQs %.4g -> %.4g, softirqs %.4g -> %.4g, of which timer callbacks %.4g -> %.4g, the tick'"'"'s handler %.4g -> %.4g", $1, $1, $2, $2, $3, $3, $4, $4, $5, $5, $6, $6 }')
is "$line" "$exp" "irq: the headline's third line splits run time as the JSON's metrics say"
is "$(printf '%s' "$want" | jq -r '(."task.path.run.own.per_op" + ."task.path.run.hardirq.per_op" +
	."task.path.run.softirq.per_op" - ."task.path.run.per_op") | fabs < 1')" true \
	"irq: own + hard IRQs + softirqs = run time"
tap_done
