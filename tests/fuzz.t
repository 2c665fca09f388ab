#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs the libFuzzer target of the reader and decoder (tests/fuzz/fuzz_reader.c, built by
# `make fuzz-build` into $TS_BUILD/fuzz/) for a fixed short time over the small fixtures.
# A crash, leak, sanitizer report or a hang (an input still running after TS_HANG_GUARD
# seconds, tests/lib/tap.sh) fails the test; the input is kept in
# .cache/fuzz-artifacts/ for `$TS_BUILD/fuzz/fuzz_reader FILE` to replay.
# TS_FUZZ_TIME sets the seconds (default 20).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

FUZZ=$TS_BUILD/fuzz/fuzz_reader
TIME=${TS_FUZZ_TIME:-20}
ART=$TS_TOP/.cache/fuzz-artifacts
if [ ! -x "$FUZZ" ]; then
	diag "building $FUZZ"
	make -C "$TS_TOP" --no-print-directory BUILD="$TS_BUILD" fuzz-build >&2
fi
[ -x "$FUZZ" ] || { echo "Bail out! $FUZZ not built (make fuzz-build needs clang)"; exit 1; }

# Leaks inside libtraceevent on formats it cannot parse are not ours: see tests/lsan.supp.
LSAN_OPTIONS="suppressions=$TS_TOP/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
tap_tmpdir
T=$TAP_TMP
mkdir -p "$T/seeds" "$T/corpus" "$ART"
for s in x86-tiny x86-tiny-pipe x86-tiny-zstd; do
	f=$(fixture_data "$s") || { echo "Bail out! fixture $s missing"; exit 1; }
	cp "$f" "$T/seeds/$s"
done

# report NAME LOG: the TAP point of one fuzzer run
report() {
	_rc=$3
	if [ "$_rc" -eq 0 ] && ! grep -q -e 'ERROR: ' -e 'runtime error:' "$2"; then
		ok 0 "$1"
		grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)' "$2" |
			sed 's/^/#   /'
	else
		ok 1 "$1 (exit $_rc)"
		grep -m3 -E 'ERROR:|runtime error:|SUMMARY' "$2" | sed 's/^/#   /'
		grep -E '^ +#[0-9]+ ' "$2" | head -8 | sed 's/^/#   /'
		grep -E "Test unit written to" "$2" | sed 's/^/#   /'
	fi
}

# 1. every seed, once: the fixtures themselves must run clean
"$FUZZ" -runs=0 -artifact_prefix="$ART/" "$T/seeds" >"$T/seeds.log" 2>&1
report "seed fixtures run clean under ASan/UBSan" "$T/seeds.log" $?

# 2. previously found crashers, if any, replayed so that a fixed bug stays fixed (libFuzzer
# runs file arguments once each; it stops at the first that still fails)
set --
for c in "$ART"/crash-* "$ART"/timeout-* "$ART"/leak-* "$ART"/oom-*; do
	[ -f "$c" ] && set -- "$@" "$c"
done
if [ $# -gt 0 ]; then
	"$FUZZ" -timeout="$TS_HANG_GUARD" "$@" >"$T/replay.log" 2>&1
	report "$# saved input(s) in .cache/fuzz-artifacts replay clean" "$T/replay.log" $?
fi

# 3. a fixed-time fuzzing run (fixed seed, so a failure is reproducible)
"$FUZZ" -seed=1 -max_total_time="$TIME" -max_len=65536 -timeout="$TS_HANG_GUARD" \
	-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$ART/" "$T/corpus" "$T/seeds" \
	>"$T/fuzz.log" 2>&1
report "fuzzing for ${TIME}s finds no crash" "$T/fuzz.log" $?

tap_done
