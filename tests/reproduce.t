#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The reproduction verdict (boards/reproduce.sh): the seed's change read from its own benchmark
# outputs, beside the change measured between the case's variant pair. Known answers: the
# shrinker experiment of tests/fixtures/kernel-variants/ against seed 2 (-78.2% real-time
# bogo ops/s; here -44.6%, p 0.002: reproduced), and the verdicts' other branches on the same
# compare.json with its significance or direction changed; the vmstat seed's figures from
# tests/fixtures/seeds/vmstat-44/.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq is not installed (make deps installs it)"
command -v xz >/dev/null || skip_all "no xz"
tap_tmpdir
tmp=$TAP_TMP
r=$TS_TOP/boards/reproduce.sh
fx=$TS_TOP/tests/fixtures/kernel-variants/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu
mkdir -p "$tmp/e"
cp "$fx/experiment.txt" "$tmp/e/"
xz -dc "$fx/compare.json.xz" >"$tmp/e/compare.json"

"$r" "$tmp/e" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "an experiment that declares no case: exit 2"
echo "reproduces=shrinker-srcu" >>"$tmp/e/experiment.txt"
"$r" "$tmp/e" >"$tmp/out" 2>"$tmp/err"
ok $? "reproduces=shrinker-srcu in experiment.txt: a verdict"
grep -qx '  the seed: -78.2% (9-workers: 12915.89 -> 2811.08)' "$tmp/out"
ok $? "the seed's change: -78.2% real-time bogo ops/s, from its own stress-ng output"
want='^  here:     -44.6% (nohz-idle -> shrinker-srcu, medians 659.855 -> 365.275 ops/s,'
grep -q "$want 20 and 20 runs), p=0.002.*, significant\$" "$tmp/out"
ok $? "here: -44.6% between the pair's medians, 20 runs each, significant"
grep -qx "  verdict:  reproduced: the seed's direction, significant" "$tmp/out"
ok $? "verdict: reproduced"

# The other branches, on the same document changed.
jq '(.metrics[] | select(.family == "result") | .variants[1].significant) = false' \
	"$tmp/e/compare.json" >"$tmp/c" && mv "$tmp/c" "$tmp/e/compare.json"
"$r" "$tmp/e" | grep -qx '  verdict:  not reproduced: no significant change here'
ok $? "not significant: not reproduced"
jq '(.metrics[] | select(.family == "result") | .variants[1]) |= (.significant = true |
	.median = 900)' "$tmp/e/compare.json" >"$tmp/c" && mv "$tmp/c" "$tmp/e/compare.json"
"$r" "$tmp/e" | grep -qx '  verdict:  not reproduced: a significant change the opposite way'
ok $? "significant the other way: not reproduced, said so"

# The vmstat case: its seed figures per workload; the pinned control's "no change".
sed -i 's/^workload=.*/workload=pingpong-same/; s/^reproduces=.*/reproduces=vmstat-44/' \
	"$tmp/e/experiment.txt"
jq '(.metrics[] | select(.family == "result")) |= (.variants[0].variant = "vmstat-44-before" |
	.variants[1].variant = "vmstat-44-after" | .variants[1].significant = false)' \
	"$tmp/e/compare.json" >"$tmp/c" && mv "$tmp/c" "$tmp/e/compare.json"
"$r" "$tmp/e" >"$tmp/out"
grep -qx '  the seed: -1.0% (x86-guest: 17.9296 -> 17.7500)' "$tmp/out" &&
	grep -qx '  verdict:  agrees: the seed saw no change, and here the change is not significant' \
	"$tmp/out"
ok $? "pinned: the seed's -1.0% is no change, and none here agrees"
sed -i 's/^workload=.*/workload=pingpong/' "$tmp/e/experiment.txt"
want='  the seed: +17.0% (x86-guest: 133.7073 -> 156.4722), +22.1% (hi1215: 30.7 -> 37.5)'
"$r" "$tmp/e" | grep -qx "$want"
ok $? "unpinned: the seed's +17.0% (x86 guest) and +22.1% (hi1215)"
sed -i 's/^workload=.*/workload=pingpong-cross/' "$tmp/e/experiment.txt"
"$r" "$tmp/e" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q 'no seed measurement of workload pingpong-cross' "$tmp/err"
ok $? "a workload the seed did not measure: an error naming it"
tap_done
