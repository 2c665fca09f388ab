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
is "$(val TS_EVENTS "$tmp/.config")" \
	'"sched:*,timer:*,rcu:*,power:cpu_idle,workqueue:*,vmscan:mm_shrink_slab_*"' \
	"alldefconfig: the event list of design.md"
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
