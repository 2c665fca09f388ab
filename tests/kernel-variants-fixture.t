#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The committed output of a real make check-kernel-variants (tests/fixtures/kernel-variants/):
# the known answer of hz-periodic against nohz-idle built kernels, and the data agreeing.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/kernel-variants.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v python3 >/dev/null || skip_all "no python3"
tap_tmpdir
fx=$TS_TOP/tests/fixtures/kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic
d=$TAP_TMP/exp
mkdir -p "$d"
cp "$fx/compare.txt" "$d/"
xz -dc "$fx/compare.json.xz" >"$d/compare.json"
ok $? "the fixture's compare.json decompresses"

# 1. The answer, from compare's committed text and JSON (8 runs a side).
kv_tick_answer "$d" nohz-idle hz-periodic 8

grep -q '^  \* timer:tick_stop recorded in nohz-idle only: the kernel of hz-periodic does not' \
	"$d/compare.txt" && ! grep -q 'events differ' "$d/compare.txt"
ok $? "no tick_stop in the periodic kernel is a kernel difference, not a confounder"

# 2. The variants: two built kernels, different configs from the same base, their fragments'
# verdicts all kept, and every run booted the image its variant records.
for v in nohz-idle hz-periodic; do
	vt=$fx/$v/variant.txt
	grep -q "^built_fragments=$v tracing\$" "$vt" &&
		grep -q '^built_fragment_verdicts=result: .* 0 dropped .*: OK$' "$vt"
	ok $? "$v: built from the $v and tracing fragments, no request dropped"
	img=$(sed -n 's/^built_image_sha256=//p' "$vt")
	bad=0 n=0
	for m in "$fx/$v"/run-*/meta.txt; do
		n=$((n + 1))
		grep -q '^guest_kernel=built$' "$m" && grep -q "^kernel_image_sha256=$img\$" "$m" ||
			bad=$((bad + 1))
	done
	[ "$n" = 8 ] && [ "$bad" = 0 ]
	ok $? "$v: all $n runs booted the built image ($bad did not)"
done
ba=$(sed -n 's/^built_base_config_sha256=//p' "$fx/nohz-idle/variant.txt")
bb=$(sed -n 's/^built_base_config_sha256=//p' "$fx/hz-periodic/variant.txt")
ca=$(sed -n 's/^built_config_sha256=//p' "$fx/nohz-idle/variant.txt")
cb=$(sed -n 's/^built_config_sha256=//p' "$fx/hz-periodic/variant.txt")
[ -n "$ba" ] && [ "$ba" = "$bb" ] && [ -n "$ca" ] && [ "$ca" != "$cb" ]
ok $? "same base config, different kernel configs"
xz -dc "$fx/hz-periodic/kernel.config.xz" | grep -qx 'CONFIG_HZ_PERIODIC=y' &&
	xz -dc "$fx/nohz-idle/kernel.config.xz" | grep -qx 'CONFIG_NO_HZ_IDLE=y'
ok $? "the configs say HZ_PERIODIC and NO_HZ_IDLE"

# 3. Interleaved: A B A B ...
is "$(awk '/status=complete/ { printf "%s ", $3 }' "$fx/order.txt" | cut -c1-59)" \
	"variant=nohz-idle variant=hz-periodic variant=nohz-idle var" \
	"the runs were recorded interleaved, A B A B"

# 4. compare.json's per-run values are the runs' own summaries (perf.data.tsum, from the trace).
for v in nohz-idle hz-periodic; do
	want=$(for t in "$fx/$v"/run-*/perf.data.tsum.xz; do
		xz -dc "$t" | awk -F'\t' '$1 == "m" && $2 == "idle.exits.tick.per_s" { printf "%.6g ", $6 }'
	done)
	got=$(python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
m = {e['name']: e for e in d['metrics']}
v = {x['variant']: x for x in m['idle.exits.tick.per_s']['variants']}
print(' '.join('%.6g' % x for x in v[sys.argv[2]]['values']) + ' ')" "$d/compare.json" "$v")
	is "$got" "$want" "$v: compare's idle exits by the tick are the runs' summaries"
done
# 5. The shrinker patch variant against its baseline (seed 2's mechanism), 20 runs a side.
fs=$TS_TOP/tests/fixtures/kernel-variants/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu
ds=$TAP_TMP/shr
mkdir -p "$ds"
cp "$fs/compare.txt" "$ds/"
xz -dc "$fs/compare.json.xz" >"$ds/compare.json"
kv_shrinker_answer "$ds" nohz-idle shrinker-srcu 20
vt=$fs/shrinker-srcu/variant.txt
grep -q '^built_patches=boards/patches/shrinker-srcu/0001-' "$vt" &&
	[ "$(sed -n 's/^built_config_sha256=//p' "$vt")" = \
		"$(sed -n 's/^built_config_sha256=//p' "$fs/nohz-idle/variant.txt")" ]
ok $? "shrinker-srcu: the baseline's config with the patch series"
want=$(sed -n 's/^built_patches_sha256=//p' "$vt")
is "$(cat "$TS_TOP/boards/patches/shrinker-srcu/0001-"*.patch | sha256sum | cut -d' ' -f1)" \
	"$want" "shrinker-srcu: the committed patch is the one the kernel was built with"
awk '/status=complete/ { n++; if ($3 != (n % 2 ? "variant=nohz-idle" : "variant=shrinker-srcu"))
	bad++ } END { exit !(n == 40 && !bad) }' "$fs/order.txt"
ok $? "the 40 runs were recorded interleaved, A B A B"
tap_done
