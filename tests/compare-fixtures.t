#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `tickscope compare` straight on the bundled built-kernel fixtures, whose runs hold their
# summary compressed (run-N/perf.data.tsum.xz) and a meta.txt older than perf_data_sha256:
# compare reads the compressed summary with the checks it gives perf.data.tsum, ranks the
# tick, and writes nothing into the fixture. The oracle for the figures is the summaries'
# own lines (written from each run's trace when it was recorded).
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
mkdir "$TAP_TMP/tmp" && export TMPDIR="$TAP_TMP/tmp" # where compare unpacks
fx=tests/fixtures/kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic
cd "$TS_TOP" || exit 1
touch "$TAP_TMP/stamp"
sleep 1 # a file written below has a later mtime than the stamp, even on coarse clocks

# 1. The command of the first-hour defect (build/tickscope, or the build under test).
"$TICKSCOPE" compare $fx/nohz-idle $fx/hz-periodic >"$TAP_TMP/c.txt" 2>"$TAP_TMP/err"
rc=$?
is "$rc $(wc -l <"$TAP_TMP/err")" "0 0" "compare on the fixture folders: exit 0, nothing on stderr"
[ -s "$TAP_TMP/err" ] && diag "$(head -3 "$TAP_TMP/err")"
! grep -q 'its benchmark result only' "$TAP_TMP/c.txt" "$TAP_TMP/err" &&
	! grep -q 'the runs hold no trace' "$TAP_TMP/c.txt"
ok $? "no run is taken as traceless: every perf.data.tsum.xz is read"
sed -n '/^What changed/,/^$/p' "$TAP_TMP/c.txt" >"$TAP_TMP/ranked"
tick='idle\.exits\.tick\.per_s|timer\.expire\.tick(_sched_timer)?\.per_s'
grep -Eq "^ +[0-9]+\. ($tick|the tick|idle exits by the tick)" "$TAP_TMP/ranked"
ok $? "the tick is ranked among what changed"
[ -s "$TAP_TMP/ranked" ] || diag "$(head -20 "$TAP_TMP/c.txt")"
head -6 "$TAP_TMP/c.txt" | grep -q 'idle exits by the tick'
ok $? "the headline names idle exits by the tick"

# 2. The figures are the summaries' own (JSON's per-run values against each summary's line).
"$TICKSCOPE" compare --json $fx/nohz-idle $fx/hz-periodic >"$TAP_TMP/c.json" 2>/dev/null
ok $? "compare --json on the fixture folders"
for v in nohz-idle hz-periodic; do
	want=$(for t in "$fx/$v"/run-*/perf.data.tsum.xz; do
		xz -dc "$t" | awk -F'\t' -v m=idle.exits.tick.per_s \
			'$1 == "m" && $2 == m { printf "%.6g ", $6 }'
	done)
	got=$(jq -r --arg v "$v" '.metrics[] | select(.name == "idle.exits.tick.per_s") |
		.variants[] | select(.variant == $v) | .values | map(tostring) | join(" ")' \
		"$TAP_TMP/c.json" | awk '{ for (i = 1; i <= NF; i++) printf "%.6g ", $i }')
	is "$got" "$want" "$v: the idle exits by the tick are the summaries' values, run by run"
done

out=$("$TICKSCOPE" summary --check $fx/nohz-idle/run-1 $fx/hz-periodic/run-8)
is "$(printf '%s\n' "$out" | cut -f1,3 | tr '\t\n' ' ;')" "ok summary;ok summary;" \
	"summary --check: both runs usable from their compressed summary"

# 3. Nothing written into the fixture (no cache, no unpacked copy).
is "$(find $fx -newer "$TAP_TMP/stamp" | head -3)" "" "nothing written into the fixture folders"

# 4. The checks perf.data.tsum has, on a compressed one: one line each, exit 1.
cp -r "$fx/nohz-idle" "$TAP_TMP/a"
r1=$TAP_TMP/a/run-1
bad() {
	_why=$1
	shift
	rm -rf "$TAP_TMP/a"
	cp -r "$fx/nohz-idle" "$TAP_TMP/a"
	"$@"
	"$TICKSCOPE" compare "$TAP_TMP/a" "$fx/hz-periodic" >"$TAP_TMP/out" 2>"$TAP_TMP/err"
	_rc=$?
	[ $_rc = 1 ] && [ ! -s "$TAP_TMP/out" ] && [ "$(wc -l <"$TAP_TMP/err")" = 1 ] &&
		grep -qF -- "$_why" "$TAP_TMP/err"
	ok $? "refused: $(sed "s|$TAP_TMP/||g" "$TAP_TMP/err")"
}
bad "a/run-1/perf.data.tsum.xz: cannot unpack it: xz: File format not recognized" \
	sh -c 'echo junk >"$1"' - "$r1/perf.data.tsum.xz"
bad "a/run-1/perf.data.tsum.xz: the summary of another trace (sha256 " \
	sh -c 'printf "perf_data_sha256=%064d\nperf_data_size=1\n" 0 >>"$1"' - "$r1/meta.txt"
bad "a/run-1/perf.data.tsum.xz: meta.txt records no perf_data_sha256" \
	sh -c 'echo perf_data_size=13160031 >>"$1"' - "$r1/meta.txt"
bad "a/run-1/perf.data.tsum.xz: written by tickscope 0.1 (tickscope-summary 7)" \
	sh -c 'xz -dc "$1" | sed "1s/^tickscope-summary [0-9]*/tickscope-summary 7/" |
		xz >"$1.new" && mv "$1.new" "$1"' - "$r1/perf.data.tsum.xz"
bad "a/run-1/perf.data.tsum.xz: computed for the tasks 'pingpong' and 5500 operations" \
	sed -i 's/iterations=5000/iterations=4999/' "$r1/workload.out"
ls "$TMPDIR"/tickscope-cmp-* >/dev/null 2>&1
ok $((!$?)) "no unpacked copy left behind in TMPDIR"
tap_done
