#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The shrinker case three ways (tests/fixtures/kernel-variants/, qemu-aarch64, stress-ng ramfs
# with callchains, synchronize_srcu probed): stock 6.1 (nohz-idle), the SRCU patch
# (shrinker-srcu: unregister_shrinker() waits for the grace period) and our fix on top of it
# (shrinker-fix: nr_deferred freed by call_srcu(), no wait). The known answers of the code
# (kv_shrinker3_answer, tests/lib/kernel-variants.sh) on compare from the runs' own summaries,
# which agree with the committed compare.json; the kernels are the committed patches; the
# reproduction verdict against the seed's -78.2% is the committed one.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/kernel-variants.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
name=qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu-and-fix
fx=$TS_TOP/tests/fixtures/kernel-variants/$name
d=$TAP_TMP/$name
runs=$(awk '/status=complete/ && /variant=nohz-idle/ { n++ } END { print n + 0 }' "$fx/order.txt")
"$TS_TOP/scripts/unpack-summaries.sh" "$fx" "$d" &&
	xz -dc "$fx/compare.json.xz" >"$d/committed.json"
ok $? "the fixture unpacks ($runs runs a side)"

# 1. compare from the runs' summaries; its per-run values are the committed compare.json's.
"$TICKSCOPE" compare --json "$d/nohz-idle" "$d/shrinker-srcu" "$d/shrinker-fix" \
	>"$d/compare.json" &&
	"$TICKSCOPE" compare "$d/nohz-idle" "$d/shrinker-srcu" "$d/shrinker-fix" >"$d/compare.txt"
ok $? "compare from the summaries"
w='task.offcpu_stack.synchronize_srcu;unregister_shrinker;deactivate_locked_super.D.per_op'
for k in bench.ramfs.bogo_ops_per_s_real probes.synchronize_srcu.per_s \
	workqueue.work.srcu_invoke_callbacks.per_s "$w"; do
	bad=
	for v in nohz-idle shrinker-srcu shrinker-fix; do
		got=$(kv_vals "$d/compare.json" "$k" $v -) old=$(kv_vals "$d/committed.json" "$k" $v -)
		[ -n "$got" ] && [ "$got" = "$old" ] || bad="$bad $v"
	done
	[ -z "$bad" ]
	ok $? "$k: compare's per-run values are the committed ones${bad:+ (not:$bad)}"
done

# 2. The known answers of the code.
sed 's/^/# /; /^# tickscope compare/q' "$d/compare.txt"
kv_shrinker3_answer "$d" nohz-idle shrinker-srcu shrinker-fix "$runs"
# Each microsecond once: the run time's interrupt parts nest (hard IRQs hold arch_timer, which
# holds the tick's handler, which is timer tick_sched_timer), so the shares of the CPU part's
# mechanisms, time per operation each, add up to no more than the CPU part's own share here
# (the other CPU time did not move against them: own time grew too).
python3 - "$d/compare.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d['explanations'] if x['variant'] == 'shrinker-srcu'][0]
cpu = [p for p in e['decomposition']['parts'] if p['metric'] == 'bench.cpu_per_op'][0]
ms = [m for m in e['headline']['mechanisms'] if m['component'] == cpu['label']]
got = sum(m['share_pct'] for m in ms if m['share_pct'] is not None)
print('# CPU part %.1f%% of the change; its mechanisms %.1f%%: %s' %
      (cpu['share_pct'], got, [m['metric'] for m in ms]))
sys.exit(not (0 < cpu['share_pct'] <= 100 and got <= cpu['share_pct']))
PY
ok $? "shrinker-srcu: the CPU part's mechanisms count each µs once (their shares <= the CPU's)"
# The CPU part grew in the workers' own run time (outside interrupts), 2.8x a bogo op, while the
# kernel's fixed work per call stayed (the tick's handler, hard IRQ arch_timer: 1.0x): their own
# code or system calls (the unmount's), not a slower CPU (compare_speed.c); said once, under the
# own time's mechanism line, for shrinker-srcu alone.
is "$(grep -c '^    its own code, not a slower CPU: the benchmark.s own run time grew' \
	"$d/compare.txt")" 1 "shrinker-srcu: the own code's growth is said, not a slower CPU"
! grep -q 'the CPU runs the same kernel work' "$d/compare.txt"
ok $? "no variant's headline says the CPU runs slower"

# 3. The kernels: one config, the committed patch series, every run on its variant's image.
cfg=$(sed -n 's/^built_config_sha256=//p' "$fx/nohz-idle/variant.txt")
for v in shrinker-srcu shrinker-fix; do
	[ -n "$cfg" ] && [ "$(sed -n 's/^built_config_sha256=//p' "$fx/$v/variant.txt")" = "$cfg" ]
	ok $? "$v: the baseline's config with a patch series"
	files=$(sed '/^#/d; /^[[:space:]]*$/d; s|^|'"$TS_TOP/boards/patches/$v/"'|' \
		"$TS_TOP/boards/patches/$v/series")
	# shellcheck disable=SC2086 # the series' files, split on purpose
	is "$(cat $files | sha256sum | cut -d' ' -f1)" \
		"$(sed -n 's/^built_patches_sha256=//p' "$fx/$v/variant.txt")" \
		"$v: the committed series is the one the kernel was built with"
done
bad=0
for v in nohz-idle shrinker-srcu shrinker-fix; do
	img=$(sed -n 's/^built_image_sha256=//p' "$fx/$v/variant.txt")
	for m in "$fx/$v"/run-*/meta.txt; do
		grep -q "^kernel_image_sha256=$img\$" "$m" || bad=$((bad + 1))
	done
done
is "$bad" 0 "every run booted its variant's image"
n=0
for k in "$fx"/*/run-*/kprobes.txt; do
	grep -qx 'added p:probe/synchronize_srcu synchronize_srcu' "$k" && n=$((n + 1))
done
is "$n" $((3 * runs)) "every run probed synchronize_srcu (kprobes.txt)"
awk -v n="$runs" '/status=complete/ { i++; want = (i % 3 == 1 ? "nohz-idle" : i % 3 == 2 ?
	"shrinker-srcu" : "shrinker-fix"); if ($3 != "variant=" want) bad++ }
	END { exit !(i == 3 * n && !bad) }' "$fx/order.txt"
ok $? "the runs were recorded interleaved, A B C A B C"

# 4. The reproduction verdict of the A/B pair, beside the seed's figures, from the summaries.
"$TS_TOP/boards/reproduce.sh" "$d" >"$d/reproduction.txt"
ok $? "boards/reproduce.sh gives a verdict"
sed 's/^/# /' "$d/reproduction.txt"
cmp -s "$d/reproduction.txt" "$fx/reproduction.txt"
ok $? "it is the committed reproduction.txt"
grep -q '^  the seed: -78.2% ' "$d/reproduction.txt" &&
	grep -q '^  verdict:  ' "$d/reproduction.txt"
ok $? "the seed's -78.2% beside ours, with a verdict"
tap_done
