#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The vmstat case as a kernel A/B (tests/fixtures/kernel-variants/, qemu-aarch64 and qemu-x86,
# ping-pong free to move and pinned, 8 runs a side, quiet_vmstat probed): the known answers that
# follow from the code of the three kernels, checked on each run's own summary (perf.data.tsum,
# computed from its trace when it was recorded), compare from those summaries agreeing with the
# committed compare.json, and the reproduction verdict beside the seed's figures.
# What the code says is kv_vmstat_answer's comment (tests/lib/kernel-variants.sh).
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

# 1. compare from the runs' summaries: its per-run values are the summaries' lines (0 for a
# work function that never ran), and the committed compare.json (2026-12-04) had the same
# (it wrote null for a work function that never ran; compare now counts it 0/s).
"$TICKSCOPE" compare --json "$d/vmstat-44-before" "$d/vmstat-44-after" "$d/nohz-idle" \
	>"$d/compare.json" && "$TICKSCOPE" compare "$d/vmstat-44-before" "$d/vmstat-44-after" \
	"$d/nohz-idle" >"$d/compare.txt"
ok $? "compare from the summaries"
for k in probes.quiet_vmstat.ns_per_idle_entry idlepath.entry.p50 \
	workqueue.work.vmstat_update.per_s bench.latency; do
	bad=
	for v in vmstat-44-before vmstat-44-after nohz-idle; do
		got=$(kv_vals "$d/compare.json" $k $v 0) old=$(kv_vals "$d/committed.json" $k $v 0)
		want=$(for r in "$d/$v"/run-*; do kv_sum "$r" $k; done |
			awk '{ printf "%s%.6g", (NR > 1 ? " " : ""), $1 }')
		[ "$k" = bench.latency ] && want=$old # the benchmark's figure is from workload.out
		[ -n "$got" ] && [ "$got" = "$want" ] && [ "$old" = "$want" ] || bad="$bad $v"
	done
	[ -z "$bad" ]
	ok $? "$k: compare's per-run values are the summaries', as committed${bad:+ (not:$bad)}"
done

# 2. The known answers of the code, on each run's summary (tests/lib/kernel-variants.sh).
kv_vmstat_answer "$d" vmstat-44-before vmstat-44-after nohz-idle 8

# 3. What compare says of quiet_vmstat's time per idle entry (as measured, 8 runs a side under
# TCG): lower in stock 6.1, where it runs only when the tick stops.
q=probes.quiet_vmstat.ns_per_idle_entry
awk -v a="$(kv_metric "$d" $q vmstat-44-before median)" -v b="$(kv_metric "$d" $q nohz-idle \
	median)" -v p="$(kv_metric "$d" $q nohz-idle p)" 'BEGIN { exit !(b < a && p < 0.01) }'
ok $? "quiet_vmstat's time per idle entry is lower in stock 6.1 (U p < 0.01)"

# 4. The headline names the mechanisms under wake delivery (chain rules, docs/compare.md):
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

# 5. The reproduction verdict, beside the seed's figures, from these summaries.
"$TS_TOP/boards/reproduce.sh" "$d" >"$d/reproduction.txt"
ok $? "boards/reproduce.sh gives a verdict"
diag "$(cat "$d/reproduction.txt")"
cmp -s "$d/reproduction.txt" "$fx/reproduction.txt"
ok $? "it is the committed reproduction.txt"
grep -q '^  the seed: +17.0% (x86-guest: ' "$d/reproduction.txt" &&
	grep -q '^  verdict:  not reproduced: no significant change here$' "$d/reproduction.txt"
ok $? "the seed's +17% beside ours, said plainly: not reproduced"

# 6. The pinned same-CPU control: the same kernels, both tasks on one CPU (the board's
# PIN_SAME), refresh_cpu_vm_stats probed as the clone Debian's 6.1 has. The round trip is
# reported with its verdict against the seed's pinned figures: the verdict from the runs'
# summaries is the committed one. pinned BOARD NAME: its checks, named "BOARD pinned: ...".
pinned() {
	fx=$TS_TOP/tests/fixtures/kernel-variants/$2
	p=$TAP_TMP/$2
	"$TS_TOP/scripts/unpack-summaries.sh" "$fx" "$p" &&
		"$TICKSCOPE" compare --json "$p/vmstat-44-before" "$p/vmstat-44-after" \
			"$p/nohz-idle" >"$p/compare.json" &&
		"$TICKSCOPE" compare "$p/vmstat-44-before" "$p/vmstat-44-after" "$p/nohz-idle" \
			>"$p/compare.txt"
	ok $? "$1 pinned: compare from the summaries"
	diag "$(sed '/^tickscope compare/q' "$p/compare.txt")"
	kv_vmstat_answer "$p" vmstat-44-before vmstat-44-after nohz-idle 8
	n=0 f=refresh_cpu_vm_stats
	for k in "$fx"/*/run-*/kprobes.txt; do
		grep -qx "added p:probe/$f $f.constprop.0" "$k" &&
			grep -qx "added r:probe/${f}__return $f.constprop.0" "$k" && n=$((n + 1))
	done
	is "$n" 24 "$1 pinned: every run probed refresh_cpu_vm_stats as its .constprop.0 clone"
	# The old body folds at least once per call (do { ... } while (refresh_cpu_vm_stats(false)))
	bad=0
	for r in "$p"/vmstat-44-before/run-*; do
		awk -v q="$(kv_sum "$r" probes.quiet_vmstat.duration.count)" \
			-v f="$(kv_sum "$r" probes.refresh_cpu_vm_stats.duration.count)" \
			'BEGIN { exit !(q > 0 && f >= 0.99 * q) }' || bad=$((bad + 1))
	done
	for v in vmstat-44-before vmstat-44-after nohz-idle; do
		diag "$v: refresh_cpu_vm_stats calls per quiet_vmstat call:" $(
			for r in "$p/$v"/run-*; do
				awk -v q="$(kv_sum "$r" probes.quiet_vmstat.duration.count)" \
					-v f="$(kv_sum "$r" probes.$f.duration.count)" \
					'BEGIN { printf "%.2f ", (q > 0 ? f / q : -1) }'
			done)
	done
	is "$bad" 0 "$1 pinned: vmstat-44-before folds at least once per call, every run"
	"$TS_TOP/boards/reproduce.sh" "$p" >"$p/reproduction.txt" &&
		cmp -s "$p/reproduction.txt" "$fx/reproduction.txt"
	ok $? "$1 pinned: the reproduction verdict from the summaries is the committed one"
	diag "$(cat "$p/reproduction.txt")"
	grep -q '^  the seed: -1.0% (x86-guest: ' "$p/reproduction.txt" &&
		grep -q '^  verdict:  agrees: the seed saw no change, and here the change is not' \
			"$p/reproduction.txt"
	ok $? "$1 pinned: the seed's -1.0% beside ours: agrees, no significant change here"
}
# qemu-aarch64 under TCG: 2000 round trips (1.3-18 ms each under load; 20000 overran the boot)
pinned aarch64 qemu-aarch64-pingpong-same-vmstat-44-before-vs-vmstat-44-after-vs-nohz-idle

# 7. The x86 guest (qemu-x86, q35, 8 vCPUs; TCG, this host has no vmx), free to move: the same
# three patches, 20000 round trips, refresh_cpu_vm_stats probed as its clone. The code's answers
# (kv_vmstat_answer), then what was measured there and not on the aarch64 guest: the mechanism
# metrics separate the two 4.4-style kernels completely (U p at the floor 2/C(16,8)), and the
# headline, computed from the summaries, has the recorded round trips and names them. The round
# trip is reported with its verdict against the seed, as recorded; it is not asserted.
name=qemu-x86-pingpong-vmstat-44-before-vs-after-vs-nohz-idle
fx=$TS_TOP/tests/fixtures/kernel-variants/$name
x=$TAP_TMP/$name
"$TS_TOP/scripts/unpack-summaries.sh" "$fx" "$x" &&
	xz -dc "$fx/compare.json.xz" >"$x/committed.json" &&
	"$TICKSCOPE" compare --json "$x/vmstat-44-before" "$x/vmstat-44-after" "$x/nohz-idle" \
		>"$x/compare.json" &&
	"$TICKSCOPE" compare "$x/vmstat-44-before" "$x/vmstat-44-after" "$x/nohz-idle" \
		>"$x/compare.txt"
ok $? "x86: compare from the summaries"
bad=
for k in probes.quiet_vmstat.ns_per_idle_entry probes.refresh_cpu_vm_stats.ns_per_idle_entry \
	idlepath.entry.p50 workqueue.work.vmstat_update.per_s; do
	for v in vmstat-44-before vmstat-44-after nohz-idle; do
		got=$(kv_vals "$x/compare.json" $k $v 0) old=$(kv_vals "$x/committed.json" $k $v 0)
		want=$(for r in "$x/$v"/run-*; do kv_sum "$r" $k; done |
			awk '{ printf "%s%.6g", (NR > 1 ? " " : ""), $1 }')
		[ -n "$got" ] && [ "$got" = "$want" ] && [ "$old" = "$want" ] || bad="$bad $k:$v"
	done
done
[ -z "$bad" ]
ok $? "x86: compare's per-run values are the summaries', as committed${bad:+ (not:$bad)}"
kv_vmstat_answer "$x" vmstat-44-before vmstat-44-after nohz-idle 8
for k in probes.quiet_vmstat.ns_per_idle_entry probes.refresh_cpu_vm_stats.ns_per_idle_entry \
	idlepath.entry.p50 workqueue.work.vmstat_update.per_s; do
	pb=$(kv_metric "$x" $k vmstat-44-after p)
	diag "$k: vmstat-44-before $(kv_metric "$x" $k vmstat-44-before median)," \
		"vmstat-44-after $(kv_metric "$x" $k vmstat-44-after median) (p $pb)"
	kv_floor "$pb" 8
	ok $? "x86: $k separates vmstat-44-before from vmstat-44-after, every run apart"
done
sed '/^tickscope compare/q' "$x/compare.txt" >"$x/headline.txt"
diag "$(cat "$x/headline.txt")"
# The recorded headline's figures (compare.txt, 2026-12-05), not its wording (compare's to change)
sed -n '/^tickscope compare/q; / vs vmstat-44-before: latency /p' "$fx/compare.txt" |
	sed 's/, 95% CI .*, p=/, p=/' >"$x/recorded.first"
sed -n '/ vs vmstat-44-before: latency /p' "$x/headline.txt" | sed 's/, 95% CI .*, p=/, p=/' |
	cmp -s - "$x/recorded.first" && grep -q ': latency 244.5 -> 195.4 us, .*p=0.8: ' \
	"$x/recorded.first" && grep -q ': latency 244.5 -> 217.4 us, .*p=0.88: ' "$x/recorded.first"
ok $? "x86: the headline's round trips are the recorded ones: 244.5 -> 195.4 us, 217.4 us"
xblock() { awk -v h="$1 vs vmstat-44-before:" 'index($0, h) == 1 { on = 1 } /^$/ { on = 0 } on' \
	"$x/headline.txt"; }
bad=
for w in "quiet_vmstat's time per idle entry" "idle-entry time" "runs of work vmstat_update"; do
	xblock vmstat-44-after | grep "^  wake delivery <- $w" | grep -q 'every run apart)$' ||
		bad="$bad; $w"
done
[ -z "$bad" ]
ok $? "x86: vmstat-44-after's headline names the mechanism, every run apart${bad:+ (not$bad)}"
"$TS_TOP/boards/reproduce.sh" "$x" >"$x/reproduction.txt" &&
	cmp -s "$x/reproduction.txt" "$fx/reproduction.txt"
ok $? "x86: the reproduction verdict from the summaries is the committed one"
grep -q '^  the seed: +17.0% (x86-guest: ' "$x/reproduction.txt" &&
	grep -q '^  verdict:  not reproduced: no significant change here$' "$x/reproduction.txt"
ok $? "x86: the seed's +17% beside ours, said plainly: not reproduced"

# 8. The x86 guest pinned on one CPU (PIN_SAME=1, TCG, 20000 round trips): the control. Its
# round trips as recorded (compare.txt, 2026-12-05): 135.2 us (before), 147 us (after), 127.4 us
# (stock), none of the changes significant.
pinned x86 qemu-x86-pingpong-same-vmstat-44-before-vs-after-vs-nohz-idle
sed -n '/^tickscope compare/q; / vs vmstat-44-before: latency /p' "$p/compare.txt" >"$p/first"
grep -q '^vmstat-44-after vs vmstat-44-before: latency 135.2 -> 147 us, .*: not significant$' \
	"$p/first" &&
	grep -q '^nohz-idle vs vmstat-44-before: latency 135.2 -> 127.4 us, .*: not significant$' \
		"$p/first"
ok $? "x86 pinned: the three kernels' round trips do not differ (135.2, 147, 127.4 us)"
tap_done
