#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig on the other kernel eras (4.4, 5.10...) that cannot ship with tickscope: for each tree
# of TS_KCONFIG_TREES="4.4=DIR 5.10=DIR", on x86_64 and arm64, the checker builds against it,
# the in-process olddefconfig equals the tree's make olddefconfig, and every verdict agrees
# with the final .config (the oracle). `make check-kconfig-trees` runs it.
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
[ -n "${TS_KCONFIG_TREES:-}" ] ||
	skip_all "no old kernel trees given: TS_KCONFIG_TREES=\"4.4=DIR 5.10=DIR\" (pristine trees)"
kf=$TS_TOP/kconfig-fragments
tap_tmpdir
tmp=$TAP_TMP
frags="nohz-idle preempt-none tracing vmstat-path"

# value FILE SYM: the .config value ("n" for "is not set" and for no line).
value() {
	v=$(sed -n "s/^CONFIG_$2=\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1/p" "$1" | tail -1)
	echo "${v:-n}"
}

for spec in $TS_KCONFIG_TREES; do
	ver=${spec%%=*} dir=${spec#*=}
	if [ ! -f "$dir/Makefile" ]; then
		skip "$ver: the tree" "$dir is not a kernel tree"
		continue
	fi
	for arch in x86_64 arm64; do
		o=$TS_TOP/.cache/kconfig-test/tree-$ver-$arch
		rc=0
		"$kf/kernel-config.sh" --ksrc "$dir" --arch "$arch" --out "$o" --reuse --json \
			$frags >"$tmp/r.json" 2>"$tmp/err" || rc=$?
		[ $rc -le 1 ]
		ok $? "$ver $arch: make kernel-config runs (exit $rc), checker built against the tree"
		[ $rc -le 1 ] || { sed 's/^/#   /' "$tmp/err" | tail -5; continue; }
		kver=$(jq -r .kernelversion "$tmp/r.json")
		case "$kver" in
		"$ver".*) ok 0 "$ver $arch: the tree is Linux $kver" ;;
		*) ok 1 "$ver $arch: the tree is Linux $kver, not $ver" ;;
		esac
		"$kf/kernel-config.sh" --ksrc "$dir" --arch "$arch" --out "$o" --reuse --fast --each \
			"$(echo $frags | tr ' ' '+')" >/dev/null 2>&1
		cmp -s "$o/.config" "$o/sets/$(echo $frags | tr ' ' '+').config"
		ok $? "$ver $arch: in-process olddefconfig = the tree's make olddefconfig"
		# Every request's final value is the .config's, and kept means the requested value.
		jq -r '.sets[0].requests[] | select(.final != null) |
			"\(.symbol) \(.requested) \(.final) \(.verdict)"' "$tmp/r.json" >"$tmp/reqs"
		bad=0 n=0
		while read -r sym want final verdict; do
			n=$((n + 1))
			got=$(value "$o/.config" "$sym")
			[ "$got" = "$final" ] || { echo "#   $sym: final $final, .config $got"; bad=1; }
			case $verdict in
			kept | check-ok) [ "$got" = "$want" ] || { echo "#   $sym: $verdict"; bad=1; } ;;
			dropped | check-failed) [ "$got" != "$want" ] || { echo "#   $sym"; bad=1; } ;;
			esac
		done <"$tmp/reqs"
		[ $n -gt 0 ]
		ok $((bad + $?)) "$ver $arch: $n verdicts agree with the final .config"
		jq -e '.sets[0].requests[] | select(.symbol == "PREEMPT_DYNAMIC") |
			(.verdict != "unknown") or .expected' "$tmp/r.json" >/dev/null
		ok $? "$ver $arch: PREEMPT_DYNAMIC, unknown before 5.12, is an expected miss there"
	done
done
tap_done
