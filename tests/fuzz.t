#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs the libFuzzer target of the reader and decoder (tests/fuzz/fuzz_reader.c, built by
# `make fuzz-build` into $TS_BUILD/fuzz/) for a fixed number of inputs over the small
# fixtures, from a fixed seed: the same inputs at any load or speed of the machine, where a
# fixed time tried fewer on a busy machine and could miss at load 20 what it found at load 0.
# The inputs are made without the target's threaded read (TS_FUZZ_THREADS=0: its waits are the
# scheduler's, and libFuzzer keeps an input for new coverage, so the inputs tried would follow
# the load); every input kept is then read with it too.
# A crash, leak, sanitizer report or a hang (an input still running after TS_HANG_GUARD
# seconds, tests/lib/tap.sh) fails the test; the input is kept in
# .cache/fuzz-artifacts/ for `$TS_BUILD/fuzz/fuzz_reader FILE` to replay.
# TS_FUZZ_RUNS sets the number of inputs (default 1500: about the 20 s the fixed time took at
# load 2, about 20 CPU-s; `make fuzz` is the open-ended run, FUZZ_TIME seconds).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

FUZZ=$TS_BUILD/fuzz/fuzz_reader
RUNS=${TS_FUZZ_RUNS:-1500}
case "$RUNS" in
'' | *[!0-9]* | 0) echo "Bail out! TS_FUZZ_RUNS must be a count, not '$RUNS'" && exit 1 ;;
esac
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

# 3. a fuzzing run of RUNS inputs from seed 1, from an empty corpus beside the seeds: the same
# inputs wherever it runs, so a failure is found at any load and reproduced by the same command
# (-reload=0: no re-read of the corpus folder every 10 s of the clock)
TS_FUZZ_THREADS=0 "$FUZZ" -seed=1 -runs="$RUNS" -reload=0 -max_len=65536 -timeout="$TS_HANG_GUARD" \
	-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$ART/" "$T/corpus" "$T/seeds" \
	>"$T/fuzz.log" 2>&1
rc=$?
done=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/fuzz.log")
[ "$rc" -ne 0 ] || [ "$done" = "$RUNS" ] || rc=1
report "fuzzing $RUNS inputs from seed 1 finds no crash (${done:-no} run)" "$T/fuzz.log" $rc

# 4. every input that run kept, read the threaded way too (the scanning thread hands the merge
# its runs): as step 1, each once
kept=$(find "$T/corpus" -type f | wc -l)
"$FUZZ" -runs=0 -timeout="$TS_HANG_GUARD" -artifact_prefix="$ART/" "$T/corpus" \
	>"$T/kept.log" 2>&1
report "the $kept inputs it kept run clean with the threaded read too" "$T/kept.log" $?

tap_done
