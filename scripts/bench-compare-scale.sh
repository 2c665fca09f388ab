#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench-compare-scale.sh VARIANTS RUNS [DIR]: CPU time (user+sys) and peak RSS of `tickscope
# compare` over VARIANTS variants of RUNS cached runs each, the farm's scale (docs/scale.md).
# The runs are copies of the summary-only runs of one committed experiment
# (tests/fixtures/kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic, 8 runs a
# variant), taken round-robin: even variants from nohz-idle, odd ones from hz-periodic, so that
# every comparison against the baseline has a real difference and real ties. Files are hard
# links of one unpacked copy. Builds under DIR (default: a temporary folder, removed at the
# end); prints one line:
#   compare-scale: V x N runs: cpu S s, peak RSS M MB, median of R (BENCH_RUNS, default 3)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/bench-lib.sh
. "$top/scripts/bench-lib.sh"
FIX=$top/tests/fixtures/kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic
ROUNDS=${BENCH_RUNS:-3}

die() {
	echo "bench-compare-scale: $*" >&2
	exit 1
}

[ $# -ge 2 ] || die "usage: $0 VARIANTS RUNS [DIR]"
nv=$1 nr=$2
[ -x "$TICKSCOPE" ] || die "$TICKSCOPE not built (run make)"
[ -x "$TIME" ] || die "$TIME missing (Debian package time)"
if [ $# -ge 3 ]; then
	dir=$3
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-scale.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi
src=$dir/src
[ -d "$src" ] || "$top/scripts/unpack-summaries.sh" "$FIX" "$src" >/dev/null
exp=$dir/exp-$nv-$nr
if [ ! -f "$exp/.done" ]; then
	rm -rf "$exp"
	v=0
	while [ $v -lt "$nv" ]; do
		from=nohz-idle
		[ $((v % 2)) = 1 ] && from=hz-periodic
		set -- "$src/$from"/run-*
		vd=$exp/v$(printf %02d $v)
		mkdir -p "$vd"
		cp "$src/$from/variant.txt" "$vd/" 2>/dev/null || :
		i=1
		while [ $i -le "$nr" ]; do
			k=$(((i - 1) % $# + 1))
			eval "run=\${$k}"
			mkdir "$vd/run-$i"
			# shellcheck disable=SC2154 # run: set by the eval
			ln "$run"/* "$vd/run-$i/"
			i=$((i + 1))
		done
		v=$((v + 1))
	done
	: >"$exp/.done"
fi
args=
v=0
while [ $v -lt "$nv" ]; do
	args="$args $exp/v$(printf %02d $v)"
	v=$((v + 1))
done
# the first run fills the cache (it reads every summary once); the rounds after it count
# shellcheck disable=SC2086
"$TICKSCOPE" compare --allow-mismatch $args >"$dir/out.txt" 2>"$dir/err.txt" ||
	die "compare failed: $(head -1 "$dir/err.txt")"
: >"$dir/cpu"
bench_timer "$dir"
[ -n "$TIMER" ] || echo "bench-compare-scale: no C compiler for scripts/bench-time.c: CPU times" \
	"by $TIME, in 10 ms steps" >&2
rss=0
i=0
while [ $i -lt "$ROUNDS" ]; do
	# shellcheck disable=SC2086
	bench_run "$dir/time" "$TICKSCOPE" compare --allow-mismatch $args >/dev/null 2>&1 ||
		die "compare failed"
	read -r kb us ss _ <"$dir/time"
	awk -v u="$us" -v s="$ss" 'BEGIN { printf "%.6f\n", u + s }' >>"$dir/cpu"
	[ "$kb" -gt "$rss" ] && rss=$kb
	i=$((i + 1))
done
cpu=$(sort -n "$dir/cpu" | awk '{ t[NR] = $1 } END { printf "%.3f", t[int((NR + 1) / 2)] }')
echo "compare-scale: $nv x $nr runs: cpu $cpu s, peak RSS $((rss / 1024)) MB, median of $ROUNDS"
