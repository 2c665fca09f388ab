#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: `make kernel-config` end to end with the tree's own make olddefconfig: the dropped
# PREEMPT_RT explained, exit codes (each of 0 to 3, through the script and through make, and
# an internal error or a crash as 3), backups, a pristine tree, and in-process = make
# olddefconfig.
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
. "$TS_TOP/tests/kconfig/lib.sh"
touch "$tmp/start"
# Build folders kept across runs: --reuse (REUSE=1) rebuilds the base config and the checker
# only when the tree, arch, board or checker sources change.
cache=$TS_TOP/.cache/kconfig-test
rm -f "$cache"/make-*/.config.tickscope-backup*

# The README's example: a board, a variant, PREEMPT_RT dropped on 6.1 and explained. It is
# preempt-rt's purpose: the run fails (issue 37 item 10), unless drops are allowed.
rc=0
make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" BOARD=qemu-x86 O="$cache/make-x86" REUSE=1 \
	FRAGMENTS="nohz-full preempt-rt tracing" >"$tmp/out" 2>"$tmp/err" || rc=$?
is "$rc" 2 "make kernel-config BOARD=qemu-x86 with preempt-rt fails on 6.1 (make's exit 2)"
grep -q 'kernel-config\] Error 1$' "$tmp/err"
ok $? "make names the script's exit 1 (a purpose not met)"
grep -q 'the purpose of preempt-rt.config: this kernel is not what it asks for; FAIL' "$tmp/out" &&
	grep -q '; 1 purpose not met, [0-9]* warnings*: FAIL$' "$tmp/out"
ok $? "the report says the purpose is not met, and FAIL"
rc=0
make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" BOARD=qemu-x86 O="$cache/make-x86" REUSE=1 \
	ALLOW_DROPS=1 FRAGMENTS="nohz-full preempt-rt tracing" >"$tmp/out" 2>"$tmp/err" || rc=$?
is "$rc" 0 "ALLOW_DROPS=1: the same run exits 0"
grep -q '; 1 purpose not met (allowed), [0-9]* warnings*: OK$' "$tmp/out"
ok $? "and says the purpose was not met, allowed"
grep -q '^dropped  *CONFIG_PREEMPT_RT=y  *preempt-rt.config:[0-9]*  (now n)$' "$tmp/out"
ok $? "PREEMPT_RT is reported dropped"
why='depends on EXPERT [=y] && ARCH_SUPPORTS_RT [=n]; nothing selects ARCH_SUPPORTS_RT'
grep -qF "$why in this tree" "$tmp/out"
ok $? "with the unmet dependency in the tree's Kconfig terms"
grep -q 'expected on Linux 6\.1\.[0-9]* (before 6.12): .*out-of-tree RT patch' "$tmp/out"
ok $? "and marked as expected before v6.12 (out-of-tree RT patch)"
grep -qF 'side effect: choice "Preemption Model" reset from PREEMPT_VOLUNTARY to PREEMPT_NONE' \
	"$tmp/out"
ok $? "the silent fallback to PREEMPT_NONE is shown"
head='^== ARCH=x86_64 Linux 6\.1\.[0-9]*, base x86_64_defconfig + board qemu-x86, '
grep -q "${head}fragments: board-qemu-x86 nohz-full preempt-rt tracing$" "$tmp/out"
ok $? "the board fragment comes first, then the fragments in order"
grep -q '^CONFIG_PREEMPT_NONE=y' "$cache/make-x86/.config" && grep -q '^CONFIG_NO_HZ_FULL=y' \
	"$cache/make-x86/.config" && grep -q '^CONFIG_KVM_GUEST=y' "$cache/make-x86/.config"
ok $? "the .config is in O= with the merged values"

# Re-running over our own .config backs nothing up; over a .config edited since, it keeps one
# backup (REUSE=1: same tree, arch and board as above).
rm -f "$cache/make-x86/.config.tickscope-backup"
make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" BOARD=qemu-x86 O="$cache/make-x86" REUSE=1 \
	FRAGMENTS="nohz-idle preempt-full" >"$tmp/out2" 2>"$tmp/err2"
ok $? "a second run into the same O= succeeds"
[ ! -e "$cache/make-x86/.config.tickscope-backup" ]
ok $? "the .config the last run wrote is not backed up"
echo 'CONFIG_TICKSCOPE_EDITED=y' >>"$cache/make-x86/.config"
cp "$cache/make-x86/.config" "$tmp/previous.config"
for i in 1 2; do
	make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" BOARD=qemu-x86 O="$cache/make-x86" \
		REUSE=1 FRAGMENTS="nohz-idle preempt-full" >"$tmp/out2" 2>"$tmp/err2"
done
cmp -s "$cache/make-x86/.config.tickscope-backup" "$tmp/previous.config"
ok $? "an edited .config is backed up before it is overwritten"
is "$(ls -a "$cache/make-x86" | grep -c tickscope-backup)" 1 "one backup, not one per run"
grep -q '^CONFIG_PREEMPT=y' "$cache/make-x86/.config"
ok $? "and the new .config has the new variant"

# An unexpected drop fails, through the script and through make.
rc=0
"$kf/kernel-config.sh" --ksrc "$ksrc" --board qemu-x86 --out "$cache/make-x86" --reuse \
	"$TS_TOP/tests/kconfig/fragments/rcu-nocb-alone.config" >"$tmp/out3" 2>&1 || rc=$?
is "$rc" 1 "RCU_NOCB_CPU alone: exit 1"
why='depends on TREE_RCU [=y] && (RCU_EXPERT [=n] || NO_HZ_FULL [=n]); '
why="${why}RCU_EXPERT is not set: request CONFIG_RCU_EXPERT=y; NO_HZ_FULL is a member of "
why="${why}the choice \"Timer tick handling\", which is NO_HZ_IDLE"
grep -qF "$why" "$tmp/out3"
ok $? "and says which alternatives would satisfy it"
make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" BOARD=qemu-x86 O="$cache/make-x86" REUSE=1 \
	FRAGMENTS="$TS_TOP/tests/kconfig/fragments/rcu-nocb-alone.config" >/dev/null 2>&1
[ $? -ne 0 ]
ok $? "make kernel-config fails too"

# JSON through make.
make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" BOARD=qemu-x86 O="$cache/make-x86" REUSE=1 \
	JSON=1 FRAGMENTS="hz-periodic" 2>/dev/null >"$tmp/json"
jq -e '.schema == "tickscope-kconfig" and .sets[0].ok and
	(.sets[0].requests[] | select(.symbol == "HZ_PERIODIC") | .verdict == "kept")' \
	"$tmp/json" >/dev/null
ok $? "JSON=1 gives the JSON report"

# In-process olddefconfig (the default: the tree's own conf --olddefconfig in a child of the
# checker, on its Kconfig parse) = the tree's make olddefconfig, on each Debian tree: the
# oracle for the verdict tables of tests/kconfig-fragments.t.
for spec in "6.1 qemu-x86 x86 nohz-full preempt-none vmstat-path shrinker-path" \
	"6.1 qemu-aarch64 arm64 nohz-full preempt-rt tracing" \
	"6.12 qemu-x86 x86 nohz-full preempt-rt shrinker-path shrinker-debug" \
	"6.12 qemu-aarch64 arm64 hz-periodic preempt-voluntary tracing vmstat-path"; do
	set -- $spec
	ver=$1 board=$2 o=$cache/make-$ver-$3
	shift 3
	if ! tree=$(ksrc_of "$ver"); then
		skip "$ver $board: in-process olddefconfig = make olddefconfig" "$tree"
		continue
	fi
	set_name=board-$board+$(echo "$@" | tr ' ' '+')
	"$kf/kernel-config.sh" --ksrc "$tree" --board "$board" --out "$o" --reuse \
		--make-olddefconfig "$@" >/dev/null 2>&1
	"$kf/kernel-config.sh" --ksrc "$tree" --board "$board" --out "$o" --reuse --each \
		"$(echo "$@" | tr ' ' '+')" >/dev/null 2>&1
	diff -u "$o/.config" "$o/sets/$set_name.config" >"$tmp/diff"
	ok $? "$ver $board: in-process olddefconfig writes the same .config as make olddefconfig ($*)"
	head -20 "$tmp/diff" | sed 's/^/#   /'
done

# A cold folder without a base cache: one make builds conf (the tree's build_config) and the
# checker writes the base with the tree's own conf --defconfig on its one Kconfig parse. The
# oracles: the tree's make <defconfig> into a fresh O= (arm64's "defconfig" is the file that
# KBUILD_DEFCONFIG names), and make olddefconfig for the final .config.
for spec in "6.1 arm64 hi1215 nohz-idle preempt-none" "6.12 x86_64 qemu-x86 hz-periodic tracing"; do
	set -- $spec
	ver=$1 arch=$2 board=$3
	shift 3
	if ! tree=$(ksrc_of "$ver"); then
		skip "$ver $board: the base from the checker's conf = make defconfig" "$tree"
		skip "$ver $board: in a cold folder, the .config = make olddefconfig's" "$tree"
		continue
	fi
	o=$tmp/cold-$ver-$board
	rc=0
	TS_KCONFIG_BASE_CACHE='' "$kf/kernel-config.sh" --ksrc "$tree" --board "$board" --out "$o" \
		"$@" >"$o.out" 2>"$o.err" || rc=$?
	defconfig=$(awk -v b="$board" '$1 == b { print $3 }' "$kf/boards.tsv")
	cross=$(awk -v b="$board" '$1 == b && $5 != "-" { print $5 }' "$kf/boards.tsv")
	command -v "${cross}gcc" >/dev/null 2>&1 || cross=
	make -s -C "$tree" O="$tmp/defconfig-$ver-$board" ARCH="$arch" CROSS_COMPILE="$cross" \
		"$defconfig" >/dev/null 2>&1
	[ "$rc" -le 1 ] && [ -f "$o/tickscope-kconfig" ] &&
		[ ! -e "$o/.config.tickscope-backup" ] &&
		cmp "$o/tickscope-base.config" "$tmp/defconfig-$ver-$board/.config"
	ok $? "$ver $board: the base from the checker's conf = make $defconfig (exit $rc)"
	[ "$rc" -le 1 ] || sed 's/^/#   /' "$o.err" | tail -3
	rc=0
	TS_KCONFIG_BASE_CACHE='' "$kf/kernel-config.sh" --ksrc "$tree" --board "$board" \
		--out "$o-make" --make-olddefconfig "$@" >"$o-make.out" 2>/dev/null || rc=$?
	[ "$rc" -le 1 ] && cmp "$o/.config" "$o-make/.config" && cmp "$o.out" "$o-make.out"
	ok $? "$ver $board: in a cold folder, the .config and report = make olddefconfig's"
done

# The user's tree is never written, and a tree that is not pristine is refused.
changed=$(find "$ksrc" -newer "$tmp/start" | head -5)
is "$changed" "" "nothing in the kernel tree was modified"
mkdir -p "$tmp/dirty/scripts/kconfig"
cp "$ksrc/Makefile" "$tmp/dirty/"
echo 'CONFIG_SMP=y' >"$tmp/dirty/.config"
rc=0
"$kf/kernel-config.sh" --ksrc "$tmp/dirty" --arch x86_64 --out "$tmp/d" nohz-idle \
	>/dev/null 2>"$tmp/err4" || rc=$?
is "$rc" 3 "a tree with its own .config is refused (exit 3)"
grep -q 'is not pristine' "$tmp/err4"
ok $? "saying why"
is "$(cat "$tmp/dirty/.config")" "CONFIG_SMP=y" "and its .config is untouched"

# Exit codes: the script's are 0, 1, 2 and 3 only (0 and 1 above); through make, GNU make
# exits 2 on any failure and its last line names the script's code.
# exits WANT DESC COMMAND...: COMMAND's exit status is WANT; its stderr is in $tmp/err.
exits() {
	want=$1 desc=$2
	shift 2
	rc=0
	"$@" >/dev/null 2>"$tmp/err" || rc=$?
	is "$rc" "$want" "$desc"
}
# said PATTERN DESC: a line of $tmp/err matches PATTERN (grep -E).
said() {
	grep -qE "$1" "$tmp/err"
	r=$?
	ok $r "$2"
	[ $r = 0 ] || sed 's/^/#   /' "$tmp/err" | tail -3
}
mk() {
	make -s -C "$TS_TOP" kernel-config "$@"
}
exits 2 "make kernel-config on an unusable tree: make's exit 2" \
	mk KSRC="$tmp/dirty" ARCH=x86_64 O="$tmp/d" FRAGMENTS=nohz-idle
said 'kernel-config\] Error 3$' "naming the script's exit 3 (tree unusable)"
exits 2 "a mistyped fragment: exit 2" \
	"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$tmp/d" nohz-idel
said "fragment 'nohz-idel': not found \\(did you mean 'nohz-idle'\\?\\)" \
	"naming the nearest fragment"
exits 2 "and through make: exit 2" mk KSRC="$ksrc" ARCH=x86_64 O="$tmp/d" FRAGMENTS=nohz-idel
said 'kernel-config\] Error 2$' "naming the script's exit 2 (usage)"
exits 2 "an option without its value: exit 2 (usage), not the shell's error" \
	"$kf/kernel-config.sh" --arch x86_64 --ksrc
said '^kernel-config: --ksrc needs a value$' "saying which option"
echo file >"$tmp/a-file"
exits 2 "an output folder that cannot be created: exit 2, not 1 (which means a purpose)" \
	"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$tmp/a-file/o" nohz-idle
said "^kernel-config: O=$tmp/a-file/o: cannot create or write this folder" \
	"saying which folder"
# An internal error is no verdict: exit 3, said, whatever status the failing step had. Two
# real ones, on copies of a build folder: a step that fails under set -e (the stamp this run
# must replace is a folder: rm fails with 1, which would read "a purpose dropped"), and a
# checker that crashes (killed by SIGSEGV: the shell's 139).
exits 0 "a build folder to copy" "$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 \
	--out "$cache/make-codes" --reuse nohz-idle
cp -a "$cache/make-codes" "$tmp/stamp"
rm -f "$tmp/stamp/tickscope-stamp"
mkdir "$tmp/stamp/tickscope-stamp"
exits 3 "a step failing unexpectedly: exit 3" "$kf/kernel-config.sh" --ksrc "$ksrc" \
	--arch x86_64 --out "$tmp/stamp" --reuse nohz-idle
said '^kernel-config: internal error: a step failed with status 1; no verdict$' \
	"said as an internal error with the step's status"
cp -a "$cache/make-codes" "$tmp/crash"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$tmp/crash/tickscope-kconfig"
exits 3 "the checker killed by a signal: exit 3, not 139" "$kf/kernel-config.sh" \
	--ksrc "$ksrc" --arch x86_64 --out "$tmp/crash" --reuse nohz-idle
said '^kernel-config: internal error: the checker was killed by signal 11; no verdict$' \
	"said as an internal error naming the signal"
exits 2 "and through make: exit 2" \
	mk KSRC="$ksrc" ARCH=x86_64 O="$tmp/crash" REUSE=1 FRAGMENTS=nohz-idle
said 'kernel-config\] Error 3$' "naming the script's exit 3"

# A boards/ profile names its board fragment itself: it is not merged twice.
"$kf/kernel-config.sh" --ksrc "$ksrc" --board qemu-x86 --out "$cache/make-x86" --reuse \
	board-qemu-x86 tracing nohz-idle >"$tmp/out6" 2>&1
grep -q 'fragments: board-qemu-x86 tracing nohz-idle$' "$tmp/out6" &&
	! grep -q '^overridden' "$tmp/out6"
ok $? "a board fragment already in the list is not prepended again"

# The experiment .config names the board and the fragments.
make -s -C "$TS_TOP" qemu-aarch64_defconfig TS_EXPERIMENT="$tmp/exp" >/dev/null 2>&1
make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" TS_EXPERIMENT="$tmp/exp" O="$cache/make-arm64" \
	REUSE=1 >"$tmp/out5" 2>&1
ok $? "make kernel-config takes board and fragments from the experiment .config"
grep -q 'fragments: board-qemu-aarch64 nohz-idle preempt-voluntary tracing vmstat-path$' \
	"$tmp/out5"
ok $? "qemu-aarch64_defconfig: board-qemu-aarch64 + nohz-idle preempt-voluntary tracing vmstat-path"
tap_done
