#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# compare --kallsyms: perf.data files given alone carry no kallsyms (perf 6.1 stores none), so
# their timer functions are raw addresses, which differ between kernels and never match. With
# --kallsyms, one file for all variants or one per variant, they are named as perf script
# --kallsyms names them (the oracle); a run folder's kallsyms.xz names them as kallsyms does.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
fx=$TS_TOP/tests/fixtures
for v in same cross; do
	cp "$fx/x86-pingpong-$v.data.xz" "$T/$v.data.xz"
	cp "$fx/x86-pingpong-$v.log" "$T/$v.log"
done
xz -dc "$fx/x86-b0ab7601.kallsyms.xz" >"$T/k" # the recording boot's (both .meta name it)
xz -dc "$fx/x86-e72a4173.kallsyms.xz" >"$T/k2" # another boot's: other addresses
files="--bench $T/same.log $T/same.data.xz -- --bench $T/cross.log $T/cross.data.xz"

# timer_fns JSON VARIANT: the functions of timer.expire.<fn>.per_s measured in VARIANT's run
timer_fns() {
	jq -r --arg v "$2" '.metrics[] | select(.name | test("^timer\\.expire\\.[^.]+\\.per_s$")) |
		select(.name | test("^timer\\.expire\\.(hrtimer|timer|tick)?\\.?per_s$") | not) |
		select(any(.variants[]; .variant == $v and .values[0] != null and .values[0] > 0)) |
		.name | sub("^timer\\.expire\\."; "") | sub("\\.per_s$"; "")' "$1" | sort
}

# 1. Without: raw addresses.
# shellcheck disable=SC2086
"$TICKSCOPE" compare --json --comm pingpong $files >"$T/no.json" 2>"$T/err"
ok $? "compare two perf.data files"
timer_fns "$T/no.json" A | grep -q '^0x'
ok $? "without --kallsyms the timer functions are raw addresses"

# 2. One file for both: named as perf script names them.
# shellcheck disable=SC2086
"$TICKSCOPE" compare --json --kallsyms "$T/k" --comm pingpong $files >"$T/k.json" 2>"$T/err"
ok $? "compare --kallsyms FILE"
timer_fns "$T/k.json" A >"$T/got"
[ -s "$T/got" ] && grep -q '^tick_nohz_handler$' "$T/got" && ! grep -q '^0x' "$T/got"
ok $? "named, the tick's handler among them, no raw address left ($(wc -l <"$T/got") functions)"
# the oracle: the hrtimer and timer_list functions perf script names with the same kallsyms
fns() {
	xz -dc "$T/$1.data.xz" >"$T/x.data"
	perf script -i "$T/x.data" --kallsyms "$2" -F event,trace 2>/dev/null |
		sed -n 's/.*timer:\(hr\)\{0,1\}timer_expire_entry: .*function=\([^ ]*\).*/\2/p' |
		sort -u
}
if command -v perf >/dev/null; then
	is "$(tr '\n' ' ' <"$T/got")" "$(fns same "$T/k" | tr '\n' ' ')" \
		"same: the timer functions are perf script --kallsyms's"
else
	skip "same: the timer functions are perf script --kallsyms's" "no perf"
fi

# 3. One per variant, in order: the second variant's names come from the second file.
# shellcheck disable=SC2086
"$TICKSCOPE" compare --json --kallsyms "$T/k,$T/k2" --comm pingpong $files >"$T/k2.json" \
	2>"$T/err"
ok $? "compare --kallsyms A,B"
is "$(timer_fns "$T/k2.json" A | tr '\n' ' ')" "$(tr '\n' ' ' <"$T/got")" \
	"the first variant is named by the first file"
if command -v perf >/dev/null; then
	is "$(timer_fns "$T/k2.json" B | tr '\n' ' ')" "$(fns cross "$T/k2" | tr '\n' ' ')" \
		"the second by the second, as perf script --kallsyms names them"
else
	skip "the second by the second" "no perf"
fi

# 4. Wrong counts and missing files: one line, exit 1, nothing on stdout.
bad() {
	_why=$1
	shift
	"$TICKSCOPE" compare "$@" --comm pingpong --bench "$T/same.log" "$T/same.data.xz" -- \
		--bench "$T/cross.log" "$T/cross.data.xz" >"$T/out" 2>"$T/err"
	[ $? = 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" = 1 ] &&
		grep -qF -- "$_why" "$T/err"
	ok $? "refused: $(sed "s|$T/||g" "$T/err")"
}
bad "--kallsyms: 3 files for 2 variants" --kallsyms "$T/k,$T/k,$T/k"
bad "--kallsyms $T/nothing: No such file" --kallsyms "$T/k,$T/nothing"

# 5. Run folders: kallsyms.xz names the functions as kallsyms does; --kallsyms replaces it.
for v in same cross; do
	mkdir -p "$T/f-$v/$v/run-1" "$T/fx-$v/$v/run-1"
	cp "$T/$v.data.xz" "$T/f-$v/$v/run-1/perf.data.xz"
	cp "$T/$v.log" "$T/f-$v/$v/run-1/workload.out"
	cp "$T/k" "$T/f-$v/$v/run-1/kallsyms"
	cp "$T/$v.data.xz" "$T/fx-$v/$v/run-1/perf.data.xz"
	cp "$T/$v.log" "$T/fx-$v/$v/run-1/workload.out"
	cp "$fx/x86-b0ab7601.kallsyms.xz" "$T/fx-$v/$v/run-1/kallsyms.xz"
done
"$TICKSCOPE" compare --json --comm pingpong "$T/f-same/same" "$T/f-cross/cross" >"$T/f.json" \
	2>"$T/err" &&
	"$TICKSCOPE" compare --json --comm pingpong "$T/fx-same/same" "$T/fx-cross/cross" \
		>"$T/fx.json" 2>>"$T/err"
ok $? "compare run folders with kallsyms, and with kallsyms.xz"
timer_fns "$T/f.json" cross | grep -q '^tick_nohz_handler$'
ok $? "a run folder's kallsyms names the functions"
is "$(timer_fns "$T/fx.json" cross | tr '\n' ' ')" "$(timer_fns "$T/f.json" cross | tr '\n' ' ')" \
	"kallsyms.xz names the functions as kallsyms does"
"$TICKSCOPE" compare --json --kallsyms "$T/k2" --comm pingpong "$T/fx-same/same" \
	"$T/fx-cross/cross" >"$T/fk.json" 2>>"$T/err"
is "$(timer_fns "$T/fk.json" cross | tr '\n' ' ')" "$(timer_fns "$T/k2.json" B | tr '\n' ' ')" \
	"--kallsyms replaces a run folder's own"
tap_done
