#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig on the other kernel eras (4.4, 5.10, 6.14...) that cannot ship with tickscope: for each
# tree of TS_KCONFIG_TREES="4.4=DIR 5.10=DIR", on x86_64 and arm64, the checker builds against
# it, the in-process olddefconfig equals the tree's make olddefconfig, every verdict agrees with
# the final .config (the oracle), and preempt-rt's "Preemption Model" side effect matches the
# two .configs, whether PREEMPT_RT is a member of that choice (up to 6.12) or a bool outside it
# (6.13 on), or the RT patch's PREEMPT_RT_FULL is. Then every fragment alone: its exit code is
# 1 exactly when a purpose is not met in the final .config, and the era table's notes agree
# with the tree's Kconfig files (the "# table:" lines give tree, arch, fragment, exit, seconds).
# `make check-kconfig-trees` runs it; kconfig-fragments/tree-extract.sh makes the extracts.
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
[ -n "${TS_KCONFIG_TREES:-}" ] ||
	skip_all "no other kernel trees given: TS_KCONFIG_TREES=\"4.4=DIR 6.14=DIR\"" \
		"(extracts of pristine trees, made by kconfig-fragments/tree-extract.sh)"
kf=$TS_TOP/kconfig-fragments
tap_tmpdir
tmp=$TAP_TMP
frags="nohz-idle preempt-none tracing vmstat-path"

# value FILE SYM: the .config value ("n" for "is not set" and for no line).
value() {
	v=$(sed -n "s/^CONFIG_$2=\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1/p" "$1" | tail -1)
	echo "${v:-n}"
}

# agree JSON CONFIG: every request's final value is the .config's, kept means the requested
# value and dropped another one. Sets n to the number of requests checked; fails on none.
agree() {
	jq -r '.sets[0].requests[] | select(.final != null) |
		"\(.symbol) \(.requested) \(.final) \(.verdict)"' "$1" >"$tmp/reqs"
	bad=0 n=0
	while read -r sym want final verdict; do
		n=$((n + 1))
		got=$(value "$2" "$sym")
		[ "$got" = "$final" ] || { echo "#   $sym: final $final, .config $got"; bad=1; }
		case $verdict in
		kept | check-ok) [ "$got" = "$want" ] || { echo "#   $sym: $verdict"; bad=1; } ;;
		dropped | check-failed) [ "$got" != "$want" ] || { echo "#   $sym"; bad=1; } ;;
		esac
	done <"$tmp/reqs"
	[ $bad = 0 ] && [ $n -gt 0 ]
}

# model CONFIG MEMBERS: the member of "Preemption Model" set in a .config, or "-".
model() {
	for m in $2; do
		[ "$(value "$1" "$m")" = y ] && { echo "$m"; return; }
	done
	echo -
}

# rt_check DIR OUT ARCH: preempt-rt's verdicts and its "Preemption Model" side effect. The
# oracle is the tree's own Kconfig.preempt (is PREEMPT_RT inside the choice?) and the base
# and final .configs: from 6.13 PREEMPT_NONE and PREEMPT_VOLUNTARY depend on !PREEMPT_RT, so
# a kept PREEMPT_RT moves the choice, and the side effect must say so and why.
rt_check() {
	# The RT model of the tree: PREEMPT_RT, or the RT patch's PREEMPT_RT_FULL (4.x-rt), which
	# preempt-rt asks for there; in the "Preemption Model" choice, or a bool beside it (6.13).
	rtsym=PREEMPT_RT
	! grep -q '^config PREEMPT_RT_FULL$' "$1/kernel/Kconfig.preempt" ||
		grep -q '^config PREEMPT_RT$' "$1/kernel/Kconfig.preempt" || rtsym=PREEMPT_RT_FULL
	member=$(awk -v s="$rtsym" '/^choice/ { c = 1 } /^endchoice/ { c = 0 }
		$1 == "config" && $2 == s { print (c ? "member" : "bool") }' \
		"$1/kernel/Kconfig.preempt")
	n=0 rc=0
	"$kf/kernel-config.sh" --ksrc "$1" --arch "$3" --out "$2" --reuse --json preempt-rt \
		>"$tmp/rt.json" 2>"$tmp/err" || rc=$?
	[ $rc -le 1 ] && agree "$tmp/rt.json" "$2/.config"
	rc=$? d="$rtsym: ${member:-undefined}"
	ok $rc "$ver $3: preempt-rt: $n verdicts agree with the final .config ($d)"
	# the members of the choice, as the tree's Kconfig.preempt lists them
	members=$(awk '/^choice/ { c = 1 } /^endchoice/ { c = 0 } c && $1 == "config" { print $2 }' \
		"$1/kernel/Kconfig.preempt" | tr '\n' ' ')
	was=$(model "$2/tickscope-base.config" "$members") now=$(model "$2/.config" "$members")
	rt=$(value "$2/.config" "$rtsym")
	jq -r '.sets[0].side_effects[] | select(startswith("choice \"Preemption Model\""))' \
		"$tmp/rt.json" >"$tmp/eff"
	if [ "$was" != "$now" ] && [ "$now" != "$rtsym" ]; then
		want="reset from $was to $now"
		[ "$member" != bool ] || [ "$rt" != y ] ||
			want="$want: $was depends on .*PREEMPT_RT \\[=y\\] must be off (preempt-rt.config:"
	elif [ "$member" = member ] && [ "$rt" != y ]; then
		want="the requested $rtsym (preempt-rt.config:[0-9]*) did not survive"
	else
		want=
	fi
	if [ -n "$want" ]; then
		grep -q "$want" "$tmp/eff"
	else
		[ ! -s "$tmp/eff" ]
	fi
	rc=$? d="Preemption Model $was -> $now, $rtsym=$rt"
	ok $rc "$ver $3: preempt-rt: $d: side effect ${want:-none}"
	[ -z "$want" ] || grep -q "$want" "$tmp/eff" || sed 's/^/#   got: /' "$tmp/eff"
}

# defined DIR SYM: some Kconfig file of the tree defines SYM (for any ARCH).
defined() {
	grep -rqE --include='Kconfig*' "^[[:space:]]*(menu)?config $2\$" "$1"
}

# defined_for DIR SYM ARCH: a Kconfig file outside arch/, or in ARCH's arch/ folder, defines
# SYM (ARCH_HISI of arm64's arch/arm64/Kconfig.platforms is not x86's).
defined_for() {
	da=$3
	[ "$da" = x86_64 ] && da=x86
	grep -rlE --include='Kconfig*' "^[[:space:]]*(menu)?config $2\$" "$1" |
		awk -v a="$1/arch/" -v h="$1/arch/$da/" 'index($0, a) != 1 || index($0, h) == 1 { f = 1 }
			END { exit !f }'
}

# prompted DIR SYM: some Kconfig file of the tree gives SYM a prompt (bool "...", prompt "...").
prompted() {
	grep -rh --include='Kconfig*' -A6 -E "^[[:space:]]*(menu)?config $2\$" "$1" |
		awk 'NR > 1 && /^[[:space:]]*(menu)?config / { exit }
			/^[[:space:]]*(bool|tristate|int|hex|string|prompt)[[:space:]]+"/ { f = 1 }
			END { exit !f }'
}

# purposes DIR OUT ARCH: every fragment of kconfig-fragments/ alone, each its own run, with its
# exit code and time; the exit agrees with the final .config (the oracle): 1 exactly when a
# purpose of the fragment does not have its value there or is not in this era without a
# stand-in. Every not-in-era symbol and every replaced one (asked_as) is absent from the
# Kconfig files of the tree that ARCH reads (outside arch/, and arch/ARCH), but for the RT
# patch's rows (PREEMPT on 4.x-rt: there, without a prompt), every stand-in present; no "unknown" but an ARCH matter (defined in
# another ARCH's files). Prints the table: tree arch fragment exit seconds verdicts.
purposes() {
	for f in "$kf"/*.config; do
		f=${f##*/} f=${f%.config}
		t0=$(date +%s.%N) rc=0
		"$kf/kernel-config.sh" --ksrc "$1" --arch "$3" --out "$2" --reuse --json "$f" \
			>"$tmp/p.json" 2>"$tmp/p.err" || rc=$?
		secs=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
		if [ $rc -gt 1 ]; then
			ok 1 "$ver $3: $f: exit $rc"
			sed 's/^/#   /' "$tmp/p.err" | tail -3
			continue
		fi
		jq -r '.sets[0].requests[] | select(.purpose) |
			[.symbol, .requested, .verdict, (.failed | tostring)] | @tsv' "$tmp/p.json" |
		while IFS='	' read -r sym want verdict failed; do
			if [ "$verdict" = not-in-era ]; then
				echo "$failed" | sed 's/true/unmet/; s/false/met/'
			elif [ "$(value "$2/.config" "$sym")" = "$want" ]; then
				echo met
			else
				echo unmet
			fi
		done >"$tmp/met"
		want=0
		grep -q unmet "$tmp/met" && want=1
		verdicts=$(jq -r '[.sets[0].requests[] | select(.purpose) | .verdict] | group_by(.) |
			map("\(length) \(.[0])") | join(", ")' "$tmp/p.json")
		is "$rc" "$want" "$ver $3: $f: exit $rc agrees with the .config ($verdicts; ${secs} s)"
		echo "# table: $ver	$3	$f	$rc	$secs	$verdicts"
		bad=
		for sym in $(jq -r '.sets[0].requests[] | select(.verdict == "not-in-era") | .symbol,
			(.asked_as // empty)' "$tmp/p.json" | sort -u) \
			$(jq -r '.sets[0].requests[] | select(.asked_as != null and
				((.era // "") | contains("has no prompt on this RT-patched tree") | not)) |
				.asked_as' "$tmp/p.json"); do
			! defined_for "$1" "$sym" "$3" || bad="$bad $sym(defined)"
		done
		# the RT patch's rows: the symbol asked is there, but without a prompt
		for sym in $(jq -r '.sets[0].requests[] | select((.era // "") |
			contains("has no prompt on this RT-patched tree")) | .asked_as' "$tmp/p.json"); do
			! prompted "$1" "$sym" || bad="$bad $sym(has a prompt)"
		done
		for sym in $(jq -r '.sets[0].requests[] | select(.asked_as != null) | .symbol' \
			"$tmp/p.json"); do
			defined "$1" "$sym" || bad="$bad $sym(stand-in missing)"
		done
		bad="$bad$(jq -r '.sets[0].requests[] | select(.verdict == "unknown" and
			((.reason // "") | contains("defined only in") | not)) |
			" " + .symbol + "(bare unknown)"' "$tmp/p.json" | tr -d '\n')"
		is "$bad" "" "$ver $3: $f: era notes and stand-ins agree with the tree's Kconfig files"
	done
}

for spec in $TS_KCONFIG_TREES; do
	ver=${spec%%=*} dir=${spec#*=}
	if [ ! -f "$dir/Makefile" ]; then
		skip "$ver: the tree" "$dir is not a kernel tree"
		continue
	fi
	for arch in x86_64 arm64; do
		# an extract may hold one architecture's files only (5.15.85's holds x86's)
		src=$arch
		[ "$arch" = x86_64 ] && src=x86
		if [ ! -f "$dir/arch/$src/Makefile" ]; then
			skip "$ver $arch: the tree" \
				"$dir has no arch/$src/Makefile (an extract of other architectures)"
			continue
		fi
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
		"$kf/kernel-config.sh" --ksrc "$dir" --arch "$arch" --out "$o" --reuse --each \
			"$(echo $frags | tr ' ' '+')" >/dev/null 2>&1
		cmp -s "$o/.config" "$o/sets/$(echo $frags | tr ' ' '+').config"
		ok $? "$ver $arch: in-process olddefconfig = the tree's make olddefconfig"
		agree "$tmp/r.json" "$o/.config"
		ok $? "$ver $arch: $n verdicts agree with the final .config"
		jq -e '.sets[0].requests[] | select(.symbol == "PREEMPT_DYNAMIC") |
			.verdict != "unknown" and (.verdict != "not-in-era" or (.failed | not))' \
			"$tmp/r.json" >/dev/null
		ok $? "$ver $arch: PREEMPT_DYNAMIC, before 5.12, is not-in-era (not needed), no failure"
		rt_check "$dir" "$o-rt" "$arch"
		purposes "$dir" "$o-p" "$arch"
	done
done
tap_done
