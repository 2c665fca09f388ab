#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check-bisect: make bisect live on qemu-aarch64 over the known-answer series
# (tests/fixtures/bisect/shrinker-series: six harmless patches around the shrinker SRCU patch,
# 0004), every candidate built by make kernel and recorded on stress-ng ramfs. It must name
# 0004 and verify it by revert. Slow (7 kernel builds, about 42 recordings); not in CI.
. "$(dirname "$0")/lib/tap.sh"
[ "${TS_CHECK_BISECT:-0}" = 1 ] || skip_all "the live bisection runs in 'make check-bisect'"
[ "$(id -u)" = 0 ] || skip_all "needs root (apt-get download of arm64 packages)"
command -v qemu-system-aarch64 >/dev/null || skip_all "no qemu-system-aarch64"
command -v aarch64-linux-gnu-gcc >/dev/null || skip_all "no aarch64-linux-gnu-gcc"
[ -r /usr/src/linux-source-6.1.tar.xz ] || skip_all "no linux-source-6.1"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
# The bisection stays in results/ (resumable: re-running make check-bisect continues it).
results=${TS_BISECT_RESULTS:-$TS_TOP/results}
out=$results/bisect/shrinker-series
mkdir -p "$results/bisect"
log=$results/bisect/shrinker-series.log

t0=$(date +%s)
"$TS_TOP/boards/bisect.sh" PATCHES="$TS_TOP/tests/fixtures/bisect/shrinker-series" \
	BOARD=qemu-aarch64 WORKLOAD=stress-ramfs WORKERS=2 DURATION=5 CALLCHAINS=1 \
	RUNS="${TS_BISECT_RUNS:-6}" RESULTS="$results" TICKSCOPE="$TICKSCOPE" >"$log" 2>&1
rc=$?
ok $rc "make bisect PATCHES=tests/fixtures/bisect/shrinker-series ($(($(date +%s) - t0))s; $log)"
[ $rc -eq 0 ] || tail -n 30 "$log" | sed 's/^/# /'
sed 's/^/# /' "$out/steps.txt" 2>/dev/null
grep -E 'built in|reusing' "$log" | sed 's/^/# /'

grep -qx 'first_bad=k04' "$out/first-bad.txt" &&
	grep -qx 'change=0004-mm-vmscan-wait-for-an-SRCU-grace-period-in-unregister_shrinker.patch' \
		"$out/first-bad.txt"
ok $? "the first bad change is 0004, the SRCU patch"
grep -qx 'verified=yes' "$out/verify.txt"
ok $? "verified: BAD without 0004 is good, 0004 alone on the base is bad"
# Every candidate booted its own kernel: the image each run booted is the one make kernel built.
bad=0
for d in "$out"/k[0-9]* "$out"/revert "$out"/alone; do
	[ -d "$d/run-1" ] || continue
	want=$(sha256sum <"$(cat "$d/image.txt")" | cut -d' ' -f1)
	for m in "$d"/run-*/meta.txt; do
		grep -qx "kernel_image_sha256=$want" "$m" || { bad=1; diag "$m: not its image"; }
	done
done
ok $bad "every run booted its candidate's built kernel"
# With the patch, the workers wait in synchronize_srcu under unregister_shrinker (the
# mechanism, from the traces of the first bad change against its parent).
grep -q 'synchronize_srcu;unregister_shrinker' "$out/first-bad/compare.txt"
ok $? "first bad against its parent: the workers wait in synchronize_srcu <- unregister_shrinker"
sed 's/^/# /' "$out/first-bad/headline.txt" "$out/verify.txt" 2>/dev/null

tap_done
