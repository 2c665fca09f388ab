#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# boards: a recording labelled with a variant is checked against the kernel it ran on
# (boards/lib/variant-check.sh on run folders with a known saved config and command line).
. "$(dirname "$0")/lib/tap.sh"
vc=$TS_TOP/boards/lib/variant-check.sh
tap_tmpdir
tmp=$TAP_TMP

# run NAME: a complete run folder whose kernel is PREEMPT_NONE without PREEMPT_DYNAMIC.
run() {
	mkdir -p "$tmp/$1"
	printf 'format=tickscope-run-1\nvariant=%s\nresult=24.3100\nresult_unit=%s\nstatus=complete\n' \
		"$1" us_per_round_trip >"$tmp/$1/meta.txt"
	printf '%s\n' 'CONFIG_PREEMPT_NONE=y' '# CONFIG_PREEMPT_VOLUNTARY is not set' \
		'# CONFIG_PREEMPT is not set' '# CONFIG_PREEMPT_DYNAMIC is not set' \
		'CONFIG_HZ_PERIODIC=y' '# CONFIG_NO_HZ_IDLE is not set' 'CONFIG_HIGH_RES_TIMERS=y' \
		>"$tmp/$1/kconfig"
	echo 'BOOT_IMAGE=/vmlinuz root=/dev/vda quiet nohz=off' >"$tmp/$1/cmdline.txt"
}

run good
"$vc" "$tmp/good" "preempt-none hz-periodic" "nohz=off" >"$tmp/out"
ok $? "the kernel is the variant's: exit 0"
grep -qx 'variant_check=ok' "$tmp/good/meta.txt" && grep -qx 'variant_mismatches=0' \
	"$tmp/good/meta.txt"
ok $? "meta.txt says variant_check=ok"
is "$(tail -1 "$tmp/good/meta.txt")" "status=complete" "the status line stays last"

run mislabelled
rc=0
"$vc" "$tmp/mislabelled" "preempt-voluntary nohz-idle" "nohz_full=1-7" >"$tmp/out" || rc=$?
is "$rc" 1 "a recording labelled with another variant: exit 1"
want='CONFIG_PREEMPT_VOLUNTARY: the variant asks y (preempt-voluntary.config), the recorded'
grep -qx "$want kernel has n" "$tmp/out"
ok $? "the requested preemption model is named, with what the kernel has"
grep -q '^CONFIG_NO_HZ_IDLE: the variant asks y (nohz-idle.config)' "$tmp/out"
ok $? "and the tick mode"
grep -qx 'boot argument nohz_full=1-7: not on the recorded kernel.s command line' "$tmp/out"
ok $? "and the missing boot argument"
! grep -q PREEMPT_DYNAMIC "$tmp/out"
ok $? "a request the kernel does satisfy is not a mismatch (PREEMPT_DYNAMIC off)"
grep -qx 'variant_check=mismatch' "$tmp/mislabelled/meta.txt" &&
	grep -qx 'variant_mismatches=3' "$tmp/mislabelled/meta.txt" &&
	[ "$(grep -c '^variant_mismatch=' "$tmp/mislabelled/meta.txt")" = 3 ]
ok $? "meta.txt: variant_check=mismatch and the 3 mismatches"
is "$(tail -1 "$tmp/mislabelled/meta.txt")" "status=complete" "the status line stays last"
"$vc" "$tmp/mislabelled" "preempt-voluntary nohz-idle" "nohz_full=1-7" >/dev/null
is "$(grep -c '^variant_check=' "$tmp/mislabelled/meta.txt")" 1 "a second check replaces the first"

run noconfig
rm "$tmp/noconfig/kconfig"
rc=0
"$vc" "$tmp/noconfig" "preempt-none" "" >"$tmp/out" || rc=$?
is "$rc" 2 "no saved config: exit 2"
grep -qx 'variant_check=unknown' "$tmp/noconfig/meta.txt"
ok $? "meta.txt says unknown, not ok"
rc=0
"$vc" "$tmp/good" "no-such-fragment" "" >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 2 "an unknown fragment: exit 2"
grep -q 'fragment no-such-fragment: no such file' "$tmp/err"
ok $? "naming it"

# A variant that declares nothing (VARIANT=same on the machine you are on) is a label: nothing
# to check, and compare takes it without --allow-mismatch.
run label
rc=0
"$vc" "$tmp/label" "" "" >"$tmp/out" || rc=$?
is "$rc:$(cat "$tmp/out")" "0:" "a label: exit 0, no mismatch printed"
is "$(grep '^variant_' "$tmp/label/meta.txt" | tr '\n' ' ')" \
	"variant_check=label variant_mismatches=0 " "meta.txt says variant_check=label"
is "$(tail -1 "$tmp/label/meta.txt")" "status=complete" "the status line stays last"
# Boot arguments alone (a Debian image with nohz=off): the command line is checked, the
# config is not part of the variant, even when the kernel saved none.
run bootonly
rm "$tmp/bootonly/kconfig"
rc=0
"$vc" "$tmp/bootonly" "" "nohz=off" >"$tmp/out" || rc=$?
is "$rc:$(sed -n 's/^variant_check=//p' "$tmp/bootonly/meta.txt")" "0:ok" \
	"boot arguments alone, on the command line: ok, with no saved config"
rc=0
"$vc" "$tmp/bootonly" "" "nohz_full=1" >"$tmp/out" || rc=$?
is "$rc:$(sed -n 's/^variant_check=//p' "$tmp/bootonly/meta.txt")" "1:mismatch" \
	"boot arguments alone, missing from the command line: mismatch"
if [ -x "$TICKSCOPE" ]; then
	for r in label bootonly good; do
		echo 'AF_UNIX sock stream latency: 24.3100 microseconds' >"$tmp/$r/workload.out"
	done
	# compare refuses only the mismatch: the label's run is compared, the mismatched one is
	# refused by name
	"$TICKSCOPE" compare --no-trace "$tmp/label" -- "$tmp/good" >/dev/null 2>"$tmp/err"
	ok $? "compare takes a label's run ($(head -c 150 "$tmp/err"))"
	"$TICKSCOPE" compare --no-trace "$tmp/label" -- "$tmp/bootonly" >/dev/null 2>"$tmp/err"
	grep -q 'bootonly/meta.txt: the recorded kernel does not match its variant' "$tmp/err"
	ok $? "compare refuses the run whose boot arguments are missing ($(head -c 150 "$tmp/err"))"
fi
tap_done
