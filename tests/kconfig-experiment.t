#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: the experiment Kconfig with Debian's kconfig-frontends: alldefconfig, every
# configs/*_defconfig, savedefconfig -> defconfig round trips, and the derived variables.
. "$(dirname "$0")/lib/tap.sh"

command -v kconfig-conf >/dev/null 2>&1 ||
	skip_all "kconfig-conf is not installed (package kconfig-frontends-nox; make deps installs it)"
kf=$TS_TOP/kconfig-fragments
tap_tmpdir
tmp=$TAP_TMP

# val CONFIG FILE: the value of CONFIG_NAME in FILE, quotes kept.
val() {
	sed -n "s/^CONFIG_$1=//p" "$2"
}

conf() {
	(cd "$TS_TOP" && KCONFIG_CONFIG="$tmp/.config" kconfig-conf -s "$@" Kconfig) >"$tmp/log" 2>&1
}

conf --alldefconfig
ok $? "alldefconfig"
is "$(val TS_BOARD "$tmp/.config")" '"x86-host"' "alldefconfig: board x86-host"
is "$(val TS_ARCH "$tmp/.config")" '"x86_64"' "alldefconfig: arch x86_64"
is "$(val TS_KERNEL_DEFCONFIG "$tmp/.config")" '"x86_64_defconfig"' \
	"alldefconfig: kernel base x86_64_defconfig"
is "$(val TS_FRAGMENTS "$tmp/.config")" '"nohz-idle preempt-voluntary tracing vmstat-path"' \
	"alldefconfig: fragments derived from the tick, preemption and path choices"
is "$(val TS_VARIANT "$tmp/.config")" '"nohz-idle-voluntary"' "alldefconfig: variant name derived"
is "$(val TS_GUEST_KERNEL "$tmp/.config")" '"generic"' "alldefconfig: generic guest kernel"
is "$(val TS_BOOT_ARGS "$tmp/.config")" '""' "alldefconfig: no boot arguments for NO_HZ_IDLE"
is "$(val TS_WORKLOAD "$tmp/.config")" '"pingpong-cross"' "alldefconfig: pinned cross-CPU ping-pong"
is "$(val TS_RUNS "$tmp/.config")" 5 "alldefconfig: 5 runs"
is "$(val TS_DURATION "$tmp/.config")" 10 "alldefconfig: 10 s"
is "$(val TS_PINGPONG_ITERS "$tmp/.config")" 20000 "alldefconfig: 20000 round trips"
is "$(val TS_STRESS_WORKERS "$tmp/.config")" 9 "alldefconfig: 9 ramfs workers (seed 2)"
is "$(val TS_EVENTS "$tmp/.config")" '""' \
	"alldefconfig: no event list (the recorder's own set, with the IPI events)"
grep -q '^# CONFIG_TS_CALLCHAINS is not set$' "$tmp/.config"
ok $? "alldefconfig: callchains off"

# Every board defconfig, through make as users run it, and its savedefconfig round trip.
nd=0
for f in "$TS_TOP"/configs/*_defconfig; do
	[ -f "$f" ] || continue
	nd=$((nd + 1))
	name=$(basename "$f" _defconfig)
	make -s -C "$TS_TOP" "${name}_defconfig" TS_EXPERIMENT="$tmp/$name.config" >"$tmp/log" 2>&1
	ok $? "make ${name}_defconfig"
	board=$(val TS_BOARD "$tmp/$name.config" | tr -d '"')
	line=$(awk -v b="$board" '$1 == b' "$kf/boards.tsv")
	[ -n "$line" ] && case "$name" in "$board" | "$board"-*) true ;; *) false ;; esac
	ok $? "$name: board '$board' is in boards.tsv and names the defconfig"
	is "$(val TS_ARCH "$tmp/$name.config" | tr -d '"')" "$(echo "$line" | cut -f2)" \
		"$name: TS_ARCH agrees with boards.tsv"
	is "$(val TS_KERNEL_DEFCONFIG "$tmp/$name.config" | tr -d '"')" \
		"$(echo "$line" | cut -f3)" "$name: TS_KERNEL_DEFCONFIG agrees with boards.tsv"
	missing=
	nf=0
	for frag in $(val TS_FRAGMENTS "$tmp/$name.config" | tr -d '"') $(echo "$line" | cut -f4); do
		nf=$((nf + 1))
		[ -f "$kf/$frag.config" ] || missing="$missing $frag"
	done
	[ "$nf" -gt 0 ] || missing="(it names none)"
	is "$missing" "" "$name: every fragment it names exists"

	make -s -C "$TS_TOP" savedefconfig TS_EXPERIMENT="$tmp/$name.config" \
		DEFCONFIG="$tmp/$name.saved" >"$tmp/log" 2>&1
	ok $? "$name: make savedefconfig"
	diff -u "$f" "$tmp/$name.saved" >"$tmp/diff"
	ok $? "$name: savedefconfig gives back configs/${name}_defconfig"
	sed 's/^/#   /' "$tmp/diff"
	(cd "$TS_TOP" && KCONFIG_CONFIG="$tmp/$name.again" kconfig-conf -s \
		--defconfig="$tmp/$name.saved" Kconfig) >/dev/null 2>&1
	cmp -s "$tmp/$name.config" "$tmp/$name.again"
	ok $? "$name: defconfig from the saved file gives the same .config"
done

# savedefconfig without a configuration wrote the defaults as a defconfig and exited 0.
make -s -C "$TS_TOP" savedefconfig TS_EXPERIMENT="$tmp/none.config" DEFCONFIG="$tmp/none.saved" \
	>"$tmp/log" 2>&1
rc=$?
[ $rc -ne 0 ] && [ ! -e "$tmp/none.saved" ] && [ "$(wc -l <"$tmp/log")" = 1 ] &&
	grep -q "make savedefconfig: no $tmp/none.config to save (TS_EXPERIMENT=): run 'make <board>_defconfig'" \
		"$tmp/log"
ok $? "savedefconfig without the configuration: one line, exit $rc, nothing written"
sed 's/^/# /' "$tmp/log"

[ "$nd" -ge 4 ]
ok $? "the board defconfigs were found ($nd in configs/)"

# A variant that moves every derived string.
cat >"$tmp/rt_defconfig" <<'EOF'
CONFIG_TS_BOARD_QEMU_AARCH64=y
CONFIG_TS_TICK_NOHZ_FULL=y
CONFIG_TS_PREEMPT_RT=y
CONFIG_TS_SHRINKER_PATH=y
CONFIG_TS_WORKLOAD_STRESS_RAMFS=y
EOF
conf --defconfig="$tmp/rt_defconfig"
ok $? "defconfig of an RT, NO_HZ_FULL, ramfs variant"
is "$(val TS_FRAGMENTS "$tmp/.config")" \
	'"nohz-full preempt-rt tracing vmstat-path shrinker-path"' "its fragments"
is "$(val TS_VARIANT "$tmp/.config")" '"nohz-full-rt"' "its variant name"
is "$(val TS_GUEST_KERNEL "$tmp/.config")" '"rt"' "its guest kernel is the -rt one"
is "$(val TS_BOOT_ARGS "$tmp/.config")" '"nohz_full=1-7 rcu_nocbs=1-7"' "its boot arguments"
is "$(val TS_WORKLOAD "$tmp/.config")" '"stress-ramfs"' "its workload"
echo 'CONFIG_TS_VARIANT_NAME="before-f95bdb700bc6"' >>"$tmp/rt_defconfig"
echo 'CONFIG_TS_BOOT_ARGS_OVERRIDE="nohz_full=1-3"' >>"$tmp/rt_defconfig"
conf --defconfig="$tmp/rt_defconfig"
is "$(val TS_VARIANT "$tmp/.config")" '"before-f95bdb700bc6"' \
	"a variant name overrides the derived one"
is "$(val TS_BOOT_ARGS "$tmp/.config")" '"nohz_full=1-3"' "boot arguments can be overridden"

# Kconfig.derived is generated: it must match its generator, and name existing fragments.
"$kf/gen-kconfig-derived.sh" - | diff -u "$kf/Kconfig.derived" - >"$tmp/diff"
ok $? "kconfig-fragments/Kconfig.derived is up to date (run gen-kconfig-derived.sh)"
"$TS_TOP/boards/gen-kconfig-experiment.sh" - | diff -u "$TS_TOP/boards/Kconfig.experiment" - \
	>"$tmp/diff"
ok $? "boards/Kconfig.experiment is up to date (run boards/gen-kconfig-experiment.sh)"
sed 's/^/#   /' "$tmp/diff"

# The experiment menu: each known-answer defconfig names its two variants as experiment.sh
# reads them (CONFIG_TS_EXP_A/B and their parts).
exp_of() {
	make -s -C "$TS_TOP" "$1_defconfig" TS_EXPERIMENT="$tmp/e.config" >/dev/null 2>&1 || return 1
	for k in EXP_A EXP_A_BOOT_ARGS EXP_A_FRAGMENTS EXP_A_PATCHES EXP_A_NAME EXP_B EXP_B_BOOT_ARGS \
		EXP_B_FRAGMENTS EXP_B_PATCHES EXP_B_NAME; do
		v=$(val "TS_$k" "$tmp/e.config")
		[ -z "$v" ] || printf '%s=%s ' "$k" "$v"
	done
}
is "$(exp_of qemu-aarch64-nohz-off)" 'EXP_A="default" EXP_B="boot" EXP_B_BOOT_ARGS="nohz=off" ' \
	"qemu-aarch64-nohz-off: the generic image against it booted with nohz=off"
is "$(exp_of qemu-aarch64-rt)" 'EXP_A="default" EXP_B="rt" ' \
	"qemu-aarch64-rt: the generic image against the -rt one"
is "$(exp_of qemu-aarch64-debian-6.12)" 'EXP_A="default" EXP_B="debian-6.12" ' \
	"qemu-aarch64-debian-6.12: Debian 6.1 against 6.12"
a_idle='EXP_A="built" EXP_A_FRAGMENTS="nohz-idle tracing" EXP_A_NAME="nohz-idle"'
is "$(exp_of qemu-aarch64-kernel-variants)" \
	"$a_idle"' EXP_B="built" EXP_B_FRAGMENTS="hz-periodic tracing" EXP_B_NAME="hz-periodic" ' \
	"qemu-aarch64-kernel-variants: two kernels built from the tick fragments"
b_srcu=' EXP_B="patched" EXP_B_FRAGMENTS="nohz-idle tracing"'
b_srcu="$b_srcu"' EXP_B_PATCHES="boards/patches/shrinker-srcu" EXP_B_NAME="shrinker-srcu" '
is "$(exp_of qemu-aarch64-shrinker)" "$a_idle$b_srcu" \
	"qemu-aarch64-shrinker: the nohz-idle kernel against it with the shrinker patch"
make -s -C "$TS_TOP" x86-host_defconfig TS_EXPERIMENT="$tmp/x86.config" >/dev/null 2>&1 &&
	! grep -q '^CONFIG_TS_EXP' "$tmp/x86.config"
ok $? "x86-host: no experiment menu (only emulated boards boot a variant by themselves)"
missing=
nf=0
for frag in $(sed -n 's/^\tdefault "\([^"]*\)" if TS_TICK.*&& .*PATH$/\1/p' "$kf/Kconfig.derived" |
	tr ' ' '\n' | sort -u); do
	nf=$((nf + 1))
	[ -f "$kf/$frag.config" ] || missing="$missing $frag"
done
[ "$nf" -gt 0 ] || missing="(Kconfig.derived names none: the pattern no longer matches)"
is "$missing" "" "every fragment Kconfig.derived names exists ($nf)"
tap_done
