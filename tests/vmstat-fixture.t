#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The vmstat case as a kernel A/B (tests/fixtures/kernel-variants/, qemu-aarch64, ping-pong
# free to move, 8 runs a side, quiet_vmstat probed): the known answers that follow from the
# code of the three kernels, checked on each run's own summary (perf.data.tsum, computed from
# its trace when it was recorded), compare from those summaries agreeing with the committed
# compare.json, and the reproduction verdict beside the seed's figures.
#
# What the code says (boards/patches/vmstat-44-*, Debian's 6.1):
# - stock 6.1 (nohz-idle) calls quiet_vmstat() only from tick_nohz_stop_tick(), right before
#   it fires tick_stop(success=1): one call per tick stop;
# - both patched kernels call it from do_idle() on every idle entry: one call per switch to
#   the idle task;
# - vmstat-44-before cancels the CPU's pending vmstat_update at every idle entry, while
#   vmstat-44-after never cancels it and makes it a normal (not deferrable) delayed work: its
#   runs per s are higher in every run.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/kernel-variants.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
name=qemu-aarch64-pingpong-vmstat-44-before-vs-vmstat-44-after-vs-nohz-idle
fx=$TS_TOP/tests/fixtures/kernel-variants/$name
d=$TAP_TMP/$name
"$TS_TOP/scripts/unpack-summaries.sh" "$fx" "$d" &&
	xz -dc "$fx/compare.json.xz" >"$d/committed.json"
ok $? "the fixture unpacks"

# m RUN METRIC: a metric's value in a run's summary, 0 when the run has no such line (a work
# function that never ran, a probe never hit)
m() {
	awk -F'\t' -v k="$2" '$1 == "m" && $2 == k { v = $6 } END { print v == "" ? 0 : v }' \
		"$1/perf.data.tsum"
}

# per_run VARIANT: "calls entries tick_stops vmstat_update_per_s" of each run, one line each.
# The idle entries (switches to the idle task) are the probe's time over its time per entry.
per_run() {
	for r in "$d/$1"/run-*; do
		c=$(m "$r" probes.quiet_vmstat.duration.count)
		s=$(m "$r" probes.quiet_vmstat.duration.sum)
		n=$(m "$r" probes.quiet_vmstat.ns_per_idle_entry)
		t=$(m "$r" idle.tick_stop.ok.per_s)
		q=$(m "$r" probes.quiet_vmstat.per_s)
		u=$(m "$r" workqueue.work.vmstat_update.per_s)
		awk -v c="$c" -v s="$s" -v n="$n" -v t="$t" -v q="$q" -v u="$u" -v r="${r##*/}" \
			'BEGIN { printf "%s %d %.0f %.0f %g\n", r, c, (n > 0 ? s / n : 0),
				 (q > 0 ? c * t / q : 0), u }'
	done
}
for v in vmstat-44-before vmstat-44-after nohz-idle; do
	per_run $v >"$d/$v.runs"
	diag "$v: run, quiet_vmstat calls, idle entries, tick stops, vmstat_update/s"
	diag "$(sed 's/^/  /' "$d/$v.runs")"
done

# 1. Where quiet_vmstat() is called: once per tick stop in stock 6.1, once per idle entry in
# the patched kernels (a call open at either end of the trace is not counted: 1% slack; a
# CPU whose entries are all of one kind anyway would pass both, so stock must also be apart).
per_entry='{ if ($2 < 1 || $3 < 1 || $2 < 0.9 * $3 || $2 > $3 + 1) bad++ }
	END { exit !(NR == 8 && !bad) }'
awk "$per_entry" "$d/vmstat-44-before.runs" && awk "$per_entry" "$d/vmstat-44-after.runs"
ok $? "patched kernels: quiet_vmstat once per idle entry (90-100% of the switches to idle)"
awk '{ d = $2 - $4; if (d < 0) d = -d; if ($2 < 1 || d > 1 + 0.01 * $2) bad++ }
	END { exit !(NR == 8 && !bad) }' "$d/nohz-idle.runs"
ok $? "stock 6.1: quiet_vmstat once per tick stop (tick_stop success), every run"
awk '{ if ($2 >= 0.9 * $3) bad++ } END { exit !(NR == 8 && !bad) }' "$d/nohz-idle.runs"
ok $? "stock 6.1: fewer calls than idle entries in every run (not every entry stops the tick)"

# 2. vmstat_update: cancelled at every idle entry before, a normal delayed work after.
awk 'NR == FNR { if ($5 > amax) amax = $5; next } { if (!n++ || $5 < bmin) bmin = $5 }
	END { exit !(n == 8 && bmin > 0 && amax < bmin) }' \
	"$d/vmstat-44-before.runs" "$d/vmstat-44-after.runs"
ok $? "vmstat_update runs: every vmstat-44-after run above every vmstat-44-before run (none: 0)"

# 3. compare from the runs' summaries: its per-run values are the summaries' lines (0 for a
# work function that never ran), and the committed compare.json (2026-12-04) had the same
# (it wrote null for a work function that never ran; compare now counts it 0/s).
"$TICKSCOPE" compare --json "$d/vmstat-44-before" "$d/vmstat-44-after" "$d/nohz-idle" \
	>"$d/compare.json" && "$TICKSCOPE" compare "$d/vmstat-44-before" "$d/vmstat-44-after" \
	"$d/nohz-idle" >"$d/compare.txt"
ok $? "compare from the summaries"
# vals JSON METRIC VARIANT: the per-run values, 6 significant digits, null as 0
vals() {
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
m = {e['name']: e for e in d['metrics']}[sys.argv[2]]
v = {x['variant']: x for x in m['variants']}[sys.argv[3]]
print(' '.join('%.6g' % (x or 0) for x in v['values']))" "$@" 2>&1
}
for k in probes.quiet_vmstat.ns_per_idle_entry idlepath.entry.p50 \
	workqueue.work.vmstat_update.per_s bench.latency; do
	bad=
	for v in vmstat-44-before vmstat-44-after nohz-idle; do
		got=$(vals "$d/compare.json" $k $v) old=$(vals "$d/committed.json" $k $v)
		want=$(for r in "$d/$v"/run-*; do m "$r" $k; done |
			awk '{ printf "%s%.6g", (NR > 1 ? " " : ""), $1 }')
		[ "$k" = bench.latency ] && want=$old # the benchmark's figure is from workload.out
		[ -n "$got" ] && [ "$got" = "$want" ] && [ "$old" = "$want" ] || bad="$bad $v"
	done
	[ -z "$bad" ]
	ok $? "$k: compare's per-run values are the summaries', as committed${bad:+ (not:$bad)}"
done

# 4. What compare says of the mechanisms (as measured, 8 runs a side under TCG): the stock
# kernel's lighter idle entry is significant; before against after is not separated.
q=probes.quiet_vmstat.ns_per_idle_entry
for k in $q idlepath.entry.p50; do
	diag "$k medians: before $(kv_metric "$d" $k vmstat-44-before median)," \
		"after $(kv_metric "$d" $k vmstat-44-after median) (p $(kv_metric "$d" $k \
		vmstat-44-after p)), stock $(kv_metric "$d" $k nohz-idle median) (p $(kv_metric \
		"$d" $k nohz-idle p))"
done
awk -v a="$(kv_metric "$d" $q vmstat-44-before median)" -v b="$(kv_metric "$d" $q nohz-idle \
	median)" -v p="$(kv_metric "$d" $q nohz-idle p)" 'BEGIN { exit !(b < a && p < 0.01) }'
ok $? "quiet_vmstat's time per idle entry is lower in stock 6.1 (U p < 0.01)"

# 5. The headline names the mechanisms under wake delivery (chain rules, docs/compare.md):
# vmstat_update's runs for the pair, the lighter idle entry for stock 6.1.
sed '/^tickscope compare/q' "$d/compare.txt" >"$d/headline.txt"
diag "$(cat "$d/headline.txt")"
block() { awk -v h="$1 vs vmstat-44-before:" 'index($0, h) == 1 { on = 1 } /^$/ { on = 0 } on' \
	"$d/headline.txt"; }
block vmstat-44-after | grep -q '^  wake delivery <- runs of work vmstat_update .* 0 -> '
ok $? "vmstat-44-after: the headline names vmstat_update's runs under wake delivery"
block nohz-idle | grep -q "^  wake delivery <- quiet_vmstat's time per idle entry" &&
	block nohz-idle | grep -q '^  wake delivery <- idle-entry time'
ok $? "stock 6.1: the headline names quiet_vmstat's time per idle entry and the idle-entry time"

# 6. The reproduction verdict, beside the seed's figures, from these summaries.
"$TS_TOP/boards/reproduce.sh" "$d" >"$d/reproduction.txt"
ok $? "boards/reproduce.sh gives a verdict"
diag "$(cat "$d/reproduction.txt")"
cmp -s "$d/reproduction.txt" "$fx/reproduction.txt"
ok $? "it is the committed reproduction.txt"
grep -q '^  the seed: +17.0% (x86-guest: ' "$d/reproduction.txt" &&
	grep -q '^  verdict:  not reproduced: no significant change here$' "$d/reproduction.txt"
ok $? "the seed's +17% beside ours, said plainly: not reproduced"
tap_done
